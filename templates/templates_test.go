package templates

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRuntimeFiles: Runtime holds every non-test Go file of rootsrt, and
// nothing else.
func TestRuntimeFiles(t *testing.T) {
	onDisk, err := filepath.Glob(filepath.Join("rootsrt", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range onDisk {
		if !strings.HasSuffix(f, "_test.go") {
			want = append(want, filepath.Base(f))
		}
	}
	entries, err := fs.ReadDir(Runtime, "rootsrt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Runtime embeds %v; rootsrt has %v: list the files in templates.go", got, want)
	}
}
