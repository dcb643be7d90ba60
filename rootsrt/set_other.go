//go:build (!linux && !js && !wasip1) || mips || mipsle || mips64 || mips64le

package rootsrt

import (
	"io"
	"os"
	"sync/atomic"
	"syscall"
)

// No one-call confined open here: the file methods go through os.Root
// alone. oNonblock opens a FIFO without waiting for its other end.
const haveOpenBeneath, oNonblock = false, syscall.O_NONBLOCK

func openRegularBeneath(*os.File, string) (io.ReadCloser, int64, bool, error) {
	return nil, 0, false, nil
}

// noOpenat2 and noProcFD: never consulted here, as haveOpenBeneath is false.
var noOpenat2, noProcFD atomic.Bool

// newWalker looks names up by path: see pathWalker.
func newWalker() walker { return &pathWalker{dir: "/"} }
