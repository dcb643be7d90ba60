//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// narrow makes the adapter see a gate serving only versions, as in a kit
// generated with -revisions, until the test ends. (Lookup still serves
// every revision of generated/rootsgate; only what the adapter offers
// changes.) Tests that narrow do not run in parallel.
func narrow(t *testing.T, versions ...string) {
	t.Helper()
	all := Revisions
	Revisions = func() []Revision {
		var out []Revision
		for _, r := range all() {
			if slices.Contains(versions, r.Version) {
				out = append(out, r)
			}
		}
		return out
	}
	t.Cleanup(func() { Revisions = all })
}

// ServerOptions narrows the versions go-sdk offers to those the gate
// serves, from go-sdk's list or from the one given, and refuses, naming
// both sides, a list the gate serves none of.
func TestServerOptionsVersions(t *testing.T) {
	narrow(t, "2025-06-18", "2026-07-28")
	a := New()
	for _, c := range []struct{ given, want []string }{
		{nil, []string{"2026-07-28", "2025-06-18"}},
		{[]string{"2025-11-25", "2025-06-18"}, []string{"2025-06-18"}},
	} {
		got := a.ServerOptions(&mcp.ServerOptions{SupportedProtocolVersions: c.given}).SupportedProtocolVersions
		if !slices.Equal(got, c.want) {
			t.Errorf("given %v: %v, want %v", c.given, got, c.want)
		}
	}
	defer func() {
		msg, _ := recover().(error)
		if msg == nil || !strings.Contains(msg.Error(), "2025-11-25") || !strings.Contains(msg.Error(), "2025-06-18, 2026-07-28") {
			t.Errorf("a list the gate serves none of: panic %v, want one naming both sides", msg)
		}
	}()
	a.ServerOptions(&mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-11-25"}})
}

// A kit narrowed to 2025-06-18 and 2026-07-28: a client offering
// 2025-11-25 at initialize is answered with 2025-06-18, which the gate
// serves, and reads its roots; a client offering nothing in particular
// ends on 2026-07-28.
func TestNarrowedNegotiation(t *testing.T) {
	narrow(t, "2025-06-18", "2026-07-28")
	dir, file := testDir(t)
	for _, c := range []struct{ offered, want string }{
		{"2025-11-25", "2025-06-18"},
		{"2025-03-26", "2025-06-18"},
		{"", "2026-07-28"},
	} {
		cs, _ := connect(t, readServer(New()), c.offered, nil, &mcp.Root{URI: fileURI(dir)})
		if got := cs.InitializeResult().ProtocolVersion; got != c.want {
			t.Errorf("offered %q: negotiated %s, want %s", c.offered, got, c.want)
		}
		if text, err := read(t, cs, file); err != nil || text != "one" {
			t.Errorf("offered %q: read %q, %v", c.offered, text, err)
		}
	}
}

// A kit without 2026-07-28: go-sdk's client, which tries it first, ends on
// the newest version the gate serves, even when pinned to 2026-07-28; and
// a request naming 2026-07-28 is refused by go-sdk before any handler runs,
// with the error that lists the versions it serves.
func TestNarrowedWithout2026(t *testing.T) {
	narrow(t, "2025-03-26", "2025-06-18")
	dir, file := testDir(t)
	for _, pin := range []string{"", "2026-07-28"} {
		cs, _ := connect(t, readServer(New()), pin, nil, &mcp.Root{URI: fileURI(dir)})
		if got := cs.InitializeResult().ProtocolVersion; got != "2025-06-18" {
			t.Errorf("pin %q: negotiated %s, want 2025-06-18", pin, got)
		}
		if text, err := read(t, cs, file); err != nil || text != "one" {
			t.Errorf("pin %q: read %q, %v", pin, text, err)
		}
	}

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := readServer(New()).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msg, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"` + file + `"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Write(ctx, msg); err != nil {
		t.Fatal(err)
	}
	got, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := got.(*jsonrpc.Response)
	var wire *jsonrpc.Error
	if res == nil || !errors.As(res.Error, &wire) || wire.Code != mcp.CodeUnsupportedProtocolVersion || !strings.Contains(string(wire.Data), `"supported":["2025-06-18","2025-03-26"]`) {
		raw, _ := jsonrpc.EncodeMessage(got)
		t.Errorf("a request naming 2026-07-28: %s, want error %d listing what the gate serves", raw, mcp.CodeUnsupportedProtocolVersion)
	}
}
