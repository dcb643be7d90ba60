package generated_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// These tests run the gate's Session with a Sealer: the input_required
// result carries a sealed requestState, and the retry gets its roots only
// when that state opens for the StateBinding of the retry.

// gateSealed is a Session with a Sealer on the clock, on every revision
// where roots travel in inputRequests.
func gateSealed(t *testing.T, clock *stateClock, current rootsgate.StateKey) *rootsgate.Session {
	t.Helper()
	sealer, err := rootsgate.NewStateSealer(rootsgate.StateSealerConfig{Current: current, TTL: time.Minute, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return &rootsgate.Session{Sealer: sealer, RequestState: func(json.RawMessage) string { return "server-state" }}
}

// toolParams are the params of a tools/call of tool with args under rev,
// with the retry's inputResponses and requestState when responses is not
// nil.
func toolParams(rev rootsgate.Revision, tool, args string, responses json.RawMessage, state string) json.RawMessage {
	p := `{"name":"` + tool + `","arguments":` + args + `,"_meta":{"` + versionKey + `":"` + rev.Version + `","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}`
	if responses != nil {
		p += `,"inputResponses":` + string(responses)
	}
	if state != "" {
		s, _ := json.Marshal(state)
		p += `,"requestState":` + string(s)
	}
	return json.RawMessage(p + "}")
}

// gateFirst makes the first attempt of a read_file call and returns the
// client's answer to the inputRequests and the requestState to echo.
func gateFirst(t *testing.T, ctx context.Context, sess *rootsgate.Session, peer *gatePeer, rev rootsgate.Revision) (json.RawMessage, string) {
	t.Helper()
	_, err := sess.Roots(ctx, toolParams(rev, "read_file", `{"path":"/work/a/x"}`, nil, ""))
	var ir *rootsgate.InputRequiredError
	if !errors.As(err, &ir) {
		t.Fatalf("first attempt: %v, want an *InputRequiredError", err)
	}
	var res struct {
		InputRequests json.RawMessage `json:"inputRequests"`
		RequestState  string          `json:"requestState"`
	}
	if err := json.Unmarshal(ir.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.RequestState == "" || strings.Contains(res.RequestState, "server-state") {
		t.Fatalf("input_required result %s: want a sealed requestState", ir.Result)
	}
	responses, _, err := peer.client.AnswerInputRequests(ctx, rev.Version, res.InputRequests)
	if err != nil {
		t.Fatal(err)
	}
	return responses, res.RequestState
}

// gateInputRevisions are the revisions where roots travel in inputRequests.
func gateInputRevisions() []rootsgate.Revision {
	var out []rootsgate.Revision
	for _, rev := range rootsgate.Revisions() {
		if rev.InputRequests {
			out = append(out, rev)
		}
	}
	return out
}

// The round trip through the Session on each revision whose requests
// carry a requestState, read by the revision's decoder: the sealed state
// opens on the retry of the same call by the same principal, which gets
// its roots, and State gives back what RequestState returned. Every other
// retry is refused with the gate's error. (Expiry, rotation, audiences and
// clocks are the runtime's, tested in templates/rootsrt.)
func TestGateSessionSealedState(t *testing.T) {
	revs := gateInputRevisions()
	if len(revs) == 0 {
		t.Skip("no revision carries roots in inputRequests")
	}
	for _, rev := range revs {
		t.Run(rev.Version, func(t *testing.T) {
			clock := &stateClock{stateT0}
			key := rootsgate.StateKey{ID: "k1", Secret: stateSecret1}
			sess := gateSealed(t, clock, key)
			peer := newGatePeer(gateRootsA...)
			alice := rootsgate.StateBinding{Principal: "alice", Method: "tools/call"}
			ctx := rootsgate.WithStateBinding(context.Background(), alice)
			responses, state := gateFirst(t, ctx, sess, peer, rev)
			retry := toolParams(rev, "read_file", `{"path":"/work/a/x"}`, responses, state)

			roots, err := sess.Roots(ctx, retry)
			if err != nil || !reflect.DeepEqual(roots, gateRootsA) {
				t.Fatalf("retry: Roots = %+v, %v; want %+v", roots, err, gateRootsA)
			}
			if got, err := sess.State(ctx, retry); err != nil || string(got) != "server-state" {
				t.Errorf("State = %q, %v; want server-state", got, err)
			}
			set, err := sess.RootSet(ctx, retry)
			if err != nil || len(set.Roots()) != len(gateRootsA) {
				t.Errorf("RootSet: %v", err)
			} else {
				set.Close()
			}

			altered := []byte(state)
			altered[len(altered)-5] ^= 1 // in the tag
			other := rootsgate.WithStateBinding(context.Background(), rootsgate.StateBinding{Principal: "mallory", Method: "tools/call"})
			prompt := rootsgate.WithStateBinding(context.Background(), rootsgate.StateBinding{Principal: "alice", Method: "prompts/get"})
			own := rootsgate.WithStateBinding(context.Background(), rootsgate.StateBinding{Principal: "alice", Method: "tools/call", Params: []byte(`{"mine":true}`)})
			for _, c := range []struct {
				what   string
				ctx    context.Context
				params json.RawMessage
				want   error
			}{
				{"no requestState", ctx, toolParams(rev, "read_file", `{"path":"/work/a/x"}`, responses, ""), rootsgate.ErrStateMissing},
				{"altered", ctx, toolParams(rev, "read_file", `{"path":"/work/a/x"}`, responses, string(altered)), rootsgate.ErrStateTampered},
				{"forged", ctx, toolParams(rev, "read_file", `{"path":"/work/a/x"}`, responses, "server-state"), rootsgate.ErrStateTampered},
				{"another principal", other, retry, rootsgate.ErrStateWrongPrincipal},
				{"another tool", ctx, toolParams(rev, "write_file", `{"path":"/work/a/x"}`, responses, state), rootsgate.ErrStateWrongRequest},
				{"other arguments", ctx, toolParams(rev, "read_file", `{"path":"/etc/passwd"}`, responses, state), rootsgate.ErrStateWrongRequest},
				{"another method", prompt, retry, rootsgate.ErrStateWrongRequest},
				{"the caller's own params", own, retry, rootsgate.ErrStateWrongRequest},
				{"no binding", context.Background(), retry, rootsgate.ErrStateUnbound},
			} {
				roots, err := sess.Roots(c.ctx, c.params)
				if roots != nil || !errors.Is(err, c.want) || !strings.Contains(err.Error(), rev.Version) {
					t.Errorf("%s: Roots = %v, %v; want %v naming %s", c.what, roots, err, c.want, rev.Version)
				}
				if _, err := sess.State(c.ctx, c.params); !errors.Is(err, c.want) {
					t.Errorf("%s: State error %v, want %v", c.what, err, c.want)
				}
			}
			// A state the caller binds to its own params opens with them.
			responses2, state2 := gateFirst(t, own, sess, peer, rev)
			if roots, err := sess.Roots(own, toolParams(rev, "other_tool", `{}`, responses2, state2)); err != nil || len(roots) != len(gateRootsA) {
				t.Errorf("own params: Roots = %v, %v", roots, err)
			}
		})
	}
}
