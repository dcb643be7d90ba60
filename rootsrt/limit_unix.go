//go:build unix

package rootsrt

import "syscall"

// softFileLimit returns the soft RLIMIT_NOFILE.
func softFileLimit() (uint64, bool) {
	var r syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r) != nil {
		return 0, false
	}
	return uint64(r.Cur), true
}
