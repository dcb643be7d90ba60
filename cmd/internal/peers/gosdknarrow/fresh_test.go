package gosdknarrow_test

import (
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
)

// TestAdapterFresh fails when the kit is not what rootsgen writes for the
// rootsgen line of generate.go; regenerate with
//
//	go -C cmd/internal/peers generate ./gosdknarrow
func TestAdapterFresh(t *testing.T) {
	adaptertest.Fresh(t, "gosdknarrow", "github.com/modelcontextprotocol/go-sdk")
}
