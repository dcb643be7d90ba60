package mcpgoroots_test

import (
	"context"
	"io"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// calls is how many tool calls each routing test makes: enough that a
// goroutine or two left per call would stand out.
const calls = 200

// stdioWire serves an mcp-go server, whose tool "read" reads through the
// RootSet of an adapter with a short Timeout, over an in-process stdio
// wire, and returns a hand-written client on the other end that offered
// 2025-06-18 with the capabilities caps (JSON).
func stdioWire(t *testing.T, caps string) *adaptertest.Wire {
	t.Helper()
	r := newRoots(t, mcpgoroots.Options{Timeout: 50 * time.Millisecond})
	s := server.NewMCPServer("route", "v0", r.ServerOption())
	s.AddTool(mcp.NewTool("read", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *mcpgoroots.RootSet) (*mcp.CallToolResult, error) {
		data, err := set.ReadFile(req.GetString("path", ""))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	ours, theirs := peertest.Pipes()
	done := make(chan struct{})
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(io.Discard, "", 0)) // "queue full" as the calls arrive at once
	go func() {
		defer close(done)
		_ = stdio.Listen(ctx, theirs.R, theirs.W)
	}()
	t.Cleanup(func() {
		cancel()
		ours.Close()
		theirs.Close()
		<-done
	})
	return adaptertest.Dial(t, ours, "2025-06-18", caps)
}

// failsWith reports whether raw, the response to a tools/call, is an error
// (a JSON-RPC error or a result marked isError) whose text holds want.
func failsWith(raw, want string) bool {
	return strings.Contains(raw, want) && (strings.Contains(raw, `"error":`) || strings.Contains(raw, `"isError":true`))
}

const (
	plainCall = `{"name":"read","arguments":{"path":"/f"}}`
	call2026  = `{"name":"read","arguments":{"path":"/f"},"_meta":` + adaptertest.MetaNaming2026 + `}`
)

// A 2025-06-18 session whose client did not declare roots at initialize
// stays on the legacy path when its calls name 2026-07-28 in _meta and
// declare roots there: each call fails with ErrNoRootsCapability, the
// client is never sent roots/list, and nothing the calls started outlives
// them. mcp-go copies the capabilities of such a _meta into the session's,
// so a call without _meta after them must fail the same way: the adapter
// keeps the capabilities of initialize. Before, the calls naming
// 2026-07-28 were answered with input_required results, and the call
// after them asked the silent client for roots.
func TestMetaCannotLeaveLegacySessionNoRoots(t *testing.T) {
	wire := stdioWire(t, `{}`)
	baseline := adaptertest.Idle()
	got := wire.Call(calls, call2026)
	if len(got) != calls {
		t.Errorf("%d of %d calls naming 2026-07-28 answered within %v", len(got), calls, peertest.Wait)
	}
	for _, raw := range got {
		if !failsWith(raw, mcpgoroots.ErrNoRootsCapability.Error()) {
			t.Errorf("a call naming 2026-07-28: %s, want %v", raw, mcpgoroots.ErrNoRootsCapability)
			break
		}
	}
	if got := wire.Call(1, plainCall); len(got) != 1 || !failsWith(got[0], mcpgoroots.ErrNoRootsCapability.Error()) {
		t.Errorf("a call without _meta after them: %q, want %v", got, mcpgoroots.ErrNoRootsCapability)
	}
	if n := wire.Asked(); n != 0 {
		t.Errorf("the client was sent roots/list %d times; it never declared roots", n)
	}
	if n := adaptertest.Settle(baseline); n > baseline {
		t.Errorf("%d goroutines after %d calls, %d before", n, calls, baseline)
	}
}

// A 2025-06-18 session whose client declared roots but never answers
// stays on the legacy path too when its calls name 2026-07-28 in _meta:
// every call fails, none waits longer than the adapter's Timeout, and
// nothing is left parked. (mcp-go judges a request by its _meta and will
// not send roots/list while serving one that names 2026-07-28, so those
// calls fail before anything is sent.) Before, they were answered with an
// input_required result.
func TestMetaCannotLeaveLegacySessionSilentClient(t *testing.T) {
	wire := stdioWire(t, `{"roots":{"listChanged":true}}`)
	if got := wire.Call(1, plainCall); len(got) != 1 || !failsWith(got[0], mcpgoroots.ErrNoAnswer.Error()) {
		t.Fatalf("a call without _meta: %q, want %v", got, mcpgoroots.ErrNoAnswer)
	}
	baseline := adaptertest.Idle()
	got := wire.Call(calls, call2026)
	if len(got) != calls {
		t.Errorf("%d of %d calls naming 2026-07-28 answered within %v", len(got), calls, peertest.Wait)
	}
	for _, raw := range got {
		if !failsWith(raw, "roots/list") || strings.Contains(raw, "input_required") {
			t.Errorf("a call naming 2026-07-28: %s, want a roots/list error", raw)
			break
		}
	}
	if n := adaptertest.Settle(baseline); n > baseline {
		t.Errorf("%d goroutines after %d calls, %d before", n, calls, baseline)
	}
}
