// Package payload builds the JSON messages that tests and benchmarks in
// both of rootsgen's modules feed to the generated decoders.
package payload

import (
	"fmt"
	"strings"
)

// Roots is a ListRootsResult of n roots, each with a uri and a name.
func Roots(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"roots":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"uri":"file:///home/user/projects/project-%d","name":"Project %d"}`, i, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}
