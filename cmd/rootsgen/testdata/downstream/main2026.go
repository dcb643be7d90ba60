// The downstream test program for 2026-07-28: frames as a 2026-07-28 peer
// sends them on the wire (stdio, one JSON-RPC message per line).

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"example.com/app/mcproots"
)

// A server's answer to tools/call that asks for the client's roots first.
const response = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"roots":{"method":"roots/list"}},"requestState":"s1"}}`

func main() {
	ctx := context.Background()

	var frame struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(response), &frame); err != nil {
		log.Fatal(err)
	}
	var result mcproots.InputRequiredResult
	if err := json.Unmarshal(frame.Result, &result); err != nil {
		log.Fatal(err)
	}

	// Client side: the 2025 handler answers the roots entry.
	client := &mcproots.Client{Capability: &mcproots.RootsCapability{}, Handler: listRoots}
	responses, others, err := client.AnswerInputRequests(ctx, result.InputRequests)
	if err != nil {
		log.Fatal(err)
	}
	answers, err := json.Marshal(responses)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("others: %v\n", others)
	// The retried request carries the answers and the request state.
	retry := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search",`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}},`+
		`"inputResponses":%s,"requestState":%q}}`, answers, result.RequestState)
	fmt.Println(retry)

	// Server side: read the roots from the retried request.
	var retried struct {
		Params mcproots.InputResponseRequestParams `json:"params"`
	}
	if err := json.Unmarshal([]byte(retry), &retried); err != nil {
		log.Fatal(err)
	}
	if e := mcproots.RequireRoots(nil, &retried.Params.Meta); e != nil {
		log.Fatal(e.Error.Message)
	}
	roots, err := mcproots.RootsFromInputResponses(&retried.Params, "roots", false)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range roots {
		fmt.Printf("root %s %q\n", r.URI, r.Name)
	}
}
