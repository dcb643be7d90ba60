package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
	code, short, stderr := rootsgen(t, nil, "-list", "-markdown")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, stdout, stderr := rootsgen(t, nil, "-list", "-markdown", "-v")
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
	// Without -v, the rows of the revisions alone: the same table's start.
	if !strings.HasPrefix(stdout, short) || strings.Contains(short, "`Server`") || strings.Count(short, "\n") != 7 {
		t.Errorf("-list -markdown without -v:\n%s", short)
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
	if code, _, stderr := rootsgen(t, nil, "-markdown"); code != exitUsage || !strings.Contains(stderr, "-markdown: only with -list") {
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

// readmeMarker is the comment before each code block of README.md that
// says what keeps it true: "from: FILE (mcproots is PKG)", whose lines
// are FILE's, in order, with the kit named as FILE names it; or "run:
// TestName (DIR)", a test that runs the block's lines itself.
var readmeMarker = regexp.MustCompile(`^<!-- (from|run): (\S+) \(([^)]*)\) -->$`)

// TestREADMECodeBlocks keeps every code block of README.md compiled or
// run: each is preceded by a marker naming the Go file it is taken from
// (built and vetted with its package) or the test that runs it, and the
// README stays a manual of at most 400 lines.
func TestREADMECodeBlocks(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n := len(lines) - 1; n > 400 {
		t.Errorf("README.md has %d lines, over 400", n)
	}
	blocks := 0
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") || lines[i] == "```" {
			continue
		}
		blocks++
		start := i
		var block []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			block = append(block, lines[i])
		}
		m := []string(nil)
		if start >= 1 {
			m = readmeMarker.FindStringSubmatch(lines[start-1])
		}
		if m == nil {
			t.Errorf("README.md:%d: a code block without a from: or run: marker on the line before", start+1)
			continue
		}
		switch m[1] {
		case "from":
			from, to := "mcproots.", ""
			if pkg, ok := strings.CutPrefix(m[3], "mcproots is "); ok && pkg != "the package" {
				to = pkg + "."
			}
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m[2])))
			if err != nil {
				t.Errorf("README.md:%d: %v", start+1, err)
				continue
			}
			code := string(src)
			for _, l := range block {
				l = strings.TrimSpace(strings.ReplaceAll(l, from, to))
				if l == "" {
					continue
				}
				j := strings.Index(code, l)
				if j < 0 {
					t.Errorf("README.md:%d: %q is not in %s (after the lines before it)", start+1, l, m[2])
					break
				}
				code = code[j+len(l):]
			}
		case "run":
			name, dir := m[2], filepath.Join(root, filepath.FromSlash(m[3]))
			tests, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range tests {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(src), "func "+name+"(t *testing.T)") && strings.Contains(string(src), "README") {
					found = true
				}
			}
			if !found {
				t.Errorf("README.md:%d: no test %s in %s that reads the README", start+1, name, m[3])
			}
		}
	}
	if blocks == 0 {
		t.Error("README.md has no code blocks")
	}
}

// TestREADMECommands: the two commands README.md starts with are the ones
// CI runs, so that they work from a fresh clone.
func TestREADMECommands(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(readme), "```sh\n")
	block, _, _ := strings.Cut(rest, "```\n")
	cmds := strings.Split(strings.TrimSpace(block), "\n")
	if len(cmds) != 2 {
		t.Fatalf("README.md's first block has %d lines, want the two commands", len(cmds))
	}
	for _, c := range cmds {
		c, _, _ = strings.Cut(c, "#")
		c = strings.TrimSpace(c)
		if !slices.Contains(strings.Split(string(ci), "\n"), c) {
			t.Errorf("README.md's command %q is not a line of .ci/run", c)
		}
	}
}
