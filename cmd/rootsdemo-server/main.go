// Command rootsdemo-server is a small MCP server, over stdio or HTTP, with two
// tools: list_roots returns the client's roots, and read_file reads a file
// inside them, refusing any path that leads out. It shows the gate
// (generated/rootsgate) at work on a real wire, with one code path for
// every revision: on the 2024-11-05 ... 2025-11-25 revisions the gate asks
// with roots/list through the generated Server, which keeps the answer of
// a client that declared listChanged until notifications/roots/list_changed
// and asks any other client on every call; on 2026-07-28 it asks through
// an input_required result.
//
// With -allow (repeatable), read_file reads only inside the directories it
// names as well as inside the client's roots: a client root wider than
// them is narrowed to them.
//
// On 2026-07-28 the requestState of each input_required result is sealed
// (rootsgate.StateSealer: AES-GCM under a random key made when the
// connection starts, so no state outlives the process) and bound to
// tools/call, the tool's name and arguments, a two-minute expiry, a
// principal and the audience "rootsdemo-server". Stdio has no
// authentication, so the principal is the connection: a random id made at
// its start. A retry whose requestState was altered, has expired, or
// belongs to another call, connection or service is answered with error
// -32602. Sealing bounds replay to the expiry; it does
// not make a state single-use, which would need a record of used states.
//
// With -http ADDR it serves MCP's Streamable HTTP transport at
// http://ADDR/mcp instead: 2026-07-28 requests each in a POST of their
// own, 2025-era clients in sessions (Mcp-Session-Id) whose roots/list
// reaches them over server-sent events. Any local process can then be a
// client, so -http needs -allow DIR: without it the server exits with
// status 2, unless -unsafe-allow-all says that read_file may read
// whatever the client's roots cover. -max-body, -max-sessions,
// -session-idle and -max-conns bound what clients can hold; see
// README.md in this directory.
//
//	rootsdemo-server [-transcript FILE] [-timeout 30s] [-max-age 0] [-strict] [-allow DIR]...
//	rootsdemo-server -http ADDR -allow DIR... [-max-body 4194304] [-max-sessions 100] [-session-idle 10m] [-max-conns 256] [flags above]
package main

import "github.com/rootsgen/rootsgen/cmd/internal/demoserver"

func main() { demoserver.Main() }
