// A stdio MCP server built on @modelcontextprotocol/server (v2) that asks its
// client for roots, used by the Go interop tests against rootsdemo-client.
//
// Tools:
//   list_roots          the client's roots. On a 2025-era connection it sends a
//                       roots/list request (server.listRoots); on 2026-07-28 it
//                       answers input_required with an embedded roots/list and
//                       reads the retried call's inputResponses.
//   list_changed_count  how many notifications/roots/list_changed arrived.
// Both answer with structuredContent and the same JSON as text.
//
// --shim: list_roots returns input_required on every era and lets the SDK's
// 2025-era shim turn it into a roots/list request.
//
// --http: serve Streamable HTTP on 127.0.0.1 (a free port) instead of stdio,
// and print the endpoint's URL (http://127.0.0.1:PORT/mcp) as the first line
// of stdout. 2026-07-28 requests go to the SDK's createMcpHandler (stateless,
// one server instance per request); 2025-era traffic, which isLegacyRequest
// recognizes, goes to a stateful WebStandardStreamableHTTPServerTransport per
// session (Mcp-Session-Id, the GET stream, DELETE), where listRoots() can
// reach the client.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
    McpServer,
    WebStandardStreamableHTTPServerTransport,
    createMcpHandler,
    inputRequired,
    inputResponse,
    isLegacyRequest
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const shim = process.argv.includes('--shim');
let listChanged = 0;

function result(value) {
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function modern(ctx) {
    const v = ctx.mcpReq.envelope?.['io.modelcontextprotocol/protocolVersion'];
    return typeof v === 'string' && v >= '2026-07-28';
}

function factory() {
    const mcp = new McpServer({ name: 'node-roots-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.server.setNotificationHandler('notifications/roots/list_changed', () => {
        listChanged++;
    });
    mcp.registerTool('list_roots', { description: 'The roots the client shares.' }, async ctx => {
        if (!shim && !modern(ctx)) {
            const { roots } = await mcp.server.listRoots();
            return result({ roots });
        }
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
        if (answer.kind === 'roots') {
            return result({ roots: answer.roots });
        }
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() }, requestState: 'roots-1' });
    });
    mcp.registerTool('list_changed_count', { description: 'How many roots list_changed notifications arrived.' }, async () =>
        result({ count: listChanged })
    );
    return mcp;
}

function onerror(err) {
    process.stderr.write(`node-roots-server: ${err.message}\n`);
}

if (process.argv.includes('--http')) {
    serveHttp();
} else {
    serveStdio(factory, { onerror });
}

function serveHttp() {
    const modern = createMcpHandler(factory, { legacy: 'reject', onerror });
    const sessions = new Map();
    async function legacy(request) {
        const id = request.headers.get('mcp-session-id');
        if (id) {
            const transport = sessions.get(id);
            return transport ? transport.handleRequest(request) : new Response('unknown session', { status: 404 });
        }
        const transport = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: sid => sessions.set(sid, transport),
            onsessionclosed: sid => sessions.delete(sid)
        });
        transport.onerror = onerror;
        await factory().connect(transport);
        return transport.handleRequest(request);
    }
    const server = createServer(async (req, res) => {
        try {
            const chunks = [];
            for await (const chunk of req) chunks.push(chunk);
            const body = Buffer.concat(chunks);
            const headers = new Headers();
            for (const [name, value] of Object.entries(req.headers)) {
                for (const v of [value].flat()) headers.append(name, v);
            }
            const abort = new AbortController();
            res.on('close', () => abort.abort());
            const request = new Request(`http://${req.headers.host}${req.url}`, {
                method: req.method,
                headers,
                body: body.length > 0 ? body : undefined,
                signal: abort.signal
            });
            const response = (await isLegacyRequest(request)) ? await legacy(request) : await modern.fetch(request);
            res.writeHead(response.status, Object.fromEntries(response.headers));
            res.flushHeaders();
            if (response.body) {
                const reader = response.body.getReader();
                res.on('close', () => reader.cancel().catch(() => {}));
                for (;;) {
                    const { done, value } = await reader.read();
                    if (done) break;
                    res.write(value);
                }
            }
            res.end();
        } catch (err) {
            onerror(err);
            if (!res.headersSent) res.writeHead(500);
            res.end();
        }
    });
    server.listen(0, '127.0.0.1', () => {
        process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`);
    });
}
