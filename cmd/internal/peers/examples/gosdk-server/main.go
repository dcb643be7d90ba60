// Command gosdk-server is an MCP server built on the official Go SDK whose
// read_file tool reads a file only when it lies inside one of the client's
// roots, through gosdkroots, the go-sdk adapter rootsgen generates. It
// serves every protocol revision the SDK and the gate share, 2026-07-28
// included, with the same handler.
//
//	go run ./examples/gosdk-server                                   # stdio
//	go run ./examples/gosdk-server -http 127.0.0.1:8080 -allow /srv  # Streamable HTTP at /mcp
//
// With -state-keys FILE, the requestState of 2026-07-28 is sealed with the
// keys in FILE, one "id base64-secret" per line, the first the current
// one: replicas that share the file open each other's states, and SIGHUP
// reads it again (a key rotation).
//
// (from cmd/internal/peers). The roots wiring is newServer: the lines
// between "roots wiring: begin" and "roots wiring: end", counted by
// TestRootsWiringLines.
package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

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
	keyFile := flag.String("state-keys", "", "seal 2026-07-28 requestStates with the keys in `FILE` (\"id base64-secret\" per line, the current first); SIGHUP reads it again")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gosdk-server: ")
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	var sealer *gosdkroots.StateSealer
	if *keyFile != "" {
		var err error
		if sealer, err = newSealer(*keyFile); err != nil {
			log.Fatal(err)
		}
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		go func() {
			for range hup {
				if err := reloadKeys(sealer, *keyFile); err != nil {
					logger.Warn("keys not changed", "error", err)
				}
			}
		}()
	}
	server := newServer(logger, allow, sealer)
	if *addr == "" {
		if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	// Both eras on one endpoint: 2025-era sessions on a stateful handler,
	// 2026-07-28 requests on a stateless one.
	http.Handle("/mcp", gosdkroots.HTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	log.Fatal(http.ListenAndServe(*addr, nil))
}

// roots wiring: begin

type readFileArgs struct {
	Path string `json:"path" jsonschema:"absolute path of the file to read"`
}

func newServer(logger *slog.Logger, allow []string, sealer *gosdkroots.StateSealer) *mcp.Server {
	opts := []gosdkroots.Option{gosdkroots.Logger(logger)}
	if len(allow) > 0 { // the operator's directories: client roots never reach beyond them
		opts = append(opts, gosdkroots.RootSetOptions(gosdkroots.Bounds(allow...)))
	}
	if sealer != nil { // keys every replica shares: a retry may reach another one
		opts = append(opts, gosdkroots.Sealer(sealer))
	}
	roots := gosdkroots.New(opts...)
	server := roots.NewServer(&mcp.Implementation{Name: "gosdk-server", Version: "v0.1.0"}, &mcp.ServerOptions{Logger: logger})
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

// newSealer is a sealer of the keys in file (see readKeys), for the
// server's name as its audience.
func newSealer(file string) (*gosdkroots.StateSealer, error) {
	keys, err := readKeys(file)
	if err != nil {
		return nil, err
	}
	return gosdkroots.NewStateSealer(gosdkroots.StateSealerConfig{Current: keys[0], Older: keys[1:], Audience: "gosdk-server"})
}

// reloadKeys gives sealer the keys now in file.
func reloadKeys(sealer *gosdkroots.StateSealer, file string) error {
	keys, err := readKeys(file)
	if err != nil {
		return err
	}
	return sealer.SetKeys(keys[0], keys[1:]...)
}

// readKeys reads file: one key per line, its id and its secret in
// standard base64 apart by spaces, the current key first; blank lines and
// lines that start with # are skipped.
func readKeys(file string) ([]gosdkroots.StateKey, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var keys []gosdkroots.StateKey
	for n, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want an id and a base64 secret", file, n+1)
		}
		secret, err := base64.StdEncoding.DecodeString(fields[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, n+1, err)
		}
		keys = append(keys, gosdkroots.StateKey{ID: fields[0], Secret: secret})
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no key", file)
	}
	return keys, nil
}
