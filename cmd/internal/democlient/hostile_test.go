package democlient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// fakeServer connects our client to a server written by hand; it answers
// the handshake for version and returns the peer and the client.
func fakeServer(t *testing.T, o options, chosen string) (*peertest.Peer, *client) {
	t.Helper()
	ours, theirs := peertest.Pipes()
	t.Cleanup(ours.Close)
	t.Cleanup(theirs.Close)
	p := peertest.NewPeer(t, theirs)
	connected := make(chan *client, 1)
	go func() {
		c, err := connect(context.Background(), ours.R, ours.W, o)
		if err != nil {
			t.Error(err)
		}
		connected <- c
	}()
	if o.Protocol == "2026-07-28" {
		req := p.Expect("server/discover")
		p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}}`)
	} else {
		req := p.Expect("initialize")
		p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"protocolVersion":"` + chosen + `","capabilities":{},"serverInfo":{"name":"fake","version":"0"}}}`)
		if chosen == o.Protocol {
			p.Expect("notifications/initialized")
		}
	}
	return p, <-connected
}

var oneRoot = []rootsgate.Root{{URI: "file:///home/me", Name: "me"}}

// roots/list with params absent, null or {}, and a string id, is answered.
func TestHostileRootsListParams(t *testing.T) {
	p, _ := fakeServer(t, options{Protocol: "2025-06-18", Roots: oneRoot}, "2025-06-18")
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"roots/list"}`,
		`{"jsonrpc":"2.0","id":8,"method":"roots/list","params":null}`,
		`{"jsonrpc":"2.0","id":"nine","method":"roots/list","params":{}}`,
		`{"jsonrpc":"2.0","id":10,"method":"roots/list","params":{"_meta":{"progressToken":2}}}`,
	} {
		p.Send(frame)
		var sent struct{ ID json.RawMessage }
		_ = json.Unmarshal([]byte(frame), &sent)
		m, raw := p.Recv()
		if string(m.ID) != string(sent.ID) || string(m.Result) != `{"roots":[{"name":"me","uri":"file:///home/me"}]}` {
			t.Errorf("%s was answered %s", frame, raw)
		}
	}
	// A request the client does not serve is refused, not ignored.
	p.Send(`{"jsonrpc":"2.0","id":11,"method":"sampling/createMessage","params":{}}`)
	if m, raw := p.Recv(); m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("unknown request answered %s", raw)
	}
}

// With -no-list-changed, or on 2026-07-28, changing the roots sends
// nothing: the next frame the server sees is the answer to its ping.
func TestHostileNoListChanged(t *testing.T) {
	for _, o := range []options{{Protocol: "2025-11-25", NoListChanged: true}, {Protocol: "2026-07-28"}} {
		p, c := fakeServer(t, o, o.Protocol)
		if out, _ := json.Marshal(c.command(context.Background(), "roots file:///x")); string(out) != `{"ok":true}` {
			t.Errorf("roots printed %s", out)
		}
		p.Send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		if m, raw := p.Recv(); string(m.ID) != "1" || m.Method != "" {
			t.Errorf("%s: got %s, want the ping's answer and no list_changed", o.Protocol, raw)
		}
	}
}

// On 2026-07-28 an embedded roots/list without params (which go-sdk v1.8.0
// cannot decode) is answered; an input request the client cannot answer
// ends the call with an error instead of a loop.
func TestHostileInputRequired(t *testing.T) {
	p, c := fakeServer(t, options{Protocol: "2026-07-28", Roots: oneRoot}, "")
	out := make(chan any, 1)
	go func() { out <- c.command(context.Background(), `call t {"a":1}`) }()
	req := p.Expect("tools/call")
	p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"roots/list"}},"requestState":"s1"}}`)
	retry := p.Expect("tools/call")
	var params struct {
		Arguments      json.RawMessage `json:"arguments"`
		InputResponses json.RawMessage `json:"inputResponses"`
		RequestState   string          `json:"requestState"`
		Meta           map[string]json.RawMessage
	}
	if err := json.Unmarshal(retry.Params, &params); err != nil {
		t.Fatal(err)
	}
	if string(params.InputResponses) != `{"k":{"roots":[{"name":"me","uri":"file:///home/me"}]}}` || params.RequestState != "s1" || string(params.Arguments) != `{"a":1}` {
		t.Errorf("retry params %s", retry.Params)
	}
	p.Send(`{"jsonrpc":"2.0","id":` + string(retry.ID) + `,"result":{"resultType":"input_required","inputRequests":{"e":{"method":"elicitation/create","params":{"message":"?"}}}}}`)
	got, _ := json.Marshal(<-out)
	if !strings.Contains(string(got), `"error"`) || !strings.Contains(string(got), `cannot answer input requests [\"e\"]`) {
		t.Errorf("printed %s, want an error naming the unanswerable entry", got)
	}
}

// A server that picks a revision the client cannot speak fails the handshake.
func TestHostileHandshake(t *testing.T) {
	ours, theirs := peertest.Pipes()
	defer ours.Close()
	defer theirs.Close()
	p := peertest.NewPeer(t, theirs)
	errs := make(chan error, 1)
	go func() {
		_, err := connect(context.Background(), ours.R, ours.W, options{Protocol: "2025-06-18"})
		errs <- err
	}()
	req := p.Expect("initialize")
	p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"protocolVersion":"1999-01-01","capabilities":{}}}`)
	if err := <-errs; err == nil || !strings.Contains(err.Error(), `"1999-01-01"`) {
		t.Errorf("connect: %v, want a handshake error naming the version", err)
	}
}
