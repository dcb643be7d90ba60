//lint:file-ignore SA1019 the Go SDK client's roots API, which it deprecates, is the peer under test

package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
)

// writeKeys writes the key file of -state-keys: keys[0] current.
func writeKeys(t *testing.T, file string, keys ...gosdkroots.StateKey) {
	t.Helper()
	var b bytes.Buffer
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %s\n", k.ID, base64.StdEncoding.EncodeToString(k.Secret))
	}
	if err := os.WriteFile(file, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestReplicas runs the replica recipe of the README: three replicas of
// the example server over Streamable HTTP behind a balancer, sharing
// -state-keys. A 2026-07-28 client makes 200 read_file calls, four at a
// time, each request going to another replica than the one before, while
// the keys rotate (the new key added as an older one everywhere, then made
// current, then the old one removed, each a reload of the file as SIGHUP
// does) and the replica of a 2025-06-18 session is stopped: no call
// fails. The 2025-06-18 client's next call fails with the balancer's
// error, and a new session works.
func TestReplicas(t *testing.T) {
	tr, ctx := setup(t)
	file := filepath.Join(t.TempDir(), "keys")
	k1 := gosdkroots.StateKey{ID: "k1", Secret: bytes.Repeat([]byte{1}, 32)}
	k2 := gosdkroots.StateKey{ID: "k2", Secret: bytes.Repeat([]byte{2}, 32)}
	writeKeys(t, file, k1)

	var sealers []*gosdkroots.StateSealer
	var servers []*httptest.Server
	var urls []string
	for range 3 {
		sealer, err := newSealer(file)
		if err != nil {
			t.Fatal(err)
		}
		server := newServer(slog.New(slog.DiscardHandler), nil, sealer)
		mux := http.NewServeMux()
		mux.Handle("/mcp", gosdkroots.HTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
		ts := httptest.NewServer(mux)
		t.Cleanup(ts.Close)
		sealers, servers, urls = append(sealers, sealer), append(servers, ts), append(urls, ts.URL)
	}
	b, err := adaptertest.NewBalancer(urls...)
	if err != nil {
		t.Fatal(err)
	}
	lb := adaptertest.BalancedProxy(t, b)
	endpoint := lb.URL + "/mcp"
	connectVia := func(pin string) *peer {
		t.Helper()
		client := newClient(nil)
		if err := gosdkroots.AddRoots(client, &mcp.Root{URI: adaptertest.FileURI(tr.Root)}); err != nil {
			t.Fatal(err)
		}
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, &mcp.ClientSessionOptions{ProtocolVersion: pin})
		if err != nil {
			t.Fatal(err)
		}
		return &peer{client: client, cs: cs}
	}
	in := filepath.Join(tr.Root, "in.txt")
	reload := func(keys ...gosdkroots.StateKey) {
		writeKeys(t, file, keys...)
		for _, s := range sealers {
			if err := reloadKeys(s, file); err != nil {
				t.Error(err)
			}
		}
	}

	legacy := connectVia("2025-06-18")
	legacy.mustRead(t, ctx, in, "inside")
	home, ok := b.Home(legacy.cs.ID())
	if !ok {
		t.Fatalf("the balancer saw no session %q", legacy.cs.ID())
	}

	current := connectVia("")
	defer current.cs.Close()
	if v := current.cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %s, want 2026-07-28", v)
	}
	const calls = 200
	failed := adaptertest.Traffic(t, calls, 4, map[int]func(){
		60:  func() { reload(k1, k2) }, // every replica can open k2's states
		100: func() { reload(k2, k1) }, // k2 seals
		130: func() { // the 2025-06-18 session's replica stops
			servers[home].CloseClientConnections()
			servers[home].Close()
		},
		170: func() { reload(k2) }, // k1 is gone: its states were opened long ago
	}, func() error {
		if text, isErr, err := current.read(ctx, in); err != nil || isErr || text != "inside" {
			return fmt.Errorf("%q (tool error %t), %v", text, isErr, err)
		}
		return nil
	})
	if failed > 0 {
		t.Errorf("%d of %d 2026-07-28 calls failed", failed, calls)
	}
	for i, n := range b.Served() {
		if n == 0 {
			t.Errorf("replica %d answered nothing", i)
		}
	}

	// The 2025-06-18 session lived in the stopped replica: the balancer
	// cannot reach it (502 Bad Gateway), and a new session works.
	_, _, err = legacy.read(ctx, in)
	if err == nil || !errors.Is(err, mcp.ErrConnectionClosed) && !bytes.Contains([]byte(err.Error()), []byte("Bad Gateway")) {
		t.Errorf("a call on the stopped replica's session: %v, want the transport's error", err)
	}
	legacy.cs.Close()
	again := connectVia("2025-06-18")
	defer again.cs.Close()
	again.mustRead(t, ctx, in, "inside")
}

// readKeys takes "id base64" lines, the current key first, skipping blank
// lines and comments, and refuses a file it cannot read as keys; a
// refused reload leaves the sealer's keys as they were.
func TestReadKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "keys")
	secret := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	if err := os.WriteFile(file, []byte("# rotated monthly\n\nnew "+secret+"\nold "+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := readKeys(file)
	if err != nil || len(keys) != 2 || keys[0].ID != "new" || keys[1].ID != "old" || len(keys[0].Secret) != 32 {
		t.Fatalf("readKeys = %+v, %v", keys, err)
	}
	sealer, err := newSealer(file)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := sealer.Seal([]byte("s"), gosdkroots.StateBinding{})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "# none\n", "k1\n", "k1 not-base64!\n", "k1 " + secret + " extra\n", "k1 c2hvcnQ=\n"} {
		if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := reloadKeys(sealer, file); err == nil {
			t.Errorf("reloadKeys took %q", bad)
		}
	}
	if _, err := sealer.Open(sealed, gosdkroots.StateBinding{}); err != nil {
		t.Errorf("after refused reloads, the keys changed: %v", err)
	}
}
