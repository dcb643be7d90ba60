package rtimpl

import (
	"errors"
	"fmt"
)

// The errors of asking a client for its roots, shared by every revision:
// errors.Is matches them whatever revision's package returned the error.
var (
	// ErrNoRootsCapability: the client did not declare roots; nothing was asked.
	ErrNoRootsCapability = errors.New("the client did not declare the roots capability")
	// ErrNoAnswer: the client did not answer roots/list in time.
	ErrNoAnswer = errors.New("roots/list: no answer from the client")
	// ErrTooManyPages: a paged answer did not end within the pages a Server reads.
	ErrTooManyPages = errors.New("roots/list: too many pages")
	// ErrMorePages: one page of several came where the whole list was wanted.
	ErrMorePages = errors.New("the client answered one page of its roots and has more")
)

// RPCError is a JSON-RPC error object. Handlers return one to answer with
// a specific error; any other error becomes -32603 without its text.
type RPCError struct {
	Code    int64  `json:"code"`           // the JSON-RPC error code, such as CodeMethodNotFound
	Message string `json:"message"`        // a short description of the error
	Data    any    `json:"data,omitempty"` // when not nil, sent as the error's data member
}

// Error returns the code and message.
func (e *RPCError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// JSON-RPC error codes the roots feature answers with.
const (
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// InvalidParams is the -32602 error for params that do not fit, with why
// as its data's reason.
func InvalidParams(why error) *RPCError {
	return &RPCError{Code: CodeInvalidParams, Message: "Invalid params", Data: map[string]string{"reason": why.Error()}}
}

// PanicError reports a panic in a function a caller gave.
type PanicError struct {
	What  string // the function that panicked
	Value any    // what it panicked with
}

func (e *PanicError) Error() string { return fmt.Sprintf("%s panicked: %v", e.What, e.Value) }

// Unwrap returns the panic's value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Guard calls f, turning a panic into a *PanicError naming what.
func Guard[T any](what string, f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{what, p} // v is still zero: f never returned
		}
	}()
	return f()
}
