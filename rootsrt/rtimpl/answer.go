package rtimpl

import (
	"context"
	"encoding/json"
	"errors"
)

// ListRootsCall is how a client answers roots/list: what it declared, and
// what its revision's types do.
type ListRootsCall[P, Res any] struct {
	// HasCapability and HasHandler: the client declared roots, and has a
	// handler to answer with.
	HasCapability, HasHandler bool
	// Decode reads and checks the request's params (raw is empty when it
	// has none).
	Decode func(raw json.RawMessage) (*P, error)
	// Handle is the client's handler.
	Handle func(ctx context.Context, params *P) (*Res, error)
	// Check checks the handler's result, which New makes when it is nil.
	Check func(*Res) error
	New   func() *Res
}

// Answer runs the client's handler for a roots/list with params raw, and
// checks its answer: it returns the result, or the error object to answer
// with. A handler's *RPCError is answered as it is; any other error, and
// a result that breaks the rules (the server would refuse it), as -32603
// without its text.
func (c *ListRootsCall[P, Res]) Answer(ctx context.Context, raw json.RawMessage) (*Res, *RPCError) {
	if !c.HasCapability {
		return nil, NotSupported("Client does not have roots capability")
	}
	if !c.HasHandler {
		return nil, NotSupported("Client has no roots handler")
	}
	if len(raw) > 0 {
		if err := CheckJSON(raw); err != nil {
			return nil, InvalidParams(err)
		}
	}
	params, err := c.Decode(raw)
	if err != nil {
		return nil, InvalidParams(err)
	}
	result, err := c.Handle(ctx, params)
	var rpcErr *RPCError
	switch {
	case errors.As(err, &rpcErr):
		return nil, rpcErr
	case err != nil:
		return nil, InternalError()
	case result == nil:
		result = c.New()
	}
	if err := c.Check(result); err != nil {
		// The handler's own roots break the rules: answering with them
		// would fail at the server.
		return nil, InternalError()
	}
	return result, nil
}

// NotifyListChanged sends a client's list_changed notification with send,
// "params": {}, when it declared listChanged, and reports whether it did.
func NotifyListChanged(ctx context.Context, declared bool, send func(ctx context.Context, params json.RawMessage) error) (bool, error) {
	if !declared {
		return false, nil
	}
	err := send(ctx, json.RawMessage("{}"))
	return err == nil, err
}

// NotSupported is the error the specification shows for a client without
// roots, with reason as its data's reason.
func NotSupported(reason string) *RPCError {
	return &RPCError{Code: CodeMethodNotFound, Message: "Roots not supported", Data: map[string]string{"reason": reason}}
}

// InternalError is the -32603 error, which says nothing of its cause.
func InternalError() *RPCError { return &RPCError{Code: CodeInternalError, Message: "Internal error"} }
