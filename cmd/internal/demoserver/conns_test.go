package demoserver

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/mcphttp"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// countingListener counts the connections it has accepted that are still
// open, and the most that were open at once: the server's descriptors.
type countingListener struct {
	net.Listener
	mu        sync.Mutex
	open, max int
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.open++
	l.max = max(l.max, l.open)
	l.mu.Unlock()
	return &countedConn{Conn: c, l: l}, nil
}

func (l *countingListener) counts() (open, max int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open, l.max
}

// waitOpen waits until exactly n accepted connections are open, bounded
// by peertest.Wait.
func (l *countingListener) waitOpen(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(peertest.Wait); ; time.Sleep(10 * time.Millisecond) {
		open, most := l.counts()
		if open == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server holds %d connections open (%d at most), want %d", open, most, n)
		}
	}
}

type countedConn struct {
	net.Conn
	l    *countingListener
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
	})
	return err
}

// serveTCP runs serveHTTP, as rootsdemo-server -http does, on a loopback
// port, and returns its address and the listener that counts its
// connections.
func serveTCP(t *testing.T, o options) (string, *countingListener) {
	t.Helper()
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Log == nil {
		o.Log = log.New(new(peertest.Buffer), "", 0)
	}
	ln := &countingListener{Listener: raw}
	done := make(chan error, 1)
	go func() { done <- serveHTTP(ln, o) }()
	t.Cleanup(func() {
		raw.Close()
		select {
		case <-done:
		case <-time.After(peertest.Wait):
			t.Error("serveHTTP did not return once its listener closed")
		}
	})
	return raw.Addr().String(), ln
}

// trickle writes head, then one byte of body every 20 ms until a write
// fails or stop is closed; done is closed when it returns.
func trickle(c net.Conn, head string, stop <-chan struct{}) (done chan struct{}) {
	done = make(chan struct{})
	go func() {
		defer close(done)
		if _, err := io.WriteString(c, head); err != nil {
			return
		}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := c.Write([]byte("x")); err != nil {
					return
				}
			}
		}
	}()
	return done
}

// A body trickled a byte at a time is cut at the body deadline: the
// server closes the connection, whether the handler was reading the body,
// refused the request without reading it, or the method takes none; and
// once the connections are cut, none stays open on the server's side and
// no goroutine stays.
func TestHTTPSlowBodyCut(t *testing.T) {
	const bodyTimeout = 200 * time.Millisecond
	addr, ln := serveTCP(t, options{bodyTimeout: bodyTimeout})
	headers := "Host: " + addr + "\r\nAccept: application/json, text/event-stream\r\n"
	cases := []struct{ name, head string }{
		{"JSON body with a length", "POST /mcp HTTP/1.1\r\n" + headers + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"},
		{"chunked JSON body", "POST /mcp HTTP/1.1\r\n" + headers + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffff\r\n{"},
		{"body of a refused media type", "POST /mcp HTTP/1.1\r\n" + headers + "Content-Type: text/plain\r\nContent-Length: 100000\r\n\r\n"},
		{"body on another path", "POST /elsewhere HTTP/1.1\r\n" + headers + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"},
		{"body on a GET", "GET /mcp HTTP/1.1\r\n" + headers + "Content-Length: 100000\r\n\r\n"},
	}
	const conns = 5 // per case, at once
	before := runtime.NumGoroutine()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range conns {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					writer := trickle(c, tc.head, stop)
					defer func() {
						c.Close() // ends the writer, if the server did not
						<-writer
					}()
					// A generous bound: the server must have closed the
					// connection long before it.
					_ = c.SetReadDeadline(time.Now().Add(peertest.Wait))
					got, err := io.ReadAll(c)
					if ne := (net.Error)(nil); errors.As(err, &ne) && ne.Timeout() {
						t.Errorf("still open %v after the request began (body deadline %v); read %q", peertest.Wait, bodyTimeout, got)
						return
					}
					// The answer may be lost to the reset that closing a
					// connection with unread bytes sends.
					status, _, _ := strings.Cut(string(got), "\r\n")
					t.Logf("%s, then closed (%v)", status, err)
				}()
			}
			wg.Wait()
			close(stop)
		})
	}
	ln.waitOpen(t, 0)
	for deadline := time.Now().Add(peertest.Wait); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
	}
}

// The body deadline ends with the body: an answer that streams for longer
// (a session's roots/list, answered late) is not cut by it.
func TestHTTPBodyDeadlineLifted(t *testing.T) {
	const bodyTimeout = 100 * time.Millisecond
	s := startHTTP(t, options{bodyTimeout: bodyTimeout})
	sid := s.initialize(t)
	resp := s.post(t, context.Background(), callListRoots(1), mcphttp.HeaderSession, sid)
	defer resp.Body.Close()
	ev := readEvents(t, resp.Body)
	req := ev.next()
	if req.Method != "roots/list" {
		t.Fatalf("first event %+v, want roots/list", req)
	}
	time.Sleep(5 * bodyTimeout) // the client takes its time to answer
	s.notify(t, sid, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"roots":[{"uri":"file:///a"}]}}`)
	if m := ev.next(); !strings.Contains(string(m.Result), `"uri":"file:///a"`) {
		t.Fatalf("tool result %s, want the root", m.Result)
	}
}

// With MaxConns 3, eight clients that connect and send nothing hold three
// of the server's descriptors, not eight; the others wait in the kernel's
// queue and are served once earlier ones close.
func TestHTTPMaxConns(t *testing.T) {
	const limit, clients = 3, 8
	logs := new(peertest.Buffer)
	addr, ln := serveTCP(t, options{MaxConns: limit, Log: log.New(logs, "", 0)})
	conns := make([]net.Conn, clients)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	ln.waitOpen(t, limit)
	// Now every client asks; each is answered, and the server closes
	// its connection after the answer.
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetDeadline(time.Now().Add(peertest.Wait))
			if _, err := io.WriteString(c, "GET /elsewhere HTTP/1.1\r\nHost: "+addr+"\r\nConnection: close\r\n\r\n"); err != nil {
				t.Errorf("client %d: %v", i, err)
				return
			}
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Errorf("client %d: %v", i, err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("client %d: HTTP %d, want 404", i, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	ln.waitOpen(t, 0)
	if _, most := ln.counts(); most != limit {
		t.Errorf("at most %d connections were open at once, want %d", most, limit)
	}
	if !strings.Contains(logs.String(), "3 connections are open (-max-conns)") {
		t.Errorf("log %q, want it to say the limit was reached", logs)
	}
}

// Closing the limiting listener ends an Accept that waits for a slot.
func TestConnLimitClose(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limitConns(raw, 1, log.New(io.Discard, "", 0))
	go func() {
		if c, err := net.Dial("tcp", raw.Addr().String()); err == nil {
			defer c.Close()
			_, _ = io.Copy(io.Discard, c)
		}
	}()
	first, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if l.open() != 1 {
		t.Fatalf("open() = %d, want 1", l.open())
	}
	done := make(chan error, 1)
	go func() {
		_, err := l.Accept()
		done <- err
	}()
	l.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(peertest.Wait):
		t.Fatal("Accept still waits for a slot after Close")
	}
	first.Close()
	first.Close() // a second Close gives nothing back twice
	if l.open() != 0 {
		t.Errorf("open() = %d after Close, want 0", l.open())
	}
}
