//go:build linux

//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests here run a go-sdk server with the adapter where a client can
// try to take the process's file descriptors, each in a child process
// whose RLIMIT_NOFILE is 4,096 (soft and hard, as prlimit --nofile=4096:4096
// sets it), a common limit in containers.

const childLimit = 4096

// underLimit runs the calling test again in a child process under
// childLimit descriptors and reports false; in that child it reports true,
// and the test goes on there.
func underLimit(t *testing.T) bool {
	t.Helper()
	if os.Getenv("GOSDK_UNDER_LIMIT") == t.Name() {
		r := syscall.Rlimit{Cur: childLimit, Max: childLimit}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
			t.Fatalf("setrlimit: %v", err)
		}
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOSDK_UNDER_LIMIT="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test under RLIMIT_NOFILE %d: %v\n%s", childLimit, err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, ".go:") { // what the child logged
			t.Log(strings.TrimSpace(line))
		}
	}
	return false
}

// openFiles counts the process's open descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("counting descriptors: %v", err)
	}
	return len(fds)
}

// manyDirs makes n directories, each holding f.txt ("in i").
func manyDirs(t *testing.T, n int) []string {
	t.Helper()
	base := t.TempDir()
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = filepath.Join(base, fmt.Sprintf("d%04d", i))
		if err := os.Mkdir(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[i], "f.txt"), []byte(fmt.Sprint("in ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// setRoots makes dirs the client's roots, in place of what it had.
func setRoots(c *mcp.Client, had, dirs []string) {
	for _, d := range had {
		c.RemoveRoots(fileURI(d))
	}
	for _, d := range dirs {
		c.AddRoots(&mcp.Root{URI: fileURI(d)})
	}
}

// TestOneClientCannotTakeDescriptors: one 2026-07-28 client sends 64
// lists of 256 existing directories, each call reading in a directory no
// call read in before. Afterwards the server holds no more descriptors than
// its budget, and another client's read_file and a net.Listen succeed.
func TestOneClientCannotTakeDescriptors(t *testing.T) {
	if !underLimit(t) {
		return
	}
	dirs := manyDirs(t, 256+64)
	server := readServer(New())
	before := openFiles(t)
	attacker, client := connect(t, server, "", nil)
	var had []string
	for k := range 64 {
		list := dirs[k : k+256]
		setRoots(client, had, list)
		had = list
		if text, err := read(t, attacker, filepath.Join(list[255], "f.txt")); err != nil || text != fmt.Sprint("in ", k+255) {
			t.Fatalf("call %d: %q, %v", k, text, err)
		}
	}
	held := openFiles(t) - before
	t.Logf("after 64 calls with distinct lists of 256 roots: %d descriptors more than before (budget %d)", held, SetDescriptorBudget(0))
	if budget := childLimit / 4; held > budget {
		t.Errorf("the server holds %d descriptors for one client, over the budget of %d", held, budget)
	}
	other, _ := connect(t, server, "", nil, &mcp.Root{URI: fileURI(dirs[0])})
	if text, err := read(t, other, filepath.Join(dirs[0], "f.txt")); err != nil || text != "in 0" {
		t.Errorf("another client's read_file: %q, %v", text, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Errorf("net.Listen after the attack: %v", err)
	} else {
		ln.Close()
	}
}

// TestLegacySessionsAtTheLimit: five 2025-06-18 sessions of 1,020 roots
// each; the fifth asks for its roots and reads while the process has no
// descriptor left. Its read fails saying the server is out of
// descriptors, not that the path is outside the roots, and once the other
// sessions are gone and descriptors are free, it reads: nothing broken
// was kept.
func TestLegacySessionsAtTheLimit(t *testing.T) {
	if !underLimit(t) {
		return
	}
	dirs := manyDirs(t, 1020)
	roots := make([]*mcp.Root, len(dirs))
	for i, d := range dirs {
		roots[i] = &mcp.Root{URI: fileURI(d)}
	}
	server := readServer(New())
	var others []*mcp.ClientSession
	for i := range 4 {
		cs, _ := connect(t, server, "2025-06-18", nil, roots...)
		for j := range 50 { // each session reads in its own 50 directories
			d := dirs[i*50+j]
			if text, err := read(t, cs, filepath.Join(d, "f.txt")); err != nil || text != fmt.Sprint("in ", i*50+j) {
				t.Fatalf("session %d: %q, %v", i, text, err)
			}
		}
		others = append(others, cs)
	}
	fifth, _ := connect(t, server, "2025-06-18", nil, roots...)
	release := exhaust(t)
	_, err := read(t, fifth, filepath.Join(dirs[1000], "f.txt"))
	release()
	if err == nil || !strings.Contains(err.Error(), "out of file descriptors") || strings.Contains(err.Error(), "outside") {
		t.Errorf("the fifth session's read at the limit: %v; want the server out of descriptors", err)
	}
	for _, cs := range others {
		cs.Close()
	}
	for _, i := range []int{1000, 1019, 3} {
		if text, err := read(t, fifth, filepath.Join(dirs[i], "f.txt")); err != nil || text != fmt.Sprint("in ", i) {
			t.Errorf("the fifth session once the others left: %q, %v", text, err)
		}
	}
}

// exhaust opens /dev/null until the process has no descriptor left, and
// returns the function that closes them.
func exhaust(t *testing.T) (release func()) {
	t.Helper()
	var fds []int
	for {
		fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			if !errors.Is(err, syscall.EMFILE) {
				t.Fatalf("open: %v", err)
			}
			break
		}
		fds = append(fds, fd)
	}
	return func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}
}

// TestBoundSwappedAfterStart: the operator's directory is opened when the
// adapter is made; swapped for a link out afterwards, it is never
// followed, on either era, with or without ResolveSymlinks.
func TestBoundSwappedAfterStart(t *testing.T) {
	for _, p := range pins {
		for _, resolve := range []bool{false, true} {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for f, content := range map[string]string{"data/secret.txt": "inside", "outside/secret.txt": "SECRET"} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(base, f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(base, f), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			opts := []RootSetOption{Bounds(filepath.Join(base, "data"))}
			if resolve {
				opts = append(opts, ResolveSymlinks())
			}
			server := readServer(New(RootSetOptions(opts...)))
			if err := os.Rename(filepath.Join(base, "data"), filepath.Join(base, "data.old")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(base, "data")); err != nil {
				t.Fatal(err)
			}
			cs, _ := connect(t, server, p.pin, nil, &mcp.Root{URI: fileURI(base)})
			text, err := read(t, cs, filepath.Join(base, "data", "secret.txt"))
			if strings.Contains(text, "SECRET") {
				t.Fatalf("ESCAPE: %s resolve=%v: read_file followed the swapped bound: %q", p.name, resolve, text)
			}
			t.Logf("%s resolve=%v: %q, %v", p.name, resolve, text, err)
		}
	}
}

// TestPlainServerRefused: a server made with mcp.NewServer, whose options
// the adapter did not make, cannot keep a 2025-era session's roots fresh:
// RootSet refuses, naming what to use, and a root the client removed is
// never read.
func TestPlainServerRefused(t *testing.T) {
	a := New()
	server := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "v0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "read"}, readHandler(a))
	keep, _ := testDir(t)
	gone, file := testDir(t)
	cs, client := connect(t, server, "2025-06-18", nil, &mcp.Root{URI: fileURI(keep)}, &mcp.Root{URI: fileURI(gone)})
	_, err := read(t, cs, file)
	if err == nil || !strings.Contains(err.Error(), "NewServer") || !strings.Contains(err.Error(), "ServerOptions") {
		t.Errorf("read_file on a plain server: %v; want an error naming NewServer and ServerOptions", err)
	}
	client.RemoveRoots(fileURI(gone))
	if text, err := read(t, cs, file); err == nil {
		t.Errorf("read_file of the removed root: %q", text)
	}
	// 2026-07-28 keeps nothing between requests: it works.
	cs, _ = connect(t, server, "", nil, &mcp.Root{URI: fileURI(gone)})
	if text, err := read(t, cs, file); err != nil || text != "one" {
		t.Errorf("2026-07-28 read_file on a plain server: %q, %v", text, err)
	}
}

// TestUnwrappedHandlerNamesHandlerFor: a tool handler that returns
// RootSet's error without HandlerFor fails on 2026-07-28 with an error
// that says to wrap it.
func TestUnwrappedHandlerNamesHandlerFor(t *testing.T) {
	a := New()
	server := a.NewServer(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "read"}, func(ctx context.Context, req *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
		set, err := a.RootSet(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		defer set.Close()
		data, err := set.ReadFile(in.Path)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
	})
	dir, file := testDir(t)
	cs, _ := connect(t, server, "", nil, &mcp.Root{URI: fileURI(dir)})
	if _, err := read(t, cs, file); err == nil || !strings.Contains(err.Error(), "HandlerFor") {
		t.Errorf("an unwrapped handler on 2026-07-28: %v; want an error naming HandlerFor", err)
	}
}

// TestInvalidRootsReportedOnce: a 2025-06-18 list with a root its revision
// refuses and one the RootSet refuses is reported once, naming both by
// their index in the client's list, however many calls use it.
func TestInvalidRootsReportedOnce(t *testing.T) {
	var mu sync.Mutex
	var reports []string
	a := New(OnInvalidRoots(func(err error) {
		mu.Lock()
		reports = append(reports, err.Error())
		mu.Unlock()
	}))
	dir, file := testDir(t)
	// go-sdk's client lists its roots by URI: the good one, then these.
	cs, _ := connect(t, readServer(a), "2025-06-18", nil,
		&mcp.Root{URI: fileURI(dir)}, &mcp.Root{URI: "file://otherhost/srv"}, &mcp.Root{URI: "https://example.com/"})
	for range 3 {
		if text, err := read(t, cs, file); err != nil || text != "one" {
			t.Fatalf("read_file: %q, %v", text, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 || !strings.Contains(reports[0], "roots[1].uri: host") || !strings.Contains(reports[0], "roots[2].uri: scheme") {
		t.Errorf("OnInvalidRoots got %q; want one report naming roots[1] (host) and roots[2] (scheme)", reports)
	}
}
