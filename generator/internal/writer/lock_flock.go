//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package writer

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// tryLock takes an flock on the directory itself: the kernel releases it
// when the process ends, however it ends, so a killed run leaves no lock.
func tryLock(root *os.Root) (unlock func(), err error) {
	d, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		d.Close()
		return nil, ErrLocked
	case err != nil:
		d.Close()
		return nil, fmt.Errorf("locking the output directory: %w", err)
	}
	return func() { d.Close() }, nil // closing releases the lock
}

func lockHint(dir string) string {
	return "try again when it has finished"
}
