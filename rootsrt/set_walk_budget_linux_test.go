//go:build linux && !mips && !mipsle && !mips64 && !mips64le

package rootsrt_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
)

// TestWalkDescriptorsBudgeted: a walk through links holds every directory
// on its way open, so walks through a deep tree could take every
// descriptor of the process. They count against the descriptor budget:
// a walk that would go over it fails with ErrNoDescriptors, what the walks
// held is given back, and within the budget the same walks succeed, many
// at once.
func TestWalkDescriptorsBudgeted(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, strings.Repeat("d/", 24))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// A link at the bottom into another root: os.Root refuses it, so
	// ReadFile resolves the path by a walk, as Resolve does.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "f"), []byte("other"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "f"), filepath.Join(deep, "link")); err != nil {
		t.Fatal(err)
	}
	set, err := rootsrt.NewRootSetOf([]string{fileURI(root), fileURI(other)}, func(u *string) string { return *u }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	link := filepath.Join(deep, "link")
	depth := strings.Count(link, "/") // directories a walk to link enters, about

	defer rootsrt.SetDescriptorBudget(rootsrt.SetDescriptorBudget(depth / 2))
	if _, _, err := set.Resolve(link); !errors.Is(err, rootsrt.ErrNoDescriptors) {
		t.Errorf("Resolve with a budget of %d for a walk %d deep: %v, want ErrNoDescriptors", depth/2, depth, err)
	}
	if _, err := set.ReadFile(link); !errors.Is(err, rootsrt.ErrNoDescriptors) {
		t.Errorf("ReadFile with a budget of %d for a walk %d deep: %v, want ErrNoDescriptors", depth/2, depth, err)
	}

	// Eight walks at once fit a budget of eight times one walk; had a
	// failed or finished walk kept its count, these would fail.
	const walkers = 8
	rootsrt.SetDescriptorBudget(walkers * (depth + 2))
	var wg sync.WaitGroup
	for range walkers {
		wg.Go(func() {
			for range 20 {
				if got, err := set.ReadFile(link); err != nil || string(got) != "other" {
					t.Errorf("ReadFile within the budget: %q, %v", got, err)
					return
				}
				if real, r, err := set.Resolve(link); err != nil || r != fileURI(other) || real != filepath.Join(other, "f") {
					t.Errorf("Resolve within the budget: %q, %q, %v", real, r, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
