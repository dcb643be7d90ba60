// Command rootsdemo-client is a small MCP client that shares roots with
// a server it starts, over stdio, or with the Streamable HTTP endpoint
// given by -url. It answers the server's roots/list (on
// 2026-07-28, the roots/list entries of input_required results) through
// the generated gate package, one handler for every revision, and reads
// commands from its own stdin:
//
//	rootsdemo-client [-protocol REV] [-root URI[=NAME]]... [-no-list-changed] [-transcript FILE] -- SERVER_CMD [ARGS...]
//	rootsdemo-client [-protocol REV] [-root URI[=NAME]]... [-no-list-changed] [-transcript FILE] -url URL
//
//	roots URI[=NAME] ...   replace the roots (and say so where the revision allows)
//	call TOOL [JSON-ARGS]  call a tool
//	tools                  list the tools
//	quit                   stop the server (over HTTP: end the session) and exit
//
// Each command prints one JSON line: {"ok":true}, {"result":...} or {"error":...}.
//
// Without -protocol the client negotiates: it offers its newest revision
// and, when the server answers -32022 (unsupported protocol version), moves
// once to the newest revision both support; a server of the 2025 era is
// met with initialize. -protocol pins the revision instead.
package main

import "github.com/rootsgen/rootsgen/cmd/internal/democlient"

func main() { democlient.Main() }
