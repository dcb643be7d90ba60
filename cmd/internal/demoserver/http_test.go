package demoserver

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/mcphttp"
	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// httpStarted is the HTTP handler on a loopback test server.
type httpStarted struct {
	h   *httpHandler
	srv *httptest.Server
	url string
	log *peertest.Buffer
}

func startHTTP(t *testing.T, o options) *httpStarted {
	t.Helper()
	s := &httpStarted{log: new(peertest.Buffer)}
	if o.Log == nil {
		o.Log = log.New(s.log, "", 0)
	}
	if o.Timeout == 0 {
		o.Timeout = peertest.Wait
	}
	var err error
	if s.h, err = newHTTPHandler(o); err != nil {
		t.Fatal(err)
	}
	s.srv = httptest.NewServer(s.h)
	s.url = s.srv.URL + Path
	t.Cleanup(func() {
		s.h.Close()
		s.srv.Close()
	})
	return s
}

// post sends body with the headers given as name, value pairs, and
// Content-Type and Accept set as a client of both eras sets them unless
// given.
func (s *httpStarted) post(t *testing.T, ctx context.Context, body string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mcphttp.JSON)
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := s.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// jsonAnswer reads a JSON response and checks its status.
func jsonAnswer(t *testing.T, resp *http.Response, status int) *ndjson.Message {
	t.Helper()
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status || !mcphttp.IsJSON(resp.Header.Get("Content-Type")) {
		t.Fatalf("HTTP %d %s %s, want %d application/json", resp.StatusCode, resp.Header.Get("Content-Type"), body, status)
	}
	var m ndjson.Message
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return &m
}

// modernCall is a 2026-07-28 tools/call with the headers it needs.
func (s *httpStarted) modernCall(t *testing.T, id int, tool, args, caps, extra string) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + extra +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
	return s.post(t, context.Background(), body, mcphttp.HeaderVersion, "2026-07-28", mcphttp.HeaderMethod, "tools/call", mcphttp.HeaderName, tool)
}

// A 2026-07-28 read_file over HTTP: input_required, then the retry with
// the roots reads inside them and refuses outside; the errors of the
// transport carry the statuses the specification gives.
func TestHTTPStateless(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, options{})
	args := `{"path":` + quote(filepath.Join(dir, "in.txt")) + `}`
	m := jsonAnswer(t, s.modernCall(t, 1, "read_file", args, `{"roots":{}}`, ""), http.StatusOK)
	var ask struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string `json:"method"`
		} `json:"inputRequests"`
		RequestState string `json:"requestState"`
	}
	if err := json.Unmarshal(m.Result, &ask); err != nil || ask.ResultType != "input_required" || ask.InputRequests["roots"].Method != "roots/list" || ask.RequestState == "" {
		t.Fatalf("first POST: %s (%v), want input_required asking roots/list", m.Result, err)
	}
	rootURI := (&url.URL{Scheme: "file", Path: dir}).String()
	retry := `,"inputResponses":{"roots":{"roots":[{"uri":"` + rootURI + `"}]}},"requestState":"` + ask.RequestState + `"`
	m = jsonAnswer(t, s.modernCall(t, 2, "read_file", args, `{"roots":{}}`, retry), http.StatusOK)
	if !strings.Contains(string(m.Result), `"text":"inside"`) || !strings.Contains(string(m.Result), `"resultType":"complete"`) {
		t.Errorf("retry: %s, want the file's text, complete", m.Result)
	}
	// The same state for another file: sealed for the first call only.
	other := `{"path":` + quote(filepath.Join(dir, "other")) + `}`
	if m = jsonAnswer(t, s.modernCall(t, 3, "read_file", other, `{"roots":{}}`, retry), http.StatusBadRequest); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("state replayed for another call: %+v, want -32602", m)
	}

	// No roots capability: -32021 with HTTP 400, naming roots.
	m = jsonAnswer(t, s.modernCall(t, 4, "read_file", args, `{}`, ""), http.StatusBadRequest)
	if m.Error == nil || m.Error.Code != -32021 || !strings.Contains(string(m.Error.Data), `"requiredCapabilities":{"roots":{}}`) {
		t.Errorf("no roots capability: %+v, want -32021 with data.requiredCapabilities.roots", m.Error)
	}

	// The transport's own checks.
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	for _, tc := range []struct {
		name    string
		headers []string
		status  int
		code    int64
	}{
		{"no version header", []string{mcphttp.HeaderMethod, "tools/list"}, 400, -32020},
		{"version header differs", []string{mcphttp.HeaderVersion, "2025-11-25", mcphttp.HeaderMethod, "tools/list"}, 400, -32020},
		{"method header differs", []string{mcphttp.HeaderVersion, "2026-07-28", mcphttp.HeaderMethod, "tools/call"}, 400, -32020},
		{"served", []string{mcphttp.HeaderVersion, "2026-07-28", mcphttp.HeaderMethod, "tools/list"}, 200, 0},
	} {
		m := jsonAnswer(t, s.post(t, context.Background(), body, tc.headers...), tc.status)
		if (m.Error == nil) != (tc.code == 0) || (m.Error != nil && m.Error.Code != tc.code) {
			t.Errorf("%s: %+v, want code %d", tc.name, m.Error, tc.code)
		}
	}
	old := strings.ReplaceAll(body, "2026-07-28", "2025-06-18")
	m = jsonAnswer(t, s.post(t, context.Background(), old, mcphttp.HeaderVersion, "2025-06-18", mcphttp.HeaderMethod, "tools/list"), http.StatusBadRequest)
	if m.Error == nil || m.Error.Code != -32022 || !strings.Contains(string(m.Error.Data), `"supported":["2026-07-28"]`) {
		t.Errorf("legacy version in _meta: %+v, want -32022 listing 2026-07-28", m.Error)
	}
}

// A 2026-07-28 request whose _meta leaves out the client capabilities,
// or gives them as null, as anything but an object, or with roots of the
// wrong type, is malformed: HTTP 400 with error -32602, whether the
// transport refuses it (every method) or the gate (tools/call), and not
// the -32021 of a client whose capabilities lack roots.
func TestHTTPMalformedMeta(t *testing.T) {
	s := startHTTP(t, options{})
	const version = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	const caps = `,"io.modelcontextprotocol/clientCapabilities":`
	for i, meta := range []string{
		`{` + version + `}`,
		`{` + version + caps + `null}`,
		`{` + version + caps + `"roots"}`,
		`{` + version + caps + `[]}`,
		`{` + version + caps + `{"roots":5}}`,
	} {
		for _, method := range []string{"tools/call", "tools/list"} {
			body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"` + method + `","params":{"name":"list_roots","arguments":{},"_meta":` + meta + `}}`
			headers := []string{mcphttp.HeaderVersion, "2026-07-28", mcphttp.HeaderMethod, method}
			if method == "tools/call" {
				headers = append(headers, mcphttp.HeaderName, "list_roots")
			}
			resp := s.post(t, context.Background(), body, headers...)
			if strings.Contains(meta, `"roots":5`) && method == "tools/list" {
				// Capabilities are an object: tools/list reads no more of them.
				jsonAnswer(t, resp, http.StatusOK)
				continue
			}
			m := jsonAnswer(t, resp, http.StatusBadRequest)
			if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message+string(m.Error.Data), "clientCapabilities") {
				t.Errorf("%s with _meta %s: %+v, want -32602 naming clientCapabilities", method, meta, m.Error)
			}
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// events reads the SSE events of a response, one at a time.
type events struct {
	t  *testing.T
	ch chan []byte
}

func readEvents(t *testing.T, body io.Reader) *events {
	e := &events{t: t, ch: make(chan []byte, 8)}
	go func() {
		defer close(e.ch)
		_ = mcphttp.ReadEvents(body, 1<<20, func(data []byte) error {
			e.ch <- append([]byte(nil), data...)
			return nil
		})
	}()
	return e
}

func (e *events) next() *ndjson.Message {
	e.t.Helper()
	select {
	case data, ok := <-e.ch:
		if !ok {
			e.t.Fatal("the stream ended")
		}
		var m ndjson.Message
		if err := json.Unmarshal(data, &m); err != nil {
			e.t.Fatalf("event %s: %v", data, err)
		}
		return &m
	case <-time.After(peertest.Wait):
		e.t.Fatal("no event")
		return nil
	}
}

// initialize opens a 2025-11-25 session with roots.listChanged.
func (s *httpStarted) initialize(t *testing.T) string {
	t.Helper()
	resp := s.post(t, context.Background(), `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"t","version":"0"}}}`)
	sid := resp.Header.Get(mcphttp.HeaderSession)
	if m := jsonAnswer(t, resp, http.StatusOK); m.Error != nil || sid == "" {
		t.Fatalf("initialize: %+v, session %q", m, sid)
	}
	s.notify(t, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return sid
}

// notify POSTs a notification or response on a session; it must be
// accepted with 202.
func (s *httpStarted) notify(t *testing.T, sid, body string) {
	t.Helper()
	resp := s.post(t, context.Background(), body, mcphttp.HeaderSession, sid, mcphttp.HeaderVersion, "2025-11-25")
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("%s: HTTP %d, want 202", body, resp.StatusCode)
	}
}

// callListRoots is a 2025-era tools/call of list_roots.
func callListRoots(id int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"list_roots"}}`
}

// A 2025-era session: roots/list reaches the client on the POST's SSE
// stream, or on the GET stream when the POST takes JSON only; the answer
// and list_changed are POSTed; DELETE ends the session.
func TestHTTPSession(t *testing.T) {
	s := startHTTP(t, options{})
	sid := s.initialize(t)
	resp := s.post(t, context.Background(), callListRoots(1), mcphttp.HeaderSession, sid)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != mcphttp.EventStream {
		t.Fatalf("Content-Type %q, want an event stream", ct)
	}
	ev := readEvents(t, resp.Body)
	req := ev.next()
	if req.Method != "roots/list" || string(req.Params) != "{}" {
		t.Fatalf("first event %+v, want roots/list with params {}", req)
	}
	s.notify(t, sid, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"roots":[{"uri":"file:///a"}]}}`)
	if m := ev.next(); !strings.Contains(string(m.Result), `"uri":"file:///a"`) {
		t.Fatalf("tool result %s, want the root", m.Result)
	}

	// Cached: no roots/list, so a plain JSON answer.
	m := jsonAnswer(t, s.post(t, context.Background(), callListRoots(2), mcphttp.HeaderSession, sid), http.StatusOK)
	if !strings.Contains(string(m.Result), `"uri":"file:///a"`) {
		t.Fatalf("cached call: %s", m.Result)
	}

	// After list_changed, with the GET stream open and a POST that takes
	// JSON only, roots/list goes out on the GET stream.
	s.notify(t, sid, `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	get.Header.Set("Accept", mcphttp.EventStream)
	get.Header.Set(mcphttp.HeaderSession, sid)
	stream, err := s.srv.Client().Do(get)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("GET: %v %v", stream, err)
	}
	defer stream.Body.Close()
	gev := readEvents(t, stream.Body)
	done := make(chan *ndjson.Message, 1)
	go func() {
		resp := s.post(t, context.Background(), callListRoots(3), mcphttp.HeaderSession, sid, "Accept", mcphttp.JSON)
		done <- jsonAnswer(t, resp, http.StatusOK)
	}()
	req = gev.next()
	if req.Method != "roots/list" {
		t.Fatalf("GET stream: %+v, want roots/list", req)
	}
	s.notify(t, sid, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"roots":[{"uri":"file:///b"}]}}`)
	if m := <-done; !strings.Contains(string(m.Result), `"uri":"file:///b"`) {
		t.Fatalf("after list_changed: %s, want the new root", m.Result)
	}

	// DELETE ends the session: 204, then 404.
	del, _ := http.NewRequest(http.MethodDelete, s.url, nil)
	del.Header.Set(mcphttp.HeaderSession, sid)
	if r, err := s.srv.Client().Do(del); err != nil || r.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", r, err)
	}
	r := s.post(t, context.Background(), callListRoots(4), mcphttp.HeaderSession, sid)
	r.Body.Close()
	if r.StatusCode != http.StatusNotFound {
		t.Errorf("after DELETE: HTTP %d, want 404", r.StatusCode)
	}
}

// The bounds: a body too long is refused with 413, a session beyond
// MaxSessions with 503, and an idle session ends.
func TestHTTPLimits(t *testing.T) {
	s := startHTTP(t, options{MaxBody: 1 << 10, MaxSessions: 1, SessionIdle: 50 * time.Millisecond})
	r := s.post(t, context.Background(), `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`+strings.Repeat("x", 2<<10)+`"}}`)
	r.Body.Close()
	if r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2 KiB body with MaxBody 1 KiB: HTTP %d, want 413", r.StatusCode)
	}
	sid := s.initialize(t)
	r = s.post(t, context.Background(), `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
	r.Body.Close()
	if r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a second session with MaxSessions 1: HTTP %d, want 503", r.StatusCode)
	}
	s.waitNoSessions(t)
	r = s.post(t, context.Background(), callListRoots(1), mcphttp.HeaderSession, sid)
	r.Body.Close()
	if r.StatusCode != http.StatusNotFound {
		t.Errorf("expired session: HTTP %d, want 404", r.StatusCode)
	}
	if !strings.Contains(s.log.String(), "idle for 50ms, ended") {
		t.Errorf("log %q, want the expiry", s.log)
	}
}

// waitNoSessions waits until every session has ended: idle sessions end
// on their own. It polls, bounded by peertest.Wait.
func (s *httpStarted) waitNoSessions(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(peertest.Wait); ; time.Sleep(20 * time.Millisecond) {
		s.h.mu.Lock()
		n := len(s.h.sessions)
		s.h.mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions still open, want them ended once idle", n)
		}
	}
}

// A client that disappears while the server waits for its roots/list
// answer leaves nothing running: once its session expires and the server
// closes, the goroutines are those of before.
func TestHTTPClientVanishes(t *testing.T) {
	before := runtime.NumGoroutine()
	func() {
		s := startHTTP(t, options{Timeout: time.Hour, SessionIdle: 50 * time.Millisecond})
		sid := s.initialize(t)
		ctx, cancel := context.WithCancel(context.Background())
		resp := s.post(t, ctx, callListRoots(1), mcphttp.HeaderSession, sid)
		if req := readEvents(t, resp.Body).next(); req.Method != "roots/list" {
			t.Fatalf("got %+v, want roots/list", req)
		}
		cancel() // the client goes away without answering
		resp.Body.Close()
		s.waitNoSessions(t) // it expires although roots/list is unanswered
		s.srv.Client().CloseIdleConnections()
		s.srv.Close()
		s.h.Close()
	}()
	var after int
	for deadline := time.Now().Add(peertest.Wait); ; time.Sleep(20 * time.Millisecond) {
		if after = runtime.NumGoroutine(); after <= before {
			return
		}
		if time.Now().After(deadline) {
			break
		}
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines before, %d after:\n%s", before, after, buf[:runtime.Stack(buf, true)])
}

// Sessions and 2026-07-28 calls at once, for the race detector: each
// session's roots/list goes out on the stream of its own POST, and each
// stateless retry opens only its own state.
func TestHTTPConcurrent(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, options{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sid := s.initialize(t)
			for call := range 2 {
				resp := s.post(t, context.Background(), callListRoots(call+1), mcphttp.HeaderSession, sid)
				ev := readEvents(t, resp.Body)
				req := ev.next()
				root := "file:///s" + strconv.Itoa(i) + "c" + strconv.Itoa(call)
				s.notify(t, sid, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"roots":[{"uri":"`+root+`"}]}}`)
				if m := ev.next(); !strings.Contains(string(m.Result), `"uri":"`+root+`"`) {
					t.Errorf("session %d call %d: %s, want %s", i, call, m.Result, root)
				}
				resp.Body.Close()
				s.notify(t, sid, `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
			}
		}()
	}
	args := `{"path":` + quote(filepath.Join(dir, "in.txt")) + `}`
	rootURI := (&url.URL{Scheme: "file", Path: dir}).String()
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := jsonAnswer(t, s.modernCall(t, 2*i, "read_file", args, `{"roots":{}}`, ""), http.StatusOK)
			var ask struct {
				RequestState string `json:"requestState"`
			}
			_ = json.Unmarshal(m.Result, &ask)
			retry := `,"inputResponses":{"roots":{"roots":[{"uri":"` + rootURI + `"}]}},"requestState":"` + ask.RequestState + `"`
			m = jsonAnswer(t, s.modernCall(t, 2*i+1, "read_file", args, `{"roots":{}}`, retry), http.StatusOK)
			if !strings.Contains(string(m.Result), `"text":"inside"`) {
				t.Errorf("stateless call %d: %s", i, m.Result)
			}
		}()
	}
	wg.Wait()
}
