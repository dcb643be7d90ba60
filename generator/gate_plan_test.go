package generator

import (
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// TestGateRefusesWhatItCannotConvert: the gate converts each revision's
// Root to its own; a revision whose Root lacks what that needs is refused
// with the reason, instead of a gate that does not compile.
func TestGateRefusesWhatItCannotConvert(t *testing.T) {
	base, err := schema.Open("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	data, err := applyPatch(base, []patchOp{{Op: "remove", Path: "/definitions/Root/properties/name"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = GenerateGate(GateOptions{Package: "gate", Revisions: []GateRevision{{Revision: "2025-06-18", Import: "example.com/r", Schema: data}}})
	if err == nil || !strings.Contains(err.Error(), `revision 2025-06-18: Root has no string member "name" with Go field Name, so the gate cannot serve it`) {
		t.Fatalf("GenerateGate = %v; want the Root it cannot convert named", err)
	}
}
