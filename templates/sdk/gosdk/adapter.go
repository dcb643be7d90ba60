//lint:file-ignore SA1019 the SDK deprecates its roots API (SEP-2577), which is what this package adapts

package gosdk

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// requires names, in the first error of a build against an earlier
// go-sdk, the go-sdk this adapter needs.
func requires(string) *mcp.ServerOptions { return nil }

func _() { _ = requires("go-sdk v1.8.0 or later, which needs Go 1.25").SupportedProtocolVersions }

// SDKVersion is the version of go-sdk this package was written against.
const SDKVersion = "v1.8.0"

// An Option configures an Adapter.
type Option func(*Adapter)

// setting is the Option that applies f to every gate session of the adapter.
func setting(f func(*Session)) Option {
	return func(a *Adapter) { a.settings = append(a.settings, f) }
}

// Timeout bounds each roots/list request; zero means the gate's DefaultTimeout.
func Timeout(d time.Duration) Option { return setting(func(s *Session) { s.Timeout = d }) }

// MaxAge lets a session reuse its client's roots while younger than d; zero
// keeps them until the client says they changed, if it can (Session.MaxAge).
func MaxAge(d time.Duration) Option { return setting(func(s *Session) { s.MaxAge = d }) }

// Strict refuses a roots list with an invalid root rather than keep the rest.
func Strict() Option { return setting(func(s *Session) { s.Lenient = false }) }

// OnInvalidRoots receives the error naming each root left out of a kept
// list, by index and rule broken; a session's cached list is reported once.
func OnInvalidRoots(f func(error)) Option {
	return setting(func(s *Session) { s.OnInvalidRoots = f })
}

// Logger sends the roots' audit records (the runtime's package doc, Audit)
// to l, with the session ID and the tool; nil, the default, sends none.
func Logger(l *slog.Logger) Option { return func(a *Adapter) { a.logger = l } }

// InputKey names the roots/list entry of input_required results
// (2026-07-28); empty means DefaultInputKey.
func InputKey(key string) Option { return setting(func(s *Session) { s.InputKey = key }) }

// RootSetOptions are given to every RootSet the adapter builds, such as
// [Bounds] to intersect the client's roots with the directories allowed.
func RootSetOptions(opts ...RootSetOption) Option {
	return func(a *Adapter) { a.setOpts = append(a.setOpts, opts...) }
}

// Sealer seals the requestState of input_required results: a retried
// request's roots are taken only from a state sealer sealed for the same
// request and principal (its bearer token's UserID, else "anonymous").
// Set [StateSealerConfig].Audience to the server's name, so that another
// service holding the same key cannot take its states.
func Sealer(sealer *StateSealer) Option { return setting(func(s *Session) { s.Sealer = sealer }) }

// FallBackToBounds opts into the migration off roots (SEP-2577): a client
// that declares no roots, or that ask(its revision) says not to ask (nil
// asks all), works in the [Bounds] directories alone and is sent nothing;
// roots a client gives are intersected with the Bounds. func(r Revision)
// bool { return !r.Deprecated } stops asking where roots are deprecated.
// Without Bounds in RootSetOptions, RootSet fails rather than allow every
// file.
func FallBackToBounds(ask func(Revision) bool) Option {
	return setting(func(s *Session) {
		s.FallBackToBounds = true
		s.Ask = ask
	})
}

// OnDeprecatedRoots, the warning SEP-2577 asks for, is called as roots are
// used on a revision that deprecates them: once per session that
// negotiated one and, where requests stand alone (2026-07-28), once per
// tool call that gets the client's roots.
func OnDeprecatedRoots(f func(version string)) Option {
	return setting(func(s *Session) { s.OnDeprecatedRoots = f })
}

// An Adapter gives the tool handlers of one or more go-sdk servers the
// roots of the client of the request they serve, through the kit's gate,
// on whatever revision it negotiated. Create it with New; it is safe for
// concurrent use.
//
//	a := gosdk.New()
//	server := a.NewServer(impl, nil)
//	mcp.AddTool(server, tool, gosdk.HandlerFor(func(ctx context.Context, req *mcp.CallToolRequest, in Args) (*mcp.CallToolResult, any, error) {
//		set, err := a.RootSet(ctx, req)
//		if err != nil {
//			return nil, nil, err
//		}
//		defer set.Close()
//		data, err := set.ReadFile(in.Path) // only inside a root, links resolved
//		...
//	}))
type Adapter struct {
	settings   []func(*Session)
	setOpts    []RootSetOption
	logger     *slog.Logger
	perRequest *Session // serves the requests that stand alone
	// configured: ServerOptions (or NewServer) made the options of a
	// server, which keep its sessions' roots fresh.
	configured atomic.Bool

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
}

// session is what the adapter keeps of a session that began with
// initialize: the version the server answered and the gate session, once
// known, and the last report of roots left out (see finish).
type session struct {
	version string
	gate    *Session
	invalid string
}

// New returns an Adapter configured by opts.
func New(opts ...Option) *Adapter {
	a := &Adapter{sessions: make(map[*mcp.ServerSession]*session)}
	for _, o := range opts {
		o(a)
	}
	a.perRequest = a.gateSession()
	return a
}

// gateSession returns a gate session with the options' settings.
func (a *Adapter) gateSession() *Session {
	s := &Session{Lenient: true, Logger: a.logger}
	for _, f := range a.settings {
		f(s)
	}
	return s
}

// NewServer returns mcp.NewServer(impl, a.ServerOptions(opts)) with
// a.Middleware installed. It panics as ServerOptions does.
func (a *Adapter) NewServer(impl *mcp.Implementation, opts *mcp.ServerOptions) *mcp.Server {
	server := mcp.NewServer(impl, a.ServerOptions(opts))
	server.AddReceivingMiddleware(a.Middleware)
	return server
}

// Middleware is a receiving middleware that records the protocol version
// the server answers each initialize with, which the session speaks (the
// SDK reports the one offered, which the adapter takes without it).
func (a *Adapter) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if init, ok := res.(*mcp.InitializeResult); ok && err == nil && init != nil {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
				a.mu.Lock()
				a.session(ss).version = init.ProtocolVersion
				a.mu.Unlock()
			}
		}
		return res, err
	}
}

// session returns what the adapter keeps of ss until ss ends. The caller
// holds a.mu.
func (a *Adapter) session(ss *mcp.ServerSession) *session {
	if s := a.sessions[ss]; s != nil {
		return s
	}
	s := &session{}
	a.sessions[ss] = s
	go func() {
		ss.Wait()
		a.mu.Lock()
		delete(a.sessions, ss)
		gs := s.gate
		a.mu.Unlock()
		if gs != nil {
			gs.Close() // the root directories its shared RootSet keeps open
		}
	}()
	return s
}

// ServerOptions returns a copy of opts (nil means none) for a server whose
// roots a serves: its SupportedProtocolVersions (opts', or all go-sdk
// supports when empty) narrowed to those the gate serves, so that go-sdk
// negotiates no other and refuses a 2026-07-28 request naming another, and
// a RootsListChangedHandler that drops the cached roots of the notifying
// session, then calls opts' handler, if any. It panics, as mcp.NewServer
// does for a version it does not support, when none is left, naming both.
func (a *Adapter) ServerOptions(opts *mcp.ServerOptions) *mcp.ServerOptions {
	a.configured.Store(true)
	var o mcp.ServerOptions
	if opts != nil {
		o = *opts
	}
	offered := o.SupportedProtocolVersions
	if len(offered) == 0 {
		offered = mcp.SupportedProtocolVersions()
	}
	var gate []string
	for _, r := range Revisions() {
		gate = append(gate, r.Version)
	}
	// A copy, in offered's order: opts' list stays the caller's.
	o.SupportedProtocolVersions = slices.DeleteFunc(slices.Clone(offered), func(v string) bool {
		return !slices.Contains(gate, v)
	})
	if len(o.SupportedProtocolVersions) == 0 {
		panic(fmt.Errorf("gosdk: the server would offer protocol versions %s, and the gate serves none of them (it serves %s)",
			strings.Join(offered, ", "), strings.Join(gate, ", ")))
	}
	next := o.RootsListChangedHandler
	o.RootsListChangedHandler = func(ctx context.Context, req *mcp.RootsListChangedRequest) {
		var s *Session
		a.mu.Lock()
		if kept := a.sessions[req.Session]; kept != nil {
			s = kept.gate
		}
		a.mu.Unlock()
		if s != nil {
			// The gate accepts params absent, null or {}; it ignores them.
			_ = s.HandleNotification(ctx, "notifications/roots/list_changed", nil)
		}
		if next != nil {
			next(ctx, req)
		}
	}
	return &o
}

// Roots returns the roots of the set [Adapter.RootSet] returns, or its error.
func (a *Adapter) Roots(ctx context.Context, req mcp.Request) ([]Root, error) {
	set, err := a.RootSet(ctx, req)
	if err != nil {
		return nil, err
	}
	defer set.Close()
	return set.Roots(), nil
}

// RootSet returns the roots of the client of req, a request the server is
// serving (a tools/call, prompts/get or resources/read), as a gate
// RootSet, whose file methods act only inside a root, links and ".."
// resolved. Each root is checked by the rules of the revision it came in,
// the RootSet's included; unless the adapter is Strict, those they refuse
// are left out and reported to OnInvalidRoots. Close the set when done.
//
// The session decides how, never the request's _meta. On a session that
// began with initialize for a revision where roots/list is a request of
// its own (2025-11-25 and earlier), the gate asks with
// ServerSession.ListRoots and keeps the answer per session, one request
// shared by concurrent callers. Requests stand alone, on the
// input_required path, only on a session that never ran initialize, whose
// InitializeParams go-sdk took from a 2026-07-28 request's _meta: from the
// first such request on a stream transport, from each on a stateless
// StreamableHTTPHandler. Those that bring the same roots share one set.
//
// On such a session, the server must have been made with NewServer or
// with ServerOptions, whose RootsListChangedHandler drops the kept roots
// when the client changes them: otherwise RootSet fails, naming them,
// rather than let a root the client removed stay readable.
//
// Its errors wrap the gate's: ErrNoRootsCapability when the client did not
// declare roots (nothing was sent; on 2026-07-28 a *MissingCapabilityError),
// ErrMalformedRequest (a *MalformedRequestError) when a 2026-07-28
// request's params are not what the revision requires, ErrNoAnswer when
// the client did not answer in time, and ErrInputRequired (a
// [*ToolInputRequiredError]) when the request must first be answered with
// an input_required result.
func (a *Adapter) RootSet(ctx context.Context, req mcp.Request) (*RootSet, error) {
	if req == nil || req.GetParams() == nil {
		return nil, errors.New("gosdk: no request")
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return nil, fmt.Errorf("gosdk: %T is not a request a server received", req)
	}
	s, kept, err := a.legacy(ss)
	if err != nil {
		return nil, err
	}
	opts := a.setOpts
	if a.logger != nil {
		tool := "" // not a tools/call
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
			tool = call.Params.Name
		}
		opts = append(opts[:len(opts):len(opts)], LogRefusals(a.logger, slog.String("session", ss.ID()), slog.String("tool", tool)))
	}
	if s == nil {
		d, err := a.decode(req)
		if err != nil {
			return nil, err
		}
		set, err := a.perRequest.DecodedRootSet(d, opts...)
		return a.finish(nil, set, err)
	}
	// No params: their _meta would name the version, and the gate session
	// reads nothing else of them.
	set, err := s.RootSet(ctx, nil, opts...)
	return a.finish(kept, set, err)
}

// finish is what RootSet returns for the set and error of the gate session
// that served the request; kept is nil for a request that stands alone.
func (a *Adapter) finish(kept *session, set *RootSet, err error) (*RootSet, error) {
	if err == nil {
		return set, nil // before ir, whose address would cost every call an allocation
	}
	if set != nil {
		// The set holds the valid roots; err names the others, reported
		// unless the session reported it last (about the same cached roots).
		if !a.perRequest.Lenient { // Strict
			set.Close()
			return nil, err
		}
		report := a.perRequest.OnInvalidRoots != nil
		if report && kept != nil {
			a.mu.Lock()
			report = kept.invalid != err.Error()
			kept.invalid = err.Error()
			a.mu.Unlock()
		}
		if report {
			a.perRequest.OnInvalidRoots(err)
		}
		return set, nil
	}
	var ir *InputRequiredError
	if !errors.As(err, &ir) {
		return nil, err
	}
	return nil, &ToolInputRequiredError{
		InputRequests: mcp.InputRequestMap{ir.Key: &mcp.ListRootsParams{}},
		RequestState:  ir.RequestState,
		Err:           ir,
	}
}

// decode reads what the gate needs of req, a request that stands alone,
// from what go-sdk decoded. For the Sealer, a state is bound to the
// request's method and its params but _meta, inputResponses and
// requestState (for a tools/call, its name and arguments).
func (a *Adapter) decode(req mcp.Request) (DecodedRequest, error) {
	var d DecodedRequest
	p := req.GetParams()
	meta := p.GetMeta()
	salient := func() ([]byte, error) { return marshalSalient(p) }
	var responses mcp.InputResponseMap // none for a request that can only be asked
	switch r := req.(type) {
	case *mcp.CallToolRequest:
		responses, d.RequestState = r.Params.InputResponses, r.Params.RequestState
		salient = func() ([]byte, error) { return toolParams(r.Params.Name, r.Params.Arguments) }
	case *mcp.GetPromptRequest:
		responses, d.RequestState = r.Params.InputResponses, r.Params.RequestState
	case *mcp.ReadResourceRequest:
		responses, d.RequestState = r.Params.InputResponses, r.Params.RequestState
	}
	switch v, ok := meta[mcp.MetaKeyProtocolVersion]; {
	case !ok:
	case v == nil:
		return d, fmt.Errorf("%w: _meta[%q] is null, not a string", ErrMalformedVersion, mcp.MetaKeyProtocolVersion)
	default:
		if d.Version, ok = v.(string); !ok {
			return d, fmt.Errorf("%w: _meta[%q] is a %T, not a string", ErrMalformedVersion, mcp.MetaKeyProtocolVersion, v)
		}
	}
	d.Capabilities, d.Roots = declaresRoots(meta[mcp.MetaKeyClientCapabilities])
	key := cmp.Or(a.perRequest.InputKey, DefaultInputKey)
	if resp, ok := responses[key]; ok {
		d.Answered = true
		switch result, ok := resp.(*mcp.ListRootsResult); {
		case ok && result != nil && result.Roots != nil:
			d.Answer = gateRoots(result.Roots)
		case ok && result != nil:
			d.AnswerError = fmt.Errorf("inputResponses[%q]: roots is null, not a list", key)
		default:
			d.AnswerError = fmt.Errorf("inputResponses[%q] is a %T, not a roots/list result", key, resp)
		}
	}
	if a.perRequest.Sealer != nil {
		params, err := salient()
		if err != nil {
			return d, fmt.Errorf("%s: request params: %w", d.Version, err)
		}
		principal := "anonymous"
		if e := req.GetExtra(); e != nil && e.TokenInfo != nil && e.TokenInfo.UserID != "" {
			principal = e.TokenInfo.UserID
		}
		d.Binding = StateBinding{Principal: principal, Method: method(req), Params: params}
	}
	return d, nil
}

// declaresRoots reads the client capabilities of a _meta, as go-sdk decoded
// them: whether they are an object, and whether they declare roots.
func declaresRoots(caps any) (object, roots bool) {
	switch c := caps.(type) {
	case map[string]any:
		r, ok := c["roots"]
		return true, ok && r != nil
	case nil:
		return false, false
	}
	// Not what go-sdk decodes from JSON: a value a Go caller put there.
	var c map[string]any
	if raw, err := json.Marshal(caps); err != nil || json.Unmarshal(raw, &c) != nil || c == nil {
		return false, false
	}
	return declaresRoots(c)
}

// gateRoots are go-sdk's roots as the gate's; the Meta maps are shared.
func gateRoots(roots []*mcp.Root) []Root {
	out := make([]Root, len(roots))
	for i, r := range roots {
		if r != nil {
			out[i] = Root{URI: r.URI, Name: r.Name, Meta: r.Meta}
		}
	}
	return out
}

// toolParams is SalientParams of the params of a tools/call with this
// name and these arguments, built without the members it drops.
func toolParams(name string, args json.RawMessage) ([]byte, error) {
	quoted, err := json.Marshal(name)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(`{"name":,"arguments":}`)+len(quoted)+len(args))
	b = append(append(b, `{"name":`...), quoted...)
	if len(args) > 0 {
		b = append(append(b, `,"arguments":`...), args...)
	}
	return SalientParams(append(b, '}'))
}

// marshalSalient is SalientParams of v as JSON.
func marshalSalient(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return SalientParams(raw)
}

// HTTPHandler serves the servers getServer returns over Streamable HTTP on
// every revision the kit serves. go-sdk serves a revision whose requests
// stand alone (2026-07-28) only on a stateless StreamableHTTPHandler, and
// the others only on a stateful one, which can send roots/list: HTTPHandler
// makes both from opts (nil means none; Stateless set for each) and routes
// each request by its Mcp-Protocol-Version header; one without it, as an
// initialize, goes to the stateful one.
func HTTPHandler(getServer func(*http.Request) *mcp.Server, opts *mcp.StreamableHTTPOptions) http.Handler {
	var o mcp.StreamableHTTPOptions
	if opts != nil {
		o = *opts
	}
	o.Stateless = false
	stateful := mcp.NewStreamableHTTPHandler(getServer, &o)
	o.Stateless = true
	stateless := mcp.NewStreamableHTTPHandler(getServer, &o)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if standsAlone(r.Header.Get("Mcp-Protocol-Version")) {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// standsAlone reports whether version is a revision whose requests stand
// alone, carrying roots/list in input_required results.
func standsAlone(version string) bool {
	rev, err := Lookup(version)
	return err == nil && !rev.DirectRequest
}

// legacy returns the gate session of ss, set up on first use, and what the
// adapter keeps of ss; no session when its requests stand alone (see
// RootSet). Any other session is served as the version it negotiated, with
// the gate's capability check and Timeout: go-sdk would fulfil an
// input_required result on it itself, with ListRoots, without either.
func (a *Adapter) legacy(ss *mcp.ServerSession) (*Session, *session, error) {
	init := ss.InitializeParams()
	if init == nil {
		return nil, nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if standsAlone(init.ProtocolVersion) {
		var negotiated string
		if kept := a.sessions[ss]; kept != nil {
			negotiated = kept.version
		}
		if negotiated == "" {
			return nil, nil, nil // no initialize answered, or no Middleware to see it
		}
		if rev, err := Lookup(negotiated); err != nil || !rev.DirectRequest {
			return nil, nil, nil
		}
	}
	if !a.configured.Load() {
		// Without the RootsListChangedHandler of ServerOptions, nothing
		// drops a session's kept roots when the client changes them: a root
		// it removed would stay readable.
		return nil, nil, errNotConfigured
	}
	kept := a.session(ss)
	if kept.gate != nil {
		return kept.gate, kept, nil
	}
	version := cmp.Or(kept.version, init.ProtocolVersion)
	if init.Capabilities == nil && kept.version == "" {
		// Every initialize declares capabilities; go-sdk makes up
		// InitializeParams without them for each request a stateless
		// StreamableHTTPHandler serves on an earlier revision.
		return nil, nil, fmt.Errorf("gosdk: %s: %w: the session has no initialize parameters, as on a stateless HTTP handler, which cannot send roots/list: serve %s on a stateful handler (HTTPHandler routes each request to the right one)",
			version, ErrWrongPath, version)
	}
	s := a.gateSession()
	if a.logger != nil {
		s.Logger = a.logger.With("session", ss.ID())
	}
	s.OnInvalidRoots = nil // finish reports them, once per list, with the set's
	s.Request = func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		if method != "roots/list" {
			return nil, fmt.Errorf("gosdk: cannot send %q", method)
		}
		var p mcp.ListRootsParams
		if len(params) > 0 {
			if err := json.Unmarshal(params, &p); err != nil {
				return nil, err
			}
		}
		res, err := ss.ListRoots(ctx, &p)
		if wire := (*jsonrpc.Error)(nil); errors.As(err, &wire) {
			return nil, &RPCError{Code: wire.Code, Message: wire.Message, Data: wire.Data}
		}
		if err != nil {
			return nil, err
		}
		return json.Marshal(res)
	}
	// The roots part of what the client declared at initialize: go-sdk
	// sets RootsV2 only when the client declared roots.
	caps := "{}"
	if c := init.Capabilities; c != nil && c.RootsV2 != nil {
		caps = fmt.Sprintf(`{"roots":{"listChanged":%t}}`, c.RootsV2.ListChanged)
	}
	if err := s.Initialize(version, json.RawMessage(caps)); err != nil {
		return nil, nil, err
	}
	kept.gate = s
	return s, kept, nil
}

// errNotConfigured is the error of RootSet on a session of a server whose
// options the adapter did not make.
var errNotConfigured = errors.New("gosdk: the server was not made with Adapter.NewServer or Adapter.ServerOptions, so the roots the adapter keeps for a session would not be dropped when the client changes them; make it with a.NewServer(impl, opts) or mcp.NewServer(impl, a.ServerOptions(opts))")

func method(req mcp.Request) string {
	switch req.(type) {
	case *mcp.CallToolRequest:
		return "tools/call"
	case *mcp.GetPromptRequest:
		return "prompts/get"
	case *mcp.ReadResourceRequest:
		return "resources/read"
	}
	return fmt.Sprintf("%T", req)
}

// ToolInputRequiredError is the error of Roots and RootSet for a request
// that must ask for the client's roots in an input_required result: answer
// it with a result holding InputRequests and RequestState ([Handler] and
// [HandlerFor] do, for tools), and the client retries it with its roots.
// It wraps the gate's InputRequiredError, and so ErrInputRequired.
type ToolInputRequiredError struct {
	InputRequests mcp.InputRequestMap
	RequestState  string
	Err           *InputRequiredError
}

// Error says that the request must be answered with an input_required
// result, and how: a tool handler that returns it as its error was not
// wrapped with HandlerFor or Handler.
func (e *ToolInputRequiredError) Error() string {
	return e.Err.Error() + " (wrap the tool handler with HandlerFor or Handler, or return ToolResult(err), to send it)"
}

// Unwrap returns the gate's error.
func (e *ToolInputRequiredError) Unwrap() error { return e.Err }

// CallToolResult is the input_required result of a tools/call.
func (e *ToolInputRequiredError) CallToolResult() *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: e.InputRequests, RequestState: e.RequestState}
}

// ToolResult turns an error of Roots or RootSet into what a tool handler
// returns: an input_required result for a [*ToolInputRequiredError]; a
// *jsonrpc.Error, which go-sdk sends as the response's error as it is,
// -32021 for a *MissingCapabilityError and -32602 for a
// *MalformedRequestError; and otherwise err itself. A 2026-07-28 request
// whose _meta lacks the client capabilities, or has them null or
// undecodable, go-sdk refuses with -32602 before any handler runs.
func ToolResult(err error) (*mcp.CallToolResult, error) {
	if ir := (*ToolInputRequiredError)(nil); errors.As(err, &ir) {
		return ir.CallToolResult(), nil
	}
	var obj *RPCError
	if mc := (*MissingCapabilityError)(nil); errors.As(err, &mc) {
		obj = mc.Object
	} else if mr := (*MalformedRequestError)(nil); errors.As(err, &mr) {
		obj = mr.Object
	} else {
		return nil, err
	}
	data, merr := json.Marshal(obj.Data)
	if merr != nil {
		return nil, err
	}
	return nil, &jsonrpc.Error{Code: obj.Code, Message: obj.Message, Data: data}
}

// Handler wraps a tool handler so that the errors of Roots and RootSet it
// returns become what the client must see (see [ToolResult]), and so that
// a panic in it ends the call, not the server (go-sdk recovers none): the
// panic and its stack are logged with the log package, as net/http logs a
// handler's, and the client gets a tool error that does not show the
// panic's value.
func Handler(h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer recovered(req, &res, &err)
		if res, err = h(ctx, req); err != nil {
			return ToolResult(err)
		}
		return res, nil
	}
}

// HandlerFor is Handler for the typed handlers of mcp.AddTool.
func HandlerFor[In, Out any](h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer recovered(req, &res, &err)
		if res, out, err = h(ctx, req, in); err != nil {
			var zero Out
			res, err := ToolResult(err)
			return res, zero, err
		}
		return res, out, nil
	}
}

// recovered, deferred by a handler, turns its panic into a tool error and
// a log record with the stack.
func recovered(req *mcp.CallToolRequest, res **mcp.CallToolResult, err *error) {
	v := recover()
	if v == nil {
		return
	}
	name := ""
	if req != nil && req.Params != nil {
		name = req.Params.Name
	}
	log.Printf("gosdk: panic in the handler of tool %q: %v\n%s", name, v, debug.Stack())
	*res, *err = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the tool failed: its handler panicked (the server logged it)"}}}, nil
}

// CheckRoots checks roots as a server would, by the rules of every revision
// the gate serves, touching no file; the error names each invalid one by index.
func CheckRoots(roots ...*mcp.Root) error {
	for i, r := range roots {
		if r == nil {
			return fmt.Errorf("roots[%d]: nil root", i)
		}
	}
	in := gateRoots(roots)
	for _, rev := range Revisions() {
		set, err := NewRootSet(rev.Version, in)
		if set != nil {
			set.Close()
		}
		if err != nil {
			return fmt.Errorf("revision %s: %w", rev.Version, err)
		}
	}
	return nil
}

// AddRoots adds roots to the client, as c.AddRoots does, once CheckRoots
// accepts them all; otherwise it adds none and returns CheckRoots' error.
func AddRoots(c *mcp.Client, roots ...*mcp.Root) error {
	if err := CheckRoots(roots...); err != nil {
		return err
	}
	c.AddRoots(roots...)
	return nil
}
