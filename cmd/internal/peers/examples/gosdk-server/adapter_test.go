//lint:file-ignore SA1019 the Go SDK's roots API, which it deprecates, is the peer under test

package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/gosdkroots"
)

// rawServer serves read_file with an untyped tool handler, wrapped by
// gosdkroots.Handler, on an adapter configured by opts. A file that cannot
// be read is a tool error; the adapter's errors pass through Handler.
func rawServer(opts ...gosdkroots.Option) *mcp.Server {
	a := gosdkroots.New(opts...)
	server := mcp.NewServer(&mcp.Implementation{Name: "raw", Version: "v0"}, a.ServerOptions(nil))
	server.AddReceivingMiddleware(a.Middleware)
	server.AddTool(&mcp.Tool{Name: "read_file", InputSchema: map[string]any{"type": "object"}}, gosdkroots.Handler(func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in readFileArgs
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		set, err := a.RootSet(ctx, req)
		if err != nil {
			return nil, err
		}
		defer set.Close()
		res := &mcp.CallToolResult{}
		data, err := set.ReadFile(in.Path)
		if err != nil {
			res.SetError(err)
			return res, nil
		}
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(data)}}
		return res, nil
	}))
	return server
}

// By default the roots that break the rules are left out, reported, and
// the good ones kept; with Strict the whole list is refused.
func TestStrictAndLenient(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			tr, ctx := setup(t)
			roots := []*mcp.Root{{URI: adaptertest.FileURI(tr.Root)}}
			var mu sync.Mutex
			var reported []error
			lenient := connectTo(t, ctx, rawServer(gosdkroots.OnInvalidRoots(func(err error) {
				mu.Lock()
				reported = append(reported, err)
				mu.Unlock()
			})), newClient(nil), v.pin, roots...)
			lenient.client.AddRoots(&mcp.Root{URI: "file://otherhost/srv"})
			lenient.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")
			lenient.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")
			// A legacy session reports its cached roots once; on 2026-07-28
			// each call brings the roots anew.
			want := 1
			if v.pin == "" {
				want = 2
			}
			mu.Lock()
			if len(reported) != want || !strings.Contains(reported[0].Error(), "roots[1]") {
				t.Errorf("OnInvalidRoots got %v in two calls, want %d errors naming roots[1]", reported, want)
			}
			mu.Unlock()

			strict := connectTo(t, ctx, rawServer(gosdkroots.Strict()), newClient(nil), v.pin, roots...)
			strict.client.AddRoots(&mcp.Root{URI: "file://otherhost/srv"})
			if text, _, err := strict.read(ctx, filepath.Join(tr.Root, "in.txt")); err == nil || !strings.Contains(err.Error(), "roots[1]") {
				t.Errorf("strict: read_file = %q, %v; want the list refused, naming roots[1]", text, err)
			}
		})
	}
}

// A client that never answers roots/list costs a legacy call the
// adapter's Timeout, and the call fails with the gate's ErrNoAnswer.
func TestTimeout(t *testing.T) {
	tr, ctx := setup(t)
	release := make(chan struct{})
	client := newClient(nil)
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "roots/list" {
				<-release
			}
			return next(ctx, method, req)
		}
	})
	p := connectTo(t, ctx, rawServer(gosdkroots.Timeout(50*time.Millisecond)), client, "2025-06-18", &mcp.Root{URI: adaptertest.FileURI(tr.Root)})
	t.Cleanup(func() { close(release) }) // before the session closes
	if _, _, err := p.read(ctx, filepath.Join(tr.Root, "in.txt")); err == nil || !strings.Contains(err.Error(), gosdkroots.ErrNoAnswer.Error()) {
		t.Errorf("read_file: %v, want %v", err, gosdkroots.ErrNoAnswer)
	}
}

// With a Sealer, the requestState of the input_required result is sealed:
// the SDK client's round trip reads as before, and a retried call with an
// altered requestState is refused.
func TestSealer(t *testing.T) {
	tr, ctx := setup(t)
	sealer, err := gosdkroots.NewStateSealer(gosdkroots.StateSealerConfig{Current: gosdkroots.StateKey{ID: "k1", Secret: make([]byte, 32)}})
	if err != nil {
		t.Fatal(err)
	}
	server := rawServer(gosdkroots.Sealer(sealer))
	p := connectTo(t, ctx, server, newClient(nil), "", &mcp.Root{URI: adaptertest.FileURI(tr.Root)})
	p.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")

	manual := connectTo(t, ctx, server, newClient(&mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}}), "", &mcp.Root{URI: adaptertest.FileURI(tr.Root)})
	args := map[string]any{"path": filepath.Join(tr.Root, "in.txt")}
	first, err := manual.cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: args})
	if err != nil || !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("first call: %+v, %v; want input_required with a requestState", first, err)
	}
	key := ""
	for k := range first.InputRequests {
		key = k
	}
	answer := mcp.InputResponseMap{key: &mcp.ListRootsResult{Roots: []*mcp.Root{{URI: adaptertest.FileURI(tr.Root)}}}}
	retry := func(state string) (*mcp.CallToolResult, error) {
		return manual.cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_file", Arguments: args, InputResponses: answer, RequestState: state})
	}
	if res, err := retry(first.RequestState); err != nil || res.IsError || res.NeedsInput() {
		t.Errorf("retry with the sealed state: %+v, %v; want the file", res, err)
	}
	tampered := []byte(first.RequestState)
	tampered[len(tampered)/2] ^= 1
	if res, err := retry(string(tampered)); err == nil || !strings.Contains(err.Error(), gosdkroots.ErrStateTampered.Error()) && !errors.Is(err, gosdkroots.ErrStateTampered) {
		t.Errorf("retry with an altered state: %+v, %v; want refused", res, err)
	}
}

// RootSetOptions reach every set: with Bounds, a client's file:/// is
// narrowed to the directory the server allows.
func TestBounds(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			tr, ctx := setup(t)
			p := connectTo(t, ctx, rawServer(gosdkroots.RootSetOptions(gosdkroots.Bounds(tr.Root))), newClient(nil), v.pin, &mcp.Root{URI: "file:///"})
			p.mustRead(t, ctx, filepath.Join(tr.Root, "in.txt"), "inside")
			p.mustRefuseAs(t, ctx, filepath.Join(tr.Other, "new.txt"), "outside the directories the server allows")
			p.mustRefuseAs(t, ctx, filepath.Join(tr.Root, "link"), "outside the directories the server allows")
		})
	}
}

// A client root that is a link inside the server's directory, re-pointed
// out of it between two tool calls, does not move the set the adapter
// keeps for the list: the second call still reads the directory the first
// one opened, and nothing outside.
func TestBoundsRootRepointedBetweenCalls(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			tr, ctx := setup(t)
			proj := filepath.Join(tr.Dir, "proj")
			if err := os.Symlink(tr.Root, proj); err != nil {
				t.Fatal(err)
			}
			p := connectTo(t, ctx, rawServer(gosdkroots.RootSetOptions(gosdkroots.Bounds(tr.Dir))), newClient(nil), v.pin, &mcp.Root{URI: "file://" + proj})
			p.mustRead(t, ctx, filepath.Join(proj, "in.txt"), "inside")
			if err := os.Remove(proj); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tr.Outside, proj); err != nil {
				t.Fatal(err)
			}
			p.mustRead(t, ctx, filepath.Join(proj, "in.txt"), "inside")
			if text, isErr, err := p.read(ctx, filepath.Join(proj, "secret")); err != nil || !isErr || text == "secret" {
				t.Errorf("read_file proj/secret after the link moved out = %q (tool error %t, %v); want refused", text, isErr, err)
			}
		})
	}
}
