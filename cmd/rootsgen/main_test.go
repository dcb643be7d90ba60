package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/schema"
)

// rootsgen runs the command in-process and returns its exit status and output.
func rootsgen(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut, func(k string) string { return env[k] })
	return code, out.String(), errOut.String()
}

// snapshot reads every file under dir, so a test can show nothing changed.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			files[p] = "-> " + target
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("%d files before, %d after", len(before), len(after))
	}
	for p, c := range before {
		if after[p] != c {
			t.Errorf("%s changed", p)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	noRoots := filepath.Join(dir, "noroots.json")
	os.WriteFile(noRoots, []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"Root":{"type":"object"}}}`), 0o644)
	malformed := filepath.Join(dir, "bad.json")
	os.WriteFile(malformed, []byte("{\n  \"$defs\": {\n    \"Root\": [1,,]\n  }\n}\n"), 0o644)
	// A module, for the kits: their import paths come from its go.mod.
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.24\n"), 0o644)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no flags", nil, []string{"-revision is required", "2024-11-05", "2026-07-28"}},
		{"no out", []string{"-revision", "2025-06-18"}, []string{"-out is required"}},
		{"unknown revision", []string{"-revision", "1999-01-01", "-out", out}, []string{`unknown revision "1999-01-01"`, "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28", "-schema"}},
		{"schema without roots", []string{"-revision", "x", "-schema", noRoots, "-out", out}, []string{"missing definition(s) ListRootsRequest, ListRootsResult"}},
		{"malformed schema", []string{"-revision", "x", "-schema", malformed, "-out", out}, []string{"bad.json:3:16: malformed JSON", "malformed JSON"}},
		{"missing schema file", []string{"-revision", "x", "-schema", filepath.Join(dir, "nope.json"), "-out", out}, []string{"nope.json", "no such file"}},
		{"bad package", []string{"-revision", "2025-06-18", "-out", out, "-package", "func"}, []string{`invalid package name "func"`}},
		{"stray argument", []string{"-revision", "2025-06-18", "-out", out, "extra"}, []string{"unexpected arguments"}},
		{"unknown flag", []string{"-revison", "2025-06-18"}, []string{"flag provided but not defined: -revison"}},
		{"sdk unknown", []string{"-sdk", "nope", "-out", out}, []string{`unknown SDK "nope"`, "go-sdk", "mcp-go, none"}},
		{"sdk unknown outside a module", []string{"-sdk", "nope", "-out", filepath.Join(t.TempDir(), "out")}, []string{`unknown SDK "nope"`}},
		{"sdk and strict", []string{"-sdk", "go-sdk", "-strict", "-out", out}, []string{"-strict: only with -revision"}},
		{"sdk and schema limits", []string{"-sdk", "none", "-max-bytes", "10", "-max-depth", "3", "-out", out}, []string{"-max-bytes, -max-depth: only with -revision"}},
		{"sdk and revision", []string{"-sdk", "go-sdk", "-revision", "2025-06-18", "-out", out}, []string{"-sdk writes a kit"}},
		{"sdk and schema", []string{"-sdk", "none", "-schema", noRoots, "-out", out}, []string{"-sdk writes a kit"}},
		{"revisions alone", []string{"-revisions", "2025-06-18", "-revision", "2025-06-18", "-out", out}, []string{"-revisions: only with -sdk"}},
		{"kit with an unknown revision", []string{"-sdk", "none", "-revisions", "1999-01-01", "-out", out}, []string{`unknown revision "1999-01-01"`}},
		{"kit with a bad revision", []string{"-sdk", "none", "-revisions", "2025-06-18,x\ny", "-out", out}, []string{"invalid revision"}},
		{"kit with a revision twice", []string{"-sdk", "none", "-revisions", "2025-06-18,2025-06-18", "-out", out}, []string{"revision 2025-06-18 is given twice"}},
		{"kit outside a module", []string{"-sdk", "none", "-out", filepath.Join(t.TempDir(), "out")}, []string{"in no Go module"}},
		{"version and another flag", []string{"-version", "-list"}, []string{"-version takes no other flag"}},
		{"list and out", []string{"-list", "-sdk", "none", "-out", out}, []string{"-list takes no other flag"}},
		{"list -v without -markdown", []string{"-list", "-v"}, []string{"-v with -markdown"}},
		{"schema too large", []string{"-revision", "x", "-schema", malformed, "-out", out, "-max-bytes", "10"}, []string{"larger than the limit of 10 bytes", "-max-bytes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := rootsgen(t, nil, tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s was created by a failed run", out)
			}
		})
	}
}

func TestListAndVersion(t *testing.T) {
	code, stdout, stderr := rootsgen(t, nil, "-list")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 1+len(schema.Revisions()) {
		t.Fatalf("want a header and the %d embedded revisions:\n%s", len(schema.Revisions()), stdout)
	}
	for i, want := range []string{"2024-11-05  draft-07  notification", "2025-03-26  draft-07", "2025-06-18  draft-07", "2025-11-25  2020-12   notification  roots{listChanged}   jsonrpc+id+method+params", "2026-07-28  2020-12   no"} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i+1], want)
		}
	}
	if !strings.Contains(lines[5], "inputRequests") || !strings.Contains(lines[5], "deprecated (SEP-2577), removable from 2027-07-28") {
		t.Errorf("2026-07-28 line lacks its channel or deprecation: %q", lines[5])
	}
	if strings.Contains(strings.Join(lines[1:5], "\n"), "deprecated") {
		t.Errorf("only 2026-07-28 is deprecated:\n%s", stdout)
	}
	code, stdout, _ = rootsgen(t, nil, "-version")
	if code != exitOK || stdout != "rootsgen devel\n" {
		t.Errorf("-version: exit %d, %q", code, stdout)
	}
}

func TestWriteCheckAndStaleness(t *testing.T) {
	out := filepath.Join(t.TempDir(), "mcp-roots")
	if code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	types, err := os.ReadFile(filepath.Join(out, "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(types, []byte("\npackage mcproots\n")) {
		t.Errorf("package name not derived from the directory:\n%.300s", types)
	}
	if code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out, "-check"); code != exitOK {
		t.Errorf("-check on fresh output: exit %d: %s", code, stderr)
	}
	// A second run changes nothing, not even a file's modification time.
	info, _ := os.Stat(filepath.Join(out, "types.go"))
	if code, _, _ := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out); code != exitOK {
		t.Fatal("second run failed")
	}
	if again, _ := os.Stat(filepath.Join(out, "types.go")); !again.ModTime().Equal(info.ModTime()) {
		t.Error("an unchanged file was rewritten")
	}

	// An edited file makes -check fail without touching anything.
	os.WriteFile(filepath.Join(out, "types.go"), append(types, []byte("// edited\n")...), 0o644)
	before := snapshot(t, out)
	code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out, "-check")
	if code != exitFail || !strings.Contains(stderr, "update types.go") || !strings.Contains(stderr, "is stale") {
		t.Errorf("-check after an edit: exit %d, stderr:\n%s", code, stderr)
	}
	sameSnapshot(t, before, snapshot(t, out))

	// So does asking for another revision.
	os.WriteFile(filepath.Join(out, "types.go"), types, 0o644)
	code, _, stderr = rootsgen(t, nil, "-revision", "2026-07-28", "-out", out, "-check")
	if code != exitFail || !strings.Contains(stderr, "revision 2026-07-28") {
		t.Errorf("-check with another revision: exit %d, stderr:\n%s", code, stderr)
	}

	// A failing run leaves the files as they were.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"$defs": {}}`), 0o644)
	before = snapshot(t, out)
	if code, _, _ := rootsgen(t, nil, "-revision", "2025-06-18", "-schema", bad, "-out", out); code != exitUsage {
		t.Errorf("bad schema: exit %d", code)
	}
	sameSnapshot(t, before, snapshot(t, out))
}

func TestStaleFilesRemovedUserFilesKept(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "old.go"), []byte("// Code generated by rootsgen v0.0.1 from MCP schema x (sha256 000000000000). DO NOT EDIT.\n\npackage roots\n"), 0o644)
	os.WriteFile(filepath.Join(out, "mine.go"), []byte("package roots\n\n// Mine is the user's own code.\nvar Mine = 1\n"), 0o644)
	code, _, stderr := rootsgen(t, nil, "-revision", "2024-11-05", "-out", out, "-check")
	if code != exitFail || !strings.Contains(stderr, "remove old.go") {
		t.Errorf("-check should report old.go: exit %d\n%s", code, stderr)
	}
	// Under go generate, which has listed old.go already, the run says
	// that go generate may fail to open it.
	code, _, stderr = rootsgen(t, map[string]string{"GOFILE": "gen.go"}, "-revision", "2024-11-05", "-out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "removed 1 file(s)") || !strings.Contains(stderr, "run it again") {
		t.Errorf("no word of the removed file under go generate:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "old.go")); !os.IsNotExist(err) {
		t.Error("old.go, an earlier rootsgen file, was not removed")
	}
	if _, err := os.Stat(filepath.Join(out, "mine.go")); err != nil {
		t.Error("mine.go, the user's file, was removed")
	}
	types, _ := os.ReadFile(filepath.Join(out, "types.go"))
	if !bytes.Contains(types, []byte("\npackage roots\n")) {
		t.Error("the package name was not taken from the files already in -out")
	}
	// Elsewhere, the removal is silent.
	os.WriteFile(filepath.Join(out, "old.go"), []byte("// Code generated by rootsgen v0.0.1 from MCP schema x (sha256 000000000000). DO NOT EDIT.\n\npackage roots\n"), 0o644)
	if code, _, stderr := rootsgen(t, nil, "-revision", "2024-11-05", "-out", out); code != exitOK || stderr != "" {
		t.Errorf("outside go generate: exit %d, stderr %q", code, stderr)
	}
}

func TestOutputThatCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	// -out names a regular file.
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("keep"), 0o644)
	if code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", file, "-package", "x"); code != exitFail || !strings.Contains(stderr, "nothing was changed") {
		t.Errorf("-out is a file: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(file); string(b) != "keep" {
		t.Error("the file named by -out was changed")
	}
	// A generated file's name is a symlink that points out of -out.
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	outside := filepath.Join(dir, "outside.go")
	os.WriteFile(outside, []byte("package outside\n"), 0o644)
	os.Symlink(outside, filepath.Join(out, "types.go"))
	before := snapshot(t, dir)
	code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out, "-package", "x")
	if code != exitFail || !strings.Contains(stderr, "not a regular file") {
		t.Errorf("symlink in -out: exit %d: %s", code, stderr)
	}
	sameSnapshot(t, before, snapshot(t, dir))
}

func TestUserFileWithAGeneratedNameIsKept(t *testing.T) {
	out := t.TempDir()
	mine := filepath.Join(out, "types.go")
	os.WriteFile(mine, []byte("package roots\n\n// Types is the user's own.\nvar Types = 1\n"), 0o644)
	before := snapshot(t, out)
	code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-out", out)
	if code != exitFail || !strings.Contains(stderr, "types.go in the output directory was not written by rootsgen") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	sameSnapshot(t, before, snapshot(t, out))
}

func TestPackageFromGOPACKAGE(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, stderr := rootsgen(t, map[string]string{"GOPACKAGE": "mypkg"}, "-revision", "2025-11-25", "-out", ".")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "doc.go"))
	if !bytes.Contains(b, []byte("\npackage mypkg\n")) {
		t.Error("with -out . the package should come from $GOPACKAGE")
	}
}

// A revision rootsgen does not know generates from its schema alone: what
// it has is read from the schema, and the deprecation registry applies to
// every revision dated on or after the deprecation.
func TestUnknownRevisionWithSchema(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := rootsgen(t, nil, "-revision", "2027-03-01", "-schema", filepath.Join("..", "..", "schema", "2026-07-28.json"), "-out", out, "-package", "future")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	types, _ := os.ReadFile(filepath.Join(out, "types.go"))
	for _, want := range []string{`const ProtocolVersion = "2027-03-01"`, "from MCP schema 2027-03-01", "Deprecated: MCP 2027-03-01 deprecates roots (SEP-2577)", "type InputRequiredResult struct"} {
		if !bytes.Contains(types, []byte(want)) {
			t.Errorf("types.go lacks %q", want)
		}
	}
	if bytes.Contains(types, []byte("RootsListChangedNotification")) {
		t.Error("the 2026-07-28 schema has no list-changed notification, yet one was generated")
	}
}

// TestFailedCreateOfOutRemovesParents: -out's missing parents are created
// before -out itself; when creating -out then fails (here its name is too
// long), the parents made on the way must be removed again, or "nothing was
// changed" is false.
func TestFailedCreateOfOutRemovesParents(t *testing.T) {
	tree := t.TempDir()
	out := filepath.Join(tree, "a", "b", strings.Repeat("x", 300), "out")
	code, _, stderr := rootsgen(t, nil, "-revision", "2025-06-18", "-package", "x", "-out", out)
	if code != exitFail || !strings.Contains(stderr, "nothing was changed") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	entries, err := os.ReadDir(tree)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s was left behind", filepath.Join(tree, e.Name()))
	}
}

// -sdk writes a kit under -out: one package per revision and the front
// package (named after -out's base) with the adapter, whose
// header names the SDK version; import paths come from the module's
// go.mod; -check passes on it and fails once any file of the tree is
// edited.
func TestSDKKit(t *testing.T) {
	mod := t.TempDir()
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/app\n\ngo 1.25.0\n")
	out := filepath.Join(mod, "mcproots")
	args := []string{"-sdk", "go-sdk", "-revisions", "2025-06-18,2026-07-28", "-out", out}
	if code, _, stderr := rootsgen(t, nil, args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files := snapshot(t, out)
	src, ok := files[filepath.Join(out, "gosdk.go")]
	if !ok {
		t.Fatalf("no gosdk.go among %d files", len(files))
	}
	for _, want := range []string{
		"// Code generated by rootsgen ",
		" for github.com/modelcontextprotocol/go-sdk v1.8.0. DO NOT EDIT.\n",
		"\npackage mcproots\n",
		`"github.com/modelcontextprotocol/go-sdk/mcp"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("gosdk.go lacks %q", want)
		}
	}
	for _, want := range []string{"roots20250618/types.go", "roots20260728/gate.go", "gate.go"} {
		if _, ok := files[filepath.Join(out, want)]; !ok {
			t.Errorf("the kit has no %s", want)
		}
	}
	// The kit imports the runtime; -runtime copy writes it in.
	if _, ok := files[filepath.Join(out, "rootsrt", "set.go")]; ok {
		t.Error("the kit has a copy of the runtime")
	}
	if !strings.Contains(files[filepath.Join(out, "gate.go")], `rootsrt "github.com/rootsgen/rootsgen/rootsrt"`) {
		t.Error("the front does not import the runtime")
	}
	copied := t.TempDir()
	writeFile(t, filepath.Join(copied, "go.mod"), "module example.com/copy\n\ngo 1.25.0\n")
	if code, _, stderr := rootsgen(t, nil, "-sdk", "go-sdk", "-runtime", "copy", "-out", filepath.Join(copied, "mcproots")); code != exitOK {
		t.Fatalf("-runtime copy: exit %d: %s", code, stderr)
	}
	if front := snapshot(t, filepath.Join(copied, "mcproots"))[filepath.Join(copied, "mcproots", "gate.go")]; !strings.Contains(front, `rootsrt "example.com/copy/mcproots/rootsrt"`) {
		t.Error("-runtime copy: the front does not import the kit's copy of the runtime")
	}
	if _, err := os.Stat(filepath.Join(copied, "mcproots", "rootsrt", "set.go")); err != nil {
		t.Errorf("-runtime copy wrote no runtime: %v", err)
	}
	if _, ok := files[filepath.Join(out, "roots20251125", "types.go")]; ok {
		t.Errorf("-revisions did not narrow the kit")
	}
	if !strings.Contains(files[filepath.Join(out, "gate.go")], `"example.com/app/mcproots/roots20250618"`) {
		t.Errorf("the front does not import the revisions by the module's path")
	}
	if code, _, stderr := rootsgen(t, nil, append(args, "-check")...); code != exitOK {
		t.Errorf("-check on fresh output: exit %d: %s", code, stderr)
	}
	edited := filepath.Join(out, "roots20250618", "gate.go")
	if err := os.WriteFile(edited, []byte(files[edited]+"// edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := rootsgen(t, nil, append(args, "-check")...); code != exitFail || !strings.Contains(stderr, "the kit") || !strings.Contains(stderr, "update roots20250618/gate.go") {
		t.Errorf("-check on edited output: exit %d: %s", code, stderr)
	}
}
