package generated_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/schema"
	"github.com/rootsgen/rootsgen/testdata/gotest/prereq"
)

// The roots cache of a revision's Server is the runtime's Asker (tested
// in rootsrt); what the Server tells it comes from the
// revision's schema, tested here and in dispatch_test.go.

// cacheNoNotificationTest is the test run in the package generated for a
// revision whose schema has no notifications/roots/list_changed: even a
// client whose capability says listChanged: true cannot announce a
// change there, so Roots asks on every call unless MaxAge allows reuse.
const cacheNoNotificationTest = `package mcproots_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"example.com/nonotify/mcproots"
)

func TestNoNotification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		request := func(context.Context, mcproots.Method, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(fmt.Sprintf("{\"roots\":[{\"uri\":\"file:///%d\"}]}", calls.Add(1))), nil
		}
		expect := func(s *mcproots.Server, n int32, when string) {
			t.Helper()
			roots, err := s.Roots(context.Background())
			if want := fmt.Sprintf("file:///%d", n); err != nil || len(roots) != 1 || roots[0].URI != want || calls.Load() != n {
				t.Errorf("%s: Roots = %v, %v after %d requests in all; want %s after %d", when, roots, err, calls.Load(), want, n)
			}
		}
		s := &mcproots.Server{ClientRoots: &mcproots.RootsCapability{ListChanged: true}, Request: request}
		expect(s, 1, "first call")
		expect(s, 2, "second call")
		s = &mcproots.Server{ClientRoots: &mcproots.RootsCapability{ListChanged: true}, Request: request, MaxAge: time.Second}
		expect(s, 3, "first call with MaxAge")
		time.Sleep(time.Second - time.Nanosecond)
		expect(s, 3, "just before MaxAge")
		time.Sleep(time.Nanosecond)
		expect(s, 4, "at MaxAge")
	})
}
`

// TestCacheRevisionWithoutNotification generates a package from the
// 2025-06-18 schema without RootsListChangedNotification, as a revision
// without the notification would be, and runs cacheNoNotificationTest in
// it: the policy must follow the schema's features, not a revision name.
func TestCacheRevisionWithoutNotification(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a scratch module")
	}
	goCmd, err := exec.LookPath("go")
	prereq.Need(t, err, "this test runs the go command")
	raw, err := schema.Open("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	defs, _ := doc["definitions"].(map[string]any)
	if _, ok := defs["RootsListChangedNotification"]; !ok {
		t.Fatal("the 2025-06-18 schema has no definitions.RootsListChangedNotification to remove")
	}
	delete(defs, "RootsListChangedNotification")
	if raw, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	files, m, err := generator.Generate(generator.Options{Revision: "2025-06-18", Schema: raw, Package: "mcproots"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Features.ListChangedNotification || !m.Features.DirectRequest || !m.Features.CapabilityListChanged {
		t.Fatalf("features %+v: want a direct roots/list request and a listChanged flag, but no notification", m.Features)
	}

	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/nonotify\n\ngo 1.25\n")
	for _, f := range files {
		write(filepath.Join("mcproots", f.Name), string(f.Content))
	}
	write("mcproots/nonotify_test.go", cacheNoNotificationTest)
	cmd := exec.Command(goCmd, "test", "-count=1", "./mcproots")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go test in the package generated without the notification: %v\n%s", err, out)
	}
}
