//go:build go1.25

// The module's go line is the tool's minimum (1.24); this file uses
// testing/synctest and sync.WaitGroup.Go (1.25), and the tests run
// with Go 1.26.

package generated_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rootsgen/rootsgen/generated/roots20250618"
	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// These tests exercise the per-session roots cache of the generated
// Server (roots20250618 stands for every legacy revision: the cache code
// is the same in each). Tests that need to know that every caller is
// parked inside Roots run in a synctest bubble, where synctest.Wait says
// so exactly, without sleeping.

var (
	cacheRootsA = []roots20250618.Root{
		{URI: "file:///home/user/project", Name: "project"},
		{URI: "file:///home/user/lib"},
	}
	cacheRootsB = []roots20250618.Root{
		{URI: "file:///home/user/other", Name: "other"},
	}
)

// cacheKeys reduces roots to comparable "uri|name" strings.
func cacheKeys(roots []roots20250618.Root) []string {
	keys := make([]string, len(roots))
	for i, r := range roots {
		keys[i] = r.URI + "|" + r.Name
	}
	return keys
}

func cacheSame(a, b []roots20250618.Root) bool {
	return slices.Equal(cacheKeys(a), cacheKeys(b))
}

// cacheAnswer is the JSON result a client sends for roots.
func cacheAnswer(t *testing.T, roots []roots20250618.Root) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(roots20250618.ListRootsResult{Roots: roots})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// cacheCheckRequest fails unless method and params are a proper roots/list.
func cacheCheckRequest(method roots20250618.Method, params json.RawMessage) error {
	if method != roots20250618.MethodListRoots {
		return fmt.Errorf("Request called with method %q, want %q", method, roots20250618.MethodListRoots)
	}
	if string(params) != "{}" {
		return fmt.Errorf("Request called with params %s, want {}", params)
	}
	return nil
}

// cacheWaitGoroutines polls, for up to 2s, until no more goroutines run
// than before; it fails with a dump of the goroutines otherwise.
func cacheWaitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= before {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines still running 2s after Roots returned, %d before:\n%s", n, before, buf)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// cacheRecv receives from ch or fails after a liveness bound.
func cacheRecv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out after 10s waiting for %s", what)
		panic("unreachable")
	}
}

func TestCacheSharesOneRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		release := make(chan struct{})
		s := &roots20250618.Server{
			ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
			Request: func(ctx context.Context, method roots20250618.Method, params json.RawMessage) (json.RawMessage, error) {
				calls.Add(1)
				if err := cacheCheckRequest(method, params); err != nil {
					return nil, err
				}
				select {
				case <-release:
					return cacheAnswer(t, cacheRootsA), nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			},
		}

		const n = 50
		results := make([][]roots20250618.Root, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { results[i], errs[i] = s.Roots(context.Background()) })
		}
		// Every caller is now parked in Roots, and the request is parked
		// in Request: none can have been served from a cache.
		synctest.Wait()
		if got := calls.Load(); got != 1 {
			t.Errorf("with %d callers waiting, Request was called %d times, want 1", n, got)
		}
		close(release)
		wg.Wait()

		for i := range n {
			if errs[i] != nil {
				t.Errorf("caller %d: Roots error: %v", i, errs[i])
				continue
			}
			if !cacheSame(results[i], cacheRootsA) {
				t.Errorf("caller %d: Roots = %v, want %v", i, cacheKeys(results[i]), cacheKeys(cacheRootsA))
			}
		}
		if got := calls.Load(); got != 1 {
			t.Errorf("after %d concurrent Roots, Request was called %d times, want 1", n, got)
		}

		// The shared answer is now cached.
		got, err := s.Roots(context.Background())
		if err != nil || !cacheSame(got, cacheRootsA) {
			t.Errorf("Roots after the shared request = %v, %v; want %v, nil", cacheKeys(got), err, cacheKeys(cacheRootsA))
		}
		if got := calls.Load(); got != 1 {
			t.Errorf("Roots after the shared request called Request again (%d calls), want it served from the cache", got)
		}
	})
}

// cacheScripted is a client whose n-th roots/list (1-based) waits for
// gates[n-1] when there is one, and answers cacheRootsA for the first call
// and cacheRootsB for every later one.
type cacheScripted struct {
	t     *testing.T
	calls atomic.Int32
	gates []chan struct{}
}

func (c *cacheScripted) request(ctx context.Context, method roots20250618.Method, params json.RawMessage) (json.RawMessage, error) {
	n := int(c.calls.Add(1))
	if err := cacheCheckRequest(method, params); err != nil {
		return nil, err
	}
	if n <= len(c.gates) {
		select {
		case <-c.gates[n-1]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if n == 1 {
		return cacheAnswer(c.t, cacheRootsA), nil
	}
	return cacheAnswer(c.t, cacheRootsB), nil
}

func TestCacheInvalidateDuringFetch(t *testing.T) {
	triggers := []struct {
		name string
		drop func(t *testing.T, s *roots20250618.Server)
	}{
		{"Invalidate", func(t *testing.T, s *roots20250618.Server) { s.Invalidate() }},
		{"HandleNotification", func(t *testing.T, s *roots20250618.Server) {
			if err := s.HandleNotification(context.Background(), string(roots20250618.MethodRootsListChanged), nil); err != nil {
				t.Fatalf("HandleNotification(list_changed): %v", err)
			}
		}},
		{"HandleNotificationEmptyParams", func(t *testing.T, s *roots20250618.Server) {
			if err := s.HandleNotification(context.Background(), string(roots20250618.MethodRootsListChanged), json.RawMessage("{}")); err != nil {
				t.Fatalf("HandleNotification(list_changed, {}): %v", err)
			}
		}},
	}
	for _, tr := range triggers {
		// Callers that were waiting when the roots were dropped get the
		// answer of the request they waited for, but it is not cached.
		t.Run(tr.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				client := &cacheScripted{t: t, gates: []chan struct{}{make(chan struct{})}}
				s := &roots20250618.Server{
					ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
					Request:     client.request,
				}
				const n = 3
				results := make([][]roots20250618.Root, n)
				errs := make([]error, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Go(func() { results[i], errs[i] = s.Roots(context.Background()) })
				}
				synctest.Wait() // all n callers wait on the first request
				tr.drop(t, s)
				close(client.gates[0])
				wg.Wait()

				for i := range n {
					if errs[i] != nil || !cacheSame(results[i], cacheRootsA) {
						t.Errorf("in-flight caller %d: Roots = %v, %v; want the answer it waited for, %v", i, cacheKeys(results[i]), errs[i], cacheKeys(cacheRootsA))
					}
				}
				if got := client.calls.Load(); got != 1 {
					t.Fatalf("Request called %d times before the next Roots, want 1", got)
				}

				got, err := s.Roots(context.Background())
				if got := client.calls.Load(); got != 2 {
					t.Errorf("the first Roots after the fetch completed made %d requests in all, want 2: the answer of a fetch that began before the roots were dropped was cached", got)
				}
				if err != nil || !cacheSame(got, cacheRootsB) {
					t.Errorf("the first Roots after the fetch completed = %v, %v; want the new answer %v", cacheKeys(got), err, cacheKeys(cacheRootsB))
				}

				// The new answer is cached.
				got, err = s.Roots(context.Background())
				if err != nil || !cacheSame(got, cacheRootsB) {
					t.Errorf("Roots from the cache = %v, %v; want %v", cacheKeys(got), err, cacheKeys(cacheRootsB))
				}
				if got := client.calls.Load(); got != 2 {
					t.Errorf("Request called %d times, want 2: the new answer was not cached", got)
				}
			})
		})
	}

	// Invalidate promises that "the next Roots asks the client again". A
	// Roots that begins after the roots were dropped, while the older
	// request is still in flight, must not be handed that older answer
	// (which the cache itself refuses to keep as stale), and callers that
	// come while that new request is in flight share it, even after the
	// older request has completed.
	for _, tr := range triggers {
		t.Run("CallerAfter"+tr.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				client := &cacheScripted{t: t, gates: []chan struct{}{make(chan struct{}), make(chan struct{})}}
				s := &roots20250618.Server{
					ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
					Request:     client.request,
				}
				type result struct {
					roots []roots20250618.Root
					err   error
				}
				roots := func() <-chan result {
					ch := make(chan result, 1)
					go func() {
						r, err := s.Roots(context.Background())
						ch <- result{r, err}
					}()
					return ch
				}
				check := func(who string, got result, want []roots20250618.Root) {
					t.Helper()
					if got.err != nil || !cacheSame(got.roots, want) {
						t.Errorf("%s: Roots = %v, %v; want %v", who, cacheKeys(got.roots), got.err, cacheKeys(want))
					}
				}

				before := roots()
				synctest.Wait() // the first request is in flight
				tr.drop(t, s)
				after := roots()
				synctest.Wait() // the later caller has asked anew, or joined the old request
				if got := client.calls.Load(); got != 2 {
					t.Errorf("a Roots begun after the roots were dropped, while the older request was in flight, made %d requests in all, want 2 (it must ask the client again)", got)
				}

				close(client.gates[0]) // the older request completes
				check("caller from before the drop", <-before, cacheRootsA)
				synctest.Wait()
				later := roots()
				synctest.Wait() // the latest caller has joined the new request, or asked again
				if got := client.calls.Load(); got != 2 {
					t.Errorf("a Roots begun while the request sent after the drop was in flight made %d requests in all, want 2 (it must share that request)", got)
				}

				close(client.gates[1])
				check("caller from after the drop", <-after, cacheRootsB)
				check("caller from after the older request completed", <-later, cacheRootsB)
				got, err := s.Roots(context.Background())
				check("caller from the cache", result{got, err}, cacheRootsB)
				if got := client.calls.Load(); got != 2 {
					t.Errorf("Request called %d times in all, want 2: the fresh answer was not cached, or callers did not share its request", got)
				}
			})
		})
	}
}

func TestCacheTimeout(t *testing.T) {
	t.Run("NoAnswer", func(t *testing.T) {
		before := runtime.NumGoroutine()
		var calls atomic.Int32
		var hadDeadline atomic.Bool
		s := &roots20250618.Server{
			ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
			Timeout:     50 * time.Millisecond,
			Request: func(ctx context.Context, method roots20250618.Method, params json.RawMessage) (json.RawMessage, error) {
				calls.Add(1)
				_, ok := ctx.Deadline()
				hadDeadline.Store(ok)
				<-ctx.Done()
				return nil, ctx.Err()
			},
		}
		// The caller's own bound is only for liveness: the 50ms Timeout
		// must end the request long before it.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		for i := 1; i <= 2; i++ {
			roots, err := s.Roots(ctx)
			if err == nil {
				t.Fatalf("call %d: Roots = %v, nil; want an error", i, cacheKeys(roots))
			}
			if roots != nil {
				t.Errorf("call %d: Roots returned roots %v with its error", i, cacheKeys(roots))
			}
			if !errors.Is(err, roots20250618.ErrNoAnswer) {
				t.Errorf("call %d: Roots error %q (%T) does not wrap ErrNoAnswer", i, err, err)
			}
			if !strings.Contains(err.Error(), "50ms") {
				t.Errorf("call %d: Roots error %q does not mention the 50ms timeout", i, err)
			}
			if ctx.Err() != nil {
				t.Fatalf("call %d: the caller's 20s liveness bound ran out: Timeout was not applied", i)
			}
			// A timeout is not cached: the second Roots asks again.
			if got := calls.Load(); got != int32(i) {
				t.Errorf("after %d Roots that timed out, Request was called %d times, want %d", i, got, i)
			}
		}
		if !hadDeadline.Load() {
			t.Error("the ctx passed to Request had no deadline")
		}
		cancel()
		cacheWaitGoroutines(t, before)
	})

	// A caller whose ctx ends stops waiting at once; the request runs on
	// for the other callers and its answer is cached.
	t.Run("CallerCancels", func(t *testing.T) {
		before := runtime.NumGoroutine()
		var calls atomic.Int32
		release := make(chan struct{})
		entered := make(chan context.Context, 1)
		s := &roots20250618.Server{
			ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
			Request: func(ctx context.Context, method roots20250618.Method, params json.RawMessage) (json.RawMessage, error) {
				calls.Add(1)
				entered <- ctx
				select {
				case <-release:
					return cacheAnswer(t, cacheRootsA), nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			},
		}
		type result struct {
			roots []roots20250618.Root
			err   error
		}
		ctxA, cancelA := context.WithCancel(context.Background())
		defer cancelA()
		doneA := make(chan result, 1)
		go func() {
			roots, err := s.Roots(ctxA)
			doneA <- result{roots, err}
		}()
		// A started the shared request.
		reqCtx := cacheRecv(t, entered, "the request to start")

		ctxB, cancelB := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancelB()
		doneB := make(chan result, 1)
		go func() {
			roots, err := s.Roots(ctxB)
			doneB <- result{roots, err}
		}()

		cancelA()
		// The request is still blocked in Request, so A can only return
		// by giving up its wait.
		a := cacheRecv(t, doneA, "the cancelled caller to return")
		if !errors.Is(a.err, context.Canceled) {
			t.Errorf("cancelled caller: Roots error = %v, want context.Canceled", a.err)
		}
		if a.roots != nil {
			t.Errorf("cancelled caller: Roots returned roots %v", cacheKeys(a.roots))
		}
		if err := reqCtx.Err(); err != nil {
			t.Errorf("the shared request's ctx ended (%v) when one caller cancelled", err)
		}

		close(release)
		b := cacheRecv(t, doneB, "the other caller to return")
		if b.err != nil || !cacheSame(b.roots, cacheRootsA) {
			t.Errorf("other caller: Roots = %v, %v; want %v, nil", cacheKeys(b.roots), b.err, cacheKeys(cacheRootsA))
		}
		if got := calls.Load(); got != 1 {
			t.Errorf("Request called %d times, want 1", got)
		}
		got, err := s.Roots(context.Background())
		if err != nil || !cacheSame(got, cacheRootsA) {
			t.Errorf("Roots after the request completed = %v, %v; want the cached %v", cacheKeys(got), err, cacheKeys(cacheRootsA))
		}
		if got := calls.Load(); got != 1 {
			t.Errorf("Request called %d times, want 1: the answer of the request whose starter cancelled was not cached", got)
		}
		cancelB()
		cacheWaitGoroutines(t, before)
	})
}

func TestCacheErrorsAreNotCached(t *testing.T) {
	transportErr := errors.New("connection reset")
	failures := []struct {
		name   string
		answer func() (json.RawMessage, error)
		check  func(t *testing.T, err error)
	}{
		{"Transport", func() (json.RawMessage, error) { return nil, transportErr },
			func(t *testing.T, err error) {
				if !errors.Is(err, transportErr) {
					t.Errorf("Roots error %q does not wrap the transport's error", err)
				}
			}},
		{"RPCError", func() (json.RawMessage, error) {
			return nil, &roots20250618.RPCError{Code: roots20250618.CodeInternalError, Message: "Internal error"}
		}, func(t *testing.T, err error) {
			var rpcErr *roots20250618.RPCError
			if !errors.As(err, &rpcErr) || rpcErr.Code != roots20250618.CodeInternalError {
				t.Errorf("Roots error %q does not wrap the client's *RPCError", err)
			}
		}},
		{"InvalidRoot", func() (json.RawMessage, error) {
			return json.RawMessage(`{"roots":[{"uri":"https://example.com/not-a-file"}]}`), nil
		}, func(t *testing.T, err error) {}},
		{"MalformedJSON", func() (json.RawMessage, error) { return json.RawMessage(`{"roots":`), nil },
			func(t *testing.T, err error) {}},
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			var calls atomic.Int32
			s := &roots20250618.Server{
				ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
				Request: func(ctx context.Context, method roots20250618.Method, params json.RawMessage) (json.RawMessage, error) {
					if calls.Add(1) == 1 {
						return f.answer()
					}
					return cacheAnswer(t, cacheRootsA), nil
				},
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			roots, err := s.Roots(ctx)
			if err == nil {
				t.Fatalf("first Roots = %v, nil; want an error", cacheKeys(roots))
			}
			f.check(t, err)

			roots, err = s.Roots(ctx)
			if got := calls.Load(); got != 2 {
				t.Errorf("Roots after a failed one made %d requests in all, want 2: the failure was cached", got)
			}
			if err != nil || !cacheSame(roots, cacheRootsA) {
				t.Errorf("Roots after a failed one = %v, %v; want %v, nil", cacheKeys(roots), err, cacheKeys(cacheRootsA))
			}

			// The success is cached.
			roots, err = s.Roots(ctx)
			if err != nil || !cacheSame(roots, cacheRootsA) {
				t.Errorf("third Roots = %v, %v; want %v, nil", cacheKeys(roots), err, cacheKeys(cacheRootsA))
			}
			if got := calls.Load(); got != 2 {
				t.Errorf("Request called %d times, want 2: the success was not cached", got)
			}
		})
	}
}

func TestCacheReturnsCopies(t *testing.T) {
	mutate := func(roots []roots20250618.Root) []roots20250618.Root {
		roots[0].URI = "file:///mutated"
		roots[0].Name = "mutated"
		roots[len(roots)-1] = roots20250618.Root{URI: "file:///replaced"}
		slices.Reverse(roots)
		return append(roots, roots20250618.Root{URI: "file:///appended"})
	}

	t.Run("Sequential", func(t *testing.T) {
		var calls atomic.Int32
		s := &roots20250618.Server{
			ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
			Request: func(ctx context.Context, method roots20250618.Method, params json.RawMessage) (json.RawMessage, error) {
				calls.Add(1)
				return cacheAnswer(t, cacheRootsA), nil
			},
		}
		// The first call is answered by the request, the later ones by
		// the cache: both paths must hand out copies.
		for i := 1; i <= 3; i++ {
			roots, err := s.Roots(context.Background())
			if err != nil || !cacheSame(roots, cacheRootsA) {
				t.Fatalf("call %d: Roots = %v, %v; want %v, nil (a caller's mutation leaked)", i, cacheKeys(roots), err, cacheKeys(cacheRootsA))
			}
			mutate(roots)
		}
		if got := calls.Load(); got != 1 {
			t.Errorf("Request called %d times, want 1", got)
		}
	})

	// Callers that share one request each get their own slice.
	t.Run("SharedRequest", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			release := make(chan struct{})
			s := &roots20250618.Server{
				ClientRoots: &roots20250618.RootsCapability{ListChanged: true},
				Request: func(ctx context.Context, method roots20250618.Method, params json.RawMessage) (json.RawMessage, error) {
					<-release
					return cacheAnswer(t, cacheRootsA), nil
				},
			}
			var first, second []roots20250618.Root
			var err1, err2 error
			var wg sync.WaitGroup
			wg.Go(func() { first, err1 = s.Roots(context.Background()) })
			wg.Go(func() { second, err2 = s.Roots(context.Background()) })
			synctest.Wait()
			close(release)
			wg.Wait()
			if err1 != nil || err2 != nil {
				t.Fatalf("Roots errors: %v, %v", err1, err2)
			}
			mutate(first)
			if !cacheSame(second, cacheRootsA) {
				t.Errorf("mutating one caller's roots changed another's: %v, want %v", cacheKeys(second), cacheKeys(cacheRootsA))
			}
			third, err := s.Roots(context.Background())
			if err != nil || !cacheSame(third, cacheRootsA) {
				t.Errorf("Roots from the cache = %v, %v; want %v (a caller's mutation leaked)", cacheKeys(third), err, cacheKeys(cacheRootsA))
			}
		})
	})
}

func TestDefaultTimeout(t *testing.T) {
	if roots20250618.DefaultTimeout != 30*time.Second {
		t.Errorf("DefaultTimeout = %v, want the documented 30s", roots20250618.DefaultTimeout)
	}
}

// The tests below run against every legacy revision through the adapters
// of dispatch_test.go, in synctest bubbles: time only moves when every
// goroutine of the bubble is blocked, so ages and deadlines are exact.

// cacheCounting is a client that counts its roots/list requests and
// answers the n-th (1-based) with the single root file:///n.
type cacheCounting struct{ calls atomic.Int32 }

func (c *cacheCounting) request(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	n := c.calls.Add(1)
	if method != "roots/list" || string(params) != "{}" {
		return nil, fmt.Errorf("Request called with %s %s, want roots/list {}", method, params)
	}
	return json.RawMessage(fmt.Sprintf(`{"roots":[{"uri":"file:///%d"}]}`, n)), nil
}

// cacheAnswered is the roots cacheCounting answers its n-th request with.
func cacheAnswered(n int) []dRoot { return []dRoot{{URI: fmt.Sprintf("file:///%d", n)}} }

// cacheExpect calls Roots and fails unless it returns the answer to the
// client's n-th request after exactly n requests in all.
func cacheExpect(t *testing.T, s dServer, c *cacheCounting, n int, when string) {
	t.Helper()
	got, err := s.roots(context.Background())
	if err != nil {
		t.Fatalf("%s: Roots: %v", when, err)
	}
	if calls := int(c.calls.Load()); calls != n || !slices.Equal(got, cacheAnswered(n)) {
		t.Errorf("%s: Roots = %v after %d requests in all; want %v after %d", when, got, calls, cacheAnswered(n), n)
	}
}

// A client that declared roots without listChanged will never say that
// its roots changed: each Roots asks it again, however soon, and an answer
// in flight is still shared.
func TestCacheNoListChangedAsksEveryCall(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &cacheCounting{}
				s := api.server(dServerCfg{noListChanged: true, request: c.request})
				for n := 1; n <= 3; n++ {
					cacheExpect(t, s, c, n, fmt.Sprintf("call %d, no time between calls", n))
				}
				time.Sleep(time.Hour)
				cacheExpect(t, s, c, 4, "call 4, an hour later")
			})
		})
	}
}

func TestCacheNoListChangedSharesInFlight(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &cacheCounting{}
				release := make(chan struct{})
				s := api.server(dServerCfg{noListChanged: true, request: func(ctx context.Context, m string, p json.RawMessage) (json.RawMessage, error) {
					<-release
					return c.request(ctx, m, p)
				}})
				const n = 8
				results := make([][]dRoot, n)
				errs := make([]error, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Go(func() { results[i], errs[i] = s.roots(context.Background()) })
				}
				synctest.Wait() // every caller waits in Roots
				close(release)
				wg.Wait()
				for i := range n {
					if errs[i] != nil || !slices.Equal(results[i], cacheAnswered(1)) {
						t.Errorf("caller %d: Roots = %v, %v; want %v", i, results[i], errs[i], cacheAnswered(1))
					}
				}
				if got := c.calls.Load(); got != 1 {
					t.Errorf("%d concurrent callers made %d requests, want 1 shared", n, got)
				}
				cacheExpect(t, s, c, 2, "the call after the shared request")
			})
		})
	}
}

// A client with listChanged: true announces changes, so its answer is
// kept, however old, until list_changed or Invalidate.
func TestCacheListChangedKeepsAnswer(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &cacheCounting{}
				s := api.server(dServerCfg{request: c.request})
				cacheExpect(t, s, c, 1, "first call")
				time.Sleep(1000 * time.Hour)
				cacheExpect(t, s, c, 1, "1000 hours later")
				if err := s.notify(context.Background(), "notifications/roots/list_changed", nil); err != nil {
					t.Fatal(err)
				}
				cacheExpect(t, s, c, 2, "after list_changed")
				cacheExpect(t, s, c, 2, "again after list_changed")
				s.invalidate()
				cacheExpect(t, s, c, 3, "after Invalidate")
			})
		})
	}
}

// cacheRequestPanics: a Request that panics (or leaves its goroutine with
// runtime.Goexit) does not crash the process; every waiter gets an error
// saying what happened, nothing is cached, and the next call asks again.
func TestCacheRequestPanics(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name  string
		fail  func()
		check func(t *testing.T, err error)
	}{
		{"PanicString", func() { panic("transport exploded") }, func(t *testing.T, err error) {
			if !strings.Contains(err.Error(), "Request panicked") || !strings.Contains(err.Error(), "transport exploded") {
				t.Errorf("Roots error %q does not say that Request panicked, with what", err)
			}
		}},
		{"PanicError", func() { panic(boom) }, func(t *testing.T, err error) {
			if !errors.Is(err, boom) || !strings.Contains(err.Error(), "Request panicked") {
				t.Errorf("Roots error %q does not say that Request panicked, wrapping the panic's error", err)
			}
		}},
		{"Goexit", runtime.Goexit, func(t *testing.T, err error) {
			if !strings.Contains(err.Error(), "Goexit") {
				t.Errorf("Roots error %q does not say that the request called runtime.Goexit", err)
			}
		}},
	}
	for _, api := range legacyAPIs {
		for _, tc := range cases {
			t.Run(api.rev+"/"+tc.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					c := &cacheCounting{}
					release := make(chan struct{})
					s := api.server(dServerCfg{request: func(ctx context.Context, m string, p json.RawMessage) (json.RawMessage, error) {
						if c.calls.Load() == 0 {
							c.calls.Add(1)
							<-release
							tc.fail()
						}
						return c.request(ctx, m, p)
					}})
					const n = 3
					results := make([][]dRoot, n)
					errs := make([]error, n)
					var wg sync.WaitGroup
					for i := range n {
						wg.Go(func() { results[i], errs[i] = s.roots(context.Background()) })
					}
					synctest.Wait() // every caller waits on the first request
					close(release)
					wg.Wait() // a waiter left hanging makes synctest report a deadlock
					for i := range n {
						if errs[i] == nil {
							t.Errorf("caller %d: Roots = %v, nil; want an error", i, results[i])
							continue
						}
						if results[i] != nil {
							t.Errorf("caller %d: Roots returned roots %v with its error", i, results[i])
						}
						tc.check(t, errs[i])
					}
					cacheExpect(t, s, c, 2, "the call after the failed request")
					cacheExpect(t, s, c, 2, "the call after that, from the cache")
				})
			})
		}
	}
}

// A panic in OnInvalidRoots, which runs in the request's goroutine, is
// reported like one in Request, naming OnInvalidRoots.
func TestCacheOnInvalidRootsPanics(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var calls atomic.Int32
				s := api.server(dServerCfg{lenient: true,
					onInvalid: func(error) { panic("reporter broke") },
					request: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
						calls.Add(1)
						return json.RawMessage(`{"roots":[{"uri":"file:///a"},{"uri":"http://bad"}]}`), nil
					}})
				for i := 1; i <= 2; i++ {
					r, err := s.roots(context.Background())
					if err == nil || !strings.Contains(err.Error(), "OnInvalidRoots panicked") || !strings.Contains(err.Error(), "reporter broke") {
						t.Errorf("call %d: Roots = %v, %v; want an error saying OnInvalidRoots panicked", i, r, err)
					}
					if got := calls.Load(); got != int32(i) {
						t.Errorf("call %d: %d requests in all, want %d: the failure was cached", i, got, i)
					}
				}
			})
		})
	}
}

// A Roots whose ctx is already done sends nothing, not even when no
// request is in flight, and returns the ctx's error.
func TestCacheCancelledContext(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &cacheCounting{}
				s := api.server(dServerCfg{noListChanged: true, request: c.request})
				cancelled, cancel := context.WithCancel(context.Background())
				cancel()
				expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
				defer cancel2()
				for _, ctx := range []context.Context{cancelled, expired} {
					r, err := s.roots(ctx)
					if want := ctx.Err(); err != want || r != nil {
						t.Errorf("Roots with a done ctx = %v, %v; want nil, %v", r, err, want)
					}
				}
				synctest.Wait() // a request started in the background would have run by now
				if got := c.calls.Load(); got != 0 {
					t.Errorf("Roots with a done ctx sent %d requests, want none", got)
				}
				cacheExpect(t, s, c, 1, "the first call with a live ctx")

				// Cached roots do not change that: a done ctx gets its error.
				s = api.server(dServerCfg{request: c.request})
				cacheExpect(t, s, c, 2, "a listChanged client's first call")
				if r, err := s.roots(cancelled); err != context.Canceled || r != nil {
					t.Errorf("Roots with a cancelled ctx and cached roots = %v, %v; want nil, context.Canceled", r, err)
				}
				cacheExpect(t, s, c, 2, "the cached roots")
			})
		})
	}
}

type cacheCtxKey struct{}

// The shared request carries the values of the ctx of the caller that
// started it, with its own deadline (Timeout from the start) instead of
// that caller's, and that caller cancelling does not end it.
func TestCacheRequestContext(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const timeout = 7 * time.Second
				c := &cacheCounting{}
				release := make(chan struct{})
				entered := make(chan context.Context, 1)
				s := api.server(dServerCfg{timeout: timeout, request: func(ctx context.Context, m string, p json.RawMessage) (json.RawMessage, error) {
					entered <- ctx
					select {
					case <-release:
					case <-ctx.Done():
						return nil, ctx.Err()
					}
					return c.request(ctx, m, p)
				}})
				start := time.Now()
				first, cancelFirst := context.WithTimeout(context.WithValue(context.Background(), cacheCtxKey{}, "session-42"), time.Second)
				defer cancelFirst()
				firstDone := make(chan error, 1)
				go func() { _, err := s.roots(first); firstDone <- err }()
				reqCtx := <-entered // the request is in flight
				if got := reqCtx.Value(cacheCtxKey{}); got != "session-42" {
					t.Errorf("the request's ctx has value %v for the first caller's key, want session-42", got)
				}
				if d, ok := reqCtx.Deadline(); !ok || !d.Equal(start.Add(timeout)) {
					t.Errorf("the request's ctx deadline = %v, %v; want Timeout after the start, %v", d, ok, start.Add(timeout))
				}

				second := make(chan []dRoot, 1)
				go func() { r, _ := s.roots(context.Background()); second <- r }()
				cancelFirst()
				if err := <-firstDone; !errors.Is(err, context.Canceled) {
					t.Errorf("the first caller's Roots = %v after it cancelled, want context.Canceled", err)
				}
				synctest.Wait()
				if err := reqCtx.Err(); err != nil {
					t.Errorf("the shared request's ctx ended (%v) when the caller that started it cancelled", err)
				}
				close(release)
				if r := <-second; !slices.Equal(r, cacheAnswered(1)) {
					t.Errorf("the second caller got %v, want %v", r, cacheAnswered(1))
				}
				if got := c.calls.Load(); got != 1 {
					t.Errorf("%d requests, want 1", got)
				}
			})
		})
	}
}

// An answer that Request returns once its ctx's deadline has passed is
// still an answer: it is returned and cached, not reported as ErrNoAnswer.
func TestCacheAnswerAtDeadline(t *testing.T) {
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &cacheCounting{}
				s := api.server(dServerCfg{request: func(ctx context.Context, m string, p json.RawMessage) (json.RawMessage, error) {
					<-ctx.Done() // the answer arrives just as the timeout ends
					return c.request(ctx, m, p)
				}})
				start := time.Now()
				cacheExpect(t, s, c, 1, "an answer at the deadline")
				if d := time.Since(start); d != roots20250618.DefaultTimeout {
					t.Errorf("the request ended after %v, want DefaultTimeout, %v", d, roots20250618.DefaultTimeout)
				}
				cacheExpect(t, s, c, 1, "from the cache")
			})
		})
	}
}

// MaxAge lets an answer be reused while it is younger than MaxAge, counted
// from when its request was sent, for a client that cannot announce
// changes as for one that can; for the latter, list_changed still drops
// a younger answer.
func TestCacheMaxAge(t *testing.T) {
	const maxAge = 5 * time.Second
	for _, api := range legacyAPIs {
		for _, noListChanged := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/noListChanged=%v", api.rev, noListChanged), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					c := &cacheCounting{}
					s := api.server(dServerCfg{noListChanged: noListChanged, maxAge: maxAge, request: c.request})
					cacheExpect(t, s, c, 1, "first call")
					time.Sleep(maxAge - time.Nanosecond)
					cacheExpect(t, s, c, 1, "just before MaxAge")
					time.Sleep(time.Nanosecond)
					cacheExpect(t, s, c, 2, "at MaxAge")
					time.Sleep(maxAge / 2)
					cacheExpect(t, s, c, 2, "at half MaxAge")
					s.invalidate()
					cacheExpect(t, s, c, 3, "after Invalidate")
					if noListChanged {
						return
					}
					if err := s.notify(context.Background(), "notifications/roots/list_changed", nil); err != nil {
						t.Fatal(err)
					}
					cacheExpect(t, s, c, 4, "after list_changed, before MaxAge")
				})
			})
		}
	}
}

// The age of an answer counts from when its request was sent, not from
// when the answer came: a slow answer is that much older.
func TestCacheMaxAgeFromSending(t *testing.T) {
	const maxAge, slow = 5 * time.Second, 3 * time.Second
	for _, api := range legacyAPIs {
		t.Run(api.rev, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &cacheCounting{}
				s := api.server(dServerCfg{noListChanged: true, maxAge: maxAge, request: func(ctx context.Context, m string, p json.RawMessage) (json.RawMessage, error) {
					time.Sleep(slow)
					return c.request(ctx, m, p)
				}})
				cacheExpect(t, s, c, 1, "first call")
				time.Sleep(maxAge - slow - time.Nanosecond)
				cacheExpect(t, s, c, 1, "just before MaxAge after the request was sent")
				time.Sleep(time.Nanosecond)
				cacheExpect(t, s, c, 2, "MaxAge after the request was sent")
			})
		})
	}
}

// cacheNoNotificationTest is the test run in the package generated for a
// revision whose schema has no notifications/roots/list_changed: even a
// client whose capability says listChanged: true cannot announce a
// change there, so Roots asks on every call unless MaxAge allows reuse.
const cacheNoNotificationTest = `package mcproots_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"example.com/nonotify/mcproots"
)

func TestNoNotification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		request := func(context.Context, mcproots.Method, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(fmt.Sprintf("{\"roots\":[{\"uri\":\"file:///%d\"}]}", calls.Add(1))), nil
		}
		expect := func(s *mcproots.Server, n int32, when string) {
			t.Helper()
			roots, err := s.Roots(context.Background())
			if want := fmt.Sprintf("file:///%d", n); err != nil || len(roots) != 1 || roots[0].URI != want || calls.Load() != n {
				t.Errorf("%s: Roots = %v, %v after %d requests in all; want %s after %d", when, roots, err, calls.Load(), want, n)
			}
		}
		s := &mcproots.Server{ClientRoots: &mcproots.RootsCapability{ListChanged: true}, Request: request}
		expect(s, 1, "first call")
		expect(s, 2, "second call")
		s = &mcproots.Server{ClientRoots: &mcproots.RootsCapability{ListChanged: true}, Request: request, MaxAge: time.Second}
		expect(s, 3, "first call with MaxAge")
		time.Sleep(time.Second - time.Nanosecond)
		expect(s, 3, "just before MaxAge")
		time.Sleep(time.Nanosecond)
		expect(s, 4, "at MaxAge")
	})
}
`

// TestCacheRevisionWithoutNotification generates a package from the
// 2025-06-18 schema without RootsListChangedNotification, as a revision
// without the notification would be, and runs cacheNoNotificationTest in
// it: the policy must follow the schema's features, not a revision name.
func TestCacheRevisionWithoutNotification(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a scratch module")
	}
	goCmd, err := exec.LookPath("go")
	prereq.Need(t, err, "this test runs the go command")
	raw, err := schema.Open("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	defs, _ := doc["definitions"].(map[string]any)
	if _, ok := defs["RootsListChangedNotification"]; !ok {
		t.Fatal("the 2025-06-18 schema has no definitions.RootsListChangedNotification to remove")
	}
	delete(defs, "RootsListChangedNotification")
	if raw, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	files, m, err := generator.Generate(generator.Options{Revision: "2025-06-18", Schema: raw, Package: "mcproots"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Features.ListChangedNotification || !m.Features.DirectRequest || !m.Features.CapabilityListChanged {
		t.Fatalf("features %+v: want a direct roots/list request and a listChanged flag, but no notification", m.Features)
	}

	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/nonotify\n\ngo 1.25\n")
	for _, f := range files {
		write(filepath.Join("mcproots", f.Name), string(f.Content))
	}
	write("mcproots/nonotify_test.go", cacheNoNotificationTest)
	cmd := exec.Command(goCmd, "test", "-count=1", "./mcproots")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go test in the package generated without the notification: %v\n%s", err, out)
	}
}
