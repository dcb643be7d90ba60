package gosdk

import (
	"testing"

	"github.com/rootsgen/rootsgen/templates/sdk/internal/fronttest"
)

// TestStandInIsTheFront: front.go declares what a kit's front declares,
// so that adapter.go compiles here as it does in a kit.
func TestStandInIsTheFront(t *testing.T) {
	fronttest.Check(t, "front.go")
}
