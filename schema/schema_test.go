package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// wantRevisions are the protocol revisions rootsgen ships a schema for,
// oldest first: the schema files in this directory, read from disk rather
// than through the embedded file system that Revisions reads.
var wantRevisions = func() []string {
	entries, err := os.ReadDir(".")
	if err != nil {
		panic(err)
	}
	var revs []string
	for _, e := range entries {
		if rev, ok := strings.CutSuffix(e.Name(), ".json"); ok && rev != "deprecations" {
			revs = append(revs, rev)
		}
	}
	slices.SortFunc(revs, schema.Compare)
	return revs
}()

// subsetMarker is the "$comment" of a definition that keeps only the roots
// part of the upstream one. It is spelled out here rather than taken from
// generator.SubsetMarker so that a change on either side shows up.
const subsetMarker = "rootsgen: roots part only"

// readUpstream returns the raw upstream schema of a revision.
func readUpstream(t *testing.T, dir, rev string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, rev, "schema.json"))
	if err != nil {
		t.Fatalf("upstream schema of %s: %v", rev, err)
	}
	return data
}

func decodeJSON(t *testing.T, what string, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: not a JSON object: %v", what, err)
	}
	return v
}

func openEmbedded(t *testing.T, rev string) map[string]any {
	t.Helper()
	data, err := schema.Open(rev)
	if err != nil {
		t.Fatalf("Open(%q): %v", rev, err)
	}
	return decodeJSON(t, "embedded "+rev, data)
}

// defsOf returns the definitions keyword a schema document uses and its definitions.
func defsOf(t *testing.T, what string, doc map[string]any) (string, map[string]any) {
	t.Helper()
	_, hasDefs := doc["$defs"]
	_, hasDefinitions := doc["definitions"]
	switch {
	case hasDefs && hasDefinitions:
		t.Fatalf("%s has both \"$defs\" and \"definitions\"", what)
	case hasDefs:
		return "$defs", asObject(t, what+" $defs", doc["$defs"])
	case hasDefinitions:
		return "definitions", asObject(t, what+" definitions", doc["definitions"])
	}
	t.Fatalf("%s has neither \"$defs\" nor \"definitions\"", what)
	return "", nil
}

func asObject(t *testing.T, what string, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, not an object", what, v)
	}
	return m
}

func TestRevisions(t *testing.T) {
	if len(wantRevisions) < 5 {
		t.Fatalf("schema/ holds %d revisions (%q), want the five released ones at least", len(wantRevisions), wantRevisions)
	}
	revs := schema.Revisions()
	if !slices.Equal(revs, wantRevisions) {
		t.Fatalf("Revisions() = %q, want %q", revs, wantRevisions)
	}
	for _, rev := range revs {
		data, err := schema.Open(rev)
		if err != nil {
			t.Errorf("Open(%q): %v", rev, err)
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Errorf("Open(%q) is not a JSON object: %v", rev, err)
			continue
		}
		if _, ok := doc["$schema"].(string); !ok {
			t.Errorf("Open(%q) has no \"$schema\" string", rev)
		}
	}

	for _, bad := range []string{"1999-01-01", "deprecations", "2026-07-28.json", ""} {
		data, err := schema.Open(bad)
		if err == nil {
			t.Errorf("Open(%q) = %d bytes, want an error", bad, len(data))
			continue
		}
		var ure *schema.UnknownRevisionError
		if !errors.As(err, &ure) {
			t.Errorf("Open(%q) error %T (%v), want *schema.UnknownRevisionError", bad, err, err)
			continue
		}
		if ure.Revision != bad {
			t.Errorf("Open(%q): UnknownRevisionError.Revision = %q", bad, ure.Revision)
		}
		msg := err.Error()
		if !strings.Contains(msg, fmt.Sprintf("%q", bad)) {
			t.Errorf("Open(%q) error %q does not name the revision", bad, msg)
		}
		if !strings.Contains(msg, strings.Join(wantRevisions, ", ")) {
			t.Errorf("Open(%q) error %q does not list the known revisions %s", bad, msg, strings.Join(wantRevisions, ", "))
		}
	}
}

func TestDeprecationRegistry(t *testing.T) {
	// Deprecations panics when the registry does not decode with
	// DisallowUnknownFields; turn that into a test failure.
	var deps []schema.Deprecation
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Deprecations() panicked: %v", r)
			}
		}()
		deps = schema.Deprecations()
	}()
	if len(deps) == 0 {
		t.Fatal("Deprecations() is empty; the registry should at least deprecate roots in 2026-07-28")
	}
	for i, d := range deps {
		if d.Feature == "" || d.Since == "" || d.Proposal == "" || d.Migration == "" || d.EarliestRemoval == "" {
			t.Errorf("registry entry %d has an empty field: %+v", i, d)
		}
		if !schema.IsDate(d.Since) || !schema.IsDate(d.EarliestRemoval) {
			t.Errorf("registry entry %d: since %q and earliestRemoval %q must be YYYY-MM-DD dates", i, d.Since, d.EarliestRemoval)
		}
		if d.EarliestRemoval <= d.Since {
			t.Errorf("registry entry %d: earliestRemoval %q is not after since %q", i, d.EarliestRemoval, d.Since)
		}
	}

	d, ok := schema.DeprecationFor("roots", "2026-07-28")
	if !ok {
		t.Fatal(`DeprecationFor("roots", "2026-07-28") found nothing`)
	}
	if d.Feature != "roots" || d.Since != "2026-07-28" || d.Proposal != "SEP-2577" || d.EarliestRemoval != "2027-07-28" || d.Migration == "" {
		t.Errorf(`DeprecationFor("roots", "2026-07-28") = %+v, want roots since 2026-07-28 by SEP-2577, earliest removal 2027-07-28, with a migration`, d)
	}

	for _, tc := range []struct {
		feature, rev string
		want         bool
	}{
		{"roots", "2026-07-28", true},
		{"roots", "2027-01-01", true}, // later date-named revisions inherit it
		{"roots", "2030-12-31", true},
		{"roots", "2026-07-27", false},
		{"roots", "2025-11-25", false},
		{"roots", "2024-11-05", false},
		{"roots", "draft", true}, // a name orders after every date: a future revision
		{"roots", "DRAFT-2026-v1", true},
		{"roots", "2026-13-45", false}, // shaped like a date but none: refused, so no entry
		{"roots", "2026-02-30", false},
		{"roots", "draft\n//go:generate x", false},
		{"roots", "", false},
		{"sampling", "2026-07-28", false},
		{"", "2026-07-28", false},
	} {
		got, ok := schema.DeprecationFor(tc.feature, tc.rev)
		if ok != tc.want {
			t.Errorf("DeprecationFor(%q, %q) found = %v (%+v), want %v", tc.feature, tc.rev, ok, got, tc.want)
			continue
		}
		if ok && got != d {
			t.Errorf("DeprecationFor(%q, %q) = %+v, want the 2026-07-28 entry %+v", tc.feature, tc.rev, got, d)
		}
		if !ok && got != (schema.Deprecation{}) {
			t.Errorf("DeprecationFor(%q, %q) returned not-found with a non-zero entry %+v", tc.feature, tc.rev, got)
		}
	}

	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"2026-07-28", true},
		{"2024-11-05", true},
		{"2024-02-29", true},
		{"0000-00-00", false}, // the shape alone is not a date
		{"2026-13-45", false},
		{"2026-02-30", false},
		{"2025-02-29", false},
		{"2026-00-10", false},
		{"draft", false},
		{"", false},
		{"2026-7-28", false},
		{"2026-07-8", false},
		{"2026/07/28", false},
		{"20260728", false},
		{"2026-07-28 ", false},
		{" 2026-07-28", false},
		{"2026-07-2a", false},
		{"2026_07_28", false},
		{"2026-07-280", false},
		{"２026-07-28", false}, // a full-width digit is not an ASCII digit
	} {
		if got := schema.IsDate(tc.in); got != tc.want {
			t.Errorf("IsDate(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestCheckRevision(t *testing.T) {
	for _, ok := range []string{"2024-11-05", "2026-07-28", "draft", "draft-2", "v1.2", "2027", "Next", strings.Repeat("a", schema.MaxRevisionLen)} {
		if err := schema.CheckRevision(ok); err != nil {
			t.Errorf("CheckRevision(%q) = %v, want nil", ok, err)
		}
	}
	for _, tc := range []struct{ in, why string }{
		{"", "empty"},
		{"2026-13-45", "no calendar date"},
		{"2026-02-30", "no calendar date"},
		{"draft\n//go:generate rm -rf /", `'\n'`},
		{"draft\r", `'\r'`},
		{"a/b", `'/'`},
		{"../x", "start with a letter or digit"},
		{"-draft", "start with a letter or digit"},
		{".", "start with a letter or digit"},
		{"my draft", `' '`},
		{`dr"aft`, `'"'`},
		{"dr`aft", "'`'"},
		{"draft*/", `'*'`},
		{"brouillon\u00e9", `'é'`},
		{"ｄraft", "start with a letter or digit"},
		{strings.Repeat("a", schema.MaxRevisionLen+1), "longer than 64"},
	} {
		err := schema.CheckRevision(tc.in)
		if err == nil {
			t.Errorf("CheckRevision(%q) = nil, want an error", tc.in)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, fmt.Sprintf("%q", tc.in)) || !strings.Contains(msg, tc.why) || !strings.Contains(msg, "YYYY-MM-DD") {
			t.Errorf("CheckRevision(%q) = %q, want it to quote the value, say %q and name the accepted forms", tc.in, msg, tc.why)
		}
		if strings.ContainsAny(msg, "\n\r") {
			t.Errorf("CheckRevision(%q): the message %q holds a raw line break", tc.in, msg)
		}
	}
}

func TestCompare(t *testing.T) {
	// Each name orders before every later one.
	ordered := []string{"2024-11-05", "2025-06-18", "2026-07-28", "2030-01-01", "DRAFT", "draft", "draft-2", "next"}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := schema.Compare(a, b); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
	shuffled := []string{"next", "2026-07-28", "draft", "2024-11-05", "DRAFT", "2030-01-01", "draft-2", "2025-06-18"}
	slices.SortFunc(shuffled, schema.Compare)
	if !slices.Equal(shuffled, ordered) {
		t.Errorf("sorted by Compare: %q, want %q", shuffled, ordered)
	}
}

// Keywords whose value is a schema, a list of schemas, or a map of names to
// schemas. Everything else (const, enum, default, examples, required, ...) is
// data, not a schema position.
var (
	schemaValueKeywords = []string{"items", "additionalItems", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema"}
	schemaListKeywords  = []string{"anyOf", "allOf", "oneOf", "prefixItems"}
	schemaMapKeywords   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	annotationKeywords  = []string{"description", "title", "$comment"}
)

// strip returns a copy of schema s without annotation keywords, removed only
// where they are keywords of a schema: a "description" key inside a
// "properties" map is a property name and stays, and so does anything inside
// data such as "const" or "examples".
func strip(s any) any {
	obj, ok := s.(map[string]any)
	if !ok {
		return s // a boolean schema, or something malformed that compares as is
	}
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		switch {
		case slices.Contains(annotationKeywords, k):
			continue
		case slices.Contains(schemaMapKeywords, k):
			if m, ok := v.(map[string]any); ok {
				cp := make(map[string]any, len(m))
				for name, sub := range m {
					cp[name] = strip(sub)
				}
				v = cp
			}
		case slices.Contains(schemaListKeywords, k):
			v = stripList(v)
		case slices.Contains(schemaValueKeywords, k):
			if _, isList := v.([]any); isList { // draft-07 tuple "items"
				v = stripList(v)
			} else {
				v = strip(v)
			}
		}
		out[k] = v
	}
	return out
}

func stripList(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	cp := make([]any, len(list))
	for i, e := range list {
		cp[i] = strip(e)
	}
	return cp
}

// jsonDiff returns the JSON path of the first place where a and b differ and
// what differs there, or "" when they are equal.
func jsonDiff(path string, a, b any) string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(av)+len(bv))
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, dup := av[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			at := path + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
			x, inA := av[k]
			y, inB := bv[k]
			switch {
			case !inA:
				return fmt.Sprintf("%s: missing from ours, upstream has %s", at, compact(y))
			case !inB:
				return fmt.Sprintf("%s: ours has %s, upstream does not have it", at, compact(x))
			}
			if d := jsonDiff(at, x, y); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bv, ok := b.([]any)
		if !ok {
			break
		}
		if len(av) != len(bv) {
			return fmt.Sprintf("%s: ours has %d elements %s, upstream %d %s", path, len(av), compact(av), len(bv), compact(bv))
		}
		for i := range av {
			if d := jsonDiff(fmt.Sprintf("%s/%d", path, i), av[i], bv[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return fmt.Sprintf("%s: ours is %s, upstream is %s", displayPath(path), compact(a), compact(b))
}

func displayPath(p string) string {
	if p == "" {
		return "(whole definition)"
	}
	return p
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// subsetDiff checks a definition marked as the roots part of an upstream
// one (both already stripped): kept properties equal upstream's, "required"
// is upstream's restricted to them, "anyOf" arms are upstream arms, and every
// other keyword is equal. It returns the first difference, or "".
func subsetDiff(ours, up map[string]any) string {
	special := []string{"properties", "required", "anyOf"}

	// Properties: a subset, each kept one exactly equal.
	var kept []string
	if v, ok := ours["properties"]; ok {
		op, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("/properties: ours is %s, not an object", compact(v))
		}
		upProps, _ := up["properties"].(map[string]any)
		for _, name := range sortedKeys(op) {
			at := "/properties/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
			upProp, ok := upProps[name]
			if !ok {
				return fmt.Sprintf("%s: ours keeps a property upstream does not have", at)
			}
			if d := jsonDiff(at, op[name], upProp); d != "" {
				return d
			}
			kept = append(kept, name)
		}
	}

	// Required: upstream's, restricted to the kept properties, in upstream's order.
	var wantReq []any
	if v, ok := up["required"]; ok {
		list, _ := v.([]any)
		for _, r := range list {
			if s, ok := r.(string); ok && slices.Contains(kept, s) {
				wantReq = append(wantReq, r)
			}
		}
	}
	gotReq, hasReq := ours["required"]
	switch {
	case len(wantReq) == 0 && hasReq:
		return fmt.Sprintf("/required: ours is %s, upstream requires none of the kept properties so it must be absent", compact(gotReq))
	case len(wantReq) > 0 && !reflect.DeepEqual(gotReq, wantReq):
		return fmt.Sprintf("/required: ours is %s, upstream restricted to the kept properties is %s", compact(gotReq), compact(wantReq))
	}

	// anyOf: present exactly when upstream has it, and each arm an upstream arm.
	oa, oursHas := ours["anyOf"]
	ua, upHas := up["anyOf"]
	switch {
	case oursHas && !upHas:
		return "/anyOf: ours has it, upstream does not"
	case !oursHas && upHas:
		return "/anyOf: missing from ours, upstream has " + compact(ua)
	case oursHas:
		oArms, ok1 := oa.([]any)
		uArms, ok2 := ua.([]any)
		if !ok1 || !ok2 || len(oArms) == 0 {
			return fmt.Sprintf("/anyOf: ours %s, upstream %s: want a non-empty array of upstream arms", compact(oa), compact(ua))
		}
		for i, arm := range oArms {
			if !slices.ContainsFunc(uArms, func(u any) bool { return reflect.DeepEqual(u, arm) }) {
				return fmt.Sprintf("/anyOf/%d: arm %s is not one of upstream's arms %s", i, compact(arm), compact(ua))
			}
		}
	}

	// Everything else: equal.
	restOurs, restUp := map[string]any{}, map[string]any{}
	for k, v := range ours {
		if !slices.Contains(special, k) {
			restOurs[k] = v
		}
	}
	for k, v := range up {
		if !slices.Contains(special, k) {
			restUp[k] = v
		}
	}
	return jsonDiff("", restOurs, restUp)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestStructureMatchesUpstream(t *testing.T) {
	dir := filepath.Join(prereq.SpecDir(t), "schema")
	for _, rev := range schema.Revisions() {
		t.Run(rev, func(t *testing.T) {
			upData := readUpstream(t, dir, rev)
			ours := openEmbedded(t, rev)
			up := decodeJSON(t, "upstream "+rev, upData)

			if ours["$schema"] != up["$schema"] {
				t.Errorf("%s: $schema is %s in ours, %s upstream", rev, compact(ours["$schema"]), compact(up["$schema"]))
			}
			oursKey, oursDefs := defsOf(t, "embedded "+rev, ours)
			upKey, upDefs := defsOf(t, "upstream "+rev, up)
			if oursKey != upKey {
				t.Errorf("%s: ours keeps definitions under %q, upstream under %q", rev, oursKey, upKey)
			}

			for _, name := range sortedKeys(oursDefs) {
				raw := oursDefs[name]
				upRaw, ok := upDefs[name]
				if !ok {
					t.Errorf("%s: definition %s: not in the upstream schema", rev, name)
					continue
				}
				oursDef, ok1 := strip(raw).(map[string]any)
				upDef, ok2 := strip(upRaw).(map[string]any)
				if !ok1 || !ok2 {
					if d := jsonDiff("", strip(raw), strip(upRaw)); d != "" {
						t.Errorf("%s: definition %s: %s", rev, name, d)
					}
					continue
				}
				comment, _ := asObject(t, name, raw)["$comment"].(string)
				if comment == subsetMarker {
					if d := subsetDiff(oursDef, upDef); d != "" {
						t.Errorf("%s: definition %s (roots part only): %s", rev, name, d)
					}
					continue
				}
				if !reflect.DeepEqual(oursDef, upDef) {
					t.Errorf("%s: definition %s: %s", rev, name, jsonDiff("", oursDef, upDef))
				}
			}

			// The file holds exactly what the generator selects from upstream,
			// and marks as partial exactly what the generator cuts down.
			doc, err := generator.Load(upData, generator.LoadOptions{})
			if err != nil {
				t.Fatalf("%s: generator.Load(upstream): %v", rev, err)
			}
			sel, err := generator.Select(doc)
			if err != nil {
				t.Fatalf("%s: generator.Select(upstream): %v", rev, err)
			}
			selected := map[string]bool{}
			for _, n := range sel.Names {
				selected[n] = true
				if _, ok := oursDefs[n]; !ok {
					t.Errorf("%s: definition %s: the generator selects it from upstream, but our schema lacks it", rev, n)
				}
			}
			if len(selected) != len(sel.Names) {
				t.Errorf("%s: Select returned duplicate names: %q", rev, sel.Names)
			}
			for _, n := range sortedKeys(oursDefs) {
				if !selected[n] {
					t.Errorf("%s: definition %s: in our schema, but the generator does not select it from upstream (selected: %q)", rev, n, sel.Names)
					continue
				}
				comment, _ := asObject(t, n, oursDefs[n])["$comment"].(string)
				if got, want := comment == subsetMarker, sel.Partial(n); got != want {
					t.Errorf("%s: definition %s: marked as roots part only = %v in ours, but the generator's Partial = %v", rev, n, got, want)
				}
			}
		})
	}
}

// walkSchemas calls fn on every schema object inside s (s included), with
// its JSON path and whether it is the value of a "properties" entry.
func walkSchemas(s any, path string, isProperty bool, fn func(path string, s map[string]any, isProperty bool)) {
	obj, ok := s.(map[string]any)
	if !ok {
		return
	}
	fn(path, obj, isProperty)
	for _, k := range sortedKeys(obj) {
		v := obj[k]
		at := path + "/" + k
		switch {
		case slices.Contains(schemaMapKeywords, k):
			if m, ok := v.(map[string]any); ok {
				for _, name := range sortedKeys(m) {
					walkSchemas(m[name], at+"/"+name, k == "properties", fn)
				}
			}
		case slices.Contains(schemaListKeywords, k), slices.Contains(schemaValueKeywords, k):
			if list, ok := v.([]any); ok {
				for i, e := range list {
					walkSchemas(e, fmt.Sprintf("%s/%d", at, i), false, fn)
				}
			} else {
				walkSchemas(v, at, false, fn)
			}
		}
	}
}

func TestDescriptions(t *testing.T) {
	dir := filepath.Join(prereq.SpecDir(t), "schema")
	for _, rev := range schema.Revisions() {
		t.Run(rev, func(t *testing.T) {
			ours := openEmbedded(t, rev)
			_, defs := defsOf(t, "embedded "+rev, ours)

			upstream := map[string]bool{}
			walkSchemas(decodeJSON(t, "upstream "+rev, readUpstream(t, dir, rev)), "", false, func(_ string, s map[string]any, _ bool) {
				if d, ok := s["description"].(string); ok {
					upstream[d] = true
				}
			})
			if len(upstream) == 0 {
				t.Fatalf("%s: found no descriptions upstream; the walk is broken", rev)
			}

			checked := 0
			walkSchemas(ours, "", false, func(path string, s map[string]any, isProperty bool) {
				d, has := s["description"]
				str, isString := d.(string)
				if has && !isString {
					t.Errorf("%s: %s: description is %s, not a string", rev, path, compact(d))
					return
				}
				isDefinition := strings.Count(path, "/") == 2 && (strings.HasPrefix(path, "/$defs/") || strings.HasPrefix(path, "/definitions/"))
				if (isDefinition || isProperty) && strings.TrimSpace(str) == "" {
					kind := "property"
					if isDefinition {
						kind = "definition"
					}
					t.Errorf("%s: %s %s has no description of its own", rev, kind, path)
				}
				if has {
					checked++
					if upstream[str] {
						t.Errorf("%s: %s: description is copied verbatim from upstream: %q", rev, path, str)
					}
				}
			})
			if checked < len(defs) {
				t.Errorf("%s: only %d descriptions checked for %d definitions; the walk is broken", rev, checked, len(defs))
			}
		})
	}
}

// TestStructureHelpers pins the comparison helpers that
// TestStructureMatchesUpstream relies on, on inputs the MCP schemas do not
// happen to contain.
func TestStructureHelpers(t *testing.T) {
	in := map[string]any{
		"description": "drop me",
		"title":       "drop me",
		"$comment":    subsetMarker,
		"type":        "object",
		"properties": map[string]any{
			// Property names that look like annotation keywords stay.
			"description": map[string]any{"type": "string", "description": "drop me"},
			"title":       map[string]any{"$ref": "#/$defs/T", "title": "drop me"},
			"$comment":    true,
		},
		"patternProperties": map[string]any{"^x-": map[string]any{"description": "drop me"}},
		"const":             map[string]any{"description": "data, keep me"},
		"examples":          []any{map[string]any{"title": "data, keep me"}},
		"items":             []any{map[string]any{"description": "drop me", "type": "string"}},
		"anyOf":             []any{map[string]any{"$comment": "drop me", "type": "integer"}, false},
		"additionalProperties": map[string]any{
			"description": "drop me",
			"not":         map[string]any{"title": "drop me"},
		},
	}
	want := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"description": map[string]any{"type": "string"},
			"title":       map[string]any{"$ref": "#/$defs/T"},
			"$comment":    true,
		},
		"patternProperties":    map[string]any{"^x-": map[string]any{}},
		"const":                map[string]any{"description": "data, keep me"},
		"examples":             []any{map[string]any{"title": "data, keep me"}},
		"items":                []any{map[string]any{"type": "string"}},
		"anyOf":                []any{map[string]any{"type": "integer"}, false},
		"additionalProperties": map[string]any{"not": map[string]any{}},
	}
	if got := strip(in); !reflect.DeepEqual(got, want) {
		t.Errorf("strip:\n got %s\nwant %s", compact(got), compact(want))
	}

	if d := jsonDiff("", map[string]any{"a": []any{1.0, map[string]any{"b/c": "x"}}}, map[string]any{"a": []any{1.0, map[string]any{"b/c": "y"}}}); !strings.HasPrefix(d, "/a/1/b~1c: ") {
		t.Errorf("jsonDiff names the path %q, want /a/1/b~1c", d)
	}

	up := map[string]any{
		"type":       "object",
		"properties": map[string]any{"roots": map[string]any{"type": "object"}, "sampling": map[string]any{"type": "object"}},
		"required":   []any{"sampling", "roots"},
		"anyOf":      []any{map[string]any{"$ref": "#/$defs/A"}, map[string]any{"$ref": "#/$defs/B"}},
	}
	good := map[string]any{
		"type":       "object",
		"properties": map[string]any{"roots": map[string]any{"type": "object"}},
		"required":   []any{"roots"},
		"anyOf":      []any{map[string]any{"$ref": "#/$defs/B"}},
	}
	if d := subsetDiff(good, up); d != "" {
		t.Errorf("subsetDiff of a proper subset = %q, want no difference", d)
	}
	for _, tc := range []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		{"changed property", func(m map[string]any) { m["properties"] = map[string]any{"roots": map[string]any{"type": "array"}} }, "/properties/roots/type"},
		{"extra property", func(m map[string]any) {
			m["properties"] = map[string]any{"roots": map[string]any{"type": "object"}, "x": true}
		}, "/properties/x"},
		{"required dropped", func(m map[string]any) { delete(m, "required") }, "/required"},
		{"required of a dropped property", func(m map[string]any) { m["required"] = []any{"sampling", "roots"} }, "/required"},
		{"foreign arm", func(m map[string]any) { m["anyOf"] = []any{map[string]any{"$ref": "#/$defs/C"}} }, "/anyOf/0"},
		{"no arms", func(m map[string]any) { delete(m, "anyOf") }, "/anyOf"},
		{"other keyword", func(m map[string]any) { m["type"] = "string" }, "/type"},
		{"extra keyword", func(m map[string]any) { m["minProperties"] = 1.0 }, "/minProperties"},
	} {
		m := maps.Clone(good)
		tc.mutate(m)
		if d := subsetDiff(m, up); !strings.HasPrefix(d, tc.want+":") {
			t.Errorf("subsetDiff with %s = %q, want a difference at %s", tc.name, d, tc.want)
		}
	}
}
