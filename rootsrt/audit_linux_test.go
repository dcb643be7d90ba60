package rootsrt_test

import (
	"path/filepath"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/testdata/gotest/logtest"
)

// TestAuditNoDescriptors: a read that finds the process out of
// descriptors is recorded with reason no_descriptors, and counted.
func TestAuditNoDescriptors(t *testing.T) {
	dirs := budgetTree(t, 1)
	var log logtest.Buffer
	set, err := rootsrt.NewRootSet(legacyVersion, []rootsrt.Root{{URI: fileURI(dirs[0])}}, rootsrt.LogRefusals(log.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	before := rootsrt.ReadStats()
	release := exhaustDescriptors(t)
	_, err = set.ReadFile(filepath.Join(dirs[0], "f"))
	release()
	if err == nil {
		t.Fatal("read with no descriptors left")
	}
	got := log.Records(t)
	if len(got) != 1 {
		t.Fatalf("%d records, want 1: %v", len(got), got)
	}
	wantRecord(t, got[0], "roots: path refused", "WARN", map[string]any{"reason": "no_descriptors", "path": filepath.Join(dirs[0], "f")}, "error")
	if d := statsDelta(before); d != (rootsrt.Stats{NoDescriptors: 1}) {
		t.Errorf("counted %+v", d)
	}
}
