package generated_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rootsgen/rootsgen/generated/rootsgate"
	"github.com/rootsgen/rootsgen/generator"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
	"github.com/rootsgen/rootsgen/schema"
)

// gateVersions are the revisions the gate serves: every embedded one
// (generate.go's -gate line; TestGeneratedFresh keeps the two in step).
var gateVersions = schema.Revisions()

// TestGateLookup: the kit's gate serves the revisions generate.go lists,
// each as the generator reads its schema. (Versions malformed and unknown
// are the runtime's, tested in rootsrt.)
func TestGateLookup(t *testing.T) {
	_, err := rootsgate.Lookup("2099-12-31")
	if !errors.Is(err, rootsgate.ErrUnknownVersion) || !strings.Contains(err.Error(), strings.Join(gateVersions, ", ")) {
		t.Errorf("Lookup(2099-12-31) = %v, want an unknown-version error listing the served ones", err)
	}
	// What the gate knows of each revision is what the generator reads from its schema.
	for _, v := range gateVersions {
		r, err := rootsgate.Lookup(v)
		if err != nil {
			t.Fatal(err)
		}
		m, err := generator.BuildModel(generator.Options{Revision: v})
		if err != nil {
			t.Fatal(err)
		}
		want := rootsgate.Revision{Version: v, DirectRequest: m.Features.DirectRequest, InputRequests: m.Features.InputRequests,
			ListChanged: m.Features.ListChangedNotification, Deprecated: m.Deprecation != nil}
		if r != want {
			t.Errorf("Lookup(%s) = %+v, want %+v", v, r, want)
		}
	}
}

func gateClient(listChanged bool) *rootsgate.Client {
	return &rootsgate.Client{
		ListChanged: listChanged,
		ListRoots: func(context.Context) ([]rootsgate.Root, error) {
			return []rootsgate.Root{{URI: "file:///a", Name: "A"}}, nil
		},
	}
}

// One handler answers every revision, by the path that revision uses.
func TestGateClient(t *testing.T) {
	ctx := context.Background()
	const want = `{"roots":[{"name":"A","uri":"file:///a"}]}`
	inputRequests := json.RawMessage(`{"r":{"method":"roots/list"},"e":{"method":"elicitation/create","params":{"message":"?"}}}`)
	for _, v := range gateVersions {
		r, _ := rootsgate.Lookup(v)
		t.Run(v, func(t *testing.T) {
			c := gateClient(true)
			out, err := c.HandleRequest(ctx, v, "roots/list", json.RawMessage(`{}`))
			if r.DirectRequest {
				if err != nil || string(out) != want {
					t.Errorf("HandleRequest = %s, %v; want %s", out, err, want)
				}
			} else if !errors.Is(err, rootsgate.ErrWrongPath) {
				t.Errorf("HandleRequest on %s: %v, want ErrWrongPath", v, err)
			}
			responses, others, err := c.AnswerInputRequests(ctx, v, inputRequests)
			if r.InputRequests {
				if err != nil || string(responses) != `{"r":`+want+`}` || !slices.Equal(others, []string{"e"}) {
					t.Errorf("AnswerInputRequests = %s, %v, %v", responses, others, err)
				}
			} else if !errors.Is(err, rootsgate.ErrWrongPath) {
				t.Errorf("AnswerInputRequests on %s: %v, want ErrWrongPath", v, err)
			}

			var sent []string
			send := func(_ context.Context, method string, params json.RawMessage) error {
				sent = append(sent, method+" "+string(params))
				return nil
			}
			ok, err := c.NotifyListChanged(ctx, v, send)
			if err != nil || ok != r.ListChanged || (r.ListChanged && !slices.Equal(sent, []string{"notifications/roots/list_changed {}"})) || (!r.ListChanged && sent != nil) {
				t.Errorf("NotifyListChanged = %t, %v, sent %q", ok, err, sent)
			}
			sent = nil
			if ok, _ := gateClient(false).NotifyListChanged(ctx, v, send); ok || sent != nil {
				t.Errorf("NotifyListChanged without listChanged declared sent %q", sent)
			}
		})
	}
	// No handler: refused with the specification's error.
	_, err := (&rootsgate.Client{}).HandleRequest(ctx, "2025-06-18", "roots/list", nil)
	var rpcErr *rootsgate.RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 || rpcErr.Message != "Roots not supported" {
		t.Errorf("no handler: %v", err)
	}
	if _, err := gateClient(true).HandleRequest(ctx, "2025-13-45", "roots/list", nil); err == nil || !strings.Contains(err.Error(), "not one this gate serves") {
		t.Errorf("unknown version: %v", err)
	}
}

func TestGateServer(t *testing.T) {
	for _, v := range gateVersions {
		r, _ := rootsgate.Lookup(v)
		t.Run(v, func(t *testing.T) {
			if _, err := rtimpl.AskForRoots(v, false, "roots", ""); err == nil || !strings.Contains(err.Error(), "did not declare the roots capability") {
				t.Errorf("asking a client without roots: %v", err)
			}
			ask, err := rtimpl.AskForRoots(v, true, "roots", "st")
			if err != nil {
				t.Fatal(err)
			}
			var answer json.RawMessage
			if r.DirectRequest {
				if ask.Method != "roots/list" || string(ask.Params) != "{}" || ask.InputRequired != nil {
					t.Errorf("AskForRoots = %+v", ask)
				}
				answer = json.RawMessage(`{"roots":[{"uri":"file:///x"},{"uri":"https://bad"}]}`)
			} else {
				const want = `{"inputRequests":{"roots":{"method":"roots/list","params":{}}},"requestState":"st","resultType":"input_required"}`
				if ask.Method != "" || string(ask.InputRequired) != want {
					t.Errorf("AskForRoots = %+v, want InputRequired %s", ask, want)
				}
				answer = json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},` +
					`"inputResponses":{"roots":{"roots":[{"uri":"file:///x"},{"uri":"https://bad"}]}},"requestState":"st"}`)
			}
			if roots, err := rootsgate.RootsFromAnswer(v, answer, "roots", false); err == nil || roots != nil || !strings.Contains(err.Error(), "roots[1].uri") {
				t.Errorf("strict: %v, %v; want an error naming roots[1].uri and no roots", roots, err)
			}
			roots, err := rootsgate.RootsFromAnswer(v, answer, "roots", true)
			if !reflect.DeepEqual(roots, []rootsgate.Root{{URI: "file:///x"}}) || err == nil || !strings.Contains(err.Error(), "roots[1]") {
				t.Errorf("lenient: %v, %v; want the valid root and an error naming roots[1]", roots, err)
			}
			if _, err := rootsgate.RootsFromAnswer(v, json.RawMessage("null"), "roots", true); err == nil {
				t.Error("a null answer was accepted")
			}
		})
	}
}
