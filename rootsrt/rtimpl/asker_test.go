package rtimpl_test

// The roots cache, Asker, driven as a revision's Server drives it: an
// AskConfig whose Request is a fake client and whose Decode reads
// {"roots":[...],"nextCursor":...} into testRoots. Tests that need every
// caller parked inside Roots run in a synctest bubble, where
// synctest.Wait says so exactly and time moves only when every goroutine
// is blocked, so ages, deadlines and timeouts are exact; a goroutine left
// behind fails the bubble.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// pageParams are the params of the roots/list for the page at cursor.
func pageParams(cursor string) (json.RawMessage, error) {
	if cursor == "" {
		return json.RawMessage("{}"), nil
	}
	return json.Marshal(map[string]string{"cursor": cursor})
}

// decodeAnswer reads a roots/list result as a revision's decoder does:
// roots is required, and each root is checked; lenient keeps the valid
// roots and returns the others' problems as invalid.
func decodeAnswer(raw json.RawMessage, lenient bool) ([]testRoot, error, string, error) {
	var res struct {
		Roots      *[]testRoot `json:"roots"`
		NextCursor string      `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, nil, "", err
	}
	if res.Roots == nil {
		return nil, nil, "", errors.New("ListRootsResult: roots: required")
	}
	valid, invalid := rtimpl.ValidElements("ListRootsResult", "roots", *res.Roots, checkTestRoot)
	if !lenient {
		if invalid != nil {
			return nil, nil, "", invalid
		}
		return *res.Roots, nil, res.NextCursor, nil
	}
	return valid, invalid, res.NextCursor, nil
}

// asked is a revision's Server reduced to its cache: an Asker and the
// configuration it asks with.
type asked struct {
	a   rtimpl.Asker[testRoot]
	cfg rtimpl.AskConfig[testRoot]
}

// newAsked is a cache asking with c, whose Params and Decode default to
// pageParams and decodeAnswer.
func newAsked(c rtimpl.AskConfig[testRoot]) *asked {
	if c.Params == nil {
		c.Params = pageParams
	}
	if c.Decode == nil {
		c.Decode = decodeAnswer
	}
	return &asked{cfg: c}
}

func (s *asked) roots(ctx context.Context) ([]testRoot, error) { return s.a.Roots(ctx, &s.cfg) }

var (
	askRootsA = []testRoot{{URI: "file:///home/user/project", Name: "project"}, {URI: "file:///home/user/lib"}}
	askRootsB = []testRoot{{URI: "file:///home/user/other", Name: "other"}}
)

// answerOf is the JSON result a client sends for roots.
func answerOf(roots []testRoot) json.RawMessage {
	raw, err := json.Marshal(map[string]any{"roots": roots})
	if err != nil {
		panic(err)
	}
	return raw
}

// checkParams fails unless params are those of the first page.
func checkParams(params json.RawMessage) error {
	if string(params) != "{}" {
		return fmt.Errorf("Request called with params %s, want {}", params)
	}
	return nil
}

// counting is a client that counts its roots/list requests and answers
// the n-th (1-based) with the single root file:///n.
type counting struct{ calls atomic.Int32 }

func (c *counting) request(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
	n := c.calls.Add(1)
	if err := checkParams(params); err != nil {
		return nil, err
	}
	return json.RawMessage(fmt.Sprintf(`{"roots":[{"uri":"file:///%d"}]}`, n)), nil
}

// answered is the roots counting answers its n-th request with.
func answered(n int) []testRoot { return []testRoot{{URI: fmt.Sprintf("file:///%d", n)}} }

// expect calls Roots and fails unless it returns the answer to the
// client's n-th request after exactly n requests in all.
func expect(t *testing.T, s *asked, c *counting, n int, when string) {
	t.Helper()
	got, err := s.roots(context.Background())
	if err != nil {
		t.Fatalf("%s: Roots: %v", when, err)
	}
	if calls := int(c.calls.Load()); calls != n || !slices.Equal(got, answered(n)) {
		t.Errorf("%s: Roots = %v after %d requests in all; want %v after %d", when, got, calls, answered(n), n)
	}
}

func TestAskerDefaults(t *testing.T) {
	if rtimpl.DefaultTimeout != 30*time.Second || rtimpl.DefaultMaxPages != 100 {
		t.Errorf("DefaultTimeout = %v, DefaultMaxPages = %d; want the documented 30s and 100", rtimpl.DefaultTimeout, rtimpl.DefaultMaxPages)
	}
}

func TestAskerSharesOneRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		release := make(chan struct{})
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
			calls.Add(1)
			if err := checkParams(params); err != nil {
				return nil, err
			}
			select {
			case <-release:
				return answerOf(askRootsA), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
		const n = 50
		results := make([][]testRoot, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { results[i], errs[i] = s.roots(context.Background()) })
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
			if errs[i] != nil || !slices.Equal(results[i], askRootsA) {
				t.Errorf("caller %d: Roots = %v, %v; want %v", i, results[i], errs[i], askRootsA)
			}
		}
		// The shared answer is now cached.
		got, err := s.roots(context.Background())
		if err != nil || !slices.Equal(got, askRootsA) || calls.Load() != 1 {
			t.Errorf("Roots after the shared request = %v, %v after %d requests; want %v from the cache", got, err, calls.Load(), askRootsA)
		}
	})
}

// scripted is a client whose n-th roots/list (1-based) waits for
// gates[n-1] when there is one, and answers askRootsA for the first call
// and askRootsB for every later one.
type scripted struct {
	calls atomic.Int32
	gates []chan struct{}
}

func (c *scripted) request(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	n := int(c.calls.Add(1))
	if n <= len(c.gates) {
		select {
		case <-c.gates[n-1]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if n == 1 {
		return answerOf(askRootsA), nil
	}
	return answerOf(askRootsB), nil
}

// Callers that were waiting when the roots were dropped get the answer
// of the request they waited for, but it is not cached.
func TestAskerInvalidateDuringFetch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client := &scripted{gates: []chan struct{}{make(chan struct{})}}
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: client.request})
		const n = 3
		results := make([][]testRoot, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { results[i], errs[i] = s.roots(context.Background()) })
		}
		synctest.Wait() // all n callers wait on the first request
		s.a.Invalidate()
		close(client.gates[0])
		wg.Wait()
		for i := range n {
			if errs[i] != nil || !slices.Equal(results[i], askRootsA) {
				t.Errorf("in-flight caller %d: Roots = %v, %v; want the answer it waited for, %v", i, results[i], errs[i], askRootsA)
			}
		}
		got, err := s.roots(context.Background())
		if n := client.calls.Load(); n != 2 || err != nil || !slices.Equal(got, askRootsB) {
			t.Errorf("the first Roots after the fetch = %v, %v after %d requests; want the new answer %v after 2: an answer from before Invalidate was cached", got, err, n, askRootsB)
		}
		got, err = s.roots(context.Background())
		if n := client.calls.Load(); n != 2 || err != nil || !slices.Equal(got, askRootsB) {
			t.Errorf("Roots from the cache = %v, %v after %d requests; want %v after 2", got, err, n, askRootsB)
		}
	})
}

// A Roots that begins after Invalidate, while the older request is still
// in flight, is not handed that older answer; callers that come while the
// new request is in flight share it, even after the older one completed.
func TestAskerCallerAfterInvalidate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		client := &scripted{gates: []chan struct{}{make(chan struct{}), make(chan struct{})}}
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: client.request})
		type result struct {
			roots []testRoot
			err   error
		}
		roots := func() <-chan result {
			ch := make(chan result, 1)
			go func() {
				r, err := s.roots(context.Background())
				ch <- result{r, err}
			}()
			return ch
		}
		check := func(who string, got result, want []testRoot) {
			t.Helper()
			if got.err != nil || !slices.Equal(got.roots, want) {
				t.Errorf("%s: Roots = %v, %v; want %v", who, got.roots, got.err, want)
			}
		}
		before := roots()
		synctest.Wait() // the first request is in flight
		s.a.Invalidate()
		after := roots()
		synctest.Wait()
		if got := client.calls.Load(); got != 2 {
			t.Errorf("a Roots begun after Invalidate, while the older request was in flight, made %d requests in all, want 2", got)
		}
		close(client.gates[0]) // the older request completes
		check("caller from before Invalidate", <-before, askRootsA)
		synctest.Wait()
		later := roots()
		synctest.Wait()
		if got := client.calls.Load(); got != 2 {
			t.Errorf("a Roots begun while the request sent after Invalidate was in flight made %d requests in all, want 2 (it must share it)", got)
		}
		close(client.gates[1])
		check("caller from after Invalidate", <-after, askRootsB)
		check("caller from after the older request completed", <-later, askRootsB)
		got, err := s.roots(context.Background())
		check("caller from the cache", result{got, err}, askRootsB)
		if got := client.calls.Load(); got != 2 {
			t.Errorf("Request called %d times in all, want 2", got)
		}
	})
}

// A client that never answers costs each call Timeout (DefaultTimeout
// when unset), from the request's start, and an error wrapping ErrNoAnswer
// that names the timeout; a timeout is not cached.
func TestAskerTimeout(t *testing.T) {
	for _, c := range []struct {
		timeout, want time.Duration
		says          string
	}{{50 * time.Millisecond, 50 * time.Millisecond, "50ms"}, {0, rtimpl.DefaultTimeout, "30s"}, {-time.Second, rtimpl.DefaultTimeout, "30s"}} {
		t.Run(fmt.Sprint(c.timeout), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var calls atomic.Int32
				s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Timeout: c.timeout, Request: func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
					calls.Add(1)
					if d, ok := ctx.Deadline(); !ok || !d.Equal(time.Now().Add(c.want)) {
						t.Errorf("the request's deadline = %v, %v; want %v from now", d, ok, c.want)
					}
					<-ctx.Done()
					return nil, ctx.Err()
				}})
				for i := 1; i <= 2; i++ {
					start := time.Now()
					roots, err := s.roots(context.Background())
					if roots != nil || !errors.Is(err, rtimpl.ErrNoAnswer) || !strings.Contains(err.Error(), c.says) {
						t.Errorf("call %d: Roots = %v, %v; want ErrNoAnswer naming %s", i, roots, err, c.says)
					}
					if waited := time.Since(start); waited != c.want {
						t.Errorf("call %d: waited %v, want %v", i, waited, c.want)
					}
					if got := calls.Load(); got != int32(i) {
						t.Errorf("after %d calls that timed out, %d requests; want %d", i, got, i)
					}
				}
			})
		})
	}
}

// A caller whose ctx ends stops waiting at once; the request runs on for
// the other callers and its answer is cached.
func TestAskerCallerCancels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		release := make(chan struct{})
		entered := make(chan context.Context, 1)
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			calls.Add(1)
			entered <- ctx
			select {
			case <-release:
				return answerOf(askRootsA), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
		type result struct {
			roots []testRoot
			err   error
		}
		ctxA, cancelA := context.WithCancel(context.Background())
		defer cancelA()
		doneA := make(chan result, 1)
		go func() {
			roots, err := s.roots(ctxA)
			doneA <- result{roots, err}
		}()
		reqCtx := <-entered // A started the shared request
		doneB := make(chan result, 1)
		go func() {
			roots, err := s.roots(context.Background())
			doneB <- result{roots, err}
		}()
		cancelA()
		a := <-doneA // the request is still in Request: A can only return by giving up
		if !errors.Is(a.err, context.Canceled) || a.roots != nil {
			t.Errorf("cancelled caller: Roots = %v, %v; want context.Canceled", a.roots, a.err)
		}
		synctest.Wait()
		if err := reqCtx.Err(); err != nil {
			t.Errorf("the shared request's ctx ended (%v) when one caller cancelled", err)
		}
		close(release)
		if b := <-doneB; b.err != nil || !slices.Equal(b.roots, askRootsA) {
			t.Errorf("other caller: Roots = %v, %v; want %v", b.roots, b.err, askRootsA)
		}
		if got, err := s.roots(context.Background()); err != nil || !slices.Equal(got, askRootsA) || calls.Load() != 1 {
			t.Errorf("Roots after the request completed = %v, %v after %d requests; want the cached %v", got, err, calls.Load(), askRootsA)
		}
	})
}

// A failed answer is not cached: the next call asks again, and its
// success is cached.
func TestAskerErrorsAreNotCached(t *testing.T) {
	transportErr := errors.New("connection reset")
	for _, f := range []struct {
		name   string
		answer func() (json.RawMessage, error)
		says   string
	}{
		{"Transport", func() (json.RawMessage, error) { return nil, transportErr }, "connection reset"},
		{"RPCError", func() (json.RawMessage, error) { return nil, rtimpl.InternalError() }, "-32603"},
		{"InvalidRoot", func() (json.RawMessage, error) {
			return json.RawMessage(`{"roots":[{"uri":"https://example.com/not-a-file"}]}`), nil
		}, "roots[0].uri"},
		{"MalformedJSON", func() (json.RawMessage, error) { return json.RawMessage(`{"roots":`), nil }, "malformed JSON"},
		{"Null", func() (json.RawMessage, error) { return json.RawMessage(" null "), nil }, "answered null"},
		{"NoRoots", func() (json.RawMessage, error) { return json.RawMessage(`{}`), nil }, "roots: required"},
	} {
		t.Run(f.name, func(t *testing.T) {
			var calls atomic.Int32
			s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				if calls.Add(1) == 1 {
					return f.answer()
				}
				return answerOf(askRootsA), nil
			}})
			roots, err := s.roots(context.Background())
			if err == nil || roots != nil || !strings.HasPrefix(err.Error(), "roots/list: ") || !strings.Contains(err.Error(), f.says) {
				t.Fatalf("first Roots = %v, %v; want an error naming %q", roots, err, f.says)
			}
			if f.name == "Transport" && !errors.Is(err, transportErr) {
				t.Errorf("Roots error %v does not wrap the transport's", err)
			}
			var rpcErr *rtimpl.RPCError
			if f.name == "RPCError" && (!errors.As(err, &rpcErr) || rpcErr.Code != rtimpl.CodeInternalError) {
				t.Errorf("Roots error %v does not wrap the client's *RPCError", err)
			}
			for i := range 2 {
				roots, err = s.roots(context.Background())
				if err != nil || !slices.Equal(roots, askRootsA) || calls.Load() != 2 {
					t.Errorf("call %d after the failure: %v, %v after %d requests; want %v after 2", i+2, roots, err, calls.Load(), askRootsA)
				}
			}
		})
	}
}

// Every caller gets a slice of its own, from a request or from the cache.
func TestAskerReturnsCopies(t *testing.T) {
	mutate := func(roots []testRoot) {
		roots[0].URI = "file:///mutated"
		roots[len(roots)-1] = testRoot{URI: "file:///replaced"}
		slices.Reverse(roots)
	}
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(context.Context, json.RawMessage) (json.RawMessage, error) {
			<-release
			return answerOf(askRootsA), nil
		}})
		var first, second []testRoot
		var wg sync.WaitGroup
		wg.Go(func() { first, _ = s.roots(context.Background()) })
		wg.Go(func() { second, _ = s.roots(context.Background()) })
		synctest.Wait()
		close(release)
		wg.Wait()
		mutate(first)
		if !slices.Equal(second, askRootsA) {
			t.Errorf("mutating one caller's roots changed another's: %v", second)
		}
		for i := range 2 {
			got, err := s.roots(context.Background())
			if err != nil || !slices.Equal(got, askRootsA) {
				t.Fatalf("call %d from the cache = %v, %v; want %v (a caller's mutation leaked)", i, got, err, askRootsA)
			}
			mutate(got)
		}
	})
}

// Without Keep (a client that will never say its roots changed) each call
// asks again, however soon; a request in flight is still shared.
func TestAskerWithoutKeep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &counting{}
		s := newAsked(rtimpl.AskConfig[testRoot]{Request: c.request})
		for n := 1; n <= 3; n++ {
			expect(t, s, c, n, fmt.Sprintf("call %d, no time between calls", n))
		}
		time.Sleep(time.Hour)
		expect(t, s, c, 4, "call 4, an hour later")

		c = &counting{}
		release := make(chan struct{})
		s = newAsked(rtimpl.AskConfig[testRoot]{Request: func(ctx context.Context, p json.RawMessage) (json.RawMessage, error) {
			<-release
			return c.request(ctx, p)
		}})
		const n = 8
		results := make([][]testRoot, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { results[i], _ = s.roots(context.Background()) })
		}
		synctest.Wait()
		close(release)
		wg.Wait()
		for i := range n {
			if !slices.Equal(results[i], answered(1)) {
				t.Errorf("caller %d: Roots = %v, want %v", i, results[i], answered(1))
			}
		}
		if got := c.calls.Load(); got != 1 {
			t.Errorf("%d concurrent callers made %d requests, want 1 shared", n, got)
		}
		expect(t, s, c, 2, "the call after the shared request")
	})
}

// With Keep, the answer is kept, however old, until Invalidate.
func TestAskerKeepKeepsAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &counting{}
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: c.request})
		expect(t, s, c, 1, "first call")
		time.Sleep(1000 * time.Hour)
		expect(t, s, c, 1, "1000 hours later")
		s.a.Invalidate()
		expect(t, s, c, 2, "after Invalidate")
		expect(t, s, c, 2, "again after Invalidate")
	})
}

// MaxAge lets an answer be reused while it is younger than MaxAge, counted
// from when its request was sent, with Keep or without; Invalidate still
// drops a younger answer.
func TestAskerMaxAge(t *testing.T) {
	const maxAge = 5 * time.Second
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("Keep=%v", keep), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &counting{}
				s := newAsked(rtimpl.AskConfig[testRoot]{Keep: keep, MaxAge: maxAge, Request: c.request})
				expect(t, s, c, 1, "first call")
				time.Sleep(maxAge - time.Nanosecond)
				expect(t, s, c, 1, "just before MaxAge")
				time.Sleep(time.Nanosecond)
				expect(t, s, c, 2, "at MaxAge")
				time.Sleep(maxAge / 2)
				expect(t, s, c, 2, "at half MaxAge")
				s.a.Invalidate()
				expect(t, s, c, 3, "after Invalidate, before MaxAge")
			})
		})
	}
}

// The age of an answer counts from when its request was sent, not from
// when the answer came: a slow answer is that much older.
func TestAskerMaxAgeFromSending(t *testing.T) {
	const maxAge, slow = 5 * time.Second, 3 * time.Second
	synctest.Test(t, func(t *testing.T) {
		c := &counting{}
		s := newAsked(rtimpl.AskConfig[testRoot]{MaxAge: maxAge, Request: func(ctx context.Context, p json.RawMessage) (json.RawMessage, error) {
			time.Sleep(slow)
			return c.request(ctx, p)
		}})
		expect(t, s, c, 1, "first call")
		time.Sleep(maxAge - slow - time.Nanosecond)
		expect(t, s, c, 1, "just before MaxAge after the request was sent")
		time.Sleep(time.Nanosecond)
		expect(t, s, c, 2, "MaxAge after the request was sent")
	})
}

// A Request that panics (or leaves its goroutine with runtime.Goexit)
// does not crash the process; every waiter gets an error saying what
// happened, nothing is cached, and the next call asks again.
func TestAskerRequestPanics(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name  string
		fail  func()
		check func(t *testing.T, err error)
	}{
		{"PanicString", func() { panic("transport exploded") }, func(t *testing.T, err error) {
			var pe *rtimpl.PanicError
			if !errors.As(err, &pe) || pe.What != "Request" || !strings.Contains(err.Error(), "Request panicked: transport exploded") {
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := &counting{}
				release := make(chan struct{})
				s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(ctx context.Context, p json.RawMessage) (json.RawMessage, error) {
					if c.calls.Load() == 0 {
						c.calls.Add(1)
						<-release
						tc.fail()
					}
					return c.request(ctx, p)
				}})
				const n = 3
				results := make([][]testRoot, n)
				errs := make([]error, n)
				var wg sync.WaitGroup
				for i := range n {
					wg.Go(func() { results[i], errs[i] = s.roots(context.Background()) })
				}
				synctest.Wait() // every caller waits on the first request
				close(release)
				wg.Wait() // a waiter left hanging makes synctest report a deadlock
				for i := range n {
					if errs[i] == nil || results[i] != nil {
						t.Errorf("caller %d: Roots = %v, %v; want an error and no roots", i, results[i], errs[i])
						continue
					}
					tc.check(t, errs[i])
				}
				expect(t, s, c, 2, "the call after the failed request")
				expect(t, s, c, 2, "the call after that, from the cache")
			})
		})
	}
}

// Lenient keeps the valid roots of an answer and hands the others'
// problems to OnInvalidRoots; a panic there is reported like one in
// Request, naming OnInvalidRoots, and not cached. Without Lenient, such
// an answer is an error naming the bad root, and OnInvalidRoots hears
// nothing.
func TestAskerLenient(t *testing.T) {
	const mixed = `{"roots":[{"uri":"file:///a"},{"uri":"http://bad"},{"uri":"file:///c"}]}`
	var calls atomic.Int32
	request := func(context.Context, json.RawMessage) (json.RawMessage, error) {
		calls.Add(1)
		return json.RawMessage(mixed), nil
	}
	var reported []error
	s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Lenient: true, OnInvalidRoots: func(err error) { reported = append(reported, err) }, Request: request})
	for range 2 {
		if r, err := s.roots(context.Background()); err != nil || !slices.Equal(r, []testRoot{{URI: "file:///a"}, {URI: "file:///c"}}) {
			t.Errorf("lenient Roots = %v, %v; want the two file roots", r, err)
		}
	}
	if len(reported) != 1 || reported[0].Error() != `ListRootsResult: roots[1].uri: scheme "http" is not allowed here (want file)` || calls.Load() != 1 {
		t.Errorf("OnInvalidRoots got %v after %d requests; want the one bad root, and the answer cached", reported, calls.Load())
	}
	s = newAsked(rtimpl.AskConfig[testRoot]{Keep: true, OnInvalidRoots: func(err error) { t.Errorf("OnInvalidRoots called in strict mode: %v", err) }, Request: request})
	if r, err := s.roots(context.Background()); r != nil || err == nil || !strings.Contains(err.Error(), "roots[1].uri") {
		t.Errorf("strict Roots = %v, %v; want an error naming roots[1].uri", r, err)
	}
	calls.Store(0)
	s = newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Lenient: true, OnInvalidRoots: func(error) { panic("reporter broke") }, Request: request})
	for i := int32(1); i <= 2; i++ {
		r, err := s.roots(context.Background())
		if r != nil || err == nil || !strings.Contains(err.Error(), "OnInvalidRoots panicked: reporter broke") || calls.Load() != i {
			t.Errorf("call %d: Roots = %v, %v after %d requests; want an error saying OnInvalidRoots panicked, not cached", i, r, err, calls.Load())
		}
	}
}

// A Roots whose ctx is already done sends nothing, not even when no
// request is in flight, and returns the ctx's error; cached roots do not
// change that.
func TestAskerCancelledContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &counting{}
		s := newAsked(rtimpl.AskConfig[testRoot]{Request: c.request})
		cancelled, cancel := context.WithCancel(context.Background())
		cancel()
		expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel2()
		for _, ctx := range []context.Context{cancelled, expired} {
			if r, err := s.roots(ctx); err != ctx.Err() || r != nil {
				t.Errorf("Roots with a done ctx = %v, %v; want nil, %v", r, err, ctx.Err())
			}
		}
		synctest.Wait() // a request started in the background would have run by now
		if got := c.calls.Load(); got != 0 {
			t.Errorf("Roots with a done ctx sent %d requests, want none", got)
		}
		expect(t, s, c, 1, "the first call with a live ctx")

		s = newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: c.request})
		expect(t, s, c, 2, "a kept answer's first call")
		if r, err := s.roots(cancelled); err != context.Canceled || r != nil {
			t.Errorf("Roots with a cancelled ctx and cached roots = %v, %v; want nil, context.Canceled", r, err)
		}
		expect(t, s, c, 2, "the cached roots")
	})
}

type ctxKey struct{}

// The shared request carries the values of the ctx of the caller that
// started it, with its own deadline (Timeout from the start) instead of
// that caller's, and that caller cancelling does not end it.
func TestAskerRequestContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 7 * time.Second
		c := &counting{}
		release := make(chan struct{})
		entered := make(chan context.Context, 1)
		s := newAsked(rtimpl.AskConfig[testRoot]{Timeout: timeout, Request: func(ctx context.Context, p json.RawMessage) (json.RawMessage, error) {
			entered <- ctx
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return c.request(ctx, p)
		}})
		start := time.Now()
		first, cancelFirst := context.WithTimeout(context.WithValue(context.Background(), ctxKey{}, "session-42"), time.Second)
		defer cancelFirst()
		firstDone := make(chan error, 1)
		go func() { _, err := s.roots(first); firstDone <- err }()
		reqCtx := <-entered
		if got := reqCtx.Value(ctxKey{}); got != "session-42" {
			t.Errorf("the request's ctx has value %v for the first caller's key, want session-42", got)
		}
		if d, ok := reqCtx.Deadline(); !ok || !d.Equal(start.Add(timeout)) {
			t.Errorf("the request's ctx deadline = %v, %v; want Timeout after the start, %v", d, ok, start.Add(timeout))
		}
		second := make(chan []testRoot, 1)
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
		if r := <-second; !slices.Equal(r, answered(1)) || c.calls.Load() != 1 {
			t.Errorf("the second caller got %v after %d requests, want %v after 1", r, c.calls.Load(), answered(1))
		}
	})
}

// An answer that Request returns once its ctx's deadline has passed is
// still an answer: it is returned and cached, not reported as ErrNoAnswer.
func TestAskerAnswerAtDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &counting{}
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(ctx context.Context, p json.RawMessage) (json.RawMessage, error) {
			<-ctx.Done() // the answer arrives just as the timeout ends
			return c.request(ctx, p)
		}})
		start := time.Now()
		expect(t, s, c, 1, "an answer at the deadline")
		if d := time.Since(start); d != rtimpl.DefaultTimeout {
			t.Errorf("the request ended after %v, want DefaultTimeout, %v", d, rtimpl.DefaultTimeout)
		}
		expect(t, s, c, 1, "from the cache")
	})
}

// pagedClient answers roots/list in pages: the page at cursor "" is
// pages[0], and each page's nextCursor names the next.
type pagedClient struct {
	mu      sync.Mutex
	pages   map[string]string // cursor -> the result's JSON
	cursors []string          // the cursors asked for, in order
}

func (c *pagedClient) request(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
	var p struct {
		Cursor string `json:"cursor"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cursors = append(c.cursors, p.Cursor)
	page, ok := c.pages[p.Cursor]
	if !ok {
		return nil, fmt.Errorf("unknown cursor %q", p.Cursor)
	}
	return json.RawMessage(page), nil
}

// chain is n pages of one root each, file:///1 to file:///n, each but
// the last naming the next page's cursor c<i>.
func chain(n int) map[string]string {
	pages := map[string]string{}
	for i := 1; i <= n; i++ {
		cursor, next := fmt.Sprintf("c%d", i-1), ""
		if i == 1 {
			cursor = ""
		}
		if i < n {
			next = fmt.Sprintf(`,"nextCursor":"c%d"`, i)
		}
		pages[cursor] = fmt.Sprintf(`{"roots":[{"uri":"file:///%d"}]%s}`, i, next)
	}
	return pages
}

// A paged answer is followed to its last page, the pages' roots joined
// in order; a cursor given twice is an error, not a loop, and so is a
// listing longer than MaxPages (DefaultMaxPages unless set). Without
// Paged, the first page is the answer.
func TestAskerPaging(t *testing.T) {
	roots := func(n int) []testRoot {
		var out []testRoot
		for i := 1; i <= n; i++ {
			out = append(out, answered(i)...)
		}
		return out
	}
	for _, c := range []struct {
		name     string
		pages    map[string]string
		paged    bool
		maxPages int
		want     []testRoot
		asked    []string
		err      string
	}{
		{"one page", chain(1), true, 0, roots(1), []string{""}, ""},
		{"three pages", chain(3), true, 0, roots(3), []string{"", "c1", "c2"}, ""},
		{"not paged", chain(3), false, 0, roots(1), []string{""}, ""},
		{"at MaxPages", chain(3), true, 3, roots(3), []string{"", "c1", "c2"}, ""},
		{"over MaxPages", chain(4), true, 3, nil, []string{"", "c1", "c2"}, "too many pages: the client has more than 3"},
		{"at DefaultMaxPages", chain(rtimpl.DefaultMaxPages), true, 0, roots(rtimpl.DefaultMaxPages), nil, ""},
		{"over DefaultMaxPages", chain(rtimpl.DefaultMaxPages + 1), true, 0, nil, nil, "more than 100"},
		{"a cursor again", map[string]string{
			"":  `{"roots":[{"uri":"file:///1"}],"nextCursor":"x"}`,
			"x": `{"roots":[{"uri":"file:///2"}],"nextCursor":"y"}`,
			"y": `{"roots":[],"nextCursor":"x"}`,
		}, true, 0, nil, []string{"", "x", "y"}, `page 3 repeats the cursor "x" of an earlier page`},
		{"a page that fails", map[string]string{"": `{"roots":[{"uri":"file:///1"}],"nextCursor":"gone"}`}, true, 0, nil, []string{"", "gone"}, `unknown cursor`},
		{"a bad page", map[string]string{"": `{"roots":[],"nextCursor":"b"}`, "b": `{"roots":[{"uri":"http://x"}]}`}, true, 0, nil, []string{"", "b"}, "roots[0].uri"},
	} {
		t.Run(c.name, func(t *testing.T) {
			client := &pagedClient{pages: c.pages}
			s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Paged: c.paged, MaxPages: c.maxPages, Request: client.request})
			got, err := s.roots(context.Background())
			if c.err != "" {
				if err == nil || got != nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("Roots = %v, %v; want an error saying %q", got, err, c.err)
				}
				if strings.Contains(c.err, "more than") && !errors.Is(err, rtimpl.ErrTooManyPages) {
					t.Errorf("Roots error %v does not wrap ErrTooManyPages", err)
				}
			} else if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("Roots = %v, %v; want %v", got, err, c.want)
			}
			if c.asked != nil && !slices.Equal(client.cursors, c.asked) {
				t.Errorf("asked for the pages at %q, want %q", client.cursors, c.asked)
			}
			// A listing that failed is not cached; one that succeeded is.
			n := len(client.cursors)
			s.roots(context.Background())
			if again := len(client.cursors) - n; (c.err == "") != (again == 0) {
				t.Errorf("the next call asked for %d pages; error %v", again, err)
			}
		})
	}
	// Params that cannot be made end the listing with their error.
	s := newAsked(rtimpl.AskConfig[testRoot]{Paged: true, Request: (&pagedClient{pages: chain(2)}).request, Params: func(cursor string) (json.RawMessage, error) {
		if cursor != "" {
			return nil, errors.New("no params for a cursor")
		}
		return json.RawMessage("{}"), nil
	}})
	if got, err := s.roots(context.Background()); got != nil || err == nil || err.Error() != "roots/list: no params for a cursor" {
		t.Errorf("Roots = %v, %v; want the error of Params", got, err)
	}
}

// TestAskerListChangedStorm: a client that announces a change after each
// call and answers no roots/list has at most MaxListings of them in flight
// (once each stopped one has returned); the oldest is stopped for a new
// one, and its callers wait for the newest, and get its outcome.
func TestAskerListChangedStorm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var inFlight atomic.Int32
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			inFlight.Add(1)
			defer inFlight.Add(-1)
			<-ctx.Done() // never answers
			return nil, ctx.Err()
		}})
		errs := make(chan error, 100)
		for i := range 100 {
			go func() { _, err := s.roots(context.Background()); errs <- err }()
			synctest.Wait()
			if n := inFlight.Load(); n > rtimpl.MaxListings {
				t.Fatalf("after %d calls, each followed by Invalidate: %d roots/list in flight, want at most %d", i+1, n, rtimpl.MaxListings)
			}
			s.a.Invalidate()
		}
		for range 100 {
			if err := <-errs; !errors.Is(err, rtimpl.ErrNoAnswer) {
				t.Fatalf("a caller: %v, want ErrNoAnswer (after the newest request's Timeout)", err)
			}
		}
	})
}

// TestAskerSlowChattyClient: a client that answers each roots/list in
// 300 ms and announces a change every 50 ms still answers every caller:
// a caller of a stopped request gets the answer of a newer one.
func TestAskerSlowChattyClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var n atomic.Int32
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Request: func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			k := n.Add(1)
			select {
			case <-time.After(300 * time.Millisecond):
				return answerOf(answered(int(k))), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
		var wg sync.WaitGroup
		var failed atomic.Int32
		for range 40 {
			wg.Go(func() {
				if _, err := s.roots(context.Background()); err != nil {
					failed.Add(1)
					t.Errorf("a caller: %v", err)
				}
			})
			synctest.Wait()
			time.Sleep(50 * time.Millisecond)
			s.a.Invalidate()
		}
		wg.Wait()
		if failed.Load() > 0 {
			t.Errorf("%d of 40 callers got no roots", failed.Load())
		}
	})
}

// TestAskerStormKeepsTimeout: a caller handed on to newer requests still
// waits no longer than the Timeout of the request it joined first, though
// the client keeps announcing changes and answers none.
func TestAskerStormKeepsTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newAsked(rtimpl.AskConfig[testRoot]{Keep: true, Timeout: time.Second, Request: func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}})
		start := time.Now()
		first := make(chan time.Duration, 1)
		go func() {
			_, err := s.roots(context.Background())
			if !errors.Is(err, rtimpl.ErrNoAnswer) {
				t.Errorf("the first caller: %v, want ErrNoAnswer", err)
			}
			first <- time.Since(start)
		}()
		synctest.Wait()
		var wg sync.WaitGroup
		for range 50 { // 5 s of changes, a call after each
			time.Sleep(100 * time.Millisecond)
			s.a.Invalidate()
			wg.Go(func() { s.roots(context.Background()) })
		}
		if d := <-first; d != time.Second {
			t.Errorf("the first caller waited %v, want its Timeout, 1s", d)
		}
		wg.Wait()
	})
}
