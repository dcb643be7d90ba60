package generator

import (
	"bytes"
	"embed"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/rootsgen/rootsgen/generator/internal/rttable"
	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// The runtime is two packages of this module: rootsrt, what a server
// meets, and rtimpl, which rootsrt imports, what only generated code
// calls. The generator works on the two as one package, rootsrt (the
// merged runtime): rtimpl's files as they are, and rootsrt's with each
// rtimpl.X written X and without the declarations that only name rtimpl's
// under the same name (rootsrt's re-exports). The code it emits names
// every runtime identifier rootsrt.X. Written with a copy of the runtime,
// the merged runtime is that copy; importing the runtime, each rootsrt.X
// that rootsrt does not declare becomes rtimpl.X (splitRuntime).

// RuntimeImplImport is the import path of rtimpl, the part of the runtime
// that generated code alone calls.
const RuntimeImplImport = RuntimeImport + "/rtimpl"

// runtimeNames are the package-level names each runtime package declares,
// from the runtime table.
type runtimeNames struct {
	public, impl map[string]bool // rootsrt's, rtimpl's
}

var runtimeNamesOnce = sync.OnceValues(func() (runtimeNames, error) {
	n := runtimeNames{public: map[string]bool{}, impl: map[string]bool{}}
	for _, name := range runtimeTable.public {
		n.public[name] = true
	}
	for _, name := range runtimeTable.impl {
		n.impl[name] = true
	}
	return n, nil
})

// readSources are the Go files of a runtime package's Source, tests left
// out, in name order.
func readSources(source embed.FS) ([]runtimeSource, error) {
	files, err := rttable.ReadFiles(source)
	out := make([]runtimeSource, len(files))
	for i, f := range files {
		out[i] = runtimeSource{f.Name, f.Src}
	}
	return out, err
}

// runtimeSources are the merged runtime's files, in name order, made once
// per process; callers must not change them.
func runtimeSources() ([]runtimeSource, error) { return mergedRuntime() }

var mergedRuntime = sync.OnceValues(func() ([]runtimeSource, error) {
	names, err := runtimeNamesOnce()
	if err != nil {
		return nil, err
	}
	impl, err := readSources(rtimpl.Source)
	if err != nil {
		return nil, err
	}
	public, err := readSources(rootsrt.Source)
	if err != nil {
		return nil, err
	}
	out := make([]runtimeSource, 0, len(impl)+len(public))
	for _, s := range impl {
		src, ok := bytes.CutPrefix(s.src, []byte("package rtimpl\n"))
		if !ok {
			return nil, fmt.Errorf("runtime rtimpl/%s: does not start with its package clause", s.name)
		}
		out = append(out, runtimeSource{s.name, append([]byte("package rootsrt\n"), src...)})
	}
	for _, s := range public {
		if slices.ContainsFunc(impl, func(i runtimeSource) bool { return i.name == s.name }) {
			return nil, fmt.Errorf("runtime: rootsrt and rtimpl both have a file %s", s.name)
		}
		src, err := mergeImpl(s, names.impl)
		if err != nil {
			return nil, fmt.Errorf("runtime %s: %w", s.name, err)
		}
		if src != nil {
			out = append(out, runtimeSource{s.name, src})
		}
	}
	slices.SortFunc(out, func(a, b runtimeSource) int { return strings.Compare(a.name, b.name) })
	return out, nil
})

// mergeImpl is a file of rootsrt as a file of the merged runtime: each
// rtimpl.X written X, the import of rtimpl gone, and the declarations of
// names rtimpl declares too (rootsrt's re-exports of them) left out; nil
// when nothing else is left.
func mergeImpl(s runtimeSource, impl map[string]bool) ([]byte, error) {
	if !bytes.Contains(s.src, []byte(strconv.Quote(RuntimeImplImport))) {
		return s.src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, s.name, s.src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	cmap := ast.NewCommentMap(fset, f, f.Comments)
	var kept []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && impl[d.Name.Name] {
				continue
			}
		case *ast.GenDecl:
			d.Specs = slices.DeleteFunc(d.Specs, func(spec ast.Spec) bool {
				names := rttable.SpecNames(spec)
				return len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool { return !impl[n] })
			})
			if len(d.Specs) == 0 {
				continue
			}
		}
		kept = append(kept, d)
	}
	if !slices.ContainsFunc(kept, func(d ast.Decl) bool { g, ok := d.(*ast.GenDecl); return !ok || g.Tok != token.IMPORT }) {
		return nil, nil
	}
	f.Decls = kept
	astutil.Apply(f, func(c *astutil.Cursor) bool {
		if sel, ok := c.Node().(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "rtimpl" {
				c.Replace(ast.NewIdent(sel.Sel.Name))
			}
		}
		return true
	}, nil)
	astutil.DeleteImport(fset, f, RuntimeImplImport)
	f.Comments = cmap.Filter(f).Comments()
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// inImpl reports whether rtimpl declares name: code generated for a single
// revision names it there (rtimpl.X), and rootsrt only for what rootsrt
// alone declares, so that most of its files import one package.
func inImpl(name string) bool {
	names, err := runtimeNamesOnce()
	return err == nil && names.impl[name]
}

// splitRuntime makes files, generated against the merged runtime imported
// at RuntimeImport, name what rtimpl declares there: each rootsrt.X that
// package rootsrt does not declare becomes rtimpl.X.
func splitRuntime(files []File) ([]File, error) {
	names, err := runtimeNamesOnce()
	if err != nil {
		return nil, err
	}
	out := slices.Clone(files)
	for i, file := range out {
		if !strings.HasSuffix(file.Name, ".go") || !bytes.Contains(file.Content, []byte(strconv.Quote(RuntimeImport))) {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file.Name, file.Content, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file.Name, err)
		}
		local := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == RuntimeImport {
				local = "rootsrt"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		var refs []*ast.SelectorExpr
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
					refs = append(refs, sel)
				}
			}
			return true
		})
		// What rtimpl declares goes to rtimpl; what rootsrt re-exports
		// too, there as well when nothing else needs rootsrt, so that the
		// file imports one package.
		public := slices.ContainsFunc(refs, func(sel *ast.SelectorExpr) bool {
			return names.public[sel.Sel.Name] && !names.impl[sel.Sel.Name]
		})
		var missing []string
		split := false
		for _, sel := range refs {
			name := sel.Sel.Name
			switch {
			case !names.public[name] && !names.impl[name]:
				missing = append(missing, name)
			case names.impl[name] && (!names.public[name] || !public):
				sel.X.(*ast.Ident).Name = "rtimpl"
				split = true
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("%s: the runtime declares no %s", file.Name, strings.Join(missing, ", "))
		}
		if !split {
			continue
		}
		astutil.AddNamedImport(fset, f, "rtimpl", RuntimeImplImport)
		deleteUnusedImports(fset, f)
		var b bytes.Buffer
		if err := format.Node(&b, fset, f); err != nil {
			return nil, fmt.Errorf("%s: %w", file.Name, err)
		}
		out[i].Content = b.Bytes()
	}
	return out, nil
}
