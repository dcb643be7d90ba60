package generated_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
)

var directive = regexp.MustCompile(`(?m)^//go:generate go run \.\./cmd/rootsgen -revision (\S+) -out (\S+)$`)

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
			files, _, err := generator.Generate(generator.Options{Revision: rev, Package: dir})
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
	if !slices.Equal(revisions, schema.Revisions()) {
		t.Errorf("generate.go generates %v; the embedded revisions are %v", revisions, schema.Revisions())
	}
}
