package mcphttp

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestEvents(t *testing.T) {
	var buf bytes.Buffer
	for _, msg := range []string{`{"id":1}`, `{"id":2}`} {
		if err := WriteEvent(&buf, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteEvent(&buf, []byte("{\n}")); err == nil {
		t.Error("WriteEvent took data with a line break")
	}
	// Another server's framing: comments, ids, an event of another type,
	// data over two lines, CRLF, and an event cut off by the end.
	buf.WriteString(": keep-alive\r\nid: 7\r\nevent: ping\r\ndata: x\r\n\r\ndata: {\"a\":\r\ndata:1}\r\n\r\ndata: {\"cut\":true}")
	var got []string
	if err := ReadEvents(&buf, 1<<10, func(d []byte) error { got = append(got, string(d)); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"id":1}`, `{"id":2}`, "{\"a\":\n1}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", got, want)
	}
	long := "data: " + strings.Repeat("x", 100) + "\n\n"
	if err := ReadEvents(strings.NewReader(long), 50, func([]byte) error { return nil }); !errors.Is(err, ErrEventTooLong) {
		t.Errorf("an event over the bound: %v, want ErrEventTooLong", err)
	}
	many := strings.Repeat("data: "+strings.Repeat("x", 20)+"\n", 5) + "\n"
	if err := ReadEvents(strings.NewReader(many), 50, func([]byte) error { return nil }); !errors.Is(err, ErrEventTooLong) {
		t.Errorf("an event of many lines over the bound: %v, want ErrEventTooLong", err)
	}
}

func TestReadStreamState(t *testing.T) {
	in := "id: 1\nretry: 250\ndata: a\n\nid: 2\nretry: -1\nevent: ping\ndata: b\n\nid: 3\ndata: c"
	var st Stream
	var got []string
	if err := ReadStream(strings.NewReader(in), 1<<10, &st, func(d []byte) error { got = append(got, string(d)); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "a" || st.LastID != "3" || st.Retry != 250*time.Millisecond {
		t.Errorf("events %q, state %+v; want [a], last id 3, retry 250ms", got, st)
	}
	stop := errors.New("stop")
	st = Stream{}
	if err := ReadStream(strings.NewReader(in), 1<<10, &st, func([]byte) error { return stop }); err != stop || st.LastID != "1" {
		t.Errorf("stopping at the first event: %v, last id %q; want stop, 1", err, st.LastID)
	}
}

func TestAccepts(t *testing.T) {
	for _, tc := range []struct {
		accept, mt string
		ok         bool
	}{
		{"", JSON, true},
		{"application/json, text/event-stream", EventStream, true},
		{"application/json;q=0.9", JSON, true},
		{"text/*", EventStream, true},
		{"*/*", JSON, true},
		{"application/json", EventStream, false},
		{"text/html", JSON, false},
	} {
		if got := Accepts(tc.accept, tc.mt); got != tc.ok {
			t.Errorf("Accepts(%q, %q) = %v, want %v", tc.accept, tc.mt, got, tc.ok)
		}
	}
	if !IsJSON("application/json; charset=utf-8") || IsJSON("text/plain") {
		t.Error("IsJSON")
	}
}
