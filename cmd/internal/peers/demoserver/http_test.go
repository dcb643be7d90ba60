package demoserver_test

//lint:file-ignore SA1019 the Go SDK's roots API, which it deprecates, is the peer under test

import (
	"context"
	"log"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/demoserver"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// The Go SDK's streamable HTTP client against rootsdemo-server's HTTP
// handler: on 2025-11-25 the server's roots/list reaches it over SSE and its
// list_changed drops our cache; on 2026-07-28 (unpinned) each call goes
// through input_required in two POSTs.
func TestGoSDKStreamableClient(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		name := versionName(version)
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			transcript, logs := new(peertest.Buffer), new(peertest.Buffer)
			h, err := demoserver.NewHTTPHandler(demoserver.Options{Timeout: peertest.Wait, Transcript: transcript, Log: log.New(logs, "", 0)})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			defer h.Close()
			client := gosdkClient(&mcp.Root{URI: "file:///work/a", Name: "a"}, &mcp.Root{URI: "file:///work/b"})
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + demoserver.Path}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			negotiated := cs.InitializeResult().ProtocolVersion
			checkRootsChange(t, ctx, client, cs)
			if err := cs.Close(); err != nil {
				t.Error(err)
			}
			text := transcript.String()
			asks := strings.Count(text, `"method":"roots/list"`)
			if version == "" {
				if negotiated != "2026-07-28" {
					t.Errorf("unpinned negotiated %s, want 2026-07-28", negotiated)
				}
				if !strings.Contains(text, `"resultType":"input_required"`) || asks != 2 {
					t.Errorf("want two input_required rounds carrying roots/list, got %d:\n%s", asks, text)
				}
				// go-sdk v1.8.0 POSTs list_changed on 2026-07-28 too, where
				// the notification does not exist: answered 202, ignored.
				if !strings.Contains(logs.String(), "notifications/roots/list_changed outside a session: ignored") {
					t.Errorf("log %q, want the stray list_changed ignored", logs)
				}
			} else {
				if negotiated != version {
					t.Errorf("negotiated %s, want %s", negotiated, version)
				}
				if asks != 2 {
					t.Errorf("want 2 roots/list requests, got %d:\n%s", asks, text)
				}
			}
			peertest.Check(t, "testdata/transcripts/gosdk-http-client-"+name+".txt", text, *update)
		})
	}
}
