package rootsrt

import (
	"embed"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// TestSourceFiles: the Source of this package and of rtimpl holds every
// non-test Go file of its package but source.go and doc.go (the package's
// documentation, which a copy must not carry into the package it is copied
// to), and nothing else.
func TestSourceFiles(t *testing.T) {
	for dir, source := range map[string]embed.FS{".": Source, "rtimpl": rtimpl.Source} {
		onDisk, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range onDisk {
			if f = filepath.Base(f); !strings.HasSuffix(f, "_test.go") && f != "source.go" && f != "doc.go" {
				want = append(want, f)
			}
		}
		entries, err := fs.ReadDir(source, ".")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: Source embeds %v; the package has %v: list the files in its source.go", dir, got, want)
		}
	}
}
