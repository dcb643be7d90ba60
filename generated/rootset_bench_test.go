package generated_test

import (
	"fmt"
	"strings"
	"testing"

	roots "github.com/rootsgen/rootsgen/generated/roots20250618"
)

// BenchmarkRootSet measures Contains against 10,000 roots for paths of
// depth 2, 8 and 32: clean ones (no allocation), unclean ones (cleaned
// first) and, the longest walk, a path in no root.
func BenchmarkRootSet(b *testing.B) {
	benchmarkRootSet(b, 10000, []int{2, 8, 32})
}

// BenchmarkRootSetSize holds the path's depth and changes the number of
// roots: the time per check should not grow with it.
func BenchmarkRootSetSize(b *testing.B) {
	for _, n := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprintf("roots=%d", n), func(b *testing.B) { benchmarkRootSet(b, n, []int{8}) })
	}
}

func benchmarkRootSet(b *testing.B, n int, depths []int) {
	rs := make([]roots.Root, n)
	for i := range rs {
		rs[i] = roots.Root{URI: fmt.Sprintf("file:///home/user%d/project", i)}
	}
	s, err := roots.NewRootSet(rs, roots.WindowsPaths(false))
	if err != nil {
		b.Fatal(err)
	}
	for _, depth := range depths {
		// depth 2 is the root itself; deeper paths add names below it.
		clean := "/home/user7/project" + strings.Repeat("/src", depth-2)
		unclean := "/home//user7/./project/" + strings.Repeat("x/../src/", depth-2)
		miss := "/srv/user7/project" + strings.Repeat("/src", depth-2)
		for _, c := range []struct {
			name, p string
			in      bool
		}{{"clean", clean, true}, {"unclean", unclean, true}, {"miss", miss, false}} {
			b.Run(fmt.Sprintf("depth=%d/%s", depth, c.name), func(b *testing.B) {
				if s.Contains(c.p) != c.in {
					b.Fatalf("Contains(%q) = %v", c.p, !c.in)
				}
				b.ReportAllocs()
				for b.Loop() {
					s.Contains(c.p)
				}
			})
		}
	}
}
