package rtimpl_test

// Numbers in unions (request ids, progress tokens): a number is an
// integer only when its value is exactly one in the int64 range, whatever
// its spelling, and the value must be one valid JSON token.

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// exactIntegers are numbers ScanPrimitive reads as the integer given.
var exactIntegers = []struct {
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

// notIntegers are JSON numbers that are not int64 integers, and why.
var notIntegers = []struct{ in, why string }{
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
}

// notTokens are not one valid JSON token.
var notTokens = []string{`+5`, `007`, `00`, `-`, `1.`, `.5`, `1e`, `1e+`, `0x10`, `NaN`, `Infinity`, `tru`, `truex`, `nul`, `"abc`, `1 2`, `{"a":}`, ``}

func TestScanPrimitiveIntegers(t *testing.T) {
	for _, c := range exactIntegers {
		p, err := rtimpl.ScanPrimitive([]byte(c.in))
		if err != nil || p.Kind != "number" || !p.IsInt || p.I != c.want || !p.Is("integer") || p.Describe() != "integer" {
			t.Errorf("ScanPrimitive(%q) = %+v, %v; want the integer %d", c.in, p, err, c.want)
		}
	}
	for _, c := range notIntegers {
		p, err := rtimpl.ScanPrimitive([]byte(c.in))
		if err != nil || p.Kind != "number" || p.IsInt || p.Is("integer") || p.NotInt != c.why || p.Describe() != c.why {
			t.Errorf("ScanPrimitive(%q) = %+v, %v; want a number that is not an integer: %s", c.in, p, err, c.why)
		}
	}
	for _, in := range notTokens {
		if p, err := rtimpl.ScanPrimitive([]byte(in)); err == nil || !strings.HasPrefix(err.Error(), "malformed JSON: ") {
			t.Errorf("ScanPrimitive(%q) = %+v, %v; want a malformed JSON error", in, p, err)
		}
	}
	for in, want := range map[string]string{`"x"`: "string", `true`: "boolean", `null`: "null", `{}`: "object", `[1]`: "array"} {
		if p, err := rtimpl.ScanPrimitive([]byte(in)); err != nil || p.Kind != want || p.Is("integer") || p.Describe() != want {
			t.Errorf("ScanPrimitive(%s) = %+v, %v; want a %s", in, p, err, want)
		}
	}
}

// TestScanPrimitiveMatchesBigRat compares the reading with exact
// arithmetic on random JSON numbers near the edges: a number is an
// integer exactly when math/big finds it an integer in the int64 range,
// and is then that integer.
func TestScanPrimitiveMatchesBigRat(t *testing.T) {
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
		p, err := rtimpl.ScanPrimitive([]byte(in))
		switch {
		case err != nil:
			t.Errorf("%s: %v", in, err)
		case exact && (!p.IsInt || p.I != want.Num().Int64()):
			t.Errorf("%s: got %d (integer %v), want %s", in, p.I, p.IsInt, want.Num())
		case !exact && p.IsInt:
			t.Errorf("%s: read as the integer %d; it is not an int64", in, p.I)
		}
	}
	if accepted < 1000 || accepted > 19000 {
		t.Errorf("%d of 20000 numbers were integers: the sample misses one side", accepted)
	}
}
