package rootsrt_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// A revision whose Root has no _meta keeps it among the unknown members:
// MetaFromExtra and MetaToExtra move it between the two, and leave
// everything else as it was.
func TestGateRootMeta(t *testing.T) {
	extra := map[string]json.RawMessage{"_meta": json.RawMessage(`{"k":["v",1]}`), "x": json.RawMessage(`true`)}
	r := rtimpl.MetaFromExtra(rootsrt.Root{URI: "file:///a", Name: "a", Extra: extra})
	want := rootsrt.Root{URI: "file:///a", Name: "a", Meta: map[string]any{"k": []any{"v", 1.0}}, Extra: map[string]json.RawMessage{"x": json.RawMessage(`true`)}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("MetaFromExtra = %+v, want %+v", r, want)
	}
	if _, ok := extra["_meta"]; !ok {
		t.Error("MetaFromExtra changed the map it was given")
	}
	only := rtimpl.MetaFromExtra(rootsrt.Root{URI: "file:///a", Extra: map[string]json.RawMessage{"_meta": json.RawMessage(`{}`)}})
	if only.Extra != nil || only.Meta == nil {
		t.Errorf("MetaFromExtra of _meta alone = %+v; want Meta set and no Extra", only)
	}
	for _, raw := range []string{`[1]`, `"x"`, `null`} {
		in := rootsrt.Root{URI: "file:///a", Extra: map[string]json.RawMessage{"_meta": json.RawMessage(raw)}}
		if got := rtimpl.MetaFromExtra(in); !reflect.DeepEqual(got, in) {
			t.Errorf("MetaFromExtra of _meta %s = %+v; want it left among the unknown members", raw, got)
		}
	}

	back, err := rtimpl.MetaToExtra(want)
	if err != nil || len(back) != 2 || string(back["x"]) != "true" || string(back["_meta"]) != `{"k":["v",1]}` {
		t.Errorf("MetaToExtra = %s, %v", back, err)
	}
	if _, ok := want.Extra["_meta"]; ok {
		t.Error("MetaToExtra changed the root's map")
	}
	if got, err := rtimpl.MetaToExtra(rootsrt.Root{Extra: want.Extra}); err != nil || !reflect.DeepEqual(got, want.Extra) {
		t.Errorf("MetaToExtra without Meta = %s, %v; want Extra as it is", got, err)
	}
	if _, err := rtimpl.MetaToExtra(rootsrt.Root{URI: "file:///a", Meta: map[string]any{"f": func() {}}}); err == nil || !strings.Contains(err.Error(), "root file:///a: _meta") {
		t.Errorf("MetaToExtra of a _meta that cannot be written: %v", err)
	}
}

// The gate's errors say what to send, and match their sentinels.
func TestGateErrors(t *testing.T) {
	ir := &rootsrt.InputRequiredError{Version: inputVersion, Key: "k", Result: json.RawMessage(`{}`)}
	if !errors.Is(ir, rootsrt.ErrInputRequired) || ir.Error() != inputVersion+`: roots/list must be asked for in an input_required result: answer the request with the result that asks for inputRequests["k"]` {
		t.Errorf("InputRequiredError: %v", ir)
	}
	mc := &rootsrt.MissingCapabilityError{Version: inputVersion, Object: missingRoots()}
	if !errors.Is(mc, rootsrt.ErrNoRootsCapability) || mc.HTTPStatus() != 400 || mc.Error() != inputVersion+": the client did not declare the roots capability: JSON-RPC error -32021: roots required" {
		t.Errorf("MissingCapabilityError: %v", mc)
	}
	why := errors.New("_meta: no capabilities")
	mr := rtimpl.Malformed(inputVersion, why)
	object, _ := json.Marshal(mr.Object)
	if !errors.Is(mr, rootsrt.ErrMalformedRequest) || !errors.Is(mr, why) || errors.Is(mr, rootsrt.ErrNoRootsCapability) || mr.HTTPStatus() != 400 ||
		mr.Error() != inputVersion+": malformed request: _meta: no capabilities" || string(object) != `{"code":-32602,"message":"Invalid params","data":{"reason":"_meta: no capabilities"}}` {
		t.Errorf("MalformedRequestError: %v, %s", mr, object)
	}
}
