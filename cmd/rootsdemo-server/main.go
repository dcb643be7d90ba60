//lint:file-ignore SA1019 the demo serves 2026-07-28, which deprecates roots, beside the older revisions

// Command rootsdemo-server is a small MCP server, over stdio, whose one
// tool, list_roots, returns the client's roots. It shows the generated
// packages at work on a real wire: on the 2024-11-05 ... 2025-11-25
// revisions it asks with roots/list through the generated Server, which
// keeps the answer of a client that declared listChanged until
// notifications/roots/list_changed and asks any other client on every
// call; on 2026-07-28 it asks through an input_required result.
//
//	rootsdemo-server [-transcript FILE] [-timeout 30s] [-strict]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	r20241105 "github.com/rootsgen/rootsgen/generated/roots20241105"
	r20250326 "github.com/rootsgen/rootsgen/generated/roots20250326"
	r20250618 "github.com/rootsgen/rootsgen/generated/roots20250618"
	r20251125 "github.com/rootsgen/rootsgen/generated/roots20251125"
	r20260728 "github.com/rootsgen/rootsgen/generated/roots20260728"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

func main() {
	var o options
	transcript := flag.String("transcript", "", "append every frame to `FILE`")
	flag.DurationVar(&o.Timeout, "timeout", 30*time.Second, "how long to wait for the client's roots/list answer")
	flag.BoolVar(&o.Strict, "strict", false, "refuse a roots answer with an invalid root instead of keeping the valid ones")
	flag.Parse()
	o.Log = log.New(os.Stderr, "rootsdemo-server: ", 0)
	if *transcript != "" {
		f, err := os.OpenFile(*transcript, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			o.Log.Fatal(err)
		}
		defer f.Close()
		o.Transcript = f
	}
	if err := serve(context.Background(), os.Stdin, os.Stdout, o); err != nil {
		o.Log.Fatal(err)
	}
}

type options struct {
	Timeout    time.Duration
	Strict     bool
	Log        *log.Logger
	Transcript io.Writer
	MaxLine    int // bytes of one incoming message; 0 means ndjson.DefaultMaxLine
}

// root is a root as the list_roots tool reports it.
type root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// server is one connection. A legacy session fixes its revision at
// initialize; on 2026-07-28 every request says its own.
type server struct {
	o      options
	conn   *ndjson.Conn
	states atomic.Int64

	mu    sync.Mutex
	roots *legacyRoots // nil until initialize
}

// serve runs one connection until r ends.
func serve(ctx context.Context, r io.Reader, w io.Writer, o options) error {
	s := &server{o: o, conn: ndjson.New(r, w)}
	s.conn.Handle, s.conn.Notified = s.handle, s.notified
	s.conn.Transcript, s.conn.MaxLine = o.Transcript, o.MaxLine
	return s.conn.Run(ctx)
}

var tools = map[string]any{"tools": []any{map[string]any{
	"name":        "list_roots",
	"description": "Lists the roots the client shares with this server.",
	"inputSchema": map[string]any{"type": "object"},
}}}

func (s *server) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	var probe struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(params, &probe)
	if v := probe.Meta.Version; v != "" {
		if rev, err := rootsgate.Lookup(v); err != nil || !rev.InputRequests {
			return nil, &ndjson.Error{Code: -32602, Message: fmt.Sprintf("unsupported protocol version %q", v)}
		}
		return s.handleStateless(method, params, probe.Name)
	}
	switch method {
	case "initialize":
		return s.initialize(params)
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		return tools, nil
	case "tools/call":
		s.mu.Lock()
		roots := s.roots
		s.mu.Unlock()
		if probe.Name != "list_roots" || roots == nil {
			return nil, &ndjson.Error{Code: -32602, Message: "unknown tool " + strconv.Quote(probe.Name)}
		}
		list, err := roots.list(ctx)
		return toolResult(list, err, false), nil
	}
	return nil, &ndjson.Error{Code: -32601, Message: "Method not found"}
}

func (s *server) initialize(params json.RawMessage) (any, error) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &ndjson.Error{Code: -32602, Message: "Invalid params"}
	}
	version := p.ProtocolVersion
	if rev, err := rootsgate.Lookup(version); err != nil || !rev.DirectRequest {
		version = r20251125.ProtocolVersion // the latest revision with initialize
	}
	roots, err := s.newLegacyRoots(version, p.Capabilities)
	if err != nil {
		return nil, &ndjson.Error{Code: -32602, Message: "Invalid params: " + err.Error()}
	}
	s.mu.Lock()
	s.roots = roots
	s.mu.Unlock()
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{"tools": struct{}{}},
		"serverInfo":      map[string]string{"name": "rootsdemo-server", "version": "0.1.0"},
	}, nil
}

func (s *server) notified(ctx context.Context, method string, params json.RawMessage) {
	s.mu.Lock()
	roots := s.roots
	s.mu.Unlock()
	if roots == nil {
		s.o.Log.Printf("%s before initialize: ignored", method)
		return
	}
	if err := roots.notify(ctx, method, params); err != nil {
		s.o.Log.Printf("%s: %v", method, err)
	}
}

// handleStateless serves a 2026-07-28 request: capabilities ride in its
// _meta, and roots/list travels in an input_required result.
func (s *server) handleStateless(method string, params json.RawMessage, tool string) (any, error) {
	switch method {
	case "server/discover":
		versions := make([]string, len(rootsgate.Revisions))
		for i, r := range rootsgate.Revisions {
			versions[i] = r.Version
		}
		return map[string]any{
			"resultType":        "complete",
			"supportedVersions": versions,
			"capabilities":      map[string]any{"tools": struct{}{}},
			"ttlMs":             0,
			"cacheScope":        "public",
			"_meta":             map[string]any{"io.modelcontextprotocol/serverInfo": map[string]string{"name": "rootsdemo-server", "version": "0.1.0"}},
		}, nil
	case "ping":
		return map[string]string{"resultType": "complete"}, nil
	case "tools/list":
		// 2026-07-28 requires the cache hints on tools/list, as on
		// server/discover; the TypeScript client rejects a result without them.
		return map[string]any{"resultType": "complete", "tools": tools["tools"], "ttlMs": 0, "cacheScope": "public"}, nil
	case "tools/call":
	default:
		return nil, &ndjson.Error{Code: -32601, Message: "Method not found"}
	}
	var p r20260728.InputResponseRequestParams
	if err := p.UnmarshalJSON(params); err != nil {
		return nil, &ndjson.Error{Code: -32602, Message: "Invalid params: " + err.Error()}
	}
	if tool != "list_roots" {
		return nil, &ndjson.Error{Code: -32602, Message: "unknown tool " + strconv.Quote(tool)}
	}
	if missing := r20260728.RequireRoots(nil, &p.Meta); missing != nil {
		// The generated error object carries its code (-32021) and data.
		raw, err := json.Marshal(missing.Error)
		var e ndjson.Error
		if err == nil {
			err = json.Unmarshal(raw, &e)
		}
		return nil, errors.Join(err, &e)
	}
	if _, answered := p.InputResponses["roots"]; !answered {
		return r20260728.AskForRoots("roots", "list_roots/"+strconv.FormatInt(s.states.Add(1), 10))
	}
	list, err := r20260728.RootsFromInputResponses(&p, "roots", !s.o.Strict)
	if err != nil && !s.o.Strict {
		s.report(err)
		err = nil
	}
	return toolResult(convert(list, func(r r20260728.Root) root { return root{r.URI, r.Name} }), err, true), nil
}

// toolResult is list_roots' answer: the roots as text and as structured
// content, or the error as a tool error.
func toolResult(roots []root, err error, stateless bool) map[string]any {
	var out map[string]any
	if err != nil {
		out = map[string]any{"content": []any{map[string]string{"type": "text", "text": err.Error()}}, "isError": true}
	} else {
		if roots == nil {
			roots = []root{}
		}
		structured := map[string]any{"roots": roots}
		text, _ := json.Marshal(structured)
		out = map[string]any{"content": []any{map[string]string{"type": "text", "text": string(text)}}, "structuredContent": structured}
	}
	if stateless {
		out["resultType"] = "complete"
	}
	return out
}

func (s *server) report(err error) {
	s.o.Log.Printf("roots/list: kept the valid roots; %v", err)
}

// legacyRoots is what the demo uses of a revision's generated Server: the
// cached roots, and the notification that drops them.
type legacyRoots struct {
	list   func(context.Context) ([]root, error)
	notify func(ctx context.Context, method string, params json.RawMessage) error
}

// newLegacyRoots sets up the generated Server of the negotiated revision,
// from the capabilities the client declared at initialize.
func (s *server) newLegacyRoots(version string, caps json.RawMessage) (*legacyRoots, error) {
	if len(caps) == 0 || string(caps) == "null" {
		caps = json.RawMessage("{}")
	}
	var err error
	switch version {
	case r20241105.ProtocolVersion:
		var c r20241105.ClientCapabilities
		err = c.UnmarshalJSON(caps)
		srv := &r20241105.Server{ClientRoots: c.Roots, Request: ask[r20241105.Method](s.conn), Timeout: s.o.Timeout, Lenient: !s.o.Strict, OnInvalidRoots: s.report}
		return wrap(srv.Roots, srv.HandleNotification, func(r r20241105.Root) root { return root{r.URI, r.Name} }), err
	case r20250326.ProtocolVersion:
		var c r20250326.ClientCapabilities
		err = c.UnmarshalJSON(caps)
		srv := &r20250326.Server{ClientRoots: c.Roots, Request: ask[r20250326.Method](s.conn), Timeout: s.o.Timeout, Lenient: !s.o.Strict, OnInvalidRoots: s.report}
		return wrap(srv.Roots, srv.HandleNotification, func(r r20250326.Root) root { return root{r.URI, r.Name} }), err
	case r20250618.ProtocolVersion:
		var c r20250618.ClientCapabilities
		err = c.UnmarshalJSON(caps)
		srv := &r20250618.Server{ClientRoots: c.Roots, Request: ask[r20250618.Method](s.conn), Timeout: s.o.Timeout, Lenient: !s.o.Strict, OnInvalidRoots: s.report}
		return wrap(srv.Roots, srv.HandleNotification, func(r r20250618.Root) root { return root{r.URI, r.Name} }), err
	case r20251125.ProtocolVersion:
		var c r20251125.ClientCapabilities
		err = c.UnmarshalJSON(caps)
		srv := &r20251125.Server{ClientRoots: c.Roots, Request: ask[r20251125.Method](s.conn), Timeout: s.o.Timeout, Lenient: !s.o.Strict, OnInvalidRoots: s.report}
		return wrap(srv.Roots, srv.HandleNotification, func(r r20251125.Root) root { return root{r.URI, r.Name} }), err
	}
	return nil, fmt.Errorf("no legacy revision %s", version)
}

func wrap[R any](list func(context.Context) ([]R, error), notify func(context.Context, string, json.RawMessage) error, conv func(R) root) *legacyRoots {
	return &legacyRoots{func(ctx context.Context) ([]root, error) {
		roots, err := list(ctx)
		return convert(roots, conv), err
	}, notify}
}

// ask sends the generated Server's roots/list on the connection.
func ask[M ~string](c *ndjson.Conn) func(context.Context, M, json.RawMessage) (json.RawMessage, error) {
	return func(ctx context.Context, m M, params json.RawMessage) (json.RawMessage, error) {
		return c.Call(ctx, string(m), params)
	}
}

func convert[R any](in []R, conv func(R) root) []root {
	out := make([]root, len(in))
	for i, r := range in {
		out[i] = conv(r)
	}
	return out
}
