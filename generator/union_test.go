package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// unionVariant is an embedded schema with edit applied to its decoded
// definitions; ref makes a reference in the schema's own keyword.
func unionVariant(t *testing.T, rev string, edit func(defs map[string]any, ref func(string) map[string]any)) []byte {
	t.Helper()
	data, err := schema.Open(rev)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	key := "$defs"
	if doc[key] == nil {
		key = "definitions"
	}
	defs := doc[key].(map[string]any)
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/" + key + "/" + name} }
	// Messages of other features, each with a closure of its own, as a
	// full MCP schema has them.
	for _, name := range []string{"PingRequest", "CreateMessageRequest"} {
		defs[name] = map[string]any{"type": "object", "required": []any{"method"}, "properties": map[string]any{
			"method": map[string]any{"type": "string", "const": strings.ToLower(name)},
			"params": ref(name + "Params"),
		}}
		params := map[string]any{}
		for i := range 40 {
			params[fmt.Sprintf("member%d", i)] = map[string]any{"type": "string"}
		}
		defs[name+"Params"] = map[string]any{"type": "object", "properties": params}
	}
	edit(defs, ref)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// packageSize is the type names of a generated package and its lines.
func packageSize(t *testing.T, rev string, data []byte) (*Model, []string, int) {
	t.Helper()
	files, m, err := Generate(Options{Revision: rev, Schema: data, Package: "roots", Version: goldenVersion})
	if err != nil {
		t.Fatalf("%s: %v", rev, err)
	}
	var names []string
	for _, ty := range m.Types {
		names = append(names, ty.Name)
	}
	lines := 0
	for _, f := range files {
		lines += bytes.Count(f.Content, []byte("\n"))
	}
	return m, names, lines
}

// TestUnionsKeepOnlyRootsArms: a union of definitions that the roots
// closure reaches (a ServerRequest, an InputRequest, a member's anyOf or
// oneOf) brings none of its other arms into the package: it is cut down to
// its roots arms, or, with none, left out (a seed) or kept as an untyped
// value with a warning naming the definition, the member and the arms.
func TestUnionsKeepOnlyRootsArms(t *testing.T) {
	unrelated := []string{"PingRequest", "PingRequestParams", "CreateMessageRequest", "CreateMessageRequestParams"}
	for _, tc := range []struct {
		name, rev string
		edit      func(defs map[string]any, ref func(string) map[string]any)
		// what the variant's package has that the embedded one's has too
		direct, input bool
		warnings      []Warning
	}{
		{name: "an unrelated arm beside the roots arm", rev: "2025-06-18", direct: true,
			edit: func(defs map[string]any, ref func(string) map[string]any) {
				defs["ServerRequest"].(map[string]any)["anyOf"] = []any{ref("PingRequest"), ref("ListRootsRequest"), ref("CreateMessageRequest")}
			}},
		{name: "oneOf with an unrelated arm", rev: "2025-11-25", direct: true,
			edit: func(defs map[string]any, ref func(string) map[string]any) {
				sr := defs["ServerRequest"].(map[string]any)
				delete(sr, "anyOf")
				sr["oneOf"] = []any{ref("ListRootsRequest"), ref("PingRequest")}
			}},
		{name: "oneOf of roots arms only", rev: "2025-11-25", direct: true,
			edit: func(defs map[string]any, ref func(string) map[string]any) {
				sr := defs["ServerRequest"].(map[string]any)
				delete(sr, "anyOf")
				delete(sr, "$comment") // the schema's whole union, not a cut-down one
				sr["oneOf"] = []any{ref("ListRootsRequest")}
			}},
		{name: "a seed union without a roots arm", rev: "2025-06-18", direct: false,
			edit: func(defs map[string]any, ref func(string) map[string]any) {
				defs["ServerRequest"].(map[string]any)["anyOf"] = []any{ref("PingRequest"), ref("CreateMessageRequest")}
			}},
		{name: "a union without a roots arm that the closure needs", rev: "2026-07-28", input: false,
			edit: func(defs map[string]any, ref func(string) map[string]any) {
				defs["InputRequest"].(map[string]any)["anyOf"] = []any{ref("CreateMessageRequest"), ref("PingRequest")}
			},
			warnings: []Warning{{Definition: "InputRequest", Reason: "the union (anyOf) has no arm of the roots feature, so it is kept as an untyped JSON value and its arm(s) CreateMessageRequest, PingRequest are not generated"}}},
		{name: "an unrelated arm in the 2026 input request", rev: "2026-07-28", input: true,
			edit: func(defs map[string]any, ref func(string) map[string]any) {
				defs["InputRequest"].(map[string]any)["anyOf"] = []any{ref("CreateMessageRequest"), ref("ListRootsRequest"), ref("PingRequest")}
			}},
		{name: "a member's union", rev: "2026-07-28", input: true,
			edit: func(defs map[string]any, ref func(string) map[string]any) {
				props := defs["InputRequiredResult"].(map[string]any)["properties"].(map[string]any)
				props["followUp"] = map[string]any{"oneOf": []any{ref("PingRequest"), ref("CreateMessageRequest")}}
				props["asked"] = map[string]any{"type": "array", "items": map[string]any{"anyOf": []any{ref("ListRootsRequest"), ref("PingRequest")}}}
			},
			warnings: []Warning{{Definition: "InputRequiredResult", Member: "followUp", Reason: "the union (oneOf) has no arm of the roots feature, so it is kept as an untyped JSON value and its arm(s) PingRequest, CreateMessageRequest are not generated"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, baseNames, baseLines := packageSize(t, tc.rev, nil)
			m, names, lines := packageSize(t, tc.rev, unionVariant(t, tc.rev, tc.edit))
			for _, n := range names {
				if slices.Contains(unrelated, n) {
					t.Errorf("the package declares %s, an arm of another feature", n)
				}
			}
			for _, n := range unrelated {
				if slices.ContainsFunc(m.Types, func(ty *Type) bool { return strings.HasPrefix(ty.Path, n+".") }) {
					t.Errorf("the package has types nested in %s", n)
				}
			}
			for _, ty := range m.Types {
				// The members added to InputRequiredResult have types of
				// their own; nothing else is new.
				if !slices.Contains(baseNames, ty.Name) && !strings.HasPrefix(ty.Path, "InputRequiredResult.") {
					t.Errorf("the package declares %s (%s), which the embedded schema's does not", ty.Name, ty.Path)
				}
			}
			// A cut-down union is an arm or a member more or less, never
			// another feature's closure (each unrelated arm here brings a
			// struct of 40 members, several hundred lines).
			if lines > baseLines+150 {
				t.Errorf("the package has %d lines, the embedded schema's %d: it grew with the unrelated arms", lines, baseLines)
			}
			if m.Features.DirectRequest != tc.direct || m.Features.InputRequests != tc.input {
				t.Errorf("features: direct request %v, input requests %v; want %v, %v", m.Features.DirectRequest, m.Features.InputRequests, tc.direct, tc.input)
			}
			if tc.name == "oneOf of roots arms only" {
				// Nothing was cut, so the union is the schema's whole.
				for _, ty := range m.Types {
					if ty.Path == "ServerRequest" && ty.Partial {
						t.Error("ServerRequest is marked as the roots part only, but it kept every arm")
					}
				}
			}
			if !slices.Equal(m.Warnings, tc.warnings) {
				t.Errorf("warnings:\n got %v\nwant %v", m.Warnings, tc.warnings)
			}
		})
	}
}
