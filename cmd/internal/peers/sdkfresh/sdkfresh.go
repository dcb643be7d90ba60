// Package sdkfresh checks, in the tests of the test module, that an SDK
// adapter package committed there is what rootsgen writes now, and that
// its header names the SDK version this module pins.
package sdkfresh

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/rootsgen/rootsgen/generator"
)

var directive = regexp.MustCompile(`(?m)^//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -sdk (\S+) -gate-import (\S+) -out \.$`)

// Check regenerates the adapter package pkg in the current directory from
// the rootsgen -sdk line of its generate.go and fails t on any difference,
// and when the header of the file does not end with the SDK module and
// the version ../go.mod requires of it.
func Check(t *testing.T, pkg, module string) {
	t.Helper()
	src, err := os.ReadFile("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	m := directive.FindStringSubmatch(string(src))
	if m == nil {
		t.Fatal("generate.go has no rootsgen -sdk line")
	}
	files, err := generator.GenerateSDK(generator.SDKOptions{SDK: m[1], Package: pkg, GateImport: m[2]})
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
