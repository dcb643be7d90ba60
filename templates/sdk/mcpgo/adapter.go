// The adapter connects the kit's gate to servers and clients built on
// mcp-go (github.com/mark3labs/mcp-go, written against the version
// SDKVersion names).
//
// On the server side, a [Roots] gives a tool handler the roots of the
// client that called it, whatever revision it speaks, in one call: on a
// session that negotiated 2025-11-25 or earlier, through mcp-go's
// RequestRoots, kept per session until the client sends
// notifications/roots/list_changed, with one request shared by concurrent
// callers and a timeout; on a 2026-07-28 request, through mcp-go's
// input_required flow (server.InputRequestBuilder), read from what mcp-go
// decoded of the request, the requests that bring the same roots sharing
// one RootSet. The session decides which, not the request: a session that
// ran initialize is served the first way, with the capabilities the client
// declared at initialize, whatever a request's _meta names (mcp-go, which
// judges a request by its _meta, then refuses to send roots/list for a
// request naming 2026-07-28, so such a request fails with nothing asked);
// only a request on a session that never ran initialize takes the second.
// Nothing is asked of a client that did not declare the roots capability.
// Each root is checked by the rules of the revision: the valid ones are
// kept, the invalid ones reported. The roots come as a [RootSet], whose
// file methods stay inside them whatever links or ".." a path holds.
//
// The server negotiates only the protocol versions the gate serves: at
// initialize, a client offering one it does not serve is answered with
// the newest one it does, and server/discover lists only those. mcp-go
// serves a 2026-07-28 request whatever else it is told, so [New] refuses
// a gate without that revision.
//
// On the client side, a [ClientRoots] is an mcp-go client.RootsHandler
// whose roots are checked by the same rules before they leave.

package mcpgo

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// requires names, in the first error of a build against an earlier
// mcp-go, the mcp-go this adapter needs.
func requires(string) *mcp.CallToolParams { return nil }

func _() {
	_ = requires("mcp-go v1.2.1 or later").InputResponses
}

// SDKVersion is the version of mcp-go (github.com/mark3labs/mcp-go) this
// package was written against.
const SDKVersion = "v1.2.1"

// Options configure a [Roots]. The zero value is ready to use.
type Options struct {
	// Timeout bounds each roots/list a session sends; zero means the
	// revision's default.
	Timeout time.Duration
	// MaxAge, when positive, lets an answer be reused while it is younger;
	// see Session.MaxAge.
	MaxAge time.Duration
	// Strict refuses a whole answer that holds an invalid root. By default
	// the valid roots are kept and the invalid ones go to OnInvalidRoots.
	Strict bool
	// OnInvalidRoots, when set, receives the error that names the roots
	// left out of an answer, or of a RootSet.
	OnInvalidRoots func(error)
	// InputKey names the roots/list entry of a 2026-07-28 input_required
	// result; empty means DefaultInputKey.
	InputKey string
	// Sealer, when set, seals the requestState of each 2026-07-28
	// input_required result, bound to the principal and the tool call,
	// and refuses a retry whose state does not open. The audience is the
	// sealer's: set StateSealerConfig.Audience to the server's name,
	// so that another service holding the same key cannot take its
	// states.
	Sealer *StateSealer
	// Principal names who makes the request being served, for the Sealer;
	// nil means the mcp-go session's ID, or "anonymous" for a session
	// without one. A 2026-07-28 request has none (nor has any request to
	// a server.WithStateLess server): set Principal, from the
	// caller's authentication, to bind a state to its caller.
	Principal func(ctx context.Context) string
	// FallBackToBounds opts into the migration off roots (SEP-2577
	// deprecates them from 2026-07-28): a client that declares no roots,
	// or that Ask chooses not to ask, works in the directories of the
	// Bounds option given to Tool or RootSet alone, and nothing is sent to
	// it; a client's roots, when it gives them, are intersected with the
	// Bounds. Without Bounds, RootSet fails rather than allow every file.
	FallBackToBounds bool
	// Ask, when set, says whether to ask a client speaking revision r for
	// its roots; nil asks every client that declares them. For example
	// func(r Revision) bool { return !r.Deprecated } stops asking where
	// roots are deprecated.
	Ask func(r Revision) bool
	// OnDeprecatedRoots, when set, is called as roots are used on a
	// revision that deprecates them: once per session that negotiated
	// one and, where requests stand alone (2026-07-28), once per tool
	// call that gets the client's roots. It is the warning SEP-2577 asks
	// for; log it or count it.
	OnDeprecatedRoots func(version string)
	// Logger, when set, receives the roots' audit records (the runtime's
	// package doc, Audit), with the mcp-go session's ID and, for a path a
	// set refuses, the tool.
	Logger *slog.Logger
}

// Roots is the server side: the roots of the client each tool call comes
// from. Install it with [Roots.ServerOption]; it is safe for concurrent
// use.
type Roots struct {
	o         Options
	stateless *Session // 2026-07-28 requests: only the RootSets of their roots lists are kept
	// newestLegacy is the newest version the gate serves that initialize
	// can negotiate.
	newestLegacy string

	mu       sync.Mutex
	sessions map[string]*Session   // legacy sessions, by mcp-go session ID
	inits    map[string]negotiated // by session ID: what initialize settled, for registered sessions
	leftOut  map[string]string     // by session ID: the roots last reported left out
	// unasked are the sessions over Streamable HTTP whose client did not
	// answer a roots/list (see errNoStream): not asked again until the
	// client sends list_changed or initializes again.
	unasked map[string]bool
	// Sessions mcp-go has registered and not unregistered, and what
	// initialize settled on sessions it has not registered yet (Streamable
	// HTTP registers after initialize; one whose client went away is never
	// registered, so at most maxPending are kept).
	registered map[string]bool
	pending    map[string]negotiated
}

// maxPending bounds the initializes kept for sessions not registered yet.
const maxPending = 1024

// negotiated is what a session settled at initialize: the protocol version
// the server answered and the roots capability the client declared (only
// that: the gate needs nothing else).
type negotiated struct {
	version string
	caps    mcp.ClientCapabilities
}

// New returns a Roots configured by o. It fails, naming them, when mcp-go
// would serve protocol versions the gate does not and cannot be told not
// to: every 2026-07-28-era version it knows (it serves any request naming
// one), and every version initialize can negotiate when the gate serves
// none of them.
func New(o Options) (*Roots, error) {
	r := &Roots{o: o, sessions: map[string]*Session{}, inits: map[string]negotiated{}, leftOut: map[string]string{}, unasked: map[string]bool{},
		registered: map[string]bool{}, pending: map[string]negotiated{}}
	var missing, legacy []string
	for _, v := range mcp.ValidProtocolVersions {
		switch {
		case !mcp.IsModernProtocol(v) && serves(v):
			if r.newestLegacy == "" {
				r.newestLegacy = v
			}
		case !mcp.IsModernProtocol(v):
			legacy = append(legacy, v)
		case !serves(v):
			missing = append(missing, v)
		}
	}
	if r.newestLegacy == "" {
		missing = append(missing, legacy...)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, fmt.Errorf("mcpgo: mcp-go %s would serve protocol versions the gate does not: %s; generate the kit with them (-revisions)",
			SDKVersion, strings.Join(missing, ", "))
	}
	r.stateless = r.newSession()
	return r, nil
}

// serves reports whether the gate serves version.
func serves(version string) bool {
	return slices.ContainsFunc(Revisions(), func(r Revision) bool { return r.Version == version })
}

func (r *Roots) newSession() *Session {
	return &Session{
		Request:        requestRoots,
		Timeout:        r.o.Timeout,
		MaxAge:         r.o.MaxAge,
		Lenient:        !r.o.Strict,
		OnInvalidRoots: r.o.OnInvalidRoots,
		InputKey:       r.o.InputKey,
		Sealer:         r.o.Sealer,

		FallBackToBounds:  r.o.FallBackToBounds,
		Ask:               r.o.Ask,
		OnDeprecatedRoots: r.o.OnDeprecatedRoots,
		Logger:            r.o.Logger,
	}
}

// ServerOption installs r on an mcp-go server: it handles
// notifications/roots/list_changed (the server's only handler for that
// method), keeps initialize and server/discover to the versions the gate
// serves, records what each session settles at initialize, and forgets a
// session's roots when the session ends. Give it to server.NewMCPServer
// after any server.WithHooks, which would replace the hooks it adds.
func (r *Roots) ServerOption() server.ServerOption {
	return func(s *server.MCPServer) {
		s.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, r.listChanged)
		if s.GetHooks() == nil {
			server.WithHooks(&server.Hooks{})(s)
		}
		s.GetHooks().AddBeforeInitialize(func(_ context.Context, _ any, req *mcp.InitializeRequest) {
			// mcp-go answers with the version offered when it knows it, else
			// with its newest: when that is one the gate does not serve,
			// offer it the gate's newest, which it answers with.
			if req != nil && !serves(mcp.NegotiateLegacyVersion(req.Params.ProtocolVersion)) {
				req.Params.ProtocolVersion = r.newestLegacy
			}
		})
		s.GetHooks().AddAfterDiscover(func(_ context.Context, _ any, _ *mcp.DiscoverRequest, res *mcp.DiscoverResult) {
			if res != nil {
				// A new slice: mcp-go may hand out its own list.
				res.SupportedVersions = slices.DeleteFunc(slices.Clone(res.SupportedVersions), func(v string) bool { return !serves(v) })
			}
		})
		s.GetHooks().AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, res *mcp.InitializeResult) {
			cs := server.ClientSessionFromContext(ctx)
			if cs == nil || cs.SessionID() == "" || req == nil || res == nil {
				return // a session without an ID is no one's (WithStateLess): keep nothing
			}
			// mcp-go later replaces the session's capabilities with those
			// of each 2026-07-28 request's _meta: keep the ones of
			// initialize, which decide what may be asked on this session.
			n := negotiated{res.ProtocolVersion, mcp.ClientCapabilities{Roots: req.Params.Capabilities.Roots}}
			r.mu.Lock()
			delete(r.unasked, cs.SessionID())
			if old := r.sessions[cs.SessionID()]; old != nil {
				// Initialized again: what it said before, and the roots it
				// gave then, no longer hold.
				delete(r.sessions, cs.SessionID())
				defer old.Close()
			}
			if r.registered[cs.SessionID()] {
				r.inits[cs.SessionID()] = n
			} else {
				if len(r.pending) >= maxPending {
					for id := range r.pending { // any one: the map is full of sessions whose client left
						delete(r.pending, id)
						break
					}
				}
				r.pending[cs.SessionID()] = n
			}
			r.mu.Unlock()
		})
		s.GetHooks().AddOnRegisterSession(func(_ context.Context, cs server.ClientSession) {
			r.mu.Lock()
			r.registered[cs.SessionID()] = true
			if n, ok := r.pending[cs.SessionID()]; ok {
				r.inits[cs.SessionID()] = n
				delete(r.pending, cs.SessionID())
			}
			r.mu.Unlock()
		})
		s.GetHooks().AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
			r.mu.Lock()
			gs := r.sessions[cs.SessionID()]
			delete(r.sessions, cs.SessionID())
			delete(r.inits, cs.SessionID())
			delete(r.leftOut, cs.SessionID())
			delete(r.unasked, cs.SessionID())
			delete(r.registered, cs.SessionID())
			delete(r.pending, cs.SessionID())
			r.mu.Unlock()
			if gs != nil {
				gs.Close() // the root directories its shared RootSet keeps open
			}
		})
	}
}

// listChanged drops the roots kept for the session the notification
// came from.
func (r *Roots) listChanged(ctx context.Context, n mcp.JSONRPCNotification) {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil {
		return
	}
	r.mu.Lock()
	s := r.sessions[cs.SessionID()]
	delete(r.leftOut, cs.SessionID())
	delete(r.unasked, cs.SessionID()) // the client is there: ask it again
	r.mu.Unlock()
	if s == nil {
		return // nothing asked yet, nothing kept
	}
	params, err := json.Marshal(n.Params)
	if err == nil {
		err = s.HandleNotification(ctx, n.Method, params)
	}
	if err != nil && r.o.OnInvalidRoots != nil {
		r.o.OnInvalidRoots(fmt.Errorf("%s: %w", n.Method, err))
	}
}

// Roots returns the roots of the client that made req, valid root by
// root: the roots of RootSet. Unless Strict, the roots left out are
// reported to OnInvalidRoots (on a legacy session once per answer). Its
// errors are those of Session.RootSet: on a 2026-07-28 request that does
// not carry the roots yet, a *InputRequiredError, for a client without
// the roots capability an error wrapping ErrNoRootsCapability, and for a
// 2026-07-28 request whose params the revision refuses a
// *MalformedRequestError; [Result] turns each into what the handler
// should return.
func (r *Roots) Roots(ctx context.Context, req mcp.CallToolRequest) ([]Root, error) {
	set, legacy, err := r.rootSet(ctx, req)
	if set == nil {
		return nil, err
	}
	defer set.Close()
	if err != nil {
		r.reportLeftOut(ctx, legacy, err)
	}
	return set.Roots(), nil
}

// RootSet is Roots made into a [RootSet] with opts, such as
// Bounds. As with NewRootSet, a set can come with an
// error naming the roots it left out, unless Strict; Close the set when
// done.
func (r *Roots) RootSet(ctx context.Context, req mcp.CallToolRequest, opts ...RootSetOption) (*RootSet, error) {
	set, _, err := r.rootSet(ctx, req, opts...)
	return set, err
}

// rootSet is RootSet, and reports whether req was served on its session's
// legacy path. With Strict, a set that left roots out is refused.
func (r *Roots) rootSet(ctx context.Context, req mcp.CallToolRequest, opts ...RootSetOption) (*RootSet, bool, error) {
	n, legacy := r.negotiated(ctx, req)
	var set *RootSet
	var err error
	sid := ""
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		sid = cs.SessionID()
	}
	if r.o.Logger != nil {
		opts = append(opts[:len(opts):len(opts)], LogRefusals(r.o.Logger, slog.String("session", sid), slog.String("tool", req.Params.Name)))
	}
	if legacy {
		overHTTP := req.Header != nil
		r.mu.Lock()
		unasked := overHTTP && sid != "" && r.unasked[sid]
		r.mu.Unlock()
		if unasked {
			return nil, true, errNoStream{fmt.Errorf("%s: %w", n.version, ErrNoAnswer)}
		}
		var s *Session
		var own bool
		if s, own, err = r.session(ctx, n); err != nil {
			return nil, true, err
		}
		if own {
			defer s.Close() // this request's alone (see session); the set outlives it
		}
		// No params: on a legacy session the session's version decides.
		set, err = s.RootSet(ctx, nil, opts...)
		if overHTTP && sid != "" && set == nil && (errors.Is(err, ErrNoAnswer) || strings.Contains(fmt.Sprint(err), "queue is full")) {
			r.mu.Lock()
			r.unasked[sid] = true
			r.mu.Unlock()
			err = errNoStream{err}
		}
	} else {
		var d DecodedRequest
		if d, err = r.decode(ctx, req); err != nil {
			return nil, false, err
		}
		set, err = r.stateless.DecodedRootSet(d, opts...)
	}
	if err != nil && set != nil && r.o.Strict {
		set.Close()
		return nil, legacy, err
	}
	return set, legacy, err
}

// errNoStream is the error of a call on a 2025-era session over Streamable
// HTTP whose client did not answer roots/list. mcp-go sends that request
// only on the client's standalone GET stream and queues at most 10 for
// it: a client that never opens the stream would get, from its eleventh
// call on, "queue is full - server overloaded". The session is not asked
// again until the client sends notifications/roots/list_changed or
// initializes again; the error says so, and what to do. It wraps the
// gate's error, and so ErrNoAnswer.
type errNoStream struct{ err error }

func (e errNoStream) Error() string {
	return e.err.Error() + "; mcp-go sends roots/list over Streamable HTTP only on the client's standalone GET stream: the client must open it (GET on the MCP endpoint with its Mcp-Session-Id), then send notifications/roots/list_changed; until then this session is not asked again"
}

func (e errNoStream) Unwrap() error { return e.err }

// decode reads what the gate needs of req, a 2026-07-28 tools/call, from
// what mcp-go decoded: the protocol version and client capabilities of
// its _meta (as mcp-go judged them), the roots its inputResponses bring
// under the input key, its requestState and, for the Sealer, the call a
// state is bound to: its name, arguments and task, as SalientParams
// writes them.
func (r *Roots) decode(ctx context.Context, req mcp.CallToolRequest) (DecodedRequest, error) {
	var d DecodedRequest
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil {
		d.Version = info.ProtocolVersion
		if caps := info.ClientCapabilities; caps != nil {
			d.Capabilities, d.Roots = true, caps.Roots != nil
		}
	}
	p := req.Params
	d.RequestState = p.RequestState
	key := r.o.InputKey
	if key == "" {
		key = DefaultInputKey
	}
	if resp, ok := p.InputResponses[key]; ok {
		d.Answered = true
		// mcp-go keeps an answer as JSON until told what it answers.
		if resp.Roots == nil {
			if err := resp.DecodeFor(mcp.MethodListRoots); err != nil {
				d.AnswerError = fmt.Errorf("inputResponses[%q]: %w", key, err)
			}
		}
		switch {
		case d.AnswerError != nil:
		case resp.Roots == nil:
			d.AnswerError = fmt.Errorf("inputResponses[%q] is not a roots/list result", key)
		case resp.Roots.Roots == nil:
			d.AnswerError = fmt.Errorf("inputResponses[%q]: roots is null, not a list", key)
		default:
			d.Answer = gateRoots(resp.Roots.Roots)
		}
	}
	if r.o.Sealer != nil {
		params, err := toolParams(p)
		if err != nil {
			return d, fmt.Errorf("%s: request params: %w", d.Version, err)
		}
		d.Binding = StateBinding{Principal: r.principal(ctx), Method: string(mcp.MethodToolsCall), Params: params}
	}
	return d, nil
}

// gateRoots are mcp-go's roots as the gate's; the Meta maps are shared
// unless the root has a progress token, which mcp-go keeps apart.
func gateRoots(roots []mcp.Root) []Root {
	out := make([]Root, len(roots))
	for i, root := range roots {
		out[i] = Root{URI: root.URI, Name: root.Name}
		if m := root.Meta; m != nil {
			meta := m.AdditionalFields
			if m.ProgressToken != nil {
				meta = make(map[string]any, len(m.AdditionalFields)+1)
				for k, v := range m.AdditionalFields {
					meta[k] = v
				}
				meta["progressToken"] = m.ProgressToken
			}
			if meta == nil {
				meta = map[string]any{}
			}
			out[i].Meta = meta
		}
	}
	return out
}

// toolParams is what SalientParams makes of the params of a tools/call:
// its name, arguments (as the client sent them, when mcp-go kept them)
// and task, without the members SalientParams drops.
func toolParams(p mcp.CallToolParams) ([]byte, error) {
	fields := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
		Task      *mcp.TaskParams `json:"task,omitempty"`
	}{Name: p.Name, Arguments: p.RawArguments, Task: p.Task}
	if len(fields.Arguments) == 0 && p.Arguments != nil {
		args, err := json.Marshal(p.Arguments)
		if err != nil {
			return nil, err
		}
		fields.Arguments = args
	}
	raw, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	return SalientParams(raw)
}

// ToolHandler is a tool handler that works inside the client's roots.
type ToolHandler func(ctx context.Context, req mcp.CallToolRequest, roots *RootSet) (*mcp.CallToolResult, error)

// Tool turns h into an mcp-go tool handler that gets the RootSet of the
// calling client (built with opts), answers with [Result] when there is
// none yet, reports the roots left out to OnInvalidRoots (on a legacy
// session once, not on every call served from its cache), and closes the
// set after h returns. A panic in h ends the call, not the server: it is
// logged with its stack with the log package, as net/http logs a
// handler's, and the client gets a tool error that does not show the
// panic's value.
func (r *Roots) Tool(h ToolHandler, opts ...RootSetOption) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if v := recover(); v != nil {
				log.Printf("mcpgo: panic in the handler of tool %q: %v\n%s", req.Params.Name, v, debug.Stack())
				res, err = mcp.NewToolResultError("the tool failed: its handler panicked (the server logged it)"), nil
			}
		}()
		set, legacy, err := r.rootSet(ctx, req, opts...)
		if set == nil {
			return Result(err)
		}
		defer set.Close()
		if err != nil {
			r.reportLeftOut(ctx, legacy, err)
		}
		return h(ctx, req, set)
	}
}

// reportLeftOut passes err, naming the roots a RootSet left out, to
// OnInvalidRoots; on a legacy session only when it differs from the last
// one reported there since the client's roots last changed.
func (r *Roots) reportLeftOut(ctx context.Context, legacy bool, err error) {
	if r.o.OnInvalidRoots == nil {
		return
	}
	if cs := server.ClientSessionFromContext(ctx); cs != nil && legacy {
		r.mu.Lock()
		_, known := r.inits[cs.SessionID()]
		seen := known && r.leftOut[cs.SessionID()] == err.Error()
		if known {
			r.leftOut[cs.SessionID()] = err.Error()
		}
		r.mu.Unlock()
		if seen {
			return
		}
	}
	r.o.OnInvalidRoots(err)
}

// Result is what a tool handler returns when Roots or RootSet failed with
// err:
//
//   - a *InputRequiredError: the input_required result that asks
//     for the roots, built with server.InputRequestBuilder; the client
//     retries the call with them;
//   - a client that did not declare roots on 2026-07-28 (a
//     *MissingCapabilityError), a malformed 2026-07-28 request (a
//     *MalformedRequestError), or a retry whose sealed requestState
//     does not open: err itself, a JSON-RPC error. mcp-go v1.2.1
//     sends every handler error as -32603, not as the -32021 or -32602 the
//     revision specifies (it refuses a request whose _meta lacks the
//     client capabilities, or has them null or not decoding, with -32602
//     itself, before any handler runs);
//   - anything else, such as a legacy client without roots or one that did
//     not answer in time: a tool error saying so.
func Result(err error) (*mcp.CallToolResult, error) {
	var ask *InputRequiredError
	var missing *MissingCapabilityError
	var malformed *MalformedRequestError
	switch {
	case err == nil:
		return nil, errors.New("mcpgo: Result called without an error")
	case errors.As(err, &ask):
		return server.NewInputRequestBuilder(ask.RequestState).Roots(ask.Key).ToolResult(), nil
	case errors.As(err, &missing), errors.As(err, &malformed), isStateError(err):
		return nil, err
	}
	return mcp.NewToolResultError(err.Error()), nil
}

// isStateError reports whether err refuses a retry's requestState.
func isStateError(err error) bool {
	for _, e := range [...]error{ErrStateMissing, ErrStateTampered, ErrStateUnknownKey, ErrStateWrongAudience,
		ErrStateNotYetValid, ErrStateExpired, ErrStateWrongPrincipal, ErrStateWrongRequest, ErrStateUnbound} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

func (r *Roots) principal(ctx context.Context) string {
	if r.o.Principal != nil {
		return r.o.Principal(ctx)
	}
	if cs := server.ClientSessionFromContext(ctx); cs != nil && cs.SessionID() != "" {
		return cs.SessionID()
	}
	return "anonymous"
}

// negotiated returns what the mcp-go session in ctx settled, and whether
// the request is served on the legacy path. The session decides, not the
// request: on a session that ran initialize (where mcp-go negotiates
// 2025-11-25 at most), every request is served as the version it
// negotiated, with the capabilities the client declared then, whatever
// the request's _meta names. Only a request on a session that never ran
// initialize, whose _meta names 2026-07-28 or later, stands alone. A
// session without an ID (every request to a server.WithStateLess server)
// is no one's: nothing recorded for one client applies to it, and a
// 2025-era request there is served as the version its
// Mcp-Protocol-Version header names, with the capabilities mcp-go holds
// for the session (none on a stateless server).
func (r *Roots) negotiated(ctx context.Context, req mcp.CallToolRequest) (negotiated, bool) {
	cs := server.ClientSessionFromContext(ctx)
	var caps mcp.ClientCapabilities
	if info, ok := cs.(server.SessionWithClientInfo); ok {
		caps = info.GetClientCapabilities()
	}
	if cs != nil && cs.SessionID() != "" {
		r.mu.Lock()
		n, ok := r.inits[cs.SessionID()]
		r.mu.Unlock()
		if ok {
			return n, true
		}
		if v, ok := cs.(server.SessionWithProtocolVersion); ok && v.ProtocolVersion() != "" {
			// Initialized where ServerOption's hook did not see it: mcp-go's
			// record, whose capabilities may be a later request's _meta's.
			return negotiated{v.ProtocolVersion(), caps}, true
		}
	}
	if server.IsModernRequest(ctx) {
		return negotiated{}, false
	}
	return negotiated{cmp.Or(req.Header.Get(mcp.HeaderProtocolVersion), server.RequestProtocolVersion(ctx)), caps}, true
}

// session returns the gate session of the mcp-go session in ctx, set up
// for what it negotiated. Only a session whose initialize ServerOption saw
// keeps one, until mcp-go unregisters it; any other (no ID, an ID the
// client made up, one mcp-go never registered) gets a new one for this
// request alone, which the caller closes (own).
func (r *Roots) session(ctx context.Context, n negotiated) (s *Session, own bool, err error) {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil {
		return nil, false, errors.New("mcpgo: no mcp-go client session in the context")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, known := r.inits[cs.SessionID()]; !known {
		s, err = r.initialized(cs.SessionID(), n)
		return s, true, err
	}
	old := r.sessions[cs.SessionID()]
	if old != nil && old.Version() == n.version {
		return old, false, nil
	}
	if old != nil {
		defer old.Close() // replaced: a new version on the same session
	}
	if s, err = r.initialized(cs.SessionID(), n); err != nil {
		return nil, false, err
	}
	r.sessions[cs.SessionID()] = s
	return s, false, nil
}

// initialized returns a new gate session of the mcp-go session sid,
// initialized as n says.
func (r *Roots) initialized(sid string, n negotiated) (*Session, error) {
	raw, err := json.Marshal(n.caps)
	if err != nil {
		return nil, err
	}
	s := r.newSession()
	if r.o.Logger != nil {
		s.Logger = r.o.Logger.With("session", sid)
	}
	s.OnInvalidRoots = nil // reportLeftOut reports them, once per list, with the set's
	if err := s.Initialize(n.version, raw); err != nil {
		return nil, err
	}
	return s, nil
}

// requestRoots sends roots/list with mcp-go's RequestRoots on the session
// in ctx.
func requestRoots(ctx context.Context, method string, _ json.RawMessage) (json.RawMessage, error) {
	s := server.ServerFromContext(ctx)
	if s == nil {
		return nil, errors.New("mcpgo: no mcp-go server in the context")
	}
	res, err := s.RequestRoots(ctx, mcp.ListRootsRequest{Request: mcp.Request{Method: method}})
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// ClientRoots is the client side: an mcp-go client.RootsHandler (give it
// to client.WithRootsHandler) whose roots are checked, root by root, by
// the rules of the connection's revision before they leave. Invalid roots
// are left out and reported to OnInvalidRoots. It is safe for concurrent
// use.
type ClientRoots struct {
	// OnInvalidRoots, when set, receives the error that names the roots
	// left out of an answer.
	OnInvalidRoots func(error)

	mu     sync.Mutex
	roots  []mcp.Root
	client *client.Client
}

var _ client.RootsHandler = (*ClientRoots)(nil)

// NewClientRoots returns a ClientRoots holding roots.
func NewClientRoots(roots ...mcp.Root) *ClientRoots {
	return &ClientRoots{roots: roots}
}

// Attach names the client c serves, whose protocol version picks the rules
// and which [ClientRoots.Set] notifies. Before it, the rules of the newest
// revision apply.
func (c *ClientRoots) Attach(cl *client.Client) {
	c.mu.Lock()
	c.client = cl
	c.mu.Unlock()
}

// ListRoots answers roots/list, as a roots/list request or as an entry of
// inputRequests, with the valid roots.
func (c *ClientRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	c.mu.Lock()
	roots, version := c.roots, c.version()
	c.mu.Unlock()
	valid, err := ValidRoots(version, roots)
	if err != nil && valid == nil {
		return nil, err
	}
	if err != nil && c.OnInvalidRoots != nil {
		c.OnInvalidRoots(err)
	}
	return &mcp.ListRootsResult{Roots: valid}, nil
}

// Set replaces the roots and, on a connection whose revision has
// notifications/roots/list_changed and whose client declared listChanged
// (mcp-go declares it for a client with a roots handler unless told
// otherwise with client.WithClientCapabilities), sends it through the
// attached client. It never sends it on 2026-07-28, where mcp-go's
// RootListChanges would.
func (c *ClientRoots) Set(ctx context.Context, roots ...mcp.Root) error {
	c.mu.Lock()
	c.roots = roots
	cl, version := c.client, c.version()
	c.mu.Unlock()
	if cl == nil || cl.ProtocolVersion() == "" {
		return nil // not connected: the first roots/list gets the new roots
	}
	declared := cl.GetClientCapabilities().Roots
	g := Client{ListRoots: func(context.Context) ([]Root, error) { return nil, nil }, ListChanged: declared == nil || declared.ListChanged}
	_, err := g.NotifyListChanged(ctx, version, func(ctx context.Context, _ string, _ json.RawMessage) error {
		return cl.RootListChanges(ctx)
	})
	return err
}

// version is the protocol version whose rules apply; c.mu is held.
func (c *ClientRoots) version() string {
	if c.client != nil && c.client.ProtocolVersion() != "" {
		return c.client.ProtocolVersion()
	}
	revs := Revisions()
	return revs[len(revs)-1].Version
}

// ValidRoots returns the roots that follow the rules of version, in order,
// and an error naming the others by index. An unknown version is an error
// with nil roots.
func ValidRoots(version string, roots []mcp.Root) ([]mcp.Root, error) {
	rev, err := Lookup(version)
	if err != nil {
		return nil, err
	}
	if roots == nil {
		roots = []mcp.Root{}
	}
	answer, err := json.Marshal(map[string]any{"roots": roots})
	if err == nil && rev.InputRequests {
		// The answer travels in a retried request's inputResponses, whose
		// _meta names the version and declares roots.
		answer, err = json.Marshal(map[string]any{
			"_meta": map[string]any{
				mcp.MetaKeyProtocolVersion:    version,
				mcp.MetaKeyClientCapabilities: map[string]any{"roots": map[string]any{}},
			},
			"inputResponses": map[string]json.RawMessage{DefaultInputKey: answer},
		})
	}
	if err != nil {
		return nil, err
	}
	kept, err := RootsFromAnswer(version, answer, DefaultInputKey, true)
	out := make([]mcp.Root, 0, len(kept))
	for _, k := range kept {
		root := mcp.Root{URI: k.URI, Name: k.Name}
		if k.Meta != nil {
			root.Meta = &mcp.Meta{AdditionalFields: k.Meta}
		}
		out = append(out, root)
	}
	return out, err
}
