package rootsrt

import "github.com/rootsgen/rootsgen/rootsrt/rtimpl"

// The values every revision shares, defined with the code that generated
// packages call (package rtimpl) and named here for servers.

// Root is a root as every revision knows it: URI (the root's file:// URI),
// Name (its display name, empty when it has none), Meta (its _meta, nil
// when it has none) and Extra (the members no field stands for, as the
// client sent them; encoding/json does not write them). Converting to and
// from a revision's Root keeps every member.
type Root = rtimpl.Root

// Revision is how one protocol revision carries roots: its Version (a
// date), whether roots/list is a request of its own (DirectRequest) or
// travels in input_required results (InputRequests), whether it has the
// list_changed notification (ListChanged), and whether it deprecates roots
// (Deprecated).
type Revision = rtimpl.Revision

// ListRootsFunc lists the roots: a [Client]'s one handler for every
// revision.
type ListRootsFunc = rtimpl.ListRootsFunc

// RPCError is a JSON-RPC error object (Code, Message, Data). A handler
// returns one to answer with that error; any other error becomes -32603
// without its text.
type RPCError = rtimpl.RPCError

// JSON-RPC error codes the roots feature answers with.
const (
	CodeMethodNotFound = rtimpl.CodeMethodNotFound
	CodeInvalidParams  = rtimpl.CodeInvalidParams
	CodeInternalError  = rtimpl.CodeInternalError
)

// A ValidationError lists every way a value breaks its revision's rules,
// as Problems (each a JSON path and what is wrong there), in the order
// found; Type is the Go type checked.
type ValidationError = rtimpl.ValidationError

// A Problem is one broken rule: Path, the JSON path of the member at fault
// (such as "roots[2].uri"), and Message, what is wrong with it.
type Problem = rtimpl.Problem

// A DecodeError is JSON that does not fit the type it is decoded into:
// the member at Path (empty for the value itself) of a value of Type, and
// Err, what is wrong with it.
type DecodeError = rtimpl.DecodeError

// MalformedRequestError is the error of [Session.Roots], [Session.RootSet]
// and [Session.State] for a request that stands alone whose params are
// not what its revision requires (most often a _meta without the client
// capabilities): answer it with its Object, error -32602 (Invalid params),
// as for a [MissingCapabilityError]; nothing was asked. It wraps
// ErrMalformedRequest and Err, what the revision's decoder found.
type MalformedRequestError = rtimpl.MalformedRequestError

// The errors of asking for roots, for errors.Is, whichever revision's
// package returned them.
var (
	// ErrNoRootsCapability: the client did not declare roots; nothing was
	// asked.
	ErrNoRootsCapability = rtimpl.ErrNoRootsCapability
	// ErrNoAnswer: the client did not answer roots/list in time.
	ErrNoAnswer = rtimpl.ErrNoAnswer
	// ErrTooManyPages: a paged answer did not end within the pages read.
	ErrTooManyPages = rtimpl.ErrTooManyPages
	// ErrMorePages: one page of several came where the whole list was
	// wanted.
	ErrMorePages = rtimpl.ErrMorePages
	// ErrMalformedRequest: the request's params are not what its revision
	// requires; see [MalformedRequestError].
	ErrMalformedRequest = rtimpl.ErrMalformedRequest
	// ErrWrongPath: the revision does not carry roots the way the call
	// does (a direct roots/list where it embeds it in inputRequests), or a
	// request's _meta names another version than its [Session]'s.
	ErrWrongPath = rtimpl.ErrWrongPath
	// ErrUnknownVersion: the protocol version is a date but not one the
	// gate serves, or no version is known for a request.
	ErrUnknownVersion = rtimpl.ErrUnknownVersion
	// ErrMalformedVersion: the protocol version is not a date (YYYY-MM-DD).
	ErrMalformedVersion = rtimpl.ErrMalformedVersion
)

// DefaultTimeout bounds a roots/list request when a Session's Timeout is
// zero.
const DefaultTimeout = rtimpl.DefaultTimeout

// DefaultMaxPages is how many pages of a paged roots/list answer are read
// at most, by default.
const DefaultMaxPages = rtimpl.DefaultMaxPages

// Revisions returns the revisions the kit's gate serves, oldest first, in
// a slice of the caller's own; none outside a kit.
func Revisions() []Revision { return rtimpl.Revisions() }

// Lookup returns how version carries roots. A version that is not a date
// (YYYY-MM-DD) is an error wrapping ErrMalformedVersion; a date that is not
// one of [Revisions] is an error wrapping ErrUnknownVersion that lists them.
func Lookup(version string) (Revision, error) { return rtimpl.Lookup(version) }
