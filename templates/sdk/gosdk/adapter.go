//lint:file-ignore SA1019 the SDK deprecates its roots API (SEP-2577), which is what this package adapts

package gosdk

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// requires names, in the first error of a build against an earlier
// go-sdk, the go-sdk this adapter needs.
func requires(string) *mcp.ServerOptions { return nil }

func _() { _ = requires("go-sdk v1.8.0 or later, which needs Go 1.25").SupportedProtocolVersions }

// SDKVersion is the version of go-sdk (github.com/modelcontextprotocol/go-sdk)
// this package was written against.
const SDKVersion = "v1.8.0"

// An Option configures an Adapter.
type Option func(*Adapter)

// Timeout bounds each roots/list request sent to a client; zero means
// the gate's DefaultTimeout.
func Timeout(d time.Duration) Option { return func(a *Adapter) { a.perRequest.Timeout = d } }

// MaxAge lets a session reuse its client's roots while they are younger
// than d (see the gate's Session.MaxAge); zero keeps them until the client
// announces a change, when it can.
func MaxAge(d time.Duration) Option { return func(a *Adapter) { a.perRequest.MaxAge = d } }

// Strict refuses a roots list that holds an invalid root, instead of
// keeping its valid roots.
func Strict() Option { return func(a *Adapter) { a.perRequest.Lenient = false } }

// OnInvalidRoots receives the error naming the roots left out of a list
// (by index, with the rule each breaks), when the list is kept. A session
// that serves its cached roots again reports the same roots once.
func OnInvalidRoots(f func(error)) Option {
	return func(a *Adapter) { a.perRequest.OnInvalidRoots = f }
}

// InputKey names the roots/list entry of the input_required results
// (2026-07-28); empty means the gate's DefaultInputKey.
func InputKey(key string) Option { return func(a *Adapter) { a.perRequest.InputKey = key } }

// RootSetOptions are given to every RootSet the adapter builds, such as
// Bounds to intersect the client's roots with the directories the
// server allows.
func RootSetOptions(opts ...RootSetOption) Option {
	return func(a *Adapter) { a.setOpts = append(a.setOpts, opts...) }
}

// Sealer seals the requestState of the input_required results, so that
// the roots of a retried request are taken only from a state this server
// sealed for the same request and principal (the UserID of the request's
// bearer token, else "anonymous"). The audience is the sealer's: set
// StateSealerConfig.Audience to the server's name, so that another
// service holding the same key cannot take its states. See the gate's
// StateSealer.
func Sealer(s *StateSealer) Option { return func(a *Adapter) { a.perRequest.Sealer = s } }

// FallBackToBounds opts into the migration off roots (SEP-2577 deprecates
// them from 2026-07-28): a client that declares no roots, or that ask
// chooses not to ask (nil asks every client that declares roots), works in
// the directories of the Bounds option alone, and nothing is sent to it; a
// client's roots, when it gives them, are intersected with the Bounds.
// Give Bounds with RootSetOptions: without them RootSet fails rather than
// allow every file. ask takes the revision the client speaks; for example
// func(r Revision) bool { return !r.Deprecated } stops asking where roots
// are deprecated.
func FallBackToBounds(ask func(Revision) bool) Option {
	return func(a *Adapter) {
		a.perRequest.FallBackToBounds = true
		a.perRequest.Ask = ask
	}
}

// OnDeprecatedRoots is called as roots are used on a revision that
// deprecates them: once per session that negotiated such a revision and,
// where requests stand alone (2026-07-28), once per tool call that gets
// the client's roots. It is the warning SEP-2577 asks for; log it or
// count it.
func OnDeprecatedRoots(f func(version string)) Option {
	return func(a *Adapter) { a.perRequest.OnDeprecatedRoots = f }
}

// An Adapter serves the roots of the clients of one or more go-sdk
// servers through the kit's gate: it gives a tool handler the roots of
// the client of the request it serves, on whatever revision the client
// negotiated, with one call. Create it with New; it is safe for
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
	// perRequest serves the requests that stand alone: it keeps only the
	// RootSets of the roots lists their inputResponses bring. It holds the
	// options' settings, which the gate session of every session that
	// began with initialize copies.
	perRequest *Session
	setOpts    []RootSetOption

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
}

// session is what the adapter keeps of a session that began with
// initialize: the protocol version the server answered, once seen, and the
// gate session that asks its client for roots, once needed.
type session struct {
	version string
	gate    *Session
	// invalid is the last report of roots left out, made once while the
	// cached roots it is about are served again.
	invalid string
}

// New returns an Adapter configured by opts.
func New(opts ...Option) *Adapter {
	a := &Adapter{perRequest: &Session{Lenient: true}, sessions: make(map[*mcp.ServerSession]*session)}
	for _, o := range opts {
		o(a)
	}
	return a
}

// NewServer returns mcp.NewServer(impl, a.ServerOptions(opts)) with
// a.Middleware installed: a server whose tool handlers can ask a for
// roots. It panics as ServerOptions does.
func (a *Adapter) NewServer(impl *mcp.Implementation, opts *mcp.ServerOptions) *mcp.Server {
	server := mcp.NewServer(impl, a.ServerOptions(opts))
	server.AddReceivingMiddleware(a.Middleware)
	return server
}

// Middleware is a receiving middleware that records the protocol version
// the server answers each initialize with: the version the session speaks,
// which may differ from the one the client offered (and which the SDK
// reports as the session's). Without it the adapter takes the offered one.
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

// session returns what the adapter keeps of ss, kept from now until ss
// ends. The caller holds a.mu.
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
// roots a serves:
//
//   - SupportedProtocolVersions narrowed to the versions the gate serves
//     (from opts' list, or from every version go-sdk supports when it is
//     empty), so that go-sdk offers and negotiates no other: a client
//     offering another version at initialize is answered with one of
//     these, and a 2026-07-28 request naming another one is refused;
//   - a RootsListChangedHandler that drops the cached roots of the session
//     the notification came from, then calls the handler opts had, if any.
//
// It panics, as mcp.NewServer does for a version it does not support,
// when no version is left, naming the versions of each side.
func (a *Adapter) ServerOptions(opts *mcp.ServerOptions) *mcp.ServerOptions {
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

// Roots returns the roots of the client of req, a request the server is
// serving (a tools/call, prompts/get or resources/read), each checked by
// the rules of the revision they came in, those of its RootSet included:
// the roots of RootSet.
//
// The session decides how, never the request's _meta. On a session that
// began with initialize for a revision where roots/list is a request of
// its own (2025-11-25 and earlier), they are asked for with
// ServerSession.ListRoots and kept per session by the gate, one request
// shared by concurrent callers. Requests stand alone, on the
// input_required path, only on a session that never ran initialize, whose
// InitializeParams go-sdk took from a 2026-07-28 request's _meta: from the
// first such request on a stream transport, from each on a stateless
// StreamableHTTPHandler.
//
// Its errors wrap the gate's: ErrNoRootsCapability
// when the client did not declare roots (nothing was sent; on 2026-07-28 a
// *MissingCapabilityError), ErrMalformedRequest when a 2026-07-28
// request's params are not what the revision requires (a
// *MalformedRequestError), ErrNoAnswer when it did not answer in
// time, and ErrInputRequired (a [*ToolInputRequiredError]) when the request
// must first be answered with an input_required result.
func (a *Adapter) Roots(ctx context.Context, req mcp.Request) ([]Root, error) {
	set, err := a.RootSet(ctx, req)
	if err != nil {
		return nil, err
	}
	defer set.Close()
	return set.Roots(), nil
}

// RootSet is Roots made into a gate RootSet with the safe path API: its
// file methods act only inside a root, links and ".." resolved. Unless the
// adapter is Strict, roots the RootSet rules refuse (a file URI naming
// another host, say) are left out and reported to OnInvalidRoots. The
// requests that stand alone and bring the same roots share one set. Close
// the set when done.
func (a *Adapter) RootSet(ctx context.Context, req mcp.Request) (*RootSet, error) {
	if req == nil || req.GetParams() == nil {
		return nil, errors.New("gosdk: no request")
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return nil, fmt.Errorf("gosdk: %T is not a request a server received", req)
	}
	if a.standsAlone(ss) {
		d, err := a.decode(req)
		if err != nil {
			return nil, err
		}
		set, err := a.perRequest.DecodedRootSet(d, a.setOpts...)
		return a.finish(nil, set, err)
	}
	s, kept, err := a.legacy(ss)
	if err != nil {
		return nil, err
	}
	// No params: their _meta would name the version, and the gate session
	// reads nothing else of them.
	set, err := s.RootSet(ctx, nil, a.setOpts...)
	return a.finish(kept, set, err)
}

// finish is what RootSet returns for the set and error of the gate session
// that served the request; kept is what the adapter keeps of a legacy
// session, nil for a request that stands alone.
func (a *Adapter) finish(kept *session, set *RootSet, err error) (*RootSet, error) {
	if err == nil {
		return set, nil // before ir, whose address would cost every call an allocation
	}
	if set != nil {
		// The set holds the valid roots; err names the ones left out, passed
		// to OnInvalidRoots unless the session reported it last (about the
		// same cached roots).
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
	// The gate's InputRequiredError becomes a ToolInputRequiredError, which
	// holds what the SDK sends: the one roots/list entry the gate asks for,
	// and its requestState.
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
// from what go-sdk decoded: the protocol version and client capabilities
// its _meta declares, the roots its inputResponses bring under the input
// key, its requestState and, for the Sealer, the request a state is bound
// to: its method and the members of its params other than _meta,
// inputResponses and requestState (for a tools/call, its name and
// arguments), as SalientParams writes them.
func (a *Adapter) decode(req mcp.Request) (DecodedRequest, error) {
	var d DecodedRequest
	var meta map[string]any
	var responses mcp.InputResponseMap
	var salient func() ([]byte, error)
	switch r := req.(type) {
	case *mcp.CallToolRequest:
		p := r.Params
		meta, responses, d.RequestState = p.Meta, p.InputResponses, p.RequestState
		salient = func() ([]byte, error) { return toolParams(p.Name, p.Arguments) }
	case *mcp.GetPromptRequest:
		p := r.Params
		meta, responses, d.RequestState = p.Meta, p.InputResponses, p.RequestState
		salient = func() ([]byte, error) {
			return marshalSalient(struct {
				Arguments map[string]string `json:"arguments,omitempty"`
				Name      string            `json:"name"`
			}{p.Arguments, p.Name})
		}
	case *mcp.ReadResourceRequest:
		p := r.Params
		meta, responses, d.RequestState = p.Meta, p.InputResponses, p.RequestState
		salient = func() ([]byte, error) {
			return marshalSalient(struct {
				URI string `json:"uri"`
			}{p.URI})
		}
	default:
		// A request go-sdk gives no inputResponses: it can only be asked.
		p := req.GetParams()
		meta = p.GetMeta()
		salient = func() ([]byte, error) { return marshalSalient(p) }
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

// declaresRoots reads the client capabilities of a request's _meta, as
// go-sdk decoded them: whether they are an object, and whether they
// declare roots (a member "roots" that is not null).
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

// toolParams is what SalientParams makes of the params of a tools/call
// with this name and these arguments, without the members it drops.
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

// standsAlone reports whether the requests of ss stand alone (see
// Roots). Those of any other session are served as the version it
// negotiated, with the gate's capability check and Timeout: go-sdk would
// fulfil an input_required result on such a session itself, with
// ServerSession.ListRoots, with no capability check and no deadline.
func (a *Adapter) standsAlone(ss *mcp.ServerSession) bool {
	init := ss.InitializeParams()
	if init == nil {
		return true
	}
	if rev, err := Lookup(init.ProtocolVersion); err != nil || rev.DirectRequest {
		return false
	}
	var negotiated string
	a.mu.Lock()
	if kept := a.sessions[ss]; kept != nil {
		negotiated = kept.version
	}
	a.mu.Unlock()
	if negotiated == "" {
		return true // no initialize answered, or no Middleware to see it
	}
	rev, err := Lookup(negotiated)
	return err != nil || !rev.DirectRequest
}

// HTTPHandler serves the servers getServer returns over Streamable HTTP,
// on every revision the kit serves. go-sdk serves a revision whose
// requests stand alone (2026-07-28) only on a stateless
// StreamableHTTPHandler, and a revision where roots/list is a request of
// its own only on a stateful one, since only a session that lasts can
// send it: HTTPHandler makes one of each, with opts (nil means none; its
// Stateless is set for the one and cleared for the other), and sends each
// HTTP request to the one its Mcp-Protocol-Version header calls for. A
// request without the header, as an initialize is, goes to the stateful
// one.
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
		if rev, err := Lookup(r.Header.Get("Mcp-Protocol-Version")); err == nil && !rev.DirectRequest {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// legacy returns the gate session of ss, a session that negotiated its
// revision at initialize, set up on first use.
func (a *Adapter) legacy(ss *mcp.ServerSession) (*Session, *session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	kept := a.session(ss)
	if kept.gate != nil {
		return kept.gate, kept, nil
	}
	init := ss.InitializeParams()
	if init == nil {
		return nil, nil, fmt.Errorf("gosdk: the session has not been initialized: %w", ErrUnknownVersion)
	}
	version := cmp.Or(kept.version, init.ProtocolVersion)
	if init.Capabilities == nil && kept.version == "" {
		// Every initialize declares capabilities; go-sdk makes up
		// InitializeParams without them for each request a stateless
		// StreamableHTTPHandler serves on an earlier revision.
		return nil, nil, fmt.Errorf("gosdk: %s: %w: the session has no initialize parameters, as on a stateless HTTP handler, which cannot send roots/list: serve %s on a stateful handler (HTTPHandler routes each request to the right one)",
			version, ErrWrongPath, version)
	}
	opts := a.perRequest // the options' settings
	s := &Session{
		Timeout:           opts.Timeout,
		MaxAge:            opts.MaxAge,
		Lenient:           opts.Lenient,
		OnInvalidRoots:    opts.OnInvalidRoots,
		InputKey:          opts.InputKey,
		Sealer:            opts.Sealer,
		FallBackToBounds:  opts.FallBackToBounds,
		Ask:               opts.Ask,
		OnDeprecatedRoots: opts.OnDeprecatedRoots,
	}
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
	var caps string
	switch c := init.Capabilities; {
	case c == nil || c.RootsV2 == nil:
		caps = "{}"
	case c.RootsV2.ListChanged:
		caps = `{"roots":{"listChanged":true}}`
	default:
		caps = `{"roots":{}}`
	}
	if err := s.Initialize(version, json.RawMessage(caps)); err != nil {
		return nil, nil, err
	}
	kept.gate = s
	return s, kept, nil
}

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

// ToolInputRequiredError is the error of Roots and RootSet for a request whose
// revision carries roots/list inside an input_required result, when the
// request does not carry the client's roots yet: answer it with a result
// holding InputRequests and RequestState ([Handler] and [HandlerFor] do,
// for tools). The client retries the request with its roots. It wraps the
// gate's InputRequiredError, and so ErrInputRequired.
type ToolInputRequiredError struct {
	InputRequests mcp.InputRequestMap
	RequestState  string
	Err           *InputRequiredError
}

// Error says that the request must be answered with an input_required result.
func (e *ToolInputRequiredError) Error() string { return e.Err.Error() }

// Unwrap returns the gate's error.
func (e *ToolInputRequiredError) Unwrap() error { return e.Err }

// CallToolResult is the input_required result of a tools/call.
func (e *ToolInputRequiredError) CallToolResult() *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: e.InputRequests, RequestState: e.RequestState}
}

// ToolResult turns an error of Roots or RootSet into what a tool handler
// returns: an input_required result for a [*ToolInputRequiredError], a
// JSON-RPC error -32021 for a request without the roots capability
// (*MissingCapabilityError), a JSON-RPC error -32602 for a malformed
// request (*MalformedRequestError), and otherwise err itself. go-sdk
// sends a *jsonrpc.Error that a tool handler returns as the response's
// error member, as it is. A 2026-07-28 request whose _meta leaves out the
// client capabilities, or gives them null or in a form that does not
// decode, go-sdk refuses with -32602 itself, before any handler runs.
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
// returns become what the client must see (see [ToolResult]).
func Handler(h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := h(ctx, req)
		if err != nil {
			return ToolResult(err)
		}
		return res, nil
	}
}

// HandlerFor is Handler for the typed handlers of mcp.AddTool.
func HandlerFor[In, Out any](h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		res, out, err := h(ctx, req, in)
		if err != nil {
			var zero Out
			res, err := ToolResult(err)
			return res, zero, err
		}
		return res, out, nil
	}
}

// CheckRoots checks roots by the rules of every revision the gate serves,
// as a server would read them, touching no file. The error names each
// invalid root by its index.
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
