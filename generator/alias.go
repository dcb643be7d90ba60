package generator

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/rootsgen/rootsgen/generator/internal/rttable"
)

// A revision whose package would be the same as an earlier revision's in
// the kit, but for its name and version (2025-03-26 is 2024-11-05 again),
// is written as aliases of that package's declarations: one copy of the
// code, the same types and behaviour, and its own version and gate entry.

// ownFiles are the files a revision's package keeps when it aliases
// another's: its documentation and examples.
var ownFiles = []string{"doc.go", "example_test.go"}

// sameAs returns the revision of earlier (whose files kept holds) whose
// package out, of package pkg for revision rev, would be, but for names,
// versions and headers; nil when there is none.
func sameAs(out []File, pkg, rev string, earlier []gateRevision, kept map[string][]File) *gateRevision {
	norm := normalized(out, pkg, rev)
	for i := range earlier {
		e := &earlier[i]
		if other, ok := kept[e.Version]; ok && norm == normalized(other, PackageName(e.Version), e.Version) {
			return e
		}
	}
	return nil
}

// normalized is the text of files, their headers left out and their
// package's name and revision replaced, for comparison. gate.go counts:
// a revision whose glue differs (a deprecation, a version key) must keep
// its own, though its types are the same.
func normalized(files []File, pkg, rev string) string {
	var b strings.Builder
	for _, f := range files {
		if slices.Contains(ownFiles, f.Name) {
			continue
		}
		_, body, _ := bytes.Cut(f.Content, []byte("\n"))
		text := strings.ReplaceAll(string(body), pkg, "PKG")
		b.WriteString(f.Name + "\n" + strings.ReplaceAll(text, rev, "REV") + "\n")
	}
	return b.String()
}

// aliasPackage turns out, the files of m's revision's package pkg, into
// the package that aliases every declaration of the package of same,
// whose files are sameFiles: out's own files stay, the rest becomes
// aliases.go.
func aliasPackage(out []File, pkg string, same *gateRevision, sameFiles []File, m *Model, rt string) ([]File, error) {
	f := jen.NewFile(pkg)
	f.HeaderComment(headerOf(out))
	f.ImportName(same.Import, PackageName(same.Version))
	f.Comment(fmt.Sprintf("Revision %s carries roots as %s does, in the same types: this package's", m.Revision, same.Version))
	f.Comment(fmt.Sprintf("declarations are those of package %s, under the same names.", PackageName(same.Version)))
	groups := map[token.Token][]jen.Code{}
	for _, sf := range sameFiles {
		if slices.Contains(ownFiles, sf.Name) || strings.HasSuffix(sf.Name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), sf.Name, sf.Content, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			tok, names := exportedDecl(d)
			for _, name := range names {
				if name == "ProtocolVersion" || name == "Gate" {
					continue
				}
				groups[tok] = append(groups[tok], jen.Id(name).Op("=").Qual(same.Import, name))
			}
		}
	}
	writeGroups(f, groups)
	f.Comment("ProtocolVersion is the revision this package is for.")
	f.Const().Id("ProtocolVersion").Op("=").Lit(m.Revision)
	if slices.ContainsFunc(sameFiles, func(f File) bool { return f.Name == "gate.go" }) {
		f.Comment(fmt.Sprintf("Gate is what the kit's gate needs of this revision: %s's, under this revision's version.", PackageName(same.Version)))
		f.Var().Id("Gate").Op("=").Func().Params().Op("*").Qual(rt, "RevisionPackage").Block(
			jen.Id("g").Op(":=").Op("*").Qual(same.Import, "Gate"),
			jen.Id("g").Dot("Version").Op("=").Id("ProtocolVersion"),
			jen.Return(jen.Op("&").Id("g")),
		).Call()
	}
	var b bytes.Buffer
	if err := f.Render(&b); err != nil {
		return nil, err
	}
	kept := []File{{Name: "aliases.go", Content: b.Bytes()}}
	for _, o := range out {
		if slices.Contains(ownFiles, o.Name) {
			kept = append(kept, o)
		}
	}
	return kept, nil
}

// headerOf is the generated-code header of a package's files, out, as the
// text of its comment.
func headerOf(out []File) string {
	first, _, _ := bytes.Cut(out[0].Content, []byte("\n"))
	return strings.TrimPrefix(string(first), "// ")
}

// exportedDecl returns the exported package-level names d declares, and
// how a package that aliases them declares each: a type, a constant, or a
// variable (a function becomes one).
func exportedDecl(d ast.Decl) (token.Token, []string) {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil && d.Name.IsExported() {
			return token.VAR, []string{d.Name.Name}
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			for _, n := range rttable.SpecNames(s) {
				if ast.IsExported(n) {
					names = append(names, n)
				}
			}
		}
		if d.Tok == token.IMPORT {
			return d.Tok, nil
		}
		return d.Tok, names
	}
	return token.ILLEGAL, nil
}

// A revision that differs from the earlier ones in part (2025-06-18 adds
// _meta to Root, and so to the types that hold a Root) keeps its own
// declarations of what differs and aliases the rest: a type whose
// declaration, methods and constructors read the same as an earlier
// revision's, and whose every type it uses is aliased to the same
// declarations in turn, is that revision's type.

// glueTypes are the types whose unexported methods the glue of a kit's
// revision (gate.go, from gate.go.tmpl and roots.go.tmpl) calls: the
// client side writes an answer with ListRootsResult's appendJSON. Such a
// type stays the revision's own, as an alias would hide those methods in
// another package.
func glueTypes(clientSide bool) []string {
	if clientSide {
		return []string{"ListRootsResult"}
	}
	return nil
}

// typeGroup is one type of a revision's package as written: the text of
// its declarations (package name normalized), and the import path of the
// package that declares it (the revision's own, or the one it aliases).
type typeGroup struct {
	text, origin string
	deps         []string
}

// typeDecls are the declarations of a revision's types by type name.
type typeDecls map[string]*typeGroup

// declOwner is the type a declaration belongs to: the type it declares,
// the receiver of a method, the type a constructor returns; "" for
// anything else, and for constants and variables, which are never
// aliased.
func declOwner(d ast.Decl, local map[string]bool) string {
	switch d := d.(type) {
	case *ast.GenDecl:
		if d.Tok == token.TYPE && len(d.Specs) == 1 {
			return d.Specs[0].(*ast.TypeSpec).Name.Name
		}
	case *ast.FuncDecl:
		if d.Recv != nil {
			t := d.Recv.List[0].Type
			if star, ok := t.(*ast.StarExpr); ok {
				t = star.X
			}
			if id, ok := t.(*ast.Ident); ok {
				return id.Name
			}
		} else if res := d.Type.Results; res != nil && len(res.List) > 0 {
			if id, ok := res.List[0].Type.(*ast.Ident); ok && local[id.Name] {
				return id.Name
			}
		}
	}
	return ""
}

// parsedFile is one of typeFiles, parsed.
type parsedFile struct {
	name string
	src  []byte
	fset *token.FileSet
	file *ast.File
}

// declRange is where d, with its doc comment, is in f's source.
func (f parsedFile) declRange(d ast.Decl) (int, int) {
	start := d.Pos()
	switch d := d.(type) {
	case *ast.GenDecl:
		if d.Doc != nil {
			start = d.Doc.Pos()
		}
	case *ast.FuncDecl:
		if d.Doc != nil {
			start = d.Doc.Pos()
		}
	}
	return f.fset.Position(start).Offset, f.fset.Position(d.End()).Offset
}

// aliasTypes returns the files of revision package pkg at imp, out,
// with the types that are the same as an earlier revision's (earlier,
// oldest first) written as aliases in aliases.go; and the package's types
// for the revisions after it. clientSide: the package has the client
// side (see glueTypes).
func aliasTypes(out []File, pkg, imp string, earlier []typeDecls, clientSide bool) ([]File, typeDecls, error) {
	t, err := readTypes(out, pkg, imp)
	if err != nil {
		return nil, nil, err
	}
	same := t.aliasable(earlier, glueTypes(clientSide))
	if len(same) == 0 {
		return out, t.decls, nil
	}
	aliased, err := t.withAliases(out, same)
	if err != nil {
		return nil, nil, err
	}
	// Aliases that save fewer lines than aliases.go takes are not worth a
	// file: the package keeps its own declarations.
	if lines(aliased) >= lines(out) {
		return out, t.decls, nil
	}
	for name, e := range same {
		t.decls[name] = e[name]
	}
	return aliased, t.decls, nil
}

// revisionTypes are the types of one revision's package, read from its
// emitted typeFiles.
type revisionTypes struct {
	pkg   string
	files []parsedFile
	local map[string]bool // the names of the package's types
	decls typeDecls
	order []string // the types in the order of their declarations
	// ownUses are the types used by each declaration that belongs to no
	// type (not counting constants and variables).
	ownUses [][]string
}

// readTypes groups the declarations of out's typeFiles by the type they
// belong to (declOwner).
func readTypes(out []File, pkg, imp string) (*revisionTypes, error) {
	t := &revisionTypes{pkg: pkg, local: map[string]bool{}, decls: typeDecls{}}
	for _, f := range out {
		if !slices.Contains(typeFiles, f.Name) {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		t.files = append(t.files, parsedFile{f.Name, f.Content, fset, file})
		for _, d := range file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					t.local[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
	}
	for _, f := range t.files {
		for _, d := range f.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok != token.TYPE {
				continue // imports, constants and variables
			}
			uses := localUses(d, t.local)
			owner := declOwner(d, t.local)
			if owner == "" {
				t.ownUses = append(t.ownUses, uses)
				continue
			}
			g := t.decls[owner]
			if g == nil {
				g = &typeGroup{origin: imp}
				t.decls[owner] = g
				t.order = append(t.order, owner)
			}
			start, end := f.declRange(d)
			g.text += f.name + "\n" + strings.ReplaceAll(string(f.src[start:end]), pkg, "PKG") + "\n"
			for _, u := range uses {
				if u != owner && !slices.Contains(g.deps, u) {
					g.deps = append(g.deps, u)
				}
			}
		}
	}
	return t, nil
}

// localUses are the names of local, the package's types, that n uses. A
// selected field or method and a struct literal's field name may be
// spelled like a type (p.InputRequests, Revision{InputRequests: true}),
// and are not uses of it.
func localUses(n ast.Node, local map[string]bool) []string {
	var uses []string
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, visit)
			return false
		case *ast.KeyValueExpr:
			if _, ok := n.Key.(*ast.Ident); ok {
				ast.Inspect(n.Value, visit)
				return false
			}
		case *ast.Ident:
			if local[n.Name] && !slices.Contains(uses, n.Name) {
				uses = append(uses, n.Name)
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return uses
}

// aliasable returns the types to alias, each with the earlier revision whose
// declaration it aliases; never one of keep.
func (t *revisionTypes) aliasable(earlier []typeDecls, keep []string) map[string]typeDecls {
	// Each type's candidates: the earlier revisions that have it written
	// the same, oldest first. The same text may stand for other types
	// (ListRootsResult is a list of each revision's own Root).
	cands := map[string][]typeDecls{}
	for _, name := range t.order {
		if slices.Contains(keep, name) {
			continue
		}
		for _, e := range earlier {
			if g := e[name]; g != nil && g.text == t.decls[name].text {
				cands[name] = append(cands[name], e)
			}
		}
	}
	// origin is where the type the package would alias as name is
	// declared.
	origin := func(name string) string { return cands[name][0][name].origin }
	// Drop candidates until the rest hold: an aliased type uses only
	// types aliased to the same declarations as the earlier revision's
	// uses, and no declaration of the package's own uses an aliased type
	// (its code calls the unexported methods of what it uses).
	drop := func(uses []string) (changed bool) {
		for _, u := range uses {
			if len(cands[u]) > 0 {
				delete(cands, u)
				changed = true
			}
		}
		return changed
	}
	for changed := true; changed; {
		changed = false
		for _, name := range t.order {
			if len(cands[name]) == 0 {
				changed = drop(t.decls[name].deps) || changed
				continue
			}
			kept := slices.DeleteFunc(slices.Clone(cands[name]), func(e typeDecls) bool {
				return slices.ContainsFunc(t.decls[name].deps, func(u string) bool {
					return len(cands[u]) == 0 || e[u] == nil || origin(u) != e[u].origin
				})
			})
			if len(kept) < len(cands[name]) {
				cands[name] = kept
				changed = true
			}
		}
		for _, uses := range t.ownUses {
			changed = drop(uses) || changed
		}
	}
	same := map[string]typeDecls{}
	for name, c := range cands {
		if len(c) > 0 {
			same[name] = c[0]
		}
	}
	return same
}

// withAliases is out with the declarations of the types in same taken
// out of their files (a file left with none is dropped), and aliases.go,
// which aliases them.
func (t *revisionTypes) withAliases(out []File, same map[string]typeDecls) ([]File, error) {
	origin := func(name string) string { return same[name][name].origin }
	af := jen.NewFile(t.pkg)
	af.HeaderComment(headerOf(out))
	af.Comment("These types are written the same in this revision as in an earlier one:")
	af.Comment("they are that revision's types, under the same names.")
	groups := map[token.Token][]jen.Code{}
	for _, name := range t.order {
		if same[name] != nil {
			imp := origin(name)
			af.ImportName(imp, imp[strings.LastIndexByte(imp, '/')+1:])
			groups[token.TYPE] = append(groups[token.TYPE], jen.Id(name).Op("=").Qual(imp, name))
		}
	}
	kept, err := t.without(out, func(_ ast.Decl, owner string) bool { return same[owner] != nil }, func(fd *ast.FuncDecl, owner string) {
		if fd.Recv == nil {
			// A constructor: a function becomes a variable.
			groups[token.VAR] = append(groups[token.VAR], jen.Id(fd.Name.Name).Op("=").Qual(origin(owner), fd.Name.Name))
		}
	})
	if err != nil {
		return nil, err
	}
	writeGroups(af, groups)
	var b bytes.Buffer
	if err := af.Render(&b); err != nil {
		return nil, err
	}
	return append(kept, File{Name: "aliases.go", Content: b.Bytes()}), nil
}

// without is out with the declarations drop says yes to (given each with
// the type it belongs to, "" for none) taken out of their files; a file
// left with none is dropped. dropped, if not nil, is called with each
// function taken out and its type.
func (t *revisionTypes) without(out []File, drop func(d ast.Decl, owner string) bool, dropped func(fd *ast.FuncDecl, owner string)) ([]File, error) {
	var kept []File
	for _, o := range out {
		i := slices.IndexFunc(t.files, func(f parsedFile) bool { return f.name == o.Name })
		if i < 0 {
			kept = append(kept, o)
			continue
		}
		f := t.files[i]
		var b bytes.Buffer
		last, decls, changed := 0, 0, false
		for _, d := range f.file.Decls {
			owner := declOwner(d, t.local)
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT || !drop(d, owner) {
				if g, ok := d.(*ast.GenDecl); !ok || g.Tok != token.IMPORT {
					decls++
				}
				continue
			}
			if fd, ok := d.(*ast.FuncDecl); ok && dropped != nil {
				dropped(fd, owner)
			}
			start, end := f.declRange(d)
			b.Write(f.src[last:start])
			// The declaration goes with its line's end and the blank line
			// after it, so the file stays as gofmt writes it.
			if bytes.HasPrefix(f.src[end:], []byte("\n\n")) {
				end += 2
			}
			last, changed = end, true
		}
		switch {
		case decls == 0:
			continue
		case !changed:
			kept = append(kept, o)
			continue
		}
		b.Write(f.src[last:])
		content, err := dropUnusedImports(append(bytes.TrimRight(b.Bytes(), "\n"), '\n'))
		if err != nil {
			return nil, fmt.Errorf("%s without the types it leaves out: %w", o.Name, err)
		}
		kept = append(kept, File{Name: o.Name, Content: content})
	}
	return kept, nil
}

// dropUnusedImports is src, Go source as gofmt writes it, without the
// imports it does not use; src itself when it uses them all.
func dropUnusedImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if !deleteUnusedImports(fset, f) {
		return src, nil
	}
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// deleteUnusedImports deletes from f the imports it does not use, and
// reports whether there were any.
func deleteUnusedImports(fset *token.FileSet, f *ast.File) bool {
	var unused [][2]string // name, path
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); !astutil.UsesImport(f, p) {
			name := ""
			if imp.Name != nil {
				name = imp.Name.Name
			}
			unused = append(unused, [2]string{name, p})
		}
	}
	for _, u := range unused {
		astutil.DeleteNamedImport(fset, f, u[0], u[1])
	}
	return len(unused) > 0
}

// lines counts the lines of files.
func lines(files []File) int {
	n := 0
	for _, f := range files {
		n += bytes.Count(f.Content, []byte("\n"))
	}
	return n
}
