// Package fronttest checks, for the tests of each adapter package, that
// the package's stand-in for a kit's front (front.go) declares what a
// front declares, each name as an alias of the same name in the
// repository's own kit, generated/rootsgate.
package fronttest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// Front is the front package of the repository's kit, from an adapter
// package's directory.
var Front = filepath.Join("..", "..", "..", "generated", "rootsgate", "gate.go")

// Check fails t unless standIn declares the names the front declares,
// each as rootsgate.Name.
func Check(t *testing.T, standIn string) {
	t.Helper()
	front := declared(t, Front)
	ours := declared(t, standIn)
	for name := range front {
		if _, ok := ours[name]; !ok {
			t.Errorf("%s does not declare %s, which a kit's front does", standIn, name)
		}
	}
	for name, value := range ours {
		if _, ok := front[name]; !ok {
			t.Errorf("%s declares %s, which a kit's front does not", standIn, name)
		}
		if sel, ok := value.(*ast.SelectorExpr); !ok || sel.Sel.Name != name || sel.X.(*ast.Ident).Name != "rootsgate" {
			t.Errorf("%s: %s is not rootsgate.%s", standIn, name, name)
		}
	}
}

// declared maps each package-level name path declares to the expression
// it is declared as (the aliased type or the value).
func declared(t *testing.T, path string) map[string]ast.Expr {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ast.Expr{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue // the front's init, which registers its revisions
		}
		for _, spec := range g.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				out[s.Name.Name] = s.Type
			case *ast.ValueSpec:
				for i, n := range s.Names {
					if n.Name != "_" { // the front's check of the runtime's contract
						out[n.Name] = s.Values[i]
					}
				}
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("%s declares %d names; is it a front?", path, len(out))
	}
	return out
}
