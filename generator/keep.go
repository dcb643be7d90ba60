package generator

import (
	"fmt"
	"slices"

	"github.com/rootsgen/rootsgen/generator/internal/model"
)

// A kit's revision package is there for its gate: the front package serves
// every revision through one API, so nobody needs a type or a method of
// the revision that the gate's glue (gate.go) cannot get to. Which ones
// it can is decided here, on the model, before anything is emitted: the
// glue's uses (gateUses, one row per use, under the plan part whose
// template branch writes it) are followed through what the emitted
// methods call in turn (keeper.add), as ogen carries its encoder and
// decoder features over its IR. The emitters then write only what is
// kept.
//
// encoding/json calls MarshalJSON and UnmarshalJSON where no name does:
// a value handed to it (json.Marshal, json.Unmarshal, the runtime's Value
// and DecodeJSON) reaches its type's method, or, for a map or a slice,
// its elements'. A use missed there would still compile, and
// encoding/json would then read or write by the struct tags in silence,
// so the decision is checked against a type-checked walk of the whole
// emitted package, on every schema the tests have, and each such kit is
// compiled (TestKitKeepsWhatTheGateRuns).

// uses are the parts of one type a kit's revision package keeps.
type uses uint16

const (
	useDecl       uses = 1 << iota // the declaration (and any use at all)
	useMarshal                     // MarshalJSON
	useAppend                      // appendJSON (a struct's)
	useUnmarshal                   // UnmarshalJSON
	useValidate                    // Validate
	useCheck                       // validate, which a parent's calls
	useFromString                  // a primitive union's constructor from a string
	useRaw                         // a raw union's Raw
	useIsZero                      // a union's IsZero
)

// keeps are what a kit's revision package keeps: the parts of each type,
// the Valid<Field> methods of some array members, and the constructors
// and accessors of some arms of raw unions. A nil *keeps keeps everything
// (a single-revision package).
type keeps struct {
	types map[*Type]uses
	// elems are the members whose Valid<Field> the gate calls.
	elems map[*Field]bool
	// from and as are the arms of raw unions whose constructor
	// (<Union>From<Arm>) and accessor (As<Arm>) the gate calls.
	from, as map[arm]bool
}

// An arm is one arm of a raw union.
type arm struct{ union, arm *Type }

// all reports whether the package keeps everything.
func (k *keeps) all() bool { return k == nil }

// has reports whether the package keeps all of u of t.
func (k *keeps) has(t *Type, u uses) bool { return k == nil || k.types[t]&u == u }

// hasElems reports whether the package keeps the Valid<Field> of fl.
func (k *keeps) hasElems(fl *Field) bool { return k == nil || k.elems[fl] }

// hasFrom and hasAs report whether the package keeps the constructor and
// the accessor of arm a of raw union t.
func (k *keeps) hasFrom(t, a *Type) bool { return k == nil || k.from[arm{t, a}] }
func (k *keeps) hasAs(t, a *Type) bool   { return k == nil || k.as[arm{t, a}] }

// A gateUse is one use the gate's glue makes of a type: the type's Go
// name, or the plan's name for it.
type gateUse struct {
	typ  func(p *Plan) string
	uses uses
	// field, when set, is a member of typ: uses are then those of the
	// member's type (encoding/json's, for a value handed to it).
	field string
	// elems, from and as name what the glue calls of one member or arm:
	// the Valid<Field> of typ's member elems, the constructor of typ's
	// arm from, the accessor of its arm as.
	elems, from, as string
}

func named(name string) func(*Plan) string { return func(*Plan) string { return name } }
func paramsType(p *Plan) string            { return p.Handlers.ParamsType }
func listChangedParamsType(p *Plan) string { return p.ListChanged.ParamsType }

// gateUses are the uses of gate.go.tmpl and of the glue of roots.go.tmpl
// that a kit writes, by the plan part (and side) under which the
// templates write them.
func gateUses(p *Plan, clientSide bool) []gateUse {
	use := []gateUse{
		{typ: named("Root"), uses: useValidate}, // CheckRoot
	}
	if p.Direct {
		use = append(use,
			gateUse{typ: named("ClientCapabilities"), uses: useUnmarshal},            // Capabilities
			gateUse{typ: named("ListRootsResult"), uses: useUnmarshal | useValidate}, // decodeListRoots
			gateUse{typ: named("ListRootsResult"), elems: "roots"},                   // decodeListRoots: ValidRoots
		)
		if p.Paging != nil {
			use = append(use, gateUse{typ: paramsType, uses: useMarshal}) // listRootsParams
		}
	}
	if p.HandleNotification() {
		use = append(use, gateUse{typ: listChangedParamsType, uses: useUnmarshal}) // CheckListChanged
	}
	if p.Asks() {
		use = append(use,
			gateUse{typ: named("MissingRequiredClientCapabilityErrorData"), uses: useMarshal}, // missingRoots
			gateUse{typ: named("InputRequest"), from: "ListRootsRequest"},                     // askForRoots
			gateUse{typ: named("InputRequiredResult"), uses: useMarshal},                      // AskForRoots
			gateUse{typ: named("InputResponseRequestParams"), uses: useUnmarshal},             // DecodeRequest
			gateUse{typ: named("InputResponse"), uses: useRaw},                                // listRootsResultIn
			gateUse{typ: named("ListRootsResult"), uses: useUnmarshal},                        // listRootsResultIn
			gateUse{typ: named("ListRootsResult"), elems: "roots"},                            // Roots: ValidRoots
		)
		if p.Ask.ID != nil {
			use = append(use, gateUse{typ: named("ListRootsRequest"), uses: useFromString, field: "id"}) // askForRoots: the envelope's id
		}
	}
	if !clientSide {
		return use
	}
	use = append(use,
		gateUse{typ: paramsType, uses: useUnmarshal | useValidate}, // answerListRoots
		gateUse{typ: named("ListRootsResult"), uses: useValidate},  // answerListRoots
	)
	if p.Direct {
		use = append(use, gateUse{typ: named("ListRootsResult"), uses: useAppend}) // handleListRoots
	}
	if p.InputRequests {
		use = append(use,
			gateUse{typ: named("InputRequests"), uses: useUnmarshal},                   // json.Unmarshal
			gateUse{typ: named("InputRequest"), uses: useRaw, as: "ListRootsRequest"},  // answerInputRequests
			gateUse{typ: named("ListRootsRequest"), uses: useMarshal, field: "params"}, // json.Marshal(req.Params)
			gateUse{typ: named("InputResponse"), from: "ListRootsResult"},              // answerInputRequests
			gateUse{typ: named("InputResponses"), uses: useMarshal},                    // json.Marshal
		)
	}
	return use
}

// keeper works out the keeps of one model.
type keeper struct {
	k      *keeps
	byName map[string]*Type
}

// kitKeeps are the parts of m's types that its kit package keeps for its
// gate, written with or without the client side.
func kitKeeps(m *Model, clientSide bool) (*keeps, error) {
	kp := &keeper{k: &keeps{types: map[*Type]uses{}, elems: map[*Field]bool{}, from: map[arm]bool{}, as: map[arm]bool{}}, byName: map[string]*Type{}}
	for _, t := range m.Types {
		kp.byName[t.Name] = t
	}
	for _, c := range m.Consts {
		if t := kp.byName[c.Type]; t != nil {
			kp.add(t, useDecl)
		}
	}
	for _, u := range gateUses(m.Plan, clientSide) {
		if err := kp.use(m.Plan, u); err != nil {
			return nil, err
		}
	}
	return kp.k, nil
}

// use keeps what u uses.
func (kp *keeper) use(p *Plan, u gateUse) error {
	name := u.typ(p)
	t := kp.byName[name]
	if t == nil {
		return fmt.Errorf("the gate uses %s, which the model does not have", name)
	}
	if u.field == "" {
		kp.add(t, u.uses)
	} else {
		fl := model.FieldOf(t, u.field)
		if fl == nil {
			return fmt.Errorf("the gate uses %s.%s, which the model does not have", name, u.field)
		}
		kp.add(t, useDecl)
		kp.json(fl.Type, u.uses)
	}
	if u.elems != "" {
		fl := model.FieldOf(t, u.elems)
		if fl == nil || !model.ValidElements(fl) {
			return fmt.Errorf("the gate checks the elements of %s.%s, which the model does not have as an array", name, u.elems)
		}
		kp.k.elems[fl] = true
		kp.add(fl.Type.Slice.Named, useCheck)
	}
	for _, a := range []struct {
		name string
		kept map[arm]bool
		uses uses
	}{{u.from, kp.k.from, useMarshal}, {u.as, kp.k.as, useUnmarshal | useValidate}} {
		if a.name == "" {
			continue
		}
		i := slices.IndexFunc(t.Arms, func(arm *Type) bool { return arm.Name == a.name })
		if i < 0 {
			return fmt.Errorf("the gate uses the arm %s of %s, which the model does not have", a.name, name)
		}
		a.kept[arm{t, t.Arms[i]}] = true
		kp.add(t.Arms[i], a.uses) // json.Marshal; json.Unmarshal, then Validate
	}
	return nil
}

// add keeps u of t, and what those parts use in turn.
func (kp *keeper) add(t *Type, u uses) {
	u = implied(t, u)
	if t.Kind == KindAlias {
		kp.k.types[t] |= useDecl
		if t.Elem.Named != nil {
			kp.add(t.Elem.Named, u)
		}
		return
	}
	if kp.k.types[t]&u == u {
		return
	}
	u &^= kp.k.types[t]
	kp.k.types[t] |= u
	kp.follow(t, u)
}

// implied is u with the parts of t that u's parts call: a use is of the
// declaration; a struct's MarshalJSON calls appendJSON; Validate calls
// validate. (A union of primitives has its String, which fmt calls, and
// the MarshalJSON that String calls, wherever it is declared: emitUnion.)
func implied(t *Type, u uses) uses {
	u |= useDecl
	if t.Kind == KindStruct && u&useMarshal != 0 {
		u |= useAppend
	}
	if u&useValidate != 0 && model.HasValidate(t) {
		u |= useCheck
	}
	return u
}

// follow keeps what the parts u of t, newly kept, use of other types.
func (kp *keeper) follow(t *Type, u uses) {
	if u&useDecl != 0 {
		kp.decl(t)
	}
	if t.Kind == KindMap || t.Kind == KindSlice {
		// encoding/json writes and reads the elements.
		for _, d := range []uses{useMarshal, useUnmarshal} {
			if u&d != 0 {
				kp.json(*t.Elem, d)
			}
		}
	}
	if u&useAppend != 0 {
		for _, fl := range t.Fields {
			kp.member(fl, useAppend, useMarshal)
		}
		if t.Extra != nil {
			kp.json(*t.Extra, useMarshal) // EndObject writes Extra with encoding/json
		}
	}
	if u&useUnmarshal != 0 && t.Kind == KindStruct {
		for _, fl := range t.Fields {
			kp.member(fl, useUnmarshal, useUnmarshal)
		}
		if t.Extra != nil {
			kp.json(*t.Extra, useUnmarshal) // KeepMember reads a member into Extra with encoding/json
		}
	}
	if u&useCheck != 0 {
		kp.check(t)
	}
}

// decl keeps the types t's declaration names.
func (kp *keeper) decl(t *Type) {
	for _, fl := range t.Fields {
		kp.declType(fl.Type)
	}
	for _, g := range []*GoType{t.Extra, t.Elem} {
		if g != nil {
			kp.declType(*g)
		}
	}
}

func (kp *keeper) declType(g GoType) {
	switch {
	case g.Named != nil:
		kp.add(g.Named, useDecl)
	case g.Slice != nil:
		kp.declType(*g.Slice)
	case g.Map != nil:
		kp.declType(*g.Map)
	}
}

// json keeps what encoding/json calls on a value of type g: u is
// useMarshal or useUnmarshal.
func (kp *keeper) json(g GoType, u uses) {
	switch {
	case g.Named != nil:
		switch t := g.Named; t.Kind {
		case KindStruct, KindUnion, KindRawUnion, KindAlias, KindMap, KindSlice:
			kp.add(t, u)
		default:
			kp.add(t, useDecl)
		}
	case g.Slice != nil:
		kp.json(*g.Slice, u)
	case g.Map != nil:
		kp.json(*g.Map, u)
	}
}

// member keeps what a struct's appendJSON (appendValue) or UnmarshalJSON
// (decodeField) calls for its member fl: u of a struct member or of the
// structs of a slice member, which they call by name (useAppend,
// useUnmarshal), and otherwise what encoding/json calls, viaJSON
// (useMarshal, useUnmarshal).
func (kp *keeper) member(fl *Field, u, viaJSON uses) {
	g := fl.Type
	switch {
	case g.Named != nil && g.Named.Kind == KindStruct:
		kp.add(g.Named, u)
	case g.Slice != nil && g.Slice.Named != nil && g.Slice.Named.Kind == KindStruct:
		kp.add(g.Slice.Named, u)
	default:
		kp.json(g, viaJSON)
	}
}

// check keeps what validate calls (validateField, and the loops over a
// map's or a slice's elements).
func (kp *keeper) check(t *Type) {
	switch t.Kind {
	case KindSlice, KindMap:
		kp.add(t.Elem.Named, useCheck)
		return
	case KindStruct:
	default:
		return
	}
	for _, fl := range t.Fields {
		g := fl.Type
		if fl.Type.Prim == String {
			continue
		}
		if fl.Required && !fl.Pointer && !g.Any && zeroIsUnset(g) {
			kp.add(model.Resolve(g.Named), useIsZero)
		}
		switch {
		case g.Named != nil && model.HasValidate(g.Named):
			kp.add(model.Resolve(g.Named), useCheck)
		case g.Slice != nil && g.Slice.Named != nil && model.HasValidate(g.Slice.Named):
			kp.add(g.Slice.Named, useCheck)
		case g.Map != nil && g.Map.Named != nil && model.HasValidate(g.Map.Named):
			kp.add(g.Map.Named, useCheck)
		}
	}
}
