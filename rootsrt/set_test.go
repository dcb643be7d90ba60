package rootsrt_test

// The boundary check of RootSetOf, read as text: which root a path or a
// URI is in, by the POSIX and the Windows rules, with every root given
// refused or kept as the table says. The set is built over testRoot
// (testroot_test.go).

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

type testSet = rootsrt.RootSetOf[testRoot]

// newSet builds the set of roots with the given URIs, checked as a
// revision checks them; the second result lists the JSON paths of the
// problems NewRootSetOf reported.
func newSet(uris []string, opts ...rootsrt.RootSetOption) (*testSet, []string, error) {
	return newSetChecked(checkTestRoot, uris, opts...)
}

// newSetChecked is newSet with check as the revision's check (nil for
// none: the set's own rules alone).
func newSetChecked(check func(*testRoot, *rtimpl.Validator, *rtimpl.Path), uris []string, opts ...rootsrt.RootSetOption) (*testSet, []string, error) {
	roots := make([]testRoot, len(uris))
	for i, u := range uris {
		roots[i] = testRoot{URI: u}
	}
	s, err := rootsrt.NewRootSetOf(roots, testRootURI, check, opts...)
	return s, problemPaths(err), err
}

// mustSet is newSet for roots that must all be kept.
func mustSet(t testing.TB, uris []string, opts ...rootsrt.RootSetOption) *testSet {
	t.Helper()
	s, bad, err := newSet(uris, opts...)
	if err != nil {
		t.Fatalf("NewRootSetOf(%q): %v (%q)", uris, err, bad)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// closeAtEnd closes s when the test ends: a set that refused some roots
// (NewRootSetOf's error) is still a set, with directories open.
func closeAtEnd(t testing.TB, s *testSet) { t.Cleanup(func() { s.Close() }) }

// problemPaths lists the Path of each Problem of a *ValidationError.
func problemPaths(err error) []string {
	if err == nil {
		return nil
	}
	var ve *rootsrt.ValidationError
	if !errors.As(err, &ve) {
		panic(fmt.Sprintf("NewRootSetOf returned %T, not a *ValidationError", err))
	}
	out := make([]string, len(ve.Problems))
	for i, p := range ve.Problems {
		out[i] = p.Path
	}
	return out
}

// whichURI is Which, naming the root by its URI ("" for none).
func whichURI(s *testSet, p string) (string, bool) {
	r, ok := s.Which(p)
	return r.URI, ok
}

// fileURI is the file URI of an absolute POSIX path.
func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }

// rsCase is one path and the index (into the table's roots) of the root it
// must be in, or -1 for none.
type rsCase struct {
	name string
	p    string
	want int
}

// posixRoots: the valid ones first; the rest must be refused, each by index.
var posixRoots = []string{
	0:  "file:///srv/a/b",
	1:  "file:///srv/a/b/c/deep", // nested in 0: the more specific wins
	2:  "file://localhost/home/me",
	3:  "file:///data%20dir/x",               // "/data dir/x"
	4:  "file:///tmp/./t/../t2/",             // "/tmp/t2"
	5:  "file:///etc/%2e%2e/%2E%2E/srv/q",    // encoded dots climb like plain ones: "/srv/q"
	6:  "file://LocalHost/opt/%C3%A9t%C3%A9", // "/opt/été"
	7:  "file://evil.com/srv/x",              // another machine
	8:  "FILE:///srv/x",                      // scheme not in lower case
	9:  "http:///srv/x",                      // not a file URI
	10: "file:///srv/a%2Fx",                  // encoded separator
	11: "file:///srv/x%00y",                  // encoded NUL
	12: "file:///srv/x?y=1",                  // query
	13: "file:///srv/x#f",                    // fragment
	14: "file:srv/x",                         // no authority, relative
	15: "",                                   // empty
	16: "file://",                            // no path
	17: "file://user@localhost/srv/x",        // user info
	18: "file://localhost:8080/srv/x",        // port
	19: "file:///srv/%ZZ",                    // malformed escape
	20: "srv/x",                              // not a URI
	21: "file:///srv/a b",                    // unescaped space
}

const posixValid = 7 // posixRoots[:posixValid] are valid

var posixCases = []rsCase{
	{"exact root", "/srv/a/b", 0},
	{"trailing slash", "/srv/a/b/", 0},
	{"file in root", "/srv/a/b/x.go", 0},
	{"prefix sibling", "/srv/a/bc", -1},
	{"under prefix sibling", "/srv/a/bc/x", -1},
	{"climb to sibling", "/srv/a/b/../bc/x", -1},
	{"climb out", "/srv/a/b/../../../../etc/passwd", -1},
	{"climb to parent", "/srv/a/b/..", -1},
	{"parent of root", "/srv/a", -1},
	{"slash", "/", -1},
	{"nested root", "/srv/a/b/c/deep/f", 1},
	{"nested root exact", "/srv/a/b/c/deep", 1},
	{"sibling of nested root", "/srv/a/b/c/deeper", 0},
	{"out of nested root stays in outer", "/srv/a/b/c/deep/../../x", 0},
	{"out of both", "/srv/a/b/c/deep/../../../b2", -1},
	{"double slashes", "//srv//a//b//x", 0},
	{"dot names", "/srv/a/b/./x/.", 0},
	{"climb above slash stays at slash", "/../../srv/a/b/x", 0},
	{"encoded dots in a path are a name", "/srv/a/b/%2e%2e/x", 0},
	{"encoded dots do not climb a path", "/srv/a/%2e%2e/a/b", -1},
	{"relative", "srv/a/b/x", -1},
	{"relative dot", ".", -1},
	{"relative climb", "../srv/a/b", -1},
	{"empty", "", -1},
	{"NUL in name", "/srv/a/b\x00/x", -1},
	{"NUL at end", "/srv/a/b/x\x00", -1},
	{"NUL after climb", "/srv/a/b/\x00/../x", -1},
	{"backslashes are names", `\srv\a\b\x`, -1},
	{"backslash name inside", `/srv/a/b/..\..\x`, 0},
	{"drive letter is relative", "C:/srv/a/b", -1},
	{"invalid UTF-8", "/srv/a/b/\xff\xfe", 0},
	{"localhost root", "/home/me/../me/p", 2},
	{"localhost prefix sibling", "/home/meow", -1},
	{"decoded space", "/data dir/x/y", 3},
	{"still-encoded space", "/data%20dir/x/y", -1},
	{"cleaned root", "/tmp/t2/z", 4},
	{"dot names of root are gone", "/tmp/t/z", -1},
	{"root with encoded dots", "/srv/q/1", 5},
	{"path through encoded-dot root's spelling", "/etc/q", -1},
	{"decoded UTF-8", "/opt/été/x", 6},
	{"refused host's path", "/srv/x", -1},
	{"very long path", "/srv/a/b/" + strings.Repeat("x/", 20000) + "f", 0},
	{"very long climb", "/srv/a/b" + strings.Repeat("/..", 20000) + "/srv/a/b/f", 0},
	{"very long climb out", "/srv/a/b" + strings.Repeat("/x/..", 20000) + "/../bc", -1},
	{"long name", "/srv/a/" + strings.Repeat("b", 100000), -1},
}

var posixURICases = []rsCase{
	{"in root", "file:///srv/a/b/x", 0},
	{"root itself", "file:///srv/a/b", 0},
	{"localhost", "file://localhost/srv/a/b/x", 0},
	{"localhost any case", "file://LOCALHOST/srv/a/b/x", 0},
	{"encoded climb", "file:///srv/a/b/%2e%2e/bc", -1},
	{"encoded climb back in", "file:///srv/a/b/%2E%2E/b/x", 0},
	{"plain climb out", "file:///srv/a/b/../../../etc", -1},
	{"climb above slash", "file:///../../srv/a/b", 0},
	{"encoded slash", "file:///srv/a/b%2Fx", -1},
	{"encoded slash lower case", "file:///srv/a%2fb/x", -1},
	{"encoded NUL", "file:///srv/a/b/%00", -1},
	{"other host", "file://evil.com/srv/a/b/x", -1},
	{"upper-case scheme", "FILE:///srv/a/b/x", -1},
	{"http", "http:///srv/a/b/x", -1},
	{"no authority", "file:/srv/a/b/x", -1},
	{"query", "file:///srv/a/b/x?q", -1},
	{"fragment", "file:///srv/a/b/x#f", -1},
	{"prefix sibling", "file:///srv/a/bc", -1},
	{"malformed escape", "file:///srv/a/b/%G0", -1},
	{"truncated escape", "file:///srv/a/b/%4", -1},
	{"invalid UTF-8 decoded", "file:///srv/a/b/%c3%28", 0},
	{"a path, not a URI", "/srv/a/b/x", -1},
	{"empty", "", -1},
	{"nested root", "file:///srv/a/b/c/deep/x", 1},
}

// windowsRoots, read as Windows paths.
var windowsRoots = []string{
	0:  "file:///C:/Users/me/proj",
	1:  "file:///d%3A/data",            // encoded colon, lower-case drive: D:\data
	2:  "file:///c:/Users/me/proj/sub", // nested in 0
	3:  "file:///E:",                   // a whole drive: E:\
	4:  "file:///Users/me",             // no drive
	5:  "file://server/share/x",        // UNC as a host
	6:  "file:////server/share",        // UNC as a path
	7:  "file:///C:/a%5Cb",             // encoded backslash
	8:  "file:///C:/con/x",             // device name
	9:  "file:///C:/x./y",              // name ending in a dot
	10: "file:///C:x",                  // drive-relative
	11: "file:///C:/a:b",               // stream separator
	12: "file:///C:/%FF",               // invalid UTF-8
	13: "file:///C|/x",                 // legacy drive spelling
	14: "file:///C:/x%20/y",            // name ending in a space
}

const windowsValid = 4

var windowsCases = []rsCase{
	{"in root", `C:\Users\me\proj\x.go`, 0},
	{"root itself", `C:\Users\me\proj`, 0},
	{"trailing separator", `C:\Users\me\proj\`, 0},
	{"lower-case drive", `c:\Users\me\proj\x`, 0},
	{"other case is refused", `C:\users\me\proj\x`, -1},
	{"forward slashes", `C:/Users/me/proj/x`, 0},
	{"mixed separators", `C:\Users/me\proj/x`, 0},
	{"double separators", `C:\Users\me\proj\\\x`, 0},
	{"nested root", `C:\Users\me\proj\sub\y`, 2},
	{"prefix sibling", `C:\Users\me\projx`, -1},
	{"climb out", `C:\Users\me\proj\..\..\..\Windows`, -1},
	{"climb above drive", `C:\..\..\Users\me\proj\a`, 0},
	{"other drive, same path", `F:\Users\me\proj\x`, -1},
	{"whole drive", `E:\anything\at\all`, 3},
	{"whole drive, lower case", `e:/x`, 3},
	{"encoded colon root", `D:\data\f`, 1},
	{"encoded colon root, lower case", `d:/data/f`, 1},
	{"UNC", `\\server\share\x`, -1},
	{"extended-length", `\\?\C:\Users\me\proj\x`, -1},
	{"device namespace", `\\.\C:\Users\me\proj\x`, -1},
	{"drive-relative", `C:Users\me\proj\x`, -1},
	{"rooted without drive", `\Users\me\proj\x`, -1},
	{"POSIX path", `/Users/me/proj`, -1},
	{"trailing dot", `C:\Users\me\proj\x.`, -1},
	{"trailing space", `C:\Users\me\proj\x `, -1},
	{"dot-dot-space", `C:\Users\me\proj\.. \..\x`, -1},
	{"three dots", `C:\Users\me\proj\...\x`, -1},
	{"stream", `C:\Users\me\proj\file.txt:stream`, -1},
	{"device name", `C:\Users\me\proj\NUL`, -1},
	{"device name with extension", `C:\Users\me\proj\com1.txt`, -1},
	{"device name with superscript", `C:\Users\me\proj\LPT¹`, -1},
	{"not a device name", `C:\Users\me\proj\console`, 0},
	{"reserved character", `C:\Users\me\proj\a?b`, -1},
	{"control character", "C:\\Users\\me\\proj\\a\x01", -1},
	{"NUL", "C:\\Users\\me\\proj\\a\x00", -1},
	{"invalid UTF-8", "C:\\Users\\me\\proj\\\xff", -1},
	{"empty", "", -1},
	{"drive only", `C:`, -1},
}

var windowsURICases = []rsCase{
	{"in root", "file:///C:/Users/me/proj/x", 0},
	{"encoded colon", "file:///c%3A/Users/me/proj/x", 0},
	{"localhost", "file://localhost/C:/Users/me/proj/x", 0},
	{"encoded backslash climb", "file:///C:/Users/me/proj/a%5C..%5C..%5Cx", -1},
	{"climb out", "file:///C:/Users/me/proj/../../x", -1},
	{"UNC host", "file://server/share", -1},
	{"UNC path", "file:////server/share/Users/me/proj", -1},
	{"no drive", "file:///Users/me/proj/x", -1},
	{"whole drive", "file:///E:/x", 3},
}

func (c rsCase) label(roots []string) string {
	if c.want < 0 {
		return ""
	}
	return roots[c.want]
}

// runRootSetTable checks one style's roots and cases, with the revision's
// check and with none: the set's own rules refuse the same roots.
func runRootSetTable(t *testing.T, windows bool, roots []string, valid int, cases, uriCases []rsCase) {
	var wantBad []string
	for i := valid; i < len(roots); i++ {
		wantBad = append(wantBad, fmt.Sprintf("roots[%d].uri", i))
	}
	for _, how := range []struct {
		name  string
		check func(*testRoot, *rtimpl.Validator, *rtimpl.Path)
	}{{"checked", checkTestRoot}, {"unchecked", nil}} {
		t.Run(how.name, func(t *testing.T) {
			s, bad, err := newSetChecked(how.check, roots, rootsrt.WindowsPaths(windows))
			closeAtEnd(t, s)
			if !slices.Equal(bad, wantBad) {
				t.Fatalf("refused %q, want %q (error: %v)", bad, wantBad, err)
			}
			for _, c := range cases {
				got, ok := whichURI(s, c.p)
				if want := c.label(roots); ok != (want != "") || got != want {
					t.Errorf("%s: Which(%.80q) = %q, %v; want %q", c.name, c.p, got, ok, want)
				}
				if s.Contains(c.p) != (c.want >= 0) {
					t.Errorf("%s: Contains(%.80q) = %v", c.name, c.p, !(c.want >= 0))
				}
			}
			for _, c := range uriCases {
				if got := s.ContainsURI(c.p); got != (c.want >= 0) {
					t.Errorf("%s: ContainsURI(%q) = %v", c.name, c.p, got)
				}
			}
			// Every valid root contains its own URI; no refused one does.
			for i, u := range roots {
				if got := s.ContainsURI(u); got != (i < valid) {
					t.Errorf("ContainsURI(roots[%d] %q) = %v", i, u, got)
				}
			}
			if got := len(s.Roots()); got != valid {
				t.Errorf("Roots() has %d roots, want the %d valid ones", got, valid)
			}
		})
	}
}

func TestRootSetPOSIX(t *testing.T) {
	runRootSetTable(t, false, posixRoots, posixValid, posixCases, posixURICases)
}

func TestRootSetWindows(t *testing.T) {
	runRootSetTable(t, true, windowsRoots, windowsValid, windowsCases, windowsURICases)
}

// TestRootSetSlashRoot: the root "/" holds every absolute path and nothing else.
func TestRootSetSlashRoot(t *testing.T) {
	s := mustSet(t, []string{"file:///", "file:///srv"}, rootsrt.WindowsPaths(false))
	for p, want := range map[string]string{
		"/": "file:///", "/x": "file:///", "/srv": "file:///srv", "/srv/x": "file:///srv", "/srvx": "file:///",
		"/..": "file:///", "//": "file:///", "x": "", "": "", "./x": "", "/\x00": "",
	} {
		got, ok := whichURI(s, p)
		if got != want || ok != (want != "") {
			t.Errorf("Which(%q) = %q, %v; want %q", p, got, ok, want)
		}
	}
}

// TestRootSetEmpty: no roots, or only bad ones, hold nothing.
func TestRootSetEmpty(t *testing.T) {
	for _, roots := range [][]string{nil, {}, {"http://x/"}} {
		s, _, _ := newSet(roots, rootsrt.WindowsPaths(false))
		if s.Contains("/") || s.Contains("/x") || s.ContainsURI("file:///x") || len(s.Roots()) != 0 || len(s.Dirs()) != 0 {
			t.Errorf("a set of %q contains something", roots)
		}
		if _, err := s.ReadFile("/etc/hostname"); !errors.Is(err, rootsrt.ErrOutsideRoots) {
			t.Errorf("a set of %q: ReadFile(/etc/hostname) = %v; want ErrOutsideRoots", roots, err)
		}
		s.Close()
	}
}

// TestRootSetErrorText: the error names each refused root by index, with
// the reason, in the ValidationError form, typed RootSet.
func TestRootSetErrorText(t *testing.T) {
	s, _, err := newSet([]string{"file:///ok", "file://evil.com/x", "file:///a%2Fb", "http://x/"}, rootsrt.WindowsPaths(false))
	closeAtEnd(t, s)
	var ve *rootsrt.ValidationError
	if !errors.As(err, &ve) || ve.Type != "RootSet" {
		t.Fatalf("error %v is not a *ValidationError of RootSet", err)
	}
	want := `RootSet: roots[1].uri: host "evil.com": a root must be on this machine (file:///path or file://localhost/path); ` +
		`roots[2].uri: %2F (an encoded /) is not allowed: it would hide a separator inside a name; ` +
		`roots[3].uri: scheme "http" is not allowed here (want file)`
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
}

// TestRootSetCheck: a root the revision's check refuses is left out and
// reported where the check put it, though its URI is fine; the valid
// roots are kept in the order given, with all their members.
func TestRootSetCheck(t *testing.T) {
	roots := []testRoot{{URI: "file:///a", Name: "a"}, {URI: "file:///b", Name: "bad"}, {URI: "file:///c", Name: "c"}}
	check := func(r *testRoot, v *rtimpl.Validator, at *rtimpl.Path) {
		if r.Name == "bad" {
			v.Add(at.Member("name"), "a bad name")
		}
	}
	s, err := rootsrt.NewRootSetOf(roots, testRootURI, check, rootsrt.WindowsPaths(false))
	closeAtEnd(t, s)
	if err == nil || err.Error() != "RootSet: roots[1].name: a bad name" {
		t.Errorf("error %v; want roots[1].name reported", err)
	}
	if got := s.Roots(); !slices.Equal(got, []testRoot{roots[0], roots[2]}) {
		t.Errorf("Roots() = %v", got)
	}
	if s.Contains("/b/x") || !s.Contains("/c/x") {
		t.Error("the refused root is in the set, or a kept one is not")
	}
	if r, ok := s.Which("/c/x"); !ok || r.Name != "c" {
		t.Errorf("Which(/c/x) = %+v, %v", r, ok)
	}
	// Roots and Dirs are the caller's copies.
	got := s.Roots()
	got[0].URI = "file:///changed"
	dirs := s.Dirs()
	dirs[0] = "/changed"
	if s.Roots()[0].URI != "file:///a" || s.Dirs()[0] != "/a" {
		t.Error("changing what Roots or Dirs returned changed the set")
	}
}

// TestRootSetSymlinks: WhichResolved sees through links, on a real tree.
func TestRootSetSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the link tree is built with POSIX paths; the Windows rules are covered by TestRootSetWindows")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkdir := func(p string) {
		if err := os.MkdirAll(filepath.Join(base, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Fatal(err)
		}
	}
	mkdir("root/sub")
	mkdir("outside")
	mkdir("realroot/d")
	if err := os.WriteFile(filepath.Join(base, "outside/secret"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link(filepath.Join(base, "outside"), "root/out")      // absolute link out
	link("../outside/secret", "root/rel-out")             // relative link out
	link("sub", "root/in")                                // link that stays in
	link("loop2", "root/loop1")                           // loop
	link("loop1", "root/loop2")                           //
	link(filepath.Join(base, "nowhere"), "root/dangling") // link to nothing
	link("sub/made", "root/dangling-in")                  // link to nothing yet, inside
	link(filepath.Join(base, "realroot"), "linkroot")     // a root that is a link
	link(filepath.Join(base, "root"), "outside/back-in")  // a link from outside into the root
	// at joins as text: filepath.Join would clean the ".." names away.
	at := func(p string) string { return base + "/" + p }

	type want struct {
		in  string // "" for none
		err bool
	}
	lexicalRoot, linkRoot := fileURI(at("root")), fileURI(at("linkroot"))
	s := mustSet(t, []string{lexicalRoot, linkRoot})
	r, bad, err := newSet([]string{lexicalRoot, linkRoot, fileURI(at("missing")), fileURI(at("root/loop1")), fileURI(at("root/dangling"))}, rootsrt.ResolveSymlinks())
	closeAtEnd(t, r)
	if want := []string{"roots[2].uri", "roots[3].uri", "roots[4].uri"}; !slices.Equal(bad, want) {
		t.Fatalf("ResolveSymlinks refused %q, want %q (%v)", bad, want, err)
	}
	check := func(set string, v *testSet, p string, w want) {
		t.Helper()
		got, ok, err := v.WhichResolved(p)
		if (err != nil) != w.err || got.URI != w.in || ok != (w.in != "") {
			t.Errorf("%s: WhichResolved(%s) = %q, %v, %v; want %q, error %v", set, p, got.URI, ok, err, w.in, w.err)
		}
	}
	for _, c := range []struct {
		p               string
		lexical, linked want // without and with ResolveSymlinks
	}{
		{at("root/sub"), want{in: lexicalRoot}, want{in: lexicalRoot}},
		{at("root/in"), want{in: lexicalRoot}, want{in: lexicalRoot}},
		{at("root/in/new"), want{in: lexicalRoot}, want{in: lexicalRoot}},
		{at("root/out/secret"), want{}, want{}},
		{at("root/out"), want{}, want{}},
		{at("root/rel-out"), want{}, want{}},
		{at("root/out/new-file"), want{}, want{}},
		{at("root/sub/../out/secret"), want{}, want{}},
		{at("outside/back-in/sub"), want{}, want{}}, // through a name outside the roots
		{at("root/loop1"), want{err: true}, want{err: true}},
		{at("root/loop1/x"), want{err: true}, want{err: true}},
		{at("root/dangling"), want{}, want{}}, // creating it would create base/nowhere
		{at("root/dangling/x"), want{}, want{}},
		{at("root/dangling-in"), want{in: lexicalRoot}, want{in: lexicalRoot}}, // creates root/sub/made
		{at("root/in/../sub"), want{in: lexicalRoot}, want{in: lexicalRoot}},   // .. of root/sub is root
		{at("root/out/../secret"), want{}, want{}},                             // .. of outside is base
		{at("root/new-dir/new-file"), want{in: lexicalRoot}, want{in: lexicalRoot}},
		{at("root/sub/secret\x00"), want{}, want{}},
		{at("linkroot/d"), want{in: linkRoot}, want{in: linkRoot}}, // written under the root that is a link
		{at("linkroot/new"), want{in: linkRoot}, want{in: linkRoot}},
		{at("realroot/d"), want{}, want{in: linkRoot}},
		{at("outside"), want{}, want{}},
		{"root/sub", want{}, want{}},
	} {
		check("lexical roots", s, c.p, c.lexical)
		check("resolved roots", r, c.p, c.linked)
	}
	// Contains stays lexical: it sees the link's name, not its target.
	if !s.Contains(at("root/out/secret")) || s.Contains(at("realroot/d")) || !r.Contains(at("linkroot/d")) || r.Contains(at("realroot/d")) {
		t.Error("Contains is not the lexical check")
	}
	// Windows paths cannot be resolved here.
	w, bad, _ := newSet([]string{"file:///C:/x"}, rootsrt.WindowsPaths(true), rootsrt.ResolveSymlinks())
	closeAtEnd(t, w)
	if !slices.Equal(bad, []string{"roots[0].uri"}) {
		t.Errorf("ResolveSymlinks with Windows paths on %s refused %q", runtime.GOOS, bad)
	}
	if _, _, err := w.WhichResolved(`C:\x\y`); err == nil {
		t.Errorf("WhichResolved of a Windows path on %s: no error", runtime.GOOS)
	}
}

// TestRootSetDenyUnreadable: a permission error while resolving is an error, not an answer.
func TestRootSetDenyUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs POSIX permissions and a user they apply to (not root)")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(base, "locked")
	if err := os.MkdirAll(filepath.Join(locked, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	s := mustSet(t, []string{fileURI(base)})
	if got, ok, err := s.WhichResolved(filepath.Join(locked, "d/x")); err == nil || ok {
		t.Errorf("WhichResolved under an unreadable directory = %q, %v, %v; want an error", got.URI, ok, err)
	}
}

// FuzzRootSet checks the invariants of the POSIX check for any root URI and
// path, and, for Windows paths, that NUL never gets in, that "/" and "\"
// mean the same and that the drive letter's case does not matter:
//   - a path inside is, cleaned, the root's path (as net/url reads the URI)
//     or under it on a separator boundary;
//   - a path with NUL is inside nothing (even where Clean would drop the
//     name that holds it); any other p gets the answer Clean(p) gets;
//   - Which agrees with Contains, and a valid root contains its own URI.
func FuzzRootSet(f *testing.F) {
	for _, r := range posixRoots {
		f.Add(r, "/srv/a/b/x")
	}
	for _, c := range posixCases {
		if len(c.p) < 200 {
			f.Add("file:///srv/a/b", c.p)
		}
	}
	for _, c := range posixURICases {
		f.Add(c.p, "/srv/a/b/c")
	}
	for _, c := range windowsCases {
		f.Add("file:///C:/Users/me/proj", c.p)
	}
	f.Add("file:///", "/x")
	f.Add("file:///a/b/", "/a/b/../b/./c")
	f.Fuzz(func(t *testing.T, rootURI, p string) {
		s, _, err := newSet([]string{rootURI}, rootsrt.WindowsPaths(false))
		closeAtEnd(t, s)
		in := s.Contains(p)
		if r, ok := s.Which(p); ok != in || ok && r.URI != rootURI {
			t.Fatalf("Which(%q) = %q, %v; Contains = %v", p, r.URI, ok, in)
		}
		if strings.IndexByte(p, 0) < 0 && in != s.Contains(path.Clean(p)) {
			t.Fatalf("Contains(%q) = %v but Contains(Clean) = %v", p, in, !in)
		}
		if in && strings.IndexByte(p, 0) >= 0 {
			t.Fatalf("root %q contains %q, which has a NUL", rootURI, p)
		}
		if err == nil && !s.ContainsURI(rootURI) {
			t.Fatalf("root %q does not contain its own URI", rootURI)
		}
		if in {
			u, uerr := url.Parse(rootURI)
			if uerr != nil || u.Scheme != "file" || u.Host != "" && !strings.EqualFold(u.Host, "localhost") || u.RawQuery != "" || u.Fragment != "" {
				t.Fatalf("accepted root %q; net/url reads it as %#v (%v)", rootURI, u, uerr)
			}
			rp, cp := path.Clean(u.Path), path.Clean(p)
			if !(cp == rp || strings.HasPrefix(cp, rp+"/") || rp == "/" && strings.HasPrefix(cp, "/")) {
				t.Fatalf("root %q (path %q) contains %q (cleaned %q)", rootURI, rp, p, cp)
			}
		}
		w, _, _ := newSet([]string{rootURI}, rootsrt.WindowsPaths(true))
		closeAtEnd(t, w)
		win := w.Contains(p)
		if win && (strings.IndexByte(p, 0) >= 0 || len(p) < 3 || p[1] != ':' || p[2] != '\\' && p[2] != '/') {
			t.Fatalf("Windows root %q contains %q", rootURI, p)
		}
		// Both separators mean the same, and so do both cases of the drive letter.
		if other := strings.ReplaceAll(p, "/", `\`); w.Contains(other) != win {
			t.Fatalf("Windows root %q: Contains(%q) = %v, Contains(%q) = %v", rootURI, p, win, other, !win)
		}
		if len(p) > 0 && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z') {
			if other := string(p[0]^0x20) + p[1:]; w.Contains(other) != win {
				t.Fatalf("Windows root %q: Contains(%q) = %v, Contains(%q) = %v", rootURI, p, win, other, !win)
			}
		}
		w.ContainsURI(p)
	})
}

// TestRootSetBounds: the server's directories narrow the client's roots.
// A root that holds a bound is narrowed to it, a root inside a bound is
// kept whole, a root that overlaps none is refused by index, and a bound
// that is not an absolute path is refused as bounds[i].
func TestRootSetBounds(t *testing.T) {
	roots := []string{"file:///", "file:///srv/data/proj", "file:///home/me", "file:///srv", "file:///opt/x/y"}
	s, bad, err := newSet(roots, rootsrt.WindowsPaths(false), rootsrt.Bounds("/srv/data", "/opt/x"), rootsrt.Bounds("relative", "/srv/data/../data/"))
	closeAtEnd(t, s)
	if want := []string{"bounds[2]", "roots[2].uri"}; !slices.Equal(bad, want) {
		t.Fatalf("refused %q, want %q (%v)", bad, want, err)
	}
	if got, want := s.Dirs(), []string{"/srv/data", "/opt/x", "/srv/data/proj", "/opt/x/y"}; !slices.Equal(got, want) {
		t.Errorf("Dirs() = %q, want %q", got, want)
	}
	for _, c := range []struct{ p, root string }{
		{"/srv/data", "file:///"},
		{"/srv/data/a/b", "file:///"},
		{"/srv/data/proj/x", "file:///srv/data/proj"},
		{"/opt/x/z", "file:///"},
		{"/opt/x/y/z", "file:///opt/x/y"},
		{"/srv/datax", ""},
		{"/srv/other", ""},
		{"/srv", ""},
		{"/", ""},
		{"/home/me/x", ""},
		{"/srv/data/../other", ""},
	} {
		got, ok := whichURI(s, c.p)
		if got != c.root || ok != (c.root != "") {
			t.Errorf("Which(%q) = %q, %v; want %q", c.p, got, ok, c.root)
		}
	}
	// Bounds with no directory allow nothing.
	none, bad, _ := newSet([]string{"file:///"}, rootsrt.WindowsPaths(false), rootsrt.Bounds())
	closeAtEnd(t, none)
	if none.Contains("/srv/data") || !slices.Equal(bad, []string{"roots[0].uri"}) {
		t.Errorf("empty Bounds: refused %q, contains /srv/data: %v", bad, none.Contains("/srv/data"))
	}
	// Windows bounds compare like Windows roots.
	w, bad, _ := newSet([]string{"file:///C:/"}, rootsrt.WindowsPaths(true), rootsrt.Bounds(`c:\srv`))
	closeAtEnd(t, w)
	if len(bad) != 0 || !w.Contains(`C:\srv\x`) || w.Contains(`C:\other`) {
		t.Errorf("Windows bounds: refused %q, C:\\srv\\x in: %v, C:\\other in: %v", bad, w.Contains(`C:\srv\x`), w.Contains(`C:\other`))
	}
}
