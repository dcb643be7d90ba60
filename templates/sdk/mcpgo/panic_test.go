package mcpgo

import (
	"context"
	"log"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rootsgen/rootsgen/testdata/gotest/logtest"
)

// TestToolPanics: a handler given to Tool that panics fails its call with
// a tool error and a log record holding the stack; the server answers the
// next call, in process and over Streamable HTTP, on both eras.
func TestToolPanics(t *testing.T) {
	var logs logtest.Buffer
	out, flags := log.Writer(), log.Flags()
	log.SetOutput(&logs)
	defer func() { log.SetOutput(out); log.SetFlags(flags) }()

	r := newRoots(t, Options{})
	s := server.NewMCPServer("test", "v0", r.ServerOption())
	s.AddTool(mcp.NewTool("read", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *RootSet) (*mcp.CallToolResult, error) {
		data, err := set.ReadFile(req.GetString("path", ""))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}))
	s.AddTool(mcp.NewTool("boom", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *RootSet) (*mcp.CallToolResult, error) {
		var none *RootSet
		return nil, none.Close() // a nil dereference
	}))
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	dir, file := testDir(t)
	for _, version := range []string{"2025-06-18", ""} {
		for _, over := range []string{"process", "HTTP"} {
			var c *client.Client
			if over == "process" {
				c = serveOn(t, s, version, mcp.Root{URI: fileURI(dir)})
			} else {
				roots := new(changingRoots)
				roots.set([]string{dir})
				c = httpClient(t, ts, version, roots)
			}
			ctx := context.Background()
			req := mcp.CallToolRequest{}
			req.Params.Name = "boom"
			res, err := c.CallTool(ctx, req)
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(mcp.TextContent).Text, "panicked") {
				t.Errorf("%q over %s: the panicking call: %+v, %v; want a tool error", version, over, res, err)
			}
			if text, err := read(t, c, file); err != nil || text != "one" {
				t.Errorf("%q over %s: the next call: %q, %v", version, over, text, err)
			}
		}
	}
	if got := logs.String(); !strings.Contains(got, `panic in the handler of tool "boom"`) || !strings.Contains(got, "panic_test.go") {
		t.Errorf("the log has no record of the panic with its stack:\n%s", got)
	}
}
