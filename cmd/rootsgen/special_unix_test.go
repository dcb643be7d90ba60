//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
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

// TestHugeFileInOut: a Go file in -out far larger than any generated one
// (sparse, so it takes no disk) is not read whole: as a stale file it is
// recognised by its first bytes only, and where a generated file goes it
// is refused by its size.
func TestHugeFileInOut(t *testing.T) {
	for _, name := range []string{"old.go", "types.go"} {
		t.Run(name, func(t *testing.T) {
			out := generateInto(t, filepath.Join(t.TempDir(), "out"))
			huge := filepath.Join(out, name)
			f, err := os.Create(huge)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Truncate(64 << 30); err != nil {
				f.Close()
				t.Skipf("cannot make a 64 GiB sparse file here: %v", err)
			}
			f.Close()
			done := make(chan int, 1)
			var stderr string
			go func() {
				var code int
				code, _, stderr = rootsgen(t, nil, "-revision", "2025-06-18", "-package", "mcproots", "-out", out)
				done <- code
			}()
			select {
			case code := <-done:
				switch {
				case name == "old.go" && code != exitOK:
					t.Errorf("exit %d: %s", code, stderr)
				case name == "types.go" && (code != exitFail || !strings.Contains(stderr, "larger than any file rootsgen writes")):
					t.Errorf("exit %d: %s", code, stderr)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("rootsgen is still reading the 64 GiB file")
			}
			if info, err := os.Stat(huge); err != nil || info.Size() != 64<<30 {
				t.Errorf("the huge file was changed: %v", err)
			}
		})
	}
}

// TestInterruptReadingFIFO: -schema naming a FIFO waits for a writer;
// Ctrl-C (SIGINT) then ends rootsgen within a second, with exit status 1,
// and nothing written.
func TestInterruptReadingFIFO(t *testing.T) {
	exe := buildRootsgen(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "schema.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command(exe, "-revision", "2025-06-18", "-schema", fifo, "-out", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // rootsgen waits in the FIFO's open
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitFail {
			t.Errorf("exit: %v; want status %d", err, exitFail)
		}
		if got := stderr.String(); got != "rootsgen: interrupted; nothing was written\n" {
			t.Errorf("stderr %q", got)
		}
	case <-time.After(time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatal("rootsgen still waits on the FIFO a second after SIGINT")
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the interrupted run made %s: %v", out, err)
	}
}
