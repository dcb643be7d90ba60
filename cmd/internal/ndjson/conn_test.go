package ndjson_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// run starts a Conn on one end of a wire and returns the peer on the other.
func run(t *testing.T, setup func(*ndjson.Conn)) (*ndjson.Conn, *peertest.Peer, *peertest.Buffer, func() error) {
	t.Helper()
	ours, theirs := peertest.Pipes()
	t.Cleanup(theirs.Close)
	c := ndjson.New(ours.R, ours.W)
	transcript := new(peertest.Buffer)
	c.Transcript = transcript
	setup(c)
	done := make(chan error, 1)
	go func() {
		done <- c.Run(context.Background())
		ours.W.Close()
	}()
	// end closes the peer's side and returns what Run returned.
	end := func() error {
		theirs.W.Close()
		return <-done
	}
	return c, peertest.NewPeer(t, theirs), transcript, end
}

func TestHandle(t *testing.T) {
	var notes []string
	_, p, transcript, _ := run(t, func(c *ndjson.Conn) {
		c.Handle = func(_ context.Context, method string, params json.RawMessage) (any, error) {
			switch method {
			case "echo":
				return map[string]string{"params": string(params), "html": "<&>"}, nil
			case "nothing":
				return nil, nil
			case "refuse":
				return nil, &ndjson.Error{Code: -32001, Message: "no", Data: json.RawMessage(`{"why":1}`)}
			}
			return nil, errors.New("secret detail")
		}
		c.Notified = func(_ context.Context, method string, params json.RawMessage) {
			notes = append(notes, method+" "+string(params))
		}
	})
	for _, tc := range []struct{ send, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"echo"}`, `{"jsonrpc":"2.0","id":1,"result":{"html":"<&>","params":""}}`},
		{`{"jsonrpc":"2.0","id":"a","method":"echo","params":null}`, `{"jsonrpc":"2.0","id":"a","result":{"html":"<&>","params":"null"}}`},
		{`{"jsonrpc":"2.0","id":2,"method":"nothing","params":{}}`, `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"refuse"}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32001,"message":"no","data":{"why":1}}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"fail"}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error"}}`},
		{`{"id":5,"method":"echo"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{`not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
	} {
		p.Send(tc.send)
		if _, raw := p.Recv(); raw != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.send, raw, tc.want)
		}
	}
	// Notifications run in order, before the next message is read.
	p.Send(`{"jsonrpc":"2.0","method":"n1"}`)
	p.Send(`{"jsonrpc":"2.0","method":"n2","params":null}`)
	p.Send(`{"jsonrpc":"2.0","id":6,"method":"nothing"}`)
	p.Recv()
	if got := strings.Join(notes, ","); got != "n1 ,n2 null" {
		t.Errorf("notifications %q", got)
	}
	if lines := strings.Count(transcript.String(), "\n"); lines != 2*7+4 {
		t.Errorf("transcript has %d lines:\n%s", lines, transcript)
	}
}

func TestCall(t *testing.T) {
	c, p, _, end := run(t, func(*ndjson.Conn) {})
	ctx := context.Background()
	type answer struct {
		raw json.RawMessage
		err error
	}
	call := func(params any) chan answer {
		ch := make(chan answer, 1)
		go func() {
			raw, err := c.Call(ctx, "m", params)
			ch <- answer{raw, err}
		}()
		return ch
	}

	a := call(json.RawMessage(`{}`))
	req, raw := p.Recv()
	if raw != `{"jsonrpc":"2.0","id":1,"method":"m","params":{}}` {
		t.Errorf("sent %s", raw)
	}
	p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"x":1}}`)
	if got := <-a; got.err != nil || string(got.raw) != `{"x":1}` {
		t.Errorf("Call = %s, %v", got.raw, got.err)
	}

	a = call(nil)
	req, raw = p.Recv()
	if strings.Contains(raw, "params") {
		t.Errorf("nil params sent as %s", raw)
	}
	p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
	var rpcErr *ndjson.Error
	if got := <-a; !errors.As(got.err, &rpcErr) || rpcErr.Code != -32601 {
		t.Errorf("Call error = %v", got.err)
	}

	a = call(nil)
	req, _ = p.Recv()
	p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `}`)
	if got := <-a; got.err == nil || !strings.Contains(got.err.Error(), "neither result nor error") {
		t.Errorf("an empty answer gave %s, %v", got.raw, got.err)
	}

	cctx, cancel := context.WithCancel(ctx)
	errs := make(chan error, 1)
	go func() { _, err := c.Call(cctx, "m", nil); errs <- err }()
	p.Recv()
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Call = %v", err)
	}

	// A call still waiting when the wire ends fails with ErrClosed.
	a = call(nil)
	p.Recv()
	p.Send(`{"jsonrpc":"2.0","id":999,"result":{}}`) // an id nobody sent: ignored
	if err := end(); err != nil {
		t.Errorf("Run = %v", err)
	}
	if got := <-a; !errors.Is(got.err, ndjson.ErrClosed) {
		t.Errorf("Call after the end = %v", got.err)
	}
}

// Pending numbers requests from 1 and hands each answer to its own call,
// once; answers to forgotten calls and to ids it never gave are dropped.
func TestPending(t *testing.T) {
	var p ndjson.Pending
	id1, ch1 := p.Add()
	id2, ch2 := p.Add()
	if id1 != 1 || id2 != 2 {
		t.Fatalf("ids %d, %d; want 1, 2", id1, id2)
	}
	p.Forget(id1)
	p.Deliver(&ndjson.Message{ID: json.RawMessage("1")})
	p.Deliver(&ndjson.Message{ID: json.RawMessage(`"2"`)})
	p.Deliver(&ndjson.Message{ID: json.RawMessage("2"), Result: json.RawMessage("{}")})
	p.Deliver(&ndjson.Message{ID: json.RawMessage("2"), Result: json.RawMessage("[]")}) // a second answer
	if len(ch1) != 0 || len(ch2) != 1 {
		t.Fatalf("queued answers %d and %d, want 0 and 1", len(ch1), len(ch2))
	}
	if m := <-ch2; string(m.Result) != "{}" {
		t.Errorf("call 2 got %s, want its first answer", m.Result)
	}
}
