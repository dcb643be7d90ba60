package democlient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// post is one request the fake HTTP server got.
type post struct {
	method string // HTTP method
	header http.Header
	ctx    context.Context // the request's, done when the client goes
	msg    ndjson.Message  // the JSON-RPC body of a POST
}

// fakeHTTP is a Streamable HTTP server written by hand: reply decides the
// answer to each request it gets, and every request is kept.
type fakeHTTP struct {
	*httptest.Server
	mu    sync.Mutex
	posts []post
}

func newFakeHTTP(t *testing.T, reply func(w http.ResponseWriter, p post)) *fakeHTTP {
	t.Helper()
	f := &fakeHTTP{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := post{method: r.Method, header: r.Header.Clone(), ctx: r.Context()}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(body, &p.msg); err != nil {
				t.Errorf("fake server: body %q: %v", body, err)
			}
		}
		f.mu.Lock()
		f.posts = append(f.posts, p)
		f.mu.Unlock()
		reply(w, p)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeHTTP) got() []post {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]post(nil), f.posts...)
}

// find returns the POSTs of a JSON-RPC method, or the requests of an HTTP
// method when it is upper case.
func (f *fakeHTTP) find(method string) []post {
	var out []post
	for _, p := range f.got() {
		if p.msg.Method == method || (p.msg.Method == "" && p.method == method) {
			out = append(out, p)
		}
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// openStream starts an event stream and sends its headers.
func openStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

// writeEvents answers with an event stream holding the given messages.
func writeEvents(w http.ResponseWriter, messages ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, "id: prime\nretry: 5\ndata: \n\n") // a priming event, as 2025-11-25 servers send
	for _, m := range messages {
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", m)
	}
}

func result(id json.RawMessage, result string) string {
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + `}`
}

// modernReply answers server/discover; other requests go to next.
func modernReply(next func(w http.ResponseWriter, p post)) func(w http.ResponseWriter, p post) {
	return func(w http.ResponseWriter, p post) {
		if p.msg.Method == "server/discover" {
			writeJSON(w, 200, result(p.msg.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}`))
			return
		}
		next(w, p)
	}
}

func printed(t *testing.T, v any) string {
	t.Helper()
	return jsonString(t, v)
}

// On 2026-07-28 every POST carries the version header, Mcp-Method (and
// Mcp-Name for tools/call) and the _meta of the stdio client; an
// input_required answer, in a JSON body or an event stream, is retried
// with the roots under the server's key.
func TestHTTPStateless(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%t", sse), func(t *testing.T) {
			f := newFakeHTTP(t, modernReply(func(w http.ResponseWriter, p post) {
				var params struct {
					InputResponses json.RawMessage `json:"inputResponses"`
				}
				_ = json.Unmarshal(p.msg.Params, &params)
				answer := result(p.msg.ID, `{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list","params":{}}},"requestState":"s"}`)
				if params.InputResponses != nil {
					answer = result(p.msg.ID, `{"resultType":"complete","content":[],"structuredContent":{"got":`+string(params.InputResponses)+`}}`)
				}
				if sse {
					writeEvents(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`, answer)
				} else {
					writeJSON(w, 200, answer)
				}
			}))
			transcript := new(peertest.Buffer)
			c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2026-07-28", Roots: oneRoot, Transcript: transcript})
			if err != nil {
				t.Fatal(err)
			}
			out := printed(t, c.command(context.Background(), `call read {"path":"a"}`))
			if want := `"structuredContent":{"got":{"r":{"roots":[{"name":"me","uri":"file:///home/me"}]}}}`; !strings.Contains(out, want) {
				t.Errorf("call printed %s, want %s", out, want)
			}
			if err := c.close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if n := len(f.find(http.MethodGet)) + len(f.find(http.MethodDelete)); n != 0 {
				t.Errorf("a stateless client sent %d GET or DELETE requests", n)
			}
			calls := f.find("tools/call")
			if len(calls) != 2 || string(calls[0].msg.ID) == string(calls[1].msg.ID) {
				t.Fatalf("tools/call POSTs: %+v, want two with different ids", calls)
			}
			for _, p := range f.got() {
				h := p.header
				if h.Get("MCP-Protocol-Version") != "2026-07-28" || h.Get("Mcp-Method") != p.msg.Method ||
					h.Get("Content-Type") != "application/json" || h.Get("Accept") != "application/json, text/event-stream" || h.Get("Mcp-Session-Id") != "" {
					t.Errorf("%s: headers %v", p.msg.Method, h)
				}
				if name := h.Get("Mcp-Name"); (p.msg.Method == "tools/call") != (name == "read") {
					t.Errorf("%s: Mcp-Name %q", p.msg.Method, name)
				}
				var params struct {
					Meta map[string]json.RawMessage `json:"_meta"`
				}
				_ = json.Unmarshal(p.msg.Params, &params)
				if string(params.Meta["io.modelcontextprotocol/protocolVersion"]) != `"2026-07-28"` ||
					string(params.Meta["io.modelcontextprotocol/clientCapabilities"]) != `{"roots":{}}` ||
					params.Meta["io.modelcontextprotocol/clientInfo"] == nil {
					t.Errorf("%s: _meta %s", p.msg.Method, p.msg.Params)
				}
			}
			var retry struct {
				RequestState string          `json:"requestState"`
				Arguments    json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(calls[1].msg.Params, &retry)
			if retry.RequestState != "s" || string(retry.Arguments) != `{"path":"a"}` {
				t.Errorf("retry params %s", calls[1].msg.Params)
			}
			if n := strings.Count(transcript.String(), "\n"); n < 6 {
				t.Errorf("transcript has %d frames:\n%s", n, transcript)
			}
		})
	}
}

// -32021 comes as 400 with the JSON-RPC error in the body: the client
// prints the error with its data, not the HTTP status. -32022 listing the
// client's own version is retried once; listing others, it is printed.
func TestHTTPModernErrors(t *testing.T) {
	var calls int
	f := newFakeHTTP(t, modernReply(func(w http.ResponseWriter, p post) {
		calls++
		switch calls {
		case 1:
			writeJSON(w, 400, `{"jsonrpc":"2.0","id":`+string(p.msg.ID)+`,"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{}}}}}`)
		case 2:
			writeJSON(w, 400, `{"jsonrpc":"2.0","id":`+string(p.msg.ID)+`,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}`)
		case 3:
			writeJSON(w, 200, result(p.msg.ID, `{"resultType":"complete","tools":[]}`))
		default:
			writeJSON(w, 400, `{"jsonrpc":"2.0","id":`+string(p.msg.ID)+`,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}}`)
		}
	}))
	c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2026-07-28", Roots: oneRoot})
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	ctx := context.Background()
	if got, want := printed(t, c.command(ctx, "call sample")), `{"error":{"code":-32021,"message":"Missing required client capability","data":{"requiredCapabilities":{"sampling":{}}}}}`; got != want {
		t.Errorf("-32021: printed %s, want %s", got, want)
	}
	if got, want := printed(t, c.command(ctx, "tools")), `{"result":{"resultType":"complete","tools":[]}}`; got != want {
		t.Errorf("-32022 then success: printed %s, want %s", got, want)
	}
	if got := printed(t, c.command(ctx, "tools")); !strings.Contains(got, `"code":-32022`) || !strings.Contains(got, "2027-01-01") {
		t.Errorf("-32022 without our version: printed %s", got)
	}
	if calls != 4 {
		t.Errorf("%d tools POSTs, want 4 (one retry only, after the -32022 that lists 2026-07-28)", calls)
	}
}

// A 2025-era session: initialize gives the session id, which every later
// request carries with the negotiated version; the GET stream and the
// event stream of a call both bring roots/list, answered by POST; a roots
// change is POSTed as list_changed; the end is a DELETE.
func TestHTTPLegacySession(t *testing.T) {
	getOpen := make(chan http.ResponseWriter, 1)
	getDone := make(chan struct{})
	answers := make(chan ndjson.Message, 4)
	f := newFakeHTTP(t, func(w http.ResponseWriter, p post) {
		switch {
		case p.method == http.MethodGet:
			openStream(w)
			getOpen <- w
			<-getDone
		case p.method == http.MethodDelete:
			w.WriteHeader(200)
		case p.msg.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", "sess-1")
			writeJSON(w, 200, result(p.msg.ID, `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"fake","version":"0"}}`))
		case p.msg.Method == "tools/call":
			writeEvents(w, `{"jsonrpc":"2.0","id":"s1","method":"roots/list","params":{}}`, result(p.msg.ID, `{"content":[]}`))
		case p.msg.Method == "" && p.msg.ID != nil:
			answers <- p.msg
			w.WriteHeader(http.StatusAccepted)
		default: // notifications
			w.WriteHeader(http.StatusAccepted)
		}
	})
	c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2025-11-25", Roots: oneRoot})
	if err != nil {
		t.Fatal(err)
	}
	// Over the GET stream, opened before connect returned.
	w := <-getOpen
	io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roots/list\"}\n\n")
	w.(http.Flusher).Flush()
	if a := <-answers; string(a.ID) != "7" || string(a.Result) != `{"roots":[{"name":"me","uri":"file:///home/me"}]}` {
		t.Errorf("answer on the GET stream's request: %+v", a)
	}
	// On the event stream of a call.
	if out := printed(t, c.command(context.Background(), "call t")); out != `{"result":{"content":[]}}` {
		t.Errorf("call printed %s", out)
	}
	if a := <-answers; string(a.ID) != `"s1"` || a.Result == nil {
		t.Errorf("answer on the call's stream: %+v", a)
	}
	if out := printed(t, c.command(context.Background(), "roots file:///x")); out != `{"ok":true}` {
		t.Errorf("roots printed %s", out)
	}
	close(getDone)
	if err := c.close(); err != nil {
		t.Errorf("close: %v", err)
	}
	for _, p := range f.got() {
		version, session := p.header.Get("MCP-Protocol-Version"), p.header.Get("Mcp-Session-Id")
		if p.msg.Method == "initialize" {
			if version != "" || session != "" {
				t.Errorf("initialize carried version %q, session %q", version, session)
			}
			continue
		}
		if version != "2025-11-25" || session != "sess-1" {
			t.Errorf("%s %s: version %q, session %q", p.method, p.msg.Method, version, session)
		}
		if p.header.Get("Mcp-Method") != "" {
			t.Errorf("%s %s: Mcp-Method on a legacy session", p.method, p.msg.Method)
		}
	}
	if n := len(f.find("notifications/roots/list_changed")); n != 1 {
		t.Errorf("%d list_changed POSTs, want 1", n)
	}
	if n := len(f.find(http.MethodDelete)); n != 1 {
		t.Errorf("%d DELETEs, want 1", n)
	}
}

// 2025-03-26 has no MCP-Protocol-Version header; a server without a GET
// stream is fine, whether it says so with 405 as it should or otherwise
// (the conformance suite's servers answer 404 or 400).
func TestHTTPLegacyNoHeaderNoStream(t *testing.T) {
	for _, status := range []int{http.StatusMethodNotAllowed, http.StatusNotFound, http.StatusBadRequest} {
		t.Run(strconv.Itoa(status), func(t *testing.T) { testNoStream(t, status) })
	}
}

// testNoStream runs a 2025-03-26 session against a server that answers
// GET with status, or never when status is 0.
func testNoStream(t *testing.T, status int) {
	f := newFakeHTTP(t, func(w http.ResponseWriter, p post) {
		switch {
		case p.method != http.MethodPost && status == 0:
			<-p.ctx.Done()
		case p.method != http.MethodPost:
			http.Error(w, "no", status)
		case p.msg.Method == "initialize":
			writeJSON(w, 200, result(p.msg.ID, `{"protocolVersion":"2025-03-26","capabilities":{}}`))
		case p.msg.ID != nil:
			writeJSON(w, 200, result(p.msg.ID, `{"tools":[]}`))
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
	c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2025-03-26"})
	if err != nil {
		t.Fatal(err)
	}
	if out := printed(t, c.command(context.Background(), "tools")); out != `{"result":{"tools":[]}}` {
		t.Errorf("tools printed %s", out)
	}
	if err := c.close(); err != nil {
		t.Errorf("close: %v", err)
	}
	for _, p := range f.got() {
		if v := p.header.Get("MCP-Protocol-Version"); v != "" {
			t.Errorf("%s %s carried MCP-Protocol-Version %q", p.method, p.msg.Method, v)
		}
	}
	if n := len(f.find(http.MethodDelete)); n != 0 {
		t.Errorf("DELETE sent without a session")
	}
}

// A legacy-only server answers the modern handshake with an HTTP error
// that is no JSON-RPC error: the handshake fails naming the status and the
// -protocol to use.
func TestHTTPModernAgainstLegacy(t *testing.T) {
	f := newFakeHTTP(t, func(w http.ResponseWriter, p post) {
		http.Error(w, "Bad Request: Server not initialized", http.StatusBadRequest)
	})
	_, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2026-07-28"})
	if err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "-protocol "+latestLegacy) {
		t.Errorf("connect: %v, want the HTTP status and the fix", err)
	}
}

// Answers are bounded: a JSON body or an event longer than maxMessage
// fails the call instead of being read whole.
func TestHTTPBounds(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":%s,"result":{"pad":"` + strings.Repeat("x", 4096) + `"}}`
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%t", sse), func(t *testing.T) {
			f := newFakeHTTP(t, modernReply(func(w http.ResponseWriter, p post) {
				if sse {
					writeEvents(w, fmt.Sprintf(big, p.msg.ID))
				} else {
					writeJSON(w, 200, fmt.Sprintf(big, p.msg.ID))
				}
			}))
			c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2026-07-28"})
			if err != nil {
				t.Fatal(err)
			}
			defer c.close()
			c.conn.(*httpConn).maxMessage = 1024
			if out := printed(t, c.command(context.Background(), "tools")); !strings.Contains(out, "longer than 1024 bytes") {
				t.Errorf("printed %s, want the bound named", out)
			}
		})
	}
}

// A server that disappears, with the GET stream open and a call waiting
// on its event stream, leaves no goroutine of the client behind once the
// client is closed.
func TestHTTPServerDisappears(t *testing.T) {
	before := clientGoroutines()
	inCall := make(chan struct{})
	f := newFakeHTTP(t, func(w http.ResponseWriter, p post) {
		switch {
		case p.method == http.MethodGet:
			openStream(w)
			<-p.ctx.Done()
		case p.msg.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s")
			writeJSON(w, 200, result(p.msg.ID, `{"protocolVersion":"2025-11-25","capabilities":{}}`))
		case p.msg.Method == "tools/call":
			openStream(w)
			close(inCall)
			<-p.ctx.Done()
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
	c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2025-11-25", Roots: oneRoot})
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan string, 1)
	go func() { out <- printed(t, c.command(context.Background(), "call t")) }()
	<-inCall
	f.CloseClientConnections()
	f.Close()
	if got := <-out; !strings.Contains(got, `"error"`) {
		t.Errorf("the call printed %s, want an error", got)
	}
	if err := c.close(); err == nil {
		t.Errorf("close: the DELETE to a server that is gone succeeded")
	}
	deadline := time.Now().Add(peertest.Wait)
	for {
		left := clientGoroutines() - before
		if left <= 0 {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines of the client are left:\n%s", left, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// clientGoroutines counts the goroutines running code of this package or
// net/http's client side.
func clientGoroutines() int {
	buf := make([]byte, 1<<20)
	n := 0
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "democlient.(*httpConn)") || strings.Contains(g, "net/http.(*persistConn)") {
			n++
		}
	}
	return n
}

// A server that never answers the GET does not hold up the handshake
// beyond streamWait: the session goes on without the stream.
func TestHTTPGetNeverAnswered(t *testing.T) {
	defer func(d time.Duration) { streamWait = d }(streamWait)
	streamWait = 50 * time.Millisecond
	testNoStream(t, 0)
}

// Events may span several data lines, end lines with CRLF, carry comments
// and other event types: only "message" events (or untyped ones) are
// messages, and their data lines are joined with newlines.
func TestHTTPEventParsing(t *testing.T) {
	c := newHTTPConn("http://unused", options{}, nil)
	c.setEra(true, "2026-07-28")
	defer c.Close()
	stream := ": keep-alive\r\n" +
		"event: ping\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"wrong\":true}}\r\n\r\n" +
		"id: 9\r\nretry: 250\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1,\r\ndata:\"result\":{}}\r\n\r\n"
	s := c.readStream(context.Background(), strings.NewReader(stream), json.RawMessage("1"))
	if s.err != nil || s.answer == nil || string(s.answer.Result) != "{}" {
		t.Fatalf("readStream = %+v, want the multi-line answer", s)
	}
	if s.lastID != "9" || s.retry != 250*time.Millisecond {
		t.Errorf("id %q, retry %v", s.lastID, s.retry)
	}
}

// A legacy session resumes a call's event stream that ended before its
// answer: after the retry interval, a GET with Last-Event-ID brings the
// answer. On 2026-07-28, which has no resumption, the call is sent again
// with a new id, once.
func TestHTTPBrokenStream(t *testing.T) {
	t.Run("resume", func(t *testing.T) {
		f := newFakeHTTP(t, func(w http.ResponseWriter, p post) {
			switch {
			case p.method == http.MethodGet && p.header.Get("Last-Event-ID") == "e1":
				openStream(w)
				io.WriteString(w, "id: e2\ndata: "+result(json.RawMessage("2"), `{"tools":[]}`)+"\n\n")
			case p.method == http.MethodGet:
				http.Error(w, "no standalone stream", http.StatusMethodNotAllowed)
			case p.method == http.MethodDelete:
			case p.msg.Method == "initialize":
				w.Header().Set("Mcp-Session-Id", "s")
				writeJSON(w, 200, result(p.msg.ID, `{"protocolVersion":"2025-11-25","capabilities":{}}`))
			case p.msg.Method == "tools/list":
				openStream(w)
				io.WriteString(w, "id: e1\nretry: 1\ndata: \n\n") // and the stream ends
			default:
				w.WriteHeader(http.StatusAccepted)
			}
		})
		c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		if out := printed(t, c.command(context.Background(), "tools")); out != `{"result":{"tools":[]}}` {
			t.Errorf("tools printed %s", out)
		}
		if n := len(f.find("tools/list")); n != 1 {
			t.Errorf("tools/list was POSTed %d times, want once", n)
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		broken := 0
		f := newFakeHTTP(t, modernReply(func(w http.ResponseWriter, p post) {
			if broken < 2 {
				broken++
				openStream(w)
				io.WriteString(w, "id: e1\ndata: \n\n")
				return
			}
			writeJSON(w, 200, result(p.msg.ID, `{"resultType":"complete","tools":[]}`))
		}))
		c, err := connectHTTP(context.Background(), f.URL, options{Protocol: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		if out := printed(t, c.command(context.Background(), "tools")); !strings.Contains(out, "without an answer") {
			t.Errorf("two broken streams: printed %s, want the error", out)
		}
		if out := printed(t, c.command(context.Background(), "tools")); out != `{"result":{"resultType":"complete","tools":[]}}` {
			t.Errorf("then a good one: printed %s", out)
		}
		posts := f.find("tools/list")
		if len(posts) != 3 || string(posts[0].msg.ID) == string(posts[1].msg.ID) || len(f.find(http.MethodGet)) != 0 {
			t.Errorf("tools/list POSTs %d (want 3, the second with a new id), GETs %d (want none)", len(posts), len(f.find(http.MethodGet)))
		}
	})
}
