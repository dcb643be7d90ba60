package generated_test

//lint:file-ignore SA1019 every revision is fuzzed, 2026-07-28 included, whose roots symbols are deprecated

// Fuzz targets for the generated code, which runs in servers and clients on
// what a peer sends: decoding, validation and dispatch must never panic,
// and what decodes must survive a round trip. Run one with, for example,
//
//	go test ./generated -run '^$' -fuzz '^FuzzUnmarshal$' -fuzztime 3m
//
// Inputs that once failed are kept in testdata/fuzz/<target>/ and run with
// every go test.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/rootsgen/rootsgen/generated/roots20260728"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
	"github.com/rootsgen/rootsgen/schema"
)

// payloadSeeds are wire values of the shapes the generated types decode.
var payloadSeeds = []string{
	`{"uri":"file:///home/me/repo","name":"repo"}`,
	`{"uri":"file:///a","_meta":{"k":[1,{"x":null}]},"extra":true}`,
	`{"roots":[{"uri":"file:///a"},{"uri":"file:///b","name":"b"}]}`,
	`{"roots":[],"_meta":{"progressToken":7}}`,
	`{"roots":[{"uri":"https://x"}],"nextCursor":"c"}`,
	`{"method":"roots/list"}`,
	`{"method":"roots/list","params":{"_meta":{"progressToken":"t"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}`,
	`{"jsonrpc":"2.0","id":"x","method":"roots/list","params":null}`,
	`{"resultType":"input_required","inputRequests":{"roots":{"method":"roots/list","params":{}}},"requestState":"s"}`,
	`{"inputResponses":{"roots":{"roots":[{"uri":"file:///a"}]}},"requestState":"s"}`,
	`{"roots":{"roots":[{"uri":"file:///a"}]},"other":{"content":[]}}`,
	`{"uri":"file:///\u00e9\ud83d\ude00","name":"\u0000"}`,
	`{"roots":[{"uri":1}]}`,
	`null`, `[]`, `""`, `{}`, `{"uri":"a","uri":"b"}`,
}

// roundTrip decodes data into a T with its UnmarshalJSON and, when that
// succeeds, checks that data was JSON, that Validate does not panic, and
// that marshalling and decoding again gives an equal value.
func roundTrip[T any, P interface {
	*T
	UnmarshalJSON([]byte) error
	Validate() error
}](t *testing.T, pkg string, data []byte) {
	t.Helper()
	var v T
	err := P(&v).UnmarshalJSON(data)
	var viaJSON T
	errJSON := json.Unmarshal(data, &viaJSON)
	if err != nil {
		var de interface{ Unwrap() error }
		if !errors.As(err, &de) {
			t.Errorf("%s %T: error %T is not a decode error: %v", pkg, v, err, err)
		}
		return
	}
	if !json.Valid(data) {
		t.Fatalf("%s %T: accepted input that is not JSON: %q", pkg, v, data)
	}
	if errJSON != nil {
		t.Fatalf("%s %T: UnmarshalJSON accepts what json.Unmarshal refuses (%v): %q", pkg, v, errJSON, data)
	}
	verr := P(&v).Validate()
	out, err := json.Marshal(v)
	if err != nil && verr != nil {
		// A value that breaks the rules (a union with no value, after
		// "null") may refuse to marshal; one that follows them may not.
		return
	}
	if err != nil {
		t.Fatalf("%s %T: a decoded value does not marshal: %v\ninput: %q", pkg, v, err, data)
	}
	var again T
	if err := P(&again).UnmarshalJSON(out); err != nil {
		t.Fatalf("%s %T: its own output does not decode: %v\ninput:  %q\noutput: %s", pkg, v, err, data, out)
	}
	if !sameValue(reflect.ValueOf(v), reflect.ValueOf(again)) {
		t.Fatalf("%s %T: round trip changed the value\ninput:  %q\noutput: %s\nfirst:  %#v\nsecond: %#v", pkg, v, data, out, v, again)
	}
	out2, err := json.Marshal(again)
	if err != nil || !bytes.Equal(out, out2) {
		t.Fatalf("%s %T: marshalling is not stable: %s vs %s (%v)", pkg, v, out, out2, err)
	}
}

// sameValue is reflect.DeepEqual except that a nil slice or map equals an
// empty one: a required array decoded from an absent member is nil and
// marshals as [], which decodes as empty.
func sameValue(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	if a.Type() == rawMessageType {
		return sameJSONValue(a.Bytes(), b.Bytes())
	}
	switch a.Kind() {
	case reflect.Slice, reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Slice {
			for i := range a.Len() {
				if !sameValue(a.Index(i), b.Index(i)) {
					return false
				}
			}
			return true
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !sameValue(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Equal(b)
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// sameJSONValue compares raw JSON by value: members kept raw in Extra are
// written back through encoding/json, which drops white space and escapes
// <, > and &, so their spelling may change but not their value.
func sameJSONValue(a, b []byte) bool {
	decode := func(data []byte) (any, error) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		err := dec.Decode(&v)
		return v, err
	}
	va, errA := decode(a)
	vb, errB := decode(b)
	return errA == nil && errB == nil && reflect.DeepEqual(va, vb)
}

// FuzzUnmarshal decodes arbitrary bytes into the roots types of every
// revision.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range payloadSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTripAll(t, data)
		// InputResponses is a map of unions, decoded by encoding/json.
		var responses roots20260728.InputResponses
		if json.Unmarshal(data, &responses) == nil {
			out, err := json.Marshal(responses)
			if err != nil {
				t.Fatalf("InputResponses: a decoded value does not marshal: %v", err)
			}
			var again roots20260728.InputResponses
			if err := json.Unmarshal(out, &again); err != nil {
				t.Fatalf("InputResponses: its own output does not decode: %v\n%s", err, out)
			}
			if out2, _ := json.Marshal(again); !bytes.Equal(out, out2) {
				t.Fatalf("InputResponses: marshalling is not stable: %s vs %s", out, out2)
			}
		}
	})
}

// dispatcher is one revision's dispatch entry points, each fed a method
// and params; it returns the *RPCError code (0 for none) of what answers
// with one, and any other error.
type dispatcher struct {
	pkg  string
	runs []func(ctx context.Context, method string, params []byte) (code int64, err error)
}

// rpcCode returns the code of the *RPCError-like value in err, or 0.
func rpcCode(err error) int64 {
	var eg *rootsgate.RPCError
	if errors.As(err, &eg) {
		return eg.Code
	}
	code, _ := revisionRPCCode(err)
	return code
}

// legacyDispatch builds the entry points of a revision with direct
// roots/list requests: a client with roots, one without, and a server's
// notification handler and cache (the params are the client's answer).
func legacyDispatch[Client any, Server any](pkg string,
	handle func(c *Client, ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error),
	withRoots, withoutRoots func() *Client,
	newServer func(answer json.RawMessage) *Server,
	notify func(s *Server, ctx context.Context, method string, params json.RawMessage) error,
	roots func(s *Server, ctx context.Context) error,
) dispatcher {
	return dispatcher{pkg: pkg, runs: []func(context.Context, string, []byte) (int64, error){
		func(ctx context.Context, method string, params []byte) (int64, error) {
			out, err := handle(withRoots(), ctx, method, params)
			if err == nil && !json.Valid(out) {
				return 0, errors.New("HandleRequest answered with invalid JSON: " + string(out))
			}
			return rpcCode(err), nilIfRPC(err)
		},
		func(ctx context.Context, method string, params []byte) (int64, error) {
			_, err := handle(withoutRoots(), ctx, method, params)
			if err == nil {
				return 0, errors.New("a client without roots answered a request")
			}
			return rpcCode(err), nilIfRPC(err)
		},
		func(ctx context.Context, method string, params []byte) (int64, error) {
			_ = notify(newServer(nil), ctx, method, params)
			return 0, nil
		},
		func(ctx context.Context, method string, params []byte) (int64, error) {
			_ = roots(newServer(params), ctx)
			return 0, nil
		},
	}}
}

// nilIfRPC drops an error that is an *RPCError with a JSON-RPC code.
func nilIfRPC(err error) error {
	if err == nil {
		return nil
	}
	switch rpcCode(err) {
	case -32601, -32602, -32603:
		return nil
	}
	return errors.New("not an *RPCError with a JSON-RPC code: " + err.Error())
}

// rpcOrNil turns a typed nil *RPCError into a nil error.
func rpcOrNil[E interface {
	*T
	error
}, T any](e E) error {
	if e == nil {
		return nil
	}
	return e
}

func dispatchers() []dispatcher {
	return append(legacyDispatchers(), []dispatcher{
		{pkg: "roots20260728", runs: []func(context.Context, string, []byte) (int64, error){
			// The client answers the inputRequests of an InputRequiredResult.
			func(ctx context.Context, method string, params []byte) (int64, error) {
				var requests roots20260728.InputRequests
				if json.Unmarshal(params, &requests) != nil {
					return 0, nil
				}
				client := &roots20260728.Client{Capability: &roots20260728.RootsCapability{}, Handler: roots20260728.ListRootsHandlerFunc(func(context.Context, *roots20260728.ListRootsRequestParams) (*roots20260728.ListRootsResult, error) {
					return &roots20260728.ListRootsResult{Roots: []roots20260728.Root{{URI: "file:///home/me/repo"}}}, nil
				})}
				responses, others, err := client.AnswerInputRequests(ctx, requests)
				if err != nil {
					var de *roots20260728.DecodeError
					if errors.As(err, &de) {
						return 0, nil
					}
					return rpcCode(err), nilIfRPC(err)
				}
				if len(responses)+len(others) != len(requests) {
					return 0, errors.New("AnswerInputRequests lost an entry")
				}
				if _, err := json.Marshal(responses); err != nil {
					return 0, err
				}
				return 0, nil
			},
			// The server reads the answers of a retried request, under the
			// key named by method.
			func(ctx context.Context, method string, params []byte) (int64, error) {
				var p roots20260728.InputResponseRequestParams
				if p.UnmarshalJSON(params) != nil {
					return 0, nil
				}
				for _, lenient := range []bool{false, true} {
					roots, err := roots20260728.RootsFromInputResponses(&p, method, lenient)
					if err == nil || lenient {
						for i := range roots {
							if roots[i].Validate() != nil {
								return 0, errors.New("RootsFromInputResponses returned an invalid root")
							}
						}
					}
				}
				return 0, nil
			},
		}},
	}...)
}

// gateDispatch is the gate's entry points, on every revision it serves
// and on the method string taken as a version.
func gateDispatch() dispatcher {
	client := &rootsgate.Client{ListChanged: true, ListRoots: func(context.Context) ([]rootsgate.Root, error) {
		return []rootsgate.Root{{URI: "file:///home/me/repo"}}, nil
	}}
	versions := schema.Revisions()
	return dispatcher{pkg: "rootsgate", runs: []func(context.Context, string, []byte) (int64, error){
		func(ctx context.Context, method string, params []byte) (int64, error) {
			for _, v := range append(versions, method) {
				out, err := client.HandleRequest(ctx, v, method, params)
				if err == nil && !json.Valid(out) {
					return 0, errors.New("HandleRequest answered with invalid JSON")
				}
				if code := rpcCode(err); code != 0 {
					if err := nilIfRPC(err); err != nil {
						return 0, err
					}
				}
				out, _, err = client.AnswerInputRequests(ctx, v, params)
				if err == nil && !json.Valid(out) {
					return 0, errors.New("AnswerInputRequests answered with invalid JSON")
				}
				for _, lenient := range []bool{false, true} {
					_, _ = rootsgate.RootsFromAnswer(v, params, method, lenient)
				}
				_, _ = rtimpl.AskForRoots(v, len(params)%2 == 0, method, string(params))
			}
			return 0, nil
		},
	}}
}

// FuzzDispatch feeds arbitrary methods and params to the entry points that
// take a peer's messages: none may panic, and every error answered on the
// wire is an *RPCError with a JSON-RPC code.
func FuzzDispatch(f *testing.F) {
	for _, m := range []string{"roots/list", "notifications/roots/list_changed", "roots", "", "tools/call"} {
		for _, p := range append([]string{``}, payloadSeeds...) {
			f.Add(m, []byte(p))
		}
	}
	ds := append(dispatchers(), gateDispatch())
	f.Fuzz(func(t *testing.T, method string, params []byte) {
		ctx := context.Background()
		for _, d := range ds {
			for i, run := range d.runs {
				code, err := run(ctx, method, params)
				if err != nil {
					t.Fatalf("%s entry %d, method %q, params %q: %v", d.pkg, i, method, params, err)
				}
				switch code {
				case 0, -32601, -32602, -32603:
				default:
					t.Fatalf("%s entry %d: error code %d is not a JSON-RPC code", d.pkg, i, code)
				}
			}
		}
	})
}
