package mcpgo

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// TestNoGetStream: a 2025-06-18 client over Streamable HTTP that never
// opens the standalone GET stream, on which alone mcp-go sends roots/list.
// Its first call waits for Timeout and fails; every later one fails at
// once; all say why and what the client must do, never "server
// overloaded" (mcp-go's queue of 10 requests for the stream). After
// notifications/roots/list_changed the session is asked again.
func TestNoGetStream(t *testing.T) {
	const timeout = 300 * time.Millisecond
	r := newRoots(t, Options{Timeout: timeout})
	bounds, mine, _ := boundsTree(t)
	ts := readServer(t, r, bounds)
	sid := initializeHTTP(t, ts, "2025-06-18", `{"roots":{"listChanged":true}}`)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"path":"` + mine + `/f"}}}`
	for i := range 12 {
		start := time.Now()
		got := postMCP(t, ts.URL, sid, "2025-06-18", "tools/call", call)
		took := time.Since(start)
		if !strings.Contains(got, "GET stream") || strings.Contains(got, "overloaded") {
			t.Fatalf("call %d: %s; want the error naming the GET stream", i+1, got)
		}
		if i > 0 && took >= timeout {
			t.Errorf("call %d took %v: it asked again", i+1, took)
		}
	}
	postMCP(t, ts.URL, sid, "2025-06-18", "notifications/roots/list_changed", `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	if start := time.Now(); !strings.Contains(postMCP(t, ts.URL, sid, "2025-06-18", "tools/call", call), "GET stream") || time.Since(start) < timeout {
		t.Error("after list_changed, the call did not ask again")
	}
}

// initializeHTTP opens a session on ts at version, declaring caps, and
// returns its ID.
func initializeHTTP(t *testing.T, ts *httptest.Server, version, caps string) string {
	t.Helper()
	req, err := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":`+caps+`,"clientInfo":{"name":"c","version":"0"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	sid := res.Header.Get(server.HeaderKeySessionID)
	if sid == "" {
		t.Fatalf("initialize: HTTP %d, no session", res.StatusCode)
	}
	postMCP(t, ts.URL, sid, version, "notifications/initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return sid
}
