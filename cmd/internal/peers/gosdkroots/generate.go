// Package gosdkroots is the go-sdk adapter rootsgen writes over the gate
// package generated/rootsgate, generated here as a user's go generate would
// write it, and committed. TestAdapterFresh fails when gosdk.go differs
// from what rootsgen produces now.
package gosdkroots

//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -sdk go-sdk -gate-import github.com/rootsgen/rootsgen/generated/rootsgate -out .
