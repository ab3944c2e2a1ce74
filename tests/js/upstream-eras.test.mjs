// Two independent SDK servers of two eras behind one gateway: a 2026-07-28
// server built on the v2 server SDK (`@modelcontextprotocol/server` 2.4.0,
// modern only: it refuses 2025 traffic) and a 2025 server built on SDK
// 1.32.2. Clients of both eras (SDK 1.32.2, and the v2 client pinned to
// 2026-07-28) list, call, get prompts and read resources of both, an
// upstream's list_changed reaches them, and the 2025 upstream killed
// mid-session takes only its own tools away.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { startGateway } from '../../js/gateway.mjs';
import { connectUpstreams } from '../../js/upstream.mjs';
import { connect } from './gateway-helpers.mjs';
import { dynamicUpstream, until } from './upstream-servers.mjs';

const MODERN = '2026-07-28';

/**
 * A 2026-07-28 server on the v2 SDK's web-standard handler, mounted on node:http: a tool, a prompt and a
 * resource; `log` records each request's method and MCP-Protocol-Version header.
 */
async function modernUpstream() {
  const log = [];
  const factory = () => {
    const server = new McpServer({ name: 'lights', version: '2.0.0' });
    server.registerTool(
      'set_light',
      { description: 'Turns a light on or off.', inputSchema: z.object({ name: z.string(), on: z.boolean() }) },
      async ({ name, on }) => ({ content: [{ type: 'text', text: `${name} ${on ? 'on' : 'off'}` }] }),
    );
    server.registerPrompt('evening', { description: 'Evening lights', argsSchema: z.object({ room: z.string() }) }, ({ room }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Dim the lights in the ${room}` } }],
    }));
    server.registerResource('all lights', 'lights://all', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'kitchen: on, hall: off' }],
    }));
    return server;
  };
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    try {
      log.push({ method: JSON.parse(body.toString('utf8') || '{}').method, version: req.headers['mcp-protocol-version'] ?? null });
    } catch {
      log.push({ method: null, version: req.headers['mcp-protocol-version'] ?? null });
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? body : undefined });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const c of response.body) res.write(c);
    res.end();
  });
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    log,
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

let lights, garden, source, gw;
before(async () => {
  lights = await modernUpstream();
  garden = await dynamicUpstream();
  source = await connectUpstreams(
    [
      { name: 'lights', url: lights.url },
      { name: 'garden', url: garden.url },
    ],
    { reconnectMs: 100, timeoutMs: 5000 },
  );
  gw = await startGateway({ source, engine: { mode: 'all' } });
});
after(async () => {
  await gw?.close();
  source?.close();
  await lights?.close();
  await garden?.close();
});

/** A 2025 client (SDK 1.32.2) and a 2026-07-28 one (v2, pinned). */
async function clients() {
  const { client: old } = await connect(gw.url);
  const modern = new ClientV2({ name: 'v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await modern.connect(new TransportV2(new URL(gw.url)));
  assert.equal(modern.getNegotiatedProtocolVersion(), MODERN);
  return { old, modern, close: () => Promise.all([old.close(), modern.close()]) };
}

test('the gateway speaks 2026-07-28 to the v2 server, and both clients reach both servers', async () => {
  assert.ok(lights.log.some((r) => r.method === 'server/discover' && r.version === MODERN), JSON.stringify(lights.log));
  assert.ok(!lights.log.some((r) => r.method === 'initialize'), 'no 2025 handshake with a modern-only server');
  const { old, modern, close } = await clients();
  try {
    for (const client of [old, modern]) {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('lights__set_light') && names.includes('garden__get_state'), names.join());
      const on = await client.callTool({ name: 'lights__set_light', arguments: { name: 'kitchen', on: true } });
      assert.deepEqual(on.content, [{ type: 'text', text: 'kitchen on' }]);
      const state = await client.callTool({ name: 'garden__get_state', arguments: {} });
      assert.deepEqual(state.content, [{ type: 'text', text: 'garden: get_state ok' }]);
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      assert.deepEqual(prompts.sort(), ['garden__water', 'lights__evening']);
      const p = await client.getPrompt({ name: 'lights__evening', arguments: { room: 'hall' } });
      assert.equal(p.messages[0].content.text, 'Dim the lights in the hall');
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      assert.ok(uris.includes('lights+lights://all') && uris.includes('garden+garden://zones'), uris.join());
      const read = await client.readResource({ uri: 'lights+lights://all' });
      assert.equal(read.contents[0].text, 'kitchen: on, hall: off');
    }
    const calls = lights.log.filter((r) => r.method === 'tools/call');
    assert.equal(calls.length, 2);
    assert.ok(calls.every((r) => r.version === MODERN), JSON.stringify(calls));
  } finally {
    await close();
  }
});

test("the 2025 upstream's list_changed reaches the client; killed mid-session, only its tools go", async () => {
  const { old, modern, close } = await clients();
  try {
    let told = 0;
    old.setNotificationHandler(ToolListChangedNotificationSchema, () => told++);
    await garden.addTool({ name: 'water_now', inputSchema: { type: 'object', properties: {} } });
    await until(() => told > 0);
    assert.ok((await modern.listTools()).tools.some((t) => t.name === 'garden__water_now'));
    await garden.close();
    garden = null;
    await until(async () => !(await old.listTools()).tools.some((t) => t.name.startsWith('garden__')));
    const names = (await modern.listTools()).tools.map((t) => t.name);
    assert.ok(!names.some((n) => n.startsWith('garden__')) && names.includes('lights__set_light'), names.join());
    const off = await modern.callTool({ name: 'lights__set_light', arguments: { name: 'hall', on: false } });
    assert.deepEqual(off.content, [{ type: 'text', text: 'hall off' }]);
    await assert.rejects(old.callTool({ name: 'garden__get_state', arguments: {} }), /garden__get_state/);
  } finally {
    await close();
  }
});
