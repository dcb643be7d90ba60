package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// conformanceCases are the client scenarios of the official MCP
// conformance suite that rootsdemo-client runs, each with every check it
// reports and the status it must have.
//
// request-metadata is the suite's only client scenario about roots: it
// checks, on every POST, the MCP-Protocol-Version header, the _meta
// fields and the roots capability declared there, and that the client
// retries a request whose version the server refused while listing it.
// Its sampling and elicitation checks report SKIPPED: they judge those
// capabilities only where a client declares them, and this client, which
// implements roots alone, declares neither.
//
// tools_call and initialize do not ask for roots, but their wire-schema
// check validates every message the client sent (the roots capability in
// initialize or in _meta among them) against the revision's schema, and
// they run the legacy session over HTTP against the suite's own server.
// sse-retry checks the resumption of a call's event stream that the
// server ends before the answer (a GET with Last-Event-ID, not before the
// retry interval the server named: a lower bound the client keeps by
// construction, so the check cannot fail on a slow machine).
var conformanceCases = []struct {
	scenario, spec string
	commands       []string // rootsdemo-client's stdin, one line each
	want           map[string]string
}{
	{"request-metadata", "2026-07-28", []string{"tools", "call echo {}"}, requestMetadataChecks},
	{"tools_call", "2026-07-28", []string{"tools", `call add_numbers {"a":1,"b":2}`}, map[string]string{
		"tool-add-numbers":  "SUCCESS",
		"wire-schema-valid": "SUCCESS",
	}},
	{"tools_call", "2025-11-25", []string{"tools", `call add_numbers {"a":1,"b":2}`}, map[string]string{
		"tool-add-numbers":  "SUCCESS",
		"wire-schema-valid": "SUCCESS",
	}},
	{"sse-retry", "2025-11-25", []string{"tools", "call test_reconnection {}"}, map[string]string{
		"client-sse-graceful-reconnect": "SUCCESS",
		"client-sse-retry-timing":       "SUCCESS",
		"client-sse-last-event-id":      "SUCCESS",
		"incoming-request":              "INFO",
		"outgoing-response":             "INFO",
		"outgoing-sse-event":            "INFO",
		"outgoing-stream-close":         "INFO",
	}},
	{"initialize", "2025-11-25", []string{"tools"}, map[string]string{
		"mcp-client-initialization": "SUCCESS",
		"server-info":               "INFO",
	}},
	{"initialize", "2025-06-18", []string{"tools"}, map[string]string{
		"mcp-client-initialization": "SUCCESS",
		"server-info":               "INFO",
	}},
}

// requestMetadataChecks are the checks of the request-metadata scenario
// and the status each must have.
var requestMetadataChecks = map[string]string{
	"sep-2575-http-client-sends-version-header":       "SUCCESS",
	"sep-2575-client-populates-meta":                  "SUCCESS",
	"sep-2575-client-sends-client-info":               "SUCCESS",
	"sep-2575-http-version-header-matches-meta":       "SUCCESS",
	"sep-2575-client-declares-roots-capability":       "SUCCESS",
	"sep-2575-client-declares-sampling-capability":    "SKIPPED",
	"sep-2575-client-declares-elicitation-capability": "SKIPPED",
	"sep-2575-client-retry-supported-version":         "SUCCESS",
}

// TestConformance runs rootsdemo-client -url under the official MCP
// conformance suite (0.2.0-alpha.12, pinned in testdata/interop/conformance)
// and checks each check the suite reports, by id and status.
//
// The suite starts its server, appends the server's URL to the command
// and runs it through a shell; the command feeds the client its commands
// on stdin, so that it makes some requests and then exits on its own.
func TestConformance(t *testing.T) {
	node, suite := peertest.Conformance(t)
	client := peertest.Build(t, "rootsdemo-client")
	if strings.ContainsAny(client, " '\"") {
		t.Skipf("the suite splits its command at spaces; the client's path %q cannot be quoted", client)
	}
	for _, tc := range conformanceCases {
		t.Run(tc.scenario+"-"+tc.spec, func(t *testing.T) {
			out := t.TempDir()
			transcript := filepath.Join(t.TempDir(), "transcript.txt")
			command := "printf '%s\\n' '" + strings.Join(tc.commands, "' '") + "' | " + client +
				" -protocol " + tc.spec + " -root file:///conformance=conformance -transcript " + transcript + " -url"
			cmd := exec.Command(node, suite, "client", "--command", command, "--scenario", tc.scenario, "--spec-version", tc.spec, "-o", out)
			output, err := cmd.CombinedOutput()
			frames, _ := os.ReadFile(transcript)
			if err != nil {
				t.Errorf("conformance client --scenario %s: %v\n%s\ntranscript:\n%s", tc.scenario, err, output, frames)
			}
			got := readChecks(t, out)
			for id, want := range tc.want {
				if got[id] != want {
					t.Errorf("%s: check %s is %q, want %q", tc.scenario, id, got[id], want)
				}
			}
			for id, status := range got {
				if _, ok := tc.want[id]; !ok {
					t.Errorf("%s: unexpected check %s (%s): add it to the table with the status it must have", tc.scenario, id, status)
				}
			}
			if t.Failed() {
				t.Logf("suite output:\n%s\ntranscript:\n%s", output, frames)
			}
		})
	}
}

// TestConformanceUnflagged runs the request-metadata scenario with nothing
// on the client's command line but -url, the way the suite's documentation
// runs a client under test:
//
//	conformance client --command "rootsdemo-client -url" --scenario request-metadata
//
// The suite's server refuses the first request with -32022 listing
// 2026-07-28: the client must offer its newest revision on its own, retry,
// and carry clientInfo in every _meta.
//
// The suite names its scenario in MCP_CONFORMANCE_SCENARIO; for this one
// the client runs the handshake and quits, so the suite's verdict is a
// plain pass, with nothing on the client's stderr.
func TestConformanceUnflagged(t *testing.T) {
	node, suite := peertest.Conformance(t)
	client := peertest.Build(t, "rootsdemo-client")
	if strings.ContainsAny(client, " '\"") {
		t.Skipf("the suite splits its command at spaces; the client's path %q cannot be quoted", client)
	}
	out := t.TempDir()
	cmd := exec.Command(node, suite, "client", "--command", client+" -url", "--scenario", "request-metadata", "-o", out)
	output, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(output), "TIMED OUT") || strings.Contains(string(output), "Client exited with code") {
		t.Errorf("conformance client: %v\n%s", err, output)
	}
	got := readChecks(t, out)
	for id, want := range requestMetadataChecks {
		if got[id] != want {
			t.Errorf("check %s is %q, want %q", id, got[id], want)
		}
	}
	for id, status := range got {
		if _, ok := requestMetadataChecks[id]; !ok {
			t.Errorf("unexpected check %s (%s)", id, status)
		}
	}
	files, _ := filepath.Glob(filepath.Join(out, "*", "stderr.txt"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); len(data) > 0 {
			t.Errorf("the client wrote to stderr:\n%s", data)
		}
	}
	if t.Failed() {
		t.Logf("suite output:\n%s", output)
	}
}

// readChecks reads the checks.json the suite wrote under dir, as check id
// to status. A check reported twice keeps its worst status.
func readChecks(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	if len(files) != 1 {
		t.Fatalf("the suite wrote %d checks.json files under %s, want 1", len(files), dir)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var checks []struct {
		ID, Status, ErrorMessage string
	}
	if err := json.Unmarshal(data, &checks); err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	rank := map[string]int{"FAILURE": 4, "WARNING": 3, "SUCCESS": 2, "INFO": 1, "SKIPPED": 0}
	got := map[string]string{}
	for _, c := range checks {
		if old, ok := got[c.ID]; !ok || rank[c.Status] > rank[old] {
			got[c.ID] = c.Status
		}
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			t.Logf("%s %s: %s", c.ID, c.Status, c.ErrorMessage)
		}
	}
	return got
}
