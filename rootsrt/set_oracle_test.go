package rootsrt_test

// What lies outside the roots must not change a RootSet's answer: probes
// that once told an existing name outside from a missing one, a link from
// a directory, through the walk a path takes, the kind of refusal, or the
// roots a set with Bounds keeps.

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// oracleTree: base/root (the root, holding f), and outside it base/outside/dir
// (a directory), base/outside/file, base/outside/link -> dir.
func oracleTree(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"root", "outside/dir", "client/proj", "client/other"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"root/f", "outside/file", "client/proj/f"} {
		if err := os.WriteFile(filepath.Join(base, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "outside/dir"), filepath.Join(base, "outside/link")); err != nil {
		t.Fatal(err)
	}
	return base
}

func oracleOutcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, rootsrt.ErrOutsideRoots):
		return "outside-roots"
	case errors.Is(err, rootsrt.ErrOutsideBounds):
		return "outside-bounds"
	}
	msg := err.Error()
	if len(msg) > 160 {
		msg = msg[:60] + "..." + msg[len(msg)-90:]
	}
	return "other: " + msg
}

// A ".." walk through a name outside the roots that would land back
// inside is refused, whether that name is a directory, a file or missing:
// otherwise it tells which directories exist outside.
func TestRootSetNoOracleDotDot(t *testing.T) {
	base := oracleTree(t)
	s := mustSet(t, []string{fileURI(base + "/root")})
	probe := func(name string) string {
		_, err := s.Stat(base + "/outside/" + name + "/../../root/f")
		return oracleOutcome(err)
	}
	dir, missing, file := probe("dir"), probe("missing"), probe("file")
	t.Logf("dir=%s missing=%s file=%s", dir, missing, file)
	if dir != missing || dir != file {
		t.Errorf("outcome depends on what exists outside the root: dir=%s missing=%s file=%s", dir, missing, file)
	}
	// Same through WhichResolved: (true, nil) vs (false, nil).
	_, okDir, _ := s.WhichResolved(base + "/outside/dir/../../root/f")
	_, okMiss, _ := s.WhichResolved(base + "/outside/missing/../../root/f")
	if okDir != okMiss {
		t.Errorf("WhichResolved: dir=%v missing=%v", okDir, okMiss)
	}
}

// A walk that would count links met outside the roots is refused before
// it counts them: the loop error would tell whether a name outside is a
// symbolic link (and how many links its resolution takes).
func TestRootSetNoOracleLinkCount(t *testing.T) {
	base := oracleTree(t)
	s := mustSet(t, []string{fileURI(base + "/root")})
	rel := strings.TrimPrefix(base, "/")
	probe := func(name string) string {
		// Each repetition visits base/outside/<name> and climbs back to "/".
		rep := rel + "/outside/" + name + "/" + strings.Repeat("../", 64)
		p := "/" + strings.Repeat(rep, 41) + rel + "/root/f"
		_, err := s.Stat(p)
		return oracleOutcome(err)
	}
	link, dir, missing := probe("link"), probe("dir"), probe("missing")
	t.Logf("link=%s dir=%s missing=%s", link, dir, missing)
	if link != dir || dir != missing {
		t.Errorf("outcome depends on what is outside: link=%q dir=%q missing=%q", link, dir, missing)
	}
}

// With Bounds, the kind of refusal (outside the bounds, or outside the
// client's roots) depends on the path as written, not on where a walk
// through names outside would have broken off.
func TestRootSetNoOracleRefusalKind(t *testing.T) {
	base := oracleTree(t)
	s := mustSet(t, []string{fileURI(base + "/client")}, rootsrt.Bounds(base+"/client/proj"))
	probe := func(name string) string {
		_, err := s.Stat(base + "/outside/" + name + "/../../client/other/x")
		return oracleOutcome(err)
	}
	dir, missing := probe("dir"), probe("missing")
	t.Logf("dir=%s missing=%s", dir, missing)
	if dir != missing {
		t.Errorf("refusal kind depends on whether %s/outside/dir exists: dir=%s missing=%s", base, dir, missing)
	}
	// Also: a name outside the client's roots that is a link into them.
	if err := os.Symlink(base+"/client/other", base+"/outside/intoclient"); err != nil {
		t.Fatal(err)
	}
	a, b := oracleOutcome(func() error { _, err := s.Stat(base + "/outside/intoclient"); return err }()),
		oracleOutcome(func() error { _, err := s.Stat(base + "/outside/file"); return err }())
	t.Logf("link-into-client=%s plain-file=%s", a, b)
	if a != b {
		t.Errorf("refusal kind tells a link outside from a file outside: %s vs %s", a, b)
	}
}

// A client root inside the server's Bounds that goes through a link
// leading out is left out alike whether the name under the link exists or
// not, with a message that names no path outside, with or without
// ResolveSymlinks; the file methods under it answer alike too.
func TestRootSetNoOracleBoundsRoot(t *testing.T) {
	base := oracleTree(t)
	if err := os.Symlink(base+"/outside", base+"/root/out"); err != nil {
		t.Fatal(err)
	}
	for _, resolve := range []bool{false, true} {
		opts := []rootsrt.RootSetOption{rootsrt.Bounds(base + "/root")}
		if resolve {
			opts = append(opts, rootsrt.ResolveSymlinks())
		}
		probe := func(name string) (string, string) {
			s, _, err := newSet([]string{fileURI(base + "/root"), fileURI(base + "/root/out/" + name)}, opts...)
			closeAtEnd(t, s)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			_, serr := s.Stat(base + "/root/out/" + name + "/x")
			return msg, oracleOutcome(serr)
		}
		m1, o1 := probe("dir")
		m2, o2 := probe("missing")
		t.Logf("resolve=%v\n dir:     %q %s\n missing: %q %s", resolve, m1, o1, m2, o2)
		if o1 != o2 {
			t.Errorf("resolve=%v: Stat under the root tells dir (%s) from missing (%s)", resolve, o1, o2)
		}
		if m1 != m2 {
			t.Errorf("resolve=%v: NewRootSetOf tells dir from missing:\n %q\n %q", resolve, m1, m2)
		}
		if strings.Contains(m2, base+"/outside") {
			t.Errorf("resolve=%v: message names a path outside the bounds: %q", resolve, m2)
		}
	}
}

// TestRootSetNoOracleSwapRace: a directory inside the root is swapped for
// a link out and back while the walk of a path through it runs (the
// walk's own race, not a request's). The walk looks each name up in the
// directory it holds, so no answer says whether a name exists outside:
// a name that exists there is never found, and never answered otherwise
// than a missing one is (once resolved outside, "present/.." was found and
// "present" then refused as an escape). Statistical: it ran the old walk
// into the outside dozens of times a second.
func TestRootSetNoOracleSwapRace(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the swap uses POSIX links")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, out := filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{"root/d", "outside/present/x"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	d, parked, link := filepath.Join(root, "d"), filepath.Join(root, "d-parked"), filepath.Join(root, "d-link")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var swaps sync.WaitGroup
	swaps.Add(1)
	go func() {
		defer swaps.Done()
		for !stop.Load() {
			os.Rename(d, parked)
			os.Rename(link, d)
			os.Rename(d, link)
			os.Rename(parked, d)
		}
	}()
	defer func() { stop.Store(true); swaps.Wait() }()
	budget := 2 * time.Second
	if testing.Short() {
		budget = 300 * time.Millisecond
	}
	for _, opts := range [][]rootsrt.RootSetOption{nil, {rootsrt.Bounds(root)}, {rootsrt.ResolveSymlinks()}} {
		s := mustSet(t, []string{fileURI(root)}, opts...)
		found := map[string]int{}
		for end := time.Now().Add(budget / 3); time.Now().Before(end); {
			for _, p := range []string{"d/present/..", "d/present/x/..", "d/present/"} {
				_, err := s.Stat(root + "/" + p) // not filepath.Join, which would clean the ".." away
				if err == nil {
					found[p+" found"]++
				} else if strings.Contains(err.Error(), "escapes") {
					found[p+": "+err.Error()]++
				}
			}
		}
		s.Close()
		for what, n := range found {
			t.Errorf("with %d options: %s, %d times: the walk looked outside the root", len(opts), what, n)
		}
	}
}
