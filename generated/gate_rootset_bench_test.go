package generated_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
	"github.com/rootsgen/rootsgen/testdata/gotest/gatepeer"
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
	peer := gatepeer.New(list...)
	sess := &rootsgate.Session{Request: peer.Request(rev.Version)}
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
	if n := peer.Asks.Load(); n != 1 {
		b.Fatalf("%d roots/list requests, want 1", n)
	}
}

// benchRoots makes n root directories under base, the first holding a
// file depth names below it (depth 1: right in the root), and returns
// their URIs and the file.
func benchRoots(b *testing.B, base string, n, depth int) (uris []string, file string) {
	b.Helper()
	for i := range n {
		dir := filepath.Join(base, fmt.Sprint("r", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		uris = append(uris, fileURI(dir))
	}
	file = filepath.Join(base, "r0", strings.Repeat("d/", depth-1)+"f")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("data"), 0o644); err != nil {
		b.Fatal(err)
	}
	return uris, file
}

// BenchmarkGateListSet is the RootSet of a 2026-07-28 tool call that
// carries its client's roots (1 and 1,000), as every retried call does:
// Session.RootSet (reading the request with the revision's decoder, and
// the set kept for the list), one ReadFile, Close.
func BenchmarkGateListSet(b *testing.B) {
	var rev rootsgate.Revision
	for _, r := range rootsgate.Revisions() {
		if r.InputRequests {
			rev = r
		}
	}
	for _, n := range []int{1, 1000} {
		uris, file := benchRoots(b, b.TempDir(), n, 2)
		list := make([]rootsgate.Root, len(uris))
		for i, u := range uris {
			list[i] = rootsgate.Root{URI: u}
		}
		params := testMeta.RetryParams(rev, list...)
		sess := &rootsgate.Session{}
		ctx := context.Background()
		b.Run(fmt.Sprintf("roots=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				set, err := sess.RootSet(ctx, json.RawMessage(params))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := set.ReadFile(file); err != nil {
					b.Fatal(err)
				}
				set.Close()
			}
		})
		sess.Close()
	}
}
