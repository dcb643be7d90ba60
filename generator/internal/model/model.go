package model

import (
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rootsgen/rootsgen/generator/internal/load"

	"github.com/invopop/jsonschema"

	"github.com/rootsgen/rootsgen/schema"
)

// Model is everything the emitters need to know about one revision: the Go
// declarations to write and the features the revision has. It is built from
// a schema alone (plus the deprecation registry), never from the revision's name.
type Model struct {
	Revision string
	Dialect  string
	// InputSHA is the first 12 hex digits of the SHA-256 of the schema file.
	InputSHA string
	// InputSize is the schema file's length in bytes.
	InputSize int
	// Types in emission order: each definition, followed by the anonymous
	// types nested in it.
	Types []*Type
	// Consts are the fixed values of the schema: method names first.
	Consts   []*Const
	Features Features
	// EnumsIgnored are the schema paths whose "enum" the model could not
	// make typed constants of (booleans, mixed kinds): they keep their
	// plain type, and the plan reports them.
	EnumsIgnored []string
	// Deprecation is set when the registry deprecates roots in this revision.
	Deprecation *schema.Deprecation
	// Warnings are what Select left out or reduced (see Selection); the
	// Plan's Warnings start with them.
	Warnings []Warning
	// Renamed are the names made from the schema that the generated
	// package declares itself, and what they became instead (builder.name).
	Renamed []Rename
	// Plan is what the package has of the roots feature, made from the
	// rest of the model once it is built.
	Plan *Plan
}

// Features are what a revision's schema says about the roots feature.
type Features struct {
	// ListChangedNotification: the client can notify notifications/roots/list_changed.
	ListChangedNotification bool `json:"listChangedNotification"`
	// CapabilityListChanged: the roots capability has a listChanged flag.
	CapabilityListChanged bool `json:"capabilityListChanged"`
	// RequestEnvelope: ListRootsRequest is a whole JSON-RPC request (jsonrpc, id).
	RequestEnvelope bool `json:"requestEnvelope"`
	// DirectRequest: the server sends roots/list as a request of its own.
	DirectRequest bool `json:"directRequest"`
	// InputRequests: roots/list travels inside an InputRequiredResult.
	InputRequests bool `json:"inputRequests"`
	// CapabilitiesInMeta: client capabilities ride in each request's _meta.
	CapabilitiesInMeta bool `json:"capabilitiesInMeta"`
	// RootMeta: a Root carries _meta.
	RootMeta bool `json:"rootMeta"`
}

// Kind is the shape of a generated type.
type Kind string

// The kinds of generated types.
const (
	KindStruct   Kind = "struct"   // an object with named properties
	KindMap      Kind = "map"      // an object with only additional properties
	KindSlice    Kind = "slice"    // an array
	KindScalar   Kind = "scalar"   // a named string, number or boolean
	KindUnion    Kind = "union"    // one of several primitive types ("type" array)
	KindRawUnion Kind = "rawunion" // one of several definitions ("anyOf" of references)
	KindAny      Kind = "any"      // no constraint at all
	KindAlias    Kind = "alias"    // another definition under a second name
)

// Type is a named Go type to generate.
type Type struct {
	Name string
	// Path is where the type comes from: a definition name, then
	// ".property" for each level of nesting.
	Path string
	Doc  []string
	Kind Kind
	// Roots marks the types that belong to the roots feature itself, as
	// opposed to protocol machinery it uses (errors, _meta, input requests).
	Roots bool
	// Deprecated is the schema's own "deprecated" keyword.
	Deprecated bool
	// Partial: the definition holds only the roots part of the upstream one.
	Partial bool

	// KindStruct:
	Fields []*Field
	Consts []*ConstField
	// Extra, when set, is the element type of the map that keeps members
	// the schema does not name (any object not closed by
	// "additionalProperties": false), under the field named ExtraName.
	Extra     *GoType
	ExtraName string

	// KindMap, KindSlice: the element type. KindScalar: the underlying type.
	Elem *GoType

	// KindUnion: the primitive members, in schema order.
	Members []Primitive
	// KindRawUnion: the definitions it may hold.
	Arms []*Type
	// KindScalar: the values the schema's "enum" allows, each a typed
	// constant of the type, in schema order; none when any value goes.
	Enum []*Const
}

// Primitive is a JSON type that maps to one Go type.
type Primitive string

// The primitives and the Go type of each.
const (
	String  Primitive = "string"
	Integer Primitive = "integer"
	Number  Primitive = "number"
	Boolean Primitive = "boolean"
	Null    Primitive = "null"
)

// GoTypeName is the Go type a primitive maps to.
func (p Primitive) GoTypeName() string {
	return map[Primitive]string{String: "string", Integer: "int64", Number: "float64", Boolean: "bool"}[p]
}

// GoType is a reference to a type from a field or element.
type GoType struct {
	Prim  Primitive // set for string, integer, number, boolean
	Named *Type     // set for generated types
	Slice *GoType   // set for an anonymous array
	Map   *GoType   // set for an anonymous open object
	// Any is true for a value with no constraint (Go's any).
	Any bool
	// Raw is true for a value kept as JSON text (json.RawMessage).
	Raw bool
}

// Field is a property of a struct.
type Field struct {
	Name     string // Go name
	JSONName string
	Doc      []string
	Type     GoType
	Required bool
	// Pointer: optional, and absence differs from the zero value (objects, unions).
	Pointer    bool
	Format     string
	URISchemes []string // allowed schemes of a URI string (see uriSchemes); empty: any absolute URI, where Format is "uri"
	Deprecated bool
	Roots      bool
}

// ConstField is a property with a fixed value: it has no Go field; the
// marshaller writes the value and the unmarshaller checks it.
type ConstField struct {
	JSONName string
	Required bool
	Const    *Const
}

// Const is a package-level constant.
type Const struct {
	Name  string
	Doc   []string
	Value any    // string, int64, float64 or bool
	Type  string // a Go type name, or "" for an untyped constant
	Roots bool
	// Owner is the type whose fixed member or method the constant is, and
	// which its doc's first line ends naming; nil for an enum value.
	Owner *Type
}

// uriSchemes are rules of the roots feature that the schema need not state:
// the specification requires root URIs to be file:// URIs in every revision
// so far. A field listed here is checked as a URI of those schemes whether
// or not its schema says "format": "uri".
var uriSchemes = map[string][]string{"Root.uri": {"file"}}

// rootsFeatureProperties are properties outside the roots definitions that
// belong to the roots feature.
var rootsFeatureProperties = []string{"ClientCapabilities.roots"}

// MethodTypeName is the Go type of the method-name constants.
const MethodTypeName = "Method"

// Build makes the model of one revision from the selected definitions.
func Build(revision string, doc *load.Document, sel *Selection, reserved Reserved) (*Model, error) {
	m := &Model{Revision: revision, Dialect: doc.Dialect, InputSHA: hex.EncodeToString(doc.SHA256[:])[:12], InputSize: doc.Size, Warnings: slices.Clone(sel.Warnings)}
	if d, ok := schema.DeprecationFor("roots", revision); ok {
		m.Deprecation = &d
	}
	b := &builder{m: m, sel: sel, reserved: reserved, defs: map[string]*Type{}}
	b.names = newNamer(slices.Collect(maps.Keys(reserved.Names))...)
	// Definitions first, so that they keep their natural names.
	b.nameDefinitions()
	for _, name := range sel.Names {
		t := b.defs[name]
		b.fill(t, sel.Defs[name])
		b.order(t)
	}
	if b.err != nil {
		return nil, b.err
	}
	// Now that every type has its kind, settle what depends on the kinds of
	// the types fields refer to.
	for _, t := range m.Types {
		if refCycle(t, t, map[*Type]bool{}) {
			return nil, fmt.Errorf("%s: definitions that only reference each other in a cycle", t.Path)
		}
	}
	for _, t := range m.Types {
		if t.Kind == KindStruct {
			m.Renamed = append(m.Renamed, settleFieldNames(t, reserved)...)
		}
	}
	for _, t := range m.Types {
		for _, f := range t.Fields {
			if named := f.Type.Named; named != nil {
				k := Resolve(named).Kind
				f.Pointer = !f.Required && (k == KindStruct || k == KindUnion || k == KindRawUnion)
				if f.Required && k == KindStruct && containsByValue(Resolve(named), t, map[*Type]bool{}) {
					// A struct cannot hold itself by value: break the cycle.
					f.Pointer = true
				}
				if f.Roots {
					markRoots(named)
				}
			}
		}
	}
	if err := checkRootsContract(b.defs); err != nil {
		return nil, err
	}
	if err := checkDeclarations(m, reserved); err != nil {
		return nil, err
	}
	slices.SortStableFunc(m.Consts, func(a, c *Const) int {
		return cmpBool(a.Type != MethodTypeName, c.Type != MethodTypeName)
	})
	m.Features = features(sel)
	if m.Features.CapabilityListChanged {
		// The flag is only usable as a Go bool named ListChanged.
		for _, t := range m.Types {
			if t.Path == "ClientCapabilities.roots" {
				f := FieldOf(Resolve(t), "listChanged")
				m.Features.CapabilityListChanged = f != nil && f.Name == "ListChanged" && f.Type.Prim == Boolean
			}
		}
	}
	m.Plan = newPlan(m)
	return m, nil
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

func overrideOr(path, name string) string {
	if o, ok := nameOverrides[path]; ok {
		return o
	}
	return name
}

type builder struct {
	m     *Model
	sel   *Selection
	names *namer
	// reserved are the names the generated package declares itself,
	// which nothing made from the schema takes.
	reserved Reserved
	defs     map[string]*Type
	nested   map[*Type][]*Type
	consts   map[string]*Const // by name
	err      error
	// mergedCache holds the result of merged for each schema with allOf.
	mergedCache map[*jsonschema.Schema]*jsonschema.Schema
}

// order appends t and, after it, the types nested in it.
func (b *builder) order(t *Type) {
	b.m.Types = append(b.m.Types, t)
	for _, n := range b.nested[t] {
		b.order(n)
	}
}

func (b *builder) fail(path, format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
}

// fill sets the shape of t from schema s.
func (b *builder) fill(t *Type, s *jsonschema.Schema) {
	s = b.merged(s, t.Path)
	b.checkEnum(t.Path, s)
	t.Doc = docLines(s.Description)
	t.Deprecated = s.Deprecated
	if s.Comments == SubsetMarker {
		t.Partial = true
	}
	switch {
	case s.Ref != "":
		// A definition that is another definition: an alias keeps its methods.
		t.Kind, t.Elem = KindAlias, &GoType{Named: b.defs[load.RefName(s.Ref)]}
	case primitiveUnion(s) != nil:
		t.Kind, t.Members = KindUnion, primitiveUnion(s)
	case isRefUnion(s):
		t.Kind = KindRawUnion
		for _, a := range s.AnyOf {
			t.Arms = append(t.Arms, b.defs[load.RefName(a.Ref)])
		}
	case s.Type == "object" && s.Properties != nil || s.Type == "" && s.Properties != nil:
		b.fillStruct(t, s)
	case s.Type == "object":
		t.Kind = KindMap
		el := b.typeOf(s.AdditionalProperties, t, "additionalProperties")
		t.Elem = &el
	case s.Type == "array":
		t.Kind = KindSlice
		el := b.typeOf(s.Items, t, "items")
		t.Elem = &el
	case enumType(s) != "":
		t.Kind, t.Elem = KindScalar, &GoType{Prim: enumType(s)}
		b.enum(t, s)
	case s.Type == "string" || s.Type == "integer" || s.Type == "number" || s.Type == "boolean":
		t.Kind, t.Elem = KindScalar, &GoType{Prim: Primitive(s.Type)}
	default:
		t.Kind = KindAny
	}
}

// enumType is the primitive type of a schema that lists its values in
// "enum": its "type", or, without one, the type every value shares.
// It is "" for a schema without enum, or one whose values are not all
// strings, integers or numbers of its type (an enum of booleans, nulls,
// objects or mixed kinds keeps its plain type).
func enumType(s *jsonschema.Schema) Primitive {
	if len(s.Enum) == 0 || len(s.AnyOf) > 0 || s.Properties != nil {
		return ""
	}
	var kind Primitive
	for _, v := range s.Enum {
		var k Primitive
		switch x := v.(type) {
		case string:
			k = String
		case float64:
			k = Number
			if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
				k = Integer
			}
		default:
			return ""
		}
		if kind == "" || kind == Integer && k == Number || kind == Number && k == Integer {
			if kind == "" || k == Number {
				kind = k
			}
		} else if kind != k {
			return ""
		}
	}
	switch {
	case s.Type == "":
		return kind
	case s.Type == string(kind), s.Type == "number" && kind == Integer:
		return Primitive(s.Type)
	}
	return ""
}

// checkEnum notes an "enum" at path that enumType cannot type.
func (b *builder) checkEnum(path string, s *jsonschema.Schema) {
	if len(s.Enum) > 0 && enumType(s) == "" && !slices.Contains(b.m.EnumsIgnored, path) {
		b.m.EnumsIgnored = append(b.m.EnumsIgnored, path)
	}
}

// enum gives scalar type t a typed constant for each value of the
// schema's "enum", named after the type and the value.
func (b *builder) enum(t *Type, s *jsonschema.Schema) {
	seen := map[any]bool{}
	for _, v := range s.Enum {
		value, err := constValue(v)
		if err != nil {
			b.fail(t.Path, "enum: %v", err)
			return
		}
		if t.Elem.Prim == Number {
			if n, ok := value.(int64); ok {
				value = float64(n)
			}
		}
		if seen[value] {
			continue // a repeated value adds nothing
		}
		seen[value] = true
		c := &Const{Value: value, Type: t.Name, Roots: t.Roots, Name: b.name(fmt.Sprintf("%s (the value %s)", t.Path, EnumLiteral(value)), t.Name+enumSuffix(value))}
		c.Doc = []string{fmt.Sprintf("%s is the %s %s.", c.Name, t.Name, EnumLiteral(value))}
		t.Enum = append(t.Enum, c)
		b.m.Consts = append(b.m.Consts, c)
	}
}

// enumSuffix is the part of an enum constant's name that comes from its
// value: "read-only" gives ReadOnly, 2 gives 2, -1 gives Minus1.
func enumSuffix(v any) string {
	switch x := v.(type) {
	case string:
		if x == "" {
			return "Empty"
		}
		n := GoName(x)
		if strings.HasPrefix(n, "X") && !strings.HasPrefix(x, "x") && !strings.HasPrefix(x, "X") {
			// GoName's prefix for a name that cannot start an identifier,
			// which here follows the type's name.
			n = n[1:]
		}
		return n
	case int64:
		if x < 0 {
			return fmt.Sprintf("Minus%d", -x)
		}
		return fmt.Sprint(x)
	case float64:
		s := strings.NewReplacer("-", "Minus", ".", "_", "+", "").Replace(strconv.FormatFloat(x, 'g', -1, 64))
		return s
	}
	return ""
}

// EnumLiteral is an enum value as it reads in a doc comment.
func EnumLiteral(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func (b *builder) fillStruct(t *Type, s *jsonschema.Schema) {
	t.Kind = KindStruct
	methods := b.reserved.Methods(t.Path)
	fieldNames := newNamer(methods...)
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	for key, p := range s.Properties.FromOldest() {
		path := t.Path + "." + key
		p = b.merged(p, path)
		required := required[key]
		if p.Const != nil {
			c := b.constant(path, t, key, p)
			t.Consts = append(t.Consts, &ConstField{JSONName: key, Required: required, Const: c})
			continue
		}
		f := &Field{
			Name:       fieldNames.take(GoName(key)),
			JSONName:   key,
			Doc:        docLines(p.Description),
			Required:   required,
			Format:     p.Format,
			URISchemes: uriSchemes[path],
			Deprecated: p.Deprecated,
			Roots:      t.Roots || slices.Contains(rootsFeatureProperties, path),
		}
		if want := GoName(key); f.Name != want && slices.Contains(methods, want) {
			// The name of a method of the type: the field gets another.
			b.m.Renamed = append(b.m.Renamed, Rename{Path: path, Name: want, GoName: f.Name})
		}
		f.Type = b.typeOf(p, t, key)
		t.Fields = append(t.Fields, f)
	}
	// JSON Schema objects are open unless additionalProperties says
	// otherwise, so members without a field are kept: as raw JSON when the
	// schema says nothing about them, typed when it does.
	extra := s.AdditionalProperties
	if extra == nil || !isFalseSchema(extra) {
		el := GoType{Raw: true}
		if extra != nil && !isEmptySchema(extra) {
			el = b.typeOf(extra, t, "additionalProperties")
		}
		t.Extra = &el
		t.ExtraName = fieldNames.take("Extra")
	}
}

// containsByValue reports whether struct t holds target by value, directly
// or through other struct values.
func containsByValue(t, target *Type, seen map[*Type]bool) bool {
	if t == target {
		return true
	}
	if seen[t] || t.Kind != KindStruct {
		return false
	}
	seen[t] = true
	for _, f := range t.Fields {
		if f.Type.Named != nil && !f.Pointer && containsByValue(Resolve(f.Type.Named), target, seen) {
			return true
		}
	}
	return false
}

// checkRootsContract checks the members every roots binding is written in
// terms of: ListRootsResult.roots, an array of Root, and Root.uri, a string.
// A schema without them is not one of the roots feature.
func checkRootsContract(defs map[string]*Type) error {
	root, result := Resolve(defs["Root"]), Resolve(defs["ListRootsResult"])
	if f := FieldOf(root, "uri"); f == nil || f.Name != "URI" || f.Type.Prim != String {
		return fmt.Errorf("definition Root: the roots feature needs a string member \"uri\" with Go field URI%s", tookName(f, "URI"))
	}
	if f := FieldOf(result, "roots"); f == nil || f.Name != "Roots" || f.Type.Slice == nil || f.Type.Slice.Named == nil || Resolve(f.Type.Slice.Named) != root {
		return fmt.Errorf("definition ListRootsResult: the roots feature needs a member \"roots\" that is an array of Root with Go field Roots%s", tookName(f, "Roots"))
	}
	return nil
}

// tookName explains a contract member whose Go name another member took.
func tookName(f *Field, want string) string {
	if f == nil || f.Name == want {
		return ""
	}
	return fmt.Sprintf(" (it is %s: a member listed before it has the Go name %s)", f.Name, want)
}

// FieldOf returns the field of struct t for JSON member name, or nil.
func FieldOf(t *Type, name string) *Field {
	if t.Kind != KindStruct {
		return nil
	}
	for _, f := range t.Fields {
		if f.JSONName == name {
			return f
		}
	}
	return nil
}

// refCycle reports whether target can be reached from t by following only
// aliases and the arms of unions of references: a cycle that never reaches
// a value of its own, which has no Go type (an alias of itself) or whose
// union can never hold anything.
func refCycle(t, target *Type, seen map[*Type]bool) bool {
	var next []*Type
	switch t.Kind {
	case KindAlias:
		next = []*Type{t.Elem.Named}
	case KindRawUnion:
		next = t.Arms
	}
	for _, n := range next {
		if n == target {
			return true
		}
		if !seen[n] {
			seen[n] = true
			if refCycle(n, target, seen) {
				return true
			}
		}
	}
	return false
}

// Resolve follows aliases to the type they name.
func Resolve(t *Type) *Type {
	for i := 0; t.Kind == KindAlias && i < 64; i++ {
		t = t.Elem.Named
	}
	return t
}

// markRoots marks a type nested in a roots property as part of the feature.
func markRoots(t *Type) {
	if !strings.Contains(t.Path, ".") || t.Roots {
		return
	}
	t.Roots = true
	for _, f := range t.Fields {
		if f.Type.Named != nil {
			markRoots(f.Type.Named)
		}
	}
}

func isFalseSchema(s *jsonschema.Schema) bool {
	return s.Not != nil && isEmptySchema(s.Not)
}

func isEmptySchema(s *jsonschema.Schema) bool {
	e := *s
	e.Description, e.Title, e.Comments = "", "", ""
	b, err := e.MarshalJSON()
	return err == nil && string(b) == "true"
}

// typeOf maps the schema of a property (or element) to a Go type, creating a
// nested named type for anonymous objects and unions.
func (b *builder) typeOf(s *jsonschema.Schema, parent *Type, key string) GoType {
	if s == nil {
		return GoType{Any: true}
	}
	path := parent.Path + "." + key
	s = b.merged(s, path)
	if enumType(s) == "" {
		b.checkEnum(path, s)
	}
	switch {
	case s.Ref != "":
		return GoType{Named: b.defs[load.RefName(s.Ref)]}
	case primitiveUnion(s) != nil, isRefUnion(s), s.Properties != nil, enumType(s) != "":
		return GoType{Named: b.nestedType(parent, key, s)}
	case s.Type == "object":
		el := b.typeOf(s.AdditionalProperties, parent, key+".additionalProperties")
		return GoType{Map: &el}
	case s.Type == "array":
		el := b.typeOf(s.Items, parent, key+".items")
		return GoType{Slice: &el}
	case s.Type == "string" || s.Type == "integer" || s.Type == "number" || s.Type == "boolean":
		return GoType{Prim: Primitive(s.Type)}
	}
	return GoType{Any: true}
}

func (b *builder) nestedType(parent *Type, key string, s *jsonschema.Schema) *Type {
	path := parent.Path + "." + key
	name := overrideOr(path, parent.Name+GoName(key))
	t := &Type{Path: path, Name: b.name(path, name), Roots: parent.Roots}
	if b.nested == nil {
		b.nested = map[*Type][]*Type{}
	}
	b.nested[parent] = append(b.nested[parent], t)
	b.fill(t, s)
	return t
}

// constant registers the package constant for a "const" property.
func (b *builder) constant(path string, owner *Type, key string, p *jsonschema.Schema) *Const {
	value, err := constValue(p.Const)
	if err != nil {
		b.fail(path, "%v", err)
		return &Const{}
	}
	c := &Const{Value: value, Roots: owner.Roots, Doc: docLines(p.Description), Owner: owner}
	if key == "method" {
		c.Type = MethodTypeName
		stem := strings.TrimSuffix(strings.TrimSuffix(owner.Name, "Request"), "Notification")
		c.Name = "Method" + stem
		c.Doc = []string{fmt.Sprintf("%s is the method name of %s.", c.Name, owner.Name)}
	} else {
		c.Name = overrideOr(path, owner.Name+GoName(key))
		c.Doc = append([]string{fmt.Sprintf("%s is the fixed value of %q in %s.", c.Name, key, owner.Name)}, c.Doc...)
	}
	if prev := b.consts[c.Name]; prev != nil {
		if prev.Value == c.Value && prev.Type == c.Type {
			prev.Roots = prev.Roots && c.Roots
			return prev
		}
	}
	if b.consts == nil {
		b.consts = map[string]*Const{}
	}
	c.Name = b.name(path, c.Name)
	b.consts[c.Name] = c
	b.m.Consts = append(b.m.Consts, c)
	return c
}

func constValue(v any) (any, error) {
	switch x := v.(type) {
	case string, bool:
		return x, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x), nil
		}
		return x, nil
	}
	return nil, fmt.Errorf("unsupported \"const\" value %v: only strings, numbers and booleans", v)
}

// primitiveUnion returns the members of an "anyOf" whose arms are each a
// bare primitive type (what a normalized "type" array looks like).
func primitiveUnion(s *jsonschema.Schema) []Primitive {
	if len(s.AnyOf) < 2 {
		return nil
	}
	var ps []Primitive
	for _, a := range s.AnyOf {
		bare := jsonschema.Schema{Type: a.Type}
		if a.Type == "" || a.Type == "object" || a.Type == "array" || !sameIgnoringDocs(a, &bare) {
			return nil
		}
		ps = append(ps, Primitive(a.Type))
	}
	return ps
}

func sameIgnoringDocs(a, b *jsonschema.Schema) bool {
	x, y := *a, *b
	x.Description, x.Title, y.Description, y.Title = "", "", "", ""
	bx, _ := x.MarshalJSON()
	by, _ := y.MarshalJSON()
	return string(bx) == string(by)
}

// merged folds "allOf" into one schema: properties and required members
// are joined, and where two arms describe the same property the more
// specific description wins. References inside allOf are followed.
func (b *builder) merged(s *jsonschema.Schema, path string) *jsonschema.Schema {
	return b.mergedOnce(s, path, map[*jsonschema.Schema]bool{})
}

// mergedOnce is merged with the allOf arms being merged, so that an arm
// that includes itself is an error, not endless recursion.
func (b *builder) mergedOnce(s *jsonschema.Schema, path string, open map[*jsonschema.Schema]bool) *jsonschema.Schema {
	if len(s.AllOf) == 0 {
		return s
	}
	if m := b.mergedCache[s]; m != nil {
		return m // shared arms are merged once, however often they are included
	}
	if open[s] {
		b.fail(path, "allOf includes itself through references")
		return &jsonschema.Schema{}
	}
	open[s] = true
	defer delete(open, s)
	out := *s
	out.AllOf = nil
	for _, arm := range s.AllOf {
		for depth := 0; arm.Ref != ""; depth++ {
			if depth > 32 {
				b.fail(path, "allOf reference chain too long or cyclic")
				return &out
			}
			arm = b.sel.Defs[load.RefName(arm.Ref)]
		}
		arm = b.mergedOnce(arm, path, open)
		mergeInto(&out, arm)
	}
	if b.mergedCache == nil {
		b.mergedCache = map[*jsonschema.Schema]*jsonschema.Schema{}
	}
	b.mergedCache[s] = &out
	return &out
}

func mergeInto(dst, src *jsonschema.Schema) {
	if dst.Type == "" {
		dst.Type = src.Type
	}
	if dst.Const == nil {
		dst.Const = src.Const
	}
	if dst.Format == "" {
		dst.Format = src.Format
	}
	if dst.Description == "" {
		dst.Description = src.Description
	}
	if dst.AdditionalProperties == nil {
		dst.AdditionalProperties = src.AdditionalProperties
	}
	if dst.Items == nil {
		dst.Items = src.Items
	}
	if len(dst.AnyOf) == 0 {
		dst.AnyOf = src.AnyOf
	}
	if len(src.Required) > 0 {
		have := map[string]bool{}
		for _, r := range dst.Required {
			have[r] = true
		}
		// dst may share its array with the schema it was copied from.
		dst.Required = slices.Clip(dst.Required)
		for _, r := range src.Required {
			if !have[r] {
				have[r] = true
				dst.Required = append(dst.Required, r)
			}
		}
	}
	if src.Properties == nil {
		return
	}
	props := newProps()
	if dst.Properties != nil {
		for k, v := range dst.Properties.FromOldest() {
			props.Set(k, v)
		}
	}
	for k, v := range src.Properties.FromOldest() {
		if prev, ok := props.Get(k); ok {
			both := *prev
			both.AllOf = nil
			mergeInto(&both, v)
			if v.Description != "" {
				both.Description = v.Description // the later arm is the more specific
			}
			props.Set(k, &both)
			continue
		}
		props.Set(k, v)
	}
	dst.Properties = props
}

// docLines splits a description into doc comment lines.
func docLines(desc string) []string {
	desc = strings.TrimSpace(desc)
	if desc == "" {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(desc, "\n") {
		lines = append(lines, strings.TrimRight(l, " \t"))
	}
	return lines
}

// features reads what the revision supports from its selected definitions.
func features(sel *Selection) Features {
	var f Features
	_, f.ListChangedNotification = sel.Defs["RootsListChangedNotification"]
	if caps := sel.Defs["ClientCapabilities"]; caps != nil && caps.Properties != nil {
		roots, _ := caps.Properties.Get("roots")
		f.CapabilityListChanged = hasProp(roots, "listChanged")
	}
	req := sel.Defs["ListRootsRequest"]
	f.RequestEnvelope = hasProp(req, "id") && hasProp(req, "jsonrpc")
	f.DirectRequest = hasArm(sel.Defs["ServerRequest"], "ListRootsRequest")
	f.InputRequests = hasArm(sel.Defs["InputRequest"], "ListRootsRequest")
	if meta := sel.Defs["RequestMetaObject"]; meta != nil && meta.Properties != nil {
		for k := range meta.Properties.KeysFromOldest() {
			f.CapabilitiesInMeta = f.CapabilitiesInMeta || strings.HasSuffix(k, "/clientCapabilities")
		}
	}
	f.RootMeta = hasProp(sel.Defs["Root"], "_meta")
	return f
}

// hasArm reports whether union s has an arm referencing definition name.
func hasArm(s *jsonschema.Schema, name string) bool {
	if s == nil {
		return false
	}
	for _, a := range s.AnyOf {
		if load.RefName(a.Ref) == name {
			return true
		}
	}
	return false
}

func hasProp(s *jsonschema.Schema, key string) bool {
	if s == nil || s.Properties == nil {
		return false
	}
	_, ok := s.Properties.Get(key)
	return ok
}
