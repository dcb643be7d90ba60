package model

import (
	"testing"

	"github.com/rootsgen/rootsgen/generator/internal/load"
	"github.com/rootsgen/rootsgen/schema"
)

// build is the model of embedded revision rev, its names reserved as
// nothing the output declares.
func build(t *testing.T, rev string) (*Model, error) {
	t.Helper()
	data, err := schema.Open(rev)
	if err != nil {
		return nil, err
	}
	doc, err := load.Load(data, load.Options{})
	if err != nil {
		return nil, err
	}
	sel, err := Select(doc)
	if err != nil {
		return nil, err
	}
	return Build(rev, doc, sel, Reserved{Methods: func(string) []string { return nil }})
}

// TestNameOverridesUsed: every entry of the naming table names a path that
// some embedded revision has, so that stale entries do not pile up.
func TestNameOverridesUsed(t *testing.T) {
	seen := map[string]bool{}
	for _, rev := range schema.Revisions() {
		m, err := build(t, rev)
		if err != nil {
			t.Fatal(err)
		}
		for _, ty := range m.Types {
			seen[ty.Path] = true
			for _, c := range ty.Consts {
				seen[ty.Path+"."+c.JSONName] = true
			}
		}
	}
	for path := range nameOverrides {
		if !seen[path] {
			t.Errorf("nameOverrides[%q] matches nothing in any embedded revision", path)
		}
	}
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"uri": "URI", "_meta": "Meta", "id": "ID", "jsonrpc": "JSONRPC", "listChanged": "ListChanged",
		"RequestId": "RequestID", "JSONObject": "JSONObject", "io.modelcontextprotocol/protocolVersion": "ProtocolVersion",
		"foo_bar": "FooBar", "123abc": "X123abc", "": "Field", "type": "Type", "日本": "X日本", "éclair": "Éclair",
		"progressToken": "ProgressToken", "MetaObject": "MetaObject", "inputResponses": "InputResponses",
	} {
		if got := GoName(in); got != want {
			t.Errorf("GoName(%q) = %q, want %q", in, got, want)
		}
	}
}
