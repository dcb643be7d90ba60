package adaptertest

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Tree is a directory tree with two roots and hostile links out of the
// first one, for the read_file tests of the example servers:
//
//	root/in.txt        "inside"
//	root/link       -> outside/secret
//	root/in         -> outside/sub     (so root/in/../x is outside/x)
//	other/new.txt      "other"
//	outside/secret     "secret"
//	outside/x          "x outside"
type Tree struct{ Dir, Root, Other, Outside string }

// NewTree makes a Tree in a temporary directory; it skips t where
// symbolic links cannot be made.
func NewTree(t *testing.T) Tree {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the tree uses POSIX symbolic links")
	}
	dir := t.TempDir()
	tr := Tree{dir, filepath.Join(dir, "root"), filepath.Join(dir, "other"), filepath.Join(dir, "outside")}
	for _, d := range []string{tr.Root, tr.Other, tr.Outside, filepath.Join(tr.Outside, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range map[string]string{
		filepath.Join(tr.Root, "in.txt"):    "inside",
		filepath.Join(tr.Other, "new.txt"):  "other",
		filepath.Join(tr.Outside, "secret"): "secret",
		filepath.Join(tr.Outside, "x"):      "x outside",
	} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link": filepath.Join(tr.Outside, "secret"), "in": filepath.Join(tr.Outside, "sub")} {
		if err := os.Symlink(target, filepath.Join(tr.Root, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	return tr
}

// AwaitOther calls read with the path of other/new.txt until it returns
// "other" without a tool error, and fails t if ctx ends first. It is for
// after a client makes other a root: a server may hear of the change
// after the next call (a notification racing the call, or a retried call
// bringing the roots).
func (tr Tree) AwaitOther(t *testing.T, ctx context.Context, read func(path string) (text string, isErr bool)) {
	t.Helper()
	for {
		text, isErr := read(filepath.Join(tr.Other, "new.txt"))
		if !isErr && text == "other" {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("read_file in the new root still %q after the roots changed", text)
		}
	}
}

// FileURI is the file:// URI of the absolute path p.
func FileURI(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }
