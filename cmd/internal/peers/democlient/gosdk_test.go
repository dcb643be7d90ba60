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

// sdkServer is a Go SDK server with the ask_roots tool that counts the
// list_changed notifications it gets.
type sdkServer struct {
	*mcp.Server
	changed atomic.Int32
	changes chan struct{}
}

func newSDKServer() *sdkServer {
	s := &sdkServer{changes: make(chan struct{}, 8)}
	s.Server = mcp.NewServer(&mcp.Implementation{Name: "gosdk-server", Version: "v1.8.0"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) {
			s.changed.Add(1)
			s.changes <- struct{}{}
		},
	})
	s.AddTool(&mcp.Tool{Name: "ask_roots", InputSchema: map[string]any{"type": "object"}}, askRoots)
	return s
}

// demoRoots are the roots the client starts with.
var demoRoots = []rootsgate.Root{{URI: "file:///src", Name: "src"}, {URI: "file:///doc"}}

// exercise runs the session the stdio and the HTTP tests share, with c
// connected on revision rev: ServerSession.ListRoots through ss on
// revisions where the server asks (ss is the client's session there),
// ask_roots, a roots change, and ask_roots again; list_changed must reach
// RootsListChangedHandler exactly where the revision has it.
func (s *sdkServer) exercise(t *testing.T, ctx context.Context, c *democlient.Client, rev rootsgate.Revision, ss *mcp.ServerSession) {
	t.Helper()
	if rev.DirectRequest {
		res, err := ss.ListRoots(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []rootsgate.Root
		for _, r := range res.Roots {
			got = append(got, rootsgate.Root{URI: r.URI, Name: r.Name})
		}
		if !reflect.DeepEqual(got, demoRoots) {
			t.Errorf("ListRoots = %v, want %v", got, demoRoots)
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
		case <-s.changes:
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
	if n := s.changed.Load(); n != wantChanged {
		t.Errorf("RootsListChangedHandler called %d times, want %d", n, wantChanged)
	}
}

// checkTranscript compares the client's transcript with golden, after
// checking that list_changed went out exactly where the revision has it.
func checkTranscript(t *testing.T, rev rootsgate.Revision, text, golden string) {
	t.Helper()
	if sent := strings.Contains(text, "notifications/roots/list_changed"); sent != rev.ListChanged {
		t.Errorf("list_changed on the wire: %t, want %t:\n%s", sent, rev.ListChanged, text)
	}
	peertest.Check(t, "testdata/transcripts/"+golden, text, *update)
}

// The Go SDK's server against our client: ServerSession.ListRoots on legacy
// sessions, a tool asking through InputRequests on every revision, and our
// list_changed reaching RootsListChangedHandler only where it exists.
func TestGoSDKServer(t *testing.T) {
	eachRevision(t, func(t *testing.T, ctx context.Context, rev rootsgate.Revision, server *sdkServer) {
		ours, theirs := peertest.Pipes()
		defer ours.Close()
		ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: theirs.R, Writer: theirs.W}, nil)
		if err != nil {
			t.Fatal(err)
		}
		transcript := new(peertest.Buffer)
		c, err := democlient.Connect(ctx, ours.R, ours.W, democlient.Options{Protocol: rev.Version, Transcript: transcript, Roots: demoRoots})
		if err != nil {
			t.Fatal(err)
		}
		server.exercise(t, ctx, c, rev, ss)
		ours.W.Close()
		if err := ss.Wait(); err != nil {
			t.Logf("server session: %v", err)
		}
		checkTranscript(t, rev, transcript.String(), "gosdk-server-"+rev.Version+".txt")
	})
}

// eachRevision runs f in a subtest for every revision of the gate, with a
// new sdkServer and a ctx bounded by peertest.Wait.
func eachRevision(t *testing.T, f func(t *testing.T, ctx context.Context, rev rootsgate.Revision, server *sdkServer)) {
	revs := rootsgate.Revisions()
	if len(revs) == 0 {
		t.Fatal("the gate has no revisions")
	}
	for _, rev := range revs {
		t.Run(rev.Version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			f(t, ctx, rev, newSDKServer())
		})
	}
}
