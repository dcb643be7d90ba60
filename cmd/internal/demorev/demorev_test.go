package demorev

import (
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// LatestLegacy is a revision the gate serves with a direct roots/list, and
// no later revision is.
func TestLatestLegacy(t *testing.T) {
	found := false
	for _, r := range rootsgate.Revisions() {
		switch {
		case r.Version == LatestLegacy:
			found = r.DirectRequest
		case r.DirectRequest && r.Version > LatestLegacy:
			t.Errorf("%s begins with initialize and is newer than LatestLegacy %s", r.Version, LatestLegacy)
		}
	}
	if !found {
		t.Errorf("LatestLegacy %q is not a revision the gate serves with a direct roots/list", LatestLegacy)
	}
}
