//lint:file-ignore SA1019 the Go SDK client's roots API, which it deprecates, is the peer under test

package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
)

// balancer is the load balancer of the replica recipe, as the transport
// of an httputil.ReverseProxy: a request without Mcp-Session-Id goes to
// the replicas in turn, and to the next one when its replica cannot be
// reached (the tool is a read: a retry is safe); a request with one goes
// to the replica that answered the initialize that created the session.
type balancer struct {
	replicas []*url.URL
	next     atomic.Uint32

	mu       sync.Mutex
	sessions map[string]int // Mcp-Session-Id -> replica
	served   []int          // requests each replica answered
}

func (b *balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	sid := req.Header.Get("Mcp-Session-Id")
	b.mu.Lock()
	home, sticky := b.sessions[sid]
	b.mu.Unlock()
	var lastErr error
	start := int(b.next.Add(1))
	for try := range len(b.replicas) {
		i := home
		if !sticky {
			i = (start + try) % len(b.replicas) // each replica once
		} else if try > 0 {
			break // a session lives in its replica alone
		}
		out := req.Clone(req.Context())
		out.URL.Scheme, out.URL.Host, out.Host = b.replicas[i].Scheme, b.replicas[i].Host, ""
		out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			lastErr = err
			continue
		}
		b.mu.Lock()
		if s := resp.Header.Get("Mcp-Session-Id"); s != "" && !sticky {
			b.sessions[s] = i
		}
		b.served[i]++
		b.mu.Unlock()
		return resp, nil
	}
	return nil, lastErr
}

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
	b := &balancer{sessions: map[string]int{}, served: make([]int, 3)}
	for range 3 {
		sealer, err := newSealer(file)
		if err != nil {
			t.Fatal(err)
		}
		server := newServer(log.New(io.Discard, "", 0), nil, sealer)
		mux := http.NewServeMux()
		mux.Handle("/mcp", gosdkroots.HTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
		ts := httptest.NewServer(mux)
		t.Cleanup(ts.Close)
		u, _ := url.Parse(ts.URL)
		sealers, servers, b.replicas = append(sealers, sealer), append(servers, ts), append(b.replicas, u)
	}
	lb := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.Out.URL.Scheme, r.Out.URL.Host = "http", "replica" },
		Transport:     b,
		FlushInterval: -1, // streams pass as they come
		ErrorLog:      log.New(io.Discard, "", 0),
	})
	defer lb.Close()
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
	b.mu.Lock()
	home, ok := b.sessions[legacy.cs.ID()]
	b.mu.Unlock()
	if !ok {
		t.Fatalf("the balancer saw no session %q", legacy.cs.ID())
	}

	current := connectVia("")
	defer current.cs.Close()
	if v := current.cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %s, want 2026-07-28", v)
	}
	const calls = 200
	var started, failed atomic.Int32
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				n := started.Add(1)
				if n > calls {
					return
				}
				switch n {
				case 60:
					reload(k1, k2) // every replica can open k2's states
				case 100:
					reload(k2, k1) // k2 seals
				case 130:
					servers[home].CloseClientConnections()
					servers[home].Close() // the 2025-06-18 session's replica stops
				case 170:
					reload(k2) // k1 is gone: its states were opened long ago
				}
				if text, isErr, err := current.read(ctx, in); err != nil || isErr || text != "inside" {
					failed.Add(1)
					t.Errorf("call %d: %q (tool error %t), %v", n, text, isErr, err)
				}
			}
		})
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d 2026-07-28 calls failed", n, calls)
	}
	b.mu.Lock()
	for i, n := range b.served {
		if n == 0 {
			t.Errorf("replica %d answered nothing", i)
		}
	}
	b.mu.Unlock()

	// The 2025-06-18 session lived in the stopped replica: the balancer
	// cannot reach it (502 Bad Gateway), and a new session works.
	_, _, err := legacy.read(ctx, in)
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
