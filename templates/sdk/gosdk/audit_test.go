//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootsgen/rootsgen/testdata/gotest/logtest"
)

// TestLogger: with Logger, on both eras, each path a tool's set refuses
// is one record naming the tool, the session and the reason; the root
// its revision refuses, one record however many calls use the list; each
// round trip, a record saying which way it went. Without it, nothing is
// logged, not even to slog's default logger.
func TestLogger(t *testing.T) {
	var def logtest.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(def.Logger())
	for _, p := range pins {
		t.Run(p.name, func(t *testing.T) {
			dir, file := testDir(t)
			outside := filepath.Join(filepath.Dir(dir), "outside.txt")
			if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
				t.Fatal(err)
			}
			var buf logtest.Buffer
			a := New(Logger(buf.Logger()))
			cs, _ := connect(t, readServer(a), p.pin, nil, &mcp.Root{URI: fileURI(dir)}, &mcp.Root{URI: "https://example.com/"})
			if text, err := read(t, cs, file); err != nil || text != "one" {
				t.Fatalf("inside: %q, %v", text, err)
			}
			for _, path := range []string{outside, dir} {
				if _, err := read(t, cs, path); err == nil {
					t.Fatalf("%s: read", path)
				}
			}
			got := buf.ByMessage(t)
			refused := got["roots: path refused"]
			if len(refused) != 2 {
				t.Fatalf("%d refusals recorded, want 2: %v", len(refused), got)
			}
			for i, want := range []struct{ path, reason string }{{outside, "outside_roots"}, {dir, "not_regular_file"}} {
				r := refused[i]
				if r["path"] != want.path || r["reason"] != want.reason || r["tool"] != "read" || r["revision"] != cs.InitializeResult().ProtocolVersion || r["session"] == nil {
					t.Errorf("refusal %v; want %s refused (%s) in tool read, with the revision and session", r, want.path, want.reason)
				}
			}
			left := got["roots: root left out"]
			// Where requests stand alone, lists are shared by every session.
			if len(left) != 1 || left[0]["index"] != 1.0 || left[0]["uri"] != "https://example.com/" || (left[0]["session"] == nil) != (p.pin == "") {
				t.Errorf("roots left out: %v; want roots[1], once, with the session on a legacy session", left)
			}
			via := "request"
			if p.pin == "" {
				via = "input_required"
			}
			trips := got["roots: roots/list"]
			for _, r := range trips {
				if r["via"] != via {
					t.Errorf("round trip %v; want via %s", r, via)
				}
			}
			if len(trips) == 0 || p.pin == "" && len(trips) != 3 {
				t.Errorf("%d round trips recorded: %v", len(trips), trips)
			}
			// The same calls without Logger.
			cs, _ = connect(t, readServer(New()), p.pin, nil, &mcp.Root{URI: fileURI(dir)}, &mcp.Root{URI: "https://example.com/"})
			read(t, cs, outside)
		})
	}
	if got := def.Records(t); len(got) != 0 {
		t.Errorf("logged to slog's default logger: %v", got)
	}
}
