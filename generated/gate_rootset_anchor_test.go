package generated_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// The gate keeps one RootSet per roots list: on a legacy session the set of
// its cached roots, and for requests that stand alone (2026-07-28) the set
// of a list the client sends again. Between two calls, a root swapped for
// a link out of the server's directory must not move that set, on any
// revision.

// gateRetryParams are the params of a retried request under rev that
// carries roots in inputResponses under the default key.
func gateRetryParams(rev rootsgate.Revision, roots ...rootsgate.Root) json.RawMessage {
	answer, err := json.Marshal(map[string]any{rootsgate.DefaultInputKey: map[string]any{"roots": roots}})
	if err != nil {
		panic(err)
	}
	return gateParams(rev, gateCaps(rev), answer)
}

func TestGateRootSetSwapBetweenCalls(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the anchoring tree is built with POSIX links")
	}
	ctx := context.Background()
	for _, rev := range rootsgate.Revisions() {
		t.Run(rev.Version, func(t *testing.T) {
			e := newAnchorTree(t)
			root := rootsgate.Root{URI: fileURI(e.at("data/proj"))}
			peer := newGatePeer(root)
			sess := gateSession(t, rev, peer, gateCaps(rev))
			params := gateRetryParams(rev, root)
			call := func() string {
				t.Helper()
				set, err := sess.RootSet(ctx, params, rootsgate.Bounds(e.at("data")))
				if err != nil {
					t.Fatal(err)
				}
				defer set.Close()
				data, err := set.ReadFile(e.at("data/proj/f"))
				if bytes.Contains(data, []byte("SECRET")) {
					t.Fatalf("ESCAPE: read %q", data)
				}
				if err != nil {
					return err.Error()
				}
				return string(data)
			}
			if got := call(); got != "inside" {
				t.Fatalf("first call: %q", got)
			}
			e.repoint(t, "data/proj", e.at("outside/proj"))
			if got := call(); got != "inside" {
				t.Errorf("second call, after the root was swapped for a link out: %q; want the directory the kept set opened", got)
			}
			if err := sess.Close(); err != nil {
				t.Fatal(err)
			}
			// A new set, built now, must refuse the root that leads out.
			set, err := sess.RootSet(ctx, params, rootsgate.Bounds(e.at("data")))
			if err == nil {
				t.Errorf("a set built after the swap kept the root that leads out")
			}
			if set != nil {
				if data, _ := set.ReadFile(e.at("data/proj/f")); bytes.Contains(data, []byte("SECRET")) {
					t.Fatalf("ESCAPE: read %q", data)
				}
				set.Close()
			}
		})
	}
}

// TestGateListSetShared: requests that stand alone and carry the same roots
// share one set (built once: a directory swapped between them is not seen),
// and a different list gets its own.
func TestGateListSetShared(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	ctx := context.Background()
	for _, rev := range gateInputRevisions() {
		t.Run(rev.Version, func(t *testing.T) {
			dir, f := rootDir(t)
			sess := &rootsgate.Session{}
			read := func(params json.RawMessage) string {
				t.Helper()
				set, err := sess.RootSet(ctx, params)
				if err != nil {
					t.Fatal(err)
				}
				defer set.Close()
				data, err := set.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
			one := gateRetryParams(rev, rootsgate.Root{URI: fileURI(dir), Name: "r"})
			if got := read(one); got != "one" {
				t.Fatalf("first request: %q", got)
			}
			if err := os.Rename(dir, dir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("two"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := read(one); got != "one" {
				t.Errorf("the same list again: %q, want the set built for it first", got)
			}
			renamed := gateRetryParams(rev, rootsgate.Root{URI: fileURI(dir), Name: "another name"})
			if got := read(renamed); got != "two" {
				t.Errorf("a list that differs in a name: %q, want a set of its own", got)
			}
			sess.Close()
			if got := read(one); got != "two" {
				t.Errorf("after Session.Close: %q, want a new set", got)
			}
		})
	}
}

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
