package rootsrt_test

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// fsName is the name of p in a set's FS: p without its leading "/".
func fsName(p string) string { return strings.TrimPrefix(p, "/") }

// TestRootSetFSConformance runs testing/fstest over the FS of a set, below
// one root of the escape tree with its links out taken away: what the FS
// lists, opens, reads and stats agrees, as io/fs asks.
func TestRootSetFSConformance(t *testing.T) {
	e := newEscapeTree(t)
	for _, name := range []string{"in", "relout", "chain1", "chain2", "chain3", "toslash", "todotdot", "sub/up", "sub/deeper/up2", "sub/deeper/far", "dangling-out", "dangling-in", "loop1", "loop2", "to-root2", "secretlink"} {
		if err := os.Remove(e.at("root/" + name)); err != nil {
			t.Fatal(err)
		}
	}
	s := mustSet(t, []string{e.root, e.root2})
	sub, err := fs.Sub(s.FS(), fsName(e.rootP))
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(sub, "file", "sub/file", "sub/deeper/d2/file", "inlink", "chainin1"); err != nil {
		t.Fatal(err)
	}
}

// TestRootSetFSEscapes walks the escape tree's root through the FS with
// fs.WalkDir, reading every name it meets, and globs across it: nothing
// read is outside, and each refusal is ErrOutsideRoots in an
// *fs.PathError that names the FS name given.
func TestRootSetFSEscapes(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root, e.root2})
	fsys := s.FS()
	var read, refused int
	err := fs.WalkDir(fsys, fsName(e.rootP), func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Errorf("WalkDir at %q: %v", name, err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(fsys, name)
		var pe *fs.PathError
		switch {
		case err == nil && strings.Contains(string(data), "SECRET"):
			t.Errorf("ESCAPE: ReadFile(%q) read a file outside the roots", name)
		case err == nil:
			read++
		case errors.Is(err, rootsrt.ErrOutsideRoots):
			refused++
			if !errors.As(err, &pe) || pe.Path != name {
				t.Errorf("ReadFile(%q): %#v; want an *fs.PathError naming %q", name, err, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read == 0 || refused == 0 {
		t.Errorf("the walk read %d files and was refused %d: the tree has both", read, refused)
	}
	for _, pattern := range []string{"*/secret", "*/x/y/z", "in/*", "sub/deeper/far/*", "todotdot/*/secret", "secretlink"} {
		matches, err := fs.Glob(fsys, fsName(e.rootP)+"/"+pattern)
		if err != nil || len(matches) != 0 {
			t.Errorf("Glob(%q) = %q, %v: it lists names outside the roots", pattern, matches, err)
		}
	}
	if m, err := fs.Glob(fsys, fsName(e.rootP)+"/sub/*/d2/file"); err != nil || !slices.Equal(m, []string{fsName(e.rootP) + "/sub/deeper/d2/file"}) {
		t.Errorf("Glob inside the root = %q, %v", m, err)
	}
	for _, name := range []string{"..", fsName(e.rootP) + "/../secret", fsName(e.rootP) + "/sub/", "/" + fsName(e.rootP), fsName(e.rootP) + "/./file", ""} {
		if _, err := fs.ReadFile(fsys, name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("ReadFile(%q): %v; want fs.ErrInvalid", name, err)
		}
		if _, err := fs.Stat(fsys, name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Stat(%q): %v; want fs.ErrInvalid", name, err)
		}
	}
	for _, name := range []string{".", fsName(e.at("secret")), fsName(e.at("outside"))} {
		if _, err := fs.ReadDir(fsys, name); !errors.Is(err, rootsrt.ErrOutsideRoots) {
			t.Errorf("ReadDir(%q): %v; want ErrOutsideRoots", name, err)
		}
	}
}

// TestRootSetSwapRaceWrites swaps a directory inside the root for a link
// out, over and over, while writers make, change, move and remove names
// below it through every file method that writes, and walkers walk it
// through the FS. Nothing outside may change, and no read may return a
// file outside.
func TestRootSetSwapRaceWrites(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	d, stop := e.swapping(t)
	before := e.outsideState(t)
	iterations := 4000
	if testing.Short() {
		iterations = 400
	}
	stamp := time.Unix(1_000_000_000, 0)
	writes := []func() error{
		func() error { return s.WriteFile(d+"/f", []byte("written"), 0o644) },
		func() error { return s.WriteFile(d+"/new", []byte("new"), 0o644) },
		func() error {
			f, err := s.Create(d + "/created")
			if err == nil {
				f.Close()
			}
			return err
		},
		func() error { return s.Mkdir(d+"/m", 0o755) },
		func() error { return s.MkdirAll(d+"/all/a/b", 0o755) },
		func() error { return s.RemoveAll(d + "/all") },
		func() error { return s.Remove(d + "/new") },
		func() error { return s.Chmod(d+"/f", 0o600) },
		func() error { return s.Chtimes(d+"/f", stamp, stamp) },
		func() error { return s.Symlink("/", d+"/sym") },
		func() error { return s.Remove(d + "/sym") },
		func() error {
			if err := s.WriteFile(e.at("root/src"), nil, 0o644); err != nil {
				return err
			}
			return s.Rename(e.at("root/src"), d+"/renamed")
		},
		func() error { return s.Rename(d+"/renamed", e.at("root/back")) },
		func() error { return s.Link(e.at("root/file"), d+"/hard") },
		func() error { return s.Remove(d + "/hard") },
		func() error {
			r, err := s.OpenRoot(d)
			if err != nil {
				return err
			}
			defer r.Close()
			return r.WriteFile("via-root", nil, 0o644)
		},
	}
	var secret, landed atomic.Int64
	var workers sync.WaitGroup
	for w := range 3 {
		workers.Go(func() {
			for i := range iterations / 3 {
				if w == 2 {
					fs.WalkDir(s.FS(), fsName(d), func(name string, de fs.DirEntry, err error) error {
						if err == nil && !de.IsDir() {
							if b, err := fs.ReadFile(s.FS(), name); err == nil && string(b) == "SECRET" {
								secret.Add(1)
							}
						}
						return nil
					})
					continue
				}
				if writes[(i*2+w)%len(writes)]() == nil {
					landed.Add(1)
				}
			}
		})
	}
	workers.Wait()
	stop()
	if n := secret.Load(); n != 0 {
		t.Errorf("ESCAPE: %d reads through the FS returned the file outside the root", n)
	}
	if after := e.outsideState(t); !slices.Equal(before, after) {
		t.Errorf("ESCAPE: the writes changed what is outside the root:\nbefore %q\nafter  %q", before, after)
	}
	t.Logf("%d of %d writes succeeded, inside", landed.Load(), iterations/3*2)
	if landed.Load() == 0 {
		t.Error("no write succeeded: the race did not exercise the inside path")
	}
}
