//go:build go1.25

// This file uses os.Root.ReadFile (1.25); see gate_session_test.go.

package generated_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	roots "github.com/rootsgen/rootsgen/generated/roots20251125"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// benchRoots makes n root directories under base, the first holding a
// file depth names below it (depth 1: right in the root), and returns
// their URIs, the file and its path relative to the first root.
func benchRoots(b *testing.B, base string, n, depth int) (uris []string, file, rel string) {
	b.Helper()
	for i := range n {
		dir := filepath.Join(base, fmt.Sprint("r", i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		uris = append(uris, fileURI(dir))
	}
	rel = strings.Repeat("d/", depth-1) + "f"
	file = filepath.Join(base, "r0", rel)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("data"), 0o644); err != nil {
		b.Fatal(err)
	}
	return uris, file, rel
}

// BenchmarkReadFile reads a small file 1, 4 and 16 names below a root,
// with 1 and 1,000 roots in the set, through RootSet.ReadFile and, side by
// side, through an os.Root opened on the root (os.Root.ReadFile) and a
// plain os.ReadFile. Compare with benchstat -col /impl.
func BenchmarkReadFile(b *testing.B) {
	for _, n := range []int{1, 1000} {
		for _, depth := range []int{1, 4, 16} {
			uris, file, rel := benchRoots(b, b.TempDir(), n, depth)
			list := make([]roots.Root, len(uris))
			for i, u := range uris {
				list[i] = roots.Root{URI: u}
			}
			set, err := roots.NewRootSet(list)
			if err != nil {
				b.Fatal(err)
			}
			dir, err := os.OpenRoot(strings.TrimSuffix(file, "/"+rel))
			if err != nil {
				b.Fatal(err)
			}
			for _, impl := range []struct {
				name string
				read func() ([]byte, error)
			}{
				{"RootSet", func() ([]byte, error) { return set.ReadFile(file) }},
				{"os.Root", func() ([]byte, error) { return dir.ReadFile(rel) }},
				{"os.ReadFile", func() ([]byte, error) { return os.ReadFile(file) }},
			} {
				b.Run(fmt.Sprintf("roots=%d/depth=%d/impl=%s", n, depth, impl.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if data, err := impl.read(); err != nil || len(data) != 4 {
							b.Fatal(data, err)
						}
					}
				})
			}
			set.Close()
			dir.Close()
		}
	}
}

// BenchmarkNewRootSet builds (and closes) a set of 1, 10 and 1,000 roots,
// each a directory two names below base: every root is resolved and
// opened when the set is built.
func BenchmarkNewRootSet(b *testing.B) {
	for _, n := range []int{1, 10, 1000} {
		uris, _, _ := benchRoots(b, b.TempDir(), n, 1)
		list := make([]roots.Root, len(uris))
		for i, u := range uris {
			list[i] = roots.Root{URI: u}
		}
		b.Run(fmt.Sprintf("roots=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				set, err := roots.NewRootSet(list)
				if err != nil {
					b.Fatal(err)
				}
				set.Close()
			}
		})
	}
}

// BenchmarkGateListSet is the RootSet of a 2026-07-28 tool call that
// carries its client's roots (1 and 1,000), as every retried call does:
// Session.RootSet (reading the request, and the set kept for the list),
// one ReadFile, Close.
func BenchmarkGateListSet(b *testing.B) {
	var rev rootsgate.Revision
	for _, r := range rootsgate.Revisions() {
		if r.InputRequests {
			rev = r
		}
	}
	for _, n := range []int{1, 1000} {
		uris, file, _ := benchRoots(b, b.TempDir(), n, 2)
		list := make([]rootsgate.Root, len(uris))
		for i, u := range uris {
			list[i] = rootsgate.Root{URI: u}
		}
		params := gateRetryParams(rev, list...)
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
