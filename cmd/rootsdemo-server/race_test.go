//go:build race

package main

// The race detector allocates on its own account: memory checks skip.
func init() { raceEnabled = true }
