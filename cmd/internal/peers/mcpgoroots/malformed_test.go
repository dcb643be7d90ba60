package mcpgoroots_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

const (
	metaVersion = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	capsKey     = `"io.modelcontextprotocol/clientCapabilities"`
)

// A 2026-07-28 request whose _meta leaves out the client capabilities is
// malformed: Result hands the gate's error back as the handler's error (a
// JSON-RPC error, which mcp-go sends as -32603), not as a tool error, and
// it is not the error of a client whose capabilities lack roots.
func TestResultMalformedRequest(t *testing.T) {
	var s mcpgoroots.Session
	_, gateErr := s.Roots(context.Background(), json.RawMessage(`{"name":"read","_meta":{`+metaVersion+`}}`))
	res, err := mcpgoroots.Result(gateErr)
	var bad *mcpgoroots.MalformedRequestError
	if res != nil || !errors.As(err, &bad) || bad.Object.Code != -32602 || errors.Is(err, mcpgoroots.ErrNoRootsCapability) {
		t.Errorf("Result = %+v, %v; want the gate's *MalformedRequestError (-32602) as the handler's error", res, err)
	}
}

// mcp-go refuses a 2026-07-28 tools/call whose _meta leaves out the
// client capabilities, or gives them as null or as something that does
// not decode as capabilities, with -32602 itself: the tool handler, and
// so the adapter, never sees it. The adapter's documentation says so;
// this pins it.
func TestMCPGoRefusesMalformedMeta(t *testing.T) {
	r := newRoots(t, mcpgoroots.Options{})
	s := server.NewMCPServer("malformed", "v0", r.ServerOption())
	var ran atomic.Int32
	s.AddTool(mcp.NewTool("read"), r.Tool(func(context.Context, mcp.CallToolRequest, *mcpgoroots.RootSet) (*mcp.CallToolResult, error) {
		ran.Add(1)
		return mcp.NewToolResultText("read"), nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	ours, theirs := peertest.Pipes()
	done := make(chan struct{})
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(io.Discard, "", 0))
	go func() {
		defer close(done)
		_ = stdio.Listen(ctx, theirs.R, theirs.W)
	}()
	defer func() {
		cancel()
		ours.Close()
		theirs.Close()
		<-done
	}()
	peer := peertest.NewPeer(t, ours)
	for i, meta := range []string{
		`{` + metaVersion + `}`,
		`{` + metaVersion + `,` + capsKey + `:null}`,
		`{` + metaVersion + `,` + capsKey + `:"roots"}`,
		`{` + metaVersion + `,` + capsKey + `:{"roots":5}}`,
	} {
		peer.Send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"read","arguments":{},"_meta":` + meta + `}}`)
		if m, raw := peer.Recv(); m.Error == nil || m.Error.Code != -32602 {
			t.Errorf("_meta %s: %s, want error -32602", meta, raw)
		}
	}
	if n := ran.Load(); n != 0 {
		t.Errorf("the tool handler ran %d times", n)
	}
}
