package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The two demo programs, built and run as ../rootsdemo-server/README.md
// shows, over real stdio pipes between processes: pinned to a revision,
// and without -protocol, where the client offers its newest revision and
// the demo server, which speaks every revision, takes it.
func TestBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo programs")
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", dir, "github.com/rootsgen/rootsgen/cmd/rootsdemo-client", "github.com/rootsgen/rootsgen/cmd/rootsdemo-server")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, version := range []string{"2024-11-05", "2025-11-25", "2026-07-28", ""} {
		name, args := version, []string{"-protocol", version}
		if version == "" {
			name, args = "negotiated", nil
		}
		t.Run(name, func(t *testing.T) {
			transcript := filepath.Join(t.TempDir(), "t.txt")
			args := append(args, "-root", "file:///tmp=tmp", "-transcript", transcript, "--", filepath.Join(dir, "rootsdemo-server"), "-timeout", "5s")
			cmd := exec.Command(filepath.Join(dir, "rootsdemo-client"), args...)
			cmd.Stdin = strings.NewReader("call list_roots\nroots file:///srv file:///home=home\ncall list_roots\nbogus\nquit\n")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			want := []string{`"structuredContent":{"roots":[{"uri":"file:///tmp","name":"tmp"}]}`, `{"ok":true}`,
				`"structuredContent":{"roots":[{"uri":"file:///srv"},{"uri":"file:///home","name":"home"}]}`, `{"error":{"code":-32600,"message":"unknown command \"bogus\""}}`}
			if len(lines) != len(want) {
				t.Fatalf("printed %d lines, want %d:\n%s", len(lines), len(want), out)
			}
			for i := range want {
				if !strings.Contains(lines[i], want[i]) {
					t.Errorf("line %d: %s\nwant it to contain %s", i+1, lines[i], want[i])
				}
			}
			data, err := os.ReadFile(transcript)
			if err != nil || !strings.HasPrefix(string(data), "-> ") {
				t.Errorf("transcript: %v\n%s", err, data)
			}
			if first, _, _ := strings.Cut(string(data), "\n"); version == "" &&
				(!strings.Contains(first, `"method":"server/discover"`) || !strings.Contains(first, `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`)) {
				t.Errorf("without -protocol the first frame is %s, want server/discover on 2026-07-28", first)
			}
		})
	}
}
