//go:build linux && !mips && !mipsle && !mips64 && !mips64le

package rootsrt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenBeneathRefusesOneFile: an openat2 error about one open (here
// EINVAL, for O_PATH with O_RDWR) leaves the call to os.Root and keeps
// openat2 for every other call; only a refusal of openat2 itself (which
// opening the directory's "." tells apart) turns it off for the process.
func TestOpenBeneathRefusesOneFile(t *testing.T) {
	if noOpenat2.Load() {
		t.Skip("openat2 is off in this process: nothing to keep")
	}
	defer noOpenat2.Store(false)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fd, handled, err := openBeneath(d, "f", oPath|syscall.O_RDWR)
	if fd >= 0 {
		syscall.Close(fd)
	}
	if handled || !errors.Is(err, syscall.EINVAL) {
		t.Errorf("openBeneath with O_PATH|O_RDWR: handled %t, %v; want EINVAL, left to os.Root", handled, err)
	}
	if noOpenat2.Load() {
		t.Fatal("one file's EINVAL turned openat2 off for the process")
	}
	fd, handled, err = openBeneath(d, "f", syscall.O_RDONLY)
	if err != nil || !handled {
		t.Fatalf("openBeneath after: handled %t, %v", handled, err)
	}
	syscall.Close(fd)
}

// TestReadFileDirFileAgain: when the root's directory cannot be opened as
// a file for openat2 (out of descriptors), ReadFile fails with
// ErrNoDescriptors instead of opening by name, and the next call tries
// again: one failure does not leave the root on the path that stats and
// then opens by name for good.
func TestReadFileDirFileAgain(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewRootSetOf([]string{"file://" + dir}, func(u *string) string { return *u }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Another set's directory, in use, holds the whole budget.
	other, err := NewRootSetOf([]string{"file://" + t.TempDir()}, func(u *string) string { return *u }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	d, err := other.use(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.osRoot(); err != nil {
		t.Fatal(err)
	}
	old := SetDescriptorBudget(1)
	data, err := s.ReadFile(filepath.Join(dir, "f"))
	d.done()
	SetDescriptorBudget(old)
	if !errors.Is(err, ErrNoDescriptors) || errors.Is(err, ErrOutsideRoots) {
		t.Errorf("ReadFile with the budget in use: %q, %v; want ErrNoDescriptors, not an open by name", data, err)
	}
	if data, err := s.ReadFile(filepath.Join(dir, "f")); err != nil || string(data) != "x" {
		t.Fatalf("ReadFile after: %q, %v", data, err)
	}
	if s.dirs[0].file.Load() == nil {
		t.Error("after one failure the root has no file for openat2: ReadFile opens by name from then on")
	}
}

// TestPathWalkerAsFDWalker: the walk by path, which systems other than
// Linux use, resolves every path of a tree with links, "..", dangling and
// looping links as the walk by handles does, with the same errors.
func TestPathWalkerAsFDWalker(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		os.MkdirAll(filepath.Join(dir, "r", "d", "e"), 0o755),
		os.WriteFile(filepath.Join(dir, "r", "f"), nil, 0o644),
		os.Symlink("d", filepath.Join(dir, "r", "rel")),
		os.Symlink(filepath.Join(dir, "r", "d", "e"), filepath.Join(dir, "r", "abs")),
		os.Symlink("../..", filepath.Join(dir, "r", "d", "up")),
		os.Symlink("missing", filepath.Join(dir, "r", "dangling")),
		os.Symlink("loop", filepath.Join(dir, "r", "loop")),
		os.Symlink("f", filepath.Join(dir, "r", "tofile")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, p := range []string{
		"r", "r/", "r/.", "r/d/e", "r/d/e/..", "r/rel", "r/rel/", "r/rel/e", "r/rel/..", "r/abs", "r/abs/..",
		"r/d/up", "r/d/up/r/f", "r/d/up/..", "r/dangling", "r/dangling/", "r/dangling/x", "r/loop", "r/loop/x",
		"r/tofile", "r/tofile/", "r/f/", "r/f/x", "r/missing", "r/missing/x", "r/d/../rel/e/../../f", "r//d///e",
	} {
		paths = append(paths, dir+"/"+p)
	}
	defer func(w func() walker) { newWalker = w }(newWalker)
	for _, mode := range []resolveMode{{}, {keepLast: true}, {missing: true}, {missing: true, keepLast: true}} {
		for _, p := range paths {
			newWalker = newFDWalker
			want, wantErr := resolvePOSIX(p, mode)
			newWalker = func() walker { return &pathWalker{dir: "/"} }
			got, gotErr := resolvePOSIX(p, mode)
			if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%+v %s: by path %q, %v; by handles %q, %v", mode, p, got, gotErr, want, wantErr)
			}
		}
	}
}

// TestReadFileReopensThroughProc: on Linux with openat2 and /proc,
// ReadFile reads through the handle it reopens under the one /proc/self/fd
// it keeps, and leaves no other descriptor open, whether it reads the
// file, finds it too large or refuses a FIFO.
func TestReadFileReopensThroughProc(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := NewRootSetOf([]string{"file://" + dir}, func(u *string) string { return *u }, nil, ReadLimit(3))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big, err := NewRootSetOf([]string{"file://" + dir}, func(u *string) string { return *u }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	if data, err := big.ReadFile(dir + "/f"); err != nil || string(data) != "data" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	s.ReadFile(dir + "/f") // each set opens its root's directory on first use
	skipWithoutOpenat2(t)
	if procDir.Load() == nil {
		t.Fatal("ReadFile did not open /proc/self/fd: it did not take the openat2 path")
	}
	count := func() int {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(fds)
	}
	before := count()
	for range 10 {
		if data, err := big.ReadFile(dir + "/f"); err != nil || string(data) != "data" {
			t.Fatalf("ReadFile = %q, %v", data, err)
		}
		if _, err := s.ReadFile(dir + "/f"); !errors.Is(err, ErrFileTooLarge) {
			t.Fatalf("ReadFile over the limit: %v; want ErrFileTooLarge", err)
		}
		if _, err := big.ReadFile(dir + "/fifo"); !errors.Is(err, ErrNotRegularFile) {
			t.Fatalf("ReadFile of a FIFO: %v; want ErrNotRegularFile", err)
		}
	}
	if after := count(); after != before {
		t.Errorf("%d descriptors open after the reads, %d before", after, before)
	}
}

// TestReadFileProcHandleReused: should code elsewhere close the kept
// /proc/self/fd handle and its number go to another directory, ReadFile
// does not look the reopen up there: it opens /proc/self/fd again and
// reads the file inside the root.
func TestReadFileProcHandleReused(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "f"), []byte("inside"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 1024 {
		if err := os.WriteFile(filepath.Join(outside, fmt.Sprint(i)), []byte("outside"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewRootSetOf([]string{"file://" + root}, func(u *string) string { return *u }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if data, err := s.ReadFile(root + "/f"); err != nil || string(data) != "inside" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	skipWithoutOpenat2(t)
	kept := procDir.Load()
	if kept == nil {
		t.Fatal("ReadFile did not open /proc/self/fd: it did not take the openat2 path")
	}
	other, err := syscall.Open(outside, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(other)
	// The mistake: the kept number closed, and given to another directory.
	if err := syscall.Dup3(other, kept.fd, syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(kept.fd)
	if data, err := s.ReadFile(root + "/f"); err != nil || string(data) != "inside" {
		t.Fatalf("ReadFile after the handle was reused = %q, %v; want the file inside the root", data, err)
	}
	if d := procDir.Load(); d == nil || d.fd == kept.fd {
		t.Errorf("the reused number is still kept as /proc/self/fd")
	}
}

// skipWithoutOpenat2 skips a test of ReadFile's openat2 path where a first
// ReadFile found no openat2 or no usable /proc (a kernel before 5.6, a
// sandbox), and so took os.Root's.
func skipWithoutOpenat2(t *testing.T) {
	t.Helper()
	if noOpenat2.Load() || noProcFD.Load() {
		t.Skip("no openat2 or no usable /proc here: ReadFile goes through os.Root")
	}
}
