package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the sections of README.md that rootsgen prints")

const (
	overviewBegin = "<!-- rootsgen -list -markdown: begin -->\n"
	overviewEnd   = "<!-- rootsgen -list -markdown: end -->\n"
)

// TestListMarkdown checks what the overview says of the revisions'
// declarations against what each package has.
func TestListMarkdown(t *testing.T) {
	code, stdout, stderr := rootsgen(t, nil, "-list", "-markdown")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"| revision | 2024-11-05 | 2025-03-26 | 2025-06-18 | 2025-11-25 | 2026-07-28 |",
		"| status | current | current | current | current | deprecated (SEP-2577), removable from 2027-07-28 |",
		"| `Client.AnswerInputRequests` | no | no | no | no | yes |",
		"| `Client.HandleRequest` | yes | yes | yes | yes | no |",
		"| `Server` | yes | yes | yes | yes | no |",
		"| `Root.Meta` | no | no | yes | yes | yes |",
		"| `ListRootsRequest.ID` | no | no | no | yes | no |",
		"| `RootsCapability.ListChanged` | yes | yes | yes | yes | no |",
	} {
		// Each row starts with these revisions' columns (a revision added
		// later adds a column after them).
		if !strings.Contains(stdout, want) {
			t.Errorf("the overview lacks %q:\n%s", want, stdout)
		}
	}
	// A member is listed only where it tells revisions apart from its type.
	for _, unwanted := range []string{"`Server.Roots`", "`Root.Extra`", "`MarshalJSON`", "| `Client` |"} {
		if strings.Contains(stdout, unwanted) {
			t.Errorf("the overview lists %s", unwanted)
		}
	}
	common, ok := strings.CutPrefix(stdout[strings.LastIndex(stdout, "\nIn every revision")+1:], "In every revision, with the members the table does not list: ")
	if !ok || !strings.Contains(common, "`Client`, ") {
		t.Errorf("the overview does not end with the common declarations:\n%s", stdout)
	}
	if code, _, stderr := rootsgen(t, nil, "-markdown"); code != exitUsage || !strings.Contains(stderr, "-markdown goes with -list") {
		t.Errorf("-markdown alone: exit %d: %s", code, stderr)
	}
}

// TestREADMEOverview fails when README.md's API overview is not what
// rootsgen -list -markdown prints. Refresh it with
//
//	go test ./cmd/rootsgen -run TestREADMEOverview -update
func TestREADMEOverview(t *testing.T) {
	code, stdout, stderr := rootsgen(t, nil, "-list", "-markdown")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	before, rest, ok := strings.Cut(readme, overviewBegin)
	section, after, ok2 := strings.Cut(rest, overviewEnd)
	if !ok || !ok2 {
		t.Fatalf("README.md lacks the lines %q and %q around the overview", overviewBegin, overviewEnd)
	}
	if section == stdout {
		return
	}
	if !*update {
		t.Errorf("README.md's overview differs from rootsgen -list -markdown; refresh it with: go test ./cmd/rootsgen -run TestREADMEOverview -update")
		return
	}
	if err := os.WriteFile(path, []byte(before+overviewBegin+stdout+overviewEnd+after), 0o644); err != nil {
		t.Fatal(err)
	}
}
