package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// commandTimeout bounds the wait for one answer of rootsdemo-client, so that
// a hung peer fails the test instead of stalling it.
const commandTimeout = time.Minute

// demo drives a running rootsdemo-client through its stdin commands.
type demo struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *peertest.Buffer
}

// startDemo starts rootsdemo-client with args in dir. The process is killed
// at the end of the test if it is still running.
func startDemo(t *testing.T, dir, exe string, args ...string) *demo {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &demo{t: t, cmd: cmd, stdin: stdin, lines: make(chan string, 16), stderr: &peertest.Buffer{}}
	cmd.Stderr = d.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	go func() {
		defer close(d.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			d.lines <- sc.Text()
		}
	}()
	return d
}

// do sends one command and returns the JSON line it answers with.
func (d *demo) do(command string) map[string]any {
	d.t.Helper()
	if _, err := fmt.Fprintln(d.stdin, command); err != nil {
		d.t.Fatalf("%s: writing to rootsdemo-client: %v\nstderr:\n%s", command, err, d.stderr)
	}
	select {
	case line, ok := <-d.lines:
		if !ok {
			d.t.Fatalf("%s: rootsdemo-client closed its output\nstderr:\n%s", command, d.stderr)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			d.t.Fatalf("%s: answer %q is not a JSON object: %v", command, line, err)
		}
		return v
	case <-time.After(commandTimeout):
		d.t.Fatalf("%s: no answer from rootsdemo-client within %v\nstderr:\n%s", command, commandTimeout, d.stderr)
	}
	return nil
}

// quit ends the session and checks that rootsdemo-client exits 0.
func (d *demo) quit() {
	d.t.Helper()
	fmt.Fprintln(d.stdin, "quit")
	d.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- d.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			d.t.Errorf("rootsdemo-client exited with %v\nstderr:\n%s", err, d.stderr)
		}
	case <-time.After(commandTimeout):
		d.t.Fatalf("rootsdemo-client did not exit after quit\nstderr:\n%s", d.stderr)
	}
}

// structured returns result.structuredContent of a call's answer, failing
// the test on an error answer or an isError result.
func structured(t *testing.T, what string, answer map[string]any) map[string]any {
	t.Helper()
	res, ok := answer["result"].(map[string]any)
	if !ok {
		t.Fatalf("%s: no result: %v", what, answer)
	}
	if isErr, _ := res["isError"].(bool); isErr {
		t.Fatalf("%s: isError result: %v", what, res)
	}
	sc, ok := res["structuredContent"].(map[string]any)
	if !ok {
		t.Fatalf("%s: no structuredContent: %v", what, res)
	}
	return sc
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestNodeServer runs rootsdemo-client against a TypeScript SDK server
// (@modelcontextprotocol/server 2.4.0, testdata/interop/node/server.mjs) on
// every revision: the server's list_roots tool asks for the client's roots
// (a roots/list request on 2025-era sessions, input_required on 2026-07-28)
// and list_changed_count reports the list_changed notifications it got.
func TestNodeServer(t *testing.T) {
	node, dir := peertest.NodePeers(t)
	client := peertest.Build(t, "rootsdemo-client")
	cases := []struct {
		name       string
		protocol   string
		clientArgs []string
		serverArgs []string
		notified   int // list_changed notifications the server should count
	}{
		{name: "2025-11-25", protocol: "2025-11-25", notified: 1},
		{name: "2025-06-18", protocol: "2025-06-18", notified: 1},
		{name: "2025-03-26", protocol: "2025-03-26", notified: 1},
		{name: "2024-11-05", protocol: "2024-11-05", notified: 1},
		{name: "2026-07-28", protocol: "2026-07-28", notified: 0},
		// The client declares listChanged: false and must not notify.
		{name: "2025-11-25-no-list-changed", protocol: "2025-11-25", clientArgs: []string{"-no-list-changed"}, notified: 0},
		// The server returns input_required on a 2025 session too, and the
		// SDK's legacy shim turns it into a roots/list request.
		{name: "2025-11-25-shim", protocol: "2025-11-25", serverArgs: []string{"--shim"}, notified: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			transcript := filepath.Join(t.TempDir(), "transcript.txt")
			args := []string{"-protocol", tc.protocol, "-transcript", transcript}
			args = append(args, tc.clientArgs...)
			args = append(args, "-root", "file:///work/alpha=alpha", "-root", "file:///work/beta", "--", node, "server.mjs")
			args = append(args, tc.serverArgs...)
			d := startDemo(t, dir, client, args...)

			exerciseNodeServer(t, d, tc.notified, transcript, "node-server-"+tc.name+".txt")
		})
	}
}

// exerciseNodeServer runs, through d, the session every test of server.mjs
// runs: tools, list_roots, a roots change, list_changed_count (which must
// be notified) and list_roots again; then quit, and the transcript is
// compared with testdata/transcripts/golden.
func exerciseNodeServer(t *testing.T, d *demo, notified int, transcript, golden string) {
	t.Helper()
	tools := d.do("tools")
	var names []string
	if res, ok := tools["result"].(map[string]any); ok {
		list, _ := res["tools"].([]any)
		for _, tool := range list {
			if m, ok := tool.(map[string]any); ok {
				names = append(names, fmt.Sprint(m["name"]))
			}
		}
	}
	slices.Sort(names)
	if !reflect.DeepEqual(names, []string{"list_changed_count", "list_roots"}) {
		t.Errorf("tools: %v, want list_changed_count and list_roots", tools)
	}

	want := `{"roots":[{"name":"alpha","uri":"file:///work/alpha"},{"uri":"file:///work/beta"}]}`
	if got := asJSON(structured(t, "first list_roots", d.do("call list_roots"))); got != want {
		t.Errorf("first list_roots: %s, want %s", got, want)
	}
	if got := d.do("roots file:///work/gamma=gamma"); asJSON(got) != `{"ok":true}` {
		t.Errorf("roots: %v", got)
	}
	// The notification, if any, went out before the next request (on
	// stdio, on the same pipe; over HTTP, its POST was answered first), so
	// the server has counted it.
	count := structured(t, "list_changed_count", d.do("call list_changed_count"))
	if got := asJSON(count); got != fmt.Sprintf(`{"count":%d}`, notified) {
		t.Errorf("list_changed_count: %s, want %d notifications", got, notified)
	}
	want = `{"roots":[{"name":"gamma","uri":"file:///work/gamma"}]}`
	if got := asJSON(structured(t, "list_roots after the change", d.do("call list_roots"))); got != want {
		t.Errorf("list_roots after the change: %s, want %s", got, want)
	}
	d.quit()

	raw, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}
	peertest.Check(t, filepath.Join("testdata", "transcripts", golden), string(raw), *update)
}

// TestNodeFilesystem runs rootsdemo-client against
// @modelcontextprotocol/server-filesystem 2026.8.31, which replaces the
// directories it was started with by the client's roots after initialized
// and again after each list_changed. It applies them asynchronously, so the
// test polls its list_allowed_directories tool until the expected set shows
// up or the deadline passes.
func TestNodeFilesystem(t *testing.T) {
	node, dir := peertest.NodePeers(t)
	client := peertest.Build(t, "rootsdemo-client")
	for _, protocol := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(protocol, func(t *testing.T) {
			tmp := t.TempDir()
			mk := func(name string) string {
				p := filepath.Join(tmp, name)
				if err := os.Mkdir(p, 0o755); err != nil {
					t.Fatal(err)
				}
				real, err := filepath.EvalSymlinks(p)
				if err != nil {
					t.Fatal(err)
				}
				return real
			}
			start, a, b, c := mk("start"), mk("a"), mk("b"), mk("c")
			uri := func(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }
			transcript := filepath.Join(t.TempDir(), "transcript.txt")
			d := startDemo(t, dir, client, "-protocol", protocol, "-transcript", transcript,
				"-root", uri(a)+"=a", "-root", uri(b)+"=b", "--",
				node, filepath.Join("node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"), start)

			waitAllowed(t, d, []string{a, b})
			if got := d.do("roots " + uri(c) + "=c"); asJSON(got) != `{"ok":true}` {
				t.Errorf("roots: %v", got)
			}
			waitAllowed(t, d, []string{c})
			d.quit()

			raw, err := os.ReadFile(transcript)
			if err != nil {
				t.Fatal(err)
			}
			// Only the roots traffic: the number of polls varies.
			keep := func(m string) bool {
				return m == "initialize" || m == "notifications/initialized" || m == "roots/list" || m == "notifications/roots/list_changed"
			}
			real, _ := filepath.EvalSymlinks(tmp)
			text := strings.NewReplacer(real, "/TMP", tmp, "/TMP").Replace(peertest.Only(string(raw), keep))
			peertest.Check(t, filepath.Join("testdata", "transcripts", "node-filesystem-"+protocol+".txt"), text, *update)
		})
	}
}

// TestNodeFilesystemModern checks that rootsdemo-client fails its
// handshake, loudly and with the reason, when asked for 2026-07-28 by
// server-filesystem, whose SDK (v1) knows no server/discover.
func TestNodeFilesystemModern(t *testing.T) {
	node, dir := peertest.NodePeers(t)
	client := peertest.Build(t, "rootsdemo-client")
	cmd := exec.Command(client, "-protocol", "2026-07-28", "-root", "file:///work/alpha", "--",
		node, filepath.Join("node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"), t.TempDir())
	cmd.Dir = dir
	stderr := &peertest.Buffer{}
	cmd.Stderr = stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatalf("rootsdemo-client exited 0 after a failed handshake\nstderr:\n%s", stderr)
		}
	case <-time.After(commandTimeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("rootsdemo-client did not give up on the handshake\nstderr:\n%s", stderr)
	}
	if msg := stderr.String(); !strings.Contains(msg, "handshake") || !strings.Contains(msg, "-32601") {
		t.Errorf("stderr does not give the handshake's failure (-32601 for server/discover):\n%s", msg)
	}
}

// waitAllowed polls list_allowed_directories until it lists exactly want.
func waitAllowed(t *testing.T, d *demo, want []string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.Now().Add(commandTimeout)
	var last []string
	for {
		answer := d.do("call list_allowed_directories")
		res, ok := answer["result"].(map[string]any)
		if !ok {
			t.Fatalf("list_allowed_directories: %v", answer)
		}
		last = allowedDirs(res)
		if slices.Equal(last, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("list_allowed_directories still shows %q, want %q\nstderr:\n%s", last, want, d.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// allowedDirs reads the directories out of a list_allowed_directories
// result ("Allowed directories:" and one directory per line), sorted, with
// symbolic links resolved.
func allowedDirs(res map[string]any) []string {
	var text string
	content, _ := res["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			text += fmt.Sprint(m["text"])
		}
	}
	var dirs []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasSuffix(line, ":") {
			continue
		}
		if real, err := filepath.EvalSymlinks(line); err == nil {
			line = real
		}
		dirs = append(dirs, line)
	}
	slices.Sort(dirs)
	return dirs
}
