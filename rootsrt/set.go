package rootsrt

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
	"io"
	"io/fs"
	"maps"
	"os"
	slashpath "path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"
)

// A RootSetOf answers the question a server asks before it touches a
// file: is this path inside one of the client's roots, and which one? R is
// a root's type in the protocol revision the roots came in (a
// single-revision package names its set RootSet; a kit's gate has its
// own). Build one per roots list with [NewRootSetOf]; it is safe for
// concurrent use and its roots never change. Close it when done: it keeps
// the directories it used open, within the process's descriptor budget
// (see [SetDescriptorBudget]).
//
// A root URI must be a file URI with a lower-case scheme ("FILE://" is
// refused, as Validate refuses it) and an empty or "localhost" host (not
// file://server/share), with no query, fragment, "%00" (NUL) or "%2F" (an
// encoded "/" would hide a separator in a name; on Windows "%5C" too).
// Other escapes are decoded, "%2e%2e" to "..", then "." and ".." removed
// as by [path.Clean] (".." above "/" stays at "/"). A root that breaks a
// rule is left out and reported by index.
//
// The lexical methods, [RootSetOf.Contains], [RootSetOf.ContainsURI] and
// [RootSetOf.Which], read the path as text and touch no file: use them to
// display or filter paths, never to decide whether a file may be read or
// written, since a link inside a root can point anywhere. For them a path
// is inside a root when, cleaned, it is the root's path or starts with it
// and a separator: "/a/bc" is not inside "/a/b", and the root "/" holds
// every absolute path. Relative and empty paths and paths with a NUL byte
// are inside nothing. Paths are not URIs: "%2e%2e" in a path is a name.
//
// The file methods, those of [os.Root] from [RootSetOf.Open] to
// [RootSetOf.OpenRoot], and [RootSetOf.FS] for io/fs, act through the
// directory of the root that holds the path. Building the set opens no directory: it looks at each root
// (stat) to learn which directory the root names, device and inode, and
// a file method opens the directory when a path first falls in it
// (beneath the bound's directory, with [Bounds]) and uses it only if it
// is that same directory. So a root renamed, replaced or swapped for a
// link after the set was built is refused, never followed; once opened,
// the set acts on the directory it holds, wherever it is moved. Under it,
// [os.Root] resolves the rest of the path (ReadFile first tries openat2
// with RESOLVE_BENEATH, on Linux 5.6 and later), so no link or ".." leads
// out, however the tree changes during the call. What they return was
// opened through the root, and a directory's entries are described
// through its handle. Hard links and mount points are not links: a file
// hard-linked into a root, or a file system mounted inside one, is inside
// it. A root whose directory could not be looked at when the set was
// built (it does not exist here, say) stays for the lexical methods, and
// its file methods return that error. A file method that finds the
// process out of descriptors fails with [ErrNoDescriptors]; the set is
// not harmed, and the same call works once descriptors are free.
//
// The file methods find the root a path belongs to by reading it as the
// kernel does: name by name, following each link where it stands, so
// ".." after a link is the parent of its target. The walk looks at no
// name outside the set but the directories above its roots (and, for a
// path written under a root that is itself a link, where that root leads
// and above): a path that would go through one (a link inside a root that
// leads out, even if a ".." comes back; a link outside that leads in), or
// whose walk fails there, is refused, so no answer depends on what lies
// outside. Every file method, Resolve and OpenRoot included, accepts a
// path written under a root that is a link as ReadFile does; a path
// written through where such a root leads is inside only with
// [ResolveSymlinks]. A path
// outside every root is an [*fs.PathError] wrapping [ErrOutsideRoots];
// one inside a client's root but outside [Bounds], [ErrOutsideBounds],
// whichever its text says. [RootSetOf.Resolve] and
// [RootSetOf.WhichResolved] make this check alone, for a server that must
// say where a path leads; a check is not a lock, so act through the root.
//
// Windows paths (by default on Windows, or with [WindowsPaths]):
// file:///C:/x is the path C:\x, as is file:///c%3A/x. Roots and paths
// must start with a drive letter, which compares case-insensitively; the
// rest compares exactly (a path spelled in another case is refused). UNC,
// \\?\ and drive-relative paths (C:x) are inside nothing, and so are names
// Windows would alter or not store as written: a final dot or space, one
// of <>:"|?* or a control character, a device name (CON, NUL, COM1, ...),
// invalid UTF-8. As Windows does, ".." is removed as text before links are
// followed; the links left are resolved with [filepath.EvalSymlinks], and
// [os.Root] refuses links and junctions out of the root. Elsewhere paths
// are POSIX paths: a name is any bytes but "/" and NUL, and file:///C:/x
// is the path /C:/x.
//
//rootsgen:deprecated
type RootSetOf[R any] struct {
	*rootSet
	roots []R // the valid roots, in the order given
}

// rootSet is what a set of roots is whatever their type: the directories
// paths may be in and every method that does not return a root. RootSetOf
// and RootSet embed it, so that go doc lists its methods as theirs.
type rootSet struct {
	// The directories paths may be in (see Dirs), by index in rootIndex.
	paths   []string  // each directory's path as written, cleaned
	owner   []int     // the index in roots of the root it belongs to
	dirs    []rootDir // each directory: where it is, and its descriptors while open
	lexical rootIndex // paths, indexed
	// resolved is paths with links resolved (ResolveSymlinks), or lexical.
	resolved rootIndex
	// clients, with Bounds, is the client's valid roots as resolved holds
	// them, before the bounds narrowed them: a path inside one but in no
	// directory is outside the bounds.
	clients rootIndex
	// boundsOnly: the roots are the server's directories themselves (a
	// Session falling back to its Bounds): a path outside them is outside
	// the bounds.
	boundsOnly bool
	// starved: a root or bound was left out because descriptors ran out
	// while the set was built; a cache must not keep the set.
	starved   bool
	walk      *walkIndex // what a walk may look at, learned as walks need it
	windows   bool
	readLimit int64
	closed    atomic.Bool
	refs      *atomic.Int32 // counts the open views of the directories (see Share)
	// Each view's own: where it records the paths it refuses (see
	// LogRefusals), and the revision it names in those records.
	log      *refusalLog
	revision string
}

// rootDir is a directory of a RootSetOf: where it is and which directory
// it was when the set was built (dirSpec), and its descriptors, opened on
// first use and kept while the pool allows (dirHandle).
type rootDir struct {
	dirSpec
	dirHandle
	// seen is which directory it was when first opened, for a set whose
	// roots are anchored on use (see anchorOnUse) and so have no id.
	seen atomic.Pointer[fs.FileInfo]
}

// dirSpec says how to open a directory of a set, and what it must be.
type dirSpec struct {
	path  string    // without Bounds: its path, as the root gave it
	under *boundDir // with Bounds: the bound it lies in, held open,
	rel   string    // and its path below the bound's directory, links resolved
	// id is which directory it was when the set was built (see identify);
	// a directory opened later that is not this one is refused. nil, with
	// no err, for a set anchored on use (see identity).
	id  fs.FileInfo
	err error // why it cannot be opened, found when the set was built
}

// The errors a file method wraps, in an [*fs.PathError], when it refuses a
// path or a file.
var (
	// ErrOutsideRoots: the path lies outside every one of the client's
	// roots once its links are resolved, or it can be inside none (a
	// relative or empty path, a NUL byte).
	ErrOutsideRoots = errors.New("outside the client's roots")
	// ErrOutsideBounds: the path lies inside one of the client's roots but
	// outside every directory the server allows with [Bounds].
	ErrOutsideBounds = errors.New("outside the directories the server allows")
	// ErrNotRegularFile: ReadFile was given no regular file.
	ErrNotRegularFile = errors.New("not a regular file")
	// ErrFileTooLarge: ReadFile was given a file over the [ReadLimit].
	ErrFileTooLarge = errors.New("file larger than the read limit")
)

// errOtherSystem is the error of the file methods of the other system's paths.
var errOtherSystem = fmt.Errorf("paths of another system cannot be opened on %s", runtime.GOOS)

// rootIndex maps a directory's canonical path to its index in
// RootSetOf.paths. A lookup costs one map lookup per level of the path,
// however many roots there are.
type rootIndex struct {
	byPath map[string]int
	maxLen int // no root path is longer: longer ancestors are skipped
}

// has reports whether p, a canonical path, is one of x's paths or below one.
func (x *rootIndex) has(p string, windows bool) bool {
	_, _, in := x.lookup(p, windows)
	return in
}

func (x *rootIndex) add(p string, i int) {
	if _, dup := x.byPath[p]; !dup {
		x.byPath[p] = i
		x.maxLen = max(x.maxLen, len(p))
	}
}

// A RootSetOption changes how [NewRootSetOf] reads roots and paths.
//
//rootsgen:deprecated
type RootSetOption func(*rootSetConfig)

type rootSetConfig struct {
	windows, resolve, bounded bool
	onUse                     bool // see anchorOnUse
	bounds                    []string
	held                      []*boundRef // the directories of bounds, as Bounds opened them
	readLimit                 int64
	maxRoots                  int
	log                       *refusalLog // see LogRefusals
}

// newRootSetConfig is the configuration opts make.
func newRootSetConfig(opts []RootSetOption) rootSetConfig {
	c := rootSetConfig{windows: runtime.GOOS == "windows"}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// ResolveSymlinks compares roots, [Bounds] and paths by where they lead,
// not by how they are written: each root and bound is resolved when the
// set is built, so a root or bound written through a link matches the
// paths that reach its directory another way, and [RootSetOf.WhichResolved]
// finds a path reached through a root that is itself a link. A root that
// does not exist or cannot be resolved is reported and left out. The file
// methods are as safe without it.
//
//rootsgen:deprecated
func ResolveSymlinks() RootSetOption {
	return func(c *rootSetConfig) { c.resolve = true }
}

// Bounds limits the set to the directories a server's operator allows: a
// path is inside the set only when it is inside one of the client's roots
// and one of dirs. A root that holds one of dirs is narrowed to it (the
// client's file:/// with dirs /srv/data allows /srv/data and below), a
// root inside one is kept whole, and a root that overlaps none is left out
// and reported.
//
// Each of dirs is opened when Bounds is called, and held open while any
// option Bounds returned for it is in use (an adapter keeps its options
// for its life): every set built with them works beneath those
// directories, so a bound renamed or swapped for a link after it was
// opened is never followed. A root inside a bound is opened beneath it: a
// root that leads out of it through a link is left out, and one that
// becomes such a link later cannot widen the bounds. dirs are absolute
// paths of the set's kind (see [WindowsPaths]); one that is not, or that
// [ResolveSymlinks] cannot resolve, allows nothing and is reported as
// bounds[i]. One that cannot be opened (it does not exist yet, say) is
// tried again by each set built with it, and until then allows nothing for
// the file methods. Bounds add up; with no dirs, nothing is allowed.
//
//rootsgen:deprecated
func Bounds(dirs ...string) RootSetOption {
	held := make([]*boundRef, len(dirs))
	for i, dir := range dirs {
		held[i] = &boundRef{dir: dir, bd: holdBound(dir)}
	}
	return func(c *rootSetConfig) {
		c.bounds = append(c.bounds, dirs...)
		c.held = append(c.held, held...)
		c.bounded = true
	}
}

// WindowsPaths says whether paths are Windows paths (true) or POSIX paths
// (false). The default is the running system's; a set of the other kind
// answers the lexical methods only, and its file methods refuse every path.
//
//rootsgen:deprecated
func WindowsPaths(on bool) RootSetOption {
	return func(c *rootSetConfig) { c.windows = on }
}

// DefaultReadLimit is the size of the largest file [RootSetOf.ReadFile]
// reads, unless [ReadLimit] sets another.
const DefaultReadLimit = 16 << 20

// ReadLimit sets the size, in bytes, of the largest file
// [RootSetOf.ReadFile] reads. Zero or less means [DefaultReadLimit].
//
//rootsgen:deprecated
func ReadLimit(n int64) RootSetOption {
	return func(c *rootSetConfig) { c.readLimit = n }
}

// DefaultMaxRoots is the number of roots a set keeps, unless [MaxRoots]
// sets another: each holds a directory open while the set lives.
const DefaultMaxRoots = 1024

// MaxRoots sets how many roots a set keeps: the roots of a list after the
// first n valid ones are left out and reported. Zero or less means
// [DefaultMaxRoots].
//
//rootsgen:deprecated
func MaxRoots(n int) RootSetOption {
	return func(c *rootSetConfig) { c.maxRoots = n }
}

// anchorOnUse is the option of a set built for a request that carries its
// roots itself: a root without Bounds is not looked at when the set is
// built, and the directory it names when the set first opens it, during a
// request that carried the list, is the one the set holds to. It saves a
// stat per root of every list, which a client can change on every request.
func anchorOnUse(c *rootSetConfig) { c.onUse = true }

// NewRootSetOf builds the set of roots; uri returns a root's URI and
// check, when not nil, adds to v the ways a root breaks its revision's
// rules. Roots that break the rules are left out and named by index
// (roots[3].uri) in the error, a [*ValidationError]; the valid ones are
// kept. Check the error to refuse the list instead. Building a set opens
// no root: each root's directory is looked at (stat) to learn which
// directory it is, and opened when a file method first needs it.
//
//rootsgen:deprecated
func NewRootSetOf[R any](roots []R, uri func(*R) string, check func(r *R, v *rtimpl.Validator, at *rtimpl.Path), opts ...RootSetOption) (*RootSetOf[R], error) {
	c := newRootSetConfig(opts)
	c.readLimit, c.maxRoots = cmp.Or(max(c.readLimit, 0), DefaultReadLimit), cmp.Or(max(c.maxRoots, 0), DefaultMaxRoots)
	core := &rootSet{windows: c.windows, readLimit: c.readLimit, lexical: rootIndex{byPath: make(map[string]int, len(roots))}, refs: new(atomic.Int32), walk: new(walkIndex), log: c.log}
	s := &RootSetOf[R]{rootSet: core}
	s.refs.Store(1)
	if c.resolve {
		s.resolved.byPath = make(map[string]int, len(roots))
	}
	if c.bounded {
		s.clients.byPath = make(map[string]int, len(roots))
	}
	b := setBuilder[R]{s: s, c: c, other: c.windows != (runtime.GOOS == "windows"), v: rtimpl.Validator{TypeName: "RootSet"}}
	b.openBounds()
	b.boundsWalk()
	for i := range roots {
		at := rtimpl.ItemPath("roots", i)
		if before := len(b.v.Problems); check != nil {
			if check(&roots[i], &b.v, at); len(b.v.Problems) > before {
				continue
			}
		}
		if len(s.roots) == c.maxRoots {
			b.v.Add(at, fmt.Sprintf("more than %d roots: the set keeps the first %d", c.maxRoots, c.maxRoots))
		} else if msg := b.add(uri(&roots[i])); msg != "" {
			b.v.Add(at.Member("uri"), msg)
		} else {
			s.roots = append(s.roots, roots[i])
		}
	}
	if !c.resolve {
		s.resolved = s.lexical
	}
	s.dirs = make([]rootDir, len(b.dirs))
	for i, d := range b.dirs {
		s.dirs[i].dirSpec = d
	}
	return s, b.v.Err()
}

// setBuilder builds a RootSetOf.
type setBuilder[R any] struct {
	s      *RootSetOf[R]
	c      rootSetConfig
	other  bool // paths of the other system: nothing is opened
	v      rtimpl.Validator
	bounds []bound
	dirs   []dirSpec         // the directories of s.paths
	visit  func(string) bool // with Bounds, the names a walk may look at (see boundsWalk)
}

// bound is a directory of Bounds, as a set uses it.
type bound struct {
	dirPaths           // as written, cleaned; and resolved with ResolveSymlinks
	held     *boundDir // opened by Bounds, or here: nil for the other system's paths
	err      error     // why it cannot be used: held's error, or errOtherSystem
}

// dirPaths is a directory's path as written, cleaned, and resolved.
type dirPaths struct{ lexical, real string }

// errChanged reports a directory that is not the one its root named when
// the set was built.
var errChanged = errors.New("the directory changed since the roots were listed")

// openBounds takes the directories of Bounds, opened by Bounds (or now,
// where that failed), and reports unusable ones.
func (b *setBuilder[R]) openBounds() {
	for i, dir := range b.c.bounds {
		at := rtimpl.ItemPath("bounds", i)
		p, ok := b.s.canonical(dir)
		if !ok {
			b.v.Add(at, "not an absolute path")
			continue
		}
		bd := bound{dirPaths: dirPaths{p, p}, err: errOtherSystem}
		if !b.other {
			bd.held = b.c.held[i].get() // opened by Bounds, or tried again
			bd.err = bd.held.err
			if starved(bd.err) {
				b.s.starved = true
			}
			if b.c.resolve {
				if bd.real = bd.held.real; bd.real == "" {
					b.v.Add(at, "cannot resolve symbolic links: "+bd.held.realErr.Error())
					continue
				}
			}
		}
		b.bounds = append(b.bounds, bd)
	}
}

// target returns where p, a canonical path, leads: p with its links
// resolved, or on Windows p itself, as os.Root there refuses links out.
func (b *setBuilder[R]) target(p string) (string, error) {
	switch {
	case b.other:
		return p, errOtherSystem
	case b.c.windows:
		return p, nil
	}
	return resolvePOSIX(p, resolveMode{visit: b.visit})
}

// boundsWalk sets up b.visit for a set with Bounds on this system: the
// walks resolving the client's roots look at no name outside the server's
// directories but those above them, so no answer depends on what lies
// outside.
func (b *setBuilder[R]) boundsWalk() {
	if !b.c.bounded || b.other || b.c.windows {
		return
	}
	inside := rootIndex{byPath: map[string]int{}}
	for i, bd := range b.bounds {
		inside.add(bd.lexical, i)
		inside.add(bd.real, i)
		if bd.held.err == nil {
			inside.add(bd.held.target, i)
		}
	}
	above := ancestorsOf(inside.byPath)
	b.visit = func(p string) bool { return inside.has(p, false) || above[p] }
}

// outside returns the message that refuses the client's root p when err,
// met resolving it with Bounds, was met outside the server's directories:
// the same whatever lies there. It returns "" for no error or one inside.
func (b *setBuilder[R]) outside(p string, err error) string {
	if err == nil || b.visit == nil {
		return ""
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && !errors.Is(err, errOutsideWalk) && b.visit(slashpath.Clean(pe.Path)) {
		return ""
	}
	for _, bd := range b.bounds {
		if within(p, bd.lexical, false) || within(bd.lexical, p, false) {
			return "leads outside every directory the server allows"
		}
	}
	return "outside every directory the server allows"
}

// refusal is the message that leaves a root out for err, met while the
// set was built; one that says descriptors ran out marks the set starved.
func (b *setBuilder[R]) refusal(prefix string, err error) string {
	if starved(err) {
		b.s.starved = true
		return asStarved(err).Error()
	}
	return prefix + err.Error()
}

// add adds the root uri's directories to the set, or says why the root is
// left out.
func (b *setBuilder[R]) add(uri string) string {
	s := b.s
	p, msg := rootURIPath(uri, b.c.windows)
	if msg != "" {
		return msg
	}
	real := p
	if b.c.resolve {
		var err error
		if real, err = resolvePath(p, b.c.windows, resolveMode{visit: b.visit}); err != nil {
			return cmp.Or(b.outside(p, err), b.refusal("cannot resolve symbolic links: ", err))
		}
	}
	i := len(s.roots)
	if !b.c.bounded {
		d := dirSpec{path: p, err: errOtherSystem}
		if !b.other && !b.c.onUse {
			d.id, d.err = statDir(p)
		} else if !b.other {
			d.err = nil // looked at when first opened
		}
		b.addDir(dirPaths{p, real}, i, d)
		return ""
	}
	target, terr := b.target(p) // terr: why the root's directory cannot be opened
	if msg := b.outside(p, terr); msg != "" {
		return msg
	}
	if starved(terr) {
		return b.refusal("", terr)
	}
	// overlap is a directory the root keeps with a bound (see Bounds).
	// They are added once the root is kept: a root refused on one bound
	// keeps nothing the bounds before gave it.
	type overlap struct {
		p dirPaths
		d dirSpec
	}
	var kept []overlap
	done := func() string {
		for _, o := range kept {
			b.addDir(o.p, i, o.d)
		}
		s.clients.add(real, i)
		return ""
	}
	for _, bd := range b.bounds {
		if within(real, bd.real, b.c.windows) {
			d := dirSpec{err: cmp.Or(bd.err, terr)}
			if d.err == nil {
				if !within(target, bd.held.target, b.c.windows) {
					return "leads outside every directory the server allows"
				}
				d = bd.held.below(relative(target, len(bd.held.target)))
			}
			kept = append(kept, overlap{dirPaths{p, real}, d})
			return done()
		}
		if !within(bd.real, real, b.c.windows) {
			continue
		}
		d := dirSpec{err: bd.err} // errOtherSystem for the other system's paths
		if bd.err == nil {
			if terr != nil || !within(bd.held.target, target, b.c.windows) {
				continue // the bound is not inside the root's directory
			}
			d = bd.held.below(".")
		}
		kept = append(kept, overlap{bd.dirPaths, d})
	}
	if len(kept) == 0 {
		return "outside every directory the server allows"
	}
	return done()
}

// statDir returns which directory p, a canonical path of this system,
// names now (see identify), following links: the identity a set's
// directory must keep.
func statDir(p string) (fs.FileInfo, error) {
	info, err := os.Stat(p)
	if err == nil && !info.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: p, Err: syscall.ENOTDIR}
	}
	if err == nil && runtime.GOOS == "windows" {
		return identifyPath(p)
	}
	return info, err
}

// identify is r.Lstat(name) that os.SameFile can compare for a directory:
// on Windows Root.Lstat does not say which file it is, so the directory is
// opened and asked.
func identify(r *os.Root, name string) (fs.FileInfo, error) {
	info, err := r.Lstat(name)
	if runtime.GOOS != "windows" || err != nil || !info.IsDir() {
		return info, err
	}
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// identifyPath is identify for a directory named by its path.
func identifyPath(p string) (fs.FileInfo, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// addDir adds a directory of root i; one already there keeps its first
// root.
func (b *setBuilder[R]) addDir(p dirPaths, i int, d dirSpec) {
	s := b.s
	if _, dup := s.lexical.byPath[p.lexical]; dup {
		return
	}
	s.lexical.add(p.lexical, len(s.paths))
	if s.resolved.byPath != nil {
		s.resolved.add(p.real, len(s.paths))
	}
	s.paths = append(s.paths, p.lexical)
	s.owner = append(s.owner, i)
	b.dirs = append(b.dirs, d)
}

// within reports whether p is dir or lies below it; both are canonical.
func within(p, dir string, windows bool) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	sep := byte('/')
	if windows {
		sep = '\\'
	}
	return len(p) == len(dir) || dir[len(dir)-1] == sep || p[len(dir)] == sep
}

// Dirs returns the directories paths may be in, one or more per root: a
// root's own, or with [Bounds] its parts inside the server's directories.
func (s *rootSet) Dirs() []string { return slices.Clone(s.paths) }

// Roots returns the roots in the set: the valid ones, in the order given.
func (s *RootSetOf[R]) Roots() []R { return slices.Clone(s.roots) }

// Contains reports whether the path p, read as text, is inside one of the
// roots: a lexical method (see [RootSetOf]). It allocates nothing when p
// is clean.
func (s *rootSet) Contains(p string) bool {
	c, ok := s.canonical(p)
	return ok && s.lexical.has(c, s.windows)
}

// ContainsURI is [RootSetOf.Contains] for a file URI; a URI that breaks
// the rules for roots is inside nothing.
func (s *rootSet) ContainsURI(uri string) bool {
	p, msg := rootURIPath(uri, s.windows)
	return msg == "" && s.lexical.has(p, s.windows)
}

// Which returns the root that holds the path p, read as text, as
// [RootSetOf.Contains] reads it: the one with the longest path, when
// roots are nested.
func (s *RootSetOf[R]) Which(p string) (R, bool) {
	if c, ok := s.canonical(p); ok {
		if i, _, ok := s.lexical.lookup(c, s.windows); ok {
			return s.roots[s.owner[i]], true
		}
	}
	var zero R
	return zero, false
}

// WhichResolved is [RootSetOf.Resolve] without the path, and a path
// outside the set (every root, or the [Bounds]) is not an error here: it
// returns false and a nil error.
func (s *RootSetOf[R]) WhichResolved(p string) (R, bool, error) {
	_, root, err := s.resolve(p) // a question, not a refusal: not audited
	if errors.Is(err, ErrOutsideRoots) || errors.Is(err, ErrOutsideBounds) {
		return root, false, nil // root is the zero R, as resolve returns it with an error
	}
	return root, err == nil, err
}

// Resolve returns the path p really names, its links resolved, and the
// most specific root that holds it: the check the file methods make, with
// their errors (see [RootSetOf]), but not a lock. A path that does not
// exist yet is resolved as far as it exists, and a link on the way,
// dangling or not, followed as creating the file would follow it. Errors
// that wrap neither [ErrOutsideRoots] nor [ErrOutsideBounds] report a path
// that cannot be resolved inside a root: a link loop, a name under a file,
// a permission problem, a set of the other system's paths, or
// [ErrNoDescriptors]. Without [ResolveSymlinks], a path written through
// where a root that is a link leads (not under the root as written) is
// refused.
func (s *RootSetOf[R]) Resolve(p string) (string, R, error) {
	real, root, err := s.resolve(p)
	return real, root, s.audited(err)
}

// resolve is Resolve, not audited.
func (s *RootSetOf[R]) resolve(p string) (string, R, error) {
	real, i, _, err := s.resolveIn("resolve", p, resolveMode{missing: true})
	if err != nil {
		var zero R
		return "", zero, err
	}
	return real, s.roots[s.owner[i]], nil
}

// resolveIn resolves p and returns it, the index of the root that holds
// it, and p relative to that root.
func (s *rootSet) resolveIn(op, p string, mode resolveMode) (real string, i int, rel string, err error) {
	c, ok := s.canonical(p)
	if !ok {
		return "", 0, "", &fs.PathError{Op: op, Path: p, Err: ErrOutsideRoots}
	}
	if s.windows != (runtime.GOOS == "windows") {
		return "", 0, "", &fs.PathError{Op: op, Path: p, Err: errOtherSystem}
	}
	if !s.windows {
		mode.visit = s.mayVisit // what lies outside the set must not change the answer
	}
	for again := true; ; again = false {
		missed := c
		if real, err = resolvePath(p, s.windows, mode); starved(err) {
			return "", 0, "", pathError(op, p, asStarved(err))
		} else if err != nil {
			// An error met outside the set, or not placed, would tell what
			// lies there: refuse the path, classed by its text alone.
			var pe *fs.PathError
			if errors.As(err, &pe) && !errors.Is(err, errOutsideWalk) {
				if at, ok := s.canonical(pe.Path); ok && s.holds(at, c) {
					return "", 0, "", pathError(op, p, err)
				}
			}
		} else if i, n, ok := s.find(real, c); ok {
			rel = relative(real, n)
			if !s.windows && rel != "." && (strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.")) {
				rel += "/" // the name must be a directory: os.Root keeps the kernel's rule for a final "/"
			}
			return real, i, rel, nil
		} else {
			missed = real
		}
		// p as written lies in a directory that may be a link: learn where
		// it leads, and walk again.
		if !again || !s.learnTarget(c) {
			return "", 0, "", s.refuse(op, p, missed)
		}
	}
}

// holds reports whether p, a canonical path met walking written, is in
// the set (see find).
func (s *rootSet) holds(p, written string) bool {
	_, _, ok := s.find(p, written)
	return ok
}

// find is lookup of p, a canonical path that written (cleaned) leads to,
// in the set's directories as resolved; then, when written lies in one of
// the set's directories as written, where those that are links were found
// to lead: a path written through the target itself is inside only with
// ResolveSymlinks.
func (s *rootSet) find(p, written string) (int, int, bool) {
	if i, n, ok := s.resolved.lookup(p, s.windows); ok {
		return i, n, true
	}
	if t := s.walk.targets.Load(); t != nil && s.lexical.has(written, s.windows) {
		return t.index.lookup(p, s.windows)
	}
	return 0, 0, false
}

// mayVisit reports whether a walk may look at p, a cleaned path: in one
// of the set's directories, resolved or as written, or above one, or
// where one that is a link was found to lead, or above that.
func (s *rootSet) mayVisit(p string) bool {
	if s.resolved.has(p, s.windows) || s.lexical.has(p, s.windows) || s.walk.ancestors(s.resolved.byPath, s.lexical.byPath)[p] {
		return true
	}
	t := s.walk.targets.Load()
	return t != nil && (t.index.has(p, s.windows) || t.above[p])
}

// walkIndex is what the walks of a set may look at besides its
// directories, learned when a walk first needs it, and shared by the
// set's views: building a set walks nothing.
type walkIndex struct {
	once  sync.Once
	above map[string]bool // the directories above the set's
	mu    sync.Mutex
	known map[int]bool // directories whose target was looked for
	// targets are where the directories that are links lead (checked to be
	// the directories they were), for a path written under such a root.
	targets atomic.Pointer[walkTargets]
}

type walkTargets struct {
	index rootIndex
	above map[string]bool
}

// ancestors returns the directories above those of the indexes, built
// once.
func (w *walkIndex) ancestors(indexes ...map[string]int) map[string]bool {
	w.once.Do(func() { w.above = ancestorsOf(indexes...) })
	return w.above
}

// learnTarget learns where the directory that holds p as written leads,
// if it is a link not looked at yet: reports whether that taught anything.
func (s *rootSet) learnTarget(p string) bool {
	i, _, ok := s.lexical.lookup(p, s.windows)
	if !ok || s.dirs[i].err != nil {
		return false
	}
	w := s.walk
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.known[i] {
		return false
	}
	if w.known == nil {
		w.known = map[int]bool{}
	}
	w.known[i] = true
	d := &s.dirs[i]
	var target string
	if d.under != nil {
		target = d.under.target
		if d.rel != "." {
			target = strings.TrimRight(target, `/\`) + string(filepath.Separator) + d.rel
		}
	} else {
		var err error
		// The root's own path, as it was followed when the set was built: it
		// must lead to the directory it led to then.
		if target, err = resolvePath(d.path, s.windows, resolveMode{}); err != nil || d.identity() == nil || !sameAs(d.identity(), target) {
			return false
		}
	}
	if _, _, ok := s.find(target, p); ok {
		return false // where it leads is known already
	}
	next := &walkTargets{index: rootIndex{byPath: map[string]int{}}, above: map[string]bool{}}
	if old := w.targets.Load(); old != nil {
		for k, v := range old.index.byPath {
			next.index.add(k, v)
		}
		maps.Copy(next.above, old.above)
	}
	next.index.add(target, i)
	if !s.windows {
		maps.Copy(next.above, ancestorsOf(map[string]int{target: i}))
	}
	w.targets.Store(next)
	return true
}

// ancestorsOf returns the directories above the POSIX paths of each
// index, "/" included.
func ancestorsOf(indexes ...map[string]int) map[string]bool {
	out := map[string]bool{}
	for _, dirs := range indexes {
		for d := range dirs {
			for p := slashpath.Dir(d); p != d && !out[p]; d, p = p, slashpath.Dir(p) {
				out[p] = true
			}
		}
	}
	return out
}

// refuse is the error for p, which leads to real, in none of the set's
// directories.
func (s *rootSet) refuse(op, p, real string) error {
	err := ErrOutsideRoots
	if s.boundsOnly || s.clients.has(real, s.windows) {
		err = ErrOutsideBounds
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

// canonical returns p cleaned as roots are indexed, or false when p can
// be inside no root.
func (s *rootSet) canonical(p string) (string, bool) { return canonicalPath(p, s.windows) }

// canonicalPath is canonical for a set of Windows paths or not.
func canonicalPath(p string, windows bool) (string, bool) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", false
	}
	if windows {
		return windowsPath(p)
	}
	if p == "" || p[0] != '/' {
		return "", false
	}
	return slashpath.Clean(p), true // p itself, not a copy, when p is clean
}

// lookup returns the index and length of the longest root path that is
// p, a canonical path, or above it.
func (x *rootIndex) lookup(p string, windows bool) (int, int, bool) {
	sep, top := byte('/'), 1 // "/"
	if windows {
		sep, top = '\\', 3 // "C:\"
	}
	if len(p) > x.maxLen {
		// Jump to the longest ancestor that is no longer than every root.
		p = p[:max(top, strings.LastIndexByte(p[:x.maxLen+1], sep))]
	}
	for {
		if i, ok := x.byPath[p]; ok {
			return i, len(p), true
		}
		if len(p) <= top {
			return 0, 0, false
		}
		p = p[:max(top, strings.LastIndexByte(p, sep))]
	}
}

// isClean reports whether r, a path that starts with sep, is as Clean
// leaves it.
func isClean(r string, sep byte) bool {
	start := 1
	for i := 1; i < len(r); i++ {
		if r[i] == sep {
			if !cleanName(r[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return len(r) == 1 || cleanName(r[start:])
}

func cleanName(name string) bool { return name != "" && name != "." && name != ".." }

// rootURIPath returns the canonical path a root URI names, or why none.
func rootURIPath(uri string, windows bool) (string, string) {
	if msg := rtimpl.CheckURI(uri, "file"); msg != "" {
		return "", msg
	}
	rest := uri[len("file://"):] // CheckURI saw "file://" and a "/" after it
	slash := strings.IndexByte(rest, '/')
	if host := rest[:slash]; host != "" && !strings.EqualFold(host, "localhost") {
		return "", fmt.Sprintf("host %q: a root must be on this machine (file:///path or file://localhost/path)", host)
	}
	p, msg := decodeRootPath(rest[slash:], windows)
	if msg != "" {
		return "", msg
	}
	if !windows {
		return slashpath.Clean(p), ""
	}
	// "/C:/x" or "/C:" names the drive path C:\x or C:\.
	if len(p) < 3 || !isDriveLetter(p[1]) || p[2] != ':' || len(p) > 3 && p[3] != '/' {
		return "", "a Windows root must start with a drive letter, as in file:///C:/Users"
	}
	p = p[1:]
	if len(p) == 2 {
		p += `\`
	}
	c, ok := windowsPath(p)
	if !ok {
		return "", "not a path Windows stores as written (a name ending in a dot or space, a reserved character or device name, or invalid UTF-8)"
	}
	return c, ""
}

// decodeRootPath decodes the percent-escapes of a file URI's path, which
// CheckURI found well-formed.
func decodeRootPath(p string, windows bool) (string, string) {
	if strings.IndexByte(p, '%') < 0 {
		return p, ""
	}
	b := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '%' {
			c = unhex(p[i+1])<<4 | unhex(p[i+2])
			i += 2
			switch {
			case c == 0:
				return "", "%00 (NUL) is not allowed in a path"
			case c == '/':
				return "", "%2F (an encoded /) is not allowed: it would hide a separator inside a name"
			case c == '\\' && windows:
				return "", "%5C (an encoded \\) is not allowed: Windows reads it as a separator"
			}
		}
		b = append(b, c)
	}
	return string(b), ""
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func isDriveLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// windowsPath returns p, a drive path ("C:\" or "c:/" and the rest),
// cleaned, with an upper-case drive letter and "\" separators; false for
// every other path and for names Windows would not store as written.
func windowsPath(p string) (string, bool) {
	if len(p) < 3 || !isDriveLetter(p[0]) || p[1] != ':' || p[2] != '\\' && p[2] != '/' || !windowsNames(p[3:]) {
		return "", false
	}
	if p[0] <= 'Z' && strings.IndexByte(p, '/') < 0 && isClean(p[2:], '\\') {
		return p, true
	}
	rest := slashpath.Clean(strings.ReplaceAll(p[2:], `\`, "/"))
	return string(p[0]&^0x20) + ":" + strings.ReplaceAll(rest, "/", `\`), true
}

// windowsNames reports whether Windows stores every name in p as written:
// Win32 drops a final dot or space, reads ":" as a stream separator and
// device names as devices wherever they are.
func windowsNames(p string) bool {
	if !utf8.ValidString(p) {
		return false
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '\\' && p[i] != '/' {
			if c := p[i]; c < 0x20 || strings.IndexByte(`<>:"|?*`, c) >= 0 {
				return false
			}
			continue
		}
		name := p[start:i]
		start = i + 1
		if !cleanName(name) {
			continue
		}
		if last := name[len(name)-1]; last == '.' || last == ' ' || isDeviceName(name) {
			return false
		}
	}
	return true
}

// isDeviceName reports whether Windows reads name as a device: CON, PRN,
// AUX, NUL, CONIN$, CONOUT$, COM0-9 and LPT0-9 (also with ¹²³), with or
// without an extension, in any case.
func isDeviceName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.TrimRight(base, " ")
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) < 4 {
		return false
	}
	switch strings.ToUpper(base[:3]) {
	case "COM", "LPT":
		d := base[3:]
		return len(d) == 1 && d[0] >= '0' && d[0] <= '9' || d == "¹" || d == "²" || d == "³"
	}
	return false
}

// resolveMode says how resolvePath treats a path.
type resolveMode struct {
	// missing: from the first name that does not exist, plain names (no
	// "." or "..") are kept as written, as for a file to be created.
	missing  bool
	keepLast bool // a link in the last name is not followed (Lstat, Remove, Mkdir)
	// visit, when set, says whether the walk may look at a name (POSIX):
	// one it may not ends the walk, before anything is learned of it, with
	// an error wrapping errOutsideWalk.
	visit func(path string) bool
}

// errOutsideWalk reports a walk that would look at a name outside the set.
var errOutsideWalk = errors.New("the walk leaves the set")

// resolvePath resolves the links in p: see [RootSetOf.Resolve].
func resolvePath(p string, windows bool, mode resolveMode) (string, error) {
	if windows != (runtime.GOOS == "windows") {
		return "", fmt.Errorf("paths of another system cannot be resolved on %s", runtime.GOOS)
	}
	if windows {
		return resolveWindows(p, mode)
	}
	return resolvePOSIX(p, mode)
}

// resolvePOSIX resolves p as a POSIX kernel does (see [RootSetOf]), name
// by name from "/", each looked up in the directory the walk holds (see
// [walker]): one swapped for a link during the walk cannot take a look
// outside.
func resolvePOSIX(p string, mode resolveMode) (string, error) {
	const maxLinks = 40 // as Linux allows in one path
	w := newWalker()
	defer w.close()
	dir, rest, links := "/", p, 0
	for {
		rest = strings.TrimLeft(rest, "/")
		if rest == "" {
			return dir, nil
		}
		name, after, slash := strings.Cut(rest, "/")
		rest = after
		switch name {
		case ".":
			continue
		case "..":
			dir = slashpath.Dir(dir)
			w.up()
			continue
		}
		next := strings.TrimSuffix(dir, "/") + "/" + name // not path.Join, which allocates twice
		if mode.visit != nil && !mode.visit(next) {
			return "", &fs.PathError{Op: "resolve", Path: next, Err: errOutsideWalk}
		}
		kind, err := w.lstat(name)
		if err != nil {
			err = &fs.PathError{Op: "lstat", Path: next, Err: err}
			if !mode.missing || !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			// The rest is to be created: plain names only, as the kernel
			// cannot go through a directory that does not exist.
			if names := strings.Split(after, "/"); slices.Contains(names, ".") || slices.Contains(names, "..") {
				return "", err
			}
			return slashpath.Clean(next + "/" + after), nil
		}
		if kind == fs.ModeSymlink && !(mode.keepLast && !slash) {
			if links++; links > maxLinks {
				return "", &fs.PathError{Op: "resolve", Path: next, Err: syscall.ELOOP}
			}
			target, err := w.readlink(name)
			if err != nil || target == "" {
				return "", &fs.PathError{Op: "readlink", Path: next, Err: cmp.Or(err, fs.ErrInvalid)}
			}
			if target[0] == '/' {
				dir = "/"
				w.toRoot()
			}
			if slash {
				// What followed the link follows its target; a final "/"
				// still asks for a directory.
				target += "/" + rest
			}
			rest = target
			continue
		}
		if slash && kind != fs.ModeDir {
			return "", &fs.PathError{Op: "resolve", Path: next, Err: syscall.ENOTDIR}
		}
		if slash {
			if err := w.enter(name); err != nil {
				return "", &fs.PathError{Op: "resolve", Path: next, Err: err}
			}
		}
		dir = next
	}
}

// A walker is where resolvePOSIX looks names up: the directory its walk
// has reached. Names are single names, never "." or "..".
type walker interface {
	// lstat returns the type of name, not following a link: fs.ModeDir,
	// fs.ModeSymlink, or another (0 or any other type bits).
	lstat(name string) (fs.FileMode, error)
	readlink(name string) (string, error)
	// enter moves into name, a directory; up to the parent (never above
	// "/"); toRoot back to "/".
	enter(name string) error
	up()
	toRoot()
	close()
}

// pathWalker looks names up by path from "/": where no directory can be
// held, a directory swapped for a link between two names is followed.
type pathWalker struct{ dir string }

func (w *pathWalker) path(name string) string { return slashpath.Join("/", w.dir, name) }

func (w *pathWalker) lstat(name string) (fs.FileMode, error) {
	info, err := os.Lstat(w.path(name))
	if err != nil {
		return 0, errors.Unwrap(err)
	}
	return info.Mode().Type(), nil
}

func (w *pathWalker) readlink(name string) (string, error) {
	target, err := os.Readlink(w.path(name))
	return target, errors.Unwrap(err) // "" and the errno on an error
}

func (w *pathWalker) enter(name string) error { w.dir = w.path(name); return nil }
func (w *pathWalker) up()                     { w.dir = slashpath.Dir(slashpath.Join("/", w.dir)) }
func (w *pathWalker) toRoot()                 { w.dir = "/" }
func (w *pathWalker) close()                  {}

// resolveWindows resolves p, a drive path, as [RootSetOf] says.
func resolveWindows(p string, mode resolveMode) (string, error) {
	c, ok := windowsPath(p)
	if !ok {
		return "", fmt.Errorf("%s is not a drive path", p)
	}
	last := ""
	if mode.keepLast && len(c) > 3 {
		c, last = filepath.Split(c)
	}
	real, err := filepath.EvalSymlinks(c)
	if err != nil {
		if !mode.missing || !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// Resolve the deepest ancestor that exists; the first missing name
		// must be missing, not a link to nothing.
		rest := ""
		for cur := c; ; {
			parent, name := filepath.Dir(cur), filepath.Base(cur)
			if parent == cur {
				return "", err
			}
			rest = filepath.Join(name, rest)
			r, perr := filepath.EvalSymlinks(parent)
			if perr == nil {
				if _, lerr := os.Lstat(filepath.Join(r, name)); !errors.Is(lerr, fs.ErrNotExist) {
					return "", cmp.Or(lerr, fmt.Errorf("%s: a symbolic link to nothing", cur))
				}
				real = filepath.Join(r, rest)
				break
			}
			if !errors.Is(perr, fs.ErrNotExist) {
				return "", perr
			}
			cur = parent
		}
	}
	real = filepath.Join(real, last)
	c, ok = windowsPath(real)
	if !ok {
		return "", fmt.Errorf("%s resolves to %s, not a drive path", p, real)
	}
	return c, nil
}

// pathError names p, the path the caller gave, in err.
func pathError(op, p string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if !strings.HasSuffix(pe.Op, "at") { // os.Root names its system call (openat, statat): keep op, the caller's
			op = pe.Op
		}
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

// use returns directory i pinned in the pool: its descriptors stay open
// until done. It fails for a closed set, and for a directory found
// unusable when the set was built.
func (s *rootSet) use(i int) (*rootDir, error) {
	if s.closed.Load() {
		return nil, fs.ErrClosed
	}
	d := &s.dirs[i]
	if d.err != nil {
		return nil, d.err
	}
	if err := dirs.pin(&d.dirHandle); err != nil {
		return nil, err
	}
	return d, nil
}

// done ends a use of d.
func (d *rootDir) done() { dirs.unpin(&d.dirHandle) }

// osRoot returns d's directory as an os.Root, opening it if the pool does
// not hold it open; d is pinned.
func (d *rootDir) osRoot() (*os.Root, error) {
	if r := d.root.Load(); r != nil {
		return r, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.osRootLocked()
}

func (d *rootDir) osRootLocked() (*os.Root, error) {
	if r := d.root.Load(); r != nil {
		return r, nil
	}
	if err := dirs.reserve(); err != nil {
		return nil, noDescriptors{err}
	}
	var r *os.Root
	var err error
	if d.under != nil {
		r, err = d.under.root.OpenRoot(dirSelf(d.rel))
	} else {
		r, err = os.OpenRoot(selfPath(d.path, runtime.GOOS == "windows"))
	}
	if err == nil {
		if err = d.check(identify(r, ".")); err != nil {
			r.Close()
		}
	}
	if err != nil {
		dirs.release()
		return nil, asStarved(err)
	}
	d.root.Store(r)
	dirs.opened(&d.dirHandle)
	return r, nil
}

// dirFile returns d's directory as a file, for openBeneath, opening it if
// the pool does not hold it open; d is pinned.
func (d *rootDir) dirFile() (*os.File, error) {
	if f := d.file.Load(); f != nil {
		return f, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if f := d.file.Load(); f != nil {
		return f, nil
	}
	if err := dirs.reserve(); err != nil {
		return nil, noDescriptors{err}
	}
	var f *os.File
	var err error
	if d.under != nil {
		f, err = d.under.root.Open(dirSelf(d.rel)) // beneath the bound
	} else {
		f, err = os.Open(selfPath(d.path, runtime.GOOS == "windows"))
	}
	if err == nil {
		if err = d.check(f.Stat()); err != nil {
			f.Close()
		}
	}
	if err != nil {
		dirs.release()
		return nil, asStarved(err)
	}
	d.file.Store(f)
	dirs.opened(&d.dirHandle)
	return f, nil
}

// check returns the error of a directory opened for d whose identity is
// id (or err): errChanged when it is not the directory d was, or, anchored
// on use, the first it opened.
func (d *rootDir) check(id fs.FileInfo, err error) error {
	if err != nil {
		return err
	}
	want := d.id
	if want == nil {
		d.seen.CompareAndSwap(nil, &id)
		want = *d.seen.Load()
	}
	if !os.SameFile(id, want) {
		return errChanged
	}
	return nil
}

// identity returns which directory d is, looking at it now if the set,
// anchored on use, has not opened it yet; nil if it cannot be looked at.
func (d *rootDir) identity() fs.FileInfo {
	if d.id != nil || d.err != nil {
		return d.id
	}
	if p := d.seen.Load(); p != nil {
		return *p
	}
	id, err := statDir(d.path)
	if err != nil {
		return nil
	}
	d.seen.CompareAndSwap(nil, &id)
	return *d.seen.Load()
}

// Share returns another view of the set, for another holder, closed on
// its own: closing one view leaves the others usable.
func (s *RootSetOf[R]) Share() *RootSetOf[R] {
	return &RootSetOf[R]{s.share(), s.roots}
}

// share returns another view of s, closed on its own (see Share).
func (s *rootSet) share() *rootSet {
	s.refs.Add(1)
	return &rootSet{
		paths: s.paths, owner: s.owner, dirs: s.dirs,
		lexical: s.lexical, resolved: s.resolved, clients: s.clients, boundsOnly: s.boundsOnly, starved: s.starved,
		walk: s.walk, windows: s.windows, readLimit: s.readLimit, refs: s.refs, revision: s.revision, log: s.log,
	}
}

// Close closes the roots' directories once no other view of the set (see
// [RootSetOf.Share]) is open (a directory a call is using, once the call
// ends); then the file methods fail with [fs.ErrClosed]. The descriptors
// of a set dropped unclosed are closed as those of an idle set are (see
// [SetDescriptorBudget]).
func (s *rootSet) Close() error {
	if s.closed.Swap(true) || s.refs.Add(-1) > 0 {
		return nil
	}
	for i := range s.dirs {
		dirs.close(&s.dirs[i].dirHandle)
	}
	return nil
}

// act runs f on the directory of the root that holds p, with p relative
// to it: first the root that holds p as text, where that is exact (see
// lexicalName), as its os.Root refuses any link out; where that fails not
// for the file's own reason (a link into another root), on the root that
// holds what p resolves to.
func act[T any](s *rootSet, op, p string, mode resolveMode, f func(dir *os.Root, name string) (T, error)) (v T, err error) {
	if s.closed.Load() {
		return v, &fs.PathError{Op: op, Path: p, Err: fs.ErrClosed}
	}
	i, name, lexical := s.lexicalName(p)
	for ; ; lexical = false {
		if !lexical {
			if _, i, name, err = s.resolveIn(op, p, mode); err != nil {
				return v, err
			}
		}
		d, err := s.use(i)
		if err != nil {
			return v, pathError(op, p, err)
		}
		dir, err := d.osRoot()
		if err != nil { // the directory itself: no other root can hold p
			d.done()
			return v, pathError(op, p, err)
		}
		v, err = f(dir, name)
		d.done()
		if !lexical || err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrClosed) {
			return v, pathError(op, p, err)
		}
	}
}

// lexicalName returns the root that holds p read as text, and p relative
// to it, when that is exact: on POSIX, when p has no ".." name (the kernel
// applies it after links) and no final "/" or "/." (which asks for a
// directory, and cleaning drops it).
func (s *rootSet) lexicalName(p string) (int, string, bool) {
	if !s.windows {
		if strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") {
			return 0, "", false
		}
		for name := range strings.SplitSeq(p, "/") {
			if name == ".." {
				return 0, "", false
			}
		}
	}
	if c, ok := s.canonical(p); ok {
		if i, n, ok := s.lexical.lookup(c, s.windows); ok {
			return i, relative(c, n), true
		}
	}
	return 0, "", false
}

// dirSelf is rel ending in "/.", for os.Root, which opens a path's last
// name as a plain file: that blocks on a FIFO and acts on a device before
// finding it is no directory. With "/." every name is opened O_DIRECTORY.
func dirSelf(rel string) string {
	if rel == "." {
		return rel
	}
	return rel + "/."
}

// relative returns p, a canonical path, relative to its first n bytes.
func relative(p string, n int) string {
	rest := p[n:]
	if rest != "" && (rest[0] == '/' || rest[0] == '\\') {
		rest = rest[1:]
	}
	return cmp.Or(rest, ".")
}

// Open is [RootSetOf.OpenFile] with [os.O_RDONLY].
func (s *rootSet) Open(p string) (*os.File, error) {
	return s.OpenFile(p, os.O_RDONLY, 0)
}

// OpenFile is [os.OpenFile] through the root that holds p (see
// [RootSetOf]). With [os.O_CREATE], a missing file is created where p
// leads, if that is inside a root. Files are opened with O_NONBLOCK where
// the system has it, so a FIFO without its other end does not hold the
// call: a FIFO, device or socket is returned non-blocking, its reads and
// writes going through Go's poller where the system allows, or failing
// with EAGAIN where they would block. Check [os.File.Stat] before reading
// what a client named; [RootSetOf.ReadFile] reads regular files only.
func (s *rootSet) OpenFile(p string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := act(s, "open", p, resolveMode{missing: flag&os.O_CREATE != 0}, func(dir *os.Root, name string) (*os.File, error) {
		return dir.OpenFile(name, flag|oNonblock, perm)
	})
	return f, s.audited(err)
}

// openRegular opens p for reading, and returns its size, if it is a
// regular file, as [RootSetOf.ReadFile] says (opening a device can act on
// it, and opening a FIFO releases a writer at its other end). openat2 is
// tried on p as text, then on the resolved path; if it still cannot
// answer, the tree is changing and the read fails with EAGAIN.
func (s *rootSet) openRegular(p string) (io.ReadCloser, int64, error) {
	for try := 0; haveOpenBeneath && !noOpenat2.Load() && !noProcFD.Load() && !s.closed.Load(); try++ {
		i, name, ok := s.lexicalName(p)
		if !ok || try > 0 {
			var err error
			if _, i, name, err = s.resolveIn("open", p, resolveMode{}); err != nil {
				return nil, 0, err
			}
		}
		d, err := s.use(i)
		if err != nil {
			return nil, 0, pathError("open", p, err) // never an open by name
		}
		dir, err := d.dirFile()
		if dir == nil {
			d.done()
			return nil, 0, pathError("open", p, err)
		}
		f, size, handled, err := openRegularBeneath(dir, name)
		d.done()
		if handled {
			return f, size, pathError("open", p, err)
		} else if err != nil {
			break // os.Root opens this file
		} else if try == 3 {
			return nil, 0, &fs.PathError{Op: "open", Path: p, Err: syscall.EAGAIN}
		}
	}
	f, err := act(s, "open", p, resolveMode{}, func(dir *os.Root, name string) (*os.File, error) {
		if info, err := dir.Stat(name); err != nil || !info.Mode().IsRegular() {
			return nil, cmp.Or(err, ErrNotRegularFile)
		}
		return dir.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	})
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, 0, pathError("read", p, cmp.Or(err, ErrNotRegularFile))
	}
	return f, info.Size(), nil
}

// ReadFile reads the whole file p names, through the root that holds it
// (see [RootSetOf]). It reads regular files only: a FIFO, device, socket
// or directory is refused from its type, without blocking, with
// [ErrNotRegularFile], and a file over the read limit (see [ReadLimit])
// with [ErrFileTooLarge]. On Linux 5.6 and later with /proc, the type is
// read through an O_PATH handle before the file is opened, and the first
// call opens /proc/self/fd and holds it until the process ends. Elsewhere
// (on MIPS too, and for a file openat2 refuses on its own) the type is
// checked before and after the open, so a FIFO or device swapped in
// between is opened, without blocking, then refused.
func (s *rootSet) ReadFile(p string) ([]byte, error) {
	data, err := s.readFile(p)
	return data, s.audited(err)
}

// readFile is ReadFile, not audited.
func (s *rootSet) readFile(p string) ([]byte, error) {
	f, size, err := s.openRegular(p)
	if errors.Is(err, ErrNotRegularFile) {
		return nil, &fs.PathError{Op: "read", Path: p, Err: ErrNotRegularFile}
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > s.readLimit {
		return nil, &fs.PathError{Op: "read", Path: p, Err: ErrFileTooLarge}
	}
	// The size is a hint: the file can change while it is read.
	data := make([]byte, 0, min(size, s.readLimit, 1<<20)+512)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > s.readLimit {
			return nil, &fs.PathError{Op: "read", Path: p, Err: ErrFileTooLarge}
		}
		if err == io.EOF {
			return data, nil
		} else if err != nil {
			return nil, pathError("read", p, err)
		}
	}
}

// Stat is [os.Stat] through the root that holds p (see [RootSetOf]).
func (s *rootSet) Stat(p string) (fs.FileInfo, error) {
	info, err := act(s, "stat", p, resolveMode{}, (*os.Root).Stat)
	return info, s.audited(err)
}

// Lstat is [os.Lstat] through the root that holds p: a final link is
// described, not followed.
func (s *rootSet) Lstat(p string) (fs.FileInfo, error) {
	info, err := act(s, "lstat", p, resolveMode{keepLast: true}, (*os.Root).Lstat)
	return info, s.audited(err)
}

// Mkdir is [os.Mkdir] through the root that holds p. As the kernel's, it
// makes the last name itself, final separators or not: a link there, even
// a dangling one, exists.
func (s *rootSet) Mkdir(p string, perm fs.FileMode) error {
	q, _ := s.trimFinal(p)
	_, err := act(s, "mkdir", q, resolveMode{missing: true, keepLast: true}, func(dir *os.Root, name string) (struct{}, error) {
		return struct{}{}, dir.Mkdir(name, perm)
	})
	return s.audited(pathError("mkdir", p, err))
}

// MkdirAll is [os.MkdirAll] through the root that holds p, each missing
// directory made through the root. Unlike os.MkdirAll, it makes nothing a
// ".." steps out of: "d/a/../b" is ENOENT without d/a.
func (s *rootSet) MkdirAll(p string, perm fs.FileMode) error {
	q, _ := s.trimFinal(p)
	for !s.windows && strings.HasSuffix(q, "/.") && len(q) > 2 {
		q, _ = s.trimFinal(q[:len(q)-2]) // "d/new/." is "d/new", as os.MkdirAll makes it
	}
	_, err := act(s, "mkdir", q, resolveMode{missing: true}, func(dir *os.Root, name string) (struct{}, error) {
		return struct{}{}, mkdirAll(dir, name, perm)
	})
	return s.audited(pathError("mkdir", p, err))
}

// trimFinal returns p without its final separators, and whether it had
// any, for Mkdir, MkdirAll and Remove: the kernel's mkdir and rmdir never
// follow a last link, "link/" included. "/" and "C:\" keep theirs.
func (s *rootSet) trimFinal(p string) (string, bool) {
	seps := "/"
	if s.windows {
		seps = `/\`
	}
	q := strings.TrimRight(p, seps)
	if q == "" || s.windows && len(q) == 2 && q[1] == ':' {
		return p, false
	}
	return q, len(q) < len(p)
}

// mkdirAll makes the directories of name under dir in time linear in its
// length: the longest part that exists is found by halves (links followed
// inside dir), and each directory after it made in the one before, held
// open.
func mkdirAll(dir *os.Root, name string, perm fs.FileMode) error {
	names := slices.DeleteFunc(strings.Split(filepath.ToSlash(name), "/"), func(n string) bool { return n == "" || n == "." })
	lo, hi := 0, len(names) // names[:lo] exists; names[:hi+1] does not, past the end
	for lo < hi {
		mid := (lo + hi + 1) / 2 // at least 1: do the first mid names lead to a directory?
		info, err := dir.Stat(strings.Join(names[:mid], "/"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			hi = mid - 1
		case err != nil:
			return err
		case !info.IsDir():
			return &fs.PathError{Op: "mkdir", Path: strings.Join(names[:mid], "/"), Err: syscall.ENOTDIR}
		default:
			lo = mid
		}
	}
	if lo == len(names) {
		return nil
	}
	at := dir
	if lo > 0 {
		var err error
		if at, err = dir.OpenRoot(dirSelf(strings.Join(names[:lo], "/"))); err != nil {
			return err
		}
	}
	for _, n := range names[lo:] {
		var next *os.Root
		mkErr := at.Mkdir(n, perm)
		err := mkErr
		if err == nil || errors.Is(err, fs.ErrExist) {
			// What is there now, if a directory; if not, os.MkdirAll's EEXIST.
			if next, err = at.OpenRoot(dirSelf(n)); err != nil && mkErr != nil {
				err = mkErr
			}
		}
		if at != dir {
			at.Close()
		}
		if err != nil {
			return err
		}
		at = next
	}
	if at != dir {
		at.Close()
	}
	return nil
}

// Remove is [os.Remove] through the root that holds p: a final link is
// removed, not what it points to. As with the kernel's rmdir, a final
// separator removes a directory only (ENOTDIR), and on POSIX a last "." or
// ".." removes nothing (EINVAL, ENOTEMPTY). A directory of [RootSetOf.Dirs]
// is not removed (EBUSY), however spelled, unless a rename inside the
// roots swaps it in during the call.
func (s *rootSet) Remove(p string) error {
	q, dirOnly := s.trimFinal(p)
	last := q[strings.LastIndexByte(q, '/')+1:]
	_, err := act(s, "remove", q, resolveMode{keepLast: true}, func(dir *os.Root, name string) (struct{}, error) {
		if !s.windows && last == "." {
			return struct{}{}, syscall.EINVAL // the walk found the directory
		} else if !s.windows && last == ".." {
			return struct{}{}, syscall.ENOTEMPTY
		}
		info, err := identify(dir, name)
		switch {
		case err != nil:
		case !info.IsDir() && dirOnly:
			err = syscall.ENOTDIR
		case info.IsDir() && s.isRootDir(info):
			err = syscall.EBUSY
		default:
			err = dir.Remove(name)
		}
		return struct{}{}, err
	})
	return s.audited(pathError("remove", p, err))
}

// isRootDir reports whether info, from identify, is one of s.dirs.
func (s *rootSet) isRootDir(info fs.FileInfo) bool {
	for i := range s.dirs {
		if id := s.dirs[i].identity(); id != nil && os.SameFile(id, info) {
			return true
		}
	}
	return false
}
