package generated_test

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
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

// noSecret fails the test when a file method read or made something
// outside; it returns what ReadFile read.
func noSecret(t *testing.T, v rsView, p string) string {
	t.Helper()
	data, err := v.files.ReadFile(p)
	if bytes.Contains(data, []byte("SECRET")) {
		t.Fatalf("ESCAPE: ReadFile(%q) read %q", p, data)
	}
	if f, err := v.files.Open(p); err == nil {
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

// setups are the ways the anchoring tests build a set.
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

// TestRootSetBoundsRootLinkOut: a client root that is a link inside the
// server's directory, pointing out of it, is left out, with and without
// ResolveSymlinks; a link that stays inside is followed; and nothing
// outside can be read through either.
func TestRootSetBoundsRootLinkOut(t *testing.T) {
	for _, api := range rsAPIs {
		for _, resolve := range []bool{false, true} {
			e := newAnchorTree(t)
			v, bad, _ := api.build([]string{fileURI(e.at("data/out")), fileURI(e.at("data/rout")), fileURI(e.at("data/link"))}, rsOpts{resolve: resolve, bounds: []string{e.at("data")}})
			if strings.Join(bad, " ") != "roots[0].uri roots[1].uri" {
				t.Errorf("%s resolve=%v: refused %q, want the two links that lead out", api.rev, resolve, bad)
			}
			for _, p := range []string{"data/out/f", "data/rout/f", "data/out/proj/f", "outside/f"} {
				if _, err := v.files.ReadFile(e.at(p)); err == nil {
					t.Errorf("%s resolve=%v: ReadFile(%s) succeeded", api.rev, resolve, p)
				}
				noSecret(t, v, e.at(p))
			}
			if got := noSecret(t, v, e.at("data/link/f")); got != "inside" {
				t.Errorf("%s resolve=%v: ReadFile(data/link/f) = %q, want the file inside", api.rev, resolve, got)
			}
			v.files.Close()
		}
	}
}

// TestRootSetRepointedBeforeUse: a root that is a link, re-pointed out of
// the server's directory after the set was built and before its first use,
// still names the directory it named when the set was built.
func TestRootSetRepointedBeforeUse(t *testing.T) {
	for _, api := range rsAPIs {
		for _, setup := range anchorSetups {
			e := newAnchorTree(t)
			o := rsOpts{resolve: setup.resolve}
			if setup.bounded {
				o.bounds = []string{e.at("data")}
			}
			v, bad, err := api.build([]string{fileURI(e.at("data/link"))}, o)
			if err != nil {
				t.Fatalf("%s %s: %v (%q)", api.rev, setup.name, err, bad)
			}
			e.repoint(t, "data/link", e.at("outside/proj"))
			if got := noSecret(t, v, e.at("data/link/f")); got != "inside" {
				t.Errorf("%s %s: ReadFile(data/link/f) = %q after the link moved, want the file of the directory the set was built on", api.rev, setup.name, got)
			}
			f, err := v.files.OpenFile(e.at("data/link/made"), os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				t.Errorf("%s %s: creating under the moved link: %v", api.rev, setup.name, err)
			} else {
				f.Close()
			}
			if _, err := os.Stat(e.at("outside/proj/made")); err == nil {
				t.Fatalf("ESCAPE: %s %s: a file was made outside", api.rev, setup.name)
			}
			if _, err := os.Stat(e.at("data/proj/made")); err != nil {
				t.Errorf("%s %s: the file was not made in the root's directory: %v", api.rev, setup.name, err)
			}
			v.files.Close()
		}
	}
}

// TestRootSetRootSwappedBeforeUse: a root directory renamed and replaced
// by a link after the set was built is not followed: the set acts on the
// directory it opened, wherever it now is.
func TestRootSetRootSwappedBeforeUse(t *testing.T) {
	for _, api := range rsAPIs {
		for _, setup := range anchorSetups {
			e := newAnchorTree(t)
			o := rsOpts{resolve: setup.resolve}
			if setup.bounded {
				o.bounds = []string{e.at("data")}
			}
			v, bad, err := api.build([]string{fileURI(e.at("data/proj"))}, o)
			if err != nil {
				t.Fatalf("%s %s: %v (%q)", api.rev, setup.name, err, bad)
			}
			e.repoint(t, "data/proj", e.at("outside/proj"))
			if got := noSecret(t, v, e.at("data/proj/f")); got != "inside" {
				t.Errorf("%s %s: ReadFile(data/proj/f) = %q after the swap, want the file of the directory the set opened", api.rev, setup.name, got)
			}
			if err := v.files.Remove(e.at("data/proj/f")); err != nil {
				t.Errorf("%s %s: Remove: %v", api.rev, setup.name, err)
			}
			if _, err := os.Stat(e.at("outside/proj/f")); err != nil {
				t.Fatalf("ESCAPE: %s %s: Remove reached outside: %v", api.rev, setup.name, err)
			}
			v.files.Close()
		}
	}
}

// TestRootSetBoundSwapped: the server's directory itself, renamed and
// replaced by a link out after the set was built, does not move the set,
// whether a root lies inside it or holds it.
func TestRootSetBoundSwapped(t *testing.T) {
	for _, api := range rsAPIs {
		for _, resolve := range []bool{false, true} {
			for _, root := range []string{"data/proj", ""} { // a root inside the bound; one that holds it
				e := newAnchorTree(t)
				v, bad, err := api.build([]string{fileURI(e.at(root))}, rsOpts{resolve: resolve, bounds: []string{e.at("data")}})
				if err != nil {
					t.Fatalf("%s: %v (%q)", api.rev, err, bad)
				}
				e.repoint(t, "data", e.at("outside"))
				if got := noSecret(t, v, e.at("data/proj/f")); got != "inside" {
					t.Errorf("%s resolve=%v root=%q: ReadFile(data/proj/f) = %q after the bound moved, want the file of the directory the set opened", api.rev, resolve, root, got)
				}
				noSecret(t, v, e.at("data/f"))
				v.files.Close()
			}
		}
	}
}

// TestRootSetOutsideBounds: a path inside the client's root but outside the
// server's directories is refused with ErrOutsideBounds, which names that
// limit; a path outside the client's roots with ErrOutsideRoots.
func TestRootSetOutsideBounds(t *testing.T) {
	for _, api := range rsAPIs {
		e := newAnchorTree(t)
		v, _, err := api.build([]string{fileURI(e.base)}, rsOpts{bounds: []string{e.at("data")}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = v.files.ReadFile(e.at("outside/f"))
		if !errors.Is(err, v.outsideBounds) || errors.Is(err, v.outside) {
			t.Errorf("%s: ReadFile(outside/f): %v; want ErrOutsideBounds alone", api.rev, err)
		}
		if err != nil && !strings.Contains(err.Error(), "outside the directories the server allows") {
			t.Errorf("%s: the message does not name the server's directories: %v", api.rev, err)
		}
		_, err = v.files.ReadFile(filepath.Dir(e.base))
		if !errors.Is(err, v.outside) || errors.Is(err, v.outsideBounds) {
			t.Errorf("%s: ReadFile(above the root): %v; want ErrOutsideRoots alone", api.rev, err)
		}
		// An error met outside every root (a name that does not exist) is
		// a refusal: it says nothing of what lies outside.
		_, err = v.files.ReadFile(filepath.Join(filepath.Dir(e.base), "no-such-dir", "f"))
		if !errors.Is(err, v.outside) || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: ReadFile(a missing path outside): %v; want ErrOutsideRoots, not a file system error", api.rev, err)
		}
		v.files.Close()
	}
}

// TestRootSetSpecialFiles: ReadFile refuses, without blocking, a FIFO with
// no writer, a device, a socket and a directory, and a file larger than
// the read limit without reading or allocating it; Open returns a FIFO
// without waiting for a writer.
func TestRootSetSpecialFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev on Windows")
	}
	for _, api := range rsAPIs {
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
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
		v, _, err := api.build([]string{fileURI(dir), "file:///dev"}, rsOpts{})
		if err != nil {
			t.Fatal(err)
		}
		within := func(what string, f func()) {
			t.Helper()
			done := make(chan struct{})
			go func() { defer close(done); f() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: %s blocked", api.rev, what)
			}
		}
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		for _, c := range []struct {
			p    string
			want error
		}{
			{fifo, v.notRegular},
			{"/dev/zero", v.notRegular},
			{"/dev/null", v.notRegular},
			{dir, v.notRegular},
			{sparse, v.tooLarge},
		} {
			within("ReadFile("+c.p+")", func() {
				if _, err := v.files.ReadFile(c.p); !errors.Is(err, c.want) {
					t.Errorf("%s: ReadFile(%s): %v; want %v", api.rev, c.p, err, c.want)
				}
			})
		}
		within("ReadFile(sock)", func() {
			if _, err := v.files.ReadFile(filepath.Join(dir, "sock")); err == nil {
				t.Errorf("%s: ReadFile(sock) read a socket", api.rev)
			}
		})
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
			t.Errorf("%s: refusing special and huge files allocated %d bytes", api.rev, grown)
		}
		within("Open(fifo)", func() {
			f, err := v.files.Open(fifo)
			if err != nil {
				t.Errorf("%s: Open(fifo): %v", api.rev, err)
				return
			}
			f.Close()
		})
		v.files.Close()
	}
}

// TestRootSetReadLimit: ReadLimit sets the largest file ReadFile reads.
func TestRootSetReadLimit(t *testing.T) {
	for _, api := range rsAPIs {
		dir := t.TempDir()
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 100), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			limit int64
			ok    bool
		}{{50, false}, {99, false}, {100, true}, {0, true}} {
			v, _, err := api.build([]string{fileURI(dir)}, rsOpts{readLimit: c.limit})
			if err != nil {
				t.Fatal(err)
			}
			data, err := v.files.ReadFile(p)
			switch {
			case c.ok && (err != nil || len(data) != 100):
				t.Errorf("%s: ReadLimit(%d): %d bytes, %v; want the 100 bytes", api.rev, c.limit, len(data), err)
			case !c.ok && !errors.Is(err, v.tooLarge):
				t.Errorf("%s: ReadLimit(%d): %v; want ErrFileTooLarge", api.rev, c.limit, err)
			}
			v.files.Close()
		}
	}
}

// TestRootSetMaxRoots: a set keeps MaxRoots roots and reports the rest.
func TestRootSetMaxRoots(t *testing.T) {
	for _, api := range rsAPIs {
		var uris []string
		for i := range 5 {
			uris = append(uris, fileURI(filepath.Join(t.TempDir(), "r"+string(rune('a'+i)))))
		}
		v, bad, _ := api.build(uris, rsOpts{maxRoots: 3})
		if strings.Join(bad, " ") != "roots[3] roots[4]" {
			t.Errorf("%s: MaxRoots(3) refused %q, want roots[3] and roots[4]", api.rev, bad)
		}
		if got := len(v.dirs()); got != 3 {
			t.Errorf("%s: MaxRoots(3) kept %d directories", api.rev, got)
		}
		v.files.Close()
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
	for _, api := range rsAPIs {
		v, _, err := api.build([]string{"file:///C:/"}, rsOpts{windows: true})
		if err != nil {
			t.Fatal(err)
		}
		if !v.contains(`C:\x`) {
			t.Errorf("%s: Contains(C:\\x) = false", api.rev)
		}
		for _, p := range []string{`C:\x`, `C:/x`} {
			if data, err := v.files.ReadFile(p); err == nil || bytes.Contains(data, []byte("SECRET")) {
				t.Errorf("%s: ReadFile(%s) = %q, %v; want a refusal", api.rev, p, data, err)
			}
			if err := v.files.Remove(p); err == nil {
				t.Errorf("%s: Remove(%s) succeeded", api.rev, p)
			}
		}
		v.files.Close()
	}
}

// TestRootSetErrorsNameNoSystemCall: the errors of the file methods name
// the operation the caller asked for, not the system call that did it.
func TestRootSetErrorsNameNoSystemCall(t *testing.T) {
	for _, api := range rsAPIs {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		v, _, err := api.build([]string{fileURI(dir)}, rsOpts{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"file/x", "missing", "file/"} {
			_, err := v.files.Open(dir + "/" + p)
			if err == nil || strings.Contains(err.Error(), "openat") {
				t.Errorf("%s: Open(%s): %v", api.rev, p, err)
			}
		}
		v.files.Close()
	}
}
