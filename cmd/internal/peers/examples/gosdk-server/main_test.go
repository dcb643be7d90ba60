//lint:file-ignore SA1019 the Go SDK client's roots API, which it deprecates, is the peer under test

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// versions are the client's pins: a legacy session, and none, which
// go-sdk v1.8.0 negotiates as 2026-07-28.
var versions = []struct{ name, pin, want string }{
	{"2025-06-18", "2025-06-18", "2025-06-18"},
	{"unpinned", "", "2026-07-28"},
}

// setup returns a new adaptertest.Tree and a context that bounds the
// test.
func setup(t *testing.T) (adaptertest.Tree, context.Context) {
	t.Helper()
	tr := adaptertest.NewTree(t)
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	t.Cleanup(cancel)
	return tr, ctx
}

// peer is a go-sdk client connected to the example server over an
// in-process NDJSON wire. It counts the times the server asks for roots:
// the roots/list requests, and the input_required results whose
// inputRequests hold roots/list.
type peer struct {
	client *mcp.Client
	cs     *mcp.ClientSession
	asked  atomic.Int32
	// inputRequired counts the input_required results.
	inputRequired atomic.Int32
}

func connect(t *testing.T, ctx context.Context, pin string, opts *mcp.ClientOptions, roots ...*mcp.Root) *peer {
	t.Helper()
	return connectTo(t, ctx, newServer(slog.New(slog.DiscardHandler), nil, nil), newClient(opts), pin, roots...)
}

func newClient(opts *mcp.ClientOptions) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "gosdk-client", Version: "v1.8.0"}, opts)
}

// connectTo connects client to server, pinned to pin, after adding roots.
func connectTo(t *testing.T, ctx context.Context, server *mcp.Server, client *mcp.Client, pin string, roots ...*mcp.Root) *peer {
	t.Helper()
	p := &peer{client: client}
	if err := gosdkroots.AddRoots(p.client, roots...); err != nil {
		t.Fatal(err)
	}
	serverIn, clientOut := io.Pipe()
	seen, serverOut := io.Pipe()
	clientIn, toClient := io.Pipe()
	go func() {
		// Every line the server writes passes here on its way to the
		// client.
		lines := bufio.NewScanner(seen)
		lines.Buffer(nil, 1<<20)
		for lines.Scan() {
			p.asked.Add(int32(strings.Count(lines.Text(), `"method":"roots/list"`)))
			if strings.Contains(lines.Text(), `"inputRequests"`) && strings.Contains(lines.Text(), `"resultType":"input_required"`) {
				p.inputRequired.Add(1)
			}
			if _, err := toClient.Write(append(lines.Bytes(), '\n')); err != nil {
				break
			}
		}
		toClient.CloseWithError(lines.Err())
		seen.Close()
	}()
	ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: serverIn, Writer: serverOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.cs, err = p.client.Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, &mcp.ClientSessionOptions{ProtocolVersion: pin})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.cs.Close()
		ss.Wait()
	})
	return p
}

// read calls read_file and returns its text, whether it is a tool error,
// and the error of the call itself.
func (p *peer) read(ctx context.Context, path string) (string, bool, error) {
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": path}})
	if err != nil {
		return "", false, err
	}
	if len(res.Content) != 1 {
		return "", res.IsError, errors.New("not one content block")
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if text == nil {
		return "", res.IsError, errors.New("not text")
	}
	return text.Text, res.IsError, nil
}

func (p *peer) mustRead(t *testing.T, ctx context.Context, path, want string) {
	t.Helper()
	if text, isErr, err := p.read(ctx, path); err != nil || isErr || text != want {
		t.Errorf("read_file %s = %q (tool error %t, %v), want %q", path, text, isErr, err, want)
	}
}

func (p *peer) mustRefuse(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	p.mustRefuseAs(t, ctx, path, "outside the client's roots")
}

// mustRefuseAs checks that reading path is refused with a message that
// names the limit, why.
func (p *peer) mustRefuseAs(t *testing.T, ctx context.Context, path, why string) {
	t.Helper()
	text, isErr, err := p.read(ctx, path)
	if err != nil || !isErr || !strings.Contains(text, why) {
		t.Errorf("read_file %s = %q (tool error %t, %v), want refused as %s", path, text, isErr, err, why)
	}
}

// The go-sdk client, on a legacy session and on 2026-07-28: a file inside
// a root reads; a path out by name, by "..", by a link inside the root, or
// by ".." after a link, is refused; a file:// root naming another host is
// left out while the good root is kept; after the client changes its
// roots, the new root reads and the old one is refused.
func TestReadFile(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			tr, ctx := setup(t)
			p := connect(t, ctx, v.pin, nil, &mcp.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"})
			if got := p.cs.InitializeResult().ProtocolVersion; got != v.want {
				t.Fatalf("negotiated %s, want %s", got, v.want)
			}
			// A root on another host, which the SDK client lets through
			// (gosdkroots.AddRoots would refuse it): it must not stand for
			// the local directory of the same path.
			p.client.AddRoots(&mcp.Root{URI: "file://otherhost" + tr.Outside, Name: "remote"})

			p.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")
			for _, path := range []string{
				filepath.Join(tr.Outside, "secret"), // outside every root; inside the other host's
				tr.Root + "/../outside/secret",      // out by ".."
				filepath.Join(tr.Root, "link"),      // a link inside pointing out
				tr.Root + "/in/../x",                // ".." after a link to a directory outside
				filepath.Join(tr.Other, "new.txt"),  // not a root yet
				"in.txt",                            // relative
			} {
				p.mustRefuse(t, ctx, path)
			}

			// Change the roots. On 2025-06-18 the server hears
			// notifications/roots/list_changed before the next call, since
			// the SDK sends it before RemoveRoots and AddRoots return and
			// handles notifications in order; on 2026-07-28 every call
			// brings the roots.
			p.client.RemoveRoots(adaptertest.FileURI(tr.Root))
			if err := gosdkroots.AddRoots(p.client, &mcp.Root{URI: adaptertest.FileURI(tr.Other), Name: "other"}); err != nil {
				t.Fatal(err)
			}
			p.mustRead(t, ctx, filepath.Join(tr.Other, "new.txt"), "other")
			p.mustRefuse(t, ctx, filepath.Join(tr.Root, "in.txt"))
		})
	}
}

// On a legacy session the roots are asked for once and kept until the
// client announces a change, concurrent calls sharing one request; on
// 2026-07-28 every call carries them and the client is asked for them in
// each call's input_required round trip.
func TestRootsAskedOnce(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			tr, ctx := setup(t)
			p := connect(t, ctx, v.pin, nil, &mcp.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"})
			const calls = 8
			var wg sync.WaitGroup
			for range calls {
				wg.Go(func() { p.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside") })
			}
			wg.Wait()
			want := int32(1)
			if v.pin == "" {
				want = calls
			}
			if got := p.asked.Load(); got != want {
				t.Errorf("the client was asked for its roots %d times in %d calls, want %d", got, calls, want)
			}
			if v.pin == "" {
				// Each ask is an input_required result, marked as one.
				if got := p.inputRequired.Load(); got != calls {
					t.Errorf("%d input_required results on the wire in %d calls, want %d", got, calls, calls)
				}
			}
			p.client.AddRoots(&mcp.Root{URI: adaptertest.FileURI(tr.Other), Name: "other"})
			p.mustRead(t, ctx, filepath.Join(tr.Other, "new.txt"), "other")
			if got := p.asked.Load(); got != want+1 {
				t.Errorf("after a change the client was asked %d times in all, want %d", got, want+1)
			}
		})
	}
}

// A client that did not declare roots is never asked: on a legacy session
// the tool fails with the gate's error, on 2026-07-28 the call is answered
// with error -32021 naming the roots capability.
func TestNoRootsCapability(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			tr, ctx := setup(t)
			p := connect(t, ctx, v.pin, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
			text, isErr, err := p.read(ctx, filepath.Join(tr.Root, "in.txt"))
			if v.pin == "" {
				var wire *jsonrpc.Error
				if !errors.As(err, &wire) || wire.Code != -32021 || !strings.Contains(string(wire.Data), `"requiredCapabilities":{"roots":{}}`) {
					t.Errorf("read_file = %q, %v; want error -32021 with data.requiredCapabilities", text, err)
				}
			} else if err != nil || !isErr || !strings.Contains(text, gosdkroots.ErrNoRootsCapability.Error()) {
				t.Errorf("read_file = %q (tool error %t, %v), want a tool error: %v", text, isErr, err, gosdkroots.ErrNoRootsCapability)
			}
			if n := p.asked.Load(); n != 0 {
				t.Errorf("the client was asked for its roots %d times", n)
			}
		})
	}
}

// AddRoots refuses a root the gate's rules refuse, and adds none of the
// roots given with it.
func TestAddRootsChecks(t *testing.T) {
	tr, ctx := setup(t)
	p := connect(t, ctx, "2025-06-18", nil, &mcp.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"})
	for _, bad := range []string{"file://otherhost/srv", "https://example.com/", "relative/dir", "file:///a?q=1"} {
		err := gosdkroots.AddRoots(p.client, &mcp.Root{URI: adaptertest.FileURI(tr.Other)}, &mcp.Root{URI: bad})
		if err == nil || !strings.Contains(err.Error(), "roots[1]") {
			t.Errorf("AddRoots(good, %q) = %v, want an error naming roots[1]", bad, err)
		}
	}
	p.mustRefuse(t, ctx, filepath.Join(tr.Other, "new.txt"))
	p.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")
}

// The example runs as a program over stdio, the way an MCP host starts it.
func TestStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example")
	}
	tr := adaptertest.NewTree(t)
	exe := filepath.Join(t.TempDir(), "gosdk-server")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "gosdk-client", Version: "v1.8.0"}, nil)
			client.AddRoots(&mcp.Root{URI: adaptertest.FileURI(tr.Root)}, &mcp.Root{URI: "file://otherhost" + tr.Outside})
			cmd := exec.Command(exe)
			stderr := new(peertest.Buffer)
			cmd.Stderr = stderr
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: v.pin})
			if err != nil {
				t.Fatal(err)
			}
			p := &peer{client: client, cs: cs}
			p.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")
			p.mustRefuse(t, ctx, filepath.Join(tr.Outside, "secret"))
			if err := cs.Close(); err != nil {
				t.Error(err)
			}
			// The audit trail: the root left out, by index and rule, and
			// the path refused, by tool and reason.
			log := stderr.String()
			for _, want := range [][]string{
				{`msg="roots: root left out"`, "index=1", "uri=file://otherhost"},
				{`msg="roots: path refused"`, "tool=read_file", "reason=outside_roots", "path=" + filepath.Join(tr.Outside, "secret")},
			} {
				if !slices.ContainsFunc(strings.Split(log, "\n"), func(line string) bool {
					return !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(line, w) })
				}) {
					t.Errorf("stderr has no record with %q:\n%s", want, log)
				}
			}
		})
	}
}

// TestRootsWiringLines keeps the roots wiring of the example small: at
// most 30 lines of code (neither blank nor comment) between its markers.
func TestRootsWiringLines(t *testing.T) {
	n := adaptertest.WiringLines(t, "main.go", 30)
	if readme, err := os.ReadFile("../../../../../README.md"); err != nil || !strings.Contains(string(readme), fmt.Sprintf("%d lines of code (`TestRootsWiringLines`", n)) {
		t.Errorf("README.md does not give the count, %d lines (%v)", n, err)
	}
}
