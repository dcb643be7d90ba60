package generator

import (
	"slices"

	"github.com/rootsgen/rootsgen/generator/internal/model"
)

// The names a generated package declares itself, whatever its schema: the
// emitter's (ProtocolVersion, the Method type), the glue's (the templates'
// exported declarations) and the runtime's API (runtimeAPI). Names made
// from the schema must stay clear of them: Build gives a definition, a
// nested type or a constant whose Go name is one of them another name (see
// builder.name), and checkDeclarations refuses a model whose names would
// still clash. TestOwnNamesAreWhatPackagesDeclare checks the tables below
// against what generated packages declare, so they cannot drift from the
// templates.

// protocolVersionName is the constant that names the package's revision.
const protocolVersionName = "ProtocolVersion"

// An ownPart is a set of package-level names a revision's package declares
// itself when its plan has a part.
type ownPart struct {
	// file is the file that declares them.
	file string
	// has reports whether the package of plan p declares them; kit: the
	// package is a revision's package in a kit.
	has   func(p *Plan, kit bool) bool
	names []string
}

// single is a part of a single-revision package only.
func single(has func(*Plan) bool) func(*Plan, bool) bool {
	return func(p *Plan, kit bool) bool { return !kit && has(p) }
}

// ownParts are the names the emitter and the templates declare, by part.
// roots.go is there only with Handlers (planFiles), and example_test.go
// only with Examples.
var ownParts = []ownPart{
	{"types.go", func(*Plan, bool) bool { return true }, []string{protocolVersionName, model.MethodTypeName}},
	{"roots.go", single(func(p *Plan) bool { return p.Handlers != nil }), []string{"ListRootsParams", "ListRootsHandler", "ListRootsHandlerFunc", "UnimplementedListRootsHandler", "Client"}},
	{"roots.go", single(func(p *Plan) bool { return p.Handlers != nil && p.Paging != nil }), []string{"DefaultPageSize", "ListRootsPage"}},
	{"roots.go", single(func(p *Plan) bool { return p.NotifyListChanged() }), []string{"SendFunc"}},
	{"roots.go", single(func(p *Plan) bool { return p.ListChanged != nil }), []string{"RootsListChangedParams", "ListChangedHandler", "ListChangedHandlerFunc", "UnimplementedListChangedHandler"}},
	{"roots.go", single(func(p *Plan) bool { return p.Direct }), []string{"RequestFunc", "Server"}},
	{"roots.go", single(func(p *Plan) bool { return p.Ask != nil }), []string{"AskForRoots", "RootsFromInputResponses"}},
	{"roots.go", single(func(p *Plan) bool { return p.Ask != nil && p.Paging != nil }), []string{"AskForRootsPage", "RootsPageFromInputResponses"}},
	{"roots.go", single(func(p *Plan) bool { return p.Handlers != nil && p.Require }), []string{"RequireRoots"}},
	{"rootset.go", single(func(p *Plan) bool { return p.RootSet() }), []string{"RootSet", "NewRootSet"}},
	{"example_test.go", single(func(p *Plan) bool { return p.Examples != nil }), []string{"Example_decodeListRootsResult", "Example_decodeListRootsRequest"}},
	{"example_test.go", single(func(p *Plan) bool { return p.Examples != nil && p.RootSet() }), []string{"ExampleRootSet", "ExampleRootSet_ReadFile"}},
	{"example_test.go", single(func(p *Plan) bool { return p.Examples != nil && p.Ask != nil }), []string{"ExampleStateSealer"}},
	{"gate.go", func(p *Plan, kit bool) bool { return kit && p.Handlers != nil && p.GateProblem == "" }, []string{"Gate"}},
}

// modelReserved are the names the output declares itself, for the model
// to keep clear of (see model.Reserved).
func modelReserved() model.Reserved {
	return model.Reserved{Names: reservedNames(), Methods: memberReserved}
}

// reservedNames are the names any generated package may declare itself,
// whatever its plan: the names are chosen before the plan is made, and a
// schema's type is named the same in every package made from it.
func reservedNames() map[string]bool {
	out := map[string]bool{}
	for _, part := range ownParts {
		for _, n := range part.names {
			out[n] = true
		}
	}
	for _, part := range runtimeAPI {
		for _, n := range part.names {
			out[n] = true
		}
	}
	return out
}

// A glueMethod is a method the glue declares on a type made from the
// schema: that type's members must not take its name.
type glueMethod struct {
	file string
	has  func(p *Plan, kit bool) bool
	// on is the schema path of the type; its Go name is the same (a
	// roots definition, which the plan requires to keep its name).
	on, name string
}

// glueMethods are the methods the templates declare on the schema's types.
// The members of the type never take their names, whatever the plan.
var glueMethods = []glueMethod{
	{"rootset.go", single(func(p *Plan) bool { return p.RootSet() }), "ListRootsResult", "RootSet"},
}

// memberReserved are the method names a struct made from the schema at
// path gets besides the Valid<Field> of its arrays (emitValidElements):
// its fields take other names.
func memberReserved(path string) []string {
	names := []string{"Validate", "MarshalJSON", "UnmarshalJSON"}
	for _, g := range glueMethods {
		if g.on == path {
			names = append(names, g.name)
		}
	}
	return names
}

// planFiles are the files the package of plan p has of those written from the model
// (typeFiles) and from the templates (templateFiles), in output order. A
// revision's package in a kit holds the revision's types and what the
// kit's gate needs of it: the gate serves every revision through one API
// (its Session, Client and RootSet), so the package has no Server,
// Client or RootSet of its own, and no examples of them; the unexported
// glue of roots.go that the gate descriptor calls is written into gate.go.
// Nor has it json.go and validate.go: the gate keeps a few of a type's
// codec and validation methods, and types.go holds them beside the type,
// as it does in any package without those files (emitModel). That saves
// two headers and their imports, and no two files of the kit read the
// same: the methods of a type another revision has but for a member
// (2025-06-18's Root, with _meta, against 2024-11-05's) can be the same
// text, and in files of their own they made the same file twice.
func planFiles(p *Plan, kit bool) []string {
	var out []string
	for _, name := range append(slices.Clone(typeFiles), templateFiles...) {
		switch {
		case (name == "json.go" || name == "validate.go") && kit,
			name == "roots.go" && (p.Handlers == nil || kit),
			name == "rootset.go" && (!p.RootSet() || kit),
			name == "example_test.go" && (p.Examples == nil || kit):
			continue
		}
		out = append(out, name)
	}
	return out
}
