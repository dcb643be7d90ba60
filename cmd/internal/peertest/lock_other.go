//go:build !unix

package peertest

// lockFile does not lock where there is no flock: test binaries that
// install the Node peers at the same moment may run npm ci twice.
func lockFile(string) (unlock func(), err error) { return func() {}, nil }
