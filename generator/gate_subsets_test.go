package generator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// TestGateEverySubsetCompiles generates the gate over every non-empty
// subset of the embedded revisions, beside the revisions' packages, and
// vets them all in one scratch module: whichever revisions a user serves,
// the gate compiles and vets cleanly.
func TestGateEverySubsetCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every subset's gate; skipped with -short")
	}
	const module = "example.com/edge" // vetPackages' scratch module
	revs := schema.Revisions()
	if len(revs) > 10 {
		t.Fatalf("%d revisions make %d subsets; compile fewer", len(revs), 1<<len(revs)-1)
	}
	pkgs := map[string][]File{}
	for _, rev := range revs {
		pkg := gateAlias(rev)
		files, _, err := Generate(Options{Revision: rev, Package: pkg, Version: "test"})
		if err != nil {
			t.Fatalf("revision %s: %v", rev, err)
		}
		pkgs[pkg] = files
	}
	for mask := 1; mask < 1<<len(revs); mask++ {
		var in []GateRevision
		var names []string
		for i, rev := range revs {
			if mask&(1<<i) != 0 {
				in = append(in, GateRevision{Revision: rev, Import: module + "/" + gateAlias(rev)})
				names = append(names, gateAlias(rev))
			}
		}
		pkg := fmt.Sprintf("gate%02d", mask)
		files, err := GenerateGate(GateOptions{Package: pkg, Revisions: in, Version: "test"})
		if err != nil {
			t.Fatalf("gate over %s: %v", strings.Join(names, ", "), err)
		}
		pkgs["gates/"+pkg] = files
	}
	vetPackages(t, pkgs)
}
