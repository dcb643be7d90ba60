package generator

import (
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generator/internal/load"
	"github.com/rootsgen/rootsgen/schema"
)

// TestPagingCursorTypes: a cursor counts as a string when the schema
// writes it as one or as a reference to a definition that is one (aliases
// followed), as MCP's Cursor is; a cursor of any other type, or one whose
// values an "enum" restricts, still leaves Server.Roots on the first page.
func TestPagingCursorTypes(t *testing.T) {
	base, err := schema.Open("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	const (
		params = "/definitions/ListRootsRequest/properties/params/properties/cursor"
		next   = "/definitions/ListRootsResult/properties/nextCursor"
	)
	ref := `{"$ref": "#/definitions/Cursor"}`
	for _, tc := range []struct {
		name         string
		cursor, defs string // the Cursor definition and any other, as JSON members
		cursorMember string
		nextMember   string
		paging, warn string
	}{
		{name: "inline strings", cursorMember: `{"type": "string"}`, nextMember: `{"type": "string"}`,
			paging: "paging(Cursor,NextCursor)"},
		{name: "both through Cursor", defs: `{"type": "string"}`, cursorMember: ref, nextMember: ref,
			paging: "paging(Cursor Cursor,NextCursor Cursor)"},
		{name: "one through Cursor", defs: `{"type": "string"}`, cursorMember: ref, nextMember: `{"type": "string"}`,
			paging: "paging(Cursor Cursor,NextCursor)"},
		{name: "Cursor an alias of a string definition", defs: `{"$ref": "#/definitions/Token"}`, cursorMember: ref, nextMember: ref,
			paging: "paging(Cursor Cursor,NextCursor Cursor)"},
		{name: "Cursor a number", defs: `{"type": "integer"}`, cursorMember: ref, nextMember: ref,
			warn: "ListRootsRequest.params.cursor: it is Cursor, not a string; Server.Roots reads the first page only"},
		{name: "Cursor an enum", defs: `{"type": "string", "enum": ["a", "b"]}`, cursorMember: `{"type": "string"}`, nextMember: ref,
			warn: "ListRootsResult.nextCursor: it is Cursor, not a string; Server.Roots reads the first page only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := []load.PatchOp{
				{Op: "add", Path: "/definitions/Token", Value: []byte(`{"type": "string"}`)},
				{Op: "add", Path: params, Value: []byte(tc.cursorMember)},
				{Op: "add", Path: next, Value: []byte(tc.nextMember)},
			}
			if tc.defs != "" {
				ops = append(ops, load.PatchOp{Op: "add", Path: "/definitions/Cursor", Value: []byte(tc.defs)})
			}
			data, err := load.Patch(base, ops)
			if err != nil {
				t.Fatal(err)
			}
			m, err := BuildModel(Options{Revision: "2025-06-18", Schema: data})
			if err != nil {
				t.Fatal(err)
			}
			summary := m.Plan.Summary()
			if tc.paging != "" && !strings.Contains(summary, " "+tc.paging+" ") {
				t.Errorf("plan %q; want %s", firstLine(summary), tc.paging)
			}
			if tc.warn != "" && (m.Plan.Paging != nil || !strings.Contains(summary, "warning: "+tc.warn+"\n")) {
				t.Errorf("plan:\n%s\nwant no paging and the warning %q", summary, tc.warn)
			}
			if tc.warn == "" && strings.Contains(summary, "warning: ") {
				t.Errorf("plan:\n%s\nwant no warning", summary)
			}
		})
	}
}
