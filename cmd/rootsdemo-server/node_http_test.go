package main

import (
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/demoserver"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// TestNodeClientHTTP runs the TypeScript SDK client (client.mjs --url,
// its StreamableHTTPClientTransport) against rootsdemo-server's HTTP
// handler: a 2025-11-25 session, where roots/list reaches the client over
// SSE and list_changed is POSTed, and 2026-07-28, where each call is two
// POSTs through input_required.
func TestNodeClientHTTP(t *testing.T) {
	node, dir := peertest.NodePeers(t)
	first := []nodeRoot{{URI: "file:///work/alpha", Name: "alpha"}, {URI: "file:///work/beta"}}
	then := []nodeRoot{{URI: "file:///work/gamma", Name: "gamma"}}
	tools := []string{"list_roots", "read_file", "test_input_required_result_list_roots", "test_input_required_result_tampered_state"}
	for _, tc := range []struct {
		name, version string
		args          []string
	}{
		{"2025-11-25", "2025-11-25", []string{"--legacy", "2025-11-25"}},
		{"2026-07-28", "2026-07-28", []string{"--pin", "2026-07-28"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			transcript := new(peertest.Buffer)
			h, err := demoserver.NewHTTPHandler(demoserver.Options{Timeout: peertest.Wait, Transcript: transcript})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			defer h.Close()
			args := append([]string{"client.mjs"}, tc.args...)
			for _, r := range first {
				args = append(args, "--root", rootArg(r))
			}
			for _, r := range then {
				args = append(args, "--then", rootArg(r))
			}
			args = append(args, "--url", srv.URL+demoserver.Path)
			got := runClient(t, node, dir, args)
			checkSummary(t, got, tc.version, tools, first, then)
			peertest.Check(t, filepath.Join("testdata", "transcripts", "node-http-client-"+tc.name+".txt"), transcript.String(), *update)
		})
	}
}
