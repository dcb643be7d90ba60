package generated_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// TestGeneratedDocs reads each generated package as go doc does and fails
// on an exported declaration without a doc comment: types, functions,
// methods, constants and variables (a comment on their group counts),
// struct fields and interface methods of exported types. The package
// comment of a revision's package must name the revision and link its
// specification page.
func TestGeneratedDocs(t *testing.T) {
	dirs := []string{"rootsgate"}
	for _, rev := range schema.Revisions() {
		dirs = append(dirs, "roots"+strings.ReplaceAll(rev, "-", ""))
	}
	for i, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			p := docPackage(t, dir)
			if !strings.HasPrefix(p.Doc, "Package "+p.Name+" ") {
				t.Errorf("the package comment does not begin with %q: %.80q", "Package "+p.Name, p.Doc)
			}
			if i > 0 {
				rev := schema.Revisions()[i-1]
				for _, want := range []string{"revision " + rev, "https://modelcontextprotocol.io/specification/" + rev + "/client/roots\n"} {
					if !strings.Contains(p.Doc, want) {
						t.Errorf("the package comment lacks %q", want)
					}
				}
			}
			for _, missing := range undocumented(p) {
				t.Errorf("%s.%s has no doc comment", dir, missing)
			}
		})
	}
}

// docPackage parses the non-test files of dir into go doc's model.
func docPackage(t *testing.T, dir string) *doc.Package {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/rootsgen/rootsgen/generated/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// undocumented lists the exported declarations of p without a comment.
func undocumented(p *doc.Package) []string {
	var missing []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			if v.Doc != "" {
				continue // the group's comment covers every name in it
			}
			for _, spec := range v.Decl.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, n := range vs.Names {
					if n.IsExported() && vs.Doc == nil && vs.Comment == nil {
						missing = append(missing, n.Name)
					}
				}
			}
		}
	}
	funcs := func(prefix string, fs []*doc.Func) {
		for _, f := range fs {
			if f.Doc == "" {
				missing = append(missing, prefix+f.Name)
			}
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs("", p.Funcs)
	for _, typ := range p.Types {
		if typ.Doc == "" {
			missing = append(missing, typ.Name)
		}
		values(typ.Consts)
		values(typ.Vars)
		funcs("", typ.Funcs)
		funcs(typ.Name+".", typ.Methods)
		var fields *ast.FieldList
		switch tt := typ.Decl.Specs[0].(*ast.TypeSpec).Type.(type) {
		case *ast.StructType:
			fields = tt.Fields
		case *ast.InterfaceType:
			fields = tt.Methods
		}
		if fields == nil {
			continue
		}
		for _, fl := range fields.List {
			for _, n := range fl.Names {
				if n.IsExported() && fl.Doc == nil && fl.Comment == nil {
					missing = append(missing, typ.Name+"."+n.Name)
				}
			}
		}
	}
	return missing
}
