package rootsrt_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// A bound whose path appears between the two walks that build a set with
// ResolveSymlinks (where it leads, then its links resolved) is refused or
// kept whole: never opened at an empty path.
func TestBoundAppearsWhileSetIsBuilt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the bound is swapped by renaming a link")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	bound := filepath.Join(dir, "bound")
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; !stop.Load(); i++ {
			target := "real"
			if i%2 == 1 {
				target = "missing"
			}
			tmp := filepath.Join(dir, "tmp")
			os.Remove(tmp)
			if os.Symlink(target, tmp) == nil {
				os.Rename(tmp, bound)
			}
		}
	}()
	defer func() { stop.Store(true); <-done }()
	for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline); {
		s, _, _ := newSet([]string{fileURI(dir)}, rootsrt.Bounds(bound), rootsrt.ResolveSymlinks())
		if s != nil {
			s.Close()
		}
	}
}
