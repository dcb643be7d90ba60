// Package logtest is a buffer that tests log to and read back: the log
// package's output, or the JSON records of a slog logger (the runtime's
// audit tests and the adapters').
package logtest

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// A Buffer holds what is logged to it, from any goroutine.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p, for loggers on many goroutines.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Logger returns a logger of every level that writes to b.
func (b *Buffer) Logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Records returns the JSON records written so far, in order.
func (b *Buffer) Records(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(b.buf.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// ByMessage returns the JSON records written so far, by message.
func (b *Buffer) ByMessage(t *testing.T) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for _, r := range b.Records(t) {
		msg, _ := r["msg"].(string)
		out[msg] = append(out[msg], r)
	}
	return out
}
