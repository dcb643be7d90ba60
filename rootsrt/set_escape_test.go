package rootsrt_test

// Escape tests for the file methods of RootSetOf: a tree full of links
// that lead out of the root, and every way of naming a file through them.
// Whatever the path, no operation may read, create or stat anything
// outside the roots; each case also states the exact outcome the kernel's
// way of resolving the path gives.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// escapeTree is a tree with two roots (root, root2) and, beside them,
// files that must never be reached: every file outside the roots holds
// "SECRET".
type escapeTree struct {
	base          string
	root, root2   string // their file URIs
	rootP, root2P string // their paths
}

func newEscapeTree(t testing.TB) escapeTree {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the escape tree is built with POSIX links; os.Root's Windows behaviour is documented, not tested here")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(base, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Fatal(err)
		}
	}
	write("secret", "SECRET")
	write("outside/secret", "SECRET")
	write("outside/x/y/z", "SECRET")
	write("root/file", "root/file")
	write("root/sub/file", "root/sub/file")
	write("root/sub/deeper/d2/file", "root/sub/deeper/d2/file")
	write("root2/file", "root2/file")

	link(filepath.Join(base, "outside"), "root/in")     // absolute, out
	link("../outside", "root/relout")                   // relative, out
	link("sub", "root/inlink")                          // stays in
	link("chain2", "root/chain1")                       // a chain that ends out
	link("chain3", "root/chain2")                       //
	link(filepath.Join(base, "outside"), "root/chain3") //
	link("chainin2", "root/chainin1")                   // a chain that stays in
	link("sub/deeper", "root/chainin2")                 //
	link("/", "root/toslash")                           // the file system's root
	link("..", "root/todotdot")                         // the root's parent
	link("../..", "root/sub/up")                        // depth 2, to base
	link("../../..", "root/sub/deeper/up2")             // depth 3, to base
	link(filepath.Join(base, "outside/x/y"), "root/sub/deeper/far")
	link(filepath.Join(base, "outside/new"), "root/dangling-out")
	link("sub/made-by-link", "root/dangling-in")
	link("loop2", "root/loop1")
	link("loop1", "root/loop2")
	link(filepath.Join(base, "root2"), "root/to-root2")    // into the other root
	link(filepath.Join(base, "root"), "outside/back-in")   // from outside into the root
	link(filepath.Join(base, "secret"), "root/secretlink") // a file link out
	return escapeTree{base: base, root: fileURI(base + "/root"), root2: fileURI(base + "/root2"), rootP: base + "/root", root2P: base + "/root2"}
}

// bounds are the server's directories that narrow a wider client root to
// the tree's two roots.
func (e escapeTree) bounds() []string { return []string{e.rootP, e.root2P} }

// at names p under the tree's base as text: no cleaning.
func (e escapeTree) at(p string) string { return e.base + "/" + p }

// outsideState lists every name outside the roots with its size, to see
// that an operation created or changed nothing there.
func (e escapeTree) outsideState(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(e.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == e.rootP || p == e.root2P {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %v %d %d", p, info.Mode(), info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// An escapeCase is a path and what reading it gives.
type escapeCase struct {
	p    string
	want string // the content read; "" when it must fail
	// outside: the failure must wrap ErrOutsideRoots (the path leads out),
	// not some other error (no such file, a loop).
	outside bool
}

func escapeReadCases(e escapeTree) []escapeCase {
	in := func(p, content string) escapeCase { return escapeCase{p: e.at(p), want: content} }
	out := func(p string) escapeCase { return escapeCase{p: e.at(p), outside: true} }
	fail := func(p string) escapeCase { return escapeCase{p: e.at(p)} }
	return []escapeCase{
		in("root/file", "root/file"),
		in("root/sub/file", "root/sub/file"),
		in("root/./sub//file", "root/sub/file"),
		in("root/inlink/file", "root/sub/file"),
		in("root/chainin1/d2/file", "root/sub/deeper/d2/file"),
		in("root/sub/../file", "root/file"),
		in("root/../root/sub/file", "root/sub/file"),
		in("root/to-root2/file", "root2/file"),             // a link into another root
		in("root/todotdot/root/sub/file", "root/sub/file"), // through the roots' parent, which the roots reveal
		in("root/sub/up/root2/file", "root2/file"),         // up two levels, then into root2
		in("root/inlink/../file", "root/file"),             // .. of sub is root
		in("root/sub/deeper/up2/root/inlink/deeper/d2/file", "root/sub/deeper/d2/file"),

		out("root/in/secret"),                     // a link out
		out("root/in/../secret"),                  // .. after a link: base/secret, not root/secret
		out("root/relout/secret"),                 // a relative link out
		out("root/chain1/secret"),                 // a chain of links out
		out("root/chain1/../secret"),              //
		out("root/sub/up/secret"),                 // a link at depth 2 to base
		out("root/sub/deeper/up2/secret"),         // a link at depth 3 to base
		out("root/sub/deeper/far/z"),              // a link deep into outside
		out("root/sub/deeper/far/../../secret"),   // .. twice after a link at depth 3
		out("root/toslash" + e.base + "/secret"),  // a link to /
		out("root/todotdot/secret"),               // a link to ..
		out("root/todotdot/outside/secret"),       //
		out("root/../secret"),                     // plain ..
		out("root/sub/../../secret"),              //
		out("root/inlink/../../secret"),           // a link that stays in, then .. out
		out("root/secretlink"),                    // a link to a file outside
		out("root/in"),                            // the link itself resolves outside
		out("root/../outside/back-in/../secret"),  //
		out("outside/secret"),                     // plainly outside
		{p: "root/file", outside: true},           // relative: inside nothing
		{p: "", outside: true},                    //
		{p: e.at("root/file\x00"), outside: true}, // NUL

		fail("root/loop1"),            // a loop
		fail("root/loop1/x"),          //
		fail("root/missing"),          // does not exist
		fail("root/file/"),            // a file used as a directory
		fail("root/file/.."),          //
		fail("root/sub/file/x"),       //
		fail("root/dangling-in"),      // a link to nothing (inside)
		fail("root/missing/../file"),  // .. after a name that does not exist
		out("root/dangling-out/../x"), // an error met outside is a refusal

		// Out and back in: the kernel would land in the root, but the walk
		// would look at names outside it (whether outside/ exists, whether
		// back-in is a link), and what lies outside must not change the
		// answer.
		out("root/in/../root/file"),
		out("outside/back-in/file"),
	}
}

// refusal is the error a file method must wrap when it refuses p, a path
// outside the set: outside the server's directories when the set has
// Bounds (inside client roots that hold every absolute path a test
// names) and p is absolute, else outside the client's roots.
func refusal(bounded bool, p string) error {
	if bounded && strings.HasPrefix(p, "/") && strings.IndexByte(p, 0) < 0 {
		return rootsrt.ErrOutsideBounds
	}
	return rootsrt.ErrOutsideRoots
}

// escapeSetups are the four ways the escape table builds its set: the two
// roots given by the client, and the client's roots wider (the tree's
// base, or "/") narrowed to root and root2 by the server's Bounds; each
// with and without ResolveSymlinks.
var escapeSetups = []struct {
	name    string
	resolve bool
	roots   func(escapeTree) []string
	bounds  func(escapeTree) []string
}{
	{"client roots", false, func(e escapeTree) []string { return []string{e.root, e.root2} }, nil},
	{"client roots/ResolveSymlinks", true, func(e escapeTree) []string { return []string{e.root, e.root2} }, nil},
	{"base bounded", false, func(e escapeTree) []string { return []string{fileURI(e.base)} }, escapeTree.bounds},
	{"slash bounded/ResolveSymlinks", true, func(e escapeTree) []string { return []string{"file:///"} }, escapeTree.bounds},
}

// TestRootSetEscapes runs every path of the table through every file
// method, and counts escapes: an operation that succeeded on something
// outside the roots, or changed anything there. There must be none, and
// each case must end as the table says, whichever way the set was built.
func TestRootSetEscapes(t *testing.T) {
	cases, escapes := 0, 0
	for _, setup := range escapeSetups {
		t.Run(setup.name, func(t *testing.T) {
			e := newEscapeTree(t)
			before := e.outsideState(t)
			var opts []rootsrt.RootSetOption
			if setup.resolve {
				opts = append(opts, rootsrt.ResolveSymlinks())
			}
			bounded := setup.bounds != nil
			if bounded {
				opts = append(opts, rootsrt.Bounds(setup.bounds(e)...))
			}
			s := mustSet(t, setup.roots(e), opts...)
			for _, c := range escapeReadCases(e) {
				cases++
				escapes += checkRead(t, s, bounded, c)
				escapes += checkModify(t, s, bounded, c)
			}
			for _, c := range escapeCreateCases(e) {
				cases++
				escapes += checkCreate(t, s, bounded, e, c)
			}
			if after := e.outsideState(t); !slices.Equal(before, after) {
				escapes++
				t.Errorf("something changed outside the roots:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
	t.Logf("%d cases (each through every file method), %d escapes", cases, escapes)
}

// checkRead runs one read case through ReadFile, Open, Stat, OpenRoot,
// Resolve and WhichResolved, and returns the number of escapes it saw.
func checkRead(t *testing.T, s *testSet, bounded bool, c escapeCase) (escapes int) {
	t.Helper()
	judge := func(method string, got string, err error) {
		t.Helper()
		if strings.Contains(got, "SECRET") {
			escapes++
			t.Errorf("ESCAPE: %s(%q) read %q", method, c.p, got)
			return
		}
		switch {
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s(%q) = %q, %v; want %q", method, c.p, got, err, c.want)
		case c.want == "" && err == nil:
			escapes++
			t.Errorf("ESCAPE: %s(%q) = %q, no error", method, c.p, got)
		case c.want == "" && c.outside != errors.Is(err, refusal(bounded, c.p)):
			t.Errorf("%s(%q): %v; want %v: %v", method, c.p, err, refusal(bounded, c.p), c.outside)
		}
	}
	data, err := s.ReadFile(c.p)
	judge("ReadFile", string(data), err)

	f, err := s.Open(c.p)
	var got string
	if err == nil {
		b := make([]byte, 64)
		n, _ := f.Read(b)
		got = string(b[:n])
		f.Close()
	}
	judge("Open", got, err)

	if info, err := s.Stat(c.p); err == nil {
		// A file of the tree is as long as its content; a secret is six bytes.
		if c.want == "" || info.Size() != int64(len(c.want)) {
			escapes++
			t.Errorf("ESCAPE or wrong file: Stat(%q) = size %d, no error", c.p, info.Size())
		}
	} else if c.want != "" {
		t.Errorf("Stat(%q): %v", c.p, err)
	}

	// OpenRoot opens directories: never one outside.
	if dir, err := s.OpenRoot(c.p); err == nil {
		dir.Close()
		if c.want == "" {
			escapes++
			t.Errorf("ESCAPE: OpenRoot(%q) opened a directory", c.p)
		}
	}
	// The set as an fs.FS, for the names it takes.
	if name, abs := strings.CutPrefix(c.p, "/"); abs && fs.ValidPath(name) {
		b, err := fs.ReadFile(s.FS(), name)
		judge("FS.ReadFile", string(b), err)
	}

	real, _, err := s.Resolve(c.p)
	if c.want != "" && err != nil {
		t.Errorf("Resolve(%q): %v", c.p, err)
	}
	if c.outside && err == nil {
		escapes++
		t.Errorf("ESCAPE: Resolve(%q) = %q, no error", c.p, real)
	}
	switch _, ok, err := s.WhichResolved(c.p); {
	case c.want != "" && !ok:
		t.Errorf("WhichResolved(%q) = false, %v; want inside", c.p, err)
	case c.outside && (ok || err != nil):
		t.Errorf("WhichResolved(%q) = %v, %v; want false, no error", c.p, ok, err)
	}
	return escapes
}

// checkModify runs one read case through the methods that change a file
// without making one: Chmod, Chtimes and Chown follow a final link;
// Lchown and Readlink act on it, as do Remove and RemoveAll, which run
// only where the path must be refused as outside (elsewhere they could
// take the tree's files away from the cases after: RemoveAll of "file/"
// removes the file, as os.RemoveAll does). A change outside shows in
// outsideState; here, an operation that succeeded where it must not.
//
// A path whose last name is a link out is outside for the first three
// only: the link itself lies in the root, so Lchown and Readlink must
// reach it, as os.Root's do.
func checkModify(t *testing.T, s *testSet, bounded bool, c escapeCase) (escapes int) {
	t.Helper()
	stamp := time.Unix(1_000_000_000, 0)
	uid, gid := os.Getuid(), os.Getgid()
	follow := map[string]func() error{
		"Chmod":   func() error { return s.Chmod(c.p, 0o640) },
		"Chtimes": func() error { return s.Chtimes(c.p, stamp, stamp) },
		"Chown":   func() error { return s.Chown(c.p, uid, gid) },
	}
	noFollow := map[string]func() error{
		"Lchown":   func() error { return s.Lchown(c.p, uid, gid) },
		"Readlink": func() error { _, err := s.Readlink(c.p); return err },
	}
	lastLinkOut := false
	if info, err := os.Lstat(c.p); c.outside && err == nil && info.Mode()&fs.ModeSymlink != 0 {
		_, err := s.Stat(c.p[:strings.LastIndexByte(c.p, '/')]) // the text before, uncleaned
		lastLinkOut = !errors.Is(err, refusal(bounded, c.p))
	}
	if c.outside && !lastLinkOut {
		noFollow["Remove"] = func() error { return s.Remove(c.p) }
		noFollow["RemoveAll"] = func() error { return s.RemoveAll(c.p) }
	}
	check := func(name string, err error, outside bool) {
		switch {
		case outside && err == nil:
			escapes++
			t.Errorf("ESCAPE: %s(%q) succeeded", name, c.p)
		case outside && !errors.Is(err, refusal(bounded, c.p)):
			t.Errorf("%s(%q): %v; want %v", name, c.p, err, refusal(bounded, c.p))
		case !outside && lastLinkOut && err != nil:
			t.Errorf("%s(%q) on a link out, in the root: %v", name, c.p, err)
		case c.want != "" && name != "Readlink" && err != nil:
			t.Errorf("%s(%q): %v", name, c.p, err)
		}
	}
	for name, op := range follow {
		check(name, op(), c.outside)
	}
	for name, op := range noFollow {
		check(name, op(), c.outside && !lastLinkOut)
	}
	if c.want != "" {
		if err := s.Chmod(c.p, 0o644); err != nil {
			t.Errorf("Chmod(%q) back: %v", c.p, err)
		}
	}
	return escapes
}

// A createCase is a path to create a file or directories at, and whether
// that is allowed; where it is, the thing must appear at made, a path
// below base.
type createCase struct {
	p    string
	made string // "" when it must be refused
	// link: p is a link to nothing. Creating a file follows it, as open
	// with O_CREAT does; making a directory does not, as mkdir does not,
	// and fails because the name is taken.
	link bool
}

func escapeCreateCases(e escapeTree) []createCase {
	return []createCase{
		{p: e.at("root/new-file"), made: "root/new-file"},
		{p: e.at("root/sub/new-file"), made: "root/sub/new-file"},
		{p: e.at("root/inlink/new-file2"), made: "root/sub/new-file2"},
		{p: e.at("root/in/../root/new-file3"), made: ""}, // out and back in: refused
		{p: e.at("root/to-root2/new-file"), made: "root2/new-file"},
		{p: e.at("root/dangling-in"), made: "root/sub/made-by-link", link: true}, // a link to nothing, inside
		{p: e.at("root/in/new"), made: ""},
		{p: e.at("root/in/../new"), made: ""},
		{p: e.at("root/relout/new"), made: ""},
		{p: e.at("root/chain1/new"), made: ""},
		{p: e.at("root/sub/up/new"), made: ""},
		{p: e.at("root/sub/deeper/up2/new"), made: ""},
		{p: e.at("root/sub/deeper/far/new"), made: ""},
		{p: e.at("root/todotdot/new"), made: ""},
		{p: e.at("root/dangling-out"), made: "", link: true}, // would create outside/new
		{p: e.at("root/../new"), made: ""},
	}
}

// checkCreate creates c.p with OpenFile(O_CREATE), Create and WriteFile,
// as a directory with Mkdir and MkdirAll, and as a link, a hard link and
// a file renamed there, and returns the number of escapes it saw. Link
// and Rename take a file of root, so a name in root2 is in another root:
// refused with an error matching syscall.EXDEV, which is no escape.
func checkCreate(t *testing.T, s *testSet, bounded bool, e escapeTree, c createCase) (escapes int) {
	t.Helper()
	src := e.at("root/rename-src")
	ops := []struct {
		name string
		do   func() error
	}{
		{"OpenFile(O_CREATE)", func() error {
			f, err := s.OpenFile(c.p, os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				f.Close()
			}
			return err
		}},
		{"Create", func() error {
			f, err := s.Create(c.p)
			if err == nil {
				f.Close()
			}
			return err
		}},
		{"WriteFile", func() error { return s.WriteFile(c.p, []byte("made"), 0o644) }},
		// The file-making ones come first: for a link to nothing, they
		// follow it; the others act on the name, which is taken.
		{"Mkdir", func() error { return s.Mkdir(c.p, 0o755) }},
		{"MkdirAll", func() error { return s.MkdirAll(c.p+"/a/b", 0o755) }},
		{"Symlink", func() error { return s.Symlink("x", c.p) }},
		{"Link", func() error { return s.Link(e.at("root/file"), c.p) }},
		{"Rename", func() error {
			if err := os.WriteFile(src, []byte("moved"), 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(src)
			return s.Rename(src, c.p)
		}},
	}
	otherRoot := strings.HasPrefix(c.made, "root2/")
	target, _ := os.Readlink(c.p) // for a link case, to put it back
	for i, op := range ops {
		err := op.do()
		if (op.name == "Link" || op.name == "Rename") && otherRoot {
			if !errors.Is(err, syscall.EXDEV) {
				t.Errorf("%s(%q) to another root: %v; want EXDEV", op.name, c.p, err)
			}
			continue
		}
		if c.link && i > 2 {
			if op.name == "Rename" { // replaces the link itself, as rename(2) does
				if err != nil {
					t.Errorf("Rename(%q) over a link: %v", c.p, err)
				}
				if err := os.Remove(c.p); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, c.p); err != nil {
					t.Fatal(err)
				}
			} else if err == nil {
				t.Errorf("%s(%q) acted through a link where the name is taken", op.name, c.p)
			}
			continue
		}
		if c.made == "" {
			if err == nil {
				escapes++
				t.Errorf("ESCAPE: %s(%q) succeeded", op.name, c.p)
			} else if !errors.Is(err, refusal(bounded, c.p)) {
				t.Errorf("%s(%q): %v; want %v", op.name, c.p, err, refusal(bounded, c.p))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s(%q): %v", op.name, c.p, err)
			continue
		}
		if _, err := os.Lstat(e.at(c.made)); err != nil {
			t.Errorf("%s(%q) made nothing at %s: %v", op.name, c.p, c.made, err)
		}
		// Remove what was made (the link itself stays), for the next op.
		if err := os.RemoveAll(e.at(c.made)); err != nil {
			t.Fatal(err)
		}
	}
	return escapes
}

// TestRootSetMkdirAllDeep: MkdirAll makes a path of 1,500 names (each
// made in the one before, held open, not walked to from the root again;
// see BenchmarkMkdirAll), goes on from what exists, follows a link that
// stays inside the root in the part that exists, and stops at a file.
func TestRootSetMkdirAllDeep(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	deep := e.at("root/deep/" + strings.Repeat("d/", 1500))
	if err := s.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.MkdirAll(deep+"more/and/more", 0o755); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(deep + "more/and/more"); err != nil || !info.IsDir() {
		t.Errorf("MkdirAll below what exists made %v, %v", info, err)
	}
	if err := os.Symlink("sub", e.at("root/sublink")); err != nil {
		t.Fatal(err)
	}
	if err := s.MkdirAll(e.at("root/sublink/made/here"), 0o755); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(e.at("root/sub/made/here")); err != nil || !info.IsDir() {
		t.Errorf("MkdirAll through a link inside the root made %v, %v", info, err)
	}
	if err := s.MkdirAll(e.at("root/sub/file/x/y"), 0o755); err == nil {
		t.Error("MkdirAll through a file succeeded")
	}
}

// TestRootSetCreateFinalSlash: a final "/" says that the name must be a
// directory, as it does to the kernel: OpenFile with O_CREATE of
// "missing/" makes no file.
func TestRootSetCreateFinalSlash(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	for _, flag := range []int{os.O_CREATE | os.O_WRONLY, os.O_CREATE | os.O_EXCL | os.O_WRONLY, os.O_CREATE | os.O_TRUNC | os.O_RDWR} {
		if f, err := s.OpenFile(e.at("root/missing/"), flag, 0o644); err == nil {
			f.Close()
			t.Errorf("OpenFile(missing/, %#x) succeeded", flag)
		}
		if _, err := os.Lstat(e.at("root/missing")); err == nil {
			t.Fatalf("OpenFile(missing/, %#x) made root/missing", flag)
		}
	}
}

// TestRootSetMkdirAllOverFile: MkdirAll through the root makes the
// missing directories and stops at a name taken by a file.
func TestRootSetMkdirAllOverFile(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	if err := s.MkdirAll(e.at("root/sub/new/a/b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(e.at("root/sub/new/a/b")); err != nil || !info.IsDir() {
		t.Errorf("MkdirAll made %v, %v", info, err)
	}
	if err := s.MkdirAll(e.at("root/sub/new/a/b"), 0o755); err != nil {
		t.Errorf("MkdirAll of what exists: %v", err)
	}
	if err := s.MkdirAll(e.at("root/file/x"), 0o755); err == nil {
		t.Error("MkdirAll through a file succeeded")
	}
}

// TestRootSetMkdirAllDotDot: MkdirAll makes nothing a ".." steps out of,
// as its doc says: "new/a/../b" is ENOENT while new/a is missing, and
// makes new/b once it exists.
func TestRootSetMkdirAllDotDot(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	if err := s.MkdirAll(e.at("root/new/a/../b"), 0o755); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("MkdirAll(new/a/../b) without new/a: %v; want ENOENT", err)
	}
	if _, err := os.Stat(e.at("root/new")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused MkdirAll left new: %v", err)
	}
	if err := s.MkdirAll(e.at("root/new/a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.MkdirAll(e.at("root/new/a/../b"), 0o755); err != nil {
		t.Errorf("MkdirAll(new/a/../b) with new/a: %v", err)
	}
	if info, err := os.Stat(e.at("root/new/b")); err != nil || !info.IsDir() {
		t.Errorf("MkdirAll made %v, %v; want new/b", info, err)
	}
}

// TestRootSetRemoveKeepsTarget: Remove and Lstat act on a final link, not
// on what it points to, so removing a link that points out is allowed
// (the link is inside) and leaves the target alone.
func TestRootSetRemoveKeepsTarget(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	info, err := s.Lstat(e.at("root/secretlink"))
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("Lstat(secretlink) = %v, %v; want the link", info, err)
	}
	if err := s.Remove(e.at("root/secretlink")); err != nil {
		t.Fatalf("Remove(secretlink): %v", err)
	}
	if b, err := os.ReadFile(e.at("secret")); err != nil || string(b) != "SECRET" {
		t.Errorf("the link's target changed: %q, %v", b, err)
	}
	if err := s.Remove(e.at("root/in/secret")); !errors.Is(err, rootsrt.ErrOutsideRoots) {
		t.Errorf("Remove through a link out: %v; want ErrOutsideRoots", err)
	}
	if err := s.Remove(e.at("root/sub/up/secret")); !errors.Is(err, rootsrt.ErrOutsideRoots) {
		t.Errorf("Remove through a link out at depth 2: %v; want ErrOutsideRoots", err)
	}
}

// TestRootSetClose: after Close every file method fails with fs.ErrClosed,
// and a second Close is nothing.
func TestRootSetClose(t *testing.T) {
	e := newEscapeTree(t)
	s, _, err := newSet([]string{e.root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadFile(e.at("root/file")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	p := e.at("root/file")
	for what, err := range map[string]error{
		"ReadFile":  func() error { _, err := s.ReadFile(p); return err }(),
		"Open":      func() error { _, err := s.Open(p); return err }(),
		"Stat":      func() error { _, err := s.Stat(p); return err }(),
		"Lstat":     func() error { _, err := s.Lstat(p); return err }(),
		"Mkdir":     s.Mkdir(e.at("root/d"), 0o755),
		"Remove":    s.Remove(p),
		"OpenRoot":  func() error { _, err := s.OpenRoot(e.at("root")); return err }(),
		"WriteFile": s.WriteFile(p, nil, 0o644),
		"RemoveAll": s.RemoveAll(p),
		"Rename":    s.Rename(p, p+".2"),
		"Link":      s.Link(p, p+".2"),
		"Symlink":   s.Symlink("x", p+".2"),
		"Readlink":  func() error { _, err := s.Readlink(p); return err }(),
		"Chmod":     s.Chmod(p, 0o600),
		"Chown":     s.Chown(p, os.Getuid(), os.Getgid()),
		"Lchown":    s.Lchown(p, os.Getuid(), os.Getgid()),
		"Chtimes":   s.Chtimes(p, time.Time{}, time.Time{}),
		"Create":    func() error { _, err := s.Create(p); return err }(),
	} {
		if !errors.Is(err, fs.ErrClosed) {
			t.Errorf("%s after Close: %v; want fs.ErrClosed", what, err)
		}
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("Remove after Close removed the file: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	// The lexical questions need no directory.
	if !s.Contains(p) {
		t.Error("Contains after Close: false")
	}
}

// TestRootSetShare: each view of a set closes on its own; closing one
// twice does not close the directories under another, which stay open
// until the last view closes.
func TestRootSetShare(t *testing.T) {
	e := newEscapeTree(t)
	s, _, err := newSet([]string{e.root})
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Share(), s.Share()
	if !slices.Equal(a.Roots(), s.Roots()) || !slices.Equal(b.Dirs(), s.Dirs()) {
		t.Errorf("a view has other roots: %v, %v", a.Roots(), b.Dirs())
	}
	read := func(what string, v *testSet, wantClosed bool) {
		t.Helper()
		data, err := v.ReadFile(e.at("root/file"))
		if wantClosed != errors.Is(err, fs.ErrClosed) || !wantClosed && string(data) != "root/file" {
			t.Errorf("%s: ReadFile = %q, %v; closed: %v", what, data, err, wantClosed)
		}
	}
	for _, v := range []*testSet{s, a, a} {
		if err := v.Close(); err != nil {
			t.Fatal(err)
		}
	}
	read("the set, closed", s, true)
	read("a view, closed twice", a, true)
	read("the last view open", b, false)
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	read("the last view, closed", b, true)
}

// swapping makes root/d a directory holding f ("inside"), with outside/f
// ("SECRET") beside it, and starts swapping d for a link to outside and
// back, atomically each way, over and over, until the stop it returns is
// called.
func (e escapeTree) swapping(t *testing.T) (d string, stop func()) {
	t.Helper()
	d = e.at("root/d")
	real, parked, link := e.at("root/d-real"), e.at("root/d-parked"), e.at("root/d-link")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real+"/f", []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.at("outside/f"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.at("outside"), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(real, d); err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !done.Load() {
			os.Rename(d, parked)
			os.Rename(link, d)
			os.Rename(d, link)
			os.Rename(parked, d)
		}
	})
	return d, func() { done.Store(true); wg.Wait() }
}

// TestRootSetSwapRace swaps a directory inside the root for a link to a
// directory outside, over and over, while readers read a file below it.
// Through the set no read may return the outside file. The same reads
// done as a check (WhichResolved) and then os.ReadFile are counted for
// comparison: that is the race the file methods close.
func TestRootSetSwapRace(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	d, stop := e.swapping(t)
	iterations := 20000
	if testing.Short() {
		iterations = 2000
	}
	var safeOut, safeIn, checkedOut atomic.Int64
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for range iterations / 2 {
				if b, err := s.ReadFile(d + "/f"); err == nil {
					if string(b) == "SECRET" {
						safeOut.Add(1)
					} else {
						safeIn.Add(1)
					}
				}
				if _, ok, err := s.WhichResolved(d + "/f"); ok && err == nil {
					if b, err := os.ReadFile(d + "/f"); err == nil && string(b) == "SECRET" {
						checkedOut.Add(1)
					}
				}
			}
		}()
	}
	readers.Wait()
	stop()
	t.Logf("%d reads through the set: %d inside, %d outside; check-then-read: %d outside", iterations, safeIn.Load(), safeOut.Load(), checkedOut.Load())
	if n := safeOut.Load(); n != 0 {
		t.Errorf("ESCAPE: %d reads through the set returned the file outside the root", n)
	}
	if safeIn.Load() == 0 {
		t.Error("no read succeeded: the race did not exercise the inside path")
	}
}

// TestRootSetLinkRoot: a root that is itself a link. The file methods act
// in the directory it names, for a path written under the root whatever
// its walk goes through; a path written through the link's target is
// inside only with ResolveSymlinks, and ".." after the root's link leads
// to the target's parent, which is outside.
func TestRootSetLinkRoot(t *testing.T) {
	e := newEscapeTree(t)
	if err := os.Symlink(e.rootP, e.at("linkroot")); err != nil {
		t.Fatal(err)
	}
	for _, resolve := range []bool{false, true} {
		var opts []rootsrt.RootSetOption
		if resolve {
			opts = append(opts, rootsrt.ResolveSymlinks())
		}
		s := mustSet(t, []string{fileURI(e.at("linkroot"))}, opts...)
		for _, c := range []struct {
			p        string
			want     string // "" when refused
			resolved bool   // allowed only with ResolveSymlinks
		}{
			{e.at("linkroot/file"), "root/file", false},
			{e.at("linkroot/sub/file"), "root/sub/file", false},
			{e.at("linkroot/inlink/../file"), "root/file", false}, // resolved through the link's target
			{e.at("root/file"), "root/file", true},                // the link's target
			{e.at("linkroot/../secret"), "", false},
			{e.at("linkroot/in/secret"), "", false},
		} {
			want := c.want
			if c.resolved && !resolve {
				want = ""
			}
			got, err := s.ReadFile(c.p)
			if string(got) != want || (want == "") != (err != nil) {
				t.Errorf("ResolveSymlinks=%v: ReadFile(%q) = %q, %v; want %q", resolve, c.p, got, err, want)
			}
		}
	}
}

// TestRootSetBoundsLinks: links that cross the server's bound. The client
// root is the whole tree; the bound is one directory in it. A link inside
// the bound that points elsewhere in the client's root is refused, and so
// is a path that goes up out of the bound; so is a path through a link
// outside the bound that leads into it: reading it would tell what lies
// outside the bound (that the link is there, and where it leads).
func TestRootSetBoundsLinks(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{fileURI(e.base)}, rootsrt.Bounds(e.rootP+"/sub"))
	for _, c := range []struct{ p, want string }{
		{e.at("root/sub/file"), "root/sub/file"},
		{e.at("root/sub/deeper/d2/file"), "root/sub/deeper/d2/file"},
		{e.at("root/file"), ""},                // in the client's root, not in the bound
		{e.at("root/sub/../file"), ""},         // up out of the bound
		{e.at("root/sub/up/root/file"), ""},    // a link in the bound to base
		{e.at("root/inlink/file"), ""},         // links outside the bound
		{e.at("root/chainin1/d2/file"), ""},    // that lead into it
		{e.at("outside/back-in/sub/file"), ""}, //
		{e.at("root/sub/deeper/far/z"), ""},    // a link out of everything
	} {
		got, err := s.ReadFile(c.p)
		if string(got) != c.want || (c.want == "") != (err != nil) {
			t.Errorf("ReadFile(%q) = %q, %v; want %q", c.p, got, err, c.want)
		}
	}
}

// No file method tells what exists outside the roots: a path outside
// every root is refused alike whether a file is there or not, whether its
// directory exists or not, and through a link that leads out; only a
// path inside a root may report that it does not exist.
func TestRootSetOutsideSaysNothing(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "there.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(base, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	outside := []string{
		filepath.Join(base, "there.txt"),
		filepath.Join(base, "missing.txt"),
		filepath.Join(base, "missing", "x"),
		filepath.Join(root, "out", "there.txt"),
		filepath.Join(root, "out", "missing.txt"),
		filepath.Join(root, "..", "missing.txt"),
		"/nonexistent-" + filepath.Base(base),
	}
	for _, opts := range [][]rootsrt.RootSetOption{nil, {rootsrt.Bounds(root)}, {rootsrt.ResolveSymlinks()}} {
		set, err := rootsrt.NewRootSetOf([]testRoot{{URI: fileURI(root)}}, testURI, nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		methods := map[string]func(p string) error{
			"ReadFile":  func(p string) error { _, err := set.ReadFile(p); return err },
			"Open":      func(p string) error { f, err := set.Open(p); closeFile(f); return err },
			"Stat":      func(p string) error { _, err := set.Stat(p); return err },
			"Lstat":     func(p string) error { _, err := set.Lstat(p); return err },
			"Remove":    func(p string) error { return set.Remove(p) },
			"OpenRoot":  func(p string) error { d, err := set.OpenRoot(p); closeRoot(d); return err },
			"RemoveAll": func(p string) error { return set.RemoveAll(p) },
			"Readlink":  func(p string) error { _, err := set.Readlink(p); return err },
			"Chmod":     func(p string) error { return set.Chmod(p, 0o644) },
			"Chtimes":   func(p string) error { return set.Chtimes(p, time.Unix(1, 0), time.Unix(1, 0)) },
		}
		for name, m := range methods {
			for _, p := range outside {
				if err := m(p); !errors.Is(err, rootsrt.ErrOutsideRoots) && !errors.Is(err, rootsrt.ErrOutsideBounds) {
					t.Errorf("%d options: %s(%s) = %v; want it refused as outside", len(opts), name, p, err)
				}
			}
			if err := m(filepath.Join(root, "missing.txt")); name != "OpenRoot" && name != "RemoveAll" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%d options: %s of a missing file inside the root = %v; want fs.ErrNotExist", len(opts), name, err)
			}
		}
		set.Close()
	}
}

func testURI(r *testRoot) string { return r.URI }

func closeFile(f *os.File) {
	if f != nil {
		f.Close()
	}
}

func closeRoot(d *os.Root) {
	if d != nil {
		d.Close()
	}
}

// TestRootSetFinalNameAsKernel: Mkdir, MkdirAll and Remove act on the
// last name itself, as the kernel's mkdir and rmdir do, whatever follows
// it ("/", "/."): each call changes the tree as the same call made with os
// does and fails with the same errno, except that a path with ".." in it
// may be refused where os goes on (changing nothing).
func TestRootSetFinalNameAsKernel(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX path rules")
	}
	ops := []struct {
		name string
		set  func(s *testSet, p string) error
		os   func(p string) error
	}{
		{"Mkdir", func(s *testSet, p string) error { return s.Mkdir(p, 0o755) }, func(p string) error { return os.Mkdir(p, 0o755) }},
		{"MkdirAll", func(s *testSet, p string) error { return s.MkdirAll(p, 0o755) }, func(p string) error { return os.MkdirAll(p, 0o755) }},
		{"Remove", func(s *testSet, p string) error { return s.Remove(p) }, os.Remove},
	}
	paths := []string{
		"dangling", "dangling/", "dangling/.", "dangling/x", "dangling/x/",
		"lnk", "lnk/", "lnk/.", "lnk/..", "lnk/x/..", "d", "d/", "d/.", "d/./", "d/..",
		"file", "file/", "file/.", "file/x", "missing", "missing/", "missing/.",
		"missing/..", "d/new/", "d/new/.", "d/a/../b",
	}
	tree := func(t *testing.T) string {
		r := filepath.Join(t.TempDir(), "r")
		for _, err := range []error{
			os.Mkdir(r, 0o755),
			os.Mkdir(filepath.Join(r, "d"), 0o755),
			os.WriteFile(filepath.Join(r, "file"), nil, 0o644),
			os.Symlink("target", filepath.Join(r, "dangling")),
			os.Symlink("d", filepath.Join(r, "lnk")),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		return r
	}
	list := func(r string) string {
		var names []string
		filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			names = append(names, strings.TrimPrefix(p, r))
			return nil
		})
		return strings.Join(names, " ")
	}
	for _, o := range ops {
		for _, p := range paths {
			r := tree(t)
			before := list(r)
			setErr := o.set(mustSet(t, []string{fileURI(r)}), r+"/"+p)
			setTree := list(r)
			r = tree(t)
			osErr := o.os(r + "/" + p)
			osTree := list(r)
			switch {
			case osErr != nil && setErr == nil:
				t.Errorf("%s(%q) succeeded where os says %v", o.name, p, osErr)
			case setErr != nil && setTree != before:
				t.Errorf("%s(%q) failed (%v) and changed the tree: %s", o.name, p, setErr, setTree)
			case setErr == nil && setTree != osTree:
				t.Errorf("%s(%q) left %s; os leaves %s", o.name, p, setTree, osTree)
			case setErr != nil && osErr == nil && !strings.Contains(p, ".."):
				t.Errorf("%s(%q) failed (%v) where os succeeds", o.name, p, setErr)
			case o.name == "MkdirAll" && p == "file/":
				// os.MkdirAll says EEXIST here, ENOTDIR for "file": the set
				// says ENOTDIR for both.
			case setErr != nil && osErr != nil && errnoOf(setErr) != errnoOf(osErr):
				t.Errorf("%s(%q): %v; os says %v", o.name, p, setErr, osErr)
			}
		}
	}
}

// TestRootSetRemoveRootDir: the directory of a root is never removed,
// however it is spelled: by its own path, or by its place inside another
// root.
func TestRootSetRemoveRootDir(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, b, x := filepath.Join(dir, "A"), filepath.Join(dir, "A", "B"), filepath.Join(dir, "X")
	if err := os.MkdirAll(b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(b, x); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, opts := range [][]rootsrt.RootSetOption{nil, {rootsrt.ResolveSymlinks()}} {
		s := mustSet(t, []string{fileURI(a), fileURI(x)}, opts...)
		for _, p := range []string{b, b + "/", x, x + "/", x + "/.", a, a + "/", b + "/../B"} {
			if err := s.Remove(p); err == nil {
				t.Errorf("Remove(%q) succeeded", p)
			}
			if _, err := os.Stat(b); err != nil {
				t.Fatalf("Remove(%q) removed the directory of root X: %v", p, err)
			}
		}
	}
}

// errnoOf is the system error err wraps, or -1.
func errnoOf(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return ^syscall.Errno(0)
}

// TestRootSetRemoveDotsOutside: a path that ends in "." or ".." but lies
// outside every root is refused as outside, as any other such path is,
// and a closed set says it is closed.
func TestRootSetRemoveDotsOutside(t *testing.T) {
	e := newEscapeTree(t)
	s := mustSet(t, []string{e.root})
	for _, p := range []string{"/etc/..", "/nonexistent/.", e.at("outside/."), "rel/..", ".", "/x\x00/.."} {
		if err := s.Remove(p); !errors.Is(err, rootsrt.ErrOutsideRoots) {
			t.Errorf("Remove(%q) = %v, want ErrOutsideRoots", p, err)
		}
	}
	s.Close()
	if err := s.Remove(e.at("root/sub/.")); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Remove on a closed set = %v, want fs.ErrClosed", err)
	}
}

// TestRootSetLinkRootEveryMethod: under a root that is a link, OpenRoot and
// Resolve accept what ReadFile, Open and Stat accept, and OpenRoot's
// os.Root is named by the root's path, as the client wrote it.
func TestRootSetLinkRootEveryMethod(t *testing.T) {
	e := newEscapeTree(t)
	if err := os.Symlink(e.rootP, e.at("linkroot")); err != nil {
		t.Fatal(err)
	}
	for _, resolve := range []bool{false, true} {
		var opts []rootsrt.RootSetOption
		if resolve {
			opts = append(opts, rootsrt.ResolveSymlinks())
		}
		s := mustSet(t, []string{fileURI(e.at("linkroot")), e.root2}, opts...)
		p := e.at("linkroot/sub/file")
		if data, err := s.ReadFile(p); err != nil || string(data) != "root/sub/file" {
			t.Fatalf("resolve=%v: ReadFile: %q, %v", resolve, data, err)
		}
		if _, err := s.Stat(p); err != nil {
			t.Errorf("resolve=%v: Stat: %v", resolve, err)
		}
		real, root, err := s.Resolve(p)
		if err != nil || real != e.rootP+"/sub/file" || root.URI != fileURI(e.at("linkroot")) {
			t.Errorf("resolve=%v: Resolve = %q, %q, %v; want the file's real path in the link root", resolve, real, root.URI, err)
		}
		// OpenRoot of the directory under the link root: what it reads is
		// the root's, and its name is the path as written.
		r, err := s.OpenRoot(e.at("linkroot/sub"))
		if err != nil {
			t.Fatalf("resolve=%v: OpenRoot: %v", resolve, err)
		}
		if data, err := readIn(r, "file"); err != nil || string(data) != "root/sub/file" {
			t.Errorf("resolve=%v: OpenRoot(linkroot/sub): file: %q, %v", resolve, data, err)
		}
		if want := e.at("linkroot/sub"); r.Name() != want {
			t.Errorf("resolve=%v: OpenRoot's Name() = %q, want %q", resolve, r.Name(), want)
		}
		r.Close()
		// A root that is not a link: its own path.
		r, err = s.OpenRoot(e.root2P)
		if err != nil || r.Name() != e.root2P {
			t.Errorf("resolve=%v: OpenRoot of root2: %v; want it named %q", resolve, err, e.root2P)
		}
		if r != nil {
			r.Close()
		}
		// What lies above the link root's target stays outside.
		if _, _, err := s.Resolve(e.at("linkroot/../secret")); !errors.Is(err, rootsrt.ErrOutsideRoots) {
			t.Errorf("resolve=%v: Resolve(linkroot/../secret): %v; want ErrOutsideRoots", resolve, err)
		}
		if r, err := s.OpenRoot(e.at("linkroot/in")); err == nil {
			r.Close()
			t.Errorf("resolve=%v: OpenRoot(linkroot/in), a link out, succeeded", resolve)
		}
	}
}

// readIn reads name in r (os.Root.ReadFile is Go 1.25).
func readIn(r *os.Root, name string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
