package demoserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// fakeClient drives our server with frames written by hand.
type fakeClient struct {
	*peertest.Peer
	t  *testing.T
	id int
}

func newFakeClient(t *testing.T, s *started) *fakeClient {
	return &fakeClient{Peer: peertest.NewPeer(t, s.peer), t: t}
}

func (c *fakeClient) initialize(version, caps string) {
	c.t.Helper()
	c.Send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + caps + `,"clientInfo":{"name":"fake","version":"0"}}}`)
	if m, raw := c.Recv(); m.Error != nil || !strings.Contains(raw, `"protocolVersion":"`+version+`"`) {
		c.t.Fatalf("initialize answered %s", raw)
	}
	c.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// callTool sends tools/call of list_roots with extra params members.
func (c *fakeClient) callTool(extra string) {
	c.t.Helper()
	c.id++
	c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"list_roots"%s}}`, c.id, extra))
}

// answer answers a request from the server with result.
func (c *fakeClient) answer(req *ndjson.Message, result string) {
	c.t.Helper()
	c.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`)
}

// toolResult reads the answer to the last tools/call.
func (c *fakeClient) toolResult() (roots []root, toolErr string) {
	c.t.Helper()
	m, raw := c.Recv()
	if string(m.ID) != fmt.Sprint(c.id) || m.Result == nil {
		c.t.Fatalf("got %.300s, want the result of tools/call %d", raw, c.id)
	}
	var res struct {
		IsError           bool `json:"isError"`
		Content           []struct{ Text string }
		StructuredContent *toolRoots `json:"structuredContent"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		c.t.Fatal(err)
	}
	if res.IsError {
		return nil, res.Content[0].Text
	}
	return res.StructuredContent.Roots, ""
}

// askState sends tools/call of list_roots with extra params members,
// expects the input_required result that asks for roots, and returns its
// requestState.
func (c *fakeClient) askState(extra string) string {
	c.t.Helper()
	c.callTool(extra)
	m, raw := c.Recv()
	var res struct {
		ResultType   string `json:"resultType"`
		RequestState string `json:"requestState"`
	}
	if m.Result == nil || json.Unmarshal(m.Result, &res) != nil || res.ResultType != "input_required" || res.RequestState == "" {
		c.t.Fatalf("got %.300s, want an input_required result with a requestState", raw)
	}
	return res.RequestState
}

// rpcError reads the answer to the last request, which must be an error.
func (c *fakeClient) rpcError() *ndjson.Error {
	c.t.Helper()
	m, raw := c.Recv()
	if string(m.ID) != fmt.Sprint(c.id) || m.Error == nil {
		c.t.Fatalf("got %.300s, want an error answering request %d", raw, c.id)
	}
	return m.Error
}

const legacy = "2025-06-18"

var raceEnabled bool

// roots/list goes out with "params":{}, and list_changed drops the cache
// whether its params are absent, null or {}.
func TestHostileListChangedParams(t *testing.T) {
	s := start(t, options{Timeout: peertest.Wait})
	c := newFakeClient(t, s)
	c.initialize(legacy, `{"roots":{"listChanged":true}}`)
	for i, params := range []string{"", `,"params":null`, `,"params":{}`, ``} {
		c.callTool("")
		req := c.Expect("roots/list")
		if string(req.Params) != "{}" {
			t.Errorf("roots/list params = %s, want {}", req.Params)
		}
		c.answer(req, fmt.Sprintf(`{"roots":[{"uri":"file:///r%d"}]}`, i))
		if roots, _ := c.toolResult(); !slices.Equal(roots, []root{{URI: fmt.Sprintf("file:///r%d", i)}}) {
			t.Errorf("round %d: roots %v", i, roots)
		}
		c.callTool("") // served from the cache: no roots/list
		if roots, _ := c.toolResult(); len(roots) != 1 {
			t.Errorf("round %d: cached roots %v", i, roots)
		}
		c.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"` + params + `}`)
	}
	s.stop(t)
	if log := s.log.String(); log != "" {
		t.Errorf("log: %s", log)
	}
}

// A client without the roots capability is never asked.
func TestHostileNoCapability(t *testing.T) {
	s := start(t, options{Timeout: peertest.Wait})
	c := newFakeClient(t, s)
	c.initialize(legacy, `{}`)
	c.callTool("")
	if _, toolErr := c.toolResult(); !strings.Contains(toolErr, "did not declare the roots capability") {
		t.Errorf("tool error %q", toolErr)
	}
	s.stop(t)
	if strings.Contains(s.transcript.String(), `"method":"roots/list"`) {
		t.Errorf("roots/list sent to a client without roots:\n%s", s.transcript)
	}

	// On 2026-07-28 the capability rides in _meta; without it: -32021.
	s = start(t, options{Timeout: peertest.Wait})
	c = newFakeClient(t, s)
	c.callTool(`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`)
	if m, raw := c.Recv(); m.Error == nil || m.Error.Code != -32021 || !strings.Contains(string(m.Error.Data), `"requiredCapabilities":{"roots":{}}`) {
		t.Errorf("got %s, want error -32021 requiring roots", raw)
	}
	s.stop(t)
}

// A 2026-07-28 call whose _meta leaves out the client capabilities, or
// gives them as null, as anything but an object, or with roots of the
// wrong type, is malformed: error -32602 whose data.reason says why, not
// the -32021 of a client whose capabilities lack roots, and nothing is
// asked.
func TestHostileMalformedMeta(t *testing.T) {
	const version = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
	const caps = `"io.modelcontextprotocol/clientCapabilities"`
	s := start(t, options{Timeout: peertest.Wait})
	c := newFakeClient(t, s)
	for _, meta := range []string{
		`{` + version + `}`,
		`{` + version + `,"io.modelcontextprotocol/clientInfo":{"name":"x","version":"0"}}`,
		`{` + version + `,` + caps + `:null}`,
		`{` + version + `,` + caps + `:"roots"}`,
		`{` + version + `,` + caps + `:["roots"]}`,
		`{` + version + `,` + caps + `:{"roots":5}}`,
	} {
		c.callTool(`,"_meta":` + meta + `,"inputResponses":{"roots":{"roots":[{"uri":"file:///etc"}]}}`)
		e := c.rpcError()
		var data struct{ Reason string }
		if e.Code != -32602 || e.Message != "Invalid params" || json.Unmarshal(e.Data, &data) != nil || !strings.Contains(data.Reason, "clientCapabilities") {
			t.Errorf("_meta %s: error %d %q %s, want -32602 Invalid params with data.reason naming clientCapabilities", meta, e.Code, e.Message, e.Data)
		}
	}
	s.stop(t)
	if tr := s.transcript.String(); strings.Contains(tr, "input_required") || strings.Contains(tr, `"code":-32021`) || strings.Contains(tr, `"text"`) {
		t.Errorf("a malformed call was served:\n%s", tr)
	}
}

// On a connection initialized for a legacy revision, a tools/call whose
// _meta names 2026-07-28 (declaring roots, and bringing roots of its own
// in inputResponses) is refused: the connection's version decides, so
// nothing is asked, no input_required result is sent, and the roots it
// brings are not taken.
func TestHostileMetaOnLegacyConnection(t *testing.T) {
	for _, caps := range []string{`{}`, `{"roots":{"listChanged":true}}`} {
		s := start(t, options{Timeout: peertest.Wait})
		c := newFakeClient(t, s)
		c.initialize(legacy, caps)
		c.callTool(`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`)
		if _, toolErr := c.toolResult(); !strings.Contains(toolErr, "does not carry roots this way") {
			t.Errorf("caps %s, no inputResponses: tool error %q, want the wrong-path error", caps, toolErr)
		}
		c.callTool(`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},"inputResponses":{"roots":{"roots":[{"uri":"file:///etc"}]}}`)
		if roots, toolErr := c.toolResult(); roots != nil || !strings.Contains(toolErr, "does not carry roots this way") {
			t.Errorf("caps %s, with inputResponses: roots %v, tool error %q; want the wrong-path error", caps, roots, toolErr)
		}
		s.stop(t)
		if tr := s.transcript.String(); strings.Contains(tr, `"method":"roots/list"`) || strings.Contains(tr, "input_required") {
			t.Errorf("caps %s: roots asked for:\n%s", caps, tr)
		}
	}
}

const mixed = `{"roots":[{"uri":"file:///ok","name":"ok"},{"uri":"https://example.com/x"},{"uri":"file:///also"}]}`

// One non-file:// root among good ones: lenient keeps the good ones and
// logs the bad index; strict refuses the answer. Both paths: roots/list on
// a legacy session, inputResponses on 2026-07-28.
func TestHostileInvalidRoot(t *testing.T) {
	const meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`
	for _, strict := range []bool{false, true} {
		for _, stateless := range []bool{false, true} {
			t.Run(fmt.Sprintf("strict=%t,2026=%t", strict, stateless), func(t *testing.T) {
				s := start(t, options{Timeout: peertest.Wait, Strict: strict})
				c := newFakeClient(t, s)
				if stateless {
					state := c.askState(meta)
					c.callTool(meta + `,"inputResponses":{"roots":` + mixed + `},"requestState":` + strconv.Quote(state))
				} else {
					c.initialize(legacy, `{"roots":{}}`)
					c.callTool("")
					c.answer(c.Expect("roots/list"), mixed)
				}
				roots, toolErr := c.toolResult()
				s.stop(t)
				if strict {
					if roots != nil || !strings.Contains(toolErr, "roots[1].uri") {
						t.Errorf("strict: roots %v, error %q; want no roots and an error naming roots[1].uri", roots, toolErr)
					}
					return
				}
				if want := []root{{URI: "file:///ok", Name: "ok"}, {URI: "file:///also"}}; !slices.Equal(roots, want) || toolErr != "" {
					t.Errorf("lenient: roots %v, error %q; want %v", roots, toolErr, want)
				}
				if log := s.log.String(); !strings.Contains(log, "roots[1]") || strings.Contains(log, "roots[0]") || strings.Contains(log, "roots[2]") {
					t.Errorf("log %q, want a report of roots[1] only", log)
				}
			})
		}
	}
}

// 100,000 roots in one answer work, and cost memory in proportion.
func TestHostileManyRoots(t *testing.T) {
	const n = 100_000
	var answer strings.Builder
	answer.WriteString(`{"roots":[`)
	for i := range n {
		if i > 0 {
			answer.WriteByte(',')
		}
		fmt.Fprintf(&answer, `{"uri":"file:///data/%06d","name":"r%d"}`, i, i)
	}
	answer.WriteString(`]}`)

	s := start(t, options{Timeout: time.Minute, Transcript: io.Discard})
	c := newFakeClient(t, s)
	c.Wait = time.Minute // the race detector makes this slow
	c.initialize(legacy, `{"roots":{}}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c.callTool("")
	c.answer(c.Expect("roots/list"), answer.String())
	roots, toolErr := c.toolResult()
	runtime.ReadMemStats(&after)
	s.stop(t)
	if len(roots) != n || toolErr != "" || roots[n-1] != (root{URI: fmt.Sprintf("file:///data/%06d", n-1), Name: fmt.Sprintf("r%d", n-1)}) {
		t.Fatalf("got %d roots (error %q), want %d", len(roots), toolErr, n)
	}
	// Everything allocated on both sides of the wire, the test's decoding
	// included, stays within a fixed multiple of the answer's size.
	alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(64*answer.Len())
	if alloc > limit && !raceEnabled {
		t.Errorf("allocated %d bytes for a %d-byte answer, more than %d", alloc, answer.Len(), limit)
	}
	t.Logf("%d roots: %d-byte answer, %d bytes allocated (%.1fx)", n, answer.Len(), alloc, float64(alloc)/float64(answer.Len()))
}

// A line longer than the limit ends the connection instead of being buffered.
func TestHostileLongLine(t *testing.T) {
	s := start(t, options{Timeout: peertest.Wait, MaxLine: 1 << 20})
	// The server stops reading partway, so this write fails; that is the point.
	go io.WriteString(s.peer.W, `{"jsonrpc":"2.0","method":"x","params":"`+strings.Repeat("a", 2<<20)+`"}`+"\n")
	select {
	case err := <-s.done:
		if err == nil || !strings.Contains(err.Error(), "too long") {
			t.Errorf("serve returned %v, want a line-too-long error", err)
		}
	case <-time.After(peertest.Wait):
		t.Fatal("serve still reads a line over the limit")
	}
	s.peer.Close()
}

// A client that never answers roots/list: the timeout fires, the tool
// reports it, and nothing is left running. synctest runs the 100ms on a
// fake clock and fails the test if any goroutine of the bubble is still
// blocked at its end.
func TestHostileNoAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, options{Timeout: 100 * time.Millisecond})
		c := newFakeClient(t, s)
		c.initialize(legacy, `{"roots":{"listChanged":true}}`)
		began := time.Now()
		c.callTool("")
		req := c.Expect("roots/list")
		_, toolErr := c.toolResult()
		if !strings.Contains(toolErr, "no answer from the client within 100ms") {
			t.Errorf("tool error %q, want the timeout", toolErr)
		}
		if waited := time.Since(began); waited != 100*time.Millisecond {
			t.Errorf("waited %v on the bubble's clock, want 100ms", waited)
		}
		// A late answer is dropped, and the next call asks again.
		c.answer(req, `{"roots":[{"uri":"file:///late"}]}`)
		c.callTool("")
		c.answer(c.Expect("roots/list"), `{"roots":[{"uri":"file:///now"}]}`)
		if roots, _ := c.toolResult(); !slices.Equal(roots, []root{{URI: "file:///now"}}) {
			t.Errorf("roots %v after the late answer", roots)
		}
		s.stop(t)
		c.Closed()
	})
}

// -max-age: a client that declared roots without listChanged is asked on
// every call, unless the server may reuse an answer for a while.
func TestHostileMaxAge(t *testing.T) {
	for _, c := range []struct {
		maxAge time.Duration
		asks   int
	}{{0, 2}, {time.Hour, 1}} {
		s := start(t, options{Timeout: peertest.Wait, MaxAge: c.maxAge})
		fc := newFakeClient(t, s)
		fc.initialize(legacy, `{"roots":{}}`)
		for i := range 2 {
			fc.callTool("")
			if i == 0 || c.maxAge == 0 {
				fc.answer(fc.Expect("roots/list"), `{"roots":[{"uri":"file:///a"}]}`)
			}
			if roots, toolErr := fc.toolResult(); toolErr != "" || !slices.Equal(roots, []root{{URI: "file:///a"}}) {
				t.Errorf("call %d: %v, %q", i, roots, toolErr)
			}
		}
		s.stop(t)
		if got := strings.Count(s.transcript.String(), `"method":"roots/list"`); got != c.asks {
			t.Errorf("-max-age %v: %d roots/list requests, want %d", c.maxAge, got, c.asks)
		}
	}
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// sealElsewhere returns the requestState that another service, sealing
// with key for its own audience, puts in its input_required result for a
// list_roots call with extra params members.
func sealElsewhere(t *testing.T, key []byte, now func() time.Time, extra string) string {
	t.Helper()
	sealer, err := rootsgate.NewStateSealer(rootsgate.StateSealerConfig{Current: rootsgate.StateKey{ID: "k1", Secret: key}, Audience: "another-server", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	other := rootsgate.Session{Sealer: sealer}
	ctx := rootsgate.WithStateBinding(context.Background(), rootsgate.StateBinding{Principal: "anyone", Method: "tools/call"})
	_, err = other.Roots(ctx, json.RawMessage(`{"name":"list_roots"`+extra+`}`))
	var ask *rootsgate.InputRequiredError
	var res struct {
		RequestState string `json:"requestState"`
	}
	if !errors.As(err, &ask) || json.Unmarshal(ask.Result, &res) != nil || res.RequestState == "" {
		t.Fatalf("the other service's first attempt: %v", err)
	}
	return res.RequestState
}

// On 2026-07-28 the requestState of the input_required result is sealed:
// the retry brings it back unchanged and gets the roots; a retry with no
// requestState, an altered one, one from another call, another
// connection, another key or another service with the same key, or one
// past its two minutes, is refused with -32602 and a message naming the
// check that failed.
func TestHostileRequestState(t *testing.T) {
	const meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`
	const answer = `,"inputResponses":{"roots":{"roots":[{"uri":"file:///ok"}]}}`
	key := []byte("0123456789abcdef0123456789abcdef")
	clock := &fakeClock{now: time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)}
	s := start(t, options{Timeout: peertest.Wait, StateKey: key, StateNow: clock.Now})
	c := newFakeClient(t, s)

	retry := func(extra, state string) {
		t.Helper()
		c.callTool(meta + extra + answer + `,"requestState":` + strconv.Quote(state))
	}
	state := c.askState(meta)
	retry("", state)
	if roots, toolErr := c.toolResult(); !slices.Equal(roots, []root{{URI: "file:///ok"}}) || toolErr != "" {
		t.Fatalf("retry with the sealed state: roots %v, error %q", roots, toolErr)
	}
	// A retry looks like a replay: within the expiry, it works again.
	retry("", state)
	if roots, _ := c.toolResult(); len(roots) != 1 {
		t.Errorf("second retry with the same state: roots %v", roots)
	}

	refused := func(what, want string) {
		t.Helper()
		if e := c.rpcError(); e.Code != -32602 || !strings.Contains(e.Message, want) {
			t.Errorf("%s: error %d %q, want -32602 with %q", what, e.Code, e.Message, want)
		}
	}
	c.callTool(meta + answer)
	refused("no requestState", "requestState: missing")
	altered := []byte(state)
	altered[len(altered)/2] ^= 1
	retry("", string(altered))
	refused("altered", "requestState: failed verification")
	retry("", "call/1")
	refused("forged", "requestState: failed verification")
	retry(`,"arguments":{"path":"/etc/passwd"}`, state)
	refused("other arguments", "requestState: sealed for another request")
	c.id++ // the state of list_roots, moved to read_file
	c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/ok/x"}%s%s,"requestState":%q}}`, c.id, meta, answer, state))
	refused("another tool", "requestState: sealed for another request")

	// The same key on another connection: another principal.
	other := start(t, options{Timeout: peertest.Wait, StateKey: key, StateNow: clock.Now})
	oc := newFakeClient(t, other)
	oc.callTool(meta + answer + `,"requestState":` + strconv.Quote(state))
	if e := oc.rpcError(); e.Code != -32602 || !strings.Contains(e.Message, "sealed for another principal") {
		t.Errorf("another connection: error %d %q", e.Code, e.Message)
	}
	other.stop(t)
	// Another key, of the same id: not this server's state.
	foreign := start(t, options{Timeout: peertest.Wait, StateNow: clock.Now})
	fc := newFakeClient(t, foreign)
	fc.callTool(meta + answer + `,"requestState":` + strconv.Quote(state))
	if e := fc.rpcError(); e.Code != -32602 || !strings.Contains(e.Message, "failed verification") {
		t.Errorf("another key: error %d %q", e.Code, e.Message)
	}
	foreign.stop(t)
	// The same key in another service: a state it sealed, for any
	// principal, is for another audience.
	retry("", sealElsewhere(t, key, clock.Now, meta))
	refused("another service", "requestState: sealed for another audience")

	clock.advance(stateTTL - time.Millisecond)
	retry("", state)
	if roots, _ := c.toolResult(); len(roots) != 1 {
		t.Errorf("just before the expiry: roots %v", roots)
	}
	clock.advance(time.Millisecond)
	retry("", state)
	refused("expired", "requestState: expired")
	s.stop(t)
}
