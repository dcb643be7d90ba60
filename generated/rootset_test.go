package generated_test

// The RootSet of a revision's package is the runtime's RootSetOf (tested
// in rootsrt), written into the package with the revision's
// Root and its checks. These tests run one revision's copy: its
// constructors, the revision's rules for a root, and the file methods
// through the copy. The others are the same template's output
// (TestGeneratedFresh).

import (
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rootsgen/rootsgen/generated/roots20250618"
)

// fileURI is the file URI of an absolute POSIX path.
func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }

// TestRootSetErrorText: the error names each refused root by index, with
// the reason, in the package's ValidationError form; the valid roots are
// kept, and ListRootsResult.RootSet builds the same set.
func TestRootSetErrorText(t *testing.T) {
	roots := []roots20250618.Root{{URI: "file:///ok", Name: "ok"}, {URI: "file://evil.com/x"}, {URI: "file:///a%2Fb"}, {URI: "http://x/"}}
	want := `RootSet: roots[1].uri: host "evil.com": a root must be on this machine (file:///path or file://localhost/path); ` +
		`roots[2].uri: %2F (an encoded /) is not allowed: it would hide a separator inside a name; ` +
		`roots[3].uri: scheme "http" is not allowed here (want file)`
	for name, build := range map[string]func() (*roots20250618.RootSet, error){
		"NewRootSet": func() (*roots20250618.RootSet, error) {
			return roots20250618.NewRootSet(roots, roots20250618.WindowsPaths(false))
		},
		"ListRootsResult.RootSet": func() (*roots20250618.RootSet, error) {
			return (&roots20250618.ListRootsResult{Roots: roots}).RootSet(roots20250618.WindowsPaths(false))
		},
	} {
		s, err := build()
		var ve *roots20250618.ValidationError
		if !errors.As(err, &ve) || err.Error() != want {
			t.Errorf("%s: error %v; want the package's *ValidationError:\n%s", name, err, want)
		}
		if r, ok := s.Which("/ok/x"); !ok || r.Name != "ok" || s.Contains("/x") || len(s.Roots()) != 1 {
			t.Errorf("%s: Which(/ok/x) = %+v, %v; want only the valid root kept", name, r, ok)
		}
		s.Close()
	}
	var result *roots20250618.ListRootsResult
	s, err := result.RootSet()
	if err != nil || s.Contains("/") {
		t.Errorf("nil ListRootsResult: %v, contains / = %v", err, s.Contains("/"))
	}
}

// TestRootSetFiles: the file methods of the package's copy act inside
// the roots, and refuse a link out with the package's ErrOutsideRoots.
func TestRootSetFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the tree is built with POSIX links")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "in.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret"), filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	s, err := roots20250618.NewRootSet([]roots20250618.Root{{URI: fileURI(root)}}, roots20250618.ResolveSymlinks(), roots20250618.ReadLimit(100))
	if err != nil {
		t.Fatal(err)
	}
	if data, err := s.ReadFile(filepath.Join(root, "in.txt")); err != nil || string(data) != "inside" {
		t.Errorf("ReadFile(in.txt) = %q, %v", data, err)
	}
	data, err := s.ReadFile(filepath.Join(root, "out"))
	var pe *fs.PathError
	if !errors.Is(err, roots20250618.ErrOutsideRoots) || !errors.As(err, &pe) || data != nil {
		t.Errorf("ReadFile(out) = %q, %v; want an *fs.PathError wrapping ErrOutsideRoots", data, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadFile(filepath.Join(root, "in.txt")); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("ReadFile after Close: %v", err)
	}
}
