//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPackageNameSkipsSpecialFiles: without -package, rootsgen reads the
// package clause of the Go files already in -out. A FIFO named like a Go
// file would block the read forever, and a link to /dev/zero would never
// end; both must be passed over, and the name taken from the directory.
func TestPackageNameSkipsSpecialFiles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, path string)
	}{
		{"FIFO", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skipf("cannot make a FIFO here: %v", err)
			}
		}},
		{"link to /dev/zero", func(t *testing.T, path string) {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip("no /dev/zero here")
			}
			mustSymlink(t, "/dev/zero", path)
		}},
		{"link to a Go file outside", func(t *testing.T, path string) {
			outside := writeFile(t, filepath.Join(t.TempDir(), "x.go"), "package elsewhere\n")
			mustSymlink(t, outside, path)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "fromdir")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, filepath.Join(out, "a.go"))
			type result struct {
				code   int
				stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out)
				done <- result{code, stderr}
			}()
			select {
			case r := <-done:
				if r.code != exitOK {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("rootsgen is still running: it reads a.go, which is not a regular file")
			}
			types, err := os.ReadFile(filepath.Join(out, "types.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(types), "\npackage fromdir\n") {
				t.Errorf("the package is not named after the directory:\n%.300s", types)
			}
		})
	}
}
