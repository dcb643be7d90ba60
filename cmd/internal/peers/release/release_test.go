// Package release tests rootsgen the way users get it: from a module proxy,
// at a version, outside this repository.
package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/modproxy"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// version is the made-up release the tests publish the checkout as.
const version = "v0.9.9"

// publish publishes the checkout in a proxy of the test's own.
func publish(t *testing.T) *modproxy.Proxy {
	t.Helper()
	if testing.Short() {
		t.Skip("builds rootsgen from a module proxy with the go command")
	}
	root := prereq.RepoRoot(t)
	return modproxy.Publish(t, root, t.TempDir(), version)
}

// goIn runs the go command in dir with the proxy's environment and returns
// its standard output.
func goIn(t *testing.T, p *modproxy.Proxy, dir string, args ...string) string {
	t.Helper()
	var stderr strings.Builder
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = p.Env
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// TestReleaseVersion: a released rootsgen says its version, in -version
// and in the header of every file it generates, whether it is run with go
// run module@version or pinned with go get -tool and run with go tool.
func TestReleaseVersion(t *testing.T) {
	p := publish(t)

	t.Run("go run module@version", func(t *testing.T) {
		dir := t.TempDir() // outside any module
		out := goIn(t, p, dir, "run", modproxy.ModulePath+"/cmd/rootsgen@"+version, "-version")
		if strings.TrimSpace(out) != "rootsgen "+version {
			t.Errorf("-version printed %q, want %q", out, "rootsgen "+version)
		}
	})

	t.Run("go tool", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.24.0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		goIn(t, p, dir, "get", "-tool", modproxy.ModulePath+"/cmd/rootsgen@"+version)
		if out := goIn(t, p, dir, "tool", "rootsgen", "-version"); strings.TrimSpace(out) != "rootsgen "+version {
			t.Errorf("-version printed %q, want %q", out, "rootsgen "+version)
		}
		goIn(t, p, dir, "tool", "rootsgen", "-revision", "2025-06-18", "-out", "mcproots")
		roots, err := os.ReadFile(filepath.Join(dir, "mcproots", "roots.go"))
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(roots), "\n")
		if !strings.Contains(first, version) || strings.Contains(first, "devel") {
			t.Errorf("the generated header does not name %s: %q", version, first)
		}
	})
}
