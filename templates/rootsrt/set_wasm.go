//go:build js || wasip1

package rootsrt

import (
	"io"
	"os"
	"sync/atomic"
)

// haveOpenBeneath is false: this system has no one-call confined open, and
// the file methods go through os.Root alone. oNonblock is nothing: these
// systems have no flag for it.
const haveOpenBeneath, oNonblock = false, 0

func openRegularBeneath(*os.File, string) (io.ReadCloser, int64, bool, error) {
	return nil, 0, false, nil
}

// noOpenat2 and noProcFD: never consulted here, as haveOpenBeneath is false.
var noOpenat2, noProcFD atomic.Bool

// newWalker looks names up by path: see pathWalker.
func newWalker() walker { return &pathWalker{dir: "/"} }
