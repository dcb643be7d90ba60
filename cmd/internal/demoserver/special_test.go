package demoserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// read_file over HTTP (2026-07-28), with -allow, of what a RootSet must
// not read: a FIFO with no writer, a device that never ends, and a 1 TiB
// sparse file. Each is refused with a tool error, at once, and the server
// answers the next call.
func TestHTTPReadFileSpecial(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev on Windows")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "sparse"))
	if err != nil {
		t.Fatal(err)
	}
	err = f.Truncate(1 << 40)
	f.Close()
	if err != nil {
		t.Skipf("the file system here cannot hold a 1 TiB sparse file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, options{Allow: []string{dir, "/dev"}})
	id := 0
	read := func(p, rootPath string) string {
		t.Helper()
		args := `{"path":` + quote(p) + `}`
		id++
		m := jsonAnswer(t, s.modernCall(t, id, "read_file", args, `{"roots":{}}`, ""), http.StatusOK)
		var ask struct {
			RequestState string `json:"requestState"`
		}
		if err := json.Unmarshal(m.Result, &ask); err != nil || ask.RequestState == "" {
			t.Fatalf("first POST: %s (%v), want input_required", m.Result, err)
		}
		rootURI := (&url.URL{Scheme: "file", Path: rootPath}).String()
		retry := `,"inputResponses":{"roots":{"roots":[{"uri":"` + rootURI + `"}]}},"requestState":"` + ask.RequestState + `"`
		id++
		m = jsonAnswer(t, s.modernCall(t, id, "read_file", args, `{"roots":{}}`, retry), http.StatusOK)
		return string(m.Result)
	}
	for _, c := range []struct{ path, root, want string }{
		{filepath.Join(dir, "fifo"), dir, "not a regular file"},
		{"/dev/zero", "/dev", "not a regular file"},
		{filepath.Join(dir, "sparse"), dir, "larger than the read limit"},
	} {
		if got := read(c.path, c.root); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, c.want) {
			t.Errorf("read_file %s: %.300s; want a tool error saying %q", c.path, got, c.want)
		}
	}
	if got := read(filepath.Join(dir, "in.txt"), dir); !strings.Contains(got, `"text":"inside"`) {
		t.Errorf("read_file after the refusals: %.300s; want the file", got)
	}
}
