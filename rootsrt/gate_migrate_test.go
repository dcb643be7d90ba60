package rootsrt_test

// The migration off roots: FallBackToBounds, Ask and OnDeprecatedRoots,
// on every made-up revision, through Roots/RootSet and DecodedRootSet.

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/testdata/gotest/gatepeer"
)

// migrateTree is a server directory bound holding f.txt ("bound") and a
// directory sub holding g.txt ("sub"), and a file outside it.
type migrateTree struct {
	bound, boundFile, sub, subFile, outside string
}

func newMigrateTree(t *testing.T) migrateTree {
	t.Helper()
	base := t.TempDir()
	m := migrateTree{bound: filepath.Join(base, "bound"), outside: filepath.Join(base, "outside.txt")}
	m.boundFile = filepath.Join(m.bound, "f.txt")
	m.sub = filepath.Join(m.bound, "sub")
	m.subFile = filepath.Join(m.sub, "g.txt")
	for _, d := range []string{m.bound, m.sub} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for f, content := range map[string]string{m.boundFile: "bound", m.subFile: "sub", m.outside: "secret"} {
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// migrateSet is what RootSet gives a tool on rev: for a request that
// stands alone, after the client answered the input_required result, as
// a client that declared caps does.
func migrateSet(t *testing.T, sess *rootsrt.Session, peer *gatepeer.Peer, rev rootsrt.Revision, caps string, opts ...rootsrt.RootSetOption) (*rootsrt.RootSet, int, error) {
	t.Helper()
	ctx := context.Background()
	set, err := sess.RootSet(ctx, testMeta.Params(rev, caps, nil), opts...)
	var ir *rootsrt.InputRequiredError
	if !errors.As(err, &ir) {
		return set, 0, err
	}
	var res struct {
		InputRequests json.RawMessage `json:"inputRequests"`
	}
	if err := json.Unmarshal(ir.Result, &res); err != nil {
		t.Fatal(err)
	}
	responses, _, err := peer.Client.AnswerInputRequests(ctx, rev.Version, res.InputRequests)
	if err != nil {
		t.Fatal(err)
	}
	set, err = sess.RootSet(ctx, testMeta.Params(rev, caps, responses), opts...)
	return set, 1, err
}

// reads reports what set reads of each file: its content, or "refused".
func reads(set *rootsrt.RootSet, files ...string) []string {
	var out []string
	for _, f := range files {
		data, err := set.ReadFile(f)
		switch {
		case err == nil:
			out = append(out, string(data))
		case errors.Is(err, rootsrt.ErrOutsideRoots):
			out = append(out, "refused")
		case errors.Is(err, rootsrt.ErrOutsideBounds):
			out = append(out, "refused: bounds")
		default:
			out = append(out, err.Error())
		}
	}
	return out
}

// With FallBackToBounds, a client that declares no roots, or that Ask
// chooses not to ask, works in the Bounds alone (a path outside them is
// refused as outside the bounds, not the client's roots), and nothing is
// sent to it; a client that gives roots works in their intersection with the
// Bounds, as without the option. On every revision.
func TestGateFallBackToBounds(t *testing.T) {
	m := newMigrateTree(t)
	bounds := rootsrt.Bounds(m.bound)
	for _, rev := range gateRevisions {
		for _, c := range []struct {
			name  string
			caps  string
			ask   bool
			want  []string // bound/f.txt, bound/sub/g.txt, outside.txt
			asked bool
		}{
			{"no roots declared", `{}`, true, []string{"bound", "sub", "refused: bounds"}, false},
			{"roots given", gatepeer.Caps(rev), true, []string{"refused", "sub", "refused"}, true},
			{"not asked", gatepeer.Caps(rev), false, []string{"bound", "sub", "refused: bounds"}, false},
		} {
			t.Run(rev.Version+"/"+c.name, func(t *testing.T) {
				peer := gatepeer.New(rootsrt.Root{URI: fileURI(m.sub), Name: "sub"})
				sess := peer.Session(t, rev, c.caps)
				sess.FallBackToBounds = true
				sess.Ask = func(r rootsrt.Revision) bool {
					if r.Version != rev.Version {
						t.Errorf("Ask(%s) while serving %s", r.Version, rev.Version)
					}
					return c.ask
				}
				for range 2 { // the second call gets the set the first built
					set, rounds, err := migrateSet(t, sess, peer, rev, c.caps, bounds)
					if err != nil {
						t.Fatalf("RootSet: %v", err)
					}
					if got := reads(set, m.boundFile, m.subFile, m.outside); !slices.Equal(got, c.want) {
						t.Errorf("reads %q, want %q", got, c.want)
					}
					if rounds == 1 != (c.asked && !rev.DirectRequest) {
						t.Errorf("%d input_required rounds", rounds)
					}
					set.Close()
				}
				if asked := peer.Asks.Load() > 0; asked != (c.asked && rev.DirectRequest) {
					t.Errorf("roots/list sent %d times", peer.Asks.Load())
				}
			})
		}
	}
}

// Without the Bounds option there is nothing to fall back to: RootSet
// fails, naming it, and allows nothing. Without FallBackToBounds, a client
// Ask chose not to ask has no roots.
func TestGateFallBackNeedsBounds(t *testing.T) {
	for _, rev := range gateRevisions {
		peer := gatepeer.New()
		sess := peer.Session(t, rev, `{}`)
		sess.FallBackToBounds = true
		set, _, err := migrateSet(t, sess, peer, rev, `{}`)
		if set != nil || !errors.Is(err, rootsrt.ErrNoRootsCapability) || !strings.Contains(err.Error(), "no Bounds option") {
			t.Errorf("%s: fallback without Bounds: %v, %v", rev.Version, set, err)
		}
		sess = peer.Session(t, rev, gatepeer.Caps(rev))
		sess.Ask = func(rootsrt.Revision) bool { return false }
		set, _, err = migrateSet(t, sess, peer, rev, gatepeer.Caps(rev), rootsrt.Bounds(t.TempDir()))
		if set != nil || !errors.Is(err, rootsrt.ErrNoRootsCapability) || !strings.Contains(err.Error(), "chose not to ask clients of this revision") {
			t.Errorf("%s: not asked, no fallback: %v, %v", rev.Version, set, err)
		}
		if n := peer.Asks.Load(); n != 0 {
			t.Errorf("%s: roots/list sent %d times", rev.Version, n)
		}
	}
}

// A client that declared roots and fails to answer does not fall back: a
// server that opted in widens nothing because a client stalled.
func TestGateFallBackOnlyWithoutRoots(t *testing.T) {
	sess := &rootsrt.Session{FallBackToBounds: true, Request: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return nil, &rootsrt.RPCError{Code: -32603, Message: "broken"}
	}}
	defer sess.Close()
	if err := sess.Initialize(legacyVersion, json.RawMessage(gatepeer.Caps(legacyRev.Revision))); err != nil {
		t.Fatal(err)
	}
	set, err := sess.RootSet(context.Background(), nil, rootsrt.Bounds(t.TempDir()))
	if set != nil || err == nil || errors.Is(err, rootsrt.ErrNoRootsCapability) {
		t.Errorf("a client that answered an error: %v, %v; want its error, no set", set, err)
	}
}

// DecodedRootSet falls back as RootSet does.
func TestGateDecodedFallBack(t *testing.T) {
	m := newMigrateTree(t)
	for _, c := range []struct {
		name  string
		roots bool
		ask   bool
	}{{"no roots declared", false, true}, {"not asked", true, false}} {
		sess := &rootsrt.Session{FallBackToBounds: true, Ask: func(rootsrt.Revision) bool { return c.ask }}
		set, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true, Roots: c.roots}, rootsrt.Bounds(m.bound))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, want := reads(set, m.boundFile, m.outside), []string{"bound", "refused: bounds"}; !slices.Equal(got, want) {
			t.Errorf("%s: reads %q, want %q", c.name, got, want)
		}
		set.Close()
		sess.Close()
	}
	sess := &rootsrt.Session{FallBackToBounds: true}
	defer sess.Close()
	// A directory whose name needs escaping in a URI, and Windows paths,
	// fall back to themselves.
	odd := filepath.Join(t.TempDir(), "a b%20#c?d")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(odd, "f"), []byte("odd"), 0o644); err != nil {
		t.Fatal(err)
	}
	noRoots := rootsrt.DecodedRequest{Version: inputVersion, Capabilities: true}
	set, err := sess.DecodedRootSet(noRoots, rootsrt.Bounds(odd))
	if err != nil {
		t.Fatal(err)
	}
	if got := reads(set, filepath.Join(odd, "f")); got[0] != "odd" {
		t.Errorf("a directory named %q: %q", filepath.Base(odd), got)
	}
	set.Close()
	set, err = sess.DecodedRootSet(noRoots, rootsrt.WindowsPaths(true), rootsrt.Bounds(`C:\srv\data`))
	if err != nil || !set.Contains(`C:\srv\data\x.txt`) || set.Contains(`C:\srv\other`) {
		t.Errorf("Windows bounds: %v, %v", set, err)
	}
	set.Close()
	if _, err := sess.DecodedRootSet(rootsrt.DecodedRequest{Version: inputVersion}, rootsrt.Bounds(m.bound)); !errors.Is(err, rootsrt.ErrMalformedRequest) {
		t.Errorf("no capabilities at all: %v; want a malformed request, not a fallback", err)
	}
}

// OnDeprecatedRoots is called as roots are used on a revision that
// deprecates them: once for a session initialized for one, once per
// request that brings roots where requests stand alone, and never when
// nothing is asked.
func TestGateOnDeprecatedRoots(t *testing.T) {
	m := newMigrateTree(t)
	for _, rev := range gateRevisions {
		for _, c := range []struct {
			name string
			caps string
			ask  bool
		}{{"roots", gatepeer.Caps(rev), true}, {"no roots", `{}`, true}, {"not asked", gatepeer.Caps(rev), false}} {
			peer := gatepeer.New(rootsrt.Root{URI: fileURI(m.sub)})
			sess := peer.Session(t, rev, c.caps)
			sess.FallBackToBounds = true
			sess.Ask = func(rootsrt.Revision) bool { return c.ask }
			var mu sync.Mutex
			var calls []string
			sess.OnDeprecatedRoots = func(version string) {
				mu.Lock()
				calls = append(calls, version)
				mu.Unlock()
			}
			for range 3 {
				set, _, err := migrateSet(t, sess, peer, rev, c.caps, rootsrt.Bounds(m.bound))
				if err != nil {
					t.Fatalf("%s %s: %v", rev.Version, c.name, err)
				}
				set.Close()
			}
			want := 0
			switch {
			case !rev.Deprecated || c.name != "roots":
			case rev.DirectRequest:
				want = 1 // once per session
			default:
				want = 3 // once per request that brought roots
			}
			if len(calls) != want || want > 0 && calls[0] != rev.Version {
				t.Errorf("%s %s: OnDeprecatedRoots called with %q; want %d calls", rev.Version, c.name, calls, want)
			}
		}
	}
}
