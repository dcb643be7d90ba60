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
	const n = 10000
	rs := make([]roots.Root, n)
	for i := range rs {
		rs[i] = roots.Root{URI: fmt.Sprintf("file:///home/user%d/project", i)}
	}
	s, err := roots.NewRootSet(rs, roots.WindowsPaths(false))
	if err != nil {
		b.Fatal(err)
	}
	for _, depth := range []int{2, 8, 32} {
		// depth 2 is the root itself; deeper paths add names below it.
		clean := "/home/user7777/project" + strings.Repeat("/src", depth-2)
		unclean := "/home//user7777/./project/" + strings.Repeat("x/../src/", depth-2)
		miss := "/srv/user7777/project" + strings.Repeat("/src", depth-2)
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
