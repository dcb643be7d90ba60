package generated_test

import (
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generated/roots20250618"
	"github.com/rootsgen/rootsgen/generated/roots20260728"
)

// TestURICharacterMessage: a URI must be ASCII, and the message that
// refuses one names the character as written, not one byte of its UTF-8,
// and says how to percent-encode it.
func TestURICharacterMessage(t *testing.T) {
	for _, tc := range []struct{ uri, want string }{
		{"file:///tmp/ünï", `roots[0].uri: character 'ü' must be percent-encoded as %C3%BC`},
		{"file:///tmp/名前", `character '名' must be percent-encoded as %E5%90%8D`},
		{"file:///tmp/😀", `character '😀' must be percent-encoded as %F0%9F%98%80`},
		{"file:///tmp/a b", `character ' ' must be percent-encoded as %20`},
		{"file:///tmp/a\"b", `character '"' must be percent-encoded as %22`},
		{"file:///tmp/a\x7f", `character '\x7f' must be percent-encoded as %7F`},
		{"file:///tmp/a\xffb", `byte 0xFF is not UTF-8 text; percent-encode it as %FF`},
		{"file:///tmp/a\xc3", `byte 0xC3 is not UTF-8 text; percent-encode it as %C3`},
	} {
		r18 := roots20250618.ListRootsResult{Roots: []roots20250618.Root{{URI: tc.uri}}}
		//lint:ignore SA1019 2026-07-28's roots types are deprecated, and tested here like the other revisions'
		r28 := roots20260728.ListRootsResult{Roots: []roots20260728.Root{{URI: tc.uri}}}
		for _, err := range []error{r18.Validate(), r28.Validate()} {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate(%q): %v; want %s", tc.uri, err, tc.want)
			}
		}
	}
}
