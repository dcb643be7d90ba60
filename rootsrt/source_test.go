package rootsrt

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSourceFiles: Source holds every non-test Go file of the package but
// source.go and doc.go (the package's documentation, which a copy must not
// carry into the package it is copied to), and nothing else.
func TestSourceFiles(t *testing.T) {
	onDisk, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range onDisk {
		if !strings.HasSuffix(f, "_test.go") && f != "source.go" && f != "doc.go" {
			want = append(want, f)
		}
	}
	entries, err := fs.ReadDir(Source, ".")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Source embeds %v; the package has %v: list the files in source.go", got, want)
	}
}
