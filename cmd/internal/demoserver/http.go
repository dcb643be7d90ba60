package demoserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/mcphttp"
	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// The bounds of the HTTP transport when options leave them zero.
const (
	DefaultMaxBody     = 4 << 20
	DefaultMaxSessions = 100
	DefaultSessionIdle = 10 * time.Minute
	DefaultMaxConns    = 256
)

// Path is where the HTTP transport serves MCP.
const Path = "/mcp"

// defaultBodyTimeout bounds the reading of a request body, and
// writeTimeout each write to a client, so that a client that stops
// sending or reading cannot hold a handler or its connection.
const (
	defaultBodyTimeout = 30 * time.Second
	writeTimeout       = 30 * time.Second
)

// within runs write with a write deadline of writeTimeout on w's
// connection, lifted afterwards for the connection's next response.
func within(w http.ResponseWriter, write func() error) error {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	err := write()
	_ = rc.SetWriteDeadline(time.Time{})
	return err
}

// listenAndServe serves the HTTP transport on addr until the listener
// fails.
func listenAndServe(addr string, o options) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return serveHTTP(ln, o)
}

// serveHTTP serves the HTTP transport on ln until it fails or is closed,
// with at most o.MaxConns connections open. A server on a loopback
// address refuses other Host names, against DNS rebinding.
func serveHTTP(ln net.Listener, o options) error {
	if o.Log == nil {
		o.Log = log.New(io.Discard, "", 0)
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	o.LoopbackOnly = isLoopback(ln.Addr().String())
	h, err := newHTTPHandler(o)
	if err != nil {
		return err
	}
	defer h.Close()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	o.Log.Printf("serving MCP at http://%s%s", ln.Addr(), Path)
	return srv.Serve(limitConns(ln, o.MaxConns, o.Log))
}

// httpHandler serves MCP's Streamable HTTP transport at Path: each
// 2026-07-28 request stands alone (its _meta names the version), and a
// 2025-era client opens a session with initialize and names it in the
// Mcp-Session-Id header of every later request.
type httpHandler struct {
	o         options
	stateless *server // every 2026-07-28 request

	tmu sync.Mutex // serializes transcript lines

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool
}

func newHTTPHandler(o options) (*httpHandler, error) {
	o.conformanceTools = true
	if o.Log == nil {
		o.Log = log.New(io.Discard, "", 0)
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	if o.bodyTimeout <= 0 {
		o.bodyTimeout = defaultBodyTimeout
	}
	o = withBounds(o)
	h := &httpHandler{o: o, sessions: map[string]*session{}}
	// Over HTTP without authentication, the principal a 2026-07-28
	// requestState is sealed for can only be "anyone": the state is
	// still bound to the tool call and expires.
	noCall := func(context.Context, string, any) (json.RawMessage, error) {
		return nil, errors.New("2026-07-28 has no server-to-client requests")
	}
	var err error
	if h.stateless, err = newServer(o, "http", noCall); err != nil {
		return nil, err
	}
	return h, nil
}

// Close ends every session; requests in flight on them fail.
func (h *httpHandler) Close() {
	h.mu.Lock()
	h.closed = true
	sessions := h.sessions
	h.sessions = map[string]*session{}
	h.mu.Unlock()
	for _, s := range sessions {
		s.close()
	}
	h.stateless.close()
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A body must arrive within bodyTimeout. The connection reads under
	// that deadline until post has read the body to its end and lifts it;
	// a body left unread keeps it, so that what net/http reads of it
	// after the handler, to reuse the connection, is bounded too.
	body := r.Body != nil && r.Body != http.NoBody
	if body {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(h.o.bodyTimeout))
	}
	if r.URL.Path != Path {
		http.NotFound(w, r)
		return
	}
	if msg := h.refuseOrigin(r); msg != "" {
		http.Error(w, msg, http.StatusForbidden)
		return
	}
	if body && (r.Method == http.MethodGet || r.Method == http.MethodDelete) {
		// Refused, not left unread: net/http would read such a body when
		// a GET stream starts, and the deadline left in force would then
		// end the stream.
		cutBody(w, http.StatusBadRequest, r.Method+" takes no request body")
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// refuseOrigin says why a request that may come from a web page another
// site serves is refused: its Origin is not this server's, or, with
// LoopbackOnly, its Host does not name the loopback interface (DNS
// rebinding). It returns "" to accept it.
func (h *httpHandler) refuseOrigin(r *http.Request) string {
	if h.o.LoopbackOnly && !isLoopback(r.Host) {
		return "Host " + strconv.Quote(r.Host) + " is not a loopback name"
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || (u.Host != r.Host && !isLoopback(u.Host)) {
			return "Origin " + strconv.Quote(origin) + " is not allowed"
		}
	}
	return ""
}

// isLoopback reports whether host (with or without a port) is localhost
// or a loopback address.
func isLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// post reads one JSON-RPC message and routes it: to its session, to a new
// session for initialize, or to the stateless server.
func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) {
	if !mcphttp.IsJSON(r.Header.Get("Content-Type")) {
		http.Error(w, "Content-Type must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	if !accepts(w, r, mcphttp.JSON) {
		return
	}
	// ServeHTTP set the body's deadline. Once the body has been read to
	// its end, the deadline is lifted, as it would otherwise also end a
	// long answer's stream; a body cut short closes the connection.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.o.MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &mbe):
			cutBody(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit))
		case errors.As(err, &ne) && ne.Timeout():
			cutBody(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %v", h.o.bodyTimeout))
		default:
			cutBody(w, http.StatusBadRequest, "reading the request body: "+err.Error())
		}
		return
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	var compact bytes.Buffer
	if err := json.Compact(&compact, body); err != nil {
		writeError(w, http.StatusBadRequest, nil, &ndjson.Error{Code: -32700, Message: "Parse error"})
		return
	}
	h.record("<- ", compact.Bytes())
	if compact.Len() > 0 && compact.Bytes()[0] == '[' {
		writeError(w, http.StatusBadRequest, nil, &ndjson.Error{Code: -32600, Message: "Invalid Request: JSON-RPC batches are not supported"})
		return
	}
	var m ndjson.Message
	if err := json.Unmarshal(compact.Bytes(), &m); err != nil || m.JSONRPC != "2.0" {
		writeError(w, http.StatusBadRequest, nil, &ndjson.Error{Code: -32600, Message: "Invalid Request"})
		return
	}
	var p requestMeta
	if m.Method != "" && m.ID != nil && len(m.Params) > 0 && json.Unmarshal(m.Params, &p) != nil {
		h.answer(w, m.ID, nil, &ndjson.Error{Code: -32602, Message: "Invalid params"})
		return
	}
	// A request is 2026-07-28 when its _meta or its header says so; only
	// a 2025-era initialize opens a session.
	switch sid := r.Header.Get(mcphttp.HeaderSession); {
	case sid != "":
		h.sessionPost(w, r, sid, &m)
	case m.Method == "initialize" && m.ID != nil && p.Meta.Version == nil && r.Header.Get(mcphttp.HeaderVersion) < modern[0]:
		h.initialize(w, r, &m)
	default:
		h.statelessPost(w, r, &m, &p)
	}
}

// cutBody answers a request whose body is not read to its end, and
// closes the connection after the answer: nothing more is read from it,
// neither the rest of the body nor another request.
func cutBody(w http.ResponseWriter, status int, msg string) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// requestMeta is what the HTTP layer reads of a 2026-07-28 request's params.
type requestMeta struct {
	Name string `json:"name"`
	Meta struct {
		Version      *string         `json:"io.modelcontextprotocol/protocolVersion"`
		Capabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	} `json:"_meta"`
}

// modern are the revisions whose requests stand alone.
var modern = func() []string {
	var v []string
	for _, r := range rootsgate.Revisions() {
		if r.InputRequests {
			v = append(v, r.Version)
		}
	}
	return v
}()

// statelessPost serves a message that belongs to no session: a 2026-07-28
// request, checked against its headers first.
func (h *httpHandler) statelessPost(w http.ResponseWriter, r *http.Request, m *ndjson.Message, p *requestMeta) {
	header := r.Header.Get(mcphttp.HeaderVersion)
	if m.ID == nil {
		if m.Method == "" {
			http.Error(w, "a response outside a session answers nothing", http.StatusBadRequest)
			return
		}
		// Such as the list_changed go-sdk v1.8.0 sends on 2026-07-28,
		// where the notification does not exist.
		h.o.Log.Printf("%s outside a session: ignored", m.Method)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if p.Meta.Version == nil {
		if header >= modern[0] {
			h.answer(w, m.ID, nil, &ndjson.Error{Code: -32602, Message: "Invalid params: _meta lacks io.modelcontextprotocol/protocolVersion"})
			return
		}
		// A 2025-era client that lost its session, or never initialized.
		http.Error(w, "Bad Request: no Mcp-Session-Id; start a session with initialize, or send a 2026-07-28 request", http.StatusBadRequest)
		return
	}
	version := *p.Meta.Version
	switch {
	case header == "":
		h.answer(w, m.ID, nil, &ndjson.Error{Code: -32020, Message: "Header mismatch: the Mcp-Protocol-Version header is missing"})
		return
	case header != version:
		h.answer(w, m.ID, nil, &ndjson.Error{Code: -32020, Message: fmt.Sprintf("Header mismatch: Mcp-Protocol-Version %q, _meta says %q", header, version)})
		return
	}
	if rev, err := rootsgate.Lookup(version); err != nil || !rev.InputRequests {
		data, _ := json.Marshal(map[string]any{"supported": modern, "requested": version})
		h.answer(w, m.ID, nil, &ndjson.Error{Code: -32022, Message: "Unsupported protocol version", Data: data})
		return
	}
	// Capabilities are required of every request, and are an object: null
	// or any other value is malformed too, as the gate has it for tools/call.
	if caps := bytes.TrimSpace(p.Meta.Capabilities); len(caps) == 0 || caps[0] != '{' {
		msg := "Invalid params: _meta lacks io.modelcontextprotocol/clientCapabilities"
		if len(caps) > 0 {
			msg = "Invalid params: _meta's io.modelcontextprotocol/clientCapabilities is not an object"
		}
		h.answer(w, m.ID, nil, &ndjson.Error{Code: -32602, Message: msg})
		return
	}
	if got := r.Header.Get(mcphttp.HeaderMethod); got != m.Method {
		h.answer(w, m.ID, nil, &ndjson.Error{Code: -32020, Message: fmt.Sprintf("Header mismatch: Mcp-Method %q, the body's method is %q", got, m.Method)})
		return
	}
	if m.Method == "tools/call" {
		if got := r.Header.Get(mcphttp.HeaderName); got != p.Name {
			h.answer(w, m.ID, nil, &ndjson.Error{Code: -32020, Message: fmt.Sprintf("Header mismatch: Mcp-Name %q, the tool is %q", got, p.Name)})
			return
		}
	}
	result, err := h.stateless.handleStateless(r.Context(), m.Method, m.Params)
	h.answer(w, m.ID, result, err)
}

// answer writes the response to request id as application/json, with
// the HTTP status 2026-07-28 gives its error, if any.
func (h *httpHandler) answer(w http.ResponseWriter, id json.RawMessage, result any, err error) {
	out, status := response(id, result, err)
	raw, merr := json.Marshal(out)
	if merr != nil {
		out, status = response(id, nil, merr)
		raw, _ = json.Marshal(out)
	}
	h.record("-> ", raw)
	w.Header().Set("Content-Type", mcphttp.JSON)
	w.WriteHeader(status)
	_ = within(w, func() error { _, err := w.Write(raw); return err })
}

// response is the JSON-RPC response to request id, and its HTTP status on
// 2026-07-28: 404 for -32601, 400 for -32602 and the transport's errors,
// the status an error carries for itself, else 200.
func response(id json.RawMessage, result any, err error) (*ndjson.Message, int) {
	out := &ndjson.Message{JSONRPC: "2.0", ID: id}
	if err == nil {
		raw, merr := marshal(result)
		if merr == nil {
			out.Result = raw
			return out, http.StatusOK
		}
		err = merr
	}
	var rpc *ndjson.Error
	if !errors.As(err, &rpc) {
		rpc = &ndjson.Error{Code: -32603, Message: "Internal error"}
	}
	out.Error = rpc
	if se := (*statusError)(nil); errors.As(err, &se) {
		return out, se.status
	}
	switch rpc.Code {
	case -32601:
		return out, http.StatusNotFound
	case -32600, -32602, -32020, -32021, -32022:
		return out, http.StatusBadRequest
	}
	return out, http.StatusOK
}

// marshal is a result as JSON, {} for none.
func marshal(v any) (json.RawMessage, error) {
	raw, err := ndjson.Marshal(v)
	if raw == nil && err == nil {
		raw = json.RawMessage("{}")
	}
	return raw, err
}

// writeError writes an error response that is not the answer of a served
// request (a body that does not parse).
func writeError(w http.ResponseWriter, status int, id json.RawMessage, e *ndjson.Error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	raw, _ := json.Marshal(&ndjson.Message{JSONRPC: "2.0", ID: id, Error: e})
	w.Header().Set("Content-Type", mcphttp.JSON)
	w.WriteHeader(status)
	_, _ = w.Write(raw)
}

func (h *httpHandler) record(dir string, frame []byte) {
	if h.o.Transcript == nil {
		return
	}
	h.tmu.Lock()
	defer h.tmu.Unlock()
	_, _ = io.WriteString(h.o.Transcript, dir)
	_, _ = h.o.Transcript.Write(frame)
	_, _ = io.WriteString(h.o.Transcript, "\n")
}

// initialize opens a 2025-era session.
func (h *httpHandler) initialize(w http.ResponseWriter, r *http.Request, m *ndjson.Message) {
	s := &session{h: h, id: rand.Text(), done: make(chan struct{})}
	srv, err := newServer(h.o, "http-session-"+s.id, s.call)
	if err != nil {
		h.answer(w, m.ID, nil, err)
		return
	}
	s.srv = srv
	result, err := srv.initialize(m.Params)
	if err != nil {
		h.answer(w, m.ID, nil, err)
		return
	}
	h.mu.Lock()
	switch {
	case h.closed:
		h.mu.Unlock()
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return
	case len(h.sessions) >= h.o.MaxSessions:
		h.mu.Unlock()
		h.o.Log.Printf("initialize refused: %d sessions are open", h.o.MaxSessions)
		http.Error(w, "too many open sessions; try again later", http.StatusServiceUnavailable)
		return
	}
	h.sessions[s.id] = s
	s.idle = time.AfterFunc(h.o.SessionIdle, s.expire)
	h.mu.Unlock()
	w.Header().Set(mcphttp.HeaderSession, s.id)
	h.answer(w, m.ID, result, nil)
}

// session looks up a session and marks it busy; release it when done.
// It returns nil for an unknown, expired or ended one.
func (h *httpHandler) session(id string) *session {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s == nil || !s.enter() {
		return nil
	}
	return s
}

func (h *httpHandler) sessionPost(w http.ResponseWriter, r *http.Request, sid string, m *ndjson.Message) {
	s := h.session(sid)
	if s == nil {
		http.Error(w, "Not Found: no such session (it ended, or expired); start a new one with initialize", http.StatusNotFound)
		return
	}
	defer s.release()
	if v := r.Header.Get(mcphttp.HeaderVersion); v != "" && v != s.srv.roots.Version() {
		http.Error(w, fmt.Sprintf("Bad Request: Mcp-Protocol-Version %q, the session negotiated %q", v, s.srv.roots.Version()), http.StatusBadRequest)
		return
	}
	switch {
	case m.Method != "" && m.ID != nil:
		var st *stream
		if mcphttp.Accepts(r.Header.Get("Accept"), mcphttp.EventStream) {
			st = &stream{h: h, w: w}
		}
		result, err := s.srv.handle(context.WithValue(r.Context(), streamKey{}, st), m.Method, m.Params)
		out, _ := response(m.ID, result, err)
		raw, merr := json.Marshal(out)
		if merr != nil {
			raw, _ = json.Marshal(&ndjson.Message{JSONRPC: "2.0", ID: m.ID, Error: &ndjson.Error{Code: -32603, Message: "Internal error"}})
		}
		if st != nil && st.end(raw) {
			return // sent as the last event of the stream
		}
		h.record("-> ", raw)
		w.Header().Set("Content-Type", mcphttp.JSON)
		_ = within(w, func() error { _, err := w.Write(raw); return err })
	case m.Method != "":
		s.srv.notified(r.Context(), m.Method, m.Params)
		w.WriteHeader(http.StatusAccepted)
	default:
		s.deliver(m)
		w.WriteHeader(http.StatusAccepted)
	}
}

// accepts reports whether r's Accept header allows media type mt, and
// answers 406 if not.
func accepts(w http.ResponseWriter, r *http.Request, mt string) bool {
	if mcphttp.Accepts(r.Header.Get("Accept"), mt) {
		return true
	}
	http.Error(w, "Accept must allow "+mt, http.StatusNotAcceptable)
	return false
}

// get opens a session's stream for requests from the server that no
// POST is waiting on.
func (h *httpHandler) get(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get(mcphttp.HeaderSession)
	if sid == "" {
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "GET needs an Mcp-Session-Id (2026-07-28 has no GET stream)", http.StatusMethodNotAllowed)
		return
	}
	if !accepts(w, r, mcphttp.EventStream) {
		return
	}
	s := h.session(sid)
	if s == nil {
		http.Error(w, "Not Found: no such session", http.StatusNotFound)
		return
	}
	defer s.release()
	st := &stream{h: h, w: w}
	s.mu.Lock()
	if s.standalone != nil {
		s.mu.Unlock()
		http.Error(w, "Conflict: the session's GET stream is already open", http.StatusConflict)
		return
	}
	s.standalone = st
	s.mu.Unlock()
	st.open()
	select {
	case <-r.Context().Done():
	case <-s.done:
	}
	s.mu.Lock()
	if s.standalone == st {
		s.standalone = nil
	}
	s.mu.Unlock()
	st.end(nil)
}

// delete ends a session.
func (h *httpHandler) delete(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get(mcphttp.HeaderSession)
	if sid == "" {
		http.Error(w, "DELETE needs an Mcp-Session-Id", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	s := h.sessions[sid]
	delete(h.sessions, sid)
	h.mu.Unlock()
	if s == nil {
		http.Error(w, "Not Found: no such session", http.StatusNotFound)
		return
	}
	s.close()
	w.WriteHeader(http.StatusNoContent)
}

// A session is one 2025-era client over HTTP.
type session struct {
	h   *httpHandler
	id  string
	srv *server

	pending ndjson.Pending // the server's requests awaiting the client's answer

	mu         sync.Mutex
	standalone *stream     // the GET stream, if open
	busy       int         // HTTP requests in flight
	idle       *time.Timer // ends the session after SessionIdle without a request
	done       chan struct{}
	ended      bool
}

// enter marks a request in flight; false if the session ended.
func (s *session) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return false
	}
	s.busy++
	s.idle.Stop()
	return true
}

// release ends what enter began; the idle clock starts when nothing is
// in flight.
func (s *session) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy--; s.busy == 0 && !s.ended {
		s.idle.Reset(s.h.o.SessionIdle)
	}
}

// expire ends the session if it is still idle.
func (s *session) expire() {
	if !s.end(true) {
		return
	}
	s.h.mu.Lock()
	if s.h.sessions[s.id] == s {
		delete(s.h.sessions, s.id)
	}
	s.h.mu.Unlock()
	s.h.o.Log.Printf("session %s: idle for %v, ended", s.id, s.h.o.SessionIdle)
}

// close ends the session: waiting calls fail, streams end.
func (s *session) close() { s.end(false) }

// end ends the session, if onlyIdle only when no request is in flight,
// in one step with that check; it reports whether it ended it.
func (s *session) end(onlyIdle bool) bool {
	s.mu.Lock()
	if s.ended || (onlyIdle && s.busy > 0) {
		s.mu.Unlock()
		return false
	}
	s.ended = true
	s.idle.Stop()
	close(s.done)
	s.mu.Unlock()
	s.srv.close() // the directories of its client's roots, at once
	return true
}

// call sends a request to the client, on the stream of the POST being
// served if the client accepts one, else on the GET stream, and waits for
// the answer the client POSTs.
func (s *session) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, err := ndjson.Marshal(params)
	if err != nil {
		return nil, err
	}
	st, _ := ctx.Value(streamKey{}).(*stream)
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return nil, ndjson.ErrClosed
	}
	if st == nil {
		st = s.standalone
	}
	id, ch := s.pending.Add()
	s.mu.Unlock()
	defer s.pending.Forget(id)
	if st == nil {
		return nil, fmt.Errorf("%s: no stream to the client is open (POST with Accept: text/event-stream, or open the GET stream)", method)
	}
	msg, err := json.Marshal(&ndjson.Message{JSONRPC: "2.0", ID: strconv.AppendInt(nil, id, 10), Method: method, Params: raw})
	if err != nil {
		return nil, err
	}
	err = st.send(msg)
	if errors.Is(err, errStreamEnded) {
		// The POST that asked has ended (its client gave up); others may
		// wait for the answer, which the GET stream can still bring.
		s.mu.Lock()
		alt := s.standalone
		s.mu.Unlock()
		if alt != nil && alt != st {
			err = alt.send(msg)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		return m.Outcome(method)
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.done:
		return nil, ndjson.ErrClosed
	}
}

// deliver hands the client's answer to the call waiting for it.
func (s *session) deliver(m *ndjson.Message) { s.pending.Deliver(m) }

// streamKey is the context key of the stream of the POST being served.
type streamKey struct{}

// A stream is the SSE body of one HTTP response. A POST's stream starts
// when the first request to the client goes out on it; until then its
// answer may still go out as plain JSON.
type stream struct {
	h *httpHandler
	w http.ResponseWriter

	mu      sync.Mutex
	started bool
	ended   bool
}

var errStreamEnded = errors.New("the HTTP response stream has ended")

// open starts the stream: status 200 and the SSE headers, flushed.
func (st *stream) open() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.startLocked()
}

func (st *stream) startLocked() {
	if st.started {
		return
	}
	st.started = true
	hd := st.w.Header()
	hd.Set("Content-Type", mcphttp.EventStream)
	hd.Set("Cache-Control", "no-cache")
	st.w.WriteHeader(http.StatusOK)
	_ = within(st.w, http.NewResponseController(st.w).Flush)
}

// send writes msg as an event, starting the stream if needed.
func (st *stream) send(msg []byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ended {
		return errStreamEnded
	}
	st.startLocked()
	st.h.record("-> ", msg)
	return within(st.w, func() error {
		if err := mcphttp.WriteEvent(st.w, msg); err != nil {
			return err
		}
		return http.NewResponseController(st.w).Flush()
	})
}

// end closes the stream to later sends. If it started, last (if not nil)
// is written as its final event and end returns true; if it did not, end
// writes nothing and returns false.
func (st *stream) end(last []byte) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ended = true
	if !st.started {
		return false
	}
	if last != nil {
		st.h.record("-> ", last)
		_ = within(st.w, func() error { return mcphttp.WriteEvent(st.w, last) })
	}
	return true
}
