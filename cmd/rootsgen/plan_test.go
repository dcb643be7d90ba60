package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// editedSchema writes the embedded schema of rev, with edit applied to its
// definitions, into dir and returns the file's path.
func editedSchema(t *testing.T, dir, rev string, edit func(defs map[string]any)) string {
	t.Helper()
	data, err := schema.Open(rev)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	if defs == nil {
		defs = doc["definitions"].(map[string]any)
	}
	edit(defs)
	if data, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, filepath.Join(dir, rev+"-edited.json"), string(data))
}

// TestStrict: a part of the roots feature in a shape rootsgen cannot write
// (here InputRequiredResult.inputRequests renamed) is a warning naming the
// definition, the member and the reason; -v lists the plan; doc.go states
// what is left out; -strict exits 2 and writes nothing.
func TestStrict(t *testing.T) {
	dir := t.TempDir()
	file := editedSchema(t, dir, "2026-07-28", func(defs map[string]any) {
		props := defs["InputRequiredResult"].(map[string]any)["properties"].(map[string]any)
		props["requests"] = props["inputRequests"]
		delete(props, "inputRequests")
	})
	const warning = "rootsgen: warning: InputRequiredResult.inputRequests: no such member (renamed or removed?); AskForRoots, RootsFromInputResponses"

	strictOut := filepath.Join(dir, "strict")
	code, _, stderr := rootsgen(t, nil, "-revision", "2026-07-28", "-schema", file, "-out", strictOut, "-strict")
	if code != exitUsage || !strings.Contains(stderr, warning) || !strings.Contains(stderr, "-strict: ") || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("-strict: exit %d, stderr:\n%s\nwant exit 2 and the warning", code, stderr)
	}
	if _, err := os.Stat(strictOut); !os.IsNotExist(err) {
		t.Errorf("-strict wrote %s (stat: %v)", strictOut, err)
	}

	out := filepath.Join(dir, "lenient")
	code, _, stderr = rootsgen(t, nil, "-revision", "2026-07-28", "-schema", file, "-out", out, "-v")
	if code != exitOK || !strings.Contains(stderr, warning) {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 0 and the warning", code, stderr)
	}
	if !strings.Contains(stderr, "rootsgen: plan for 2026-07-28: handlers(") || strings.Contains(stderr, " ask(") {
		t.Errorf("-v does not list the plan without ask:\n%s", stderr)
	}
	roots, _ := os.ReadFile(filepath.Join(out, "roots.go"))
	doc, _ := os.ReadFile(filepath.Join(out, "doc.go"))
	if strings.Contains(string(roots), "func AskForRoots") || !strings.Contains(string(roots), "func (c *Client) AnswerInputRequests") {
		t.Error("roots.go: want AnswerInputRequests without AskForRoots")
	}
	if !strings.Contains(string(doc), "Left out:") || !strings.Contains(string(doc), "InputRequiredResult.inputRequests: no such member") || strings.Contains(string(doc), "[AskForRoots]") {
		t.Errorf("doc.go does not state what is left out:\n%s", doc)
	}

	// The embedded revisions have nothing left out.
	for _, rev := range schema.Revisions() {
		code, _, stderr := rootsgen(t, nil, "-revision", rev, "-out", filepath.Join(dir, rev), "-package", "mcproots", "-strict")
		if code != exitOK || stderr != "" {
			t.Errorf("%s -strict: exit %d, stderr %q", rev, code, stderr)
		}
	}
}
