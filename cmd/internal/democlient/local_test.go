package democlient

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A root the protocol does not allow is refused where it is typed, and the
// roots the client already shares stay as they were, unannounced.
func TestBadRootRefused(t *testing.T) {
	for _, bad := range []string{"https://example.com/x", "FILE:///tmp", "relative/dir", ""} {
		if _, err := parseRoot(bad + "=n"); err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) {
			t.Errorf("parseRoot(%q) = %v, want an error naming it", bad, err)
		}
	}
	if r, err := parseRoot("file:///tmp/a=A"); err != nil || r.URI != "file:///tmp/a" || r.Name != "A" {
		t.Errorf("parseRoot(file:///tmp/a=A) = %+v, %v", r, err)
	}

	p, c := fakeServer(t, options{Protocol: "2025-06-18", Roots: oneRoot}, "2025-06-18")
	out := c.command(context.Background(), "roots file:///tmp/ok https://example.com/x")
	e, _ := out.(map[string]any)["error"]
	if e == nil || !strings.Contains(jsonString(t, e), "https://example.com/x") {
		t.Fatalf("roots with a bad URI printed %s, want an error naming it", jsonString(t, out))
	}
	// No list_changed went out: the next frame the server sees is the
	// answer to its own roots/list, with the old roots.
	p.Send(`{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}`)
	if m, raw := p.Recv(); m.Method != "" || string(m.Result) != `{"roots":[{"name":"me","uri":"file:///home/me"}]}` {
		t.Errorf("after a refused roots command the server got %s", raw)
	}
}

// quit must not hang on a server that ignores the end of its stdin: it gets
// SIGTERM, and one that ignores that too gets SIGKILL.
func TestStopEscalates(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		signal syscall.Signal
	}{
		{"exits on its own", "exit 0", 0},
		{"ignores stdin", "exec sleep 60", syscall.SIGTERM},
		{"ignores SIGTERM", "trap '' TERM; exec sleep 60", syscall.SIGKILL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tc.script)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			err := stop(cmd, 50*time.Millisecond)
			var exit *exec.ExitError
			switch {
			case tc.signal == 0 && err != nil:
				t.Fatalf("stop = %v, want nil", err)
			case tc.signal != 0 && !errors.As(err, &exit):
				t.Fatalf("stop = %v, want an exit by %v", err, tc.signal)
			case tc.signal != 0:
				if ws := exit.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != tc.signal {
					t.Fatalf("server ended with %v, want %v", ws, tc.signal)
				}
			}
		})
	}
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
