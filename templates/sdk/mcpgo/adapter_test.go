package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The adapter's own tests, with mcp-go's in-process client: the decoded
// 2026-07-28 path against the gate's JSON path, the sets it shares and
// the states it binds. The kit tests of cmd/internal/peers run the
// generated adapter end to end, over stdio and HTTP.

// versions are the client's pins: a legacy session, and none, which
// mcp-go's client negotiates as 2026-07-28.
var versions = []string{"2025-06-18", ""}

// testDir is a directory holding f.txt ("one").
func testDir(t *testing.T) (dir, file string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "root")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file
}

func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

func newRoots(t *testing.T, o Options) *Roots {
	t.Helper()
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rootsList is a client.RootsHandler answering with its roots, unchecked.
type rootsList []mcp.Root

func (l rootsList) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: l}, nil
}

// serve returns an in-process client, pinned to version, with roots, of a
// server whose tool "read" reads a file through the RootSet of r.
func serve(t *testing.T, r *Roots, version string, roots ...mcp.Root) *client.Client {
	t.Helper()
	s := server.NewMCPServer("test", "v0", r.ServerOption())
	s.AddTool(mcp.NewTool("read", mcp.WithString("path")), r.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *RootSet) (*mcp.CallToolResult, error) {
		data, err := set.ReadFile(req.GetString("path", ""))
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}))
	return serveOn(t, s, version, roots...)
}

// serveOn returns an in-process client of s, pinned to version, with roots.
func serveOn(t *testing.T, s *server.MCPServer, version string, roots ...mcp.Root) *client.Client {
	t.Helper()
	ctx := context.Background()
	opts := []client.ClientOption{client.WithRootsHandler(rootsList(roots))}
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
	init.Params.ClientInfo = mcp.Implementation{Name: "client", Version: "v0"}
	init.Params.ProtocolVersion = version
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

func read(t *testing.T, c *client.Client, path string) (string, error) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "read"
	req.Params.Arguments = map[string]any{"path": path}
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		return "", err
	}
	text := res.Content[0].(mcp.TextContent).Text
	if res.IsError {
		return "", errors.New(text)
	}
	return text, nil
}

func TestRoundTrip(t *testing.T) {
	for _, v := range versions {
		t.Run("pin "+v, func(t *testing.T) {
			dir, file := testDir(t)
			c := serve(t, newRoots(t, Options{}), v, mcp.Root{URI: fileURI(dir)})
			if text, err := read(t, c, file); err != nil || text != "one" {
				t.Errorf("inside: %q, %v", text, err)
			}
			outside := filepath.Join(filepath.Dir(dir), "outside.txt")
			if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := read(t, c, outside); err == nil || !strings.Contains(err.Error(), "outside") {
				t.Errorf("outside: %v, want refused", err)
			}
		})
	}
}

// Requests that bring the same roots share the set built for the first: a
// directory swapped between two calls is not seen, on either era.
func TestSameRootsShareASet(t *testing.T) {
	for _, v := range versions {
		t.Run("pin "+v, func(t *testing.T) {
			dir, file := testDir(t)
			c := serve(t, newRoots(t, Options{}), v, mcp.Root{URI: fileURI(dir)})
			if text, err := read(t, c, file); err != nil || text != "one" {
				t.Fatalf("first call: %q, %v", text, err)
			}
			if err := os.Rename(dir, dir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte("two"), 0o644); err != nil {
				t.Fatal(err)
			}
			if text, err := read(t, c, file); err != nil || text != "one" {
				t.Errorf("second call: %q, %v; want the directory the first call's set opened", text, err)
			}
		})
	}
}

// modern is the request mcp-go hands a tool handler for a 2026-07-28
// tools/call with these params (JSON), and the context it serves it in:
// what mcp-go reads of the request's _meta. ok is false for a request
// mcp-go refuses before any handler runs.
func modern(t *testing.T, params string) (context.Context, mcp.CallToolRequest, bool) {
	t.Helper()
	var req mcp.CallToolRequest
	if err := json.Unmarshal([]byte(params), &req.Params); err != nil {
		return nil, req, false
	}
	meta := req.Params.Meta
	caps := meta.ClientCapabilities()
	if !mcp.IsModernProtocol(meta.ProtocolVersion()) || caps == nil {
		return nil, req, false
	}
	info := &server.RequestProtocolInfo{Modern: true, ProtocolVersion: meta.ProtocolVersion(), ClientCapabilities: caps}
	return server.WithRequestProtocolInfo(context.Background(), info), req, true
}

// served is what a tool handler of Roots.Tool gets: the set's roots and
// how many times the roots left out were reported, or the error.
func served(set *RootSet, err error, reports int) string {
	if set == nil {
		var ir *InputRequiredError
		var mc *MissingCapabilityError
		switch {
		case errors.As(err, &ir):
			return "input required " + ir.Key
		case errors.As(err, &mc):
			return fmt.Sprintf("missing capability %d %s", mc.Object.Code, mc.Object.Data)
		case strings.Contains(err.Error(), "roots[0]"):
			return "error naming roots[0]"
		}
		return "error"
	}
	defer set.Close()
	if err != nil {
		reports++ // Tool reports it
	}
	var uris []string
	for _, r := range set.Roots() {
		uris = append(uris, r.URI)
	}
	return fmt.Sprintf("%v, %d reported", uris, reports)
}

// What the adapter reads of a 2026-07-28 request mcp-go decoded serves it
// as the gate serves the same request read as JSON, for every case the
// gate tells apart that mcp-go lets through to a handler.
func TestDecodedMatchesJSON(t *testing.T) {
	dir, _ := testDir(t)
	good := `{"uri":"` + fileURI(dir) + `","name":"r","_meta":{"k":[1,2]}}`
	meta := func(caps string) string {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	}
	answered := func(answer string) string {
		return `{"name":"read",` + meta(`{"roots":{}}`) + `,"inputResponses":{"roots":` + answer + `}}`
	}
	for _, c := range []struct{ name, params string }{
		{"no roots capability", `{"name":"read",` + meta(`{}`) + `}`},
		{"roots capability null", `{"name":"read",` + meta(`{"roots":null}`) + `}`},
		{"not answered", `{"name":"read","arguments":{"path":"/x"},` + meta(`{"roots":{}}`) + `}`},
		{"answered", answered(`{"roots":[` + good + `]}`)},
		{"answered under another key", `{"name":"read",` + meta(`{"roots":{}}`) + `,"inputResponses":{"other":{"roots":[` + good + `]}}}`},
		{"answered with no roots", answered(`{"roots":[]}`)},
		{"answered with roots null", answered(`{"roots":null}`)},
		{"answered without roots", answered(`{}`)},
		{"answered with null", answered(`null`)},
		{"answered with an invalid root", answered(`{"roots":[{"uri":"https://example.com/"},` + good + `]}`)},
		{"answered with an elicitation", answered(`{"action":"decline"}`)},
	} {
		ctx, req, ok := modern(t, c.params)
		if !ok {
			t.Fatalf("%s: mcp-go refuses %s", c.name, c.params)
		}
		for _, strict := range []bool{false, true} {
			var reports [2]int
			roots := func(i int) *Roots {
				return newRoots(t, Options{Strict: strict, OnInvalidRoots: func(error) { reports[i]++ }})
			}
			r := roots(0)
			set, legacy, err := r.rootSet(ctx, req)
			if legacy {
				t.Fatalf("%s: served as legacy", c.name)
			}
			decoded := served(set, err, reports[0])
			// Before: the gate session given the params as the client sent
			// them, then Strict applied as rootSet does.
			b := roots(1)
			set, err = b.stateless.RootSet(ctx, json.RawMessage(c.params))
			if strict && set != nil && err != nil {
				set.Close()
				set = nil
			}
			viaJSON := served(set, err, reports[1])
			if decoded != viaJSON {
				t.Errorf("%s (strict %t): decoded %q, as JSON %q", c.name, strict, decoded, viaJSON)
			}
		}
	}
}

// A root that does not decode (a uri that is not a string) costs the whole
// answer on both paths, as it does in the revision's own decoder; mcp-go's
// decoder, not the gate's, says why, naming the input response.
func TestUndecodableRoot(t *testing.T) {
	dir, _ := testDir(t)
	ctx, req, ok := modern(t, `{"name":"read","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},"inputResponses":{"roots":{"roots":[{"uri":5},{"uri":"`+fileURI(dir)+`"}]}}}`)
	if !ok {
		t.Fatal("mcp-go refuses the request")
	}
	set, _, err := newRoots(t, Options{}).rootSet(ctx, req)
	if set != nil || err == nil || !strings.Contains(err.Error(), `inputResponses["roots"]`) {
		t.Errorf("%v, %v; want an error naming the input response", set, err)
	}
}

// The binding of a sealed state is what the gate binds when it reads the
// params as the client sent them: the name, the arguments exactly (as
// mcp-go keeps them) and the task.
func TestBindingParams(t *testing.T) {
	sealer, err := NewStateSealer(StateSealerConfig{Current: StateKey{ID: "k", Secret: make([]byte, 32)}})
	if err != nil {
		t.Fatal(err)
	}
	r := newRoots(t, Options{Sealer: sealer, Principal: func(context.Context) string { return "p" }})
	rest := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},"requestState":"s","inputResponses":{"roots":{"roots":[]}}`
	for _, extra := range []string{``, `,"arguments":{}`, `,"arguments":{"b":1,"a":[true,"x\u00e9<>"]}`, `,"arguments":{"n":12345678901234567890}`, `,"task":{"ttl":5}`} {
		params := `{"name":"read\u2028tool"` + extra + `,` + rest + `}`
		ctx, req, ok := modern(t, params)
		if !ok {
			t.Fatalf("mcp-go refuses %s", params)
		}
		d, err := r.decode(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		want, err := SalientParams([]byte(params))
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Binding.Params) != string(want) {
			t.Errorf("%s: binding params %s, want %s", params, d.Binding.Params, want)
		}
		if d.Binding.Method != "tools/call" || d.Binding.Principal != "p" {
			t.Errorf("%s: binding %+v", params, d.Binding)
		}
	}
}

// With a Sealer, mcp-go's client does the round trip; a forged state is
// refused.
func TestSealer(t *testing.T) {
	dir, file := testDir(t)
	sealer, err := NewStateSealer(StateSealerConfig{Current: StateKey{ID: "k", Secret: make([]byte, 32)}})
	if err != nil {
		t.Fatal(err)
	}
	r := newRoots(t, Options{Sealer: sealer})
	c := serve(t, r, "", mcp.Root{URI: fileURI(dir)})
	if text, err := read(t, c, file); err != nil || text != "one" {
		t.Errorf("sealed round trip: %q, %v", text, err)
	}
	ctx, req, _ := modern(t, `{"name":"read","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},"requestState":"forged","inputResponses":{"roots":{"roots":[]}}}`)
	if _, err := r.Roots(ctx, req); !errors.Is(err, ErrStateTampered) {
		t.Errorf("forged state: %v, want %v", err, ErrStateTampered)
	}
}
