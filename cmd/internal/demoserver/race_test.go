//go:build race

package demoserver

// The race detector allocates on its own account: memory checks skip.
func init() { raceEnabled = true }
