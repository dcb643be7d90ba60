package generated_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generated/internal/adapters"
	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
)

var (
	directive    = regexp.MustCompile(`(?m)^//go:generate go run \.\./cmd/rootsgen -revision (\S+) -out (\S+)$`)
	kitDirective = regexp.MustCompile(`(?m)^//go:generate go run \.\./cmd/rootsgen -sdk none -out (\S+)$`)
)

// TestGeneratedFresh regenerates every package named by the go:generate
// lines of generate.go and fails if the committed files differ, so that
// generated/ always equals what the generator produces from the committed
// schemas. Fix a failure with: go generate ./...
func TestGeneratedFresh(t *testing.T) {
	src, err := os.ReadFile("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	var revisions []string
	for _, m := range directive.FindAllStringSubmatch(string(src), -1) {
		rev, dir := m[1], m[2]
		revisions = append(revisions, rev)
		t.Run(rev, func(t *testing.T) {
			files, _, err := generator.Generate(generator.Options{Revision: rev, Package: dir, Runtime: generator.RuntimeImport})
			if err != nil {
				t.Fatal(err)
			}
			changes, err := generator.Diff(dir, files)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range changes {
				t.Errorf("generated/%s is stale: %s (run go generate ./...)", dir, c)
			}
		})
	}
	kit := kitDirective.FindStringSubmatch(string(src))
	if kit == nil {
		t.Fatal("generate.go has no -sdk none line")
	}
	t.Run("kit", func(t *testing.T) {
		var revs []generator.GateRevision
		for _, r := range schema.Revisions() {
			revs = append(revs, generator.GateRevision{Revision: r})
		}
		files, err := generator.GenerateKit(generator.KitOptions{Import: "github.com/rootsgen/rootsgen/generated/" + kit[1], Package: kit[1], Revisions: revs})
		if err != nil {
			t.Fatal(err)
		}
		changes, err := generator.Diff(kit[1], files)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			t.Errorf("generated/%s is stale: %s (run go generate ./...)", kit[1], c)
		}
	})
	if !slices.Equal(revisions, schema.Revisions()) {
		t.Errorf("generate.go generates %v; the embedded revisions are %v", revisions, schema.Revisions())
	}
	for _, m := range directive.FindAllStringSubmatch(string(src), -1) {
		if rev, dir := m[1], m[2]; dir != adapters.Package(rev) {
			t.Errorf("generate.go writes revision %s to %s; the test adapters import it as %s", rev, dir, adapters.Package(rev))
		}
	}
	for name, source := range map[string]func() ([]byte, error){adapters.FileName: adapters.Source, adapters.PeersFileName: adapters.PeersSource} {
		t.Run(name, func(t *testing.T) {
			want, err := source()
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("generated/%s is stale (run go generate ./...): %v", name, err)
			}
		})
	}
}

// singlePackageLines bounds the non-test Go lines of a single-revision
// package, which imports the runtime: the code the schema decides, and the
// runtime's API under the package's names.
const singlePackageLines = 1500

// TestSinglePackageSize: every committed single-revision package stays
// within singlePackageLines.
func TestSinglePackageSize(t *testing.T) {
	for _, rev := range schema.Revisions() {
		dir := adapters.Package(rev)
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			lines += bytes.Count(b, []byte("\n"))
		}
		t.Logf("%s: %d lines of non-test Go", dir, lines)
		if lines > singlePackageLines {
			t.Errorf("%s has %d lines of non-test Go, over %d", dir, lines, singlePackageLines)
		}
	}
}
