package generated_test

//lint:file-ignore SA1019 the dispatch paths of every revision are tested, 2026-07-28 included, whose roots symbols are deprecated

// Dispatch tests: the handlers, notifier, server cache and 2026-07-28 shims
// of roots.go, asserting the exact JSON that goes on the wire. The legacy
// revisions (a server's own roots/list request, a list-changed notification)
// share one API shape and run through one table each, reached through the
// per-revision adapters in adapters_test.go, which go generate writes for
// every embedded revision (generated/internal/adapters).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/generated/roots20260728"
)

// ---------------------------------------------------------------------------
// revision-neutral view and adapters

type dRoot struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// dRPC stands for the revision's *RPCError in the tables; adapters turn it
// into the real type.
type dRPC struct {
	code int64
	msg  string
	data any
}

func (e *dRPC) Error() string { return e.msg }

const (
	dHFunc   = iota // Handler is a ListRootsHandlerFunc around fn
	dHNil           // Handler is nil
	dHUnimpl        // Handler is a struct embedding UnimplementedListRootsHandler
)

type dClientCfg struct {
	noCap   bool
	handler int
	// fn sees the progress token's JSON ("" when absent); a nil *[]dRoot is
	// a nil result.
	fn func(ctx context.Context, token string) (*[]dRoot, error)
}

type dServerCfg struct {
	noCap bool
	// With the capability, the client declares roots: {listChanged: true}:
	// its answer is kept until it announces a change.
	lenient       bool
	timeout       time.Duration
	onInvalid     func(error)
	request       func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	onListChanged func(gotParams bool, meta map[string]any) error // nil: OnListChanged unset
}

type dServer struct {
	newReq func() (string, json.RawMessage, error)
	roots  func(context.Context) ([]dRoot, error)
	notify func(context.Context, string, json.RawMessage) error
}

type legacyAPI struct {
	rev        string
	clientType reflect.Type
	// handle returns the result JSON and the marshalled *RPCError (nil when none).
	handle func(context.Context, dClientCfg, string, json.RawMessage) (json.RawMessage, []byte)
	notify func(ctx context.Context, capability, listChanged bool, send func(string, json.RawMessage) error) (bool, error)
	server func(dServerCfg) dServer
	// rpcJSON is the marshalled *RPCError that errors.As finds in err, or nil.
	rpcJSON             func(error) []byte
	errNoCap, errNoAnsw error
}

// viaJSON converts between the neutral and generated types through JSON
// (decoding does not validate, so invalid roots survive it).
func viaJSON[T any](v any) T {
	var out T
	b, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		panic(err)
	}
	return out
}

func errJSON[E any](e *E) []byte {
	if e == nil {
		return nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return b
}

func asJSON[E any, P interface {
	*E
	error
}](err error) []byte {
	var e P
	if !errors.As(err, &e) {
		return nil
	}
	return errJSON((*E)(e))
}

// ---------------------------------------------------------------------------
// 1. Client.HandleRequest

const (
	dNotSupportedCap     = `{"code":-32601,"message":"Roots not supported","data":{"reason":"Client does not have roots capability"}}`
	dNotSupportedHandler = `{"code":-32601,"message":"Roots not supported","data":{"reason":"Client has no roots handler"}}`
	dInternal            = `{"code":-32603,"message":"Internal error"}`
	// Root members come out in schema order: name before uri.
	dTwoRoots = `{"roots":[{"name":"A","uri":"file:///a"},{"uri":"file:///b"}]}`
)

func TestDispatchHandleRequest(t *testing.T) {
	two := &[]dRoot{{URI: "file:///a", Name: "A"}, {URI: "file:///b"}}
	cases := []struct {
		name    string
		noCap   bool
		handler int
		method  string // "" means roots/list
		params  string // "" means nil
		roots   *[]dRoot
		err     error
		// exactly one of want / wantErr, or reasonHas for -32602
		want, wantErr, reasonHas string
		wantCalled               bool
		wantToken                string
	}{
		{name: "two roots, params nil", roots: two, want: dTwoRoots, wantCalled: true},
		{name: "params null", params: `null`, roots: two, want: dTwoRoots, wantCalled: true},
		{name: "params {}", params: `{}`, roots: two, want: dTwoRoots, wantCalled: true},
		{name: "integer progress token", params: `{"_meta":{"progressToken":7}}`, roots: two, want: dTwoRoots, wantCalled: true, wantToken: `7`},
		{name: "string progress token", params: ` {"_meta":{"progressToken":"p-1"}} `, roots: two, want: dTwoRoots, wantCalled: true, wantToken: `"p-1"`},
		{name: "no capability", noCap: true, roots: two, wantErr: dNotSupportedCap},
		{name: "no capability, params {}", noCap: true, params: `{}`, roots: two, wantErr: dNotSupportedCap},
		{name: "nil handler", handler: dHNil, wantErr: dNotSupportedHandler},
		{name: "embedded Unimplemented handler", handler: dHUnimpl, wantErr: dNotSupportedHandler},
		{name: "params array", params: `[]`, roots: two, reasonHas: "ListRootsRequestParams|RequestParams"},
		{name: "_meta not an object", params: `{"_meta":5}`, roots: two, reasonHas: "_meta"},
		{name: "progressToken a float", params: `{"_meta":{"progressToken":1.5}}`, roots: two, reasonHas: "progressToken"},
		{name: "plain error hidden", err: errors.New("secret db password"), wantErr: dInternal, wantCalled: true},
		{name: "RPCError passed through", err: &dRPC{code: -32000, msg: "x"}, wantErr: `{"code":-32000,"message":"x"}`, wantCalled: true},
		{name: "RPCError with data passed through", err: &dRPC{code: -32000, msg: "x", data: map[string]any{"k": "v"}}, wantErr: `{"code":-32000,"message":"x","data":{"k":"v"}}`, wantCalled: true},
		{name: "non-file root refused", roots: &[]dRoot{{URI: "file:///a"}, {URI: "https://example.com/x"}}, wantErr: dInternal, wantCalled: true},
		{name: "relative file root refused", roots: &[]dRoot{{URI: "file:relative"}}, wantErr: dInternal, wantCalled: true},
		// The schema says a root URI "must start with file://", and the TS SDK
		// checks exactly that (z.string().startsWith('file://')) and then
		// rejects the whole result, so the client must not send FILE:///.
		{name: "upper-case scheme refused", roots: &[]dRoot{{URI: "file:///a"}, {URI: "FILE:///b"}}, wantErr: dInternal, wantCalled: true},
		{name: "nil result", want: `{"roots":[]}`, wantCalled: true},
		{name: "empty roots", roots: &[]dRoot{}, want: `{"roots":[]}`, wantCalled: true},
		{name: "unknown method", method: "tools/list", roots: two, wantErr: `{"code":-32601,"message":"Method not found"}`},
		{name: "list_changed is not a request", method: "notifications/roots/list_changed", roots: two, wantErr: `{"code":-32601,"message":"Method not found"}`},
	}
	for _, api := range legacyAPIs {
		for _, tc := range cases {
			t.Run(api.rev+"/"+tc.name, func(t *testing.T) {
				called, token := 0, ""
				cfg := dClientCfg{noCap: tc.noCap, handler: tc.handler, fn: func(_ context.Context, tok string) (*[]dRoot, error) {
					called++
					token = tok
					return tc.roots, tc.err
				}}
				method := dOr(tc.method, "roots/list")
				var params json.RawMessage
				if tc.params != "" {
					params = json.RawMessage(tc.params)
				}
				res, rpcErr := api.handle(context.Background(), cfg, method, params)
				if wantCalls := map[bool]int{true: 1}[tc.wantCalled]; called != wantCalls {
					t.Errorf("handler called %d times, want %d", called, wantCalls)
				}
				if token != tc.wantToken {
					t.Errorf("handler saw progress token %q, want %q", token, tc.wantToken)
				}
				switch {
				case tc.want != "":
					if rpcErr != nil || string(res) != tc.want {
						t.Errorf("got result %s, error %s; want result %s", res, rpcErr, tc.want)
					}
				case tc.wantErr != "":
					if res != nil || string(rpcErr) != tc.wantErr {
						t.Errorf("got result %s, error %s; want error %s", res, rpcErr, tc.wantErr)
					}
					if strings.Contains(string(rpcErr), "secret") {
						t.Errorf("error leaks the handler's text: %s", rpcErr)
					}
				default:
					var e struct {
						Code    int64  `json:"code"`
						Message string `json:"message"`
						Data    struct {
							Reason string `json:"reason"`
						} `json:"data"`
					}
					if res != nil || json.Unmarshal(rpcErr, &e) != nil || e.Code != -32602 || e.Message != "Invalid params" {
						t.Fatalf("got result %s, error %s; want -32602 Invalid params", res, rpcErr)
					}
					if !slices.ContainsFunc(strings.Split(tc.reasonHas, "|"), func(m string) bool { return mentionsMember(e.Data.Reason, m) }) {
						t.Errorf("reason %q does not name %s", e.Data.Reason, tc.reasonHas)
					}
				}
			})
		}
	}
}

func dOr(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// ---------------------------------------------------------------------------
// 2. Client.NotifyListChanged

func TestNotifyListChanged(t *testing.T) {
	boom := errors.New("pipe closed")
	cases := []struct {
		name                    string
		capability, listChanged bool
		sendErr                 error
		wantSends               int
		wantSent                bool
	}{
		{name: "listChanged true", capability: true, listChanged: true, wantSends: 1, wantSent: true},
		{name: "listChanged false", capability: true},
		{name: "no capability"},
		{name: "send error", capability: true, listChanged: true, sendErr: boom, wantSends: 1},
	}
	for _, api := range legacyAPIs {
		for _, tc := range cases {
			t.Run(api.rev+"/"+tc.name, func(t *testing.T) {
				var sends []string
				sent, err := api.notify(context.Background(), tc.capability, tc.listChanged, func(m string, p json.RawMessage) error {
					sends = append(sends, m+" "+string(p))
					return tc.sendErr
				})
				if len(sends) != tc.wantSends || sent != tc.wantSent || !errors.Is(err, tc.sendErr) || (tc.sendErr == nil) != (err == nil) {
					t.Fatalf("sends %q, sent %v, err %v; want %d sends, sent %v, err %v", sends, sent, err, tc.wantSends, tc.wantSent, tc.sendErr)
				}
				for _, s := range sends {
					if s != "notifications/roots/list_changed {}" {
						t.Errorf("sent %q, want notifications/roots/list_changed with params {}", s)
					}
				}
			})
		}
	}
}

// TestNotifyListChangedAbsent2026 checks that 2026-07-28, which dropped
// list_changed, offers no way to send it.
func TestNotifyListChangedAbsent2026(t *testing.T) {
	for _, api := range legacyAPIs {
		if _, ok := api.clientType.MethodByName("NotifyListChanged"); !ok {
			t.Errorf("%s: Client has no NotifyListChanged (the check below would prove nothing)", api.rev)
		}
	}
	typ := reflect.TypeFor[*roots20260728.Client]()
	if _, ok := typ.MethodByName("HandleRequest"); ok {
		t.Error("roots20260728.Client has HandleRequest: roots/list is no JSON-RPC request in 2026-07-28")
	}
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		if strings.Contains(m.Name, "Notify") || strings.Contains(m.Name, "ListChanged") {
			t.Errorf("roots20260728.Client has method %s", m.Name)
		}
	}
	if _, ok := any(&roots20260728.Client{}).(interface {
		NotifyListChanged(context.Context, func(context.Context, roots20260728.Method, json.RawMessage) error) (bool, error)
	}); ok {
		t.Error("roots20260728.Client has NotifyListChanged")
	}
	files, err := filepath.Glob(filepath.Join("roots20260728", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"MethodRootsListChanged", "notifications/roots/list_changed", "SendFunc"} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s mentions %s", f, bad)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// 3. Server: request, cache, list_changed, validation

// dFake is a client answering roots/list with whatever answer holds.
type dFake struct {
	mu     sync.Mutex
	calls  int
	answer string
	err    error
	bad    []string // method/params seen that are not roots/list {}
}

func (f *dFake) request(_ context.Context, m string, p json.RawMessage) (json.RawMessage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if m != "roots/list" || string(p) != "{}" {
		f.bad = append(f.bad, m+" "+string(p))
	}
	if f.err != nil {
		return nil, f.err
	}
	return json.RawMessage(f.answer), nil
}

func (f *dFake) set(answer string) { f.mu.Lock(); f.answer = answer; f.mu.Unlock() }
func (f *dFake) count() int        { f.mu.Lock(); defer f.mu.Unlock(); return f.calls }

func dRoots(t *testing.T, s dServer) []dRoot {
	t.Helper()
	r, err := s.roots(context.Background())
	if err != nil {
		t.Fatalf("Roots: %v", err)
	}
	return r
}

func TestServerNoCapability(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			f := &dFake{answer: `{"roots":[]}`}
			s := api.server(dServerCfg{noCap: true, request: f.request})
			if m, p, err := s.newReq(); !errors.Is(err, api.errNoCap) || m != "" || p != nil {
				t.Errorf("NewListRootsRequest = %q, %s, %v; want ErrNoRootsCapability", m, p, err)
			}
			if r, err := s.roots(context.Background()); !errors.Is(err, api.errNoCap) || r != nil {
				t.Errorf("Roots = %v, %v; want ErrNoRootsCapability", r, err)
			}
			if f.count() != 0 {
				t.Errorf("Request called %d times without a capability", f.count())
			}
			s = api.server(dServerCfg{request: f.request})
			if m, p, err := s.newReq(); err != nil || m != "roots/list" || string(p) != "{}" {
				t.Errorf("NewListRootsRequest = %q, %s, %v; want roots/list, {}", m, p, err)
			}
		})
	}
}

func TestServerCacheAndListChanged(t *testing.T) {
	first, second := []dRoot{{URI: "file:///a", Name: "A"}}, []dRoot{{URI: "file:///b"}, {URI: "file:///c"}}
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			f := &dFake{answer: `{"roots":[{"uri":"file:///a","name":"A"}]}`}
			type call struct {
				gotParams bool
				meta      map[string]any
			}
			var heard []call
			s := api.server(dServerCfg{request: f.request, onListChanged: func(got bool, meta map[string]any) error {
				heard = append(heard, call{got, meta})
				return nil
			}})
			ctx := context.Background()
			if r := dRoots(t, s); !reflect.DeepEqual(r, first) || f.count() != 1 {
				t.Fatalf("first Roots = %v after %d requests; want %v after 1", r, f.count(), first)
			}
			if r := dRoots(t, s); !reflect.DeepEqual(r, first) || f.count() != 1 {
				t.Fatalf("second Roots = %v after %d requests; want the cached %v, no new request", r, f.count(), first)
			}
			// Other methods are not ours: no-op.
			for _, m := range []string{"notifications/tools/list_changed", "roots/list", "notifications/initialized"} {
				if err := s.notify(ctx, m, json.RawMessage(`5`)); err != nil {
					t.Errorf("HandleNotification(%s) = %v", m, err)
				}
			}
			if r := dRoots(t, s); !reflect.DeepEqual(r, first) || f.count() != 1 || len(heard) != 0 {
				t.Fatalf("after unrelated notifications: Roots = %v after %d requests, OnListChanged %d calls", r, f.count(), len(heard))
			}
			// Malformed params: an error, no OnListChanged.
			if err := s.notify(ctx, "notifications/roots/list_changed", json.RawMessage(`5`)); err == nil {
				t.Error("HandleNotification with params 5: no error")
			}
			if len(heard) != 0 {
				t.Errorf("OnListChanged called for malformed params: %v", heard)
			}
			answers := []string{`{"roots":[{"uri":"file:///b"},{"uri":"file:///c"}]}`, `{"roots":[{"uri":"file:///a","name":"A"}]}`}
			want := [][]dRoot{second, first}
			for i, params := range []string{"", "null", "{}", `{"_meta":{"k":"v"}}`} {
				f.set(answers[i%2])
				before := f.count()
				var raw json.RawMessage
				if params != "" {
					raw = json.RawMessage(params)
				}
				if err := s.notify(ctx, "notifications/roots/list_changed", raw); err != nil {
					t.Fatalf("list_changed with params %q: %v", params, err)
				}
				if r := dRoots(t, s); !reflect.DeepEqual(r, want[i%2]) || f.count() != before+1 {
					t.Errorf("after list_changed (%q): Roots = %v after %d new requests; want %v after 1", params, r, f.count()-before, want[i%2])
				}
				if r := dRoots(t, s); !reflect.DeepEqual(r, want[i%2]) || f.count() != before+1 {
					t.Errorf("after list_changed (%q): not cached again", params)
				}
			}
			wantHeard := []call{{true, nil}, {true, nil}, {true, nil}, {true, map[string]any{"k": "v"}}}
			if !reflect.DeepEqual(heard, wantHeard) {
				t.Errorf("OnListChanged saw %v, want %v", heard, wantHeard)
			}
			if len(f.bad) != 0 {
				t.Errorf("Request saw %q, want only roots/list {}", f.bad)
			}
			// OnListChanged's error comes back; the cache is dropped first.
			s2 := api.server(dServerCfg{request: f.request, onListChanged: func(bool, map[string]any) error { return errors.New("handler failed") }})
			dRoots(t, s2)
			before := f.count()
			if err := s2.notify(ctx, "notifications/roots/list_changed", nil); err == nil || err.Error() != "handler failed" {
				t.Errorf("OnListChanged error: got %v", err)
			}
			if dRoots(t, s2); f.count() != before+1 {
				t.Error("cache kept after a list_changed whose handler failed")
			}
		})
	}
}

func TestServerValidation(t *testing.T) {
	const mixed = `{"roots":[{"uri":"file:///a"},{"uri":"http://bad"},{"uri":"file:///c"}]}`
	for _, api := range legacyAPIs {
		t.Run(api.rev+"/strict", func(t *testing.T) {
			f := &dFake{answer: mixed}
			s := api.server(dServerCfg{request: f.request, onInvalid: func(err error) { t.Errorf("OnInvalidRoots called in strict mode: %v", err) }})
			for i := 1; i <= 2; i++ {
				r, err := s.roots(context.Background())
				if err == nil || r != nil || !strings.Contains(err.Error(), "roots[1].uri") || strings.Contains(err.Error(), "roots[0]") || strings.Contains(err.Error(), "roots[2]") {
					t.Errorf("Roots = %v, %v; want an error naming only roots[1].uri", r, err)
				}
				if f.count() != i {
					t.Errorf("call %d: %d requests; an invalid answer must not be cached", i, f.count())
				}
			}
			f.set(`{"roots":[{"uri":"file:///ok"}]}`)
			if r := dRoots(t, s); !reflect.DeepEqual(r, []dRoot{{URI: "file:///ok"}}) {
				t.Errorf("after a valid answer Roots = %v", r)
			}
		})
		t.Run(api.rev+"/lenient", func(t *testing.T) {
			f := &dFake{answer: mixed}
			var reported []error
			s := api.server(dServerCfg{request: f.request, lenient: true, onInvalid: func(err error) { reported = append(reported, err) }})
			if r := dRoots(t, s); !reflect.DeepEqual(r, []dRoot{{URI: "file:///a"}, {URI: "file:///c"}}) {
				t.Errorf("lenient Roots = %v, want the two file roots", r)
			}
			if len(reported) != 1 || !strings.Contains(reported[0].Error(), "roots[1]") || strings.Contains(reported[0].Error(), "roots[0]") || strings.Contains(reported[0].Error(), "roots[2]") {
				t.Errorf("OnInvalidRoots got %v, want one error naming roots[1] only", reported)
			}
			if dRoots(t, s); f.count() != 1 {
				t.Errorf("lenient result not cached: %d requests", f.count())
			}
		})
		t.Run(api.rev+"/rpc error", func(t *testing.T) {
			f := &dFake{err: &dRPC{code: -32601, msg: "Roots not supported", data: map[string]any{"reason": "Client does not have roots capability"}}}
			s := api.server(dServerCfg{request: f.request})
			r, err := s.roots(context.Background())
			if got := api.rpcJSON(err); r != nil || string(got) != dNotSupportedCap {
				t.Errorf("Roots = %v, %v; errors.As finds %s, want %s", r, err, got, dNotSupportedCap)
			}
			f.mu.Lock()
			f.err = nil
			f.answer = `{"roots":[]}`
			f.mu.Unlock()
			if r := dRoots(t, s); r == nil || len(r) != 0 || f.count() != 2 {
				t.Errorf("after an error Roots = %#v after %d requests; want [] after 2", r, f.count())
			}
		})
		for _, answer := range []string{`{"roots":{}}`, `{}`, `null`} {
			for _, lenient := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/answer %s lenient %v", api.rev, answer, lenient), func(t *testing.T) {
					// roots is required: a null result is not "no roots".
					f := &dFake{answer: answer}
					s := api.server(dServerCfg{request: f.request, lenient: lenient})
					if r, err := s.roots(context.Background()); err == nil || r != nil {
						t.Errorf("Roots = %#v, %v; want an error", r, err)
					}
					if s.roots(context.Background()); f.count() != 2 {
						t.Errorf("answer %s was cached", answer)
					}
				})
			}
		}
	}
}

// TestServerConcurrencyAndTimeout: the Server hands its requests to the
// runtime's cache (tested in rootsrt) with its Timeout, and
// drops the cache on list_changed. Every legacy revision's Server is the
// same template's output: one stands for all.
func TestServerConcurrencyAndTimeout(t *testing.T) {
	for _, api := range legacyAPIs[len(legacyAPIs)-1:] {
		t.Run(api.rev+"/shared request", func(t *testing.T) {
			var calls atomic.Int32
			release := make(chan struct{})
			s := api.server(dServerCfg{request: func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
				calls.Add(1)
				<-release
				return json.RawMessage(`{"roots":[{"uri":"file:///a"}]}`), nil
			}})
			var wg sync.WaitGroup
			results := make([][]dRoot, 8)
			errs := make([]error, 8)
			for i := range results {
				wg.Add(1)
				go func() { defer wg.Done(); results[i], errs[i] = s.roots(context.Background()) }()
			}
			for calls.Load() == 0 {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(10 * time.Millisecond)
			close(release)
			wg.Wait()
			for i := range results {
				if errs[i] != nil || !reflect.DeepEqual(results[i], []dRoot{{URI: "file:///a"}}) {
					t.Errorf("caller %d: %v, %v", i, results[i], errs[i])
				}
			}
			if calls.Load() != 1 {
				t.Errorf("%d requests for 8 concurrent callers, want 1", calls.Load())
			}
		})
		t.Run(api.rev+"/list_changed during a request", func(t *testing.T) {
			var calls atomic.Int32
			started, release := make(chan struct{}), make(chan struct{})
			s := api.server(dServerCfg{request: func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
				if calls.Add(1) == 1 {
					close(started)
					<-release
					return json.RawMessage(`{"roots":[{"uri":"file:///old"}]}`), nil
				}
				return json.RawMessage(`{"roots":[{"uri":"file:///new"}]}`), nil
			}})
			done := make(chan []dRoot)
			go func() { r, _ := s.roots(context.Background()); done <- r }()
			<-started
			if err := s.notify(context.Background(), "notifications/roots/list_changed", nil); err != nil {
				t.Fatal(err)
			}
			close(release)
			<-done
			if r := dRoots(t, s); !reflect.DeepEqual(r, []dRoot{{URI: "file:///new"}}) || calls.Load() != 2 {
				t.Errorf("after list_changed during a request: Roots = %v after %d requests; want file:///new after 2", r, calls.Load())
			}
		})
		t.Run(api.rev+"/timeout", func(t *testing.T) {
			s := api.server(dServerCfg{timeout: 20 * time.Millisecond, request: func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			}})
			start := time.Now()
			if r, err := s.roots(context.Background()); !errors.Is(err, api.errNoAnsw) || r != nil {
				t.Errorf("Roots = %v, %v; want ErrNoAnswer", r, err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("timeout took %v", d)
			}
		})
		t.Run(api.rev+"/caller ctx", func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			s := api.server(dServerCfg{request: func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
				<-release
				return json.RawMessage(`{"roots":[]}`), nil
			}})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
			defer cancel()
			if _, err := s.roots(ctx); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Roots with an expiring ctx = %v, want context.DeadlineExceeded", err)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// 4. 2026-07-28 shims

func TestShimAskForRoots(t *testing.T) {
	res, err := roots20260728.AskForRoots("roots", "state-1")
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"inputRequests":{"roots":{"method":"roots/list","params":{}}},"requestState":"state-1","resultType":"input_required"}`
	got := mustMarshal(t, res)
	if string(got) != want {
		t.Errorf("AskForRoots marshals to\n%s\nwant\n%s", got, want)
	}
	res, err = roots20260728.AskForRoots("k", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := mustMarshal(t, res); string(got) != `{"inputRequests":{"k":{"method":"roots/list","params":{}}},"resultType":"input_required"}` {
		t.Errorf("AskForRoots without state marshals to %s", got)
	}
	// TestShimsUpstream (cmd/internal/peers/generated) validates it against the upstream schema.
}

func TestInputRequestsAnswer(t *testing.T) {
	const others = `"e":{"method":"elicitation/create","params":{"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{}}}},` +
		`"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}`
	var sawParams []bool
	handler := roots20260728.ListRootsHandlerFunc(func(_ context.Context, p *roots20260728.ListRootsRequestParams) (*roots20260728.ListRootsResult, error) {
		sawParams = append(sawParams, p != nil)
		return &roots20260728.ListRootsResult{Roots: []roots20260728.Root{{URI: "file:///a", Name: "A"}, {URI: "file:///b"}}}, nil
	})
	for _, entry := range []string{
		`{"method":"roots/list"}`,
		`{"method":"roots/list","params":null}`,
		`{"method":"roots/list","params":{}}`,
		`{"params":{"_meta":{"k":1}},"method":"roots/list"}`,
	} {
		t.Run(entry, func(t *testing.T) {
			var reqs roots20260728.InputRequests
			if err := json.Unmarshal([]byte(`{"r":`+entry+`,`+others+`}`), &reqs); err != nil {
				t.Fatal(err)
			}
			sawParams = nil
			c := &roots20260728.Client{Handler: handler, Capability: &roots20260728.RootsCapability{}}
			resp, rest, err := c.AnswerInputRequests(context.Background(), reqs)
			if err != nil {
				t.Fatal(err)
			}
			if got := mustMarshal(t, resp); string(got) != `{"r":`+dTwoRoots+`}` {
				t.Errorf("responses = %s, want {\"r\":%s}", got, dTwoRoots)
			}
			if !slices.Equal(rest, []string{"e", "s"}) {
				t.Errorf("others = %q, want [e s]", rest)
			}
			if !slices.Equal(sawParams, []bool{true}) {
				t.Errorf("handler calls (params non-nil): %v, want one", sawParams)
			}
			c.Capability = nil
			resp, rest, err = c.AnswerInputRequests(context.Background(), reqs)
			if err == nil || !strings.Contains(err.Error(), `"r"`) || !strings.Contains(err.Error(), "Roots not supported") || resp != nil {
				t.Errorf("without capability: %s, %q, %v; want an error naming \"r\" and Roots not supported", mustMarshal(t, resp), rest, err)
			}
			if len(sawParams) != 1 {
				t.Error("handler called without a capability")
			}
		})
	}
	t.Run("malformed roots entry", func(t *testing.T) {
		var reqs roots20260728.InputRequests
		if err := json.Unmarshal([]byte(`{"bad":{"method":"roots/list","params":5},`+others+`}`), &reqs); err != nil {
			t.Fatal(err)
		}
		c := &roots20260728.Client{Handler: handler, Capability: &roots20260728.RootsCapability{}}
		if _, _, err := c.AnswerInputRequests(context.Background(), reqs); err == nil || !strings.Contains(err.Error(), `"bad"`) {
			t.Errorf("malformed roots entry: %v, want an error naming \"bad\"", err)
		}
	})
	t.Run("handler error hidden", func(t *testing.T) {
		var reqs roots20260728.InputRequests
		if err := json.Unmarshal([]byte(`{"r":{"method":"roots/list"}}`), &reqs); err != nil {
			t.Fatal(err)
		}
		c := &roots20260728.Client{Capability: &roots20260728.RootsCapability{}, Handler: roots20260728.ListRootsHandlerFunc(
			func(context.Context, *roots20260728.ListRootsRequestParams) (*roots20260728.ListRootsResult, error) {
				return nil, errors.New("secret db password")
			})}
		if _, _, err := c.AnswerInputRequests(context.Background(), reqs); err == nil || !strings.Contains(err.Error(), "Internal error") || strings.Contains(err.Error(), "secret") {
			t.Errorf("failing handler: %v", err)
		}
	})
}

func TestInputResponsesRoots(t *testing.T) {
	decode := func(t *testing.T, responses string) *roots20260728.InputResponseRequestParams {
		var p roots20260728.InputResponseRequestParams
		if err := json.Unmarshal([]byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},`+
			`"inputResponses":`+responses+`,"requestState":"state-1"}`), &p); err != nil {
			t.Fatal(err)
		}
		return &p
	}
	const mixed = `{"r":{"roots":[{"uri":"file:///x"},{"uri":"http://bad"}]},"ok":{"roots":[{"uri":"file:///y","name":"Y"}]}}`
	t.Run("strict", func(t *testing.T) {
		r, err := roots20260728.RootsFromInputResponses(decode(t, mixed), "r", false)
		if err == nil || r != nil || !strings.Contains(err.Error(), "roots[1].uri") || strings.Contains(err.Error(), "roots[0]") {
			t.Errorf("%v, %v; want nil roots and an error naming roots[1].uri", r, err)
		}
	})
	t.Run("lenient", func(t *testing.T) {
		r, err := roots20260728.RootsFromInputResponses(decode(t, mixed), "r", true)
		if got := mustMarshal(t, r); string(got) != `[{"uri":"file:///x"}]` || err == nil || !strings.Contains(err.Error(), "roots[1]") || strings.Contains(err.Error(), "roots[0]") {
			t.Errorf("%s, %v; want [file:///x] and an error naming roots[1]", got, err)
		}
	})
	for _, lenient := range []bool{false, true} {
		t.Run(fmt.Sprintf("valid lenient %v", lenient), func(t *testing.T) {
			r, err := roots20260728.RootsFromInputResponses(decode(t, mixed), "ok", lenient)
			if got := mustMarshal(t, r); err != nil || string(got) != `[{"name":"Y","uri":"file:///y"}]` {
				t.Errorf("%s, %v", got, err)
			}
		})
		t.Run(fmt.Sprintf("missing key lenient %v", lenient), func(t *testing.T) {
			if r, err := roots20260728.RootsFromInputResponses(decode(t, mixed), "missing-key", lenient); err == nil || r != nil || !strings.Contains(err.Error(), `"missing-key"`) {
				t.Errorf("%v, %v; want an error naming the key", r, err)
			}
		})
		// roots is required: neither {} nor [] nor null is "no roots".
		for _, answer := range []string{`{}`, `[]`, `null`} {
			t.Run(fmt.Sprintf("answer %s lenient %v", answer, lenient), func(t *testing.T) {
				if r, err := roots20260728.RootsFromInputResponses(decode(t, `{"k":`+answer+`}`), "k", lenient); err == nil || len(r) != 0 || !strings.Contains(err.Error(), `"k"`) {
					t.Errorf("%#v, %v; want an error naming the key", r, err)
				}
			})
		}
	}
}

func TestRequireRoots(t *testing.T) {
	id := roots20260728.RequestIDFromInteger(1)
	decodeMeta := func(caps string) *roots20260728.RequestMetaObject {
		var m roots20260728.RequestMetaObject
		if err := json.Unmarshal([]byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":`+caps+`}`), &m); err != nil {
			t.Fatal(err)
		}
		return &m
	}
	for _, caps := range []string{`{"roots":{}}`, `{"roots":{"x":1},"sampling":{}}`} {
		if e := roots20260728.RequireRoots(&id, decodeMeta(caps)); e != nil {
			t.Errorf("capabilities %s: RequireRoots = %s, want nil", caps, mustMarshal(t, e))
		}
	}
	// Member order as the generated marshaller writes it.
	const want = `{"jsonrpc":"2.0","error":{"code":-32021,"data":{"requiredCapabilities":{"roots":{}}},"message":"Server requires the roots capability for this request"},"id":1}`
	for _, meta := range []*roots20260728.RequestMetaObject{nil, decodeMeta(`{}`), decodeMeta(`{"sampling":{},"elicitation":{}}`)} {
		e := roots20260728.RequireRoots(&id, meta)
		if e == nil {
			t.Errorf("meta %s: RequireRoots = nil", mustMarshal(t, meta))
			continue
		}
		got := mustMarshal(t, e)
		if string(got) != want {
			t.Errorf("meta %s: RequireRoots marshals to\n%s\nwant\n%s", mustMarshal(t, meta), got, want)
		}
	}
	// TestShimsUpstream (cmd/internal/peers/generated) validates the error
	// against the upstream schema.
}
