package generator

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/rootsgen/rootsgen/generator/internal/rttable"
)

// The runtime (package rootsrt) is the behaviour every revision shares,
// written once as a real Go package with its tests. rootsgen writes it
// out in one of two ways:
//
//   - In a kit (several revisions for one module), as a package of its
//     own, rootsrt, that each revision's package and the front import: its
//     API and the declarations the kit's code uses are kept, with what
//     they use, under their names.
//   - In a single revision's package, written into that package: only the
//     declarations the package uses or offers are kept, and the names the
//     runtime exports only for generated code become unexported.
//
// Either way a file kept whole is copied as written, and a file cut down
// is printed once from its parsed source; what is kept reads as written.
//
// The tables below say which runtime names are a revision package's API,
// by the part of the plan that brings them: everything else the runtime
// exports is for generated code alone.

// RuntimeImport is the import path of the runtime, the package rootsrt of
// this module, which generated code imports unless it is written with a
// copy of the runtime.
const RuntimeImport = "github.com/rootsgen/rootsgen/rootsrt"

// runtimePart is a set of runtime names a revision's package offers when
// its plan has the part.
type runtimePart struct {
	has   func(*Plan) bool
	names []string
}

// runtimeAPI are the runtime names a revision's package offers, by part.
var runtimeAPI = []runtimePart{
	{func(*Plan) bool { return true }, []string{"ValidationError", "Problem", "DecodeError"}},
	{func(p *Plan) bool { return p.Handlers != nil }, []string{"RPCError", "CodeMethodNotFound", "CodeInvalidParams", "CodeInternalError"}},
	{func(p *Plan) bool { return p.Direct }, []string{"ErrNoRootsCapability", "ErrNoAnswer", "DefaultTimeout"}},
	{func(p *Plan) bool { return p.Direct && p.Paging != nil }, []string{"DefaultMaxPages", "ErrTooManyPages"}},
	{func(p *Plan) bool { return p.Ask != nil && p.Paging != nil }, []string{"ErrMorePages"}},
	{func(p *Plan) bool { return p.RootSet() }, []string{
		"RootSetOf", "RootSetOption", "ResolveSymlinks", "Bounds", "WindowsPaths", "ReadLimit", "MaxRoots",
		"DefaultReadLimit", "DefaultMaxRoots", "ErrOutsideRoots", "ErrOutsideBounds", "ErrNotRegularFile", "ErrFileTooLarge",
		"ErrNoDescriptors", "SetDescriptorBudget",
	}},
	{func(p *Plan) bool { return p.Ask != nil }, []string{
		"StateSealer", "NewStateSealer", "StateKey", "StateSealerConfig", "StateBinding", "SalientParams",
		"DefaultStateTTL", "MaxStateSize", "MaxStateClockSkew",
		"ErrStateMissing", "ErrStateTampered", "ErrStateUnknownKey", "ErrStateWrongAudience",
		"ErrStateNotYetValid", "ErrStateExpired", "ErrStateWrongPrincipal", "ErrStateWrongRequest",
	}},
}

// publicRuntime reports whether name is runtime API in any revision.
func publicRuntime(name string) bool {
	for _, part := range runtimeAPI {
		if slices.Contains(part.names, name) {
			return true
		}
	}
	return false
}

// apiNames are the runtime names plan's package offers.
func apiNames(p *Plan) []string {
	var out []string
	for _, part := range runtimeAPI {
		if part.has(p) {
			out = append(out, part.names...)
		}
	}
	return out
}

// inlineName is what the runtime's name becomes in the single revision's
// package of plan p: itself when the package offers it (apiNames), else
// unexported, so that the package offers the same API whether it imports
// the runtime or has it copied in.
func inlineName(p *Plan, name string) string {
	if slices.Contains(apiNames(p), name) {
		return name
	}
	r, size := utf8.DecodeRuneInString(name)
	return string(unicode.ToLower(r)) + name[size:]
}

// An emitter writes a revision's declarations with jennifer, naming the
// runtime's identifiers through rt.
type emitter struct {
	m *Model
	// runtime is the import path of the runtime package; "" when the
	// runtime is written into the revision's package.
	runtime string
	kit     bool // the package is a revision's package in a kit
	// keep is what of each type the package keeps (kitKeeps); nil keeps
	// everything.
	keep *keeps
}

// rt is the runtime identifier name, as the code of a revision's package
// refers to it: inlined, in rtimpl or rootsrt (a single revision's package
// importing the runtime; see inImpl), or in the merged runtime at
// e.runtime (a kit's package, split once the kit is written: splitRuntime).
func (e *emitter) rt(name string) *jen.Statement {
	switch {
	case e.runtime == "":
		return jen.Id(inlineName(e.m.Plan, name))
	case e.runtime == RuntimeImport && !e.kit && inImpl(name):
		return jen.Qual(RuntimeImplImport, name)
	}
	return jen.Qual(e.runtime, name)
}

// runtimeSource is one file of the runtime.
type runtimeSource struct {
	name string
	src  []byte
}

// deprecatedDirective marks, in the runtime's sources, the end of the doc
// comment of a declaration that a revision deprecating roots deprecates.
const deprecatedDirective = "//rootsgen:deprecated"

// kitRuntime is the runtime as a kit's package of its own, rootsrt: the
// declarations that the kit's other files, kit, use (as rootsrt.Name,
// where rootsrt is the import of runtimeImport) and the runtime's API
// (runtimeAPI, every part), with what those use in turn, under the header
// and without the deprecation directives (the revisions' packages
// deprecate what they re-export). So a kit whose SDK answers roots/list
// itself has none of the client side, and helpers only some revisions'
// types call are there when a revision that calls them is.
func kitRuntime(header, runtimeImport string, kit []File) ([]File, error) {
	rt, err := parseRuntime(nil)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	for _, kf := range kit {
		if !strings.HasSuffix(kf.Name, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), kf.Name, kf.Content, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", kf.Name, err)
		}
		name := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == runtimeImport {
				name = "rootsrt"
				if imp.Name != nil {
					name = imp.Name.Name
				}
			}
		}
		if name == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == name {
					used[sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	keep := rt.reachable(func(name string) bool { return used[name] || publicRuntime(name) })
	return rt.write("rootsrt", header, keep, nil)
}

// withHeader puts the generated-code header on top of src.
func withHeader(header string, src []byte) []byte {
	return append([]byte(header+"\n\n"), src...)
}

// dropDirectives replaces each deprecation directive line of src with
// deprecated, comment lines that continue a doc comment (nil removes it).
func dropDirectives(src []byte, deprecated []string) []byte {
	var b bytes.Buffer
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		if strings.TrimSpace(string(line)) != deprecatedDirective {
			b.Write(line)
			continue
		}
		indent := line[:bytes.Index(line, []byte("//"))]
		if len(deprecated) == 0 {
			// The empty comment line that set the directive apart goes too.
			if out := b.Bytes(); bytes.HasSuffix(out, append(slices.Clone(indent), "//\n"...)) {
				b.Truncate(len(out) - len(indent) - len("//\n"))
			}
		}
		for _, d := range deprecated {
			b.Write(indent)
			b.WriteString(d)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// inlineRuntime writes the runtime into the package pkg of a single
// revision, whose own files are revision: the runtime's declarations that
// the revision's code uses, and the API its plan offers (with what they
// use in turn), renamed as Plan.inlineName says. deprecated are the comment
// lines that deprecate the roots declarations, nil when the revision
// does not.
func inlineRuntime(pkg, header string, plan *Plan, revision []File, deprecated []string) ([]File, error) {
	rt, err := parseRuntime(deprecated)
	if err != nil {
		return nil, err
	}
	// What the revision's code names; its files already use inline names.
	own := map[string]bool{}
	roots := map[string]bool{}
	for _, rf := range revision {
		f, err := parser.ParseFile(token.NewFileSet(), rf.Name, rf.Content, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rf.Name, err)
		}
		for _, d := range f.Decls {
			for _, n := range rttable.DeclNames(d) {
				own[n] = true
			}
		}
		// A name the file does not declare (locals and the file's own
		// declarations resolve) may be the runtime's.
		references(f, func(id *ast.Ident) {
			if id.Obj == nil {
				roots[id.Name] = true
			}
		})
	}
	// Keep what is reachable from the revision's code and API; a name the
	// package declares itself is its own, not the runtime's.
	api := apiNames(plan)
	keep := rt.reachable(func(name string) bool {
		in := inlineName(plan, name)
		return roots[in] && !own[in] || slices.Contains(api, name)
	})
	renamed := map[string]string{} // runtime name -> inline name
	for name := range keep {
		in := inlineName(plan, name)
		if own[in] {
			return nil, fmt.Errorf("the runtime's %s would be %s, which the revision's package declares", name, in)
		}
		if in != name {
			if rt.decls[in] != nil {
				return nil, fmt.Errorf("the runtime's %s would be %s, which the runtime declares too", name, in)
			}
			renamed[name] = in
		}
	}
	return rt.write(pkg, header, keep, renamed)
}

// parsedRuntime is the runtime's sources, parsed.
type parsedRuntime struct {
	fset  *token.FileSet
	srcs  []runtimeSource
	text  [][]byte // the sources as parsed, directives replaced
	files []*ast.File
	decls map[string][]ast.Node // see runtimeDecls
}

// parseRuntime parses the runtime's sources, each deprecation directive
// replaced with deprecated (see dropDirectives).
func parseRuntime(deprecated []string) (*parsedRuntime, error) {
	srcs, err := runtimeSources()
	if err != nil {
		return nil, err
	}
	rt := &parsedRuntime{fset: token.NewFileSet(), srcs: srcs}
	for _, s := range srcs {
		text := dropDirectives(s.src, deprecated)
		f, err := parser.ParseFile(rt.fset, s.name, text, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("runtime %s: %w", s.name, err)
		}
		rt.text = append(rt.text, text)
		rt.files = append(rt.files, f)
		if err := cuttable(f); err != nil {
			return nil, fmt.Errorf("runtime %s: %w", s.name, err)
		}
	}
	rt.decls = runtimeDecls(rt.files)
	return rt, nil
}

// cuttable says why the declarations of f cannot be cut down to what is
// named from what is kept: nothing names an init function or a blank
// declaration, which would be left out in silence.
func cuttable(f *ast.File) error {
	for _, d := range f.Decls {
		if names := rttable.DeclNames(d); slices.Contains(names, "_") || slices.Contains(names, "init") {
			return errors.New("an init function or a blank declaration, which no cut-down of the runtime keeps")
		}
	}
	return nil
}

// reachable is the set of the runtime's names that root says yes to, and
// of the names their declarations use, in turn.
func (rt *parsedRuntime) reachable(root func(name string) bool) map[string]bool {
	keep := map[string]bool{}
	var queue []string
	mark := func(name string) {
		if rt.decls[name] != nil && !keep[name] {
			keep[name] = true
			queue = append(queue, name)
		}
	}
	for name := range rt.decls {
		if root(name) {
			mark(name)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, d := range rt.decls[name] {
			references(d, func(id *ast.Ident) { mark(id.Name) })
		}
	}
	return keep
}

// write returns the runtime's files with the declarations keep names
// (a file left with none is left out), renamed as renamed says, in
// package pkg, under header.
func (rt *parsedRuntime) write(pkg, header string, keep map[string]bool, renamed map[string]string) ([]File, error) {
	var out []File
	for i, f := range rt.files {
		if len(renamed) == 0 && f.Name.Name == pkg && !slices.ContainsFunc(f.Decls, func(d ast.Decl) bool { return !wholeDecl(d, keep) }) {
			// All of it, as written: no need to print it again.
			out = append(out, File{Name: rt.srcs[i].name, Content: withHeader(header, rt.text[i])})
			continue
		}
		cmap := ast.NewCommentMap(rt.fset, f, f.Comments)
		var kept []ast.Decl
		for _, d := range f.Decls {
			if keepDecl(d, keep) {
				kept = append(kept, d)
			}
		}
		if !slices.ContainsFunc(kept, func(d ast.Decl) bool { g, ok := d.(*ast.GenDecl); return !ok || g.Tok != token.IMPORT }) {
			continue // nothing of this file is used
		}
		f.Decls = kept
		f.Comments = cmap.Filter(f).Comments()
		rename(f, renamed)
		renameInComments(f, renamed)
		f.Name.Name = pkg
		deleteUnusedImports(rt.fset, f)
		var b bytes.Buffer
		if err := format.Node(&b, rt.fset, f); err != nil {
			return nil, fmt.Errorf("runtime %s: %w", rt.srcs[i].name, err)
		}
		out = append(out, File{Name: rt.srcs[i].name, Content: withHeader(header, b.Bytes())})
	}
	return out, nil
}

// runtimeDecls maps each package-level name of the runtime to the
// declarations it names, its methods among them.
func runtimeDecls(files []*ast.File) map[string][]ast.Node {
	decls := map[string][]ast.Node{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
				recv := receiverName(fd)
				decls[recv] = append(decls[recv], fd)
				continue
			}
			if gd, ok := d.(*ast.GenDecl); ok {
				for _, spec := range gd.Specs {
					for _, n := range rttable.SpecNames(spec) {
						decls[n] = append(decls[n], spec)
					}
				}
				continue
			}
			for _, n := range rttable.DeclNames(d) {
				decls[n] = append(decls[n], d)
			}
		}
	}
	delete(decls, "_")
	return decls
}

// keepDecl reports whether d stays, trimming the specs of a declaration
// group to the ones kept; a constant group stays whole (iota).
func keepDecl(d ast.Decl, keep map[string]bool) bool {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			return keep[receiverName(d)]
		}
		return keep[d.Name.Name]
	case *ast.GenDecl:
		if d.Tok == token.IMPORT {
			return true
		}
		var specs []ast.Spec
		for _, s := range d.Specs {
			for _, n := range rttable.SpecNames(s) {
				if keep[n] {
					specs = append(specs, s)
					break
				}
			}
		}
		if len(specs) == 0 {
			return false
		}
		if d.Tok != token.CONST {
			d.Specs = specs
		}
		return true
	}
	return true
}

// wholeDecl reports whether keepDecl keeps d as it is, with all its specs.
func wholeDecl(d ast.Decl, keep map[string]bool) bool {
	if g, ok := d.(*ast.GenDecl); ok && g.Tok != token.IMPORT && g.Tok != token.CONST {
		for _, s := range g.Specs {
			if !slices.ContainsFunc(rttable.SpecNames(s), func(n string) bool { return keep[n] }) {
				return false
			}
		}
		return true
	}
	return keepDecl(d, keep)
}

func receiverName(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// references calls ref with each identifier in n that may name a
// package-level declaration: not a field, method or selector name.
func references(n ast.Node, ref func(id *ast.Ident)) {
	astutil.Apply(n, func(c *astutil.Cursor) bool {
		if id, ok := c.Node().(*ast.Ident); ok && !isMemberName(c) {
			ref(id)
		}
		return true
	}, nil)
}

// isMemberName reports whether the identifier at c names a field, a method
// or a selected member, never a package-level declaration.
func isMemberName(c *astutil.Cursor) bool {
	switch parent := c.Parent().(type) {
	case *ast.SelectorExpr:
		return c.Name() == "Sel"
	case *ast.Field:
		return c.Name() == "Names"
	case *ast.FuncDecl:
		return c.Name() == "Name" && parent.Recv != nil
	case *ast.KeyValueExpr:
		return c.Name() == "Key" // a field of a struct literal; the runtime keys no map literal with its own names
	}
	return false
}

// rename renames, in f, the identifiers that name the runtime's
// package-level declarations as renamed says. Only exported names are
// renamed, and the runtime's local names are never exported, so a name is
// a package-level one wherever it is not a field, a method or a selector.
func rename(f *ast.File, renamed map[string]string) {
	astutil.Apply(f, func(c *astutil.Cursor) bool {
		id, ok := c.Node().(*ast.Ident)
		if !ok {
			return true
		}
		in, ok := renamed[id.Name]
		if !ok || isMemberName(c) {
			return true
		}
		id.Name = in
		return true
	}, nil)
}

// renameInComments renames, in f's comments, the words that are renamed
// identifiers, so that doc comments still name what they document. The
// first word of a field's or method's doc is its own name, kept as it is
// even where a renamed identifier has the same spelling (a field Path
// beside the type Path made path).
func renameInComments(f *ast.File, renamed map[string]string) {
	member := map[*ast.CommentGroup]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if n.Doc != nil && len(n.Names) > 0 {
				member[n.Doc] = n.Names[0].Name
			}
		case *ast.FuncDecl:
			if n.Doc != nil && n.Recv != nil {
				member[n.Doc] = n.Name.Name
			}
		}
		return true
	})
	for _, cg := range f.Comments {
		for i, c := range cg.List {
			head, text := "", c.Text
			if name := member[cg]; i == 0 && name != "" && commentWord.FindString(text) == name && strings.HasPrefix(text, "// "+name) {
				head, text = text[:len("// ")+len(name)], text[len("// ")+len(name):]
			}
			c.Text = head + commentWord.ReplaceAllStringFunc(text, func(w string) string {
				if in, ok := renamed[w]; ok {
					return in
				}
				return w
			})
		}
	}
}

// commentWord is an identifier-like word in a comment.
var commentWord = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*\b`)

// writeGroups writes the aliases of groups into f, one parenthesized
// declaration per kind, types first.
func writeGroups(f *jen.File, groups map[token.Token][]jen.Code) {
	if g := groups[token.TYPE]; len(g) > 0 {
		f.Type().Defs(g...)
	}
	if g := groups[token.CONST]; len(g) > 0 {
		f.Const().Defs(g...)
	}
	if g := groups[token.VAR]; len(g) > 0 {
		f.Var().Defs(g...)
	}
}
