// Package ndjson is the JSON-RPC 2.0 plumbing of the demo peers
// (cmd/rootsdemo-server, cmd/rootsdemo-client): one message per line over
// a reader and a writer, which is MCP's stdio transport.
//
// It is written here instead of taken from the Go SDK's jsonrpc package on
// purpose: the demos are tested against that SDK, and a peer that shares
// the other side's codec would hide a framing or decoding bug the two have
// in common. What it does is small: numbered requests and their answers,
// notifications, a bound on the length of a line, and a transcript.
package ndjson

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// DefaultMaxLine bounds one incoming message when Conn.MaxLine is zero; a
// longer line ends the connection instead of being buffered.
const DefaultMaxLine = 32 << 20

// ErrClosed is returned by calls that were waiting when the connection ended.
var ErrClosed = errors.New("ndjson: connection closed")

// Error is a JSON-RPC error object.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// Message is one JSON-RPC frame. Params keeps the difference between an
// absent member (nil) and "params": null (the bytes null).
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Outcome is what the answer m to a request for method says: its
// result, or the *Error it carries, or an error when it has neither.
func (m *Message) Outcome(method string) (json.RawMessage, error) {
	switch {
	case m.Error != nil:
		return nil, m.Error
	case m.Result == nil:
		return nil, fmt.Errorf("ndjson: %s: the answer has neither result nor error", method)
	}
	return m.Result, nil
}

// Conn is one connection. Set the fields, then call Run.
type Conn struct {
	// Handle answers a request. Each request runs on its own goroutine, so
	// a handler may call the peer back. Return an *Error to answer with it;
	// any other error is answered as -32603.
	Handle func(ctx context.Context, method string, params json.RawMessage) (any, error)
	// Notified handles a notification, on the reading goroutine, so
	// notifications take effect in the order they arrive and before any
	// message read after them.
	Notified func(ctx context.Context, method string, params json.RawMessage)
	// Transcript, if set, gets every frame as a line, "<- " received or
	// "-> " sent.
	Transcript io.Writer
	// MaxLine bounds the bytes of one incoming line; zero means DefaultMaxLine.
	MaxLine int

	r io.Reader
	w io.Writer

	wmu sync.Mutex // orders writes and their transcript lines
	rec Recorder

	pending Pending
	done    chan struct{}
}

// New returns a connection reading from r and writing to w.
func New(r io.Reader, w io.Writer) *Conn {
	return &Conn{r: r, w: w, done: make(chan struct{})}
}

// Run reads messages until r ends or ctx is done, then fails the calls still
// waiting and waits for the request handlers to return. It returns nil at
// the end of r.
func (c *Conn) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	var handlers sync.WaitGroup
	defer func() {
		close(c.done)
		cancel()
		handlers.Wait()
	}()
	max := c.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	sc := bufio.NewScanner(c.r)
	sc.Buffer(make([]byte, 0, 64<<10), max)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c.record("<- ", line)
		var m Message
		if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" {
			_ = c.write(&Message{ID: json.RawMessage("null"), Error: &Error{Code: -32700, Message: "Parse error"}})
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil:
			handlers.Add(1)
			go func() {
				defer handlers.Done()
				c.answer(ctx, &m)
			}()
		case m.Method != "":
			if c.Notified != nil {
				c.Notified(ctx, m.Method, m.Params)
			}
		default:
			c.deliver(&m)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("ndjson: reading: %w", err)
	}
	return nil
}

func (c *Conn) answer(ctx context.Context, m *Message) {
	out := &Message{ID: m.ID}
	var result any
	err := &Error{Code: -32601, Message: "Method not found"}
	if c.Handle != nil {
		var herr error
		result, herr = c.Handle(ctx, m.Method, m.Params)
		if err = nil; herr != nil && !errors.As(herr, &err) {
			err = &Error{Code: -32603, Message: "Internal error"}
		}
	}
	if err != nil {
		out.Error = err
	} else if raw, merr := Marshal(result); merr != nil {
		out.Error = &Error{Code: -32603, Message: "Internal error"}
	} else if out.Result = raw; raw == nil {
		out.Result = json.RawMessage("{}")
	}
	_ = c.write(out)
}

func (c *Conn) deliver(m *Message) { c.pending.Deliver(m) }

// Pending numbers the requests one side sends and hands each answer to the
// call waiting for it. The zero value is ready.
type Pending struct {
	mu    sync.Mutex
	last  int64
	calls map[int64]chan *Message
}

// Add numbers a new request: it returns the request's id and the channel
// its answer will come on, until Forget.
func (p *Pending) Add() (int64, <-chan *Message) {
	ch := make(chan *Message, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls == nil {
		p.calls = map[int64]chan *Message{}
	}
	p.last++
	p.calls[p.last] = ch
	return p.last, ch
}

// Forget drops the call with id, which waits no more.
func (p *Pending) Forget(id int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.calls, id)
}

// Deliver hands the answer m to the call waiting for its id, once; an
// answer no call waits for is dropped.
func (p *Pending) Deliver(m *Message) {
	id, err := strconv.ParseInt(string(m.ID), 10, 64)
	if err != nil {
		return // not an id this side sent
	}
	p.mu.Lock()
	ch := p.calls[id]
	delete(p.calls, id)
	p.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

// Call sends a request and waits for its answer: the result's JSON, an
// *Error the peer answered with, ctx's error, or ErrClosed. params nil
// sends no params member.
func (c *Conn) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, err := Marshal(params)
	if err != nil {
		return nil, err
	}
	id, ch := c.pending.Add()
	forget := func() { c.pending.Forget(id) }
	if err := c.write(&Message{ID: strconv.AppendInt(nil, id, 10), Method: method, Params: raw}); err != nil {
		forget()
		return nil, err
	}
	select {
	case m := <-ch:
		return m.Outcome(method)
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	case <-c.done:
		forget()
		return nil, ErrClosed
	}
}

// Notify sends a notification; params nil sends no params member.
func (c *Conn) Notify(_ context.Context, method string, params any) error {
	raw, err := Marshal(params)
	if err != nil {
		return err
	}
	return c.write(&Message{Method: method, Params: raw})
}

func (c *Conn) write(m *Message) error {
	m.JSONRPC = "2.0"
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.record("-> ", bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	_, err := c.w.Write(buf.Bytes())
	return err
}

func (c *Conn) record(dir string, frame []byte) { c.rec.Record(c.Transcript, dir, frame) }

// Recorder writes frames to a transcript one line at a time: dir ("<- "
// received or "-> " sent), the frame, a line break. It is what Conn and
// the demo client's HTTP transport share, so their transcripts compare
// line for line. The zero value is ready; a nil writer records nothing.
type Recorder struct{ mu sync.Mutex }

// Record writes one transcript line to w, if w is not nil.
func (r *Recorder) Record(w io.Writer, dir string, frame []byte) {
	if w == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	_, _ = io.WriteString(w, dir)
	_, _ = w.Write(frame)
	_, _ = io.WriteString(w, "\n")
}

// Marshal is v as compact JSON without HTML escaping: nil stays nil (no
// member), a json.RawMessage is kept as it is.
func Marshal(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return v, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
