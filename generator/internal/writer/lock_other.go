//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package writer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// lockName is the lock file where the system has no flock.
const lockName = ".rootsgen-lock"

// tryLock creates a lock file, which only one process can create. A run
// that is killed leaves it behind; the message then says to remove it.
func tryLock(root *os.Root) (unlock func(), err error) {
	f, err := root.OpenFile(lockName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, ErrLocked
	}
	if err != nil {
		return nil, err
	}
	f.Close()
	return func() { _ = root.Remove(lockName) }, nil
}

func lockHint(dir string) string {
	return "try again when it has finished, or remove " + filepath.Join(dir, lockName) + " if no rootsgen is running"
}
