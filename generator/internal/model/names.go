package model

import (
	"fmt"
	"slices"
	"strconv"
)

// Reserved are the names the generated package declares itself, which
// the names made from the schema keep clear of: the package-level names
// of the emitter, the glue and the runtime's API, whatever the plan (the
// names are chosen before the plan is made, and a schema's type is named
// the same in every package made from it); and, by the schema path of a
// struct, the methods the output gives it besides the Valid<Field> of its
// arrays. The generator's tables of what it writes make them.
type Reserved struct {
	Names   map[string]bool
	Methods func(path string) []string
}

// RenamedSuffix is what a name made from the schema gets when the package
// declares that name itself: Client becomes ClientDef.
const RenamedSuffix = "Def"

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
// (Reserved), name with RenamedSuffix (and a number, where that is
// taken too), noting the Rename: the package's own API keeps its names,
// whatever the schema calls its definitions.
func (b *builder) name(path, name string) string {
	if !b.reserved.Names[name] {
		return b.names.take(name)
	}
	got := b.names.take(name + RenamedSuffix)
	b.m.Renamed = append(b.m.Renamed, Rename{Path: path, Name: name, GoName: got})
	return got
}

// nameDefinitions names the selected definitions: first those whose
// natural names are free, so that they keep them, then those whose names
// the package declares itself, which take what is left.
func (b *builder) nameDefinitions() {
	natural := map[string]string{}
	for _, name := range b.sel.Names {
		natural[name] = overrideOr(name, GoName(name))
	}
	for _, renamed := range []bool{false, true} {
		for _, name := range b.sel.Names {
			if b.reserved.Names[natural[name]] == renamed {
				b.defs[name] = &Type{Path: name, Partial: b.sel.Partial(name), Name: b.name(name, natural[name]),
					Roots: slices.Contains(rootsDefinitions, name) || name == "RootsListChangedNotification"}
			}
		}
	}
}

// The names of the functions and variables a union type brings
// (emitUnion, emitRawUnion).
func UnionNullName(t *Type) string               { return t.Name + "Null" }
func UnionFromName(t *Type, p Primitive) string  { return t.Name + "From" + MemberName(p) }
func UnionFromArmName(t *Type, arm *Type) string { return t.Name + "From" + arm.Name }

// A SchemaDecl is a package-level identifier made from the schema, and
// what it is made from.
type SchemaDecl struct{ Name, From string }

// SchemaDecls are the package-level identifiers the model declares: its
// constants, its types, and the constructors and values of its unions.
func (m *Model) SchemaDecls() []SchemaDecl {
	var out []SchemaDecl
	for _, c := range m.Consts {
		out = append(out, SchemaDecl{c.Name, "the constant " + strconv.Quote(fmt.Sprint(c.Value))})
	}
	for _, t := range m.Types {
		out = append(out, SchemaDecl{t.Name, "the type of " + t.Path})
		switch t.Kind {
		case KindUnion:
			for _, p := range t.Members {
				if p == Null {
					out = append(out, SchemaDecl{UnionNullName(t), "the null of " + t.Path})
				} else {
					out = append(out, SchemaDecl{UnionFromName(t, p), "a constructor of " + t.Path})
				}
			}
		case KindRawUnion:
			for _, arm := range t.Arms {
				out = append(out, SchemaDecl{UnionFromArmName(t, arm), "a constructor of " + t.Path})
			}
		}
	}
	return out
}

// structMethods are the exported methods of struct t as emitted.
func structMethods(t *Type, r Reserved) map[string]bool {
	methods := map[string]bool{}
	for _, n := range r.Methods(t.Path) {
		methods[n] = true
	}
	for _, fl := range t.Fields {
		if ValidElements(fl) {
			methods[ValidElementsName(fl)] = true
		}
	}
	return methods
}

// ValidElements reports whether a struct's field gets a Valid<Field>
// method: an array of a type that validates.
func ValidElements(fl *Field) bool {
	return fl.Type.Slice != nil && fl.Type.Slice.Named != nil && HasValidate(fl.Type.Slice.Named)
}

func ValidElementsName(fl *Field) string { return "Valid" + fl.Name }

// settleFieldNames renames a field of struct t that has the name of a
// Valid<Field> method of t, as a member named like Validate is renamed
// (fillStruct): the methods are only known once every type has its kind.
// A renamed array field renames its method, so this goes on until nothing
// clashes, a few rounds at most; checkDeclarations catches the rest. It
// returns the renames.
func settleFieldNames(t *Type, r Reserved) (renamed []Rename) {
	for range len(t.Fields) + 1 {
		methods := structMethods(t, r)
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
func checkDeclarations(m *Model, r Reserved) error {
	seen := map[string]string{}
	for _, d := range m.SchemaDecls() {
		if r.Names[d.Name] {
			return fmt.Errorf("the Go name %s of %s is a name the generated package declares itself", d.Name, d.From)
		}
		if prev, ok := seen[d.Name]; ok {
			return fmt.Errorf("the Go name %s is both %s and %s", d.Name, prev, d.From)
		}
		seen[d.Name] = d.From
	}
	for _, t := range m.Types {
		if t.Kind != KindStruct {
			continue
		}
		methods := structMethods(t, r)
		for _, fl := range t.Fields {
			if methods[fl.Name] {
				return fmt.Errorf("%s.%s: its Go field %s has the name of a method of %s", t.Path, fl.JSONName, fl.Name, t.Name)
			}
		}
	}
	return nil
}

// HasValidate reports whether the generated type t has a validate method.
func HasValidate(t *Type) bool {
	switch t.Kind {
	case KindStruct:
		return true
	case KindMap, KindSlice:
		return t.Elem.Named != nil && HasValidate(t.Elem.Named)
	case KindAlias:
		return HasValidate(t.Elem.Named)
	case KindScalar:
		return len(t.Enum) > 0
	}
	return false
}

// MemberName is the Go name of a union's member of primitive p, in the
// names of its constructor and accessor.
func MemberName(p Primitive) string { return GoName(string(p)) }

// TypeString is g as Go writes it.
func TypeString(g GoType) string {
	switch {
	case g.Named != nil:
		return g.Named.Name
	case g.Slice != nil:
		return "[]" + TypeString(*g.Slice)
	case g.Map != nil:
		return "map[string]" + TypeString(*g.Map)
	case g.Prim != "":
		return g.Prim.GoTypeName()
	case g.Raw:
		return "json.RawMessage"
	}
	return "any"
}
