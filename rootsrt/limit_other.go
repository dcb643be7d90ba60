//go:build !unix

package rootsrt

// softFileLimit reports that the system has no RLIMIT_NOFILE.
func softFileLimit() (uint64, bool) { return 0, false }
