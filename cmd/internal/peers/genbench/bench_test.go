// Package genbench measures generation: rootsgen's kit next to
// go-jsonschema on the same revisions, in one run, and go generate of the
// kit in a module as a user has it. Compare with benchstat (see
// testdata/README.md).
package genbench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	jsgen "github.com/atombender/go-jsonschema/pkg/generator"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/modproxy"
	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// BenchmarkKit generates, in memory, what each generator writes for the
// five revisions. The two do not write the same thing: rootsgen writes the
// roots feature of each revision (types, handlers, dispatch, the gate)
// plus the runtime and the go-sdk adapter; go-jsonschema writes a type
// for every definition of each full schema, with UnmarshalJSON methods
// that check required fields and enums. The sub-benchmarks are named
// gen=NAME so that benchstat -col /gen sets them side by side.
func BenchmarkKit(b *testing.B) {
	// rootsgen -sdk go-sdk -out ./mcproots in the module example.com/app,
	// less the writing: the options the CLI passes.
	b.Run("gen=rootsgen", func(b *testing.B) {
		var revs []generator.GateRevision
		for _, r := range schema.Revisions() {
			revs = append(revs, generator.GateRevision{Revision: r})
		}
		opts := generator.KitOptions{Import: "example.com/app/mcproots", Package: "mcproots", Revisions: revs, SDK: "go-sdk"}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := generator.GenerateKit(opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	// go-jsonschema -p mcpYYYYMMDD -o mcpYYYYMMDD/types.go schema.json, once
	// per revision, each schema read and parsed in the loop as the CLI does.
	b.Run("gen=go-jsonschema", func(b *testing.B) {
		spec := prereq.SpecDir(b)
		var paths, pkgs []string
		for _, r := range schema.Revisions() {
			p := filepath.Join(spec, "schema", r, "schema.json")
			_, err := os.Stat(p)
			prereq.Need(b, err, "go-jsonschema's benchmark reads the upstream schema of "+r)
			paths = append(paths, p)
			pkgs = append(pkgs, "mcp"+strings.ReplaceAll(r, "-", ""))
		}
		b.ReportAllocs()
		for b.Loop() {
			for i, p := range paths {
				if _, err := jsonschema(p, pkgs[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkRevision times, as whole processes, one revision's package
// from the full upstream schema: rootsgen -revision R -schema FULL -out
// DIR next to go-jsonschema -p PKG -o DIR/types.go FULL, each a binary
// built once from the module graph of this test module, sub-benchmarks
// named rev=R/gen=NAME for benchstat -col /gen. What they write differs as
// in BenchmarkKit: rootsgen the roots feature, go-jsonschema every
// definition.
func BenchmarkRevision(b *testing.B) {
	spec := prereq.SpecDir(b)
	bin := b.TempDir()
	build := func(name, pkg string) string {
		b.Helper()
		out := filepath.Join(bin, name)
		if msg, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
		return out
	}
	gens := []struct{ name, bin string }{
		{"rootsgen", build("rootsgen", modproxy.ModulePath+"/cmd/rootsgen")},
		{"go-jsonschema", build("go-jsonschema", "github.com/atombender/go-jsonschema")},
	}
	for _, r := range []string{"2025-06-18", "2026-07-28"} {
		full := filepath.Join(spec, "schema", r, "schema.json")
		_, err := os.Stat(full)
		prereq.Need(b, err, "BenchmarkRevision reads the upstream schema of "+r)
		pkg := "mcp" + strings.ReplaceAll(r, "-", "")
		for _, g := range gens {
			b.Run("rev="+r+"/gen="+g.name, func(b *testing.B) {
				out := filepath.Join(b.TempDir(), pkg)
				args := []string{"-revision", r, "-schema", full, "-out", out}
				if g.name == "go-jsonschema" {
					args = []string{"-p", pkg, "-o", filepath.Join(out, "types.go"), full}
				}
				for b.Loop() {
					if msg, err := exec.Command(g.bin, args...).CombinedOutput(); err != nil {
						b.Fatalf("%s %s: %v\n%s", g.name, strings.Join(args, " "), err, msg)
					}
				}
			})
		}
	}
}

// jsonschema returns go-jsonschema's package for the schema at path.
func jsonschema(path, pkg string) (map[string][]byte, error) {
	g, err := jsgen.New(jsgen.Config{
		DefaultPackageName: pkg,
		DefaultOutputName:  pkg + "/types.go",
		Warner:             func(string) {},
	})
	if err != nil {
		return nil, err
	}
	if err := g.DoFile(path); err != nil {
		return nil, fmt.Errorf("go-jsonschema on %s: %w", path, err)
	}
	return g.Sources()
}

// TestJSONSchemaOutput checks what BenchmarkKit/gen=go-jsonschema measures:
// each schema gives one non-empty package, the types of its roots feature
// among them.
func TestJSONSchemaOutput(t *testing.T) {
	spec := prereq.SpecDir(t)
	for _, r := range schema.Revisions() {
		pkg := "mcp" + strings.ReplaceAll(r, "-", "")
		src, err := jsonschema(filepath.Join(spec, "schema", r, "schema.json"), pkg)
		if err != nil {
			t.Errorf("%s: %v", r, err)
			continue
		}
		code := string(src[pkg+"/types.go"])
		if len(src) != 1 || !strings.Contains(code, "package "+pkg+"\n") || !strings.Contains(code, "type ListRootsResult struct") {
			t.Errorf("%s: go-jsonschema wrote %d file(s), want %s/types.go with ListRootsResult", r, len(src), pkg)
		}
	}
}

// BenchmarkGoGenerateKit times go generate ./... in a module as the
// README sets it up: rootsgen, published from this checkout to a module
// proxy in a temporary directory, pinned with go get -tool, and the
// README's go:generate line writing the kit. A first run builds the tool
// and writes the kit, so each timed run regenerates a kit that is there,
// with the build cache warm, as when a user runs go generate again.
func BenchmarkGoGenerateKit(b *testing.B) {
	p := modproxy.Publish(b, prereq.RepoRoot(b), b.TempDir(), "v0.9.9")
	dir := b.TempDir()
	write := func(name, content string) {
		b.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	goIn := func(args ...string) {
		b.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = p.Env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write("go.mod", "module example.com/app\n\ngo 1.25.0\n")
	goIn("get", "github.com/modelcontextprotocol/go-sdk@v1.8.0")
	goIn("get", "-tool", modproxy.ModulePath+"/cmd/rootsgen@"+p.Version)
	write("gen.go", "package main\n\n//go:generate go tool rootsgen -sdk go-sdk -out ./mcproots\n")
	goIn("generate", "./...")
	goIn("mod", "tidy")
	goIn("generate", "./...")
	if _, err := os.Stat(filepath.Join(dir, "mcproots", "gate.go")); err != nil {
		b.Fatalf("go generate wrote no kit: %v", err)
	}
	for b.Loop() {
		goIn("generate", "./...")
	}
}
