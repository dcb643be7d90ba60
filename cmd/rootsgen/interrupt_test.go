package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// interruptRevisions are the two packages the interrupted runs replace
// one by the other: every file they have differs (at least in its
// header), so a mix of the two shows.
var interruptRevisions = [2]string{"2024-11-05", "2026-07-28"}

// defaultInterruptRuns keeps the test to a few seconds;
// ROOTSGEN_INTERRUPT_RUNS asks for more.
const defaultInterruptRuns = 12

// TestInterruptedWrite runs the rootsgen binary the way a user interrupts
// it: each run replaces the package in a directory by the other
// revision's, and gets SIGINT (every third run SIGTERM) after a random
// delay: in half the runs anywhere in the run (start-up, generating,
// writing, or after it ended), in the other half anywhere in its write,
// from the moment its first temporary file shows; every sixth run gets a
// second signal soon after the first. After a run that got one signal,
// the directory must hold one whole package, the old one or the new one,
// and nothing else (no temporary file, journal or lock), and what rootsgen
// printed must say which. After every run, the next one (uninterrupted)
// must succeed and leave its own package whole: it completes or discards
// what a run killed by a second signal left.
func TestInterruptedWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("skipped on Windows: a process there cannot be sent SIGINT or SIGTERM")
	}
	if testing.Short() {
		t.Skip("builds rootsgen and runs it many times")
	}
	runs := defaultInterruptRuns
	if v := os.Getenv("ROOTSGEN_INTERRUPT_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("ROOTSGEN_INTERRUPT_RUNS=%q: want a number of runs, at least 1", v)
		}
		runs = n
	}
	exe := buildRootsgen(t)
	tmp := t.TempDir()

	// The packages each revision's run writes, generated separately.
	var want [2]map[string]string
	for i, rev := range interruptRevisions {
		ref := filepath.Join(tmp, "ref-"+rev)
		runOK(t, exe, rev, ref)
		want[i] = readPackage(t, ref)
	}

	// The delays span the uninterrupted runs that replace one package by
	// the other (the median of those so far), and a quarter more, so that
	// some runs end first.
	dir := filepath.Join(tmp, "out")
	var took, writing []time.Duration
	timed := func(revision string) {
		total, write := runWatched(t, exe, revision, dir)
		took, writing = append(took, total), append(writing, write)
	}
	runOK(t, exe, interruptRevisions[0], dir)
	timed(interruptRevisions[1])
	timed(interruptRevisions[0])
	span := func(ds []time.Duration) time.Duration {
		return slices.Sorted(slices.Values(ds))[len(ds)/2]*5/4 + time.Millisecond
	}

	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	// How the runs ended, by the number of signals they got: "finished"
	// (exit 0, the signal came late or not at all), "reported old" or
	// "reported new" (exit 1 saying which package the directory holds),
	// "died" (of the signal).
	var stats struct {
		once, twice map[string]int
		leftovers   int // files, over the runs with one signal
	}
	stats.once, stats.twice = map[string]int{}, map[string]int{}
	var leftoverRuns, mixedRuns []string
	for i := range runs {
		from, to := i%2, 1-i%2 // dir holds want[from]
		sig := os.Signal(syscall.SIGINT)
		if i%3 == 2 {
			sig = syscall.SIGTERM
		}
		twice := i%6 == 5
		inWrite := i/2%2 == 1
		delay := time.Duration(rng.Int64N(int64(span(took))))
		if inWrite {
			delay = time.Duration(rng.Int64N(int64(span(writing))))
		}
		again := time.Duration(rng.IntN(20)) * time.Millisecond

		cmd := exec.Command(exe, "-revision", interruptRevisions[to], "-out", dir, "-package", "mcproots")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited, signalled := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(signalled)
			if inWrite {
				for !writeShows(dir) {
					select {
					case <-exited:
						return
					case <-time.After(100 * time.Microsecond):
					}
				}
			}
			select {
			case <-exited:
				return
			case <-time.After(delay):
			}
			if cmd.Process.Signal(sig) != nil || !twice {
				return
			}
			time.Sleep(again)
			_ = cmd.Process.Signal(syscall.SIGINT)
		}()
		err := cmd.Wait()
		close(exited)
		<-signalled
		what := fmt.Sprintf("run %d (%s over %s, %v after %v", i, interruptRevisions[to], interruptRevisions[from], sig, delay.Round(10*time.Microsecond))
		if inWrite {
			what += " of its write"
		}
		if twice {
			what += fmt.Sprintf(", SIGINT %v later", again)
		}
		what += ")"
		got := readDir(t, dir)
		state := packageState(got, want[from], want[to])

		// What the run says it left must be what it left.
		var ee *exec.ExitError
		msg := strings.TrimSpace(stderr.String())
		outcome := ""
		switch {
		case err == nil:
			outcome = "finished"
			if state != "new" {
				t.Errorf("%s: exit 0, but the directory holds %s", what, state)
			}
		case errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled():
			// Before rootsgen catches signals (its first milliseconds),
			// or of the second signal.
			outcome = "died"
			if !twice {
				t.Logf("%s: died of the signal", what)
			}
		case errors.As(err, &ee) && ee.ExitCode() == exitFail:
			outcome = "reported " + state
			wantMsg := "rootsgen: interrupted; " + dir + " holds the " + state + " package"
			if state != "old" && state != "new" || msg != wantMsg {
				t.Errorf("%s: %v, stderr %q, but the directory holds %s (want the message %q)", what, err, msg, state, wantMsg)
			}
		default:
			t.Errorf("%s: %v\nstdout: %s\nstderr: %s", what, err, stdout.String(), msg)
		}
		if twice {
			stats.twice[outcome]++
		} else {
			stats.once[outcome]++
			if extra := debris(got, want[from], want[to]); len(extra) > 0 {
				stats.leftovers += len(extra)
				leftoverRuns = append(leftoverRuns, fmt.Sprintf("%s: %s", what, strings.Join(extra, " ")))
			}
			if state == "mixed" {
				mixedRuns = append(mixedRuns, fmt.Sprintf("%s: %s", what, describeMix(got, want[from], want[to])))
			}
		}

		// The next run writes the new package whole, whatever this one
		// left.
		timed(interruptRevisions[to])
		if got := readDir(t, dir); packageState(got, want[from], want[to]) != "new" || len(debris(got, want[from], want[to])) > 0 {
			t.Fatalf("%s: the run after it left %s: %v", what, packageState(got, want[from], want[to]), slices.Sorted(maps.Keys(got)))
		}
	}
	summary := fmt.Sprintf("%d runs; with one signal %v: %d left files besides the package (%d in all), %d a mixed package; with two %v",
		runs, stats.once, len(leftoverRuns), stats.leftovers, len(mixedRuns), stats.twice)
	t.Log(summary)
	if stats.once["finished"]+stats.twice["finished"] == runs {
		t.Errorf("no run was interrupted: every signal came after the run had ended")
	}
	for _, r := range leftoverRuns {
		t.Errorf("files left besides the package after %s", r)
	}
	for _, r := range mixedRuns {
		t.Errorf("mixed package after %s", r)
	}
	if len(leftoverRuns) > 0 || len(mixedRuns) > 0 {
		t.Error(summary)
	}
}

// TestInterruptedBeforeWriting: a run whose context is done before it
// writes (the signal came while it generated) writes nothing, and says so;
// one that only reads says it was interrupted rather than succeed.
func TestInterruptedBeforeWriting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	runInterrupted := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(ctx, args, &stdout, &stderr, func(string) string { return "" })
		return code, stderr.String()
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "new", "pkg")
	if code, stderr := runInterrupted("-revision", "2025-06-18", "-out", missing); code != exitFail || stderr != "rootsgen: interrupted; nothing was written\n" {
		t.Errorf("into a new directory: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the interrupted run created a directory: %v", err)
	}

	old := filepath.Join(dir, "old")
	if code, _, stderr := rootsgen(t, nil, "-revision", "2024-11-05", "-out", old); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := snapshot(t, old)
	if code, stderr := runInterrupted("-revision", "2025-06-18", "-out", old); code != exitFail || stderr != "rootsgen: interrupted; "+old+" holds the old package\n" {
		t.Errorf("over a package: exit %d, stderr %q", code, stderr)
	}
	sameSnapshot(t, before, snapshot(t, old))

	for _, args := range [][]string{{"-revision", "2024-11-05", "-out", old, "-check"}, {"-list"}} {
		if code, stderr := runInterrupted(args...); code != exitFail || !strings.HasSuffix(stderr, "rootsgen: interrupted\n") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// runWatched runs the built rootsgen to write revision's package into dir,
// watching dir meanwhile, and returns how long the run took and how long
// its write did, from when its first temporary file showed.
func runWatched(t *testing.T, exe, revision, dir string) (total, write time.Duration) {
	t.Helper()
	cmd := exec.Command(exe, "-revision", revision, "-out", dir, "-package", "mcproots")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var writeStart time.Time
	for {
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("rootsgen -revision %s -out %s: %v\n%s", revision, dir, err, out.String())
			}
			end := time.Now()
			if writeStart.IsZero() {
				writeStart = end
			}
			return end.Sub(start), end.Sub(writeStart)
		case <-time.After(100 * time.Microsecond):
			if writeStart.IsZero() && writeShows(dir) {
				writeStart = time.Now()
			}
		}
	}
}

// writeShows reports whether dir holds a file of a write in progress.
func writeShows(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") || e.Name() == ".rootsgen-journal" {
			return true
		}
	}
	return false
}

// buildRootsgen builds the command into a temporary directory, once for
// the test.
func buildRootsgen(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	prereq.Need(t, err, "the interrupt test builds rootsgen with the go command")
	exe := filepath.Join(t.TempDir(), "rootsgen")
	if out, err := exec.Command(goCmd, "build", "-o", exe, "github.com/rootsgen/rootsgen/cmd/rootsgen").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// runOK runs the built rootsgen to write revision's package into dir.
func runOK(t *testing.T, exe, revision, dir string) {
	t.Helper()
	out, err := exec.Command(exe, "-revision", revision, "-out", dir, "-package", "mcproots").CombinedOutput()
	if err != nil {
		t.Fatalf("rootsgen -revision %s -out %s: %v\n%s", revision, dir, err, out)
	}
}

// readDir reads every entry of dir by name ("<directory>" for one that is
// not a regular file).
func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			files[e.Name()] = "<" + e.Type().String() + ">"
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return files
}

// readPackage reads a package rootsgen wrote, which must hold Go files
// only.
func readPackage(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := readDir(t, dir)
	for name := range files {
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") {
			t.Fatalf("%s holds %s besides the package", dir, name)
		}
	}
	return files
}

// packageState says which package the Go files of got are, leaving its
// debris aside: "old" (exactly the files of old), "new" (exactly those of
// new), or "mixed".
func packageState(got, old, new map[string]string) string {
	same := func(want map[string]string) bool {
		for name := range got {
			_, inOld := old[name]
			_, inNew := new[name]
			if _, ok := want[name]; !ok && (inOld || inNew) {
				return false // a file of the other package
			}
		}
		for name, content := range want {
			if c, ok := got[name]; !ok || c != content {
				return false
			}
		}
		return true
	}
	switch {
	case same(old):
		return "old"
	case same(new):
		return "new"
	}
	return "mixed"
}

// debris lists the entries of got that belong to neither package: the
// temporary files, journal and lock a write in progress has.
func debris(got, old, new map[string]string) []string {
	var extra []string
	for name := range got {
		if _, ok := old[name]; ok {
			continue
		}
		if _, ok := new[name]; ok {
			continue
		}
		extra = append(extra, name)
	}
	slices.Sort(extra)
	return extra
}

// describeMix says, for each Go file of got, which package's content it
// has.
func describeMix(got, old, new map[string]string) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(got)) {
		switch c := got[name]; {
		case !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, "."):
		case c == new[name] && c == old[name]:
			parts = append(parts, name+" (same in both)")
		case c == new[name]:
			parts = append(parts, name+" new")
		case c == old[name]:
			parts = append(parts, name+" old")
		default:
			parts = append(parts, name+" neither")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(new)) {
		if _, ok := got[name]; !ok {
			parts = append(parts, name+" (new) missing")
		}
	}
	return strings.Join(parts, ", ")
}
