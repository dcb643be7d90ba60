package rootsrt_test

// The audit records and counters (see the package doc, Audit): one record
// per refused path, per root left out of a list and per roots/list round
// trip, with the attributes the doc names; none without a logger.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/testdata/gotest/gatepeer"
	"github.com/rootsgen/rootsgen/testdata/gotest/logtest"
)

// wantRecord checks that r has the message, level and attributes in want
// (a number compared as JSON decodes it), and an attribute for each of has.
func wantRecord(t *testing.T, r map[string]any, msg, level string, want map[string]any, has ...string) {
	t.Helper()
	if r["msg"] != msg || r["level"] != level {
		t.Errorf("record %v: want %q at %s", r, msg, level)
		return
	}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("record %v: %s = %v, want %v", r, k, r[k], v)
		}
	}
	for _, k := range has {
		if _, ok := r[k]; !ok {
			t.Errorf("record %v: no attribute %s", r, k)
		}
	}
}

// statsDelta is what the counters of ReadStats grew by since before.
func statsDelta(before rootsrt.Stats) rootsrt.Stats {
	now := rootsrt.ReadStats()
	return rootsrt.Stats{
		RootsRequests:  now.RootsRequests - before.RootsRequests,
		InputRequired:  now.InputRequired - before.InputRequired,
		Answers:        now.Answers - before.Answers,
		SetsBuilt:      now.SetsBuilt - before.SetsBuilt,
		SetsShared:     now.SetsShared - before.SetsShared,
		InvalidRoots:   now.InvalidRoots - before.InvalidRoots,
		OutsideRoots:   now.OutsideRoots - before.OutsideRoots,
		OutsideBounds:  now.OutsideBounds - before.OutsideBounds,
		NotRegularFile: now.NotRegularFile - before.NotRegularFile,
		FileTooLarge:   now.FileTooLarge - before.FileTooLarge,
		NoDescriptors:  now.NoDescriptors - before.NoDescriptors,
	}
}

// auditTree is a root r holding allowed/ (the bounds: f.txt, big, the
// directory d) and other/f.txt, and a file outside r.
func auditTree(t *testing.T) (r, outside string) {
	t.Helper()
	base := t.TempDir()
	r = filepath.Join(base, "r")
	for _, d := range []string{"allowed/d", "other"} {
		if err := os.MkdirAll(filepath.Join(r, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside = filepath.Join(base, "secret")
	for name, content := range map[string]string{"allowed/f.txt": "one", "allowed/big": "0123456789", "other/f.txt": "no", "../secret": "no"} {
		if err := os.WriteFile(filepath.Join(r, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r, outside
}

// TestAuditRefusals: each refusal of a set built with LogRefusals is one
// record at Warn with op, path, reason, revision, error and the option's
// attributes, and counted by its reason; an error of the file itself, and
// WhichResolved's answer, are neither.
func TestAuditRefusals(t *testing.T) {
	r, outside := auditTree(t)
	var log logtest.Buffer
	set, err := rootsrt.NewRootSet(legacyVersion, []rootsrt.Root{{URI: fileURI(r)}},
		rootsrt.Bounds(filepath.Join(r, "allowed")), rootsrt.ReadLimit(5),
		rootsrt.LogRefusals(log.Logger(), slog.String("tool", "read_file")))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	before := rootsrt.ReadStats()
	allowed := filepath.Join(r, "allowed")
	if data, err := set.ReadFile(filepath.Join(allowed, "f.txt")); err != nil || string(data) != "one" {
		t.Fatalf("ReadFile inside: %q, %v", data, err)
	}
	set.ReadFile(outside)
	set.ReadFile(filepath.Join(r, "other", "f.txt"))
	set.ReadFile(filepath.Join(allowed, "d"))
	set.ReadFile(filepath.Join(allowed, "big"))
	set.Rename(filepath.Join(allowed, "f.txt"), filepath.Join(r, "other", "g"))
	set.Resolve(outside)
	set.FS().Open(strings.TrimPrefix(filepath.ToSlash(outside), "/"))
	set.ReadFile(filepath.Join(allowed, "missing"))                 // the file's own error
	if _, in, err := set.WhichResolved(outside); in || err != nil { // a question
		t.Fatalf("WhichResolved outside: %v, %v", in, err)
	}
	got := log.Records(t)
	want := []struct{ op, path, reason string }{
		{"open", outside, "outside_roots"},
		{"open", filepath.Join(r, "other", "f.txt"), "outside_bounds"},
		{"read", filepath.Join(allowed, "d"), "not_regular_file"},
		{"read", filepath.Join(allowed, "big"), "file_too_large"},
		{"rename", filepath.Join(allowed, "f.txt"), "outside_bounds"},
		{"resolve", outside, "outside_roots"},
		{"open", outside, "outside_roots"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		wantRecord(t, got[i], "roots: path refused", "WARN", map[string]any{
			"op": w.op, "path": w.path, "reason": w.reason, "revision": legacyVersion, "tool": "read_file",
		}, "error")
	}
	if got[4]["new"] != filepath.Join(r, "other", "g") {
		t.Errorf("rename record %v: want new = the new path", got[4])
	}
	if d := statsDelta(before); d != (rootsrt.Stats{OutsideRoots: 3, OutsideBounds: 2, NotRegularFile: 1, FileTooLarge: 1}) {
		t.Errorf("counted %+v", d)
	}
}

// TestAuditNothingWithoutLogger: without Session.Logger and LogRefusals
// nothing is logged, not even to slog's default logger; the counters
// count all the same.
func TestAuditNothingWithoutLogger(t *testing.T) {
	var log logtest.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(log.Logger())
	r, outside := auditTree(t)
	peer := gatepeer.New(rootsrt.Root{URI: fileURI(r)}, rootsrt.Root{URI: "https://bad"})
	sess := &rootsrt.Session{Request: peer.Request(legacyVersion), Lenient: true}
	if err := sess.Initialize(legacyVersion, json.RawMessage(gatepeer.Caps(legacyRev.Revision))); err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	before := rootsrt.ReadStats()
	set, err := sess.RootSet(context.Background(), nil)
	if set == nil || err == nil {
		t.Fatalf("RootSet: %v, %v; want a set and the bad root named", set, err)
	}
	defer set.Close()
	if _, err := set.ReadFile(outside); err == nil {
		t.Fatal("read outside the roots")
	}
	if got := log.Records(t); len(got) != 0 {
		t.Errorf("logged without a logger: %v", got)
	}
	if d := statsDelta(before); d != (rootsrt.Stats{RootsRequests: 1, SetsBuilt: 1, InvalidRoots: 1, OutsideRoots: 1}) {
		t.Errorf("counted %+v", d)
	}
}

// TestAuditSession: a session whose roots/list is a request of its own
// records the round trip, and the roots left out of its answer once
// however many calls share the set (by the list's index, with the URI);
// the sets it shares record refusals with each call's own attributes.
func TestAuditSession(t *testing.T) {
	r, outside := auditTree(t)
	var log logtest.Buffer
	elsewhere := t.TempDir() // in none of the bounds
	peer := gatepeer.New(rootsrt.Root{URI: "https://bad"}, rootsrt.Root{URI: fileURI(r)}, rootsrt.Root{URI: fileURI(elsewhere)})
	bounds := rootsrt.Bounds(r)
	sess := &rootsrt.Session{Request: peer.Request(legacyVersion), Lenient: true, Logger: log.Logger().With("session", "s1")}
	if err := sess.Initialize(legacyVersion, json.RawMessage(gatepeer.Caps(legacyRev.Revision))); err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	before := rootsrt.ReadStats()
	for _, tool := range []string{"a", "b"} {
		set, err := sess.RootSet(context.Background(), nil, bounds, rootsrt.LogRefusals(sess.Logger, slog.String("tool", tool)))
		if set == nil || err == nil {
			t.Fatalf("RootSet: %v, %v; want a set and the bad roots named", set, err)
		}
		set.ReadFile(outside)
		set.Close()
	}
	got := log.Records(t)
	if len(got) != 5 {
		t.Fatalf("%d records, want 5: %v", len(got), got)
	}
	wantRecord(t, got[0], "roots: roots/list", "INFO", map[string]any{"revision": legacyVersion, "via": "request", "session": "s1"}, "duration")
	wantRecord(t, got[1], "roots: root left out", "WARN", map[string]any{"revision": legacyVersion, "index": 0.0, "uri": "https://bad", "session": "s1"}, "problem")
	wantRecord(t, got[2], "roots: root left out", "WARN", map[string]any{"revision": legacyVersion, "index": 2.0, "uri": fileURI(elsewhere)}, "problem")
	for i, tool := range []string{"a", "b"} {
		wantRecord(t, got[3+i], "roots: path refused", "WARN", map[string]any{"reason": "outside_roots", "tool": tool, "session": "s1"})
	}
	if d := statsDelta(before); d != (rootsrt.Stats{RootsRequests: 1, SetsBuilt: 1, SetsShared: 1, InvalidRoots: 2, OutsideRoots: 2}) {
		t.Errorf("counted %+v", d)
	}
}

// TestAuditInputRequired: where requests stand alone, the input_required
// result is counted, and the request that brings the roots back is the
// round trip recorded, with their number; the list's bad root is recorded
// once for the two requests that bring the same list.
func TestAuditInputRequired(t *testing.T) {
	r, _ := auditTree(t)
	var log logtest.Buffer
	sess := &rootsrt.Session{Lenient: true, Logger: log.Logger()}
	defer sess.Close()
	before := rootsrt.ReadStats()
	req := rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true, Roots: true}
	if _, err := sess.DecodedRootSet(req); err == nil {
		t.Fatal("not answered: no input_required")
	}
	req.Answered, req.Answer = true, []rootsrt.Root{{URI: fileURI(r)}, {URI: "http://bad"}}
	for range 2 {
		set, err := sess.DecodedRootSet(req)
		if set == nil || err == nil {
			t.Fatalf("answered: %v, %v; want a set and the bad root named", set, err)
		}
		set.Close()
	}
	got := log.Records(t)
	if len(got) != 3 {
		t.Fatalf("%d records, want 3: %v", len(got), got)
	}
	for _, i := range []int{0, 2} {
		wantRecord(t, got[i], "roots: roots/list", "INFO", map[string]any{"revision": inputVersion, "via": "input_required", "roots": 2.0})
	}
	wantRecord(t, got[1], "roots: root left out", "WARN", map[string]any{"index": 1.0, "uri": "http://bad"}, "problem")
	if d := statsDelta(before); d != (rootsrt.Stats{InputRequired: 1, Answers: 2, SetsBuilt: 1, SetsShared: 1, InvalidRoots: 1}) {
		t.Errorf("counted %+v", d)
	}
}

// TestReadStatsDescriptors: Descriptors counts the directories sets hold
// open, against the budget in force.
func TestReadStatsDescriptors(t *testing.T) {
	r, _ := auditTree(t)
	withBudget(t, 200)
	before := rootsrt.ReadStats()
	if before.DescriptorBudget != 200 {
		t.Errorf("DescriptorBudget = %d, want 200", before.DescriptorBudget)
	}
	set, err := rootsrt.NewRootSet(legacyVersion, []rootsrt.Root{{URI: fileURI(r)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.ReadFile(filepath.Join(r, "allowed", "f.txt")); err != nil {
		t.Fatal(err)
	}
	if now := rootsrt.ReadStats(); now.Descriptors <= before.Descriptors {
		t.Errorf("Descriptors %d after a read, %d before: want more", now.Descriptors, before.Descriptors)
	}
	set.Close()
	if now := rootsrt.ReadStats(); now.Descriptors != before.Descriptors {
		t.Errorf("Descriptors %d once the set closed, %d before", now.Descriptors, before.Descriptors)
	}
}

// withBudget sets the descriptor budget to n until the test ends.
func withBudget(t *testing.T, n int) {
	old := rootsrt.SetDescriptorBudget(n)
	t.Cleanup(func() { rootsrt.SetDescriptorBudget(old) })
}

// TestAuditFailedRoundTripAtWarn: a roots/list that fails is recorded at
// Warn, so a logger that keeps only warnings keeps it.
func TestAuditFailedRoundTripAtWarn(t *testing.T) {
	var log logtest.Buffer
	sess := &rootsrt.Session{
		Request: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("boom")
		},
		Logger: slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if err := sess.Initialize(legacyVersion, json.RawMessage(gatepeer.Caps(legacyRev.Revision))); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Roots(context.Background(), nil); err == nil {
		t.Fatal("Roots: no error from a failed roots/list")
	}
	got := log.Records(t)
	if len(got) != 1 {
		t.Fatalf("%d records, want 1: %v", len(got), got)
	}
	wantRecord(t, got[0], "roots: roots/list", "WARN", map[string]any{"via": "request"}, "error", "duration")
}

// TestAuditListIndexes: where requests stand alone and the session reads
// their JSON, the roots left out are named by their index in the client's
// list, those its revision refused and those the set refused alike, once
// for two requests with the list; RootSet's error names the set's by the
// same index.
func TestAuditListIndexes(t *testing.T) {
	r, _ := auditTree(t)
	var log logtest.Buffer
	sess := &rootsrt.Session{Lenient: true, Logger: log.Logger()}
	defer sess.Close()
	before := rootsrt.ReadStats()
	list := []rootsrt.Root{{URI: "https://bad"}, {URI: fileURI(r)}, {URI: fileURI(t.TempDir())}}
	for range 2 {
		set, err := sess.RootSet(context.Background(), testMeta.RetryParams(inputRev.Revision, list...), rootsrt.Bounds(r))
		// The error names what the set refused; the revision's refusals go
		// to OnInvalidRoots.
		if set == nil || err == nil || !strings.Contains(err.Error(), "roots[2]") || strings.Contains(err.Error(), "roots[0]") || strings.Contains(err.Error(), "roots[1]") {
			t.Fatalf("RootSet: %v, %v; want a set, and roots[2] named", set, err)
		}
		set.Close()
	}
	left := log.ByMessage(t)
	got := left["roots: root left out"]
	if len(got) != 2 {
		t.Fatalf("%d roots left out recorded, want 2: %v", len(got), got)
	}
	for i, want := range []rootsrt.Root{list[0], list[2]} {
		wantRecord(t, got[i], "roots: root left out", "WARN", map[string]any{"index": float64(2 * i), "uri": want.URI}, "problem")
	}
	for _, r := range left["roots: roots/list"] {
		wantRecord(t, r, "roots: roots/list", "INFO", map[string]any{"via": "input_required", "roots": 3.0})
	}
	if d := statsDelta(before); d.InvalidRoots != 2 || d.SetsBuilt != 1 || d.SetsShared != 1 || d.Answers != 2 {
		t.Errorf("counted %+v", d)
	}
}

// TestAuditShareKeepsLog: a view shared from a set built with LogRefusals
// records its refusals too.
func TestAuditShareKeepsLog(t *testing.T) {
	r, outside := auditTree(t)
	var log logtest.Buffer
	set, err := rootsrt.NewRootSet(legacyVersion, []rootsrt.Root{{URI: fileURI(r)}}, rootsrt.LogRefusals(log.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	shared := set.Share()
	set.Close()
	defer shared.Close()
	shared.ReadFile(outside)
	if got := log.Records(t); len(got) != 1 || got[0]["reason"] != "outside_roots" {
		t.Errorf("records of the shared view: %v; want its refusal", got)
	}
}
