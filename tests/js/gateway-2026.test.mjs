// The gateway's 2026-07-28 path over Streamable HTTP, beside 2025
// sessions: stateless requests on the shared engine, statuses and JSON-RPC
// error bodies from the engine and the gate, progress on the request's
// stream, subscriptions/listen, a closed stream cancelling its call, and
// replies routed by request when calls finish out of order.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';

import { handlerSource } from '../../js/dispatch.mjs';
import { initializeBody, jsonHeaders, raw, startGateway } from './gateway-helpers.mjs';

const none = { type: 'object', properties: {} };
let aborted = 0;
const source = handlerSource(
  {
    tools: [
      { name: 'slow', description: 'Answers after a while, reporting progress.', inputSchema: none },
      { name: 'fast', description: 'Answers at once.', inputSchema: none },
      { name: 'hang', description: 'Never answers until cancelled.', inputSchema: none },
    ],
  },
  {
    slow: async (_args, ctx) => {
      ctx.progress?.(1, 2);
      await new Promise((r) => setTimeout(r, 100));
      ctx.progress?.(2, 2);
      return { content: [{ type: 'text', text: 'slow done' }] };
    },
    fast: () => ({ content: [{ type: 'text', text: 'fast done' }] }),
    hang: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          aborted++;
          reject(new Error('cancelled'));
        });
      }),
  },
  'test tools',
  {
    resources: [{ uri: 'test://a', name: 'a', mimeType: 'text/plain' }],
    read: ({ uri }) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'A' }] }),
  },
);

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 POST: headers that match the body. */
function modern(id, method, params = {}, extra = {}) {
  const headers = { ...jsonHeaders, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...extra };
  if (params.name && !extra['mcp-name']) headers['mcp-name'] = params.name;
  if (params.uri && !extra['mcp-name']) headers['mcp-name'] = params.uri;
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...META, ...params._meta } } }) };
}

/** SSE data lines as parsed messages. */
const events = (text) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)));

let gw;
before(async () => {
  gw = await startGateway({ source, timeoutMs: 5_000 });
});
after(() => gw.close());

test('2026-07-28 requests are served statelessly beside a 2025 session', async () => {
  const init = await raw(gw.url, { headers: jsonHeaders, body: initializeBody });
  assert.equal(init.status, 200);
  assert.ok(init.headers['mcp-session-id']);

  const discover = await raw(gw.url, modern(1, 'server/discover'));
  assert.equal(discover.status, 200);
  const d = JSON.parse(discover.body);
  assert.ok(d.result.supportedVersions.includes('2026-07-28'));

  const call = await raw(gw.url, modern(2, 'tools/call', { name: 'fast', arguments: {} }));
  assert.equal(call.status, 200);
  const r = JSON.parse(call.body);
  assert.equal(r.result.resultType, 'complete');
  assert.equal(r.result.content[0].text, 'fast done');

  const read = await raw(gw.url, modern(3, 'resources/read', { uri: 'test://a' }));
  assert.equal(JSON.parse(read.body).result.contents[0].text, 'A');
  assert.equal(gw.sessions.size, 1);
});

test('refusals and unknown methods get JSON-RPC errors with their status', async () => {
  const unknown = await raw(gw.url, modern(4, 'no/such'));
  assert.equal(unknown.status, 404);
  assert.equal(JSON.parse(unknown.body).error.code, -32601);

  const mismatch = await raw(gw.url, modern(5, 'tools/call', { name: 'fast', arguments: {} }, { 'mcp-name': 'slow' }));
  assert.equal(mismatch.status, 400);
  assert.match(mismatch.headers['content-type'], /application\/json/);
  assert.equal(JSON.parse(mismatch.body).error.code, -32020);

  const noCaps = modern(6, 'tools/list');
  noCaps.body = JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
  const bad = await raw(gw.url, noCaps);
  assert.equal(bad.status, 400);
  assert.equal(JSON.parse(bad.body).error.code, -32602);
});

test('progress goes on the request stream before its reply; replies are routed by request', async () => {
  const slow = raw(gw.url, modern(7, 'tools/call', { name: 'slow', arguments: {}, _meta: { progressToken: 'p1' } }));
  const fast = await raw(gw.url, modern(7, 'tools/call', { name: 'fast', arguments: {} }));
  assert.equal(JSON.parse(fast.body).result.content[0].text, 'fast done');
  const s = await slow;
  assert.match(s.headers['content-type'], /text\/event-stream/);
  const messages = events(s.body);
  assert.deepEqual(
    messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress),
    [1, 2],
  );
  assert.equal(messages.at(-1).result.content[0].text, 'slow done');
});

test('a 2025 session keeps its replies apart when calls finish out of order', async () => {
  const init = await raw(gw.url, { headers: jsonHeaders, body: initializeBody });
  const sid = init.headers['mcp-session-id'];
  const headers = { ...jsonHeaders, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
  const call = (id, name) => raw(gw.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }) });
  const [slow, fast] = await Promise.all([call(10, 'slow'), call(11, 'fast')]);
  assert.equal(JSON.parse(slow.body).id, 10);
  assert.equal(JSON.parse(slow.body).result.content[0].text, 'slow done');
  assert.equal(JSON.parse(fast.body).id, 11);
});

test('closing a request stream cancels its call; subscriptions/listen stays open until the gateway closes', async () => {
  const before = aborted;
  await new Promise((resolve, reject) => {
    const { headers, body } = modern(20, 'tools/call', { name: 'hang', arguments: {} });
    const req = request(gw.url, { method: 'POST', headers }, () => {});
    req.on('error', () => resolve(undefined));
    req.end(body);
    setTimeout(() => {
      req.destroy();
      resolve(undefined);
    }, 100);
    setTimeout(() => reject(new Error('timeout')), 3000).unref();
  });
  for (let i = 0; i < 50 && aborted === before; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(aborted, before + 1);

  const own = await startGateway({ source, timeoutMs: 5_000 });
  const listen = raw(own.url, modern(21, 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
  await new Promise((r) => setTimeout(r, 100));
  await own.close();
  const l = await listen;
  assert.equal(l.status, 200);
  const messages = events(l.body);
  assert.equal(messages[0].method, 'notifications/subscriptions/acknowledged');
});

test("a POST in a 2025 session: the gate's refusals and 2026-07-28 messages as without one, the rest read once by the session's engine", async () => {
  const init = await raw(gw.url, { headers: jsonHeaders, body: initializeBody });
  const sid = init.headers['mcp-session-id'];
  const session = { 'mcp-session-id': sid };
  const headers = { ...jsonHeaders, ...session, 'mcp-protocol-version': '2025-11-25' };
  assert.equal((await raw(gw.url, { headers, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })).status, 202);
  // 2025 traffic: a call, a parse error, an unknown method
  const call = await raw(gw.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fast', arguments: {} } }) });
  assert.equal(call.status, 200);
  assert.equal(JSON.parse(call.body).result.content[0].text, 'fast done');
  assert.equal(JSON.parse(call.body).result.resultType, undefined);
  const broken = await raw(gw.url, { headers, body: '{"jsonrpc":' });
  assert.equal(JSON.parse(broken.body).error.code, -32700);
  const unknown = await raw(gw.url, { headers, body: '{"jsonrpc":"2.0","id":2,"method":"no/such"}' });
  assert.equal(JSON.parse(unknown.body).error.code, -32601);
  // the gate refuses a 2026-07-28 header on a body without its envelope, before the engine
  const bare = await raw(gw.url, { headers: { ...headers, 'mcp-protocol-version': '2026-07-28' }, body: '{"jsonrpc":"2.0","id":3,"method":"tools/list"}' });
  assert.equal(bare.status, 400);
  assert.equal(JSON.parse(bare.body).error.code, -32602);
  // a 2026-07-28 message stands alone even with the session's id, and is checked as one
  const discover = await raw(gw.url, modern(4, 'server/discover', {}, session));
  assert.equal(discover.status, 200);
  assert.ok(JSON.parse(discover.body).result.supportedVersions.includes('2026-07-28'));
  const modernCall = await raw(gw.url, modern(5, 'tools/call', { name: 'fast', arguments: {} }, session));
  assert.equal(JSON.parse(modernCall.body).result.resultType, 'complete');
  const mismatch = await raw(gw.url, modern(6, 'tools/call', { name: 'fast', arguments: {} }, { ...session, 'mcp-name': 'slow' }));
  assert.equal(mismatch.status, 400);
  assert.equal(JSON.parse(mismatch.body).error.code, -32020);
  assert.equal(gw.sessions.get(sid).engine.outstanding, 0);
});
