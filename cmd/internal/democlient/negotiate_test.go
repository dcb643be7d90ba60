package democlient

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// defaultOptions are the options rootsdemo-client starts with when its
// command line names nothing but the roots and the server: no -protocol.
func defaultOptions(t *testing.T) options {
	t.Helper()
	a, err := parseArgs(flag.NewFlagSet("rootsdemo-client", flag.ContinueOnError), []string{"-root", "file:///home/me=me", "--", "server"})
	if err != nil {
		t.Fatal(err)
	}
	return a.options
}

// seen is one message the era fake got, with the HTTP headers it came
// with (nil over stdio).
type seen struct {
	msg    ndjson.Message
	header http.Header
}

// eraFake is a server for the negotiation tests, the same over stdio and
// HTTP: answer gives, for each request of the client, the HTTP status and
// the JSON-RPC answer (an empty one is never sent: over stdio the request
// goes unanswered, over HTTP the status comes with a plain-text body).
type eraFake struct {
	connect func(o options) (*client, error)
	mu      sync.Mutex
	seen    []seen
}

func (f *eraFake) record(m ndjson.Message, h http.Header) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen = append(f.seen, seen{m, h})
}

// requests returns the requests the fake got, in order.
func (f *eraFake) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []seen
	for _, s := range f.seen {
		if s.msg.Method != "" && s.msg.ID != nil {
			out = append(out, s)
		}
	}
	return out
}

// methods returns the methods of the messages the fake got, once it has
// got n of them or after peertest.Wait: over stdio a notification is
// recorded a moment after the client has written it.
func (f *eraFake) methods(n int) []string {
	deadline := time.Now().Add(peertest.Wait)
	for {
		f.mu.Lock()
		var out []string
		for _, s := range f.seen {
			if s.msg.Method != "" {
				out = append(out, s.msg.Method)
			}
		}
		f.mu.Unlock()
		if len(out) >= n || time.Now().After(deadline) {
			return out
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var transports = []string{"stdio", "http"}

func newEraFake(t *testing.T, transport string, answer func(m ndjson.Message) (status int, body string)) *eraFake {
	t.Helper()
	f := &eraFake{}
	if transport == "http" {
		h := newFakeHTTP(t, func(w http.ResponseWriter, p post) {
			switch {
			case p.method == http.MethodGet:
				http.Error(w, "no stream", http.StatusMethodNotAllowed)
			case p.method != http.MethodPost:
				w.WriteHeader(http.StatusOK)
			case p.msg.Method == "" || p.msg.ID == nil:
				f.record(p.msg, p.header)
				w.WriteHeader(http.StatusAccepted)
			default:
				f.record(p.msg, p.header)
				status, body := answer(p.msg)
				if p.msg.Method == "initialize" {
					w.Header().Set("Mcp-Session-Id", "sess-1")
				}
				if body == "" {
					http.Error(w, "Bad Request: Server not initialized", status)
					return
				}
				writeJSON(w, status, body)
			}
		})
		f.connect = func(o options) (*client, error) {
			c, err := connectHTTP(context.Background(), h.URL, o)
			if err == nil {
				t.Cleanup(func() { c.close() })
			}
			return c, err
		}
		return f
	}
	ours, theirs := peertest.Pipes()
	t.Cleanup(ours.Close)
	t.Cleanup(theirs.Close)
	go func() {
		sc := bufio.NewScanner(theirs.R)
		for sc.Scan() {
			var m ndjson.Message
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("fake server: frame %q: %v", sc.Bytes(), err)
				continue
			}
			f.record(m, nil)
			if m.Method == "" || m.ID == nil {
				continue
			}
			if _, body := answer(m); body != "" {
				io.WriteString(theirs.W, body+"\n")
			}
		}
	}()
	f.connect = func(o options) (*client, error) {
		return connect(context.Background(), ours.R, ours.W, o)
	}
	return f
}

// versionError is the -32022 answer to m naming supported.
func versionError(m ndjson.Message, supported ...string) (int, string) {
	data, _ := json.Marshal(map[string]any{"supported": supported, "requested": "2026-07-28"})
	return http.StatusBadRequest, `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32022,"message":"Unsupported protocol version","data":` + string(data) + `}}`
}

// metaOf returns the _meta of a request's params.
func metaOf(m ndjson.Message) map[string]json.RawMessage {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return p.Meta
}

// A server that supports only earlier revisions than the client's newest
// refuses the first request with -32022 and says which it supports (or
// answers server/discover with a list without it); the client, started
// without -protocol, goes on with the newest of those it knows too: a
// 2025-era session opened with initialize, over stdio and over HTTP alike.
func TestNegotiateOlderRevision(t *testing.T) {
	for _, tc := range []struct{ transport, answer string }{
		{"stdio", "-32022"}, {"http", "-32022"}, {"stdio", "discover result"}, {"http", "discover result"},
	} {
		t.Run(tc.transport+" "+tc.answer, func(t *testing.T) {
			f := newEraFake(t, tc.transport, func(m ndjson.Message) (int, string) {
				switch {
				case m.Method == "server/discover" && tc.answer == "-32022":
					return versionError(m, "2025-03-26", "2025-06-18", "1999-01-01")
				case m.Method == "server/discover":
					return 200, result(m.ID, `{"resultType":"complete","supportedVersions":["2025-03-26","2025-06-18","1999-01-01"],"capabilities":{}}`)
				case m.Method == "initialize":
					return 200, result(m.ID, `{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"old","version":"0"}}`)
				}
				return 200, result(m.ID, `{"tools":[]}`)
			})
			c, err := f.connect(defaultOptions(t))
			if err != nil {
				t.Fatal(err)
			}
			if out := printed(t, c.command(context.Background(), "tools")); out != `{"result":{"tools":[]}}` {
				t.Errorf("tools printed %s", out)
			}
			want := []string{"server/discover", "initialize", "notifications/initialized", "tools/list"}
			if got := f.methods(len(want)); !slices.Equal(got, want) {
				t.Fatalf("the server got %q, want %q", got, want)
			}
			reqs := f.requests()
			if v := string(metaOf(reqs[0].msg)["io.modelcontextprotocol/protocolVersion"]); v != `"2026-07-28"` {
				t.Errorf("the first request offered %s, want the client's newest revision, 2026-07-28", v)
			}
			var init struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(reqs[1].msg.Params, &init)
			if init.ProtocolVersion != "2025-06-18" {
				t.Errorf("initialize offered %q, want 2025-06-18, the newest revision both support", init.ProtocolVersion)
			}
			if c.negotiated() != "2025-06-18" {
				t.Errorf("the session speaks %q, want 2025-06-18", c.negotiated())
			}
			if meta := metaOf(reqs[2].msg); meta != nil {
				t.Errorf("tools/list on a 2025-era session carried _meta %v", meta)
			}
			if tc.transport == "http" {
				for i, want := range []string{"2026-07-28", "", "2025-06-18"} {
					if got := reqs[i].header.Get("MCP-Protocol-Version"); got != want {
						t.Errorf("%s carried MCP-Protocol-Version %q, want %q", reqs[i].msg.Method, got, want)
					}
				}
				if got := reqs[2].header.Get("Mcp-Session-Id"); got != "sess-1" {
					t.Errorf("tools/list carried Mcp-Session-Id %q, want the session's", got)
				}
			}
		})
	}
}

// A -32022 that lists the version the client offered (as a load balancer
// in front of servers of mixed versions may send) is retried once with
// that version, and the session stays on 2026-07-28.
func TestNegotiateRetrySameVersion(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			refused := false
			f := newEraFake(t, transport, func(m ndjson.Message) (int, string) {
				if m.Method == "server/discover" && !refused {
					refused = true
					return versionError(m, "2026-07-28", "2025-11-25")
				}
				return 200, result(m.ID, `{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{}}`)
			})
			c, err := f.connect(defaultOptions(t))
			if err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 2 || reqs[1].msg.Method != "server/discover" || string(reqs[0].msg.ID) == string(reqs[1].msg.ID) {
				t.Fatalf("the server got %q, want server/discover twice, with different ids", f.methods(2))
			}
			for _, r := range reqs {
				if v := string(metaOf(r.msg)["io.modelcontextprotocol/protocolVersion"]); v != `"2026-07-28"` {
					t.Errorf("server/discover offered %s, want 2026-07-28", v)
				}
			}
			if c.negotiated() != "2026-07-28" || !c.stateless {
				t.Errorf("the session speaks %q (stateless %t), want 2026-07-28", c.negotiated(), c.stateless)
			}
		})
	}
}

// A server that shares no revision with the client ends the handshake
// with an error naming what each side supports; nothing else is sent.
func TestNegotiateNoSharedVersion(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			f := newEraFake(t, transport, func(m ndjson.Message) (int, string) {
				return versionError(m, "2027-01-01", "1999-01-01")
			})
			_, err := f.connect(defaultOptions(t))
			if err == nil {
				t.Fatal("the handshake succeeded")
			}
			wants := []string{"2027-01-01, 1999-01-01"}
			for _, r := range rootsgate.Revisions() {
				wants = append(wants, r.Version)
			}
			for _, want := range wants {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %s", err, want)
				}
			}
			if got := f.methods(1); !slices.Equal(got, []string{"server/discover"}) {
				t.Errorf("the server got %q, want server/discover alone", got)
			}
		})
	}
}

// A server of an earlier era answers the modern probe with an error that
// is none of 2026-07-28's (over HTTP: a 400 without a JSON-RPC error), or
// over stdio not at all; the client, started without -protocol, falls
// back to initialize, offering the newest revision that has it.
func TestNegotiateLegacyServer(t *testing.T) {
	defer func(d time.Duration) { probeWait = d }(probeWait)
	probeWait = 100 * time.Millisecond
	for _, tc := range []struct {
		name      string
		transport string
		status    int
		discover  string // the answer to server/discover
	}{
		{"stdio method not found", "stdio", 0, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`},
		{"stdio silent", "stdio", 0, ""},
		{"http 400", "http", http.StatusBadRequest, ""},
		{"http 404 json", "http", http.StatusNotFound, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newEraFake(t, tc.transport, func(m ndjson.Message) (int, string) {
				switch m.Method {
				case "server/discover":
					return tc.status, strings.ReplaceAll(tc.discover, "%s", string(m.ID))
				case "initialize":
					return 200, result(m.ID, `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"0"}}`)
				}
				return 200, result(m.ID, `{"tools":[]}`)
			})
			c, err := f.connect(defaultOptions(t))
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"server/discover", "initialize", "notifications/initialized"}
			if got := f.methods(len(want)); !slices.Equal(got, want) {
				t.Fatalf("the server got %q, want %q", got, want)
			}
			if c.negotiated() != latestLegacy {
				t.Errorf("the session speaks %q, want %s", c.negotiated(), latestLegacy)
			}
		})
	}
}

// Every request of a session the client negotiated on 2026-07-28 carries
// io.modelcontextprotocol/clientInfo in its _meta, with the protocol
// version and the capabilities: the probe, its retry after a -32022, a
// listing, a call and the call's retry with the roots.
func TestNegotiatedClientInfo(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			refused := false
			f := newEraFake(t, transport, func(m ndjson.Message) (int, string) {
				var p struct {
					InputResponses json.RawMessage `json:"inputResponses"`
				}
				_ = json.Unmarshal(m.Params, &p)
				switch {
				case m.Method == "server/discover" && !refused:
					refused = true
					return versionError(m, "2026-07-28")
				case m.Method == "server/discover":
					return 200, result(m.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}`)
				case m.Method == "tools/call" && p.InputResponses == nil:
					return 200, result(m.ID, `{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list","params":{}}},"requestState":"s"}`)
				case m.Method == "tools/call":
					return 200, result(m.ID, `{"resultType":"complete","content":[]}`)
				}
				return 200, result(m.ID, `{"resultType":"complete","tools":[]}`)
			})
			c, err := f.connect(defaultOptions(t))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for _, command := range []string{"tools", "call list_roots"} {
				if out := printed(t, c.command(ctx, command)); !strings.Contains(out, `"result"`) {
					t.Errorf("%s printed %s", command, out)
				}
			}
			want := []string{"server/discover", "server/discover", "tools/list", "tools/call", "tools/call"}
			if got := f.methods(len(want)); !slices.Equal(got, want) {
				t.Fatalf("the server got %q, want %q", got, want)
			}
			info, _ := json.Marshal(clientInfo)
			for _, r := range f.requests() {
				meta := metaOf(r.msg)
				if got := meta["io.modelcontextprotocol/clientInfo"]; string(got) != string(info) || !strings.Contains(string(info), `"name":"rootsdemo-client"`) {
					t.Errorf("%s: _meta clientInfo %s, want %s", r.msg.Method, got, info)
				}
				if v := string(meta["io.modelcontextprotocol/protocolVersion"]); v != `"2026-07-28"` {
					t.Errorf("%s: _meta protocolVersion %s", r.msg.Method, v)
				}
				if caps := string(meta["io.modelcontextprotocol/clientCapabilities"]); caps != `{"roots":{}}` {
					t.Errorf("%s: _meta clientCapabilities %s", r.msg.Method, caps)
				}
			}
		})
	}
}
