package release

import (
	"bytes"
	"errors"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/modproxy"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// kitLineBudget bounds the non-test Go lines of the go-sdk kit of every
// embedded revision, which imports the runtime: at most 2,000, and this is
// where the kit stands, so that it only shrinks, or grows for a reason
// that the commit changing it gives ('git log -L' on this line lists them
// all).
const kitLineBudget = 1986

// kitCodeGoal bounds the same kit's lines of code: the lines that hold a
// Go token, not blank and not only comment, as line counters such as cloc
// count code. The kit's doc comments are its API reference.
const kitCodeGoal = 2000

// codeLines counts the lines of src that hold a Go token.
func codeLines(src []byte) int {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	code := map[int]bool{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return len(code)
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at the end of a line
		}
		for l := file.Line(pos); l <= file.Line(pos)+strings.Count(lit, "\n"); l++ {
			code[l] = true
		}
	}
}

// TestKitFromProxy takes the README's path for a go-sdk server: a fresh
// module at go 1.25.0 requiring go-sdk v1.8.0, rootsgen pinned with the
// README's go get -tool line, the README's go:generate line, and the
// README's quick start as main.go. The kit serves every embedded revision,
// builds and vets; -check passes, and fails once any file of the tree is
// edited; no two of its files are the same but for their generated-code
// header and package clause.
func TestKitFromProxy(t *testing.T) {
	readme := readREADME(t)
	getTool := readmeLine(t, readme, "go get -tool ")
	genLine := readmeLine(t, readme, "//go:generate go tool rootsgen -sdk go-sdk ")
	checkLine := readmeLine(t, readme, "go tool rootsgen -sdk go-sdk ")
	p := publish(t)
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/app\n\ngo 1.25.0\n")
	goIn(t, p, dir, "get", "github.com/modelcontextprotocol/go-sdk@v1.8.0")
	goIn(t, p, dir, strings.Fields(getTool)[1:]...) // @latest: the proxy's one version
	write("gen.go", "package main\n\n"+genLine+"\n")
	example, err := os.ReadFile(filepath.Join(prereq.RepoRoot(t), "cmd", "internal", "peers", "examples", "gosdk-server", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	main := strings.ReplaceAll(string(example), `"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"`, `"example.com/app/mcproots"`)
	write("main.go", strings.ReplaceAll(main, "gosdkroots.", "mcproots."))
	goIn(t, p, dir, "generate", "./...")
	goIn(t, p, dir, "mod", "tidy")
	goIn(t, p, dir, "build", "./...")
	goIn(t, p, dir, "vet", "./...")

	kit := filepath.Join(dir, "mcproots")
	revisions := 0
	lines, code, files := 0, 0, map[string]string{}
	err = filepath.WalkDir(kit, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines += bytes.Count(b, []byte("\n"))
		code += codeLines(b)
		// The header names each file's schema, so it is left out too.
		body := packageClause.ReplaceAllString(generatedHeader.ReplaceAllString(string(b), ""), "package _")
		for other, o := range files {
			if o == body {
				t.Errorf("%s and %s differ only in their header and package clause", other, path)
			}
		}
		files[path] = body
		if strings.HasSuffix(path, "doc.go") && strings.Contains(filepath.Base(filepath.Dir(path)), "roots20") {
			revisions++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the kit: %d files, %d lines of non-test Go (%d of code), %d revision packages", len(files), lines, code, revisions)
	if revisions != 5 {
		t.Errorf("the kit has %d revision packages, want the 5 embedded", revisions)
	}
	if lines > kitLineBudget {
		t.Errorf("the kit has %d lines of non-test Go, over the budget of %d", lines, kitLineBudget)
	}
	if code > kitCodeGoal {
		t.Errorf("the kit has %d lines of code, over the goal of %d", code, kitCodeGoal)
	}

	check := strings.Fields(checkLine)
	if out, code := goCode(p, dir, check[1:]...); code != 0 {
		t.Errorf("-check of the fresh kit: exit %d\n%s", code, out)
	}
	edited := filepath.Join(kit, "roots20250618", "types.go")
	before, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, append(before, "// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := goCode(p, dir, check[1:]...); code != 1 || !strings.Contains(out, "roots20250618/types.go") {
		t.Errorf("-check after an edit: exit %d, want 1 naming the file\n%s", code, out)
	}

	// The kit imports the runtime of the rootsgen version go.mod pins (its
	// two packages), and nothing else of its module; -runtime copy writes
	// a kit that imports nothing of it.
	deps := func(pkg string) []string {
		out, code := goCode(p, dir, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg)
		if code != 0 {
			t.Fatalf("go list -deps %s: %s", pkg, out)
		}
		var ours []string
		for _, d := range strings.Fields(out) {
			if strings.HasPrefix(d, "github.com/rootsgen/rootsgen") {
				ours = append(ours, d)
			}
		}
		return ours
	}
	if got := deps("./mcproots"); strings.Join(got, " ") != "github.com/rootsgen/rootsgen/rootsrt/rtimpl github.com/rootsgen/rootsgen/rootsrt" {
		t.Errorf("the kit imports %v of rootsgen's module, want its runtime alone, rootsrt and rtimpl", got)
	}
	copyLine := strings.Fields(strings.Replace(genLine, "-out ./mcproots", "-out ./copied -runtime copy", 1))
	goIn(t, p, dir, copyLine[2:]...)
	goIn(t, p, dir, "build", "./copied")
	if got := deps("./copied"); len(got) != 0 {
		t.Errorf("the kit written with -runtime copy imports %v of rootsgen's module, want nothing", got)
	}
}

var (
	packageClause   = regexp.MustCompile(`(?m)^package \w+$`)
	generatedHeader = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)
)

// goCode runs the go command in dir and returns its combined output and
// exit code.
func goCode(p *modproxy.Proxy, dir string, args ...string) (string, int) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = p.Env
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		return err.Error(), -1
	}
	return string(out), 0
}

func readREADME(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(prereq.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readmeLine returns the line of README.md that starts with prefix; the
// test fails unless there is exactly one.
func readmeLine(t *testing.T, readme, prefix string) string {
	t.Helper()
	var found []string
	for l := range strings.Lines(readme) {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, prefix) {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("README.md has %d lines starting %q, want 1: %q", len(found), prefix, found)
	}
	return found[0]
}
