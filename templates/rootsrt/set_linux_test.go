//go:build linux && !mips && !mipsle && !mips64 && !mips64le

package rootsrt

import (
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
	if handled || err != nil {
		t.Errorf("openBeneath with O_PATH|O_RDWR: handled %t, %v; want it left to os.Root", handled, err)
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
