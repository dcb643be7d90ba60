package rtimpl

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Primitive is a decoded JSON value; of an object or array, only its kind.
type Primitive struct {
	Kind    string // "string", "number", "boolean", "null", "object" or "array"
	S       string
	I       int64
	F       float64
	B       bool
	IsInt   bool   // a number that is exactly an integer in the int64 range
	IsFloat bool   // a number within the range of a float64 (F holds it)
	NotInt  string // why a number is not an integer, for messages
}

// Is reports whether p is a value of the JSON Schema type member.
func (p Primitive) Is(member string) bool {
	switch member {
	case "integer":
		return p.Kind == "number" && p.IsInt
	case "number":
		return p.Kind == "number" && p.IsFloat
	}
	return p.Kind == member
}

func (p Primitive) Describe() string {
	switch {
	case p.Kind == "number" && p.IsInt:
		return "integer"
	case p.Kind == "number" && p.NotInt != "":
		return p.NotInt
	}
	return p.Kind
}

// ScanPrimitive decodes a JSON value that must be whole and valid on its
// own: +5, 007 or tru are errors, as are two values in a row. Integers are
// read exactly, digit by digit, never through a float64: a number is an
// integer when its value is exactly one in the int64 range, so 1.0, 1e3
// and 10e-1 are integers (as JSON Schema says), while
// 1.00000000000000000001, 1e-400 and 9223372036854775808 are not.
func ScanPrimitive(data []byte) (Primitive, error) {
	if err := CheckJSON(data); err != nil {
		return Primitive{}, err
	}
	data = bytes.TrimSpace(data)
	switch c := data[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return Primitive{}, err
		}
		return Primitive{Kind: "string", S: s}, nil
	case c == 't' || c == 'f':
		return Primitive{Kind: "boolean", B: c == 't'}, nil
	case c == 'n':
		return Primitive{Kind: "null"}, nil
	case c == '{':
		return Primitive{Kind: "object"}, nil
	case c == '[':
		return Primitive{Kind: "array"}, nil
	}
	p := Primitive{Kind: "number"}
	p.I, p.NotInt = exactInteger(string(data))
	p.IsInt = p.NotInt == ""
	if f, err := strconv.ParseFloat(string(data), 64); err == nil {
		p.F, p.IsFloat = f, true
	}
	return p, nil
}

// exactInteger returns the value of num, a valid JSON number, when it is
// exactly an integer in the int64 range; otherwise it says why it is not.
func exactInteger(num string) (int64, string) {
	const (
		fractional = "number with a fractional part"
		outOfRange = "integer outside the int64 range"
	)
	if !strings.ContainsAny(num, ".eE") {
		// Plain digits (JSON allows no leading zeros or plus sign).
		i, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return 0, outOfRange
		}
		return i, ""
	}
	mantissa, exponent := strings.TrimPrefix(num, "-"), ""
	if k := strings.IndexAny(mantissa, "eE"); k >= 0 {
		mantissa, exponent = mantissa[:k], mantissa[k+1:]
	}
	whole, fraction, _ := strings.Cut(mantissa, ".")
	// The value is digits × 10^shift.
	digits := strings.TrimLeft(whole+fraction, "0")
	shift := -int64(len(fraction))
	if exponent != "" {
		// Exponents beyond any input's length all mean the same here.
		var e int64
		for _, c := range []byte(strings.TrimLeft(exponent, "+-")) {
			if e < 1<<40 {
				e = e*10 + int64(c-'0')
			}
		}
		if exponent[0] == '-' {
			e = -e
		}
		shift += e
	}
	trimmed := strings.TrimRight(digits, "0")
	shift += int64(len(digits) - len(trimmed))
	switch {
	case trimmed == "":
		return 0, "" // zero, however written: -0, 0.0e5, 0e-999
	case shift < 0:
		return 0, fractional
	case int64(len(trimmed))+shift > 19:
		return 0, outOfRange
	}
	text := trimmed + strings.Repeat("0", int(shift))
	if num[0] == '-' {
		text = "-" + text
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, outOfRange
	}
	return i, ""
}

// MarshalPrimitive writes one member of a union.
func MarshalPrimitive(member string, v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return json.Marshal(x)
	case int64:
		return strconv.AppendInt(nil, x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%v is not a JSON number", x)
		}
		return json.Marshal(x)
	case bool:
		return strconv.AppendBool(nil, x), nil
	}
	return []byte("null"), nil
}

// A DecodeError is JSON that does not fit the type it is decoded into: the
// member at Path (such as "roots[3].uri"; empty for the value itself) of a
// value of Type.
type DecodeError struct {
	Type string // the Go type being decoded, such as "ListRootsResult"
	Path string // the JSON path of the member that does not fit
	Err  error  // what is wrong with it
}

// Error reads "Type: path: what is wrong".
func (e *DecodeError) Error() string {
	if e.Path == "" {
		return e.Type + ": " + e.Err.Error()
	}
	return e.Type + ": " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

var ErrRequired = errors.New("required")

// CheckJSON says what is wrong when data is not one valid JSON value. The
// decoders only delimit the values they walk past, so raw bytes from a
// transport go through it once, where they reach a decoder, and a
// malformed message is reported as such, not as a value of the wrong kind.
func CheckJSON(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	// Only now ask encoding/json what is wrong.
	return fmt.Errorf("malformed JSON: %w", json.Unmarshal(data, new(json.RawMessage)))
}

// MemberError puts a member's name in front of the path of err, so that
// errors from nested values name the whole path from typeName.
func MemberError(typeName, member string, err error) error {
	if de, ok := err.(*DecodeError); ok {
		member, err = joinPath(member, de.Path), de.Err
	}
	return &DecodeError{Type: typeName, Path: member, Err: err}
}

// joinPath is the path of path, a member's ("uri") or an element's ("[2]"),
// in the value at prefix.
func joinPath(prefix, path string) string {
	if path != "" && path[0] != '[' {
		prefix += "."
	}
	return prefix + path
}

// Members walks the members of a JSON object, or the elements of an array
// (with no Key), in place: no map, no copies. Each value is only
// delimited here; the code that decodes it checks it.
type Members struct {
	data  []byte
	pos   int
	close byte // '}', or ']' for an array
	more  bool
	Key   []byte // the member's name, unescaped
	Value []byte // the member's value, as written
	Err   error  // what ended the walk early
}

// ObjectMembers starts a walk over data, which must be a JSON object; for
// JSON null it reports isNull and the walk is empty.
func ObjectMembers(data []byte) (m Members, isNull bool, err error) {
	i := SkipSpace(data, 0)
	if IsNullValue(data[i:]) {
		return m, true, nil
	}
	if i == len(data) || data[i] != '{' {
		return m, false, fmt.Errorf("want a JSON object, got %s", KindOf(data[i:]))
	}
	return Members{data: data, pos: i + 1, close: '}'}, false, nil
}

// Next moves to the next member or element, setting Key and Value; it
// returns false at the end or on malformed JSON (then Err is set).
func (m *Members) Next() bool {
	if m.Err != nil || m.data == nil {
		return false
	}
	container, item := "object", "a member"
	if m.close == ']' {
		container, item = "array", "an element"
	}
	i := SkipSpace(m.data, m.pos)
	switch {
	case i >= len(m.data):
		m.Err = errors.New("malformed JSON: unexpected end of input")
		return false
	case m.data[i] == m.close:
		if SkipSpace(m.data, i+1) != len(m.data) {
			m.Err = errors.New("malformed JSON: data after the " + container)
		}
		m.data = nil
		return false
	case m.more && m.data[i] != ',':
		m.Err = fmt.Errorf("malformed JSON: want , or %c after %s", m.close, item)
		return false
	case m.more:
		i = SkipSpace(m.data, i+1)
	}
	if m.close == '}' {
		end, err := ScanString(m.data, i)
		if err != nil {
			m.Err = err
			return false
		}
		m.Key = m.data[i+1 : end-1]
		if bytes.IndexByte(m.Key, '\\') >= 0 || !utf8.Valid(m.Key) {
			// Decode escapes, and replace invalid UTF-8 with U+FFFD as
			// encoding/json does, so that the name survives a round trip.
			var k string
			if err := json.Unmarshal(m.data[i:end], &k); err != nil {
				m.Err = fmt.Errorf("malformed member name: %w", err)
				return false
			}
			m.Key = []byte(k)
		}
		i = SkipSpace(m.data, end)
		if i >= len(m.data) || m.data[i] != ':' {
			m.Err = errors.New("malformed JSON: want : after a member name")
			return false
		}
		i = SkipSpace(m.data, i+1)
	}
	end, err := ScanValue(m.data, i)
	if err != nil {
		m.Err = err
		return false
	}
	m.Value, m.pos, m.more = m.data[i:end], end, true
	return true
}

func SkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

func IsNullValue(data []byte) bool {
	return bytes.HasPrefix(data, []byte("null")) && SkipSpace(data, 4) == len(data)
}

// KindOf names the kind of JSON value data starts with, for messages.
func KindOf(data []byte) string {
	if len(data) == 0 {
		return "nothing"
	}
	switch c := data[0]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	return "malformed JSON"
}

// ScanString returns the index just after the JSON string at data[i].
func ScanString(data []byte, i int) (int, error) {
	if i >= len(data) || data[i] != '"' {
		return 0, errors.New("malformed JSON: want a string")
	}
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return j + 1, nil
		case c == '\\':
			j++
		case c < 0x20:
			return 0, errors.New("malformed JSON: control character in a string")
		}
	}
	return 0, errors.New("malformed JSON: unterminated string")
}

// ScanValue returns the index just after the JSON value at data[i]. Objects
// and arrays are matched bracket for bracket without recursion, so deep
// nesting costs no stack.
func ScanValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errors.New("malformed JSON: unexpected end of input")
	}
	switch data[i] {
	case '"':
		return ScanString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := ScanString(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errors.New("malformed JSON: unexpected end of input")
	}
	j := i
	for j < len(data) && strings.IndexByte(",}] \t\r\n", data[j]) < 0 {
		j++
	}
	if j == i {
		return 0, fmt.Errorf("malformed JSON: unexpected %q", data[i])
	}
	return j, nil
}

// DecodeString decodes a JSON string. One without escapes, in valid UTF-8,
// takes a fast path that copies its bytes once.
func DecodeString[S ~string](value []byte, dst *S) error {
	if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
		body := value[1 : len(value)-1]
		plain, ascii := true, true
		for _, c := range body {
			if c < 0x20 || c == '\\' || c == '"' {
				plain = false
				break
			}
			ascii = ascii && c < utf8.RuneSelf
		}
		if plain && (ascii || utf8.Valid(body)) {
			*dst = S(body)
			return nil
		}
	}
	if len(value) == 0 || value[0] != '"' {
		return fmt.Errorf("want a string, got %s", KindOf(value))
	}
	var s string
	if err := json.Unmarshal(value, &s); err != nil {
		return err
	}
	*dst = S(s)
	return nil
}

// DecodeJSON decodes any other value with encoding/json.
func DecodeJSON(value []byte, dst any) error {
	if err := json.Unmarshal(value, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("want %s, got %s", cmp.Or(goKinds[te.Type.Kind()], "a number"), KindOf(value))
		}
		return err
	}
	return nil
}

// goKinds names the JSON kind a Go kind decodes from; the others are numbers.
var goKinds = [reflect.UnsafePointer + 1]string{reflect.String: "a string", reflect.Bool: "a boolean",
	reflect.Map: "an object", reflect.Struct: "an object", reflect.Slice: "an array", reflect.Array: "an array"}

// DecodeSlice decodes a JSON array of a type with its own UnmarshalJSON,
// decoding each element in place.
func DecodeSlice[T any, P interface {
	*T
	json.Unmarshaler
}](value []byte, dst *[]T) error {
	if IsNullValue(value) {
		*dst = nil
		return nil
	}
	if len(value) == 0 || value[0] != '[' {
		return fmt.Errorf("want an array, got %s", KindOf(value))
	}
	// Count first: one quick pass over the bytes costs less than growing
	// the slice step by step (append grows large slices by a quarter).
	count := Members{data: value, pos: 1, close: ']'}
	n := 0
	for count.Next() {
		n++
	}
	if count.Err != nil {
		return count.Err
	}
	// The same walk again: it cannot fail now.
	e := Members{data: value, pos: 1, close: ']'}
	out := make([]T, n)
	for i := 0; e.Next(); i++ {
		if err := P(&out[i]).UnmarshalJSON(e.Value); err != nil {
			return MemberError("", "["+strconv.Itoa(i)+"]", err)
		}
	}
	*dst = out
	return nil
}

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes a string (invalid UTF-8 becomes U+FFFD), without allocating.
func AppendString[S ~string | ~[]byte](b []byte, s S) []byte {
	b = append(b, '"')
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); {
		c, size := s[i], 1
		if c < utf8.RuneSelf && asciiEscape[c] == 0 {
			i++
			continue
		}
		b = append(b, s[done:i]...)
		switch {
		case c < utf8.RuneSelf && asciiEscape[c] == 'u':
			b = append(b, `\u00`...)
			b = append(b, hexDigits[c>>4], hexDigits[c&0xF])
		case c < utf8.RuneSelf:
			b = append(b, '\\', asciiEscape[c])
		default:
			// At most four bytes: a conversion that does not allocate.
			var r rune
			r, size = utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
			switch {
			case r == utf8.RuneError && size == 1:
				b = append(b, `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				b = append(b, `\u202`...)
				b = append(b, hexDigits[r&0xF])
			default:
				b = append(b, s[i:i+size]...)
			}
		}
		i += size
		done = i
	}
	b = append(b, s[done:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// asciiEscape is how encoding/json writes each ASCII byte in a string: 0
// as itself, 'u' as \u00XX (control bytes, and < > & for HTML), another as
// a backslash and that byte.
var asciiEscape = func() (e [utf8.RuneSelf]byte) {
	for c := range ' ' {
		e[c] = 'u'
	}
	e['<'], e['>'], e['&'], e['"'], e['\\'] = 'u', 'u', 'u', '"', '\\'
	e['\b'], e['\t'], e['\n'], e['\f'], e['\r'] = 'b', 't', 'n', 'f', 'r'
	return e
}()

// AppendSlice appends an array whose elements add appends.
func AppendSlice[T any](b []byte, s []T, add func(*T, []byte) ([]byte, error)) ([]byte, error) {
	b = append(b, '[')
	for i := range s {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = add(&s[i], b); err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
	}
	return append(b, ']'), nil
}

// AppendMarshalled appends any other value as encoding/json writes it.
func AppendMarshalled(b []byte, v any) ([]byte, error) {
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// KeepMember adds a member with no field to extra, as raw JSON or decoded
// into the type the schema gives additional members.
func KeepMember[E any](extra map[string]E, key, value []byte) (map[string]E, error) {
	var e E
	if raw, ok := any(&e).(*json.RawMessage); ok {
		// The walk only delimited value; it may still be malformed (such
		// as nesting deeper than encoding/json allows).
		if err := CheckJSON(value); err != nil {
			return extra, err
		}
		*raw = append(json.RawMessage(nil), value...)
	} else if err := DecodeJSON(value, &e); err != nil {
		return extra, err
	}
	if extra == nil {
		extra = make(map[string]E)
	}
	extra[string(key)] = e
	return extra, nil
}

func SortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// An Object appends a JSON object to B, member by member, keeping the
// first error: the generated appendJSON methods write with one. Start it
// with StartObject and finish it with EndObject.
type Object struct {
	B   []byte
	n   int
	err error
}

// StartObject starts an object at the end of b.
func StartObject(b []byte) Object { return Object{B: append(b, '{')} }

// Key starts the next member: a comma after the first, then key, the
// member's name as JSON followed by a colon.
func (o *Object) Key(key string) {
	if o.n > 0 {
		o.B = append(o.B, ',')
	}
	o.n++
	o.B = append(o.B, key...)
}

// String writes the member key with the string v.
func (o *Object) String(key, v string) {
	o.Key(key)
	o.B = AppendString(o.B, v)
}

// Int writes the member key with the integer v.
func (o *Object) Int(key string, v int64) {
	o.Key(key)
	o.B = strconv.AppendInt(o.B, v, 10)
}

// Bool writes the member key with the boolean v.
func (o *Object) Bool(key string, v bool) {
	o.Key(key)
	o.B = strconv.AppendBool(o.B, v)
}

// Raw writes the member key with v, JSON already.
func (o *Object) Raw(key, v string) {
	o.Key(key)
	o.B = append(o.B, v...)
}

// Value writes the member key with v as encoding/json writes it.
func (o *Object) Value(key string, v any) {
	o.Append(key, func(b []byte) ([]byte, error) { return AppendMarshalled(b, v) })
}

// Append writes the member key with what add appends.
func (o *Object) Append(key string, add func([]byte) ([]byte, error)) {
	o.Key(key)
	if o.err != nil {
		return
	}
	b, err := add(o.B)
	if err != nil {
		name, _ := strconv.Unquote(strings.TrimSuffix(key, ":"))
		o.err = fmt.Errorf("%s: %w", name, err)
		return
	}
	o.B = b
}

// EndObject writes the members kept in extra whose names are not known, in
// sorted order, closes o's object and returns it, or o's first error.
func EndObject[E any](o *Object, extra map[string]E, known ...string) ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	b, comma := o.B, o.n > 0
	if len(extra) == 0 {
		return append(b, '}'), nil // without the allocations of SortedKeys
	}
	for _, k := range SortedKeys(extra) {
		if slices.Contains(known, k) {
			continue
		}
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = append(AppendString(b, k), ':')
		var err error
		if b, err = AppendMarshalled(b, extra[k]); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
	}
	return append(b, '}'), nil
}

// UnmarshalObject is a generated type's UnmarshalJSON: it decodes data, a
// JSON object, through member, which fills *p, a fresh value, from each
// member's name and value as written, and copies *p to *x only when the
// whole object decodes. JSON null leaves *x unchanged. Names match exactly
// (encoding/json would also match them in another case). A member of
// required that is missing or null, or a member member refuses, is a
// *DecodeError of a value of typeName naming the member's path. (The
// caller declares p, so that it stays on its stack.)
func UnmarshalObject[T any](x, p *T, data []byte, typeName string, member func(key, value []byte) error, required ...string) error {
	m, isNull, err := ObjectMembers(data)
	if err != nil {
		return &DecodeError{Type: typeName, Err: err}
	}
	if isNull {
		return nil
	}
	var seen uint64 // bit i: required[i] was given, not null
	for m.Next() {
		if err := member(m.Key, m.Value); err != nil {
			return MemberError(typeName, string(m.Key), err)
		}
		for i, name := range required {
			if string(m.Key) == name {
				if IsNullValue(m.Value) {
					seen &^= 1 << i
				} else {
					seen |= 1 << i
				}
			}
		}
	}
	if m.Err != nil {
		return &DecodeError{Type: typeName, Err: m.Err}
	}
	for i, name := range required {
		if seen&(1<<i) == 0 {
			return &DecodeError{Type: typeName, Path: name, Err: ErrRequired}
		}
	}
	*x = *p
	return nil
}

// DecodePtr decodes value into a new *T, or sets *dst to nil for null.
func DecodePtr[T any, P interface {
	*T
	json.Unmarshaler
}](value []byte, dst **T) error {
	if IsNullValue(value) {
		*dst = nil
		return nil
	}
	v := new(T)
	err := P(v).UnmarshalJSON(value)
	*dst = v
	return err
}

// ErrNotAllowed is the error of a member a schema admits no other of.
var ErrNotAllowed = errors.New("not allowed: the schema admits no other members")

// ConstIs is nil when a fixed member holds its value, and otherwise the
// error that says which value it must hold. Numbers compare as float64, so
// -32021 and -32021.0 are the same, as in JSON Schema.
func ConstIs[V comparable](value []byte, want V) error {
	var got V
	if json.Unmarshal(value, &got) == nil && got == want {
		return nil
	}
	text, _ := json.Marshal(want)
	return fmt.Errorf("must be %s", text)
}
