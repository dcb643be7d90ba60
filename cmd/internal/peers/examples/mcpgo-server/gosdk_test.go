package main

//lint:file-ignore SA1019 the Go SDK client's roots API, deprecated by it, is the peer under test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
)

// go-sdk v1.8.0's client against the example: on 2025-06-18 it reads
// inside its root. On 2026-07-28 the call fails in the client: mcp-go
// v1.2.1 writes the roots entry of inputRequests as {"method":"roots/list"},
// without params (mcp.InputRequest drops them, and a tool handler cannot
// change it), and go-sdk v1.8.0 fails to decode an entry without params.
// The test pins both halves of this peer fact, stated in
// cmd/internal/peers/README.md.
func TestGoSDKClientAgainstMCPGo(t *testing.T) {
	exe := build(t)
	eachVersion(t, func(t *testing.T, ctx context.Context, version string, tr adaptertest.Tree) {
		c := gosdk.NewClient(&gosdk.Implementation{Name: "gosdk-client", Version: "v1.8.0"}, nil)
		c.AddRoots(&gosdk.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"})
		cs, err := c.Connect(ctx, &gosdk.CommandTransport{Command: exec.Command(exe)}, &gosdk.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(ctx, &gosdk.CallToolParams{Name: "read_file", Arguments: map[string]any{"path": filepath.Join(tr.Root, "in.txt")}})
		if version == "" {
			if err == nil || !strings.Contains(err.Error(), "unexpected end of JSON input") {
				t.Errorf("CallTool = %+v, %v; go-sdk now reads mcp-go's roots/list entry: update the peer facts in cmd/internal/peers/README.md", res, err)
			}
			return
		}
		if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].(*gosdk.TextContent).Text != "inside" {
			t.Errorf("CallTool = %+v, %v; want the file", res, err)
		}
	})
}
