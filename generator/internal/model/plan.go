package model

import (
	"fmt"
	"slices"
	"strings"
)

// Plan is what a revision's package has of the roots feature, and the Go
// names each part is written in terms of. It is made once from the Model
// (see newPlan); the templates, the choice of files, the gate, -list, the
// README overview and doc.go read the plan and nothing else, so what a
// package has is decided in one place, and a part the schema has in a
// shape the generator cannot write is reported there (Warnings) instead of
// being left out in silence.
type Plan struct {
	// Handlers, when not nil: roots.go, with ListRootsHandler, Client and
	// its capabilities, written in terms of roots/list's params. Everything
	// else but RootSet needs it.
	Handlers *Handlers
	// Direct: the server sends roots/list as a request of its own, so
	// Client.HandleRequest and the caching Server are generated.
	Direct bool
	// Envelope: ListRootsRequest is a whole JSON-RPC request (jsonrpc, id).
	Envelope bool
	// ListChanged, when not nil: the list_changed notification, with
	// ListChangedHandler.
	ListChanged *ListChanged
	// CapabilityListChanged: the roots capability has a listChanged flag,
	// a Go bool named ListChanged.
	CapabilityListChanged bool
	// CapabilitiesInMeta: client capabilities ride in each request's _meta.
	CapabilitiesInMeta bool
	// InputRequests: roots/list travels inside inputRequests, and
	// Client.AnswerInputRequests answers it.
	InputRequests bool
	// Ask, when not nil: AskForRoots, RootsFromInputResponses and their
	// StateSealer methods, with the Go names of the members they fill and
	// read.
	Ask *AskFields
	// Require: RequireRoots, the -32021 error for a missing capability.
	Require bool
	// MissingCode: the package declares CodeMissingRequiredClientCapability.
	MissingCode bool
	// VersionKey is the JSON name of the _meta member that names each
	// request's protocol version, where requests carry it; otherwise "".
	VersionKey string
	// FileRule: Root.uri must be a file:// URI. The rule is the roots
	// feature's (the specification's), whatever "format" the schema gives.
	FileRule bool
	// RootMeta: a Root carries _meta.
	RootMeta bool
	// Examples, when not nil: example_test.go, and what completes the
	// values the examples write with the members the schema requires
	// besides the ones they show (plan_shapes.go).
	Examples *ExampleFills
	// GateProblem, when not empty, says why a kit's gate cannot serve
	// this revision: it cannot convert the revision's Root to and from its
	// own (which has URI, Name, Meta and Extra), or roots/list has no path
	// it knows; GenerateKit refuses the revision with it.
	GateProblem string
	// DeprecatedBy names the roots definition the schema marks
	// "deprecated", on which every roots symbol is built; "" if none.
	DeprecatedBy string
	// ListChangedDeprecatedBy names the definition that deprecates the
	// list_changed symbols (the notification's, or DeprecatedBy's).
	ListChangedDeprecatedBy string
	// Paging: roots/list answers in pages, which Server.Roots follows
	// (plan_shapes.go); nil when the schema has no cursor.
	Paging *Paging
	// Warnings are the parts of the roots feature the schema has in a
	// shape the generator cannot write, and so left out.
	Warnings []Warning
}

// Asks reports whether a kit's gate serves the revision's requests that
// carry roots/list in inputRequests: the plan has what asking for roots
// (Ask), the -32021 error's data (Require) and its code (MissingCode)
// need.
func (p *Plan) Asks() bool { return p.Ask != nil && p.Require && p.MissingCode }

// HandleNotification reports whether the package has
// Server.HandleNotification: Direct and ListChanged.
func (p *Plan) HandleNotification() bool { return p.Direct && p.ListChanged != nil }

// NotifyListChanged reports whether the package has
// Client.NotifyListChanged, and a Server that keeps the answer of a client
// that announces changes: ListChanged and CapabilityListChanged.
func (p *Plan) NotifyListChanged() bool { return p.ListChanged != nil && p.CapabilityListChanged }

// RootSet reports whether the package has rootset.go, the path-inside-roots
// check, which needs the file:// rule (FileRule).
func (p *Plan) RootSet() bool { return p.FileRule }

// Handlers are the roots/list params the handlers are written in terms of:
// their Go type, and whether ListRootsRequest.Params is a pointer (params
// are optional) rather than a value the schema requires.
type Handlers struct {
	ParamsType    string
	ParamsPointer bool
}

// ListChanged is the list_changed notification as the package writes it:
// the Go type of its params, and the Go name of its method constant.
type ListChanged struct {
	ParamsType, Method string
}

// AskFields are the Go names of the members AskForRoots fills and
// RootsFromInputResponses reads.
type AskFields struct {
	ResultType, InputRequests, RequestState string // of InputRequiredResult
	InputResponses, RetryState              string // of InputResponseRequestParams
	// ID: AskForRoots fills the required id of the embedded request's
	// envelope; nil when there is none to fill.
	ID *EnvelopeID
}

// A Warning is a part of the roots feature left out of the package: the
// schema has it in a shape the generator cannot write (the plan's), or a
// union reached from the roots definitions that has no roots arm and is
// kept as an untyped value (Select's).
type Warning struct {
	// Definition and Member say where: a schema definition and a member
	// of it ("" for the definition as a whole).
	Definition, Member string
	// Reason says what is wrong with it and what is left out.
	Reason string
}

func (w Warning) String() string {
	where := w.Definition
	if w.Member != "" {
		where += "." + w.Member
	}
	return where + ": " + w.Reason
}

// planner checks the model for the parts of the plan.
type planner struct {
	m *Model
	p *Plan
}

// def is the type made from schema path (a definition name, or a nested
// path), aliases followed, or nil.
func (pl *planner) def(path string) *Type {
	for _, t := range pl.m.Types {
		if t.Path == path {
			return Resolve(t)
		}
	}
	return nil
}

func (pl *planner) warn(def, member, format string, args ...any) {
	pl.p.Warnings = append(pl.p.Warnings, Warning{def, member, fmt.Sprintf(format, args...)})
}

// member returns the field for JSON member name of definition def, when it
// exists and has Go name GoName (or any name, if "") and, if want is not
// "", exactly Go type want. Otherwise it warns, saying that part is left
// out, and returns nil.
func (pl *planner) member(def, name, GoName, want, part string) *Field {
	t := pl.def(def)
	if t == nil {
		pl.warn(def, "", "the definition is missing; %s left out", part)
		return nil
	}
	f := FieldOf(t, name)
	switch {
	case f == nil:
		pl.warn(def, name, "no such member (renamed or removed?); %s left out", part)
	case GoName != "" && f.Name != GoName:
		pl.warn(def, name, "its Go field is %s, not %s (another member took the name); %s left out", f.Name, GoName, part)
	case want != "" && goTypeString(f) != want:
		pl.warn(def, name, "it is %s, not %s; %s left out", goTypeString(f), want, part)
	default:
		return f
	}
	return nil
}

// structMember is member for a member whose type is a struct, returning
// the field and the struct's Go name.
func (pl *planner) structMember(def, name, GoName, part string) (*Field, string) {
	f := pl.member(def, name, GoName, "", part)
	if f == nil {
		return nil, ""
	}
	if f.Type.Named == nil || Resolve(f.Type.Named).Kind != KindStruct {
		pl.warn(def, name, "it is %s, not an object; %s left out", goTypeString(f), part)
		return nil, ""
	}
	return f, f.Type.Named.Name
}

// method is the Go name of definition def's method constant, or "".
func (pl *planner) method(def, want, part string) bool {
	t := pl.def(def)
	if t == nil {
		return false
	}
	for _, c := range t.Consts {
		if c.JSONName == "method" {
			if c.Const.Name != want || c.Const.Type != MethodTypeName {
				pl.warn(def, "method", "its constant is %s, not %s %s; %s left out", c.Const.Name, want, MethodTypeName, part)
				return false
			}
			return true
		}
	}
	pl.warn(def, "method", "not a fixed (\"const\") method name; %s left out", part)
	return false
}

func (pl *planner) hasConst(name string) bool {
	return slices.ContainsFunc(pl.m.Consts, func(c *Const) bool { return c.Name == name })
}

// newPlan decides what the package of model m has, one part after
// another: a part may depend on those decided before it (Direct on
// Handlers, Paging on ParamsType).
func newPlan(m *Model) *Plan {
	p := &Plan{Warnings: slices.Clone(m.Warnings)}
	pl := &planner{m: m, p: p}
	f := m.Features

	p.Handlers = pl.handlers()
	p.Direct = p.Handlers != nil && f.DirectRequest
	p.Envelope = f.RequestEnvelope
	p.CapabilitiesInMeta = f.CapabilitiesInMeta
	p.RootMeta = f.RootMeta

	if f.ListChangedNotification && p.Handlers != nil {
		p.ListChanged = pl.listChanged()
	}
	p.CapabilityListChanged = f.CapabilityListChanged

	if f.InputRequests && p.Handlers != nil {
		p.InputRequests = pl.inputRequests()
	}
	if p.InputRequests {
		p.Ask = pl.ask()
	}
	if p.Ask != nil {
		var ok bool
		if p.Ask.ID, ok = pl.envelopeID(); !ok {
			p.Ask = nil
		}
	}
	if p.Handlers != nil {
		p.Paging = pl.paging()
	}
	pl.enums()
	if pl.def("MissingRequiredClientCapabilityError") != nil {
		p.Require = pl.require()
	}
	p.MissingCode = pl.hasConst("CodeMissingRequiredClientCapability")
	p.VersionKey = pl.versionKey()

	// The file:// rule, and with it RootSet: checkRootsContract has made
	// sure of Root.uri and ListRootsResult.roots.
	uri := FieldOf(pl.def("Root"), "uri")
	p.FileRule = slices.Equal(uri.URISchemes, []string{"file"})

	if p.Handlers != nil {
		if name := pl.member("Root", "name", "Name", "string", "the examples"); name != nil {
			p.Examples = pl.exampleFills()
		}
	}
	p.GateProblem = gateProblem(pl.def("Root"))
	if p.GateProblem == "" && p.Handlers != nil && !p.Direct && !p.InputRequests {
		// The gate would have no way to ask for roots, nor its Client to
		// answer: the schema's inputRequests has no roots arm, say.
		p.GateProblem = "the schema carries roots/list neither as a request of its own nor in inputRequests"
	}
	pl.deprecation()
	return p
}

// handlers checks what roots.go is written in terms of: the params of
// roots/list, the capability, the method name. Where they are as it
// needs them, it returns the params; otherwise nil.
func (pl *planner) handlers() *Handlers {
	const handlers = "roots.go (Client, handlers, Server) and the examples"
	params, paramsType := pl.structMember("ListRootsRequest", "params", "Params", handlers)
	capField, _ := pl.structMember("ClientCapabilities", "roots", "Roots", handlers)
	if capField != nil && (capField.Type.Named.Name != "RootsCapability" || !capField.Pointer) {
		pl.warn("ClientCapabilities", "roots", "it is %s, not *RootsCapability; %s left out", goTypeString(capField), handlers)
		capField = nil
	}
	method := pl.method("ListRootsRequest", "MethodListRoots", handlers)
	if params == nil || capField == nil || !method {
		return nil
	}
	return &Handlers{ParamsType: paramsType, ParamsPointer: params.Pointer}
}

// listChanged checks what the list_changed notification is written in
// terms of: its params and its method name. Where they are as it needs
// them, it returns them; otherwise nil.
func (pl *planner) listChanged() *ListChanged {
	const part = "the list_changed notification (ListChangedHandler, Server.HandleNotification, Client.NotifyListChanged)"
	_, nt := pl.structMember("RootsListChangedNotification", "params", "Params", part)
	ok := pl.method("RootsListChangedNotification", "MethodRootsListChanged", part)
	if nt == "" || !ok {
		return nil
	}
	return &ListChanged{ParamsType: nt, Method: "MethodRootsListChanged"}
}

// deprecation names the definitions the schema marks "deprecated" that
// the roots symbols are built on: DeprecatedBy for all of them, and
// ListChangedDeprecatedBy for the list_changed ones.
func (pl *planner) deprecation() {
	p := pl.p
	for _, def := range rootsDefinitions {
		if t := pl.def(def); t != nil && t.Deprecated && p.DeprecatedBy == "" {
			p.DeprecatedBy = def
		}
	}
	if caps := pl.def("ClientCapabilities"); caps != nil && p.DeprecatedBy == "" {
		// The roots capability: the member, or the type it is.
		if f := FieldOf(caps, "roots"); f != nil && (f.Deprecated || f.Type.Named != nil && Resolve(f.Type.Named).Deprecated) {
			p.DeprecatedBy = "ClientCapabilities.roots"
		}
	}
	p.ListChangedDeprecatedBy = p.DeprecatedBy
	if t := pl.def("RootsListChangedNotification"); t != nil && t.Deprecated && p.DeprecatedBy == "" {
		p.ListChangedDeprecatedBy = "RootsListChangedNotification"
	}
}

// gateProblem says why the gate's Root cannot be converted to and from
// root, or "".
func gateProblem(root *Type) string {
	name, meta := FieldOf(root, "name"), FieldOf(root, "_meta")
	switch {
	case name == nil || name.Name != "Name" || goTypeString(name) != "string":
		return "Root has no string member \"name\" with Go field Name"
	case meta != nil && (meta.Name != "Meta" || meta.Pointer || !isOpenObject(meta.Type)):
		return "Root's member \"_meta\" is not an open object with Go field Meta"
	case root.Extra == nil || root.ExtraName != "Extra" || !root.Extra.Raw:
		return "Root keeps no unknown members as raw JSON in Extra"
	}
	return ""
}

// isOpenObject reports whether g is map[string]any, or a named type of it.
func isOpenObject(g GoType) bool {
	if g.Named != nil {
		t := Resolve(g.Named)
		return t.Kind == KindMap && t.Elem.Any
	}
	return g.Map != nil && g.Map.Any
}

// inputRequests checks what Client.AnswerInputRequests is written in
// terms of: the maps of requests and responses, and their unions' roots arms.
func (pl *planner) inputRequests() bool {
	const part = "roots/list inside inputRequests (Client.AnswerInputRequests, AskForRoots, RootsFromInputResponses)"
	ok := true
	for _, c := range []struct{ def, arm string }{{"InputRequest", "ListRootsRequest"}, {"InputResponse", "ListRootsResult"}} {
		maps := c.def + "s"
		if t := pl.def(maps); t == nil || t.Kind != KindMap || t.Elem.Named == nil || t.Elem.Named.Path != c.def {
			pl.warn(maps, "", "not a map of %s; %s left out", c.def, part)
			ok = false
			continue
		}
		u := pl.def(c.def)
		if u == nil || u.Kind != KindRawUnion || !slices.ContainsFunc(u.Arms, func(a *Type) bool { return a.Name == c.arm }) {
			pl.warn(c.def, "", "not a union with a %s arm; %s left out", c.arm, part)
			ok = false
		}
	}
	return ok
}

// ask checks what AskForRoots and RootsFromInputResponses fill and read,
// and returns their Go names, or nil when the package cannot have them.
func (pl *planner) ask() *AskFields {
	const part = "AskForRoots, RootsFromInputResponses and their StateSealer methods"
	a := new(AskFields)
	ok := true
	for _, m := range []struct {
		def, member, typ string
		name             *string
	}{
		{"InputRequiredResult", "resultType", "string", &a.ResultType},
		{"InputRequiredResult", "inputRequests", pl.goNameOf("InputRequests"), &a.InputRequests},
		{"InputRequiredResult", "requestState", "string", &a.RequestState},
		{"InputResponseRequestParams", "inputResponses", pl.goNameOf("InputResponses"), &a.InputResponses},
		{"InputResponseRequestParams", "requestState", "string", &a.RetryState},
	} {
		if f := pl.member(m.def, m.member, "", m.typ, part); f != nil {
			*m.name = f.Name
		} else {
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return a
}

// goNameOf is the Go name of the type made from schema path.
func (pl *planner) goNameOf(path string) string {
	for _, t := range pl.m.Types {
		if t.Path == path {
			return t.Name
		}
	}
	return ""
}

// require checks what RequireRoots builds: the -32021 error response.
func (pl *planner) require() bool {
	const part = "RequireRoots (the -32021 error for a missing roots capability)"
	const capabilities = "io.modelcontextprotocol/clientCapabilities"
	ok := true
	for _, m := range []struct{ def, member, GoName, typ string }{
		{"MissingRequiredClientCapabilityError", "id", "ID", "*RequestID"},
		{"MissingRequiredClientCapabilityError", "error", "Error", "MissingRequiredClientCapabilityErrorObject"},
		{"MissingRequiredClientCapabilityError.error", "message", "Message", "string"},
		{"MissingRequiredClientCapabilityError.error", "data", "Data", "MissingRequiredClientCapabilityErrorData"},
		{"MissingRequiredClientCapabilityError.error.data", "requiredCapabilities", "RequiredCapabilities", "ClientCapabilities"},
		{"RequestMetaObject", capabilities, "ClientCapabilities", "ClientCapabilities"},
	} {
		ok = pl.member(m.def, m.member, m.GoName, m.typ, part) != nil && ok
	}
	return ok
}

// versionKey is the JSON name of the member of a request's _meta that
// names its protocol version, in a revision whose requests carry their
// capabilities (and so their version) in _meta; otherwise "".
func (pl *planner) versionKey() string {
	meta := pl.def("RequestMetaObject")
	if !pl.m.Features.CapabilitiesInMeta || meta == nil {
		return ""
	}
	for _, f := range meta.Fields {
		if f.Name == "ProtocolVersion" && goTypeString(f) == "string" {
			return f.JSONName
		}
	}
	return ""
}

// goTypeString is the Go type of a field as emitted.
func goTypeString(f *Field) string {
	s := TypeString(f.Type)
	if f.Pointer {
		s = "*" + s
	}
	return s
}

// pagingMember is a cursor field in the summary: its name, and its type
// when that is not a plain string.
func pagingMember(name, typ string) string {
	if typ == "string" {
		return name
	}
	return name + " " + typ
}

// Parts lists the parts of the roots feature the package has, by name, in
// a fixed order: the plan's summary.
func (p *Plan) Parts() []string {
	var parts []string
	add := func(on bool, name string) {
		if on {
			parts = append(parts, name)
		}
	}
	if h := p.Handlers; h != nil {
		params := h.ParamsType + " required"
		if h.ParamsPointer {
			params = "*" + h.ParamsType
		}
		add(true, "handlers(params="+params+")")
	}
	add(p.Direct, "direct")
	add(p.Envelope, "envelope")
	if p.Paging != nil {
		pg := p.Paging
		add(true, "paging("+pagingMember(pg.Cursor, pg.CursorType)+","+pagingMember(pg.NextCursor, pg.NextCursorType)+")")
	}
	if p.ListChanged != nil {
		add(true, "listChanged(params="+p.ListChanged.ParamsType+")")
	}
	add(p.HandleNotification(), "handleNotification")
	add(p.NotifyListChanged(), "notifyListChanged")
	add(p.CapabilitiesInMeta, "capabilitiesInMeta")
	add(p.InputRequests, "inputRequests")
	if a := p.Ask; a != nil {
		add(true, fmt.Sprintf("ask(%s,%s,%s;%s,%s)", a.ResultType, a.InputRequests, a.RequestState, a.InputResponses, a.RetryState))
	}
	if p.Ask != nil && p.Ask.ID != nil {
		add(true, "askID("+p.Ask.ID.Field+"="+p.Ask.ID.Value+")")
	}
	add(p.Require, "require")
	add(p.MissingCode, "missingCode")
	add(p.VersionKey != "", "versionKey="+p.VersionKey)
	add(p.FileRule, "fileRule")
	add(p.RootSet(), "rootSet")
	add(p.RootMeta, "rootMeta")
	add(p.Examples != nil, "examples")
	add(p.DeprecatedBy != "", "deprecatedBy="+p.DeprecatedBy)
	add(p.ListChangedDeprecatedBy != "" && p.ListChangedDeprecatedBy != p.DeprecatedBy, "listChangedDeprecatedBy="+p.ListChangedDeprecatedBy)
	return parts
}

// paramsType is the Go type of roots/list's params, "" without Handlers.
func (p *Plan) paramsType() string {
	if p.Handlers == nil {
		return ""
	}
	return p.Handlers.ParamsType
}

// Summary is the plan in a few lines: its parts, then each warning.
func (p *Plan) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plan: %s\n", strings.Join(p.Parts(), " "))
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if p.GateProblem != "" {
		fmt.Fprintf(&b, "gate: cannot serve: %s\n", p.GateProblem)
	}
	return b.String()
}

// TypeDeprecatedBy names the deprecated definition roots type t is built
// on, or "".
func (p *Plan) TypeDeprecatedBy(t *Type) string {
	switch {
	case !t.Roots:
		return ""
	case t.Path == "RootsListChangedNotification" || strings.HasPrefix(t.Path, "RootsListChangedNotification."):
		return p.ListChangedDeprecatedBy
	}
	return p.DeprecatedBy
}

// ConstDeprecatedBy names the deprecated definition roots constant c is
// built on, or "".
func (p *Plan) ConstDeprecatedBy(c *Const) string {
	switch {
	case !c.Roots:
		return ""
	case p.ListChanged != nil && c.Name == p.ListChanged.Method:
		return p.ListChangedDeprecatedBy
	}
	return p.DeprecatedBy
}
