package rootsrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// The tests here hold a RootSet to the directories it opened when it was
// built: a root or a bound that is a link leading out, or that is swapped
// for one after the set was built, must not let a file method reach
// outside; and ReadFile must refuse what it cannot read safely.

// anchorTree is a tree for the anchoring tests:
//
//	base/data/          the server's directory (Bounds)
//	base/data/proj/f    "inside"
//	base/data/link      -> base/data/proj (absolute, stays inside)
//	base/data/out       -> base/outside (absolute, leads out)
//	base/data/rout      -> ../outside (relative, leads out)
//	base/outside/f      "SECRET"
//	base/outside/proj/f "SECRET"
type anchorTree struct{ base string }

func newAnchorTree(t *testing.T) anchorTree {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the anchoring tree is built with POSIX links")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := anchorTree{base}
	for _, d := range []string{"data/proj", "outside/proj"} {
		if err := os.MkdirAll(e.at(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.write(t, "data/proj/f", "inside")
	e.write(t, "outside/f", "SECRET")
	e.write(t, "outside/proj/f", "SECRET")
	e.link(t, e.at("data/proj"), "data/link")
	e.link(t, e.at("outside"), "data/out")
	e.link(t, "../outside", "data/rout")
	return e
}

func (e anchorTree) at(p string) string { return filepath.Join(e.base, p) }

func (e anchorTree) write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(e.at(p), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e anchorTree) link(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, e.at(p)); err != nil {
		t.Fatal(err)
	}
}

// repoint makes p a link to target, in place of what p was.
func (e anchorTree) repoint(t *testing.T, p, target string) {
	t.Helper()
	if err := os.Rename(e.at(p), e.at(p+".old")); err != nil {
		t.Fatal(err)
	}
	e.link(t, target, p)
}

// noSecret fails the test when a file method read something outside; it
// returns what ReadFile read.
func noSecret(t *testing.T, s *testSet, p string) string {
	t.Helper()
	data, err := s.ReadFile(p)
	if bytes.Contains(data, []byte("SECRET")) {
		t.Fatalf("ESCAPE: ReadFile(%q) read %q", p, data)
	}
	if f, err := s.Open(p); err == nil {
		b := make([]byte, 16)
		n, _ := f.Read(b)
		f.Close()
		if bytes.Contains(b[:n], []byte("SECRET")) {
			t.Fatalf("ESCAPE: Open(%q) read %q", p, b[:n])
		}
	}
	if err != nil {
		return ""
	}
	return string(data)
}

// anchorSetups are the ways the anchoring tests build a set: with or
// without ResolveSymlinks, with or without the server's directory as the
// bound.
var anchorSetups = []struct {
	name    string
	resolve bool
	bounded bool
}{
	{"client roots", false, false},
	{"client roots/ResolveSymlinks", true, false},
	{"bounded", false, true},
	{"bounded/ResolveSymlinks", true, true},
}

// options are the options of a setup for the tree e.
func (e anchorTree) options(resolve, bounded bool) []rootsrt.RootSetOption {
	var opts []rootsrt.RootSetOption
	if resolve {
		opts = append(opts, rootsrt.ResolveSymlinks())
	}
	if bounded {
		opts = append(opts, rootsrt.Bounds(e.at("data")))
	}
	return opts
}

// TestRootSetBoundsRootLinkOut: a client root that is a link inside the
// server's directory, pointing out of it, is left out, with and without
// ResolveSymlinks; a link that stays inside is followed; and nothing
// outside can be read through either.
func TestRootSetBoundsRootLinkOut(t *testing.T) {
	for _, resolve := range []bool{false, true} {
		e := newAnchorTree(t)
		s, bad, _ := newSet([]string{fileURI(e.at("data/out")), fileURI(e.at("data/rout")), fileURI(e.at("data/link"))}, e.options(resolve, true)...)
		if strings.Join(bad, " ") != "roots[0].uri roots[1].uri" {
			t.Errorf("resolve=%v: refused %q, want the two links that lead out", resolve, bad)
		}
		for _, p := range []string{"data/out/f", "data/rout/f", "data/out/proj/f", "outside/f"} {
			if _, err := s.ReadFile(e.at(p)); err == nil {
				t.Errorf("resolve=%v: ReadFile(%s) succeeded", resolve, p)
			}
			noSecret(t, s, e.at(p))
		}
		if got := noSecret(t, s, e.at("data/link/f")); got != "inside" {
			t.Errorf("resolve=%v: ReadFile(data/link/f) = %q, want the file inside", resolve, got)
		}
		s.Close()
	}
}

// TestRootSetRepointedBeforeUse: a root that is a link, re-pointed out of
// the server's directory after the set was built. After the set's first
// use of the root, the set acts on the directory it opened; before it,
// the root is refused (it no longer names the directory it named when the
// set was built), unless Bounds resolved the link when the set was built:
// the set then opens what it found then, beneath the bound. Nothing
// outside is read or made either way.
func TestRootSetRepointedBeforeUse(t *testing.T) {
	for _, setup := range anchorSetups {
		for _, used := range []bool{false, true} {
			e := newAnchorTree(t)
			s := mustSet(t, []string{fileURI(e.at("data/link"))}, e.options(setup.resolve, setup.bounded)...)
			name := fmt.Sprintf("%s, used before=%v", setup.name, used)
			if used && noSecret(t, s, e.at("data/link/f")) != "inside" {
				t.Fatalf("%s: ReadFile(data/link/f) before the move", name)
			}
			e.repoint(t, "data/link", e.at("outside/proj"))
			got := noSecret(t, s, e.at("data/link/f"))
			f, err := s.OpenFile(e.at("data/link/made"), os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				f.Close()
			}
			if _, err := os.Stat(e.at("outside/proj/made")); err == nil {
				t.Fatalf("ESCAPE: %s: a file was made outside", name)
			}
			_, madeIn := os.Stat(e.at("data/proj/made"))
			switch anchored := used || setup.bounded; {
			case anchored && (got != "inside" || err != nil || madeIn != nil):
				t.Errorf("%s: after the link moved: ReadFile = %q, create: %v, made in the root's directory: %v; want the directory the set opened", name, got, err, madeIn)
			case !anchored && (got != "" || err == nil || madeIn == nil):
				t.Errorf("%s: after the link moved: ReadFile = %q, create: %v; want both refused", name, got, err)
			}
			s.Close()
		}
	}
}

// TestRootSetRootSwappedBeforeUse: a root directory renamed and replaced
// by a link after the set was built is never followed: refused before the
// set's first use of the root, and after it the set acts on the directory
// it opened, wherever it now is.
func TestRootSetRootSwappedBeforeUse(t *testing.T) {
	for _, setup := range anchorSetups {
		for _, used := range []bool{false, true} {
			e := newAnchorTree(t)
			s := mustSet(t, []string{fileURI(e.at("data/proj"))}, e.options(setup.resolve, setup.bounded)...)
			name := fmt.Sprintf("%s, used before=%v", setup.name, used)
			if used && noSecret(t, s, e.at("data/proj/f")) != "inside" {
				t.Fatalf("%s: ReadFile(data/proj/f) before the swap", name)
			}
			e.repoint(t, "data/proj", e.at("outside/proj"))
			got := noSecret(t, s, e.at("data/proj/f"))
			err := s.Remove(e.at("data/proj/f"))
			if _, err := os.Stat(e.at("outside/proj/f")); err != nil {
				t.Fatalf("ESCAPE: %s: Remove reached outside: %v", name, err)
			}
			switch {
			case used && (got != "inside" || err != nil):
				t.Errorf("%s: after the swap: ReadFile = %q, Remove: %v; want the directory the set opened", name, got, err)
			case !used && (got != "" || err == nil):
				t.Errorf("%s: after the swap: ReadFile = %q, Remove: %v; want both refused", name, got, err)
			}
			s.Close()
		}
	}
}

// TestRootSetBoundSwapped: the server's directory itself, renamed and
// replaced by a link out after the set was built, does not move the set,
// whether a root lies inside it or holds it.
func TestRootSetBoundSwapped(t *testing.T) {
	for _, resolve := range []bool{false, true} {
		for _, root := range []string{"data/proj", ""} { // a root inside the bound; one that holds it
			e := newAnchorTree(t)
			s := mustSet(t, []string{fileURI(e.at(root))}, e.options(resolve, true)...)
			e.repoint(t, "data", e.at("outside"))
			if got := noSecret(t, s, e.at("data/proj/f")); got != "inside" {
				t.Errorf("resolve=%v root=%q: ReadFile(data/proj/f) = %q after the bound moved, want the file of the directory the set opened", resolve, root, got)
			}
			noSecret(t, s, e.at("data/f"))
		}
	}
}

// TestRootSetOutsideBounds: a path inside the client's root but outside the
// server's directories is refused with ErrOutsideBounds, which names that
// limit; a path outside the client's roots with ErrOutsideRoots.
func TestRootSetOutsideBounds(t *testing.T) {
	e := newAnchorTree(t)
	s := mustSet(t, []string{fileURI(e.base)}, rootsrt.Bounds(e.at("data")))
	_, err := s.ReadFile(e.at("outside/f"))
	if !errors.Is(err, rootsrt.ErrOutsideBounds) || errors.Is(err, rootsrt.ErrOutsideRoots) {
		t.Errorf("ReadFile(outside/f): %v; want ErrOutsideBounds alone", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != e.at("outside/f") {
		t.Errorf("ReadFile(outside/f): %v; want an *fs.PathError naming the path given", err)
	}
	if err != nil && !strings.Contains(err.Error(), "outside the directories the server allows") {
		t.Errorf("the message does not name the server's directories: %v", err)
	}
	_, err = s.ReadFile(filepath.Dir(e.base))
	if !errors.Is(err, rootsrt.ErrOutsideRoots) || errors.Is(err, rootsrt.ErrOutsideBounds) {
		t.Errorf("ReadFile(above the root): %v; want ErrOutsideRoots alone", err)
	}
	// An error met outside every root (a name that does not exist) is
	// a refusal: it says nothing of what lies outside.
	_, err = s.ReadFile(filepath.Join(filepath.Dir(e.base), "no-such-dir", "f"))
	if !errors.Is(err, rootsrt.ErrOutsideRoots) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(a missing path outside): %v; want ErrOutsideRoots, not a file system error", err)
	}
	// WhichResolved answers false, without an error, for both.
	for _, p := range []string{e.at("outside/f"), filepath.Dir(e.base)} {
		if r, ok, err := s.WhichResolved(p); ok || err != nil {
			t.Errorf("WhichResolved(%s) = %+v, %v, %v; want false and no error", p, r, ok, err)
		}
	}
}

// TestRootSetSpecialFiles: ReadFile refuses, without blocking, a FIFO with
// no writer, a device, a socket and a directory, and a file larger than
// the read limit without reading or allocating it; Open returns a FIFO
// without waiting for a writer.
func TestRootSetSpecialFiles(t *testing.T) {
	dir, fifo := fifoDir(t)
	sparse := filepath.Join(dir, "sparse")
	if f, err := os.Create(sparse); err != nil {
		t.Fatal(err)
	} else if err := f.Truncate(1 << 40); err != nil {
		f.Close()
		t.Skipf("the file system here cannot hold a 1 TiB sparse file: %v", err)
	} else {
		f.Close()
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	s := mustSet(t, []string{fileURI(dir), "file:///dev"})
	// A blocked call would hang the test: the bound only turns that hang
	// into a failure that names the call.
	within := func(what string, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { defer close(done); f() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s blocked", what)
		}
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, c := range []struct {
		p    string
		want error
	}{
		{fifo, rootsrt.ErrNotRegularFile},
		{"/dev/zero", rootsrt.ErrNotRegularFile},
		{"/dev/null", rootsrt.ErrNotRegularFile},
		{dir, rootsrt.ErrNotRegularFile},
		{sparse, rootsrt.ErrFileTooLarge},
	} {
		within("ReadFile("+c.p+")", func() {
			if _, err := s.ReadFile(c.p); !errors.Is(err, c.want) {
				t.Errorf("ReadFile(%s): %v; want %v", c.p, err, c.want)
			}
		})
	}
	within("ReadFile(sock)", func() {
		if _, err := s.ReadFile(filepath.Join(dir, "sock")); err == nil {
			t.Error("ReadFile(sock) read a socket")
		}
	})
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
		t.Errorf("refusing special and huge files allocated %d bytes", grown)
	}
	within("Open(fifo)", func() {
		f, err := s.Open(fifo)
		if err != nil {
			t.Errorf("Open(fifo): %v", err)
			return
		}
		f.Close()
	})
}

// TestRootSetSpecialRoots: a root or a bound that names a FIFO, a device
// or a link to one is no directory, and building the set opens no such
// file (opening a FIFO would wait for a writer, and a device could act on
// the open): the set is built at once, and the root refuses every file
// method, as a root that could not be opened does.
func TestRootSetSpecialRoots(t *testing.T) {
	base, fifo := fifoDir(t)
	if err := os.Symlink("fifo", filepath.Join(base, "fifolink")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		uris []string
		opts []rootsrt.RootSetOption
	}{
		{"a FIFO", []string{fileURI(fifo)}, nil},
		{"a FIFO, ResolveSymlinks", []string{fileURI(fifo)}, []rootsrt.RootSetOption{rootsrt.ResolveSymlinks()}},
		{"a FIFO in the bounds", []string{fileURI(fifo)}, []rootsrt.RootSetOption{rootsrt.Bounds(base)}},
		{"a link to a FIFO in the bounds", []string{fileURI(filepath.Join(base, "fifolink"))}, []rootsrt.RootSetOption{rootsrt.Bounds(base)}},
		{"a FIFO as the bound", []string{fileURI(base)}, []rootsrt.RootSetOption{rootsrt.Bounds(fifo)}},
		{"a device", []string{"file:///dev/null"}, nil},
	} {
		done := make(chan error, 1)
		go func() {
			s, _, err := newSet(c.uris, c.opts...)
			if s != nil {
				_, err = s.ReadFile(fifo)
				s.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: ReadFile of the FIFO succeeded", c.name)
			}
		case <-time.After(10 * time.Second):
			if f, err := os.OpenFile(fifo, os.O_WRONLY|oNonblock, 0); err == nil {
				f.Close() // let the blocked open return, for the next cases
			}
			t.Errorf("%s: building the set blocked", c.name)
			<-done
		}
	}
}

// TestRootSetDirEntryInfo: the entries of a directory opened through the
// set are described through its handle: Info of an entry is the file
// inside the root, never the one at the same relative path under the
// process's working directory.
func TestRootSetDirEntryInfo(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, cwd := filepath.Join(base, "root"), filepath.Join(base, "cwd")
	for _, d := range []string{root, cwd} {
		if err := os.MkdirAll(filepath.Join(d, "etc"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		filepath.Join(root, "etc", "secret"):      "",
		filepath.Join(root, "etc", "only-inside"): "",
		filepath.Join(cwd, "etc", "secret"):       "twelve bytes",
	} {
		if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(cwd)
	for _, opts := range [][]rootsrt.RootSetOption{nil, {rootsrt.Bounds(root)}, {rootsrt.ResolveSymlinks()}} {
		s := mustSet(t, []string{fileURI(root)}, opts...)
		for _, dir := range []string{filepath.Join(root, "etc"), root} {
			f, err := s.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			entries, err := f.ReadDir(-1)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				info, err := e.Info()
				if err != nil {
					t.Errorf("Info of %s in %s: %v", e.Name(), dir, err)
				} else if !info.IsDir() && info.Size() != 0 {
					t.Errorf("Info of %s in %s: %d bytes, the file outside the root", e.Name(), dir, info.Size())
				}
			}
		}
	}
}

// TestRootSetReadFileOpensNoSpecialFile: ReadFile reads the type of what
// a path names before it opens it, and opens only a regular file: a
// writer waiting at a FIFO's other end is not released (opening the FIFO
// for reading would release it), and a device is refused from its type,
// not from what its driver does on an open (/dev/tty answers an open
// without a terminal with ENXIO).
func TestRootSetReadFileOpensNoSpecialFile(t *testing.T) {
	dir, fifo := fifoDir(t)
	s := mustSet(t, []string{fileURI(dir), "file:///dev"})
	writer := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until a reader opens it
		if err == nil {
			f.Close()
		}
		writer <- err
	}()
	time.Sleep(50 * time.Millisecond) // the writer is waiting in open
	paths := []string{fifo, dir + "/./fifo", "/dev/null"}
	if _, err := os.Lstat("/dev/tty"); err == nil {
		paths = append(paths, "/dev/tty")
	}
	for _, p := range paths {
		if _, err := s.ReadFile(p); !errors.Is(err, rootsrt.ErrNotRegularFile) {
			t.Errorf("ReadFile(%s): %v; want ErrNotRegularFile", p, err)
		}
	}
	select {
	case err := <-writer:
		t.Errorf("ReadFile opened the FIFO: the waiting writer's open returned (%v)", err)
	case <-time.After(200 * time.Millisecond):
		r, err := os.OpenFile(fifo, os.O_RDONLY|oNonblock, 0) // release the writer
		if err != nil {
			t.Fatal(err)
		}
		<-writer
		r.Close()
	}
}

// TestRootSetReadFileSwapNoFIFO: a name swapped between a regular file
// and a FIFO while ReadFile runs is never opened as the FIFO, whatever
// way the path takes: plain, through "..", or through an absolute link
// inside the root (the last two are resolved by the walk first). Before,
// the last two stat'ed the name and then opened it again by name, and a
// writer waiting on the FIFO was released thousands of times a second.
func TestRootSetReadFileSwapNoFIFO(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the type-first open is Linux's")
	}
	dir, _ := fifoDir(t)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "sub"), filepath.Join(dir, "abs")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "reg"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := mustSet(t, []string{fileURI(dir)})
	var stop atomic.Bool
	var released atomic.Int64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // a writer, waiting in open until a reader comes
		defer wg.Done()
		for !stop.Load() {
			if f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_WRONLY, 0); err == nil {
				if !stop.Load() {
					released.Add(1)
				}
				f.Close()
			}
		}
	}()
	go func() { // sub/f: the file, then the FIFO, then the file...
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			src := map[bool]string{false: "reg", true: "fifo"}[i%2 == 1]
			tmp := filepath.Join(dir, "sub", "tmp")
			os.Remove(tmp)
			os.Link(filepath.Join(dir, src), tmp)
			os.Rename(tmp, filepath.Join(dir, "sub", "f"))
		}
	}()
	for _, p := range []string{"sub/f", "sub/../sub/f", "abs/f"} {
		for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); {
			s.ReadFile(dir + "/" + p)
		}
	}
	stop.Store(true)
	if f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_RDONLY|oNonblock, 0); err == nil {
		defer f.Close() // lets the writer's last open return
	}
	wg.Wait()
	if n := released.Load(); n > 0 {
		t.Errorf("ReadFile opened the FIFO %d times", n)
	}
}

// TestRootSetWalkDepth: a path the walk resolves (here one with a final
// "/") may go 256 directories deep, not more: the walk holds each
// directory open, and a deeper one is refused as too long, leaving no
// descriptor behind.
func TestRootSetWalkDepth(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the walk holds directories on Linux only")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	deep := dir + "/" + strings.Repeat("d/", 300)
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	s := mustSet(t, []string{fileURI(dir)})
	if _, err := s.Stat(dir); err != nil { // the root's own directory, which the set keeps open
		t.Fatal(err)
	}
	before := openFiles(t)
	depth := strings.Count(dir, "/")
	if _, err := s.Stat(dir + "/" + strings.Repeat("d/", 256-depth)); err != nil {
		t.Errorf("Stat at depth 256: %v", err)
	}
	if _, err := s.Stat(deep); !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Errorf("Stat at depth %d: %v; want ENAMETOOLONG", depth+300, err)
	}
	if after := openFiles(t); after != before {
		t.Errorf("%d descriptors open after the walks, %d before", after, before)
	}
}

// openFiles counts the process's open descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd to count descriptors: %v", err)
	}
	return len(fds)
}

// TestRootSetReadLimit: ReadLimit sets the largest file ReadFile reads;
// zero or less is the default.
func TestRootSetReadLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 100), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit int64
		ok    bool
	}{{50, false}, {99, false}, {100, true}, {0, true}, {-1, true}} {
		s := mustSet(t, []string{fileURI(dir)}, rootsrt.ReadLimit(c.limit))
		data, err := s.ReadFile(p)
		switch {
		case c.ok && (err != nil || len(data) != 100):
			t.Errorf("ReadLimit(%d): %d bytes, %v; want the 100 bytes", c.limit, len(data), err)
		case !c.ok && !errors.Is(err, rootsrt.ErrFileTooLarge):
			t.Errorf("ReadLimit(%d): %v; want ErrFileTooLarge", c.limit, err)
		}
	}
}

// TestRootSetMaxRoots: a set keeps MaxRoots valid roots and reports the
// rest; an invalid root does not count.
func TestRootSetMaxRoots(t *testing.T) {
	var uris []string
	for i := range 5 {
		uris = append(uris, fileURI(filepath.Join(t.TempDir(), "r"+string(rune('a'+i)))))
	}
	uris = append(uris[:1], append([]string{"http://bad/"}, uris[1:]...)...)
	s, bad, _ := newSet(uris, rootsrt.MaxRoots(3))
	defer s.Close()
	if strings.Join(bad, " ") != "roots[1].uri roots[4] roots[5]" {
		t.Errorf("MaxRoots(3) refused %q, want roots[1].uri (invalid), roots[4] and roots[5]", bad)
	}
	if got := len(s.Dirs()); got != 3 {
		t.Errorf("MaxRoots(3) kept %d directories", got)
	}
}

// TestRootSetOtherSystem: a set of Windows paths on another system answers
// the lexical questions, and its file methods refuse every path instead of
// opening it relative to the working directory.
func TestRootSetOtherSystem(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the other system is POSIX here; TestRootSetWindows covers the rules")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, `C:\x`), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, `C:`), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, `C:`, "x"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	s := mustSet(t, []string{"file:///C:/"}, rootsrt.WindowsPaths(true))
	if !s.Contains(`C:\x`) {
		t.Error(`Contains(C:\x) = false`)
	}
	for _, p := range []string{`C:\x`, `C:/x`} {
		if data, err := s.ReadFile(p); err == nil || bytes.Contains(data, []byte("SECRET")) {
			t.Errorf("ReadFile(%s) = %q, %v; want a refusal", p, data, err)
		}
		if err := s.Remove(p); err == nil {
			t.Errorf("Remove(%s) succeeded", p)
		}
	}
}

// TestRootSetErrorsNameNoSystemCall: the errors of the file methods name
// the operation the caller asked for, not the system call that did it.
func TestRootSetErrorsNameNoSystemCall(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := mustSet(t, []string{fileURI(dir)})
	for _, p := range []string{"file/x", "missing", "file/"} {
		_, err := s.Open(dir + "/" + p)
		if err == nil || strings.Contains(err.Error(), "openat") {
			t.Errorf("Open(%s): %v", p, err)
		}
	}
}
