// Package gatepeer is the client end the gate's tests run a Session
// against, shared by rootsrt's tests (on revisions made up for them) and
// generated's (on the real revisions, whose gate types are rootsrt's): a
// peer whose roots a test changes, the params of a request, and a root
// directory to read in.
package gatepeer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// A Peer is the client at the other end of a Session: a rootsrt.Client,
// declaring listChanged, whose roots the test changes.
type Peer struct {
	mu     sync.Mutex
	roots  []rootsrt.Root
	Asks   atomic.Int32 // roots/list requests received
	Client rootsrt.Client
}

// New returns a Peer holding roots.
func New(roots ...rootsrt.Root) *Peer {
	p := &Peer{roots: roots}
	p.Client = rootsrt.Client{ListChanged: true, ListRoots: func(context.Context) ([]rootsrt.Root, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.roots, nil
	}}
	return p
}

// Set changes the peer's roots.
func (p *Peer) Set(roots ...rootsrt.Root) {
	p.mu.Lock()
	p.roots = roots
	p.mu.Unlock()
}

// Request is a Session's Request for version: the peer answers roots/list.
func (p *Peer) Request(version string) func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
	return func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		p.Asks.Add(1)
		return p.Client.HandleRequest(ctx, version, method, params)
	}
}

// Session is a session for rev whose client is p and declared caps,
// closed when the test ends.
func (p *Peer) Session(t testing.TB, rev rootsrt.Revision, caps string) *rootsrt.Session {
	t.Helper()
	sess := &rootsrt.Session{Request: p.Request(rev.Version)}
	if rev.DirectRequest {
		if err := sess.Initialize(rev.Version, json.RawMessage(caps)); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { sess.Close() })
	return sess
}

// Caps is the client capabilities object declaring roots under rev.
func Caps(rev rootsrt.Revision) string {
	if rev.ListChanged {
		return `{"roots":{"listChanged":true}}`
	}
	return `{"roots":{}}`
}

// Meta names the members of a request's _meta that carry its protocol
// version and the client's capabilities, where requests stand alone.
type Meta struct{ VersionKey, CapsKey string }

// Params are the params of a tools/call under rev: where requests carry
// their version and capabilities, with _meta and, when responses is not
// nil, inputResponses.
func (m Meta) Params(rev rootsrt.Revision, caps string, responses json.RawMessage) json.RawMessage {
	if rev.DirectRequest {
		return json.RawMessage(`{"name":"read_file","arguments":{}}`)
	}
	p := `{"name":"read_file","arguments":{},"_meta":{"` + m.VersionKey + `":"` + rev.Version + `","` + m.CapsKey + `":` + caps + `}`
	if responses != nil {
		p += `,"inputResponses":` + string(responses)
	}
	return json.RawMessage(p + "}")
}

// RetryParams are the params of a retried request under rev that carries
// roots in inputResponses under the default key.
func (m Meta) RetryParams(rev rootsrt.Revision, roots ...rootsrt.Root) json.RawMessage {
	answer, err := json.Marshal(map[string]any{rootsrt.DefaultInputKey: map[string]any{"roots": roots}})
	if err != nil {
		panic(err)
	}
	return m.Params(rev, Caps(rev), answer)
}

// RootDir makes a directory r whose f.txt says "one".
func RootDir(t testing.TB) (dir, f string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "r")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f = filepath.Join(dir, "f.txt")
	if err := os.WriteFile(f, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, f
}
