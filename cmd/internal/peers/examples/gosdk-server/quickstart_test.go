//lint:file-ignore SA1019 go-sdk's client roots API, which it deprecates, is what a test of a roots server drives

package main

// The README's quick start, as a user would write it: the test skeleton
// with a client pinned to a revision, -allow, and the migration options.

import (
	"context"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
)

// The README's test skeleton: read_file reads a file inside the client's
// root, on 2025-06-18 and on the newest revision.
func TestQuickStart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(file, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	server := newServer(slog.New(slog.DiscardHandler), nil, nil)
	for _, version := range []string{"2025-06-18", ""} { // "": the newest, 2026-07-28
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
		client.AddRoots(&mcp.Root{URI: "file://" + filepath.ToSlash(dir)})
		clientEnd, serverEnd := mcp.NewInMemoryTransports()
		if _, err := server.Connect(ctx, serverEnd, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := client.Connect(ctx, clientEnd, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": file}})
		if err != nil || res.IsError {
			t.Fatalf("%q: read_file: %v %v", version, res, err)
		}
		cs.Close()
		if got := res.Content[0].(*mcp.TextContent).Text; got != "hello" {
			t.Errorf("%q: read %q", version, got)
		}
	}
}

// With -allow, a client whose root is the whole file system reads only
// inside the allowed directory.
func TestAllow(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	allowed, other := filepath.Join(base, "allowed"), filepath.Join(base, "other")
	for _, d := range []string{allowed, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f.txt"), []byte(filepath.Base(d)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	server := newServer(slog.New(slog.DiscardHandler), []string{allowed}, nil)
	for _, v := range versions {
		p := connectTo(t, ctx, server, newClient(nil), v.pin, &mcp.Root{URI: "file:///"})
		p.mustRead(t, ctx, filepath.Join(allowed, "f.txt"), "allowed")
		p.mustRefuseAs(t, ctx, filepath.Join(other, "f.txt"), "outside the directories the server allows")
	}
}

// The README's migration options: a client without roots works in the
// allowed directory alone, on every revision; OnDeprecatedRoots hears of
// the one client that uses roots where they are deprecated.
func TestMigration(t *testing.T) {
	ctx := context.Background()
	allow := []string{t.TempDir()}
	file := filepath.Join(allow[0], "f.txt")
	if err := os.WriteFile(file, []byte("allowed"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	logger := log.New(&logged, "", 0)
	roots := gosdkroots.New(
		gosdkroots.RootSetOptions(gosdkroots.Bounds(allow...)),
		gosdkroots.FallBackToBounds(nil), // clients without roots work in -allow alone
		gosdkroots.OnDeprecatedRoots(func(version string) { logger.Printf("a client uses roots, deprecated in %s", version) }),
	)
	server := roots.NewServer(&mcp.Implementation{Name: "migrating", Version: "v0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "read_file"}, gosdkroots.HandlerFor(func(ctx context.Context, req *mcp.CallToolRequest, in readFileArgs) (*mcp.CallToolResult, any, error) {
		set, err := roots.RootSet(ctx, req)
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
	for _, pin := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", ""} {
		noRoots := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
		p := connectTo(t, ctx, server, newClient(noRoots), pin)
		p.mustRead(t, ctx, file, "allowed")
		p.mustRefuseAs(t, ctx, filepath.Join(filepath.Dir(allow[0]), "elsewhere.txt"), "outside the directories the server allows")
		if n := p.asked.Load(); n != 0 {
			t.Errorf("%q: a client without roots was asked %d times", pin, n)
		}
	}
	if logged.Len() != 0 {
		t.Errorf("OnDeprecatedRoots was called for clients without roots: %s", logged.String())
	}
	p := connectTo(t, ctx, server, newClient(nil), "", &mcp.Root{URI: "file://" + filepath.ToSlash(allow[0])})
	p.mustRead(t, ctx, file, "allowed")
	if got := logged.String(); got != "a client uses roots, deprecated in 2026-07-28\n" {
		t.Errorf("OnDeprecatedRoots logged %q, want one line for the one call", got)
	}
}
