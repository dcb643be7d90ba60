package rootsrt

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
	"log/slog"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The errors of the gate's sessions, for errors.Is, beside those of the
// revisions (ErrMalformedRequest, ErrWrongPath, ErrUnknownVersion, ...).
var (
	// ErrInputRequired: the request must be answered with an
	// input_required result asking for roots; see [InputRequiredError].
	ErrInputRequired = errors.New("roots/list must be asked for in an input_required result")
	// ErrStateUnbound: the Session has a Sealer, but the call's ctx has no
	// StateBinding ([WithStateBinding]); nothing was sealed or opened.
	ErrStateUnbound = errors.New("requestState: no StateBinding in the context")
)

type stateBindingKey struct{}

// WithStateBinding returns a copy of ctx that carries b, for the calls of
// a Session with a Sealer while serving the request b describes.
func WithStateBinding(ctx context.Context, b StateBinding) context.Context {
	return context.WithValue(ctx, stateBindingKey{}, b)
}

// stateBinding returns the binding in ctx, its Params filled in from
// params with SalientParams when nil.
func stateBinding(ctx context.Context, version string, params json.RawMessage) (StateBinding, error) {
	b, ok := ctx.Value(stateBindingKey{}).(StateBinding)
	if !ok {
		return StateBinding{}, fmt.Errorf("%s: %w: use WithStateBinding", version, ErrStateUnbound)
	}
	if b.Params == nil {
		var err error
		if b.Params, err = SalientParams(params); err != nil {
			return StateBinding{}, fmt.Errorf("%s: request params: %w", version, err)
		}
	}
	return b, nil
}

// DefaultInputKey is the key of the roots/list entry in inputRequests and
// inputResponses when Session.InputKey is empty.
const DefaultInputKey = "roots"

// A Session is the server side of the roots feature on one connection,
// for every revision the gate serves: a tool handler calls
// sess.Roots(ctx, params) with the JSON params of the request it serves.
//
// Where roots/list is a request of its own, call Initialize when the
// connection negotiates its version, and HandleNotification for every
// notification; concurrent callers share one request.
//
// Where roots/list travels inside an InputRequiredResult, each request
// stands alone: its _meta names its version and declares the client's
// capabilities, and no answer is kept between requests. Only a session
// never initialized serves them: once initialized, its version decides
// every request, and one whose _meta names another is refused
// (ErrWrongPath), so that a client cannot write its way around the
// capability check or the Timeout of the version it negotiated.
//
// Set the fields before the first call and do not change them after; a
// Session is safe for concurrent use.
type Session struct {
	// Request sends roots/list to the client and returns its result's
	// JSON, or the error the client answered with (an *RPCError) or the
	// transport's; it must return when ctx is done. Needed where roots/list
	// is a request of its own.
	Request func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	// Timeout bounds each roots/list request; zero means DefaultTimeout.
	Timeout time.Duration
	// MaxAge, when positive, lets Roots reuse an answer younger than
	// MaxAge, counted from when its request was sent. When zero, the
	// answer of a client that declared listChanged is kept until it
	// announces a change; any other client is asked on every call.
	MaxAge time.Duration
	// Lenient keeps the valid roots of an answer that has invalid ones,
	// giving the error that lists the others to OnInvalidRoots, when set;
	// otherwise such an answer is an error.
	Lenient        bool
	OnInvalidRoots func(error)
	// OnListChanged, when set, is called as HandleNotification says.
	OnListChanged func(ctx context.Context) error
	// InputKey names the roots/list entry in inputRequests and
	// inputResponses; empty means DefaultInputKey.
	InputKey string
	// RequestState, when set, gives the requestState of the input_required
	// result asking for roots, from the params of the request served. The
	// client sends it back; without a Sealer it is only the client's word.
	RequestState func(params json.RawMessage) string
	// Sealer, when set, seals the requestState of every input_required
	// result (RequestState's, or an empty state) for the StateBinding in
	// the call's ctx; a retried request's roots are read only once its
	// requestState opens for its binding, else the error wraps an ErrState
	// error, or ErrStateUnbound. Sealing bounds replay to the sealer's TTL
	// but does not make a state single-use (see [StateSealer]).
	Sealer *StateSealer
	// FallBackToBounds opts into the migration off roots (SEP-2577
	// deprecates them from 2026-07-28): when a client declares no roots or
	// Ask chose not to ask it, RootSet gives a set of the Bounds option's
	// directories alone, with the same safe file methods, instead of an
	// error wrapping ErrNoRootsCapability; without the Bounds option that
	// is an error, as no bounds would allow every file. A client's roots
	// are intersected with the Bounds as always. Roots is unchanged.
	FallBackToBounds bool
	// Ask, when set, says whether to ask a client speaking revision r for
	// its roots (see FallBackToBounds); nil asks every client with roots.
	Ask func(r Revision) bool
	// OnDeprecatedRoots, when set, is called as roots are used on a
	// revision that deprecates them (the warning SEP-2577 asks for: log or
	// count it): once per session initialized for it and, where requests
	// stand alone, once per request that brings roots in inputResponses.
	OnDeprecatedRoots func(version string)
	// Logger, when set, receives the session's audit records (see the
	// package doc, Audit): each roots/list round trip, and each root left
	// out of a list the session builds a set for. The paths a set refuses
	// are recorded by the set, as its [LogRefusals] option says.
	Logger *slog.Logger

	legacy atomic.Pointer[legacySession] // nil until Initialize
	warned atomic.Bool                   // OnDeprecatedRoots was called for the initialized session

	mu    sync.Mutex
	sets  rootSetCache // the RootSets of legacy's cached roots
	lists listSetCache // the RootSets of requests that stand alone
}

// legacySession is a session where roots/list is a request of its own:
// whether the client declared roots, the Asker that asks it and keeps its
// answer, and the count of roots/list requests sent.
type legacySession struct {
	r             *rtimpl.RevisionPackage
	roots         bool
	ask           rtimpl.AskConfig[Root]
	onListChanged func(ctx context.Context) error
	asker         rtimpl.Asker[Root]
	sent          atomic.Uint64
	// invalid is what the revision refused of the last answer that had
	// roots it refused (by their index in the client's list), and the
	// number of its request.
	invalid atomic.Pointer[refused]
}

// refused is the error naming the roots of one answer its revision
// refused, and which roots/list request it answers.
type refused struct {
	sent uint64
	err  *ValidationError
	uris []string // the URIs of the answer's roots, by index in its list
}

// sentKey is the context key under which Session.roots learns the number
// of the roots/list request its own call sent, if it sent one.
type sentKey struct{}

// Initialize sets the session up for the protocol version the connection
// negotiated and the client capabilities (JSON, as declared at initialize;
// empty or null means none), keeping Request, Timeout, MaxAge, Lenient,
// OnInvalidRoots and OnListChanged as they are now. From then on, version
// decides every request. A version without initialize is an error
// wrapping ErrWrongPath.
func (s *Session) Initialize(version string, capabilities json.RawMessage) error {
	r, err := rtimpl.LookupPackage(version)
	if err != nil {
		return err
	}
	if r.Capabilities == nil {
		return rtimpl.WrongPath(version, "there is no initialize: each request declares the client's capabilities; pass its params to Roots")
	}
	if rtimpl.Absent(capabilities) {
		capabilities = json.RawMessage("{}")
	}
	request := s.Request
	if request == nil {
		return fmt.Errorf("%s: Session.Request is nil: roots/list is a request of its own here", version)
	}
	roots, keep, err := r.Capabilities(capabilities)
	if err != nil {
		return fmt.Errorf("%s: client capabilities: %w", version, err)
	}
	l := &legacySession{r: r, roots: roots, onListChanged: s.OnListChanged}
	l.ask = rtimpl.AskConfig[Root]{
		Timeout:        s.Timeout,
		MaxAge:         s.MaxAge,
		Keep:           keep,
		Paged:          r.Paged,
		Lenient:        s.Lenient,
		OnInvalidRoots: s.OnInvalidRoots,
		Request: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
			n := l.sent.Add(1)
			if mine, ok := ctx.Value(sentKey{}).(*atomic.Uint64); ok {
				mine.Store(n) // the caller that started the request gets its answer
			}
			counters.rootsRequests.Add(1)
			start := time.Now()
			raw, err := request(ctx, r.ListRootsMethod, params)
			s.listed(ctx, version, "request", time.Since(start), 0, err)
			if err == nil && s.Lenient && !r.Paged {
				// Which roots the Asker will leave out, by their index in the
				// list, for the error of RootSet (see joinRefused).
				var v *ValidationError
				if _, invalid, _, derr := r.DecodeListRoots(raw, true); derr == nil && errors.As(invalid, &v) {
					l.invalid.Store(&refused{n, v, listURIs(raw)})
				}
			}
			return raw, err
		},
		Params: r.ListRootsParams,
		Decode: r.DecodeListRoots,
	}
	s.legacy.Store(l)
	return nil
}

// HandleNotification handles a notification from the client. On a session
// initialized for a revision with notifications/roots/list_changed, that
// notification drops the cached roots (the next Roots asks again), then
// calls OnListChanged. Its params may be absent, null or {}; params the
// revision refuses are the error, the roots dropped all the same and
// OnListChanged not called. Other notifications, and any before
// Initialize, are ignored.
func (s *Session) HandleNotification(ctx context.Context, method string, params json.RawMessage) error {
	l := s.legacy.Load()
	if l == nil || l.r.ListChangedMethod == "" || method != l.r.ListChangedMethod {
		return nil
	}
	l.asker.Invalidate() // whatever its params, the notification says the roots changed
	var err error
	if len(params) > 0 {
		err = l.r.CheckListChanged(params)
	}
	if err == nil && l.onListChanged != nil {
		err = l.onListChanged(ctx)
	}
	return err
}

// Invalidate drops the cached roots, if any: the next Roots asks again.
func (s *Session) Invalidate() {
	if l := s.legacy.Load(); l != nil {
		l.asker.Invalidate()
	}
}

// Version returns the protocol version the session was initialized for,
// or "" before Initialize.
func (s *Session) Version() string {
	if l := s.legacy.Load(); l != nil {
		return l.r.Version
	}
	return ""
}

// Roots returns the client's roots for the request being served, whose
// JSON params are params (empty or null when it has none):
//
//   - Initialized where roots/list is a request of its own: the cached
//     roots while they may be trusted (see MaxAge), else the answer to a
//     new roots/list. Errors wrap ErrNoRootsCapability (nothing was sent)
//     or ErrNoAnswer (no answer within Timeout).
//   - Never initialized, for a request whose _meta names a revision where
//     roots/list travels in inputRequests: the roots in its inputResponses
//     (with a Sealer, once its requestState opens); else an
//     [*InputRequiredError], [*MissingCapabilityError] or
//     [*MalformedRequestError].
//
// Other errors wrap ErrMalformedVersion, ErrUnknownVersion or ErrWrongPath.
// The roots are the caller's to keep; their Meta and Extra maps are
// shared, so do not modify them.
func (s *Session) Roots(ctx context.Context, params json.RawMessage) ([]Root, error) {
	a, err := s.roots(ctx, params)
	return a.roots, err
}

// RootSet is Roots made into a [RootSet] of the roots' revision. Its
// errors are those of Roots, with a nil set, or, as from [NewRootSet], an
// error naming the roots left out beside a set of the good ones.
//
// Calls share sets, each built once (its roots checked and looked at,
// its links resolved where options ask): where roots/list is a request of
// its own, the calls that get the same answer with the same options, for
// up to 8 option lists, until a new answer (after list_changed,
// Invalidate or MaxAge); for requests that stand alone, those that carry
// the same roots (every member compared) under the same revision and
// options, while the set is younger than a minute (or MaxAge, when
// shorter), up to 16 sets of 4096 roots in all, the least recently used
// dropped first, and an expired one dropped on time. A set built while
// descriptors ran out is not shared. Each caller closes its own set,
// leaving the others usable; what a set keeps open is bounded by the
// process's descriptor budget (see [SetDescriptorBudget]) and closed once
// every caller has closed it and the session has dropped it, as above or
// on [Session.Close].
//
// Where roots/list is a request of its own and the session is Lenient,
// the error beside the set names every root left out, by its index in the
// client's list: those the revision refused and those the set refused.
func (s *Session) RootSet(ctx context.Context, params json.RawMessage, opts ...RootSetOption) (*RootSet, error) {
	a, err := s.roots(ctx, params)
	o := newCallOptions(opts)
	// Not for a client that failed to answer, or whose request is malformed.
	if s.FallBackToBounds && a.version != "" && errors.Is(err, ErrNoRootsCapability) {
		return s.boundsSet(a.version, o)
	}
	switch {
	case err != nil:
		return nil, err
	case a.legacy == nil:
		return s.listSet(a, o, false)
	case a.sent == 0:
		set, err := NewRootSet(a.version, a.roots, opts...)
		err = joinRefused(a.refused, err)
		s.leftOut(&a, err)
		return view(set, o.log, false), err
	}
	key := o.key
	s.mu.Lock()
	if sh := s.sets.byOptions[key]; sh != nil && s.sets.legacy == a.legacy && s.sets.sent == a.sent {
		set := sh.share()
		s.mu.Unlock()
		return view(set, o.log, true), sh.err
	}
	s.mu.Unlock()
	set, err := NewRootSet(a.version, a.roots, opts...)
	if set == nil {
		return nil, err
	}
	err = joinRefused(a.refused, err)
	s.leftOut(&a, err)
	// Keep the set, unless the session keeps one already or has moved on
	// to a newer answer (the set of an older one stays the caller's own).
	s.mu.Lock()
	c, out := &s.sets, set
	var stale []*sharedRootSet
	if !set.starved && s.legacy.Load() == a.legacy && (c.legacy != a.legacy || c.sent <= a.sent) {
		if c.legacy != a.legacy || c.sent != a.sent {
			stale = c.drop()
			*c = rootSetCache{a.legacy, a.sent, make(map[string]*sharedRootSet)}
		}
		if c.byOptions[key] == nil && len(c.byOptions) < maxCachedRootSets {
			sh := &sharedRootSet{set: set, err: err}
			c.byOptions[key], out = sh, sh.share()
		}
	}
	s.mu.Unlock()
	release(stale)
	return view(out, o.log, false), err
}

// Close closes the RootSets the session keeps (see [Session.RootSet]) as
// soon as the callers holding them have closed theirs. Call it when the
// connection ends; the session stays usable.
func (s *Session) Close() error {
	s.mu.Lock()
	stale := s.sets.drop()
	for _, e := range s.lists.sets {
		stale = append(stale, e.sh)
	}
	if s.lists.timer != nil {
		s.lists.timer.Stop()
	}
	s.lists = listSetCache{}
	s.mu.Unlock()
	return release(stale)
}

// answer is what roots found: the roots and their version and, from a
// legacy session, which of its roots/list requests they answer.
type answer struct {
	version string
	roots   []Root
	legacy  *legacySession   // nil for a request that stands alone
	sent    uint64           // the request whose answer roots is; 0 when not known
	refused *ValidationError // the roots of the answer its revision refused, if known
	uris    []string         // with refused, where known, the URIs of the answer's roots, by index
}

// uri returns the URI of the root at index i of the client's list, when
// known: roots holds the list but the roots of refused, in order.
func (a *answer) uri(i int) (string, bool) {
	if a.uris != nil {
		if i < len(a.uris) {
			return a.uris[i], true
		}
		return "", false
	}
	j := i // i's index in roots
	if a.refused != nil {
		gone := rootIndexes(a.refused)
		if gone[i] {
			return "", false
		}
		for k := range gone {
			if k < i {
				j--
			}
		}
	}
	if j < len(a.roots) {
		return a.roots[j].URI, true
	}
	return "", false
}

func (s *Session) roots(ctx context.Context, params json.RawMessage) (answer, error) {
	r, l, err := s.versionOf(params)
	if err != nil {
		return answer{}, err
	}
	a := answer{version: r.Version, legacy: l}
	if s.Ask != nil && !s.Ask(r.Revision) {
		return a, fmt.Errorf("%s: %w", r.Version, errNotAsked)
	}
	if l != nil {
		if !l.roots {
			return a, fmt.Errorf("%s: %w", r.Version, ErrNoRootsCapability)
		}
		// The roots answer the request this call sent, if any (the Asker
		// gives its starter its answer); else, when none was sent during
		// the call, the last one sent before it: the one the Asker cached,
		// or the one this call joined.
		before := l.sent.Load()
		var mine atomic.Uint64
		a.roots, err = l.asker.Roots(context.WithValue(ctx, sentKey{}, &mine), &l.ask)
		if !errors.Is(err, ErrNoRootsCapability) {
			s.deprecated(r, true) // asked, or answered from what was asked
		}
		if err != nil {
			return a, fmt.Errorf("%s: %w", r.Version, err)
		}
		if n := mine.Load(); n != 0 {
			a.sent = n
		} else if l.sent.Load() == before {
			a.sent = before // 0 when none was sent
		}
		if v := l.invalid.Load(); v != nil && a.sent != 0 && v.sent == a.sent {
			a.refused, a.uris = v.err, v.uris
		}
		return a, nil
	}
	if r.DecodeRequest == nil {
		return a, rtimpl.WrongPath(r.Version, "roots/list is a request of its own here, and the session was not initialized")
	}
	var left *refused
	if a.roots, left, err = s.ask(ctx, r, params); left != nil {
		a.refused, a.uris = left.err, left.uris
	}
	return a, err
}

// versionOf returns the revision a request is served under, and the
// legacy session serving it, if any: an initialized session's version
// whatever the request (see Session), else the one its _meta names.
func (s *Session) versionOf(params json.RawMessage) (*rtimpl.RevisionPackage, *legacySession, error) {
	l := s.legacy.Load()
	named, key, err := metaVersion(params)
	switch {
	case err != nil:
		return nil, nil, err
	case l == nil && named == "":
		return nil, nil, fmt.Errorf("%w: the session was not initialized and the request names no protocol version", ErrUnknownVersion)
	case l == nil:
		r, err := rtimpl.LookupPackage(named)
		return r, nil, err
	case named != "" && named != l.r.Version:
		return nil, nil, rtimpl.WrongPath(l.r.Version, fmt.Sprintf("the session was initialized for this version, which a request cannot change: its _meta[%q] names %s", key, named))
	}
	return l.r, l, nil
}

// metaVersion returns the protocol version a request's _meta names, and
// under which key; "" when it names none.
func metaVersion(params json.RawMessage) (version, key string, err error) {
	if rtimpl.Absent(params) {
		return "", "", nil
	}
	var probe struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(params, &probe); err != nil {
		return "", "", fmt.Errorf("request params: %w", err)
	}
	for _, r := range rtimpl.Registered() {
		k := r.VersionKey
		raw, ok := probe.Meta[k]
		if k == "" || !ok {
			continue
		}
		var named string // not the result: its address would move it to the heap on every call
		if err := json.Unmarshal(raw, &named); err != nil {
			return "", "", fmt.Errorf("%w: _meta[%q] is %s, not a string", ErrMalformedVersion, k, raw)
		}
		if _, err := rtimpl.LookupPackage(named); err != nil {
			return "", "", err
		}
		return named, k, nil
	}
	return "", "", nil
}

// ask serves a request that stands alone under r: the roots it carries in
// inputResponses (when Lenient, the valid ones, and what its revision
// refused of the list), or the input_required result that asks for them.
func (s *Session) ask(ctx context.Context, r *rtimpl.RevisionPackage, params json.RawMessage) ([]Root, *refused, error) {
	req, err := r.DecodeRequest(params)
	if err != nil {
		return nil, nil, err
	}
	if req.Missing != nil {
		return nil, nil, &MissingCapabilityError{Version: r.Version, Object: req.Missing}
	}
	key := cmp.Or(s.InputKey, DefaultInputKey)
	var bind StateBinding
	if s.Sealer != nil {
		if bind, err = stateBinding(ctx, r.Version, params); err != nil {
			return nil, nil, err
		}
	}
	if !req.Answered(key) {
		var state string
		if s.RequestState != nil {
			state = s.RequestState(params)
		}
		if s.Sealer != nil {
			if state, err = s.Sealer.Seal([]byte(state), bind); err != nil {
				return nil, nil, err
			}
		}
		raw, err := r.AskForRoots(key, state)
		if err != nil {
			return nil, nil, err
		}
		counters.inputRequired.Add(1)
		return nil, nil, &InputRequiredError{Version: r.Version, Key: key, RequestState: state, Result: raw}
	}
	s.deprecated(r, false)
	if s.Sealer != nil {
		if _, err := s.Sealer.Open(req.RequestState, bind); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r.Version, err)
		}
	}
	roots, invalid, err := req.Roots(key, s.Lenient)
	var left *refused
	if v := (*ValidationError)(nil); errors.As(invalid, &v) {
		left = &refused{err: v, uris: listURIs(member(member(params, "inputResponses"), key))}
	}
	counters.answers.Add(1)
	s.listed(ctx, r.Version, "input_required", 0, len(roots)+countRoots(left), err)
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("%s: %w", r.Version, err)
	case invalid != nil && !s.Lenient:
		return nil, nil, fmt.Errorf("%s: %w", r.Version, invalid)
	case invalid != nil && s.OnInvalidRoots != nil:
		s.OnInvalidRoots(invalid)
	}
	return roots, left, nil
}

// A DecodedRequest is a request that stands alone (its revision carries
// roots/list in inputRequests) as an SDK decoded it: what
// Session.DecodedRootSet needs of it, without its JSON.
type DecodedRequest struct {
	Version string // the protocol version its _meta names; "" for none
	// Capabilities: the request's _meta declares the client's
	// capabilities (an object); Roots: they include roots.
	Capabilities, Roots bool
	// Answered: the request carries the client's answer under the
	// session's input key, whose roots are Answer, or which could not be
	// read as a roots/list result, for the reason AnswerError gives.
	Answered     bool
	Answer       []Root
	AnswerError  error
	RequestState string // the requestState the request brought back
	// Binding is the request a sealed requestState belongs to, its Params
	// set (see SalientParams); used only with a Sealer.
	Binding StateBinding
}

// DecodedRootSet is RootSet for a request that stands alone, as an SDK
// decoded it: the same checks and shared sets, no JSON decoded again.
// Whatever Lenient, and without OnInvalidRoots, roots that break the
// revision's rules are left out with an error naming them beside the set,
// as from NewRootSet. Its [*InputRequiredError] has no Result: the SDK
// answers with its own types, from Key and RequestState.
func (s *Session) DecodedRootSet(req DecodedRequest, opts ...RootSetOption) (*RootSet, error) {
	if req.Version == "" {
		return nil, fmt.Errorf("%w: the request names no protocol version", ErrUnknownVersion)
	}
	r, err := rtimpl.LookupPackage(req.Version)
	if err != nil {
		return nil, err
	}
	switch {
	case r.MissingRoots == nil:
		return nil, rtimpl.WrongPath(r.Version, "roots/list is a request of its own here: serve the session, not the request")
	case !req.Capabilities:
		return nil, rtimpl.Malformed(r.Version, errors.New("_meta declares no client capabilities"))
	case s.Ask != nil && !s.Ask(r.Revision):
		if s.FallBackToBounds {
			return s.boundsSet(r.Version, newCallOptions(opts))
		}
		return nil, fmt.Errorf("%s: %w", r.Version, errNotAsked)
	case !req.Roots && s.FallBackToBounds:
		return s.boundsSet(r.Version, newCallOptions(opts))
	case !req.Roots:
		return nil, &MissingCapabilityError{Version: r.Version, Object: r.MissingRoots()}
	}
	key := cmp.Or(s.InputKey, DefaultInputKey)
	if !req.Answered {
		var state string
		if s.Sealer != nil {
			if state, err = s.Sealer.Seal(nil, req.Binding); err != nil {
				return nil, err
			}
		}
		counters.inputRequired.Add(1)
		return nil, &InputRequiredError{Version: r.Version, Key: key, RequestState: state}
	}
	s.deprecated(r, false)
	if s.Sealer != nil {
		if _, err := s.Sealer.Open(req.RequestState, req.Binding); err != nil {
			return nil, fmt.Errorf("%s: %w", r.Version, err)
		}
	}
	counters.answers.Add(1)
	s.listed(context.Background(), r.Version, "input_required", 0, len(req.Answer), req.AnswerError)
	if req.AnswerError != nil {
		return nil, fmt.Errorf("%s: %w", r.Version, req.AnswerError)
	}
	return s.listSet(answer{version: r.Version, roots: req.Answer}, newCallOptions(opts), false)
}

// errNotAsked: Ask chose not to ask the client for its roots. It matches
// ErrNoRootsCapability: the server has no roots of the client's to use.
var errNotAsked error = notAsked{}

type notAsked struct{}

func (notAsked) Error() string {
	return "the server chose not to ask clients of this revision for roots"
}
func (notAsked) Is(target error) bool { return target == ErrNoRootsCapability }

// boundsSet is the set of the directories of the Bounds among o's
// options, as roots of version, for FallBackToBounds.
func (s *Session) boundsSet(version string, o callOptions) (*RootSet, error) {
	c := newRootSetConfig(o.opts)
	if !c.bounded {
		return nil, fmt.Errorf("%s: %w, and FallBackToBounds has no Bounds option to fall back to", version, ErrNoRootsCapability)
	}
	roots := make([]Root, len(c.bounds))
	for i, dir := range c.bounds {
		// The file URI of an absolute directory, POSIX or Windows (C:\x is
		// file:///C:/x); one not absolute keeps its text, and the set refuses it.
		if c.windows {
			dir = "/" + strings.ReplaceAll(dir, `\`, "/")
		}
		roots[i] = Root{URI: (&url.URL{Scheme: "file", Path: dir}).String(), Name: "bounds"}
	}
	o.key = "bounds only\x00" + o.key
	return s.listSet(answer{version: version, roots: roots}, o, true)
}

// deprecated calls OnDeprecatedRoots for a use of roots on r; session: by
// the initialized session (see Session.OnDeprecatedRoots).
func (s *Session) deprecated(r *rtimpl.RevisionPackage, session bool) {
	if s.OnDeprecatedRoots != nil && r.Deprecated && !(session && s.warned.Swap(true)) {
		s.OnDeprecatedRoots(r.Version)
	}
}

// State returns the state the session's RequestState gave when it asked
// for roots, as the request being served (with these JSON params) brings
// it back: with a Sealer, once it opens as for Roots; without, as the
// client sent it, unchecked, or nil when there is none. Params the
// revision refuses are a [*MalformedRequestError], as with Roots; a
// revision without requestState is an error wrapping ErrWrongPath.
func (s *Session) State(ctx context.Context, params json.RawMessage) ([]byte, error) {
	r, l, err := s.versionOf(params)
	if err != nil {
		return nil, err
	}
	if l != nil || r.DecodeRequest == nil {
		return nil, rtimpl.WrongPath(r.Version, "requests carry no requestState")
	}
	req, err := r.DecodeRequest(params)
	if err != nil {
		return nil, err
	}
	if s.Sealer == nil {
		if req.RequestState == "" {
			return nil, nil
		}
		return []byte(req.RequestState), nil
	}
	b, err := stateBinding(ctx, r.Version, params)
	if err != nil {
		return nil, err
	}
	state, err := s.Sealer.Open(req.RequestState, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Version, err)
	}
	return state, nil
}

// InputRequiredError is the error of [Session.Roots] for a request whose
// revision carries roots/list inside an InputRequiredResult and which does
// not carry the answer yet. Send Result as its result; the client retries
// it with its roots in inputResponses[Key], which Roots then returns. It
// wraps ErrInputRequired.
type InputRequiredError struct {
	Version string // the request's protocol version
	Key     string // the key of the roots/list entry in inputRequests
	// RequestState is Result's requestState, sealed with a Sealer, for an
	// SDK that builds the result from its own types: an inputRequests entry
	// roots/list under Key, with empty params, and this requestState.
	RequestState string
	// Result is the InputRequiredResult to send, as JSON; nil from
	// [Session.DecodedRootSet].
	Result json.RawMessage
}

// Error says that the request must be answered with Result.
func (e *InputRequiredError) Error() string {
	return fmt.Sprintf("%s: %v: answer the request with the result that asks for inputRequests[%q]", e.Version, ErrInputRequired, e.Key)
}

// Unwrap returns ErrInputRequired.
func (e *InputRequiredError) Unwrap() error { return ErrInputRequired }

// MissingCapabilityError is the error of [Session.Roots] for a request
// whose _meta does not declare the roots capability, on a revision where
// such a request gets error -32021 (MissingRequiredClientCapability);
// nothing was asked. Answer with Object as the JSON-RPC response's error
// member, over HTTP with status HTTPStatus(). It wraps ErrNoRootsCapability.
type MissingCapabilityError struct {
	Version string // the request's protocol version
	// Object is the error member to send: code -32021, a message, and
	// data.requiredCapabilities naming the roots capability ({"roots":{}}).
	Object *RPCError
}

// Error returns the version, code and message.
func (e *MissingCapabilityError) Error() string {
	return fmt.Sprintf("%s: %v: JSON-RPC error %d: %s", e.Version, ErrNoRootsCapability, e.Object.Code, e.Object.Message)
}

// Unwrap returns ErrNoRootsCapability.
func (e *MissingCapabilityError) Unwrap() error { return ErrNoRootsCapability }

// HTTPStatus is 400 (Bad Request), which the Streamable HTTP transport of
// the revisions with error -32021 requires for a response carrying it.
func (e *MissingCapabilityError) HTTPStatus() int { return 400 }

// RootSet is a set of roots read by the rules of one revision, as the gate
// builds it: a [RootSetOf] of [Root] that says which revision. Its methods
// are RootSetOf's, and [RootSetOf] says what each refuses and how.
type RootSet struct {
	*rootSet
	of      *RootSetOf[Root] // the same set, for the methods that return roots
	version string
}

// Version returns the protocol version whose rules the set follows.
func (s *RootSet) Version() string { return s.version }

// NewRootSet builds the set of roots under version, by the rules of that
// revision's package. Roots that break them are left out, and the error
// names each by its index (roots[3].uri) while the set keeps the valid
// ones: check the error to refuse the list instead. An unknown or
// malformed version is an error with a nil set.
func NewRootSet(version string, roots []Root, opts ...RootSetOption) (*RootSet, error) {
	r, err := rtimpl.LookupPackage(version)
	if err != nil {
		return nil, err
	}
	set, err := NewRootSetOf(roots, func(r *Root) string { return r.URI }, r.CheckRoot, opts...)
	set.revision = version
	return &RootSet{set.rootSet, set, version}, err
}

// Roots is [RootSetOf.Roots]: the valid roots, in the order given.
func (s *RootSet) Roots() []Root { return s.of.Roots() }

// Which is [RootSetOf.Which]: the root that holds p, read as text.
func (s *RootSet) Which(p string) (Root, bool) { return s.of.Which(p) }

// WhichResolved is [RootSetOf.WhichResolved]: the root that holds what p
// resolves to.
func (s *RootSet) WhichResolved(p string) (Root, bool, error) { return s.of.WhichResolved(p) }

// Resolve is [RootSetOf.Resolve]: the path p really names, and the root
// that holds it.
func (s *RootSet) Resolve(p string) (string, Root, error) { return s.of.Resolve(p) }

// Share is [RootSetOf.Share]: another view of the set, closed on its own.
func (s *RootSet) Share() *RootSet {
	of := s.of.Share()
	return &RootSet{of.rootSet, of, s.version}
}

// callOptions are the options of one call of a Session, with what the
// Session needs of them: key, which tells option lists apart for its
// caches, and the refusal log of the call's view (see LogRefusals).
type callOptions struct {
	opts []RootSetOption
	key  string
	log  *refusalLog
}

func newCallOptions(opts []RootSetOption) callOptions {
	if len(opts) == 0 {
		return callOptions{key: noOptionsKey} // asked on every call of a server that sets none
	}
	c := newRootSetConfig(opts)
	return callOptions{opts, c.key(), c.log}
}

var noOptionsKey = newRootSetConfig(nil).key()

// key is what sets built with c have in common: all of c but log.
func (c rootSetConfig) key() string {
	return fmt.Sprintf("resolve=%t windows=%t bounded=%t bounds=%q readLimit=%d maxRoots=%d", c.resolve, c.windows, c.bounded, c.bounds, c.readLimit, c.maxRoots)
}

// rootSetCache holds the RootSets a Session built for one answer of its
// legacy session (the roots/list request numbered sent), by options.
type rootSetCache struct {
	legacy    *legacySession
	sent      uint64
	byOptions map[string]*sharedRootSet
}

// drop empties the cache and returns the sets it held, for release
// outside the Session's lock.
func (c *rootSetCache) drop() []*sharedRootSet {
	sets := slices.Collect(maps.Values(c.byOptions))
	*c = rootSetCache{}
	return sets
}

// release closes a cache's view of each of sets.
func release(sets []*sharedRootSet) error {
	var errs []error
	for _, sh := range sets {
		errs = append(errs, sh.set.Close())
	}
	return errors.Join(errs...)
}

// sharedRootSet is a RootSet a Session's cache keeps, with what NewRootSet
// said of the roots it left out. The cache hands out views of it (share);
// the directories close when the cache and every caller closed theirs.
type sharedRootSet struct {
	set *RootSet
	err error
}

// share returns a view of the set for one caller.
func (sh *sharedRootSet) share() *RootSet {
	return sh.set.Share()
}

// listSet returns the RootSet, built with the call's options o, of the
// roots a request standing alone carried (or, boundsOnly, the server's
// directories to fall back to): the one kept for the same list, or a new
// one. The roots the revision refused, a.refused, are part of the list.
func (s *Session) listSet(a answer, o callOptions, boundsOnly bool) (*RootSet, error) {
	key := listKey{version: a.version, options: o.key, roots: rootsDigest(a.roots)}
	if a.refused != nil {
		key.options += "\x00refused " + a.refused.Error()
	}
	now := time.Now()
	ttl := listSetTTL
	if s.MaxAge > 0 && s.MaxAge < ttl {
		ttl = s.MaxAge
	}
	s.mu.Lock()
	stale := s.lists.expire(now, ttl)
	if sh := s.lists.get(key); sh != nil {
		set := sh.share()
		s.mu.Unlock()
		release(stale)
		return view(set, o.log, true), sh.err
	}
	s.mu.Unlock()
	release(stale)
	// The request carries the list: its roots are anchored when it, or a
	// later request with the same list, first uses them.
	set, err := NewRootSet(a.version, a.roots, append(o.opts[:len(o.opts):len(o.opts)], anchorOnUse)...)
	if set == nil {
		return nil, err
	}
	set.boundsOnly = boundsOnly
	// The roots the revision refused went to OnInvalidRoots (see ask):
	// the error names the others, by their index in the client's list.
	s.leftOut(&a, joinRefused(a.refused, err))
	err = inList(a.refused, err)
	if set.starved { // built short of descriptors: the caller's alone
		return view(set, o.log, false), err
	}
	sh := &sharedRootSet{set: set, err: err}
	out := sh.share()
	s.mu.Lock()
	stale = s.lists.put(listSet{key: key, sh: sh, built: now, roots: len(a.roots)})
	if s.lists.timer == nil {
		s.lists.timer = time.AfterFunc(ttl, func() { s.expireLists(ttl) })
	}
	s.mu.Unlock()
	release(stale)
	return view(out, o.log, false), err
}

// expireLists drops the list sets older than ttl, and runs again while
// any are kept: a set is dropped on time, not only when a request comes.
func (s *Session) expireLists(ttl time.Duration) {
	now := time.Now()
	s.mu.Lock()
	stale := s.lists.expire(now, ttl)
	if len(s.lists.sets) > 0 {
		oldest := slices.MinFunc(s.lists.sets, func(a, b listSet) int { return a.built.Compare(b.built) })
		s.lists.timer = time.AfterFunc(ttl-now.Sub(oldest.built), func() { s.expireLists(ttl) })
	} else {
		s.lists.timer = nil
	}
	s.mu.Unlock()
	release(stale)
}

// The bounds of a Session's caches: the option lists it keeps a RootSet
// of its legacy session's answer for, and those of its listSetCache.
const (
	maxCachedRootSets = 8
	listSetTTL        = time.Minute
	maxListSets       = 16
	maxListSetRoots   = 4096
)

// listSetCache holds the RootSets a Session built for the roots lists of
// requests that stand alone, the most recently used last.
type listSetCache struct {
	sets  []listSet
	roots int         // the roots the sets hold, in all
	timer *time.Timer // runs expireLists while sets are kept
}

// listKey is what a listSetCache keeps a set under.
type listKey struct {
	version, options string
	roots            [sha256.Size]byte
}

// listSet is a RootSet of a listSetCache.
type listSet struct {
	key   listKey
	sh    *sharedRootSet
	built time.Time
	roots int
}

// get returns the set kept under key, now the most recently used, or nil.
func (c *listSetCache) get(key listKey) *sharedRootSet {
	for i, e := range c.sets {
		if e.key == key {
			copy(c.sets[i:], c.sets[i+1:])
			c.sets[len(c.sets)-1] = e
			return e.sh
		}
	}
	return nil
}

// put keeps e, unless a set is kept under its key already, and returns
// the sets dropped to make room (or e's own), for release.
func (c *listSetCache) put(e listSet) []*sharedRootSet {
	if c.get(e.key) != nil || e.roots > maxListSetRoots {
		return []*sharedRootSet{e.sh}
	}
	var out []*sharedRootSet
	for len(c.sets) > 0 && (len(c.sets) >= maxListSets || c.roots+e.roots > maxListSetRoots) {
		out = append(out, c.sets[0].sh)
		c.roots -= c.sets[0].roots
		c.sets = c.sets[1:]
	}
	c.sets = append(c.sets, e)
	c.roots += e.roots
	return out
}

// expire drops the sets built ttl or longer before now.
func (c *listSetCache) expire(now time.Time, ttl time.Duration) (out []*sharedRootSet) {
	c.sets = slices.DeleteFunc(c.sets, func(e listSet) bool {
		if now.Sub(e.built) < ttl {
			return false
		}
		out, c.roots = append(out, e.sh), c.roots-e.roots
		return true
	})
	return out
}

// rootsDigest tells roots lists apart: a digest of every member of every
// root, each with its length, and of how many members Extra has.
func rootsDigest(roots []Root) [sha256.Size]byte {
	buf := make([]byte, 0, 512) // on the stack, for a list of a few roots
	field := func(b string) {
		buf = binary.AppendUvarint(buf, uint64(len(b)))
		buf = append(buf, b...)
	}
	for _, r := range roots {
		field(r.URI)
		field(r.Name)
		var meta []byte // sorted keys; nil, as for no Meta, when it cannot be written
		if r.Meta != nil {
			meta, _ = json.Marshal(r.Meta)
		}
		field(string(meta))
		buf = binary.AppendUvarint(buf, uint64(len(r.Extra)))
		if len(r.Extra) > 0 { // Sorted allocates, even for no keys
			for _, k := range slices.Sorted(maps.Keys(r.Extra)) {
				field(k)
				field(string(r.Extra[k]))
			}
		}
	}
	return sha256.Sum256(buf)
}

// joinRefused is the one error naming every root of a client's list that
// a set left out: refused, those the revision refused before the set was
// built (by their index in the list; nil for none), and set, the error of
// the set built from the others, whose indexes count only those. The
// paths of the result are the list's.
func joinRefused(refused *ValidationError, set error) error {
	if refused == nil {
		return set
	}
	var v *ValidationError
	if set != nil && !errors.As(set, &v) {
		return errors.Join(refused, set)
	}
	return &ValidationError{Type: "RootSet", Problems: byRoot(append(slices.Clone(refused.Problems), inListProblems(refused, v)...))}
}

// inList is set, the error of a set built from a client's list but the
// roots of refused, with each root named by its index in the list.
func inList(refused *ValidationError, set error) error {
	var v *ValidationError
	if refused == nil || !errors.As(set, &v) {
		return set
	}
	if problems := inListProblems(refused, v); len(problems) > 0 {
		return &ValidationError{Type: "RootSet", Problems: byRoot(problems)}
	}
	return nil
}

// inListProblems are the problems of v (nil for none), about a set built
// from a client's list but the roots of refused, with each root named by
// its index in the list.
func inListProblems(refused, v *ValidationError) []Problem {
	if v == nil {
		return nil
	}
	gone := rootIndexes(refused)
	out := make([]Problem, 0, len(v.Problems))
	for _, p := range v.Problems {
		if j, rest, ok := rootsIndex(p.Path); ok {
			i := 0 // the list's index of the j-th root kept
			for k := 0; ; i++ {
				if !gone[i] {
					if k == j {
						break
					}
					k++
				}
			}
			p.Path = "roots[" + strconv.Itoa(i) + "]" + rest
		}
		out = append(out, p)
	}
	return out
}

// byRoot sorts problems by the index of the root each names, stably.
func byRoot(problems []Problem) []Problem {
	slices.SortStableFunc(problems, func(a, b Problem) int {
		i, _, _ := rootsIndex(a.Path)
		j, _, _ := rootsIndex(b.Path)
		return cmp.Compare(i, j)
	})
	return problems
}

// rootIndexes are the indexes of the roots v's problems name.
func rootIndexes(v *ValidationError) map[int]bool {
	out := map[int]bool{}
	for _, p := range v.Problems {
		if i, _, ok := rootsIndex(p.Path); ok {
			out[i] = true
		}
	}
	return out
}

// rootsIndex reads a path that starts "roots[i]": i and the rest.
func rootsIndex(path string) (int, string, bool) {
	rest, ok := strings.CutPrefix(path, "roots[")
	if !ok {
		return 0, "", false
	}
	end := strings.IndexByte(rest, ']')
	i, err := strconv.Atoi(rest[:max(end, 0)])
	if end < 0 || err != nil {
		return 0, "", false
	}
	return i, rest[end+1:], true
}
