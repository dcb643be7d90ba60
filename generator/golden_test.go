package generator

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rootsgen/rootsgen/schema"
)

var update = flag.Bool("update", false, "rewrite golden files from the generator's current output")

// goldenVersion replaces the rootsgen version in headers, so that goldens
// do not change with releases.
const goldenVersion = "golden"

// TestEdgeCases runs the generator on each small schema in testdata/edge and
// compares the output with the golden archive beside it. Schemas named
// *.FAIL.json must fail with the error text in *.FAIL.err.
func TestEdgeCases(t *testing.T) {
	inputs, err := filepath.Glob("../testdata/edge/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no edge cases found: %v", err)
	}
	outputs := map[string][]File{}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			pkg := "edge" + strings.NewReplacer("-", "", ".", "").Replace(strings.TrimSuffix(name, ".FAIL"))
			files, m, err := Generate(Options{Revision: "edge", Schema: data, Package: pkg, Version: goldenVersion})
			if strings.HasSuffix(name, ".FAIL") {
				errFile := strings.TrimSuffix(in, ".json") + ".err"
				if err == nil {
					t.Fatalf("generation succeeded; want the error in %s", errFile)
				}
				checkGolden(t, errFile, []byte(err.Error()+"\n"))
				return
			}
			if err != nil {
				t.Fatalf("generate: %v", err)
			}
			outputs[pkg] = files
			// What the package leaves out, and the names it gives schema
			// definitions in place of its own, are beside it, one a line.
			warnFile := strings.TrimSuffix(in, ".json") + ".warnings"
			if _, err := os.Stat(warnFile); err == nil || len(m.Warnings) > 0 || len(m.Renamed) > 0 {
				var b strings.Builder
				for _, w := range m.Warnings {
					b.WriteString(w.String() + "\n")
				}
				for _, r := range m.Renamed {
					b.WriteString(r.String() + "\n")
				}
				checkGolden(t, warnFile, []byte(b.String()))
			}
			// The golden holds the per-definition code; the support code
			// from templates/ is the same for every schema and is checked
			// through the revisions' packages in generated/.
			var perSchema []File
			for _, f := range files {
				if f.Name == "types.go" || f.Name == "json.go" || f.Name == "validate.go" {
					perSchema = append(perSchema, f)
				}
			}
			checkGolden(t, strings.TrimSuffix(in, ".json")+".golden.txtar", archive(perSchema))
		})
	}
	t.Run("compile", func(t *testing.T) { vetPackages(t, outputs) })
}

// TestRevisionModels compares a readable summary of each embedded
// revision's model with testdata/golden/<revision>.model.txt: the types,
// fields, constants and features the generator derives from the schema.
func TestRevisionModels(t *testing.T) {
	for _, rev := range schema.Revisions() {
		t.Run(rev, func(t *testing.T) {
			m, err := BuildModel(Options{Revision: rev})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, filepath.Join("..", "testdata", "golden", rev+".model.txt"), []byte(m.Summary()))
		})
	}
}

func archive(files []File) []byte {
	var a txtar.Archive
	for _, f := range files {
		a.Files = append(a.Files, txtar.File{Name: f.Name, Data: f.Content})
	}
	return txtar.Format(&a)
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./generator -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (review, then go test ./generator -update):\n%s", path, firstDifference(want, got))
	}
}

func firstDifference(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, wl, gl)
		}
	}
	return "(same lines, different bytes)"
}

// vetPackages writes each package into a scratch module and runs go vet,
// which type-checks them. Their examples, written for the MCP roots
// schema, are left out.
func vetPackages(t *testing.T, pkgs map[string][]File) {
	t.Helper()
	vetModule(t, pkgs, false)
}

// vetModule is vetPackages, with each package's examples where examples.
func vetModule(t *testing.T, pkgs map[string][]File, examples bool) {
	t.Helper()
	if len(pkgs) == 0 {
		t.Fatal("no packages to compile")
	}
	dir := t.TempDir()
	// Packages that import the runtime get this checkout's.
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/edge\n\ngo 1.25\n\nrequire github.com/rootsgen/rootsgen v0.0.0\n\nreplace github.com/rootsgen/rootsgen => " + repo + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	for pkg, files := range pkgs {
		for _, f := range files {
			if path.Base(f.Name) == "example_test.go" && !examples {
				continue
			}
			p := filepath.Join(dir, pkg, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet on the generated packages: %v\n%s", err, out)
	}
}
