package democlient_test

//lint:file-ignore SA1019 the Go SDK's roots API, which it deprecates, is the peer under test

import (
	"context"
	"net/http"
	"net/http/httptest"
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
	eachRevision(t, func(t *testing.T, ctx context.Context, rev rootsgate.Revision, server *sdkServer) {
		handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server.Server },
			&mcp.StreamableHTTPOptions{Stateless: rev.InputRequests})
		ts := httptest.NewServer(handler)
		defer ts.Close()

		transcript := new(peertest.Buffer)
		c, err := democlient.ConnectHTTP(ctx, ts.URL, democlient.Options{Protocol: rev.Version, Transcript: transcript, Roots: demoRoots})
		if err != nil {
			t.Fatal(err)
		}
		var ss *mcp.ServerSession
		if rev.DirectRequest {
			var sessions []*mcp.ServerSession
			for s := range server.Sessions() {
				sessions = append(sessions, s)
			}
			if len(sessions) != 1 {
				t.Fatalf("the server has %d sessions, want 1", len(sessions))
			}
			ss = sessions[0]
		}
		server.exercise(t, ctx, c, rev, ss)
		if err := c.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if rev.DirectRequest {
			// DELETE ended the session on the server too.
			for range server.Sessions() {
				t.Errorf("a session is left on the server after Close")
			}
		}
		checkTranscript(t, rev, transcript.String(), "gosdk-server-http-"+rev.Version+".txt")
	})
}
