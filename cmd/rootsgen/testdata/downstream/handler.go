// The roots handler of the downstream test program, written against the
// 2025-06-18 package. The upgrade test keeps this file unchanged when the
// package moves to 2026-07-28: the 2026 shim must still serve it.

package main

import (
	"context"

	"example.com/app/mcproots"
)

// listRoots answers roots/list with the roots the program works in.
var listRoots = mcproots.ListRootsHandlerFunc(func(ctx context.Context, params *mcproots.ListRootsRequestParams) (*mcproots.ListRootsResult, error) {
	return &mcproots.ListRootsResult{Roots: []mcproots.Root{
		{URI: "file:///home/me/repo", Name: "repo"},
		{URI: "file:///home/me/notes"},
	}}, nil
})
