// Package prereq finds what some of rootsgen's tests need from outside the
// repository (the upstream spec checkout beside it, the go command, Node
// peers) and decides what a missing one means: under CI=true the test
// fails, elsewhere it skips with the reason.
package prereq

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Need stops the test when err says a prerequisite is missing: under
// CI=true it fails, elsewhere it skips with what and the reason.
func Need(t testing.TB, err error, what string) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %v (CI must provide it)", what, err)
	}
	t.Skipf("skipped: %s: %v (under CI=true this fails)", what, err)
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
	Need(t, err, fmt.Sprintf("the upstream MCP spec checkout at %s (schema/<revision>/schema.json)", filepath.Clean(dir)))
	return dir
}
