package mcpgo

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rootsgen/rootsgen/testdata/gotest/logtest"
)

// TestLogger: with Options.Logger, on both eras, a path a tool's set
// refuses is one record naming the tool, the session and the reason; the
// root its revision refuses is recorded once. Without it nothing is
// logged, not even to slog's default logger.
func TestLogger(t *testing.T) {
	var def logtest.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(def.Logger())
	for _, v := range versions {
		t.Run("pin "+v, func(t *testing.T) {
			dir, file := testDir(t)
			outside := filepath.Join(filepath.Dir(dir), "outside.txt")
			if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
				t.Fatal(err)
			}
			var buf logtest.Buffer
			roots := []mcp.Root{{URI: fileURI(dir)}, {URI: "https://example.com/"}}
			c := serve(t, newRoots(t, Options{Logger: buf.Logger()}), v, roots...)
			for range 2 {
				if text, err := read(t, c, file); err != nil || text != "one" {
					t.Fatalf("inside: %q, %v", text, err)
				}
			}
			if _, err := read(t, c, outside); err == nil {
				t.Fatal("read outside the roots")
			}
			got := buf.ByMessage(t)
			refused, left := got["roots: path refused"], got["roots: root left out"]
			if len(refused) != 1 || refused[0]["path"] != outside || refused[0]["reason"] != "outside_roots" || refused[0]["tool"] != "read" || refused[0]["session"] == nil || refused[0]["revision"] == nil {
				t.Errorf("refusals %v; want one, of %s, in tool read, with the session and revision", refused, outside)
			}
			if len(left) != 1 || left[0]["index"] != 1.0 || left[0]["uri"] != "https://example.com/" {
				t.Errorf("roots left out: %v; want roots[1], once", left)
			}
			c = serve(t, newRoots(t, Options{}), v, roots...)
			read(t, c, outside)
		})
	}
	if got := def.Records(t); len(got) != 0 {
		t.Errorf("logged to slog's default logger: %v", got)
	}
}
