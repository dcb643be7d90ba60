package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// -url and a server command exclude each other, and one of them is
// needed: anything else is a usage error naming both forms.
func TestURLFlagUsage(t *testing.T) {
	client := peertest.BuildLong(t, "rootsdemo-client")
	for _, args := range [][]string{
		{},
		{"-url", "http://127.0.0.1:1/mcp", "--", "true"},
	} {
		out, err := exec.Command(client, args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "-- SERVER_CMD") || !strings.Contains(string(out), "-url URL") {
			t.Errorf("rootsdemo-client %q: %v\n%s\nwant a usage error naming both forms", args, err, out)
		}
	}
	// A server that is not there fails the handshake, with the reason.
	out, err := exec.Command(client, "-url", "http://127.0.0.1:1/mcp").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "handshake") || !strings.Contains(string(out), "connection refused") {
		t.Errorf("rootsdemo-client -url to a closed port: %v\n%s", err, out)
	}
}
