package generated_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/testdata/gotest/downstream"
)

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

// TestStaticcheckFlagsDeprecatedRoots builds a downstream module that uses
// the roots symbols of 2026-07-28 (deprecated by SEP-2577) and of
// 2025-06-18 (not deprecated), and checks that staticcheck's SA1019 flags
// every use of the former and none of the latter. It needs the go command
// and, the first time, the Go module proxy.
func TestStaticcheckFlagsDeprecatedRoots(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy and staticcheck in a downstream module")
	}
	// A dotted module path (example.com/app), as a real user's would be.
	// staticcheck takes a package path without a dot for the standard
	// library and reports no deprecations of it; what counts is the path
	// of the deprecated package (here github.com/rootsgen/..., dotted
	// either way), which for a user who generates the package into a
	// dotless module ("app/mcproots") is dotless.
	m := downstream.New(t)

	newUses := append(append([]staticcheckUse{}, staticcheckCommonUses...),
		staticcheckUse{"AskForRoots", `fmt.Println(roots.AskForRoots("roots", ""))`})
	newLines := staticcheckProgram(t, filepath.Join(m.Dir, "new"), "github.com/rootsgen/rootsgen/generated/roots20260728", newUses)
	staticcheckProgram(t, filepath.Join(m.Dir, "old"), "github.com/rootsgen/rootsgen/generated/roots20250618", staticcheckCommonUses)

	m.MustGo("mod", "tidy")
	// Both programs must compile, so that silence about ./old means
	// staticcheck analysed it and found nothing.
	m.MustGo("build", "./...")

	start := time.Now()
	out, err := m.Staticcheck("./...")
	t.Logf("staticcheck %s took %v", downstream.StaticcheckVersion, time.Since(start).Round(time.Millisecond))
	// staticcheck exits non-zero when it reports anything.
	switch downstream.ExitCode(err) {
	case 0:
		t.Errorf("staticcheck exited 0: it reported nothing")
	case -1:
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
