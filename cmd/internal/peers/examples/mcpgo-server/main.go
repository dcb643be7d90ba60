// Command mcpgo-server is an MCP server built on
// github.com/mark3labs/mcp-go whose read_file tool reads a file only when
// it lies inside one of the client's roots, through mcpgoroots, the mcp-go
// adapter rootsgen generates. It serves every protocol revision mcp-go and
// the gate share, 2026-07-28 included, with the same handler:
//
//	go run ./examples/mcpgo-server                       # stdio
//	go run ./examples/mcpgo-server -http 127.0.0.1:8080  # Streamable HTTP at /mcp
//
// (from cmd/internal/peers). The roots wiring is newServer: the lines
// between "roots wiring: begin" and "roots wiring: end", counted by
// TestRootsWiringLines.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
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
	log.SetFlags(0)
	log.SetPrefix("mcpgo-server: ")
	s, err := newServer(slog.New(slog.NewTextHandler(os.Stderr, nil)), allow, nil)
	if err != nil {
		log.Fatal(err)
	}
	if *addr != "" {
		log.Fatal(server.NewStreamableHTTPServer(s).Start(*addr))
	}
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}

// roots wiring: begin

func newServer(logger *slog.Logger, allow []string, sealer *mcpgoroots.StateSealer) (*server.MCPServer, error) {
	roots, err := mcpgoroots.New(mcpgoroots.Options{Logger: logger, Sealer: sealer})
	if err != nil {
		return nil, err // a kit without every revision mcp-go serves
	}
	s := server.NewMCPServer("mcpgo-server", "v0.1.0", roots.ServerOption())
	readFile := func(ctx context.Context, req mcp.CallToolRequest, set *mcpgoroots.RootSet) (*mcp.CallToolResult, error) {
		path := req.GetString("path", "")
		data, err := set.ReadFile(path) // only inside a root: no "..", no link out
		if errors.Is(err, mcpgoroots.ErrOutsideRoots) {
			return mcp.NewToolResultError(fmt.Sprintf("read_file: refused: %q is outside the client's roots", path)), nil
		}
		if err != nil {
			return mcp.NewToolResultError("read_file: " + err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}
	s.AddTool(mcp.NewTool("read_file", mcp.WithDescription("Read a file inside the client's roots"),
		mcp.WithString("path", mcp.Required(), mcp.Description("absolute path of the file to read"))),
		roots.Tool(readFile, bounds(allow)...)) // this request's client roots, any revision, as a RootSet
	return s, nil
}

// bounds limits the tools to the operator's directories, if any: client
// roots never reach beyond them.
func bounds(allow []string) []mcpgoroots.RootSetOption {
	if len(allow) == 0 {
		return nil
	}
	return []mcpgoroots.RootSetOption{mcpgoroots.Bounds(allow...)}
}

// roots wiring: end
