package main

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// The example over mcp-go's Streamable HTTP transport, with mcp-go's
// streamable client: on 2025-06-18 roots/list reaches the client over the
// session's stream, on 2026-07-28 each POST stands alone; either way a
// file inside a root reads, one outside is refused, and a root change is
// seen.
func TestMCPGoClientOverHTTP(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	s, err := newServer(slog.New(slog.DiscardHandler), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithStreamableHTTPLogger(quiet)))
	defer srv.Close()
	eachVersion(t, func(t *testing.T, ctx context.Context, version string, tr adaptertest.Tree) {
		c, _, roots := httpClient(t, ctx, srv.URL+"/mcp", version, tr.Root)
		defer c.Close()
		t.Logf("negotiated %s", c.ProtocolVersion())
		if text, isErr := readFile(t, ctx, c, filepath.Join(tr.Root, "in.txt")); isErr || text != "inside" {
			t.Errorf("inside: %q (error %t), want the file", text, isErr)
		}
		if text, isErr := readFile(t, ctx, c, filepath.Join(tr.Root, "link")); !refused(text, isErr) {
			t.Errorf("link out: %q (error %t), want refused", text, isErr)
		}
		if err := roots.Set(ctx, mcp.Root{URI: adaptertest.FileURI(tr.Other), Name: "other"}); err != nil {
			t.Fatal(err)
		}
		tr.AwaitOther(t, ctx, func(p string) (string, bool) { return readFile(t, ctx, c, p) })
	})
}

// mcp-go v1.2.1's Streamable HTTP server queues a 2025-era roots/list for
// the standalone GET stream only (elicitation, by contrast, goes out on the
// stream of the POST being served), so a client that opened no GET stream
// never sees it and the tool call waits; mcp-go puts no bound on that
// wait. The adapter's Timeout does: the call ends with a tool error
// wrapping ErrNoAnswer.
func TestMCPGoHTTPRootsNeedGETStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	roots, err := mcpgoroots.New(mcpgoroots.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := server.NewMCPServer("no-get-stream", "v0", roots.ServerOption())
	s.AddTool(mcp.NewTool("read_file"), roots.Tool(func(context.Context, mcp.CallToolRequest, *mcpgoroots.RootSet) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("roots arrived"), nil
	}))
	quiet := slog.New(slog.DiscardHandler)
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithStreamableHTTPLogger(quiet)))
	defer srv.Close()
	ht, err := transport.NewStreamableHTTP(srv.URL+"/mcp", transport.WithHTTPLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	asked := &countingRoots{ClientRoots: mcpgoroots.NewClientRoots()}
	c := client.NewClient(ht, client.WithRootsHandler(asked), client.WithProtocolVersion("2025-06-18"))
	defer c.Close()
	if _, err := start(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	text, isErr := readFile(t, ctx, c, "/x")
	if n := asked.n.Load(); n != 0 || !isErr || !strings.Contains(text, mcpgoroots.ErrNoAnswer.Error()) {
		t.Errorf("read_file = %q (error %t), roots/list reached the client %d times; want never, and no answer: mcp-go may now send roots/list on the POST stream, update the peer fact in cmd/internal/peers/README.md", text, isErr, n)
	}
}

// countingRoots counts the roots/list requests that reach a client.
type countingRoots struct {
	*mcpgoroots.ClientRoots
	n atomic.Int32
}

func (c *countingRoots) ListRoots(ctx context.Context, req mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	c.n.Add(1)
	return c.ClientRoots.ListRoots(ctx, req)
}

// httpClient is mcp-go's streamable client of endpoint, pinned to version
// ("" for the newest) and started, whose one root is root; on a 2025-era
// version it opens the standalone GET stream, where mcp-go's server sends
// roots/list (TestMCPGoHTTPRootsNeedGETStream).
func httpClient(t *testing.T, ctx context.Context, endpoint, version, root string) (*client.Client, *transport.StreamableHTTP, *mcpgoroots.ClientRoots) {
	t.Helper()
	topts := []transport.StreamableHTTPCOption{transport.WithHTTPLogger(slog.New(slog.DiscardHandler))}
	if version != "" {
		//lint:ignore SA1019 the GET stream, deprecated with 2026-07-28, is how mcp-go's server reaches a 2025-06-18 client
		topts = append(topts, transport.WithContinuousListening())
	}
	ht, err := transport.NewStreamableHTTP(endpoint, topts...)
	if err != nil {
		t.Fatal(err)
	}
	roots := mcpgoroots.NewClientRoots(mcp.Root{URI: adaptertest.FileURI(root), Name: "root"})
	opts := []client.ClientOption{client.WithRootsHandler(roots)}
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c := client.NewClient(ht, opts...)
	roots.Attach(c)
	if _, err := start(ctx, c, version); err != nil {
		t.Fatal(err)
	}
	return c, ht, roots
}
