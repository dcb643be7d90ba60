package generated_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// The tests in this file feed the generator variants of the embedded
// schemas, as a later revision might change them (pagination, enums, new
// required members, envelopes), and run a Go test inside each generated
// package: the package must build, pass its own examples and behave as the
// test says.

// variantSchema returns the embedded schema of rev after edit has changed
// its definitions (decoded as generic JSON).
func variantSchema(t *testing.T, rev string, edit func(defs map[string]any)) []byte {
	t.Helper()
	raw, err := schema.Open(rev)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	if defs == nil {
		defs, _ = doc["definitions"].(map[string]any)
	}
	if defs == nil {
		t.Fatalf("%s: no definitions", rev)
	}
	edit(defs)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// object returns the member key of JSON object m, which must be an object.
func object(t *testing.T, m map[string]any, keys ...string) map[string]any {
	t.Helper()
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			t.Fatalf("no object at %q", k)
		}
		m = next
	}
	return m
}

// runInVariant generates package mcproots from data in a scratch module,
// adds the test file test (package mcproots), and runs go test there:
// the generated examples run too.
func runInVariant(t *testing.T, rev string, data []byte, test string) *generator.Model {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go test in a scratch module")
	}
	goCmd, err := exec.LookPath("go")
	prereq.Need(t, err, "this test runs the go command")
	files, m, err := generator.Generate(generator.Options{Revision: rev, Schema: data, Package: "mcproots"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/variant\n\ngo 1.24\n")
	for _, f := range files {
		write(filepath.Join("mcproots", f.Name), string(f.Content))
	}
	write("mcproots/variant_test.go", test)
	cmd := exec.Command(goCmd, "test", "-count=1", "./mcproots")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go test in the package generated from the variant: %v\n%s", err, out)
	}
	return m
}

// TestEnumVariant: an "enum" on a member becomes a named type with a
// typed constant per value, and Validate rejects any other value.
func TestEnumVariant(t *testing.T) {
	data := variantSchema(t, "2025-06-18", func(defs map[string]any) {
		props := object(t, defs, "Root", "properties")
		props["kind"] = map[string]any{"type": "string", "enum": []any{"directory", "file", "read-only"}}
		props["level"] = map[string]any{"type": "integer", "enum": []any{1, 2, -1}}
	})
	runInVariant(t, "2025-06-18", data, enumVariantTest)
}

const enumVariantTest = `package mcproots

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEnum(t *testing.T) {
	var kinds = []RootKind{RootKindDirectory, RootKindFile, RootKindReadOnly}
	if string(kinds[2]) != "read-only" {
		t.Errorf("RootKindReadOnly = %q", kinds[2])
	}
	if RootLevelMinus1 != -1 || RootLevel2 != 2 {
		t.Error("integer enum constants")
	}
	for _, k := range kinds {
		r := Root{URI: "file:///p", Kind: k, Level: RootLevel1}
		if err := r.Validate(); err != nil {
			t.Errorf("kind %q: %v", k, err)
		}
	}
	if err := (&Root{URI: "file:///p"}).Validate(); err != nil {
		t.Errorf("optional enum members absent: %v", err)
	}
	err := (&Root{URI: "file:///p", Kind: "socket", Level: 7}).Validate()
	if err == nil || !strings.Contains(err.Error(), "kind: \"socket\" is not one of") || !strings.Contains(err.Error(), "level: 7 is not one of") {
		t.Errorf("values outside the enum: got %v", err)
	}
	var res ListRootsResult
	if err := json.Unmarshal([]byte(` + "`" + `{"roots":[{"uri":"file:///a","kind":"file"},{"uri":"file:///b","kind":"pipe"}]}` + "`" + `), &res); err != nil {
		t.Fatal(err)
	}
	good, err := res.ValidRoots()
	if len(good) != 1 || good[0].Kind != RootKindFile || err == nil || !strings.Contains(err.Error(), "roots[1].kind") {
		t.Errorf("ValidRoots = %v, %v", good, err)
	}
	if err := RootKind("pipe").Validate(); err == nil {
		t.Error("RootKind.Validate accepts a value outside the enum")
	}
}
`

// TestEnvelopeOnEmbeddedRequest: a 2026-07-28 variant whose embedded
// ListRootsRequest is a whole JSON-RPC request (jsonrpc and a required
// id) must still ask for roots: AskForRoots fills the envelope, and the
// client answers the request it builds.
func TestEnvelopeOnEmbeddedRequest(t *testing.T) {
	data := variantSchema(t, "2026-07-28", func(defs map[string]any) {
		req := object(t, defs, "ListRootsRequest")
		props := object(t, req, "properties")
		props["jsonrpc"] = map[string]any{"type": "string", "const": "2.0"}
		props["id"] = map[string]any{"$ref": "#/$defs/RequestId"}
		req["required"] = []any{"jsonrpc", "id", "method"}
	})
	m := runInVariant(t, "2026-07-28", data, envelopeVariantTest)
	if !m.Features.RequestEnvelope || !m.Plan.Ask {
		t.Errorf("features %+v, plan %s: want an envelope and AskForRoots", m.Features, m.Plan.Summary())
	}
}

const envelopeVariantTest = `package mcproots

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestAskWithEnvelope(t *testing.T) {
	ask, err := AskForRoots("roots", "")
	if err != nil {
		t.Fatalf("AskForRoots: %v", err)
	}
	b, err := json.Marshal(ask)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), ` + "`" + `"jsonrpc":"2.0"` + "`" + `) || !strings.Contains(string(b), ` + "`" + `"id":` + "`" + `) {
		t.Errorf("the embedded request lacks its envelope: %s", b)
	}
	var back InputRequiredResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Errorf("the asking result does not validate: %v", err)
	}
	client := &Client{
		Capability: &RootsCapability{},
		Handler: ListRootsHandlerFunc(func(context.Context, *ListRootsParams) (*ListRootsResult, error) {
			return &ListRootsResult{Roots: []Root{{URI: "file:///src"}}}, nil
		}),
	}
	responses, others, err := client.AnswerInputRequests(context.Background(), back.InputRequests)
	if err != nil || len(others) != 0 {
		t.Fatalf("AnswerInputRequests: %v, others %v", err, others)
	}
	roots, err := RootsFromInputResponses(&InputResponseRequestParams{InputResponses: responses}, "roots", false)
	if err != nil || len(roots) != 1 || roots[0].URI != "file:///src" {
		t.Errorf("RootsFromInputResponses = %v, %v", roots, err)
	}
}
`

// TestPagination: a 2025-06-18 variant whose roots/list pages its answer
// (params.cursor, ListRootsResult.nextCursor, as other MCP list requests
// have). Server.Roots follows the cursor and caches the whole list, within
// MaxPages and without going round a cycle; ListRootsPage serves a list in
// pages on the client side.
func TestPagination(t *testing.T) {
	data := variantSchema(t, "2025-06-18", func(defs map[string]any) {
		params := object(t, defs, "ListRootsRequest", "properties", "params", "properties")
		params["cursor"] = map[string]any{"type": "string", "description": "Where the page the server asks for begins."}
		result := object(t, defs, "ListRootsResult", "properties")
		result["nextCursor"] = map[string]any{"type": "string", "description": "The cursor of the next page, when there is one."}
	})
	m := runInVariant(t, "2025-06-18", data, pagingVariantTest)
	if m.Plan.Paging == nil {
		t.Errorf("plan %s: want paging", m.Plan.Summary())
	}
}

const pagingVariantTest = `package mcproots

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func many(n int) []Root {
	var roots []Root
	for i := range n {
		roots = append(roots, Root{URI: fmt.Sprintf("file:///r/%d", i)})
	}
	return roots
}

func TestServerFollowsCursor(t *testing.T) {
	all := many(250)
	client := &Client{
		Capability: &RootsCapability{ListChanged: true},
		Handler: ListRootsHandlerFunc(func(ctx context.Context, p *ListRootsParams) (*ListRootsResult, error) {
			return ListRootsPage(all, p.Cursor, 0)
		}),
	}
	var cursors []string
	server := &Server{
		ClientRoots: client.Capability,
		Request: func(ctx context.Context, m Method, params json.RawMessage) (json.RawMessage, error) {
			var p ListRootsParams
			if err := json.Unmarshal(params, &p); err != nil {
				return nil, err
			}
			cursors = append(cursors, p.Cursor)
			out, rpcErr := client.HandleRequest(ctx, string(m), params)
			if rpcErr != nil {
				return nil, rpcErr
			}
			return out, nil
		},
	}
	roots, err := server.Roots(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 250 || roots[0].URI != "file:///r/0" || roots[249].URI != "file:///r/249" {
		t.Fatalf("got %d roots, want all 250 in order", len(roots))
	}
	if fmt.Sprint(cursors) != "[ 100 200]" {
		t.Errorf("cursors sent: %q, want the first page and then each nextCursor", cursors)
	}
	// The whole list is cached: the client announces changes.
	again, err := server.Roots(context.Background())
	if err != nil || len(again) != 250 || len(cursors) != 3 {
		t.Errorf("second Roots: %d roots, %v, %d requests in all; want the cached 250 and no new request", len(again), err, len(cursors))
	}
}

func TestServerPageBounds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		next  func(n int) string
		want  string
		calls int
	}{
		{"repeated cursor", func(n int) string { return "same" }, "repeats the cursor", 2},
		{"cycle", func(n int) string { return []string{"a", "b"}[n%2] }, "repeats the cursor", 3},
		{"endless", func(n int) string { return fmt.Sprint("c", n) }, "too many pages", 5},
	} {
		calls := 0
		server := &Server{
			ClientRoots: &RootsCapability{},
			MaxPages:    5,
			Request: func(ctx context.Context, m Method, params json.RawMessage) (json.RawMessage, error) {
				calls++
				return json.Marshal(ListRootsResult{Roots: many(1), NextCursor: tc.next(calls)})
			},
		}
		roots, err := server.Roots(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.want) || roots != nil {
			t.Errorf("%s: Roots = %d roots, %v; want an error saying %q", tc.name, len(roots), err, tc.want)
		}
		if tc.name == "endless" && !errors.Is(err, ErrTooManyPages) {
			t.Errorf("%s: %v does not wrap ErrTooManyPages", tc.name, err)
		}
		if calls != tc.calls {
			t.Errorf("%s: %d requests, want %d", tc.name, calls, tc.calls)
		}
	}
}

func TestListRootsPage(t *testing.T) {
	all := many(5)
	first, err := ListRootsPage(all, "", 2)
	if err != nil || len(first.Roots) != 2 || first.NextCursor == "" {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	last, err := ListRootsPage(all, "4", 2)
	if err != nil || len(last.Roots) != 1 || last.NextCursor != "" || last.Roots[0].URI != "file:///r/4" {
		t.Errorf("last page: %+v, %v", last, err)
	}
	for _, bad := range []string{"x", "-1", "0", "6", "02"} {
		_, err := ListRootsPage(all, bad, 2)
		var rpcErr *RPCError
		if !errors.As(err, &rpcErr) || rpcErr.Code != CodeInvalidParams {
			t.Errorf("cursor %q: %v, want an *RPCError with CodeInvalidParams", bad, err)
		}
	}
}
`

// TestExamplesFillRequiredMembers: a variant whose Root and
// ListRootsResult gain required members (an enum, an integer, an object
// with a required member of its own, a union) still gets its examples, and
// they pass: every value they write has every required member.
func TestExamplesFillRequiredMembers(t *testing.T) {
	for _, rev := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			ref := "#/definitions/ProgressToken"
			if rev == "2025-11-25" {
				ref = "#/$defs/ProgressToken"
			}
			data := variantSchema(t, rev, func(defs map[string]any) {
				root := object(t, defs, "Root")
				props := object(t, root, "properties")
				props["kind"] = map[string]any{"type": "string", "enum": []any{"directory", "file"}}
				props["priority"] = map[string]any{"type": "integer"}
				props["owner"] = map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}, "required": []any{"id"}}
				props["token"] = map[string]any{"$ref": ref}
				root["required"] = []any{"uri", "kind", "priority", "owner", "token"}
				result := object(t, defs, "ListRootsResult")
				object(t, result, "properties")["total"] = map[string]any{"type": "integer"}
				result["required"] = []any{"roots", "total"}
			})
			m := runInVariant(t, rev, data, "package mcproots\n")
			if !m.Plan.Examples {
				t.Errorf("plan %s: want the examples", m.Plan.Summary())
			}
		})
	}
}
