//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkReadFileRoots is one 2026-07-28 read_file call, as in
// BenchmarkReadFile, from a client with 1, 100 or 1,000 roots (existing
// directories; the file is in the last one), served by the adapter
// (impl=adapter) and by go-sdk alone (impl=gosdk, the handler of
// BenchmarkReadFile). With list=same the client sends the same list on
// every call; with list=distinct it renames its first root before each
// call (a root's name is part of the list), so that no two calls carry the
// same list and a cache of lists misses. Compare with benchstat -col /impl.
func BenchmarkReadFileRoots(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		dirs, file, content := benchRootsTree(b, n)
		for _, list := range []string{"same", "distinct"} {
			for _, impl := range benchImpls("2026-07-28") {
				b.Run(fmt.Sprintf("roots=%d/list=%s/impl=%s", n, list, impl.name), func(b *testing.B) {
					client, cs := benchRootsSession(b, impl.server(impl.handler()), dirs)
					ctx := context.Background()
					params := &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": file}}
					calls := 0
					b.ReportAllocs()
					for b.Loop() {
						if list == "distinct" {
							calls++
							client.RemoveRoots(fileURI(dirs[0]))
							client.AddRoots(&mcp.Root{URI: fileURI(dirs[0]), Name: fmt.Sprint("call ", calls)})
						}
						res, err := cs.CallTool(ctx, params)
						if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != content {
							b.Fatalf("read_file: %+v, %v", res, err)
						}
					}
				})
			}
		}
	}
}

// benchRootsTree makes n directories; the file is in the last.
func benchRootsTree(b *testing.B, n int) (dirs []string, file, content string) {
	base := b.TempDir()
	for i := range n {
		d := filepath.Join(base, fmt.Sprintf("project-%04d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			b.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	file = filepath.Join(dirs[n-1], "f.txt")
	content = strings.Repeat("x", 1024)
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	return dirs, file, content
}

// benchRootsSession connects a go-sdk client whose roots are dirs to
// server, on 2026-07-28, until the benchmark ends.
func benchRootsSession(b *testing.B, server *mcp.Server, dirs []string) (*mcp.Client, *mcp.ClientSession) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	for _, d := range dirs {
		client.AddRoots(&mcp.Root{URI: fileURI(d)})
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait() })
	return client, cs
}

// BenchmarkDescriptorsHeld is BenchmarkReadFileRoots with 256 roots and a
// distinct list on every call, each call reading in another root than the
// one before (every directory holds f.txt), and reports, as fds-held, the
// descriptors the process holds after the calls beyond those it held
// before: the adapter's budget against what go-sdk alone keeps. Run it
// with -benchtime 1000x for the count after 1,000 calls.
func BenchmarkDescriptorsHeld(b *testing.B) {
	const n = 256
	dirs, _, _ := benchRootsTree(b, n)
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, "f.txt"), []byte("x"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, impl := range benchImpls("2026-07-28") {
		b.Run("impl="+impl.name, func(b *testing.B) {
			client, cs := benchRootsSession(b, impl.server(impl.handler()), dirs)
			ctx := context.Background()
			before, err := os.ReadDir("/proc/self/fd")
			if err != nil {
				b.Skipf("no /proc/self/fd to count descriptors: %v", err)
			}
			calls := 0
			for b.Loop() {
				calls++
				client.RemoveRoots(fileURI(dirs[0]))
				client.AddRoots(&mcp.Root{URI: fileURI(dirs[0]), Name: fmt.Sprint("call ", calls)})
				file := filepath.Join(dirs[calls%n], "f.txt")
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": file}})
				if err != nil || res.IsError {
					b.Fatalf("read_file: %+v, %v", res, err)
				}
			}
			after, _ := os.ReadDir("/proc/self/fd")
			b.ReportMetric(float64(len(after)-len(before)), "fds-held")
		})
	}
}
