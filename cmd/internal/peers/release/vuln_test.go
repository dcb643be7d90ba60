package release

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/modproxy"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// The made-up vulnerability TestVulnRuntime puts in a database of its own:
// the runtime's ReadFile, in every rootsgen below vulnFixed.
const (
	vulnID = "ROOTSGEN-TEST-0001"
	// vulnBelow and vulnFixed are the two versions the checkout is
	// published as; the entry says vulnFixed fixed it.
	vulnBelow = "v0.9.8"
	vulnFixed = "v0.9.9"
	// runtimePkg is the package the entry names, and vulnSymbol the
	// symbol in it, as govulncheck names a method: the receiver's type
	// without its pointer, a dot, the method. An entry naming
	// RootSet.ReadFile or RootSetOf.ReadFile, the types users see, would
	// match no call: both embed *rootSet, which declares the file methods,
	// and set.ReadFile calls the embedded type's method.
	runtimePkg = modproxy.ModulePath + "/rootsrt"
	vulnSymbol = "rootSet.ReadFile"
)

// TestVulnRuntime: generated code imports the runtime rather than copying
// it, so govulncheck sees the runtime as the module version a user's go.mod
// requires. With a local database whose one entry is against the runtime's
// rootSet.ReadFile below vulnFixed, govulncheck -mode source, on a
// program built on a kit generated with -sdk none, reports the entry as
// called, with a trace from the program's main to ReadFile, while the
// runtime is pinned at vulnBelow; reports the entry only as imported for
// a program on the same kit that does not call ReadFile (the match is by
// symbol, not by module); and reports nothing once go get moves the pin to
// vulnFixed, although it sees the runtime at that version.
func TestVulnRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rootsgen from a module proxy and runs govulncheck")
	}
	root := prereq.RepoRoot(t)
	govulncheck := buildGovulncheck(t)
	published := t.TempDir()
	modproxy.Publish(t, root, published, vulnBelow)
	p := modproxy.Publish(t, root, published, vulnFixed)
	db := writeVulnDB(t, t.TempDir(), strings.TrimPrefix(vulnFixed, "v"))

	app := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(app, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/app\n\ngo 1.25.0\n")
	write("reads/main.go", userProgram("set.ReadFile(name)"))
	write("noread/main.go", userProgram("[]byte(fmt.Sprint(set.Contains(name))), nil"))
	goIn(t, p, app, "get", "-tool", modproxy.ModulePath+"/cmd/rootsgen@"+vulnBelow)
	goIn(t, p, app, "tool", "rootsgen", "-sdk", "none", "-out", "./mcproots")
	goIn(t, p, app, "mod", "tidy")
	goIn(t, p, app, "build", "./...")

	t.Run("pinned below the fix, called", func(t *testing.T) {
		s := runGovulncheck(t, govulncheck, p, app, db, "./reads")
		s.sawRuntime(t, vulnBelow)
		called := s.called()
		if len(called) == 0 {
			t.Fatalf("no finding of %s as called; findings: %s", vulnID, s.findings)
		}
		for _, f := range called {
			top, entry := f.Trace[0], f.Trace[len(f.Trace)-1]
			if top.Module != modproxy.ModulePath || top.Version != vulnBelow || top.Package != runtimePkg ||
				top.Function != "ReadFile" || top.Receiver != "*rootSet" {
				t.Errorf("the trace starts at %+v, want (*rootSet).ReadFile in %s of %s %s", top, runtimePkg, modproxy.ModulePath, vulnBelow)
			}
			if entry.Package != "example.com/app/reads" || entry.Function != "main" {
				t.Errorf("the trace ends at %+v, want the main of example.com/app/reads", entry)
			}
			if f.FixedVersion != vulnFixed {
				t.Errorf("the finding says fixed in %q, want %s", f.FixedVersion, vulnFixed)
			}
		}
	})

	t.Run("pinned below the fix, imported and not called", func(t *testing.T) {
		s := runGovulncheck(t, govulncheck, p, app, db, "./noread")
		s.sawRuntime(t, vulnBelow)
		if called := s.called(); len(called) != 0 {
			t.Errorf("a program that does not call ReadFile has findings of %s as called: %s", vulnID, s.findings)
		}
		imported := false
		for _, f := range s.findings {
			imported = imported || f.OSV == vulnID && f.Trace[0].Package == runtimePkg
		}
		if !imported {
			t.Errorf("no finding of %s as imported: the database was not matched against the runtime; findings: %s", vulnID, s.findings)
		}
	})

	goIn(t, p, app, "get", modproxy.ModulePath+"@"+vulnFixed)
	if got := strings.TrimSpace(goIn(t, p, app, "list", "-m", "-f", "{{.Version}}", modproxy.ModulePath)); got != vulnFixed {
		t.Fatalf("go get moved rootsgen to %s, want %s", got, vulnFixed)
	}

	t.Run("pinned at the fix", func(t *testing.T) {
		s := runGovulncheck(t, govulncheck, p, app, db, "./...")
		s.sawRuntime(t, vulnFixed)
		if len(s.findings) != 0 {
			t.Errorf("findings with the runtime at %s, which the entry says is fixed: %s", vulnFixed, s.findings)
		}
	})
}

// userProgram is the source of a program on the kit that makes a RootSet of
// the directory its first argument names and prints what read, an
// expression of set and name (the file its second argument names in that
// directory) giving bytes and an error, gives.
func userProgram(read string) string {
	return `package main

import (
	"fmt"
	"os"
	"path/filepath"

	"example.com/app/mcproots"
)

func main() {
	dir, err := filepath.Abs(os.Args[1])
	if err != nil {
		panic(err)
	}
	set, err := mcproots.NewRootSet("2025-06-18", []mcproots.Root{{URI: "file://" + filepath.ToSlash(dir)}})
	if err != nil {
		panic(err)
	}
	defer set.Close()
	name := filepath.Join(dir, os.Args[2])
	data, err := ` + read + `
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s", data)
}
`
}

// buildGovulncheck builds the govulncheck of the test module's tool line
// and returns its path.
func buildGovulncheck(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "govulncheck")
	out, err := exec.Command("go", "build", "-o", bin, "golang.org/x/vuln/cmd/govulncheck").CombinedOutput()
	if err != nil {
		err = errors.New(strings.TrimSpace(string(out)))
	}
	prereq.Need(t, err, "govulncheck: go build golang.org/x/vuln/cmd/govulncheck, a tool of the test module (the module proxy serves it the first time)")
	return bin
}

// writeVulnDB writes a vulnerability database in the layout govulncheck
// reads from a file:// URL (https://go.dev/security/vuln/database#api):
// index/db.json, index/modules.json and ID/<id>.json, the one OSV entry
// vulnID, against vulnSymbol of runtimePkg in versions below fixed (a
// version without its "v", as OSV writes them). It returns the URL.
func writeVulnDB(t *testing.T, dir, fixed string) string {
	t.Helper()
	modified := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	entry := map[string]any{
		"schema_version": "1.3.1",
		"id":             vulnID,
		"modified":       modified,
		"published":      modified,
		"summary":        "Made-up vulnerability in rootSet.ReadFile, for rootsgen's tests",
		"details":        "rootSet.ReadFile below " + fixed + ", as far as this test's database says.",
		"affected": []map[string]any{{
			"package": map[string]string{"name": modproxy.ModulePath, "ecosystem": "Go"},
			"ranges": []map[string]any{{
				"type":   "SEMVER",
				"events": []map[string]string{{"introduced": "0"}, {"fixed": fixed}},
			}},
			"ecosystem_specific": map[string]any{
				"imports": []map[string]any{{"path": runtimePkg, "symbols": []string{vulnSymbol}}},
			},
		}},
	}
	modules := []map[string]any{{
		"path":  modproxy.ModulePath,
		"vulns": []map[string]any{{"id": vulnID, "modified": modified, "fixed": fixed}},
	}}
	for name, v := range map[string]any{
		"index/db.json":          map[string]any{"modified": modified},
		"index/modules.json":     modules,
		"ID/" + vulnID + ".json": entry,
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "file://" + filepath.ToSlash(dir)
}

// scan is what one run of govulncheck -format json reported: the modules
// it saw and its findings of vulnID.
type scan struct {
	modules  map[string]string // path: version
	findings findings
}

type findings []*finding

func (fs findings) String() string {
	b, _ := json.MarshalIndent(fs, "", "  ")
	return string(b)
}

// finding and frame are the parts of govulncheck's JSON the test reads.
type finding struct {
	OSV          string   `json:"osv"`
	FixedVersion string   `json:"fixed_version"`
	Trace        []*frame `json:"trace"`
}

type frame struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Package  string `json:"package"`
	Function string `json:"function"`
	Receiver string `json:"receiver"`
}

// runGovulncheck runs govulncheck in source mode on pattern in the module
// at dir, with the database at db, and reads its JSON stream.
func runGovulncheck(t *testing.T, bin string, p *modproxy.Proxy, dir, db, pattern string) *scan {
	t.Helper()
	cmd := exec.Command(bin, "-db", db, "-mode", "source", "-format", "json", pattern)
	cmd.Dir = dir
	cmd.Env = p.Env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("govulncheck %s: %v\n%s", pattern, err, stderr.String())
	}
	var msg struct {
		Config *struct {
			DB string `json:"db"`
		} `json:"config"`
		SBOM *struct {
			Modules []struct {
				Path    string `json:"path"`
				Version string `json:"version"`
			} `json:"modules"`
		} `json:"SBOM"`
		Finding *finding `json:"finding"`
	}
	s := &scan{modules: map[string]string{}}
	dbSeen := false
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		msg.Config, msg.SBOM, msg.Finding = nil, nil, nil
		if err := dec.Decode(&msg); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("govulncheck %s: reading its JSON: %v\n%s", pattern, err, out)
		}
		switch {
		case msg.Config != nil:
			if msg.Config.DB != db {
				t.Fatalf("govulncheck %s read the database %q, want %q", pattern, msg.Config.DB, db)
			}
			dbSeen = true
		case msg.SBOM != nil:
			for _, m := range msg.SBOM.Modules {
				s.modules[m.Path] = m.Version
			}
		case msg.Finding != nil:
			if msg.Finding.OSV != vulnID || len(msg.Finding.Trace) == 0 {
				t.Fatalf("govulncheck %s: a finding not of %s, or with no trace: %+v", pattern, vulnID, msg.Finding)
			}
			s.findings = append(s.findings, msg.Finding)
		}
	}
	if !dbSeen {
		t.Fatalf("govulncheck %s: no config message naming the database\n%s", pattern, out)
	}
	return s
}

// sawRuntime fails the test unless govulncheck saw rootsgen's module, the
// runtime's, at version.
func (s *scan) sawRuntime(t *testing.T, version string) {
	t.Helper()
	if got, ok := s.modules[modproxy.ModulePath]; !ok || got != version {
		t.Fatalf("govulncheck saw %s at %q, want %s; modules: %v", modproxy.ModulePath, got, version, s.modules)
	}
}

// called returns the findings whose trace reaches a function: the
// vulnerable symbol was called, not only imported.
func (s *scan) called() findings {
	var c findings
	for _, f := range s.findings {
		if f.Trace[0].Function != "" {
			c = append(c, f)
		}
	}
	return c
}
