package main

import (
	"encoding/json"
	"os"
	"os/exec"
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

// TestGateWithSchema: a gate serves a revision generated with -schema when
// given the same schema, and the packages and the gate compile together.
func TestGateWithSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiles a module")
	}
	dir := t.TempDir()
	file := editedSchema(t, dir, "2026-07-28", func(map[string]any) {})
	// A revision whose AskForRoots is left out (a renamed member): the
	// gate must not call it.
	renamed := editedSchema(t, t.TempDir(), "2026-07-28", func(defs map[string]any) {
		props := defs["InputRequiredResult"].(map[string]any)["properties"].(map[string]any)
		props["requests"] = props["inputRequests"]
		delete(props, "inputRequests")
	})
	mod := filepath.Join(dir, "app")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/app\n\ngo 1.24\n")
	for _, args := range [][]string{
		{"-revision", "2025-06-18", "-out", filepath.Join(mod, "r20250618")},
		{"-revision", "2026-09-01", "-schema", file, "-out", filepath.Join(mod, "r20260901")},
		{"-revision", "2026-10-01", "-schema", renamed, "-out", filepath.Join(mod, "r20261001")},
	} {
		if code, _, stderr := rootsgen(t, nil, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	const pairs = "2025-06-18=example.com/app/r20250618,2026-09-01=example.com/app/r20260901"
	code, _, stderr := rootsgen(t, nil, "-gate", pairs, "-out", filepath.Join(mod, "gate"))
	if code != exitUsage || !strings.Contains(stderr, `unknown revision "2026-09-01"`) || !strings.Contains(stderr, "-schema 2026-09-01=FILE") {
		t.Errorf("gate without the schema: exit %d, stderr:\n%s\nwant exit 2 and how to give the schema", code, stderr)
	}
	for _, schemaFlag := range []string{"2026-09-01=" + file, file} {
		code, _, stderr := rootsgen(t, nil, "-gate", pairs, "-schema", schemaFlag, "-out", filepath.Join(mod, "gate"))
		if code != exitOK {
			t.Fatalf("gate with -schema %s: exit %d: %s", schemaFlag, code, stderr)
		}
	}
	code, _, stderr = rootsgen(t, nil, "-gate", pairs+",2026-10-01=example.com/app/r20261001", "-schema", "2026-09-01="+file+",2026-10-01="+renamed, "-out", filepath.Join(mod, "gate2"))
	if code != exitOK {
		t.Fatalf("gate over a revision without AskForRoots: exit %d: %s", code, stderr)
	}
	gate, _ := os.ReadFile(filepath.Join(mod, "gate", "gate.go"))
	if !strings.Contains(string(gate), `{Version: "2026-09-01", DirectRequest: false, InputRequests: true`) {
		t.Error("the gate does not serve 2026-09-01 with inputRequests")
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}
