package generator

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A kit's revision package is run by its gate alone, so of its functions
// and methods it needs those the gate can run: gateReach finds them. The
// package is type-checked (its imports but the runtime stand in as empty
// packages: nothing here needs their types) and walked from gate.go and
// the package's constants and variables:
//
//   - a function or method a reached one names (a call, a method value or
//     expression) is reached;
//   - MarshalJSON and UnmarshalJSON are also called by encoding/json, for
//     a value it writes or reads and for what that value holds, the first
//     method on the way stopping it (as encoding/json does). A reached
//     function hands a value to encoding/json where it calls json.Marshal
//     (writes) or json.Unmarshal (reads), where it calls a runtime function
//     that may write or read a value it is given (runtimeJSON), and, both
//     ways, where it converts the value to an interface type.
//
// The standard library calls MarshalJSON and UnmarshalJSON from
// encoding/json only; the one other method of the generated code that it
// may call through an interface is a union's String (fmt), which
// pruneTypes keeps with its type.

// jsonDir is what encoding/json may do with a value: write it, read it.
type jsonDir uint8

const (
	jsonWrite jsonDir = 1 << iota
	jsonRead
	jsonBoth = jsonWrite | jsonRead
)

// jsonCallDir is what encoding/json's function name does with the values
// it is given. (An Encoder's Encode and a Decoder's Decode are calls the
// stubs leave untyped, which hand their arguments over both ways.)
func jsonCallDir(name string) jsonDir {
	switch name {
	case "Marshal", "MarshalIndent":
		return jsonWrite
	case "Unmarshal":
		return jsonRead
	}
	return 0
}

// stubImporter imports every package as an empty one but those of pkgs.
type stubImporter map[string]*types.Package

func (s stubImporter) Import(p string) (*types.Package, error) {
	if pkg := s[p]; pkg != nil {
		return pkg, nil
	}
	name := path.Base(p)
	if _, err := strconv.Atoi(strings.TrimPrefix(name, "v")); err == nil && strings.HasPrefix(name, "v") && strings.Contains(p, "/") {
		name = path.Base(path.Dir(p)) // a major version's path: math/rand/v2 is rand
	}
	pkg := types.NewPackage(p, name)
	pkg.MarkComplete()
	return pkg, nil
}

// checked is a package type-checked as far as its stubbed imports let it.
type checked struct {
	pkg   *types.Package
	info  *types.Info
	funcs map[*types.Func]*ast.FuncDecl
}

func typeCheck(pkgPath string, fset *token.FileSet, files []*ast.File, imp types.Importer) *checked {
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Uses:       map[*ast.Ident]types.Object{},
		Defs:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances:  map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	pkg, _ := conf.Check(pkgPath, fset, files, info) // the stubs make errors; what is typed is right
	c := &checked{pkg: pkg, info: info, funcs: map[*types.Func]*ast.FuncDecl{}}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					c.funcs[fn] = fd
				}
			}
		}
	}
	return c
}

// callee is the function or method call calls, nil for a conversion, a
// call of a function value or a callee the stubs leave untyped.
func (c *checked) callee(call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if fn, ok := c.info.Uses[id].(*types.Func); ok {
		return fn.Origin()
	}
	return nil
}

// importOf is the import path of the package x names, "" if x names none.
func (c *checked) importOf(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		if pn, ok := c.info.Uses[id].(*types.PkgName); ok {
			return pn.Imported().Path()
		}
	}
	return ""
}

// handOffs calls add with each expression node hands to code that may
// give it to encoding/json, and what that code may do with it, as far as
// node's own syntax says: each argument of a call to encoding/json, or of
// a call whose callee (by calleeDir) may write or read what it is given,
// and, both ways, each value converted to an interface type (an argument
// whose parameter is one, unless calleeDir knows what the callee does
// with it; an assignment or a var declaration of one, a composite
// literal's element, a result or a channel's element that is one, an
// explicit conversion).
func (c *checked) handOffs(node ast.Node, calleeDir func(call *ast.CallExpr) (d jsonDir, known bool), addType func(t types.Type, d jsonDir)) {
	h := handOffWalk{c: c, calleeDir: calleeDir, addType: addType, asserted: map[*ast.CallExpr]bool{}}
	ast.Inspect(node, h.visit)
}

// handOffWalk is one walk of handOffs: the package it walks, the callback
// that says what a callee does with what it is given, and the one told of
// each hand-off.
type handOffWalk struct {
	c         *checked
	calleeDir func(call *ast.CallExpr) (d jsonDir, known bool)
	addType   func(t types.Type, d jsonDir)
	// asserted are the conversions to an interface whose value is only
	// type-asserted (any(x).(T)): it goes nowhere.
	asserted map[*ast.CallExpr]bool
}

// keysOnly are the standard functions that hand back only the keys of a
// map they are given, never its values: maps.Keys. (Other functions of
// the stubbed packages hand back what they are given, untyped, so they
// count as taking it both ways.)
var keysOnly = map[string][]string{"maps": {"Keys"}}

// add hands over e's value, d saying how.
func (h handOffWalk) add(e ast.Expr, d jsonDir) { h.addType(h.c.info.TypeOf(e), d) }

// convert hands over, both ways, a value of type t put where target is
// wanted, when that makes it an interface (a nil target is unknown, an
// invalid one an interface the stubs leave untyped).
func (h handOffWalk) convert(t, target types.Type) {
	if t != nil && types.IsInterface(t) {
		if _, param := t.(*types.TypeParam); !param {
			return // converted where it was put in the interface
		}
	}
	if _, param := target.(*types.TypeParam); target == nil || !param && (types.IsInterface(target) || target == types.Typ[types.Invalid]) {
		h.addType(t, jsonBoth)
	}
}

// toIface converts e's value to target (see convert).
func (h handOffWalk) toIface(e ast.Expr, target types.Type) { h.convert(h.c.info.TypeOf(e), target) }

// toIfaces: e, a tuple (a call with several results), goes to targets.
func (h handOffWalk) toIfaces(e ast.Expr, targets []types.Type) {
	tuple, ok := h.c.info.TypeOf(e).(*types.Tuple)
	if !ok || tuple.Len() != len(targets) {
		h.toIface(e, nil) // untyped: it may go anywhere
		return
	}
	for i, target := range targets {
		h.convert(tuple.At(i).Type(), target)
	}
}

// visit finds the hand-offs of n's own syntax; it is ast.Inspect's
// callback, and always goes on into n.
func (h handOffWalk) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if fn, ok := h.c.info.Defs[n.Name].(*types.Func); ok {
			h.returns(n.Body, fn.Signature())
		}
	case *ast.FuncLit:
		sig, _ := h.c.info.TypeOf(n).(*types.Signature)
		h.returns(n.Body, sig)
	case *ast.ValueSpec:
		h.valueSpec(n)
	case *ast.SendStmt:
		h.send(n)
	case *ast.TypeAssertExpr:
		// Only an assertion to a concrete type ends the value's way: one
		// to an interface (or a type switch) hands it on.
		if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && n.Type != nil {
			_, ptr := ast.Unparen(n.Type).(*ast.StarExpr) // a pointer, even to a stubbed type
			if t := h.c.info.TypeOf(n.Type); ptr || t != nil && t != types.Typ[types.Invalid] && !types.IsInterface(t) {
				h.asserted[call] = true
			}
		}
	case *ast.CallExpr:
		h.call(n)
	case *ast.AssignStmt:
		h.assign(n)
	case *ast.RangeStmt:
		h.rangeStmt(n)
	case *ast.IndexExpr:
		h.index(n)
	case *ast.CompositeLit:
		h.compositeLit(n)
	}
	return true
}

// returns converts what body returns to sig's results.
func (h handOffWalk) returns(body *ast.BlockStmt, sig *types.Signature) {
	if body == nil || sig == nil {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			h.returnStmt(n, sig.Results())
		}
		return true
	})
}

// returnStmt converts what ret returns to results, those of the function
// it returns from.
func (h handOffWalk) returnStmt(ret *ast.ReturnStmt, results *types.Tuple) {
	if len(ret.Results) == results.Len() {
		for i, r := range ret.Results {
			h.toIface(r, results.At(i).Type())
		}
	} else if len(ret.Results) == 1 {
		var ts []types.Type
		for i := range results.Len() {
			ts = append(ts, results.At(i).Type())
		}
		h.toIfaces(ret.Results[0], ts)
	}
}

// valueSpec converts the values of a var declaration to its type, if it
// says one.
func (h handOffWalk) valueSpec(n *ast.ValueSpec) {
	if n.Type != nil {
		for _, v := range n.Values {
			h.toIface(v, h.c.info.TypeOf(n.Type))
		}
	}
}

// send converts the value sent to the channel's element type.
func (h handOffWalk) send(n *ast.SendStmt) {
	if t := h.c.info.TypeOf(n.Chan); t != nil {
		if ch, ok := t.Underlying().(*types.Chan); ok {
			h.toIface(n.Value, ch.Elem())
		}
	}
}

// call hands over what a call is given: its arguments to encoding/json
// or a callee that may give them to it, and each argument converted to
// its parameter's type. An explicit conversion to an interface hands
// over the value converted.
func (h handOffWalk) call(n *ast.CallExpr) {
	if tv, ok := h.c.info.Types[n.Fun]; ok && tv.IsType() {
		if _, param := tv.Type.(*types.TypeParam); !param && types.IsInterface(tv.Type) && len(n.Args) == 1 && !h.asserted[n] {
			h.add(n.Args[0], jsonBoth)
		}
		return
	}
	var d jsonDir
	jsonPkg, known := false, false
	if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && h.c.importOf(sel.X) == "encoding/json" {
		d, jsonPkg = jsonCallDir(sel.Sel.Name), true
	} else if ok && slices.Contains(keysOnly[h.c.importOf(sel.X)], sel.Sel.Name) {
		for _, a := range n.Args {
			if m, ok := h.c.info.TypeOf(a).Underlying().(*types.Map); ok {
				h.addType(m.Key(), jsonBoth) // the keys go on, untyped
			} else {
				h.toIface(a, nil)
			}
		}
		return
	} else {
		d, known = h.calleeDir(n)
	}
	sig, _ := h.c.info.TypeOf(n.Fun).(*types.Signature)
	for i, a := range n.Args {
		if d != 0 {
			h.add(a, d)
		}
		if sig == nil && !jsonPkg {
			h.toIface(a, nil) // a callee the stubs leave untyped may take any
		}
		if sig != nil && sig.Params().Len() > 0 && !(known && anyParam(sig, i)) {
			h.toIface(a, paramType(sig, i, n.Ellipsis.IsValid()))
		}
	}
}

// anyParam says whether argument i of a call of sig goes to a parameter
// of type any itself (not to a ...any): the one anyDirs follows.
func anyParam(sig *types.Signature, i int) bool {
	if sig.Params().Len() == 0 || sig.Variadic() && i >= sig.Params().Len()-1 {
		return false
	}
	it, ok := sig.Params().At(min(i, sig.Params().Len()-1)).Type().Underlying().(*types.Interface)
	return ok && it.Empty()
}

// paramType is the type of the parameter that argument i of a call of
// sig goes to: a variadic parameter's element type, unless the call
// passes a slice with "...". sig has at least one parameter.
func paramType(sig *types.Signature, i int, ellipsis bool) types.Type {
	j := min(i, sig.Params().Len()-1)
	pt := sig.Params().At(j).Type()
	if sig.Variadic() && j == sig.Params().Len()-1 && !ellipsis {
		if s, ok := pt.(*types.Slice); ok {
			pt = s.Elem()
		}
	}
	return pt
}

// assign converts what an assignment (= or :=) assigns to the types of
// what it is assigned to.
func (h handOffWalk) assign(n *ast.AssignStmt) {
	if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
		return
	}
	if len(n.Lhs) == len(n.Rhs) {
		for i, l := range n.Lhs {
			if t := h.c.info.TypeOf(l); t != nil {
				h.toIface(n.Rhs[i], t)
			}
		}
	} else if len(n.Rhs) == 1 {
		var ts []types.Type
		for _, l := range n.Lhs {
			ts = append(ts, h.c.info.TypeOf(l)) // nil for _, which counts as unknown
		}
		h.toIfaces(n.Rhs[0], ts)
	}
}

// rangeStmt converts what a range with = ranges over to the types of the
// key and value it assigns to.
func (h handOffWalk) rangeStmt(n *ast.RangeStmt) {
	if n.Tok == token.ASSIGN {
		for _, l := range []ast.Expr{n.Key, n.Value} {
			if t := h.c.info.TypeOf(l); l != nil && t != nil {
				h.toIface(n.X, t)
			}
		}
	}
}

// index converts a map's index to the map's key type.
func (h handOffWalk) index(n *ast.IndexExpr) {
	if t := h.c.info.TypeOf(n.X); t != nil {
		if m, ok := t.Underlying().(*types.Map); ok {
			h.toIface(n.Index, m.Key())
		}
	}
}

// compositeLit converts each element of a composite literal to the type
// it is put in, and each key of a map literal to the map's key type.
func (h handOffWalk) compositeLit(n *ast.CompositeLit) {
	t := h.c.info.TypeOf(n)
	if t == nil {
		return
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
	}
	for i, el := range n.Elts {
		kv, keyed := el.(*ast.KeyValueExpr)
		v := el
		if keyed {
			v = kv.Value
		}
		h.toIface(v, litElemType(u, el, i))
		if m, ok := u.(*types.Map); ok && keyed {
			h.toIface(kv.Key, m.Key())
		}
	}
}

// litElemType is the type element el, the i-th, of a composite literal
// puts its value in, u being the underlying type of the literal's type
// (of its element type, for a pointer's elided &T{...}); nil if unknown.
func litElemType(u types.Type, el ast.Expr, i int) types.Type {
	kv, keyed := el.(*ast.KeyValueExpr)
	switch u := u.(type) {
	case *types.Map:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Struct:
		if !keyed {
			if i < u.NumFields() {
				return u.Field(i).Type()
			}
			return nil
		}
		var target types.Type
		if id, ok := kv.Key.(*ast.Ident); ok {
			for f := range u.NumFields() {
				if u.Field(f).Name() == id.Name {
					target = u.Field(f).Type()
				}
			}
		}
		return target
	}
	return nil
}

// runtimeJSON says, for each function and method of the runtime at
// import path rt, whether it may write or read, with encoding/json, a
// value its caller gives it: whether it or a runtime function it names
// calls encoding/json with a value whose type holds a type parameter or
// an interface (where a caller's value can be), calls MarshalJSON or
// UnmarshalJSON, or converts such a value to an interface. The runtime is
// read from its sources, as the kit writes it.
func runtimeJSON(rt string) (*checked, map[*types.Func]jsonDir, error) {
	runtimeCache.Lock()
	defer runtimeCache.Unlock()
	if e, ok := runtimeCache.m[rt]; ok {
		return e.c, e.dirs, nil
	}
	srcs, err := runtimeSources()
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, s := range srcs {
		f, err := parser.ParseFile(fset, s.name, s.src, 0)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	c := typeCheck(rt, fset, files, stubImporter{})
	// A caller's value is in one of a type parameter's type, or in a
	// parameter of type any (anyDirs).
	foreign := func(t types.Type) bool {
		found := false
		walkType(t, func(t types.Type) bool {
			_, found = t.(*types.TypeParam)
			return !found
		})
		return found
	}
	anyD := c.anyDirs()
	// A runtime function's code says what it does with what it is given
	// as an any; a call of it converts nothing to an interface of its own.
	known := func(call *ast.CallExpr) (jsonDir, bool) {
		if fn := c.callee(call); fn != nil {
			if fd := c.funcs[fn.Origin()]; fd != nil && fd.Body != nil {
				return anyD[fn.Origin()], true
			}
		}
		return 0, false
	}
	// A generic type's methods may get what its instances hold.
	methodsOf := map[*types.TypeName][]*types.Func{}
	for fn := range c.funcs {
		if recv := fn.Signature().Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok {
				methodsOf[n.Origin().Obj()] = append(methodsOf[n.Origin().Obj()], fn)
			}
		}
	}
	own := map[*types.Func]jsonDir{}
	calls := map[*types.Func][]*types.Func{}
	for fn, fd := range c.funcs {
		if fd.Body == nil {
			continue
		}
		var d jsonDir
		c.handOffs(fd, known, func(t types.Type, dir jsonDir) {
			if foreign(t) {
				d |= dir
			}
		})
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if callee, ok := c.info.Uses[id].(*types.Func); ok && c.funcs[callee.Origin()] != nil {
					calls[fn] = append(calls[fn], callee.Origin())
				}
				if tn, ok := c.info.Uses[id].(*types.TypeName); ok {
					calls[fn] = append(calls[fn], methodsOf[tn]...)
				}
				switch id.Name {
				case "MarshalJSON":
					d |= jsonWrite
				case "UnmarshalJSON":
					d |= jsonRead
				}
			}
			return true
		})
		own[fn] = d | anyD[fn]
	}
	dirs := maps.Clone(own)
	for changed := true; changed; {
		changed = false
		for fn, cs := range calls {
			for _, callee := range cs {
				if d := dirs[fn] | dirs[callee]; d != dirs[fn] {
					dirs[fn], changed = d, true
				}
			}
		}
	}
	runtimeCache.m[rt] = runtimeEntry{c, dirs}
	return c, dirs, nil
}

// anyDirs is what each runtime function does, with encoding/json, with
// the values its parameters of type any are given: it writes a value it
// hands to json.Marshal and reads one it hands to json.Unmarshal, does
// what a runtime function it hands it to does with its own, and may do
// either with one it does anything else with (stores, returns, converts,
// hands to another package).
func (c *checked) anyDirs() map[*types.Func]jsonDir {
	dirs := map[*types.Func]jsonDir{}
	for changed := true; changed; {
		changed = false
		for fn, fd := range c.funcs {
			params := map[types.Object]bool{}
			for p := range fn.Signature().Params().Variables() {
				if i, ok := p.Type().Underlying().(*types.Interface); ok && i.Empty() {
					params[p] = true
				}
			}
			if fd.Body == nil || len(params) == 0 {
				continue
			}
			d := dirs[fn]
			var parents []ast.Node
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if n == nil {
					parents = parents[:len(parents)-1]
					return true
				}
				if id, ok := n.(*ast.Ident); ok && params[c.info.Uses[id]] {
					d |= c.anyUse(id, parents, dirs)
				}
				parents = append(parents, n)
				return true
			})
			if d != dirs[fn] {
				dirs[fn], changed = d, true
			}
		}
	}
	return dirs
}

// anyUse is what the use id of a parameter of type any, under parents,
// does with its value (see anyDirs), dirs being what is known of the
// runtime's functions so far.
func (c *checked) anyUse(id *ast.Ident, parents []ast.Node, dirs map[*types.Func]jsonDir) jsonDir {
	if len(parents) == 0 {
		return jsonBoth
	}
	call, ok := parents[len(parents)-1].(*ast.CallExpr)
	if !ok || !slices.Contains(call.Args, ast.Expr(id)) {
		return jsonBoth
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && c.importOf(sel.X) == "encoding/json" {
		return cmp.Or(jsonCallDir(sel.Sel.Name), jsonBoth)
	}
	if fn := c.callee(call); fn != nil && c.funcs[fn.Origin()] != nil && fn.Signature().TypeParams().Len() == 0 &&
		anyParam(fn.Signature(), slices.Index(call.Args, ast.Expr(id))) {
		return dirs[fn.Origin()]
	}
	return jsonBoth
}

type runtimeEntry struct {
	c    *checked
	dirs map[*types.Func]jsonDir
}

var runtimeCache = struct {
	sync.Mutex
	m map[string]runtimeEntry
}{m: map[string]runtimeEntry{}}

// walkType calls visit with t and each type t holds (pointees, elements,
// map keys, fields, parameters and results, the underlying type of a named
// one, its type arguments), each once, as long as visit says to go on.
func walkType(t types.Type, visit func(types.Type) bool) {
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if !visit(t) {
			return
		}
		switch t := t.(type) {
		case *types.Alias:
			walk(types.Unalias(t))
		case *types.Named:
			for i := range t.TypeArgs().Len() {
				walk(t.TypeArgs().At(i))
			}
			walk(t.Underlying())
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Struct:
			for i := range t.NumFields() {
				walk(t.Field(i).Type())
			}
		case *types.Tuple:
			for i := range t.Len() {
				walk(t.At(i).Type())
			}
		case *types.Signature:
			walk(t.Params())
			walk(t.Results())
		}
	}
	walk(t)
}

// method is t's method name, nil if it has none.
func method(t types.Type, name string) *types.Func {
	if sel := types.NewMethodSet(t).Lookup(nil, name); sel != nil {
		fn, _ := sel.Obj().(*types.Func)
		return fn
	}
	return nil
}

// gateReach returns the functions and methods of out's typeFiles, the
// files of kit revision package pkg importing the runtime at rt, that
// gate.go or the package's constants and variables can run (see above),
// by declKey; also names, by declKey, more functions to start from.
func gateReach(out []File, pkg, rt string, also map[string]bool) (map[string]bool, error) {
	rc, rdirs, err := runtimeJSON(rt)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	files, roots, err := parseGate(fset, out)
	if err != nil {
		return nil, err
	}
	r := newReacher(typeCheck(pkg, fset, files, stubImporter{rt: rc.pkg}), rc, rdirs)
	for fn, fd := range r.c.funcs {
		// An init runs whatever the gate does.
		if also[declKey(fd)] || fd.Recv == nil && fd.Name.Name == "init" {
			r.reach(fn)
		}
	}
	for _, root := range roots {
		r.visit(root)
	}
	for len(r.queue) > 0 {
		n := r.queue[0]
		r.queue = r.queue[1:]
		r.visit(n)
	}
	return r.reached, nil
}

// parseGate parses out's typeFiles and gate.go into fset, and returns
// them and the roots gateReach starts from: the files' constant and
// variable declarations, and all of gate.go's.
func parseGate(fset *token.FileSet, out []File) ([]*ast.File, []ast.Node, error) {
	var files []*ast.File
	var roots []ast.Node
	for _, f := range out {
		if !slices.Contains(typeFiles, f.Name) && f.Name != "gate.go" {
			continue
		}
		file, err := parser.ParseFile(fset, f.Name, f.Content, 0)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, file)
		for _, d := range file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && (g.Tok == token.CONST || g.Tok == token.VAR) || f.Name == "gate.go" {
				roots = append(roots, d)
			}
		}
	}
	return files, roots, nil
}

// A reacher is gateReach's walk of a kit revision package: what it has
// reached, by declKey, and the declarations it reached but has yet to
// visit.
type reacher struct {
	c *checked // the package
	// rc is the runtime the package imports, and rdirs what its functions
	// may do with encoding/json (runtimeJSON).
	rc    *checked
	rdirs map[*types.Func]jsonDir
	// methods are the package's methods by name, for a selector the stubs
	// leave untyped.
	methods map[string][]*types.Func
	reached map[string]bool
	queue   []ast.Node
}

// newReacher returns a reacher of package c, which imports runtime rc,
// rdirs saying what rc's functions do with encoding/json; it has reached
// nothing yet.
func newReacher(c, rc *checked, rdirs map[*types.Func]jsonDir) *reacher {
	r := &reacher{c: c, rc: rc, rdirs: rdirs, methods: map[string][]*types.Func{}, reached: map[string]bool{}}
	for fn, fd := range c.funcs {
		if fd.Recv != nil {
			r.methods[fn.Name()] = append(r.methods[fn.Name()], fn)
		}
	}
	return r
}

// local says whether fn is the package's own.
func (r *reacher) local(fn *types.Func) bool { return fn.Pkg() == r.c.pkg }

// reach marks fn reached and queues its declaration, if the package
// declares it and it is not reached already.
func (r *reacher) reach(fn *types.Func) {
	if fd := r.c.funcs[fn.Origin()]; fd != nil && !r.reached[declKey(fd)] {
		r.reached[declKey(fd)] = true
		r.queue = append(r.queue, fd)
	}
}

// jsonCalls reaches the MarshalJSON (writing) and UnmarshalJSON
// (reading) that encoding/json calls for a value of type t.
func (r *reacher) jsonCalls(t types.Type, d jsonDir) {
	for _, dir := range []jsonDir{jsonWrite, jsonRead} {
		if d&dir == 0 {
			continue
		}
		name := "MarshalJSON"
		if dir == jsonRead {
			name = "UnmarshalJSON"
		}
		walkType(t, func(t types.Type) bool {
			n, ok := t.(*types.Named)
			if !ok || n.Obj().Pkg() != r.c.pkg {
				return true
			}
			if m := method(n, name); m != nil && dir == jsonWrite {
				r.reach(m)
				return false // encoding/json writes the value with it
			}
			if m := method(types.NewPointer(n), name); m != nil {
				r.reach(m)
				// Reading always has a pointer; writing may not.
				return dir == jsonWrite
			}
			return true
		})
	}
}

// calleeDir is what the callee of call may do, with encoding/json, with
// what it is given: nothing for the package's own functions (their
// hand-offs are found where they are reached), what runtimeJSON says for
// the runtime's.
func (r *reacher) calleeDir(call *ast.CallExpr) (jsonDir, bool) {
	if fn := r.c.callee(call); fn != nil {
		if r.local(fn) {
			return 0, false
		}
		// A runtime function's code says what it does with an argument
		// converted to its any.
		fd := r.rc.funcs[fn.Origin()]
		return r.rdirs[fn.Origin()], fd != nil && fd.Body != nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || r.c.importOf(sel.X) != "" || r.c.info.Selections[sel] != nil {
		return 0, false
	}
	// A method on a value the stubs leave untyped: whatever a runtime
	// method of that name may do.
	var d jsonDir
	for fn, fd := range r.rc.funcs {
		if fd.Recv != nil && fn.Name() == sel.Sel.Name {
			d |= r.rdirs[fn]
		}
	}
	return d, false
}

// typeDir is what the methods of the runtime's generic type tn may do
// with encoding/json: the values of its type parameters reach it through
// them alone.
func (r *reacher) typeDir(tn *types.TypeName) jsonDir {
	var d jsonDir
	for fn := range r.rc.funcs {
		recv := fn.Signature().Recv()
		if recv == nil {
			continue
		}
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok && n.Origin().Obj().Name() == tn.Name() {
			d |= r.rdirs[fn]
		}
	}
	return d
}

// visit reaches what n runs: the package's functions and methods it
// names, and the MarshalJSON and UnmarshalJSON encoding/json calls for
// what it hands over.
func (r *reacher) visit(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if fn, ok := r.c.info.Uses[n].(*types.Func); ok && r.local(fn) {
				r.reach(fn)
			}
		case *ast.SelectorExpr:
			if r.c.info.Uses[n.Sel] == nil && r.c.importOf(n.X) == "" {
				for _, fn := range r.methods[n.Sel.Name] {
					r.reach(fn)
				}
			}
		}
		return true
	})
	r.c.handOffs(n, r.calleeDir, r.jsonCalls)
	r.instances(n)
}

// instances reaches what encoding/json calls for the type arguments of
// what n instantiates: the type arguments of a runtime function it
// instantiates are handed to it too.
func (r *reacher) instances(n ast.Node) {
	for id, inst := range r.c.info.Instances {
		if id.Pos() < n.Pos() || id.End() > n.End() {
			continue
		}
		d := jsonBoth // anything generic of the package's
		switch obj := r.c.info.Uses[id].(type) {
		case *types.Func:
			if !r.local(obj) {
				d = r.rdirs[obj.Origin()]
			}
		case *types.TypeName:
			if obj.Pkg() != r.c.pkg {
				d = r.typeDir(obj) // a generic type of the runtime's
			}
		}
		if obj := r.c.info.Uses[id]; obj != nil {
			for i := range inst.TypeArgs.Len() {
				r.jsonCalls(inst.TypeArgs.At(i), d)
			}
		}
	}
}

// declKey names a function or method declaration: Name, or Type.Name.
func declKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
