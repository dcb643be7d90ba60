package generated_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// staticcheckVersion is the staticcheck the deprecation test runs; it is
// fetched through the Go module proxy the first time.
const staticcheckVersion = "v0.8.2"

// staticcheckProgram writes a main package at dir/main.go that uses each
// of uses (one per line, "roots." being the imported package) and returns
// the line of each use, keyed by symbol.
func staticcheckProgram(t *testing.T, dir, importPath string, uses []staticcheckUse) map[string]int {
	t.Helper()
	lines := []string{
		"package main",
		"",
		"import (",
		"\t\"context\"",
		"\t\"fmt\"",
		"",
		"\troots " + fmt.Sprintf("%q", importPath),
		")",
		"",
		"var _ = context.Background",
		"",
		"func main() {",
	}
	at := make(map[string]int)
	for _, u := range uses {
		lines = append(lines, "\t"+u.stmt)
		at[u.symbol] = len(lines)
	}
	lines = append(lines, "}", "")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return at
}

type staticcheckUse struct {
	symbol string // the roots symbol the statement uses
	stmt   string
}

var staticcheckCommonUses = []staticcheckUse{
	{"Root", `fmt.Println(roots.Root{URI: "file:///tmp"})`},
	{"ListRootsResult", `fmt.Println(roots.ListRootsResult{})`},
	{"ListRootsRequest", `fmt.Println(roots.ListRootsRequest{})`},
	{"MethodListRoots", `fmt.Println(roots.MethodListRoots)`},
	{"Client", `fmt.Println(roots.Client{})`},
	{"ListRootsHandlerFunc", `fmt.Println(roots.ListRootsHandlerFunc(nil) == nil)`},
}

// staticcheckRun runs name args in dir with the module settings the test
// module needs, and returns the combined output.
func staticcheckRun(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: did not finish within the test's 5-minute bound: %v\n%s", name, strings.Join(args, " "), ctx.Err(), out)
	}
	return string(out), err
}

// TestStaticcheckFlagsDeprecatedRoots builds a downstream module that uses
// the roots symbols of 2026-07-28 (deprecated by SEP-2577) and of
// 2025-06-18 (not deprecated), and checks that staticcheck's SA1019 flags
// every use of the former and none of the latter. It needs the go command
// and, the first time, the Go module proxy.
func TestStaticcheckFlagsDeprecatedRoots(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy and staticcheck in a downstream module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command: %v", err)
	}
	repoRoot, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(repoRoot, "go.mod")); err != nil {
		t.Fatalf("repository root %s has no go.mod: %v", repoRoot, err)
	}

	tmp := t.TempDir()
	mod := filepath.Join(tmp, "app")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	// A dotted module path, as a real user's would be. staticcheck takes a
	// package path without a dot for the standard library and reports no
	// deprecations of it; what counts is the path of the deprecated
	// package (here github.com/rootsgen/..., dotted either way), which for
	// a user who generates the package into a dotless module ("app/mcproots")
	// is dotless.
	gomod := fmt.Sprintf(`module example.com/app

go 1.26

require github.com/rootsgen/rootsgen v0.0.0

replace github.com/rootsgen/rootsgen => %s
`, repoRoot)
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}

	newUses := append(append([]staticcheckUse{}, staticcheckCommonUses...),
		staticcheckUse{"AskForRoots", `fmt.Println(roots.AskForRoots("roots", ""))`})
	newLines := staticcheckProgram(t, filepath.Join(mod, "new"), "github.com/rootsgen/rootsgen/generated/roots20260728", newUses)
	staticcheckProgram(t, filepath.Join(mod, "old"), "github.com/rootsgen/rootsgen/generated/roots20250618", staticcheckCommonUses)

	env := append(os.Environ(),
		"GOFLAGS=-mod=mod",
		"GOWORK=off",
		// Keep staticcheck's analysis cache inside the test's temp dir.
		"STATICCHECK_CACHE="+filepath.Join(tmp, "staticcheck-cache"),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	if out, err := staticcheckRun(ctx, t, mod, env, goCmd, "mod", "tidy"); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	// Both programs must compile, so that silence about ./old means
	// staticcheck analysed it and found nothing.
	if out, err := staticcheckRun(ctx, t, mod, env, goCmd, "build", "./..."); err != nil {
		t.Fatalf("go build ./...: %v\n%s", err, out)
	}

	start := time.Now()
	out, err := staticcheckRun(ctx, t, mod, env, goCmd, "run", "honnef.co/go/tools/cmd/staticcheck@"+staticcheckVersion, "-checks", "SA1019", "./...")
	t.Logf("staticcheck %s took %v", staticcheckVersion, time.Since(start).Round(time.Millisecond))
	// staticcheck exits non-zero when it reports anything.
	var exitErr *exec.ExitError
	if err == nil {
		t.Errorf("staticcheck exited 0: it reported nothing")
	} else if !errors.As(err, &exitErr) {
		t.Fatalf("staticcheck did not run: %v\n%s", err, out)
	}

	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, u := range newUses {
		line := newLines[u.symbol]
		re := regexp.MustCompile(fmt.Sprintf(`(^|/)new/main\.go:%d:\d+: .*roots20260728\.%s is deprecated: .*SEP-2577.*\(SA1019\)$`, line, regexp.QuoteMeta(u.symbol)))
		found := false
		for _, l := range lines {
			if re.MatchString(l) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no SA1019 report for roots20260728.%s used at new/main.go:%d", u.symbol, line)
		}
	}
	for _, l := range lines {
		if strings.Contains(l, "old/") || strings.Contains(l, "roots20250618") {
			t.Errorf("staticcheck reported on the 2025-06-18 program, whose roots symbols are not deprecated: %s", l)
		}
	}
	if t.Failed() {
		t.Logf("staticcheck output:\n%s", out)
	}
}
