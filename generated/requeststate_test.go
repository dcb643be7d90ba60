package generated_test

//lint:file-ignore SA1019 StateSealer exists only in 2026-07-28, whose roots symbols are deprecated

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	roots "github.com/rootsgen/rootsgen/generated/roots20260728"
)

// The sealed requestState is the runtime's (tested in rootsrt);
// 2026-07-28's package adds the roots helpers on a sealer, tested here.
// The gate's Session with a sealer is tested in rootsrt (TestGateSessionSealedState).

// stateClock is a clock the tests move by hand.
type stateClock struct{ now time.Time }

func (c *stateClock) Now() time.Time { return c.now }

var (
	stateSecret1 = bytes.Repeat([]byte{1}, 32)
	stateT0      = time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	stateBind    = roots.StateBinding{Principal: "alice", Method: "tools/call", Params: []byte(`{"arguments":{"path":"/srv/a"},"name":"read_file"}`)}
)

// stateErrors are the sentinels, each of which a refused state matches
// alone.
var stateErrors = []error{roots.ErrStateMissing, roots.ErrStateTampered, roots.ErrStateUnknownKey, roots.ErrStateWrongAudience,
	roots.ErrStateNotYetValid, roots.ErrStateExpired, roots.ErrStateWrongPrincipal, roots.ErrStateWrongRequest}

// onlyIs fails unless err matches want and no other state sentinel.
func onlyIs(t *testing.T, what string, err, want error) {
	t.Helper()
	for _, e := range stateErrors {
		if errors.Is(err, e) != (e == want) {
			t.Errorf("%s: error %v; errors.Is(err, %q) = %v", what, err, e, errors.Is(err, e))
		}
	}
}

func newSealer(t testing.TB, clock *stateClock, current roots.StateKey, older ...roots.StateKey) *roots.StateSealer {
	t.Helper()
	s, err := roots.NewStateSealer(roots.StateSealerConfig{Current: current, Older: older, TTL: time.Minute, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The roots helpers on a sealer: the input_required result always
// carries a sealed requestState, and the retry's roots are read only
// once it opens; a nil sealer is the package functions, unsealed.
func TestStateRootsHelpers(t *testing.T) {
	clock := &stateClock{stateT0}
	s := newSealer(t, clock, roots.StateKey{ID: "k1", Secret: stateSecret1})
	retry := func(t *testing.T, state string) *roots.InputResponseRequestParams {
		t.Helper()
		var p roots.InputResponseRequestParams
		params := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},` +
			`"inputResponses":{"r":{"roots":[{"uri":"file:///a"},{"uri":"http://bad"}]}}`
		if state != "" {
			params += `,"requestState":` + string(mustMarshal(t, state))
		}
		if err := json.Unmarshal([]byte(params+"}"), &p); err != nil {
			t.Fatal(err)
		}
		return &p
	}
	for _, state := range []string{"", "call/7"} {
		res, err := s.AskForRoots("r", []byte(state), stateBind)
		if err != nil {
			t.Fatal(err)
		}
		if res.RequestState == "" || res.RequestState == state || res.ResultType != "input_required" || len(res.InputRequests) != 1 {
			t.Errorf("AskForRoots(%q) = %s; want a sealed requestState", state, mustMarshal(t, res))
		}
		got, opened, err := s.RootsFromInputResponses(retry(t, res.RequestState), "r", true, stateBind)
		if len(got) != 1 || got[0].URI != "file:///a" || string(opened) != state || err == nil || !strings.Contains(err.Error(), "roots[1]") {
			t.Errorf("RootsFromInputResponses = %v, %q, %v; want file:///a, %q and the bad root's error", got, opened, err, state)
		}
		got, opened, err = s.RootsFromInputResponses(retry(t, res.RequestState), "r", true, roots.StateBinding{Principal: "mallory"})
		if got != nil || opened != nil {
			t.Errorf("another principal got roots %v, state %q", got, opened)
		}
		onlyIs(t, "another principal", err, roots.ErrStateWrongPrincipal)
	}
	_, _, err := s.RootsFromInputResponses(retry(t, ""), "r", true, stateBind)
	onlyIs(t, "no requestState", err, roots.ErrStateMissing)
	if _, _, err := s.RootsFromInputResponses(nil, "r", true, stateBind); err == nil {
		t.Error("nil params: no error")
	}

	var plain *roots.StateSealer
	res, err := plain.AskForRoots("r", []byte("call/7"), stateBind)
	if err != nil || res.RequestState != "call/7" {
		t.Errorf("nil sealer: AskForRoots = %s, %v; want the state as it is", mustMarshal(t, res), err)
	}
	got, opened, err := plain.RootsFromInputResponses(retry(t, "anything"), "r", false, roots.StateBinding{})
	if got != nil || string(opened) != "anything" || err == nil || !strings.Contains(err.Error(), "roots[1]") {
		t.Errorf("nil sealer: RootsFromInputResponses = %v, %q, %v", got, opened, err)
	}
}
