package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// conformanceCheck is one check of the suite's checks.json.
type conformanceCheck struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
}

// notApplicable are the checks of the scenarios below that cannot pass
// against a roots-only server, each with why. The suite reports them as
// failures ("Not testable") or skips them; every other check must pass.
var notApplicable = map[string]string{
	// server-stateless
	"sep-2575-server-rejects-undeclared-capability":              "calls test_missing_capability, which needs sampling",
	"sep-2575-missing-capability-http-400":                       "the same sampling tool; our -32021 for roots is tested in cmd/internal/demoserver",
	"sep-2575-http-server-no-independent-requests-on-stream":     "calls test_streaming_elicitation (elicitation)",
	"sep-2575-server-no-log-without-loglevel":                    "calls test_logging_tool (logging)",
	"sep-2575-server-sends-subscription-ack":                     "subscriptions/listen: the server sends no notifications",
	"sep-2575-server-tags-subscription-id":                       "subscriptions/listen",
	"sep-2575-server-honors-notification-filter":                 "subscriptions/listen",
	"sep-2575-server-sends-prompts-list-changed-on-subscription": "no prompts",
	"sep-2575-server-sends-tools-list-changed-on-subscription":   "the tool list never changes",
}

// conformanceScenarios are the server scenarios run against
// rootsdemo-server -http: those that exercise roots, requestState and the
// transport a roots server needs. README.md here says why the others are
// left out.
var conformanceScenarios = []string{
	"input-required-result-basic-list-roots",
	"input-required-result-tampered-state",
	"input-required-result-unsupported-methods",
	"server-stateless",
	"http-header-validation",
	"dns-rebinding-protection",
	"server-initialize",
	"server-session-lifecycle",
	"server-sse-multiple-streams",
	"tools-list",
}

// rootsChecks are the checks about roots and requestState that must be
// among those reported, so that a scenario cannot pass by checking less.
var rootsChecks = map[string][]string{
	"input-required-result-basic-list-roots": {"sep-2322-list-roots-incomplete", "sep-2322-list-roots-complete", "wire-schema-valid"},
	"input-required-result-tampered-state":   {"sep-2322-reject-tampered-state"},
	"server-stateless":                       {"sep-2575-http-server-header-mismatch-400", "sep-2575-http-server-unsupported-version-400", "sep-2575-http-server-meta-invalid-400"},
}

// TestConformance runs the official MCP conformance suite's server
// scenarios against rootsdemo-server started as `rootsdemo-server -http
// 127.0.0.1:PORT -allow DIR`, and checks every check the suite reports.
// The suite never calls read_file, so an empty DIR serves it.
func TestConformance(t *testing.T) {
	node, suite := peertest.Conformance(t)
	addr, stderr := startHTTPServer(t, peertest.Build(t, "rootsdemo-server"))
	url := "http://" + addr + "/mcp"
	for _, scenario := range conformanceScenarios {
		t.Run(scenario, func(t *testing.T) {
			out := t.TempDir()
			sctx, scancel := context.WithTimeout(context.Background(), nodeTimeout)
			defer scancel()
			run := exec.CommandContext(sctx, node, suite, "server", "--url", url, "--scenario", scenario, "-o", out)
			log, runErr := run.CombinedOutput()
			checks := readChecks(t, out, log)
			if len(checks) == 0 {
				t.Fatalf("the suite reported no checks (%v):\n%s", runErr, log)
			}
			failed := false
			seen := map[string]bool{}
			for _, c := range checks {
				seen[c.ID] = true
				why, na := notApplicable[c.ID]
				switch {
				case na:
					t.Logf("%s: %s (not applicable: %s)", c.ID, c.Status, why)
				case c.Status == "SUCCESS" || c.Status == "INFO":
					t.Logf("%s: %s", c.ID, c.Status)
				default:
					failed = true
					t.Errorf("%s: %s: %s", c.ID, c.Status, c.ErrorMessage)
				}
			}
			for _, id := range rootsChecks[scenario] {
				if !seen[id] {
					failed = true
					t.Errorf("the suite did not report the check %s", id)
				}
			}
			if failed {
				t.Logf("suite output:\n%s\nserver log:\n%s", log, stderr.String())
			}
		})
	}
}

// readChecks reads the checks.json the suite wrote under dir.
func readChecks(t *testing.T, dir string, log []byte) []conformanceCheck {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	if len(files) != 1 {
		t.Fatalf("want one checks.json under %s, found %q; suite output:\n%s", dir, files, log)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var checks []conformanceCheck
	if err := json.Unmarshal(raw, &checks); err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	return checks
}

// startHTTPServer starts the rootsdemo-server executable exe exactly as
// `rootsdemo-server -http 127.0.0.1:PORT -allow DIR`, DIR an empty
// temporary directory, waits until it listens, and returns its address
// and its stderr; the test's cleanup stops it.
func startHTTPServer(t *testing.T, exe string) (addr string, stderr *peertest.Buffer) {
	t.Helper()
	addr = freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, exe, "-http", addr, "-allow", t.TempDir())
	stderr = new(peertest.Buffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	waitListening(t, addr, stderr)
	return addr, stderr
}

// freeAddr returns a loopback address with a port no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// waitListening waits until the server accepts connections on addr; a
// server that never does fails the test after peertest.Wait.
func waitListening(t *testing.T, addr string, stderr *peertest.Buffer) {
	t.Helper()
	deadline := time.Now().Add(peertest.Wait)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("rootsdemo-server -http %s does not listen: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
