package release

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/modproxy"
)

const (
	// toolGo is the go line README states for the module that pins the
	// generator, and genGo the one it states for the generated package.
	toolGo = "1.25.0"
	genGo  = "1.25.0"
	// olderSDK is a go-sdk release older than the one rootsgen's tests use
	// (v1.8.0), whose own go line (1.23.0) a go 1.25.0 module can require.
	olderSDK = "v1.3.1"
)

// testOnly are modules rootsgen's tests use and its generator does not:
// pinning the generator must not bring any of them into a user's module.
var testOnly = []string{
	"github.com/santhosh-tekuri/jsonschema/v6",
	"honnef.co/go/tools",
}

// TestLeanTool takes the README's go get -tool line in a module at the
// stated minimum Go that already uses an older go-sdk: its go line and its
// go-sdk stay as they were, go.mod gains only modules the generator builds
// with, and nothing rootsgen's tests alone need shows in go list -m all.
// The package generated there then vets clean (stdversion included) in a
// module at the go line README states for generated code.
func TestLeanTool(t *testing.T) {
	p := publish(t)
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/app\n\ngo "+toolGo+"\n\nrequire github.com/modelcontextprotocol/go-sdk "+olderSDK+"\n")
	write("main.go", `package main

import "github.com/modelcontextprotocol/go-sdk/mcp"

func main() { _ = mcp.NewServer(&mcp.Implementation{Name: "app"}, nil) }
`)
	goIn(t, p, dir, "mod", "tidy")
	before := readFile(t, filepath.Join(dir, "go.mod"))
	beforeReqs := requires(before)

	goIn(t, p, dir, "get", "-tool", modproxy.ModulePath+"/cmd/rootsgen@"+version)
	after := readFile(t, filepath.Join(dir, "go.mod"))
	if got := goLine(after); got != toolGo {
		t.Errorf("go get -tool moved the go line from %s to %s:\n%s", toolGo, got, after)
	}
	if got := requires(after)["github.com/modelcontextprotocol/go-sdk"]; got != olderSDK {
		t.Errorf("go get -tool moved go-sdk from %s to %s:\n%s", olderSDK, got, after)
	}
	builtWith := map[string]bool{}
	for _, m := range strings.Fields(goIn(t, p, dir, "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", modproxy.ModulePath+"/cmd/rootsgen")) {
		builtWith[m] = true
	}
	for m, v := range requires(after) {
		if _, had := beforeReqs[m]; !had && !builtWith[m] {
			t.Errorf("go.mod gained %s %s, which the generator does not build with", m, v)
		}
	}
	all := goIn(t, p, dir, "list", "-m", "all")
	for _, line := range strings.Split(all, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && slices.Contains(testOnly, f[0]) {
			t.Errorf("go list -m all shows %s, which only rootsgen's tests use", line)
		}
	}

	// The generated package with its copy of the runtime, alone in a
	// module at the go line README states for it: vet's stdversion check
	// reports any newer API (the runtime itself is vetted where it is
	// written). It passes over files marked as generated, so the copies
	// checked here lose their "Code generated" line.
	goIn(t, p, dir, "tool", "rootsgen", "-revision", "2026-07-28", "-runtime", "copy", "-out", "gen/mcproots")
	goIn(t, p, dir, "tool", "rootsgen", "-revision", "2025-06-18", "-runtime", "copy", "-out", "gen/mcproots2025")
	write("gen/go.mod", "module example.com/gen\n\ngo "+genGo+"\n")
	unmarkGenerated(t, filepath.Join(dir, "gen"))
	goIn(t, p, filepath.Join(dir, "gen"), "vet", "./...")
	if got := goLine(readFile(t, filepath.Join(dir, "gen", "go.mod"))); got != genGo {
		t.Errorf("the generated package's module moved to go %s", got)
	}
}

// unmarkGenerated removes the "Code generated ... DO NOT EDIT." line from
// every Go file below dir.
func unmarkGenerated(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		src := readFile(t, p)
		first, rest, _ := strings.Cut(src, "\n")
		if !strings.HasPrefix(first, "// Code generated ") {
			t.Fatalf("%s does not start with the generated-code header", p)
		}
		return os.WriteFile(p, []byte(rest), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	goLineRE  = regexp.MustCompile(`(?m)^go (\S+)$`)
	requireRE = regexp.MustCompile(`(?m)^(?:require\s+|\t)(\S+) (v\S+)`)
)

func goLine(gomod string) string {
	if m := goLineRE.FindStringSubmatch(gomod); m != nil {
		return m[1]
	}
	return ""
}

// requires maps each module go.mod requires to its version.
func requires(gomod string) map[string]string {
	reqs := map[string]string{}
	for _, m := range requireRE.FindAllStringSubmatch(gomod, -1) {
		reqs[m[1]] = m[2]
	}
	return reqs
}
