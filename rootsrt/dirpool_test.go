//go:build linux

package rootsrt_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// The tests here hold the process's descriptors to the budget: a set opens
// a root's directory when a path first falls in it, and idle directories
// are closed, least recently used first, when another needs the budget.

// budgetTree makes n directories, each holding the file f ("in i").
func budgetTree(t *testing.T, n int) []string {
	t.Helper()
	base := t.TempDir()
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = filepath.Join(base, fmt.Sprint("d", i))
		if err := os.Mkdir(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[i], "f"), []byte(fmt.Sprint("in ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// TestSetOpensNothingUntilUsed: building a set of many roots opens none of
// them; a read opens the one root it reads in.
func TestSetOpensNothingUntilUsed(t *testing.T) {
	dirs := budgetTree(t, 200)
	uris := make([]string, len(dirs))
	for i, d := range dirs {
		uris[i] = fileURI(d)
	}
	// ReadFile keeps /proc/self/fd open for the life of the process, from
	// its first call.
	warm := mustSet(t, uris[:1])
	if _, err := warm.ReadFile(filepath.Join(dirs[0], "f")); err != nil {
		t.Fatal(err)
	}
	warm.Close()
	before := openFiles(t)
	s := mustSet(t, uris)
	if n := openFiles(t) - before; n != 0 {
		t.Errorf("building a set of %d roots left %d descriptors open", len(dirs), n)
	}
	if data, err := s.ReadFile(filepath.Join(dirs[7], "f")); err != nil || string(data) != "in 7" {
		t.Fatalf("ReadFile: %q, %v", data, err)
	}
	if n := openFiles(t) - before; n < 1 || n > 2 {
		t.Errorf("after one read, %d descriptors are open; want the root's directory (1 or 2)", n)
	}
	s.Close()
	if n := openFiles(t) - before; n != 0 {
		t.Errorf("after Close, %d descriptors are still open", n)
	}
}

// TestDescriptorBudgetHolds: sets left open (as a cache keeps them, or a
// handler that forgets to close them) never hold more descriptors than
// the budget, however many roots are used; each read still succeeds, and
// a root used again after its directory was closed is opened again.
func TestDescriptorBudgetHolds(t *testing.T) {
	const budget = 16
	withBudget(t, budget)
	dirs := budgetTree(t, 120)
	before := openFiles(t)
	var sets []*testSet
	for i := 0; i < len(dirs); i += 10 {
		uris := make([]string, 0, 10)
		for _, d := range dirs[i : i+10] {
			uris = append(uris, fileURI(d))
		}
		s := mustSet(t, uris)
		sets = append(sets, s)
	}
	worst := 0
	for round := range 2 {
		for i, d := range dirs {
			s := sets[i/10]
			data, err := s.ReadFile(filepath.Join(d, "f"))
			if err != nil || string(data) != fmt.Sprint("in ", i) {
				t.Fatalf("round %d: ReadFile(d%d/f): %q, %v", round, i, data, err)
			}
			if _, err := s.Stat(filepath.Join(d, "f")); err != nil {
				t.Fatalf("round %d: Stat(d%d/f): %v", round, i, err)
			}
			worst = max(worst, openFiles(t)-before)
		}
	}
	if worst > budget {
		t.Errorf("the sets held up to %d descriptors; the budget is %d", worst, budget)
	}
}

// TestDescriptorBudgetInUse: when every descriptor of the budget is held
// by calls in flight, another call fails at once with ErrNoDescriptors,
// never with a refusal, and succeeds once they end.
func TestDescriptorBudgetInUse(t *testing.T) {
	dirs := budgetTree(t, 3)
	a := mustSet(t, []string{fileURI(dirs[0]), fileURI(dirs[1])})
	b := mustSet(t, []string{fileURI(dirs[2])})
	// The pool's descriptors are held by a call only while it runs: the
	// budget is set below what is open already, by an idle directory.
	if _, err := a.ReadFile(filepath.Join(dirs[0], "f")); err != nil {
		t.Fatal(err)
	}
	withBudget(t, 1)
	// The directory a opened is idle: it is closed for b's.
	if data, err := b.ReadFile(filepath.Join(dirs[2], "f")); err != nil || string(data) != "in 2" {
		t.Fatalf("ReadFile with the budget held by an idle directory: %q, %v", data, err)
	}
	// A call in flight keeps its directory: here, many at once with a
	// budget of one, each must succeed or fail with ErrNoDescriptors.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var starved, read int
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, p := a, filepath.Join(dirs[i%2], "f")
			if i%3 == 0 {
				s, p = b, filepath.Join(dirs[2], "f")
			}
			_, err := s.ReadFile(p)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				read++
			case errors.Is(err, rootsrt.ErrNoDescriptors) && !errors.Is(err, rootsrt.ErrOutsideRoots):
				starved++
			default:
				t.Errorf("ReadFile(%s) with a budget of one: %v", p, err)
			}
		}()
	}
	wg.Wait()
	if read == 0 {
		t.Error("no read succeeded with a budget of one")
	}
	rootsrt.SetDescriptorBudget(0)
	for i, d := range dirs[:2] {
		if data, err := a.ReadFile(filepath.Join(d, "f")); err != nil || string(data) != fmt.Sprint("in ", i) {
			t.Errorf("after the budget was restored: %q, %v", data, err)
		}
	}
	t.Logf("%d reads, %d out of descriptors", read, starved)
}

// TestStarvedSetRecovers: a set used while the process is out of
// descriptors fails with ErrNoDescriptors (and the kernel's EMFILE), not
// with a refusal, and works once descriptors are free again.
func TestStarvedSetRecovers(t *testing.T) {
	dirs := budgetTree(t, 2)
	s := mustSet(t, []string{fileURI(dirs[0]), fileURI(dirs[1])}, rootsrt.ResolveSymlinks())
	release := exhaustDescriptors(t)
	_, err := s.ReadFile(filepath.Join(dirs[0], "f"))
	release()
	if !errors.Is(err, rootsrt.ErrNoDescriptors) || !errors.Is(err, syscall.EMFILE) || errors.Is(err, rootsrt.ErrOutsideRoots) {
		t.Errorf("ReadFile out of descriptors: %v; want ErrNoDescriptors and EMFILE, not a refusal", err)
	}
	for i, d := range dirs {
		if data, err := s.ReadFile(filepath.Join(d, "f")); err != nil || string(data) != fmt.Sprint("in ", i) {
			t.Errorf("ReadFile once descriptors are free: %q, %v", data, err)
		}
	}
}

// exhaustDescriptors opens /dev/null until the process has no descriptor
// left, under a soft limit lowered for the test, and returns the function
// that closes them and restores the limit.
func exhaustDescriptors(t *testing.T) (release func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Skipf("getrlimit: %v", err)
	}
	low := old
	low.Cur = min(old.Cur, uint64(openFiles(t)+256))
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skipf("setrlimit: %v", err)
	}
	var fds []int
	for {
		fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			break
		}
		fds = append(fds, fd)
	}
	return func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
	}
}
