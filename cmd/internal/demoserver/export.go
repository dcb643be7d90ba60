package demoserver

import (
	"context"
	"io"
	"net/http"
)

// Options configures one connection of the demo server; Serve runs it.
// They are exported for the Go SDK interop tests of the test module
// cmd/internal/peers, which cannot be in this package.
type Options = options

// Root is a root as the list_roots tool reports it.
type Root = root

// Serve runs one connection until r ends.
func Serve(ctx context.Context, r io.Reader, w io.Writer, o Options) error {
	return serve(ctx, r, w, o)
}

// HTTPHandler serves MCP's Streamable HTTP transport at Path, as
// rootsdemo-server -http does; Close ends its sessions.
type HTTPHandler interface {
	http.Handler
	Close()
}

// NewHTTPHandler returns the handler rootsdemo-server -http serves.
func NewHTTPHandler(o Options) (HTTPHandler, error) {
	return newHTTPHandler(o)
}
