package rtimpl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Root is a root as every revision knows it. Converting to and from a
// revision's Root keeps every member: a revision whose Root has no _meta
// keeps it among the members it does not know.
type Root struct {
	URI  string         `json:"uri"`             // the root's file:// URI
	Name string         `json:"name,omitempty"`  // its display name; empty when it has none
	Meta map[string]any `json:"_meta,omitempty"` // its _meta; nil when it has none
	// Extra holds the members no field above stands for, as the client
	// sent them. encoding/json does not write them.
	Extra map[string]json.RawMessage `json:"-"`
}

// MetaFromExtra moves a _meta member that a revision without Root._meta
// kept among the unknown members into Meta.
func MetaFromExtra(r Root) Root {
	raw, ok := r.Extra["_meta"]
	if !ok {
		return r
	}
	var meta map[string]any
	if json.Unmarshal(raw, &meta) != nil || meta == nil {
		return r // not an object: it stays where it was
	}
	r.Meta, r.Extra = meta, maps.Clone(r.Extra)
	delete(r.Extra, "_meta")
	if len(r.Extra) == 0 {
		r.Extra = nil
	}
	return r
}

// MetaToExtra returns the unknown members of r with its Meta added as
// _meta, for a revision whose Root has no _meta field.
func MetaToExtra(r Root) (map[string]json.RawMessage, error) {
	if r.Meta == nil {
		return r.Extra, nil
	}
	raw, err := json.Marshal(r.Meta)
	if err != nil {
		return nil, fmt.Errorf("root %s: _meta: %w", r.URI, err)
	}
	extra := make(map[string]json.RawMessage, len(r.Extra)+1)
	maps.Copy(extra, r.Extra)
	extra["_meta"] = raw
	return extra, nil
}

// ListRootsFunc lists the roots: the client side's one handler for every
// revision (see client.go, which a kit that never answers roots/list leaves out).
type ListRootsFunc func(ctx context.Context) ([]Root, error)

// Revision says how one protocol revision carries roots.
type Revision struct {
	Version       string // the protocol version, such as "2025-06-18"
	DirectRequest bool   // the server sends roots/list as a request of its own
	InputRequests bool   // roots/list travels inside an InputRequiredResult
	ListChanged   bool   // the client can send notifications/roots/list_changed
	Deprecated    bool   // the revision deprecates roots
}

// A RevisionPackage is what the gate needs of one revision's package,
// which declares it: how the revision carries roots, and the functions of
// its path in terms of the gate's Root, nil where the revision has none.
type RevisionPackage struct {
	Revision
	// VersionKey names the _meta member in which a request names its
	// protocol version, where requests do; "" otherwise.
	VersionKey string
	// CheckRoot adds to v how r, made this revision's Root, breaks its rules.
	CheckRoot func(r *Root, v *Validator, at *Path)
	// Client answers for roots with list, declaring listChanged where the
	// revision has it; nil in a kit without the client side.
	Client func(list ListRootsFunc, listChanged bool) RevisionClient
	// Capabilities (DirectRequest) reads the client capabilities declared
	// at initialize: whether they declare roots, and roots.listChanged
	// where the revision has both the flag and the notification.
	Capabilities func(raw json.RawMessage) (roots, listChanged bool, err error)
	// ListRootsMethod (DirectRequest) is the method that asks for roots,
	// and ListRootsParams its params for the page at cursor (see AskConfig;
	// NoCursor where the request takes none).
	ListRootsMethod string
	ListRootsParams func(cursor string) (json.RawMessage, error)
	// Paged (DirectRequest): answers may come in pages, which a Session follows.
	Paged bool
	// DecodeListRoots (DirectRequest) is AskConfig.Decode, but when not
	// lenient the *ValidationError of invalid roots is err.
	DecodeListRoots func(result json.RawMessage, lenient bool) (roots []Root, invalid error, next string, err error)
	// ListChangedMethod (DirectRequest, ListChanged) names the
	// notification that the roots changed; CheckListChanged reads its params.
	ListChangedMethod string
	CheckListChanged  func(params json.RawMessage) error
	// AskForRoots (InputRequests) is the InputRequiredResult, as JSON,
	// that asks for roots under key, with requestState.
	AskForRoots func(key, requestState string) (json.RawMessage, error)
	// DecodeRequest (InputRequests) reads the params of a request that
	// stands alone, or returns a *MalformedRequestError.
	DecodeRequest func(params json.RawMessage) (StandAlone, error)
	// MissingRoots (InputRequests) is the error (-32021) that answers a
	// request whose capabilities do not declare roots.
	MissingRoots func() *RPCError
}

// CheckAs is the CheckRoot of a revision whose roots to converts and
// validate checks.
func CheckAs[R any](to func(Root) (R, error), validate func(*R) error) func(*Root, *Validator, *Path) {
	return func(r *Root, v *Validator, at *Path) {
		root, err := to(*r)
		if err != nil {
			v.Add(at, err.Error())
			return
		}
		v.AddErr(at, validate(&root))
	}
}

// FromRoots is a revision's roots as the gate's, each converted by from;
// nil stays nil.
func FromRoots[R any](in []R, from func(R) Root) []Root {
	if in == nil {
		return nil
	}
	out := make([]Root, len(in))
	for i, r := range in {
		out[i] = from(r)
	}
	return out
}

// RevisionClient is what a revision's package gives the client side (see
// ListRootsFunc) to answer the server's requests for roots.
type RevisionClient struct {
	HandleRequest       func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *RPCError)
	AnswerInputRequests func(ctx context.Context, inputRequests json.RawMessage) (json.RawMessage, []string, error)
	NotifyListChanged   func(ctx context.Context, send func(ctx context.Context, method string, params json.RawMessage) error) (bool, error)
}

// StandAlone is what a request that stands alone carries.
type StandAlone struct {
	// Missing, when not nil, is the MissingRoots error: the request's
	// capabilities do not declare roots.
	Missing *RPCError
	// Answered reports whether the request carries an answer under key.
	Answered     func(key string) bool
	RequestState string // the requestState the request brought back
	// Roots reads the roots answered under key; lenient keeps the valid
	// ones and reports the others as the *ValidationError invalid.
	Roots func(key string, lenient bool) (roots []Root, invalid error, err error)
}

// gateRevisions are the revisions the gate serves, oldest first: every
// revision of a kit, with one code path (single-revision packages have none).
var gateRevisions []*RevisionPackage

// RegisterRevisions makes revs, oldest first, the revisions the gate
// serves. The kit's front package calls it once, as it is loaded.
func RegisterRevisions(revs ...*RevisionPackage) { gateRevisions = revs }

// Registered returns the revisions the gate serves, oldest first, as
// registered: the caller must not change the slice.
func Registered() []*RevisionPackage { return gateRevisions }

// Revisions returns the revisions the gate serves, oldest first, in a
// slice of the caller's own.
func Revisions() []Revision {
	out := make([]Revision, len(gateRevisions))
	for i, r := range gateRevisions {
		out[i] = r.Revision
	}
	return out
}

// The errors of the gate, for errors.Is. An error returned says more (the
// protocol version, what was refused) and wraps one of these or one the
// revisions share (ErrNoRootsCapability, ErrNoAnswer, ErrOutsideRoots, the
// ErrState errors, ...).
var (
	// ErrMalformedRequest: the request's params are not what its revision
	// requires; see [MalformedRequestError].
	ErrMalformedRequest = errors.New("malformed request")
	// ErrWrongPath: the revision does not carry roots the way the call
	// does (a direct roots/list where it embeds it in inputRequests), or a
	// request's _meta names another version than its [Session]'s.
	ErrWrongPath = errors.New("the protocol version does not carry roots this way")
	// ErrUnknownVersion: the protocol version is a date but not one the
	// gate serves, or no version is known for a request.
	ErrUnknownVersion = errors.New("unknown protocol version")
	// ErrMalformedVersion: the protocol version is not a date (YYYY-MM-DD).
	ErrMalformedVersion = errors.New("malformed protocol version")
)

// Lookup returns how version carries roots. A version that is not a date
// (YYYY-MM-DD) is an error wrapping ErrMalformedVersion; a date that is not
// one of Revisions is an error wrapping ErrUnknownVersion that lists them.
func Lookup(version string) (Revision, error) {
	r, err := lookup(version)
	if err != nil {
		return Revision{}, err
	}
	return r.Revision, nil
}

// LookupPackage is Lookup with the revision's whole package.
func LookupPackage(version string) (*RevisionPackage, error) { return lookup(version) }

func lookup(version string) (*RevisionPackage, error) {
	if !isDate(version) {
		latest := "2006-01-02"
		if n := len(gateRevisions); n > 0 {
			latest = gateRevisions[n-1].Version
		}
		return nil, fmt.Errorf("%w %q: want a date such as %s", ErrMalformedVersion, version, latest)
	}
	if i := slices.IndexFunc(gateRevisions, func(r *RevisionPackage) bool { return r.Version == version }); i >= 0 {
		return gateRevisions[i], nil
	}
	known := make([]string, len(gateRevisions))
	for i, r := range gateRevisions {
		known[i] = r.Version
	}
	return nil, fmt.Errorf("%w: %s is not one this gate serves (%s)", ErrUnknownVersion, version, strings.Join(known, ", "))
}

func isDate(s string) bool {
	if len(s) != len("2006-01-02") {
		return false
	}
	for i := range len(s) {
		dash := i == 4 || i == 7
		if dash && s[i] != '-' || !dash && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// WrongPath is the error, wrapping ErrWrongPath, of a call that takes a
// path version does not carry roots by: what says which.
func WrongPath(version, what string) error { return wrongPath(version, what) }

func wrongPath(version, what string) error {
	return fmt.Errorf("%s: %w: %s", version, ErrWrongPath, what)
}

// Ask is how a server asks for roots under one version: send Method
// (roots/list) with Params as a request; or, where Method is empty, answer
// the client's request with InputRequired, an InputRequiredResult holding
// roots/list under the key given to AskForRoots (nil where Method is set).
type Ask struct {
	Method        string
	Params        json.RawMessage
	InputRequired json.RawMessage
}

// AskForRoots returns how to ask a client for its roots under version.
// clientHasRoots is whether the client declared the roots capability (at
// initialization, or in the request's _meta); without it the error wraps
// ErrNoRootsCapability. key and requestState are used where the version
// embeds the request in an InputRequiredResult. A [Session] does all this,
// and keeps the answer.
func AskForRoots(version string, clientHasRoots bool, key, requestState string) (Ask, error) {
	r, err := lookup(version)
	if err != nil {
		return Ask{}, err
	}
	if !clientHasRoots {
		return Ask{}, fmt.Errorf("%s: %w", version, ErrNoRootsCapability)
	}
	switch {
	case r.ListRootsParams != nil:
		p, err := r.ListRootsParams("")
		return Ask{Method: r.ListRootsMethod, Params: p}, err
	case r.AskForRoots != nil:
		out, err := r.AskForRoots(key, requestState)
		return Ask{InputRequired: out}, err
	}
	return Ask{}, wrongPath(version, "no way to ask for roots")
}

// RootsFromAnswer reads the client's roots under version from its answer:
// the roots/list result of a direct request, or the params of the request
// retried with inputResponses. lenient keeps the valid roots and reports
// the invalid ones in the error. An answer that is one page of several is
// an error wrapping ErrMorePages: a [Session] follows the pages.
func RootsFromAnswer(version string, answer json.RawMessage, key string, lenient bool) ([]Root, error) {
	r, err := lookup(version)
	if err != nil {
		return nil, err
	}
	if Absent(answer) {
		return nil, fmt.Errorf("%s: the answer is empty or null", version)
	}
	switch {
	case r.DecodeListRoots != nil:
		roots, invalid, next, err := r.DecodeListRoots(answer, lenient)
		switch {
		case err != nil:
			return nil, err
		case next != "":
			// Never a part of the list as if it were the whole.
			return nil, fmt.Errorf("%s: %w", version, ErrMorePages)
		}
		return roots, invalid
	case r.DecodeRequest != nil:
		req, err := r.DecodeRequest(answer)
		if err != nil {
			return nil, err
		}
		roots, invalid, err := req.Roots(key, lenient)
		switch {
		case err != nil:
			return nil, err
		case invalid != nil && !lenient:
			return nil, invalid
		}
		return roots, invalid
	}
	return nil, wrongPath(version, "no way to read roots")
}

// Absent reports whether raw, a member's JSON, is empty, white space or
// null: a member a request may leave out.
func Absent(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "null"
}

// MalformedRequestError is the error of [Session.Roots], [Session.RootSet]
// and [Session.State] for a request that stands alone whose params are not
// what its revision requires: most often a _meta without the client
// capabilities (an object) every such request must declare, or a member of
// the wrong type. Whatever it declares, it gets error -32602 (Invalid
// params), not the -32021 of a well-formed request lacking roots; nothing
// was asked. Answer it as for a [MissingCapabilityError]. It wraps
// ErrMalformedRequest and Err, not ErrNoRootsCapability.
type MalformedRequestError struct {
	Version string // the request's protocol version
	// Object is the error member to send: code -32602, "Invalid params",
	// and data.reason saying what is wrong.
	Object *RPCError
	Err    error // what the revision's decoder found
}

// Malformed is the *MalformedRequestError of a request under version
// whose params err says are not what the revision requires.
func Malformed(version string, err error) *MalformedRequestError {
	return &MalformedRequestError{Version: version, Object: InvalidParams(err), Err: err}
}

// Error returns the version and what is wrong.
func (e *MalformedRequestError) Error() string {
	return fmt.Sprintf("%s: %v: %v", e.Version, ErrMalformedRequest, e.Err)
}

// Unwrap returns ErrMalformedRequest and Err.
func (e *MalformedRequestError) Unwrap() []error { return []error{ErrMalformedRequest, e.Err} }

// HTTPStatus is 400 (Bad Request), as for every malformed request.
func (e *MalformedRequestError) HTTPStatus() int { return 400 }
