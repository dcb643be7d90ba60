// The downstream test program for 2025-06-18: frames as a 2025-era peer
// sends them on the wire (stdio, one JSON-RPC message per line).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"example.com/app/mcproots"
)

// A server's answer to roots/list, captured from a client.
const response = `{"jsonrpc":"2.0","id":0,"result":{"roots":[{"uri":"file:///home/me/repo","name":"repo"},{"uri":"https://example.com/not-a-file"}]}}`

// A server's roots/list request, with the params some peers add.
const request = `{"method":"roots/list","jsonrpc":"2.0","id":0,"params":{"_meta":{"progressToken":2}}}`

func main() {
	ctx := context.Background()

	// Server side: decode the answer, keep the valid roots.
	var frame struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(response), &frame); err != nil {
		log.Fatal(err)
	}
	var result mcproots.ListRootsResult
	if err := json.Unmarshal(frame.Result, &result); err != nil {
		log.Fatal(err)
	}
	valid, err := result.ValidRoots()
	for _, r := range valid {
		fmt.Printf("root %s %q\n", r.URI, r.Name)
	}
	fmt.Printf("invalid: %v\n", err)

	// Client side: answer the request.
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal([]byte(request), &req); err != nil {
		log.Fatal(err)
	}
	client := &mcproots.Client{Capability: &mcproots.RootsCapability{ListChanged: true}, Handler: listRoots}
	answer, rpcErr := client.HandleRequest(ctx, req.Method, req.Params)
	if rpcErr != nil {
		log.Fatal(rpcErr)
	}
	fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, answer)

	// Both sides in one process: the server asks the client directly,
	// and drops its cached roots when the client says they changed.
	server := &mcproots.Server{
		ClientRoots: client.Capability,
		Request: func(ctx context.Context, method mcproots.Method, params json.RawMessage) (json.RawMessage, error) {
			answer, rpcErr := client.HandleRequest(ctx, string(method), params)
			if rpcErr != nil {
				return nil, rpcErr
			}
			return answer, nil
		},
		OnListChanged: mcproots.ListChangedHandlerFunc(func(ctx context.Context, params *mcproots.RootsListChangedNotificationParams) error {
			fmt.Println("server: the client's roots changed")
			return nil
		}),
	}
	roots, err := server.Roots(ctx)
	fmt.Printf("server: %d roots, %v\n", len(roots), err)
	var send mcproots.SendFunc = func(ctx context.Context, method mcproots.Method, params json.RawMessage) error {
		if method != mcproots.MethodRootsListChanged {
			return fmt.Errorf("unexpected %s", method)
		}
		fmt.Printf(`{"jsonrpc":"2.0","method":%q,"params":%s}`+"\n", method, params)
		return server.HandleNotification(ctx, string(method), params)
	}
	sent, err := client.NotifyListChanged(ctx, send)
	fmt.Println("notified:", sent, err)
}
