package generator

import (
	"errors"
	"strings"
	"testing"
)

// TestParseGateFlagRefusesInjection: the revision and the import path of
// -gate are written into the gate's source, the path between quotes; what
// could add a line or code there is refused before anything is generated.
func TestParseGateFlagRefusesInjection(t *testing.T) {
	const imp = "example.com/app/mcproots"
	for _, tc := range []struct{ value, want string }{
		{"2025-06-18=" + imp + "\"\n//go:generate echo pwned\nimport _ \"os", `invalid import path`},
		{"2025-06-18=" + imp + "\"; func init() { panic(1) }; var _ = \"", `invalid import path`},
		{"2025-06-18=example.com/../x", `empty, . or .. element`},
		{"2025-06-18=/abs/path", `empty, . or .. element`},
		{"2025-06-18=example.com/a b", `it holds ' '`},
		{"draft\n//go:generate echo=" + imp, `invalid revision`},
		{"2026-13-45=" + imp, `invalid revision`},
		{"2025-06-18", `REVISION=IMPORT_PATH`},
	} {
		revs, err := ParseGateFlag(tc.value)
		var ue *UsageError
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseGateFlag(%q) = %v, %v; want a usage error saying %q", tc.value, revs, err, tc.want)
		}
	}
	revs, err := ParseGateFlag("2025-06-18=" + imp + ", draft=example.com/app/mcp-roots.draft_1~x+y")
	if err != nil || len(revs) != 2 || revs[1].Revision != "draft" || revs[1].Import != "example.com/app/mcp-roots.draft_1~x+y" {
		t.Errorf("ParseGateFlag of two valid pairs = %+v, %v", revs, err)
	}
}
