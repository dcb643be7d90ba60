package demoserver_test

//lint:file-ignore SA1019 the roots API of 2026-07-28, which deprecates roots, is what the benchmark measures

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/demoserver"
	"github.com/rootsgen/rootsgen/cmd/internal/mcphttp"
	"github.com/rootsgen/rootsgen/generated/roots20260728"
	"github.com/rootsgen/rootsgen/generated/rootsgate"
)

// BenchmarkReadFileHTTP measures the 2026-07-28 read_file round trip over
// HTTP on loopback, two POSTs per call (the first is answered
// input_required asking for roots, the second carries them in
// inputResponses), against rootsdemo-server's handler and against a
// go-sdk v1.8.0 stateless streamable server whose read_file does the same
// work: a requestState sealed with AES-GCM and opened on the retry, the
// roots made into a RootSet, the file read through it. One hand-written
// client drives both; calls/s is the figure to compare.
func BenchmarkReadFileHTTP(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(file, []byte("inside"), 0o644); err != nil {
		b.Fatal(err)
	}
	root := (&url.URL{Scheme: "file", Path: dir}).String()
	ours, err := demoserver.NewHTTPHandler(demoserver.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ours.Close()
	for _, s := range []struct {
		name    string
		handler http.Handler
	}{
		{"rootsdemo", ours},
		{"gosdk", goSDKReadFileServer(b)},
	} {
		b.Run(s.name, func(b *testing.B) {
			srv := httptest.NewServer(s.handler)
			defer srv.Close()
			c := &benchClient{http: srv.Client(), url: srv.URL + demoserver.Path, path: file, root: root}
			if err := c.call(); err != nil { // also checks the tool works
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		})
	}
}

// benchClient is a 2026-07-28 client reduced to read_file's round trip.
type benchClient struct {
	http       *http.Client
	url        string
	path, root string
	id         int
}

// call runs read_file: the first POST, then the retry with the roots.
func (c *benchClient) call() error {
	args := map[string]string{"path": c.path}
	var ask struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	if err := c.post(map[string]any{"name": "read_file", "arguments": args}, &ask); err != nil {
		return err
	}
	if ask.ResultType != "input_required" || len(ask.InputRequests) != 1 {
		return fmt.Errorf("first POST: %+v, want input_required with one request", ask)
	}
	responses := map[string]any{}
	for key := range ask.InputRequests {
		responses[key] = map[string]any{"roots": []map[string]string{{"uri": c.root}}}
	}
	var done struct {
		ResultType string `json:"resultType"`
		IsError    bool   `json:"isError"`
		Content    []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	params := map[string]any{"name": "read_file", "arguments": args, "inputResponses": responses, "requestState": ask.RequestState}
	if err := c.post(params, &done); err != nil {
		return err
	}
	if done.IsError || len(done.Content) != 1 || done.Content[0].Text != "inside" {
		return fmt.Errorf("retry: %+v, want the file's text", done)
	}
	return nil
}

func (c *benchClient) post(params map[string]any, result any) error {
	c.id++
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"roots": map[string]any{}},
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": "tools/call", "params": params})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", mcphttp.JSON)
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(mcphttp.HeaderVersion, "2026-07-28")
	req.Header.Set(mcphttp.HeaderMethod, "tools/call")
	req.Header.Set(mcphttp.HeaderName, params["name"].(string))
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var raw []byte
	if resp.Header.Get("Content-Type") == mcphttp.EventStream {
		err = mcphttp.ReadEvents(resp.Body, 1<<20, func(data []byte) error {
			raw = append(raw[:0], data...)
			return nil
		})
	} else {
		raw, err = io.ReadAll(resp.Body)
	}
	if err != nil {
		return err
	}
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("HTTP %d %q: %v", resp.StatusCode, raw, err)
	}
	if m.Error != nil {
		return fmt.Errorf("HTTP %d: error %d %s", resp.StatusCode, m.Error.Code, m.Error.Message)
	}
	return json.Unmarshal(m.Result, result)
}

// goSDKReadFileServer is a go-sdk v1.8.0 stateless streamable server with
// a read_file tool that works as rootsdemo-server's does on 2026-07-28.
func goSDKReadFileServer(b *testing.B) http.Handler {
	key := make([]byte, 32)
	sealer, err := roots20260728.NewStateSealer(roots20260728.StateSealerConfig{Current: roots20260728.StateKey{ID: "k1", Secret: key}})
	if err != nil {
		b.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "gosdk-bench", Version: "v1.8.0"}, nil)
	var states atomic.Int64
	server.AddTool(&mcp.Tool{Name: "read_file", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				Path string `json:"path"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			bind := roots20260728.StateBinding{Principal: "http", Method: "tools/call", Params: append([]byte(req.Params.Name+"\x00"), req.Params.Arguments...)}
			answer, ok := req.Params.InputResponses["roots"].(*mcp.ListRootsResult)
			if !ok {
				state, err := sealer.Seal([]byte("call/"+strconv.FormatInt(states.Add(1), 10)), bind)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}, RequestState: state}, nil
			}
			if _, err := sealer.Open(req.Params.RequestState, bind); err != nil {
				return nil, err
			}
			roots := make([]rootsgate.Root, len(answer.Roots))
			for i, r := range answer.Roots {
				roots[i] = rootsgate.Root{URI: r.URI, Name: r.Name}
			}
			set, err := rootsgate.NewRootSet("2026-07-28", roots)
			if set == nil {
				return nil, err
			}
			defer set.Close()
			data, err := set.ReadFile(args.Path)
			if err != nil {
				if errors.Is(err, rootsgate.ErrOutsideRoots) {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused"}}}, nil
				}
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}
