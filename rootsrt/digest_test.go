package rootsrt

import "testing"

// rootsDigest runs for every request that brings roots (2026-07-28): a
// list without _meta or unknown members costs it no allocation.
func TestRootsDigestAllocs(t *testing.T) {
	roots := []Root{{URI: "file:///a", Name: "a"}, {URI: "file:///b"}}
	if n := testing.AllocsPerRun(100, func() { rootsDigest(roots) }); n != 0 {
		t.Errorf("rootsDigest allocates %v times a call, want 0", n)
	}
}
