//go:build !unix

package rootsrt_test

import (
	"runtime"
	"testing"
)

// fifoDir skips the test: this system has no FIFOs.
func fifoDir(t *testing.T) (dir, fifo string) {
	t.Helper()
	t.Skip("no FIFOs on " + runtime.GOOS)
	return "", ""
}

// oNonblock is nothing here: with no FIFOs, there is no end to wait for.
const oNonblock = 0
