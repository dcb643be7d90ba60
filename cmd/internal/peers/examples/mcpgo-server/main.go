// Command mcpgo-server is an MCP server on github.com/mark3labs/mcp-go,
// over stdio, with one tool, read_file {"path"}, that reads a file only
// inside the roots of the client that calls it, on every protocol
// revision, through the adapter rootsgen generated for mcp-go.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

func main() {
	logger := log.New(os.Stderr, "mcpgo-server: ", 0)
	roots := mcpgoroots.New(mcpgoroots.Options{
		OnInvalidRoots: func(err error) { logger.Print("roots left out: ", err) },
	})
	s := server.NewMCPServer("mcpgo-server", "1.0.0", roots.ServerOption())
	readFile := mcp.NewTool("read_file",
		mcp.WithDescription("Read a file inside the client's roots."),
		mcp.WithString("path", mcp.Required(), mcp.Description("absolute path of the file")))
	s.AddTool(readFile, roots.Tool(func(ctx context.Context, req mcp.CallToolRequest, set *rootsgate.RootSet) (*mcp.CallToolResult, error) {
		path, err := req.RequireString("path")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		data, err := set.ReadFile(path)
		if errors.Is(err, rootsgate.ErrOutsideRoots) {
			return mcp.NewToolResultError(fmt.Sprintf("read_file: refused: %q is outside the client's roots", path)), nil
		}
		if err != nil {
			return mcp.NewToolResultError("read_file: " + err.Error()), nil
		}
		return mcp.NewToolResultText(string(data)), nil
	}))
	if err := server.ServeStdio(s); err != nil {
		logger.Fatal(err)
	}
}
