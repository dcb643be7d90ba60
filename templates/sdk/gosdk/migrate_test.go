//lint:file-ignore SA1019 go-sdk's roots API, which it deprecates, is what the adapter serves

package gosdk

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// everyPin pins go-sdk's client to each revision the kit serves; "" is
// 2026-07-28, which go-sdk's client reaches without initialize.
var everyPin = []struct{ name, pin string }{
	{"2024-11-05", "2024-11-05"},
	{"2025-03-26", "2025-03-26"},
	{"2025-06-18", "2025-06-18"},
	{"2025-11-25", "2025-11-25"},
	{"2026-07-28", ""},
}

// boundsTree is a server directory holding f.txt ("bound") and sub/g.txt
// ("sub"), and a file beside it.
func boundsTree(t *testing.T) (bound, boundFile, sub, subFile, outside string) {
	t.Helper()
	base := t.TempDir()
	bound = filepath.Join(base, "bound")
	sub = filepath.Join(bound, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	boundFile, subFile, outside = filepath.Join(bound, "f.txt"), filepath.Join(sub, "g.txt"), filepath.Join(base, "outside.txt")
	for f, content := range map[string]string{boundFile: "bound", subFile: "sub", outside: "secret"} {
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return
}

// With FallBackToBounds, on every revision: a client without roots reads
// what the server's directories hold, and nothing else; a client with
// roots reads the overlap of its roots and those directories; a client
// the server chooses not to ask (here: where roots are deprecated) works
// in the directories alone, asked nothing. Without the option a client
// without roots reads nothing.
func TestFallBackToBounds(t *testing.T) {
	bound, boundFile, sub, subFile, outside := boundsTree(t)
	noRoots := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	stopWhereDeprecated := func(r Revision) bool { return !r.Deprecated }
	for _, p := range everyPin {
		for _, c := range []struct {
			name   string
			opts   []Option
			client *mcp.ClientOptions
			want   [3]string // f.txt, sub/g.txt, outside.txt: content, or "" for refused
		}{
			{"no client roots", []Option{FallBackToBounds(nil)}, noRoots, [3]string{"bound", "sub", ""}},
			{"client roots", []Option{FallBackToBounds(nil)}, nil, [3]string{"", "sub", ""}},
			{"not asked where deprecated", []Option{FallBackToBounds(stopWhereDeprecated)}, nil,
				map[bool][3]string{true: {"bound", "sub", ""}, false: {"", "sub", ""}}[p.pin == ""]},
			{"no fallback, no client roots", nil, noRoots, [3]string{"", "", ""}},
		} {
			t.Run(p.name+"/"+c.name, func(t *testing.T) {
				opts := append([]Option{RootSetOptions(Bounds(bound))}, c.opts...)
				cs, client := connect(t, readServer(New(opts...)), p.pin, c.client, &mcp.Root{URI: fileURI(sub)})
				var asked atomic.Int32
				client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
					return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
						if method == "roots/list" {
							asked.Add(1)
						}
						return next(ctx, method, req)
					}
				})
				for i, f := range []string{boundFile, subFile, outside} {
					text, err := read(t, cs, f)
					if c.want[i] == "" {
						if err == nil {
							t.Errorf("%s: read %q, want refused", f, text)
						}
						continue
					}
					if err != nil || text != c.want[i] {
						t.Errorf("%s: %q, %v; want %q", f, text, err, c.want[i])
					}
				}
				if n := asked.Load(); n > 0 && (c.client != nil || c.want[0] != "") {
					t.Errorf("roots/list sent %d times to a client not to be asked", n)
				}
			})
		}
	}
}

// OnDeprecatedRoots is called once per tool call that gets roots on
// 2026-07-28 (the call's input_required round trip counts once), never on
// the revisions that do not deprecate roots, and never for a client that
// gives none.
func TestOnDeprecatedRoots(t *testing.T) {
	dir, file := testDir(t)
	for _, p := range everyPin {
		for _, withRoots := range []bool{true, false} {
			var mu sync.Mutex
			var calls []string
			a := New(FallBackToBounds(nil), RootSetOptions(Bounds(dir)), OnDeprecatedRoots(func(v string) {
				mu.Lock()
				calls = append(calls, v)
				mu.Unlock()
			}))
			var client *mcp.ClientOptions
			if !withRoots {
				client = &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
			}
			cs, _ := connect(t, readServer(a), p.pin, client, &mcp.Root{URI: fileURI(dir)})
			for range 3 {
				if text, err := read(t, cs, file); err != nil || text != "one" {
					t.Fatalf("%s: read %q, %v", p.name, text, err)
				}
			}
			want := 0
			if p.pin == "" && withRoots {
				want = 3
			}
			mu.Lock()
			if len(calls) != want || want > 0 && calls[0] != "2026-07-28" {
				t.Errorf("%s, client roots %t: OnDeprecatedRoots called with %q, want %d calls", p.name, withRoots, calls, want)
			}
			mu.Unlock()
		}
	}
}

// HTTPHandler serves every revision over Streamable HTTP: 2025-era clients
// on a stateful session (asked with roots/list), 2026-07-28 clients on the
// stateless handler (asked with input_required).
func TestHTTPHandler(t *testing.T) {
	dir, file := testDir(t)
	a := New()
	server := readServer(a)
	srv := httptest.NewServer(HTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer srv.Close()
	for _, p := range everyPin {
		t.Run(p.name, func(t *testing.T) {
			client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil)
			client.AddRoots(&mcp.Root{URI: fileURI(dir)})
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: p.pin})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			want := p.pin
			if want == "" {
				want = "2026-07-28"
			}
			if got := cs.InitializeResult().ProtocolVersion; got != want {
				t.Errorf("the client speaks %s, want %s", got, want)
			}
			if text, err := read(t, cs, file); err != nil || text != "one" {
				t.Errorf("read %q, %v", text, err)
			}
		})
	}
}

// Behind a stateless handler alone, a 2025-era request has no session to
// ask roots/list on: the error says so and names the fix, rather than
// blaming the client's capabilities.
func TestStatelessSessionNamed(t *testing.T) {
	dir, file := testDir(t)
	server := readServer(New())
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer srv.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil)
	client.AddRoots(&mcp.Root{URI: fileURI(dir)})
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	_, err = read(t, cs, file)
	if err == nil || !strings.Contains(err.Error(), "no initialize parameters") || !strings.Contains(err.Error(), "stateful") || strings.Contains(err.Error(), "did not declare") {
		t.Errorf("read = %v; want the stateless session named, with the fix", err)
	}
}
