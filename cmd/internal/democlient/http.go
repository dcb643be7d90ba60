package democlient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/mcphttp"
	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
)

// httpConn is the client side of MCP's Streamable HTTP transport, written
// with net/http alone: every message the client sends is one POST to the
// server's endpoint, answered with one JSON body or a Server-Sent Events
// stream that may carry the server's own requests before the answer.
//
// Stateless (2026-07-28) conns add the protocol version, Mcp-Method and
// Mcp-Name headers to every POST and keep nothing between them. Legacy
// conns keep the session id the server gave at initialize, send the
// negotiated version from then on, listen on the GET stream for requests
// the server sends outside any call, and end the session with DELETE.
// The client sets the era with setEra before it sends anything, and again
// if the server turns out to speak another one.
type httpConn struct {
	url        string
	client     *http.Client
	transport  *http.Transport
	handle     func(ctx context.Context, method string, params json.RawMessage) (any, error)
	transcript io.Writer
	// maxMessage bounds one incoming message: a JSON body, or the data of
	// one event; a longer one fails the call instead of being buffered.
	maxMessage int
	// retryDefault is the wait before reopening a GET stream the server
	// ended, when it named no retry interval.
	retryDefault time.Duration

	rec ndjson.Recorder // serializes transcript lines

	mu        sync.Mutex
	nextID    int64
	stateless bool   // 2026-07-28: no session, Mcp-Method and Mcp-Name headers
	version   string // the MCP-Protocol-Version header, "" before initialize
	session   string // Mcp-Session-Id, legacy sessions only

	streams sync.WaitGroup // the GET stream's reader
	stop    context.CancelFunc
	bg      context.Context // ends the GET stream
}

// firstVersionHeader is the first revision whose clients send
// MCP-Protocol-Version after initialize (2025-03-26 has no such header).
const firstVersionHeader = "2025-06-18"

func newHTTPConn(url string, o options, handle func(context.Context, string, json.RawMessage) (any, error)) *httpConn {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	bg, stop := context.WithCancel(context.Background())
	return &httpConn{
		url: url, client: &http.Client{Transport: tr}, transport: tr, handle: handle,
		transcript: o.Transcript, maxMessage: ndjson.DefaultMaxLine,
		retryDefault: time.Second, bg: bg, stop: stop,
	}
}

// setEra says how the next requests go: stateless on version (2026-07-28
// and later), or, with stateless false, a legacy session that has yet to
// begin with initialize (no version header until negotiated).
func (c *httpConn) setEra(stateless bool, version string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stateless = stateless
	c.version = ""
	if stateless {
		c.version = version
	}
}

func (c *httpConn) isStateless() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stateless
}

// Call sends a request and returns its result, or the *ndjson.Error the
// server answered with (also when it came with an HTTP error status, as
// -32021 and -32022 do on 2026-07-28).
//
// A call whose event stream ends before its answer is resumed on a legacy
// session (see resume); on 2026-07-28, which dropped resumption, it is
// sent once more with a new id.
func (c *httpConn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, err := ndjson.Marshal(params)
	if err != nil {
		return nil, err
	}
	streamRetried := false
	for {
		m, err := c.post(ctx, &ndjson.Message{JSONRPC: "2.0", ID: c.newID(), Method: method, Params: raw})
		if errors.Is(err, errNoAnswer) && c.isStateless() && !streamRetried {
			// 2026-07-28 has no resumption: a request whose stream
			// broke is sent again, as a new request.
			streamRetried = true
			continue
		}
		if err != nil {
			return nil, err
		}
		if m.Error != nil {
			return nil, m.Error
		}
		if m.Result == nil {
			return nil, fmt.Errorf("%s: the answer has neither result nor error", method)
		}
		return m.Result, nil
	}
}

// Notify POSTs a notification; the server accepts it with 202.
func (c *httpConn) Notify(ctx context.Context, method string, params any) error {
	raw, err := ndjson.Marshal(params)
	if err != nil {
		return err
	}
	_, err = c.post(ctx, &ndjson.Message{JSONRPC: "2.0", Method: method, Params: raw})
	return err
}

func (c *httpConn) newID() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return strconv.AppendInt(nil, c.nextID, 10)
}

// negotiated is told the revision initialize agreed on: later requests
// carry it, and the GET stream opens. It returns once the server has
// accepted the stream (or has not), so that a request the server sends
// outside any call from then on reaches the client. Only a failure to
// reach the server is an error.
func (c *httpConn) negotiated(ctx context.Context, version string) error {
	c.mu.Lock()
	if version >= firstVersionHeader {
		c.version = version
	}
	c.mu.Unlock()
	req, err := c.newRequest(ctx, http.MethodGet, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", mcphttp.EventStream)
	// A server that holds the GET without answering it has no stream to
	// give either; the handshake goes on without one after streamWait.
	getCtx, cancelGet := context.WithCancel(c.bg)
	timer := time.AfterFunc(streamWait, cancelGet)
	resp, err := c.client.Do(req.WithContext(getCtx))
	if !timer.Stop() {
		if err == nil {
			resp.Body.Close()
		}
		cancelGet()
		return nil
	}
	if err != nil {
		cancelGet()
		return fmt.Errorf("opening the GET stream: %w", err)
	}
	// The stream is optional: a server without one should answer 405,
	// and one that answers anything else but a stream has none either.
	// Its requests can still come on the streams of the client's calls.
	if c.checkStream(resp) != nil {
		cancelGet()
		return nil
	}
	c.streams.Add(1)
	go func() {
		defer c.streams.Done()
		defer cancelGet()
		c.listen(resp)
	}()
	return nil
}

// streamWait bounds the wait for the answer to the GET that opens the
// stream.
var streamWait = 10 * time.Second

// listen reads the GET stream, answering the server's requests, and opens
// it again when the server ends it (as servers that poll do), until Close
// or until the server refuses it.
func (c *httpConn) listen(resp *http.Response) {
	for {
		s := c.readStream(c.bg, resp.Body, nil)
		resp.Body.Close()
		var err error
		if resp, err = c.reopen(c.bg, s); err != nil {
			return
		}
	}
}

// reopen waits the retry interval s names (else retryDefault), then GETs
// the event stream again, asking with Last-Event-ID for what followed
// s.lastID if it is set. It returns the new stream, or why there is none.
func (c *httpConn) reopen(ctx context.Context, s stream) (*http.Response, error) {
	wait := c.retryDefault
	if s.retry > 0 {
		wait = s.retry
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(wait):
	}
	req, err := c.newRequest(ctx, http.MethodGet, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", mcphttp.EventStream)
	if s.lastID != "" {
		req.Header.Set("Last-Event-ID", s.lastID)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	if err := c.checkStream(resp); err != nil {
		return nil, err
	}
	return resp, nil
}

// checkStream accepts a 200 text/event-stream response; anything else is
// closed and described.
func (c *httpConn) checkStream(resp *http.Response) error {
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); resp.StatusCode == http.StatusOK && mt == mcphttp.EventStream {
		return nil
	}
	defer resp.Body.Close()
	return statusError(resp)
}

// Close ends the GET stream and, on a legacy session, asks the server to
// end the session with DELETE (405 means it does not let clients do so).
func (c *httpConn) Close() error {
	c.stop()
	c.streams.Wait()
	defer c.transport.CloseIdleConnections()
	c.mu.Lock()
	session := c.session
	c.mu.Unlock()
	if session == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), stopGrace)
	defer cancel()
	req, err := c.newRequest(ctx, http.MethodDelete, nil)
	if err != nil {
		return err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return fmt.Errorf("ending the session: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound {
		return fmt.Errorf("ending the session: %w", statusError(resp))
	}
	return nil
}

// newRequest builds a request to the endpoint with the session's headers.
func (c *httpConn) newRequest(ctx context.Context, method string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != "" {
		req.Header.Set(mcphttp.HeaderVersion, c.version)
	}
	if c.session != "" {
		req.Header.Set(mcphttp.HeaderSession, c.session)
	}
	return req, nil
}

// post sends one message. For a request it returns the answer, read from
// a JSON body or from the event stream, answering on the way the requests
// the server sends on that stream; for anything else it returns nil once
// the server has accepted the message.
func (c *httpConn) post(ctx context.Context, m *ndjson.Message) (*ndjson.Message, error) {
	body, err := ndjson.Marshal(m)
	if err != nil {
		return nil, err
	}
	req, err := c.newRequest(ctx, http.MethodPost, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", mcphttp.JSON)
	req.Header.Set("Accept", mcphttp.JSON+", "+mcphttp.EventStream)
	stateless := c.isStateless()
	if stateless && m.Method != "" {
		req.Header.Set(mcphttp.HeaderMethod, m.Method)
		if name := targetName(m.Method, m.Params); name != "" {
			req.Header.Set(mcphttp.HeaderName, name)
		}
	}
	c.record("-> ", body)
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if m.Method == "initialize" {
		if id := resp.Header.Get(mcphttp.HeaderSession); id != "" {
			c.mu.Lock()
			c.session = id
			c.mu.Unlock()
		}
	}
	isCall := m.Method != "" && m.ID != nil
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case !isCall && resp.StatusCode/100 == 2:
		return nil, nil
	case isCall && mt == mcphttp.EventStream && resp.StatusCode == http.StatusOK:
		s := c.readStream(ctx, resp.Body, m.ID)
		if s.answer == nil && s.err == nil && !stateless && s.lastID != "" {
			resp.Body.Close()
			s = c.resume(ctx, m.ID, s)
		}
		if s.answer != nil {
			return s.answer, nil
		}
		if s.err == nil {
			s.err = errNoAnswer
		}
		return nil, fmt.Errorf("%s: %w", m.Method, s.err)
	case isCall && mt == mcphttp.JSON:
		// An error status may come with a JSON-RPC error, which says more
		// than the status: -32021 and -32022 come as 400 on 2026-07-28.
		answer, err := c.readJSON(resp.Body)
		if err == nil && string(answer.ID) == string(m.ID) && (resp.StatusCode/100 == 2 || answer.Error != nil) {
			return answer, nil
		}
		if resp.StatusCode/100 == 2 {
			if err == nil {
				err = fmt.Errorf("the answer has id %s, want %s", answer.ID, m.ID)
			}
			return nil, fmt.Errorf("%s: %w", m.Method, err)
		}
	}
	return nil, fmt.Errorf("%s: %w", methodOrResponse(m), statusError(resp))
}

// errNoAnswer: an event stream ended before the answer it was to carry.
var errNoAnswer = errors.New("the server ended the event stream without an answer")

// maxResumes bounds the GETs that resume one call's stream.
const maxResumes = 5

// resume waits for the answer to id, which the server closed the call's
// event stream before sending, the way 2025-era sessions allow: after the
// server's retry interval, a GET with Last-Event-ID set to the last event
// seen, on which the server replays what followed, and again if that
// stream ends too.
func (c *httpConn) resume(ctx context.Context, id json.RawMessage, s stream) stream {
	for range maxResumes {
		resp, err := c.reopen(ctx, s)
		if err != nil {
			if err != ctx.Err() { // else ctx ended the wait: its error as it is
				err = fmt.Errorf("resuming the event stream: %w", err)
			}
			s.err = err
			return s
		}
		next := c.readStream(ctx, resp.Body, id)
		resp.Body.Close()
		if next.answer != nil || next.err != nil {
			return next
		}
		if next.lastID != "" {
			s.lastID = next.lastID
		}
		if next.retry > 0 {
			s.retry = next.retry
		}
	}
	s.err = fmt.Errorf("%w, and %d resumptions brought none", errNoAnswer, maxResumes)
	return s
}

func methodOrResponse(m *ndjson.Message) string {
	if m.Method == "" {
		return "answer to request " + string(m.ID)
	}
	return m.Method
}

// targetName is the Mcp-Name header of a request: the tool, prompt or
// resource it names.
func targetName(method string, params json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	switch method {
	case "tools/call", "prompts/get":
		_ = json.Unmarshal(params, &p)
		return p.Name
	case "resources/read":
		_ = json.Unmarshal(params, &p)
		return p.URI
	}
	return ""
}

// statusError describes an HTTP answer that is not the one expected, with
// the start of its body.
func statusError(resp *http.Response) error {
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	msg := fmt.Sprintf("HTTP %s", resp.Status)
	if s := strings.TrimSpace(string(snippet)); s != "" {
		msg += ": " + s
	}
	if resp.StatusCode == http.StatusNotFound && resp.Request != nil && resp.Request.Header.Get(mcphttp.HeaderSession) != "" {
		msg += " (the server no longer knows this session)"
	}
	return &httpStatusError{status: resp.StatusCode, msg: msg}
}

// httpStatusError is an HTTP answer that carried no JSON-RPC answer: what
// a 2025-era server sends for a 2026-07-28 request it cannot place.
type httpStatusError struct {
	status int
	msg    string
}

func (e *httpStatusError) Error() string { return e.msg }

// readJSON reads one JSON-RPC message from a body of at most maxMessage
// bytes.
func (c *httpConn) readJSON(r io.Reader) (*ndjson.Message, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(c.maxMessage)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > c.maxMessage {
		return nil, fmt.Errorf("the answer is longer than %d bytes", c.maxMessage)
	}
	c.record("<- ", bytes.TrimSpace(data))
	var m ndjson.Message
	if err := json.Unmarshal(data, &m); err != nil || m.JSONRPC != "2.0" {
		return nil, fmt.Errorf("the answer is not a JSON-RPC message: %.200q", data)
	}
	return &m, nil
}

// stream is what reading an event stream found.
type stream struct {
	answer *ndjson.Message // the answer to the request that opened it
	lastID string          // the last event id
	retry  time.Duration   // the last retry interval the server named
	err    error           // why it ended, nil at its end
}

// errAnswered stops reading a stream once the answer has come.
var errAnswered = errors.New("answered")

// readStream reads Server-Sent Events until the answer to id (nil: none is
// expected), the stream's end, an error or ctx's end. Each event's data is
// one JSON-RPC message: requests are answered with a POST, notifications
// and other answers are only recorded.
func (c *httpConn) readStream(ctx context.Context, r io.Reader, id json.RawMessage) stream {
	var s stream
	var st mcphttp.Stream
	err := mcphttp.ReadStream(r, c.maxMessage, &st, func(data []byte) error {
		if len(bytes.TrimSpace(data)) == 0 {
			return nil
		}
		if s.answer = c.message(ctx, data, id); s.answer != nil {
			return errAnswered
		}
		return nil
	})
	switch {
	case err == nil, errors.Is(err, errAnswered):
	case errors.Is(err, mcphttp.ErrEventTooLong):
		s.err = fmt.Errorf("an event is longer than %d bytes", c.maxMessage)
	default:
		s.err = err
	}
	s.lastID, s.retry = st.LastID, st.Retry
	return s
}

// message handles one message read from a stream and returns it if it is
// the answer to id.
func (c *httpConn) message(ctx context.Context, data []byte, id json.RawMessage) *ndjson.Message {
	c.record("<- ", data)
	var m ndjson.Message
	if err := json.Unmarshal(data, &m); err != nil || m.JSONRPC != "2.0" {
		return nil // not a message; the call goes on waiting
	}
	switch {
	case m.Method != "" && m.ID != nil:
		c.answer(ctx, &m)
	case m.Method == "" && id != nil && string(m.ID) == string(id):
		return &m
	}
	return nil
}

// answer runs the handler on a request of the server and POSTs the answer.
func (c *httpConn) answer(ctx context.Context, m *ndjson.Message) {
	out := &ndjson.Message{JSONRPC: "2.0", ID: m.ID}
	result, err := c.handle(ctx, m.Method, m.Params)
	var rpcErr *ndjson.Error
	switch {
	case errors.As(err, &rpcErr):
		out.Error = rpcErr
	case err != nil:
		out.Error = &ndjson.Error{Code: -32603, Message: "Internal error"}
	default:
		if out.Result, err = ndjson.Marshal(result); err != nil {
			out.Result, out.Error = nil, &ndjson.Error{Code: -32603, Message: "Internal error"}
		}
	}
	// A failed POST of an answer leaves the server's request unanswered,
	// which its own timeout covers; the call that is waiting fails or
	// goes on by itself.
	_, _ = c.post(ctx, out)
}

func (c *httpConn) record(dir string, frame []byte) { c.rec.Record(c.transcript, dir, frame) }
