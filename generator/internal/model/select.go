package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rootsgen/rootsgen/generator/internal/load"

	"github.com/invopop/jsonschema"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// The selection table: which definitions of a full MCP schema the roots
// bindings need, and how to cut down the ones that span other features too.
// This is the only place that knows MCP definition names; what a revision
// supports follows from which of them its schema has and what they contain.
var (
	// rootsDefinitions must all be present.
	rootsDefinitions = []string{"Root", "ListRootsRequest", "ListRootsResult"}
	// optionalSeeds are selected where the schema has them.
	optionalSeeds = []string{
		"RootsListChangedNotification",         // the client's change notification
		"ServerRequest",                        // the requests a server sends directly
		"ClientCapabilities",                   // where a client declares roots
		"InputRequiredResult",                  // server-to-client requests embedded in a result
		"InputResponseRequestParams",           // the retried request that carries the answers
		"MissingRequiredClientCapabilityError", // the error for a missing capability
	}
	// keptProperties cuts definitions that serve many features down to the
	// properties roots needs.
	keptProperties = map[string][]string{
		"ClientCapabilities": {"roots"},
		"RequestMetaObject":  {"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"},
		"ResultMetaObject":   {},
	}
)

// SubsetMarker is the "$comment" of a definition that holds only the
// roots-related part of the upstream one.
const SubsetMarker = "rootsgen: roots part only"

// A MissingDefinitionsError is a schema without the definitions every roots
// binding needs.
type MissingDefinitionsError struct{ Missing []string }

func (e *MissingDefinitionsError) Error() string {
	return fmt.Sprintf("the schema has no roots feature: missing definition(s) %s", strings.Join(e.Missing, ", "))
}

// Selection is the roots closure of a schema: the definitions the bindings
// need, cut down where they span other features, in a stable order.
type Selection struct {
	Names []string
	Defs  map[string]*jsonschema.Schema
	// Warnings are the parts of the schema the selection leaves out or
	// keeps in a reduced form (unions without a roots arm); the plan
	// reports them with its own.
	Warnings []Warning
}

// Partial reports whether definition name holds only part of the upstream one.
func (s *Selection) Partial(name string) bool { return s.Defs[name].Comments == SubsetMarker }

// Select finds the roots closure of doc: the roots definitions, the optional
// seeds that the schema has, and everything they reference, breadth first.
// Union definitions ("anyOf" of references) keep only their roots arms.
func Select(doc *load.Document) (*Selection, error) {
	var missing []string
	for _, name := range rootsDefinitions {
		if doc.Defs[name] == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, &MissingDefinitionsError{Missing: missing}
	}
	sel := &Selection{Defs: map[string]*jsonschema.Schema{}}
	queue := slices.Clone(rootsDefinitions)
	for _, name := range optionalSeeds {
		// A seed that is a union without a roots arm (a ServerRequest that
		// no longer lists roots/list) has nothing of roots in it.
		if def := doc.Defs[name]; def != nil && !(unionArms(def) != nil && !slices.ContainsFunc(unionArms(def), isRootsArm)) {
			queue = append(queue, name)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if sel.Defs[name] != nil {
			continue
		}
		if doc.Defs[name] == nil {
			// The loader refuses dangling references; this guards the
			// selection against any it might miss.
			return nil, fmt.Errorf("reference to %q, which the schema does not define", name)
		}
		def := prune(name, doc.Defs[name])
		if !slices.Contains(rootsDefinitions, name) && name != "RootsListChangedNotification" {
			// The roots definitions' own members are the feature's data and
			// keep every type they name; elsewhere a union is cut down to
			// what roots needs.
			def = pruneUnions(def, name, "", &sel.Warnings)
		}
		uncheckedKeywords(def, name, "", &sel.Warnings)
		sel.Names = append(sel.Names, name)
		sel.Defs[name] = def
		queue = append(queue, refsOf(def)...)
	}
	return sel, nil
}

// prune returns def cut down to its roots part, marked with SubsetMarker, or
// def itself when nothing needs cutting.
func prune(name string, def *jsonschema.Schema) *jsonschema.Schema {
	if keep, ok := keptProperties[name]; ok {
		cut := *def
		cut.Properties = nil
		cut.Required = nil
		if def.Properties != nil {
			for k, v := range def.Properties.FromOldest() {
				if slices.Contains(keep, k) {
					if cut.Properties == nil {
						cut.Properties = orderedmap.New[string, *jsonschema.Schema]()
					}
					cut.Properties.Set(k, v)
				}
			}
		}
		for _, r := range def.Required {
			if slices.Contains(keep, r) {
				cut.Required = append(cut.Required, r)
			}
		}
		cut.Comments = SubsetMarker
		return &cut
	}
	return def
}

// pruneUnions cuts every union of definitions ("anyOf" or "oneOf" whose arms
// are all references) in s down to its roots arms: the other arms are other
// features' messages (a ServerRequest's sampling and elicitation requests),
// and keeping them would pull those features' whole closures into the
// package. A union with no roots arm is kept as an untyped value, with a warning,
// since none of its arms can be written without the types roots does not
// need. member is the path of s below definition def ("" for def itself).
// s is returned as is when nothing changes, else as a changed copy.
func pruneUnions(s *jsonschema.Schema, def, member string, warnings *[]Warning) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	if arms := unionArms(s); arms != nil {
		roots := slices.DeleteFunc(slices.Clone(arms), func(a *jsonschema.Schema) bool { return !isRootsArm(a) })
		keyword := "anyOf"
		if len(s.OneOf) > 0 {
			keyword = "oneOf"
		}
		switch {
		case len(roots) == len(arms) && keyword == "anyOf":
			return s
		case len(roots) > 0:
			// One model of a union of definitions: anyOf of the kept arms.
			cut := *s
			cut.AnyOf, cut.OneOf = roots, nil
			if len(roots) < len(arms) {
				cut.Comments = SubsetMarker
			}
			return &cut
		}
		var names []string
		for _, a := range arms {
			names = append(names, load.RefName(a.Ref))
		}
		reason := fmt.Sprintf("the union (%s) has no arm of the roots feature, so it is kept as an untyped JSON value and its arm(s) %s are not generated",
			keyword, strings.Join(names, ", "))
		*warnings = append(*warnings, Warning{Definition: def, Member: member, Reason: reason})
		doc := "The schema's union of " + strings.Join(names, ", ")
		if member == "" {
			doc = def + " is, in the schema, a union of " + strings.Join(names, ", ")
		}
		return &jsonschema.Schema{Description: doc + ", none of which belongs to the roots feature, so it is kept as an untyped JSON value.", Comments: SubsetMarker}
	}
	out := s
	changed := func() *jsonschema.Schema {
		if out == s {
			c := *s
			out = &c
		}
		return out
	}
	if s.Properties != nil {
		props, propsChanged := newProps(), false
		for k, v := range s.Properties.FromOldest() {
			p := pruneUnions(v, def, memberPath(member, k), warnings)
			propsChanged = propsChanged || p != v
			props.Set(k, p)
		}
		if propsChanged {
			changed().Properties = props
		}
	}
	if p := pruneUnions(s.Items, def, memberPath(member, "items"), warnings); p != s.Items {
		changed().Items = p
	}
	if p := pruneUnions(s.AdditionalProperties, def, memberPath(member, "additionalProperties"), warnings); p != s.AdditionalProperties {
		changed().AdditionalProperties = p
	}
	for i, a := range s.AllOf {
		if p := pruneUnions(a, def, member, warnings); p != a {
			all := changed()
			all.AllOf = slices.Clone(all.AllOf)
			all.AllOf[i] = p
		}
	}
	return out
}

// uncheckedKeywords warns of each assertion in s (at member of definition
// def, "" for def itself) that the bindings do not make. The model reads
// types, members, required, const, enum, items and additionalProperties;
// a keyword beyond them that constrains a value would be accepted by
// Validate and the decoders without a word. References are left to their
// own definitions.
func uncheckedKeywords(s *jsonschema.Schema, def, member string, warnings *[]Warning) {
	if s == nil {
		return
	}
	var unchecked []string
	for _, k := range []struct {
		name string
		set  bool
	}{
		{"pattern", s.Pattern != ""}, {"minLength", s.MinLength != nil}, {"maxLength", s.MaxLength != nil},
		{"minimum", s.Minimum != ""}, {"maximum", s.Maximum != ""}, {"exclusiveMinimum", s.ExclusiveMinimum != ""},
		{"exclusiveMaximum", s.ExclusiveMaximum != ""}, {"multipleOf", s.MultipleOf != ""},
		{"minItems", s.MinItems != nil}, {"maxItems", s.MaxItems != nil}, {"uniqueItems", s.UniqueItems},
		{"prefixItems", len(s.PrefixItems) > 0}, {"contains", s.Contains != nil},
		{"minProperties", s.MinProperties != nil}, {"maxProperties", s.MaxProperties != nil},
		{"patternProperties", len(s.PatternProperties) > 0}, {"propertyNames", s.PropertyNames != nil},
		{"dependentRequired", len(s.DependentRequired) > 0}, {"dependentSchemas", len(s.DependentSchemas) > 0},
		{"if", s.If != nil}, {"not", s.Not != nil && !isEmptySchema(s.Not)},
	} {
		if k.set {
			unchecked = append(unchecked, k.name)
		}
	}
	if len(unchecked) > 0 {
		reason := fmt.Sprintf("%s: not checked; Validate and the decoders accept what the schema refuses there", strings.Join(unchecked, ", "))
		*warnings = append(*warnings, Warning{Definition: def, Member: member, Reason: reason})
	}
	if s.Properties != nil {
		for k, v := range s.Properties.FromOldest() {
			uncheckedKeywords(v, def, memberPath(member, k), warnings)
		}
	}
	uncheckedKeywords(s.Items, def, memberPath(member, "items"), warnings)
	uncheckedKeywords(s.AdditionalProperties, def, memberPath(member, "additionalProperties"), warnings)
	for _, arms := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, a := range arms {
			uncheckedKeywords(a, def, member, warnings)
		}
	}
}

// memberPath is the path of member key below member ("" for the
// definition itself), as warnings name it.
func memberPath(member, key string) string {
	if member == "" {
		return key
	}
	return member + "." + key
}

// unionArms returns the arms of a union of definitions: an "anyOf" or a
// "oneOf" (not both) whose arms are all references. Otherwise nil.
func unionArms(s *jsonschema.Schema) []*jsonschema.Schema {
	arms := s.AnyOf
	if len(arms) == 0 {
		arms = s.OneOf
	} else if len(s.OneOf) > 0 {
		return nil
	}
	if len(arms) == 0 {
		return nil
	}
	for _, a := range arms {
		if a.Ref == "" {
			return nil
		}
	}
	return arms
}

func isRefUnion(s *jsonschema.Schema) bool {
	if len(s.AnyOf) == 0 {
		return false
	}
	for _, a := range s.AnyOf {
		if a.Ref == "" {
			return false
		}
	}
	return true
}

func isRootsArm(a *jsonschema.Schema) bool { return isRootsRef(a.Ref) }

func isRootsRef(ref string) bool {
	name := load.RefName(ref)
	return slices.Contains(rootsDefinitions, name) || name == "RootsListChangedNotification"
}

// refsOf lists the definitions s references, in document order.
func refsOf(s *jsonschema.Schema) []string {
	var out []string
	var walk func(*jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil {
			return
		}
		if s.Ref != "" {
			out = append(out, load.RefName(s.Ref))
		}
		for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, x := range list {
				walk(x)
			}
		}
		for _, x := range []*jsonschema.Schema{s.Not, s.If, s.Then, s.Else, s.Items, s.Contains, s.AdditionalProperties, s.PropertyNames, s.ContentSchema} {
			walk(x)
		}
		if s.Properties != nil {
			for _, v := range s.Properties.FromOldest() {
				walk(v)
			}
		}
		for _, k := range SortedKeys(s.PatternProperties) {
			walk(s.PatternProperties[k])
		}
		for _, k := range SortedKeys(s.DependentSchemas) {
			walk(s.DependentSchemas[k])
		}
	}
	walk(s)
	return out
}

func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func newProps() *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	return orderedmap.New[string, *jsonschema.Schema]()
}
