package generated_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// BenchmarkGateSessionRootSet is a tool call on a session whose client
// announces changes, so its roots stay cached: Session.RootSet, one
// ReadFile inside one of 10 roots, Close.
func BenchmarkGateSessionRootSet(b *testing.B) {
	rev := gateLegacy()[len(gateLegacy())-1]
	dir := b.TempDir()
	var list []rootsgate.Root
	for i := range 10 {
		root := filepath.Join(dir, fmt.Sprint("root", i))
		if err := os.Mkdir(root, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("data"), 0o644); err != nil {
			b.Fatal(err)
		}
		list = append(list, rootsgate.Root{URI: fileURI(root)})
	}
	peer := newGatePeer(list...)
	sess := &rootsgate.Session{Request: peer.request(rev.Version)}
	if err := sess.Initialize(rev.Version, json.RawMessage(`{"roots":{"listChanged":true}}`)); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	file := filepath.Join(dir, "root7", "f.txt")
	b.ReportAllocs()
	for b.Loop() {
		set, err := sess.RootSet(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := set.ReadFile(file); err != nil {
			b.Fatal(err)
		}
		if err := set.Close(); err != nil {
			b.Fatal(err)
		}
	}
	if n := peer.asks.Load(); n != 1 {
		b.Fatalf("%d roots/list requests, want 1", n)
	}
}
