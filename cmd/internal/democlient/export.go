package democlient

import (
	"context"
	"io"
)

// Options configures the demo client; Connect starts a session with it.
// They are exported for the Go SDK interop tests of the test module
// cmd/internal/peers, which cannot be in this package.
type Options = options

// Client is a connected demo client.
type Client = client

// Connect performs the handshake on r and w.
func Connect(ctx context.Context, r io.Reader, w io.Writer, o Options) (*Client, error) {
	return connect(ctx, r, w, o)
}

// Command runs one command line, as read from stdin, and returns what
// would be printed.
func (c *Client) Command(ctx context.Context, line string) any {
	return c.command(ctx, line)
}

// ConnectHTTP performs the handshake with the Streamable HTTP endpoint at
// url; Close ends the session.
func ConnectHTTP(ctx context.Context, url string, o Options) (*Client, error) {
	return connectHTTP(ctx, url, o)
}

// Close ends an HTTP session: the GET stream stops and the session is
// deleted. It does nothing on stdio.
func (c *Client) Close() error { return c.close() }
