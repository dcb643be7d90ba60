package democlient_test

//lint:file-ignore SA1019 the Go SDK's roots API, which it deprecates, is the peer under test

import (
	"context"
	"encoding/json"
	"flag"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/democlient"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

var update = flag.Bool("update", false, "rewrite the transcripts in testdata/transcripts")

// askRoots is a Go SDK tool that asks for roots through InputRequests and
// returns the answer's URIs as text. On legacy sessions the SDK turns the
// ask into a roots/list request of its own.
func askRoots(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	resp, ok := req.Params.InputResponses["r"]
	if !ok {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"r": &mcp.ListRootsParams{}}}, nil
	}
	list, ok := resp.(*mcp.ListRootsResult)
	if !ok {
		return nil, &json.UnsupportedTypeError{}
	}
	var uris []string
	for _, r := range list.Roots {
		uris = append(uris, r.URI+"="+r.Name)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(uris, " ")}}}, nil
}

// callText runs "call TOOL" and returns the text of the result.
func callText(t *testing.T, ctx context.Context, c *democlient.Client, tool string) string {
	t.Helper()
	out, _ := json.Marshal(c.Command(ctx, "call "+tool))
	var res struct {
		Result *mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal(out, &res); err != nil || res.Result == nil || len(res.Result.Content) != 1 {
		t.Fatalf("call %s printed %s (%v)", tool, out, err)
	}
	return res.Result.Content[0].(*mcp.TextContent).Text
}

// The Go SDK's server against our client: ServerSession.ListRoots on legacy
// sessions, a tool asking through InputRequests on every revision, and our
// list_changed reaching RootsListChangedHandler only where it exists.
func TestGoSDKServer(t *testing.T) {
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			var changed atomic.Int32
			changes := make(chan struct{}, 8)
			server := mcp.NewServer(&mcp.Implementation{Name: "gosdk-server", Version: "v1.8.0"}, &mcp.ServerOptions{
				RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) {
					changed.Add(1)
					changes <- struct{}{}
				},
			})
			server.AddTool(&mcp.Tool{Name: "ask_roots", InputSchema: map[string]any{"type": "object"}}, askRoots)
			ours, theirs := peertest.Pipes()
			defer ours.Close()
			ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: theirs.R, Writer: theirs.W}, nil)
			if err != nil {
				t.Fatal(err)
			}
			transcript := new(peertest.Buffer)
			c, err := democlient.Connect(ctx, ours.R, ours.W, democlient.Options{Protocol: version, Transcript: transcript,
				Roots: []rootsgate.Root{{URI: "file:///src", Name: "src"}, {URI: "file:///doc"}}})
			if err != nil {
				t.Fatal(err)
			}
			rev, _ := rootsgate.Lookup(version)
			if rev.DirectRequest {
				res, err := ss.ListRoots(ctx, nil)
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
			// The server handles notifications in order, before the next
			// request: after this call, any list_changed has been seen.
			if got, want := callText(t, ctx, c, "ask_roots"), "file:///new=new"; got != want {
				t.Errorf("ask_roots after the change = %q, want %q", got, want)
			}
			wantChanged := map[bool]int32{true: 1, false: 0}[rev.ListChanged]
			if n := changed.Load(); n != wantChanged {
				t.Errorf("RootsListChangedHandler called %d times, want %d", n, wantChanged)
			}
			ours.W.Close()
			if err := ss.Wait(); err != nil {
				t.Logf("server session: %v", err)
			}
			text := transcript.String()
			if sent := strings.Contains(text, "notifications/roots/list_changed"); sent != rev.ListChanged {
				t.Errorf("list_changed on the wire: %t, want %t:\n%s", sent, rev.ListChanged, text)
			}
			peertest.Check(t, "testdata/transcripts/gosdk-server-"+version+".txt", text, *update)
		})
	}
}
