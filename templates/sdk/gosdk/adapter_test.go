//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The adapter's own tests, on go-sdk's in-memory transports: the decoded
// 2026-07-28 path against the gate's JSON path, the sets it shares, the
// states it seals, and what a client sees on both eras. The kit tests of
// cmd/internal/peers run the generated adapter end to end.

// pins are the client's version pins: a legacy session, and none, which
// go-sdk negotiates as 2026-07-28.
var pins = []struct{ name, pin string }{
	{"2025-06-18", "2025-06-18"},
	{"2026-07-28", ""},
}

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

type readArgs struct {
	Path string `json:"path"`
}

// readServer is a server of a, whose tool "read" reads a file through the
// RootSet of the request.
func readServer(a *Adapter) *mcp.Server {
	server := a.NewServer(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "read"}, readHandler(a))
	return server
}

// readHandler is the handler of the tool "read" of readServer.
func readHandler(a *Adapter) mcp.ToolHandlerFor[readArgs, any] {
	return HandlerFor(func(ctx context.Context, req *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
		set, err := a.RootSet(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		defer set.Close()
		data, err := set.ReadFile(in.Path)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
	})
}

// connect connects a client with opts (nil: one declaring roots) and
// roots to server over in-memory transports, pinned to pin.
func connect(t *testing.T, server *mcp.Server, pin string, opts *mcp.ClientOptions, roots ...*mcp.Root) (*mcp.ClientSession, *mcp.Client) {
	t.Helper()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, opts)
	client.AddRoots(roots...)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: pin})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, client
}

// read calls "read" on path: the text, or the error (a tool error's text).
func read(t *testing.T, cs *mcp.ClientSession, path string) (string, error) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": path}})
	if err != nil {
		return "", err
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return "", errors.New(text)
	}
	return text, nil
}

// On both eras a file inside a root reads and one outside does not; on
// 2026-07-28 through the input_required round trip, which go-sdk's client
// answers itself.
func TestRoundTrip(t *testing.T) {
	for _, p := range pins {
		t.Run(p.name, func(t *testing.T) {
			dir, file := testDir(t)
			cs, _ := connect(t, readServer(New()), p.pin, nil, &mcp.Root{URI: fileURI(dir)})
			if got := cs.InitializeResult().ProtocolVersion; p.pin != "" && got != p.pin {
				t.Fatalf("negotiated %s", got)
			}
			if text, err := read(t, cs, file); err != nil || text != "one" {
				t.Errorf("inside: %q, %v", text, err)
			}
			outside := filepath.Join(filepath.Dir(dir), "outside.txt")
			if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := read(t, cs, outside); err == nil || !strings.Contains(err.Error(), "outside") {
				t.Errorf("outside: %v, want refused", err)
			}
		})
	}
}

// A 2026-07-28 client without the roots capability gets error -32021 with
// data.requiredCapabilities, and no input_required result.
func TestMissingCapability(t *testing.T) {
	cs, _ := connect(t, readServer(New()), "", &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "/x"}})
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) || wire.Code != -32021 || !strings.Contains(string(wire.Data), `"requiredCapabilities":{"roots":{}}`) {
		t.Errorf("%v, want error -32021 naming roots in data.requiredCapabilities", err)
	}
}

// Requests that bring the same roots share the set the adapter built for
// the first: a directory swapped between two calls is not seen, on either
// era (on 2026-07-28 each call brings its roots anew, as a list).
func TestSameRootsShareASet(t *testing.T) {
	for _, p := range pins {
		t.Run(p.name, func(t *testing.T) {
			dir, file := testDir(t)
			cs, _ := connect(t, readServer(New()), p.pin, nil, &mcp.Root{URI: fileURI(dir)})
			if text, err := read(t, cs, file); err != nil || text != "one" {
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
			if text, err := read(t, cs, file); err != nil || text != "one" {
				t.Errorf("second call: %q, %v; want the directory the first call's set opened", text, err)
			}
		})
	}
}

// By default a root the rules refuse is left out and reported (on a legacy
// session once per answer, on 2026-07-28 once per call) and the good ones
// kept; with Strict the list is refused.
func TestStrictAndLenient(t *testing.T) {
	for _, p := range pins {
		t.Run(p.name, func(t *testing.T) {
			dir, file := testDir(t)
			roots := []*mcp.Root{{URI: fileURI(dir)}, {URI: "file://otherhost/srv"}}
			var mu sync.Mutex
			var reported []error
			lenient, _ := connect(t, readServer(New(OnInvalidRoots(func(err error) {
				mu.Lock()
				reported = append(reported, err)
				mu.Unlock()
			}))), p.pin, nil, roots...)
			for range 2 {
				if text, err := read(t, lenient, file); err != nil || text != "one" {
					t.Errorf("lenient: %q, %v", text, err)
				}
			}
			want := 1
			if p.pin == "" {
				want = 2
			}
			mu.Lock()
			if len(reported) != want || !strings.Contains(reported[0].Error(), "roots[1]") {
				t.Errorf("OnInvalidRoots got %v in two calls, want %d errors naming roots[1]", reported, want)
			}
			mu.Unlock()
			strict, _ := connect(t, readServer(New(Strict())), p.pin, nil, roots...)
			if _, err := read(t, strict, file); err == nil || !strings.Contains(err.Error(), "roots[1]") {
				t.Errorf("strict: %v, want the list refused naming roots[1]", err)
			}
		})
	}
}

// requestFor is the tools/call request go-sdk hands a handler for params
// (JSON), on a session that stands alone.
func requestFor(t *testing.T, params string) *mcp.CallToolRequest {
	t.Helper()
	var p mcp.CallToolParamsRaw
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		t.Fatalf("go-sdk cannot decode %s: %v", params, err)
	}
	return &mcp.CallToolRequest{Params: &p}
}

// outcome is what a caller of RootSet sees: the error's kind and the
// set's roots.
func outcome(set *RootSet, err error) string {
	var parts []string
	var ir *InputRequiredError
	var mc *MissingCapabilityError
	var mr *MalformedRequestError
	switch {
	case err == nil:
	case errors.As(err, &ir):
		parts = append(parts, "input required "+ir.Key)
	case errors.As(err, &mc):
		parts = append(parts, fmt.Sprintf("missing capability %d %s", mc.Object.Code, mc.Object.Data))
	case errors.As(err, &mr):
		parts = append(parts, "malformed")
	case errors.Is(err, ErrMalformedVersion):
		parts = append(parts, "malformed version")
	case errors.Is(err, ErrUnknownVersion):
		parts = append(parts, "unknown version")
	case errors.Is(err, ErrWrongPath):
		parts = append(parts, "wrong path")
	default:
		parts = append(parts, "error")
	}
	if err != nil && strings.Contains(err.Error(), "roots[0]") {
		parts = append(parts, "names roots[0]")
	}
	if set != nil {
		for _, r := range set.Roots() {
			parts = append(parts, r.URI)
		}
		set.Close()
	}
	return strings.Join(parts, "; ")
}

// What the adapter reads of a request go-sdk decoded gives the gate's
// outcome for the same request read as JSON, for every case the gate
// tells apart.
func TestDecodedMatchesJSON(t *testing.T) {
	dir, _ := testDir(t)
	good := `{"uri":"` + fileURI(dir) + `","name":"r","_meta":{"k":[1,2]}}`
	meta := func(version, caps string) string {
		m := `"_meta":{`
		if version != "" {
			m += `"io.modelcontextprotocol/protocolVersion":` + version
		}
		if caps != "" {
			if version != "" {
				m += ","
			}
			m += `"io.modelcontextprotocol/clientCapabilities":` + caps
		}
		return m + "}"
	}
	v := `"2026-07-28"`
	for _, c := range []struct{ name, params string }{
		{"no version", `{"name":"read",` + meta("", `{"roots":{}}`) + `}`},
		{"version not a string", `{"name":"read",` + meta("20260728", `{"roots":{}}`) + `}`},
		{"version not a date", `{"name":"read",` + meta(`"latest"`, `{"roots":{}}`) + `}`},
		{"version the gate does not serve", `{"name":"read",` + meta(`"2030-01-01"`, `{"roots":{}}`) + `}`},
		{"a legacy version", `{"name":"read",` + meta(`"2025-06-18"`, `{"roots":{}}`) + `}`},
		{"no capabilities", `{"name":"read",` + meta(v, "") + `}`},
		{"no roots capability", `{"name":"read",` + meta(v, `{}`) + `}`},
		{"roots capability null", `{"name":"read",` + meta(v, `{"roots":null}`) + `}`},
		{"not answered", `{"name":"read","arguments":{"path":"/x"},` + meta(v, `{"roots":{}}`) + `}`},
		{"answered", `{"name":"read",` + meta(v, `{"roots":{}}`) + `,"inputResponses":{"roots":{"roots":[` + good + `]}}}`},
		{"answered under another key", `{"name":"read",` + meta(v, `{"roots":{}}`) + `,"inputResponses":{"other":{"roots":[` + good + `]}}}`},
		{"answered with no roots", `{"name":"read",` + meta(v, `{"roots":{}}`) + `,"inputResponses":{"roots":{"roots":[]}}}`},
		{"answered with roots null", `{"name":"read",` + meta(v, `{"roots":{}}`) + `,"inputResponses":{"roots":{"roots":null}}}`},
		{"answered with an invalid root", `{"name":"read",` + meta(v, `{"roots":{}}`) + `,"inputResponses":{"roots":{"roots":[{"uri":"https://example.com/"},` + good + `]}}}`},
		{"answered with a null root", `{"name":"read",` + meta(v, `{"roots":{}}`) + `,"inputResponses":{"roots":{"roots":[null,` + good + `]}}}`},
		{"answered with an elicitation", `{"name":"read",` + meta(v, `{"roots":{}}`) + `,"inputResponses":{"roots":{"action":"decline"}}}`},
	} {
		for _, strict := range []bool{false, true} {
			// The adapter as it serves the request, and as it served it
			// before it read decoded requests: the gate session given the
			// request's JSON, then finish.
			var reports [2]int
			adapter := func(i int) *Adapter {
				opts := []Option{OnInvalidRoots(func(error) { reports[i]++ })}
				if strict {
					opts = append(opts, Strict())
				}
				return New(opts...)
			}
			a := adapter(0)
			var decoded string
			if d, err := a.decode(requestFor(t, c.params)); err != nil {
				decoded = outcome(nil, err)
			} else {
				set, err := a.perRequest.DecodedRootSet(d)
				decoded = outcome(a.finish(nil, set, err))
			}
			b := adapter(1)
			set, err := b.perRequest.RootSet(context.Background(), json.RawMessage(c.params))
			viaJSON := outcome(b.finish(nil, set, err))
			if decoded != viaJSON || reports[0] != reports[1] {
				t.Errorf("%s (strict %t): decoded %q (%d reported), as JSON %q (%d reported)", c.name, strict, decoded, reports[0], viaJSON, reports[1])
			}
		}
	}
}

// The binding of a sealed state is what the gate binds when it reads the
// request as JSON: SalientParams of the params go-sdk decoded, written
// back. For a tools/call the adapter builds it from the name and the
// arguments alone; prompts/get and resources/read from their members.
func TestBindingParams(t *testing.T) {
	sealer, err := NewStateSealer(StateSealerConfig{Current: StateKey{ID: "k", Secret: make([]byte, 32)}})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Sealer(sealer))
	v := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},"requestState":"s","inputResponses":{"roots":{"roots":[]}}`
	var reqs []mcp.Request
	for _, args := range []string{``, `,"arguments":null`, `,"arguments":{}`, `,"arguments":{"b":1,"a":[true,"x\u00e9<>"]}`, `,"arguments":{"n":12345678901234567890}`, `,"arguments":"text"`} {
		reqs = append(reqs, requestFor(t, `{"name":"read\u2028tool"`+args+`,`+v+`}`))
	}
	var prompt mcp.GetPromptParams
	var resource mcp.ReadResourceParams
	if err := json.Unmarshal([]byte(`{"name":"p","arguments":{"z":"1","a":"2"},`+v+`}`), &prompt); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"uri":"file:///x",`+v+`}`), &resource); err != nil {
		t.Fatal(err)
	}
	reqs = append(reqs, &mcp.GetPromptRequest{Params: &prompt}, &mcp.ReadResourceRequest{Params: &resource})
	for _, req := range reqs {
		d, err := a.decode(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(req.GetParams())
		if err != nil {
			t.Fatal(err)
		}
		want, err := SalientParams(raw)
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Binding.Params) != string(want) {
			t.Errorf("%s: binding params %s, want %s", raw, d.Binding.Params, want)
		}
		if d.Binding.Method != method(req) || d.Binding.Principal != "anonymous" {
			t.Errorf("%s: binding %+v", raw, d.Binding)
		}
	}
}

// With a Sealer, go-sdk's client does the round trip as before; a retry
// whose requestState was altered, or that comes back for other arguments,
// is refused.
func TestSealer(t *testing.T) {
	dir, file := testDir(t)
	sealer, err := NewStateSealer(StateSealerConfig{Current: StateKey{ID: "k", Secret: make([]byte, 32)}})
	if err != nil {
		t.Fatal(err)
	}
	server := readServer(New(Sealer(sealer)))
	cs, _ := connect(t, server, "", nil, &mcp.Root{URI: fileURI(dir)})
	if text, err := read(t, cs, file); err != nil || text != "one" {
		t.Errorf("sealed round trip: %q, %v", text, err)
	}
	manual, _ := connect(t, server, "", &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}})
	ctx := context.Background()
	args := map[string]any{"path": file}
	first, err := manual.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: args})
	if err != nil || !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("first call: %+v, %v; want input_required with a requestState", first, err)
	}
	if _, ok := first.InputRequests[DefaultInputKey].(*mcp.ListRootsParams); !ok || len(first.InputRequests) != 1 {
		t.Errorf("inputRequests %v, want roots/list under %q", first.InputRequests, DefaultInputKey)
	}
	answer := mcp.InputResponseMap{DefaultInputKey: &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: fileURI(dir)}}}}
	retry := func(args map[string]any, state string) error {
		res, err := manual.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: args, InputResponses: answer, RequestState: state})
		switch {
		case err != nil:
			return err
		case res.NeedsInput():
			return errors.New("input required again")
		case res.IsError:
			return errors.New(res.Content[0].(*mcp.TextContent).Text)
		}
		return nil
	}
	if err := retry(args, first.RequestState); err != nil {
		t.Errorf("retry with the sealed state: %v", err)
	}
	tampered := []byte(first.RequestState)
	tampered[len(tampered)/2] ^= 1
	if err := retry(args, string(tampered)); err == nil || !strings.Contains(err.Error(), ErrStateTampered.Error()) {
		t.Errorf("retry with an altered state: %v, want %v", err, ErrStateTampered)
	}
	if err := retry(map[string]any{"path": "/etc/passwd"}, first.RequestState); err == nil || !strings.Contains(err.Error(), ErrStateWrongRequest.Error()) {
		t.Errorf("retry for other arguments: %v, want %v", err, ErrStateWrongRequest)
	}
}

// A legacy client that does not answer costs a call the Timeout.
func TestTimeout(t *testing.T) {
	dir, file := testDir(t)
	release := make(chan struct{})
	server := readServer(New(Timeout(50 * time.Millisecond)))
	cs, client := connect(t, server, "2025-06-18", nil, &mcp.Root{URI: fileURI(dir)})
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "roots/list" {
				<-release
			}
			return next(ctx, method, req)
		}
	})
	t.Cleanup(func() { close(release) })
	if _, err := read(t, cs, file); err == nil || !strings.Contains(err.Error(), ErrNoAnswer.Error()) {
		t.Errorf("%v, want %v", err, ErrNoAnswer)
	}
}
