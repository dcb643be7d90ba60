package generator

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
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
// package's name and revision replaced, for comparison.
func normalized(files []File, pkg, rev string) string {
	var b strings.Builder
	for _, f := range files {
		if slices.Contains(ownFiles, f.Name) || f.Name == "gate.go" {
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
func aliasPackage(out []File, pkg string, same *gateRevision, sameFiles []File, m *Model) ([]File, error) {
	header := strings.TrimPrefix(string(out[0].Content[:bytes.IndexByte(out[0].Content, '\n')]), "// ")
	f := jen.NewFile(pkg)
	f.HeaderComment(header)
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
		f.Var().Id("Gate").Op("=").Func().Params().Op("*").Qual(rootsrtImport(same.Import), "RevisionPackage").Block(
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

// rootsrtImport is the import path of the runtime of the kit whose
// revision package is at imp.
func rootsrtImport(imp string) string { return imp[:strings.LastIndexByte(imp, '/')] + "/rootsrt" }

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
			for _, n := range specNames(s) {
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
