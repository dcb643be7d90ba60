package mcpgoroots_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// rootsFunc is a client.RootsHandler that sends whatever it is given,
// unchecked, as a careless client would.
type rootsFunc func(ctx context.Context) ([]mcp.Root, error)

func (f rootsFunc) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	roots, err := f(ctx)
	if err != nil {
		return nil, err
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

// newRoots is mcpgoroots.New, which fails only for a kit without every
// revision mcp-go serves.
func newRoots(t testing.TB, o mcpgoroots.Options) *mcpgoroots.Roots {
	t.Helper()
	r, err := mcpgoroots.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// serve returns an in-process mcp-go client, with roots and pinned to
// version ("" for the newest), of a server whose tool "read" reads a file
// through the RootSet of an adapter configured by o.
func serve(t *testing.T, ctx context.Context, o mcpgoroots.Options, version string, roots client.RootsHandler) *client.Client {
	t.Helper()
	r := newRoots(t, o)
	s := server.NewMCPServer("test", "v0", r.ServerOption())
	s.AddTool(mcp.NewTool("read", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *mcpgoroots.RootSet) (*mcp.CallToolResult, error) {
		data, err := set.ReadFile(req.GetString("path", ""))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}))
	opts := []client.ClientOption{client.WithRootsHandler(roots)}
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c, err := client.NewInProcessClientWithOptions(s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "test-client", Version: "v0"}
	init.Params.ProtocolVersion = version
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

func read(t *testing.T, ctx context.Context, c *client.Client, path string) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "read"
	req.Params.Arguments = map[string]any{"path": path}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return res.Content[0].(mcp.TextContent).Text, res.IsError
}

// dir is a directory holding f.txt ("f").
func dir(t *testing.T) string {
	d := t.TempDir()
	if err := os.WriteFile(filepath.Join(d, "f.txt"), []byte("f"), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

func uri(p string) string { return "file://" + p }

// counted returns a directory made by dir, a client of a default adapter
// on a 2025-06-18 session whose one root is that directory, and the count
// of the times the client has been asked for its roots.
func counted(t *testing.T, ctx context.Context) (string, *client.Client, *atomic.Int32) {
	t.Helper()
	d := dir(t)
	asked := new(atomic.Int32)
	c := serve(t, ctx, mcpgoroots.Options{}, "2025-06-18", rootsFunc(func(context.Context) ([]mcp.Root, error) {
		asked.Add(1)
		return []mcp.Root{{URI: uri(d)}}, nil
	}))
	return d, c, asked
}

// Concurrent calls on a legacy session share one roots/list, and later
// calls reuse its answer.
func TestOneRequestForManyCalls(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	d, c, asked := counted(t, ctx)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if text, isErr := read(t, ctx, c, filepath.Join(d, "f.txt")); isErr || text != "f" {
				t.Errorf("read: %q (error %t)", text, isErr)
			}
		})
	}
	wg.Wait()
	read(t, ctx, c, filepath.Join(d, "f.txt"))
	if n := asked.Load(); n != 1 {
		t.Errorf("roots/list asked %d times for nine calls, want 1", n)
	}
}

// By default a bad root costs none of the good ones and is reported;
// Strict refuses the whole answer.
func TestLenientAndStrict(t *testing.T) {
	for _, strict := range []bool{false, true} {
		for _, version := range []string{"2025-06-18", ""} {
			t.Run(map[bool]string{false: "lenient", true: "strict"}[strict]+"/"+version, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
				defer cancel()
				d := dir(t)
				var reported []error
				var mu sync.Mutex
				o := mcpgoroots.Options{Strict: strict, OnInvalidRoots: func(err error) {
					mu.Lock()
					reported = append(reported, err)
					mu.Unlock()
				}}
				c := serve(t, ctx, o, version, rootsFunc(func(context.Context) ([]mcp.Root, error) {
					return []mcp.Root{{URI: "https://example.com/x"}, {URI: uri(d)}}, nil
				}))
				text, isErr := read(t, ctx, c, filepath.Join(d, "f.txt"))
				if strict {
					if !isErr || !strings.Contains(text, "roots[0]") {
						t.Errorf("strict: %q (error %t), want the list refused naming roots[0]", text, isErr)
					}
					return
				}
				if isErr || text != "f" {
					t.Errorf("lenient: %q (error %t), want the good root kept", text, isErr)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(reported) == 0 || !strings.Contains(reported[0].Error(), "roots[0]") {
					t.Errorf("reported %v, want roots[0]", reported)
				}
			})
		}
	}
}

// A client that never answers roots/list costs a legacy call Timeout, not
// forever: the call ends with a tool error saying so.
func TestTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	c := serve(t, ctx, mcpgoroots.Options{Timeout: time.Millisecond}, "2025-06-18", rootsFunc(func(ctx context.Context) ([]mcp.Root, error) {
		<-ctx.Done() // never answers; gives up when the server does
		return nil, ctx.Err()
	}))
	text, isErr := read(t, ctx, c, "/x")
	if !isErr || !strings.Contains(text, mcpgoroots.ErrNoAnswer.Error()) {
		t.Errorf("%q (error %t), want a tool error saying the client did not answer", text, isErr)
	}
}

// With a Sealer, the 2026-07-28 round trip works with mcp-go's client, and
// a retry whose requestState was not sealed by the server, or was sealed
// by another service with the same key, is refused with a JSON-RPC error.
func TestSealer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	d := dir(t)
	key := mcpgoroots.StateKey{ID: "k1", Secret: make([]byte, 32)}
	sealer, err := mcpgoroots.NewStateSealer(mcpgoroots.StateSealerConfig{Current: key, Audience: "files-server"})
	if err != nil {
		t.Fatal(err)
	}
	o := mcpgoroots.Options{Sealer: sealer}
	c := serve(t, ctx, o, "", rootsFunc(func(context.Context) ([]mcp.Root, error) {
		return []mcp.Root{{URI: uri(d)}}, nil
	}))
	if text, isErr := read(t, ctx, c, filepath.Join(d, "f.txt")); isErr || text != "f" {
		t.Errorf("sealed round trip: %q (error %t), want the file", text, isErr)
	}

	// A retry with a forged state, straight to the handler.
	r := newRoots(t, o)
	req := mcp.CallToolRequest{}
	req.Params.Name = "read"
	req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{
		mcp.MetaKeyProtocolVersion:    "2026-07-28",
		mcp.MetaKeyClientCapabilities: map[string]any{"roots": map[string]any{}},
	}}
	req.Params.InputResponses = mcp.InputResponses{"roots": mcp.NewRootsInputResponse(mcp.ListRootsResult{Roots: []mcp.Root{{URI: uri(d)}}})}
	req.Params.RequestState = "forged"
	// What mcp-go makes of that _meta: the adapter reads its judgement.
	var caps mcp.ClientCapabilities
	if err := json.Unmarshal([]byte(`{"roots":{}}`), &caps); err != nil {
		t.Fatal(err)
	}
	mctx := server.WithRequestProtocolInfo(ctx, &server.RequestProtocolInfo{Modern: true, ProtocolVersion: "2026-07-28", ClientCapabilities: &caps})
	_, err = r.Roots(mctx, req)
	if !errors.Is(err, mcpgoroots.ErrStateTampered) {
		t.Errorf("forged requestState: %v, want ErrStateTampered", err)
	}
	if res, err := mcpgoroots.Result(err); res != nil || err == nil {
		t.Errorf("Result of a refused state = %v, %v; want the error, a JSON-RPC error", res, err)
	}

	// A state that another service, sealing for its own audience with
	// the same key, put in its input_required result.
	other, err := mcpgoroots.NewStateSealer(mcpgoroots.StateSealerConfig{Current: key, Audience: "mail-server"})
	if err != nil {
		t.Fatal(err)
	}
	bound := mcpgoroots.WithStateBinding(ctx, mcpgoroots.StateBinding{Principal: "anyone", Method: "tools/call"})
	_, err = (&mcpgoroots.Session{Sealer: other}).Roots(bound, []byte(`{"name":"read","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}`))
	var ask *mcpgoroots.InputRequiredError
	var asked struct {
		RequestState string `json:"requestState"`
	}
	if !errors.As(err, &ask) || json.Unmarshal(ask.Result, &asked) != nil {
		t.Fatalf("the other service's first attempt: %v", err)
	}
	req.Params.RequestState = asked.RequestState
	_, err = r.Roots(mctx, req)
	if !errors.Is(err, mcpgoroots.ErrStateWrongAudience) {
		t.Errorf("another service's requestState: %v, want ErrStateWrongAudience", err)
	}
	if res, err := mcpgoroots.Result(err); res != nil || err == nil {
		t.Errorf("Result of another audience's state = %v, %v; want the error, a JSON-RPC error", res, err)
	}
}

// The roots a RootSet leaves out are reported once per answer on a legacy
// session, not on every call served from its cache (examples/mcpgo-server
// checks that a change is reported again).
func TestLeftOutReportedOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	d := dir(t)
	var reported atomic.Int32
	o := mcpgoroots.Options{OnInvalidRoots: func(error) { reported.Add(1) }}
	c := serve(t, ctx, o, "2025-06-18", rootsFunc(func(context.Context) ([]mcp.Root, error) {
		return []mcp.Root{{URI: "file://otherhost" + d}, {URI: uri(d)}}, nil
	}))
	for range 3 {
		if text, isErr := read(t, ctx, c, filepath.Join(d, "f.txt")); isErr || text != "f" {
			t.Fatalf("read: %q (error %t)", text, isErr)
		}
	}
	if n := reported.Load(); n != 1 {
		t.Errorf("reported %d times for three calls on one answer, want 1", n)
	}
}

// mcp-go v1.2.1's in-process transport delivers a client's notifications
// without the client session in the server's ctx (SendRequest adds it,
// SendNotification does not), so a server cannot tell whose roots changed:
// an in-process client's list_changed drops no cache. Over stdio and HTTP
// it does (examples/mcpgo-server). This pins the peer fact in
// cmd/internal/peers/README.md.
func TestInProcessListChangedHasNoSession(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	d, c, asked := counted(t, ctx)
	read(t, ctx, c, filepath.Join(d, "f.txt"))
	if err := c.RootListChanges(ctx); err != nil {
		t.Fatal(err)
	}
	read(t, ctx, c, filepath.Join(d, "f.txt"))
	if n := asked.Load(); n != 1 {
		t.Errorf("roots/list asked %d times: mcp-go's in-process notifications now carry the session; update cmd/internal/peers/README.md", n)
	}
}
