//go:build unix

package rootsrt_test

import (
	"path/filepath"
	"syscall"
	"testing"
)

// fifoDir is a new directory, its path free of links, holding the FIFO
// fifo.
func fifoDir(t *testing.T) (dir, fifo string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fifo = filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, fifo
}

// oNonblock opens a FIFO without waiting for its other end.
const oNonblock = syscall.O_NONBLOCK
