package rtimpl_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// appendStringSeeds cover each way a byte is escaped: quote and
// backslash, the short and \u00XX control escapes, HTML, U+2028/U+2029,
// invalid and truncated UTF-8, and runes of two to four bytes.
var appendStringSeeds = []string{
	"", "plain /srv/data", `a"b\c`, "\b\f\n\r\t", "\x00\x01\x1f\x7f", "<a&b>",
	"x\u2028y\u2029z", "\xff", "é\xc3", "\xe2\x80", "été ∂ 😀", "\xed\xa0\x80",
}

// FuzzAppendString checks that AppendString writes what encoding/json
// writes for a string, from a string and from bytes.
func FuzzAppendString(f *testing.F) {
	for _, s := range appendStringSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := rtimpl.AppendString([]byte("x"), s); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Fatalf("AppendString(%q) = %s, want x%s", s, got, want)
		}
		if got := rtimpl.AppendString(nil, []byte(s)); !bytes.Equal(got, want) {
			t.Fatalf("AppendString([]byte(%q)) = %s, want %s", s, got, want)
		}
	})
}

// TestAppendStringAllocs holds AppendString to no allocation when b has
// room, escapes or not: every MarshalJSON and SalientParams call it.
func TestAppendStringAllocs(t *testing.T) {
	buf := make([]byte, 0, 256)
	for _, s := range appendStringSeeds {
		b := []byte(s)
		if n := testing.AllocsPerRun(20, func() {
			buf = rtimpl.AppendString(buf[:0], s)
			buf = rtimpl.AppendString(buf[:0], b)
		}); n != 0 {
			t.Errorf("AppendString(%q): %v allocations, want 0", s, n)
		}
	}
}
