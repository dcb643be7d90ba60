package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// TestReplicas is the go-sdk example's TestReplicas on mcp-go: three
// replicas sharing sealer keys behind the recipe's balancer, 200 calls of
// a 2026-07-28 client, four at a time, while the keys rotate in
// SetKeys's three steps and the replica of a 2025-06-18 session stops.
// No 2026-07-28 call fails; the 2025-06-18 session's next call fails
// with the balancer's error, and a new session works.
func TestReplicas(t *testing.T) {
	tr := adaptertest.NewTree(t)
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	quiet := slog.New(slog.DiscardHandler)
	k1 := mcpgoroots.StateKey{ID: "k1", Secret: bytes.Repeat([]byte{1}, 32)}
	k2 := mcpgoroots.StateKey{ID: "k2", Secret: bytes.Repeat([]byte{2}, 32)}

	var sealers []*mcpgoroots.StateSealer
	var servers []*httptest.Server
	var urls []string
	for range 3 {
		sealer, err := mcpgoroots.NewStateSealer(mcpgoroots.StateSealerConfig{Current: k1, Audience: "mcpgo-server"})
		if err != nil {
			t.Fatal(err)
		}
		s, err := newServer(slog.New(slog.DiscardHandler), nil, sealer)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithStreamableHTTPLogger(quiet)))
		t.Cleanup(ts.Close)
		sealers, servers, urls = append(sealers, sealer), append(servers, ts), append(urls, ts.URL)
	}
	b, err := adaptertest.NewBalancer(urls...)
	if err != nil {
		t.Fatal(err)
	}
	lb := adaptertest.BalancedProxy(t, b)

	connect := func(version string) (*client.Client, *transport.StreamableHTTP) {
		t.Helper()
		c, ht, _ := httpClient(t, ctx, lb.URL+"/mcp", version, tr.Root)
		return c, ht
	}
	in := filepath.Join(tr.Root, "in.txt")
	read := func(c *client.Client) error {
		req := mcp.CallToolRequest{}
		req.Params.Name = "read_file"
		req.Params.Arguments = map[string]any{"path": in}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return err
		}
		if text, ok := res.Content[0].(mcp.TextContent); !ok || res.IsError || text.Text != "inside" {
			return fmt.Errorf("read_file: %+v", res.Content)
		}
		return nil
	}
	rotate := func(current mcpgoroots.StateKey, older ...mcpgoroots.StateKey) {
		for _, s := range sealers {
			if err := s.SetKeys(current, older...); err != nil {
				t.Error(err)
			}
		}
	}

	legacy, legacyHT := connect("2025-06-18")
	if err := read(legacy); err != nil {
		t.Fatal(err)
	}
	home, ok := b.Home(legacyHT.GetSessionId())
	if !ok {
		t.Fatalf("the balancer saw no session %q", legacyHT.GetSessionId())
	}

	current, _ := connect("")
	defer current.Close()
	if v := current.ProtocolVersion(); v != "2026-07-28" {
		t.Fatalf("negotiated %s, want 2026-07-28", v)
	}
	const calls = 200
	failed := adaptertest.Traffic(t, calls, 4, map[int]func(){
		60:  func() { rotate(k1, k2) },
		100: func() { rotate(k2, k1) },
		130: func() {
			servers[home].CloseClientConnections()
			servers[home].Close()
		},
		170: func() { rotate(k2) },
	}, func() error { return read(current) })
	if failed > 0 {
		t.Errorf("%d of %d 2026-07-28 calls failed", failed, calls)
	}
	for i, n := range b.Served() {
		if n == 0 {
			t.Errorf("replica %d answered nothing", i)
		}
	}

	err = read(legacy)
	if err == nil || !errors.Is(err, transport.ErrSessionTerminated) && !bytes.Contains([]byte(err.Error()), []byte("Bad Gateway")) && !bytes.Contains([]byte(err.Error()), []byte("502")) {
		t.Errorf("a call on the stopped replica's session: %v, want the transport's error", err)
	}
	legacy.Close()
	again, _ := connect("2025-06-18")
	defer again.Close()
	if err := read(again); err != nil {
		t.Errorf("a new 2025-06-18 session: %v", err)
	}
}
