// Package adaptertest holds what the tests of the SDK adapters in the test
// module share: the adapter package committed there is what rootsgen
// writes now and names the SDK version this module pins; an example's
// roots wiring stays small; the README's snippet stays the example's; the
// hostile Tree the read_file tests of the example and demo servers read
// through; and the Wire, a hand-written client that never answers, with
// which the adapters' tests check that a request cannot leave its
// session's path; and the Balancer and Traffic of the replica recipe's
// tests. It imports no SDK, so tests of either SDK can use it.
package adaptertest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
)

var directive = regexp.MustCompile(`(?m)^//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -sdk (\S+)(?: -revisions (\S+))? -out \.$`)

// Fresh regenerates the kit whose front package pkg is in the current
// directory from the rootsgen -sdk line of its generate.go (with its
// -revisions, if any) and fails t on any difference, and when the header
// of the adapter does not end with the SDK module and the version
// ../go.mod requires of it.
func Fresh(t *testing.T, pkg, module string) {
	t.Helper()
	src, err := os.ReadFile("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	m := directive.FindStringSubmatch(string(src))
	if m == nil {
		t.Fatal("generate.go has no rootsgen -sdk line")
	}
	names := schema.Revisions()
	if m[2] != "" {
		names = strings.Split(m[2], ",")
	}
	var revs []generator.GateRevision
	for _, r := range names {
		revs = append(revs, generator.GateRevision{Revision: r})
	}
	files, err := generator.GenerateKit(generator.KitOptions{Import: "github.com/rootsgen/rootsgen/cmd/internal/peers/" + pkg, Package: pkg, Revisions: revs, SDK: m[1]})
	if err != nil {
		t.Fatal(err)
	}
	changes, err := generator.Diff(".", files)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		t.Errorf("%s is stale: %s (run go -C cmd/internal/peers generate ./%s)", pkg, c, pkg)
	}
	gomod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.ParseLax("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	pinned := ""
	for _, r := range mf.Require {
		if r.Mod.Path == module {
			pinned = r.Mod.Version
		}
	}
	for _, f := range files {
		if !strings.Contains(string(f.Content[:min(len(f.Content), 200)]), " for "+module+" ") {
			continue // not the adapter
		}
		got, err := os.ReadFile(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(got), "\n")
		if want := " for " + module + " " + pinned + ". DO NOT EDIT."; pinned == "" || !strings.HasSuffix(first, want) {
			t.Errorf("%s's header does not name the pinned %s %q: %s", f.Name, module, pinned, first)
		}
	}
}

// Wiring returns the lines of file between the markers
// "// roots wiring: begin" and "// roots wiring: end".
func Wiring(t *testing.T, file string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(src), "// roots wiring: begin\n")
	wiring, _, ok2 := strings.Cut(rest, "// roots wiring: end\n")
	if !ok || !ok2 {
		t.Fatalf("%s lacks the roots wiring markers", file)
	}
	return wiring
}

// WiringLines fails t unless the roots wiring of file is 1 to max lines
// of code (neither blank nor comment), logs the count and returns it.
func WiringLines(t *testing.T, file string, max int) int {
	t.Helper()
	n := 0
	for _, l := range strings.Split(Wiring(t, file), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			n++
		}
	}
	t.Logf("roots wiring: %d lines of code", n)
	if n == 0 || n > max {
		t.Errorf("roots wiring: %d lines of code, want 1 to %d", n, max)
	}
	return n
}

// Snippet fails t unless the Go block after marker in readme holds lines
// of file, in order, once the package name a user would give (userPkg) is
// replaced by the one file uses (pkg).
func Snippet(t *testing.T, readme, marker, file, userPkg, pkg string) {
	t.Helper()
	doc, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), marker+"\n```go\n")
	snippet, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatalf("%s lacks a Go block after %s", readme, marker)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	for _, l := range strings.Split(strings.TrimSpace(snippet), "\n") {
		l = strings.TrimSpace(strings.ReplaceAll(l, userPkg+".", pkg+"."))
		i := strings.Index(code, l)
		if i < 0 {
			t.Fatalf("%s line %q is not in %s (after the lines before it)", readme, l, file)
		}
		code = code[i+len(l):]
	}
}
