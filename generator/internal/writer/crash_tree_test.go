//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package writer

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestTreeKilledAtSteps replaces oldTree by newTree in a child killed
// with SIGKILL after a step of each phase of the write: staging, the
// journal, making a directory, renaming, removing files, removing
// directories. Killed before its journal, the child leaves the old tree
// once the next run has removed its temporary files; killed after, its
// change is completed by the next run, for every file and directory of
// the tree. ROOTSGEN_CRASH_EVERY_STEP=1 kills it after every step in turn.
func TestTreeKilledAtSteps(t *testing.T) {
	old, new := oldTree(t), newTree(t)
	staged, removed := treeChanges(t, old, new)
	journal := staged + 1
	renamed := journal + treeMkdirs + staged // the last rename
	last := renamed + removed + treeRmdirs
	steps := []int{journal, last - 1}
	if !testing.Short() {
		steps = []int{1, staged, journal, journal + 1, journal + 2, renamed, renamed + 1, renamed + removed, last - 1, last}
	}
	if os.Getenv("ROOTSGEN_CRASH_EVERY_STEP") != "" {
		steps = nil
		for step := 1; step <= last; step++ {
			steps = append(steps, step)
		}
	}
	dir := t.TempDir()
	for _, step := range steps {
		where := fmt.Sprintf("killed after step %d of %d", step, last)
		if _, err := Write(dir, old); err != nil {
			t.Fatal(err)
		}
		child := crashChild(dir, "", step)
		child.Env = append(child.Env, "ROOTSGEN_CRASH_TREE=1")
		out, err := child.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("%s: child not killed: %v\n%s", where, err, out)
		}
		if step > staged {
			if _, err := Diff(dir, new); err == nil || !strings.Contains(err.Error(), "interrupted") {
				t.Errorf("%s: Diff with a journal: %v, want an error saying a run was interrupted", where, err)
			}
		}
		if err := recoverOnly(dir); err != nil {
			t.Fatalf("%s: recovering: %v", where, err)
		}
		if step <= staged {
			wantTree(t, dir, old, where+", recovered")
		} else {
			wantTree(t, dir, new, where+", recovered")
		}
	}
	// The next run after a kill past the journal has nothing left to do.
	if _, err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	child := crashChild(dir, "", journal)
	child.Env = append(child.Env, "ROOTSGEN_CRASH_TREE=1")
	if out, err := child.CombinedOutput(); err == nil {
		t.Fatalf("child not killed\n%s", out)
	}
	if changes, err := Write(dir, new); err != nil || len(changes) != 0 {
		t.Errorf("after a kill at the journal: changes %v, error %v; want the killed run completed", changes, err)
	}
	wantTree(t, dir, new, "completed by the next run")
}
