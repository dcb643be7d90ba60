// Package demorev holds what the demo peers (cmd/rootsdemo-server,
// cmd/rootsdemo-client) both derive from the gate's table of revisions.
package demorev

import "github.com/rootsgen/rootsgen/generated/rootsgate"

// LatestLegacy is the newest revision that begins with initialize (the
// server then asks roots/list itself), read from the gate's table.
var LatestLegacy = func() string {
	v := ""
	for _, r := range rootsgate.Revisions() {
		if r.DirectRequest {
			v = r.Version
		}
	}
	return v
}()
