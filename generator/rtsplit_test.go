package generator

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generator/internal/rttable"
	"github.com/rootsgen/rootsgen/rootsrt"
)

// maxRuntimeAPI bounds the exported top-level names of package rootsrt,
// the runtime a server reads: what only generated code needs belongs in
// rtimpl.
const maxRuntimeAPI = 70

// TestRuntimeAPISize: rootsrt exports at most maxRuntimeAPI names.
func TestRuntimeAPISize(t *testing.T) {
	names, err := runtimeNamesOnce()
	if err != nil {
		t.Fatal(err)
	}
	var exported []string
	for n := range names.public {
		if token.IsExported(n) {
			exported = append(exported, n)
		}
	}
	t.Logf("rootsrt exports %d top-level names", len(exported))
	if len(exported) > maxRuntimeAPI {
		t.Errorf("rootsrt exports %d top-level names, over %d: move what only generated code calls to rtimpl", len(exported), maxRuntimeAPI)
	}
}

// TestRuntimeReexports: each declaration of rootsrt whose name rtimpl
// declares too (exported or not: the merged runtime has one of each name)
// only names rtimpl's (a type alias, a constant or variable
// equal to it, a function that returns its call with the same
// arguments), so that the merged runtime, which leaves it out, loses
// nothing.
func TestRuntimeReexports(t *testing.T) {
	names, err := runtimeNamesOnce()
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := readSources(rootsrt.Source)
	if err != nil {
		t.Fatal(err)
	}
	isImpl := func(e ast.Expr, name string) bool {
		if ix, ok := e.(*ast.IndexExpr); ok {
			e = ix.X
		}
		if ix, ok := e.(*ast.IndexListExpr); ok {
			e = ix.X
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		return ok && x.Name == "rtimpl" && sel.Sel.Name == name
	}
	found := 0
	for _, s := range srcs {
		f, err := parser.ParseFile(token.NewFileSet(), s.name, s.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || !names.impl[d.Name.Name] {
					continue
				}
				found++
				if !forwards(d, isImpl) {
					t.Errorf("%s: func %s shares its name with rtimpl's but does more than call it", s.name, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch sp := spec.(type) {
					case *ast.TypeSpec:
						if names.impl[sp.Name.Name] {
							found++
							if !sp.Assign.IsValid() || !isImpl(sp.Type, sp.Name.Name) {
								t.Errorf("%s: type %s shares its name with rtimpl's but is not an alias of it", s.name, sp.Name.Name)
							}
						}
					case *ast.ValueSpec:
						for i, n := range sp.Names {
							if !names.impl[n.Name] {
								continue
							}
							found++
							if i >= len(sp.Values) || !isImpl(sp.Values[i], n.Name) {
								t.Errorf("%s: %s shares its name with rtimpl's but is not equal to it", s.name, n.Name)
							}
						}
					}
				}
			}
		}
	}
	if found == 0 {
		t.Error("rootsrt re-exports nothing of rtimpl: the test checks nothing")
	}
}

// forwards reports whether fn's body is one return of a call of the
// function isImpl accepts, with fn's parameters in order.
func forwards(fn *ast.FuncDecl, isImpl func(ast.Expr, string) bool) bool {
	if fn.Body == nil || len(fn.Body.List) != 1 {
		return false
	}
	ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	call, ok := ret.Results[0].(*ast.CallExpr)
	if !ok || !isImpl(call.Fun, fn.Name.Name) {
		return false
	}
	var params []string
	for _, f := range fn.Type.Params.List {
		for _, n := range f.Names {
			params = append(params, n.Name)
		}
	}
	if len(call.Args) != len(params) {
		return false
	}
	for i, a := range call.Args {
		if id, ok := a.(*ast.Ident); !ok || id.Name != params[i] {
			return false
		}
	}
	return true
}

// TestSplitRuntime: generated code that names the merged runtime names
// each package's own after the split; a name neither declares is an error.
func TestSplitRuntime(t *testing.T) {
	src := `package p

import rootsrt "github.com/rootsgen/rootsgen/rootsrt"

var (
	_ = rootsrt.ErrOutsideRoots // rootsrt's own
	_ = rootsrt.DecodeJSON      // rtimpl's
	_ rootsrt.Root              // both: rootsrt's, since the file needs rootsrt
)
`
	out, err := splitRuntime([]File{{Name: "a.go", Content: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out[0].Content)
	for _, want := range []string{"rootsrt.ErrOutsideRoots", "rtimpl.DecodeJSON", "rootsrt.Root", `rtimpl "github.com/rootsgen/rootsgen/rootsrt/rtimpl"`} {
		if !strings.Contains(got, want) {
			t.Errorf("split file lacks %s:\n%s", want, got)
		}
	}
	alone := strings.Replace(src, "\t_ = rootsrt.ErrOutsideRoots // rootsrt's own\n", "", 1)
	out, err = splitRuntime([]File{{Name: "a.go", Content: []byte(alone)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out[0].Content); strings.Contains(got, "rootsrt.Root") || strings.Contains(got, `"github.com/rootsgen/rootsgen/rootsrt"`) {
		t.Errorf("a file that needs only rtimpl still names rootsrt:\n%s", got)
	}
	if _, err := splitRuntime([]File{{Name: "a.go", Content: []byte(strings.Replace(src, "DecodeJSON", "NoSuchName", 1))}}); err == nil || !strings.Contains(err.Error(), "NoSuchName") {
		t.Errorf("a name the runtime does not declare: %v", err)
	}
}

// TestRuntimeTableFresh: runtime_table.go is what package rttable writes
// from the runtime's sources now (go generate ./... rewrites it).
func TestRuntimeTableFresh(t *testing.T) {
	want, err := rttable.Source()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("runtime_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("runtime_table.go is not what the runtime's sources give: run go generate ./generator")
	}
}
