package generated_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	roots "github.com/rootsgen/rootsgen/generated/roots20250618"
	"github.com/rootsgen/rootsgen/testdata/gotest/payload"
)

// The benchmarks run the same payloads through the generated package and
// through the official Go SDK's types, side by side; compare them with
// benchstat (see ../README.md).

var benchSizes = []int{1, 100, 10000}

// BenchmarkDecodeListRootsResult decodes a ListRootsResult and, for the
// generated type, validates every root; the SDK's type has no validation.
func BenchmarkDecodeListRootsResult(b *testing.B) {
	for _, n := range benchSizes {
		data := payload.Roots(n)
		b.Run(fmt.Sprintf("rootsgen/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var r roots.ListRootsResult
				if err := json.Unmarshal(data, &r); err != nil {
					b.Fatal(err)
				}
				if err := r.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The generated UnmarshalJSON called directly skips encoding/json's
		// two passes over the input (validation, then finding the value's
		// end), as the generated Server does with what it receives.
		b.Run(fmt.Sprintf("rootsgen-direct/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var r roots.ListRootsResult
				if err := r.UnmarshalJSON(data); err != nil {
					b.Fatal(err)
				}
				if err := r.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("gosdk/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				//lint:ignore SA1019 compared with the Go SDK's roots types, which it deprecates
				var r mcp.ListRootsResult
				if err := json.Unmarshal(data, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDispatchListRoots answers a roots/list request: the generated
// client's HandleRequest (params decoding, capability check, handler,
// validation, marshalling) against marshalling the SDK's result type, which
// is what the SDK's client does around its own roots.
func BenchmarkDispatchListRoots(b *testing.B) {
	for _, n := range benchSizes {
		var ours roots.ListRootsResult
		//lint:ignore SA1019 compared with the Go SDK's roots types, which it deprecates
		var theirs mcp.ListRootsResult
		if err := json.Unmarshal(payload.Roots(n), &ours); err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal(payload.Roots(n), &theirs); err != nil {
			b.Fatal(err)
		}
		client := &roots.Client{
			Capability: &roots.RootsCapability{ListChanged: true},
			Handler: roots.ListRootsHandlerFunc(func(context.Context, *roots.ListRootsRequestParams) (*roots.ListRootsResult, error) {
				return &ours, nil
			}),
		}
		params := json.RawMessage(`{}`)
		ctx := context.Background()
		b.Run(fmt.Sprintf("rootsgen/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, rpcErr := client.HandleRequest(ctx, "roots/list", params); rpcErr != nil {
					b.Fatal(rpcErr)
				}
			}
		})
		b.Run(fmt.Sprintf("gosdk/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				//lint:ignore SA1019 compared with the Go SDK's roots types, which it deprecates
				var p mcp.ListRootsParams
				if err := json.Unmarshal(params, &p); err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(&theirs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
