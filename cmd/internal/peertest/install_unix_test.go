//go:build unix

package peertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestInstallNodePeersOnce: test binaries that find node_modules missing at
// the same moment run npm ci once; the others wait for it, and none uses
// the packages before npm ci is done, though npm writes them early. A fake
// npm counts its runs, writes the packages, and then finishes the tree.
func TestInstallNodePeersOnce(t *testing.T) {
	bin, dir := t.TempDir(), t.TempDir()
	count := filepath.Join(t.TempDir(), "runs")
	script := "#!/bin/sh\n[ \"$1\" = ci ] || exit 2\necho run >> " + count + "\n"
	for _, pkg := range nodePackages {
		script += "mkdir -p node_modules/" + pkg + " && echo {} > node_modules/" + pkg + "/package.json\n"
	}
	script += "sleep 0.3\ntouch node_modules/finished\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = npmInstall(dir, nodePackages); errs[i] == nil {
				if _, err := os.Stat(filepath.Join(dir, "node_modules", "finished")); err != nil {
					errs[i] = fmt.Errorf("npmInstall returned before npm ci finished: %v", err)
				}
			}
		}()
		time.Sleep(50 * time.Millisecond) // the later ones come while npm ci runs
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	runs, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(runs), "run"); n != 1 {
		t.Errorf("npm ci ran %d times, want once", n)
	}
	if !npmInstalled(dir, nodePackages) {
		t.Error("the packages are not installed")
	}
}
