// Package mcphttp is the framing the demo peers share for MCP's Streamable
// HTTP transport: the header names, and server-sent events (SSE) written
// and read one JSON-RPC message per event. Like cmd/internal/ndjson, it is
// written here rather than taken from an SDK, so that the demos and the SDKs
// they are tested against share no code.
package mcphttp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strconv"
	"strings"
	"time"
)

// The headers of the transport.
const (
	// HeaderSession carries the id of a 2025-era session.
	HeaderSession = "Mcp-Session-Id"
	// HeaderVersion carries the request's protocol version: the
	// negotiated one on a 2025-era session (2025-06-18 and later), the one
	// in the request's _meta on 2026-07-28.
	HeaderVersion = "Mcp-Protocol-Version"
	// HeaderMethod and HeaderName repeat the request's method and, for
	// tools/call, prompts/get and resources/read, the name or URI it
	// targets (2026-07-28).
	HeaderMethod = "Mcp-Method"
	HeaderName   = "Mcp-Name"
)

// The media types of the transport.
const (
	JSON        = "application/json"
	EventStream = "text/event-stream"
)

// Accepts reports whether an Accept header value lets the response be of
// media type mt: an empty header, */*, type/* or mt itself.
func Accepts(accept, mt string) bool {
	if strings.TrimSpace(accept) == "" {
		return true
	}
	major, _, _ := strings.Cut(mt, "/")
	for part := range strings.SplitSeq(accept, ",") {
		t, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if t == mt || t == "*/*" || t == major+"/*" {
			return true
		}
	}
	return false
}

// IsJSON reports whether a Content-Type header value is application/json.
func IsJSON(contentType string) bool {
	t, _, err := mime.ParseMediaType(contentType)
	return err == nil && t == JSON
}

// WriteEvent writes one SSE event of type message whose data is msg, a
// JSON-RPC message. msg must not hold a line break (compact JSON has none
// outside strings, where it is escaped).
func WriteEvent(w io.Writer, msg []byte) error {
	if bytes.ContainsAny(msg, "\r\n") {
		return errors.New("mcphttp: an event's data must be one line")
	}
	buf := make([]byte, 0, len(msg)+22)
	buf = append(buf, "event: message\ndata: "...)
	buf = append(buf, msg...)
	buf = append(buf, "\n\n"...)
	_, err := w.Write(buf)
	return err
}

// ErrEventTooLong is returned by ReadEvents for an event longer than its
// bound.
var ErrEventTooLong = errors.New("mcphttp: SSE event too long")

// Stream is what a reader of an SSE stream learns besides the events: the
// last event id and the last retry interval the server named (zero if
// none), which a client needs to resume or reopen the stream.
type Stream struct {
	LastID string
	Retry  time.Duration
}

// ReadEvents reads an SSE stream and calls fn with the data of each event
// that has some (data lines joined by "\n"); events of a type other than
// message, comments and ids are passed over, and so is an event the stream
// ends before finishing (as SSE requires). It stops at the end of r, at fn's
// first error, or at an event longer than max bytes, and returns nil at the
// end of r.
func ReadEvents(r io.Reader, max int, fn func(data []byte) error) error {
	return ReadStream(r, max, nil, fn)
}

// ReadStream is ReadEvents that also keeps st, if not nil, up to date with
// the stream's id and retry fields as they are read.
func ReadStream(r io.Reader, max int, st *Stream, fn func(data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), max+len("data: ")+2)
	var data []byte
	typ, has := "", false
	dispatch := func() error {
		d, t, ok := data, typ, has
		data, typ, has = data[:0], "", false
		if !ok || (t != "" && t != "message") {
			return nil
		}
		return fn(d)
	}
	for sc.Scan() {
		line := sc.Bytes() // ScanLines drops a "\r" before "\n"
		if len(line) == 0 {
			if err := dispatch(); err != nil {
				return err
			}
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if has {
				data = append(data, '\n')
			}
			data, has = append(data, value...), true
			if len(data) > max {
				return ErrEventTooLong
			}
		case "event":
			typ = string(value)
		case "id":
			if st != nil {
				st.LastID = string(value)
			}
		case "retry":
			if ms, err := strconv.Atoi(string(value)); err == nil && ms >= 0 && st != nil {
				st.Retry = time.Duration(ms) * time.Millisecond
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return ErrEventTooLong
		}
		return fmt.Errorf("mcphttp: reading events: %w", err)
	}
	return nil
}
