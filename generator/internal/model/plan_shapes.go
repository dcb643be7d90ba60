package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Paging is how roots/list pages its answer, when the schema gives it a
// cursor (as other MCP list requests have): the Go names of the cursor in
// its params and of the next page's cursor in ListRootsResult, and their
// Go types: string, or the name of a string type when the schema writes
// the cursor as a reference to a definition such as Cursor.
type Paging struct {
	Cursor, NextCursor         string
	CursorType, NextCursorType string
}

// Conv is the Go expression expr, of type from, as a value of type to:
// expr itself when the types are the same, else a conversion. Cursor types
// are all strings underneath, so any one converts to any other.
func (*Paging) Conv(to, from, expr string) string {
	if to == from {
		return expr
	}
	return to + "(" + expr + ")"
}

// paging finds the cursor members of roots/list: "cursor" in its params
// and "nextCursor" in ListRootsResult, both strings (see stringType). One
// without the other cannot be followed, and is reported.
func (pl *planner) paging() *Paging {
	params, result := pl.def("ListRootsRequest.params"), pl.def("ListRootsResult")
	if pt := pl.p.paramsType(); pt != "" {
		params = pl.typeNamed(pt)
	}
	var cursor, next *Field
	if params != nil {
		cursor = FieldOf(params, "cursor")
	}
	if result != nil {
		next = FieldOf(result, "nextCursor")
	}
	const part = "Server.Roots reads the first page only"
	switch {
	case cursor == nil && next == nil:
		return nil
	case next == nil:
		pl.warn("ListRootsResult", "nextCursor", "missing while roots/list params have a cursor; %s", part)
	case cursor == nil:
		pl.warn("ListRootsRequest", "params.cursor", "missing while ListRootsResult has nextCursor; %s", part)
	case !stringType(cursor):
		pl.warn("ListRootsRequest", "params.cursor", "it is %s, not a string; %s", goTypeString(cursor), part)
	case !stringType(next):
		pl.warn("ListRootsResult", "nextCursor", "it is %s, not a string; %s", goTypeString(next), part)
	default:
		return &Paging{Cursor: cursor.Name, NextCursor: next.Name, CursorType: goTypeString(cursor), NextCursorType: goTypeString(next)}
	}
	return nil
}

// stringType reports whether field f holds a string that any string can
// be converted to: a string, or a reference to a definition that is one
// (a named string type, aliases followed) with no "enum" to restrict it.
// It is never a pointer: absent and empty are the same.
func stringType(f *Field) bool {
	g := f.Type
	switch {
	case f.Pointer:
		return false
	case g.Prim == String:
		return true
	case g.Named != nil:
		t := Resolve(g.Named)
		return t.Kind == KindScalar && t.Elem.Prim == String && len(t.Enum) == 0
	}
	return false
}

// typeNamed is the type of Go name name, aliases followed, or nil.
func (pl *planner) typeNamed(name string) *Type {
	i := slices.IndexFunc(pl.m.Types, func(t *Type) bool { return t.Name == name })
	if i < 0 {
		return nil
	}
	return Resolve(pl.m.Types[i])
}

// EnvelopeID is how AskForRoots fills the required "id" of an embedded
// ListRootsRequest that carries a JSON-RPC envelope: Field set to Value,
// a Go expression of the entry's key.
type EnvelopeID struct {
	Field, Value string
}

// envelopeID works out the id AskForRoots gives an embedded request whose
// schema requires one: the entry's key, as a string or as the string arm
// of a union such as RequestId. It reports false, with a warning, when the
// id has a shape AskForRoots cannot fill.
func (pl *planner) envelopeID() (*EnvelopeID, bool) {
	req := pl.def("ListRootsRequest")
	id := FieldOf(req, "id")
	if id == nil || !id.Required {
		return nil, true // nothing to fill: an absent id is valid
	}
	g := id.Type
	switch {
	case g.Prim == String:
		return &EnvelopeID{id.Name, "key"}, true
	case g.Named != nil:
		t := Resolve(g.Named)
		switch {
		case t.Kind == KindScalar && t.Elem.Prim == String:
			return &EnvelopeID{id.Name, g.Named.Name + "(key)"}, true
		case t.Kind == KindUnion && slices.Contains(t.Members, String):
			return &EnvelopeID{id.Name, t.Name + "From" + MemberName(String) + "(key)"}, true
		}
	}
	pl.warn("ListRootsRequest", "id", "a required id of type %s, which AskForRoots cannot fill; AskForRoots, RootsFromInputResponses and their StateSealer methods left out", goTypeString(id))
	return nil, false
}

// Fill is what the examples add to a value of a roots type so that every
// member the schema requires is there: Go, as ", Field: value" pairs to
// follow the fields a composite literal already sets, and JSON, as
// `,"member":value` pairs to follow the members an object already has, in
// schema order (the order the marshaller writes them in).
type Fill struct {
	Go, JSON string
}

// JSONOnly is JSON without its leading comma, for an object that has no
// other members.
func (f Fill) JSONOnly() string { return strings.TrimPrefix(f.JSON, ",") }

// ExampleFills are the Fills of the values the examples write.
type ExampleFills struct {
	Root, Result, Params Fill
	// Request is a roots/list request as JSON, as the marshaller writes it:
	// the fixed members, then the required ones and params in schema order.
	Request string
}

// exampleFills works out the Fills the examples need; nil, with a
// warning, when a required member has a type the examples cannot make a
// value of.
func (pl *planner) exampleFills() *ExampleFills {
	var fills ExampleFills
	ok := true
	for _, c := range []struct {
		def  string
		have []string
		fill *Fill
	}{
		{"Root", []string{"uri", "name"}, &fills.Root},
		{"ListRootsResult", []string{"roots"}, &fills.Result},
	} {
		if t := pl.def(c.def); t != nil {
			ok = pl.fill(c.def, t, c.have, c.fill, 0) && ok
		}
	}
	if params := pl.typeNamed(pl.p.paramsType()); params != nil {
		ok = pl.fill("ListRootsRequest.params", params, nil, &fills.Params, 0) && ok
	}
	if req := pl.def("ListRootsRequest"); req != nil {
		var members []string
		for _, c := range req.Consts {
			k, _ := json.Marshal(c.JSONName)
			v, _ := json.Marshal(c.Const.Value)
			members = append(members, string(k)+":"+string(v))
		}
		var rest Fill
		ok = pl.fill("ListRootsRequest", req, []string{"params"}, &rest, 0) && ok
		for _, f := range req.Fields {
			k, _ := json.Marshal(f.JSONName)
			switch {
			case f.JSONName == "params":
				members = append(members, string(k)+":{"+fills.Params.JSONOnly()+"}")
			case f.Required:
				_, v, _ := pl.sample(f.Type, f.Format, 0)
				if u := f.Type.Named; f.JSONName == "id" && u != nil && Resolve(u).Kind == KindUnion && slices.Contains(Resolve(u).Members, Integer) {
					v = "7" // a request id as peers usually write it
				}
				members = append(members, string(k)+":"+v)
			}
		}
		fills.Request = "{" + strings.Join(members, ",") + "}"
	}
	if !ok {
		return nil
	}
	return &fills
}

// fill writes a value for each required member of struct t not in have.
func (pl *planner) fill(def string, t *Type, have []string, out *Fill, depth int) bool {
	ok := true
	for _, f := range t.Fields {
		if !f.Required || slices.Contains(have, f.JSONName) {
			continue
		}
		goVal, jsonVal, can := pl.sample(f.Type, f.Format, depth)
		if !can {
			pl.warn(def, f.JSONName, "a required member of type %s, of which the examples cannot make a value; example_test.go left out", goTypeString(f))
			ok = false
			continue
		}
		if f.Pointer {
			goVal = "&" + goVal
		}
		key, _ := json.Marshal(f.JSONName)
		out.Go += ", " + f.Name + ": " + goVal
		out.JSON += "," + string(key) + ":" + jsonVal
	}
	return ok
}

// sample is a value of type g, as Go and as the JSON the marshaller
// writes for it.
func (pl *planner) sample(g GoType, format string, depth int) (goVal, jsonVal string, ok bool) {
	text := "example"
	if format == "uri" {
		text = "file:///example"
	}
	quoted, _ := json.Marshal(text)
	switch {
	case g.Prim == String || g.Any:
		return strconv.Quote(text), string(quoted), true
	case g.Prim == Integer || g.Prim == Number:
		return "1", "1", true
	case g.Prim == Boolean:
		return "true", "true", true
	case g.Slice != nil:
		return "nil", "[]", true
	case g.Map != nil:
		return "nil", "{}", true
	case g.Raw:
		return "json.RawMessage(`{}`)", "{}", true
	case g.Named == nil || depth > 4:
		return "", "", false
	}
	t := Resolve(g.Named)
	name := g.Named.Name
	switch t.Kind {
	case KindScalar:
		if len(t.Enum) > 0 {
			v, _ := json.Marshal(t.Enum[0].Value)
			return t.Enum[0].Name, string(v), true
		}
		goVal, jsonVal, ok := pl.sample(*t.Elem, format, depth+1)
		return name + "(" + goVal + ")", jsonVal, ok
	case KindSlice:
		return "nil", "[]", true
	case KindMap:
		return "nil", "{}", true
	case KindStruct:
		var inner Fill
		if !pl.fill(t.Path, t, nil, &inner, depth+1) {
			return "", "", false
		}
		return name + "{" + strings.TrimPrefix(inner.Go, ", ") + "}", "{" + inner.JSONOnly() + "}", true
	case KindUnion:
		for _, m := range t.Members {
			if m == Null {
				continue
			}
			goVal, jsonVal, ok := pl.sample(GoType{Prim: m}, format, depth+1)
			return name + "From" + MemberName(m) + "(" + goVal + ")", jsonVal, ok
		}
	}
	return "", "", false
}

// enums reports each "enum" the model left untyped: its values are not
// checked.
func (pl *planner) enums() {
	for _, path := range pl.m.EnumsIgnored {
		def, member, _ := strings.Cut(path, ".")
		pl.warn(def, member, "an \"enum\" of booleans, nulls, objects or mixed kinds: no typed constants, and Validate does not check the values")
	}
}
