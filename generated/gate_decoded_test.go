package generated_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
	"github.com/rootsgen/rootsgen/testdata/gotest/gatepeer"
)

// Session.DecodedRootSet serves a request that stands alone from what an
// SDK decoded of it. These tests hold it to Session.RootSet, which reads
// the same request as JSON: the same outcome for every request, the same
// sets kept, and states sealed on one path open on the other.

// decodedCase is one request, as JSON params and as an SDK decodes it.
type decodedCase struct {
	name    string
	params  json.RawMessage
	decoded rootsgate.DecodedRequest
}

func decodedCases(rev rootsgate.Revision, dir string) []decodedCase {
	good := rootsgate.Root{URI: fileURI(dir), Name: "r"}
	other := rootsgate.Root{URI: "file://otherhost" + dir}
	answer := func(roots ...rootsgate.Root) json.RawMessage {
		if roots == nil {
			roots = []rootsgate.Root{} // [], not null
		}
		raw, err := json.Marshal(map[string]any{rootsgate.DefaultInputKey: map[string]any{"roots": roots}})
		if err != nil {
			panic(err)
		}
		return raw
	}
	meta := `"_meta":{"` + versionKey + `":"` + rev.Version + `"`
	return []decodedCase{
		{"no capabilities", json.RawMessage(`{"name":"read_file",` + meta + `}}`),
			rootsgate.DecodedRequest{Version: rev.Version}},
		{"no roots capability", testMeta.Params(rev, `{}`, nil),
			rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true}},
		{"roots capability null", testMeta.Params(rev, `{"roots":null}`, nil),
			rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true}},
		{"not answered", testMeta.Params(rev, gatepeer.Caps(rev), nil),
			rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true}},
		{"answered", testMeta.Params(rev, gatepeer.Caps(rev), answer(good)),
			rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true, Answer: []rootsgate.Root{good}}},
		{"answered with an invalid root", testMeta.Params(rev, gatepeer.Caps(rev), answer(other, good)),
			rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true, Answer: []rootsgate.Root{other, good}}},
		{"answered with no roots", testMeta.Params(rev, gatepeer.Caps(rev), answer()),
			rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true, Answer: []rootsgate.Root{}}},
	}
}

// outcome is what a caller of RootSet sees: the error's kind and the
// set's roots.
func outcome(set *rootsgate.RootSet, err error) string {
	var parts []string
	var ir *rootsgate.InputRequiredError
	var mc *rootsgate.MissingCapabilityError
	var mr *rootsgate.MalformedRequestError
	switch {
	case err == nil:
	case errors.As(err, &ir):
		parts = append(parts, "input required "+ir.Key)
	case errors.As(err, &mc):
		parts = append(parts, fmt.Sprintf("missing capability %d %s", mc.Object.Code, mc.Object.Data))
	case errors.As(err, &mr):
		parts = append(parts, "malformed")
	default:
		parts = append(parts, "error")
	}
	if err != nil && strings.Contains(err.Error(), "roots[0]") {
		parts = append(parts, "names roots[0]")
	}
	if set != nil {
		for _, r := range set.Roots() {
			parts = append(parts, r.URI)
		}
		set.Close()
	}
	return strings.Join(parts, "; ")
}

func TestGateDecodedRootSetMatchesJSON(t *testing.T) {
	ctx := context.Background()
	for _, rev := range gateInputRevisions() {
		t.Run(rev.Version, func(t *testing.T) {
			dir, _ := gatepeer.RootDir(t)
			for _, lenient := range []bool{true, false} {
				for _, c := range decodedCases(rev, dir) {
					viaJSON := outcome((&rootsgate.Session{Lenient: lenient}).RootSet(ctx, c.params))
					decoded := outcome((&rootsgate.Session{Lenient: lenient}).DecodedRootSet(c.decoded))
					if viaJSON != decoded {
						t.Errorf("%s (lenient %t): decoded %q, as JSON %q", c.name, lenient, decoded, viaJSON)
					}
				}
			}
		})
	}
}

// A state sealed while serving a request on one path opens for its retry
// on the other when the binding's Params are SalientParams of the
// request's params; it does not open for another request.
func TestGateDecodedSealedState(t *testing.T) {
	ctx := context.Background()
	sealer, err := rootsgate.NewStateSealer(rootsgate.StateSealerConfig{Current: rootsgate.StateKey{ID: "k", Secret: make([]byte, 32)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range gateInputRevisions() {
		t.Run(rev.Version, func(t *testing.T) {
			dir, _ := gatepeer.RootDir(t)
			root := rootsgate.Root{URI: fileURI(dir)}
			s := &rootsgate.Session{Sealer: sealer}
			bind := rootsgate.StateBinding{Principal: "p", Method: "tools/call"}
			ctx := rootsgate.WithStateBinding(ctx, bind)
			salient, err := rootsgate.SalientParams(testMeta.Params(rev, gatepeer.Caps(rev), nil))
			if err != nil {
				t.Fatal(err)
			}
			decodedBind := bind
			decodedBind.Params = salient
			ask := rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Binding: decodedBind}
			retry := ask
			retry.Answered, retry.Answer = true, []rootsgate.Root{root}

			// Sealed decoded, opened as JSON.
			_, err = s.DecodedRootSet(ask)
			var ir *rootsgate.InputRequiredError
			if !errors.As(err, &ir) {
				t.Fatalf("first attempt: %v", err)
			}
			params := json.RawMessage(strings.TrimSuffix(string(testMeta.RetryParams(rev, root)), "}") + `,"requestState":` + quote(ir.RequestState) + `}`)
			if set, err := s.RootSet(ctx, params); err != nil {
				t.Errorf("a decoded state retried as JSON: %v", err)
			} else {
				set.Close()
			}

			// Sealed as JSON, opened decoded.
			_, err = s.RootSet(ctx, testMeta.Params(rev, gatepeer.Caps(rev), nil))
			if !errors.As(err, &ir) {
				t.Fatalf("first attempt as JSON: %v", err)
			}
			retry.RequestState = ir.RequestState
			if set, err := s.DecodedRootSet(retry); err != nil {
				t.Errorf("a JSON state retried decoded: %v", err)
			} else {
				set.Close()
			}

			// Not for another request.
			other := retry
			other.Binding.Params = []byte(`{"arguments":{"path":"/etc"},"name":"read_file"}`)
			if _, err := s.DecodedRootSet(other); !errors.Is(err, rootsgate.ErrStateWrongRequest) {
				t.Errorf("a state retried for other params: %v, want ErrStateWrongRequest", err)
			}
		})
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// DecodedRootSet refuses a request of every revision where roots/list is
// a request of its own, as that revision's Gate says (ErrWrongPath). The
// other refusals, and the answer's error, are the runtime's, tested in
// rootsrt.
func TestGateDecodedRootSetWrongPath(t *testing.T) {
	s := &rootsgate.Session{}
	for _, rev := range gateLegacy() {
		req := rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true}
		if set, err := s.DecodedRootSet(req); set != nil || !errors.Is(err, rootsgate.ErrWrongPath) {
			t.Errorf("%s: %v, %v; want ErrWrongPath", rev.Version, set, err)
		}
	}
}

// Requests that bring the same roots share one set, decoded or not: a
// directory swapped between them is not seen.
func TestGateDecodedListSetShared(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open directory cannot be renamed on Windows")
	}
	ctx := context.Background()
	for _, rev := range gateInputRevisions() {
		t.Run(rev.Version, func(t *testing.T) {
			dir, f := gatepeer.RootDir(t)
			root := rootsgate.Root{URI: fileURI(dir), Name: "r"}
			s := &rootsgate.Session{}
			read := func(set *rootsgate.RootSet, err error) string {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
				defer set.Close()
				data, err := set.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
			req := rootsgate.DecodedRequest{Version: rev.Version, Capabilities: true, Roots: true, Answered: true, Answer: []rootsgate.Root{root}}
			if got := read(s.DecodedRootSet(req)); got != "one" {
				t.Fatalf("first request: %q", got)
			}
			if err := os.Rename(dir, dir+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("two"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := read(s.DecodedRootSet(req)); got != "one" {
				t.Errorf("the same list again, decoded: %q, want the set built for it first", got)
			}
			if got := read(s.RootSet(ctx, testMeta.RetryParams(rev, root))); got != "one" {
				t.Errorf("the same list again, as JSON: %q, want the set built for it first", got)
			}
			renamed := req
			renamed.Answer = []rootsgate.Root{{URI: root.URI, Name: "another"}}
			if got := read(s.DecodedRootSet(renamed)); got != "two" {
				t.Errorf("a list that differs in a name: %q, want a set of its own", got)
			}
		})
	}
}

// gateInputRevisions are the revisions where roots travel in inputRequests.
func gateInputRevisions() []rootsgate.Revision {
	return slices.DeleteFunc(rootsgate.Revisions(), func(r rootsgate.Revision) bool { return !r.InputRequests })
}
