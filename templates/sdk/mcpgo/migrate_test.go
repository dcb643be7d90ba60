package mcpgo

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// With FallBackToBounds, a client without roots works in the server's
// directories alone, and one with roots in their overlap, on both eras;
// OnDeprecatedRoots is called once per tool call that gets roots on
// 2026-07-28 and never on 2025-06-18.
func TestFallBackToBounds(t *testing.T) {
	base := t.TempDir()
	bound, sub := filepath.Join(base, "bound"), filepath.Join(base, "bound", "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	boundFile, subFile := filepath.Join(bound, "f.txt"), filepath.Join(sub, "g.txt")
	for f, content := range map[string]string{boundFile: "bound", subFile: "sub"} {
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range versions {
		for _, withRoots := range []bool{false, true} {
			var deprecated atomic.Int32
			r := newRoots(t, Options{FallBackToBounds: true, OnDeprecatedRoots: func(string) { deprecated.Add(1) }})
			s := server.NewMCPServer("test", "v0", r.ServerOption())
			s.AddTool(mcp.NewTool("read", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *RootSet) (*mcp.CallToolResult, error) {
				data, err := set.ReadFile(req.GetString("path", ""))
				if err != nil {
					return mcp.NewToolResultError(err.Error()), nil
				}
				return mcp.NewToolResultText(string(data)), nil
			}, Bounds(bound)))
			var opts []client.ClientOption
			if withRoots {
				opts = append(opts, client.WithRootsHandler(rootsList{{URI: fileURI(sub)}}))
			}
			if v != "" {
				opts = append(opts, client.WithProtocolVersion(v))
			}
			c, err := client.NewInProcessClientWithOptions(s, opts...)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			init := mcp.InitializeRequest{}
			init.Params.ClientInfo = mcp.Implementation{Name: "client", Version: "v0"}
			init.Params.ProtocolVersion = v
			if _, err := c.Initialize(ctx, init); err != nil {
				t.Fatal(err)
			}
			wantBound := !withRoots
			if text, err := read(t, c, boundFile); (err == nil && text == "bound") != wantBound {
				t.Errorf("pin %q, client roots %t: bound/f.txt: %q, %v", v, withRoots, text, err)
			}
			if text, err := read(t, c, subFile); err != nil || text != "sub" {
				t.Errorf("pin %q, client roots %t: bound/sub/g.txt: %q, %v", v, withRoots, text, err)
			}
			want := 0
			if v == "" && withRoots {
				want = 2
			}
			if n := deprecated.Load(); n != int32(want) {
				t.Errorf("pin %q, client roots %t: OnDeprecatedRoots called %d times, want %d", v, withRoots, n, want)
			}
			c.Close()
		}
	}
}
