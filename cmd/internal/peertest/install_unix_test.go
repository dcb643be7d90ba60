//go:build unix

package peertest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestInstallNodePeersOnce: test binaries that find node_modules missing at
// the same moment run npm ci once; the others wait for it and use its
// packages. A fake npm counts its runs.
func TestInstallNodePeersOnce(t *testing.T) {
	bin, dir := t.TempDir(), t.TempDir()
	count := filepath.Join(t.TempDir(), "runs")
	script := "#!/bin/sh\n[ \"$1\" = ci ] || exit 2\necho run >> " + count + "\nsleep 0.2\n"
	for _, pkg := range nodePackages {
		script += "mkdir -p node_modules/" + pkg + " && echo {} > node_modules/" + pkg + "/package.json\n"
	}
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = npmInstall(dir, nodePackages) }()
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
