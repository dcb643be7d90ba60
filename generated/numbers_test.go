package generated_test

// Request ids and progress tokens are strings or integers. A number counts
// as an integer only when its value is exactly one in the int64 range,
// whatever its spelling; and the value must be one valid JSON token, also
// when UnmarshalJSON is called directly (encoding/json checks the syntax
// before it calls UnmarshalJSON, a direct caller does not).

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
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
		{`-9223372036854775808`, -9223372036854775808},
		{`9.223372036854775807e18`, 9223372036854775807},
		{`-92233720368547758.08e2`, -9223372036854775808},
		{`9007199254740993`, 9007199254740993},
		{`9007199254740993.0`, 9007199254740993},
		{`9007199254740993.000000000000000000000000`, 9007199254740993},
		{`1.0`, 1},
		{`1e3`, 1000},
		{`1E+3`, 1000},
		{`10e-1`, 1},
		{`0.1e1`, 1},
		{`123.4500e2`, 12345},
		{`1000000000000000000000e-3`, 1000000000000000000},
		{`-0`, 0},
		{`-0.0`, 0},
		{`0e999999999999999999999`, 0},
		{`0.000e-999999999999999999999`, 0},
		{" \t7\n", 7},
	}
	rejected := []struct{ in, want string }{
		// Outside the int64 range by one, and far.
		{`9223372036854775808`, "integer outside the int64 range"},
		{`-9223372036854775809`, "integer outside the int64 range"},
		{`9223372036854775808.0`, "integer outside the int64 range"},
		{`9.223372036854775808e18`, "integer outside the int64 range"},
		{`1e19`, "integer outside the int64 range"},
		{`1e400`, "integer outside the int64 range"},
		{`-1e999999999999999999999`, "integer outside the int64 range"},
		// A fractional part, however small.
		{`1.5`, "number with a fractional part"},
		{`1.00000000000000000001`, "number with a fractional part"},
		{`9007199254740993.5`, "number with a fractional part"},
		{`1e-400`, "number with a fractional part"},
		{`1e-999999999999999999999`, "number with a fractional part"},
		{`123.45e1`, "number with a fractional part"},
		// Not one valid JSON token.
		{`+5`, "malformed JSON"},
		{`007`, "malformed JSON"},
		{`00`, "malformed JSON"},
		{`-`, "malformed JSON"},
		{`1.`, "malformed JSON"},
		{`.5`, "malformed JSON"},
		{`1e`, "malformed JSON"},
		{`1e+`, "malformed JSON"},
		{`0x10`, "malformed JSON"},
		{`NaN`, "malformed JSON"},
		{`Infinity`, "malformed JSON"},
		{`tru`, "malformed JSON"},
		{`truex`, "malformed JSON"},
		{`nul`, "malformed JSON"},
		{`"abc`, "malformed JSON"},
		{`1 2`, "malformed JSON"},
		{`{"a":}`, "malformed JSON"},
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

// TestUnionIntegersMatchBigRat compares the decoder with exact arithmetic
// on random JSON numbers near the edges: the value is accepted exactly
// when math/big finds it an integer in the int64 range, and is then that
// integer.
func TestUnionIntegersMatchBigRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		return b.String()
	}
	accepted := 0
	for range 20000 {
		var num strings.Builder
		if rng.IntN(2) == 0 {
			num.WriteByte('-')
		}
		switch whole := digits(1 + rng.IntN(22)); {
		case rng.IntN(4) == 0:
			num.WriteString("0")
		case rng.IntN(4) == 0:
			num.WriteString("9223372036854775" + digits(3)) // near the int64 limits
		default:
			num.WriteString(strings.TrimLeft(whole, "0") + "1")
		}
		if rng.IntN(2) == 0 {
			num.WriteString("." + digits(1+rng.IntN(25)))
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&num, "e%d", rng.IntN(61)-30)
		}
		in := num.String()
		want, ok := new(big.Rat).SetString(in)
		if !ok {
			t.Fatalf("math/big cannot read %s", in)
		}
		exact := want.IsInt() && want.Num().IsInt64()
		if exact {
			accepted++
		}
		var id roots20251125.RequestID
		err := id.UnmarshalJSON([]byte(in))
		got, isInt := id.AsInteger()
		switch {
		case exact && (err != nil || !isInt || got != want.Num().Int64()):
			t.Errorf("%s: got %d (%v, integer %v), want %s", in, got, err, isInt, want.Num())
		case !exact && err == nil:
			t.Errorf("%s: accepted as %d; it is not an int64", in, got)
		}
	}
	if accepted < 1000 || accepted > 19000 {
		t.Errorf("%d of 20000 numbers were integers: the sample misses one side", accepted)
	}
}
