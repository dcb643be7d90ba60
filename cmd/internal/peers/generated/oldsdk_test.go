package generated_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// An adapter built against an SDK older than the one it was written for
// fails to compile, and the first error the go command prints names the
// version it needs: the adapter's first declaration uses what only that
// version has, through a call whose argument says so. Each case builds a
// kit with the adapter in a scratch module that requires the older SDK,
// fetched from the module proxy.
func TestOldSDKNamesTheVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: fetches older SDKs and builds kits")
	}
	goCmd, err := exec.LookPath("go")
	prereq.Need(t, err, "the go command")
	for _, c := range []struct {
		sdk, module, old, want string
	}{
		// v1.4.0 is the newest go-sdk for Go 1.24, before the 2026-07-28 API.
		{"go-sdk", "github.com/modelcontextprotocol/go-sdk", "v1.4.0", "go-sdk v1.8.0 or later, which needs Go 1.25"},
		// v1.7.0 has the 2026-07-28 API, not SupportedProtocolVersions.
		{"go-sdk", "github.com/modelcontextprotocol/go-sdk", "v1.7.0", "go-sdk v1.8.0 or later, which needs Go 1.25"},
		{"mcp-go", "github.com/mark3labs/mcp-go", "v0.58.0", "mcp-go v1.2.1 or later"},
	} {
		t.Run(c.sdk+"@"+c.old, func(t *testing.T) {
			dir := t.TempDir()
			var revs []generator.GateRevision
			for _, r := range schema.Revisions() {
				revs = append(revs, generator.GateRevision{Revision: r})
			}
			files, err := generator.GenerateKit(generator.KitOptions{Import: "example.com/old/kit", Package: "kit", Revisions: revs, SDK: c.sdk})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				p := filepath.Join(dir, "kit", filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// The kit imports the runtime of this checkout.
			gomod := "module example.com/old\n\ngo 1.25.5\n\nrequire " + c.module + " " + c.old +
				"\nrequire github.com/rootsgen/rootsgen v0.0.0\nreplace github.com/rootsgen/rootsgen => " + prereq.RepoRoot(t) + "\n"
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
				t.Fatal(err)
			}
			run := func(args ...string) ([]byte, error) {
				cmd := exec.Command(goCmd, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
				return cmd.CombinedOutput()
			}
			out, err := run("mod", "download", c.module)
			prereq.Need(t, errorWith(err, out), "the Go module proxy, for "+c.module+" "+c.old)
			out, err = run("build", "./...")
			if err == nil {
				t.Fatalf("the kit built against %s %s", c.module, c.old)
			}
			first := firstError(out)
			if !strings.Contains(first, c.want) {
				t.Errorf("first error: %q, want one naming %q; go build said:\n%s", first, c.want, out)
			}
			t.Logf("%s %s: %s", c.module, c.old, first)
		})
	}
}

// errorWith adds the go command's output to its error.
func errorWith(err error, out []byte) error {
	if err == nil {
		return nil
	}
	return &commandError{err, string(bytes.TrimSpace(out))}
}

type commandError struct {
	err error
	out string
}

func (e *commandError) Error() string { return e.err.Error() + ": " + e.out }

var errorLine = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: .*$`)

// firstError is the first line of go build's output that is a compiler
// error: FILE.go:LINE:COL: MESSAGE.
func firstError(out []byte) string {
	return errorLine.FindString(string(out))
}
