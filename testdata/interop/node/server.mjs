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
import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';
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

serveStdio(() => {
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
}, { onerror: err => process.stderr.write(`node-roots-server: ${err.message}\n`) });
