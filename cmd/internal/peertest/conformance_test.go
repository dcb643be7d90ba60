package peertest

import (
	"os/exec"
	"strings"
	"testing"
)

// TestConformanceSuiteRuns: the pinned suite starts under the pinned Node 22
// and names the roots scenarios the HTTP tests run.
func TestConformanceSuiteRuns(t *testing.T) {
	node, suite := Conformance(t)
	out, err := exec.Command(node, suite, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, out)
	}
	for _, scenario := range []string{"input-required-result-basic-list-roots", "request-metadata"} {
		if !strings.Contains(string(out), scenario) {
			t.Errorf("conformance list does not name %s:\n%s", scenario, out)
		}
	}
	v, err := exec.Command(node, "--version").Output()
	if err != nil || !strings.HasPrefix(string(v), "v22.") {
		t.Errorf("node --version = %q, %v; want v22.x", v, err)
	}
}
