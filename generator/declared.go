package generator

import (
	"fmt"
	"slices"
	"strconv"
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

// renamedSuffix is what a name made from the schema gets when the package
// declares that name itself: Client becomes ClientDef.
const renamedSuffix = "Def"

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
// roots.go is there only with Handlers (Plan.Files), and example_test.go
// only with Examples.
var ownParts = []ownPart{
	{"types.go", func(*Plan, bool) bool { return true }, []string{protocolVersionName, methodTypeName}},
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

// runtimeFile stands for the file of an ownName that is the runtime's API:
// runtime.go where the package imports the runtime, the runtime's own
// file where it is copied in.
const runtimeFile = "(runtime)"

// An ownName is a package-level identifier a generated package declares
// itself, and the file that declares it.
type ownName struct{ name, file string }

// ownNames are the package-level identifiers the package of plan p
// declares itself: the emitter's, the glue's and, in a single-revision
// package, the runtime's API it offers. Everything else it declares at
// package level is made from the schema (Model.schemaDecls) or unexported.
func (p *Plan) ownNames(kit bool) []ownName {
	var out []ownName
	for _, part := range ownParts {
		if part.has(p, kit) {
			for _, n := range part.names {
				out = append(out, ownName{n, part.file})
			}
		}
	}
	if !kit {
		for _, n := range apiNames(p) {
			out = append(out, ownName{n, runtimeFile})
		}
	}
	return out
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

// A Rename is a name made from the schema that the package declares
// itself, and the name the schema's declaration gets instead.
type Rename struct {
	// Path is where the declaration comes from: a definition name, a
	// nested path, or a constant's member or enum value.
	Path string
	// Name is the name the schema gives it; GoName the one it gets.
	Name, GoName string
}

func (r Rename) String() string {
	return fmt.Sprintf("%s: named %s in Go, as the generated package declares %s itself", r.Path, r.GoName, r.Name)
}

// name gives what the schema has at path the package-level identifier
// name, or, where the generated package declares name itself
// (reservedNames), name with renamedSuffix (and a number, where that is
// taken too), noting the Rename: the package's own API keeps its names,
// whatever the schema calls its definitions.
func (b *builder) name(path, name string) string {
	if !b.reserved[name] {
		return b.names.take(name)
	}
	got := b.names.take(name + renamedSuffix)
	b.m.Renamed = append(b.m.Renamed, Rename{Path: path, Name: name, GoName: got})
	return got
}

// nameDefinitions names the selected definitions: first those whose
// natural names are free, so that they keep them, then those whose names
// the package declares itself, which take what is left.
func (b *builder) nameDefinitions() {
	natural := map[string]string{}
	for _, name := range b.sel.Names {
		natural[name] = overrideOr(name, goName(name))
	}
	for _, renamed := range []bool{false, true} {
		for _, name := range b.sel.Names {
			if b.reserved[natural[name]] == renamed {
				b.defs[name] = &Type{Path: name, Partial: b.sel.Partial(name), Name: b.name(name, natural[name]),
					Roots: slices.Contains(rootsDefinitions, name) || name == "RootsListChangedNotification"}
			}
		}
	}
}

// The names of the functions and variables a union type brings
// (emitUnion, emitRawUnion).
func unionNullName(t *Type) string               { return t.Name + "Null" }
func unionFromName(t *Type, p Primitive) string  { return t.Name + "From" + memberName(p) }
func unionFromArmName(t *Type, arm *Type) string { return t.Name + "From" + arm.Name }

// A schemaDecl is a package-level identifier made from the schema, and
// what it is made from.
type schemaDecl struct{ name, from string }

// schemaDecls are the package-level identifiers the model declares: its
// constants, its types, and the constructors and values of its unions.
func (m *Model) schemaDecls() []schemaDecl {
	var out []schemaDecl
	for _, c := range m.Consts {
		out = append(out, schemaDecl{c.Name, "the constant " + strconv.Quote(fmt.Sprint(c.Value))})
	}
	for _, t := range m.Types {
		out = append(out, schemaDecl{t.Name, "the type of " + t.Path})
		switch t.Kind {
		case KindUnion:
			for _, p := range t.Members {
				if p == Null {
					out = append(out, schemaDecl{unionNullName(t), "the null of " + t.Path})
				} else {
					out = append(out, schemaDecl{unionFromName(t, p), "a constructor of " + t.Path})
				}
			}
		case KindRawUnion:
			for _, arm := range t.Arms {
				out = append(out, schemaDecl{unionFromArmName(t, arm), "a constructor of " + t.Path})
			}
		}
	}
	return out
}

// structMethods are the exported methods of struct t as emitted.
func structMethods(t *Type) map[string]bool {
	methods := map[string]bool{}
	for _, n := range memberReserved(t.Path) {
		methods[n] = true
	}
	for _, fl := range t.Fields {
		if validElements(fl) {
			methods[validElementsName(fl)] = true
		}
	}
	return methods
}

// validElements reports whether a struct's field gets a Valid<Field>
// method: an array of a type that validates.
func validElements(fl *Field) bool {
	return fl.Type.Slice != nil && fl.Type.Slice.Named != nil && hasValidate(fl.Type.Slice.Named)
}

func validElementsName(fl *Field) string { return "Valid" + fl.Name }

// settleFieldNames renames a field of struct t that has the name of a
// Valid<Field> method of t, as a member named like Validate is renamed
// (fillStruct): the methods are only known once every type has its kind.
// A renamed array field renames its method, so this goes on until nothing
// clashes, a few rounds at most; checkDeclarations catches the rest. It
// returns the renames.
func settleFieldNames(t *Type) (renamed []Rename) {
	for range len(t.Fields) + 1 {
		methods := structMethods(t)
		names := newNamer(t.ExtraName)
		for _, fl := range t.Fields {
			names.used[fl.Name] = true
		}
		for m := range methods {
			names.used[m] = true
		}
		clash := false
		for _, fl := range t.Fields {
			if methods[fl.Name] {
				clash = true
				was := fl.Name
				fl.Name = names.take(fl.Name)
				renamed = append(renamed, Rename{Path: t.Path + "." + fl.JSONName, Name: was, GoName: fl.Name})
			}
		}
		if !clash {
			return renamed
		}
	}
	return renamed
}

// checkDeclarations refuses a model whose Go names clash where the namer
// could not keep them apart: two package-level names made from the schema
// (a union's constructor and a definition, say), one of them and a name
// the package declares itself, or a field and a method of its struct. Go
// would refuse the package; rootsgen says which names clash instead.
func checkDeclarations(m *Model) error {
	reserved := reservedNames()
	seen := map[string]string{}
	for _, d := range m.schemaDecls() {
		if reserved[d.name] {
			return fmt.Errorf("the Go name %s of %s is a name the generated package declares itself", d.name, d.from)
		}
		if prev, ok := seen[d.name]; ok {
			return fmt.Errorf("the Go name %s is both %s and %s", d.name, prev, d.from)
		}
		seen[d.name] = d.from
	}
	for _, t := range m.Types {
		if t.Kind != KindStruct {
			continue
		}
		methods := structMethods(t)
		for _, fl := range t.Fields {
			if methods[fl.Name] {
				return fmt.Errorf("%s.%s: its Go field %s has the name of a method of %s", t.Path, fl.JSONName, fl.Name, t.Name)
			}
		}
	}
	return nil
}
