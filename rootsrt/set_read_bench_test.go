package rootsrt_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkReadFile reads a small file 1, 4 and 16 names below a root,
// with 1 and 1,000 roots in the set, through RootSetOf.ReadFile and, side
// by side, through an os.Root opened on the root (os.Root.ReadFile) and a
// plain os.ReadFile. Compare with benchstat -col /impl.
func BenchmarkReadFile(b *testing.B) {
	for _, n := range []int{1, 1000} {
		for _, depth := range []int{1, 4, 16} {
			uris, file, rel := benchRoots(b, b.TempDir(), n, depth)
			set, _, err := newSet(uris)
			if err != nil {
				b.Fatal(err)
			}
			dir, err := os.OpenRoot(strings.TrimSuffix(file, "/"+rel))
			if err != nil {
				b.Fatal(err)
			}
			for _, impl := range []struct {
				name string
				read func() ([]byte, error)
			}{
				{"RootSet", func() ([]byte, error) { return set.ReadFile(file) }},
				{"os.Root", func() ([]byte, error) { return dir.ReadFile(rel) }},
				{"os.ReadFile", func() ([]byte, error) { return os.ReadFile(file) }},
			} {
				b.Run(fmt.Sprintf("roots=%d/depth=%d/impl=%s", n, depth, impl.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if data, err := impl.read(); err != nil || len(data) != 4 {
							b.Fatal(data, err)
						}
					}
				})
			}
			set.Close()
			dir.Close()
		}
	}
}
