package rootsrt

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestListURIsExactNames: the URIs a "root left out" record names are
// read as the revisions' decoders read members, by their exact names, so
// a client cannot show the log another URI than the one refused.
func TestListURIsExactNames(t *testing.T) {
	raw := json.RawMessage(`{"ROOTS":[{"uri":"file:///decoy"}],"roots":[{"uri":"file:///a"},{"uri":"https://evil.example/","URI":"file:///innocent"},{"uri":7},{}]}`)
	if got, want := listURIs(raw), []string{"file:///a", "https://evil.example/", "", ""}; !slices.Equal(got, want) {
		t.Errorf("listURIs = %q, want %q", got, want)
	}
	// Of two members of one name the decoders read the last; so does the
	// record.
	dup := json.RawMessage(`{"roots":[{"uri":"file:///decoy"}],"roots":[{"uri":"file:///innocent","uri":"https://evil.example/"}]}`)
	if got, want := listURIs(dup), []string{"https://evil.example/"}; !slices.Equal(got, want) {
		t.Errorf("listURIs with repeated members = %q, want %q", got, want)
	}
	if got := listURIs(json.RawMessage(`{"roots":null}`)); len(got) != 0 {
		t.Errorf("listURIs of null roots = %q", got)
	}
}
