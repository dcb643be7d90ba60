package democlient

import (
	"context"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// TestModernHandshakeNamesTheFix: asked for 2026-07-28, the client opens
// with server/discover. A server that does not know it (any server of an
// earlier revision) answers -32601, and one that knows it may not list
// 2026-07-28; the error must say which -protocol to run with instead.
func TestModernHandshakeNamesTheFix(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		want         []string
	}{
		{"no server/discover", `"error":{"code":-32601,"message":"Method not found"}`,
			[]string{"server/discover", "-32601", "run with -protocol " + latestLegacy}},
		{"result is not an object", `"result":"hello"`,
			[]string{"server/discover", "run with -protocol " + latestLegacy}},
		{"other versions", `"result":{"resultType":"complete","supportedVersions":["2025-06-18"],"capabilities":{}}`,
			[]string{"does not support 2026-07-28 (it supports [2025-06-18])", "run with -protocol set to one of them"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ours, theirs := peertest.Pipes()
			t.Cleanup(ours.Close)
			t.Cleanup(theirs.Close)
			p := peertest.NewPeer(t, theirs)
			failed := make(chan error, 1)
			go func() {
				_, err := connect(context.Background(), ours.R, ours.W, options{Protocol: "2026-07-28", Roots: oneRoot})
				failed <- err
			}()
			req := p.Expect("server/discover")
			p.Send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,` + tc.answer + `}`)
			err := <-failed
			if err == nil {
				t.Fatal("the handshake succeeded")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}
