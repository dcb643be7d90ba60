package rootsrt_test

import "github.com/rootsgen/rootsgen/rootsrt"

// The tests build the runtime's generic parts (RootSetOf, Asker,
// ListRootsCall) over testRoot, a root as the smallest revision one could
// write declares it, with the check a revision's Validate makes.

// testRoot is a root as a revision declares one.
type testRoot struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

func testRootURI(r *testRoot) string { return r.URI }

// checkTestRoot is a revision's check of a root: its uri must be a file
// URI, as each revision's schema says.
func checkTestRoot(r *testRoot, v *rootsrt.Validator, at *rootsrt.Path) {
	if msg := rootsrt.CheckURI(r.URI, "file"); msg != "" {
		v.Add(at.Member("uri"), msg)
	}
}
