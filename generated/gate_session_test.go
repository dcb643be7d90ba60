package generated_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
	"github.com/rootsgen/rootsgen/testdata/gotest/gatepeer"
)

// These tests run the gate's server side, Session, against the gate's
// own client side on every revision the gate serves, the way a server
// uses it: one call, sess.Roots(ctx, params), whatever the revision. They
// check what the revisions' generated code brings to the Session (their
// capabilities, decoders, errors and wire shapes); what the Session and
// its RootSet do whatever the revision (single flight, timeouts, panics,
// the file methods) is tested in rootsrt, where it is written.

const versionKey = "io.modelcontextprotocol/protocolVersion"

// testMeta names the _meta members where requests stand alone.
var testMeta = gatepeer.Meta{VersionKey: versionKey, CapsKey: "io.modelcontextprotocol/clientCapabilities"}

// gateAsk asks for roots as a server does on every revision, and plays the
// client's part when the answer is an input_required result: it answers
// the inputRequests with the peer and retries. rounds counts the
// input_required results.
func gateAsk(t *testing.T, ctx context.Context, sess *rootsgate.Session, peer *gatepeer.Peer, rev rootsgate.Revision, caps string) (roots []rootsgate.Root, rounds int, err error) {
	t.Helper()
	roots, err = sess.Roots(ctx, testMeta.Params(rev, caps, nil))
	var ir *rootsgate.InputRequiredError
	if !errors.As(err, &ir) {
		return roots, 0, err
	}
	if !errors.Is(err, rootsgate.ErrInputRequired) || ir.Version != rev.Version || ir.Key != rootsgate.DefaultInputKey {
		t.Errorf("input required: %v (%+v)", err, ir)
	}
	want := `{"inputRequests":{"roots":{"method":"roots/list","params":{}}},"resultType":"input_required"}`
	if string(ir.Result) != want {
		t.Errorf("input_required result %s, want %s", ir.Result, want)
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
	// gateRootsA has a root with _meta and a member no revision defines:
	// both must come through every conversion.
	gateRootsA = []rootsgate.Root{
		{URI: "file:///work/a", Name: "a", Meta: map[string]any{"k": "v"}, Extra: map[string]json.RawMessage{"x-color": json.RawMessage(`"blue"`)}},
		{URI: "file:///work/b"},
	}
	gateRootsB = []rootsgate.Root{{URI: "file:///work/c", Name: "c"}}
)

// The same call gets the roots on every revision: asked once and cached
// until list_changed where roots/list is a request, asked through
// input_required on each request where it is embedded; a change of roots
// is seen on the next call after the notification, or on the next request.
func TestGateSessionRoots(t *testing.T) {
	ctx := context.Background()
	for _, rev := range rootsgate.Revisions() {
		t.Run(rev.Version, func(t *testing.T) {
			peer := gatepeer.New(gateRootsA...)
			caps := gatepeer.Caps(rev)
			sess := peer.Session(t, rev, caps)
			var changed atomic.Int32
			sess.OnListChanged = func(context.Context) error { changed.Add(1); return nil }
			if rev.DirectRequest {
				// OnListChanged is read at Initialize.
				if err := sess.Initialize(rev.Version, json.RawMessage(caps)); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 2 {
				roots, rounds, err := gateAsk(t, ctx, sess, peer, rev, caps)
				if err != nil || !reflect.DeepEqual(roots, gateRootsA) {
					t.Fatalf("call %d: Roots = %+v, %v; want %+v", i, roots, err, gateRootsA)
				}
				if rev.InputRequests && rounds != 1 {
					t.Errorf("call %d: %d input_required rounds, want 1 on each request", i, rounds)
				}
				if rev.DirectRequest && (rounds != 0 || peer.Asks.Load() != 1) {
					t.Errorf("call %d: %d rounds, %d roots/list requests; want 0 and 1 (the cache serves the second call)", i, rounds, peer.Asks.Load())
				}
			}
			peer.Set(gateRootsB...)
			if rev.ListChanged {
				if err := sess.HandleNotification(ctx, "notifications/roots/list_changed", nil); err != nil {
					t.Fatal(err)
				}
				if changed.Load() != 1 {
					t.Errorf("OnListChanged called %d times, want 1", changed.Load())
				}
			}
			roots, _, err := gateAsk(t, ctx, sess, peer, rev, caps)
			if err != nil || !reflect.DeepEqual(roots, gateRootsB) {
				t.Errorf("after the change: Roots = %+v, %v; want %+v", roots, err, gateRootsB)
			}
			if rev.DirectRequest && peer.Asks.Load() != 2 {
				t.Errorf("%d roots/list requests, want 2", peer.Asks.Load())
			}
			if rev.InputRequests && peer.Asks.Load() != 0 {
				t.Errorf("%d roots/list requests sent where roots/list is embedded", peer.Asks.Load())
			}
			// Invalidate drops the cache too.
			sess.Invalidate()
			peer.Set(gateRootsA...)
			if roots, _, err := gateAsk(t, ctx, sess, peer, rev, caps); err != nil || !reflect.DeepEqual(roots, gateRootsA) {
				t.Errorf("after Invalidate: Roots = %+v, %v", roots, err)
			}
		})
	}
}

// A client that did not declare roots is asked nothing: ErrNoRootsCapability
// on every revision, and where the revision has it, the -32021 error to
// send, with its HTTP status.
func TestGateSessionNoCapability(t *testing.T) {
	ctx := context.Background()
	for _, rev := range rootsgate.Revisions() {
		t.Run(rev.Version, func(t *testing.T) {
			peer := gatepeer.New(gateRootsA...)
			sess := peer.Session(t, rev, `{}`)
			for _, responses := range []json.RawMessage{nil, json.RawMessage(`{"roots":{"roots":[]}}`)} {
				roots, err := sess.Roots(ctx, testMeta.Params(rev, `{}`, responses))
				if !errors.Is(err, rootsgate.ErrNoRootsCapability) || roots != nil {
					t.Fatalf("Roots = %v, %v; want ErrNoRootsCapability", roots, err)
				}
				var missing *rootsgate.MissingCapabilityError
				if rev.DirectRequest {
					if errors.As(err, &missing) {
						t.Errorf("-32021 on %s, which has no such error: %v", rev.Version, err)
					}
					continue
				}
				if !errors.As(err, &missing) {
					t.Fatalf("%v is not a *MissingCapabilityError", err)
				}
				got, _ := json.Marshal(missing.Object)
				const want = `{"code":-32021,"message":"Server requires the roots capability for this request","data":{"requiredCapabilities":{"roots":{}}}}`
				if string(got) != want || missing.HTTPStatus() != 400 || missing.Version != rev.Version {
					t.Errorf("error member %s, HTTP %d, version %s; want %s, 400, %s", got, missing.HTTPStatus(), missing.Version, want, rev.Version)
				}
			}
			if n := peer.Asks.Load(); n != 0 {
				t.Errorf("%d roots/list requests sent to a client without roots", n)
			}
		})
	}
}

// gateLegacy returns the revisions where roots/list is a request.
func gateLegacy() []rootsgate.Revision {
	return slices.DeleteFunc(rootsgate.Revisions(), func(r rootsgate.Revision) bool { return !r.DirectRequest })
}

// A root's _meta and unknown members survive every conversion: answered by
// the gate's Client, read by RootsFromAnswer, and found by a RootSet.
func TestGateRootFidelity(t *testing.T) {
	ctx := context.Background()
	for _, rev := range rootsgate.Revisions() {
		t.Run(rev.Version, func(t *testing.T) {
			c := gatepeer.New(gateRootsA...).Client
			var answer json.RawMessage
			if rev.DirectRequest {
				out, err := c.HandleRequest(ctx, rev.Version, "roots/list", nil)
				if err != nil {
					t.Fatal(err)
				}
				answer = out
			} else {
				out, _, err := c.AnswerInputRequests(ctx, rev.Version, json.RawMessage(`{"roots":{"method":"roots/list","params":{}}}`))
				if err != nil {
					t.Fatal(err)
				}
				answer = testMeta.Params(rev, `{"roots":{}}`, out)
			}
			for _, member := range []string{`"_meta":{"k":"v"}`, `"x-color":"blue"`} {
				if !strings.Contains(string(answer), member) {
					t.Errorf("answer %s lacks %s", answer, member)
				}
			}
			roots, err := rootsgate.RootsFromAnswer(rev.Version, answer, "roots", false)
			if err != nil || !reflect.DeepEqual(roots, gateRootsA) {
				t.Errorf("RootsFromAnswer = %+v, %v; want %+v", roots, err, gateRootsA)
			}
			set, err := rootsgate.NewRootSet(rev.Version, roots)
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := set.Which("/work/a/x"); !ok || !reflect.DeepEqual(r, gateRootsA[0]) {
				t.Errorf("Which = %+v, %t; want %+v", r, ok, gateRootsA[0])
			}
		})
	}
}

// Each revision where roots/list is a request of its own reads
// roots.listChanged from the capabilities declared at initialize: a client
// that declared roots without it is asked on every call (one that declared
// it is asked once, TestGateSessionRoots). How long an answer is kept, and
// MaxAge, are the runtime's, tested in rootsrt.
func TestGateSessionNoListChanged(t *testing.T) {
	for _, rev := range gateLegacy() {
		peer := gatepeer.New(gateRootsA...)
		sess := peer.Session(t, rev, `{"roots":{}}`)
		for range 2 {
			if roots, err := sess.Roots(context.Background(), nil); err != nil || !reflect.DeepEqual(roots, gateRootsA) {
				t.Fatalf("%s: Roots = %+v, %v", rev.Version, roots, err)
			}
		}
		if n := peer.Asks.Load(); n != 2 {
			t.Errorf("%s: %d roots/list requests for two calls, want 2", rev.Version, n)
		}
	}
}

// An answer with a bad root: strict, an error naming it and no roots;
// lenient, the good roots and the bad one reported, on every revision.
func TestGateSessionLenient(t *testing.T) {
	const answer = `{"roots":[{"uri":"file:///ok"},{"uri":"https://bad"}]}`
	for _, rev := range rootsgate.Revisions() {
		t.Run(rev.Version, func(t *testing.T) {
			for _, lenient := range []bool{false, true} {
				var reported []error
				sess := &rootsgate.Session{
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
						t.Errorf("strict: %+v, %v, reported %v; want an error naming roots[1].uri", roots, err, reported)
					}
					continue
				}
				if err != nil || !reflect.DeepEqual(roots, []rootsgate.Root{{URI: "file:///ok"}}) || len(reported) != 1 || !strings.Contains(reported[0].Error(), "roots[1]") {
					t.Errorf("lenient: %+v, %v, reported %v; want the good root and roots[1] reported", roots, err, reported)
				}
			}
		})
	}
}

// A request whose _meta leaves out the client capabilities, or gives
// them as null or as anything but an object, is malformed: Roots,
// RootSet and State refuse it with a MalformedRequestError (-32602, HTTP
// 400) that does not match ErrNoRootsCapability, as does a request whose
// capabilities or other members have the wrong type. Capabilities that
// are an object without roots are still the -32021 error, and a request
// without _meta names no version at all.
func TestGateSessionCapabilitiesOmitted(t *testing.T) {
	ctx := context.Background()
	served := 0
	for _, rev := range rootsgate.Revisions() {
		if rev.DirectRequest {
			continue // capabilities come with initialize there
		}
		served++
		t.Run(rev.Version, func(t *testing.T) {
			peer := gatepeer.New(gateRootsA...)
			sess := peer.Session(t, rev, `{}`)
			version := `"` + versionKey + `":"` + rev.Version + `"`
			const capsKey = `"io.modelcontextprotocol/clientCapabilities"`
			for _, tc := range []struct{ params, reason string }{
				{`{"_meta":{` + version + `}}`, "clientCapabilities"},
				{`{"name":"read_file","_meta":{` + version + `,"other":1}}`, "clientCapabilities"},
				{`{"_meta":{` + version + `},"inputResponses":{"roots":{"roots":[]}}}`, "clientCapabilities"},
				{`{"_meta":{` + version + `,` + capsKey + `:null}}`, "clientCapabilities"},
				{`{"_meta":{` + version + `,` + capsKey + `:"roots"}}`, "clientCapabilities"},
				{`{"_meta":{` + version + `,` + capsKey + `:[]}}`, "clientCapabilities"},
				{`{"_meta":{` + version + `,` + capsKey + `:true},"inputResponses":{"roots":{"roots":[]}}}`, "clientCapabilities"},
				{`{"_meta":{` + version + `,` + capsKey + `:{"roots":5}}}`, "roots"},
				{`{"_meta":{` + version + `,` + capsKey + `:{}},"inputResponses":7}`, "inputResponses"},
			} {
				roots, err := sess.Roots(ctx, json.RawMessage(tc.params))
				set, setErr := sess.RootSet(ctx, json.RawMessage(tc.params))
				_, stateErr := sess.State(ctx, json.RawMessage(tc.params))
				for _, e := range []error{err, setErr, stateErr} {
					var bad *rootsgate.MalformedRequestError
					if !errors.As(e, &bad) {
						t.Fatalf("%s: %v is not a *MalformedRequestError", tc.params, e)
					}
					if !errors.Is(e, rootsgate.ErrMalformedRequest) || errors.Is(e, rootsgate.ErrNoRootsCapability) || bad.HTTPStatus() != 400 || bad.Version != rev.Version {
						t.Errorf("%s: %v, HTTP %d; want ErrMalformedRequest, not ErrNoRootsCapability, 400", tc.params, e, bad.HTTPStatus())
					}
					obj, merr := json.Marshal(bad.Object)
					if merr != nil || !strings.HasPrefix(string(obj), `{"code":-32602,"message":"Invalid params","data":{"reason":"request params: `) || !strings.Contains(string(obj), tc.reason) {
						t.Errorf("%s: error object %s (%v); want -32602 Invalid params whose data.reason names %s", tc.params, obj, merr, tc.reason)
					}
				}
				if roots != nil || set != nil {
					t.Errorf("%s: roots %v, set %v; want none", tc.params, roots, set)
				}
			}
			// Capabilities that are an object, without roots: -32021.
			for _, caps := range []string{`{}`, `{"sampling":{}}`} {
				params := `{"_meta":{` + version + `,` + capsKey + `:` + caps + `},"inputResponses":{"roots":{"roots":[]}}}`
				_, err := sess.Roots(ctx, json.RawMessage(params))
				var missing *rootsgate.MissingCapabilityError
				if !errors.As(err, &missing) || missing.Object.Code != -32021 || missing.HTTPStatus() != 400 ||
					!errors.Is(err, rootsgate.ErrNoRootsCapability) || errors.Is(err, rootsgate.ErrMalformedRequest) {
					t.Errorf("capabilities %s: Roots = %v; want a -32021 *MissingCapabilityError, not a malformed request", caps, err)
				}
			}
			_, err := sess.Roots(ctx, json.RawMessage(`{"name":"read_file"}`))
			if !errors.Is(err, rootsgate.ErrUnknownVersion) {
				t.Errorf("no _meta: Roots = %v; want ErrUnknownVersion", err)
			}
			if n := peer.Asks.Load(); n != 0 {
				t.Errorf("%d roots/list requests sent", n)
			}
		})
	}
	if served == 0 {
		t.Skip("the gate serves no revision whose requests carry their capabilities")
	}
}
