package peertest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// NodePeers returns the path of the node executable and the absolute path
// of testdata/interop/node, whose node_modules must have been installed
// with npm ci. Without them the test is skipped, except under CI=true,
// where it fails. With -short it skips: each run starts several processes.
func NodePeers(t testing.TB) (node, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the runs against the Node peers")
	}
	dir = filepath.Join(prereq.RepoRoot(t), "testdata", "interop", "node")
	node, err := exec.LookPath("node")
	prereq.Need(t, err, "node on PATH")
	for _, pkg := range []string{"client", "server", "server-filesystem"} {
		_, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "package.json"))
		prereq.Need(t, err, "the Node MCP packages (run npm ci in testdata/interop/node)")
	}
	return node, dir
}

// Build compiles the program cmd/<name> into a temporary directory and
// returns the executable's path.
func Build(t testing.TB, name string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/"+name)
	cmd.Dir = prereq.RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/%s: %v\n%s", name, err, out)
	}
	return exe
}

// Only keeps the frames of a transcript whose method keep accepts, and the
// answers to the kept requests; lines it cannot read are kept for
// Normalize to report.
func Only(transcript string, keep func(method string) bool) string {
	kept := map[string]bool{} // sender + id of kept requests
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(transcript, "\n"), "\n") {
		dir, body, _ := strings.Cut(line, " ")
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		if json.Unmarshal([]byte(body), &m) == nil {
			if m.Method != nil {
				if !keep(*m.Method) {
					continue
				}
				kept[dir+string(m.ID)] = true
			} else if sender := map[string]string{"<-": "->", "->": "<-"}[dir]; !kept[sender+string(m.ID)] {
				continue
			}
		}
		out.WriteString(line + "\n")
	}
	return out.String()
}
