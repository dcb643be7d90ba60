package rootsrt

import (
	"context"
	"encoding/json"
	"github.com/rootsgen/rootsgen/rootsrt/rtimpl"
)

// The client side: answering a server's roots/list. A kit whose SDK
// answers roots/list itself (go-sdk's client does) is written without
// this file, and its revisions' descriptors leave Client nil.

// Client is the client side: one handler, every revision.
type Client struct {
	// ListRoots lists the roots; nil means the client has none, and every
	// request for them is refused.
	ListRoots ListRootsFunc
	// ListChanged says whether the client declares roots.listChanged in
	// the revisions that have it.
	ListChanged bool
}

func (c *Client) revision(version string) (rtimpl.RevisionClient, error) {
	r, err := rtimpl.LookupPackage(version)
	if err != nil {
		return rtimpl.RevisionClient{}, err
	}
	return r.Client(c.ListRoots, c.ListChanged), nil
}

// HandleRequest answers a roots/list request from the server on a
// connection that negotiated version. It returns the result's JSON, or an
// *RPCError to answer with; a version without direct roots requests is an
// error wrapping ErrWrongPath.
func (c *Client) HandleRequest(ctx context.Context, version, method string, params json.RawMessage) (json.RawMessage, error) {
	rc, err := c.revision(version)
	if err != nil {
		return nil, err
	}
	if rc.HandleRequest == nil {
		return nil, rtimpl.WrongPath(version, "roots/list is not a request of its own here; use AnswerInputRequests")
	}
	out, rpcErr := rc.HandleRequest(ctx, method, params)
	if rpcErr != nil {
		return nil, rpcErr
	}
	return out, nil
}

// AnswerInputRequests answers the roots/list entries of an
// InputRequiredResult's inputRequests (JSON) on a version that carries them
// there. It returns the inputResponses entries as JSON, and the keys of the
// entries of other kinds, left for the caller.
func (c *Client) AnswerInputRequests(ctx context.Context, version string, inputRequests json.RawMessage) (json.RawMessage, []string, error) {
	rc, err := c.revision(version)
	if err != nil {
		return nil, nil, err
	}
	if rc.AnswerInputRequests == nil {
		return nil, nil, rtimpl.WrongPath(version, "roots/list does not travel in inputRequests here; use HandleRequest")
	}
	return rc.AnswerInputRequests(ctx, inputRequests)
}

// NotifyListChanged sends notifications/roots/list_changed with params {}
// when the version has it and the client declares listChanged; otherwise
// it sends nothing and returns false. It never sends on a revision
// without the notification.
func (c *Client) NotifyListChanged(ctx context.Context, version string, send func(ctx context.Context, method string, params json.RawMessage) error) (bool, error) {
	rc, err := c.revision(version)
	if err != nil || rc.NotifyListChanged == nil {
		return false, err
	}
	return rc.NotifyListChanged(ctx, send)
}
