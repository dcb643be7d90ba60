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
