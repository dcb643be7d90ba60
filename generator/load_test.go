package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// loadTestRevisions are the embedded revisions and the dialect each is
// written in, as its "$schema" names it (read without the loader).
var loadTestRevisions = func() []struct{ rev, dialect string } {
	var out []struct{ rev, dialect string }
	for _, rev := range schema.Revisions() {
		data, err := schema.Open(rev)
		if err != nil {
			panic(err)
		}
		var doc struct {
			Schema string `json:"$schema"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			panic(err)
		}
		dialect := "draft-07"
		if strings.Contains(doc.Schema, "2020-12") {
			dialect = "2020-12"
		}
		out = append(out, struct{ rev, dialect string }{rev, dialect})
	}
	return out
}()

func readUpstreamSchema(t testing.TB, rev string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(prereq.SpecDir(t), "schema", rev, "schema.json"))
	if err != nil {
		t.Fatalf("upstream schema of %s: %v", rev, err)
	}
	return data
}

// rawDefinitionNames returns the names under "definitions" or "$defs" in
// data, in file order, decoding with encoding/json only.
func rawDefinitionNames(t *testing.T, data []byte) []string {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatalf("raw decode: %v", err)
	}
	raw, ok := top["$defs"]
	if !ok {
		raw, ok = top["definitions"]
	}
	if !ok {
		t.Fatal("raw decode: no $defs or definitions")
	}
	var defs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &defs); err != nil {
		t.Fatalf("raw decode of the definitions: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("raw decode of the definitions: %v %v", tok, err)
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("raw decode of the definitions: %v", err)
		}
		names = append(names, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("raw decode of the definitions: %v", err)
		}
	}
	if len(names) != len(defs) {
		t.Fatalf("raw decode: %d keys in order but %d distinct", len(names), len(defs))
	}
	return names
}

func TestLoadUpstreamDefinitionCounts(t *testing.T) {
	prereq.SpecDir(t) // fail or skip before the subtests
	for _, tc := range loadTestRevisions {
		t.Run(tc.rev, func(t *testing.T) {
			data := readUpstreamSchema(t, tc.rev)
			doc, err := Load(data, LoadOptions{})
			if err != nil {
				t.Fatalf("Load(upstream %s): %v", tc.rev, err)
			}
			names := rawDefinitionNames(t, data)
			if len(doc.Defs) != len(names) {
				t.Errorf("%s: len(Defs) = %d, the file has %d definitions", tc.rev, len(doc.Defs), len(names))
			}
			for _, n := range names {
				if doc.Defs[n] == nil {
					t.Errorf("%s: definition %s is missing from Defs", tc.rev, n)
				}
			}
			if doc.Dialect != tc.dialect {
				t.Errorf("%s: Dialect = %q, want %q", tc.rev, doc.Dialect, tc.dialect)
			}
			if !slices.Equal(doc.Order, names) {
				t.Errorf("%s: Order = %q,\nwant the file order %q", tc.rev, doc.Order, names)
			}
			if doc.SHA256 != sha256.Sum256(data) {
				t.Errorf("%s: SHA256 is not the digest of the input", tc.rev)
			}
		})
	}
}

// mustLoad loads an inline schema that must load.
func mustLoad(t *testing.T, src string) *Document {
	t.Helper()
	doc, err := Load([]byte(src), LoadOptions{})
	if err != nil {
		t.Fatalf("Load: %v\ninput: %s", err, src)
	}
	return doc
}

func propertyNames(s *jsonschema.Schema) []string {
	if s.Properties == nil {
		return nil
	}
	return slices.Collect(s.Properties.KeysFromOldest())
}

func property(t *testing.T, s *jsonschema.Schema, name string) *jsonschema.Schema {
	t.Helper()
	if s.Properties == nil {
		t.Fatalf("no properties, want %q", name)
	}
	p, ok := s.Properties.Get(name)
	if !ok || p == nil {
		t.Fatalf("no property %q among %q", name, propertyNames(s))
	}
	return p
}

// isNormalizedTrue reports whether s is the empty schema {}, what the loader turns true into.
func isNormalizedTrue(s *jsonschema.Schema) bool {
	return s != nil && reflect.DeepEqual(*s, jsonschema.Schema{})
}

// isNormalizedFalse reports whether s is {"not": {}}, what the loader turns false into.
func isNormalizedFalse(s *jsonschema.Schema) bool {
	return s != nil && isNormalizedTrue(s.Not) && reflect.DeepEqual(*s, jsonschema.Schema{Not: s.Not})
}

func TestLoadNormalizes(t *testing.T) {
	t.Run("keywords in another case are annotations", func(t *testing.T) {
		// encoding/json would read each of these as the keyword it folds to.
		doc := mustLoad(t, `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "A": {
      "type": "object",
      "AllOf": [{"$ref": "#/$defs/Nowhere"}],
      "propertieſ": {"x": {"type": "string"}},
      "REQUIRED": ["x"],
      "properties": {"y": {"type": "integer"}}
    }
  }
}`)
		a := doc.Defs["A"]
		if a == nil {
			t.Fatal("definition A was lost")
		}
		if len(a.AllOf) != 0 || len(a.Required) != 0 || a.Properties.Len() != 1 || property(t, a, "y").Type != "integer" {
			t.Errorf("A = allOf %v, required %v, %d properties; want only the property y", a.AllOf, a.Required, a.Properties.Len())
		}
	})
	t.Run("draft-07 definitions and refs", func(t *testing.T) {
		doc := mustLoad(t, `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "definitions": {
    "Zeta": {
      "type": "object",
      "properties": {
        "z": {"type": "string"},
        "a": {"$ref": "#/definitions/Alpha"},
        "m": {"type": "array", "items": {"$ref": "#/definitions/Zeta"}}
      },
      "required": ["z"]
    },
    "Alpha": {"anyOf": [{"$ref": "#/definitions/Zeta"}, {"type": "null"}]}
  }
}`)
		if doc.Dialect != "draft-07" {
			t.Errorf("Dialect = %q, want draft-07", doc.Dialect)
		}
		if !slices.Equal(doc.Order, []string{"Zeta", "Alpha"}) {
			t.Errorf("Order = %q, want [Zeta Alpha] (file order)", doc.Order)
		}
		if len(doc.Defs) != 2 || doc.Defs["Zeta"] == nil || doc.Defs["Alpha"] == nil {
			t.Fatalf("Defs = %v, want Zeta and Alpha", doc.Defs)
		}
		zeta := doc.Defs["Zeta"]
		if got := property(t, zeta, "a").Ref; got != "#/$defs/Alpha" {
			t.Errorf(`Zeta.a.$ref = %q, want "#/$defs/Alpha"`, got)
		}
		if items := property(t, zeta, "m").Items; items == nil || items.Ref != "#/$defs/Zeta" {
			t.Errorf(`Zeta.m.items = %+v, want $ref "#/$defs/Zeta"`, items)
		}
		if alpha := doc.Defs["Alpha"]; len(alpha.AnyOf) != 2 || alpha.AnyOf[0].Ref != "#/$defs/Zeta" || alpha.AnyOf[1].Type != "null" {
			t.Errorf("Alpha.anyOf = %+v, want [$ref #/$defs/Zeta, type null]", alpha.AnyOf)
		}
		if !slices.Equal(zeta.Required, []string{"z"}) {
			t.Errorf("Zeta.required = %q", zeta.Required)
		}
	})

	t.Run("2020-12 refs stay", func(t *testing.T) {
		doc := mustLoad(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "string"}}}`)
		if doc.Dialect != "2020-12" || doc.Defs["A"].Ref != "#/$defs/B" || doc.Defs["B"].Type != "string" {
			t.Errorf("Dialect %q, A %+v, B %+v", doc.Dialect, doc.Defs["A"], doc.Defs["B"])
		}
	})

	t.Run("type arrays", func(t *testing.T) {
		doc := mustLoad(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
  "Id": {"type": ["string", "integer"], "description": "an id"},
  "Both": {"type": ["string", "null"], "anyOf": [{"minLength": 1}, {"type": "null"}]},
  "One": {"type": ["boolean"]}
}}`)
		id := doc.Defs["Id"]
		if id.Type != "" {
			t.Errorf("Id.type = %q, want none (moved into anyOf)", id.Type)
		}
		if len(id.AnyOf) != 2 || !reflect.DeepEqual(*id.AnyOf[0], jsonschema.Schema{Type: "string"}) || !reflect.DeepEqual(*id.AnyOf[1], jsonschema.Schema{Type: "integer"}) {
			t.Errorf("Id.anyOf = %s, want [{type: string}, {type: integer}]", mustJSON(id.AnyOf))
		}
		if id.Description != "an id" {
			t.Errorf("Id.description = %q, want it kept", id.Description)
		}
		// With an anyOf already there, both constraints must survive.
		both := doc.Defs["Both"]
		if both.Type != "" || len(both.AnyOf) != 0 || len(both.AllOf) != 2 {
			t.Fatalf("Both = %s, want allOf of the type arms and the original anyOf", mustJSON(both))
		}
		if got, want := mustJSON(both.AllOf), `[{"anyOf":[{"type":"string"},{"type":"null"}]},{"anyOf":[{"minLength":1},{"type":"null"}]}]`; got != want {
			t.Errorf("Both.allOf = %s, want %s", got, want)
		}
		if one := doc.Defs["One"]; one.Type != "boolean" || len(one.AnyOf) != 0 {
			t.Errorf("One = %s, want type boolean", mustJSON(one))
		}
	})

	t.Run("boolean schemas", func(t *testing.T) {
		doc := mustLoad(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
  "Closed": {"type": "object", "additionalProperties": false},
  "Open": {"type": "object", "additionalProperties": true},
  "Mixed": {"properties": {"any": true, "none": false}, "items": false}
}}`)
		closed := doc.Defs["Closed"].AdditionalProperties
		if !isNormalizedFalse(closed) {
			t.Errorf(`Closed.additionalProperties = %s, want {"not": {}}`, mustJSON(closed))
		}
		if open := doc.Defs["Open"].AdditionalProperties; !isNormalizedTrue(open) {
			t.Errorf("Open.additionalProperties = %#v, want the empty schema {}", open)
		}
		mixed := doc.Defs["Mixed"]
		if p := property(t, mixed, "any"); !isNormalizedTrue(p) {
			t.Errorf("Mixed.any = %#v, want {}", p)
		}
		if p := property(t, mixed, "none"); !isNormalizedFalse(p) {
			t.Errorf(`Mixed.none = %s, want {"not": {}}`, mustJSON(p))
		}
		if !isNormalizedFalse(mixed.Items) {
			t.Errorf(`Mixed.items = %s, want {"not": {}}`, mustJSON(mixed.Items))
		}
	})

	t.Run("property order", func(t *testing.T) {
		doc := mustLoad(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
  "Req": {"type": "object", "properties": {
    "method": {"type": "string"}, "jsonrpc": {"type": "string"}, "id": {"type": "integer"},
    "params": {"type": "object", "properties": {"zz": {}, "_meta": {}, "aa": {}}}
  }}
}}`)
		req := doc.Defs["Req"]
		if got, want := propertyNames(req), []string{"method", "jsonrpc", "id", "params"}; !slices.Equal(got, want) {
			t.Errorf("Req property order = %q, want %q", got, want)
		}
		if got, want := propertyNames(property(t, req, "params")), []string{"zz", "_meta", "aa"}; !slices.Equal(got, want) {
			t.Errorf("Req.params property order = %q, want %q", got, want)
		}
	})

	t.Run("property names that look like keywords", func(t *testing.T) {
		doc := mustLoad(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
  "Tool": {"type": "object", "properties": {
    "description": {"type": "string"}, "$ref": {"type": "string"}, "type": {"type": ["string", "null"]}, "definitions": {"type": "object"}
  }}
}}`)
		tool := doc.Defs["Tool"]
		if got, want := propertyNames(tool), []string{"description", "$ref", "type", "definitions"}; !slices.Equal(got, want) {
			t.Fatalf("Tool property names = %q, want %q", got, want)
		}
		if p := property(t, tool, "description"); p.Type != "string" {
			t.Errorf("Tool.description = %s, want a string schema", mustJSON(p))
		}
		if p := property(t, tool, "type"); len(p.AnyOf) != 2 {
			t.Errorf("Tool.type = %s, want its type array normalized", mustJSON(p))
		}
	})

	// The definitions keywords are read the same way in both dialects:
	// wherever a reference points, its definition must be.
	for _, tc := range []struct{ name, in string }{
		{"draft-07 with $defs", `{"$schema": "http://json-schema.org/draft-07/schema#", "$defs": {
  "Zeta": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Alpha"}}},
  "Alpha": {"type": ["string", "null"]}}}`},
		{"2020-12 with definitions", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "definitions": {
  "Zeta": {"type": "object", "properties": {"a": {"$ref": "#/definitions/Alpha"}}},
  "Alpha": {"type": ["string", "null"]}}}`},
		{"both keywords, each referenced where it is", `{"$schema": "http://json-schema.org/draft-07/schema#",
  "definitions": {"Zeta": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Alpha"}}}},
  "$defs": {"Alpha": {"type": ["string", "null"]}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustLoad(t, tc.in)
			if !slices.Equal(doc.Order, []string{"Zeta", "Alpha"}) {
				t.Errorf("Order = %q, want [Zeta Alpha]", doc.Order)
			}
			if len(doc.Defs) != 2 || doc.Defs["Zeta"] == nil || doc.Defs["Alpha"] == nil {
				t.Fatalf("Defs = %v, want Zeta and Alpha", slices.Sorted(maps.Keys(doc.Defs)))
			}
			if got := property(t, doc.Defs["Zeta"], "a").Ref; got != "#/$defs/Alpha" {
				t.Errorf(`Zeta.a.$ref = %q, want "#/$defs/Alpha"`, got)
			}
			if len(doc.Defs["Alpha"].AnyOf) != 2 {
				t.Errorf("Alpha = %s, want its type array normalized", mustJSON(doc.Defs["Alpha"]))
			}
		})
	}

	t.Run("ref-shaped data is data", func(t *testing.T) {
		// "$ref" inside const, default, enum or examples is a value, not a
		// reference: it must neither be rewritten nor be checked.
		doc := mustLoad(t, `{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {
  "Pointer": {"type": "object", "const": {"$ref": "urn:example:not-a-definition"},
    "examples": [{"$ref": "#/definitions/Nowhere"}]}
}}`)
		if got := mustJSON(doc.Defs["Pointer"].Const); got != `{"$ref":"urn:example:not-a-definition"}` {
			t.Errorf("Pointer.const = %s, want it unchanged", got)
		}
	})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

func TestLoadErrors(t *testing.T) {
	const d2020 = `"$schema": "https://json-schema.org/draft/2020-12/schema"`
	const d07 = `"$schema": "http://json-schema.org/draft-07/schema#"`
	deep := strings.Repeat("[", 20) + "1" + strings.Repeat("]", 20)
	deepDoc := "{" + d2020 + ",\n" + `"$defs": {"A": {"const": ` + deep + "}}}"
	// Levels: document 0, $defs 1, A 2, the first "[" 3: the eighth "[" is
	// the first value deeper than 10 levels allowed (0..9).
	deepLine := strings.Split(deepDoc, "\n")[1]
	deepCol := strings.Index(deepLine, "[") + 1 + 7
	big := "{" + d2020 + `, "$defs": {"A": {"description": "` + strings.Repeat("x", 200) + `"}}}`

	tests := []struct {
		name      string
		in        string
		opts      LoadOptions
		line, col int
		pointer   string
		exact     string   // the whole Error(), when set
		contains  []string // substrings of Error()
	}{
		{name: "empty", in: "",
			exact: "schema: at document root: empty input: expected a JSON Schema document"},
		{name: "whitespace only", in: " \n\t\r\n ",
			exact: "schema: at document root: empty input: expected a JSON Schema document"},
		{name: "not json", in: "not json", line: 1, col: 2,
			contains: []string{"schema:1:2: ", "malformed JSON", "invalid character 'o'"}},
		{name: "bad member value on line 3", in: "{\n  " + d2020 + ",\n  \"$defs\": x\n}", line: 3, col: 12,
			contains: []string{"schema:3:12: ", "malformed JSON", "invalid character 'x'"}},
		{name: "bad array element on line 3", in: "{\n  " + d2020 + ",\n  \"$defs\": [1,,2]\n}", line: 3, col: 15,
			contains: []string{"schema:3:15: ", "malformed JSON", "invalid character ','"}},
		{name: "missing comma on line 3", in: "{\n  " + d2020 + "\n  \"$defs\": {}\n}", line: 3, col: 3,
			contains: []string{"schema:3:3: ", "malformed JSON"}},
		{name: "truncated", in: `{"$defs": {`, line: 1, col: 12,
			contains: []string{"schema:1:12: ", "unexpected end of input"}},
		{name: "trailing data", in: `{"$defs": {}} x`, line: 1, col: 15,
			contains: []string{"schema:1:15: ", "malformed JSON", "after top-level value"}},
		{name: "array document", in: `[{"$defs": {}}]`,
			exact: "schema: at document root: a schema document must be a JSON object"},
		{name: "string document", in: `"schema"`,
			exact: "schema: at document root: a schema document must be a JSON object"},
		{name: "no $schema and no definitions", in: `{"type": "object"}`,
			contains: []string{`no "$schema" and no definitions`}},
		{name: "unknown dialect", in: `{"$schema": "https://json-schema.org/draft/2019-09/schema", "$defs": {}}`, pointer: "/$schema",
			exact: `schema: at /$schema: unsupported JSON Schema dialect "https://json-schema.org/draft/2019-09/schema" (supported: draft-07, 2020-12)`},
		{name: "$schema not a string", in: `{"$schema": 7, "$defs": {}}`, pointer: "/$schema",
			contains: []string{`"$schema" must be a string`}},
		// A reference is a pointer into the document: it resolves where it
		// points, in either dialect, or not at all.
		{name: "draft-07 definitions with dangling $defs refs", in: `{` + d07 + `, "definitions": {"A": {"properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "string"}}}`,
			pointer: "/definitions/A/properties/b/$ref",
			exact:   `schema: at /definitions/A/properties/b/$ref: dangling reference "#/$defs/B": the document has no "$defs" with B; it is under "definitions" ("#/definitions/B")`},
		{name: "2020-12 $defs with dangling definitions refs", in: `{` + d2020 + `, "$defs": {"A": {"items": {"$ref": "#/definitions/A"}}}}`,
			pointer: "/$defs/A/items/$ref", contains: []string{`dangling reference "#/definitions/A"`, `it is under "$defs"`}},
		{name: "draft-07 $defs with dangling definitions refs", in: `{` + d07 + `, "$defs": {"A": {"not": {"$ref": "#/definitions/Gone"}}}}`,
			pointer: "/$defs/A/not/$ref", exact: `schema: at /$defs/A/not/$ref: dangling reference "#/definitions/Gone": no such definition`},
		{name: "one name under both keywords", in: `{` + d07 + `, "definitions": {"A": {}}, "$defs": {"A": {"type": "string"}}}`,
			pointer: "/definitions/A", contains: []string{`definition "A" is under both "$defs" and "definitions"`}},
		{name: "no definitions", in: `{` + d2020 + `}`,
			exact: `schema: at document root: no "$defs" or "definitions": the document defines nothing`},
		{name: "draft-07 without definitions", in: `{` + d07 + `, "properties": {}}`,
			exact: `schema: at document root: no "definitions" or "$defs": the document defines nothing`},
		{name: "draft-07 $defs not an object", in: `{` + d07 + `, "definitions": {}, "$defs": 3}`, pointer: "/$defs",
			contains: []string{"definitions must be an object"}},
		{name: "definitions not an object", in: `{` + d2020 + `, "$defs": []}`, pointer: "/$defs",
			contains: []string{"definitions must be an object"}},
		{name: "required is a number", in: `{` + d2020 + `, "$defs": {"A": {"type": "object", "required": 5}}}`, pointer: "/$defs/A/required",
			exact: `schema: at /$defs/A/required: "required" must be an array of strings`},
		{name: "required holds a number", in: `{` + d2020 + `, "$defs": {"A": {"required": ["a", 5]}}}`, pointer: "/$defs/A/required/1",
			contains: []string{`"required" must be an array of strings`}},
		{name: "type is a number", in: `{` + d2020 + `, "$defs": {"A": {"properties": {"x": {"type": 7}}}}}`, pointer: "/$defs/A/properties/x/type",
			exact: `schema: at /$defs/A/properties/x/type: "type" must be a string or an array of strings`},
		{name: "unknown type name", in: `{` + d2020 + `, "$defs": {"A": {"type": "strin"}}}`, pointer: "/$defs/A/type",
			exact: `schema: at /$defs/A/type: unknown type "strin"`},
		{name: "unknown type name in an array", in: `{` + d2020 + `, "$defs": {"A": {"type": ["string", "float"]}}}`, pointer: "/$defs/A/type",
			contains: []string{`unknown type "float"`}},
		{name: "empty type array", in: `{` + d2020 + `, "$defs": {"A": {"type": []}}}`, pointer: "/$defs/A/type",
			contains: []string{`"type" must not be an empty array`}},
		{name: "dangling $ref", in: `{` + d2020 + `, "$defs": {"A": {"properties": {"x": {"$ref": "#/$defs/Nope"}}}}}`, pointer: "/$defs/A/properties/x/$ref",
			exact: `schema: at /$defs/A/properties/x/$ref: dangling reference "#/$defs/Nope": no such definition`},
		{name: "dangling $ref in draft-07", in: `{` + d07 + `, "definitions": {"A": {"properties": {"x": {"$ref": "#/definitions/Nope"}}}}}`, pointer: "/definitions/A/properties/x/$ref",
			contains: []string{`dangling reference "#/definitions/Nope"`}},
		{name: "non-local $ref", in: `{` + d2020 + `, "$defs": {"A": {"$ref": "other.json#/x"}}}`, pointer: "/$defs/A/$ref",
			contains: []string{`unsupported reference "other.json#/x"`, "#/$defs/Name"}},
		{name: "$ref into a definition", in: `{` + d2020 + `, "$defs": {"A": {"properties": {"x": {}}}, "B": {"$ref": "#/$defs/A/properties/x"}}}`, pointer: "/$defs/B/$ref",
			contains: []string{`unsupported reference "#/$defs/A/properties/x"`}},
		{name: "$ref not a string", in: `{` + d2020 + `, "$defs": {"A": {"$ref": 1}}}`, pointer: "/$defs/A/$ref",
			contains: []string{`"$ref" must be a string`}},
		{name: "schema not an object", in: `{` + d2020 + `, "$defs": {"A": {"items": 3}}}`, pointer: "/$defs/A/items",
			contains: []string{"a schema must be an object or a boolean"}},
		{name: "empty anyOf", in: `{` + d2020 + `, "$defs": {"A": {"anyOf": []}}}`, pointer: "/$defs/A/anyOf",
			contains: []string{`"anyOf" must be a non-empty array of schemas`}},
		{name: "too deep", in: deepDoc, opts: LoadOptions{MaxDepth: 10}, line: 2, col: deepCol,
			contains: []string{fmt.Sprintf("schema:2:%d: ", deepCol), "nesting deeper than 10 levels", "-max-depth"}},
		{name: "too deep at a member value", in: `{` + d2020 + `, "$defs": {"A": {"not": {}}}}`, opts: LoadOptions{MaxDepth: 3},
			line: 1, col: len(`{`+d2020+`, "$defs": {"A": {"not": `) + 1,
			contains: []string{"nesting deeper than 3 levels", "-max-depth"}},
		{name: "too big", in: big, opts: LoadOptions{MaxBytes: 100},
			exact: fmt.Sprintf("schema: at document root: schema is %d bytes, more than the limit of 100 (raise it with -max-bytes)", len(big))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Load([]byte(tc.in), tc.opts)
			if err == nil {
				t.Fatalf("Load(%q) = %d definitions, want an error", tc.in, len(doc.Defs))
			}
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("Load(%q) error is %T (%v), want *LoadError", tc.in, err, err)
			}
			msg := err.Error()
			if le.Line != tc.line || le.Column != tc.col || le.Pointer != tc.pointer {
				t.Errorf("position: line %d column %d pointer %q, want line %d column %d pointer %q\nerror: %s",
					le.Line, le.Column, le.Pointer, tc.line, tc.col, tc.pointer, msg)
			}
			if tc.exact != "" && msg != tc.exact {
				t.Errorf("Error() = %s\n           want %s", msg, tc.exact)
			}
			for _, s := range tc.contains {
				if !strings.Contains(msg, s) {
					t.Errorf("Error() = %s\nwant it to contain %s", msg, s)
				}
			}
			if tc.pointer != "" && !strings.Contains(msg, "at "+tc.pointer+": ") {
				t.Errorf("Error() = %s, want it to name the pointer %s", msg, tc.pointer)
			}
		})
	}

	// The limits are limits, not fixed sizes: the same documents load with
	// room to spare.
	if _, err := Load([]byte(deepDoc), LoadOptions{MaxDepth: 23}); err != nil {
		t.Errorf("Load with MaxDepth 23 (the document's depth is 23): %v", err)
	}
	if _, err := Load([]byte(deepDoc), LoadOptions{MaxDepth: 22}); err == nil {
		t.Error("Load with MaxDepth 22 accepted a document 23 levels deep")
	}
	if _, err := Load([]byte(big), LoadOptions{MaxBytes: len(big)}); err != nil {
		t.Errorf("Load with MaxBytes = its size: %v", err)
	}
}

// refPattern finds the references in a marshalled schema.
var refPattern = regexp.MustCompile(`"\$ref":"([^"]*)"`)

// checkSelection checks the selection from schema data (a revision's, raw).
func checkSelection(t *testing.T, what string, data []byte, sel *Selection) {
	t.Helper()
	if got := sel.Names[:min(3, len(sel.Names))]; !slices.Equal(got, []string{"Root", "ListRootsRequest", "ListRootsResult"}) {
		t.Errorf("%s: Names start with %q, want Root, ListRootsRequest, ListRootsResult", what, got)
	}
	seen := map[string]bool{}
	for _, n := range sel.Names {
		if seen[n] {
			t.Errorf("%s: %s selected twice", what, n)
		}
		seen[n] = true
		if sel.Defs[n] == nil {
			t.Errorf("%s: %s is in Names but not in Defs", what, n)
		}
	}
	if len(sel.Defs) != len(seen) {
		t.Errorf("%s: %d Defs for %d Names", what, len(sel.Defs), len(seen))
	}
	// Every schema with the notification has it selected (2026-07-28 has none).
	wantNotification := slices.Contains(rawDefinitionNames(t, data), "RootsListChangedNotification")
	if seen["RootsListChangedNotification"] != wantNotification {
		t.Errorf("%s: RootsListChangedNotification selected = %v, want %v", what, seen["RootsListChangedNotification"], wantNotification)
	}
	// The selection is closed under references.
	for _, n := range sel.Names {
		for _, m := range refPattern.FindAllStringSubmatch(mustJSON(sel.Defs[n]), -1) {
			if target := RefName(m[1]); !seen[target] {
				t.Errorf("%s: %s references %s, which is not selected", what, n, m[1])
			}
		}
	}
}

func TestSelect(t *testing.T) {
	for _, tc := range loadTestRevisions {
		t.Run("embedded/"+tc.rev, func(t *testing.T) {
			data, err := schema.Open(tc.rev)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Load(data, LoadOptions{})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			sel, err := Select(doc)
			if err != nil {
				t.Fatalf("Select: %v", err)
			}
			checkSelection(t, "embedded "+tc.rev, data, sel)
		})
		t.Run("upstream/"+tc.rev, func(t *testing.T) {
			data := readUpstreamSchema(t, tc.rev)
			doc, err := Load(data, LoadOptions{})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			sel, err := Select(doc)
			if err != nil {
				t.Fatalf("Select: %v", err)
			}
			what := "upstream " + tc.rev
			checkSelection(t, what, data, sel)

			for _, n := range []string{"Root", "ListRootsRequest", "ListRootsResult"} {
				if sel.Partial(n) {
					t.Errorf("%s: Partial(%s) = true, want the whole definition", what, n)
				}
				if sel.Defs[n] != doc.Defs[n] {
					t.Errorf("%s: the selected %s is not the loaded definition", what, n)
				}
			}
			caps := sel.Defs["ClientCapabilities"]
			if caps == nil {
				t.Fatalf("%s: ClientCapabilities not selected", what)
			}
			if got := propertyNames(caps); !slices.Equal(got, []string{"roots"}) {
				t.Errorf("%s: selected ClientCapabilities has properties %q, want only roots", what, got)
			}
			if !sel.Partial("ClientCapabilities") {
				t.Errorf("%s: Partial(ClientCapabilities) = false, want true", what)
			}
			if full := propertyNames(doc.Defs["ClientCapabilities"]); len(full) < 2 || !slices.Contains(full, "roots") {
				t.Errorf("%s: Select changed the loaded ClientCapabilities: properties now %q", what, full)
			}

			if tc.rev != "2026-07-28" {
				return
			}
			in := sel.Defs["InputRequest"]
			if in == nil {
				t.Fatalf("%s: InputRequest not selected (names %q)", what, sel.Names)
			}
			if len(in.AnyOf) != 1 || in.AnyOf[0].Ref != "#/$defs/ListRootsRequest" {
				t.Errorf("%s: InputRequest.anyOf = %s, want exactly one arm referencing ListRootsRequest", what, mustJSON(in.AnyOf))
			}
			if !sel.Partial("InputRequest") {
				t.Errorf("%s: Partial(InputRequest) = false, want true", what)
			}
			if n := len(doc.Defs["InputRequest"].AnyOf); n < 2 {
				t.Errorf("%s: Select changed the loaded InputRequest: %d arms left", what, n)
			}
			if out := sel.Defs["InputResponse"]; out == nil || len(out.AnyOf) != 1 || out.AnyOf[0].Ref != "#/$defs/ListRootsResult" {
				t.Errorf("%s: InputResponse = %s, want exactly one arm referencing ListRootsResult", what, mustJSON(out))
			}
			for _, n := range []string{"InputRequiredResult", "InputResponseRequestParams", "MissingRequiredClientCapabilityError", "RequestMetaObject"} {
				if sel.Defs[n] == nil {
					t.Errorf("%s: %s not selected", what, n)
				}
			}
		})
	}

	t.Run("missing definitions", func(t *testing.T) {
		doc := mustLoad(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
  "ListRootsRequest": {"type": "object"}, "ListRootsResultX": {"type": "object"}, "RootsListChangedNotification": {"type": "object"}
}}`)
		sel, err := Select(doc)
		if err == nil {
			t.Fatalf("Select = %q, want an error", sel.Names)
		}
		var mde *MissingDefinitionsError
		if !errors.As(err, &mde) {
			t.Fatalf("Select error is %T (%v), want *MissingDefinitionsError", err, err)
		}
		if want := []string{"Root", "ListRootsResult"}; !slices.Equal(mde.Missing, want) {
			t.Errorf("Missing = %q, want %q", mde.Missing, want)
		}
		if want := "missing definition(s) Root, ListRootsResult"; !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Error() = %q, want it to end with %q", err.Error(), want)
		}
	})
}

// TestDefinitionsKeywordEitherDialect: an embedded schema with its
// definitions moved to the other keyword ("definitions" to "$defs" in the
// draft-07 one, the reverse in the 2020-12 one), references along, is the
// same schema, so it generates the same package (the header's digest
// aside); moving the definitions but not the references is refused.
func TestDefinitionsKeywordEitherDialect(t *testing.T) {
	for _, rev := range schema.Revisions() {
		t.Run(rev, func(t *testing.T) {
			data, err := schema.Open(rev)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Load(data, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			from, to := "definitions", "$defs"
			if doc.Dialect == "2020-12" {
				from, to = to, from
			}
			if bytes.Contains(data, []byte(`"`+to+`"`)) {
				t.Fatalf("the embedded schema already holds %q", to)
			}
			keyword := bytes.ReplaceAll(data, []byte(`"`+from+`":`), []byte(`"`+to+`":`))
			both := bytes.ReplaceAll(keyword, []byte(`"#/`+from+`/`), []byte(`"#/`+to+`/`))
			want := generateRevision(t, rev, data)
			got := generateRevision(t, rev, both)
			if len(got) != len(want) {
				t.Fatalf("%d files with %q, %d with %q", len(got), to, len(want), from)
			}
			for i := range want {
				_, w, _ := bytes.Cut(want[i].Content, []byte("\n"))
				_, g, _ := bytes.Cut(got[i].Content, []byte("\n"))
				if got[i].Name != want[i].Name || !bytes.Equal(g, w) {
					t.Errorf("%s differs with the definitions under %q:\n%s", want[i].Name, to, firstDifference(w, g))
				}
			}
			_, _, err = Generate(Options{Revision: rev, Schema: keyword, Package: "roots"})
			var le *LoadError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), "dangling reference \"#/"+from+"/") {
				t.Errorf("definitions under %q, references to %q: error %v, want a dangling reference", to, from, err)
			}
		})
	}
}
