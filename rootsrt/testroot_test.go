package rootsrt_test

import "github.com/rootsgen/rootsgen/rootsrt/internal/testroot"

// The tests build the runtime's generic parts over testroot's root type.
type testRoot = testroot.Root

var (
	testRootURI   = testroot.URI
	checkTestRoot = testroot.Check
)
