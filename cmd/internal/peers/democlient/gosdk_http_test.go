package democlient_test

//lint:file-ignore SA1019 the Go SDK's roots API, which it deprecates, is the peer under test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/democlient"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// The Go SDK's streamable HTTP server against our client over HTTP. On
// 2025-era revisions the handler is stateful (a session, the GET stream,
// ServerSession.ListRoots reaching the client from outside any call, and
// the SDK's own roots/list on the stream of a call); on 2026-07-28 it is
// stateless, the only way go-sdk v1.8.0 serves that revision over HTTP,
// and the roots travel in input_required and the retried POST.
func TestGoSDKServerHTTP(t *testing.T) {
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			rev, _ := rootsgate.Lookup(version)
			var changed atomic.Int32
			changes := make(chan struct{}, 8)
			server := mcp.NewServer(&mcp.Implementation{Name: "gosdk-server", Version: "v1.8.0"}, &mcp.ServerOptions{
				RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) {
					changed.Add(1)
					changes <- struct{}{}
				},
			})
			server.AddTool(&mcp.Tool{Name: "ask_roots", InputSchema: map[string]any{"type": "object"}}, askRoots)
			handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
				&mcp.StreamableHTTPOptions{Stateless: rev.InputRequests})
			ts := httptest.NewServer(handler)
			defer ts.Close()

			transcript := new(peertest.Buffer)
			c, err := democlient.ConnectHTTP(ctx, ts.URL, democlient.Options{Protocol: version, Transcript: transcript,
				Roots: []rootsgate.Root{{URI: "file:///src", Name: "src"}, {URI: "file:///doc"}}})
			if err != nil {
				t.Fatal(err)
			}
			if rev.DirectRequest {
				var sessions []*mcp.ServerSession
				for ss := range server.Sessions() {
					sessions = append(sessions, ss)
				}
				if len(sessions) != 1 {
					t.Fatalf("the server has %d sessions, want 1", len(sessions))
				}
				res, err := sessions[0].ListRoots(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []rootsgate.Root
				for _, r := range res.Roots {
					got = append(got, rootsgate.Root{URI: r.URI, Name: r.Name})
				}
				if want := []rootsgate.Root{{URI: "file:///src", Name: "src"}, {URI: "file:///doc"}}; !reflect.DeepEqual(got, want) {
					t.Errorf("ListRoots = %v, want %v", got, want)
				}
			}
			if got, want := callText(t, ctx, c, "ask_roots"), "file:///src=src file:///doc="; got != want {
				t.Errorf("ask_roots = %q, want %q", got, want)
			}
			if out, _ := json.Marshal(c.Command(ctx, "roots file:///new=new")); string(out) != `{"ok":true}` {
				t.Errorf("roots printed %s", out)
			}
			if rev.ListChanged {
				select {
				case <-changes:
				case <-ctx.Done():
					t.Fatal("RootsListChangedHandler was not called")
				}
			}
			if got, want := callText(t, ctx, c, "ask_roots"), "file:///new=new"; got != want {
				t.Errorf("ask_roots after the change = %q, want %q", got, want)
			}
			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			wantChanged := map[bool]int32{true: 1, false: 0}[rev.ListChanged]
			if n := changed.Load(); n != wantChanged {
				t.Errorf("RootsListChangedHandler called %d times, want %d", n, wantChanged)
			}
			if rev.DirectRequest {
				// DELETE ended the session on the server too.
				for range server.Sessions() {
					t.Errorf("a session is left on the server after Close")
				}
			}
			text := transcript.String()
			if sent := strings.Contains(text, "notifications/roots/list_changed"); sent != rev.ListChanged {
				t.Errorf("list_changed on the wire: %t, want %t:\n%s", sent, rev.ListChanged, text)
			}
			peertest.Check(t, "testdata/transcripts/gosdk-server-http-"+version+".txt", text, *update)
		})
	}
}
