//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"context"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootsgen/rootsgen/testdata/gotest/logtest"
)

// TestHandlerPanics: a tool handler wrapped with HandlerFor that panics
// (here a nil dereference) fails its call with a tool error and a log
// record holding the stack; the server answers the next call, in memory
// and through HTTPHandler, on both eras.
func TestHandlerPanics(t *testing.T) {
	logs := captureLog(t)
	a := New()
	server := readServer(a)
	mcp.AddTool(server, &mcp.Tool{Name: "boom"}, HandlerFor(func(ctx context.Context, req *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
		var set *RootSet
		return nil, nil, set.Close() // a nil dereference
	}))
	srv := httptest.NewServer(HTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer srv.Close()
	dir, file := testDir(t)
	for _, p := range pins {
		for _, over := range []string{"memory", "HTTP"} {
			var cs *mcp.ClientSession
			if over == "memory" {
				cs, _ = connect(t, server, p.pin, nil, &mcp.Root{URI: fileURI(dir)})
			} else {
				client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil)
				client.AddRoots(&mcp.Root{URI: fileURI(dir)})
				var err error
				if cs, err = client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: p.pin}); err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{"path": file}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "panicked") {
				t.Errorf("%s over %s: the panicking call: %+v, %v; want a tool error", p.name, over, res, err)
			}
			if text, err := read(t, cs, file); err != nil || text != "one" {
				t.Errorf("%s over %s: the next call: %q, %v", p.name, over, text, err)
			}
		}
	}
	if got := logs.String(); !strings.Contains(got, `panic in the handler of tool "boom"`) || !strings.Contains(got, "panic_test.go") {
		t.Errorf("the log has no record of the panic with its stack:\n%s", got)
	}
}

// captureLog sends the log package's output to a buffer for the test.
func captureLog(t *testing.T) *logtest.Buffer {
	b := new(logtest.Buffer)
	out, flags := log.Writer(), log.Flags()
	log.SetOutput(b)
	t.Cleanup(func() { log.SetOutput(out); log.SetFlags(flags) })
	return b
}
