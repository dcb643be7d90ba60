package rtimpl

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A ValidationError lists every way a value breaks the schema's rules.
type ValidationError struct {
	Type string // the Go type that was checked
	// Problems are in the order found: members in schema order, array
	// elements by index.
	Problems []Problem
}

// A Problem is one broken rule.
type Problem struct {
	Path    string // the JSON path of the member at fault, such as "roots[2].uri"
	Message string // what is wrong with it
}

// Error lists the first 20 problems, separated by semicolons, and counts
// the rest (Problems has them all), so that log lines stay short.
func (e *ValidationError) Error() string {
	const listed = 20
	var b strings.Builder
	b.WriteString(e.Type)
	b.WriteString(": ")
	for i, p := range e.Problems {
		if i == listed {
			fmt.Fprintf(&b, "; and %d more", len(e.Problems)-listed)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if p.Path != "" {
			b.WriteString(p.Path)
			b.WriteString(": ")
		}
		b.WriteString(p.Message)
	}
	return b.String()
}

// A Validator collects the problems of one value; it lives on the
// caller's stack. The generated Validate methods fill one.
type Validator struct {
	TypeName string    // the Go type being checked, for the error
	Problems []Problem // the problems found so far
}

// Add adds the problem msg of the member at.
func (v *Validator) Add(at *Path, msg string) {
	v.Problems = append(v.Problems, Problem{Path: at.String(), Message: msg})
}

// AddErr adds the problems of err, the error of a Validate method, as
// problems of the member at: a *ValidationError's each under at (its "uri"
// at roots[2] is roots[2].uri), any other error as one; a nil err none.
func (v *Validator) AddErr(at *Path, err error) {
	if err == nil {
		return // first, so that a valid value costs no allocation
	}
	var verr *ValidationError
	if !errors.As(err, &verr) {
		v.Add(at, err.Error())
		return
	}
	prefix := at.String()
	for _, p := range verr.Problems {
		if prefix != "" {
			p.Path = joinPath(prefix, p.Path)
		}
		v.Problems = append(v.Problems, p)
	}
}

// Err is the *ValidationError of the problems found, or nil.
func (v *Validator) Err() error {
	if len(v.Problems) == 0 {
		return nil
	}
	return &ValidationError{Type: v.TypeName, Problems: v.Problems}
}

// ValidateValue is a generated type's Validate: it runs check, the type's
// validate, on x from the top of a value of typeName, and returns the
// problems found as a *ValidationError, or nil.
func ValidateValue[T any](typeName string, x *T, check func(x *T, v *Validator, at *Path)) error {
	v := Validator{TypeName: typeName}
	check(x, &v, nil)
	return v.Err()
}

// ValidElements returns the elements of elems, the array member of a
// value of typeName, that pass check, in order, and a *ValidationError
// naming each one that does not by its index (nil when all pass).
func ValidElements[E any](typeName, member string, elems []E, check func(e *E, v *Validator, at *Path)) ([]E, error) {
	v := Validator{TypeName: typeName}
	valid := make([]E, 0, len(elems))
	for i := range elems {
		before := len(v.Problems)
		check(&elems[i], &v, ItemPath(member, i))
		if len(v.Problems) == before {
			valid = append(valid, elems[i])
		}
	}
	return valid, v.Err()
}

// A Path is a JSON path built on the stack as validation descends; it
// becomes a string only when a problem is found, so valid values cost
// nothing. The nil *Path is the value itself.
type Path struct {
	parent *Path
	name   string // member name, or "" for an array element
	index  int    // array index, or -1
}

// Member is the path of p's member name.
func (p *Path) Member(name string) *Path { return &Path{p, name, -1} }

// Elem is the path of p's element i.
func (p *Path) Elem(i int) *Path { return &Path{p, "", i} }

// Item is the path of element i of p's member name.
func (p *Path) Item(name string, i int) *Path { return &Path{p, name, i} }

// ItemPath is the path of element i of a value's member name.
func ItemPath(name string, i int) *Path { return &Path{nil, name, i} }

// String writes the path as roots[2].uri; the nil path is "".
func (p *Path) String() string {
	if p == nil {
		return ""
	}
	s := p.parent.String()
	if s != "" && p.name != "" {
		s += "."
	}
	s += p.name
	if p.index >= 0 {
		s += "[" + strconv.Itoa(p.index) + "]"
	}
	return s
}

// CheckURI returns why s is not an absolute URI (RFC 3986) with one of the
// given schemes, or "" when it is one. With no schemes, any scheme will do.
// Schemes match as given, in lower case, though RFC 3986 lets them vary:
// root URIs start with "file://", and peers (the TypeScript SDK) reject a
// list holding "FILE://". It allocates nothing for a valid URI.
func CheckURI(s string, schemes ...string) string {
	// A scheme is a letter, then letters, digits, "+", "-" or ".".
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || !isScheme(scheme) {
		return "not an absolute URI: it must start with a scheme such as file:"
	}
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '%' && (i+2 >= len(rest) || !isHex(rest[i+1]) || !isHex(rest[i+2])):
			return "malformed percent-encoding"
		case c == '%':
			i += 2
		case !uriChars[c]:
			return mustEncode(rest[i:])
		}
	}
	// A file URI is an authority (empty for the local host) and an
	// absolute path, with no query or fragment.
	switch {
	case len(schemes) == 0:
		return ""
	case !slices.Contains(schemes, scheme):
		return fmt.Sprintf("scheme %q is not allowed here (want %s)", scheme, strings.Join(schemes, " or "))
	case scheme != "file":
		return ""
	case !strings.HasPrefix(rest, "//"):
		return "a file URI must start with file://"
	case !strings.Contains(rest[2:], "/"):
		return "a file URI must have an absolute path, as in file:///home/user"
	case strings.IndexByte(rest, '?') >= 0 || strings.IndexByte(rest, '#') >= 0:
		return "a root URI must not have a query or fragment"
	}
	return ""
}

// isScheme reports whether s is a URI scheme: a letter, then letters,
// digits, "+", "-" or ".".
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20 // lower case, for letters
		if !('a' <= c && c <= 'z' || i > 0 && ('0' <= s[i] && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
			return false
		}
	}
	return s != ""
}

// mustEncode says that the character s starts with may not appear as it is
// in a URI, naming the whole character (not one byte of its UTF-8) and how
// to write it: 'ü' is %C3%BC.
func mustEncode(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02X is not UTF-8 text; percent-encode it as %%%02X", s[0], s[0])
	}
	return fmt.Sprintf("character %q must be percent-encoded as %s", r, url.PathEscape(s[:size]))
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// uriChars are the bytes that may appear unescaped in a URI: unreserved,
// general delimiters and sub-delimiters.
var uriChars = func() (set [256]bool) {
	for _, c := range asciiLetters + asciiDigits + "-._~:/?#[]@!$&'()*+,;=" {
		set[c] = true
	}
	return set
}()

const (
	asciiLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	asciiDigits  = "0123456789"
)
