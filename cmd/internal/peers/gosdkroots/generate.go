// gosdkroots is the go-sdk kit rootsgen writes for that SDK (the runtime, a package per revision,
// and here the gate with the adapter), generated here as a user's go generate would
// write it, and committed. TestAdapterFresh fails when the kit differs from what
// rootsgen produces now.

package gosdkroots

//go:generate go run github.com/rootsgen/rootsgen/cmd/rootsgen -sdk go-sdk -out .
