package main

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// readTree is a directory tree with two roots and hostile links out of
// the first one:
//
//	root/in.txt        "inside"
//	root/link       -> outside/secret
//	root/in         -> outside/sub     (so root/in/../x is outside/x)
//	other/new.txt      "other"
//	outside/secret     "secret"
//	outside/x          "x outside"
type readTree struct{ dir, root, other, outside string }

func newReadTree(t *testing.T) readTree {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the tree uses POSIX symbolic links")
	}
	dir := t.TempDir()
	tr := readTree{dir, filepath.Join(dir, "root"), filepath.Join(dir, "other"), filepath.Join(dir, "outside")}
	for _, d := range []string{tr.root, tr.other, tr.outside, filepath.Join(tr.outside, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range map[string]string{
		filepath.Join(tr.root, "in.txt"):    "inside",
		filepath.Join(tr.other, "new.txt"):  "other",
		filepath.Join(tr.outside, "secret"): "secret",
		filepath.Join(tr.outside, "x"):      "x outside",
	} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link": filepath.Join(tr.outside, "secret"), "in": filepath.Join(tr.outside, "sub")} {
		if err := os.Symlink(target, filepath.Join(tr.root, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	return tr
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }

// build compiles this example once per test.
func build(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "mcpgo-server")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// connect starts the example server and connects mcp-go's own client to
// it, pinned to version ("" for the newest), with roots (nil for none).
func connect(t *testing.T, ctx context.Context, exe, version string, roots *mcpgoroots.ClientRoots) (*client.Client, *peertest.Buffer) {
	t.Helper()
	stderr := new(peertest.Buffer)
	tr := transport.NewStdioWithOptions(exe, nil, nil, transport.WithCommandStderrWriter(stderr))
	var opts []client.ClientOption
	if roots != nil {
		opts = append(opts, client.WithRootsHandler(roots))
	}
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c := client.NewClient(tr, opts...)
	if roots != nil {
		roots.Attach(c)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "mcp-go-client", Version: "v1.2.1"}
	init.Params.ProtocolVersion = version
	res, err := c.Initialize(ctx, init)
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
	return c, stderr
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
	for _, version := range []string{"2025-06-18", ""} {
		name := version
		if name == "" {
			name = "unpinned"
		}
		t.Run(name, func(t *testing.T) {
			tr := newReadTree(t)
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			roots := mcpgoroots.NewClientRoots(
				mcp.Root{URI: fileURI(tr.root), Name: "root"},
				mcp.Root{URI: "file://otherhost" + tr.other, Name: "remote"})
			c, stderr := connect(t, ctx, exe, version, roots)

			if text, isErr := readFile(t, ctx, c, filepath.Join(tr.root, "in.txt")); isErr || text != "inside" {
				t.Errorf("inside: %q (error %t), want the file (server stderr: %s)", text, isErr, stderr)
			}
			for _, p := range []string{
				filepath.Join(tr.outside, "secret"), // outside every root
				tr.root + "/../outside/secret",      // out by ".."
				filepath.Join(tr.root, "link"),      // a link inside pointing out
				tr.root + "/in/../x",                // ".." after a link to a directory outside
				filepath.Join(tr.other, "new.txt"),  // only under file://otherhost
				"in.txt",                            // relative
			} {
				if text, isErr := readFile(t, ctx, c, p); !refused(text, isErr) {
					t.Errorf("read_file %s = %q (error %t), want refused", p, text, isErr)
				}
			}

			// New roots: list_changed on 2025-06-18, the next call's
			// inputResponses on 2026-07-28. Poll, bounded by ctx, in case
			// the notification arrives after the next call.
			if err := roots.Set(ctx, mcp.Root{URI: fileURI(tr.other), Name: "other"}); err != nil {
				t.Fatal(err)
			}
			for {
				text, isErr := readFile(t, ctx, c, filepath.Join(tr.other, "new.txt"))
				if !isErr && text == "other" {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("read_file in the new root still %q after the roots changed", text)
				}
			}
			if text, isErr := readFile(t, ctx, c, filepath.Join(tr.root, "in.txt")); !refused(text, isErr) {
				t.Errorf("read_file in the removed root = %q (error %t), want refused", text, isErr)
			}
		})
	}
}
