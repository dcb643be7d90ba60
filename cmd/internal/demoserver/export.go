package demoserver

import (
	"context"
	"io"
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
