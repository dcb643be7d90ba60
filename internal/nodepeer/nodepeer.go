// Package nodepeer runs the Node MCP peers of testdata/interop/node against
// the demo programs in tests: it finds node and the installed packages,
// builds a demo program, and normalizes the demos' wire transcripts so that
// they can be compared with golden files frame by frame.
package nodepeer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Setup returns the path of the node executable and the absolute path of
// testdata/interop/node, whose node_modules must have been installed with
// npm ci. Without them the test is skipped, except under CI=true, where it
// fails.
func Setup(t testing.TB) (node, dir string) {
	t.Helper()
	root := repoRoot(t)
	dir = filepath.Join(root, "testdata", "interop", "node")
	missing := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s; CI must provide it", msg)
		}
		t.Skipf("%s; run npm ci in testdata/interop/node", msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node not found on PATH: %v", err)
	}
	for _, pkg := range []string{"client", "server", "server-filesystem"} {
		p := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "package.json")
		if _, err := os.Stat(p); err != nil {
			missing("the Node MCP packages are not installed (%v)", err)
		}
	}
	return node, dir
}

// repoRoot is the directory of the module's go.mod, found upwards from the
// test's working directory.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// Build compiles the demo program cmd/<name> into a temporary directory and
// returns the executable's path.
func Build(t testing.TB, name string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/"+name)
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/%s: %v\n%s", name, err, out)
	}
	return exe
}

// Options say how a transcript is normalized.
type Options struct {
	// Replace lists pairs of old and new strings replaced in every frame
	// before it is parsed, for paths that differ between runs.
	Replace []string
	// Keep, when set, keeps only the requests and notifications whose
	// method it accepts, and the responses to the kept requests.
	Keep func(method string) bool
}

// Normalize reads a transcript written by a demo's -transcript flag (one
// frame per line, "<- " for received and "-> " for sent) and returns its
// frames with what differs between runs replaced: request ids are renumbered
// in the order each side first uses them (numbers stay numbers, strings stay
// strings), requestState becomes "<requestState>", and the version of every
// serverInfo and clientInfo becomes "<version>". Objects are written with
// sorted keys.
func Normalize(raw []byte, opts Options) ([]string, error) {
	replacer := strings.NewReplacer(opts.Replace...)
	ids := map[string]any{} // side + raw id -> normalized id
	counts := map[string]int{}
	kept := map[string]bool{} // side + raw id -> request was kept
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		dir, frame, ok := splitFrame(line)
		if !ok {
			return nil, fmt.Errorf("transcript line %d: no \"<- \" or \"-> \" direction: %q", n, line)
		}
		dec := json.NewDecoder(strings.NewReader(replacer.Replace(frame)))
		dec.UseNumber()
		var msg map[string]any
		if err := dec.Decode(&msg); err != nil {
			return nil, fmt.Errorf("transcript line %d: %v", n, err)
		}
		method, isCall := msg["method"].(string)
		rawID, hasID := msg["id"]
		// A request's id belongs to the side that sent it; a response's to
		// the side that receives it.
		side := dir
		if !isCall {
			side = flip(dir)
		}
		var key string
		if hasID && rawID != nil {
			b, _ := json.Marshal(rawID)
			key = side + string(b)
		}
		switch {
		case isCall && opts.Keep != nil && !opts.Keep(method):
			continue
		case !isCall && opts.Keep != nil && !kept[key]:
			continue
		}
		if key != "" {
			if isCall {
				kept[key] = true
			}
			id, seen := ids[key]
			if !seen {
				c := counts[side]
				counts[side]++
				if _, isString := rawID.(string); isString {
					id = fmt.Sprintf("id-%d", c)
				} else {
					id = c
				}
				ids[key] = id
			}
			msg["id"] = id
		}
		scrub(msg, "")
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(msg); err != nil {
			return nil, err
		}
		out = append(out, dir+" "+strings.TrimSuffix(buf.String(), "\n"))
	}
	return out, sc.Err()
}

// splitFrame splits a transcript line into its direction and its frame.
func splitFrame(line string) (dir, frame string, ok bool) {
	if len(line) < 3 || (line[:3] != "<- " && line[:3] != "-> ") {
		return "", "", false
	}
	return line[:2], line[3:], true
}

func flip(dir string) string {
	if dir == "<-" {
		return "->"
	}
	return "<-"
}

// scrub replaces the values that differ between runs, in place.
func scrub(v any, key string) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			switch {
			case k == "requestState":
				if _, ok := e.(string); ok {
					v[k] = "<requestState>"
				}
			case k == "version" && isImplementation(key):
				v[k] = "<version>"
			default:
				scrub(e, k)
			}
		}
	case []any:
		for _, e := range v {
			scrub(e, key)
		}
	}
}

func isImplementation(key string) bool {
	return key == "serverInfo" || key == "clientInfo" || strings.HasSuffix(key, "/serverInfo") || strings.HasSuffix(key, "/clientInfo")
}

// Check compares normalized frames with the golden file, frame by frame,
// or rewrites the golden file when update is set. Lines of the golden file
// that start with "#" are comments (kept on update).
func Check(t testing.TB, got []string, golden string, update bool) {
	t.Helper()
	old, err := os.ReadFile(golden)
	if err != nil && !(update && os.IsNotExist(err)) {
		t.Fatalf("golden transcript: %v (run go test with -update to create it)", err)
	}
	var header, want []string
	for _, line := range strings.Split(strings.TrimSuffix(string(old), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			header = append(header, line)
		case line != "":
			want = append(want, line)
		}
	}
	if update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(append(header, got...), "\n") + "\n"
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if slices.Equal(got, want) {
		return
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("transcript differs from %s at frame %d of %d (golden has %d):\n got: %s\nwant: %s", golden, i+1, len(got), len(want), g, w)
			break
		}
	}
	t.Logf("whole transcript:\n%s", strings.Join(got, "\n"))
}
