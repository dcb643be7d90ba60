package rootsrt

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"syscall"
	"weak"
)

// boundDir is a directory of Bounds, opened once and shared by every set
// built with it (see holdBound).
type boundDir struct {
	lexical string // its path as written, cleaned
	// real is where the path led when it was opened, resolved as
	// ResolveSymlinks resolves; "" when it could not be, for realErr.
	real    string
	realErr error
	target  string      // where the path led: real on POSIX, the path on Windows
	root    *os.Root    // the directory, open for as long as the boundDir lives
	id      fs.FileInfo // which directory root is (see identify)
	err     error       // why it could not be opened; then nothing else is set
}

// boundRef is one directory given to Bounds: the boundDir it opened, or
// the path to try again where that failed.
type boundRef struct {
	dir string
	mu  sync.Mutex
	bd  *boundDir
}

// get returns the directory, opening it again if it could not be before.
func (r *boundRef) get() *boundDir {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bd == nil || r.bd.err != nil {
		r.bd = holdBound(r.dir)
	}
	return r.bd
}

// heldBounds are the directories of Bounds that are open, by cleaned path:
// one handle per directory, however many options name it, for as long as
// an option (or a set built with one) refers to it.
var heldBounds = struct {
	mu sync.Mutex
	m  map[string]weak.Pointer[boundDir]
}{m: map[string]weak.Pointer[boundDir]{}}

var errNotAbsolute = errors.New("not an absolute path")

// holdBound returns the open directory dir names, a path of this system:
// the one already held for it, or one opened now. One that cannot be
// opened is not held: the next call tries again.
func holdBound(dir string) *boundDir {
	windows := runtime.GOOS == "windows"
	p, ok := canonicalPath(dir, windows)
	if !ok {
		return &boundDir{err: errNotAbsolute}
	}
	heldBounds.mu.Lock()
	defer heldBounds.mu.Unlock()
	if w, ok := heldBounds.m[p]; ok {
		if bd := w.Value(); bd != nil {
			return bd
		}
	}
	bd := openBound(p, windows)
	if bd.err == nil {
		w := weak.Make(bd)
		heldBounds.m[p] = w
		runtime.AddCleanup(bd, dropBound, boundCleanup{p, w, bd.root})
	}
	return bd
}

// boundCleanup is what dropBound needs of a boundDir no option refers to.
type boundCleanup struct {
	path string
	w    weak.Pointer[boundDir]
	root *os.Root
}

// dropBound closes a boundDir's directory once nothing refers to it.
func dropBound(c boundCleanup) {
	heldBounds.mu.Lock()
	if heldBounds.m[c.path] == c.w {
		delete(heldBounds.m, c.path)
	}
	heldBounds.mu.Unlock()
	c.root.Close()
	dirs.release()
}

// openBound opens p, a canonical path, as a directory of Bounds: where it
// leads now, a directory, counted in the descriptor budget.
func openBound(p string, windows bool) *boundDir {
	bd := &boundDir{lexical: p}
	bd.real, bd.realErr = resolvePath(p, windows, resolveMode{})
	bd.target = p
	if !windows {
		if bd.realErr != nil {
			bd.err = bd.realErr
			return bd
		}
		bd.target = bd.real
	}
	if err := dirs.reserve(); err != nil {
		bd.err = noDescriptors{err}
		return bd
	}
	r, err := os.OpenRoot(selfPath(bd.target, windows))
	if err == nil {
		if bd.id, err = identify(r, "."); err == nil && !sameAs(bd.id, bd.target) {
			err = errChanged
		}
		if err != nil {
			r.Close()
		}
	}
	if err != nil {
		dirs.release()
		bd.err = asStarved(err)
		return bd
	}
	bd.root = r
	return bd
}

// sameAs reports whether id is the directory p names now.
func sameAs(id fs.FileInfo, p string) bool {
	now, err := statDir(p)
	return err == nil && os.SameFile(now, id)
}

// below is the directory rel (links resolved, "." for the bound itself)
// below the bound, as a set's directory: opened beneath the bound when
// used, and which directory it is now.
func (bd *boundDir) below(rel string) dirSpec {
	d := dirSpec{under: bd, rel: rel}
	if d.id, d.err = identify(bd.root, dirSelf(rel)); d.err == nil && !d.id.IsDir() {
		d.id, d.err = nil, &fs.PathError{Op: "open", Path: rel, Err: syscall.ENOTDIR}
	}
	return d
}

// selfPath is the path that opens p, a canonical path, as a directory: on
// POSIX p with "/." added, so a FIFO or a device is never opened (see
// dirSelf).
func selfPath(p string, windows bool) string {
	if windows || p == "/" {
		return p
	}
	return p + "/."
}
