//lint:file-ignore SA1019 a 2025-era mcp-go client needs the standalone GET stream mcp-go deprecates

package mcpgo

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// changingRoots is a client.RootsHandler whose roots can be replaced.
type changingRoots struct {
	mu    sync.Mutex
	roots []mcp.Root
}

func (c *changingRoots) set(dirs []string) {
	roots := make([]mcp.Root, len(dirs))
	for i, d := range dirs {
		roots[i] = mcp.Root{URI: fileURI(d)}
	}
	c.mu.Lock()
	c.roots = roots
	c.mu.Unlock()
}

func (c *changingRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &mcp.ListRootsResult{Roots: c.roots}, nil
}

// readTool is the tool read of r's server s: the file at its path, through
// the request's RootSet.
func readTool(r *Roots, s *server.MCPServer) {
	s.AddTool(mcp.NewTool("read", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *RootSet) (*mcp.CallToolResult, error) {
		data, err := set.ReadFile(req.GetString("path", ""))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}))
}

// httpClient connects an mcp-go client with roots over Streamable HTTP to
// ts, at version ("": the newest, 2026-07-28). A 2025-era client opens
// the standalone GET stream, on which mcp-go sends roots/list (and which
// makes mcp-go's client speak a 2025-era revision).
func httpClient(t *testing.T, ts *httptest.Server, version string, roots client.RootsHandler) *client.Client {
	t.Helper()
	var listen []transport.StreamableHTTPCOption
	if version != "" && !mcp.IsModernProtocol(version) {
		listen = append(listen, transport.WithContinuousListening())
	}
	tr, err := transport.NewStreamableHTTP(ts.URL+"/mcp", listen...)
	if err != nil {
		t.Fatal(err)
	}
	opts := []client.ClientOption{client.WithRootsHandler(roots)}
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c := client.NewClient(tr, opts...)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "client", Version: "v0"}
	init.Params.ProtocolVersion = version
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}
