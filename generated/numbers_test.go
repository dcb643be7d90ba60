package generated_test

// Request ids and progress tokens are strings or integers. A number counts
// as an integer only when its value is exactly one in the int64 range,
// whatever its spelling; and the value must be one valid JSON token, also
// when UnmarshalJSON is called directly (encoding/json checks the syntax
// before it calls UnmarshalJSON, a direct caller does not). The reading of
// numbers is the runtime's (ScanPrimitive, tested in rootsrt);
// these tests run it through the unions each revision declares.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generated/roots20241105"
	"github.com/rootsgen/rootsgen/generated/roots20250618"
	"github.com/rootsgen/rootsgen/generated/roots20251125"
	"github.com/rootsgen/rootsgen/generated/roots20260728"
)

func TestUnionIntegersAreExact(t *testing.T) {
	forms := []unionForms{
		{
			typeName: "RequestID",
			fresh:    func() unionCodec { return new(roots20251125.RequestID) },
			asInt:    func(u unionCodec) (int64, bool) { return u.(*roots20251125.RequestID).AsInteger() },
		},
		{
			typeName: "RequestID",
			fresh:    func() unionCodec { return new(roots20260728.RequestID) },
			asInt:    func(u unionCodec) (int64, bool) { return u.(*roots20260728.RequestID).AsInteger() },
		},
		{
			typeName: "ProgressToken",
			fresh:    func() unionCodec { return new(roots20241105.ProgressToken) },
			asInt:    func(u unionCodec) (int64, bool) { return u.(*roots20241105.ProgressToken).AsInteger() },
		},
	}
	accepted := []struct {
		in   string
		want int64
	}{
		{`9223372036854775807`, 9223372036854775807},
		{`-92233720368547758.08e2`, -9223372036854775808},
		{`1e3`, 1000},
		{`-0.0`, 0},
		{" \t7\n", 7},
	}
	rejected := []struct{ in, want string }{
		{`9223372036854775808`, "integer outside the int64 range"},
		{`1e400`, "integer outside the int64 range"},
		{`1.00000000000000000001`, "number with a fractional part"},
		{`+5`, "malformed JSON"},
		{`1 2`, "malformed JSON"},
		{``, "malformed JSON"},
	}
	for _, u := range forms {
		for _, c := range accepted {
			v := u.fresh()
			if err := v.UnmarshalJSON([]byte(c.in)); err != nil {
				t.Errorf("%s.UnmarshalJSON(%q): %v", u.typeName, c.in, err)
				continue
			}
			if i, ok := u.asInt(v); !ok || i != c.want {
				t.Errorf("%s.UnmarshalJSON(%q) holds %d (integer: %v), want %d", u.typeName, c.in, i, ok, c.want)
			}
		}
		for _, c := range rejected {
			v := u.fresh()
			err := v.UnmarshalJSON([]byte(c.in))
			if err == nil {
				i, _ := u.asInt(v)
				t.Errorf("%s.UnmarshalJSON(%q) accepts it as %d", u.typeName, c.in, i)
				continue
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), u.typeName+": ") {
				t.Errorf("%s.UnmarshalJSON(%q): %v; want %q", u.typeName, c.in, err, c.want)
			}
		}
	}
}

// TestDirectUnmarshalRefusesInvalidTokens: an object's members are walked
// in place, so a member holding a malformed scalar must be caught by the
// code that decodes it, not left to encoding/json's syntax check.
func TestDirectUnmarshalRefusesInvalidTokens(t *testing.T) {
	for _, token := range []string{`+5`, `007`, `-01`, `5.`, `tru`, `1e`} {
		in := `{"_meta":{"progressToken":` + token + `}}`
		var p roots20250618.ListRootsRequestParams
		err := p.UnmarshalJSON([]byte(in))
		if err == nil {
			tok, _ := p.Meta.ProgressToken.AsInteger()
			t.Errorf("UnmarshalJSON(%s) accepts it, with progress token %d", in, tok)
			continue
		}
		if !strings.Contains(err.Error(), "_meta.progressToken: ") || !strings.Contains(err.Error(), "malformed JSON") {
			t.Errorf("UnmarshalJSON(%s): %v; want a malformed JSON error at _meta.progressToken", in, err)
		}
		if json.Unmarshal([]byte(in), &p) == nil {
			t.Errorf("json.Unmarshal(%s) accepts it", in)
		}
	}
}
