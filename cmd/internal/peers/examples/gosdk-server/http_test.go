//lint:file-ignore SA1019 the Go SDK client's roots API, which it deprecates, is the peer under test

package main

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
)

// The example over Streamable HTTP, as -http serves it, against go-sdk's
// streamable client: reads inside, refuses outside, follows a root change.
func TestStreamableHTTP(t *testing.T) {
	server := newServer(slog.New(slog.DiscardHandler), nil, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", gosdkroots.HTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	ts := httptest.NewServer(mux)
	defer ts.Close()
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			tr, ctx := setup(t)
			client := newClient(nil)
			if err := gosdkroots.AddRoots(client, &mcp.Root{URI: adaptertest.FileURI(tr.Root)}); err != nil {
				t.Fatal(err)
			}
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, &mcp.ClientSessionOptions{ProtocolVersion: v.pin})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != v.want {
				t.Fatalf("negotiated %s, want %s", got, v.want)
			}
			p := &peer{client: client, cs: cs}
			p.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")
			p.mustRefuse(t, ctx, filepath.Join(tr.Root, "link"))
			p.mustRefuse(t, ctx, tr.Root+"/../outside/secret")

			// Over HTTP the list_changed notification is a POST of its own;
			// wait, bounded by ctx, until the server has taken it.
			client.RemoveRoots(adaptertest.FileURI(tr.Root))
			client.AddRoots(&mcp.Root{URI: adaptertest.FileURI(tr.Other)})
			for {
				if text, isErr, err := p.read(ctx, filepath.Join(tr.Other, "new.txt")); err == nil && !isErr && text == "other" {
					break
				}
				if ctx.Err() != nil {
					t.Fatal("the new root never read")
				}
			}
			p.mustRefuse(t, ctx, filepath.Join(tr.Root, "in.txt"))
		})
	}
}
