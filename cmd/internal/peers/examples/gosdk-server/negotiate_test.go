package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// A client may offer at initialize a version the server answers with
// another; the session then speaks the answered one. Adapter.Middleware
// records it, since go-sdk v1.8.0 reports the offered one
// (ServerRequest.ProtocolVersion, ServerSession.InitializeParams).
func TestNegotiatedVersion(t *testing.T) {
	tr := adaptertest.NewTree(t)
	call := func(t *testing.T, offered string) (*peertest.Peer, string) {
		t.Helper()
		return rawCall(t, offered, filepath.Join(tr.Root, "in.txt"))
	}

	// A date go-sdk does not know, answered with 2025-11-25: the adapter
	// asks with roots/list, as 2025-11-25 does (the offered date is no
	// revision the gate serves).
	t.Run("unknown", func(t *testing.T) {
		p, answered := call(t, "2025-12-01")
		if answered != "2025-11-25" {
			t.Fatalf("initialize answered %s, want 2025-11-25", answered)
		}
		ask := p.Expect("roots/list")
		p.Send(`{"jsonrpc":"2.0","id":` + string(ask.ID) + `,"result":{"roots":[{"uri":"` + adaptertest.FileURI(tr.Root) + `"}]}}`)
		if _, raw := p.Recv(); !strings.Contains(raw, `"text":"inside"`) {
			t.Errorf("read_file answered %s, want the file", raw)
		}
	})

	// 2026-07-28 offered at initialize, answered with 2025-11-25 (that
	// revision has no initialize). The session speaks 2025-11-25, but
	// go-sdk v1.8.0 judges it by the offered version: it refuses
	// ServerSession.ListRoots (as on 2026-07-28) and marks results with
	// resultType. The adapter asks the 2025-11-25 way; go-sdk refuses to
	// send, so the tool fails and nothing reaches the client. When go-sdk
	// judges by the answered version this test fails: expect the file then.
	t.Run("2026-07-28", func(t *testing.T) {
		p, answered := call(t, "2026-07-28")
		if answered != "2025-11-25" {
			t.Fatalf("initialize answered %s, want 2025-11-25", answered)
		}
		m, raw := p.Recv()
		if m.Method != "" || !strings.Contains(raw, `"isError":true`) || !strings.Contains(raw, `roots/list\" cannot be sent while serving a request on protocol version 2026-07-28`) {
			t.Errorf("read_file answered %s, want go-sdk's refusal to send roots/list", raw)
		}
	})
}

// rawCall connects a hand-written client to the example server, offers
// version offered at initialize, and calls read_file on path. It returns
// the client and the version the server answered.
func rawCall(t *testing.T, offered, path string) (*peertest.Peer, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	t.Cleanup(cancel)
	ours, theirs := peertest.Pipes()
	ss, err := newServer(slog.New(slog.DiscardHandler), nil, nil).Connect(ctx, &mcp.IOTransport{Reader: theirs.R, Writer: theirs.W}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ours.Close(); ss.Close() })
	p := peertest.NewPeer(t, ours)
	p.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + offered + `","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"raw","version":"0"}}}`)
	m, raw := p.Recv()
	var init struct{ ProtocolVersion string }
	if err := json.Unmarshal(m.Result, &init); err != nil {
		t.Fatalf("initialize answered %s", raw)
	}
	p.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	args, _ := json.Marshal(map[string]any{"name": "read_file", "arguments": map[string]string{"path": path}})
	p.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + string(args) + `}`)
	return p, init.ProtocolVersion
}

// One bad root does not cost the good ones: roots/list answered with a
// good root, one without a uri, one on another host and one that is not
// file:// still lets read_file read inside the good one, and only there.
// A root go-sdk cannot decode (a uri that is not a string) fails the
// whole answer inside go-sdk, before the adapter sees it.
func TestBadRootsInAnswer(t *testing.T) {
	tr := adaptertest.NewTree(t)
	answer := func(t *testing.T, path, roots string) string {
		p, _ := rawCall(t, "2025-06-18", path)
		ask := p.Expect("roots/list")
		p.Send(`{"jsonrpc":"2.0","id":` + string(ask.ID) + `,"result":{"roots":` + roots + `}}`)
		_, raw := p.Recv()
		return raw
	}
	bad := `[{"uri":"` + adaptertest.FileURI(tr.Root) + `"},{"name":"no uri"},{"uri":"file://otherhost` + tr.Outside + `"},{"uri":"https://example.com/"}]`
	if raw := answer(t, filepath.Join(tr.Root, "in.txt"), bad); !strings.Contains(raw, `"text":"inside"`) {
		t.Errorf("inside the good root: %s, want the file", raw)
	}
	if raw := answer(t, filepath.Join(tr.Outside, "secret"), bad); !strings.Contains(raw, `"isError":true`) || !strings.Contains(raw, "outside the client's roots") {
		t.Errorf("inside the other host's root: %s, want refused", raw)
	}
	undecodable := `[{"uri":"` + adaptertest.FileURI(tr.Root) + `"},{"uri":5}]`
	raw := answer(t, filepath.Join(tr.Root, "in.txt"), undecodable)
	if !strings.Contains(raw, `"isError":true`) || strings.Contains(raw, `"text":"inside"`) {
		t.Errorf("with a root go-sdk cannot decode: %s, want go-sdk's error", raw)
	}
	t.Logf("go-sdk on an undecodable root: %s", raw)
}
