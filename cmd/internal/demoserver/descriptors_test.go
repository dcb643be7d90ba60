//go:build linux

package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/mcphttp"
)

// descriptorTree makes n directories under a base, each holding f.txt
// ("in i"), and returns the base, the directories and their roots answer.
func descriptorTree(t *testing.T, n int) (base string, dirs []string, answer string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var roots []string
	for i := range n {
		d := filepath.Join(base, fmt.Sprintf("d%04d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f.txt"), []byte(fmt.Sprint("in ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
		roots = append(roots, `{"uri":"file://`+d+`"}`)
	}
	return base, dirs, `{"roots":[` + strings.Join(roots, ",") + `]}`
}

// readInSession calls read_file on a 2025-era session, answering the
// roots/list it brings, if any, with answer, and returns the tool's text.
func (s *httpStarted) readInSession(t *testing.T, sid string, id int, path, answer string) string {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":` + fmt.Sprint(id) + `,"method":"tools/call","params":{"name":"read_file","arguments":{"path":` + quote(path) + `}}}`
	resp := s.post(t, context.Background(), body, mcphttp.HeaderSession, sid)
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != mcphttp.EventStream {
		m := jsonAnswer(t, resp, http.StatusOK)
		return string(m.Result)
	}
	ev := readEvents(t, resp.Body)
	m := ev.next()
	if m.Method == "roots/list" {
		s.notify(t, sid, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+answer+`}`)
		m = ev.next()
	}
	return string(m.Result)
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

// TestHTTPDeleteFreesDescriptors: a session's roots are open directories
// only for what it read in, and DELETE closes them at once.
func TestHTTPDeleteFreesDescriptors(t *testing.T) {
	base, dirs, answer := descriptorTree(t, 1000)
	s := startHTTP(t, options{Allow: []string{base}})
	sid := s.initialize(t)
	before := openFiles(t)
	for i := range 20 {
		if got := s.readInSession(t, sid, i+1, filepath.Join(dirs[i*50], "f.txt"), answer); !strings.Contains(got, fmt.Sprint("in ", i*50)) {
			t.Fatalf("read_file: %s", got)
		}
	}
	during := openFiles(t)
	del, _ := http.NewRequest(http.MethodDelete, s.url, nil)
	del.Header.Set(mcphttp.HeaderSession, sid)
	if r, err := s.srv.Client().Do(del); err != nil || r.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", r, err)
	}
	after := openFiles(t)
	t.Logf("descriptors: %d before the reads, %d after 20 reads in 20 of 1,000 roots, %d after DELETE", before, during, after)
	if during-after < 20 {
		t.Errorf("descriptors: %d before, %d with the session, %d after DELETE; want its 20 directories closed at once", before, during, after)
	}
}

// TestHTTPManySessionsLeaveRoom: under RLIMIT_NOFILE 4,096, 100 sessions
// (the default MaxSessions) of 1,020 roots each, each reading in 20 of
// them, leave a fresh 2026-07-28 client's read_file working. It runs in a
// child process under the limit.
func TestHTTPManySessionsLeaveRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("100 sessions of 1,020 roots")
	}
	if os.Getenv("DEMO_UNDER_LIMIT") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHTTPManySessionsLeaveRoom$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "DEMO_UNDER_LIMIT=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("under RLIMIT_NOFILE 4096: %v\n%s", err, out)
		}
		return
	}
	limit := syscall.Rlimit{Cur: 4096, Max: 4096}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		t.Fatal(err)
	}
	base, dirs, answer := descriptorTree(t, 1020)
	s := startHTTP(t, options{Allow: []string{base}})
	for k := range DefaultMaxSessions {
		sid := s.initialize(t)
		for i := range 20 {
			d := (k*20 + i) % len(dirs)
			if got := s.readInSession(t, sid, i+1, filepath.Join(dirs[d], "f.txt"), answer); !strings.Contains(got, fmt.Sprint("in ", d)) {
				t.Fatalf("session %d: read_file: %s", k, got)
			}
		}
	}
	t.Logf("%d descriptors open with %d sessions", openFiles(t), DefaultMaxSessions)
	args := `{"path":` + quote(filepath.Join(dirs[7], "f.txt")) + `}`
	m := jsonAnswer(t, s.modernCall(t, 1, "read_file", args, `{"roots":{}}`, ""), http.StatusOK)
	var ask struct {
		RequestState string `json:"requestState"`
	}
	if err := json.Unmarshal(m.Result, &ask); err != nil || ask.RequestState == "" {
		t.Fatalf("a fresh client's read_file: %s, want input_required", m.Result)
	}
	retry := `,"inputResponses":{"roots":` + answer + `},"requestState":"` + ask.RequestState + `"`
	m = jsonAnswer(t, s.modernCall(t, 2, "read_file", args, `{"roots":{}}`, retry), http.StatusOK)
	if !strings.Contains(string(m.Result), "in 7") {
		t.Errorf("a fresh client's read_file: %s %+v", m.Result, m.Error)
	}
}
