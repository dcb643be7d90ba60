package generated_test

// Hostile payloads: what the generated decoders and dispatch do with input
// a careless or malicious peer sends. Each case is a defined result or a
// clear error, never a panic; the README's "Limits" section lists them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	r18 "github.com/rootsgen/rootsgen/generated/roots20250618"
	r25 "github.com/rootsgen/rootsgen/generated/roots20251125"
	"github.com/rootsgen/rootsgen/testdata/gotest/payload"
)

// decodeRoot decodes a 2025-06-18 Root both directly and through
// encoding/json, which must agree.
func decodeRoot(t *testing.T, in string) (r18.Root, error) {
	t.Helper()
	var direct, viaJSON r18.Root
	err := direct.UnmarshalJSON([]byte(in))
	errJSON := json.Unmarshal([]byte(in), &viaJSON)
	if (err == nil) != (errJSON == nil) {
		t.Fatalf("UnmarshalJSON says %v, json.Unmarshal says %v", err, errJSON)
	}
	return direct, err
}

func TestHostileRoots(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	for _, tc := range []struct {
		name    string
		in      string
		uri     string // wanted URI when decoding succeeds
		rootErr string // substring of the decode error; "" for success
		// valid: whether Validate accepts what decoded.
		valid bool
		name2 string // wanted Name, when set
	}{
		// Invalid UTF-8 becomes U+FFFD, as with encoding/json; a URI
		// holding it is then invalid, since non-ASCII must be
		// percent-encoded.
		{name: "invalid UTF-8 in uri", in: "{\"uri\":\"file:///a\xff\"}", uri: "file:///a\uFFFD"},
		{name: "invalid UTF-8 in name", in: "{\"uri\":\"file:///a\",\"name\":\"x\xc3\"}", uri: "file:///a", name2: "x\uFFFD", valid: true},
		// Duplicate members: the last one wins, as with encoding/json.
		{name: "duplicate member", in: `{"uri":"file:///a","uri":"file:///b"}`, uri: "file:///b", valid: true},
		// Every occurrence must have the member's type, even one a later
		// occurrence replaces.
		{name: "duplicate member of the wrong type", in: `{"uri":1,"uri":"file:///b"}`, rootErr: "Root: uri: want a string, got a number"},
		{name: "number for uri", in: `{"uri":42}`, rootErr: "Root: uri: want a string, got a number"},
		{name: "object for name", in: `{"uri":"file:///a","name":{}}`, rootErr: "Root: name: want a string, got an object"},
		{name: "null for required uri", in: `{"uri":null}`, rootErr: "Root: uri: want a string, got null"},
		// An escaped NUL decodes; a URI may not hold it raw.
		{name: "escaped NUL", in: `{"uri":"file:///a\u0000b","name":"\u0000"}`, uri: "file:///a\x00b", name2: "\x00"},
		{name: "escaped NUL in name only", in: `{"uri":"file:///a","name":"a\u0000"}`, uri: "file:///a", name2: "a\x00", valid: true},
		// A byte order mark is not JSON (RFC 8259 forbids sending one).
		{name: "byte order mark", in: "\uFEFF{\"uri\":\"file:///a\"}", rootErr: "want a JSON object, got malformed JSON"},
		{name: "trailing garbage", in: `{"uri":"file:///a"} x`, rootErr: "malformed JSON"},
		{name: "second value", in: `{"uri":"file:///a"}{}`, rootErr: "malformed JSON"},
		{name: "extra close", in: `{"uri":"file:///a"}}`, rootErr: "malformed JSON"},
		// encoding/json, which decodes _meta, stops at 10000 levels; the
		// generated scanner does not recurse at all.
		{name: "100000 levels of _meta objects", in: `{"uri":"file:///a","_meta":{"k":` + deep(`{"a":`, `}`, 100000) + `}}`, rootErr: "Root: _meta: invalid character '{' exceeded max depth"},
		{name: "100000 levels of arrays in _meta", in: `{"uri":"file:///a","_meta":{"k":` + deep(`[`, `]`, 100000) + `}}`, rootErr: "exceeded max depth"},
		{name: "100000 levels in an unknown member", in: `{"uri":"file:///a","x":` + deep(`[`, `]`, 100000) + `}`, rootErr: "Root: x: malformed JSON: invalid character '[' exceeded max depth"},
		{name: "9000 levels of _meta", in: `{"uri":"file:///a","_meta":{"k":` + deep(`[`, `]`, 9000) + `}}`, uri: "file:///a", valid: true},
		{name: "huge number in _meta", in: `{"uri":"file:///a","_meta":{"n":1e400}}`, rootErr: "Root: _meta: want"},
		{name: "huge number in an unknown member", in: `{"uri":"file:///a","n":1e400}`, uri: "file:///a", valid: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := decodeRoot(t, tc.in)
			if tc.rootErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.rootErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.rootErr)
				}
				var de *r18.DecodeError
				if !errors.As(err, &de) {
					t.Errorf("error %T is not a *DecodeError", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if root.URI != tc.uri || tc.name2 != "" && root.Name != tc.name2 {
				t.Errorf("decoded uri %q name %q, want %q %q", root.URI, root.Name, tc.uri, tc.name2)
			}
			if verr := root.Validate(); (verr == nil) != tc.valid {
				t.Errorf("Validate = %v, want valid %v", verr, tc.valid)
			}
			// What decoded marshals to JSON that decodes to the same.
			out, err := json.Marshal(root)
			if err != nil {
				t.Fatal(err)
			}
			again, err := decodeRoot(t, string(out))
			if err != nil || again.URI != root.URI || again.Name != root.Name {
				t.Errorf("round trip: %q %q %v, from %s", again.URI, again.Name, err, out)
			}
		})
	}
}

// TestHostileRequestID: the JSON-RPC id of a 2025-11-25 roots/list request
// is a string or an integer. A number with no fractional part (1.0, 1e3)
// counts as that integer, as JSON Schema says, and is written back in
// integer form; anything else is an error naming id.
func TestHostileRequestID(t *testing.T) {
	for _, tc := range []struct {
		id      string
		want    string // the id as marshalled back, or the error
		wantErr bool
	}{
		{id: `7`, want: `7`},
		{id: `"7"`, want: `"7"`},
		{id: `1.0`, want: `1`},
		{id: `1e3`, want: `1000`},
		{id: `-9223372036854775808`, want: `-9223372036854775808`},
		{id: `1.5`, want: "ListRootsRequest: id: RequestID: want string or integer, got number", wantErr: true},
		{id: `9223372036854775808`, want: "want string or integer, got integer outside the int64 range", wantErr: true},
		{id: `123456789012345678901234567890`, want: "want string or integer, got integer outside the int64 range", wantErr: true},
		{id: `1e400`, want: "ListRootsRequest: id:", wantErr: true},
		{id: `true`, want: "want string or integer, got boolean", wantErr: true},
		{id: `{}`, want: "want string or integer, got object", wantErr: true},
		{id: `[]`, want: "want string or integer, got array", wantErr: true},
		{id: `null`, want: "want string or integer, got null", wantErr: true},
		{id: `"\u0000"`, want: `"\u0000"`},
	} {
		t.Run(tc.id, func(t *testing.T) {
			in := `{"jsonrpc":"2.0","id":` + tc.id + `,"method":"roots/list"}`
			var req r25.ListRootsRequest
			err := json.Unmarshal([]byte(in), &req)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(req.ID)
			if err != nil || string(out) != tc.want {
				t.Errorf("id marshals as %s (%v), want %s", out, err, tc.want)
			}
		})
	}
}

// TestManyRoots: 100,000 roots decode, and the decoder's allocations stay
// within a bound proportional to the input (the input is about 7 MB).
func TestManyRoots(t *testing.T) {
	const n = 100000
	data := payload.Roots(n)

	var result r18.ListRootsResult
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := result.UnmarshalJSON(data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(result.Roots) != n || result.Roots[n-1].URI != fmt.Sprintf("file:///home/user/projects/project-%d", n-1) {
		t.Fatalf("decoded %d roots", len(result.Roots))
	}
	if err := result.Validate(); err != nil {
		t.Fatal(err)
	}
	const limit = 64 << 20
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > limit {
		t.Errorf("decoding %d bytes allocated %d bytes, more than %d", len(data), alloc, limit)
	} else {
		t.Logf("decoding %d bytes (%d roots) allocated %d bytes", len(data), n, alloc)
	}

	// The same list as a client's answer to a server's roots/list.
	server := &r18.Server{ClientRoots: &r18.RootsCapability{}, Request: func(context.Context, r18.Method, json.RawMessage) (json.RawMessage, error) {
		return data, nil
	}}
	roots, err := server.Roots(context.Background())
	if err != nil || len(roots) != n {
		t.Fatalf("Server.Roots: %d roots, %v", len(roots), err)
	}
}

// TestHostileDispatch: malformed params of a roots/list request are
// answered with -32602 and the reason; the handler never sees them.
func TestHostileDispatch(t *testing.T) {
	called := false
	client := &r18.Client{Capability: &r18.RootsCapability{}, Handler: r18.ListRootsHandlerFunc(func(context.Context, *r18.ListRootsRequestParams) (*r18.ListRootsResult, error) {
		called = true
		return &r18.ListRootsResult{}, nil
	})}
	for _, tc := range []struct{ name, params, reason string }{
		{"byte order mark", "\uFEFF{}", "malformed JSON: invalid character"},
		{"trailing garbage", `{} x`, "malformed JSON"},
		{"array", `[]`, "want a JSON object, got an array"},
		{"deep _meta", `{"_meta":{"k":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`, "exceeded max depth"},
		{"progress token as a float", `{"_meta":{"progressToken":1.5}}`, "progressToken"},
		{"progress token as a bool", `{"_meta":{"progressToken":true}}`, "progressToken"},
		{"invalid UTF-8 in a member name", "{\"\xff\":1}", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called = false
			out, rpcErr := client.HandleRequest(context.Background(), "roots/list", json.RawMessage(tc.params))
			if tc.reason == "" {
				// Unknown members are kept and ignored: the request is answered.
				if rpcErr != nil || !json.Valid(out) {
					t.Fatalf("answer %s, error %v", out, rpcErr)
				}
				return
			}
			if rpcErr == nil {
				t.Fatalf("answered %s", out)
			}
			reason, _ := rpcErr.Data.(map[string]string)["reason"]
			if rpcErr.Code != r18.CodeInvalidParams || !strings.Contains(reason, tc.reason) {
				t.Errorf("error %d %q (reason %q), want -32602 with %q", rpcErr.Code, rpcErr.Message, reason, tc.reason)
			}
			if called {
				t.Error("the handler saw malformed params")
			}
		})
	}
}
