package generator

//go:generate go run ./internal/rttable/gen

// runtimeIndex is the runtime as the generator knows it without reading
// its sources: runtime_table.go, which go generate writes from them
// (package rttable) and TestRuntimeTableFresh keeps fresh.
type runtimeIndex struct {
	// public and impl are the package-level names rootsrt and rtimpl
	// declare, sorted, unexported ones and rootsrt's re-exports included.
	public, impl []string
	// decls are rootsrt's exported names, as runtime.go of a single
	// revision re-declares them.
	decls map[string]runtimeDecl
}

// A runtimeDecl is one exported name of rootsrt.
type runtimeDecl struct {
	kind declKind
	// marked: its doc comment ends in the deprecation directive.
	marked bool
	// params and args: of a type, its type parameters as declared and as
	// arguments ("[R any]", "[R]"); of a function, its signature and the
	// call that passes its parameters on, names of rootsrt as rootsrt.X.
	params, args string
	// imports are the other packages params names, as `name "path"`.
	imports []string
}

// declKind is what a runtimeDecl declares.
type declKind int

const (
	typeDecl declKind = iota
	constDecl
	varDecl
	funcDecl
)
