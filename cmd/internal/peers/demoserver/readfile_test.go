package demoserver_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/demoserver"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// readFileTool calls read_file and returns its text and whether it is a
// tool error.
func readFileTool(t *testing.T, ctx context.Context, cs *mcp.ClientSession, path string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": path}})
	if err != nil {
		t.Fatalf("read_file %s: %v", path, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("read_file %s: content %v", path, res.Content)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("read_file %s: content %T", path, res.Content[0])
	}
	return text.Text, res.IsError
}

// The Go SDK's client against read_file: a file inside a root reads;
// every path that leads out, by name, by "..", through a link, or through
// a link followed by "..", is refused with a tool error that says why;
// after the client changes its roots, reads follow the new ones.
func TestGoSDKReadFile(t *testing.T) {
	for _, version := range []string{"2025-06-18", ""} {
		name := versionName(version)
		t.Run(name, func(t *testing.T) {
			tr := adaptertest.NewTree(t)
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			s := start(t, demoserver.Options{Timeout: peertest.Wait})
			//lint:ignore SA1019 the Go SDK client's roots API, deprecated by it, is what the demo server's peer uses
			client := gosdkClient(&mcp.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"})
			cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: s.peer.R, Writer: s.peer.W}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			want := version
			if want == "" {
				want = "2026-07-28"
			}
			if got := cs.InitializeResult().ProtocolVersion; got != want {
				t.Errorf("negotiated %s, want %s", got, want)
			}

			if text, isErr := readFileTool(t, ctx, cs, filepath.Join(tr.Root, "in.txt")); isErr || text != "inside" {
				t.Errorf("inside: %q (error %t), want the file", text, isErr)
			}
			for _, p := range []string{
				filepath.Join(tr.Outside, "secret"), // outside every root
				tr.Root + "/../outside/secret",      // out by ".."
				filepath.Join(tr.Root, "link"),      // a link inside pointing out
				tr.Root + "/in/../x",                // ".." after a link to a directory outside
				filepath.Join(tr.Other, "new.txt"),  // not a root yet
				"in.txt",                            // relative
			} {
				text, isErr := readFileTool(t, ctx, cs, p)
				if !isErr || !strings.Contains(text, "outside the client's roots") || strings.Contains(text, "secret\n") || text == "secret" || text == "x outside" {
					t.Errorf("read_file %s = %q (error %t), want a tool error naming the roots", p, text, isErr)
				}
			}

			// New roots: list_changed on 2025-06-18, the next call's
			// inputResponses on 2026-07-28. Poll, bounded by ctx, in case
			// the notifications arrive after the next call.
			//lint:ignore SA1019 the Go SDK client's roots API, deprecated by it, is what the demo server's peer uses
			client.RemoveRoots(adaptertest.FileURI(tr.Root))
			//lint:ignore SA1019 the Go SDK client's roots API, deprecated by it, is what the demo server's peer uses
			client.AddRoots(&mcp.Root{URI: adaptertest.FileURI(tr.Other), Name: "other"})
			tr.AwaitOther(t, ctx, func(p string) (string, bool) { return readFileTool(t, ctx, cs, p) })
			if text, isErr := readFileTool(t, ctx, cs, filepath.Join(tr.Root, "in.txt")); !isErr || !strings.Contains(text, "outside the client's roots") {
				t.Errorf("read_file in the removed root = %q (error %t), want refused", text, isErr)
			}
			if err := cs.Close(); err != nil {
				t.Error(err)
			}
			s.stop(t)
			transcript := strings.ReplaceAll(s.transcript.String(), tr.Dir, "/tmp/tree")
			peertest.Check(t, "testdata/transcripts/gosdk-client-read-file-"+name+".txt", transcript, *update)
		})
	}
}

// With -allow, the operator's directory bounds the client's roots: a
// client that sends file:/// reads inside the allowed directory and
// nowhere else, on a legacy and on a 2026-07-28 session.
func TestGoSDKReadFileAllow(t *testing.T) {
	for _, version := range []string{"2025-06-18", ""} {
		t.Run("protocol="+version, func(t *testing.T) {
			tr := adaptertest.NewTree(t)
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			s := start(t, demoserver.Options{Timeout: peertest.Wait, Allow: []string{tr.Root}})
			//lint:ignore SA1019 the Go SDK client's roots API, deprecated by it, is what the demo server's peer uses
			client := gosdkClient(&mcp.Root{URI: "file:///", Name: "everything"})
			cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: s.peer.R, Writer: s.peer.W}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			if text, isErr := readFileTool(t, ctx, cs, filepath.Join(tr.Root, "in.txt")); isErr || text != "inside" {
				t.Errorf("inside the allowed directory: %q (error %t), want the file", text, isErr)
			}
			for _, p := range []string{
				filepath.Join(tr.Other, "new.txt"),  // in the client's root, not allowed
				filepath.Join(tr.Outside, "secret"), //
				filepath.Join(tr.Root, "link"),      // a link out of the allowed directory
				tr.Root + "/in/../x",                // ".." after a link out
				"/etc/hostname",                     //
			} {
				// The client's root holds every path: the server's directory refuses.
				if text, isErr := readFileTool(t, ctx, cs, p); !isErr || !strings.Contains(text, "outside the directories the server allows") {
					t.Errorf("read_file %s = %q (error %t), want refused as outside the allowed directory", p, text, isErr)
				}
			}
			cs.Close()
			s.stop(t)
		})
	}
}
