// An MCP client built on @modelcontextprotocol/client (v2) that shares
// roots with the server it spawns over stdio, or reaches over Streamable
// HTTP with --url, used by the Go interop tests against rootsdemo-server.
//
//   node client.mjs [--pin REV | --legacy REV] --root URI[=NAME]... --then URI[=NAME]... (-- SERVER_CMD [ARGS...] | --url URL)
//
// It connects (legacy initialize by default; --legacy REV offers only REV;
// --pin REV negotiates the 2026-07-28 era through server/discover), lists the
// tools, calls list_roots, replaces its roots with the --then set (sending
// notifications/roots/list_changed on legacy connections), calls list_roots
// twice more, and prints one JSON object with what it saw, including how
// many roots/list requests its handler answered.
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

function usage(msg) {
    process.stderr.write(`client.mjs: ${msg}\nusage: node client.mjs [--pin REV | --legacy REV] --root URI[=NAME]... --then URI[=NAME]... (-- SERVER_CMD [ARGS...] | --url URL)\n`);
    process.exit(2);
}

function parseRoot(s) {
    const i = s.indexOf('=');
    return i < 0 ? { uri: s } : { uri: s.slice(0, i), name: s.slice(i + 1) };
}

const argv = process.argv.slice(2);
const opts = { first: [], then: [] };
let cmd;
for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === '--') {
        cmd = argv.slice(i + 1);
        break;
    } else if (a === '--pin') opts.pin = next();
    else if (a === '--legacy') opts.legacy = next();
    else if (a === '--root') opts.first.push(parseRoot(next()));
    else if (a === '--then') opts.then.push(parseRoot(next()));
    else if (a === '--url') opts.url = next();
    else usage(`unknown argument ${a}`);
}
if (!opts.url && (!cmd || cmd.length === 0)) usage('missing SERVER_CMD or --url');

const clientOptions = { capabilities: { roots: { listChanged: true } } };
if (opts.pin) clientOptions.versionNegotiation = { mode: { pin: opts.pin } };
if (opts.legacy) clientOptions.supportedProtocolVersions = [opts.legacy];

const client = new Client({ name: 'node-roots-client', version: '1.0.0' }, clientOptions);
let roots = opts.first;
let rootsListCalls = 0;
client.setRequestHandler('roots/list', async () => {
    rootsListCalls++;
    return { roots };
});
const errors = [];
client.onerror = err => errors.push(String(err?.message ?? err));

const transport = opts.url
    ? new StreamableHTTPClientTransport(new URL(opts.url))
    : new StdioClientTransport({ command: cmd[0], args: cmd.slice(1), stderr: 'inherit' });
const summary = {};
try {
    await client.connect(transport);
    summary.protocolVersion = client.getNegotiatedProtocolVersion();
    summary.serverInfo = client.getServerVersion()?.name;
    summary.tools = (await client.listTools()).tools.map(t => t.name);
    const first = await client.callTool({ name: 'list_roots', arguments: {} });
    summary.first = { structuredContent: first.structuredContent, text: first.content?.[0]?.text, isError: first.isError ?? false };
    roots = opts.then;
    const legacy = !String(summary.protocolVersion).startsWith('2026');
    if (legacy) await client.sendRootsListChanged();
    summary.sentListChanged = legacy;
    const second = await client.callTool({ name: 'list_roots', arguments: {} });
    summary.second = { structuredContent: second.structuredContent, text: second.content?.[0]?.text, isError: second.isError ?? false };
    const third = await client.callTool({ name: 'list_roots', arguments: {} });
    summary.third = { structuredContent: third.structuredContent, text: third.content?.[0]?.text, isError: third.isError ?? false };
    summary.rootsListCalls = rootsListCalls;
} catch (err) {
    summary.error = String(err?.message ?? err);
    if (err?.code !== undefined) summary.errorCode = err.code;
}
summary.errors = errors;
await client.close();
process.stdout.write(JSON.stringify(summary) + '\n');
process.exit(summary.error ? 1 : 0);
