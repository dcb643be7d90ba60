//go:build js || wasip1

package rootsrt

import (
	"io"
	"os"
	"sync/atomic"
)

// No one-call confined open here: the file methods go through os.Root
// alone. These systems have no O_NONBLOCK.
const haveOpenBeneath, oNonblock = false, 0

func openRegularBeneath(*os.File, string) (io.ReadCloser, int64, bool, error) {
	return nil, 0, false, nil
}

// noOpenat2 and noProcFD: never consulted here, as haveOpenBeneath is false.
var noOpenat2, noProcFD atomic.Bool

// newWalker looks names up by path: see pathWalker.
func newWalker() walker { return &pathWalker{dir: "/"} }
