// Package generated holds rootsgen's output for every revision it ships
// with, one package per revision, as a user's go generate would write it.
// The packages are committed; TestGeneratedFresh (generated_test.go) fails
// when they differ from what the generator produces now. Regenerate them with
//
//	go generate ./...
package generated

//go:generate go run ../cmd/rootsgen -revision 2024-11-05 -out roots20241105
//go:generate go run ../cmd/rootsgen -revision 2025-03-26 -out roots20250326
//go:generate go run ../cmd/rootsgen -revision 2025-06-18 -out roots20250618
//go:generate go run ../cmd/rootsgen -revision 2025-11-25 -out roots20251125
//go:generate go run ../cmd/rootsgen -revision 2026-07-28 -out roots20260728
