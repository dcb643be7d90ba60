package main

import (
	"context"
	"io"
	"log"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
)

// The example over mcp-go's Streamable HTTP transport, with mcp-go's
// streamable client: on 2025-06-18 roots/list reaches the client over the
// session's stream, on 2026-07-28 each POST stands alone; either way a
// file inside a root reads, one outside is refused, and a root change is
// seen.
func TestMCPGoClientOverHTTP(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	srv := httptest.NewServer(server.NewStreamableHTTPServer(newServer(log.New(io.Discard, "", 0)), server.WithStreamableHTTPLogger(quiet)))
	defer srv.Close()
	eachVersion(t, func(t *testing.T, ctx context.Context, version string, tr adaptertest.Tree) {
		topts := []transport.StreamableHTTPCOption{transport.WithHTTPLogger(quiet)}
		if version != "" {
			topts = append(topts, transport.WithContinuousListening())
		}
		ht, err := transport.NewStreamableHTTP(srv.URL+"/mcp", topts...)
		if err != nil {
			t.Fatal(err)
		}
		roots := mcpgoroots.NewClientRoots(mcp.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"})
		opts := []client.ClientOption{client.WithRootsHandler(roots)}
		if version != "" {
			opts = append(opts, client.WithProtocolVersion(version))
		}
		c := client.NewClient(ht, opts...)
		roots.Attach(c)
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		init := mcp.InitializeRequest{}
		init.Params.ClientInfo = mcp.Implementation{Name: "mcp-go-client", Version: "v1.2.1"}
		init.Params.ProtocolVersion = version
		if _, err := c.Initialize(ctx, init); err != nil {
			t.Fatal(err)
		}
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
		for {
			text, isErr := readFile(t, ctx, c, filepath.Join(tr.Other, "new.txt"))
			if !isErr && text == "other" {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("read_file in the new root still %q after the roots changed", text)
			}
		}
	})
}
