package adaptertest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// MetaNaming2026 is a tools/call _meta that names 2026-07-28 and declares
// roots: what a client on a 2025-era session may write to try to move its
// request off the session's path.
const MetaNaming2026 = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`

// Wire is a hand-written 2025-era client on an NDJSON wire that never
// answers a request from the server and never cancels its own: the
// client a server must not wait for. It counts the roots/list requests it
// receives and hands the test the responses to its calls.
type Wire struct {
	t     testing.TB
	w     io.Writer
	mu    sync.Mutex
	asked int
	next  int
	resps chan string
}

// Dial starts reading end, sends initialize offering version with the
// client capabilities caps (JSON), waits for its result and sends
// notifications/initialized.
func Dial(t testing.TB, end peertest.End, version, caps string) *Wire {
	t.Helper()
	c := &Wire{t: t, w: end.W, resps: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(end.R)
		sc.Buffer(nil, ndjson.DefaultMaxLine)
		for sc.Scan() {
			var m ndjson.Message
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			switch {
			case m.Method == "roots/list":
				c.mu.Lock()
				c.asked++
				c.mu.Unlock()
			case m.Method == "" && m.ID != nil:
				c.resps <- sc.Text()
			}
		}
	}()
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + caps + `,"clientInfo":{"name":"wire","version":"0"}}}`)
	select {
	case raw := <-c.resps:
		if !json.Valid([]byte(raw)) || !containsResult(raw) {
			t.Fatalf("initialize answered %s", raw)
		}
	case <-time.After(peertest.Wait):
		t.Fatalf("no answer to initialize within %v", peertest.Wait)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func containsResult(raw string) bool {
	var m ndjson.Message
	return json.Unmarshal([]byte(raw), &m) == nil && m.Result != nil
}

func (c *Wire) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("wire: sending %.200s: %v", line, err)
	}
}

// Call sends n tools/call requests with params (JSON) at once and returns
// the responses that arrive within peertest.Wait: n of them, or fewer when
// the server leaves some unanswered.
func (c *Wire) Call(n int, params string) []string {
	c.t.Helper()
	for range n {
		c.mu.Lock()
		c.next++
		id := c.next
		c.mu.Unlock()
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params))
	}
	var out []string
	deadline := time.After(peertest.Wait)
	for len(out) < n {
		select {
		case raw := <-c.resps:
			out = append(out, raw)
		case <-deadline:
			return out
		}
	}
	return out
}

// Asked returns the number of roots/list requests received so far.
func (c *Wire) Asked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.asked
}

// Idle returns the number of goroutines once it has held still for a
// moment (at most peertest.Wait): the count of a process whose servers
// wait for input, without the goroutines an SDK starts and ends around
// each message it reads.
func Idle() int {
	deadline := time.Now().Add(peertest.Wait)
	n, same := runtime.NumGoroutine(), 0
	for same < 5 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		if m := runtime.NumGoroutine(); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// Settle waits, at most peertest.Wait, for the number of goroutines to
// fall to baseline or below, and returns the last number seen. Goroutines
// that end a moment after a call returns (a cancellation notice on its
// way) get that long to end; one parked for good does not.
func Settle(baseline int) int {
	deadline := time.Now().Add(peertest.Wait)
	for {
		n := runtime.NumGoroutine()
		if n <= baseline || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}
