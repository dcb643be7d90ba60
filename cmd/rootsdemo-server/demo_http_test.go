package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// The two demo programs over HTTP, run as README.md here shows: the server
// started with -http and -allow, the client with -url, on a 2025-era
// session and on 2026-07-28.
func TestDemosOverHTTP(t *testing.T) {
	client := peertest.BuildLong(t, "rootsdemo-client")
	addr, stderr := startHTTPServer(t, peertest.Build(t, "rootsdemo-server"))
	for _, version := range []string{"2025-03-26", "2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			cmd := exec.Command(client, "-protocol", version, "-root", "file:///tmp=tmp", "-url", "http://"+addr+"/mcp")
			cmd.Stdin = strings.NewReader("call list_roots\nroots file:///srv file:///home=home\ncall list_roots\ncall read_file {\"path\":\"/etc/passwd\"}\nquit\n")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s\nserver log:\n%s", err, out, stderr)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			want := []string{`"structuredContent":{"roots":[{"uri":"file:///tmp","name":"tmp"}]}`, `{"ok":true}`,
				`"structuredContent":{"roots":[{"uri":"file:///srv"},{"uri":"file:///home","name":"home"}]}`,
				`read_file: refused: \"/etc/passwd\" is outside the client's roots`}
			if len(lines) != len(want) {
				t.Fatalf("printed %d lines, want %d:\n%s", len(lines), len(want), out)
			}
			for i := range want {
				if !strings.Contains(lines[i], want[i]) {
					t.Errorf("line %d: %s\nwant it to contain %s", i+1, lines[i], want[i])
				}
			}
		})
	}
}
