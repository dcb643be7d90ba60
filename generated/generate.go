// Package generated holds rootsgen's output for every revision it ships
// with, one package per revision, and the gate over all of them (rootsgate),
// as a user's go generate would write them.
// The packages are committed; TestGeneratedFresh (generated_test.go) fails
// when they differ from what the generator produces now. Regenerate them with
//
//	go generate ./...
//
// The tests here reach each revision through adapters_test.go, which the
// last line below writes from the embedded schemas (generated/internal/adapters).
// Adding a revision is: its schema in schema/ and one -revision line here
// (package roots<date without dashes>); the rootsgate kit takes every
// embedded revision. No test is edited (TestGeneratedFresh fails until the
// line is there).
package generated

//go:generate go run ../cmd/rootsgen -revision 2024-11-05 -out roots20241105
//go:generate go run ../cmd/rootsgen -revision 2025-03-26 -out roots20250326
//go:generate go run ../cmd/rootsgen -revision 2025-06-18 -out roots20250618
//go:generate go run ../cmd/rootsgen -revision 2025-11-25 -out roots20251125
//go:generate go run ../cmd/rootsgen -revision 2026-07-28 -out roots20260728
//go:generate go run ../cmd/rootsgen -sdk none -out rootsgate
//go:generate go run ./internal/adapters/gen
