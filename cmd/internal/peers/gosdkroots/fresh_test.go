package gosdkroots_test

import (
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
)

// TestAdapterFresh fails when gosdk.go is not what rootsgen writes for
// the rootsgen line of generate.go, or names another go-sdk version than
// the one this module pins; regenerate with
//
//	go -C cmd/internal/peers generate ./gosdkroots
func TestAdapterFresh(t *testing.T) {
	adaptertest.Fresh(t, "gosdkroots", "github.com/modelcontextprotocol/go-sdk")
}
