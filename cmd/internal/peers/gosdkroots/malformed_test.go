package gosdkroots_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

const (
	metaVersion = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	capsKey     = `"io.modelcontextprotocol/clientCapabilities"`
)

// A 2026-07-28 request whose _meta leaves out the client capabilities is
// malformed: the gate says so, and ToolResult (and so HandlerFor) turns
// that into the JSON-RPC error -32602 with its data.reason, not into the
// -32021 of a client whose capabilities lack roots.
func TestToolResultMalformedRequest(t *testing.T) {
	var s gosdkroots.Session
	_, gateErr := s.Roots(context.Background(), json.RawMessage(`{"name":"read","_meta":{`+metaVersion+`}}`))
	check := func(what string, res *mcp.CallToolResult, err error) {
		t.Helper()
		var wire *jsonrpc.Error
		if res != nil || !errors.As(err, &wire) || wire.Code != -32602 || wire.Message != "Invalid params" || !strings.Contains(string(wire.Data), "clientCapabilities") {
			t.Errorf("%s = %+v, %v; want JSON-RPC error -32602 Invalid params whose data names clientCapabilities", what, res, err)
		}
	}
	res, err := gosdkroots.ToolResult(gateErr)
	check("ToolResult", res, err)
	h := gosdkroots.HandlerFor(func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, gateErr
	})
	res, _, err = h(context.Background(), nil, struct{}{})
	check("HandlerFor", res, err)

	// Capabilities without roots stay -32021.
	_, gateErr = s.Roots(context.Background(), json.RawMessage(`{"name":"read","_meta":{`+metaVersion+`,`+capsKey+`:{}}}`))
	var wire *jsonrpc.Error
	if _, err := gosdkroots.ToolResult(gateErr); !errors.As(err, &wire) || wire.Code != -32021 {
		t.Errorf("no roots capability: ToolResult = %v, want -32021", err)
	}
}

// go-sdk refuses a 2026-07-28 tools/call whose _meta leaves out the
// client capabilities, or gives them as null or as something that does
// not decode as capabilities, with -32602 itself: the tool handler, and so
// the adapter, never sees it. The adapter's package documentation says
// so; this pins it.
func TestGoSDKRefusesMalformedMeta(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	a := gosdkroots.New()
	server := a.NewServer(&mcp.Implementation{Name: "malformed", Version: "v0"}, nil)
	var ran atomic.Int32
	mcp.AddTool(server, &mcp.Tool{Name: "read"}, gosdkroots.HandlerFor(func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		ran.Add(1)
		_, err := a.Roots(ctx, req)
		return nil, nil, err
	}))
	peer := peertest.NewPeer(t, serveWire(t, ctx, server))
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
