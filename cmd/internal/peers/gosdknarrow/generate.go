// gosdknarrow is a go-sdk kit narrowed to two revisions (rootsgen
// -revisions), generated here as a user's go generate would write it, and
// committed: the adapter must keep go-sdk to the revisions the kit serves.
// TestAdapterFresh fails when the kit differs from what rootsgen produces
// now.

package gosdknarrow

//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -sdk go-sdk -revisions 2025-06-18,2026-07-28 -out .
