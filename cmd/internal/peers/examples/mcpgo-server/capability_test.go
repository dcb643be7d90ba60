package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rootsgen/rootsgen/cmd/internal/peers/adaptertest"
	"github.com/rootsgen/rootsgen/cmd/internal/peers/mcpgoroots"
	"github.com/rootsgen/rootsgen/cmd/internal/peertest"
)

// A client that does not declare roots is asked nothing: on 2025-06-18
// the tool answers with an error naming the missing capability and no
// roots/list is sent; on 2026-07-28 no input_required result asks for
// them, and the call fails. mcp-go v1.2.1 sends every error of a tool
// handler as -32603, so the -32021 the revision specifies cannot be sent
// from an mcp-go server; this test pins what it sends instead.
func TestMCPGoClientWithoutRoots(t *testing.T) {
	exe := build(t)
	eachVersion(t, func(t *testing.T, ctx context.Context, version string, tr adaptertest.Tree) {
		c, transcript, _, _ := connect(t, ctx, exe, version, nil)
		req := mcp.CallToolRequest{}
		req.Params.Name = "read_file"
		req.Params.Arguments = map[string]any{"path": filepath.Join(tr.Root, "in.txt")}
		res, err := c.CallTool(ctx, req)
		if version == "" {
			if err == nil || !strings.Contains(err.Error(), "did not declare the roots capability") {
				t.Errorf("CallTool = %v, %v; want an error naming the roots capability", res, err)
			}
			if n := count(t, transcript.String(), "->", "resultType", "input_required"); n != 0 {
				t.Errorf("%d input_required results to a client without roots", n)
			}
			if !strings.Contains(transcript.String(), `"code":-32603`) {
				t.Errorf("the error is not -32603 any more; mcp-go may now send -32021:\n%s", transcript)
			}
		} else {
			if err != nil || !res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].(mcp.TextContent).Text, "did not declare the roots capability") {
				t.Errorf("CallTool = %+v, %v; want a tool error naming the roots capability", res, err)
			}
		}
		if n := count(t, transcript.String(), "->", "method", "roots/list"); n != 0 {
			t.Errorf("roots/list sent %d times to a client without roots", n)
		}
	})
}

// Roots given to a ClientRoots are checked before they leave: a root that
// breaks the revision's rules is left out of the answer, on a roots/list
// request and in inputResponses alike, and reported; the good one reads.
func TestMCPGoClientRootsChecked(t *testing.T) {
	exe := build(t)
	eachVersion(t, func(t *testing.T, ctx context.Context, version string, tr adaptertest.Tree) {
		roots := mcpgoroots.NewClientRoots(
			mcp.Root{URI: "https://example.com/repo", Name: "web"},
			mcp.Root{URI: adaptertest.FileURI(tr.Root), Name: "root"})
		var reported []error
		roots.OnInvalidRoots = func(err error) { reported = append(reported, err) }
		c, transcript, _, _ := connect(t, ctx, exe, version, roots)
		if text, isErr := readFile(t, ctx, c, filepath.Join(tr.Root, "in.txt")); isErr || text != "inside" {
			t.Errorf("inside: %q (error %t), want the file", text, isErr)
		}
		if strings.Contains(transcript.String(), "https://example.com") {
			t.Errorf("the invalid root left the client:\n%s", transcript)
		}
		if len(reported) == 0 || !strings.Contains(reported[0].Error(), "roots[0]") {
			t.Errorf("reported %v, want the invalid root named by its index", reported)
		}
	})
}

// ValidRoots follows the revision's rules root by root, and refuses a
// version the gate does not serve.
func TestValidRoots(t *testing.T) {
	in := []mcp.Root{{URI: "file:///a", Name: "a"}, {URI: "relative/b"}, {URI: "file:///c"}}
	for _, rev := range []string{"2024-11-05", "2025-06-18", "2026-07-28"} {
		got, err := mcpgoroots.ValidRoots(rev, in)
		if len(got) != 2 || got[0].URI != "file:///a" || got[1].URI != "file:///c" || err == nil || !strings.Contains(err.Error(), "roots[1]") {
			t.Errorf("%s: ValidRoots = %v, %v; want a and c, and roots[1] reported", rev, got, err)
		}
	}
	if got, err := mcpgoroots.ValidRoots("2030-01-01", in); got != nil || err == nil {
		t.Errorf("unknown version: %v, %v; want an error", got, err)
	}
}

// mcp-go v1.2.1's client reads data.capability from a -32021 error, while
// the 2026-07-28 schema puts the missing capabilities in
// data.requiredCapabilities, which is what the demo server sends. Against
// it, mcp-go's client recognizes the error but cannot say which
// capability is missing.
func TestMCPGoClientReadsMissingCapability(t *testing.T) {
	exe := peertest.Build(t, "rootsdemo-server")
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	c := client.NewClient(transport.NewStdio(exe, nil))
	defer c.Close()
	if _, err := start(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	if v := c.ProtocolVersion(); v != "2026-07-28" {
		t.Fatalf("negotiated %s, want 2026-07-28", v)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "list_roots"
	_, err := c.CallTool(ctx, req)
	var missing mcp.MissingRequiredClientCapabilityError
	if !errors.As(err, &missing) {
		t.Fatalf("CallTool: %v (%T), want mcp.MissingRequiredClientCapabilityError", err, err)
	}
	if missing.Capability != "" {
		t.Errorf("mcp-go read capability %q from data.requiredCapabilities; the peer fact in cmd/internal/peers/README.md is out of date", missing.Capability)
	}
}

// mcp-go's client sends notifications/roots/list_changed from
// RootListChanges on a 2026-07-28 connection, a revision without that
// notification; ClientRoots.Set does not (TestMCPGoClientReadFile).
func TestMCPGoClientListChangedOn20260728(t *testing.T) {
	exe := build(t)
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	tr := adaptertest.NewTree(t)
	c, transcript, _, _ := connect(t, ctx, exe, "", mcpgoroots.NewClientRoots(mcp.Root{URI: adaptertest.FileURI(tr.Root)}))
	if err := c.RootListChanges(ctx); err != nil {
		t.Fatal(err)
	}
	readFile(t, ctx, c, filepath.Join(tr.Root, "in.txt")) // after the notification on the wire
	if n := count(t, transcript.String(), "<-", "method", "notifications/roots/list_changed"); n != 1 {
		t.Errorf("RootListChanges sent %d notifications on 2026-07-28; the peer fact in cmd/internal/peers/README.md is out of date", n)
	}
}

// A 2025-06-18 client that declares roots without listChanged never says
// that its roots changed: ClientRoots.Set sends no notification, and the
// server asks roots/list on every call instead of keeping an answer.
func TestMCPGoClientWithoutListChanged(t *testing.T) {
	exe := build(t)
	ctx, cancel := context.WithTimeout(context.Background(), peertest.Wait)
	defer cancel()
	tr := adaptertest.NewTree(t)
	roots := mcpgoroots.NewClientRoots(mcp.Root{URI: adaptertest.FileURI(tr.Root)})
	var caps mcp.ClientCapabilities
	caps.Roots = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{}
	c, transcript, _, stop := connect(t, ctx, exe, "2025-06-18", roots, client.WithClientCapabilities(caps))
	readFile(t, ctx, c, filepath.Join(tr.Root, "in.txt"))
	if err := roots.Set(ctx, mcp.Root{URI: adaptertest.FileURI(tr.Other)}); err != nil {
		t.Fatal(err)
	}
	if text, isErr := readFile(t, ctx, c, filepath.Join(tr.Other, "new.txt")); isErr || text != "other" {
		t.Errorf("read_file in the new root: %q (error %t), want it read", text, isErr)
	}
	stop()
	if n := count(t, transcript.String(), "<-", "method", "notifications/roots/list_changed"); n != 0 {
		t.Errorf("list_changed sent %d times by a client that declared no listChanged", n)
	}
	if n := count(t, transcript.String(), "->", "method", "roots/list"); n != 2 {
		t.Errorf("roots/list sent %d times for two calls, want 2", n)
	}
}
