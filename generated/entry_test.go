package generated_test

//lint:file-ignore SA1019 the entry points of every revision are tested, 2026-07-28 included, whose roots symbols are deprecated

// Raw bytes reach the generated decoders from a transport at a few entry
// points; each must refuse malformed JSON as such, in one clear message,
// and never panic or mistake one member for another.

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generated/roots20250618"
	"github.com/rootsgen/rootsgen/generated/roots20251125"
	"github.com/rootsgen/rootsgen/generated/roots20260728"
)

// malformed are JSON texts an entry point must refuse as malformed. Each
// would otherwise be refused for a misleading reason (tru as "want a
// string, got a boolean") or decode member by member before the error.
var malformed = []string{
	`{"_meta":{"progressToken":tru}}`,
	`{"roots":[{"uri":"file:///a","name":tru}]}`,
	`{"roots":[{"uri":"file:///a","_meta":{"a":]}}]}`,
	`{"_meta":{"a":1,}}`,
	`{"a":"\z"}`,
	`{"_meta":{}}}`,
	`{"_meta":{}`,
	`{"roots":[]} {}`,
}

func wantMalformed(t *testing.T, what, in string, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "malformed JSON: ") {
		t.Errorf("%s(%s): %v; want a malformed JSON error", what, in, err)
	}
}

func TestEntryPointsRefuseMalformedJSON(t *testing.T) {
	ctx := context.Background()
	for _, in := range malformed {
		c18 := &roots20250618.Client{Capability: &roots20250618.RootsCapability{}, Handler: roots20250618.ListRootsHandlerFunc(
			func(context.Context, *roots20250618.ListRootsRequestParams) (*roots20250618.ListRootsResult, error) {
				t.Errorf("handler called for %s", in)
				return &roots20250618.ListRootsResult{}, nil
			})}
		_, rpcErr := c18.HandleRequest(ctx, "roots/list", json.RawMessage(in))
		if rpcErr == nil || rpcErr.Code != roots20250618.CodeInvalidParams {
			t.Errorf("HandleRequest(%s): %v; want -32602", in, rpcErr)
		} else {
			reason, _ := rpcErr.Data.(map[string]string)
			wantMalformed(t, "HandleRequest", in, errorString(reason["reason"]))
		}

		s := &roots20251125.Server{
			ClientRoots: &roots20251125.RootsCapability{},
			Request: func(context.Context, roots20251125.Method, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(in), nil
			},
		}
		_, err := s.Roots(ctx)
		wantMalformed(t, "Server.Roots", in, err)

		var resp roots20260728.InputResponse
		_ = resp.UnmarshalJSON([]byte(in)) // a direct call keeps the bytes as they are
		params := &roots20260728.InputResponseRequestParams{InputResponses: roots20260728.InputResponses{"k": resp}}
		_, err = roots20260728.RootsFromInputResponses(params, "k", true)
		wantMalformed(t, "RootsFromInputResponses", in, err)

		var req roots20260728.InputRequest
		_ = req.UnmarshalJSON([]byte(in))
		client := &roots20260728.Client{Capability: &roots20260728.RootsCapability{}, Handler: roots20260728.ListRootsHandlerFunc(
			func(context.Context, *roots20260728.ListRootsRequestParams) (*roots20260728.ListRootsResult, error) {
				return &roots20260728.ListRootsResult{}, nil
			})}
		_, _, err = client.AnswerInputRequests(ctx, roots20260728.InputRequests{"k": req})
		wantMalformed(t, "AnswerInputRequests", in, err)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

// TestAnswerInputRequestsMatchesMethodExactly: member names match exactly
// in every generated decoder, so an entry whose method member is spelled
// METHOD or Method is not a roots/list request but one of the others.
func TestAnswerInputRequestsMatchesMethodExactly(t *testing.T) {
	var reqs roots20260728.InputRequests
	in := `{"upper":{"METHOD":"roots/list"},"title":{"Method":"roots/list","params":{}},` +
		`"twice":{"method":"roots/list","method":"sampling/createMessage"},` +
		`"r":{"method":"roots/list"},"s":"text"}`
	if err := json.Unmarshal([]byte(in), &reqs); err != nil {
		t.Fatal(err)
	}
	client := &roots20260728.Client{Capability: &roots20260728.RootsCapability{}, Handler: roots20260728.ListRootsHandlerFunc(
		func(context.Context, *roots20260728.ListRootsRequestParams) (*roots20260728.ListRootsResult, error) {
			return &roots20260728.ListRootsResult{Roots: []roots20260728.Root{{URI: "file:///a"}}}, nil
		})}
	responses, others, err := client.AnswerInputRequests(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"s", "title", "twice", "upper"}; !slices.Equal(others, want) {
		t.Errorf("others = %q, want %q", others, want)
	}
	if _, ok := responses["r"]; len(responses) != 1 || !ok {
		t.Errorf("responses = %v, want one, for r", responses)
	}
}

func TestRootsFromInputResponsesNilParams(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		roots, err := roots20260728.RootsFromInputResponses(nil, "roots", lenient)
		if err == nil || roots != nil || !strings.Contains(err.Error(), "no params") {
			t.Errorf("RootsFromInputResponses(nil, lenient %v) = %v, %v; want an error saying there are no params", lenient, roots, err)
		}
	}
}
