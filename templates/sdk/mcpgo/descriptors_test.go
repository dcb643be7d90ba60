//go:build linux

package mcpgo

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The tests here hold the mcp-go adapter to the descriptor budget, as
// gosdk's descriptors_test.go holds the go-sdk adapter: those that need
// RLIMIT_NOFILE 4,096 run in a child process under it.

const childLimit = 4096

// underLimit runs the calling test again in a child process under
// childLimit descriptors and reports false; in that child it reports true.
func underLimit(t *testing.T) bool {
	t.Helper()
	if os.Getenv("MCPGO_UNDER_LIMIT") == t.Name() {
		r := syscall.Rlimit{Cur: childLimit, Max: childLimit}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
			t.Fatalf("setrlimit: %v", err)
		}
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGO_UNDER_LIMIT="+t.Name())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the test under RLIMIT_NOFILE %d: %v\n%s", childLimit, err, out)
	}
	return false
}

func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("counting descriptors: %v", err)
	}
	return len(fds)
}

// manyDirs makes n directories, each holding f ("in i").
func manyDirs(t *testing.T, n int) []string {
	t.Helper()
	base := t.TempDir()
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = filepath.Join(base, fmt.Sprintf("d%04d", i))
		if err := os.Mkdir(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[i], "f"), []byte(fmt.Sprint("in ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// TestOneClientCannotTakeDescriptors: one 2026-07-28 client of an mcp-go
// server over Streamable HTTP sends 64 lists of 256 existing directories,
// each call reading in a directory no call read in before. Afterwards the
// server holds no more descriptors than its budget, and another client's
// read and a net.Listen succeed.
func TestOneClientCannotTakeDescriptors(t *testing.T) {
	if !underLimit(t) {
		return
	}
	dirs := manyDirs(t, 256+64)
	r := newRoots(t, Options{})
	s := server.NewMCPServer("test", "v0", r.ServerOption())
	readTool(r, s)
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close) // after the clients' own cleanups
	before := openFiles(t)
	roots := new(changingRoots)
	attacker := httpClient(t, ts, "", roots)
	for k := range 64 {
		roots.set(dirs[k : k+256])
		if text, err := read(t, attacker, filepath.Join(dirs[k+255], "f")); err != nil || text != fmt.Sprint("in ", k+255) {
			t.Fatalf("call %d: %q, %v", k, text, err)
		}
	}
	if held, budget := openFiles(t)-before, childLimit/4; held > budget {
		t.Errorf("the server holds %d descriptors more for one client, over the budget of %d", held, budget)
	}
	other := new(changingRoots)
	other.set(dirs[:1])
	if text, err := read(t, httpClient(t, ts, "", other), filepath.Join(dirs[0], "f")); err != nil || text != "in 0" {
		t.Errorf("another client's read: %q, %v", text, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Errorf("net.Listen after the attack: %v", err)
	} else {
		ln.Close()
	}
}

// TestLegacyAtTheLimit: a 2025-06-18 session whose roots arrive, and are
// used, while the process has no descriptor left fails saying the server
// is out of descriptors, and reads once descriptors are free.
func TestLegacyAtTheLimit(t *testing.T) {
	if !underLimit(t) {
		return
	}
	dirs := manyDirs(t, 1020)
	r := newRoots(t, Options{})
	roots := make([]mcp.Root, len(dirs))
	for i, d := range dirs {
		roots[i] = mcp.Root{URI: fileURI(d)}
	}
	c := serve(t, r, "2025-06-18", roots...)
	var fds []int
	for {
		fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			break
		}
		fds = append(fds, fd)
	}
	_, err := read(t, c, filepath.Join(dirs[1000], "f"))
	for _, fd := range fds {
		syscall.Close(fd)
	}
	if err == nil || !strings.Contains(err.Error(), "out of file descriptors") || strings.Contains(err.Error(), "outside") {
		t.Errorf("a read at the limit: %v; want the server out of descriptors", err)
	}
	for _, i := range []int{1000, 1019, 3} {
		if text, err := read(t, c, filepath.Join(dirs[i], "f")); err != nil || text != fmt.Sprint("in ", i) {
			t.Errorf("once descriptors are free: %q, %v", text, err)
		}
	}
}

// TestUnclosedSetsReclaimed: a handler that takes RootSet and never closes
// it, as in 40 lists of 64 roots, holds no more than the budget: the
// runtime closes idle directories when another needs the budget.
func TestUnclosedSetsReclaimed(t *testing.T) {
	const budget = 32
	old := SetDescriptorBudget(budget)
	defer SetDescriptorBudget(old)
	dirs := manyDirs(t, 64+40)
	r := newRoots(t, Options{})
	s := server.NewMCPServer("leaky", "v0", r.ServerOption())
	s.AddTool(mcp.NewTool("read", mcp.WithString("path")), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		set, err := r.RootSet(ctx, req)
		if set == nil {
			return Result(err)
		}
		data, err := set.ReadFile(req.GetString("path", "")) // set is never closed
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close) // after the clients' own cleanups
	before := openFiles(t)
	roots := new(changingRoots)
	c := httpClient(t, ts, "", roots)
	worst := 0
	for k := range 40 {
		roots.set(dirs[k : k+64])
		if text, err := read(t, c, filepath.Join(dirs[k+63], "f")); err != nil || text != fmt.Sprint("in ", k+63) {
			t.Fatalf("call %d: %q, %v", k, text, err)
		}
		worst = max(worst, openFiles(t)-before)
	}
	if worst > budget+4 { // the budget, and the HTTP connections of the test
		t.Errorf("unclosed sets held up to %d descriptors; the budget is %d", worst, budget)
	}
}
