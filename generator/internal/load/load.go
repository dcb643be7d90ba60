// Package load is the first stage of the generator: it reads a schema
// file, within limits, and normalizes it into one dialect-free Document,
// whatever dialect the file was written in.
package load

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"
)

// Dialects the loader understands, by the value of "$schema".
var dialects = map[string]string{
	"http://json-schema.org/draft-07/schema#":      "draft-07",
	"http://json-schema.org/draft-07/schema":       "draft-07",
	"https://json-schema.org/draft-07/schema#":     "draft-07",
	"https://json-schema.org/draft-07/schema":      "draft-07",
	"https://json-schema.org/draft/2020-12/schema": "2020-12",
	"http://json-schema.org/draft/2020-12/schema":  "2020-12",
}

// defsKeyword is the keyword each dialect keeps its definitions under.
var defsKeyword = map[string]string{"draft-07": "definitions", "2020-12": "$defs"}

// otherDefsKeyword is "$defs" for "definitions" and the reverse.
func otherDefsKeyword(key string) string {
	if key == "$defs" {
		return "definitions"
	}
	return "$defs"
}

// Options bound the work the loader does on untrusted input.
type Options struct {
	// MaxBytes is the largest schema accepted. Zero means DefaultMaxBytes.
	MaxBytes int
	// MaxDepth is the deepest nesting of JSON values accepted, at most
	// MaxMaxDepth. Zero means DefaultMaxDepth.
	MaxDepth int
	// MaxEnum is the most values an "enum" may list. Zero means
	// DefaultMaxEnum.
	MaxEnum int
}

// Default limits of the loader.
const (
	DefaultMaxBytes = 4 << 20
	DefaultMaxDepth = 256
	DefaultMaxEnum  = 1024
	// MaxMaxDepth bounds MaxDepth: the JSON schema library decodes each
	// level again for the one above, so its time and memory grow with the
	// square of the depth (a 10,000-level file takes gigabytes).
	MaxMaxDepth = 1000
)

// Document is a schema file after loading and normalization: one dialect-free
// model whatever dialect the file was written in.
type Document struct {
	// Dialect is "draft-07" or "2020-12".
	Dialect string
	// Defs are the definitions, each a normalized schema (see Load).
	Defs map[string]*jsonschema.Schema
	// Order lists the definition names in the order the file has them.
	Order []string
	// SHA256 is the digest of the file as read.
	SHA256 [sha256.Size]byte
	// Size is the file's length in bytes.
	Size int
}

// An Error is a schema that cannot be loaded, with where it went wrong: a
// line and column for malformed JSON, a JSON pointer for a schema that is
// well-formed JSON but not one the loader can use.
type Error struct {
	File         string // the schema's file name, if known; "schema" when empty
	Line, Column int    // 1-based; zero when Pointer is set
	Pointer      string // JSON pointer into the input
	Msg          string
}

func (e *Error) Error() string {
	name := e.File
	if name == "" {
		name = "schema"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", name, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s: at %s: %s", name, displayPointer(e.Pointer), e.Msg)
}

func displayPointer(p string) string {
	if p == "" {
		return "document root"
	}
	return p
}

// Load parses a JSON Schema document written in draft-07 or 2020-12 and
// normalizes it so that the rest of the generator sees one dialect:
//
//   - the top-level definitions, under "definitions", "$defs" or both, become
//     one "$defs", and every reference becomes "#/$defs/X";
//   - a "type" array becomes an "anyOf" of single-type schemas;
//   - the boolean schemas true and false become {} and {"not": {}}.
//
// Definitions are found the same way in both dialects: a reference is a
// JSON pointer into the document, so "#/$defs/X" must name X under "$defs"
// and "#/definitions/X" X under "definitions", whichever dialect "$schema"
// declares (draft-07 files that keep their definitions under "$defs" are
// common). A reference to a definition that is not where it points is
// refused, as is a name defined under both keywords.
//
// invopop/jsonschema, which holds the result, would otherwise load a draft-07
// file as having no definitions and reject "type" arrays.
func Load(data []byte, opts Options) (*Document, error) {
	if opts.MaxBytes == 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxDepth == 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxEnum == 0 {
		opts.MaxEnum = DefaultMaxEnum
	}
	if opts.MaxDepth > MaxMaxDepth {
		return nil, &Error{Msg: fmt.Sprintf("a depth limit of %d is over the most rootsgen takes, %d", opts.MaxDepth, MaxMaxDepth)}
	}
	if len(data) > opts.MaxBytes {
		return nil, &Error{Msg: fmt.Sprintf("schema is %d bytes, more than the limit of %d (raise it with -max-bytes)", len(data), opts.MaxBytes)}
	}
	root, err := parseOrdered(data, opts.MaxDepth, opts.MaxBytes/bytesPerValue)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, &Error{Msg: "a schema document must be a JSON object"}
	}
	dialect, err := readDialect(root)
	if err != nil {
		return nil, err
	}
	n := &normalizer{defsKey: defsKeyword[dialect], defs: map[string]*node{}, maxEnum: opts.MaxEnum}
	var order []string
	for i, key := range root.keys {
		if key != "$defs" && key != "definitions" {
			continue
		}
		defs := root.vals[i]
		if defs.kind != '{' {
			return nil, &Error{Pointer: "/" + key, Msg: "definitions must be an object"}
		}
		for _, name := range defs.keys {
			if other := root.get(otherDefsKeyword(key)); other != nil && other.get(name) != nil {
				return nil, &Error{Pointer: "/" + key + "/" + escapePointer(name),
					Msg: fmt.Sprintf("definition %q is under both %q and %q: one name, one definition", name, "$defs", "definitions")}
			}
		}
		n.defs[key] = defs
		order = append(order, defs.keys...)
	}
	if len(n.defs) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("no %q or %q: the document defines nothing", n.defsKey, otherDefsKeyword(n.defsKey))}
	}
	norm := n.schema(root, "")
	if n.err != nil {
		return nil, n.err
	}
	var buf bytes.Buffer
	norm.encode(&buf)
	var top jsonschema.Schema
	if err := json.Unmarshal(buf.Bytes(), &top); err != nil {
		// The normalizer checks the keywords the generator reads, so this is
		// a keyword of a shape it does not check.
		return nil, &Error{Msg: "schema keywords of an unexpected shape: " + err.Error()}
	}
	doc := &Document{Dialect: dialect, Defs: top.Definitions, SHA256: sha256.Sum256(data), Size: len(data), Order: order}
	if doc.Defs == nil {
		doc.Defs = map[string]*jsonschema.Schema{}
	}
	return doc, nil
}

func readDialect(root *node) (string, error) {
	s := root.get("$schema")
	if s == nil {
		// No declaration: go by where the definitions are.
		switch {
		case root.get("$defs") != nil:
			return "2020-12", nil
		case root.get("definitions") != nil:
			return "draft-07", nil
		}
		return "", &Error{Msg: `no "$schema" and no definitions: not a schema document`}
	}
	var uri string
	if s.kind != 's' || json.Unmarshal(s.scalar, &uri) != nil {
		return "", &Error{Pointer: "/$schema", Msg: `"$schema" must be a string`}
	}
	d, ok := dialects[uri]
	if !ok {
		return "", &Error{Pointer: "/$schema", Msg: fmt.Sprintf("unsupported JSON Schema dialect %q (supported: draft-07, 2020-12)", uri)}
	}
	return d, nil
}

// Keywords whose value is a schema, an array of schemas, or an object of schemas.
var (
	schemaKeywords      = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "additionalItems", "unevaluatedProperties", "unevaluatedItems", "contentSchema"}
	schemaListKeywords  = []string{"anyOf", "allOf", "oneOf", "prefixItems"}
	schemaMapKeywords   = []string{"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
	primitiveTypeNames  = []string{"string", "integer", "number", "boolean", "object", "array", "null"}
	stringValueKeywords = []string{"$ref", "format", "description", "title", "$comment", "$schema", "$id"}
)

// modelKeywords are the keywords the schema model decodes.
var modelKeywords = sync.OnceValue(func() []string {
	var out []string
	t := reflect.TypeFor[jsonschema.Schema]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
})

// isKeywordMisspelled reports whether key is a keyword of the schema model
// spelled in another case ("AllOf", or "propertieſ" with a long s), which
// JSON Schema does not recognise but encoding/json, folding case the way
// strings.EqualFold does, would decode as that keyword.
func isKeywordMisspelled(key string) bool {
	return slices.ContainsFunc(modelKeywords(), func(k string) bool { return k != key && strings.EqualFold(k, key) })
}

type normalizer struct {
	defsKey string           // the dialect's own definitions keyword, for messages
	defs    map[string]*node // the top-level definitions by keyword ("$defs", "definitions")
	err     error
	merged  *node // the normalized definitions of both keywords, as "$defs"
	maxEnum int   // the most values of an "enum" (see Options)
}

func (n *normalizer) fail(ptr, format string, args ...any) *node {
	if n.err == nil {
		n.err = &Error{Pointer: ptr, Msg: fmt.Sprintf(format, args...)}
	}
	return &node{kind: '{'}
}

// schema normalizes the schema at ptr and returns a new node.
func (n *normalizer) schema(s *node, ptr string) *node {
	if n.err != nil {
		return &node{kind: '{'}
	}
	switch s.kind {
	case 'b':
		if string(s.scalar) == "true" {
			return &node{kind: '{'}
		}
		return &node{kind: '{', keys: []string{"not"}, vals: []*node{{kind: '{'}}}
	case '{':
	default:
		return n.fail(ptr, "a schema must be an object or a boolean")
	}
	out := &node{kind: '{'}
	var types []string
	for i, key := range s.keys {
		val := s.vals[i]
		at := ptr + "/" + escapePointer(key)
		switch {
		case key == "definitions" || key == "$defs":
			if ptr != "" {
				// Nested definitions are not referenced by the loader's refs.
				continue
			}
			n.definitions(out, val, at)
		case slices.Contains(schemaMapKeywords, key):
			out.set(key, n.schemaMap(val, at))
		case slices.Contains(schemaKeywords, key):
			if key == "items" && val.kind == '[' {
				n.fail(at, "tuple-form \"items\" is not supported")
				continue
			}
			out.set(key, n.schema(val, at))
		case slices.Contains(schemaListKeywords, key):
			if list := n.schemaList(key, val, at); list != nil {
				out.set(key, list)
			}
		case key == "enum" && val.kind == '[' && len(val.elems) > n.maxEnum:
			// Each value becomes a constant and a case: the package would
			// grow with the list, however small the file is otherwise.
			n.fail(at, "an enum of %d values, more than the limit of %d (raise it with -max-enum)", len(val.elems), n.maxEnum)
		case key == "type":
			types = n.types(val, at)
		case key == "required":
			if n.required(val, at) {
				out.set(key, val)
			}
		case key == "$ref":
			out.set(key, n.ref(val, at))
		case slices.Contains(stringValueKeywords, key):
			if val.kind != 's' {
				n.fail(at, "%q must be a string", key)
				continue
			}
			out.set(key, val)
		case isKeywordMisspelled(key):
			// An unknown keyword is an annotation with no effect, but the
			// schema model decodes "AllOf" as "allOf" (encoding/json
			// matches names without case): drop it so it stays without one.
		default:
			out.set(key, val)
		}
	}
	setTypes(out, types)
	return out
}

// definitions normalizes val, top-level definitions at ptr, into the
// ones out has: both keywords' definitions go into one "$defs" (Load
// refuses a name under both).
func (n *normalizer) definitions(out, val *node, ptr string) {
	defs := n.schemaMap(val, ptr)
	if n.merged == nil {
		n.merged = &node{kind: '{'}
		out.set("$defs", n.merged)
	}
	for j, k := range defs.keys {
		n.merged.set(k, defs.vals[j])
	}
}

// schemaList normalizes val, the array of schemas of keyword key at ptr,
// and returns a new node; nil, having failed, if val is not a non-empty
// array.
func (n *normalizer) schemaList(key string, val *node, ptr string) *node {
	if val.kind != '[' || len(val.elems) == 0 {
		n.fail(ptr, "%q must be a non-empty array of schemas", key)
		return nil
	}
	list := &node{kind: '['}
	for j, e := range val.elems {
		list.elems = append(list.elems, n.schema(e, fmt.Sprintf("%s/%d", ptr, j)))
	}
	return list
}

// required checks that val, the "required" keyword at ptr, is an array of
// strings, failing at each member that is not a string, and reports
// whether it is an array, and so kept.
func (n *normalizer) required(val *node, ptr string) bool {
	if val.kind != '[' {
		n.fail(ptr, `"required" must be an array of strings`)
		return false
	}
	for j, e := range val.elems {
		if e.kind != 's' {
			n.fail(fmt.Sprintf("%s/%d", ptr, j), `"required" must be an array of strings`)
		}
	}
	return true
}

// setTypes writes types, the names of the "type" keyword, into out: one
// name as "type", several as an anyOf of one "type" each.
func setTypes(out *node, types []string) {
	switch len(types) {
	case 0:
	case 1:
		out.set("type", stringNode(types[0]))
	default:
		arms := &node{kind: '['}
		for _, t := range types {
			arms.elems = append(arms.elems, &node{kind: '{', keys: []string{"type"}, vals: []*node{stringNode(t)}})
		}
		if prev := out.get("anyOf"); prev != nil {
			// Keep both constraints: the value must satisfy each anyOf.
			out.del("anyOf")
			out.set("allOf", &node{kind: '[', elems: []*node{
				{kind: '{', keys: []string{"anyOf"}, vals: []*node{arms}},
				{kind: '{', keys: []string{"anyOf"}, vals: []*node{prev}},
			}})
		} else {
			out.set("anyOf", arms)
		}
	}
}

func (n *normalizer) schemaMap(m *node, ptr string) *node {
	if m.kind != '{' {
		return n.fail(ptr, "must be an object whose values are schemas")
	}
	out := &node{kind: '{'}
	for i, k := range m.keys {
		out.set(k, n.schema(m.vals[i], ptr+"/"+escapePointer(k)))
	}
	return out
}

func (n *normalizer) types(val *node, ptr string) []string {
	var names []string
	switch val.kind {
	case 's':
		var s string
		_ = json.Unmarshal(val.scalar, &s)
		names = []string{s}
	case '[':
		for _, e := range val.elems {
			var s string
			if e.kind != 's' || json.Unmarshal(e.scalar, &s) != nil {
				n.fail(ptr, `"type" must be a string or an array of strings`)
				return nil
			}
			if slices.Contains(names, s) {
				n.fail(ptr, "%q appears twice in \"type\"", s)
				return nil
			}
			names = append(names, s)
		}
		if len(names) == 0 {
			n.fail(ptr, `"type" must not be an empty array`)
			return nil
		}
	default:
		n.fail(ptr, `"type" must be a string or an array of strings`)
		return nil
	}
	for _, s := range names {
		if !slices.Contains(primitiveTypeNames, s) {
			n.fail(ptr, "unknown type %q", s)
			return nil
		}
	}
	return names
}

// ref rewrites a local reference to "#/$defs/Name" form.
func (n *normalizer) ref(val *node, ptr string) *node {
	var ref string
	if val.kind != 's' || json.Unmarshal(val.scalar, &ref) != nil {
		return n.fail(ptr, `"$ref" must be a string`)
	}
	for _, key := range []string{"definitions", "$defs"} {
		if name, ok := strings.CutPrefix(ref, "#/"+key+"/"); ok && name != "" && !strings.Contains(name, "/") {
			name = unescapePointer(name)
			if defs := n.defs[key]; defs != nil && defs.get(name) != nil {
				return stringNode("#/$defs/" + name)
			}
			// A reference is a pointer into the document: a definition
			// under the other keyword is not where this one points.
			other := otherDefsKeyword(key)
			if defs := n.defs[other]; defs != nil && defs.get(name) != nil {
				return n.fail(ptr, "dangling reference %q: the document has no %q with %s; it is under %q (\"#/%s/%s\")", ref, key, name, other, other, escapePointer(name))
			}
			return n.fail(ptr, "dangling reference %q: no such definition", ref)
		}
	}
	n.fail(ptr, "unsupported reference %q: only references to top-level definitions (#/%s/Name) are supported", ref, n.defsKey)
	return val
}

// RefName returns the definition a normalized "$ref" points at.
func RefName(ref string) string { return strings.TrimPrefix(ref, "#/$defs/") }

// node is a JSON value that keeps the order of object keys, which
// encoding/json's map decoding loses.
type node struct {
	kind   byte // '{' object, '[' array, 's' string, 'n' number, 'b' boolean, '0' null
	keys   []string
	vals   []*node
	elems  []*node
	scalar json.RawMessage
	// index maps keys to their position once an object has many, so that
	// a schema with a wide object loads in linear time.
	index map[string]int
}

// indexFrom is the number of keys from which an object keeps an index.
const indexFrom = 16

func (v *node) find(key string) int {
	if v.index == nil && len(v.keys) >= indexFrom {
		v.index = make(map[string]int, len(v.keys))
		for i, k := range v.keys {
			v.index[k] = i
		}
	}
	if v.index != nil {
		if i, ok := v.index[key]; ok {
			return i
		}
		return -1
	}
	return slices.Index(v.keys, key)
}

func stringNode(s string) *node {
	b, _ := json.Marshal(s)
	return &node{kind: 's', scalar: b}
}

func (v *node) get(key string) *node {
	if i := v.find(key); i >= 0 {
		return v.vals[i]
	}
	return nil
}

// set adds key, or replaces its value where it is already present (JSON's
// last-one-wins rule for duplicate keys).
func (v *node) set(key string, val *node) {
	if i := v.find(key); i >= 0 {
		v.vals[i] = val
		return
	}
	if v.index != nil {
		v.index[key] = len(v.keys)
	}
	v.keys = append(v.keys, key)
	v.vals = append(v.vals, val)
}

func (v *node) del(key string) {
	if i := v.find(key); i >= 0 {
		v.keys = slices.Delete(v.keys, i, i+1)
		v.vals = slices.Delete(v.vals, i, i+1)
		v.index = nil // positions moved; rebuilt on the next lookup
	}
}

func (v *node) encode(buf *bytes.Buffer) {
	switch v.kind {
	case '{':
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			buf.Write(kb)
			buf.WriteByte(':')
			v.vals[i].encode(buf)
		}
		buf.WriteByte('}')
	case '[':
		buf.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				buf.WriteByte(',')
			}
			e.encode(buf)
		}
		buf.WriteByte(']')
	default:
		buf.Write(v.scalar)
	}
}

// parseOrdered decodes data into a node tree, with line:column positions on
// syntax errors and a bound on nesting depth.
// bytesPerValue is the bytes of -max-bytes a JSON value of the schema
// costs: a document of MaxBytes may hold MaxBytes/bytesPerValue values. A
// value costs the loader some 200 bytes of memory, whatever its text; real
// schemas spend over 20 bytes of text on each.
const bytesPerValue = 8

func parseOrdered(data []byte, maxDepth, maxValues int) (*node, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{Msg: "empty input: expected a JSON Schema document"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &jsonParser{dec: dec, data: data, maxDepth: maxDepth, maxValues: maxValues}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, p.syntax(errors.New("unexpected data after the top-level value"))
	}
	return v, nil
}

type jsonParser struct {
	dec       *json.Decoder
	data      []byte
	maxDepth  int
	maxValues int // 0: no limit
	values    int
}

func (p *jsonParser) errorAt(off int64, msg string) *Error {
	line, col := 1, 1
	for _, c := range p.data[:min(int(off), len(p.data))] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &Error{Line: line, Column: col, Msg: msg}
}

// syntax reports malformed JSON at the offending character. The streaming
// decoder's offsets are those of its buffer, so the position comes from
// encoding/json's whole-input validation, which stops at the same error.
func (p *jsonParser) syntax(err error) error {
	var v any
	verr := json.Unmarshal(p.data, &v)
	var se *json.SyntaxError
	switch {
	case errors.As(verr, &se) && se.Error() == "unexpected end of JSON input":
		return p.errorAt(int64(len(p.data)), "malformed JSON: unexpected end of input")
	case errors.As(verr, &se):
		return p.errorAt(se.Offset-1, "malformed JSON: "+se.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return p.errorAt(int64(len(p.data)), "malformed JSON: unexpected end of input")
	}
	return p.errorAt(p.dec.InputOffset(), "malformed JSON: "+err.Error())
}

// tokenStart skips the white space and separators that precede the next
// token from off, so that a position names the token itself.
func (p *jsonParser) tokenStart(off int64) int64 {
	for off < int64(len(p.data)) && strings.IndexByte(" \t\r\n,:", p.data[off]) >= 0 {
		off++
	}
	return off
}

func (p *jsonParser) value(depth int) (*node, error) {
	start := p.dec.InputOffset()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(err)
	}
	if p.values++; p.maxValues > 0 && p.values > p.maxValues {
		return nil, p.errorAt(p.tokenStart(start), fmt.Sprintf("more than %d JSON values, one per %d bytes of the size limit (raise it with -max-bytes)", p.maxValues, bytesPerValue))
	}
	if d, ok := tok.(json.Delim); ok && depth >= p.maxDepth {
		_ = d
		return nil, p.errorAt(p.tokenStart(start), fmt.Sprintf("nesting deeper than %d levels (raise the limit with -max-depth)", p.maxDepth))
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			obj := &node{kind: '{'}
			for p.dec.More() {
				kt, err := p.dec.Token()
				if err != nil {
					return nil, p.syntax(err)
				}
				key := kt.(string)
				val, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				obj.set(key, val)
			}
			if _, err := p.dec.Token(); err != nil {
				return nil, p.syntax(err)
			}
			return obj, nil
		}
		arr := &node{kind: '['}
		for p.dec.More() {
			e, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr.elems = append(arr.elems, e)
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, p.syntax(err)
		}
		return arr, nil
	case string:
		b, _ := json.Marshal(t)
		return &node{kind: 's', scalar: b}, nil
	case json.Number:
		return &node{kind: 'n', scalar: json.RawMessage(t.String())}, nil
	case bool:
		return &node{kind: 'b', scalar: json.RawMessage(fmt.Sprint(t))}, nil
	default:
		return &node{kind: '0', scalar: json.RawMessage("null")}, nil
	}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
