//lint:file-ignore SA1019 the Go SDK's roots API, which it deprecates, is the peer under test

package gosdkroots_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// calls is how many tool calls each routing test makes: enough that a
// goroutine or two left per call would stand out.
const calls = 200

// routeServer is a server whose tool "read" reads a file through the
// RootSet of an adapter with a short Timeout.
func routeServer() *mcp.Server {
	a := gosdkroots.New(gosdkroots.Timeout(50 * time.Millisecond))
	server := a.NewServer(&mcp.Implementation{Name: "route", Version: "v0"}, nil)
	type args struct {
		Path string `json:"path"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "read"}, gosdkroots.HandlerFor(func(ctx context.Context, req *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
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
	return server
}

// serveWire connects server to one end of an in-process wire and returns
// the other; the session ends with the test.
func serveWire(t *testing.T, ctx context.Context, server *mcp.Server) peertest.End {
	t.Helper()
	ours, theirs := peertest.Pipes()
	ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: theirs.R, Writer: theirs.W}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ours.Close(); ss.Close() })
	return ours
}

// outcome is the text of a tool call's error: the JSON-RPC error, or the
// text of a result marked isError; "" for a result that is not an error.
func outcome(res *mcp.CallToolResult, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case res == nil || !res.IsError:
		return ""
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return "tool error: " + strings.Join(text, "; ")
}

// A 2025-06-18 session whose client did not declare roots stays on the
// legacy path when its calls name 2026-07-28 in _meta (and declare roots
// there): each call fails with ErrNoRootsCapability, the client is never
// sent roots/list, and nothing the calls started outlives them. Before,
// such a call took the 2026-07-28 path and go-sdk answered its
// input_required result itself with ServerSession.ListRoots, on a session
// that never declared roots.
func TestMetaCannotLeaveLegacySessionNoRoots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	dir := t.TempDir()
	var asked atomic.Int32
	client := mcp.NewClient(&mcp.Implementation{Name: "no-roots", Version: "v0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	client.AddRoots(&mcp.Root{URI: adaptertest.FileURI(dir)})
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "roots/list" {
				asked.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	end := serveWire(t, ctx, routeServer())
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: end.R, Writer: end.W}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var meta mcp.Meta
	if err := json.Unmarshal([]byte(adaptertest.MetaNaming2026), &meta); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "f")
	call := func(meta mcp.Meta) string {
		return outcome(cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "read", Arguments: map[string]any{"path": path}}))
	}
	// The first call sets up what the session keeps for as long as it lasts.
	if got := call(nil); !strings.Contains(got, gosdkroots.ErrNoRootsCapability.Error()) {
		t.Fatalf("a call without _meta: %q, want %v", got, gosdkroots.ErrNoRootsCapability)
	}
	baseline := adaptertest.Idle()
	var wg sync.WaitGroup
	var mu sync.Mutex
	wrong := map[string]int{}
	for range calls {
		wg.Go(func() {
			if got := call(meta); !strings.Contains(got, gosdkroots.ErrNoRootsCapability.Error()) {
				mu.Lock()
				wrong[got]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for got, n := range wrong {
		t.Errorf("%d of %d calls naming 2026-07-28: %q, want %v", n, calls, got, gosdkroots.ErrNoRootsCapability)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the client was sent roots/list %d times; it never declared roots", n)
	}
	if n := adaptertest.Settle(baseline); n > baseline {
		t.Errorf("%d goroutines after %d calls, %d before", n, calls, baseline)
	}
}

// A 2025-06-18 session whose client declared roots but never answers (nor
// cancels anything) stays on the legacy path too when its calls name
// 2026-07-28 in _meta: the adapter's Timeout bounds every call, each
// fails with ErrNoAnswer, and nothing is left parked. Before, go-sdk
// asked with ServerSession.ListRoots and no deadline, and every call
// parked two goroutines for as long as the connection lasted.
func TestMetaCannotLeaveLegacySessionSilentClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	wire := adaptertest.Dial(t, serveWire(t, ctx, routeServer()), "2025-06-18", `{"roots":{"listChanged":true}}`)
	const plain = `{"name":"read","arguments":{"path":"/f"}}`
	if got := wire.Call(1, plain); len(got) != 1 || !strings.Contains(got[0], gosdkroots.ErrNoAnswer.Error()) {
		t.Fatalf("a call without _meta: %q, want %v", got, gosdkroots.ErrNoAnswer)
	}
	baseline := adaptertest.Idle()
	got := wire.Call(calls, `{"name":"read","arguments":{"path":"/f"},"_meta":`+adaptertest.MetaNaming2026+`}`)
	if len(got) != calls {
		t.Errorf("%d of %d calls naming 2026-07-28 answered within %v", len(got), calls, peertest.Wait)
	}
	for _, raw := range got {
		if !strings.Contains(raw, gosdkroots.ErrNoAnswer.Error()) {
			t.Errorf("a call naming 2026-07-28: %s, want %v", raw, gosdkroots.ErrNoAnswer)
			break
		}
	}
	if wire.Asked() < 2 {
		t.Errorf("roots/list sent %d times, want the first call's and more: the calls naming 2026-07-28 ask as the session does", wire.Asked())
	}
	if n := adaptertest.Settle(baseline); n > baseline {
		t.Errorf("%d goroutines after %d calls, %d before", n, calls, baseline)
	}
}
