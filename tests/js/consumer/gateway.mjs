// mcp-switchboard/gateway as a library, from the installed package: run by
// consumer.test.mjs with Node 18 and Node 22, loading the entry by import
// (`node gateway.mjs esm`) or by require (`node gateway.mjs cjs`); prints
// "ok". A host tool is served over the gateway's own http.Server and over
// a request handler on the host's server, to the official MCP SDK client;
// then list_changed after updateCatalog, mode and exposure changes, a
// refused token, a token changed without dropping the session, failed-login
// limiting (429), handleMessage, status() and the logger's events.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const mode = process.argv[2];
const lib = mode === 'cjs' ? createRequire(import.meta.url)('mcp-switchboard/gateway') : await import('mcp-switchboard/gateway');
const { createGateway, startGateway, handlerSource, serveStdio, connectUpstream, Session, Gateway } = lib;
for (const [name, f] of Object.entries({ createGateway, startGateway, handlerSource, serveStdio, connectUpstream, Session, Gateway })) {
  assert.equal(typeof f, 'function', name);
}
// the gateway runs on the package's one instance
const sb = mode === 'cjs' ? createRequire(import.meta.url)('mcp-switchboard') : await import('mcp-switchboard');
assert.equal(typeof sb.validateValue, 'function');

const light = { on: false, dim: 0 };
const tools = [
  {
    name: 'set_light',
    description: 'Turn the kitchen light on or off, or dim it.',
    inputSchema: { type: 'object', properties: { on: { type: 'boolean' }, dim: { type: 'integer', minimum: 0, maximum: 100 } }, required: ['on'] },
    annotations: { destructiveHint: false },
  },
  { name: 'get_light', description: 'The kitchen light state.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
];
const handlers = {
  set_light: ({ on, dim }) => {
    Object.assign(light, { on }, dim === undefined ? {} : { dim });
    return { success: true, ...light };
  },
  get_light: () => ({ ...light }),
  'say hello': () => 'hello',
};
const source = handlerSource({ tools }, handlers);

const events = [];
const lines = { info: [], warn: [], error: [] };
const logger = Object.fromEntries(Object.keys(lines).map((level) => [level, (message) => lines[level].push(message)]));

/** An SDK client connected to url with a bearer token (or none). */
async function connect(url, token) {
  const client = new Client({ name: 'consumer', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {});
  await client.connect(transport);
  return { client, transport };
}

/** A raw POST (fetch) with a bearer token: {status, headers, body}. */
async function post(url, token, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

const waitFor = async (what, check) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
};

// 1. the gateway's own http.Server, a token, a small failed-login limit
const gw = await startGateway({ source, port: 0, token: 'first-token', maxAuthFailures: 3, authWindowMs: 60_000, maxSessions: 8, logger, onEvent: (e) => events.push(e) });
assert.ok(gw instanceof Gateway);
assert.match(gw.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
const { client, transport } = await connect(gw.url, 'first-token');
assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['set_light', 'get_light']);
const set = await client.callTool({ name: 'set_light', arguments: { on: 'true', dim: 40 } });
assert.deepEqual(set.structuredContent, { success: true, on: true, dim: 40 });
assert.deepEqual(light, { on: true, dim: 40 });
const invalid = await client.callTool({ name: 'set_light', arguments: { dim: 400 } });
assert.equal(invalid.isError, true);
assert.match(invalid.content[0].text, /dim: must be an integer from 0 to 100/);

// list_changed on the client's GET stream after updateCatalog, setMode and setPolicy
const changes = [];
client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => changes.push(n));
const session = gw.sessions.get(transport.sessionId);
await waitFor('the GET stream', () => session.streams.size === 1);
gw.updateCatalog({ tools: [...tools, { name: 'say hello', description: 'Says hello.', inputSchema: { type: 'object' } }] });
await waitFor('list_changed after updateCatalog', () => changes.length === 1);
assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['set_light', 'get_light', 'say hello']);
assert.deepEqual((await client.callTool({ name: 'say hello', arguments: {} })).structuredContent, { success: true, result: 'hello' });
// a tool name MCP does not allow is reported, not refused
const catalogEvent = events.find((e) => e.type === 'catalog');
assert.equal(catalogEvent.report[0].action, 'flagged');
assert.match(lines.warn.join('\n'), /the tool name has ' '/);
gw.setMode('meta');
await waitFor('list_changed after setMode', () => changes.length === 2);
assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['search_tools', 'get_tool_definition', 'use_tool']);
const unknown = await client.callTool({ name: 'use_tool', arguments: { name: 'set_ligth', arguments: {} } });
assert.equal(unknown.content[0].text, 'There is no tool named "set_ligth". Did you mean set_light, get_light? Use search_tools to find one.');
gw.setMode('all');
gw.setPolicy({ readOnly: true });
await waitFor('list_changed after setPolicy', () => changes.length === 4);
assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['get_light']);
await assert.rejects(client.callTool({ name: 'set_light', arguments: { on: false } }), /Unknown tool: set_light/);
gw.setPolicy({});

// a wrong token is refused (401); a new token keeps the session
await assert.rejects(connect(gw.url, 'wrong-token'), /401|Unauthorized|bearer/i);
gw.setToken('second-token');
const ping = { jsonrpc: '2.0', id: 7, method: 'ping' };
const sessionHeader = { 'mcp-session-id': transport.sessionId, 'mcp-protocol-version': transport.protocolVersion ?? '2025-06-18' };
assert.equal((await post(gw.url, 'first-token', ping, sessionHeader)).status, 401);
const again = await post(gw.url, 'second-token', ping, sessionHeader);
assert.equal(again.status, 200);
assert.deepEqual(JSON.parse(again.body), { jsonrpc: '2.0', id: 7, result: {} });
assert.equal(gw.sessions.size, 1);
// a gateway reachable from other machines cannot drop its token
const lan = createGateway({ source, host: '0.0.0.0', token: 'lan-token' });
assert.throws(() => lan.setToken(null), (e) => e.code === 'usage' && /needs a bearer token/.test(e.message));
await lan.close();

// handleMessage: one engine, JSON in and out, no sessions
const listed = JSON.parse(await gw.handleMessage('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'));
assert.equal(listed.result.tools.length, 3);
const called = JSON.parse(await gw.handleMessage({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_light', arguments: {} } }));
assert.deepEqual(called.result.structuredContent, { success: true, on: true, dim: 40 });
assert.equal(await gw.handleMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}'), null);
assert.equal(JSON.parse(await gw.handleMessage('{"jsonrpc":')).error.code, -32700);

// failed logins: the third failure in the window (two were made above) locks the address out, right token or not
assert.equal((await post(gw.url, 'guess', ping)).status, 401);
const locked = await post(gw.url, 'second-token', ping, sessionHeader);
assert.equal(locked.status, 429);
assert.equal(locked.headers.get('retry-after'), '60');
assert.match(locked.body, /too many failed logins/);

const status = gw.status();
assert.equal(status.url, gw.url);
assert.equal(status.sessions, 1);
assert.equal(status.tools, 3);
assert.equal(status.mode, 'all');
assert.equal(status.token, true);
assert.equal(status.counts.authFailures, 3);
assert.equal(status.counts.loginLimited, 1);
assert.equal(status.counts.sessionsOpened, 1);
assert.equal(status.counts.calls, 3);
assert.equal(status.counts.messages, 4);
const types = new Set(events.map((e) => e.type));
for (const t of ['session-opened', 'auth-refused', 'login-limited', 'catalog']) assert.ok(types.has(t), `an event ${t}`);
assert.match(lines.info.join('\n'), /session opened/);
assert.match(lines.warn.join('\n'), /too many failed logins/);
await transport.close();
await gw.close();
assert.equal(gw.server.listening, false);

// 2. a request handler on the host's own server (other routes stay the host's), the path chosen,
//    and a server the host owns, which the gateway leaves running when it closes
const routed = createGateway({ source, path: '/api/mcp', engine: { mode: 'hybrid' } });
const server = createServer((req, res) => {
  if (req.url.startsWith('/api/mcp')) return routed.handler(req, res);
  res.writeHead(200, { 'content-type': 'text/plain' }).end('the host answers this');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
assert.equal(await (await fetch(`${base}/status`)).text(), 'the host answers this');
const c2 = await connect(`${base}/api/mcp`);
const names = (await c2.client.listTools()).tools.map((t) => t.name);
assert.ok(names.includes('search_tools') && names.includes('use_tool'), names.join());
const used = await c2.client.callTool({ name: 'use_tool', arguments: { name: 'set_light', arguments: { on: false } } });
assert.deepEqual(used.structuredContent, { success: true, on: false, dim: 40 });
assert.equal(routed.status().sessions, 1);
await c2.transport.close();
await routed.close();

// startGateway on a server the host made (and keeps)
const own = createServer();
const third = await startGateway({ source, server: own, port: 0 });
assert.equal(third.server, own);
const c3 = await connect(third.url);
assert.equal((await c3.client.callTool({ name: 'get_light', arguments: {} })).structuredContent.on, false);
await c3.transport.close();
await third.close();
assert.equal(own.listening, true);
await new Promise((resolve) => own.close(resolve));
await new Promise((resolve) => server.close(resolve));
console.log('ok');
