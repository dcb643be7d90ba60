// Package peertest holds what the demo peers' tests share: in-process
// pipes, a hand-written fake peer, and wire transcripts normalized and
// compared frame by frame with the files in testdata.
package peertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
)

// Buffer is a bytes.Buffer that is safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// End is one side of an in-process wire.
type End struct {
	R io.ReadCloser
	W io.WriteCloser
}

// Close closes both halves.
func (e End) Close() {
	e.W.Close()
	e.R.Close()
}

// Pipes returns the two ends of a wire: what a writes, b reads, and back.
func Pipes() (a, b End) {
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	return End{R: ar, W: aw}, End{R: br, W: bw}
}

// Wait is how long a test waits for a frame or a result before it fails;
// reaching it means the peer under test hangs.
const Wait = 10 * time.Second

// Peer is a fake peer written by hand: it sends the exact bytes a test
// gives it and returns the frames it receives.
type Peer struct {
	// Wait bounds each Recv; NewPeer sets it to the package's Wait.
	Wait   time.Duration
	t      testing.TB
	w      io.Writer
	frames chan frame
}

type frame struct {
	raw string
	err error
}

// NewPeer starts reading from end; the reader stops when end.R ends.
func NewPeer(t testing.TB, end End) *Peer {
	p := &Peer{Wait: Wait, t: t, w: end.W, frames: make(chan frame, 16)}
	go func() {
		defer close(p.frames)
		sc := bufio.NewScanner(end.R)
		sc.Buffer(nil, ndjson.DefaultMaxLine)
		for sc.Scan() {
			p.frames <- frame{raw: sc.Text()}
		}
		if err := sc.Err(); err != nil {
			p.frames <- frame{err: err}
		}
	}()
	return p
}

// Send writes line and a newline.
func (p *Peer) Send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		p.t.Fatalf("fake peer: sending %.200s: %v", line, err)
	}
}

// Recv returns the next frame, decoded, and its bytes.
func (p *Peer) Recv() (*ndjson.Message, string) {
	p.t.Helper()
	select {
	case f, ok := <-p.frames:
		if !ok || f.err != nil {
			p.t.Fatalf("fake peer: the wire ended (%v)", f.err)
		}
		var m ndjson.Message
		if err := json.Unmarshal([]byte(f.raw), &m); err != nil {
			p.t.Fatalf("fake peer: frame %.200s: %v", f.raw, err)
		}
		return &m, f.raw
	case <-time.After(p.Wait):
		p.t.Fatalf("fake peer: no frame within %v", p.Wait)
		return nil, ""
	}
}

// Expect receives a request or notification and checks its method.
func (p *Peer) Expect(method string) *ndjson.Message {
	p.t.Helper()
	m, raw := p.Recv()
	if m.Method != method {
		p.t.Fatalf("fake peer: got %.300s, want a %s", raw, method)
	}
	return m
}

// Closed checks that the wire ends with no further frame.
func (p *Peer) Closed() {
	p.t.Helper()
	select {
	case f, ok := <-p.frames:
		if ok {
			p.t.Fatalf("fake peer: got %.300s (%v), want the end of the wire", f.raw, f.err)
		}
	case <-time.After(Wait):
		p.t.Fatalf("fake peer: the wire did not end within %v", Wait)
	}
}

// Normalize turns a transcript ("<- " and "-> " lines) into frames that do
// not change from run to run: ids become "#1", "#2"... in order of first
// use (per sender, so a request and its answer share one); requestState
// becomes "<state>"; the version of clientInfo and serverInfo becomes
// "<version>". Members are sorted by name. Methods, params and results are
// kept as they are.
func Normalize(transcript string) ([]string, error) {
	ids := map[string]string{}
	var out []string
	for i, line := range strings.Split(strings.TrimSuffix(transcript, "\n"), "\n") {
		if line == "" {
			continue
		}
		dir, body, ok := strings.Cut(line, " ")
		if !ok || (dir != "<-" && dir != "->") {
			return nil, fmt.Errorf("transcript line %d: %.80q is not a frame", i+1, line)
		}
		dec := json.NewDecoder(strings.NewReader(body))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("transcript line %d: %w", i+1, err)
		}
		if id, ok := m["id"]; ok && id != nil {
			sender := dir
			if _, isRequest := m["method"]; !isRequest {
				sender = map[string]string{"<-": "->", "->": "<-"}[dir]
			}
			key := sender + fmt.Sprint(id)
			if ids[key] == "" {
				ids[key] = fmt.Sprintf("#%d", len(ids)+1)
			}
			m["id"] = ids[key]
		}
		scrub(m)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m); err != nil {
			return nil, err
		}
		out = append(out, dir+" "+strings.TrimSuffix(buf.String(), "\n"))
	}
	return out, nil
}

func scrub(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			switch k {
			case "requestState":
				v[k] = "<state>"
			case "clientInfo", "serverInfo", "io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/serverInfo":
				if info, ok := e.(map[string]any); ok {
					if _, ok := info["version"]; ok {
						info["version"] = "<version>"
					}
				}
			default:
				scrub(e)
			}
		}
	case []any:
		for _, e := range v {
			scrub(e)
		}
	}
}

// Check compares a transcript, normalized, with the file at path, frame by
// frame; with update it rewrites the file instead.
func Check(t testing.TB, path, transcript string, update bool) {
	t.Helper()
	got, err := Normalize(transcript)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(got, "\n") + "\n"
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := range max(len(got), len(want)) {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s: frame %d differs (rerun with -update if the change is intended)\n got: %s\nwant: %s", path, i+1, g, w)
			return
		}
	}
}
