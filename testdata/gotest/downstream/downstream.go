// Package downstream builds throwaway Go modules that use rootsgen the way
// a user's module does, and runs the go command and staticcheck in them.
// Tests only: every module lives in the test's temporary directory.
package downstream

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

const (
	// ModulePath is rootsgen's module path.
	ModulePath = "github.com/rootsgen/rootsgen"
	// AppPath is the downstream module's path. It has a dot, as a real
	// user's would: staticcheck takes a dotless import path for the
	// standard library and reports no deprecations in it.
	AppPath = "example.com/app"
	// StaticcheckVersion is the staticcheck the tests run; the go command
	// fetches it through the module proxy the first time.
	StaticcheckVersion = "v0.8.2"
	// unpublished is the version a downstream go.mod requires rootsgen at;
	// a replace directive points that requirement at this checkout.
	unpublished = "v0.0.0-00010101000000-000000000000"
	// bound caps each module's go commands, so that a hung download fails
	// the test with its output instead of waiting for the test timeout.
	bound = 5 * time.Minute
)

// Module is a downstream module example.com/app in a temporary directory.
type Module struct {
	t   testing.TB
	ctx context.Context
	// Dir is the module's root directory.
	Dir string
	// Env is the environment of every command run in the module.
	Env   []string
	goCmd string
}

// New makes the module. Its go.mod requires rootsgen and replaces it with
// the checkout the test runs in. The go command and the module proxy must
// be reachable (see prereq.Need); GOMODCACHE and GOCACHE are the environment's, so
// the modules and builds are shared with the rest of the test run.
func New(t testing.TB) *Module {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	prereq.Need(t, err, "the downstream tests run the go command")
	repoRoot := prereq.RepoRoot(t)
	tmp := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	t.Cleanup(cancel)
	m := &Module{t: t, ctx: ctx, Dir: filepath.Join(tmp, "app"), goCmd: goCmd}
	m.Env = append(os.Environ(),
		"GOWORK=off",
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"),
		"GOPROXY="+proxyThenOff(m.goEnv("GOPROXY")),
		// Keep staticcheck's analysis cache inside the test's temp dir.
		"STATICCHECK_CACHE="+filepath.Join(tmp, "staticcheck-cache"),
	)
	// The modules the checkout needs, and staticcheck, must be in the
	// module cache or come from the proxy.
	root := &Module{t: t, ctx: ctx, Dir: repoRoot, Env: m.Env, goCmd: goCmd}
	if out, err := root.Go("mod", "download"); err != nil {
		prereq.Need(t, fmt.Errorf("%v\n%s", err, out), "downloading rootsgen's modules (module cache or proxy)")
	}
	if out, err := root.Go("mod", "download", "honnef.co/go/tools@"+StaticcheckVersion); err != nil {
		prereq.Need(t, fmt.Errorf("%v\n%s", err, out), "downloading staticcheck (module cache or proxy)")
	}
	m.Write("go.mod", fmt.Sprintf("module %s\n\ngo 1.25.0\n\nrequire %s %s\n\nreplace %s => %s\n",
		AppPath, ModulePath, unpublished, ModulePath, repoRoot))
	return m
}

// goEnv returns the go command's setting of one variable.
func (m *Module) goEnv(name string) string {
	out, err := exec.Command(m.goCmd, "env", name).Output()
	if err != nil {
		m.t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// proxyThenOff keeps the proxies of a GOPROXY setting and ends the list
// with "off" after a "|", so that any proxy error ends in "module lookup
// disabled". rootsgen is not published, and the go command still asks the
// proxy for versions of its package paths (go get -tool does); a proxy
// that answers 403 for them, as the one here does, would otherwise be a
// hard error, where a 404 would not be.
func proxyThenOff(goproxy string) string {
	var keep []string
	for _, p := range strings.FieldsFunc(goproxy, func(r rune) bool { return r == ',' || r == '|' }) {
		if p != "direct" && p != "off" {
			keep = append(keep, p)
		}
	}
	return strings.Join(append(keep, "off"), "|")
}

// Write writes a file of the module, creating its directory.
func (m *Module) Write(name, content string) {
	m.t.Helper()
	p := filepath.Join(m.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// Read returns a file of the module.
func (m *Module) Read(name string) string {
	m.t.Helper()
	b, err := os.ReadFile(filepath.Join(m.Dir, filepath.FromSlash(name)))
	if err != nil {
		m.t.Fatal(err)
	}
	return string(b)
}

// Run runs a command in the module's directory and returns its combined
// output. A command that outlives the module's bound fails the test.
func (m *Module) Run(name string, args ...string) (string, error) {
	m.t.Helper()
	cmd := exec.CommandContext(m.ctx, name, args...)
	cmd.Dir = m.Dir
	cmd.Env = m.Env
	out, err := cmd.CombinedOutput()
	if m.ctx.Err() != nil {
		m.t.Fatalf("%s %s: did not finish within %v: %v\n%s", name, strings.Join(args, " "), bound, m.ctx.Err(), out)
	}
	return string(out), err
}

// Go runs the go command in the module.
func (m *Module) Go(args ...string) (string, error) {
	m.t.Helper()
	return m.Run(m.goCmd, args...)
}

// MustGo runs the go command and fails the test unless it succeeds.
func (m *Module) MustGo(args ...string) string {
	m.t.Helper()
	out, err := m.Go(args...)
	if err != nil {
		m.t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// ExitCode is the exit status of a command that ran, or -1 when it did
// not run at all.
func ExitCode(err error) int {
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exitErr):
		return exitErr.ExitCode()
	}
	return -1
}

// Staticcheck runs staticcheck with the SA1019 check (uses of deprecated
// identifiers) on the packages. It exits 1 when it reports anything, so
// the caller inspects the output and the error.
func (m *Module) Staticcheck(packages ...string) (string, error) {
	m.t.Helper()
	return m.Go(append([]string{"run", "honnef.co/go/tools/cmd/staticcheck@" + StaticcheckVersion, "-checks", "SA1019"}, packages...)...)
}
