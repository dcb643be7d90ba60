package generator

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generator/internal/load"
	"github.com/rootsgen/rootsgen/schema"
)

// A variant is an embedded schema with a few edits: a shape of the roots
// feature that a later revision might take. testdata/variants/NAME.json
// holds
//
//	{"base": "2025-06-18", "revision": "NAME (optional)", "patch": [ops]}
//
// (see patch_test.go for the ops); NAME.golden.txt beside it holds what the
// generator makes of it: the plan with its warnings, the files, the
// exported symbols marked deprecated, and doc.go. NAME_test.go.txt, where
// present, is a test of the generated package's behaviour, run in it.
type variant struct {
	Base     string         `json:"base"`
	Revision string         `json:"revision"`
	Patch    []load.PatchOp `json:"patch"`
}

// variantSchema applies a variant file's edits to its embedded base.
func variantSchema(t *testing.T, path string) (revision string, data []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v variant
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	base, err := schema.Open(v.Base)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if data, err = load.Patch(base, v.Patch); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	revision = v.Revision
	if revision == "" {
		revision = v.Base
	}
	return revision, data
}

// TestVariants generates each variant, compares what the generator made of
// it with its golden, and then vets and tests every variant's package
// (examples and NAME_test.go.txt included) in one scratch module.
func TestVariants(t *testing.T) {
	inputs, err := filepath.Glob("../testdata/variants/*.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no variants found: %v", err)
	}
	pkgs := map[string][]File{}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			rev, data := variantSchema(t, in)
			pkg := "v" + strings.NewReplacer("-", "", ".", "").Replace(name)
			files, m, err := Generate(Options{Revision: rev, Schema: data, Package: pkg, Version: goldenVersion})
			if err != nil {
				t.Fatalf("generate: %v", err)
			}
			checkGolden(t, strings.TrimSuffix(in, ".json")+".golden.txt", []byte(variantReport(t, m, files)))
			behaviour := strings.TrimSuffix(in, ".json") + "_test.go.txt"
			if src, err := os.ReadFile(behaviour); err == nil {
				src = []byte(strings.Replace(string(src), "package variant", "package "+pkg, 1))
				files = append(files, File{Name: "variant_test.go", Content: src})
			}
			pkgs[pkg] = files
		})
	}
	t.Run("compile", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: not compiling the variants' packages")
		}
		testPackages(t, pkgs)
	})
}

// variantReport is what the golden of a variant holds.
func variantReport(t *testing.T, m *Model, files []File) string {
	var b strings.Builder
	b.WriteString(m.Plan.Summary())
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	fmt.Fprintf(&b, "files: %s\n", strings.Join(names, " "))
	fmt.Fprintf(&b, "deprecated: %s\n", strings.Join(deprecatedSymbols(t, files), " "))
	for _, f := range files {
		if f.Name == "doc.go" {
			_, doc, _ := strings.Cut(string(f.Content), "\n") // the header names rootsgen's build
			b.WriteString("-- doc.go --\n" + doc)
		}
	}
	return b.String()
}

// deprecatedSymbols lists the exported declarations of files (tests
// excluded) whose doc comment has a Deprecated paragraph, as Name or
// Type.Method, sorted.
func deprecatedSymbols(t *testing.T, files []File) []string {
	t.Helper()
	var out []string
	dep := func(groups ...*ast.CommentGroup) bool {
		for _, g := range groups {
			if g == nil {
				continue
			}
			if text := g.Text(); strings.HasPrefix(text, "Deprecated: ") || strings.Contains(text, "\nDeprecated: ") {
				return true
			}
		}
		return false
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f.Name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if id := receiver(d); id != nil {
					name = id.Name + "." + name
				}
				if d.Name.IsExported() && dep(d.Doc) {
					out = append(out, name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && dep(s.Doc, d.Doc) {
							out = append(out, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && dep(s.Doc, d.Doc) {
								out = append(out, n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// testPackages writes each package into a scratch module and runs go vet
// and go test on them: they compile, their examples hold, and their
// behaviour tests pass.
func testPackages(t *testing.T, pkgs map[string][]File) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/variants\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for pkg, files := range pkgs {
		for _, f := range files {
			p := filepath.Join(dir, pkg, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s on the variants' packages: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
