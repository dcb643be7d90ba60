package generator

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strings"
)

// A kit's revision package is there for its gate: the kit's front package
// serves every revision through one API, so nobody needs a type of the
// revision that the glue in gate.go does not use. The package keeps the
// types that glue uses, the types its constants and variables use, and
// every type those use in turn; the declarations of the others (such as
// ServerRequest, or ListRootsRequest where the server does not write one)
// are left out, with their JSON and validation code.

// pruneTypes is out, the files of kit revision package pkg, without the
// declarations of the types nothing it keeps uses.
func pruneTypes(out []File, pkg string) ([]File, error) {
	t, err := readTypes(out, pkg, "")
	if err != nil {
		return nil, err
	}
	need := map[string]bool{}
	var keep func(names []string)
	keep = func(names []string) {
		for _, name := range names {
			if !need[name] {
				need[name] = true
				if g := t.decls[name]; g != nil {
					keep(g.deps)
				}
			}
		}
	}
	for _, uses := range t.ownUses {
		keep(uses)
	}
	for _, f := range t.files {
		for _, d := range f.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && (g.Tok == token.CONST || g.Tok == token.VAR) {
				keep(localUses(g, t.local))
			}
		}
	}
	i := slices.IndexFunc(out, func(f File) bool { return f.Name == "gate.go" })
	if i < 0 {
		return nil, errors.New("the package has no gate.go to keep types for")
	}
	gate, err := parser.ParseFile(token.NewFileSet(), "gate.go", out[i].Content, 0)
	if err != nil {
		return nil, err
	}
	keep(localUses(gate, t.local))
	// A constructor the glue calls keeps its type, though the glue may not
	// name the type itself.
	ast.Inspect(gate, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && t.constructors[id.Name] != "" {
			keep([]string{t.constructors[id.Name]})
		}
		return true
	})
	pruned, err := t.without(out, func(owner string) bool { return !need[owner] }, nil)
	if err != nil {
		return nil, err
	}
	// The docs the model writes for a method name or a fixed value name
	// the type that holds it; where that type is left out, they name the
	// schema's definition instead.
	var dropped []string
	for _, name := range t.order {
		if !need[name] {
			dropped = append(dropped, regexp.QuoteMeta(name))
		}
	}
	if len(dropped) == 0 {
		return pruned, nil
	}
	owner := regexp.MustCompile(`( (?:of|in)(?: |\n\t*// ))(` + strings.Join(dropped, "|") + `)\.`)
	for i, f := range pruned {
		if slices.Contains(typeFiles, f.Name) {
			pruned[i].Content = owner.ReplaceAll(f.Content, []byte("${1}the schema's $2."))
		}
	}
	return pruned, nil
}
