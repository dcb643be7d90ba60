package generated_test

//lint:file-ignore SA1019 every revision is checked against upstream, 2026-07-28 included, whose roots symbols are deprecated

// Fidelity tests: the generated packages against the upstream MCP schemas and
// examples in ../shared/mcp-spec (reference material, read from there and
// never copied into this repository).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rootsgen/rootsgen/generated/roots20241105"
	"github.com/rootsgen/rootsgen/generated/roots20250326"
	"github.com/rootsgen/rootsgen/generated/roots20250618"
	"github.com/rootsgen/rootsgen/generated/roots20251125"
	"github.com/rootsgen/rootsgen/generated/roots20260728"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// The per-revision adapters (revisions, revisionFacts, newValue) are in
// adapters_test.go, which go generate writes from the embedded schemas
// (generated/internal/adapters): a revision added to schema/ is tested here
// with no edit.

// facts are what a revision's schema has where these tests differ by shape.
type facts struct {
	envelope      bool // ListRootsRequest is a whole JSON-RPC request (jsonrpc, id)
	notification  bool // the list-changed notification, and the _meta of the older revisions
	inputRequests bool // roots/list inside an InputRequiredResult
	rootMeta      bool // a Root carries _meta
}

type validatable interface{ Validate() error }

// ---------------------------------------------------------------------------
// JSON helpers

func decodeAny(t *testing.T, what string, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, data)
	}
	return v
}

// sameJSON reports whether a and b hold the same JSON value (object member
// order and number spelling aside).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	return reflect.DeepEqual(decodeAny(t, "first", a), decodeAny(t, "second", b))
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", v, err)
	}
	return b
}

func mustRaw(t *testing.T, v any) json.RawMessage {
	t.Helper()
	return json.RawMessage(mustMarshal(t, v))
}

// mentionsMember reports whether the error message msg names name as a
// whole JSON member name or path: "roots[0].uri: required" names uri,
// "RequestID: ..." does not name id, and neither does "invalid".
func mentionsMember(msg, name string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`)
	return re.MatchString(msg)
}

// ---------------------------------------------------------------------------
// (a) upstream examples

// exampleTypes2026 maps an upstream example directory (named after a schema
// definition) to the roots20260728 type that models it.
var exampleTypes2026 = map[string]func() any{
	"Root":                                 func() any { return new(roots20260728.Root) },
	"ListRootsRequest":                     func() any { return new(roots20260728.ListRootsRequest) },
	"ListRootsResult":                      func() any { return new(roots20260728.ListRootsResult) },
	"ClientCapabilities":                   func() any { return new(roots20260728.ClientCapabilities) },
	"InputRequiredResult":                  func() any { return new(roots20260728.InputRequiredResult) },
	"InputRequests":                        func() any { return new(roots20260728.InputRequests) },
	"InputResponses":                       func() any { return new(roots20260728.InputResponses) },
	"MissingRequiredClientCapabilityError": func() any { return new(roots20260728.MissingRequiredClientCapabilityError) },
}

// rootsRelated reports whether an example directory concerns roots: its
// definition name says so, or one of its files carries roots content.
func rootsRelated(dir string, files map[string][]byte) bool {
	if strings.Contains(dir, "Root") {
		return true
	}
	for _, data := range files {
		if bytes.Contains(data, []byte(`"roots"`)) || bytes.Contains(data, []byte(`roots/list`)) {
			return true
		}
	}
	return false
}

func TestUpstreamExamplesRoundTrip(t *testing.T) {
	examples := filepath.Join(prereq.SpecDir(t), "schema", "2026-07-28", "examples")
	entries, err := os.ReadDir(examples)
	if err != nil {
		t.Fatalf("reading upstream examples: %v", err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := e.Name()
		paths, err := filepath.Glob(filepath.Join(examples, dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.Base(p)] = data
		}
		newValue, mapped := exampleTypes2026[dir]
		if !mapped {
			if rootsRelated(dir, files) {
				t.Errorf("example directory %s concerns roots but has no roots20260728 type mapped to it", dir)
			}
			continue
		}
		seen[dir] = true
		if len(files) == 0 {
			t.Errorf("example directory %s holds no .json files", dir)
		}
		for _, name := range slices.Sorted(maps.Keys(files)) {
			original := files[name]
			t.Run(dir+"/"+name, func(t *testing.T) {
				v := newValue()
				if err := json.Unmarshal(original, v); err != nil {
					t.Fatalf("json.Unmarshal into %T: %v", v, err)
				}
				out, err := json.Marshal(v)
				if err != nil {
					t.Fatalf("json.Marshal(%T): %v", v, err)
				}
				if !sameJSON(t, original, out) {
					t.Errorf("%T does not round-trip the example:\noriginal: %s\nmarshalled: %s", v, compact(original), out)
				}
				if val, ok := v.(validatable); ok {
					if err := val.Validate(); err != nil {
						t.Errorf("Validate on the upstream example: %v", err)
					}
				}
				checkEmbeddedArms(t, v)
			})
		}
	}
	for dir := range exampleTypes2026 {
		if !seen[dir] {
			t.Errorf("mapped example directory %s does not exist upstream (renamed?)", dir)
		}
	}
}

// checkEmbeddedArms checks that the roots arm of the raw-JSON unions is taken
// exactly for the roots entries: a sampling or elicitation entry must not
// pass as a roots/list request or a ListRootsResult, and a roots entry must.
func checkEmbeddedArms(t *testing.T, v any) {
	t.Helper()
	checkRequests := func(reqs roots20260728.InputRequests) {
		for key, req := range reqs {
			var probe struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(req.Raw(), &probe)
			_, err := req.AsListRootsRequest()
			if isRoots := probe.Method == "roots/list"; isRoots != (err == nil) {
				t.Errorf("inputRequests[%q] (method %q): AsListRootsRequest error = %v", key, probe.Method, err)
			}
		}
	}
	switch x := v.(type) {
	case *roots20260728.InputRequests:
		checkRequests(*x)
	case *roots20260728.InputRequiredResult:
		checkRequests(x.InputRequests)
	case *roots20260728.InputResponses:
		for key, resp := range *x {
			var probe map[string]json.RawMessage
			_ = json.Unmarshal(resp.Raw(), &probe)
			_, hasRoots := probe["roots"]
			if _, err := resp.AsListRootsResult(); hasRoots != (err == nil) {
				t.Errorf("inputResponses[%q]: AsListRootsResult error = %v", key, err)
			}
		}
	}
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return string(b)
	}
	return buf.String()
}

// ---------------------------------------------------------------------------
// (b) marshalled values validate against the upstream schema

// upstreamSchemas compiles the named definitions of one revision's upstream
// schema.json, with format assertions on (so "format": "uri" is checked).
func upstreamSchemas(t *testing.T, rev string, defs []string) map[string]*jsonschema.Schema {
	t.Helper()
	file, err := filepath.Abs(filepath.Join(prereq.SpecDir(t), "schema", rev, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("upstream schema for %s: %v", rev, err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("upstream schema for %s: %v", rev, err)
	}
	obj, _ := doc.(map[string]any)
	defsKey := "definitions" // draft-07
	if _, ok := obj["$defs"]; ok {
		defsKey = "$defs" // 2020-12
	}
	table, _ := obj[defsKey].(map[string]any)
	if len(table) == 0 {
		t.Fatalf("upstream schema for %s has no %s", rev, defsKey)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(file, doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Schema{}
	for _, d := range defs {
		if _, ok := table[d]; !ok {
			t.Fatalf("upstream schema %s has no definition %s", rev, d)
		}
		sch, err := c.Compile(file + "#/" + defsKey + "/" + d)
		if err != nil {
			t.Fatalf("compiling %s#/%s/%s: %v", rev, defsKey, d, err)
		}
		out[d] = sch
	}
	return out
}

func validateUpstream(sch *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// fidelityCase is one generated value to check against the definition def.
type fidelityCase struct {
	def   string
	label string
	value validatable // a pointer to a generated value
}

type revisionSuite struct {
	defs        []string
	handwritten func(t *testing.T) []fidelityCase
	random      func(t *testing.T, r *rand.Rand) []fidelityCase // one value per definition
	zeroResult  func() any                                      // ListRootsResult{}
}

var suites = map[string]revisionSuite{
	"2024-11-05": {
		defs:        []string{"Root", "ListRootsRequest", "ListRootsResult", "RootsListChangedNotification"},
		handwritten: handwritten20241105,
		random:      random20241105,
		zeroResult:  func() any { return roots20241105.ListRootsResult{} },
	},
	"2025-03-26": {
		defs:        []string{"Root", "ListRootsRequest", "ListRootsResult", "RootsListChangedNotification"},
		handwritten: handwritten20250326,
		random:      random20250326,
		zeroResult:  func() any { return roots20250326.ListRootsResult{} },
	},
	"2025-06-18": {
		defs:        []string{"Root", "ListRootsRequest", "ListRootsResult", "RootsListChangedNotification"},
		handwritten: handwritten20250618,
		random:      random20250618,
		zeroResult:  func() any { return roots20250618.ListRootsResult{} },
	},
	"2025-11-25": {
		defs:        []string{"Root", "ListRootsRequest", "ListRootsResult", "RootsListChangedNotification"},
		handwritten: handwritten20251125,
		random:      random20251125,
		zeroResult:  func() any { return roots20251125.ListRootsResult{} },
	},
	"2026-07-28": {
		defs:        []string{"Root", "ListRootsRequest", "ListRootsResult", "InputRequiredResult", "MissingRequiredClientCapabilityError"},
		handwritten: handwritten20260728,
		random:      random20260728,
		zeroResult:  func() any { return roots20260728.ListRootsResult{} },
	},
}

const randomValuesPerType = 500

// genericSuite checks a revision without a hand-written suite with values
// decoded from JSON into its types: the roots definitions it has, from fixed
// texts and from random roots.
func genericSuite(rev string) revisionSuite {
	f := revisionFacts[rev]
	req, note := rpc(rev, true), rpc(rev, false)
	defs := []string{"Root", "ListRootsRequest", "ListRootsResult"}
	if f.notification {
		defs = append(defs, "RootsListChangedNotification")
	}
	decode := func(t *testing.T, def, label, text string) fidelityCase {
		t.Helper()
		v := newValue(rev, def)
		if v == nil {
			t.Fatalf("revision %s has no %s type", rev, def)
		}
		if err := json.Unmarshal([]byte(text), v); err != nil {
			t.Fatalf("%s %s: json.Unmarshal(%s): %v", def, label, text, err)
		}
		return fidelityCase{def, label, v.(validatable)}
	}
	return revisionSuite{
		defs: defs,
		handwritten: func(t *testing.T) []fidelityCase {
			cases := []fidelityCase{
				decode(t, "Root", "uri only", `{"uri":"file:///home/user/project"}`),
				decode(t, "Root", "uri and name", `{"uri":"file:///home/user/My%20Project","name":"My Project"}`),
				decode(t, "ListRootsRequest", "no params", `{`+req+`"method":"roots/list"}`),
				decode(t, "ListRootsRequest", "empty params", `{`+req+`"method":"roots/list","params":{}}`),
				decode(t, "ListRootsResult", "empty", `{"roots":[]}`),
				decode(t, "ListRootsResult", "two roots", `{"roots":[{"uri":"file:///a","name":"A"},{"uri":"file:///C:/Users/b"}]}`),
			}
			if f.notification {
				cases = append(cases, decode(t, "RootsListChangedNotification", "no params", `{`+note+`"method":"notifications/roots/list_changed"}`))
			}
			return cases
		},
		random: func(t *testing.T, r *rand.Rand) []fidelityCase {
			root := func() map[string]any { return map[string]any{"uri": randFileURI(r), "name": randName(r)} }
			roots := []any{}
			for range r.IntN(6) {
				roots = append(roots, root())
			}
			text := func(v any) string { return string(mustMarshal(t, v)) }
			cases := []fidelityCase{
				decode(t, "Root", "", text(root())),
				decode(t, "ListRootsRequest", "", `{`+req+`"method":"roots/list","params":{}}`),
				decode(t, "ListRootsResult", "", text(map[string]any{"roots": roots})),
			}
			if f.notification {
				cases = append(cases, decode(t, "RootsListChangedNotification", "", `{`+note+`"method":"notifications/roots/list_changed","params":{}}`))
			}
			return cases
		},
		zeroResult: func() any { return reflect.ValueOf(newValue(rev, "ListRootsResult")).Elem().Interface() },
	}
}

func TestMarshalledValuesValidateUpstream(t *testing.T) {
	prereq.SpecDir(t)
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			suite, ok := suites[rev]
			if !ok {
				// A revision added since the hand-written suites.
				suite = genericSuite(rev)
			}
			schemas := upstreamSchemas(t, rev, suite.defs)

			// The compiled definitions must be able to say no, or every
			// check below would pass vacuously.
			for def, bad := range map[string]string{
				"Root":            `{"uri":5}`,
				"ListRootsResult": `{"roots":[{"name":"no uri"}]}`,
			} {
				if validateUpstream(schemas[def], []byte(bad)) == nil {
					t.Fatalf("upstream %s accepts %s: schema compiled to the wrong pointer?", def, bad)
				}
			}

			zero := mustMarshal(t, suite.zeroResult())
			if string(zero) != `{"roots":[]}` {
				t.Errorf("ListRootsResult{} marshals to %s, want {\"roots\":[]}", zero)
			}
			if err := validateUpstream(schemas["ListRootsResult"], zero); err != nil {
				t.Errorf("ListRootsResult{} (%s) fails upstream: %v", zero, err)
			}

			count := map[string]int{}
			check := func(c fidelityCase) {
				t.Helper()
				count[c.def]++
				if err := c.value.Validate(); err != nil {
					t.Errorf("%s %s: Validate: %v\nvalue: %#v", c.def, c.label, err, c.value)
					return
				}
				data, err := json.Marshal(c.value)
				if err != nil {
					t.Errorf("%s %s: json.Marshal: %v", c.def, c.label, err)
					return
				}
				if err := validateUpstream(schemas[c.def], data); err != nil {
					t.Errorf("%s %s: marshalled value fails the upstream schema:\n%s\n%v", c.def, c.label, data, err)
					return
				}
				// Decoding what we wrote gives a value that validates and
				// writes the same JSON again.
				again := reflect.New(reflect.TypeOf(c.value).Elem()).Interface()
				if err := json.Unmarshal(data, again); err != nil {
					t.Errorf("%s %s: decoding own output: %v\n%s", c.def, c.label, err, data)
					return
				}
				if err := again.(validatable).Validate(); err != nil {
					t.Errorf("%s %s: Validate after decoding own output: %v\n%s", c.def, c.label, err, data)
				}
				data2 := mustMarshal(t, again)
				if !sameJSON(t, data, data2) {
					t.Errorf("%s %s: not stable through a round trip:\nfirst:  %s\nsecond: %s", c.def, c.label, data, data2)
				}
			}
			for _, c := range suite.handwritten(t) {
				check(c)
			}
			for _, d := range suite.defs {
				if count[d] == 0 {
					t.Errorf("no hand-written %s value", d)
				}
			}
			r := rand.New(rand.NewPCG(20260728, uint64(len(rev))))
			for i := range randomValuesPerType {
				for _, c := range suite.random(t, r) {
					c.label = fmt.Sprintf("random #%d", i)
					check(c)
				}
				if t.Failed() && i > 20 {
					break // enough examples of whatever broke
				}
			}
			t.Logf("values checked per definition: %v", count)
			for _, d := range suite.defs {
				if !t.Failed() && count[d] < randomValuesPerType {
					t.Errorf("only %d %s values checked", count[d], d)
				}
			}
		})
	}
}

// --- random building blocks, independent of revision ---

var nameRunes = []rune("abcxyzABCXYZ019 _-./:\\\"'<>&%?#\t\né߀日本語🚀ÆøÅ中文\u2028\u0000Ω")

func randString(r *rand.Rand, maxLen int) string {
	n := r.IntN(maxLen + 1)
	var b strings.Builder
	for range n {
		b.WriteRune(nameRunes[r.IntN(len(nameRunes))])
	}
	return b.String()
}

// randName is an optional display name: sometimes empty (omitted).
func randName(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		return ""
	}
	return randString(r, 12)
}

// randFileURI is a valid file:// URI: optional host, absolute path of
// percent-encoded segments (unicode included), sometimes a drive letter or a
// trailing slash.
func randFileURI(r *rand.Rand) string {
	hosts := []string{"", "", "", "localhost", "fileserver", "host.example.com"}
	var b strings.Builder
	b.WriteString("file://")
	b.WriteString(hosts[r.IntN(len(hosts))])
	if r.IntN(6) == 0 {
		b.WriteString("/C:")
	}
	for range 1 + r.IntN(4) {
		seg := randString(r, 8)
		if seg == "" {
			seg = "dir"
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(seg))
	}
	if r.IntN(5) == 0 {
		b.WriteByte('/')
	}
	return b.String()
}

func randInt64(r *rand.Rand) int64 {
	switch r.IntN(6) {
	case 0:
		return int64(r.IntN(1000)) - 500
	case 1:
		return r.Int64()
	case 2:
		return -r.Int64()
	case 3:
		return math.MaxInt64
	case 4:
		return math.MinInt64
	}
	return 0
}

func randKey(r *rand.Rand) string {
	keys := []string{"com.example/trace", "io.example.app/x", "vendor", "ünïcode", "日本", "a b", "", "x-1"}
	if r.IntN(3) == 0 {
		return randString(r, 6)
	}
	return keys[r.IntN(len(keys))]
}

// randJSONValue is any JSON value: string, number, bool, null, or (while depth
// allows) a nested object or array.
func randJSONValue(r *rand.Rand, depth int) any {
	n := 5
	if depth > 0 {
		n = 7
	}
	switch r.IntN(n) {
	case 0:
		return randString(r, 10)
	case 1:
		switch r.IntN(3) {
		case 0:
			return float64(r.IntN(2001) - 1000)
		case 1:
			return r.NormFloat64() * 1e6
		}
		return []float64{1e-300, 1e300, -0.5, 1.0 / 3}[r.IntN(4)]
	case 2:
		return r.IntN(2) == 0
	case 3:
		return nil
	case 4:
		return randString(r, 3)
	case 5:
		return randMeta(r, depth-1)
	}
	arr := make([]any, r.IntN(4))
	for i := range arr {
		arr[i] = randJSONValue(r, depth-1)
	}
	return arr
}

// randMeta is a _meta map (possibly empty) with mixed values.
func randMeta(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for range r.IntN(4) {
		m[randKey(r)] = randJSONValue(r, depth)
	}
	return m
}

// maybeMeta is nil half the time.
func maybeMeta(r *rand.Rand) map[string]any {
	if r.IntN(2) == 0 {
		return nil
	}
	return randMeta(r, 2)
}

// randExtra is a set of unknown members ("x-" prefixed, so they never clash
// with a member the schema defines), nil most of the time.
func randExtra(t *testing.T, r *rand.Rand) map[string]json.RawMessage {
	if r.IntN(3) != 0 {
		return nil
	}
	m := map[string]json.RawMessage{}
	for range 1 + r.IntN(3) {
		m["x-"+randString(r, 5)] = mustRaw(t, randJSONValue(r, 2))
	}
	return m
}

func chance(r *rand.Rand) bool { return r.IntN(2) == 0 }

// --- 2024-11-05 ---

func random20241105(t *testing.T, r *rand.Rand) []fidelityCase {
	root := func() roots20241105.Root {
		return roots20241105.Root{URI: randFileURI(r), Name: randName(r), Extra: randExtra(t, r)}
	}
	one := root()
	req := roots20241105.ListRootsRequest{Extra: randExtra(t, r)}
	if chance(r) {
		req.Params = &roots20241105.ListRootsRequestParams{Extra: randExtra(t, r)}
		if chance(r) {
			req.Params.Meta = &roots20241105.ListRootsRequestParamsMeta{Extra: randExtra(t, r)}
			if chance(r) {
				tok := roots20241105.ProgressTokenFromString(randString(r, 8))
				if chance(r) {
					tok = roots20241105.ProgressTokenFromInteger(randInt64(r))
				}
				req.Params.Meta.ProgressToken = &tok
			}
		}
	}
	res := roots20241105.ListRootsResult{Roots: []roots20241105.Root{}, Meta: maybeMeta(r), Extra: randExtra(t, r)}
	for range r.IntN(6) {
		res.Roots = append(res.Roots, root())
	}
	note := roots20241105.RootsListChangedNotification{Extra: randExtra(t, r)}
	if chance(r) {
		note.Params = &roots20241105.RootsListChangedNotificationParams{Meta: maybeMeta(r), Extra: randExtra(t, r)}
	}
	return []fidelityCase{
		{"Root", "", &one}, {"ListRootsRequest", "", &req}, {"ListRootsResult", "", &res}, {"RootsListChangedNotification", "", &note},
	}
}

func handwritten20241105(t *testing.T) []fidelityCase {
	tokS := roots20241105.ProgressTokenFromString("tok-1")
	tokI := roots20241105.ProgressTokenFromInteger(2)
	return []fidelityCase{
		{"Root", "uri only", &roots20241105.Root{URI: "file:///home/user/project"}},
		{"Root", "uri and name", &roots20241105.Root{URI: "file:///home/user/My%20Project", Name: "My Project"}},
		{"Root", "host and unknown member", &roots20241105.Root{URI: "file://localhost/srv/data", Extra: map[string]json.RawMessage{"x-vendor": json.RawMessage(`{"a":1}`)}}},
		{"ListRootsRequest", "no params", &roots20241105.ListRootsRequest{}},
		{"ListRootsRequest", "empty params", &roots20241105.ListRootsRequest{Params: &roots20241105.ListRootsRequestParams{}}},
		{"ListRootsRequest", "string progress token", &roots20241105.ListRootsRequest{Params: &roots20241105.ListRootsRequestParams{Meta: &roots20241105.ListRootsRequestParamsMeta{ProgressToken: &tokS}}}},
		{"ListRootsRequest", "integer progress token", &roots20241105.ListRootsRequest{Params: &roots20241105.ListRootsRequestParams{Meta: &roots20241105.ListRootsRequestParamsMeta{ProgressToken: &tokI}}}},
		{"ListRootsResult", "empty", &roots20241105.ListRootsResult{Roots: []roots20241105.Root{}}},
		{"ListRootsResult", "two roots and _meta", &roots20241105.ListRootsResult{
			Meta:  map[string]any{"k": "v", "n": 1.5, "b": true, "o": map[string]any{"x": []any{1.0, "two"}}},
			Roots: []roots20241105.Root{{URI: "file:///a", Name: "A"}, {URI: "file:///C:/Users/b"}},
		}},
		{"RootsListChangedNotification", "no params", &roots20241105.RootsListChangedNotification{}},
		{"RootsListChangedNotification", "empty params", &roots20241105.RootsListChangedNotification{Params: &roots20241105.RootsListChangedNotificationParams{}}},
		{"RootsListChangedNotification", "params with _meta", &roots20241105.RootsListChangedNotification{Params: &roots20241105.RootsListChangedNotificationParams{Meta: map[string]any{"why": "added"}}}},
	}
}

// --- 2025-03-26 (same shapes as 2024-11-05, separate types) ---

func random20250326(t *testing.T, r *rand.Rand) []fidelityCase {
	root := func() roots20250326.Root {
		return roots20250326.Root{URI: randFileURI(r), Name: randName(r), Extra: randExtra(t, r)}
	}
	one := root()
	req := roots20250326.ListRootsRequest{Extra: randExtra(t, r)}
	if chance(r) {
		req.Params = &roots20250326.ListRootsRequestParams{Extra: randExtra(t, r)}
		if chance(r) {
			req.Params.Meta = &roots20250326.ListRootsRequestParamsMeta{Extra: randExtra(t, r)}
			if chance(r) {
				tok := roots20250326.ProgressTokenFromString(randString(r, 8))
				if chance(r) {
					tok = roots20250326.ProgressTokenFromInteger(randInt64(r))
				}
				req.Params.Meta.ProgressToken = &tok
			}
		}
	}
	res := roots20250326.ListRootsResult{Roots: []roots20250326.Root{}, Meta: maybeMeta(r), Extra: randExtra(t, r)}
	for range r.IntN(6) {
		res.Roots = append(res.Roots, root())
	}
	note := roots20250326.RootsListChangedNotification{Extra: randExtra(t, r)}
	if chance(r) {
		note.Params = &roots20250326.RootsListChangedNotificationParams{Meta: maybeMeta(r), Extra: randExtra(t, r)}
	}
	return []fidelityCase{
		{"Root", "", &one}, {"ListRootsRequest", "", &req}, {"ListRootsResult", "", &res}, {"RootsListChangedNotification", "", &note},
	}
}

func handwritten20250326(t *testing.T) []fidelityCase {
	tok := roots20250326.ProgressTokenFromInteger(-7)
	return []fidelityCase{
		{"Root", "uri and name", &roots20250326.Root{URI: "file:///home/user/project", Name: "Project"}},
		{"ListRootsRequest", "no params", &roots20250326.ListRootsRequest{}},
		{"ListRootsRequest", "progress token", &roots20250326.ListRootsRequest{Params: &roots20250326.ListRootsRequestParams{Meta: &roots20250326.ListRootsRequestParamsMeta{ProgressToken: &tok}}}},
		{"ListRootsResult", "one root", &roots20250326.ListRootsResult{Roots: []roots20250326.Root{{URI: "file:///tmp/x", Name: "日本語"}}}},
		{"RootsListChangedNotification", "empty params", &roots20250326.RootsListChangedNotification{Params: &roots20250326.RootsListChangedNotificationParams{}}},
	}
}

// --- 2025-06-18 (Root gains _meta) ---

func random20250618(t *testing.T, r *rand.Rand) []fidelityCase {
	root := func() roots20250618.Root {
		return roots20250618.Root{URI: randFileURI(r), Name: randName(r), Meta: maybeMeta(r), Extra: randExtra(t, r)}
	}
	one := root()
	req := roots20250618.ListRootsRequest{Extra: randExtra(t, r)}
	if chance(r) {
		req.Params = &roots20250618.ListRootsRequestParams{Extra: randExtra(t, r)}
		if chance(r) {
			req.Params.Meta = &roots20250618.ListRootsRequestParamsMeta{Extra: randExtra(t, r)}
			if chance(r) {
				tok := roots20250618.ProgressTokenFromString(randString(r, 8))
				if chance(r) {
					tok = roots20250618.ProgressTokenFromInteger(randInt64(r))
				}
				req.Params.Meta.ProgressToken = &tok
			}
		}
	}
	res := roots20250618.ListRootsResult{Roots: []roots20250618.Root{}, Meta: maybeMeta(r), Extra: randExtra(t, r)}
	for range r.IntN(6) {
		res.Roots = append(res.Roots, root())
	}
	note := roots20250618.RootsListChangedNotification{Extra: randExtra(t, r)}
	if chance(r) {
		note.Params = &roots20250618.RootsListChangedNotificationParams{Meta: maybeMeta(r), Extra: randExtra(t, r)}
	}
	return []fidelityCase{
		{"Root", "", &one}, {"ListRootsRequest", "", &req}, {"ListRootsResult", "", &res}, {"RootsListChangedNotification", "", &note},
	}
}

func handwritten20250618(t *testing.T) []fidelityCase {
	tok := roots20250618.ProgressTokenFromString("p")
	return []fidelityCase{
		{"Root", "with _meta", &roots20250618.Root{URI: "file:///home/user/project", Name: "Project", Meta: map[string]any{"com.example/color": "blue"}}},
		{"ListRootsRequest", "progress token and extra _meta key", &roots20250618.ListRootsRequest{Params: &roots20250618.ListRootsRequestParams{Meta: &roots20250618.ListRootsRequestParamsMeta{
			ProgressToken: &tok, Extra: map[string]json.RawMessage{"com.example/trace": json.RawMessage(`"abc"`)},
		}}}},
		{"ListRootsResult", "roots with _meta", &roots20250618.ListRootsResult{Roots: []roots20250618.Root{{URI: "file:///a", Meta: map[string]any{"n": 1.0}}}}},
		{"RootsListChangedNotification", "no params", &roots20250618.RootsListChangedNotification{}},
	}
}

// --- 2025-11-25 (full JSON-RPC request, RequestId, RequestParams) ---

func randRequestID20251125(r *rand.Rand) roots20251125.RequestID {
	if chance(r) {
		return roots20251125.RequestIDFromString(randString(r, 8))
	}
	return roots20251125.RequestIDFromInteger(randInt64(r))
}

func random20251125(t *testing.T, r *rand.Rand) []fidelityCase {
	root := func() roots20251125.Root {
		return roots20251125.Root{URI: randFileURI(r), Name: randName(r), Meta: maybeMeta(r), Extra: randExtra(t, r)}
	}
	one := root()
	req := roots20251125.ListRootsRequest{ID: randRequestID20251125(r), Extra: randExtra(t, r)}
	if chance(r) {
		req.Params = &roots20251125.RequestParams{Extra: randExtra(t, r)}
		if chance(r) {
			req.Params.Meta = &roots20251125.RequestParamsMeta{Extra: randExtra(t, r)}
			if chance(r) {
				tok := roots20251125.ProgressTokenFromString(randString(r, 8))
				if chance(r) {
					tok = roots20251125.ProgressTokenFromInteger(randInt64(r))
				}
				req.Params.Meta.ProgressToken = &tok
			}
		}
	}
	res := roots20251125.ListRootsResult{Roots: []roots20251125.Root{}, Meta: maybeMeta(r), Extra: randExtra(t, r)}
	for range r.IntN(6) {
		res.Roots = append(res.Roots, root())
	}
	note := roots20251125.RootsListChangedNotification{Extra: randExtra(t, r)}
	if chance(r) {
		note.Params = &roots20251125.NotificationParams{Meta: maybeMeta(r), Extra: randExtra(t, r)}
	}
	return []fidelityCase{
		{"Root", "", &one}, {"ListRootsRequest", "", &req}, {"ListRootsResult", "", &res}, {"RootsListChangedNotification", "", &note},
	}
}

func handwritten20251125(t *testing.T) []fidelityCase {
	tok := roots20251125.ProgressTokenFromInteger(2)
	return []fidelityCase{
		{"Root", "uri only", &roots20251125.Root{URI: "file:///home/user/project"}},
		{"Root", "with _meta", &roots20251125.Root{URI: "file:///srv/%E6%97%A5", Name: "日", Meta: map[string]any{"a": map[string]any{"b": nil}}}},
		{"ListRootsRequest", "integer id, no params", &roots20251125.ListRootsRequest{ID: roots20251125.RequestIDFromInteger(0)}},
		{"ListRootsRequest", "string id, empty params", &roots20251125.ListRootsRequest{ID: roots20251125.RequestIDFromString("req-1"), Params: &roots20251125.RequestParams{}}},
		{"ListRootsRequest", "progress token as go-sdk sends it", &roots20251125.ListRootsRequest{ID: roots20251125.RequestIDFromInteger(0), Params: &roots20251125.RequestParams{Meta: &roots20251125.RequestParamsMeta{ProgressToken: &tok}}}},
		{"ListRootsResult", "empty", &roots20251125.ListRootsResult{Roots: []roots20251125.Root{}}},
		{"ListRootsResult", "two roots", &roots20251125.ListRootsResult{Roots: []roots20251125.Root{{URI: "file:///a", Name: "A"}, {URI: "file:///b"}}, Meta: map[string]any{"k": "v"}}},
		{"RootsListChangedNotification", "no params (TS)", &roots20251125.RootsListChangedNotification{}},
		{"RootsListChangedNotification", "empty params (go-sdk)", &roots20251125.RootsListChangedNotification{Params: &roots20251125.NotificationParams{}}},
	}
}

// --- 2026-07-28 (InputRequiredResult, MissingRequiredClientCapabilityError) ---

func randRoot20260728(t *testing.T, r *rand.Rand) roots20260728.Root {
	return roots20260728.Root{URI: randFileURI(r), Name: randName(r), Meta: maybeMeta(r), Extra: randExtra(t, r)}
}

func randListRootsRequest20260728(t *testing.T, r *rand.Rand) roots20260728.ListRootsRequest {
	req := roots20260728.ListRootsRequest{Extra: randExtra(t, r)}
	if chance(r) {
		req.Params = &roots20260728.ListRootsRequestParams{Meta: maybeMeta(r), Extra: randExtra(t, r)}
	}
	return req
}

// randClientCapabilities declares roots or not, and maybe other capabilities
// in shapes the upstream schema accepts.
func randClientCapabilities20260728(t *testing.T, r *rand.Rand) roots20260728.ClientCapabilities {
	var c roots20260728.ClientCapabilities
	if chance(r) {
		c.Roots = &roots20260728.RootsCapability{Extra: randExtra(t, r)}
	}
	others := []struct{ key, value string }{
		{"sampling", `{}`},
		{"sampling", `{"tools":{}}`},
		{"elicitation", `{"form":{},"url":{}}`},
		{"experimental", `{"com.example/x":{"on":true}}`},
		{"extensions", `{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}`},
	}
	for range r.IntN(3) {
		o := others[r.IntN(len(others))]
		if c.Extra == nil {
			c.Extra = map[string]json.RawMessage{}
		}
		c.Extra[o.key] = json.RawMessage(o.value)
	}
	return c
}

func random20260728(t *testing.T, r *rand.Rand) []fidelityCase {
	one := randRoot20260728(t, r)
	req := randListRootsRequest20260728(t, r)
	res := roots20260728.ListRootsResult{Roots: []roots20260728.Root{}, Extra: randExtra(t, r)}
	for range r.IntN(6) {
		res.Roots = append(res.Roots, randRoot20260728(t, r))
	}

	ir := roots20260728.InputRequiredResult{ResultType: "input_required", Extra: randExtra(t, r)}
	if m := maybeMeta(r); m != nil {
		ir.Meta = m
		if chance(r) {
			ir.Meta["io.modelcontextprotocol/serverInfo"] = map[string]any{"name": "srv", "version": "1.0.0"}
		}
	}
	if chance(r) {
		ir.RequestState = randString(r, 20)
	}
	if chance(r) || ir.RequestState == "" {
		ir.InputRequests = roots20260728.InputRequests{}
		for range 1 + r.IntN(3) {
			in, err := roots20260728.InputRequestFromListRootsRequest(randListRootsRequest20260728(t, r))
			if err != nil {
				t.Fatalf("InputRequestFromListRootsRequest: %v", err)
			}
			ir.InputRequests[randKey(r)] = in
		}
	}

	mrc := roots20260728.MissingRequiredClientCapabilityError{Extra: randExtra(t, r)}
	if chance(r) {
		id := roots20260728.RequestIDFromString(randString(r, 8))
		if chance(r) {
			id = roots20260728.RequestIDFromInteger(randInt64(r))
		}
		mrc.ID = &id
	}
	mrc.Error = roots20260728.MissingRequiredClientCapabilityErrorObject{
		Message: "missing capability: " + randString(r, 10),
		Extra:   randExtra(t, r),
		Data: roots20260728.MissingRequiredClientCapabilityErrorData{
			RequiredCapabilities: randClientCapabilities20260728(t, r),
			Extra:                randExtra(t, r),
		},
	}
	return []fidelityCase{
		{"Root", "", &one}, {"ListRootsRequest", "", &req}, {"ListRootsResult", "", &res},
		{"InputRequiredResult", "", &ir}, {"MissingRequiredClientCapabilityError", "", &mrc},
	}
}

func handwritten20260728(t *testing.T) []fidelityCase {
	rootsReq, err := roots20260728.InputRequestFromListRootsRequest(roots20260728.ListRootsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	rootsReqParams, err := roots20260728.InputRequestFromListRootsRequest(roots20260728.ListRootsRequest{Params: &roots20260728.ListRootsRequestParams{}})
	if err != nil {
		t.Fatal(err)
	}
	id := roots20260728.RequestIDFromInteger(1)
	sid := roots20260728.RequestIDFromString("call-9")
	return []fidelityCase{
		{"Root", "uri and name", &roots20260728.Root{URI: "file:///home/user/projects/myproject", Name: "My Project"}},
		{"Root", "with _meta", &roots20260728.Root{URI: "file:///a", Meta: roots20260728.MetaObject{"com.example/k": 1.0}}},
		{"ListRootsRequest", "no params", &roots20260728.ListRootsRequest{}},
		{"ListRootsRequest", "empty params", &roots20260728.ListRootsRequest{Params: &roots20260728.ListRootsRequestParams{}}},
		{"ListRootsResult", "empty", &roots20260728.ListRootsResult{Roots: []roots20260728.Root{}}},
		{"ListRootsResult", "one root", &roots20260728.ListRootsResult{Roots: []roots20260728.Root{{URI: "file:///x"}}}},
		{"InputRequiredResult", "roots request, as in the brief", &roots20260728.InputRequiredResult{
			ResultType: "input_required", InputRequests: roots20260728.InputRequests{"roots": rootsReq}, RequestState: "opaque",
		}},
		{"InputRequiredResult", "roots request with params, no state", &roots20260728.InputRequiredResult{
			ResultType: "input_required", InputRequests: roots20260728.InputRequests{"r": rootsReqParams},
		}},
		{"InputRequiredResult", "state only", &roots20260728.InputRequiredResult{ResultType: "input_required", RequestState: "s"}},
		{"MissingRequiredClientCapabilityError", "roots required, integer id", &roots20260728.MissingRequiredClientCapabilityError{
			ID: &id,
			Error: roots20260728.MissingRequiredClientCapabilityErrorObject{
				Message: "Server requires the roots capability",
				Data: roots20260728.MissingRequiredClientCapabilityErrorData{
					RequiredCapabilities: roots20260728.ClientCapabilities{Roots: &roots20260728.RootsCapability{}},
				},
			},
		}},
		{"MissingRequiredClientCapabilityError", "no id", &roots20260728.MissingRequiredClientCapabilityError{
			Error: roots20260728.MissingRequiredClientCapabilityErrorObject{
				Message: "needs roots",
				Data:    roots20260728.MissingRequiredClientCapabilityErrorData{},
			},
		}},
		{"MissingRequiredClientCapabilityError", "string id", &roots20260728.MissingRequiredClientCapabilityError{
			ID: &sid,
			Error: roots20260728.MissingRequiredClientCapabilityErrorObject{
				Message: "needs roots",
				Data: roots20260728.MissingRequiredClientCapabilityErrorData{
					RequiredCapabilities: roots20260728.ClientCapabilities{Roots: &roots20260728.RootsCapability{}, Extra: map[string]json.RawMessage{"sampling": json.RawMessage(`{}`)}},
				},
			},
		}},
	}
}

// ---------------------------------------------------------------------------
// (c) wrong types and missing required members

// newValue returns a fresh pointer to the generated type that models def in
// rev, or nil when rev has no such type.
// rpc returns the envelope members a request or notification needs in rev
// besides method: in a revision whose requests are whole JSON-RPC messages
// (2025-11-25), jsonrpc and id for a request, jsonrpc for a notification;
// nothing elsewhere.
func rpc(rev string, request bool) string {
	if !revisionFacts[rev].envelope {
		return ""
	}
	if request {
		return `"jsonrpc":"2.0","id":1,`
	}
	return `"jsonrpc":"2.0",`
}

type rejectCase struct {
	def    string
	json   string
	member string // the member (or JSON path) the error must name
}

func rejectCases(rev string) []rejectCase {
	req := rpc(rev, true)
	cases := []rejectCase{
		// wrong types
		{"ListRootsResult", `{"roots":[{"uri":5}]}`, "uri"},
		{"ListRootsResult", `{"roots":[{"uri":"file:///a","name":5}]}`, "name"},
		{"ListRootsResult", `{"roots":{}}`, "roots"},
		{"ListRootsResult", `{"roots":"file:///a"}`, "roots"},
		{"ListRootsResult", `{"roots":[5]}`, "roots"},
		{"Root", `{"uri":["file:///a"]}`, "uri"},
		{"ListRootsRequest", `{` + req + `"method":"roots/list","params":[]}`, "params"},
		{"ListRootsRequest", `{` + req + `"method":"roots/list","params":"x"}`, "params"},
		{"ListRootsRequest", `{` + req + `"method":5}`, "method"},
		{"ListRootsRequest", `{` + req + `"method":"tools/list"}`, "method"},
		// missing required members
		{"ListRootsResult", `{}`, "roots"},
		{"ListRootsResult", `{"roots":[{"name":"x"}]}`, "uri"},
		{"ListRootsResult", `{"roots":[{"uri":"file:///a"},{"name":"x"}]}`, "roots[1].uri"},
		{"Root", `{"name":"x"}`, "uri"},
		{"ListRootsRequest", `{` + req + `"params":{}}`, "method"},
		// JSON member names are case-sensitive: "URI" and "Roots" are
		// unknown members, so the required uri and roots are missing.
		{"Root", `{"URI":"file:///a"}`, "uri"},
		{"ListRootsResult", `{"Roots":[{"uri":"file:///a"}]}`, "roots"},
	}
	if revisionFacts[rev].notification {
		note := rpc(rev, false)
		cases = append(cases,
			rejectCase{"ListRootsRequest", `{` + req + `"method":"roots/list","params":{"_meta":{"progressToken":true}}}`, "progressToken"},
			rejectCase{"ListRootsRequest", `{` + req + `"method":"roots/list","params":{"_meta":5}}`, "_meta"},
			rejectCase{"ListRootsResult", `{"roots":[],"_meta":5}`, "_meta"},
			rejectCase{"RootsListChangedNotification", `{` + note + `"method":"notifications/roots/list_changed","params":5}`, "params"},
			rejectCase{"RootsListChangedNotification", `{` + note + `"params":{}}`, "method"},
			rejectCase{"ClientCapabilities", `{"roots":{"listChanged":"yes"}}`, "listChanged"},
		)
	}
	if revisionFacts[rev].rootMeta {
		cases = append(cases, rejectCase{"Root", `{"uri":"file:///a","_meta":[]}`, "_meta"})
	}
	if revisionFacts[rev].envelope {
		cases = append(cases,
			rejectCase{"ListRootsRequest", `{"jsonrpc":"2.0","id":{},"method":"roots/list"}`, "id"},
			rejectCase{"ListRootsRequest", `{"jsonrpc":"2.0","id":true,"method":"roots/list"}`, "id"},
			rejectCase{"ListRootsRequest", `{"jsonrpc":"2.0","id":1.5,"method":"roots/list"}`, "id"},
			rejectCase{"ListRootsRequest", `{"jsonrpc":"2.0","method":"roots/list"}`, "id"},
			rejectCase{"ListRootsRequest", `{"id":1,"method":"roots/list"}`, "jsonrpc"},
			rejectCase{"ListRootsRequest", `{"jsonrpc":"2.0","ID":1,"method":"roots/list"}`, "id"},
			rejectCase{"ListRootsRequest", `{"jsonrpc":"1.0","id":1,"method":"roots/list"}`, "jsonrpc"},
			rejectCase{"ListRootsRequest", `{"jsonrpc":2,"id":1,"method":"roots/list"}`, "jsonrpc"},
		)
		if revisionFacts[rev].notification {
			cases = append(cases, rejectCase{"RootsListChangedNotification", `{"method":"notifications/roots/list_changed"}`, "jsonrpc"})
		}
	}
	if revisionFacts[rev].inputRequests {
		const data = `"data":{"requiredCapabilities":{"roots":{}}}`
		cases = append(cases,
			rejectCase{"ListRootsRequest", `{"method":"roots/list","params":{"_meta":[]}}`, "_meta"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m"}}`, "data"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{}}}`, "requiredCapabilities"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1}`, "error"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"id":1,"error":{"code":-32021,"message":"m",` + data + `}}`, "jsonrpc"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"message":"m",` + data + `}}`, "code"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m",` + data + `}}`, "code"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"code":"-32021","message":"m",` + data + `}}`, "code"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"code":-32021,` + data + `}}`, "message"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":{},"error":{"code":-32021,"message":"m",` + data + `}}`, "id"},
			rejectCase{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{"requiredCapabilities":{"roots":5}}}}`, "roots"},
			rejectCase{"InputRequiredResult", `{"requestState":"s"}`, "resultType"},
			rejectCase{"InputRequiredResult", `{"resultType":5,"requestState":"s"}`, "resultType"},
			rejectCase{"InputRequiredResult", `{"resultType":"input_required","inputRequests":[]}`, "inputRequests"},
			rejectCase{"InputRequiredResult", `{"resultType":"input_required","requestState":5}`, "requestState"},
			rejectCase{"InputResponseRequestParams", `{"inputResponses":{}}`, "_meta"},
			rejectCase{"InputResponseRequestParams", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, "io.modelcontextprotocol/clientCapabilities"},
		)
	}
	return cases
}

func TestRejectsWrongTypesAndMissingRequired(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			for _, c := range rejectCases(rev) {
				t.Run(c.def+"/"+c.member+"/"+c.json, func(t *testing.T) {
					v := newValue(rev, c.def)
					if v == nil {
						t.Fatalf("no %s type in %s", c.def, rev)
					}
					step := "json.Unmarshal"
					err := json.Unmarshal([]byte(c.json), v)
					if err == nil {
						step = "Validate"
						err = v.(validatable).Validate()
					}
					if err == nil {
						out, _ := json.Marshal(v)
						t.Fatalf("%s accepted by both json.Unmarshal and Validate (re-marshals as %s)", c.json, out)
					}
					t.Logf("%s: %v", step, err)
					if !mentionsMember(err.Error(), c.member) {
						t.Errorf("%s rejects it, but the error does not name %q:\n%v", step, c.member, err)
					}
				})
			}
		})
	}
}

// ---------------------------------------------------------------------------
// (d) params absent, null or {}

func TestListRootsRequestParamsForms(t *testing.T) {
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			in, out := `{"method":"roots/list"`, `{"method":"roots/list"`
			if revisionFacts[rev].envelope {
				in = `{"jsonrpc":"2.0","id":1,"method":"roots/list"`
				out = `{"jsonrpc":"2.0","method":"roots/list","id":1`
			}
			for _, form := range []struct{ name, in, want string }{
				{"absent", in + `}`, out + `}`},
				{"null", in + `,"params":null}`, out + `}`},
				{"empty", in + `,"params":{}}`, out + `,"params":{}}`},
			} {
				t.Run(form.name, func(t *testing.T) {
					v := newValue(rev, "ListRootsRequest")
					if err := json.Unmarshal([]byte(form.in), v); err != nil {
						t.Fatalf("json.Unmarshal(%s): %v", form.in, err)
					}
					if err := v.(validatable).Validate(); err != nil {
						t.Errorf("Validate(%s): %v", form.in, err)
					}
					got := mustMarshal(t, v)
					if string(got) != form.want {
						t.Errorf("%s re-marshals as\n%s\nwant\n%s", form.in, got, form.want)
					}
				})
			}
		})
	}
}

// ---------------------------------------------------------------------------
// (e) unknown members survive a round trip

func TestUnknownMembersSurvive(t *testing.T) {
	type survivor struct{ def, json string }
	common := func(rev string) []survivor {
		req := rpc(rev, true)
		s := []survivor{
			{"Root", `{"uri":"file:///a","name":"A","x-vendor":{"a":1}}`},
			{"Root", `{"uri":"file:///a","x-null":null,"x-arr":[1,"two",{"three":3}],"ünïcode":"é"}`},
			{"ListRootsResult", `{"roots":[{"uri":"file:///a","x-vendor":{"a":1}}],"nextCursor":"abc"}`},
			{"ListRootsRequest", `{` + req + `"method":"roots/list","x-top":true}`},
			{"ListRootsRequest", `{` + req + `"method":"roots/list","params":{"x-param":[1,2]}}`},
			{"ClientCapabilities", `{"roots":{},"sampling":{"tools":{}},"x-cap":{"on":true}}`},
			// Member names are case-sensitive: "URI" and "Roots" are unknown
			// members, distinct from uri and roots, and must not touch them.
			{"Root", `{"uri":"file:///a","URI":"file:///b"}`},
			{"ListRootsResult", `{"roots":[],"Roots":"not the roots"}`},
		}
		if revisionFacts[rev].envelope {
			s = append(s, survivor{"ListRootsRequest", `{"jsonrpc":"2.0","id":1,"method":"roots/list","ID":"other"}`})
		}
		if revisionFacts[rev].inputRequests {
			s = append(s,
				survivor{"ListRootsRequest", `{"method":"roots/list","params":{"_meta":{"io.example/k":"v","progressToken":3}}}`},
				// 2026-07-28 dropped _meta from ListRootsResult: it is unknown here, and must survive.
				survivor{"ListRootsResult", `{"roots":[],"_meta":{"a":1}}`},
				survivor{"ClientCapabilities", `{"roots":{"listChanged":true,"x-future":1}}`},
				survivor{"InputRequiredResult", `{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list","params":{},"x-req":1}},"x-top":"t","_meta":{"io.example/k":[1]}}`},
				survivor{"InputResponseRequestParams", `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"progressToken":"p"},"inputResponses":{"r":{"roots":[]}},"requestState":"s","arguments":{"a":1}}`},
				survivor{"MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":1,"error":{"code":-32021,"message":"m","data":{"requiredCapabilities":{"roots":{}},"hint":"x"},"x-e":1},"x-top":2}`},
			)
		} else {
			s = append(s,
				survivor{"ListRootsRequest", `{` + req + `"method":"roots/list","params":{"_meta":{"progressToken":"tok","com.example/trace":"abc","n":{"deep":[1]}}}}`},
				survivor{"ListRootsResult", `{"roots":[],"_meta":{"k":"v"},"x-extra":[]}`},
				survivor{"RootsListChangedNotification", `{` + rpc(rev, false) + `"method":"notifications/roots/list_changed","params":{"_meta":{"k":1},"x-p":true},"x-top":null}`},
				survivor{"ClientCapabilities", `{"roots":{"listChanged":true,"x-future":1},"experimental":{}}`},
			)
		}
		return s
	}
	for _, rev := range revisions {
		t.Run(rev, func(t *testing.T) {
			for _, s := range common(rev) {
				t.Run(s.def+"/"+s.json, func(t *testing.T) {
					v := newValue(rev, s.def)
					if v == nil {
						t.Fatalf("no %s type in %s", s.def, rev)
					}
					if err := json.Unmarshal([]byte(s.json), v); err != nil {
						t.Fatalf("json.Unmarshal: %v", err)
					}
					out := mustMarshal(t, v)
					if !sameJSON(t, []byte(s.json), out) {
						t.Errorf("unknown members lost or changed:\nin:  %s\nout: %s", s.json, out)
					}
				})
			}
			// The unknown member is kept in Extra, where a caller can read it.
			v := newValue(rev, "Root")
			if err := json.Unmarshal([]byte(`{"uri":"file:///a","x-vendor":{"a":1}}`), v); err != nil {
				t.Fatal(err)
			}
			extra := reflect.ValueOf(v).Elem().FieldByName("Extra").Interface().(map[string]json.RawMessage)
			if got := string(extra["x-vendor"]); got != `{"a":1}` {
				t.Errorf("Root.Extra[\"x-vendor\"] = %q, want {\"a\":1}", got)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// (f) RequestID (and ProgressToken) forms

type unionCodec interface {
	json.Marshaler
	json.Unmarshaler
}

type unionForms struct {
	typeName string
	fresh    func() unionCodec
	asInt    func(unionCodec) (int64, bool)
	asString func(unionCodec) (string, bool)
}

func checkUnionForms(t *testing.T, u unionForms) {
	accepted := []struct {
		in, out string
		isInt   bool
		i       int64
		s       string
	}{
		{in: `7`, out: `7`, isInt: true, i: 7},
		{in: `"abc"`, out: `"abc"`, s: "abc"},
		{in: `""`, out: `""`, s: ""},
		{in: `1.0`, out: `1`, isInt: true, i: 1},
		{in: `-3`, out: `-3`, isInt: true, i: -3},
		{in: `1e2`, out: `100`, isInt: true, i: 100},
		{in: `0`, out: `0`, isInt: true, i: 0},
		{in: `9007199254740993`, out: `9007199254740993`, isInt: true, i: 9007199254740993},
		{in: `"7"`, out: `"7"`, s: "7"},
		{in: `"\u00e9\n"`, out: `"é\n"`, s: "é\n"},
	}
	for _, c := range accepted {
		t.Run("accept "+c.in, func(t *testing.T) {
			for _, via := range []string{"UnmarshalJSON", "json.Unmarshal"} {
				v := u.fresh()
				var err error
				if via == "UnmarshalJSON" {
					err = v.UnmarshalJSON([]byte(c.in))
				} else {
					err = json.Unmarshal([]byte(c.in), v)
				}
				if err != nil {
					t.Fatalf("%s(%s): %v", via, c.in, err)
				}
				i, isInt := u.asInt(v)
				s, isStr := u.asString(v)
				if isInt != c.isInt || isStr == c.isInt {
					t.Errorf("%s(%s): AsInteger ok=%v, AsString ok=%v; want integer=%v", via, c.in, isInt, isStr, c.isInt)
				}
				if c.isInt && i != c.i {
					t.Errorf("%s(%s): AsInteger = %d, want %d", via, c.in, i, c.i)
				}
				if !c.isInt && s != c.s {
					t.Errorf("%s(%s): AsString = %q, want %q", via, c.in, s, c.s)
				}
				out, err := json.Marshal(v)
				if err != nil {
					t.Fatalf("json.Marshal after %s(%s): %v", via, c.in, err)
				}
				if string(out) != c.out {
					t.Errorf("%s(%s) re-marshals as %s, want %s", via, c.in, out, c.out)
				}
			}
		})
	}
	for _, in := range []string{`1.5`, `true`, `false`, `null`, `{}`, `[]`, `[1]`, `-0.25`, `1e400`, `9223372036854775808`} {
		t.Run("reject "+in, func(t *testing.T) {
			for _, via := range []string{"UnmarshalJSON", "json.Unmarshal"} {
				v := u.fresh()
				var err error
				if via == "UnmarshalJSON" {
					err = v.UnmarshalJSON([]byte(in))
				} else {
					err = json.Unmarshal([]byte(in), v)
				}
				if err == nil {
					out, _ := json.Marshal(v)
					t.Errorf("%s accepts %s as a %s (re-marshals as %s)", via, in, u.typeName, out)
					continue
				}
				if !strings.Contains(err.Error(), u.typeName) {
					t.Errorf("%s(%s): error does not mention %s: %v", via, in, u.typeName, err)
				}
			}
		})
	}
	t.Run("zero value", func(t *testing.T) {
		if out, err := json.Marshal(u.fresh()); err == nil {
			t.Errorf("the zero %s marshals as %s; want an error (it holds no value)", u.typeName, out)
		}
	})
}

func TestRequestIDForms(t *testing.T) {
	t.Run("2025-11-25/RequestID", func(t *testing.T) {
		checkUnionForms(t, unionForms{
			typeName: "RequestID",
			fresh:    func() unionCodec { return new(roots20251125.RequestID) },
			asInt:    func(u unionCodec) (int64, bool) { return u.(*roots20251125.RequestID).AsInteger() },
			asString: func(u unionCodec) (string, bool) { return u.(*roots20251125.RequestID).AsString() },
		})
	})
	t.Run("2026-07-28/RequestID", func(t *testing.T) {
		checkUnionForms(t, unionForms{
			typeName: "RequestID",
			fresh:    func() unionCodec { return new(roots20260728.RequestID) },
			asInt:    func(u unionCodec) (int64, bool) { return u.(*roots20260728.RequestID).AsInteger() },
			asString: func(u unionCodec) (string, bool) { return u.(*roots20260728.RequestID).AsString() },
		})
	})
	// ProgressToken has the same string-or-integer shape.
	t.Run("2024-11-05/ProgressToken", func(t *testing.T) {
		checkUnionForms(t, unionForms{
			typeName: "ProgressToken",
			fresh:    func() unionCodec { return new(roots20241105.ProgressToken) },
			asInt:    func(u unionCodec) (int64, bool) { return u.(*roots20241105.ProgressToken).AsInteger() },
			asString: func(u unionCodec) (string, bool) { return u.(*roots20241105.ProgressToken).AsString() },
		})
	})
	t.Run("2025-11-25/ProgressToken", func(t *testing.T) {
		checkUnionForms(t, unionForms{
			typeName: "ProgressToken",
			fresh:    func() unionCodec { return new(roots20251125.ProgressToken) },
			asInt:    func(u unionCodec) (int64, bool) { return u.(*roots20251125.ProgressToken).AsInteger() },
			asString: func(u unionCodec) (string, bool) { return u.(*roots20251125.ProgressToken).AsString() },
		})
	})
	// Inside a whole message: the id is re-marshalled in its canonical form.
	t.Run("2025-11-25/in ListRootsRequest", func(t *testing.T) {
		for in, want := range map[string]string{
			`{"jsonrpc":"2.0","id":1.0,"method":"roots/list"}`:   `{"jsonrpc":"2.0","method":"roots/list","id":1}`,
			`{"jsonrpc":"2.0","id":"1.0","method":"roots/list"}`: `{"jsonrpc":"2.0","method":"roots/list","id":"1.0"}`,
			`{"jsonrpc":"2.0","id":-3,"method":"roots/list"}`:    `{"jsonrpc":"2.0","method":"roots/list","id":-3}`,
		} {
			var req roots20251125.ListRootsRequest
			if err := json.Unmarshal([]byte(in), &req); err != nil {
				t.Errorf("json.Unmarshal(%s): %v", in, err)
				continue
			}
			if got := mustMarshal(t, req); string(got) != want {
				t.Errorf("%s re-marshals as %s, want %s", in, got, want)
			}
		}
		var req roots20251125.ListRootsRequest
		err := json.Unmarshal([]byte(`{"jsonrpc":"2.0","id":null,"method":"roots/list"}`), &req)
		if err == nil || !strings.Contains(err.Error(), "RequestID") {
			t.Errorf(`"id":null: got error %v, want one mentioning RequestID`, err)
		}
	})
}

// TestShimsUpstream: what the 2026-07-28 shims write validates against the
// upstream schema (the exact JSON is checked in generated/dispatch_test.go).
func TestShimsUpstream(t *testing.T) {
	res, err := roots20260728.AskForRoots("roots", "state-1")
	if err != nil {
		t.Fatal(err)
	}
	id := roots20260728.RequestIDFromInteger(1)
	var meta roots20260728.RequestMetaObject
	if err := json.Unmarshal([]byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}`), &meta); err != nil {
		t.Fatal(err)
	}
	sch := upstreamSchemas(t, "2026-07-28", []string{"InputRequiredResult", "MissingRequiredClientCapabilityError"})
	for def, v := range map[string]any{
		"InputRequiredResult":                                          res,
		"MissingRequiredClientCapabilityError":                         roots20260728.RequireRoots(&id, nil),
		"MissingRequiredClientCapabilityError with other capabilities": roots20260728.RequireRoots(&id, &meta),
	} {
		name, _, _ := strings.Cut(def, " ")
		if err := validateUpstream(sch[name], mustMarshal(t, v)); err != nil {
			t.Errorf("%s against upstream %s: %v", mustMarshal(t, v), def, err)
		}
	}
}
