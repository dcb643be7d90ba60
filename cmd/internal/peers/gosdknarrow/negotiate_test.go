//lint:file-ignore SA1019 the Go SDK's roots API, which it deprecates, is the peer under test

package gosdknarrow_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdknarrow"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// The kit serves 2025-06-18 and 2026-07-28 only, of the five revisions
// go-sdk v1.8.0 negotiates: a go-sdk client offering 2025-11-25 (or
// 2025-03-26) ends on 2025-06-18, and one offering nothing in particular
// on 2026-07-28; each reads a file inside its root through the kit.
func TestNegotiatesOnlyServedRevisions(t *testing.T) {
	var served []string
	for _, r := range gosdknarrow.Revisions() {
		served = append(served, r.Version)
	}
	if !slices.Equal(served, []string{"2025-06-18", "2026-07-28"}) {
		t.Fatalf("the kit serves %v", served)
	}
	tr := adaptertest.NewTree(t)
	for _, c := range []struct{ offered, want string }{
		{"2025-11-25", "2025-06-18"},
		{"2025-03-26", "2025-06-18"},
		{"", "2026-07-28"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
		defer cancel()
		a := gosdknarrow.New()
		server := a.NewServer(&mcp.Implementation{Name: "narrow", Version: "v0"}, nil)
		mcp.AddTool(server, &mcp.Tool{Name: "read"}, gosdknarrow.HandlerFor(func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Path string `json:"path"`
		}) (*mcp.CallToolResult, any, error) {
			set, err := a.RootSet(ctx, req)
			if err != nil {
				return nil, nil, err
			}
			defer set.Close()
			data, err := set.ReadFile(in.Path)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
		}))
		client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil)
		client.AddRoots(&mcp.Root{URI: adaptertest.FileURI(tr.Root)})
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: c.offered})
		if err != nil {
			t.Fatal(err)
		}
		if got := cs.InitializeResult().ProtocolVersion; got != c.want {
			t.Errorf("offered %q: negotiated %s, want %s", c.offered, got, c.want)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": filepath.Join(tr.Root, "in.txt")}})
		if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "inside" {
			t.Errorf("offered %q: read_file %+v, %v", c.offered, res.Content[0], err)
		}
		cs.Close()
		ss.Wait()
	}
}
