package rootsrt_test

// Three made-up revisions for the gate: what the gate needs of a
// revision's package (a RevisionPackage), written with encoding/json and
// the runtime's Asker, so that the gate's own behaviour (versions, paths,
// the Session's caches, sealing) is tested without a generated package.
// The kit's real revisions are tested in generated/.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rootsgen/rootsgen/rootsrt"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

const (
	// legacyVersion: roots/list is a request of its own, and the client
	// can say its roots changed.
	legacyVersion = "2000-01-01"
	// quietVersion: roots/list is a request of its own; no list_changed.
	quietVersion = "2000-06-01"
	// inputVersion: roots/list travels in inputRequests, and each request
	// names its version and declares the client's capabilities in _meta.
	inputVersion = "2001-01-01"

	testVersionKey    = "test/protocolVersion"
	testCapsKey       = "test/clientCapabilities"
	listChangedMethod = "notifications/roots/list_changed"
)

var (
	legacyRev = legacyRevision(legacyVersion, true, false)
	quietRev  = legacyRevision(quietVersion, false, true)
	inputRev  = inputRevision()
)

func init() { rtimpl.RegisterRevisions(legacyRev, quietRev, inputRev) }

// checkGateRoot is every made-up revision's check of a root.
func checkGateRoot(r *rootsrt.Root, v *rtimpl.Validator, at *rtimpl.Path) {
	if msg := rtimpl.CheckURI(r.URI, "file"); msg != "" {
		v.Add(at.Member("uri"), msg)
	}
}

// decodeGateRoots reads {"roots":[...], "nextCursor": ...}: the valid
// roots, the others' problems and the next page's cursor, or why it is
// not such a result.
func decodeGateRoots(raw json.RawMessage) (valid []rootsrt.Root, invalid error, next string, err error) {
	var res struct {
		Roots      *[]rootsrt.Root `json:"roots"`
		NextCursor string          `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, nil, "", err
	}
	if res.Roots == nil {
		return nil, nil, "", errors.New("ListRootsResult: roots: required")
	}
	valid, invalid = rtimpl.ValidElements("ListRootsResult", "roots", *res.Roots, checkGateRoot)
	return valid, invalid, res.NextCursor, nil
}

// rootsAnswer is the result that lists roots.
func rootsAnswer(roots []rootsrt.Root) (json.RawMessage, error) {
	if roots == nil {
		roots = []rootsrt.Root{}
	}
	return json.Marshal(map[string]any{"roots": roots})
}

func legacyRevision(version string, listChanged, deprecated bool) *rtimpl.RevisionPackage {
	return &rtimpl.RevisionPackage{
		Revision:  rootsrt.Revision{Version: version, DirectRequest: true, ListChanged: listChanged, Deprecated: deprecated},
		CheckRoot: checkGateRoot,
		Client: func(list rootsrt.ListRootsFunc, declareListChanged bool) rtimpl.RevisionClient {
			rc := rtimpl.RevisionClient{
				HandleRequest: func(ctx context.Context, method string, _ json.RawMessage) (json.RawMessage, *rootsrt.RPCError) {
					if method != "roots/list" {
						return nil, &rootsrt.RPCError{Code: rootsrt.CodeMethodNotFound, Message: "Method not found"}
					}
					if list == nil {
						return nil, rtimpl.NotSupported("Client does not have roots capability")
					}
					roots, err := list(ctx)
					if err != nil {
						return nil, rtimpl.InternalError()
					}
					out, err := rootsAnswer(roots)
					if err != nil {
						return nil, rtimpl.InternalError()
					}
					return out, nil
				},
			}
			if listChanged {
				rc.NotifyListChanged = func(ctx context.Context, send func(context.Context, string, json.RawMessage) error) (bool, error) {
					if list == nil || !declareListChanged {
						return false, nil
					}
					return true, send(ctx, listChangedMethod, json.RawMessage("{}"))
				}
			}
			return rc
		},
		Capabilities: func(raw json.RawMessage) (bool, bool, error) {
			var caps struct {
				Roots *struct {
					ListChanged bool `json:"listChanged"`
				} `json:"roots"`
			}
			if err := json.Unmarshal(raw, &caps); err != nil {
				return false, false, err
			}
			return caps.Roots != nil, caps.Roots != nil && caps.Roots.ListChanged && listChanged, nil
		},
		ListRootsMethod: "roots/list",
		ListRootsParams: func(string) (json.RawMessage, error) { return json.RawMessage("{}"), nil },
		DecodeListRoots: func(raw json.RawMessage, lenient bool) ([]rootsrt.Root, error, string, error) {
			valid, invalid, next, err := decodeGateRoots(raw)
			if err == nil && invalid != nil && !lenient {
				err = invalid
			}
			if err != nil {
				return nil, nil, "", err
			}
			return valid, invalid, next, nil
		},
		ListChangedMethod: listChangedIf(listChanged),
		CheckListChanged:  func(json.RawMessage) error { return nil },
	}
}

// listChangedIf is the list_changed method of a revision that has it.
func listChangedIf(has bool) string {
	if has {
		return listChangedMethod
	}
	return ""
}

// missingRoots is the made-up -32021 error for a request without roots.
func missingRoots() *rootsrt.RPCError {
	return &rootsrt.RPCError{Code: -32021, Message: "roots required", Data: map[string]any{"requiredCapabilities": map[string]any{"roots": map[string]any{}}}}
}

func inputRevision() *rtimpl.RevisionPackage {
	return &rtimpl.RevisionPackage{
		Revision:   rootsrt.Revision{Version: inputVersion, InputRequests: true, Deprecated: true},
		VersionKey: testVersionKey,
		CheckRoot:  checkGateRoot,
		Client: func(list rootsrt.ListRootsFunc, _ bool) rtimpl.RevisionClient {
			return rtimpl.RevisionClient{AnswerInputRequests: func(ctx context.Context, inputRequests json.RawMessage) (json.RawMessage, []string, error) {
				var requests map[string]json.RawMessage
				if err := json.Unmarshal(inputRequests, &requests); err != nil {
					return nil, nil, err
				}
				responses := map[string]json.RawMessage{}
				var others []string
				for key, req := range requests {
					if rtimpl.InputRequestMethod(req) != "roots/list" || list == nil {
						others = append(others, key)
						continue
					}
					roots, err := list(ctx)
					if err != nil {
						return nil, nil, err
					}
					if responses[key], err = rootsAnswer(roots); err != nil {
						return nil, nil, err
					}
				}
				slices.Sort(others)
				out, err := json.Marshal(responses)
				return out, others, err
			}}
		},
		MissingRoots: missingRoots,
		AskForRoots: func(key, requestState string) (json.RawMessage, error) {
			k, err := json.Marshal(key)
			if err != nil {
				return nil, err
			}
			out := `{"inputRequests":{` + string(k) + `:{"method":"roots/list","params":{}}}`
			if requestState != "" {
				s, _ := json.Marshal(requestState)
				out += `,"requestState":` + string(s)
			}
			return json.RawMessage(out + `,"resultType":"input_required"}`), nil
		},
		DecodeRequest: decodeStandAlone,
	}
}

// decodeStandAlone reads the params of a request of inputVersion.
func decodeStandAlone(params json.RawMessage) (rtimpl.StandAlone, error) {
	malformed := func(why string, args ...any) (rtimpl.StandAlone, error) {
		return rtimpl.StandAlone{}, rtimpl.Malformed(inputVersion, fmt.Errorf("request params: "+why, args...))
	}
	var p struct {
		Meta           map[string]json.RawMessage `json:"_meta"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   string                     `json:"requestState"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return malformed("%v", err)
	}
	var caps map[string]json.RawMessage
	raw, ok := p.Meta[testCapsKey]
	if !ok || strings.TrimSpace(string(raw)) == "null" {
		return malformed("_meta: %s: required", testCapsKey)
	}
	if err := json.Unmarshal(raw, &caps); err != nil {
		return malformed("_meta: %s: want an object", testCapsKey)
	}
	req := rtimpl.StandAlone{
		Answered: func(key string) bool {
			_, ok := p.InputResponses[key]
			return ok
		},
		RequestState: p.RequestState,
		Roots: func(key string, _ bool) ([]rootsrt.Root, error, error) {
			raw, err := rtimpl.InputResponse(p.InputResponses[key], p.InputResponses[key] != nil, key)
			if err != nil {
				return nil, nil, err
			}
			valid, invalid, _, err := decodeGateRoots(raw)
			return valid, invalid, err
		},
	}
	if _, ok := caps["roots"]; !ok {
		req.Missing = missingRoots()
	}
	return req, nil
}
