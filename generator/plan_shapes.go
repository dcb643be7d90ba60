package generator

import "slices"

// Paging is how roots/list pages its answer, when the schema gives it a
// cursor (as other MCP list requests have): the Go names of the cursor in
// its params and of the next page's cursor in ListRootsResult.
type Paging struct {
	Cursor, NextCursor string
}

// paging finds the cursor members of roots/list: "cursor" in its params
// and "nextCursor" in ListRootsResult, both strings. One without the
// other cannot be followed, and is reported.
func (pl *planner) paging() *Paging {
	params, result := pl.def("ListRootsRequest.params"), pl.def("ListRootsResult")
	if pl.p.ParamsType != "" {
		params = pl.typeNamed(pl.p.ParamsType)
	}
	var cursor, next *Field
	if params != nil {
		cursor = fieldOf(params, "cursor")
	}
	if result != nil {
		next = fieldOf(result, "nextCursor")
	}
	const part = "so Server.Roots reads the first page only"
	switch {
	case cursor == nil && next == nil:
		return nil
	case next == nil:
		pl.warn("ListRootsResult", "nextCursor", "missing while roots/list params have a cursor; %s", part)
	case cursor == nil:
		pl.warn("ListRootsRequest", "params.cursor", "missing while ListRootsResult has nextCursor; %s", part)
	case goTypeString(cursor) != "string":
		pl.warn("ListRootsRequest", "params.cursor", "it is %s, not a string; %s", goTypeString(cursor), part)
	case goTypeString(next) != "string":
		pl.warn("ListRootsResult", "nextCursor", "it is %s, not a string; %s", goTypeString(next), part)
	default:
		return &Paging{Cursor: cursor.Name, NextCursor: next.Name}
	}
	return nil
}

// typeNamed is the type of Go name name, aliases followed, or nil.
func (pl *planner) typeNamed(name string) *Type {
	i := slices.IndexFunc(pl.m.Types, func(t *Type) bool { return t.Name == name })
	if i < 0 {
		return nil
	}
	return resolve(pl.m.Types[i])
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
	id := fieldOf(req, "id")
	if id == nil || !id.Required {
		return nil, true // nothing to fill: an absent id is valid
	}
	g := id.Type
	switch {
	case g.Prim == String:
		return &EnvelopeID{id.Name, "key"}, true
	case g.Named != nil:
		t := resolve(g.Named)
		switch {
		case t.Kind == KindScalar && t.Elem.Prim == String:
			return &EnvelopeID{id.Name, g.Named.Name + "(key)"}, true
		case t.Kind == KindUnion && slices.Contains(t.Members, String):
			return &EnvelopeID{id.Name, t.Name + "From" + memberName(String) + "(key)"}, true
		}
	}
	pl.warn("ListRootsRequest", "id", "a required id of type %s, which AskForRoots cannot fill; AskForRoots, RootsFromInputResponses and the StateSealer (requeststate.go) left out", goTypeString(id))
	return nil, false
}
