package mcpgo

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// narrow makes the adapter see a gate serving only versions, as in a kit
// generated with -revisions, until the test ends. (Lookup still serves
// every revision of generated/rootsgate; only what the adapter lets mcp-go
// negotiate changes.) Tests that narrow do not run in parallel.
func narrow(t *testing.T, versions ...string) {
	t.Helper()
	all := Revisions
	Revisions = func() []Revision {
		var out []Revision
		for _, r := range all() {
			if slices.Contains(versions, r.Version) {
				out = append(out, r)
			}
		}
		return out
	}
	t.Cleanup(func() { Revisions = all })
}

// mcp-go serves any request naming a 2026-07-28-era version it knows, and
// initialize always negotiates a version of its own: New refuses a gate
// that lacks the first, or all of the second, naming what is missing.
func TestNewRefusesWhatMCPGoServes(t *testing.T) {
	for _, c := range []struct {
		served  []string
		missing string // "" for none
	}{
		{[]string{"2025-06-18", "2026-07-28"}, ""},
		{[]string{"2024-11-05", "2026-07-28"}, ""},
		{[]string{"2025-06-18"}, "2026-07-28"},
		{[]string{"2026-07-28"}, "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"},
	} {
		t.Run(strings.Join(c.served, ","), func(t *testing.T) {
			narrow(t, c.served...)
			_, err := New(Options{})
			switch {
			case c.missing == "" && err != nil:
				t.Errorf("New: %v", err)
			case c.missing != "" && (err == nil || !strings.Contains(err.Error(), ": "+c.missing+";")):
				t.Errorf("New: %v, want an error naming %s", err, c.missing)
			}
		})
	}
}

// A kit narrowed to 2025-06-18 and 2026-07-28: a client offering another
// version at initialize is answered with 2025-06-18 and reads its roots;
// one offering 2025-06-18 keeps it; one offering nothing in particular
// ends on 2026-07-28.
func TestNarrowedNegotiation(t *testing.T) {
	narrow(t, "2025-06-18", "2026-07-28")
	dir, file := testDir(t)
	for _, c := range []struct{ offered, want string }{
		{"2025-11-25", "2025-06-18"},
		{"2025-03-26", "2025-06-18"},
		{"2025-06-18", "2025-06-18"},
		{"", "2026-07-28"},
	} {
		cl := serve(t, newRoots(t, Options{}), c.offered, mcp.Root{URI: fileURI(dir)})
		if got := cl.ProtocolVersion(); got != c.want {
			t.Errorf("offered %q: negotiated %s, want %s", c.offered, got, c.want)
		}
		if text, err := read(t, cl, file); err != nil || text != "one" {
			t.Errorf("offered %q: read %q, %v", c.offered, text, err)
		}
	}
}

// server/discover lists only the versions the gate serves.
func TestNarrowedDiscover(t *testing.T) {
	narrow(t, "2025-06-18", "2026-07-28")
	r := newRoots(t, Options{})
	s := server.NewMCPServer("test", "v0", r.ServerOption())
	msg := s.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
	raw, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Result struct {
			SupportedVersions []string `json:"supportedVersions"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || !slices.Equal(res.Result.SupportedVersions, []string{"2026-07-28", "2025-06-18"}) {
		t.Errorf("server/discover: %s, want supportedVersions [2026-07-28 2025-06-18]", raw)
	}
	if !slices.Contains(mcp.ValidProtocolVersions, "2025-11-25") {
		t.Errorf("the list mcp-go hands out was changed: %v", mcp.ValidProtocolVersions)
	}
}
