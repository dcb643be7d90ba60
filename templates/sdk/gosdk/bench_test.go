//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkReadFile is one read_file tool call, from go-sdk's client to a
// go-sdk server in process (mcp.NewInMemoryTransports), reading a 1 KiB
// file inside the client's one root, served four ways:
//
//   - rev=2025-06-18: impl=adapter (this package, its roots kept per
//     session) against impl=handwritten, a per-session cache of the
//     roots that ServerSession.ListRoots returns, each root opened once
//     with os.OpenRoot, dropped on roots/list_changed: what a server
//     writes without the adapter.
//   - rev=2026-07-28: impl=adapter against impl=gosdk, a handler that
//     asks for roots in an input_required result itself, reads them from
//     go-sdk's inputResponses and opens the root with os.OpenRoot. Each
//     call is two round trips, which go-sdk's client makes on its own.
//
// Compare the implementations with benchstat, running the benchmark binary
// once per round so that the four alternate (-count runs each in a row):
//
//	go -C templates/sdk test -c -o /tmp/gosdk.test ./gosdk
//	for i in 1 2 3 4 5 6; do /tmp/gosdk.test -test.run '^$' -test.bench ReadFile >> bench.txt; done
//	benchstat -col /impl bench.txt
func BenchmarkReadFile(b *testing.B) {
	dir, file, content := benchTree(b)
	for _, rev := range benchRevisions {
		for _, impl := range benchImpls(rev.name) {
			b.Run("rev="+rev.name+"/impl="+impl.name, func(b *testing.B) {
				cs := benchSession(b, impl.server(impl.handler()), rev.pin, dir)
				ctx := context.Background()
				params := &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": file}}
				b.ReportAllocs()
				for b.Loop() {
					res, err := cs.CallTool(ctx, params)
					if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != content {
						b.Fatalf("read_file: %+v, %v", res, err)
					}
				}
			})
		}
	}
}

// BenchmarkReadFileHandler is the server's part of BenchmarkReadFile
// alone: the requests of one real call, as go-sdk decoded them (on
// 2026-07-28 the first attempt and the retry), given to the tool handler
// again and again, with no transport, JSON or scheduling around them.
func BenchmarkReadFileHandler(b *testing.B) {
	dir, file, content := benchTree(b)
	for _, rev := range benchRevisions {
		for _, impl := range benchImpls(rev.name) {
			b.Run("rev="+rev.name+"/impl="+impl.name, func(b *testing.B) {
				h := impl.handler()
				var reqs []*mcp.CallToolRequest
				capture := func(ctx context.Context, req *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
					reqs = append(reqs, req)
					return h(ctx, req, in)
				}
				cs := benchSession(b, impl.server(capture), rev.pin, dir)
				ctx := context.Background()
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": file}}); err != nil {
					b.Fatal(err)
				}
				in := readArgs{Path: file}
				b.ReportAllocs()
				for b.Loop() {
					for _, req := range reqs {
						res, _, err := h(ctx, req, in)
						if err != nil || res.IsError {
							b.Fatalf("read_file: %+v, %v", res, err)
						}
					}
				}
				if last, _, _ := h(ctx, reqs[len(reqs)-1], in); last.Content[0].(*mcp.TextContent).Text != content {
					b.Fatalf("read_file: %+v", last)
				}
			})
		}
	}
}

var benchRevisions = []struct{ name, pin string }{{"2025-06-18", "2025-06-18"}, {"2026-07-28", ""}}

// benchImpl is a server of the tool "read", built around its handler.
type benchImpl struct {
	name    string
	handler func() mcp.ToolHandlerFor[readArgs, any]
	server  func(mcp.ToolHandlerFor[readArgs, any]) *mcp.Server
}

// benchImpls are the adapter and what it is compared with on rev.
func benchImpls(rev string) []benchImpl {
	var a *Adapter
	baseline := "handwritten"
	if rev >= "2026-07-28" {
		baseline = "gosdk"
	}
	var c *rootsCache
	return []benchImpl{
		{"adapter",
			func() mcp.ToolHandlerFor[readArgs, any] { a = New(); return readHandler(a) },
			func(h mcp.ToolHandlerFor[readArgs, any]) *mcp.Server {
				server := a.NewServer(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
				mcp.AddTool(server, &mcp.Tool{Name: "read"}, h)
				return server
			}},
		{baseline,
			func() mcp.ToolHandlerFor[readArgs, any] {
				c = &rootsCache{sessions: map[*mcp.ServerSession]*cachedRoots{}}
				return baselineHandler(c)
			},
			func(h mcp.ToolHandlerFor[readArgs, any]) *mcp.Server { return baselineServer(c, h) }},
	}
}

// benchTree is a directory holding a 1 KiB file, and the file.
func benchTree(b *testing.B) (dir, file, content string) {
	dir = filepath.Join(b.TempDir(), "root")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	file = filepath.Join(dir, "f.txt")
	content = strings.Repeat("x", 1024)
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir, file, content
}

// benchSession connects go-sdk's client, whose one root is dir, to server,
// pinned to pin, until the benchmark ends.
func benchSession(b *testing.B, server *mcp.Server, pin, dir string) *mcp.ClientSession {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	client.AddRoots(&mcp.Root{URI: fileURI(dir)})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: pin})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// baselineServer serves read_file without the adapter, as a go-sdk server
// does on its own: on a session that negotiated a revision with roots/list
// (2025-11-25 and earlier), from a per-session cache of the client's roots,
// each opened once with os.OpenRoot; on 2026-07-28, from the roots the
// retried call carries in inputResponses, asked for with an input_required
// result.
func baselineServer(c *rootsCache, h mcp.ToolHandlerFor[readArgs, any]) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "baseline", Version: "v0"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) { c.drop(req.Session) },
	})
	mcp.AddTool(server, &mcp.Tool{Name: "read"}, h)
	return server
}

// baselineHandler is the handler of baselineServer's tool "read".
func baselineHandler(c *rootsCache) mcp.ToolHandlerFor[readArgs, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in readArgs) (*mcp.CallToolResult, any, error) {
		var data []byte
		var err error
		if init := req.Session.InitializeParams(); init != nil && init.ProtocolVersion < "2026-07-28" {
			data, err = c.read(ctx, req.Session, in.Path)
		} else {
			resp, ok := req.Params.InputResponses["roots"]
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}}, nil, nil
			}
			result, _ := resp.(*mcp.ListRootsResult)
			if result == nil {
				return nil, nil, errors.New("inputResponses: not roots")
			}
			data, err = readInside(result.Roots, in.Path)
		}
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
	}
}

// readInside reads path inside the first of roots that holds it, opening
// that root with os.OpenRoot.
func readInside(roots []*mcp.Root, path string) ([]byte, error) {
	for _, r := range roots {
		dir, ok := strings.CutPrefix(r.URI, "file://")
		if !ok {
			continue
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return root.ReadFile(rel)
	}
	return nil, errors.New("outside the client's roots")
}

// rootsCache is a hand-written per-session cache of the client's roots.
type rootsCache struct {
	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*cachedRoots
}

// cachedRoots are a session's roots, each with the directory it names,
// opened once.
type cachedRoots struct {
	dirs  []string
	roots []*os.Root
}

func (c *rootsCache) read(ctx context.Context, ss *mcp.ServerSession, path string) ([]byte, error) {
	c.mu.Lock()
	cached := c.sessions[ss]
	c.mu.Unlock()
	if cached == nil {
		res, err := ss.ListRoots(ctx, &mcp.ListRootsParams{})
		if err != nil {
			return nil, err
		}
		cached = &cachedRoots{}
		for _, r := range res.Roots {
			dir, ok := strings.CutPrefix(r.URI, "file://")
			if !ok {
				continue
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				continue
			}
			cached.dirs = append(cached.dirs, dir)
			cached.roots = append(cached.roots, root)
		}
		c.mu.Lock()
		c.sessions[ss] = cached
		c.mu.Unlock()
	}
	for i, dir := range cached.dirs {
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		return cached.roots[i].ReadFile(rel)
	}
	return nil, errors.New("outside the client's roots")
}

func (c *rootsCache) drop(ss *mcp.ServerSession) {
	c.mu.Lock()
	cached := c.sessions[ss]
	delete(c.sessions, ss)
	c.mu.Unlock()
	if cached != nil {
		for _, r := range cached.roots {
			r.Close()
		}
	}
}
