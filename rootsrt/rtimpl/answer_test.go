package rtimpl_test

// The client's side of roots/list (ListRootsCall.Answer), the helpers
// that read inputRequests and inputResponses, and the errors every
// revision shares.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

type testParams struct {
	Cursor string `json:"cursor,omitempty"`
}

type testResult struct {
	Roots []testRoot `json:"roots"`
}

// call is a ListRootsCall of a client that declared roots and answers
// with handle; its check refuses a root that is not a file URI.
func call(handle func(context.Context, *testParams) (*testResult, error)) *rtimpl.ListRootsCall[testParams, testResult] {
	return &rtimpl.ListRootsCall[testParams, testResult]{
		HasCapability: true, HasHandler: true,
		Decode: func(raw json.RawMessage) (*testParams, error) {
			p := new(testParams)
			if len(raw) == 0 {
				return p, nil
			}
			if err := json.Unmarshal(raw, p); err != nil {
				return nil, errors.New("params: want an object")
			}
			return p, nil
		},
		Handle: handle,
		Check: func(r *testResult) error {
			v := rtimpl.Validator{TypeName: "ListRootsResult"}
			for i := range r.Roots {
				checkTestRoot(&r.Roots[i], &v, rtimpl.ItemPath("roots", i))
			}
			return v.Err()
		},
		New: func() *testResult { return &testResult{Roots: []testRoot{}} },
	}
}

func rpcJSON(e *rtimpl.RPCError) string {
	if e == nil {
		return ""
	}
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestListRootsCallAnswer(t *testing.T) {
	ctx := context.Background()
	const (
		noCap     = `{"code":-32601,"message":"Roots not supported","data":{"reason":"Client does not have roots capability"}}`
		noHandler = `{"code":-32601,"message":"Roots not supported","data":{"reason":"Client has no roots handler"}}`
		internal  = `{"code":-32603,"message":"Internal error"}`
	)
	var seen *testParams
	ok := call(func(_ context.Context, p *testParams) (*testResult, error) {
		seen = p
		return &testResult{Roots: []testRoot{{URI: "file:///a"}}}, nil
	})
	for _, c := range []struct {
		name   string
		call   *rtimpl.ListRootsCall[testParams, testResult]
		params string
		result string // the result's JSON, "" when refused
		err    string // the error object's JSON, or a prefix of it
	}{
		{"answered", ok, `{"cursor":"c"}`, `{"roots":[{"uri":"file:///a"}]}`, ""},
		{"no params", ok, ``, `{"roots":[{"uri":"file:///a"}]}`, ""},
		{"no capability", func() *rtimpl.ListRootsCall[testParams, testResult] { c := *ok; c.HasCapability = false; return &c }(), `{}`, "", noCap},
		{"no handler", func() *rtimpl.ListRootsCall[testParams, testResult] { c := *ok; c.HasHandler = false; return &c }(), `{}`, "", noHandler},
		{"malformed params", ok, `{"cursor":`, "", `{"code":-32602,"message":"Invalid params","data":{"reason":"malformed JSON: `},
		{"params of the wrong kind", ok, `[1]`, "", `{"code":-32602,"message":"Invalid params","data":{"reason":"params: want an object"}}`},
		{"the handler's own error object", call(func(context.Context, *testParams) (*testResult, error) {
			return nil, rtimpl.NotSupported("not today")
		}), `{}`, "", `{"code":-32601,"message":"Roots not supported","data":{"reason":"not today"}}`},
		{"a plain error, whose text stays home", call(func(context.Context, *testParams) (*testResult, error) {
			return nil, errors.New("database password is hunter2")
		}), `{}`, "", internal},
		{"a nil result", call(func(context.Context, *testParams) (*testResult, error) { return nil, nil }), `{}`, `{"roots":[]}`, ""},
		{"roots that break the rules", call(func(context.Context, *testParams) (*testResult, error) {
			return &testResult{Roots: []testRoot{{URI: "https://x"}}}, nil
		}), `{}`, "", internal},
	} {
		t.Run(c.name, func(t *testing.T) {
			seen = nil
			res, rpcErr := c.call.Answer(ctx, json.RawMessage(c.params))
			got := ""
			if res != nil {
				b, _ := json.Marshal(res)
				got = string(b)
			}
			if got != c.result || !strings.HasPrefix(rpcJSON(rpcErr), c.err) || (c.err == "") != (rpcErr == nil) {
				t.Errorf("Answer(%s) = %s, %s; want %s, %s", c.params, got, rpcJSON(rpcErr), c.result, c.err)
			}
		})
	}
	if _, rpcErr := ok.Answer(ctx, json.RawMessage(`{"cursor":"c"}`)); rpcErr != nil || seen == nil || seen.Cursor != "c" {
		t.Errorf("the handler saw params %+v (%v), want cursor c", seen, rpcErr)
	}
}

func TestInputRequestMethod(t *testing.T) {
	for in, want := range map[string]string{
		`{"method":"roots/list","params":{}}`:                 "roots/list",
		`{"params":{},"method":"elicitation/create"}`:         "elicitation/create",
		`{"METHOD":"roots/list"}`:                             "",
		`{"Method":"roots/list"}`:                             "",
		`{"method":"a","method":"roots/list"}`:                "roots/list",
		`{"method":"roots/list","method":5}`:                  "",
		`{"method":7}`:                                        "",
		`{"meth\u006fd":"roots/list"}`:                        "roots/list",
		`["method","roots/list"]`:                             "",
		`null`:                                                "",
		`"roots/list"`:                                        "",
		`{"params":{"method":"roots/list"},"method":"other"}`: "other",
	} {
		if got := rtimpl.InputRequestMethod(json.RawMessage(in)); got != want {
			t.Errorf("InputRequestMethod(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestInputResponse(t *testing.T) {
	for _, c := range []struct {
		raw     string
		present bool
		err     string
	}{
		{`{"roots":[]}`, true, ""},
		{``, false, `inputResponses has no "k" entry`},
		{``, true, `inputResponses["k"] is null, not a result`},
		{` null`, true, `inputResponses["k"] is null, not a result`},
		{`{"roots":`, true, `inputResponses["k"]: malformed JSON`},
	} {
		got, err := rtimpl.InputResponse(json.RawMessage(c.raw), c.present, "k")
		switch {
		case c.err == "" && (err != nil || string(got) != c.raw):
			t.Errorf("InputResponse(%q) = %s, %v", c.raw, got, err)
		case c.err != "" && (err == nil || got != nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("InputResponse(%q, %v) = %s, %v; want an error saying %s", c.raw, c.present, got, err, c.err)
		}
	}
}

func TestGuard(t *testing.T) {
	boom := errors.New("boom")
	if v, err := rtimpl.Guard("f", func() (int, error) { return 7, nil }); v != 7 || err != nil {
		t.Errorf("Guard of a function that returns = %d, %v", v, err)
	}
	v, err := rtimpl.Guard("f", func() (int, error) { panic(boom) })
	var pe *rtimpl.PanicError
	if v != 0 || !errors.As(err, &pe) || pe.What != "f" || !errors.Is(err, boom) || err.Error() != "f panicked: boom" {
		t.Errorf("Guard of a panic = %d, %v", v, err)
	}
	if _, err := rtimpl.Guard("g", func() (int, error) { panic(42) }); err == nil || errors.Unwrap(err) != nil || err.Error() != "g panicked: 42" {
		t.Errorf("Guard of a panic with a non-error = %v", err)
	}
	e := rtimpl.InvalidParams(errors.New("why"))
	if e.Error() != "JSON-RPC error -32602: Invalid params" || rpcJSON(e) != `{"code":-32602,"message":"Invalid params","data":{"reason":"why"}}` {
		t.Errorf("InvalidParams = %v, %s", e, rpcJSON(e))
	}
}
