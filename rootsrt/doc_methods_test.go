package rootsrt_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// TestRootSetHasOSRootMethods checks that RootSet and RootSetOf have every
// method of *os.Root but Name (a set has no one name), with os.Root's
// signature, and that go doc lists each as theirs: go doc
// rootsrt.RootSet.ReadFile answers only for a method go/doc puts on the
// type, which a method promoted from an exported embedded type is not.
func TestRootSetHasOSRootMethods(t *testing.T) {
	docs := packageDoc(t)
	for name, set := range map[string]reflect.Type{
		"RootSet":   reflect.TypeFor[*rootsrt.RootSet](),
		"RootSetOf": reflect.TypeFor[*rootsrt.RootSetOf[string]](),
	} {
		listed := map[string]bool{}
		for _, m := range docs[name].Methods {
			listed[m.Name] = true
		}
		osRoot := reflect.TypeFor[*os.Root]()
		for i := range osRoot.NumMethod() {
			want := osRoot.Method(i)
			if want.Name == "Name" {
				continue
			}
			got, ok := set.MethodByName(want.Name)
			switch {
			case !ok:
				t.Errorf("%s has no method %s", name, want.Name)
				continue
			case !sameSignature(got.Type, want.Type):
				t.Errorf("%s.%s is %v, os.Root's is %v", name, want.Name, got.Type, want.Type)
			}
			if !listed[want.Name] {
				t.Errorf("go doc does not list %s.%s", name, want.Name)
			}
		}
	}
}

// sameSignature reports whether two method values (receiver first) take
// and return the same types, the receivers aside.
func sameSignature(a, b reflect.Type) bool {
	if a.NumIn() != b.NumIn() || a.NumOut() != b.NumOut() || a.IsVariadic() != b.IsVariadic() {
		return false
	}
	for i := 1; i < a.NumIn(); i++ {
		if a.In(i) != b.In(i) {
			return false
		}
	}
	for i := range a.NumOut() {
		if a.Out(i) != b.Out(i) {
			return false
		}
	}
	return true
}

// packageDoc reads the package in this directory as go doc does, and
// returns its types by name.
func packageDoc(t *testing.T) map[string]*doc.Type {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name == "rootsrt" {
			files = append(files, f)
		}
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/rootsgen/rootsgen/rootsrt")
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]*doc.Type{}
	for _, typ := range p.Types {
		types[typ.Name] = typ
	}
	return types
}
