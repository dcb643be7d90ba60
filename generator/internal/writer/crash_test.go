//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package writer

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The crash tests run Write in child processes (this test binary, started
// again with ROOTSGEN_CRASH_DIR set) and kill them between its steps, or
// run two at once, then check that the directory holds one whole package.

// TestCrashChild is the child: it writes ROOTSGEN_CRASH_REVISION (or, with
// ROOTSGEN_CRASH_TREE set, newTree) into ROOTSGEN_CRASH_DIR and kills
// itself with SIGKILL after step ROOTSGEN_CRASH_STEP of Write (0: never),
// pausing ROOTSGEN_CRASH_PAUSE after each step.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv("ROOTSGEN_CRASH_DIR")
	if dir == "" {
		t.Skip("run by TestWriteKilledAtRandomSteps and TestConcurrentWrites")
	}
	var files []File
	if os.Getenv("ROOTSGEN_CRASH_TREE") != "" {
		files = newTree(t)
	} else {
		files = generateFor(t, os.Getenv("ROOTSGEN_CRASH_REVISION"))
	}
	killAt, _ := strconv.Atoi(os.Getenv("ROOTSGEN_CRASH_STEP"))
	pause, _ := time.ParseDuration(os.Getenv("ROOTSGEN_CRASH_PAUSE"))
	steps := 0
	afterStep = func() {
		time.Sleep(pause)
		steps++
		if steps == killAt {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
	}
	if _, err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
}

func crashChild(dir, revision string, step int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ROOTSGEN_CRASH_DIR="+dir, "ROOTSGEN_CRASH_REVISION="+revision, "ROOTSGEN_CRASH_STEP="+strconv.Itoa(step))
	return cmd
}

// TestWriteKilledAtRandomSteps replaces one package by the other in a
// child killed after a random step of Write (staging each file, writing
// the journal, each rename, each removal), then writes again in this
// process: whatever the step, that run must find and finish or discard
// the killed one's work and leave exactly its own package.
func TestWriteKilledAtRandomSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	packages := [][]File{generateFor(t, crashRevisions[0]), generateFor(t, crashRevisions[1])}
	dir := t.TempDir()
	if _, err := Write(dir, packages[0]); err != nil {
		t.Fatal(err)
	}
	// Writing the other package takes one step per file to stage, one for
	// the journal and one per file to rename.
	maxSteps := 2*len(packages[1]) + 2
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	killed := 0
	for i := range 45 {
		from := i % 2 // the package on disk
		step := 1 + rng.IntN(maxSteps)
		child := crashChild(dir, crashRevisions[1-from], step)
		var out bytes.Buffer
		child.Stdout, child.Stderr = &out, &out
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		if i%3 == 2 {
			// Every third child is killed from outside at a random
			// moment instead, which may fall within a step.
			step = 0
			time.AfterFunc(time.Duration(rng.IntN(300))*time.Millisecond, func() { child.Process.Kill() })
		}
		err := child.Wait()
		if ee, ok := err.(*exec.ExitError); ok && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL {
			killed++
		} else if err != nil {
			t.Fatalf("child: %v\n%s", err, out.String())
		}
		// Recovery alone leaves one whole package: the killed child's,
		// completed from its journal, or the one before it.
		if err := recoverOnly(dir); err != nil {
			t.Fatalf("iteration %d (killed after step %d): recovering: %v", i, step, err)
		}
		if changes, err := Diff(dir, packages[from]); err != nil || len(changes) > 0 {
			wantWhole(t, dir, packages[1-from], fmt.Sprintf("iteration %d, killed after step %d, neither package", i, step))
		} else {
			wantWhole(t, dir, packages[from], fmt.Sprintf("iteration %d, killed after step %d", i, step))
		}
		// Whether or not the child got as far as its journal, the next
		// run puts back one whole package: the killed one's, completed,
		// or the one before it. Write the package on disk before the
		// child ran, as the next go generate would.
		next := packages[from]
		if _, err := Write(dir, next); err != nil {
			t.Fatalf("iteration %d (killed after step %d): the next run: %v", i, step, err)
		}
		wantWhole(t, dir, next, fmt.Sprintf("iteration %d, killed after step %d", i, step))
		// Put the other package on disk for the next iteration.
		if _, err := Write(dir, packages[1-from]); err != nil {
			t.Fatal(err)
		}
	}
	if killed == 0 {
		t.Error("no child was killed")
	}
}

// recoverOnly does what a run does first: it takes the lock and completes
// or discards what an interrupted run left.
func recoverOnly(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	unlock, err := lockDir(context.Background(), root, dir)
	if err != nil {
		return err
	}
	defer unlock()
	return finishInterrupted(root)
}

// TestKilledAfterJournalIsCompleted: a child killed once its journal is
// written had committed to its package; the next run that only checks
// finds the journal, and the next run that writes completes that package.
func TestKilledAfterJournalIsCompleted(t *testing.T) {
	packages := [][]File{generateFor(t, crashRevisions[0]), generateFor(t, crashRevisions[1])}
	dir := t.TempDir()
	if _, err := Write(dir, packages[0]); err != nil {
		t.Fatal(err)
	}
	journalStep := len(packages[1]) + 1 // after staging every file
	for _, step := range []int{journalStep, journalStep + 3} {
		out, err := crashChild(dir, crashRevisions[1], step).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("child not killed: %v\n%s", err, out)
		}
		if _, err := Diff(dir, packages[1]); err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("Diff with a journal: %v, want an error saying a run was interrupted", err)
		}
		// Completing the killed run is what this write finds to do: its
		// package is the killed one's, so nothing is left to change.
		changes, err := Write(dir, packages[1])
		if err != nil || len(changes) != 0 {
			t.Errorf("after a kill at step %d: changes %v, error %v; want the killed run completed", step, changes, err)
		}
		wantWhole(t, dir, packages[1], fmt.Sprintf("killed after step %d", step))
		if _, err := Write(dir, packages[0]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConcurrentWrites: two runs writing different packages into the
// same directory at once both succeed, one after the other, and the
// directory ends up holding one of the two packages whole.
func TestConcurrentWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	packages := [][]File{generateFor(t, crashRevisions[0]), generateFor(t, crashRevisions[1])}
	for i := range 5 {
		dir := t.TempDir()
		// Each pauses after every step, so that their writes overlap
		// unless one waits for the other.
		a, b := crashChild(dir, crashRevisions[0], 0), crashChild(dir, crashRevisions[1], 0)
		a.Env = append(a.Env, "ROOTSGEN_CRASH_PAUSE=10ms")
		b.Env = append(b.Env, "ROOTSGEN_CRASH_PAUSE=10ms")
		var outA, outB bytes.Buffer
		a.Stdout, a.Stderr, b.Stdout, b.Stderr = &outA, &outA, &outB, &outB
		if err := a.Start(); err != nil {
			t.Fatal(err)
		}
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		errA, errB := a.Wait(), b.Wait()
		if errA != nil || errB != nil {
			t.Fatalf("round %d: %v, %v\n%s\n%s", i, errA, errB, outA.String(), outB.String())
		}
		if changes, err := Diff(dir, packages[0]); err == nil && len(changes) == 0 {
			wantWhole(t, dir, packages[0], fmt.Sprintf("round %d", i))
		} else {
			wantWhole(t, dir, packages[1], fmt.Sprintf("round %d", i))
		}
	}
}

// TestLockedDirectory: a run that cannot get the lock within lockWait
// fails with a message that says why, and changes nothing.
func TestLockedDirectory(t *testing.T) {
	dir := lockedDir(t, 100*time.Millisecond)
	_, err := Write(dir, generateFor(t, crashRevisions[0]))
	if err == nil || !strings.Contains(err.Error(), "another rootsgen process is writing this directory (waited 100ms)") {
		t.Errorf("Write into a locked directory: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d entries written", len(entries))
	}
}

// lockedDir is a new directory whose lock the test holds until it ends,
// with lockWait set to wait until then.
func lockedDir(t *testing.T, wait time.Duration) string {
	t.Helper()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	unlock, err := tryLock(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unlock)
	old := lockWait
	lockWait = wait
	t.Cleanup(func() { lockWait = old })
	return dir
}
