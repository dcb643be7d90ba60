package rootsrt_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// TestRootRefusedOnALaterBoundKeepsNothing: with the bounds srv/data/x
// and srv, the root srv/data, a link out of srv, overlaps the first bound
// and is refused on the second. Nothing of it stays in the set: no
// directory, no Contains, no read, and no panic in Which or Resolve; and
// a root kept after it is not credited with what the refused one had.
func TestRootRefusedOnALaterBoundKeepsNothing(t *testing.T) {
	base := t.TempDir()
	for _, dir := range []string{"srv/other", "elsewhere/x"} {
		if err := os.MkdirAll(filepath.Join(base, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "elsewhere/x/f"), []byte("outside srv"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(base, "srv/data")); err != nil {
		t.Skipf("rootsrt tests: skipped a refused root's leftovers: no symbolic links here: %v", err)
	}
	at := func(p string) string { return filepath.Join(base, p) }
	s, bad, _ := newSet([]string{fileURI(at("srv/data")), fileURI(at("srv/other"))},
		rootsrt.Bounds(at("srv/data/x"), at("srv")))
	closeAtEnd(t, s)
	if !slices.Equal(bad, []string{"roots[0].uri"}) {
		t.Fatalf("refused %q, want roots[0].uri, the link out of srv", bad)
	}
	if got := s.Dirs(); !slices.Equal(got, []string{at("srv/other")}) {
		t.Errorf("Dirs() = %q, want only srv/other", got)
	}
	f := at("srv/data/x/f")
	if s.Contains(f) {
		t.Errorf("Contains(%s) = true for a path of the refused root", f)
	}
	if r, ok := s.Which(f); ok {
		t.Errorf("Which(%s) = %+v, a root kept after the refused one", f, r)
	}
	if _, _, err := s.Resolve(f); err == nil {
		t.Errorf("Resolve(%s) succeeded", f)
	}
	if data, err := s.ReadFile(f); err == nil || !errors.Is(err, rootsrt.ErrOutsideRoots) {
		t.Errorf("ReadFile(%s) = %q, %v; want ErrOutsideRoots", f, data, err)
	}
}
