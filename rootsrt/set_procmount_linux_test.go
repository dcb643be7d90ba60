//go:build linux && !mips && !mipsle && !mips64 && !mips64le

package rootsrt

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFileProcMountedOver: ReadFile reopens a file through
// /proc/self/fd. With /proc/<pid>/fd of another process mounted over
// /proc/self/fd (possible without privileges in a user and mount
// namespace), every number there names that process's file; here, each
// names a file outside the root. ReadFile of a file inside the root must
// still read that file, never the outside one. The test runs itself in a
// child process in new user and mount namespaces, and is skipped where the
// system refuses them.
func TestReadFileProcMountedOver(t *testing.T) {
	if os.Getenv("ROOTSRT_PROC_CHILD") != "" {
		procMountedOverChild(t)
		return
	}
	base := t.TempDir()
	for _, f := range []struct{ name, content string }{{"root/f", "inside"}, {"secret", "SECRET"}} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(base, f.name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, f.name), []byte(f.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReadFileProcMountedOver$", "-test.v")
	cmd.Env = append(os.Environ(), "ROOTSRT_PROC_CHILD="+base)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil && strings.Contains(string(out), "ESCAPE"):
		t.Fatalf("the child read outside the root:\n%s", out)
	case err != nil && (strings.Contains(string(out), "SKIP-NAMESPACE") || len(out) == 0):
		skipOrFail(t, "new user and mount namespaces, or a bind mount in them, are refused here: %v\n%s", err, out)
	case err != nil:
		t.Fatalf("child: %v\n%s", err, out)
	case !strings.Contains(string(out), "read inside"):
		t.Fatalf("the child did not read the file:\n%s", out)
	}
}

// skipOrFail skips the test, or under CI=true fails it: a prerequisite is
// missing.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// procMountedOverChild is the test in the child: it mounts a helper's
// /proc/<pid>/fd, whose every number up to 200 is the outside file, over
// its own /proc/self/fd, then reads the inside file.
func procMountedOverChild(t *testing.T) {
	base := os.Getenv("ROOTSRT_PROC_CHILD")
	secret, err := os.Open(filepath.Join(base, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	helper := exec.Command("sleep", "60")
	for range 200 {
		helper.ExtraFiles = append(helper.ExtraFiles, secret)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer helper.Process.Kill()
	time.Sleep(50 * time.Millisecond) // sleep has started: its fds are in /proc
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		t.Fatalf("SKIP-NAMESPACE: making mounts private: %v", err)
	}
	self := "/proc/" + strconv.Itoa(os.Getpid()) + "/fd"
	if err := syscall.Mount("/proc/"+strconv.Itoa(helper.Process.Pid)+"/fd", self, "", syscall.MS_BIND, ""); err != nil {
		t.Fatalf("SKIP-NAMESPACE: bind mount over %s: %v", self, err)
	}
	// The mount is in place: the helper's file is what /proc/self/fd/N
	// names for every N the reopen could use.
	if n, err := os.Readlink("/proc/self/fd/150"); err != nil || !strings.HasSuffix(n, "/secret") {
		t.Fatalf("SKIP-NAMESPACE: the mount does not show the helper's files: %q, %v", n, err)
	}
	s, err := NewRootSetOf([]string{"file://" + filepath.Join(base, "root")}, func(u *string) string { return *u }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 3 {
		data, err := s.ReadFile(filepath.Join(base, "root", "f"))
		if strings.Contains(string(data), "SECRET") {
			t.Fatalf("ESCAPE: ReadFile of the file inside read %q", data)
		}
		if err != nil || string(data) != "inside" {
			t.Fatalf("ReadFile: %q, %v", data, err)
		}
	}
	t.Log("read inside")
}
