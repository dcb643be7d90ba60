package main

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// -http without -allow would let any local process read every file the
// server's user can read, so the server refuses to start (status 2) and
// says what to pass; -unsafe-allow-all starts it anyway, and contradicts
// -allow.
func TestHTTPNeedsAllow(t *testing.T) {
	exe := peertest.Build(t, "rootsdemo-server")
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the message
	}{
		{"no -allow", []string{"-http", "127.0.0.1:0"}, []string{"-http needs -allow DIR", "file:///", "-unsafe-allow-all"}},
		{"-allow and -unsafe-allow-all", []string{"-http", "127.0.0.1:0", "-allow", t.TempDir(), "-unsafe-allow-all"}, []string{"pass one or the other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
			defer cancel()
			out, err := exec.CommandContext(ctx, exe, tc.args...).CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("rootsdemo-server %s: %v, want exit status 2\n%s", strings.Join(tc.args, " "), err, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("message %q, want it to contain %q", out, w)
				}
			}
		})
	}
	t.Run("-unsafe-allow-all", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, exe, "-http", "127.0.0.1:0", "-unsafe-allow-all")
		stderr := new(peertest.Buffer)
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			cancel()
			_ = cmd.Wait()
		}()
		for deadline := time.Now().Add(peertest.Wait); !strings.Contains(stderr.String(), "serving MCP at"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("rootsdemo-server -http 127.0.0.1:0 -unsafe-allow-all does not serve:\n%s", stderr)
			}
		}
		if !strings.Contains(stderr.String(), "-unsafe-allow-all: read_file reads any file") {
			t.Errorf("log %q, want a warning about -unsafe-allow-all", stderr)
		}
	})
}
