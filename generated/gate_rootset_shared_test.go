package generated_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// swapDir moves dir aside and puts a new directory in its place whose
// f.txt says content: a set that opened dir before still reads the old
// one through its open directory, a new set reads the new one.
func swapDir(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.Rename(dir, dir+"."+content); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// rootDir makes a directory r whose f.txt says "one".
func rootDir(t *testing.T) (dir, f string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "r")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f = filepath.Join(dir, "f.txt")
	if err := os.WriteFile(f, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, f
}

// mustRootSet is sess.RootSet for a request without params, which must
// succeed.
func mustRootSet(t *testing.T, sess *rootsgate.Session, opts ...rootsgate.RootSetOption) *rootsgate.RootSet {
	t.Helper()
	set, err := sess.RootSet(context.Background(), nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// readsAs reads f through set and wants content.
func readsAs(t *testing.T, what string, set *rootsgate.RootSet, f, content string) {
	t.Helper()
	if data, err := set.ReadFile(f); err != nil || string(data) != content {
		t.Errorf("%s: ReadFile = %q, %v; want %q", what, data, err, content)
	}
}

// Session.RootSet on a legacy session shares one set among the calls that
// get the same cached roots and options, so its directories are opened
// once; a new answer, other options, or Session.Close give a new set; and
// closing one caller's set never closes another's. The sharing is the
// runtime's (tested in templates/rootsrt); it knows which answer a call
// got from the session's own Asker, which passes the caller's ctx on to
// Request: one legacy revision stands for every one.
func TestGateSessionRootSetShared(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	ctx := context.Background()
	for _, rev := range gateOneLegacy() {
		t.Run(rev.Version, func(t *testing.T) {
			dir, f := rootDir(t)
			peer := newGatePeer(rootsgate.Root{URI: fileURI(dir), Name: "r"})
			sess := gateSession(t, rev, peer, `{"roots":{"listChanged":true}}`)
			set1 := mustRootSet(t, sess)
			readsAs(t, "first set", set1, f, "one")
			swapDir(t, dir, "two")
			set2 := mustRootSet(t, sess)
			readsAs(t, "second set, same cached roots", set2, f, "one")
			if err := set1.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := set1.ReadFile(f); !errors.Is(err, fs.ErrClosed) {
				t.Errorf("ReadFile on a closed set: %v, want fs.ErrClosed", err)
			}
			if err := set1.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			readsAs(t, "second set, after the first was closed", set2, f, "one")
			bounded := mustRootSet(t, sess, rootsgate.Bounds(dir))
			readsAs(t, "set with other options", bounded, f, "two")
			bounded.Close()
			if n := peer.asks.Load(); n != 1 {
				t.Errorf("%d roots/list requests, want 1", n)
			}

			if rev.ListChanged {
				if err := sess.HandleNotification(ctx, "notifications/roots/list_changed", nil); err != nil {
					t.Fatal(err)
				}
			} else {
				sess.Invalidate()
			}
			fresh := mustRootSet(t, sess)
			readsAs(t, "set after the roots changed", fresh, f, "two")
			readsAs(t, "older set, still held", set2, f, "one")
			if err := set2.Close(); err != nil {
				t.Fatal(err)
			}

			swapDir(t, dir, "three")
			if err := sess.Close(); err != nil {
				t.Fatal(err)
			}
			readsAs(t, "set held across Session.Close", fresh, f, "two")
			fresh.Close()
			after := mustRootSet(t, sess)
			readsAs(t, "set after Session.Close", after, f, "three")
			after.Close()
			if n := peer.asks.Load(); n != 2 {
				t.Errorf("%d roots/list requests, want 2", n)
			}

			// A client that announces no change is asked on every call:
			// every call gets a set of its own.
			peer = newGatePeer(rootsgate.Root{URI: fileURI(dir), Name: "r"})
			sess = gateSession(t, rev, peer, `{"roots":{}}`)
			a := mustRootSet(t, sess)
			readsAs(t, "unkept answer", a, f, "three")
			swapDir(t, dir, "four")
			b := mustRootSet(t, sess)
			readsAs(t, "next unkept answer", b, f, "four")
			a.Close()
			b.Close()
		})
	}
}
