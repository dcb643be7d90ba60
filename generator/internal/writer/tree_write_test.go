package writer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The tree tests write trees shaped as a kit's: a front package at the
// top, a runtime in rootsrt/ with an internal package, and one package
// per revision. oldTree and newTree differ as a kit upgrade does: a
// revision dropped, one added, a runtime file changed, the runtime's
// internal package dropped, a front file added.

var (
	kitMu       sync.Mutex
	kitPackages = map[string][]File{}
)

// kitDir is the directory, and package name, of a revision in a tree.
func kitDir(revision string) string {
	return "roots" + strings.ReplaceAll(revision, "-", "")
}

// kitPackage is a revision's generated package, its names in kitDir.
func kitPackage(t testing.TB, revision string) []File {
	t.Helper()
	kitMu.Lock()
	defer kitMu.Unlock()
	if files, ok := kitPackages[revision]; ok {
		return files
	}
	files := fakePackage(revision, kitDir(revision))
	for i := range files {
		files[i].Name = kitDir(revision) + "/" + files[i].Name
	}
	kitPackages[revision] = files
	return files
}

// kitFile is a small generated file of package pkg.
func kitFile(name, pkg, body string) File {
	return File{Name: name, Content: []byte(headerPrefix + "test. DO NOT EDIT.\n\npackage " + pkg + "\n\n" + body + "\n")}
}

// oldTree and newTree are two kits' trees. The front files come last, so
// that a write renames them last.
func oldTree(t testing.TB) []File {
	files := []File{
		kitFile("rootsrt/rootset.go", "rootsrt", "const Version = 1"),
		kitFile("rootsrt/conn.go", "rootsrt", "type Conn struct{}"),
		kitFile("rootsrt/internal/wire.go", "wire", "type Frame []byte"),
	}
	files = append(files, kitPackage(t, "2025-06-18")...)
	files = append(files, kitPackage(t, "2025-11-25")...)
	return append(files, kitFile("mcproots.go", "mcproots", "// Package mcproots."))
}

func newTree(t testing.TB) []File {
	files := []File{
		kitFile("rootsrt/rootset.go", "rootsrt", "const Version = 2"),
		kitFile("rootsrt/conn.go", "rootsrt", "type Conn struct{}"),
	}
	files = append(files, kitPackage(t, "2025-11-25")...)
	files = append(files, kitPackage(t, "2026-07-28")...)
	return append(files,
		kitFile("mcproots.go", "mcproots", "// Package mcproots."),
		kitFile("versions.go", "mcproots", "var Versions = []string{}"))
}

// Replacing oldTree by newTree makes one directory (roots20260728) and
// removes two (roots20250618, rootsrt/internal).
const treeMkdirs, treeRmdirs = 1, 2

// snapshot lists what is below dir: each directory as "dir", each
// symbolic link as "link to" its target, each file as its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			got[rel] = "link to " + target
			return err
		case d.IsDir():
			got[rel] = "dir"
		default:
			data, err := os.ReadFile(p)
			got[rel] = string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// treeOf is the snapshot of a directory that holds files, plus extra.
func treeOf(files []File, extra map[string]string) map[string]string {
	want := map[string]string{}
	for _, f := range files {
		want[f.Name] = string(f.Content)
		for _, d := range parentDirs(f.Name) {
			want[d] = "dir"
		}
	}
	for name, v := range extra {
		want[name] = v
	}
	return want
}

// wantSnapshot fails unless dir's snapshot is want, naming what differs.
func wantSnapshot(t *testing.T, dir string, want map[string]string, where string) {
	t.Helper()
	got := snapshot(t, dir)
	var diffs []string
	for name, v := range got {
		if w, ok := want[name]; !ok {
			diffs = append(diffs, "unexpected "+name)
		} else if w != v {
			diffs = append(diffs, "different "+name)
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			diffs = append(diffs, "missing "+name)
		}
	}
	if len(diffs) > 0 {
		slices.Sort(diffs)
		t.Fatalf("%s: %s", where, strings.Join(diffs, ", "))
	}
}

// writtenDir is a new directory that Write wrote files into.
func writtenDir(t *testing.T, files []File) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

// treeChanges counts the files that writing new over old stages and the
// ones it removes.
func treeChanges(t *testing.T, old, new []File) (staged, removed int) {
	t.Helper()
	changes, err := Diff(writtenDir(t, old), new)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Kind == "remove" {
			removed++
		} else {
			staged++
		}
	}
	return staged, removed
}

// wantTree checks that dir holds exactly files, in their directories, and
// nothing of a write in progress, and that Diff agrees.
func wantTree(t *testing.T, dir string, files []File, where string) {
	t.Helper()
	wantSnapshot(t, dir, treeOf(files, nil), where)
	if changes, err := Diff(dir, files); err != nil || len(changes) > 0 {
		t.Fatalf("%s: Diff: %v %v", where, changes, err)
	}
}

func names(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

func changeStrings(changes []Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.String())
	}
	return out
}

// TestWriteTreeFromNothing: a tree written where nothing is, two levels
// of missing parents above it, is created whole, each change named by its
// path below the top.
func TestWriteTreeFromNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "mcproots")
	files := oldTree(t)
	changes, err := Write(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range files {
		want = append(want, "create "+f.Name)
	}
	if got := changeStrings(changes); !slices.Equal(got, want) {
		t.Errorf("changes\n got %q\nwant %q", got, want)
	}
	wantTree(t, dir, files, "written from nothing")
	if changes, err := Write(dir, files); err != nil || len(changes) > 0 {
		t.Errorf("writing it again: %v %v", changes, err)
	}
}

// TestWriteTreeReplaces replaces a tree by the next kit's and back: the
// dropped directories go, with their files, the new one comes, the
// changed file is updated and the rest is left alone.
func TestWriteTreeReplaces(t *testing.T) {
	old, new := oldTree(t), newTree(t)
	dir := writtenDir(t, old)
	before, err := os.Stat(filepath.Join(dir, "roots20251125", "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Diff(dir, new)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := Write(dir, new)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changes, want) {
		t.Errorf("Write's changes\n%q\ndiffer from Diff's\n%q", changeStrings(changes), changeStrings(want))
	}
	wantTree(t, dir, new, "the new tree")
	after, err := os.Stat(filepath.Join(dir, "roots20251125", "types.go"))
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("a file that did not change was replaced (%v)", err)
	}
	if _, err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	wantTree(t, dir, old, "the old tree again")
}

// TestDiffTree: Diff names each change by its path below the top,
// including the stale files of the directories the new tree drops.
func TestDiffTree(t *testing.T) {
	old, new := oldTree(t), newTree(t)
	dir := writtenDir(t, old)
	changes, err := Diff(dir, new)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range kitPackage(t, "2026-07-28") {
		want = append(want, "create "+f.Name)
	}
	want = append(want, "create versions.go")
	stale := names(kitPackage(t, "2025-06-18"))
	slices.Sort(stale)
	for _, name := range append(stale, "rootsrt/internal/wire.go") {
		want = append(want, "remove "+name)
	}
	got := changeStrings(changes)
	if len(got) == 0 || !strings.HasPrefix(got[0], "update rootsrt/rootset.go (") {
		t.Fatalf("changes %q, want the update of rootsrt/rootset.go first", got)
	}
	if !slices.Equal(got[1:], want) {
		t.Errorf("changes after the update\n got %q\nwant %q", got[1:], want)
	}
	wantTree(t, dir, old, "after Diff")

	// Where nothing is, everything is to be created, named as given.
	changes, err = Diff(filepath.Join(dir, "missing"), new)
	if err != nil || len(changes) != len(new) || changes[0].String() != "create rootsrt/rootset.go" {
		t.Errorf("Diff of a missing directory: %q %v", changeStrings(changes), err)
	}
}

// TestWriteTreeForeignFiles: a directory the new tree drops but that holds
// a file rootsgen did not write is kept, with that file, and loses only
// rootsgen's files; a directory with nothing of rootsgen's, even empty,
// a hidden one and one deeper than names go are not rootsgen's and are
// left alone; and a file rootsgen did not write where the tree puts one
// is refused, with nothing changed.
func TestWriteTreeForeignFiles(t *testing.T) {
	old, new := oldTree(t), newTree(t)
	dir := writtenDir(t, old)
	generated := headerPrefix + "elsewhere. DO NOT EDIT.\n\npackage x\n"
	extra := map[string]string{
		"roots20250618/notes.go":   "package roots20250618 // by hand\n",
		"rootsrt/internal/README":  "by hand\n",
		"empty":                    "dir",
		"mine":                     "dir",
		"mine/mine.go":             "package mine\n",
		".cache":                   "dir",
		".cache/types.go":          generated,
		"deep":                     "dir",
		"deep/a":                   "dir",
		"deep/a/b":                 "dir",
		"deep/a/b/types.go":        generated,
		"roots20251125/extra.txt":  generated,
		"roots20251125/by_hand.go": "package roots20251125\n",
	}
	for name, v := range extra {
		p := filepath.Join(dir, filepath.FromSlash(name))
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if v == "dir" {
			err = errors.Join(err, os.MkdirAll(p, 0o755))
		} else {
			err = errors.Join(err, os.WriteFile(p, []byte(v), 0o644))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	changes, err := Write(dir, new)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names(kitPackage(t, "2025-06-18")) {
		if !slices.Contains(changes, Change{Name: name, Kind: "remove"}) {
			t.Errorf("changes lack the removal of %s: %q", name, changeStrings(changes))
		}
	}
	extra["roots20250618"] = "dir"
	extra["rootsrt/internal"] = "dir"
	wantSnapshot(t, dir, treeOf(new, extra), "the new tree beside files that are not rootsgen's")

	// A foreign file in a directory of the new tree keeps it when the old
	// tree drops it; where the tree puts a file, it is refused.
	if err := os.WriteFile(filepath.Join(dir, "roots20260728", "types.go"), []byte("package roots20260728\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	extra["roots20260728"] = "dir"
	extra["roots20260728/types.go"] = "package roots20260728\n"
	wantSnapshot(t, dir, treeOf(old, extra), "the old tree beside files that are not rootsgen's")
	_, err = Write(dir, new)
	if err == nil || !strings.Contains(err.Error(), "roots20260728/types.go in the output directory was not written by rootsgen; refusing to replace it") {
		t.Errorf("Write over a foreign file: %v", err)
	}
	wantSnapshot(t, dir, treeOf(old, extra), "after the refused write")
}

// TestWriteTreeRefusesSymlinks: a directory the tree writes into that is a
// symbolic link is refused, whether it points out of the top or into it,
// by Diff and by Write, and nothing is changed; one the tree does not
// write into is not looked in.
func TestWriteTreeRefusesSymlinks(t *testing.T) {
	old, new := oldTree(t), newTree(t)
	for _, tc := range []struct {
		name, link, target, want string
	}{
		{"a written directory out of the top", "rootsrt", "OUTSIDE", "rootsrt in the output directory is a symbolic link"},
		{"a directory to create, into the top", "roots20260728", "roots20251125", "roots20260728 in the output directory is a symbolic link"},
		{"a dropped directory", "roots20250618", "OUTSIDE", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if _, err := Write(dir, old); err != nil {
				t.Fatal(err)
			}
			outside := t.TempDir()
			if err := os.CopyFS(outside, os.DirFS(filepath.Join(dir, tc.link))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(dir, tc.link)); err != nil {
				t.Fatal(err)
			}
			target := tc.target
			if target == "OUTSIDE" {
				target = outside
			}
			if err := os.Symlink(target, filepath.Join(dir, tc.link)); err != nil {
				t.Skipf("cannot create symlinks here: %v", err)
			}
			before, beforeOutside := snapshot(t, dir), snapshot(t, outside)
			_, derr := Diff(dir, new)
			_, werr := Write(dir, new)
			if tc.want == "" {
				if derr != nil || werr != nil {
					t.Fatalf("Diff: %v; Write: %v", derr, werr)
				}
				wantSnapshot(t, dir, treeOf(new, map[string]string{tc.link: "link to " + target}), "the new tree beside the link")
			} else {
				for _, err := range []error{derr, werr} {
					if err == nil || !strings.Contains(err.Error(), tc.want) {
						t.Errorf("error %v, want %q", err, tc.want)
					}
				}
				wantSnapshot(t, dir, before, "after the refused write")
			}
			wantSnapshot(t, outside, beforeOutside, "the directory the link points to")
		})
	}
}

// TestWriteTreeRefusesBadNames: a name that is not a clean relative path
// of a Go file, at most two directories deep, is refused before anything
// is made or changed.
func TestWriteTreeRefusesBadNames(t *testing.T) {
	good := kitFile("rootsrt/a/b.go", "b", "") // two deep: the deepest allowed
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{""}, "empty"},
		{[]string{"/abs.go"}, "relative"},
		{[]string{"../up.go"}, "clean"},
		{[]string{"a/../b.go"}, "clean"},
		{[]string{"./a.go"}, "clean"},
		{[]string{"a/./b.go"}, "clean"},
		{[]string{"a//b.go"}, "empty element"},
		{[]string{"a/"}, "directory"},
		{[]string{"a/b.go/"}, "directory"},
		{[]string{`a\b.go`}, "backslash"},
		{[]string{"a\x00.go"}, "NUL"},
		{[]string{"a/b/c/d.go"}, "more than 2 directories deep"},
		{[]string{".hidden/a.go"}, "dot"},
		{[]string{"a/.b.go"}, "dot"},
		{[]string{"a/README"}, "not a Go file"},
		{[]string{"a/.go"}, "dot"},
		{[]string{"a/b.go", "a/b.go"}, "given twice"},
		{[]string{"a.go", "a.go/b.go"}, "a.go is also a file"},
	} {
		files := []File{good}
		for _, name := range tc.names {
			files = append(files, kitFile(name, "a", ""))
		}
		where := fmt.Sprintf("%q", tc.names)
		// Into a missing directory: not even that is made.
		parent := t.TempDir()
		dir := filepath.Join(parent, "out")
		for _, err := range []error{second(Diff(dir, files)), second(Write(dir, files))} {
			if err == nil || !strings.Contains(err.Error(), "bad file name") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want a bad file name, %q", where, err, tc.want)
			}
		}
		if entries, err := os.ReadDir(parent); err != nil || len(entries) != 0 {
			t.Errorf("%s: %d entries made (%v)", where, len(entries), err)
		}
		// Over a tree: the stale files stay.
		if _, err := Write(dir, []File{good, kitFile("x.go", "x", "")}); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		if _, err := Write(dir, files); err == nil {
			t.Errorf("%s: no error", where)
		}
		wantSnapshot(t, dir, before, where)
	}
}

func second[T any](_ T, err error) error { return err }

// TestWriteTreeRollsBack: a write that fails after its commit puts the old
// tree back, and removes the directory it made for the new one.
func TestWriteTreeRollsBack(t *testing.T) {
	old, new := oldTree(t), newTree(t)
	dir := writtenDir(t, old)
	changes, err := Diff(dir, new)
	if err != nil {
		t.Fatal(err)
	}
	staged := 0
	for _, c := range changes {
		if c.Kind != "remove" {
			staged++
		}
	}
	// Once the journal is written, a directory appears where the last new
	// file goes (versions.go, at the top): its rename fails, after every
	// other file is in place in the new directory.
	steps := 0
	afterStep = func() {
		if steps++; steps == staged+1 {
			if err := os.Mkdir(filepath.Join(dir, "versions.go"), 0o755); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(func() { afterStep = func() {} })
	_, err = Write(dir, new)
	if err == nil || errors.Is(err, ErrLeftChanged) {
		t.Fatalf("error %v, want the rename's, with the old tree put back", err)
	}
	if steps != staged+1+treeMkdirs+staged-1 {
		t.Errorf("%d steps before the failure, want every new file staged and all but the last renamed", steps)
	}
	wantSnapshot(t, dir, treeOf(old, map[string]string{"versions.go": "dir"}), "after the failed write")
}

// TestWriteContextStopsTree replaces a tree by another with a context
// cancelled after each step of the write in turn: up to the last file
// staged, the old tree is left whole; from the journal on, the new one is
// completed, directories made and removed included.
func TestWriteContextStopsTree(t *testing.T) {
	old, new := oldTree(t), newTree(t)
	// Stage each new file, write the journal, make each directory, rename
	// each new file, remove each stale one, remove each dropped directory.
	staged, removed := treeChanges(t, old, new)
	steps := staged + 1 + treeMkdirs + staged + removed + treeRmdirs
	for n := 0; n <= steps; n++ {
		dir := writtenDir(t, old)
		if completed, where := writeCancelled(t, dir, new, n, staged, steps); completed {
			wantTree(t, dir, new, where)
		} else {
			wantTree(t, dir, old, where)
		}
	}

	// From nothing, a write stopped before its commit leaves nothing.
	parent := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelAfterStep(t, len(new), cancel)
	if _, err := WriteContext(ctx, filepath.Join(parent, "out"), new); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if entries, err := os.ReadDir(parent); err != nil || len(entries) != 0 {
		t.Errorf("%s holds %v (%v), want nothing", parent, entries, err)
	}
}

// TestJournalOfTree: a journal that names a file or directory outside
// the tree's rules is refused before anything is changed.
func TestJournalOfTree(t *testing.T) {
	for _, j := range []string{
		`{"files":[{"name":"a/../../x.go","content":""}],"remove":[]}`,
		`{"files":[],"remove":["a/b/c/d.go"]}`,
		`{"files":[],"remove":[],"removeDirs":["../up"]}`,
		`{"files":[{"name":"ok/x.go","content":""}],"remove":[],"removeDirs":[""]}`,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, journalName), []byte(j), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Write(dir, nil)
		if err == nil || !strings.Contains(err.Error(), "left by an interrupted run, names") {
			t.Errorf("journal %s: %v", j, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("journal %s: %d entries, want the journal alone", j, len(entries))
		}
	}
}
