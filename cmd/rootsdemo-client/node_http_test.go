package main

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// startNodeHTTP starts testdata/interop/node/server.mjs --http and returns
// the URL of its MCP endpoint, which it prints first. The process is
// killed at the end of the test.
func startNodeHTTP(t *testing.T, node, dir string) string {
	t.Helper()
	cmd := exec.Command(node, "server.mjs", "--http")
	cmd.Dir = dir
	stderr := &peertest.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server.mjs stderr:\n%s", stderr)
		}
	})
	first := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Scan()
		first <- sc.Text()
		for sc.Scan() { // drain, so the server never blocks on stdout
		}
	}()
	select {
	case url := <-first:
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("server.mjs --http printed %q, want its URL\nstderr:\n%s", url, stderr)
		}
		return url
	case <-time.After(commandTimeout):
		t.Fatalf("server.mjs --http printed no URL within %v\nstderr:\n%s", commandTimeout, stderr)
	}
	return ""
}

// TestNodeServerHTTP runs rootsdemo-client -url against the TypeScript SDK
// server (@modelcontextprotocol/server 2.4.0, server.mjs --http) over
// Streamable HTTP: on 2025-11-25 a stateful session, where the server's
// listRoots() comes over the GET stream and list_changed is POSTed; on
// 2026-07-28 the SDK's createMcpHandler, where list_roots answers
// input_required and reads the retried POST's inputResponses.
func TestNodeServerHTTP(t *testing.T) {
	node, dir := peertest.NodePeers(t)
	client := peertest.Build(t, "rootsdemo-client")
	for _, tc := range []struct {
		protocol string
		notified int
	}{
		{"2025-11-25", 1},
		{"2025-06-18", 1},
		{"2025-03-26", 1},
		{"2024-11-05", 1},
		{"2026-07-28", 0},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			url := startNodeHTTP(t, node, dir)
			transcript := filepath.Join(t.TempDir(), "transcript.txt")
			d := startDemo(t, dir, client, "-protocol", tc.protocol, "-transcript", transcript,
				"-root", "file:///work/alpha=alpha", "-root", "file:///work/beta", "-url", url)

			exerciseNodeServer(t, d, tc.notified, transcript, "node-server-http-"+tc.protocol+".txt")
		})
	}
}
