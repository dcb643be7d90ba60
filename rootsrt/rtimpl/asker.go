package rtimpl

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// DefaultTimeout bounds a roots/list request when no timeout is set.
const DefaultTimeout = 30 * time.Second

// DefaultMaxPages bounds the pages of one listing when no bound is set.
const DefaultMaxPages = 100

// An Asker is the core of a Session and of a single-revision package's
// Server: it asks one client for its roots, lets concurrent callers share
// one request, and keeps the answer while it can be trusted. Its zero
// value is ready and safe for concurrent use.
type Asker[R any] struct {
	mu     sync.Mutex
	cached []R
	valid  bool
	sent   time.Time // when the request that got cached was sent
	gen    uint64    // counts invalidations, so a fetch that began before one is not cached
	call   *fetch[R] // the fetch new callers join
	// running are the fetches in flight, oldest first: call, and those
	// an Invalidate left running for their callers.
	running []*fetch[R]
}

// fetch is one listing in flight, shared by every caller that waits.
type fetch[R any] struct {
	done   chan struct{}
	roots  []R
	err    error
	cancel context.CancelFunc
	next   *fetch[R] // set when it is stopped for a newer one: its callers wait for that
	ends   time.Time // when its Timeout ends
}

// MaxListings bounds the roots/list requests an Asker has in flight, for a
// client that keeps announcing changes and answers none. A new one beyond
// the bound stops the oldest (if its Request returns when its ctx is
// done), whose callers then wait for the new one's answer, until the
// Timeout of the request they joined first.
const MaxListings = 4

// AskConfig is how an Asker asks: the Server's settings and what its
// revision's types do.
type AskConfig[R any] struct {
	Timeout time.Duration // bounds each listing; zero means DefaultTimeout
	MaxAge  time.Duration // when positive, an answer is reused while younger
	Keep    bool          // the client announces changes: keep an answer until Invalidate (or MaxAge)
	// Paged: answers come in pages, followed to the end, at most MaxPages
	// of them (zero means DefaultMaxPages).
	Paged    bool
	MaxPages int
	// Lenient keeps the valid roots of an answer, reporting the rest to
	// OnInvalidRoots; otherwise an invalid root fails the answer.
	Lenient        bool
	OnInvalidRoots func(error)
	// Request sends roots/list with params and returns the result's JSON.
	Request func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)
	// Params are the params for the page at cursor ("" for the first);
	// NoCursor where roots/list takes no cursor.
	Params func(cursor string) (json.RawMessage, error)
	// Decode reads a result: its roots (the valid ones when lenient, with
	// the invalid ones' *ValidationError as invalid), and the cursor of
	// the next page, "" after the last.
	Decode func(raw json.RawMessage, lenient bool) (roots []R, invalid error, next string, err error)
}

// Roots returns the client's roots: a cached answer while it may be reused,
// and otherwise the answer to a new listing. Concurrent callers share one
// request; a caller that comes after Invalidate does not join a request
// sent before it.
//
// The request runs with the values of the ctx of the caller that started
// it, but with its own deadline, Timeout from its start, and runs on for
// the others when a caller's ctx ends: that caller gets the ctx's error.
// A ctx that is already done gets its error at once, cached roots or not,
// and nothing is sent. A panic in Request or OnInvalidRoots reaches every
// waiter as an error, and the next call asks again.
func (a *Asker[R]) Roots(ctx context.Context, c *AskConfig[R]) ([]R, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a.mu.Lock()
	if a.valid && (c.MaxAge <= 0 || time.Since(a.sent) < c.MaxAge) {
		roots := slices.Clone(a.cached)
		a.mu.Unlock()
		return roots, nil
	}
	a.valid, a.cached = false, nil
	call := a.call
	if call == nil {
		call = &fetch[R]{done: make(chan struct{}), ends: time.Now().Add(c.timeout())}
		if len(a.running) == MaxListings {
			a.running[0].next = call
			a.running[0].cancel()
			a.running = a.running[1:]
		}
		var runCtx context.Context
		runCtx, call.cancel = context.WithDeadline(context.WithoutCancel(ctx), call.ends)
		a.call, a.running = call, append(a.running, call)
		go a.run(runCtx, c, call, a.gen)
	}
	a.mu.Unlock()
	var late <-chan time.Time // the end of the first request's Timeout, once it is stopped
	for {
		select {
		case <-call.done:
			if call.next != nil && call.err != nil { // stopped: its failure is not the answer
				if late == nil {
					t := time.NewTimer(time.Until(call.ends))
					defer t.Stop()
					late = t.C
				}
				call = call.next // a newer request, sent after the caller came
				continue
			}
			return slices.Clone(call.roots), call.err
		case <-late:
			return nil, fmt.Errorf("%w within %v", ErrNoAnswer, c.timeout())
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (c *AskConfig[R]) timeout() time.Duration { return cmp.Or(max(c.Timeout, 0), DefaultTimeout) }

// Invalidate drops the cached roots; the next Roots asks the client again,
// even while a request sent before is still in flight (its callers get its
// answer, which is not cached).
func (a *Asker[R]) Invalidate() {
	a.mu.Lock()
	a.gen, a.valid, a.cached, a.call = a.gen+1, false, nil, nil
	a.mu.Unlock()
}

// run sends the shared request for call, which began at generation gen,
// and hands its outcome to the callers waiting on call.done. Roots cancels
// ctx when MaxListings newer requests are in flight.
func (a *Asker[R]) run(ctx context.Context, c *AskConfig[R], call *fetch[R], gen uint64) {
	defer call.cancel()
	sent, returned := time.Now(), false
	defer func() {
		if !returned {
			// A panic outside Request and OnInvalidRoots (whose panics are
			// errors already), or runtime.Goexit: the waiters must hear of it.
			call.roots = nil
			if v := recover(); v != nil {
				call.err = fmt.Errorf("roots/list: %w", &PanicError{"the request", v})
			} else {
				call.err = errors.New("roots/list: Request or OnInvalidRoots called runtime.Goexit")
			}
		}
		a.mu.Lock()
		if a.call == call {
			a.call = nil
		}
		a.running = slices.DeleteFunc(a.running, func(f *fetch[R]) bool { return f == call })
		if call.err == nil && gen == a.gen && (c.MaxAge > 0 || c.Keep) {
			a.cached, a.valid, a.sent = call.roots, true, sent
		}
		a.mu.Unlock()
		close(call.done)
	}()
	call.roots, call.err = c.list(ctx)
	returned = true
}

// list asks for the client's roots, joining the pages: at most MaxPages,
// and a cursor the client already gave is an error, not a loop.
func (c *AskConfig[R]) list(ctx context.Context) ([]R, error) {
	maxPages := cmp.Or(max(c.MaxPages, 0), DefaultMaxPages)
	var all []R
	seen, cursor := map[string]bool{}, ""
	for page := 1; ; page++ {
		params, err := c.Params(cursor)
		if err != nil {
			return nil, fmt.Errorf("roots/list: %w", err)
		}
		roots, next, err := c.page(ctx, params)
		if err != nil {
			return nil, err
		}
		if !c.Paged {
			return roots, nil
		}
		all = append(all, roots...)
		switch {
		case next == "":
			return all, nil
		case seen[next]:
			return nil, fmt.Errorf("roots/list: page %d repeats the cursor %q of an earlier page", page, next)
		case page >= maxPages:
			return nil, fmt.Errorf("%w: the client has more than %d", ErrTooManyPages, maxPages)
		}
		seen[next], cursor = true, next
	}
}

// page sends one roots/list and returns its roots (the valid ones when
// Lenient) and the cursor of the next page.
func (c *AskConfig[R]) page(ctx context.Context, params json.RawMessage) (roots []R, next string, err error) {
	raw, err := Guard("Request", func() (json.RawMessage, error) { return c.Request(ctx, params) })
	if err != nil {
		// A failure once the timeout has passed is the timeout's doing,
		// whatever Request made of it, unless it is a panic. An answer is
		// used even if it came as time ran out.
		if _, isPanic := err.(*PanicError); !isPanic && ctx.Err() == context.DeadlineExceeded {
			return nil, "", fmt.Errorf("%w within %v", ErrNoAnswer, c.timeout())
		}
		return nil, "", fmt.Errorf("roots/list: %w", err)
	}
	if IsNullValue(raw[SkipSpace(raw, 0):]) {
		return nil, "", errors.New("roots/list: the client answered null, not a result")
	}
	if err := CheckJSON(raw); err != nil {
		return nil, "", fmt.Errorf("roots/list: %w", err)
	}
	roots, invalid, next, err := c.Decode(raw, c.Lenient)
	if err != nil {
		return nil, "", fmt.Errorf("roots/list: %w", err)
	}
	if invalid != nil && c.OnInvalidRoots != nil {
		if _, err := Guard("OnInvalidRoots", func() (struct{}, error) { c.OnInvalidRoots(invalid); return struct{}{}, nil }); err != nil {
			return nil, "", fmt.Errorf("roots/list: %w", err)
		}
	}
	return roots, next, nil
}

// InputRequestMethod returns the method of an inputRequests entry, raw
// valid JSON: the string in the member named exactly "method", as the
// decoders match names (encoding/json would also take "METHOD" or
// "Method"), or "" when raw is not an object or has no such string.
func InputRequestMethod(raw json.RawMessage) string {
	m, _, err := ObjectMembers(raw)
	if err != nil {
		return ""
	}
	var method string
	for m.Next() {
		if string(m.Key) == "method" {
			// Of duplicate members the last wins, as in the decoders.
			method = ""
			_ = DecodeString(m.Value, &method)
		}
	}
	return method
}

// InputResponse returns the JSON of the answer under key in a retried
// request's inputResponses, or why there is none to read.
func InputResponse(raw json.RawMessage, present bool, key string) (json.RawMessage, error) {
	if !present {
		return nil, fmt.Errorf("inputResponses has no %q entry", key)
	}
	if len(raw) == 0 || IsNullValue(raw[SkipSpace(raw, 0):]) {
		return nil, fmt.Errorf("inputResponses[%q] is null, not a result", key)
	}
	if err := CheckJSON(raw); err != nil {
		return nil, fmt.Errorf("inputResponses[%q]: %w", key, err)
	}
	return raw, nil
}

// NoCursor is AskConfig.Params of a revision whose roots/list takes no
// cursor: its one page is asked for with the params {}.
func NoCursor(string) (json.RawMessage, error) { return json.RawMessage("{}"), nil }
