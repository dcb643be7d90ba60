package mcpgo

// A server.WithStateLess server gives every request a session without an
// ID: what one client settles there must not apply to another.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestStatelessKeepsNoClientsState: on a stateless server with
// FallBackToBounds, a 2026-07-28 client works in its own roots, and is
// asked for them, before and after another client's 2025-06-18
// initialize without roots (which once made every 2026-07-28 request
// take the legacy path with that client's capabilities, and so the whole
// Bounds).
func TestStatelessKeepsNoClientsState(t *testing.T) {
	bounds, mine, other := boundsTree(t)
	r := newRoots(t, Options{FallBackToBounds: true})
	ts := readServer(t, r, bounds, server.WithStateLess(true))

	post := func(version, method, body string) string { return postMCP(t, ts.URL, "", version, method, body) }
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`
	ask := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"` + other + `"},` + meta + `}}`
	retry := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"path":"` + other + `"},` + meta +
		`,"inputResponses":{"roots":{"roots":[{"uri":"file://` + filepath.ToSlash(mine) + `"}]}}}}`
	check := func(when string) {
		t.Helper()
		if got := post("2026-07-28", "tools/call", ask); !strings.Contains(got, "inputRequests") {
			t.Errorf("%s: a call without roots was not asked for them: %s", when, got)
		}
		if got := post("2026-07-28", "tools/call", retry); strings.Contains(got, "not in my roots") || !strings.Contains(got, "outside") {
			t.Errorf("%s: a file outside the client's roots: %s", when, got)
		}
	}
	check("before")
	post("2025-06-18", "initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"other","version":"0"}}}`)
	check("after another client's initialize")
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.inits) != 0 || len(r.sessions) != 0 || len(r.leftOut) != 0 {
		t.Errorf("state kept for sessions without an ID: %d inits, %d sessions, %d reports", len(r.inits), len(r.sessions), len(r.leftOut))
	}
}

// boundsTree is a Bounds directory holding the directory mine and the
// file other, which reads "not in my roots".
func boundsTree(t *testing.T) (bounds, mine, other string) {
	bounds = t.TempDir()
	mine = filepath.Join(bounds, "mine")
	other = filepath.Join(bounds, "other.txt")
	if err := os.Mkdir(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte("not in my roots"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bounds, mine, other
}

// readServer serves the tool read, which reads its path argument through
// r's RootSet with Bounds(bounds), over Streamable HTTP with opts.
func readServer(t *testing.T, r *Roots, bounds string, opts ...server.StreamableHTTPOption) *httptest.Server {
	s := server.NewMCPServer("stateless", "v0", r.ServerOption())
	s.AddTool(mcp.NewTool("read", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *RootSet) (*mcp.CallToolResult, error) {
		data, err := set.ReadFile(req.GetString("path", ""))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}, Bounds(bounds)))
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s, opts...))
	t.Cleanup(ts.Close)
	return ts
}

// postMCP posts body, a JSON-RPC message with method, to the server at
// url, as a client of that protocol version on that session ("": none),
// and returns the response body.
func postMCP(t *testing.T, url, session, version, method, body string) string {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	req.Header.Set("Mcp-Method", method)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if method == "tools/call" {
		req.Header.Set("Mcp-Name", "read")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStatelessLegacyCall: a 2025-06-18 tool call to a stateless server,
// which never saw the client's initialize, is served as its header's
// version, without roots: in the Bounds with FallBackToBounds, refused
// for want of the roots capability without.
func TestStatelessLegacyCall(t *testing.T) {
	bounds, mine, other := boundsTree(t)
	call := func(path string) string {
		return `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"` + path + `"}}}`
	}
	fallBack := readServer(t, newRoots(t, Options{FallBackToBounds: true}), bounds, server.WithStateLess(true))
	if got := postMCP(t, fallBack.URL, "", "2025-06-18", "tools/call", call(other)); !strings.Contains(got, "not in my roots") {
		t.Errorf("with FallBackToBounds, a file in the Bounds: %s", got)
	}
	if got := postMCP(t, fallBack.URL, "", "2025-06-18", "tools/call", call(filepath.Dir(bounds))); !strings.Contains(got, "outside") {
		t.Errorf("with FallBackToBounds, a path outside the Bounds: %s", got)
	}
	plain := readServer(t, newRoots(t, Options{}), bounds, server.WithStateLess(true))
	if got := postMCP(t, plain.URL, "", "2025-06-18", "tools/call", call(mine)); !strings.Contains(got, "roots capability") {
		t.Errorf("without FallBackToBounds: %s; want the missing roots capability", got)
	}
}

// TestMadeUpSessionIDs: tool calls on session IDs mcp-go never issued
// (the default session manager checks their form only) keep no gate
// session, and so no open directory, once they are answered.
func TestMadeUpSessionIDs(t *testing.T) {
	bounds, _, other := boundsTree(t)
	r := newRoots(t, Options{FallBackToBounds: true})
	ts := readServer(t, r, bounds)
	for i := range 50 {
		id := fmt.Sprintf("mcp-session-%08d-0000-4000-8000-000000000000", i)
		body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"` + other + `"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}`
		if got := postMCP(t, ts.URL, id, "2025-06-18", "tools/call", body); !strings.Contains(got, "not in my roots") {
			t.Fatalf("call %d: %s", i, got)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.inits) != 0 || len(r.sessions) != 0 || len(r.leftOut) != 0 {
		t.Errorf("kept for made-up session IDs: %d inits, %d sessions, %d reports", len(r.inits), len(r.sessions), len(r.leftOut))
	}
}

// idSession is an mcp-go session that has only an ID.
type idSession string

func (s idSession) Initialize()                                         {}
func (s idSession) Initialized() bool                                   { return true }
func (s idSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s idSession) SessionID() string                                   { return string(s) }

// TestInitializeWithoutRegistration: an initialize on a session mcp-go
// never registers (its client went away) is kept at most maxPending
// times, and is never a session's; one mcp-go registers becomes that
// session's, roots capability only, until mcp-go unregisters it.
func TestInitializeWithoutRegistration(t *testing.T) {
	r := newRoots(t, Options{})
	s := server.NewMCPServer("pending", "v0", r.ServerOption())
	initialize := func(id string) {
		ctx := s.WithContext(context.Background(), idSession(id))
		s.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
			`"capabilities":{"roots":{"listChanged":true},"experimental":{"big":{"x":"`+strings.Repeat("x", 1000)+`"}}},"clientInfo":{"name":"c","version":"0"}}}`))
	}
	for i := range 3 * maxPending {
		initialize(fmt.Sprint("gone-", i))
	}
	initialize("kept")
	if err := s.RegisterSession(context.Background(), idSession("kept")); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	n, kept := r.inits["kept"]
	if len(r.pending) > maxPending || len(r.inits) != 1 || !kept || n.caps.Roots == nil || !n.caps.Roots.ListChanged || n.caps.Experimental != nil {
		t.Errorf("after %d initializes never registered and one registered: %d pending, %d inits, kept %+v", 3*maxPending, len(r.pending), len(r.inits), n)
	}
	r.mu.Unlock()
	s.UnregisterSession(context.Background(), "kept")
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.inits) != 0 || len(r.registered) != 0 {
		t.Errorf("after the unregister: %d inits, %d registered", len(r.inits), len(r.registered))
	}
}

// TestReinitializeDropsRoots: a session that runs initialize again, now
// without roots, is not served the roots it gave before.
func TestReinitializeDropsRoots(t *testing.T) {
	r := newRoots(t, Options{})
	s := server.NewMCPServer("again", "v0", r.ServerOption())
	ctx := s.WithContext(context.Background(), idSession("again"))
	if err := s.RegisterSession(ctx, idSession("again")); err != nil {
		t.Fatal(err)
	}
	initialize := func(caps string) {
		s.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":`+caps+`,"clientInfo":{"name":"c","version":"0"}}}`))
	}
	initialize(`{"roots":{"listChanged":true}}`)
	if _, _, err := r.session(ctx, r.inits["again"]); err != nil {
		t.Fatal(err)
	}
	initialize(`{}`)
	r.mu.Lock()
	kept := r.sessions["again"]
	r.mu.Unlock()
	if kept != nil {
		t.Error("the gate session of the first initialize, and its roots, were kept")
	}
	gs, _, err := r.session(ctx, r.inits["again"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gs.Roots(ctx, nil); !errors.Is(err, ErrNoRootsCapability) {
		t.Errorf("after an initialize without roots: %v, want ErrNoRootsCapability", err)
	}
}
