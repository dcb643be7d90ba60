package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

var update = flag.Bool("update", false, "rewrite the transcripts in testdata")

// eachVersion runs f in a subtest for mcp-go's client pinned to
// 2025-06-18 and unpinned (""; it then speaks 2026-07-28), each with a
// fresh Tree and a ctx bounded by peertest.Wait.
func eachVersion(t *testing.T, f func(t *testing.T, ctx context.Context, version string, tr adaptertest.Tree)) {
	for _, version := range []string{"2025-06-18", ""} {
		t.Run(versionName(version), func(t *testing.T) {
			tr := adaptertest.NewTree(t)
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			f(t, ctx, version, tr)
		})
	}
}

// versionName names a pinned version, or "unpinned" for "".
func versionName(version string) string {
	if version == "" {
		return "unpinned"
	}
	return version
}

// start starts c and initializes it as mcp-go's client, offering version
// ("" for the one c was made with, or the newest).
func start(ctx context.Context, c *client.Client, version string) (*mcp.InitializeResult, error) {
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "mcp-go-client", Version: "v1.2.1"}
	init.Params.ProtocolVersion = version
	return c.Initialize(ctx, init)
}

// built is the example compiled once for every test of the package, by
// the first that needs it.
var built struct {
	once     sync.Once
	dir, exe string
	err      error
}

// TestMain removes the compiled example after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// build returns the path of the compiled example.
func build(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mcpgo-server"); built.err != nil {
			return
		}
		built.exe = filepath.Join(built.dir, "mcpgo-server")
		if out, err := exec.Command("go", "build", "-o", built.exe, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.exe
}

// connect starts the server exe and connects mcp-go's own client to it,
// pinned to version ("" for the newest), with roots (nil for none). The
// transcript records every frame, "<-" from the client, "->" from the
// server.
func connect(t *testing.T, ctx context.Context, exe, version string, roots *mcpgoroots.ClientRoots, more ...client.ClientOption) (c *client.Client, transcript, stderr *peertest.Buffer, stop func()) {
	t.Helper()
	transcript, stderr = new(peertest.Buffer), new(peertest.Buffer)
	cmd := exec.Command(exe)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	in := io.TeeReader(stdout, &frames{dir: "->", to: transcript})
	out := &tee{stdin, &frames{dir: "<-", to: transcript}}
	opts := more
	if roots != nil {
		opts = append(opts, client.WithRootsHandler(roots))
	}
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c = client.NewClient(transport.NewIO(in, out, io.NopCloser(strings.NewReader(""))), opts...)
	if roots != nil {
		roots.Attach(c)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			c.Close()
			if err := cmd.Wait(); err != nil {
				t.Errorf("server: %v (stderr: %s)", err, stderr)
			}
		})
	}
	t.Cleanup(stop)
	res, err := start(ctx, c, version)
	if err != nil {
		t.Fatalf("initialize: %v (server stderr: %s)", err, stderr)
	}
	want := version
	if want == "" {
		want = "2026-07-28"
	}
	if res.ProtocolVersion != want || c.ProtocolVersion() != want {
		t.Fatalf("negotiated %s (client says %s), want %s", res.ProtocolVersion, c.ProtocolVersion(), want)
	}
	return c, transcript, stderr, stop
}

// frames writes what passes through it to a transcript, one line per
// frame, each prefixed with dir.
type frames struct {
	dir     string
	to      io.Writer
	partial []byte
}

func (f *frames) Write(p []byte) (int, error) {
	f.partial = append(f.partial, p...)
	for {
		line, rest, ok := bytes.Cut(f.partial, []byte("\n"))
		if !ok {
			return len(p), nil
		}
		fmt.Fprintf(f.to, "%s %s\n", f.dir, line)
		f.partial = rest
	}
}

// tee writes to a transcript and then to w, so that a frame is recorded
// before the answer to it can be; Close closes w.
type tee struct {
	w    io.WriteCloser
	copy io.Writer
}

func (t *tee) Write(p []byte) (int, error) {
	t.copy.Write(p)
	return t.w.Write(p)
}

func (t *tee) Close() error { return t.w.Close() }

// count returns how many frames of the transcript sent in direction dir
// have member name at the top level (as "method") or in their result
// (as "resultType") equal to value.
func count(t *testing.T, transcript, dir, name, value string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(transcript, "\n"), "\n") {
		d, body, _ := strings.Cut(line, " ")
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("transcript: %v: %s", err, line)
		}
		var result map[string]json.RawMessage
		json.Unmarshal(m["result"], &result)
		if d == dir && (string(m[name]) == strconv.Quote(value) || string(result[name]) == strconv.Quote(value)) {
			n++
		}
	}
	return n
}

// readFile calls read_file and returns its text and whether it is a tool
// error.
func readFile(t *testing.T, ctx context.Context, c *client.Client, path string) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "read_file"
	req.Params.Arguments = map[string]any{"path": path}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("read_file %s: %v", path, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("read_file %s: content %v", path, res.Content)
	}
	text, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		t.Fatalf("read_file %s: content %T", path, res.Content[0])
	}
	return text.Text, res.IsError
}

func refused(text string, isErr bool) bool {
	return isErr && strings.Contains(text, "outside the client's roots") && !strings.Contains(text, "secret\n") && text != "secret" && text != "x outside"
}

// mcp-go's own client against the example: a file inside a root reads;
// a path outside, out by "..", through a link pointing out, or through a
// link followed by "..", is refused; so is every path under a root on
// another host; after the client changes its roots, reads follow them.
func TestMCPGoClientReadFile(t *testing.T) {
	exe := build(t)
	eachVersion(t, func(t *testing.T, ctx context.Context, version string, tr adaptertest.Tree) {
		roots := mcpgoroots.NewClientRoots(
			mcp.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"},
			mcp.Root{URI: "file://otherhost" + tr.Other, Name: "remote"})
		c, transcript, stderr, stop := connect(t, ctx, exe, version, roots)

		if text, isErr := readFile(t, ctx, c, filepath.Join(tr.Root, "in.txt")); isErr || text != "inside" {
			t.Errorf("inside: %q (error %t), want the file (server stderr: %s)", text, isErr, stderr)
		}
		for _, p := range []string{
			filepath.Join(tr.Outside, "secret"), // outside every root
			tr.Root + "/../outside/secret",      // out by ".."
			filepath.Join(tr.Root, "link"),      // a link inside pointing out
			tr.Root + "/in/../x",                // ".." after a link to a directory outside
			filepath.Join(tr.Other, "new.txt"),  // only under file://otherhost
			"in.txt",                            // relative
		} {
			if text, isErr := readFile(t, ctx, c, p); !refused(text, isErr) {
				t.Errorf("read_file %s = %q (error %t), want refused", p, text, isErr)
			}
		}

		// New roots: list_changed on 2025-06-18, the next call's
		// inputResponses on 2026-07-28. Poll, bounded by ctx, in case
		// the notification arrives after the next call.
		if err := roots.Set(ctx, mcp.Root{URI: adaptertest.FileURI(tr.Other), Name: "other"},
			mcp.Root{URI: "file://otherhost" + tr.Root, Name: "remote"}); err != nil {
			t.Fatal(err)
		}
		tr.AwaitOther(t, ctx, func(p string) (string, bool) { return readFile(t, ctx, c, p) })
		if text, isErr := readFile(t, ctx, c, filepath.Join(tr.Root, "in.txt")); !refused(text, isErr) {
			t.Errorf("read_file in the removed root = %q (error %t), want refused", text, isErr)
		}

		// A legacy session asks roots/list once, keeps the answer
		// for the eight calls before the change, and asks again
		// once after it; on 2026-07-28 the server sends no request
		// and asks in the results instead.
		asks, want := count(t, transcript.String(), "->", "method", "roots/list"), 2
		if version == "" {
			want = 0
			if n := count(t, transcript.String(), "->", "resultType", "input_required"); n < 2 {
				t.Errorf("%d input_required results, want one per round trip", n)
			}
		}
		if asks != want {
			t.Errorf("the server sent roots/list %d times, want %d", asks, want)
		}
		// The audit trail, counted once the server is done: the root on
		// another host is logged once per list (each list's set is built
		// once: on a legacy session per answer, on 2026-07-28 for the
		// calls that bring the same list), not on every call; each path
		// refused above, with the tool.
		stop()
		if n := strings.Count(stderr.String(), `msg="roots: root left out"`); n != 2 {
			t.Errorf("server logged %d roots left out, want 2, one per list:\n%s", n, stderr)
		}
		for _, p := range []string{filepath.Join(tr.Outside, "secret"), filepath.Join(tr.Other, "new.txt")} {
			if !strings.Contains(stderr.String(), `msg="roots: path refused" op=open path=`+p+` reason=outside_roots`) {
				t.Errorf("server did not log the refusal of %s:\n%s", p, stderr)
			}
		}
		// Set announced the change where the revision has the
		// notification, and only there.
		notes, want := count(t, transcript.String(), "<-", "method", "notifications/roots/list_changed"), 1
		if version == "" {
			want = 0
		}
		if notes != want {
			t.Errorf("the client sent list_changed %d times, want %d", notes, want)
		}
		peertest.Check(t, "testdata/transcripts/mcpgo-client-read-file-"+versionName(version)+".txt",
			strings.ReplaceAll(transcript.String(), tr.Dir, "/tmp/tree"), *update)
	})
}

// TestRootsWiringLines keeps the roots wiring of the example at 30 lines
// of code or fewer.
func TestRootsWiringLines(t *testing.T) {
	adaptertest.WiringLines(t, "main.go", 30)
}
