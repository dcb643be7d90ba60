// Command gosdk-server is an MCP server built on the official Go SDK whose
// read_file tool reads a file only when it lies inside one of the client's
// roots, through gosdkroots, the go-sdk adapter rootsgen generates. It
// serves every protocol revision the SDK and the gate share, 2026-07-28
// included, with the same handler.
//
//	go run ./examples/gosdk-server                                   # stdio
//	go run ./examples/gosdk-server -http 127.0.0.1:8080 -allow /srv  # Streamable HTTP at /mcp
//
// (from cmd/internal/peers). The roots wiring is newServer: the lines
// between "roots wiring: begin" and "roots wiring: end", counted by
// TestRootsWiringLines.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
)

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	var allow []string
	flag.Func("allow", "an absolute `directory` the tools may touch, within the client's roots (repeatable)", func(dir string) error {
		if !filepath.IsAbs(dir) {
			return fmt.Errorf("%q is not an absolute path", dir)
		}
		allow = append(allow, dir)
		return nil
	})
	flag.Parse()
	logger := log.New(os.Stderr, "gosdk-server: ", 0)
	server := newServer(logger, allow)
	if *addr == "" {
		if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			logger.Fatal(err)
		}
		return
	}
	// Both eras on one endpoint: 2025-era sessions on a stateful handler,
	// 2026-07-28 requests on a stateless one.
	http.Handle("/mcp", gosdkroots.HTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	logger.Fatal(http.ListenAndServe(*addr, nil))
}

// roots wiring: begin

type readFileArgs struct {
	Path string `json:"path" jsonschema:"absolute path of the file to read"`
}

func newServer(logger *log.Logger, allow []string) *mcp.Server {
	opts := []gosdkroots.Option{gosdkroots.OnInvalidRoots(func(err error) { logger.Printf("roots left out: %v", err) })}
	if len(allow) > 0 { // the operator's directories: client roots never reach beyond them
		opts = append(opts, gosdkroots.RootSetOptions(gosdkroots.Bounds(allow...)))
	}
	roots := gosdkroots.New(opts...)
	server := roots.NewServer(&mcp.Implementation{Name: "gosdk-server", Version: "v0.1.0"}, nil)
	readFile := func(ctx context.Context, req *mcp.CallToolRequest, in readFileArgs) (*mcp.CallToolResult, any, error) {
		set, err := roots.RootSet(ctx, req) // this request's client roots, any revision
		if err != nil {
			return nil, nil, err
		}
		defer set.Close()
		data, err := set.ReadFile(in.Path) // only inside a root: no "..", no link out
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
	}
	mcp.AddTool(server, &mcp.Tool{Name: "read_file", Description: "Read a file inside the client's roots"}, gosdkroots.HandlerFor(readFile))
	return server
}

// roots wiring: end
