package rootsrt_test

// The gate over the made-up revisions of gate_fake_test.go: versions and
// the path each takes, the Session's errors, its RootSet caches (one set
// per answer of a legacy session, one per roots list of requests that
// stand alone) and its sealed requestState.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
	"github.com/rootsgen/rootsgen/testdata/gotest/gatepeer"
)

var gateRevisions = []rootsrt.Revision{legacyRev.Revision, quietRev.Revision, inputRev.Revision}

// testMeta names the _meta members of the made-up revisions where
// requests stand alone.
var testMeta = gatepeer.Meta{VersionKey: testVersionKey, CapsKey: testCapsKey}

// gateAsk asks for roots as a server does on every revision, and plays the
// client's part when the answer is an input_required result: it answers
// the inputRequests with the peer and retries. rounds counts the
// input_required results.
func gateAsk(t *testing.T, ctx context.Context, sess *rootsrt.Session, peer *gatepeer.Peer, rev rootsrt.Revision, caps string) (roots []rootsrt.Root, rounds int, err error) {
	t.Helper()
	roots, err = sess.Roots(ctx, testMeta.Params(rev, caps, nil))
	var ir *rootsrt.InputRequiredError
	if !errors.As(err, &ir) {
		return roots, 0, err
	}
	if !errors.Is(err, rootsrt.ErrInputRequired) || ir.Version != rev.Version || ir.Key != rootsrt.DefaultInputKey {
		t.Errorf("input required: %v (%+v)", err, ir)
	}
	var res struct {
		InputRequests json.RawMessage `json:"inputRequests"`
	}
	if err := json.Unmarshal(ir.Result, &res); err != nil {
		t.Fatal(err)
	}
	responses, others, err := peer.Client.AnswerInputRequests(ctx, rev.Version, res.InputRequests)
	if err != nil || others != nil {
		t.Fatalf("AnswerInputRequests: %v, others %q", err, others)
	}
	roots, err = sess.Roots(ctx, testMeta.Params(rev, caps, responses))
	return roots, 1, err
}

var (
	gateRootsA = []rootsrt.Root{{URI: "file:///work/a", Name: "a", Meta: map[string]any{"k": "v"}}, {URI: "file:///work/b"}}
	gateRootsB = []rootsrt.Root{{URI: "file:///work/c", Name: "c"}}
)

func TestGateLookup(t *testing.T) {
	for _, v := range []string{"", "2025-6-18", "v2025-06-18", "2025-06-18x", "2025/06/18", "latest", "2000-01-0a", "２０００-01-01"} {
		_, err := rootsrt.Lookup(v)
		if !errors.Is(err, rootsrt.ErrMalformedVersion) || !strings.Contains(err.Error(), "want a date such as "+inputVersion) {
			t.Errorf("Lookup(%q) = %v, want a malformed-version error showing the latest version", v, err)
		}
	}
	for _, v := range []string{"1999-12-31", "2000-01-02", "2099-12-31"} {
		_, err := rootsrt.Lookup(v)
		if !errors.Is(err, rootsrt.ErrUnknownVersion) || !strings.Contains(err.Error(), "("+legacyVersion+", "+quietVersion+", "+inputVersion+")") {
			t.Errorf("Lookup(%q) = %v, want an unknown-version error listing the served ones", v, err)
		}
	}
	for _, want := range gateRevisions {
		if got, err := rootsrt.Lookup(want.Version); err != nil || got != want {
			t.Errorf("Lookup(%s) = %+v, %v; want %+v", want.Version, got, err, want)
		}
	}
}

// Revisions hands out a copy: changing it changes nothing in the gate.
func TestGateRevisionsIsACopy(t *testing.T) {
	revs := rootsrt.Revisions()
	if !slices.Equal(revs, gateRevisions) {
		t.Fatalf("Revisions() = %+v, want %+v", revs, gateRevisions)
	}
	revs[0].Version, revs[0].DirectRequest = "1999-01-01", !revs[0].DirectRequest
	_ = append(revs[:0], revs[1:]...) // shifts the elements of the caller's copy in place
	if got := rootsrt.Revisions(); !slices.Equal(got, gateRevisions) {
		t.Errorf("Revisions() = %+v after the caller changed its copy", got)
	}
	if _, err := rootsrt.Lookup(legacyVersion); err != nil {
		t.Error(err)
	}
}

// The Client takes the path each version has, and refuses the others.
func TestGateClientPaths(t *testing.T) {
	ctx := context.Background()
	c := gatepeer.New(gateRootsB...).Client
	inputRequests := json.RawMessage(`{"r":{"method":"roots/list"},"e":{"method":"elicitation/create"}}`)
	for _, rev := range gateRevisions {
		out, err := c.HandleRequest(ctx, rev.Version, "roots/list", nil)
		if rev.DirectRequest != (err == nil) || !rev.DirectRequest && !errors.Is(err, rootsrt.ErrWrongPath) || rev.DirectRequest && string(out) != `{"roots":[{"uri":"file:///work/c","name":"c"}]}` {
			t.Errorf("%s: HandleRequest = %s, %v", rev.Version, out, err)
		}
		responses, others, err := c.AnswerInputRequests(ctx, rev.Version, inputRequests)
		if rev.InputRequests != (err == nil) || !rev.InputRequests && !errors.Is(err, rootsrt.ErrWrongPath) ||
			rev.InputRequests && (string(responses) != `{"r":{"roots":[{"uri":"file:///work/c","name":"c"}]}}` || !slices.Equal(others, []string{"e"})) {
			t.Errorf("%s: AnswerInputRequests = %s, %q, %v", rev.Version, responses, others, err)
		}
		var sent []string
		send := func(_ context.Context, method string, params json.RawMessage) error {
			sent = append(sent, method+" "+string(params))
			return nil
		}
		ok, err := c.NotifyListChanged(ctx, rev.Version, send)
		if err != nil || ok != rev.ListChanged || rev.ListChanged != (len(sent) == 1) {
			t.Errorf("%s: NotifyListChanged = %v, %v, sent %q", rev.Version, ok, err, sent)
		}
	}
	// A client without roots is refused with the revision's error.
	_, err := (&rootsrt.Client{}).HandleRequest(ctx, legacyVersion, "roots/list", nil)
	var rpcErr *rootsrt.RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Code != rootsrt.CodeMethodNotFound {
		t.Errorf("no ListRoots: %v", err)
	}
	for _, v := range []string{"2000-13-45", "x"} {
		if _, err := c.HandleRequest(ctx, v, "roots/list", nil); err == nil {
			t.Errorf("HandleRequest(%q) succeeded", v)
		}
		if _, _, err := c.AnswerInputRequests(ctx, v, inputRequests); err == nil {
			t.Errorf("AnswerInputRequests(%q) succeeded", v)
		}
		if ok, err := c.NotifyListChanged(ctx, v, nil); ok || err == nil {
			t.Errorf("NotifyListChanged(%q) = %v, %v", v, ok, err)
		}
	}
}

// AskForRoots says how to ask on each version, and RootsFromAnswer reads
// the answer, strictly or leniently.
func TestGateAskAndAnswer(t *testing.T) {
	for _, rev := range gateRevisions {
		t.Run(rev.Version, func(t *testing.T) {
			if _, err := rtimpl.AskForRoots(rev.Version, false, "roots", ""); !errors.Is(err, rootsrt.ErrNoRootsCapability) || !strings.HasPrefix(err.Error(), rev.Version+": ") {
				t.Errorf("asking a client without roots: %v", err)
			}
			ask, err := rtimpl.AskForRoots(rev.Version, true, "k", "st")
			if err != nil {
				t.Fatal(err)
			}
			roots := `{"roots":[{"uri":"file:///x"},{"uri":"https://bad"}]}`
			answer := json.RawMessage(roots)
			if rev.DirectRequest {
				if ask.Method != "roots/list" || string(ask.Params) != "{}" || ask.InputRequired != nil {
					t.Errorf("AskForRoots = %+v", ask)
				}
			} else {
				const want = `{"inputRequests":{"k":{"method":"roots/list","params":{}}},"requestState":"st","resultType":"input_required"}`
				if ask.Method != "" || ask.Params != nil || string(ask.InputRequired) != want {
					t.Errorf("AskForRoots = %+v, want InputRequired %s", ask, want)
				}
				answer = testMeta.Params(rev, `{"roots":{}}`, json.RawMessage(`{"k":`+roots+`}`))
			}
			if got, err := rtimpl.RootsFromAnswer(rev.Version, answer, "k", false); err == nil || got != nil || !strings.Contains(err.Error(), "roots[1].uri") {
				t.Errorf("strict: %v, %v; want an error naming roots[1].uri and no roots", got, err)
			}
			got, err := rtimpl.RootsFromAnswer(rev.Version, answer, "k", true)
			if !reflect.DeepEqual(got, []rootsrt.Root{{URI: "file:///x"}}) || err == nil || !strings.Contains(err.Error(), "roots[1]") {
				t.Errorf("lenient: %v, %v; want the valid root and an error naming roots[1]", got, err)
			}
			for _, empty := range []string{"", " ", "null", " null "} {
				if _, err := rtimpl.RootsFromAnswer(rev.Version, json.RawMessage(empty), "k", true); err == nil || !strings.Contains(err.Error(), "empty or null") {
					t.Errorf("answer %q: %v", empty, err)
				}
			}
		})
	}
	if _, err := rtimpl.RootsFromAnswer(inputVersion, json.RawMessage(`{"_meta":{}}`), "k", true); !errors.Is(err, rootsrt.ErrMalformedRequest) {
		t.Errorf("a request without capabilities: %v", err)
	}
	if _, err := rtimpl.RootsFromAnswer("2000-01", json.RawMessage(`{}`), "k", true); !errors.Is(err, rootsrt.ErrMalformedVersion) {
		t.Errorf("a malformed version: %v", err)
	}
	// One page of several is never taken for the whole list.
	for _, lenient := range []bool{false, true} {
		page := json.RawMessage(`{"roots":[{"uri":"file:///x"}],"nextCursor":"2"}`)
		if got, err := rtimpl.RootsFromAnswer(legacyVersion, page, "k", lenient); got != nil || !errors.Is(err, rootsrt.ErrMorePages) || !strings.HasPrefix(err.Error(), legacyVersion+": ") {
			t.Errorf("lenient %v, a first page: %v, %v; want no roots and ErrMorePages", lenient, got, err)
		}
	}
}

// The same call gets the roots on every revision: asked once and kept
// until list_changed (or Invalidate) where roots/list is a request, asked
// through input_required on each request where it is embedded.
func TestGateSessionRoots(t *testing.T) {
	ctx := context.Background()
	for _, rev := range gateRevisions {
		t.Run(rev.Version, func(t *testing.T) {
			peer := gatepeer.New(gateRootsA...)
			caps := gatepeer.Caps(rev)
			var changed atomic.Int32
			sess := &rootsrt.Session{Request: peer.Request(rev.Version), OnListChanged: func(context.Context) error { changed.Add(1); return nil }}
			if rev.DirectRequest {
				if err := sess.Initialize(rev.Version, json.RawMessage(caps)); err != nil || sess.Version() != rev.Version {
					t.Fatalf("Initialize: %v; Version() = %q", err, sess.Version())
				}
			} else if sess.Version() != "" {
				t.Errorf("Version() = %q before Initialize", sess.Version())
			}
			for i := range 2 {
				roots, rounds, err := gateAsk(t, ctx, sess, peer, rev, caps)
				if err != nil || !reflect.DeepEqual(roots, gateRootsA) {
					t.Fatalf("call %d: Roots = %+v, %v; want %+v", i, roots, err, gateRootsA)
				}
				if rev.InputRequests && rounds != 1 {
					t.Errorf("call %d: %d input_required rounds, want 1 on each request", i, rounds)
				}
				if rev.DirectRequest && (rounds != 0 || peer.Asks.Load() != int32(i+1) && !rev.ListChanged || peer.Asks.Load() != 1 && rev.ListChanged) {
					t.Errorf("call %d: %d rounds, %d roots/list requests", i, rounds, peer.Asks.Load())
				}
			}
			asked := peer.Asks.Load()
			peer.Set(gateRootsB...)
			if err := sess.HandleNotification(ctx, listChangedMethod, nil); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int32{true: 1}[rev.ListChanged]; changed.Load() != want {
				t.Errorf("OnListChanged called %d times, want %d", changed.Load(), want)
			}
			roots, _, err := gateAsk(t, ctx, sess, peer, rev, caps)
			if err != nil || !reflect.DeepEqual(roots, gateRootsB) {
				t.Errorf("after the change: Roots = %+v, %v; want %+v", roots, err, gateRootsB)
			}
			if rev.DirectRequest && peer.Asks.Load() != asked+1 || rev.InputRequests && peer.Asks.Load() != 0 {
				t.Errorf("%d roots/list requests", peer.Asks.Load())
			}
			sess.Invalidate()
			peer.Set(gateRootsA...)
			if roots, _, err := gateAsk(t, ctx, sess, peer, rev, caps); err != nil || !reflect.DeepEqual(roots, gateRootsA) {
				t.Errorf("after Invalidate: Roots = %+v, %v", roots, err)
			}
		})
	}
}

// A client that did not declare roots is asked nothing: ErrNoRootsCapability
// on every revision, and where requests stand alone the -32021 error to
// send, with its HTTP status.
func TestGateSessionNoCapability(t *testing.T) {
	ctx := context.Background()
	for _, rev := range gateRevisions {
		peer := gatepeer.New(gateRootsA...)
		sess := peer.Session(t, rev, `{}`)
		for _, responses := range []json.RawMessage{nil, json.RawMessage(`{"roots":{"roots":[]}}`)} {
			roots, err := sess.Roots(ctx, testMeta.Params(rev, `{}`, responses))
			if !errors.Is(err, rootsrt.ErrNoRootsCapability) || roots != nil || !strings.HasPrefix(err.Error(), rev.Version+": ") {
				t.Fatalf("%s: Roots = %v, %v; want ErrNoRootsCapability", rev.Version, roots, err)
			}
			var missing *rootsrt.MissingCapabilityError
			if rev.DirectRequest != !errors.As(err, &missing) {
				t.Errorf("%s: %v; a *MissingCapabilityError: %v", rev.Version, err, !rev.DirectRequest)
			}
			if missing != nil && (missing.HTTPStatus() != 400 || missing.Version != rev.Version || !reflect.DeepEqual(missing.Object, missingRoots()) ||
				errors.Is(err, rootsrt.ErrMalformedRequest)) {
				t.Errorf("%s: %+v, HTTP %d", rev.Version, missing, missing.HTTPStatus())
			}
		}
		if n := peer.Asks.Load(); n != 0 {
			t.Errorf("%s: %d roots/list requests sent to a client without roots", rev.Version, n)
		}
	}
}

// A request whose _meta leaves out the client capabilities, or gives
// them as null or as anything but an object, is malformed: Roots,
// RootSet, State and DecodedRootSet refuse it with a
// MalformedRequestError (-32602, HTTP 400) that wraps the decoder's
// error and does not match ErrNoRootsCapability.
func TestGateSessionMalformed(t *testing.T) {
	ctx := context.Background()
	sess := &rootsrt.Session{}
	version := `"` + testVersionKey + `":"` + inputVersion + `"`
	for _, params := range []string{
		`{"_meta":{` + version + `}}`,
		`{"_meta":{` + version + `,"` + testCapsKey + `":null}}`,
		`{"_meta":{` + version + `,"` + testCapsKey + `":[]},"inputResponses":{"roots":{"roots":[]}}}`,
		`{"_meta":{` + version + `,"` + testCapsKey + `":{}},"inputResponses":7}`,
	} {
		roots, err := sess.Roots(ctx, json.RawMessage(params))
		set, setErr := sess.RootSet(ctx, json.RawMessage(params))
		_, stateErr := sess.State(ctx, json.RawMessage(params))
		for _, e := range []error{err, setErr, stateErr} {
			var bad *rootsrt.MalformedRequestError
			if !errors.As(e, &bad) || !errors.Is(e, rootsrt.ErrMalformedRequest) || !errors.Is(e, bad.Err) || errors.Is(e, rootsrt.ErrNoRootsCapability) ||
				bad.HTTPStatus() != 400 || bad.Version != inputVersion || bad.Object.Code != rootsrt.CodeInvalidParams || !strings.HasPrefix(e.Error(), inputVersion+": malformed request: request params: ") {
				t.Errorf("%s: %v; want a MalformedRequestError", params, e)
			}
		}
		if roots != nil || set != nil {
			t.Errorf("%s: roots %v, set %v", params, roots, set)
		}
	}
	_, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: inputVersion, Roots: true, Answered: true})
	if !errors.Is(err, rootsrt.ErrMalformedRequest) || errors.Is(err, rootsrt.ErrNoRootsCapability) {
		t.Errorf("DecodedRootSet without capabilities: %v", err)
	}
	if _, err := sess.Roots(ctx, json.RawMessage(`{"_meta":`)); err == nil || errors.Is(err, rootsrt.ErrMalformedRequest) {
		t.Errorf("params that are not JSON: %v; want an error before any revision reads them", err)
	}
}

// Versions: what a request or Initialize names decides the path, and
// every refusal matches its sentinel.
func TestGateSessionVersions(t *testing.T) {
	ctx := context.Background()
	meta := func(v string) json.RawMessage {
		return json.RawMessage(`{"_meta":{"` + testVersionKey + `":` + v + `,"` + testCapsKey + `":{"roots":{}}}}`)
	}
	fresh := &rootsrt.Session{Request: gatepeer.New().Request("")}
	for _, c := range []struct {
		params json.RawMessage
		want   error
	}{
		{nil, rootsrt.ErrUnknownVersion},
		{json.RawMessage(`null`), rootsrt.ErrUnknownVersion},
		{json.RawMessage(`{"name":"x"}`), rootsrt.ErrUnknownVersion},
		{json.RawMessage(`{"_meta":{"other/protocolVersion":"` + inputVersion + `"}}`), rootsrt.ErrUnknownVersion},
		{meta(`"2001-1-01"`), rootsrt.ErrMalformedVersion},
		{meta(`"latest"`), rootsrt.ErrMalformedVersion},
		{meta(`20010101`), rootsrt.ErrMalformedVersion},
		{meta(`"2030-01-01"`), rootsrt.ErrUnknownVersion},
		{meta(`"` + legacyVersion + `"`), rootsrt.ErrWrongPath}, // a legacy version, on a session never initialized
	} {
		if _, err := fresh.Roots(ctx, c.params); !errors.Is(err, c.want) {
			t.Errorf("Roots(%s) = %v, want %v", c.params, err, c.want)
		}
		if set, err := fresh.RootSet(ctx, c.params); !errors.Is(err, c.want) || set != nil {
			t.Errorf("RootSet(%s) = %v, %v; want %v", c.params, set, err, c.want)
		}
	}
	for _, rev := range gateRevisions {
		err := (&rootsrt.Session{Request: gatepeer.New().Request(rev.Version)}).Initialize(rev.Version, nil)
		if rev.DirectRequest != (err == nil) || err != nil && !errors.Is(err, rootsrt.ErrWrongPath) {
			t.Errorf("Initialize(%s) = %v", rev.Version, err)
		}
		if !rev.DirectRequest {
			continue
		}
		if err := (&rootsrt.Session{}).Initialize(rev.Version, json.RawMessage(`{"roots":{}}`)); err == nil {
			t.Errorf("Initialize(%s) without Request succeeded", rev.Version)
		}
		if err := (&rootsrt.Session{Request: gatepeer.New().Request(rev.Version)}).Initialize(rev.Version, json.RawMessage(`{"roots":[]}`)); err == nil || !strings.Contains(err.Error(), "client capabilities") {
			t.Errorf("Initialize(%s) of malformed capabilities: %v", rev.Version, err)
		}
	}
	for v, want := range map[string]error{"2000-1-01": rootsrt.ErrMalformedVersion, "": rootsrt.ErrMalformedVersion, "2099-01-01": rootsrt.ErrUnknownVersion} {
		if err := fresh.Initialize(v, nil); !errors.Is(err, want) {
			t.Errorf("Initialize(%q) = %v, want %v", v, err, want)
		}
		if set, err := rootsrt.NewRootSet(v, nil); !errors.Is(err, want) || set != nil {
			t.Errorf("NewRootSet(%q) = %v, %v; want %v", v, set, err, want)
		}
		if v == "" {
			want = rootsrt.ErrUnknownVersion // a request that names none, as Roots says
		}
		if _, err := fresh.DecodedRootSet(rootsrt.DecodedRequest{Version: v}); !errors.Is(err, want) {
			t.Errorf("DecodedRootSet(%q) = %v, want %v", v, err, want)
		}
	}
	if _, err := fresh.DecodedRootSet(rootsrt.DecodedRequest{Version: legacyVersion, Capabilities: true, Roots: true}); !errors.Is(err, rootsrt.ErrWrongPath) {
		t.Errorf("DecodedRootSet of a legacy version: %v, want ErrWrongPath", err)
	}
	if _, err := fresh.State(ctx, nil); !errors.Is(err, rootsrt.ErrUnknownVersion) {
		t.Errorf("State of a request naming no version: %v", err)
	}
	// Nothing before Initialize is kept or dropped.
	if err := fresh.HandleNotification(ctx, listChangedMethod, nil); err != nil {
		t.Errorf("HandleNotification before Initialize: %v", err)
	}
	fresh.Invalidate()
}

// On a session initialized for a revision where roots/list is a request of
// its own, that revision decides every request: one whose _meta names
// another version (a field the client writes) is refused with ErrWrongPath,
// whatever the capabilities it declares there. It is never served on the
// input_required path, which would leave the session's capability check
// and Timeout behind, and nothing is sent to the client. A _meta naming the
// session's own version is served as the session.
func TestGateSessionInitializedVersionDecides(t *testing.T) {
	ctx := context.Background()
	for _, rev := range []rootsrt.Revision{legacyRev.Revision, quietRev.Revision} {
		for _, caps := range []string{`{}`, gatepeer.Caps(rev)} {
			peer := gatepeer.New(gateRootsB...)
			sess := peer.Session(t, rev, caps)
			for _, other := range gateRevisions {
				if other.Version == rev.Version {
					continue
				}
				for _, responses := range []string{"", `,"inputResponses":{"roots":{"roots":[{"uri":"file:///elsewhere"}]}}`} {
					params := json.RawMessage(`{"name":"read_file","_meta":{"` + testVersionKey + `":"` + other.Version + `","` + testCapsKey + `":{"roots":{}}}` + responses + `}`)
					roots, err := sess.Roots(ctx, params)
					if !errors.Is(err, rootsrt.ErrWrongPath) || errors.Is(err, rootsrt.ErrInputRequired) || roots != nil || !strings.Contains(err.Error(), other.Version) {
						t.Errorf("initialized %s, caps %s, _meta naming %s: Roots = %v, %v; want ErrWrongPath", rev.Version, caps, other.Version, roots, err)
					}
					if set, err := sess.RootSet(ctx, params); !errors.Is(err, rootsrt.ErrWrongPath) || set != nil {
						t.Errorf("initialized %s, _meta naming %s: RootSet = %v, %v; want ErrWrongPath", rev.Version, other.Version, set, err)
					}
					if state, err := sess.State(ctx, params); !errors.Is(err, rootsrt.ErrWrongPath) || state != nil {
						t.Errorf("initialized %s, _meta naming %s: State = %q, %v; want ErrWrongPath", rev.Version, other.Version, state, err)
					}
				}
			}
			if n := peer.Asks.Load(); n != 0 {
				t.Errorf("caps %s: %d roots/list requests for requests naming another version", caps, n)
			}
			own := json.RawMessage(`{"_meta":{"` + testVersionKey + `":"` + rev.Version + `"}}`)
			roots, err := sess.Roots(ctx, own)
			if caps == `{}` {
				if !errors.Is(err, rootsrt.ErrNoRootsCapability) || peer.Asks.Load() != 0 {
					t.Errorf("_meta naming the session's %s, no roots declared: %v, %d requests", rev.Version, err, peer.Asks.Load())
				}
				continue
			}
			if err != nil || !reflect.DeepEqual(roots, gateRootsB) || peer.Asks.Load() != 1 {
				t.Errorf("_meta naming the session's %s: %v, %v after %d requests; want the roots, asked once", rev.Version, roots, err, peer.Asks.Load())
			}
		}
	}
}

// An answer with a bad root: strict, an error naming it and no roots;
// lenient, the good roots and the bad one reported, on either path.
func TestGateSessionLenient(t *testing.T) {
	const answer = `{"roots":[{"uri":"file:///ok"},{"uri":"https://bad"}]}`
	for _, rev := range []rootsrt.Revision{legacyRev.Revision, inputRev.Revision} {
		for _, lenient := range []bool{false, true} {
			var reported []error
			sess := &rootsrt.Session{
				Request: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
					return json.RawMessage(answer), nil
				},
				Lenient:        lenient,
				OnInvalidRoots: func(err error) { reported = append(reported, err) },
			}
			if rev.DirectRequest {
				if err := sess.Initialize(rev.Version, json.RawMessage(gatepeer.Caps(rev))); err != nil {
					t.Fatal(err)
				}
			}
			roots, err := sess.Roots(context.Background(), testMeta.Params(rev, gatepeer.Caps(rev), json.RawMessage(`{"roots":`+answer+`}`)))
			if !lenient {
				if err == nil || roots != nil || !strings.Contains(err.Error(), "roots[1].uri") || reported != nil {
					t.Errorf("%s strict: %+v, %v, reported %v; want an error naming roots[1].uri", rev.Version, roots, err, reported)
				}
				continue
			}
			if err != nil || !reflect.DeepEqual(roots, []rootsrt.Root{{URI: "file:///ok"}}) || len(reported) != 1 || !strings.Contains(reported[0].Error(), "roots[1]") {
				t.Errorf("%s lenient: %+v, %v, reported %v; want the good root and roots[1] reported", rev.Version, roots, err, reported)
			}
		}
	}
}

// swapDir moves dir aside and puts a new directory in its place whose
// f.txt says content: a set that opened dir before still reads the old
// one through its open directory, a new set reads the new one.
func swapDir(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.Rename(dir, dir+"."+content); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustRootSet is sess.RootSet of params, which must succeed.
func mustRootSet(t *testing.T, sess *rootsrt.Session, params json.RawMessage, opts ...rootsrt.RootSetOption) *rootsrt.RootSet {
	t.Helper()
	set, err := sess.RootSet(context.Background(), params, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// readsAs reads f through set and wants content.
func readsAs(t *testing.T, what string, set *rootsrt.RootSet, f, content string) {
	t.Helper()
	if data, err := set.ReadFile(f); err != nil || string(data) != content {
		t.Errorf("%s: ReadFile = %q, %v; want %q", what, data, err, content)
	}
}

// Session.RootSet on a legacy session shares one set among the calls that
// get the same cached roots and options, so its directories are opened
// once; a new answer, other options, or Session.Close give a new set; and
// closing one caller's set never closes another's.
func TestGateSessionRootSetShared(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	ctx := context.Background()
	for _, rev := range []rootsrt.Revision{legacyRev.Revision, quietRev.Revision} {
		t.Run(rev.Version, func(t *testing.T) {
			dir, f := gatepeer.RootDir(t)
			peer := gatepeer.New(rootsrt.Root{URI: fileURI(dir), Name: "r"})
			sess := peer.Session(t, rev, `{"roots":{"listChanged":true}}`)
			set1 := mustRootSet(t, sess, nil)
			readsAs(t, "first set", set1, f, "one")
			if set1.Version() != rev.Version {
				t.Errorf("Version() = %q", set1.Version())
			}
			swapDir(t, dir, "two")
			set2 := mustRootSet(t, sess, nil)
			if rev.ListChanged {
				readsAs(t, "second set, same cached roots", set2, f, "one")
			} else {
				// Without list_changed, every call asks again: a new answer, a new set.
				readsAs(t, "second set, asked again", set2, f, "two")
				return
			}
			if err := set1.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := set1.ReadFile(f); !errors.Is(err, fs.ErrClosed) {
				t.Errorf("ReadFile on a closed set: %v, want fs.ErrClosed", err)
			}
			if err := set1.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			readsAs(t, "second set, after the first was closed twice", set2, f, "one")
			bounded := mustRootSet(t, sess, nil, rootsrt.Bounds(dir))
			readsAs(t, "set with other options", bounded, f, "two")
			bounded.Close()
			if n := peer.Asks.Load(); n != 1 {
				t.Errorf("%d roots/list requests, want 1", n)
			}
			if err := sess.HandleNotification(ctx, listChangedMethod, nil); err != nil {
				t.Fatal(err)
			}
			fresh := mustRootSet(t, sess, nil)
			readsAs(t, "set after the roots changed", fresh, f, "two")
			readsAs(t, "older set, still held", set2, f, "one")
			set2.Close()
			swapDir(t, dir, "three")
			if err := sess.Close(); err != nil {
				t.Fatal(err)
			}
			readsAs(t, "set held across Session.Close", fresh, f, "two")
			fresh.Close()
			after := mustRootSet(t, sess, nil)
			readsAs(t, "set after Session.Close", after, f, "three")
			after.Close()
			if n := peer.Asks.Load(); n != 2 {
				t.Errorf("%d roots/list requests, want 2", n)
			}
			// A client that announces no change is asked on every call:
			// every call gets a set of its own.
			peer = gatepeer.New(rootsrt.Root{URI: fileURI(dir), Name: "r"})
			sess = peer.Session(t, rev, `{"roots":{}}`)
			a := mustRootSet(t, sess, nil)
			readsAs(t, "unkept answer", a, f, "three")
			swapDir(t, dir, "four")
			b := mustRootSet(t, sess, nil)
			readsAs(t, "next unkept answer", b, f, "four")
			a.Close()
			b.Close()
		})
	}
}

// The session keeps sets for at most 8 option lists of one answer: a
// ninth list gets a set of its own, built each time.
func TestGateSessionRootSetOptionLists(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	dir, f := gatepeer.RootDir(t)
	peer := gatepeer.New(rootsrt.Root{URI: fileURI(dir)})
	sess := peer.Session(t, legacyRev.Revision, `{"roots":{"listChanged":true}}`)
	option := func(i int) rootsrt.RootSetOption { return rootsrt.ReadLimit(int64(1000 + i)) }
	for i := range 9 {
		set := mustRootSet(t, sess, nil, option(i))
		readsAs(t, fmt.Sprint("option list ", i, " before the swap"), set, f, "one") // opens the directory
		set.Close()
	}
	swapDir(t, dir, "two")
	for i := range 9 {
		want := "one"
		if i == 8 {
			want = "two"
		}
		set := mustRootSet(t, sess, nil, option(i))
		readsAs(t, fmt.Sprint("option list ", i), set, f, want)
		set.Close()
	}
}

// Callers that take, use and close sets while the roots change under
// them never find their own set closed: a shared set's directories stay
// open while anyone holds it.
func TestGateSessionRootSetSharedConcurrent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	f := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rev := range []rootsrt.Revision{legacyRev.Revision, inputRev.Revision} {
		peer := gatepeer.New(rootsrt.Root{URI: fileURI(dir)})
		sess := peer.Session(t, rev, `{"roots":{"listChanged":true}}`)
		params := testMeta.RetryParams(rev, rootsrt.Root{URI: fileURI(dir)})
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 100 {
					if g == 0 && i%10 == 0 {
						sess.Invalidate()
					}
					if g == 1 && i%25 == 0 {
						sess.Close()
					}
					set, err := sess.RootSet(ctx, params)
					if err != nil {
						t.Error(err)
						return
					}
					if data, err := set.ReadFile(f); err != nil || string(data) != "x" {
						t.Errorf("%s: ReadFile = %q, %v", rev.Version, data, err)
					}
					if err := set.Close(); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
	}
}

// The answer of a client that declared listChanged is kept past a minute
// when MaxAge is zero; with MaxAge set, it is asked again once MaxAge has
// passed since the request was sent.
func TestGateSessionMaxAgeListChanged(t *testing.T) {
	for _, c := range []struct {
		maxAge time.Duration
		// requests after the first call, a nanosecond before a minute has
		// passed, at the minute, and an hour later
		want [4]int32
	}{{0, [4]int32{1, 1, 1, 1}}, {time.Minute, [4]int32{1, 1, 2, 3}}} {
		t.Run(fmt.Sprintf("MaxAge=%v", c.maxAge), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				peer := gatepeer.New(gateRootsA...)
				sess := &rootsrt.Session{Request: peer.Request(legacyVersion), MaxAge: c.maxAge}
				if err := sess.Initialize(legacyVersion, json.RawMessage(`{"roots":{"listChanged":true}}`)); err != nil {
					t.Fatal(err)
				}
				var got [4]int32
				for i, wait := range []time.Duration{0, time.Minute - time.Nanosecond, time.Nanosecond, time.Hour} {
					time.Sleep(wait)
					if roots, err := sess.Roots(context.Background(), nil); err != nil || !reflect.DeepEqual(roots, gateRootsA) {
						t.Fatalf("call %d: Roots = %+v, %v", i, roots, err)
					}
					got[i] = peer.Asks.Load()
				}
				if got != c.want {
					t.Errorf("roots/list requests after each call %v, want %v", got, c.want)
				}
			})
		})
	}
}

// MaxAge ends the sharing with the answer it ends: the first call after
// it asks again and gets a new set.
func TestGateSessionRootSetMaxAge(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	dir, f := gatepeer.RootDir(t)
	synctest.Test(t, func(t *testing.T) {
		peer := gatepeer.New(rootsrt.Root{URI: fileURI(dir)})
		sess := &rootsrt.Session{Request: peer.Request(legacyVersion), MaxAge: time.Minute}
		if err := sess.Initialize(legacyVersion, json.RawMessage(`{"roots":{}}`)); err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		for i, want := range []string{"one", "one", "two"} {
			if i == 2 {
				time.Sleep(time.Minute)
			}
			set := mustRootSet(t, sess, nil)
			defer set.Close()
			readsAs(t, fmt.Sprint("call ", i), set, f, want)
			if i == 0 {
				swapDir(t, dir, "two")
			}
		}
		if n := peer.Asks.Load(); n != 2 {
			t.Errorf("%d roots/list requests, want 2", n)
		}
	})
}

// Requests that stand alone and carry the same roots, every member
// compared, share one set (built once: a directory swapped between them is
// not seen); a list that differs in any member, or other options, get
// their own; Session.Close and age (a minute, or MaxAge when shorter) end
// the sharing; and DecodedRootSet shares the sets of RootSet.
func TestGateListSetShared(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	rev := inputRev.Revision
	dir, f := gatepeer.RootDir(t)
	uri := fileURI(dir)
	read := func(t *testing.T, sess *rootsrt.Session, params json.RawMessage, opts ...rootsrt.RootSetOption) string {
		t.Helper()
		set := mustRootSet(t, sess, params, opts...)
		defer set.Close()
		data, err := set.ReadFile(f)
		if err != nil {
			return err.Error()
		}
		return string(data)
	}
	sess := &rootsrt.Session{}
	defer sess.Close()
	base := rootsrt.Root{URI: uri, Name: "r", Meta: map[string]any{"k": []any{"v", 1.0}}, Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}}
	one := testMeta.RetryParams(rev, base)
	if got := read(t, sess, one); got != "one" {
		t.Fatalf("first request: %q", got)
	}
	swapDir(t, dir, "two")
	same := []json.RawMessage{
		one,
		testMeta.RetryParams(rev, rootsrt.Root{URI: uri, Name: "r", Meta: map[string]any{"k": []any{"v", 1.0}}}), // Extra is not on the wire
	}
	for i, params := range same {
		if got := read(t, sess, params); got != "one" {
			t.Errorf("the same list again (%d): %q, want the set built for it first", i, got)
		}
	}
	decoded, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true,
		Answer: []rootsrt.Root{{URI: uri, Name: "r", Meta: map[string]any{"k": []any{"v", 1.0}}}}})
	if err != nil {
		t.Fatal(err)
	}
	readsAs(t, "DecodedRootSet of the same list", decoded, f, "one")
	decoded.Close()
	for what, list := range map[string][]rootsrt.Root{
		"another name":           {{URI: uri, Name: "another", Meta: base.Meta}},
		"no name":                {{URI: uri, Meta: base.Meta}},
		"another _meta":          {{URI: uri, Name: "r", Meta: map[string]any{"k": "v"}}},
		"another URI spelling":   {{URI: uri + "/", Name: "r", Meta: base.Meta}},
		"another root after it":  {{URI: uri, Name: "r", Meta: base.Meta}, {URI: "file:///other"}},
		"another root before it": {{URI: "file:///other"}, {URI: uri, Name: "r", Meta: base.Meta}},
	} {
		if got := read(t, sess, testMeta.RetryParams(rev, list...)); got != "two" {
			t.Errorf("a list with %s: %q, want a set of its own", what, got)
		}
	}
	if got := read(t, sess, one, rootsrt.ReadLimit(10)); got != "two" {
		t.Errorf("other options: %q, want a set of their own", got)
	}
	// An unknown member counts, as the revision's decoder keeps it.
	extra := rootsrt.Root{URI: uri, Name: "r", Meta: base.Meta, Extra: map[string]json.RawMessage{"x": json.RawMessage(`2`)}}
	kept, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true, Answer: []rootsrt.Root{extra}})
	if err != nil {
		t.Fatal(err)
	}
	readsAs(t, "a list that differs in an unknown member", kept, f, "two")
	kept.Close()
	// One root whose Extra spells the members of a second root is another
	// list: the digest counts Extra's members. (The second root, "1", is
	// invalid, and the session refuses it rather than serve the first
	// list's set.)
	spelled := rootsrt.Root{URI: uri, Extra: map[string]json.RawMessage{"": json.RawMessage(`1`), "k": json.RawMessage(`{}`)}}
	if set, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true, Answer: []rootsrt.Root{spelled}}); err != nil {
		t.Fatal(err)
	} else {
		set.Close()
	}
	two := []rootsrt.Root{{URI: uri}, {URI: "1", Name: "k", Meta: map[string]any{}}}
	if set, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true, Answer: two}); err == nil {
		set.Close()
		t.Errorf("a list with an invalid root, after a list whose Extra spells it: no error")
	}
	sess.Close()
	if got := read(t, sess, one); got != "two" {
		t.Errorf("after Session.Close: %q, want a new set", got)
	}

	for _, c := range []struct {
		maxAge, life time.Duration
	}{{0, time.Minute}, {time.Hour, time.Minute}, {10 * time.Second, 10 * time.Second}} {
		t.Run(fmt.Sprintf("MaxAge=%v", c.maxAge), func(t *testing.T) {
			dir, f := gatepeer.RootDir(t)
			params := testMeta.RetryParams(rev, rootsrt.Root{URI: fileURI(dir)})
			synctest.Test(t, func(t *testing.T) {
				sess := &rootsrt.Session{MaxAge: c.maxAge}
				defer sess.Close()
				readsAs(t, "first", mustRootSet(t, sess, params), f, "one")
				swapDir(t, dir, "two")
				time.Sleep(c.life - time.Nanosecond)
				readsAs(t, "just before the end of its life", mustRootSet(t, sess, params), f, "one")
				time.Sleep(time.Nanosecond)
				readsAs(t, "at the end of its life", mustRootSet(t, sess, params), f, "two")
			})
		})
	}
}

// The sets of requests that stand alone are bounded: 16 lists, the least
// recently used dropped first, and 4096 roots in all; a list larger than
// that is never kept.
func TestGateListSetBounds(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	rev := inputRev.Revision
	dir, f := gatepeer.RootDir(t)
	uri := fileURI(dir)
	sess := &rootsrt.Session{}
	defer sess.Close()
	list := func(i, size int) json.RawMessage {
		roots := []rootsrt.Root{{URI: uri, Name: fmt.Sprint(i)}}
		for j := 1; j < size; j++ {
			roots = append(roots, rootsrt.Root{URI: fmt.Sprintf("file:///nowhere/%d", j)})
		}
		return testMeta.RetryParams(rev, roots...)
	}
	use := func(params json.RawMessage) string {
		set := mustRootSet(t, sess, params, rootsrt.MaxRoots(5000))
		defer set.Close()
		data, _ := set.ReadFile(f)
		return string(data)
	}
	for i := range 17 {
		use(list(i, 1))
		if i == 0 {
			continue
		}
		use(list(1, 1)) // list 1 stays the most recently used
	}
	swapDir(t, dir, "two")
	if got := use(list(0, 1)); got != "two" {
		t.Errorf("the least recently used of 17 lists: %q, want it dropped", got)
	}
	if got := use(list(1, 1)); got != "one" {
		t.Errorf("a list used again and again: %q, want it kept", got)
	}
	if got := use(list(16, 1)); got != "one" {
		t.Errorf("the last list: %q, want it kept", got)
	}
	// 4097 roots: never kept. 4095 roots: kept, dropping others to fit.
	swapDir(t, dir, "three")
	if got := use(list(100, 4097)); got != "three" {
		t.Errorf("a list of 4097 roots: %q", got)
	}
	swapDir(t, dir, "four")
	if got := use(list(100, 4097)); got != "four" {
		t.Errorf("a list of 4097 roots again: %q, want a new set", got)
	}
	if got := use(list(101, 4095)); got != "four" {
		t.Errorf("a list of 4095 roots: %q", got)
	}
	swapDir(t, dir, "five")
	if got := use(list(101, 4095)); got != "four" {
		t.Errorf("a list of 4095 roots again: %q, want it kept", got)
	}
	if got := use(list(1, 1)); got != "five" {
		t.Errorf("a small list after 4095 roots were kept: %q, want it dropped to fit", got)
	}
}

// Between two calls, a root swapped for a link out of the server's
// directory must not move the set the session keeps, on either path; a
// set built after the swap refuses the root.
func TestGateRootSetSwapBetweenCalls(t *testing.T) {
	ctx := context.Background()
	for _, rev := range []rootsrt.Revision{legacyRev.Revision, inputRev.Revision} {
		t.Run(rev.Version, func(t *testing.T) {
			e := newAnchorTree(t)
			root := rootsrt.Root{URI: fileURI(e.at("data/proj"))}
			peer := gatepeer.New(root)
			sess := peer.Session(t, rev, gatepeer.Caps(rev))
			params := testMeta.RetryParams(rev, root)
			call := func() string {
				t.Helper()
				set, err := sess.RootSet(ctx, params, rootsrt.Bounds(e.at("data")))
				if err != nil {
					t.Fatal(err)
				}
				defer set.Close()
				data, err := set.ReadFile(e.at("data/proj/f"))
				if bytes.Contains(data, []byte("SECRET")) {
					t.Fatalf("ESCAPE: read %q", data)
				}
				if err != nil {
					return err.Error()
				}
				return string(data)
			}
			if got := call(); got != "inside" {
				t.Fatalf("first call: %q", got)
			}
			e.repoint(t, "data/proj", e.at("outside/proj"))
			if got := call(); got != "inside" {
				t.Errorf("second call, after the root was swapped for a link out: %q; want the directory the kept set opened", got)
			}
			if err := sess.Close(); err != nil {
				t.Fatal(err)
			}
			set, err := sess.RootSet(ctx, params, rootsrt.Bounds(e.at("data")))
			if err == nil || !strings.Contains(err.Error(), "roots[0].uri") {
				t.Errorf("a set built after the swap: %v; want the root that leads out refused", err)
			}
			if set != nil {
				if data, _ := set.ReadFile(e.at("data/proj/f")); bytes.Contains(data, []byte("SECRET")) {
					t.Fatalf("ESCAPE: read %q", data)
				}
				set.Close()
			}
		})
	}
}

// Calls, notifications and invalidations at once, for the race detector;
// once they stop, the next call sees the peer's last roots.
func TestGateSessionConcurrent(t *testing.T) {
	for _, rev := range gateRevisions {
		ctx := context.Background()
		peer := gatepeer.New(gateRootsA...)
		caps := gatepeer.Caps(rev)
		sess := peer.Session(t, rev, caps)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				for range 20 {
					if _, _, err := gateAsk(t, ctx, sess, peer, rev, caps); err != nil {
						t.Error(err)
						return
					}
					if i == 0 {
						peer.Set(gateRootsB...)
						_ = sess.HandleNotification(ctx, listChangedMethod, nil)
					}
					if i == 1 {
						sess.Invalidate()
					}
				}
			})
		}
		wg.Wait()
		peer.Set(gateRootsA...)
		sess.Invalidate()
		if roots, _, err := gateAsk(t, ctx, sess, peer, rev, caps); err != nil || !reflect.DeepEqual(roots, gateRootsA) {
			t.Errorf("%s: after the storm: %+v, %v", rev.Version, roots, err)
		}
	}
}

// toolParams are the params of a tools/call of tool with args, on the
// revision whose requests stand alone, with the retry's inputResponses and
// requestState when responses is not nil.
func toolParams(tool, args string, responses json.RawMessage, state string) json.RawMessage {
	p := `{"name":"` + tool + `","arguments":` + args + `,"_meta":{"` + testVersionKey + `":"` + inputVersion + `","` + testCapsKey + `":{"roots":{}}}`
	if responses != nil {
		p += `,"inputResponses":` + string(responses)
	}
	if state != "" {
		s, _ := json.Marshal(state)
		p += `,"requestState":` + string(s)
	}
	return json.RawMessage(p + "}")
}

// sealedSession is a Session with a Sealer on the clock.
func sealedSession(t *testing.T, clock *stateClock, current rootsrt.StateKey, older ...rootsrt.StateKey) *rootsrt.Session {
	t.Helper()
	sealer, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: current, Older: older, TTL: time.Minute, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &rootsrt.Session{Sealer: sealer, RequestState: func(json.RawMessage) string { return "server-state" }}
}

// firstAttempt makes the first attempt of a read_file call and returns
// the client's answer to the inputRequests and the requestState to echo.
func firstAttempt(t *testing.T, ctx context.Context, sess *rootsrt.Session, peer *gatepeer.Peer) (json.RawMessage, string) {
	t.Helper()
	_, err := sess.Roots(ctx, toolParams("read_file", `{"path":"/work/a/x"}`, nil, ""))
	var ir *rootsrt.InputRequiredError
	if !errors.As(err, &ir) {
		t.Fatalf("first attempt: %v, want an *InputRequiredError", err)
	}
	var res struct {
		InputRequests json.RawMessage `json:"inputRequests"`
		RequestState  string          `json:"requestState"`
	}
	if err := json.Unmarshal(ir.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.RequestState == "" || strings.Contains(res.RequestState, "server-state") {
		t.Fatalf("input_required result %s: want a sealed requestState", ir.Result)
	}
	if ir.RequestState != res.RequestState {
		t.Errorf("InputRequiredError.RequestState %q, its Result's %q", ir.RequestState, res.RequestState)
	}
	responses, _, err := peer.Client.AnswerInputRequests(ctx, inputVersion, res.InputRequests)
	if err != nil {
		t.Fatal(err)
	}
	return responses, res.RequestState
}

// The round trip through the Session with a Sealer: the sealed state, in
// the input_required result and in its error's RequestState, opens on the
// retry of the same call by the same principal, which gets its roots, and
// State gives back what RequestState returned. Every other retry is
// refused with the error that says why.
func TestGateSessionSealedState(t *testing.T) {
	clock := &stateClock{stateT0}
	key := rootsrt.StateKey{ID: "k1", Secret: stateSecret1}
	sess := sealedSession(t, clock, key)
	defer sess.Close()
	peer := gatepeer.New(gateRootsA...)
	alice := rootsrt.StateBinding{Principal: "alice", Method: "tools/call"}
	ctx := rootsrt.WithStateBinding(context.Background(), alice)
	responses, state := firstAttempt(t, ctx, sess, peer)
	retry := toolParams("read_file", `{"path":"/work/a/x"}`, responses, state)

	roots, err := sess.Roots(ctx, retry)
	if err != nil || !reflect.DeepEqual(roots, gateRootsA) {
		t.Fatalf("retry: Roots = %+v, %v; want %+v", roots, err, gateRootsA)
	}
	if got, err := sess.State(ctx, retry); err != nil || string(got) != "server-state" {
		t.Errorf("State = %q, %v; want server-state", got, err)
	}
	if set, err := sess.RootSet(ctx, retry); err != nil || len(set.Roots()) != len(gateRootsA) {
		t.Errorf("RootSet: %v", err)
	} else {
		set.Close()
	}

	altered := []byte(state)
	altered[len(altered)-5] ^= 1 // in the tag
	other := rootsrt.WithStateBinding(context.Background(), rootsrt.StateBinding{Principal: "mallory", Method: "tools/call"})
	prompt := rootsrt.WithStateBinding(context.Background(), rootsrt.StateBinding{Principal: "alice", Method: "prompts/get"})
	own := rootsrt.WithStateBinding(context.Background(), rootsrt.StateBinding{Principal: "alice", Method: "tools/call", Params: []byte(`{"mine":true}`)})
	for _, c := range []struct {
		what   string
		ctx    context.Context
		params json.RawMessage
		want   error
	}{
		{"no requestState", ctx, toolParams("read_file", `{"path":"/work/a/x"}`, responses, ""), rootsrt.ErrStateMissing},
		{"altered", ctx, toolParams("read_file", `{"path":"/work/a/x"}`, responses, string(altered)), rootsrt.ErrStateTampered},
		{"forged", ctx, toolParams("read_file", `{"path":"/work/a/x"}`, responses, "server-state"), rootsrt.ErrStateTampered},
		{"another principal", other, retry, rootsrt.ErrStateWrongPrincipal},
		{"another tool", ctx, toolParams("write_file", `{"path":"/work/a/x"}`, responses, state), rootsrt.ErrStateWrongRequest},
		{"other arguments", ctx, toolParams("read_file", `{"path":"/etc/passwd"}`, responses, state), rootsrt.ErrStateWrongRequest},
		{"another method", prompt, retry, rootsrt.ErrStateWrongRequest},
		{"the caller's own params", own, retry, rootsrt.ErrStateWrongRequest},
		{"no binding", context.Background(), retry, rootsrt.ErrStateUnbound},
	} {
		roots, err := sess.Roots(c.ctx, c.params)
		if roots != nil || !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), inputVersion+": ") {
			t.Errorf("%s: Roots = %v, %v; want %v naming %s", c.what, roots, err, c.want, inputVersion)
		}
		if _, err := sess.State(c.ctx, c.params); !errors.Is(err, c.want) {
			t.Errorf("%s: State error %v, want %v", c.what, err, c.want)
		}
		if set, err := sess.RootSet(c.ctx, c.params); set != nil || !errors.Is(err, c.want) {
			t.Errorf("%s: RootSet = %v, %v; want %v", c.what, set, err, c.want)
		}
	}
	// A state the caller binds to its own params opens with them.
	responses2, state2 := firstAttempt(t, own, sess, peer)
	if roots, err := sess.Roots(own, toolParams("other_tool", `{}`, responses2, state2)); err != nil || len(roots) != len(gateRootsA) {
		t.Errorf("own params: Roots = %v, %v", roots, err)
	}
	// Params that SalientParams refuses cannot be bound.
	if _, err := sess.Roots(ctx, json.RawMessage(`{"a":1,"a":2,"_meta":{"`+testVersionKey+`":"`+inputVersion+`","`+testCapsKey+`":{"roots":{}}}}`)); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("params with a duplicate member: %v", err)
	}

	// The expiry, on the sealer's clock.
	clock.now = stateT0.Add(time.Minute - time.Millisecond)
	if _, err := sess.Roots(ctx, retry); err != nil {
		t.Errorf("just before the expiry: %v", err)
	}
	clock.now = stateT0.Add(time.Minute)
	if _, err := sess.Roots(ctx, retry); !errors.Is(err, rootsrt.ErrStateExpired) {
		t.Errorf("at the expiry: %v, want ErrStateExpired", err)
	}
	// Rotation: the old key opens while kept, and not once removed.
	clock.now = stateT0
	rotated := sealedSession(t, clock, rootsrt.StateKey{ID: "k2", Secret: stateSecret2}, key)
	if roots, err := rotated.Roots(ctx, retry); err != nil || len(roots) != len(gateRootsA) {
		t.Errorf("rotated, old key kept: %v", err)
	}
	removed := sealedSession(t, clock, rootsrt.StateKey{ID: "k2", Secret: stateSecret2})
	if _, err := removed.Roots(ctx, retry); !errors.Is(err, rootsrt.ErrStateUnknownKey) {
		t.Errorf("rotated, old key removed: %v, want ErrStateUnknownKey", err)
	}
	// Another service with the same key and another audience.
	sealer, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: key, TTL: time.Minute, Audience: "other-server", Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := &rootsrt.Session{Sealer: sealer}
	if _, err := elsewhere.Roots(ctx, retry); !errors.Is(err, rootsrt.ErrStateWrongAudience) {
		t.Errorf("another audience: %v, want ErrStateWrongAudience", err)
	}
	// An opener whose clock is an hour behind the sealer's.
	clock.now = stateT0.Add(-time.Hour)
	if _, err := sess.Roots(ctx, retry); !errors.Is(err, rootsrt.ErrStateNotYetValid) {
		t.Errorf("issued in the future: %v, want ErrStateNotYetValid", err)
	}
}

// Without a Sealer, the requestState is RequestState's, as it is, in the
// result and in the error's RequestState, and comes back unchecked; the
// error of DecodedRootSet has no result. A Sealer not made by
// NewStateSealer is refused rather than sealing nothing. A Sealer plays no
// part where roots/list is a request of its own.
func TestGateSessionSealerEdges(t *testing.T) {
	ctx := context.Background()
	plain := &rootsrt.Session{RequestState: func(json.RawMessage) string { return "call/1" }}
	_, err := plain.Roots(ctx, toolParams("t", `{}`, nil, ""))
	var ir *rootsrt.InputRequiredError
	if !errors.As(err, &ir) || !bytes.Contains(ir.Result, []byte(`"requestState":"call/1"`)) || ir.RequestState != "call/1" || !strings.Contains(err.Error(), `inputRequests["roots"]`) {
		t.Errorf("without a Sealer: %v; want the plain requestState", err)
	}
	var decoded *rootsrt.InputRequiredError
	if _, err := plain.DecodedRootSet(rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true, Roots: true}); !errors.As(err, &decoded) || decoded.Result != nil {
		t.Errorf("DecodedRootSet without a Sealer: %v; want an *InputRequiredError without a Result", err)
	}
	retry := toolParams("t", `{}`, json.RawMessage(`{"roots":{"roots":[]}}`), "anything")
	if roots, err := plain.Roots(ctx, retry); err != nil || len(roots) != 0 {
		t.Errorf("without a Sealer, any state: %v, %v", roots, err)
	}
	if got, err := plain.State(ctx, retry); err != nil || string(got) != "anything" {
		t.Errorf("without a Sealer: State = %q, %v", got, err)
	}
	if got, err := plain.State(ctx, toolParams("t", `{}`, nil, "")); err != nil || got != nil {
		t.Errorf("without a Sealer or a state: State = %q, %v", got, err)
	}
	keyed := &rootsrt.Session{InputKey: "my-key"}
	if _, err := keyed.Roots(ctx, toolParams("t", `{}`, nil, "")); !errors.As(err, &ir) || ir.Key != "my-key" || !bytes.Contains(ir.Result, []byte(`"my-key":{"method":"roots/list"`)) {
		t.Errorf("InputKey my-key: %v", err)
	}
	if roots, err := keyed.Roots(ctx, toolParams("t", `{}`, json.RawMessage(`{"my-key":{"roots":[{"uri":"file:///k"}]}}`), "")); err != nil || len(roots) != 1 {
		t.Errorf("InputKey my-key, answered: %v, %v", roots, err)
	}
	zero := &rootsrt.Session{Sealer: &rootsrt.StateSealer{}}
	bound := rootsrt.WithStateBinding(ctx, rootsrt.StateBinding{Principal: "p", Method: "tools/call"})
	if _, err := zero.Roots(bound, toolParams("t", `{}`, nil, "")); err == nil || errors.Is(err, rootsrt.ErrInputRequired) {
		t.Errorf("a zero StateSealer: %v; want an error, not an unsealed result", err)
	}
	sealer, err := rootsrt.NewStateSealer(rootsrt.StateSealerConfig{Current: rootsrt.StateKey{ID: "k", Secret: stateSecret1}})
	if err != nil {
		t.Fatal(err)
	}
	peer := gatepeer.New(gateRootsA...)
	legacy := peer.Session(t, legacyRev.Revision, gatepeer.Caps(legacyRev.Revision))
	legacy.Sealer = sealer
	if roots, err := legacy.Roots(ctx, nil); err != nil || len(roots) != len(gateRootsA) {
		t.Errorf("legacy revision with a Sealer, no binding: %v, %v", roots, err)
	}
	if _, err := legacy.State(ctx, nil); !errors.Is(err, rootsrt.ErrWrongPath) {
		t.Errorf("State on a legacy revision: %v, want ErrWrongPath", err)
	}
}

// DecodedRootSet is RootSet for a request an SDK decoded: the same
// checks, errors and sealing, without the JSON. An answer the SDK could
// not read is the error; a state sealed as JSON opens decoded when the
// binding's Params are SalientParams of the request's params.
func TestGateDecodedRootSet(t *testing.T) {
	dir, f := gatepeer.RootDir(t)
	clock := &stateClock{stateT0}
	sess := sealedSession(t, clock, rootsrt.StateKey{ID: "k1", Secret: stateSecret1})
	defer sess.Close()
	bind := rootsrt.StateBinding{Principal: "alice", Method: "tools/call", Params: []byte(`{"name":"t"}`)}
	req := rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true, Roots: true, Binding: bind}
	_, err := sess.DecodedRootSet(req)
	var ir *rootsrt.InputRequiredError
	if !errors.As(err, &ir) || ir.Version != inputVersion || ir.Key != rootsrt.DefaultInputKey {
		t.Fatalf("not answered: %v; want an *InputRequiredError", err)
	}
	// The SDK writes the result itself: the error holds no JSON.
	if ir.RequestState == "" || ir.Result != nil {
		t.Fatalf("not answered: requestState %q, result %s; want a sealed state and no result", ir.RequestState, ir.Result)
	}
	if _, err := sess.Sealer.Open(ir.RequestState, bind); err != nil {
		t.Errorf("the requestState does not open for the binding: %v", err)
	}
	req.Answered, req.RequestState = true, ir.RequestState
	req.Answer = []rootsrt.Root{{URI: fileURI(dir), Name: "r"}, {URI: "http://bad"}}
	set, err := sess.DecodedRootSet(req)
	if set == nil || err == nil || !strings.Contains(err.Error(), "roots[1].uri") || set.Version() != inputVersion {
		t.Fatalf("answered with a bad root: %v, %v; want a set of the good one and the bad one named", set, err)
	}
	readsAs(t, "the answered set", set, f, "one")
	set.Close()
	notRoots := errors.New("not a roots/list result")
	for what, c := range map[string]struct {
		req  rootsrt.DecodedRequest
		want error
	}{
		"no roots capability": {rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true}, rootsrt.ErrNoRootsCapability},
		"no requestState":     {func() rootsrt.DecodedRequest { r := req; r.RequestState = ""; return r }(), rootsrt.ErrStateMissing},
		"another principal": {func() rootsrt.DecodedRequest {
			r := req
			r.Binding.Principal = "mallory"
			return r
		}(), rootsrt.ErrStateWrongPrincipal},
		"an answer not read as roots": {func() rootsrt.DecodedRequest { r := req; r.AnswerError = notRoots; return r }(), notRoots},
	} {
		if set, err := sess.DecodedRootSet(c.req); set != nil || !errors.Is(err, c.want) {
			t.Errorf("%s: %v, %v; want %v", what, set, err, c.want)
		}
	}
	var missing *rootsrt.MissingCapabilityError
	if _, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true}); !errors.As(err, &missing) || missing.Object.Code != -32021 {
		t.Errorf("no roots capability: %v; want the revision's -32021 error", err)
	}

	// Sealed as JSON, opened decoded.
	bound := rootsrt.WithStateBinding(context.Background(), rootsrt.StateBinding{Principal: "alice", Method: "tools/call"})
	if _, err := sess.Roots(bound, toolParams("t", `{"path":"/work/a/x"}`, nil, "")); !errors.As(err, &ir) {
		t.Fatalf("first attempt as JSON: %v; want an *InputRequiredError", err)
	}
	salient, err := rootsrt.SalientParams(toolParams("t", `{"path":"/work/a/x"}`, json.RawMessage(`{"roots":{"roots":[]}}`), ir.RequestState))
	if err != nil {
		t.Fatal(err)
	}
	retry := rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true, Roots: true, Answered: true, Answer: []rootsrt.Root{}, RequestState: ir.RequestState,
		Binding: rootsrt.StateBinding{Principal: "alice", Method: "tools/call", Params: salient}}
	if set, err := sess.DecodedRootSet(retry); err != nil {
		t.Errorf("a state sealed as JSON, retried decoded: %v", err)
	} else {
		set.Close()
	}
}

// gateBlockingPeer answers roots/list only when the test says so: each
// request waits for its own answer, in the order the requests came.
type gateBlockingPeer struct {
	mu      sync.Mutex
	answers []chan json.RawMessage
}

func (p *gateBlockingPeer) request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	ch := make(chan json.RawMessage, 1)
	p.mu.Lock()
	p.answers = append(p.answers, ch)
	p.mu.Unlock()
	select {
	case raw := <-ch:
		return raw, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *gateBlockingPeer) asked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.answers)
}

func (p *gateBlockingPeer) answer(i int, roots ...rootsrt.Root) {
	raw, _ := json.Marshal(map[string]any{"roots": roots})
	p.mu.Lock()
	ch := p.answers[i]
	p.mu.Unlock()
	ch <- raw
}

// Concurrent callers share one roots/list; a client that never answers
// costs each caller the timeout (by default the revision's), and the
// error says so.
func TestGateSessionSingleFlightAndTimeout(t *testing.T) {
	for _, rev := range []rootsrt.Revision{legacyRev.Revision} {
		t.Run(rev.Version, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				peer := new(gateBlockingPeer)
				sess := &rootsrt.Session{Request: peer.request}
				if err := sess.Initialize(rev.Version, json.RawMessage(gatepeer.Caps(rev))); err != nil {
					t.Fatal(err)
				}
				const n = 8
				results := make(chan error, n)
				for range n {
					go func() {
						roots, err := sess.Roots(context.Background(), nil)
						if err == nil && !reflect.DeepEqual(roots, gateRootsB) {
							err = fmt.Errorf("roots %+v", roots)
						}
						results <- err
					}()
				}
				synctest.Wait() // every caller waits on the one request
				if got := peer.asked(); got != 1 {
					t.Fatalf("%d concurrent callers sent %d requests, want 1", n, got)
				}
				peer.answer(0, gateRootsB...)
				for range n {
					if err := <-results; err != nil {
						t.Error(err)
					}
				}

				// No answer: the default timeout, 30 s, in the bubble's clock.
				silent := &rootsrt.Session{Request: new(gateBlockingPeer).request}
				if err := silent.Initialize(rev.Version, json.RawMessage(gatepeer.Caps(rev))); err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				_, err := silent.Roots(context.Background(), nil)
				if !errors.Is(err, rootsrt.ErrNoAnswer) || !strings.HasPrefix(err.Error(), rev.Version+": ") {
					t.Errorf("no answer: %v, want ErrNoAnswer naming %s", err, rev.Version)
				}
				if waited := time.Since(start); waited != 30*time.Second {
					t.Errorf("waited %v, want the default 30s", waited)
				}
				silent = &rootsrt.Session{Request: new(gateBlockingPeer).request, Timeout: time.Second}
				if err := silent.Initialize(rev.Version, json.RawMessage(gatepeer.Caps(rev))); err != nil {
					t.Fatal(err)
				}
				start = time.Now()
				if _, err := silent.Roots(context.Background(), nil); !errors.Is(err, rootsrt.ErrNoAnswer) || time.Since(start) != time.Second {
					t.Errorf("Timeout 1s: %v after %v", err, time.Since(start))
				}
			})
		})
	}
}

// A list_changed handled before a call means the call never gets a list
// the client sent before the change, even when that list arrives later.
func TestGateSessionNoStaleAfterNotification(t *testing.T) {
	for _, rev := range []rootsrt.Revision{legacyRev.Revision} {
		t.Run(rev.Version, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := context.Background()
				peer := new(gateBlockingPeer)
				sess := &rootsrt.Session{Request: peer.request}
				if err := sess.Initialize(rev.Version, json.RawMessage(gatepeer.Caps(rev))); err != nil {
					t.Fatal(err)
				}
				first, second := make(chan []rootsrt.Root, 1), make(chan []rootsrt.Root, 1)
				go func() { roots, _ := sess.Roots(ctx, nil); first <- roots }()
				synctest.Wait() // the first request is in flight
				if err := sess.HandleNotification(ctx, listChangedMethod, json.RawMessage(`{}`)); err != nil {
					t.Fatal(err)
				}
				go func() { roots, _ := sess.Roots(ctx, nil); second <- roots }()
				synctest.Wait()
				if got := peer.asked(); got != 2 {
					t.Fatalf("%d requests, want 2: a call after list_changed must ask again", got)
				}
				peer.answer(1, gateRootsB...) // the new list
				peer.answer(0, gateRootsA...) // the old one, late
				if got := <-second; !reflect.DeepEqual(got, gateRootsB) {
					t.Errorf("call after list_changed got %+v, want %+v", got, gateRootsB)
				}
				<-first
				roots, err := sess.Roots(ctx, nil)
				if err != nil || !reflect.DeepEqual(roots, gateRootsB) || peer.asked() != 2 {
					t.Errorf("cached roots %+v, %v after %d requests; want the new list from the cache", roots, err, peer.asked())
				}
			})
		})
	}
}

// A Request that panics costs its callers an error, not the process, and
// the next call asks again.
func TestGateSessionRequestPanics(t *testing.T) {
	for _, rev := range []rootsrt.Revision{legacyRev.Revision} {
		t.Run(rev.Version, func(t *testing.T) {
			var calls atomic.Int32
			peer := gatepeer.New(gateRootsA...)
			sess := &rootsrt.Session{Request: func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
				if calls.Add(1) == 1 {
					panic("transport exploded")
				}
				return peer.Request(rev.Version)(ctx, method, params)
			}}
			if err := sess.Initialize(rev.Version, json.RawMessage(gatepeer.Caps(rev))); err != nil {
				t.Fatal(err)
			}
			if _, err := sess.Roots(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "transport exploded") || !strings.HasPrefix(err.Error(), rev.Version) {
				t.Errorf("panicking Request: %v, want an error naming the panic and the version", err)
			}
			if roots, err := sess.Roots(context.Background(), nil); err != nil || !reflect.DeepEqual(roots, gateRootsA) {
				t.Errorf("after the panic: %+v, %v", roots, err)
			}
		})
	}
}
