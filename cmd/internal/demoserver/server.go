// Package demoserver is rootsdemo-server: its main.go calls Main, and tests in this
// module and in the test module cmd/internal/peers drive it in process.
package demoserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/demorev"
	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// Main is rootsdemo-server's main: it reads the command line and runs.
func Main() {
	var o options
	transcript := flag.String("transcript", "", "append every frame to `FILE`")
	flag.DurationVar(&o.Timeout, "timeout", 30*time.Second, "how long to wait for the client's roots/list answer")
	flag.DurationVar(&o.MaxAge, "max-age", 0, "reuse a roots/list answer this long (0: until list_changed, or never for a client without listChanged)")
	flag.BoolVar(&o.Strict, "strict", false, "refuse a roots answer with an invalid root instead of keeping the valid ones")
	flag.Func("allow", "let read_file read only inside `DIR` (repeatable), as well as inside the client's roots; -http needs it", func(dir string) error {
		o.Allow = append(o.Allow, dir)
		return nil
	})
	addr := flag.String("http", "", "serve MCP's Streamable HTTP transport at http://`ADDR`/mcp instead of stdio")
	flag.Int64Var(&o.MaxBody, "max-body", DefaultMaxBody, "with -http: the largest request body, in bytes")
	flag.IntVar(&o.MaxSessions, "max-sessions", DefaultMaxSessions, "with -http: how many 2025-era sessions may be open at once")
	flag.DurationVar(&o.SessionIdle, "session-idle", DefaultSessionIdle, "with -http: end a 2025-era session after this long without a request")
	flag.IntVar(&o.MaxConns, "max-conns", DefaultMaxConns, "with -http: how many connections may be open at once; more wait until one closes")
	allowAll := flag.Bool("unsafe-allow-all", false, "with -http and no -allow: let read_file read any file this user can read inside the roots a client sends (file:/// covers all), for any process that can reach ADDR")
	flag.Parse()
	if msg := checkAllow(*addr, o.Allow, *allowAll); msg != "" {
		fmt.Fprintln(os.Stderr, "rootsdemo-server: "+msg)
		os.Exit(2)
	}
	o.Log = log.New(os.Stderr, "rootsdemo-server: ", 0)
	if *addr != "" && *allowAll {
		o.Log.Print("-unsafe-allow-all: read_file reads any file this user can read inside the roots a client sends, file:/// included")
	}
	if *transcript != "" {
		f, err := os.OpenFile(*transcript, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			o.Log.Fatal(err)
		}
		defer f.Close()
		o.Transcript = f
	}
	if *addr != "" {
		if err := listenAndServe(*addr, o); err != nil {
			o.Log.Fatal(err)
		}
		return
	}
	if err := serve(context.Background(), os.Stdin, os.Stdout, o); err != nil {
		o.Log.Fatal(err)
	}
}

// checkAllow says why the command line must not run, or "" if it may:
// over HTTP, any local process can be a client and send file:/// as a
// root, so -http needs -allow, unless -unsafe-allow-all says that is
// meant.
func checkAllow(addr string, allow []string, allowAll bool) string {
	switch {
	case allowAll && len(allow) > 0:
		return "-unsafe-allow-all lifts the bounds that -allow sets; pass one or the other"
	case addr != "" && len(allow) == 0 && !allowAll:
		return "-http needs -allow DIR: without it, any process that can reach " + addr +
			" may send file:/// as a root and read_file then reads every file this user can read. " +
			"Pass -allow DIR (repeatable) to let read_file read only inside DIR, " +
			"or -unsafe-allow-all to serve with the client's roots as the only bound."
	}
	return ""
}

type options struct {
	Timeout    time.Duration
	MaxAge     time.Duration
	Strict     bool
	Allow      []string // the operator's directories; nil: the client's roots alone
	Log        *log.Logger
	Transcript io.Writer
	MaxLine    int // bytes of one incoming message; 0 means ndjson.DefaultMaxLine
	// StateKey seals requestState (32 bytes); nil means a random key made
	// when the connection starts. StateNow is the sealer's clock; nil
	// means time.Now.
	StateKey []byte
	StateNow func() time.Time

	// HTTP only (see http.go).
	MaxBody     int64         // bytes of one POST body; 0 means DefaultMaxBody
	MaxSessions int           // open 2025-era sessions; 0 means DefaultMaxSessions
	SessionIdle time.Duration // a session with no request for this long ends; 0 means DefaultSessionIdle
	MaxConns    int           // connections open at once, for rootsdemo-server -http; 0 means DefaultMaxConns
	// bodyTimeout is how long a request body may take to arrive; 0 means
	// 30 s. Tests shorten it.
	bodyTimeout time.Duration
	// LoopbackOnly refuses a Host header that does not name the loopback
	// interface (DNS rebinding), for a server that listens there.
	LoopbackOnly bool
	// conformanceTools adds the conformance suite's tools; set over HTTP.
	conformanceTools bool
	// bounds is the Bounds option of Allow, made once (see withBounds):
	// its directories are opened then, and held for the server's life.
	bounds []rootsgate.RootSetOption
}

// withBounds returns o with the Bounds option of its Allow directories,
// opening them: made once when the server starts, so that a directory
// swapped for a link afterwards is never followed.
func withBounds(o options) options {
	if o.Allow != nil && o.bounds == nil {
		o.bounds = []rootsgate.RootSetOption{rootsgate.Bounds(o.Allow...)}
	}
	return o
}

// statusError is a JSON-RPC error that HTTP answers with its own status.
type statusError struct {
	rpc    *ndjson.Error
	status int
}

func (e *statusError) Error() string { return e.rpc.Error() }
func (e *statusError) Unwrap() error { return e.rpc }

// stateTTL is how long a sealed requestState is good for: the client
// answers roots/list without asking a person.
const stateTTL = 2 * time.Minute

// serverName is the name the server gives in serverInfo, and the
// audience of its sealed requestState: another service that holds the
// same key does not open its states, nor it theirs.
const serverName = "rootsdemo-server"

// root is a root as the list_roots tool reports it.
type root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// server is one connection. A legacy session fixes its revision at
// initialize; on 2026-07-28 every request says its own.
type server struct {
	o     options
	roots rootsgate.Session
	// keyed serves the conformance tools on 2026-07-28, under
	// conformanceKey.
	keyed  rootsgate.Session
	states atomic.Int64
	// principal stands for the client in sealed requestState: stdio has
	// no authentication, so it is the connection, a random id.
	principal string
}

// serve runs one connection until r ends.
func serve(ctx context.Context, r io.Reader, w io.Writer, o options) error {
	conn := ndjson.New(r, w)
	s, err := newServer(withBounds(o), "conn-"+rand.Text(), conn.Call)
	if err != nil {
		return err
	}
	defer s.close()
	conn.Handle, conn.Notified = s.handle, s.notified
	conn.Transcript, conn.MaxLine = o.Transcript, o.MaxLine
	return conn.Run(ctx)
}

// newServer returns the server of one client: a stdio connection, a
// 2025-era HTTP session, or every 2026-07-28 request over HTTP. call sends
// a request to the client and waits for its answer; principal stands for
// the client in sealed requestState.
func newServer(o options, principal string, call func(ctx context.Context, method string, params any) (json.RawMessage, error)) (*server, error) {
	s := &server{o: o, principal: principal}
	key := o.StateKey
	if key == nil {
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
	}
	sealer, err := rootsgate.NewStateSealer(rootsgate.StateSealerConfig{
		Current:  rootsgate.StateKey{ID: "k1", Secret: key},
		TTL:      stateTTL,
		Audience: serverName,
		Now:      o.StateNow,
	})
	if err != nil {
		return nil, err
	}
	s.roots = rootsgate.Session{
		Request: func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
			return call(ctx, method, params)
		},
		Timeout:        o.Timeout,
		MaxAge:         o.MaxAge,
		Lenient:        !o.Strict,
		OnInvalidRoots: s.report,
		RequestState:   func(json.RawMessage) string { return "call/" + strconv.FormatInt(s.states.Add(1), 10) },
		Sealer:         sealer,
	}
	// The conformance suite's tools ask under their own key; on
	// 2026-07-28 nothing is cached, so a second Session costs nothing.
	s.keyed = rootsgate.Session{
		Lenient:        !o.Strict,
		OnInvalidRoots: s.report,
		InputKey:       conformanceKey,
		RequestState:   s.roots.RequestState,
		Sealer:         sealer,
	}
	return s, nil
}

// tools are the tools every transport offers.
var tools = []any{
	map[string]any{
		"name":        "list_roots",
		"description": "Lists the roots the client shares with this server.",
		"inputSchema": map[string]any{"type": "object"},
	},
	map[string]any{
		"name":        "read_file",
		"description": "Reads a file inside the client's roots; a path that leads out of them is refused.",
		"inputSchema": map[string]any{
			"type":       "object",
			"properties": map[string]any{"path": map[string]string{"type": "string", "description": "absolute path of the file"}},
			"required":   []string{"path"},
		},
	},
}

// The tools the MCP conformance suite calls in its roots scenarios, offered
// over HTTP (the only transport the suite tests): list_roots under other
// names, asking under conformanceKey on 2026-07-28.
const (
	conformanceRootsTool    = "test_input_required_result_list_roots"
	conformanceTamperedTool = "test_input_required_result_tampered_state"
	conformanceKey          = "client_roots"
)

// httpTools are the tools offered over HTTP.
var httpTools = append(slices.Clip(tools),
	map[string]any{
		"name":        conformanceRootsTool,
		"description": "list_roots for the MCP conformance suite: asks for roots under the key " + conformanceKey + ".",
		"inputSchema": map[string]any{"type": "object"},
	},
	map[string]any{
		"name":        conformanceTamperedTool,
		"description": "list_roots for the MCP conformance suite's check that an altered requestState is refused.",
		"inputSchema": map[string]any{"type": "object"},
	},
)

// toolList is what tools/list lists.
func (s *server) toolList() []any {
	if s.o.conformanceTools {
		return httpTools
	}
	return tools
}

func (s *server) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	var probe struct {
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(params, &probe)
	if v := probe.Meta.Version; v != "" {
		if rev, err := rootsgate.Lookup(v); err != nil || !rev.InputRequests {
			return nil, &ndjson.Error{Code: -32602, Message: fmt.Sprintf("unsupported protocol version %q", v)}
		}
		return s.handleStateless(ctx, method, params)
	}
	switch method {
	case "initialize":
		return s.initialize(params)
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		return map[string]any{"tools": s.toolList()}, nil
	case "tools/call":
		return s.call(ctx, params, false)
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
		version = demorev.LatestLegacy
	}
	if err := s.roots.Initialize(version, p.Capabilities); err != nil {
		return nil, &ndjson.Error{Code: -32602, Message: "Invalid params: " + err.Error()}
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{"tools": struct{}{}},
		"serverInfo":      map[string]string{"name": serverName, "version": "0.1.0"},
	}, nil
}

func (s *server) notified(ctx context.Context, method string, params json.RawMessage) {
	if s.roots.Version() == "" {
		s.o.Log.Printf("%s before initialize: ignored", method)
		return
	}
	if err := s.roots.HandleNotification(ctx, method, params); err != nil {
		s.o.Log.Printf("%s: %v", method, err)
	}
}

// handleStateless serves a 2026-07-28 request, which names its version
// and declares the client's capabilities in its _meta.
func (s *server) handleStateless(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case "server/discover":
		revs := rootsgate.Revisions()
		versions := make([]string, len(revs))
		for i, r := range revs {
			versions[i] = r.Version
		}
		return map[string]any{
			"resultType":        "complete",
			"supportedVersions": versions,
			"capabilities":      map[string]any{"tools": struct{}{}},
			"ttlMs":             0,
			"cacheScope":        "public",
			"_meta":             map[string]any{"io.modelcontextprotocol/serverInfo": map[string]string{"name": serverName, "version": "0.1.0"}},
		}, nil
	case "tools/list":
		// 2026-07-28 requires the cache hints on tools/list, as on
		// server/discover; the TypeScript client rejects a result without them.
		return map[string]any{"resultType": "complete", "tools": s.toolList(), "ttlMs": 0, "cacheScope": "public"}, nil
	case "tools/call":
		return s.call(ctx, params, true)
	}
	return nil, &ndjson.Error{Code: -32601, Message: "Method not found"}
}

// call runs a tool. The roots come from the gate the same way on every
// revision; only the shape of a result differs (2026-07-28 marks a final
// result "complete").
func (s *server) call(ctx context.Context, params json.RawMessage, stateless bool) (any, error) {
	var p struct {
		Name      string `json:"name"`
		Arguments struct {
			Path string `json:"path"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &ndjson.Error{Code: -32602, Message: "Invalid params: " + err.Error()}
	}
	sess := &s.roots
	switch p.Name {
	case "list_roots", "read_file":
	case conformanceRootsTool, conformanceTamperedTool:
		if !s.o.conformanceTools {
			return nil, &ndjson.Error{Code: -32602, Message: "unknown tool " + strconv.Quote(p.Name)}
		}
		p.Name = "list_roots"
		if stateless {
			sess = &s.keyed
		}
	default:
		return nil, &ndjson.Error{Code: -32602, Message: "unknown tool " + strconv.Quote(p.Name)}
	}
	// On 2026-07-28, the sealed requestState belongs to this connection
	// and this call: the tool's name and arguments.
	ctx = rootsgate.WithStateBinding(ctx, rootsgate.StateBinding{Principal: s.principal, Method: "tools/call"})
	var roots []rootsgate.Root
	var set *rootsgate.RootSet
	var err error
	if p.Name == "list_roots" {
		roots, err = sess.Roots(ctx, params)
	} else if set, err = sess.RootSet(ctx, params, s.bounds()...); set != nil {
		defer set.Close()
		if err != nil {
			s.o.Log.Printf("read_file: roots left out: %v", err)
			err = nil
		}
	}
	var ask *rootsgate.InputRequiredError
	var missing *rootsgate.MissingCapabilityError
	var malformed *rootsgate.MalformedRequestError
	switch {
	case errors.As(err, &ask):
		return ask.Result, nil // the client answers it and calls again
	case errors.As(err, &missing):
		return nil, gateError(missing.Object, missing.HTTPStatus())
	case errors.As(err, &malformed):
		// Such as a _meta without the client capabilities: -32602, not
		// the -32021 of a client whose capabilities lack roots.
		return nil, gateError(malformed.Object, malformed.HTTPStatus())
	case isStateError(err):
		// The retry's requestState is not one this connection sealed for
		// this call, or it expired: refuse the request, not just the tool.
		return nil, &ndjson.Error{Code: -32602, Message: "Invalid params: " + err.Error()}
	case err != nil:
		return toolText(err.Error(), true, stateless), nil
	}
	if p.Name == "list_roots" {
		return listResult(roots, stateless), nil
	}
	return readFile(set, p.Arguments.Path, stateless), nil
}

// gateError is the answer to a request the gate refused with the error
// object obj, which HTTP answers with status.
func gateError(obj *rootsgate.RPCError, status int) error {
	data, err := json.Marshal(obj.Data)
	return errors.Join(err, &statusError{&ndjson.Error{Code: obj.Code, Message: obj.Message, Data: data}, status})
}

// isStateError reports whether err refuses a retry's requestState.
func isStateError(err error) bool {
	for _, e := range []error{rootsgate.ErrStateMissing, rootsgate.ErrStateTampered, rootsgate.ErrStateUnknownKey, rootsgate.ErrStateWrongAudience,
		rootsgate.ErrStateNotYetValid, rootsgate.ErrStateExpired, rootsgate.ErrStateWrongPrincipal, rootsgate.ErrStateWrongRequest} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// bounds are the RootSet options that apply -allow.
func (s *server) bounds() []rootsgate.RootSetOption {
	if s.o.Allow == nil {
		return nil
	}
	return withBounds(s.o).bounds
}

// close closes the RootSets the server's sessions keep: their directories
// are the client's, and the client is gone.
func (s *server) close() {
	s.roots.Close()
	s.keyed.Close()
}

// readFile is read_file: the file at path, read through the RootSet of
// the client's roots, so that neither a link nor ".." leads out of them.
func readFile(set *rootsgate.RootSet, path string, stateless bool) map[string]any {
	data, err := set.ReadFile(path)
	switch {
	case errors.Is(err, rootsgate.ErrOutsideRoots):
		return toolText(fmt.Sprintf("read_file: refused: %s is outside the client's roots", strconv.Quote(path)), true, stateless)
	case err != nil:
		return toolText("read_file: "+err.Error(), true, stateless)
	}
	return toolText(string(data), false, stateless)
}

// toolText is a tool result holding one text, a tool error if isError.
func toolText(text string, isError, stateless bool) map[string]any {
	out := map[string]any{"content": []any{map[string]string{"type": "text", "text": text}}}
	if isError {
		out["isError"] = true
	}
	if stateless {
		out["resultType"] = "complete"
	}
	return out
}

// listResult is list_roots' answer: the roots as text and as structured
// content.
func listResult(roots []rootsgate.Root, stateless bool) map[string]any {
	list := make([]root, len(roots))
	for i, r := range roots {
		list[i] = root{r.URI, r.Name}
	}
	structured := map[string]any{"roots": list}
	text, _ := json.Marshal(structured)
	out := toolText(string(text), false, stateless)
	out["structuredContent"] = structured
	return out
}

func (s *server) report(err error) {
	s.o.Log.Printf("roots/list: kept the valid roots; %v", err)
}
