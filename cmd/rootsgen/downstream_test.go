package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/testdata/gotest/downstream"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// The tests in this file take the path a user takes: a fresh module
// example.com/app, one go:generate line from README.md, the go command.
// They need the go command and the module proxy (or a module cache that
// already holds what they fetch); -short skips them.

// The go:generate lines of a single-revision package, for 2025-06-18: the
// go tool line is README.md's; the go run form works without the tool
// line, and is tested as such.
const (
	goRunLine  = "//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -revision 2025-06-18 -out ./mcproots"
	goToolLine = "//go:generate go tool rootsgen -revision 2025-06-18 -out ./mcproots"
	getTool    = "go get -tool github.com/rootsgen/rootsgen/cmd/rootsgen"
	// checkLine is the CI recipe for a single-revision package.
	checkLine = "go tool rootsgen -revision 2025-06-18 -out ./mcproots -check"
)

// What the test programs in testdata/downstream print.
const (
	want2025 = `root file:///home/me/repo "repo"
invalid: ListRootsResult: roots[1].uri: scheme "https" is not allowed here (want file)
{"jsonrpc":"2.0","id":0,"result":{"roots":[{"name":"repo","uri":"file:///home/me/repo"},{"uri":"file:///home/me/notes"}]}}
server: 2 roots, <nil>
{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{}}
server: the client's roots changed
notified: true <nil>
`
	want2026 = `others: []
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},"inputResponses":{"roots":{"roots":[{"name":"repo","uri":"file:///home/me/repo"},{"uri":"file:///home/me/notes"}]}},"requestState":"s1"}}
root file:///home/me/repo "repo"
root file:///home/me/notes ""
`
)

// deprecatedUses are the 2026-07-28 roots symbols each file of the test
// program uses, which staticcheck must flag (SA1019).
var deprecatedUses = map[string][]string{
	"handler.go": {"ListRootsHandlerFunc", "ListRootsRequestParams", "ListRootsResult", "Root"},
	"main.go":    {"Client", "RequireRoots", "RootsCapability", "RootsFromInputResponses"},
}

// goneIn2026 are the 2025-06-18 declarations the 2025 program uses that
// 2026-07-28 no longer has; the compiler must name each after the upgrade.
var goneIn2026 = []string{
	"Client.HandleRequest", "Client.NotifyListChanged", "ListChangedHandlerFunc",
	"MethodRootsListChanged", "RootsCapability.ListChanged", "RootsListChangedNotificationParams",
	"SendFunc", "Server",
}

// newApp makes the downstream module with the test program's handler.
func newApp(t *testing.T) *downstream.Module {
	t.Helper()
	if testing.Short() {
		t.Skip("builds downstream modules with the go command")
	}
	m := downstream.New(t)
	m.Write("handler.go", readTestdata(t, "handler.go"))
	return m
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "downstream", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// genFile is the user's gen.go: without its package clause, go generate
// would pass over the file and exit 0 having done nothing.
const genFile = "package main\n\n" + goToolLine + "\n"

// readmeHas fails the test unless README.md has the line, so that what the
// tests run is what the README tells users to run.
func readmeHas(t *testing.T, line string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(prereq.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.Lines(string(b)) {
		if strings.TrimSpace(l) == line {
			return
		}
	}
	t.Errorf("README.md has no line %q", line)
}

// untouched fails the test if files appear in the checkout, or its go.mod
// or go.sum change, while the test runs: everything a downstream test
// writes stays in temp dirs. (Edits to other tracked files are someone
// working in the checkout, not the go command.)
func untouched(t *testing.T) {
	t.Helper()
	root := prereq.RepoRoot(t)
	status := func() string {
		out, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=all").Output()
		if err != nil {
			return "git status: " + err.Error()
		}
		var watched []string
		for l := range strings.Lines(string(out)) {
			if strings.HasPrefix(l, "??") || strings.HasSuffix(l, " go.mod\n") || strings.HasSuffix(l, " go.sum\n") {
				watched = append(watched, l)
			}
		}
		return strings.Join(watched, "")
	}
	before := status()
	t.Cleanup(func() {
		if after := status(); after != before {
			t.Errorf("the checkout changed during the test:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	})
}

// runtimeDeps are the packages of rootsgen's module a program built on a
// generated package needs: the runtime, which the package imports, and
// the part of it for generated code (with -runtime copy, none).
var runtimeDeps = []string{"github.com/rootsgen/rootsgen/rootsrt/rtimpl", "github.com/rootsgen/rootsgen/rootsrt"}

// buildAndRun vendors the module's requirements, builds, vets and runs it
// from vendor/, and checks what it prints.
func buildAndRun(t *testing.T, m *downstream.Module, want string) {
	buildAndRunWith(t, m, want, runtimeDeps)
}

// buildAndRunWith is buildAndRun for a program whose dependencies outside
// the standard library and itself are deps.
func buildAndRunWith(t *testing.T, m *downstream.Module, want string, deps []string) {
	t.Helper()
	m.MustGo("mod", "tidy")
	m.MustGo("mod", "vendor")
	m.MustGo("build", "-mod=vendor", "./...")
	m.MustGo("vet", "-mod=vendor", "./...")
	got, err := m.Go("run", "-mod=vendor", ".")
	if err != nil {
		t.Fatalf("go run .: %v\n%s", err, got)
	}
	if got != want {
		t.Errorf("the program printed\n%s\nwant\n%s", got, want)
	}
	// The program is built from the standard library, the runtime (deps)
	// and itself only, whatever else vendor/ holds.
	listed := strings.Fields(m.MustGo("list", "-mod=vendor", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "."))
	if want := append(slices.Clone(deps), downstream.AppPath+"/mcproots", downstream.AppPath); !slices.Equal(listed, want) {
		t.Errorf("the program's non-standard dependencies are %v, want %v", listed, want)
	}
}

// staticcheckFlags runs staticcheck on the module and checks that SA1019
// names each deprecated roots symbol the 2026 program uses, and nothing else.
func staticcheckFlags(t *testing.T, m *downstream.Module) {
	t.Helper()
	out, err := m.Staticcheck("./...")
	if code := downstream.ExitCode(err); code != 1 {
		t.Fatalf("staticcheck exited %d (%v), want 1 for its reports:\n%s", code, err, out)
	}
	report := regexp.MustCompile(`^(\w+\.go):\d+:\d+: example\.com/app/mcproots\.(\w+) is deprecated: MCP 2026-07-28 deprecates roots \(SEP-2577\); .* \(SA1019\)$`)
	got := map[string][]string{}
	for l := range strings.Lines(strings.TrimSpace(out)) {
		l = strings.TrimSpace(l)
		if l == "exit status 1" { // go run's own line
			continue
		}
		r := report.FindStringSubmatch(l)
		if r == nil {
			t.Errorf("staticcheck reported something else: %s", l)
			continue
		}
		if !slices.Contains(got[r[1]], r[2]) {
			got[r[1]] = append(got[r[1]], r[2])
		}
	}
	for file, want := range deprecatedUses {
		slices.Sort(got[file])
		if !slices.Equal(got[file], want) {
			t.Errorf("SA1019 in %s names %v, want %v", file, got[file], want)
		}
	}
	if len(got) != len(deprecatedUses) {
		t.Errorf("SA1019 reports files %v, want only those in %v", slices.Sorted(maps.Keys(got)), deprecatedUses)
	}
}

// TestDownstreamGoRun generates a package with the go run line of the
// go run form in a fresh module, for a 2025 revision and for 2026-07-28,
// importing the runtime and with -runtime copy, and runs a program that
// speaks the revision's wire frames through it.
func TestDownstreamGoRun(t *testing.T) {
	for _, tc := range []struct {
		rev, main, want string
		copy            bool
	}{
		{"2025-06-18", "main2025.go", want2025, false},
		{"2026-07-28", "main2026.go", want2026, false},
		{"2025-06-18", "main2025.go", want2025, true},
		{"2026-07-28", "main2026.go", want2026, true},
	} {
		name := tc.rev
		if tc.copy {
			name += "/runtime copy"
		}
		t.Run(name, func(t *testing.T) {
			untouched(t)
			m := newApp(t)
			line := strings.Replace(goRunLine, "2025-06-18", tc.rev, 1)
			if tc.copy {
				line += " -runtime copy"
			}
			m.Write("gen.go", "package main\n\n"+line+"\n")
			m.Write("main.go", readTestdata(t, tc.main))
			m.MustGo("generate", "./...")
			if doc := m.Read("mcproots/doc.go"); !strings.Contains(doc, "revision "+tc.rev) || !strings.Contains(doc, "\npackage mcproots\n") {
				t.Errorf("mcproots/doc.go is not package mcproots for %s:\n%s", tc.rev, doc)
			}
			var gomod, mods string
			if !tc.copy {
				// The package imports the runtime: go mod tidy keeps the
				// requirement of rootsgen, and vendor/ copies its runtime
				// alone, not the generator.
				buildAndRun(t, m, tc.want)
				gomod, mods = m.Read("go.mod"), m.Read("vendor/modules.txt")
				if !strings.Contains(gomod, "require github.com/rootsgen/rootsgen ") {
					t.Errorf("go.mod does not require rootsgen, whose runtime the package imports:\n%s", gomod)
				}
				if !strings.Contains(mods, "\ngithub.com/rootsgen/rootsgen/rootsrt\n") || strings.Contains(mods, "/generator\n") || strings.Count(mods, "## explicit") != 1 {
					t.Errorf("go mod vendor copied more than the runtime:\n%s", mods)
				}
			} else {
				// The package needs no module: go mod tidy drops the
				// requirement of rootsgen, which only go generate used.
				buildAndRunWith(t, m, tc.want, nil)
				if gomod = m.Read("go.mod"); strings.Contains(gomod, "require") {
					t.Errorf("go.mod still requires modules after go mod tidy:\n%s", gomod)
				}
				if mods = m.Read("vendor/modules.txt"); strings.Contains(mods, "## explicit") {
					t.Errorf("go mod vendor copied modules:\n%s", mods)
				}
			}
			if tc.rev == "2026-07-28" {
				staticcheckFlags(t, m)
			}
		})
	}
}

// TestDownstreamTool pins the generator with go get -tool, generates with
// the go tool line of the README, checks staleness with -check as CI
// would, and then upgrades the package from 2025-06-18 to 2026-07-28.
func TestDownstreamTool(t *testing.T) {
	readmeHas(t, goToolLine)
	readmeHas(t, getTool+"@latest")
	untouched(t)
	m := newApp(t)

	// rootsgen is not published: go.mod requires it at a version that
	// the replace directive maps to this checkout, so the test runs
	// go get -tool without @latest.
	m.MustGo(strings.Fields(getTool)[1:]...)
	if !strings.Contains(m.Read("go.mod"), "\ntool github.com/rootsgen/rootsgen/cmd/rootsgen\n") {
		t.Fatalf("go get -tool wrote no tool directive:\n%s", m.Read("go.mod"))
	}
	// README's minimum Go for the module that pins the generator.
	if !strings.Contains(m.Read("go.mod"), "\ngo 1.25.0\n") {
		t.Errorf("go get -tool moved the go line of a go 1.25.0 module:\n%s", m.Read("go.mod"))
	}
	m.Write("gen.go", genFile)
	m.Write("main.go", readTestdata(t, "main2025.go"))
	m.MustGo("generate", "./...")

	// go tool and go run write the same package.
	m.MustGo("run", "github.com/rootsgen/rootsgen/cmd/rootsgen", "-revision", "2025-06-18", "-out", "viarun/mcproots")
	viaTool, viaRun := snapshot(t, filepath.Join(m.Dir, "mcproots")), snapshot(t, filepath.Join(m.Dir, "viarun", "mcproots"))
	if want := packageFiles(t); len(viaTool) != want || len(viaRun) != len(viaTool) {
		t.Errorf("go tool wrote %d files, go run %d; want %d each", len(viaTool), len(viaRun), want)
	}
	for p, content := range viaTool {
		if other := viaRun[strings.Replace(p, m.Dir, filepath.Join(m.Dir, "viarun"), 1)]; other != content {
			t.Errorf("%s differs between go tool and go run", filepath.Base(p))
		}
	}
	if err := os.RemoveAll(filepath.Join(m.Dir, "viarun")); err != nil {
		t.Fatal(err)
	}

	// go mod tidy keeps the tool, so go generate keeps working; vendor/
	// holds the generator and its modules, and the program none of them.
	buildAndRun(t, m, want2025)
	if !strings.Contains(m.Read("go.mod"), "\ntool github.com/rootsgen/rootsgen/cmd/rootsgen\n") {
		t.Errorf("go mod tidy dropped the tool directive:\n%s", m.Read("go.mod"))
	}
	if !strings.Contains(m.Read("vendor/modules.txt"), "\ngithub.com/rootsgen/rootsgen/cmd/rootsgen\n") {
		t.Errorf("vendor/ lacks the generator:\n%s", m.Read("vendor/modules.txt"))
	}
	m.MustGo("generate", "./...")

	t.Run("check", func(t *testing.T) { checkStaleness(t, m) })
	t.Run("upgrade", func(t *testing.T) { upgrade(t, m) })
}

// rootsgenCheck runs the CI recipe with the revision given.
func rootsgenCheck(t *testing.T, m *downstream.Module, rev string) (int, string) {
	t.Helper()
	args := strings.Fields(strings.Replace(checkLine, "2025-06-18", rev, 1))
	out, err := m.Go(args[1:]...)
	return downstream.ExitCode(err), out
}

// checkStaleness: the CI recipe passes on fresh files, and fails with a
// short summary after an edit or a change of revision.
func checkStaleness(t *testing.T, m *downstream.Module) {
	if code, out := rootsgenCheck(t, m, "2025-06-18"); code != 0 || out != "" {
		t.Errorf("-check on fresh files: exit %d, output %q", code, out)
	}
	roots := m.Read("mcproots/roots.go")
	m.Write("mcproots/roots.go", strings.Replace(roots, "// Client is", "// Client, edited, is", 1))
	code, out := rootsgenCheck(t, m, "2025-06-18")
	want := "rootsgen: ./mcproots is stale for revision 2025-06-18 (1 file(s) differ); regenerate with go generate:\n  update roots.go ("
	if code != 1 || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 2 {
		t.Errorf("-check after an edit: exit %d, output\n%s\nwant exit 1 and two lines starting\n%s", code, out, want)
	}
	m.MustGo("generate", "./...")
	if got := m.Read("mcproots/roots.go"); got != roots {
		t.Error("go generate did not restore the edited file")
	}
	code, out = rootsgenCheck(t, m, "2026-07-28")
	// Every file differs (the two have the same files).
	if want := fmt.Sprintf("rootsgen: ./mcproots is stale for revision 2026-07-28 (%d file(s) differ)", packageFiles(t, "2025-06-18", "2026-07-28")); code != 1 || !strings.HasPrefix(out, want) {
		t.Errorf("-check for another revision: exit %d, output\n%s", code, out)
	}
	if got := m.Read("mcproots/roots.go"); got != roots {
		t.Error("-check changed a file")
	}
}

// upgrade moves the module from 2025-06-18 to 2026-07-28 the way the
// package documentation says (regenerate for the new revision), and checks
// what the user sees.
func upgrade(t *testing.T, m *downstream.Module) {
	m.Write("gen.go", "package main\n\n"+strings.Replace(goToolLine, "2025-06-18", "2026-07-28", 1)+"\n")
	m.MustGo("generate", "./...")

	// The 2025 program no longer compiles; the errors name each
	// declaration 2026-07-28 dropped, and none is in the handler.
	out, err := m.Go("build", "-mod=vendor", "-gcflags=-e", "./...")
	if err == nil {
		t.Fatal("the 2025 program compiled against the 2026-07-28 package")
	}
	for _, name := range goneIn2026 {
		typ, member, isMember := strings.Cut(name, ".")
		var re string
		switch {
		case !isMember:
			re = `undefined: mcproots\.` + typ + `\b`
		case member == "ListChanged":
			re = `unknown field ListChanged in struct literal of type mcproots\.` + typ
		default:
			re = `\w+\.` + member + ` undefined \(type \*mcproots\.` + typ + ` has no field or method ` + member + `\)`
		}
		if !regexp.MustCompile(`(?m)^\./main\.go:\d+:\d+: ` + re).MatchString(out) {
			t.Errorf("no compile error names %s:\n%s", name, out)
		}
	}
	if strings.Contains(out, "handler.go") {
		t.Errorf("the 2025 handler does not compile against 2026-07-28:\n%s", out)
	}
	// The names are what go doc shows in one committed package and not
	// in the other.
	old := exported(t, filepath.Join(prereq.RepoRoot(t), "generated", "roots20250618"))
	cur := exported(t, filepath.Join(prereq.RepoRoot(t), "generated", "roots20260728"))
	for _, name := range goneIn2026 {
		if !old[name] || cur[name] {
			t.Errorf("%s: in roots20250618 %t, in roots20260728 %t; want only the former", name, old[name], cur[name])
		}
	}

	// The same handler answers through the 2026 shim.
	m.Write("main.go", readTestdata(t, "main2026.go"))
	buildAndRun(t, m, want2026)
	staticcheckFlags(t, m)
}

// exported lists the exported declarations of the package in dir as go
// doc shows them: Name, Type.Method and Type.Field.
func exported(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range paths {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		if len(files) > 0 && f.Name.Name != files[0].Name.Name {
			t.Fatalf("%s: package %s, but %s is package %s", dir, f.Name.Name, fset.File(files[0].Pos()).Name(), files[0].Name.Name)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("%s: no Go files", dir)
	}
	p, err := doc.NewFromFiles(fset, files, "example.com/x")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				names[n] = true
			}
		}
	}
	values(p.Consts)
	values(p.Vars)
	for _, f := range p.Funcs {
		names[f.Name] = true
	}
	for _, typ := range p.Types {
		names[typ.Name] = true
		values(typ.Consts)
		values(typ.Vars)
		for _, f := range typ.Funcs {
			names[f.Name] = true
		}
		for _, f := range typ.Methods {
			names[typ.Name+"."+f.Name] = true
		}
		if st, ok := typ.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType); ok {
			for _, fl := range st.Fields.List {
				for _, n := range fl.Names {
					names[typ.Name+"."+n.Name] = true
				}
			}
		}
	}
	return names
}

// packageFiles is the number of files in a generated package: that of the
// committed package of each revision given (2025-06-18 when none), which
// the freshness test keeps exact; with several revisions, of the files
// any of them has.
func packageFiles(t *testing.T, revisions ...string) int {
	t.Helper()
	if len(revisions) == 0 {
		revisions = []string{"2025-06-18"}
	}
	names := map[string]bool{}
	for _, rev := range revisions {
		files, err := filepath.Glob(filepath.Join("..", "..", "generated", "roots"+strings.ReplaceAll(rev, "-", ""), "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("cannot list the committed %s package: %v", rev, err)
		}
		for _, f := range files {
			names[filepath.Base(f)] = true
		}
	}
	return len(names)
}
