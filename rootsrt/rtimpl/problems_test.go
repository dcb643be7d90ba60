package rtimpl_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// TestCheckURI: what a root URI may be, and the message that says why
// one is not.
func TestCheckURI(t *testing.T) {
	for _, c := range []struct {
		uri     string
		schemes []string
		want    string // "" for valid
	}{
		{"file:///home/me", []string{"file"}, ""},
		{"file://localhost/home/me", []string{"file"}, ""},
		{"file:///a%20b", []string{"file"}, ""},
		{"https://x/y?q#f", nil, ""},
		{"a+b-c.d:x", nil, ""},
		{"", nil, "not an absolute URI: it must start with a scheme such as file:"},
		{"/home/me", []string{"file"}, "not an absolute URI"},
		{"1ab:x", nil, "not an absolute URI"},
		{":x", nil, "not an absolute URI"},
		{"FILE:///x", []string{"file"}, `scheme "FILE" is not allowed here (want file)`},
		{"http://x/", []string{"file", "https"}, `scheme "http" is not allowed here (want file or https)`},
		{"file:x", []string{"file"}, "a file URI must start with file://"},
		{"file://host", []string{"file"}, "a file URI must have an absolute path, as in file:///home/user"},
		{"file:///x?y", []string{"file"}, "a root URI must not have a query or fragment"},
		{"file:///x#y", []string{"file"}, "a root URI must not have a query or fragment"},
		{"file:///%", []string{"file"}, "malformed percent-encoding"},
		{"file:///%4", []string{"file"}, "malformed percent-encoding"},
		{"file:///%G0", []string{"file"}, "malformed percent-encoding"},
		// A URI must be ASCII: the message names the character as
		// written, not one byte of its UTF-8, and how to encode it.
		{"file:///tmp/ünï", []string{"file"}, `character 'ü' must be percent-encoded as %C3%BC`},
		{"file:///tmp/名前", []string{"file"}, `character '名' must be percent-encoded as %E5%90%8D`},
		{"file:///tmp/😀", []string{"file"}, `character '😀' must be percent-encoded as %F0%9F%98%80`},
		{"file:///tmp/a b", []string{"file"}, `character ' ' must be percent-encoded as %20`},
		{"file:///tmp/a\"b", []string{"file"}, `character '"' must be percent-encoded as %22`},
		{"file:///tmp/a\x7f", []string{"file"}, `character '\x7f' must be percent-encoded as %7F`},
		{"file:///tmp/a\xffb", []string{"file"}, `byte 0xFF is not UTF-8 text; percent-encode it as %FF`},
		{"file:///tmp/a\xc3", []string{"file"}, `byte 0xC3 is not UTF-8 text; percent-encode it as %C3`},
	} {
		got := rtimpl.CheckURI(c.uri, c.schemes...)
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("CheckURI(%q, %q) = %q, want %q", c.uri, c.schemes, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { rtimpl.CheckURI("file:///home/me/project%20x", "file") }); n != 0 {
		t.Errorf("CheckURI of a valid URI allocates %v times", n)
	}
}

// TestValidationError: the problems of a value, each with the JSON path
// of its member, as the Validator collects them; the paths cost nothing
// until a problem is found.
func TestValidationError(t *testing.T) {
	v := rtimpl.Validator{TypeName: "ListRootsResult"}
	if err := v.Err(); err != nil {
		t.Errorf("no problems: %v", err)
	}
	var top *rtimpl.Path
	v.Add(top, "the value itself")
	v.Add(top.Member("_meta").Member("k"), "a member")
	v.Add(rtimpl.ItemPath("roots", 2).Member("uri"), "an element's member")
	v.Add(top.Item("roots", 0).Elem(3), "an element of an element")
	err := v.Err()
	var ve *rtimpl.ValidationError
	if !errors.As(err, &ve) || ve.Type != "ListRootsResult" || len(ve.Problems) != 4 {
		t.Fatalf("Err() = %#v", err)
	}
	const want = "ListRootsResult: the value itself; _meta.k: a member; roots[2].uri: an element's member; roots[0][3]: an element of an element"
	if err.Error() != want {
		t.Errorf("Error() =\n %s\nwant\n %s", err, want)
	}
	if n := testing.AllocsPerRun(100, func() { _ = top.Member("roots").Elem(1).Member("uri") }); n != 0 {
		t.Errorf("building a path allocates %v times", n)
	}

	// Many problems: the message lists 20 and counts the rest.
	many := rtimpl.Validator{TypeName: "ListRootsResult"}
	for i := range 100_000 {
		many.Add(rtimpl.ItemPath("roots", i).Member("uri"), "not a file URI")
	}
	msg := many.Err().Error()
	if !strings.HasSuffix(msg, "; roots[19].uri: not a file URI; and 99980 more") || strings.Contains(msg, "roots[20]") {
		t.Errorf("Error() of 100,000 problems: %d bytes, ending %q", len(msg), msg[max(0, len(msg)-80):])
	}
}

// pair is a made-up generated type for the helpers generated methods call.
type pair struct{ A, B string }

func (p *pair) check(v *rtimpl.Validator, at *rtimpl.Path) {
	if p.A == "" {
		v.Add(at.Member("a"), "empty")
	}
}

func (p *pair) unmarshal(data []byte) error {
	var q pair
	return rtimpl.UnmarshalObject(p, &q, data, "pair", func(k, v []byte) error {
		switch string(k) {
		case "a":
			return rtimpl.DecodeString(v, &q.A)
		case "b":
			return rtimpl.DecodeString(v, &q.B)
		}
		return rtimpl.ErrNotAllowed
	}, "a")
}

// UnmarshalObject changes its target only when the whole object decodes,
// and never for null; ValidateValue and ValidElements report problems by
// path, keeping the valid elements in order.
func TestGeneratedMethodHelpers(t *testing.T) {
	p := pair{A: "old", B: "old"}
	for _, bad := range []string{`null`, `{"b":"new"}`, `{"a":"new","c":1}`, `{"a":1}`, `[]`} {
		err := p.unmarshal([]byte(bad))
		if p != (pair{"old", "old"}) || (bad == "null") != (err == nil) {
			t.Errorf("unmarshal(%s) = %v, left %+v; want no change", bad, err, p)
		}
	}
	if err := p.unmarshal([]byte(`{"a":"x"}`)); err != nil || p != (pair{A: "x"}) {
		t.Errorf("unmarshal = %v, %+v; want {x }, every member replaced", err, p)
	}

	if err := rtimpl.ValidateValue("pair", &pair{A: "x"}, (*pair).check); err != nil {
		t.Errorf("ValidateValue of a valid pair = %v", err)
	}
	var ve *rtimpl.ValidationError
	if err := rtimpl.ValidateValue("pair", &pair{}, (*pair).check); !errors.As(err, &ve) || ve.Type != "pair" || len(ve.Problems) != 1 || ve.Problems[0].Path != "a" {
		t.Errorf("ValidateValue of an empty pair = %#v", err)
	}

	elems := []pair{{A: "1"}, {}, {A: "3"}, {B: "4"}}
	valid, err := rtimpl.ValidElements("list", "pairs", elems, (*pair).check)
	if len(valid) != 2 || valid[0].A != "1" || valid[1].A != "3" {
		t.Errorf("ValidElements kept %+v", valid)
	}
	if !errors.As(err, &ve) || len(ve.Problems) != 2 || ve.Problems[0].Path != "pairs[1].a" || ve.Problems[1].Path != "pairs[3].a" {
		t.Errorf("ValidElements error = %v", err)
	}
	if valid, err := rtimpl.ValidElements("list", "pairs", elems[:1], (*pair).check); err != nil || len(valid) != 1 {
		t.Errorf("ValidElements of valid elements = %v, %v", valid, err)
	}
}

// AddErr files another value's problems under the member it sits at, as
// if its validate had run there.
func TestValidatorAddErr(t *testing.T) {
	inner := &rtimpl.ValidationError{Type: "Root", Problems: []rtimpl.Problem{{Path: "uri", Message: "bad"}, {Path: "", Message: "whole"}, {Path: "[1]", Message: "elem"}}}
	v := rtimpl.Validator{TypeName: "list"}
	v.AddErr(rtimpl.ItemPath("roots", 2), inner)
	v.AddErr(nil, inner)
	v.AddErr(rtimpl.ItemPath("roots", 3), errors.New("not a root"))
	v.AddErr(rtimpl.ItemPath("roots", 4), nil)
	var got []string
	for _, p := range v.Problems {
		got = append(got, p.Path+": "+p.Message)
	}
	want := []string{"roots[2].uri: bad", "roots[2]: whole", "roots[2][1]: elem", "uri: bad", ": whole", "[1]: elem", "roots[3]: not a root"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("problems %q; want %q", got, want)
	}
	if inner.Problems[0].Path != "uri" {
		t.Errorf("AddErr changed the error it read: %q", inner.Problems[0].Path)
	}
	at := rtimpl.ItemPath("roots", 2)
	if n := testing.AllocsPerRun(100, func() { v.AddErr(at, nil) }); n != 0 {
		t.Errorf("AddErr of no error: %v allocations", n)
	}
}
