package writer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crashRevisions are the two packages the write tests replace one by the
// other; their files differ, so a mix of them shows.
var crashRevisions = []string{"2025-06-18", "2026-07-28"}

// generateFor is a package as rootsgen writes one for revision, as far as
// the writer can tell: Go files with rootsgen's header, some of them in
// every revision's package with contents of its own, some only in its.
func generateFor(t testing.TB, revision string) []File {
	t.Helper()
	return fakePackage(revision, "crash")
}

// fakePackage is generateFor's package, named pkg.
func fakePackage(revision, pkg string) []File {
	names := map[string][]string{
		"2025-06-18": {"doc.go", "types.go", "json.go", "validate.go", "roots.go", "rootset.go"},
		"2025-11-25": {"doc.go", "types.go", "json.go", "roots.go"},
		"2026-07-28": {"doc.go", "types.go", "inputs.go", "gate.go", "runtime.go"},
	}[revision]
	var files []File
	for i, name := range names {
		body := fmt.Sprintf("// Revision %s, file %d.\nconst %s = %q\n", revision, i, strings.TrimSuffix(name, ".go")+"Revision", revision)
		// Some size, so that a file written in part would show.
		body += "\nvar filler = `" + strings.Repeat(revision+" ", 2000) + "`\n"
		files = append(files, File{Name: name, Content: []byte(headerPrefix + revision + ". DO NOT EDIT.\n\npackage " + pkg + "\n\n" + body)})
	}
	return files
}

// wantWhole checks that dir holds exactly files, and nothing of a write
// in progress: no journal, no temporary file.
func wantWhole(t *testing.T, dir string, files []File, where string) {
	t.Helper()
	if changes, err := Diff(dir, files); err != nil || len(changes) > 0 {
		t.Fatalf("%s: the directory is not the package: %v %v", where, changes, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("%s: %d entries, want the %d files: %s", where, len(entries), len(files), strings.Join(names, " "))
	}
}

// writeCancelled writes new over dir with WriteContext, its context
// cancelled after step n of steps (0: before the call), and checks what
// it returns: context.Canceled and no changes up to step staged, the
// change completed after. It says which, and where, for messages.
func writeCancelled(t *testing.T, dir string, new []File, n, staged, steps int) (completed bool, where string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if n == 0 {
		cancel()
	} else {
		cancelAfterStep(t, n, cancel)
	}
	changes, err := WriteContext(ctx, dir, new)
	cancel()
	where = fmt.Sprintf("cancelled after step %d of %d", n, steps)
	if n <= staged {
		if !errors.Is(err, context.Canceled) || changes != nil {
			t.Fatalf("%s: changes %v, error %v; want context.Canceled and no changes", where, changes, err)
		}
		return false, where
	}
	if err != nil || len(changes) == 0 {
		t.Fatalf("%s: changes %v, error %v; want the change completed", where, changes, err)
	}
	return true, where
}

// cancelAfterStep makes Write cancel ctx after its step n (0: never), for
// the rest of the test.
func cancelAfterStep(t *testing.T, n int, cancel context.CancelFunc) {
	steps := 0
	afterStep = func() {
		steps++
		if steps == n {
			cancel()
		}
	}
	t.Cleanup(func() { afterStep = func() {} })
}

// TestWriteContextStops replaces one package by the other with a context
// cancelled after each step of the write in turn: up to the last file
// staged, the write stops and leaves the old package; from the journal on,
// it has committed and completes the new one. Either way nothing else is
// left in the directory.
func TestWriteContextStops(t *testing.T) {
	old, new := generateFor(t, crashRevisions[0]), generateFor(t, crashRevisions[1])
	// Replacing old by new stages each file of new, writes the journal,
	// renames each file of new and removes each file of old it lacks.
	staged := len(new)
	steps := staged + 1 + len(new)
	for _, f := range old {
		if !containsFile(new, f.Name) {
			steps++
		}
	}
	for n := 0; n <= steps; n++ {
		dir := writtenDir(t, old)
		if completed, where := writeCancelled(t, dir, new, n, staged, steps); completed {
			wantWhole(t, dir, new, where)
		} else {
			wantWhole(t, dir, old, where)
		}
	}
}

// TestWriteContextStopsInNewDirectory: a write stopped before it commits
// removes the directories it created for dir.
func TestWriteContextStopsInNewDirectory(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "a", "b")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelAfterStep(t, 1, cancel)
	if _, err := WriteContext(ctx, dir, generateFor(t, crashRevisions[0])); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if entries, err := os.ReadDir(parent); err != nil || len(entries) != 0 {
		t.Errorf("%s holds %v (%v), want nothing", parent, entries, err)
	}
}

// TestWriteContextStopsWaitingForLock: a write waiting for another
// process's lock gives up when its context is done, saying both, and
// changes nothing.
func TestWriteContextStopsWaitingForLock(t *testing.T) {
	dir := lockedDir(t, time.Hour) // longer than the test's timeout
	files := generateFor(t, crashRevisions[0])
	// Cancelled once WriteContext waits: it gets to the lock in far less.
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel(errors.New("the user pressed ^C")) })
	_, err := WriteContext(ctx, dir, files)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "the user pressed ^C") {
		t.Errorf("error %v, want context.Canceled, its cause and ErrLocked", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d entries written", len(entries))
	}
}

func containsFile(files []File, name string) bool {
	for _, f := range files {
		if f.Name == name {
			return true
		}
	}
	return false
}
