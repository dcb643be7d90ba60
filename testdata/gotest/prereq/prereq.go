// Package prereq finds what some of rootsgen's tests need from outside the
// repository (the upstream spec checkout beside it, the go command, Node
// peers) and decides what a missing one means: under CI=true the test
// fails, elsewhere it skips with the reason.
package prereq

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Need stops the test when err says a prerequisite is missing: under
// CI=true it fails, elsewhere it skips with what and the reason, and tells
// the person running go test in one line (see Announce), without -v.
// what names the prerequisite and how to get it.
func Need(t testing.TB, err error, what string) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %v (CI must provide it)", what, err)
	}
	Announce(what)
	t.Skipf("skipped: %s: %v (under CI=true this fails)", what, err)
}

// Announce writes "rootsgen tests: skipped what" once per go test run
// where the person running it sees it: go test shows nothing of a passing
// package's output without -v, so the line goes to the terminal, else to
// the go command's own standard error (Linux), else to the test's. Test
// binaries of one go test run share a parent, the go command; a file
// named after it and what makes the line appear once, not once a package.
func Announce(what string) {
	line := "rootsgen tests: skipped " + what + "\n"
	sum := sha256.Sum256([]byte(what))
	mark := filepath.Join(os.TempDir(), fmt.Sprintf("rootsgen-skip-%d-%x", os.Getppid(), sum[:8]))
	f, err := os.OpenFile(mark, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return // announced by another package of this run
	}
	f.Close()
	for _, name := range []string{"/dev/tty", fmt.Sprintf("/proc/%d/fd/2", os.Getppid())} {
		if w, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			_, err = w.WriteString(line)
			w.Close()
			if err == nil {
				return
			}
		}
	}
	os.Stderr.WriteString(line)
}

// RepoRoot is the directory of rootsgen's go.mod, found upwards from the
// test's working directory (past the go.mod of the nested test module).
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/rootsgen/rootsgen\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("rootsgen's go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// SpecDir is the upstream MCP spec checkout, ../shared/mcp-spec beside the
// repository, with its schema/<revision>/schema.json files.
func SpecDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(RepoRoot(t), "..", "shared", "mcp-spec")
	fi, err := os.Stat(filepath.Join(dir, "schema"))
	if err == nil && !fi.IsDir() {
		err = errors.New("not a directory")
	}
	Need(t, err, fmt.Sprintf("the comparisons with the upstream MCP schemas: no spec checkout at %s (clone the MCP specification repository there; it holds schema/<revision>/schema.json)", filepath.Clean(dir)))
	return dir
}
