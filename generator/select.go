package generator

import (
	"fmt"
	"slices"
	"strings"

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
}

// Partial reports whether definition name holds only part of the upstream one.
func (s *Selection) Partial(name string) bool { return s.Defs[name].Comments == SubsetMarker }

// Select finds the roots closure of doc: the roots definitions, the optional
// seeds that the schema has, and everything they reference, breadth first.
// Union definitions ("anyOf" of references) keep only their roots arms.
func Select(doc *Document) (*Selection, error) {
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
		if doc.Defs[name] != nil {
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
	if isRefUnion(def) && !slices.Contains(rootsDefinitions, name) {
		var arms []*jsonschema.Schema
		for _, a := range def.AnyOf {
			if isRootsRef(a.Ref) {
				arms = append(arms, a)
			}
		}
		if len(arms) > 0 && len(arms) < len(def.AnyOf) {
			cut := *def
			cut.AnyOf = arms
			cut.Comments = SubsetMarker
			return &cut
		}
	}
	return def
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

func isRootsRef(ref string) bool {
	name := RefName(ref)
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
			out = append(out, RefName(s.Ref))
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
		for _, k := range sortedKeys(s.PatternProperties) {
			walk(s.PatternProperties[k])
		}
		for _, k := range sortedKeys(s.DependentSchemas) {
			walk(s.DependentSchemas[k])
		}
	}
	walk(s)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
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
