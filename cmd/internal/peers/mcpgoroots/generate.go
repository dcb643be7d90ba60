// Package mcpgoroots is the mcp-go adapter rootsgen writes over the gate
// package generated/rootsgate, generated here as a user's go generate would
// write it, and committed. TestAdapterFresh fails when mcpgo.go differs
// from what rootsgen produces now.
package mcpgoroots

//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -sdk mcp-go -gate-import github.com/rootsgen/rootsgen/generated/rootsgate -out .
