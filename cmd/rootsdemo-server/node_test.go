package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// nodeTimeout bounds one run of a Node peer, so that a hung peer fails the
// test instead of stalling it.
const nodeTimeout = 2 * time.Minute

type nodeRoot struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// nodeCall is what client.mjs saw of one list_roots call.
type nodeCall struct {
	StructuredContent struct {
		Roots []nodeRoot `json:"roots"`
	} `json:"structuredContent"`
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

// nodeSummary is the JSON object client.mjs prints.
type nodeSummary struct {
	ProtocolVersion string    `json:"protocolVersion"`
	ServerInfo      string    `json:"serverInfo"`
	Tools           []string  `json:"tools"`
	First           *nodeCall `json:"first"`
	SentListChanged bool      `json:"sentListChanged"`
	Second          *nodeCall `json:"second"`
	Third           *nodeCall `json:"third"`
	RootsListCalls  int       `json:"rootsListCalls"`
	Error           string    `json:"error"`
	Errors          []string  `json:"errors"`
}

// TestNodeClient runs the TypeScript SDK client (@modelcontextprotocol/client
// 2.4.0, testdata/interop/node/client.mjs) against rootsdemo-server on each
// revision it can speak: the client shares roots, calls list_roots, changes
// its roots (sending list_changed on 2025-era sessions), and calls twice more.
func TestNodeClient(t *testing.T) {
	node, dir := peertest.NodePeers(t)
	server := peertest.Build(t, "rootsdemo-server")
	first := []nodeRoot{{URI: "file:///work/alpha", Name: "alpha"}, {URI: "file:///work/beta"}}
	then := []nodeRoot{{URI: "file:///work/gamma", Name: "gamma"}}
	cases := []struct {
		name, version string
		args          []string
	}{
		{"default", "2025-11-25", nil},
		{"2025-06-18", "2025-06-18", []string{"--legacy", "2025-06-18"}},
		{"2025-03-26", "2025-03-26", []string{"--legacy", "2025-03-26"}},
		{"2024-11-05", "2024-11-05", []string{"--legacy", "2024-11-05"}},
		{"2026-07-28", "2026-07-28", []string{"--pin", "2026-07-28"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			transcript := filepath.Join(t.TempDir(), "transcript.txt")
			args := append([]string{"client.mjs"}, tc.args...)
			for _, r := range first {
				args = append(args, "--root", rootArg(r))
			}
			for _, r := range then {
				args = append(args, "--then", rootArg(r))
			}
			args = append(args, "--", server, "-transcript", transcript)
			got := runClient(t, node, dir, args)
			checkSummary(t, got, tc.version, []string{"list_roots", "read_file"}, first, then)
			raw, err := os.ReadFile(transcript)
			if err != nil {
				t.Fatal(err)
			}
			peertest.Check(t, filepath.Join("testdata", "transcripts", "node-client-"+tc.name+".txt"), string(raw), *update)
		})
	}
}

// runClient runs client.mjs with args and returns its summary; a run that
// fails or reports an error fails the test.
func runClient(t *testing.T, node, dir string, args []string) nodeSummary {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var got nodeSummary
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("client.mjs: %v (%v)\nstdout: %s\nstderr: %s", runErr, err, stdout.Bytes(), stderr.Bytes())
	}
	if runErr != nil || got.Error != "" {
		t.Fatalf("client.mjs failed: %v: %s\nsummary: %s\nstderr: %s", runErr, got.Error, stdout.Bytes(), stderr.Bytes())
	}
	return got
}

// checkSummary checks what client.mjs saw: the version, the tools, the
// roots of each call (first, then after the change), list_changed sent on
// 2025-era sessions only, and how often it was asked for roots.
func checkSummary(t *testing.T, got nodeSummary, version string, tools []string, first, then []nodeRoot) {
	t.Helper()
	legacy := version != "2026-07-28"
	if got.ProtocolVersion != version {
		t.Errorf("negotiated %q, want %q", got.ProtocolVersion, version)
	}
	if !reflect.DeepEqual(got.Tools, tools) {
		t.Errorf("tools = %q, want %q", got.Tools, tools)
	}
	checkCall(t, "first call", got.First, first)
	checkCall(t, "call after the change", got.Second, then)
	checkCall(t, "third call", got.Third, then)
	if got.SentListChanged != legacy {
		t.Errorf("client sent list_changed: %v, want %v", got.SentListChanged, legacy)
	}
	// 2025 revisions: the server asks once, caches, and asks again
	// after list_changed. 2026-07-28: every call asks in-band.
	wantAsks := 2
	if !legacy {
		wantAsks = 3
	}
	if got.RootsListCalls != wantAsks {
		t.Errorf("the client answered roots/list %d times, want %d", got.RootsListCalls, wantAsks)
	}
	if len(got.Errors) > 0 {
		t.Errorf("client errors: %q", got.Errors)
	}
}

func rootArg(r nodeRoot) string {
	if r.Name == "" {
		return r.URI
	}
	return r.URI + "=" + r.Name
}

// checkCall checks one list_roots result: the structured roots and the text
// block, which must carry the same JSON.
func checkCall(t *testing.T, what string, c *nodeCall, want []nodeRoot) {
	t.Helper()
	if c == nil {
		t.Errorf("%s: missing", what)
		return
	}
	if c.IsError {
		t.Errorf("%s: isError result: %s", what, c.Text)
	}
	if !reflect.DeepEqual(c.StructuredContent.Roots, want) {
		t.Errorf("%s: structuredContent roots = %+v, want %+v", what, c.StructuredContent.Roots, want)
	}
	var text struct {
		Roots []nodeRoot `json:"roots"`
	}
	if err := json.Unmarshal([]byte(c.Text), &text); err != nil || !reflect.DeepEqual(text.Roots, want) {
		t.Errorf("%s: text block %q does not hold the roots %+v (%v)", what, c.Text, want, err)
	}
}
