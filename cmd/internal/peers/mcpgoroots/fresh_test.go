package mcpgoroots_test

import (
	"testing"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
)

// TestAdapterFresh fails when mcpgo.go is not what rootsgen writes for
// the rootsgen line of generate.go, or names another mcp-go version than
// the one this module pins; regenerate with
//
//	go -C cmd/internal/peers generate ./mcpgoroots
func TestAdapterFresh(t *testing.T) {
	adaptertest.Fresh(t, "mcpgoroots", "github.com/mark3labs/mcp-go")
}
