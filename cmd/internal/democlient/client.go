// Package democlient is rootsdemo-client: its main.go calls Main, and tests in this
// module and in the test module cmd/internal/peers drive it in process.
package democlient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rootsgen/rootsgen/cmd/internal/demorev"
	"github.com/rootsgen/rootsgen/cmd/internal/ndjson"
	"github.com/rootsgen/rootsgen/generated/roots20251125"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// latestLegacy is the newest revision that begins with initialize (the
// server then asks roots/list itself).
var latestLegacy = demorev.LatestLegacy

// Main is rootsdemo-client's main: it reads the command line and runs.
func Main() {
	logger := log.New(os.Stderr, "rootsdemo-client: ", 0)
	a, err := parseArgs(flag.CommandLine, os.Args[1:])
	if err != nil {
		logger.Fatal(err)
	}
	o := a.options
	if a.transcript != "" {
		f, err := os.OpenFile(a.transcript, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			logger.Fatal(err)
		}
		defer f.Close()
		o.Transcript = f
	}
	ctx := context.Background()
	in := commands(os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Stdin)
	if a.url != "" {
		c, err := connectHTTP(ctx, a.url, o)
		if err == nil {
			err = errors.Join(c.run(ctx, in, os.Stdout), c.close())
		}
		if err != nil {
			logger.Fatal(err)
		}
		return
	}
	cmd := exec.Command(a.server[0], a.server[1:]...)
	cmd.Stderr = os.Stderr
	toServer, err1 := cmd.StdinPipe()
	fromServer, err2 := cmd.StdoutPipe()
	if err := errors.Join(err1, err2, cmd.Start()); err != nil {
		logger.Fatal(err)
	}
	c, err := connect(ctx, fromServer, toServer, o)
	if err == nil {
		err = c.run(ctx, in, os.Stdout)
	}
	toServer.Close()
	if werr := stop(cmd, stopGrace); err == nil && werr != nil {
		err = fmt.Errorf("server: %w", werr)
	}
	if err != nil {
		logger.Fatal(err)
	}
}

// args is what the command line asks for.
type args struct {
	options
	transcript string   // -transcript FILE
	url        string   // -url URL
	server     []string // the server's command line, after --
}

// usage names the two forms of the command line.
const usage = "usage: rootsdemo-client [flags] -- SERVER_CMD [ARGS...]\n       rootsdemo-client [flags] -url URL"

// parseArgs reads the command line (without the program's name) with fs.
// Tests call it to start the client with exactly the defaults main has.
func parseArgs(fs *flag.FlagSet, argv []string) (args, error) {
	var a args
	fs.StringVar(&a.Protocol, "protocol", "", "protocol `REV`ision to speak, pinned (default: the newest, or one the server supports)")
	fs.Func("root", "share `URI[=NAME]` (repeatable)", func(s string) error {
		r, err := parseRoot(s)
		a.Roots = append(a.Roots, r)
		return err
	})
	fs.BoolVar(&a.NoListChanged, "no-list-changed", false, "declare roots without listChanged")
	fs.StringVar(&a.transcript, "transcript", "", "append every frame to `FILE`")
	fs.StringVar(&a.url, "url", "", "talk Streamable HTTP to the MCP endpoint at `URL` instead of starting a server")
	if err := fs.Parse(argv); err != nil {
		return args{}, err
	}
	if (fs.NArg() == 0) == (a.url == "") {
		return args{}, errors.New(usage)
	}
	a.server = fs.Args()
	return a, nil
}

type options struct {
	// Protocol pins the revision; "" negotiates it (see negotiateModern).
	Protocol      string
	Roots         []rootsgate.Root
	NoListChanged bool
	Transcript    io.Writer
}

// stopGrace is how long a server may take to exit after its stdin closes
// before it gets SIGTERM, and again before SIGKILL.
const stopGrace = 5 * time.Second

// stop waits for the server to exit after its stdin was closed, the way the
// lifecycle asks of stdio clients: a server that lingers gets SIGTERM, then
// SIGKILL.
func stop(cmd *exec.Cmd, grace time.Duration) error {
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Kill} {
		select {
		case err := <-exited:
			return err
		case <-time.After(grace):
			cmd.Process.Signal(sig)
		}
	}
	return <-exited
}

// parseRoot reads URI[=NAME]. The URI must be one the protocol allows for
// a root (file://): a client that shares a bad root makes strict servers
// drop the whole list, so it is refused here, where the user typed it.
func parseRoot(s string) (rootsgate.Root, error) {
	uri, name, _ := strings.Cut(s, "=")
	check := roots20251125.Root{URI: uri}
	if err := check.Validate(); err != nil {
		return rootsgate.Root{}, fmt.Errorf("root %q: %w", uri, err)
	}
	return rootsgate.Root{URI: uri, Name: name}, nil
}

// codeUnsupportedVersion is UnsupportedProtocolVersionError (2026-07-28).
const codeUnsupportedVersion = -32022

// wire carries the client's messages: *ndjson.Conn over stdio, *httpConn
// over Streamable HTTP. The server's requests reach the client's handle.
type wire interface {
	Call(ctx context.Context, method string, params any) (json.RawMessage, error)
	Notify(ctx context.Context, method string, params any) error
}

// client is one session with a server.
type client struct {
	conn      wire
	version   string // guarded by mu once the handshake is over
	stateless bool   // 2026-07-28: no initialize, _meta on every request
	negotiate bool   // no -protocol: offer the newest revision, take what the server supports
	gate      *rootsgate.Client

	mu    sync.Mutex
	roots []rootsgate.Root
}

// connect does the handshake over r and w (for o.Protocol, or negotiated
// when it is empty), and then serves the server's requests until close.
func connect(ctx context.Context, r io.Reader, w io.Writer, o options) (*client, error) {
	c, err := newClient(o)
	if err != nil {
		return nil, err
	}
	conn := ndjson.New(r, w)
	conn.Handle, conn.Transcript = c.handle, o.Transcript
	c.conn = conn
	go func() { _ = conn.Run(context.WithoutCancel(ctx)) }()
	if err := c.handshake(ctx, !o.NoListChanged); err != nil {
		return nil, fmt.Errorf("handshake: %w", err)
	}
	return c, nil
}

// connectHTTP does the handshake with the Streamable HTTP endpoint at url,
// as connect does. Close the client's conn (an *httpConn) at the end.
func connectHTTP(ctx context.Context, url string, o options) (*client, error) {
	c, err := newClient(o)
	if err != nil {
		return nil, err
	}
	conn := newHTTPConn(url, o, c.handle)
	conn.setEra(c.stateless, c.version)
	c.conn = conn
	if err := c.handshake(ctx, !o.NoListChanged); err != nil {
		return nil, errors.Join(fmt.Errorf("handshake: %w", err), conn.Close())
	}
	return c, nil
}

// close ends an HTTP session (stdio sessions end when the server's stdin
// closes).
func (c *client) close() error {
	if h, ok := c.conn.(*httpConn); ok {
		return h.Close()
	}
	return nil
}

// newClient starts a client on o.Protocol or, when it is empty, on the
// newest revision the gate knows, to be negotiated down.
func newClient(o options) (*client, error) {
	version, negotiate := o.Protocol, o.Protocol == ""
	if negotiate {
		version = knownVersions()[len(knownVersions())-1]
	}
	rev, err := rootsgate.Lookup(version)
	if err != nil {
		return nil, err
	}
	c := &client{version: version, stateless: rev.InputRequests, negotiate: negotiate, roots: o.Roots}
	c.gate = &rootsgate.Client{ListChanged: !o.NoListChanged, ListRoots: func(context.Context) ([]rootsgate.Root, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.roots, nil
	}}
	return c, nil
}

// knownVersions are the revisions the client speaks, oldest first.
func knownVersions() []string {
	var out []string
	for _, r := range rootsgate.Revisions() {
		out = append(out, r.Version)
	}
	return out
}

// setVersion moves the client, before any request of the session, to
// version: stateless or legacy as the revision is, over HTTP too.
func (c *client) setVersion(version string) error {
	rev, err := rootsgate.Lookup(version)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.version, c.stateless = version, rev.InputRequests
	c.mu.Unlock()
	if h, ok := c.conn.(*httpConn); ok {
		h.setEra(rev.InputRequests, version)
	}
	return nil
}

func (c *client) handshake(ctx context.Context, listChanged bool) error {
	switch {
	case c.negotiate && c.stateless:
		return c.negotiateModern(ctx, listChanged)
	case c.stateless:
		// Pinned: a server without server/discover, or without this
		// version, likely speaks an older revision: say which flag to try.
		fix := fmt.Sprintf("; if it speaks an older revision, run with -protocol %s", latestLegacy)
		supported, err := c.discover(ctx)
		if err != nil {
			return fmt.Errorf("server/discover (the %s handshake): %w%s", c.version, err, fix)
		}
		if slices.Contains(supported, c.version) {
			return nil
		}
		if len(supported) > 0 {
			fix = "; run with -protocol set to one of them"
		}
		return fmt.Errorf("the server does not support %s (it supports %v)%s", c.version, supported, fix)
	}
	return c.initialize(ctx, listChanged)
}

// probeWait bounds the wait for the answer to server/discover over stdio
// when the version is negotiated: a 2025-era server may never answer a
// method it does not know, and the client then falls back to initialize.
var probeWait = 10 * time.Second

// negotiateModern opens a session when no -protocol was given, the way
// the 2026-07-28 versioning rules ask of a client that also speaks the
// revisions before it. server/discover goes out with the newest revision
// (over stdio it is the probe those rules ask for; over HTTP it is the
// first modern request, whose 400 tells the eras apart). Then:
//   - a result that lists the version: the session is on it;
//   - a -32022 (UnsupportedProtocolVersionError), or a result that does
//     not list the version: the client moves, once, to the newest
//     revision the server names that it knows too, beginning that
//     revision's way (initialize for a 2025-era one); with none in common
//     it gives up naming both lists;
//   - another 2026-07-28 error: the server is modern and refused; that is
//     the error;
//   - any other JSON-RPC error, an HTTP 4xx without a JSON-RPC answer, or
//     over stdio no answer within probeWait: a 2025-era server; the
//     client falls back to initialize with the newest revision that has
//     it, and the server may choose an older one.
func (c *client) negotiateModern(ctx context.Context, listChanged bool) error {
	offered := c.version
	probeCtx, cancel := ctx, context.CancelFunc(func() {})
	if _, ok := c.conn.(*httpConn); !ok {
		probeCtx, cancel = context.WithTimeout(ctx, probeWait)
	}
	supported, err := c.discover(probeCtx)
	cancel()
	var rpcErr *ndjson.Error
	var statusErr *httpStatusError
	switch {
	case err == nil && slices.Contains(supported, offered):
		return nil
	case err == nil:
	case errors.As(err, &rpcErr) && rpcErr.Code == codeUnsupportedVersion:
		supported = supportedIn(rpcErr.Data)
	case errors.As(err, &rpcErr) && modernError(rpcErr.Code):
		return fmt.Errorf("server/discover on %s: %w", offered, err)
	case errors.As(err, &rpcErr),
		errors.As(err, &statusErr) && statusErr.status/100 == 4,
		errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		// A 2025-era server.
		if err := c.setVersion(latestLegacy); err != nil {
			return err
		}
		return c.initialize(ctx, listChanged)
	default:
		return fmt.Errorf("server/discover on %s: %w", offered, err)
	}
	v := newestShared(supported)
	switch {
	case v == "":
		return fmt.Errorf("no protocol version in common: the server supports %s; this client supports %s",
			listOrNone(supported), strings.Join(knownVersions(), ", "))
	case v == offered:
		// request already sent it again once after a -32022 listing it.
		return fmt.Errorf("the server refused %s while listing it as supported (%s)", offered, strings.Join(supported, ", "))
	}
	if err := c.setVersion(v); err != nil {
		return err
	}
	if !c.stateless {
		return c.initialize(ctx, listChanged)
	}
	again, err := c.discover(ctx)
	if err != nil {
		return fmt.Errorf("server/discover on %s: %w", v, err)
	}
	if !slices.Contains(again, v) {
		return fmt.Errorf("the server named %s as supported, then did not list it (it supports %s)", v, listOrNone(again))
	}
	return nil
}

// modernError reports whether code is one of the errors 2026-07-28 added
// (-32020 header mismatch, -32021 missing capability, -32022 unsupported
// version): an answer only a modern server gives.
func modernError(code int64) bool { return code <= -32020 && code >= -32022 }

// supportedIn reads data.supported of a -32022 error.
func supportedIn(data json.RawMessage) []string {
	var d struct {
		Supported []string `json:"supported"`
	}
	_ = json.Unmarshal(data, &d)
	return d.Supported
}

// newestShared returns the newest of supported that the client knows too,
// or "".
func newestShared(supported []string) string {
	known := knownVersions()
	for i := len(known) - 1; i >= 0; i-- {
		if slices.Contains(supported, known[i]) {
			return known[i]
		}
	}
	return ""
}

func listOrNone(versions []string) string {
	if len(versions) == 0 {
		return "none it named"
	}
	return strings.Join(versions, ", ")
}

// discover sends server/discover and returns the versions the server
// lists as supported.
func (c *client) discover(ctx context.Context) ([]string, error) {
	raw, err := c.request(ctx, "server/discover", map[string]any{})
	if err != nil {
		return nil, err
	}
	var res struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	return res.SupportedVersions, nil
}

// initialize begins a 2025-era session, offering c.version; the server
// may choose another revision that has initialize.
func (c *client) initialize(ctx context.Context, listChanged bool) error {
	raw, err := c.conn.Call(ctx, "initialize", map[string]any{
		"protocolVersion": c.negotiated(),
		"capabilities":    map[string]any{"roots": map[string]bool{"listChanged": listChanged}},
		"clientInfo":      clientInfo,
	})
	if err != nil {
		return err
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return err
	}
	if rev, err := rootsgate.Lookup(res.ProtocolVersion); err != nil || !rev.DirectRequest {
		return fmt.Errorf("the server chose protocol version %q, which is not a revision with initialize", res.ProtocolVersion)
	}
	c.mu.Lock()
	c.version = res.ProtocolVersion
	c.mu.Unlock()
	// Over HTTP, later requests carry the version, and the GET stream
	// opens now: a server may ask for roots as soon as it is initialized.
	if h, ok := c.conn.(*httpConn); ok {
		if err := h.negotiated(ctx, res.ProtocolVersion); err != nil {
			return err
		}
	}
	return c.conn.Notify(ctx, "notifications/initialized", json.RawMessage("{}"))
}

var clientInfo = map[string]string{"name": "rootsdemo-client", "version": "0.1.0"}

// meta is the _meta every 2026-07-28 request carries.
func (c *client) meta() map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    c.negotiated(),
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"roots": struct{}{}},
		"io.modelcontextprotocol/clientInfo":         clientInfo,
	}
}

func (c *client) negotiated() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// handle answers the server's requests: roots/list through the gate.
func (c *client) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if method == "ping" {
		return struct{}{}, nil
	}
	out, err := c.gate.HandleRequest(ctx, c.negotiated(), method, params)
	var rpcErr *rootsgate.RPCError
	switch {
	case errors.As(err, &rpcErr):
		data, _ := json.Marshal(rpcErr.Data)
		if rpcErr.Data == nil {
			data = nil
		}
		return nil, &ndjson.Error{Code: rpcErr.Code, Message: rpcErr.Message, Data: data}
	case err != nil: // not a request this revision has
		return nil, &ndjson.Error{Code: -32601, Message: "Method not found"}
	}
	return out, nil
}

// maxRounds bounds the input_required rounds of one call.
const maxRounds = 10

// request sends a request, with _meta on 2026-07-28, and answers the
// roots/list entries of input_required results until the result is complete.
//
// On 2026-07-28 a server may refuse a request's version with -32022 while
// listing that very version as supported (a load balancer in front of
// servers of mixed versions can do this); the request is then sent once
// more, with a new id. A list without it is the server's answer.
func (c *client) request(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	if !c.stateless {
		return c.conn.Call(ctx, method, params)
	}
	version := c.negotiated()
	params["_meta"] = c.meta()
	versionRetried := false
	for round := 1; ; round++ {
		raw, err := c.conn.Call(ctx, method, params)
		var rpcErr *ndjson.Error
		if !versionRetried && errors.As(err, &rpcErr) && rpcErr.Code == codeUnsupportedVersion && slices.Contains(supportedIn(rpcErr.Data), version) {
			versionRetried = true
			raw, err = c.conn.Call(ctx, method, params)
		}
		if err != nil {
			return nil, err
		}
		var res struct {
			ResultType    string          `json:"resultType"`
			InputRequests json.RawMessage `json:"inputRequests"`
			RequestState  string          `json:"requestState"`
		}
		if err := json.Unmarshal(raw, &res); err != nil || res.ResultType != "input_required" {
			return raw, err
		}
		if round == maxRounds {
			return nil, fmt.Errorf("still input_required after %d rounds", round)
		}
		responses, others, err := c.gate.AnswerInputRequests(ctx, version, res.InputRequests)
		if err != nil {
			return nil, err
		}
		if len(others) > 0 {
			return nil, fmt.Errorf("cannot answer input requests %q", others)
		}
		params["inputResponses"] = responses
		delete(params, "requestState")
		if res.RequestState != "" {
			params["requestState"] = res.RequestState
		}
	}
}

// command runs one command line and returns what to print.
func (c *client) command(ctx context.Context, line string) any {
	verb, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	var raw json.RawMessage
	var err error
	switch verb {
	case "roots":
		var roots []rootsgate.Root
		for _, f := range strings.Fields(rest) {
			r, err := parseRoot(f)
			if err != nil {
				return errorOutput(&ndjson.Error{Code: -32602, Message: err.Error()})
			}
			roots = append(roots, r)
		}
		c.mu.Lock()
		c.roots = roots
		c.mu.Unlock()
		// The gate sends nothing where the revision has no such
		// notification, or when listChanged was not declared.
		_, err = c.gate.NotifyListChanged(ctx, c.negotiated(), func(ctx context.Context, method string, params json.RawMessage) error {
			return c.conn.Notify(ctx, method, params)
		})
		if err == nil {
			return map[string]bool{"ok": true}
		}
	case "call":
		tool, args, _ := strings.Cut(strings.TrimSpace(rest), " ")
		params := map[string]any{"name": tool}
		if args = strings.TrimSpace(args); args != "" {
			if !json.Valid([]byte(args)) {
				return errorOutput(&ndjson.Error{Code: -32602, Message: "arguments are not JSON"})
			}
			params["arguments"] = json.RawMessage(args)
		}
		raw, err = c.request(ctx, "tools/call", params)
	case "tools":
		raw, err = c.request(ctx, "tools/list", map[string]any{})
	default:
		err = &ndjson.Error{Code: -32600, Message: fmt.Sprintf("unknown command %q", verb)}
	}
	if err != nil {
		return errorOutput(err)
	}
	return map[string]json.RawMessage{"result": raw}
}

func errorOutput(err error) any {
	var e *ndjson.Error
	if !errors.As(err, &e) {
		e = &ndjson.Error{Code: -32603, Message: err.Error()}
	}
	return map[string]any{"error": e}
}

// scenarioCommands are the commands of the conformance suite's client
// scenarios that need nothing beyond what connecting does: run under the
// suite (which names its scenario in MCP_CONFORMANCE_SCENARIO and never
// closes the client's stdin), the client connects, runs them and quits.
// Other scenarios read their commands from stdin.
var scenarioCommands = map[string]string{
	"request-metadata": "quit\n", // the handshake is the scenario
}

// commands is where the client reads its commands: the script of the
// conformance scenario named, when it has one, else stdin.
func commands(scenario string, stdin io.Reader) io.Reader {
	if script, ok := scenarioCommands[scenario]; ok {
		return strings.NewReader(script)
	}
	return stdin
}

// run reads commands from in until quit or its end, printing one line each.
func (c *client) run(ctx context.Context, in io.Reader, out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, ndjson.DefaultMaxLine)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if line == "quit" {
			break
		}
		if err := enc.Encode(c.command(ctx, line)); err != nil {
			return err
		}
	}
	return sc.Err()
}
