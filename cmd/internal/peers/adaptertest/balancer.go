package adaptertest

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// A Balancer is the load balancer of the README's replica recipe, as the
// Transport of an httputil.ReverseProxy: a request without Mcp-Session-Id
// goes to the replicas in turn, each tried once, the next when one cannot
// be reached (the tools the tests call only read: a retry is safe); a
// request with one goes to the replica that answered the request that
// created the session, and fails when it cannot be reached.
type Balancer struct {
	replicas []*url.URL
	next     atomic.Uint32

	mu       sync.Mutex
	sessions map[string]int // Mcp-Session-Id -> replica
	served   []int          // requests each replica answered
}

// NewBalancer balances over the servers at replicas, base URLs such as
// an httptest.Server's URL.
func NewBalancer(replicas ...string) (*Balancer, error) {
	b := &Balancer{sessions: map[string]int{}, served: make([]int, len(replicas))}
	for _, r := range replicas {
		u, err := url.Parse(r)
		if err != nil {
			return nil, err
		}
		b.replicas = append(b.replicas, u)
	}
	return b, nil
}

// Home returns the replica that holds the session id.
func (b *Balancer) Home(id string) (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, ok := b.sessions[id]
	return i, ok
}

// Served returns how many requests each replica answered.
func (b *Balancer) Served() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]int(nil), b.served...)
}

// RoundTrip sends req to a replica, as the type's doc says.
func (b *Balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	home, sticky := b.Home(req.Header.Get("Mcp-Session-Id"))
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

// BalancedProxy serves an httputil.ReverseProxy over b, which passes
// streams on as they come, until t ends.
func BalancedProxy(t testing.TB, b *Balancer) *httptest.Server {
	lb := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.Out.URL.Scheme, r.Out.URL.Host = "http", "replica" },
		Transport:     b,
		FlushInterval: -1,
		ErrorLog:      log.New(io.Discard, "", 0),
	})
	t.Cleanup(lb.Close)
	return lb
}

// Traffic makes calls calls of call, workers at a time; the worker that
// is about to make call n (from 1) first runs events[n]. Each failed call
// is reported on t; Traffic returns how many failed.
func Traffic(t *testing.T, calls, workers int, events map[int]func(), call func() error) int {
	var started, failed atomic.Int32
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				n := int(started.Add(1))
				if n > calls {
					return
				}
				if e := events[n]; e != nil {
					e()
				}
				if err := call(); err != nil {
					failed.Add(1)
					t.Errorf("call %d: %v", n, err)
				}
			}
		})
	}
	wg.Wait()
	return int(failed.Load())
}
