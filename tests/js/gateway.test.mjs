// The gateway against the official SDK client, over Streamable HTTP and
// over stdio: initialize, paged lists, calls, progressive disclosure,
// errors, timeouts, concurrency, cancellation, list_changed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { Session, handlerSource } from '../../js/dispatch.mjs';
import { connect, demoGateway, initializeBody, jsonHeaders, listAll, raw, startGateway, structured } from './gateway-helpers.mjs';
import { root } from './helpers.mjs';

const demoTools = JSON.parse(readFileSync(join(root, 'js/examples/demo-home.tools-list.json'), 'utf8')).result.tools;

describe('Streamable HTTP, mode all', () => {
  let gw, home, client, transport;
  before(async () => {
    ({ gateway: gw, home } = await demoGateway({ engine: { pageSize: 4 } }));
    ({ client, transport } = await connect(gw.url));
  });
  after(async () => {
    await client.close();
    await gw.close();
  });

  test('initialize negotiates the newest revision and assigns a session', () => {
    assert.equal(client.getServerVersion().name, 'mcp-switchboard');
    assert.ok(client.getServerCapabilities().tools);
    assert.match(transport.sessionId, /^[0-9a-f-]{36}$/);
    assert.equal(gw.sessions.get(transport.sessionId).engine.protocolVersion, '2025-11-25');
  });

  test('tools/list pages follow nextCursor to the whole catalog', async () => {
    const { pages, tools } = await listAll(client);
    assert.equal(pages.length, Math.ceil(demoTools.length / 4));
    assert.ok(pages.slice(0, -1).every((p) => p.tools.length === 4));
    assert.deepEqual(tools.map((t) => t.name), demoTools.map((t) => t.name));
  });

  test('tools/call runs the handler and changes the home', async () => {
    const r = await client.callTool({ name: 'set_light', arguments: { deviceId: 'kitchen-spots', state: 'on', dim: 40 } });
    assert.equal(r.isError, undefined);
    assert.deepEqual(structured(r), { success: true, deviceId: 'kitchen-spots', name: 'Kitchen spots', on: true, dim: 40 });
    const spots = home.home.devices.find((d) => d.id === 'kitchen-spots');
    assert.equal(spots.state.onoff, true);
    const states = structured(await client.callTool({ name: 'get_states', arguments: { zoneId: 'kitchen', capability: 'onoff' } }));
    assert.deepEqual(states.states.map((s) => s.values), [{ onoff: true }]);
  });

  test('a tool failure is a result the model reads', async () => {
    const r = await client.callTool({ name: 'toggle_device', arguments: { deviceId: 'garage-door' } });
    assert.equal(r.isError, true);
    assert.match(structured(r).error, /no device with ID "garage-door"/);
  });

  test('arguments that do not fit the schema are refused before the handler', async () => {
    const r = await client.callTool({ name: 'set_light', arguments: { deviceId: 'living-lamp', state: 'blink' } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /Invalid arguments for set_light/);
  });

  test('an unknown tool is a JSON-RPC error with suggestions', async () => {
    await assert.rejects(client.callTool({ name: 'set_ligth', arguments: {} }), (e) => {
      assert.ok(e instanceof McpError);
      assert.equal(e.code, ErrorCode.InvalidParams);
      assert.match(e.message, /Unknown tool: set_ligth.*set_light/);
      return true;
    });
  });

  test('a reply as an SSE stream when the client accepts only that', async () => {
    const r = await raw(gw.url, {
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'mcp-session-id': transport.sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'ping' }),
    });
    assert.equal(r.status, 200);
    assert.match(r.headers['content-type'], /text\/event-stream/);
    assert.equal(r.body, 'event: message\ndata: {"jsonrpc":"2.0","id":77,"result":{}}\n\n');
  });

  test('bad JSON gets a JSON-RPC parse error', async () => {
    const r = await raw(gw.url, { headers: { ...jsonHeaders, 'mcp-session-id': transport.sessionId }, body: '{"jsonrpc": "2.0", "id": 1, "method"' });
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.body).error.code, -32700);
  });

  test('list_changed reaches the client on its GET stream', async () => {
    const changed = new Promise((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, resolve));
    const session = gw.sessions.get(transport.sessionId);
    for (let i = 0; i < 100 && session.streams.size === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(session.streams.size, 1, 'the SDK client opened its GET stream');
    gw.setCatalog(JSON.stringify({ tools: demoTools.slice(0, 3) }));
    await changed;
    const { tools } = await listAll(client);
    assert.deepEqual(tools.map((t) => t.name), demoTools.slice(0, 3).map((t) => t.name));
  });

  test('DELETE ends the session', async () => {
    const { client: c2, transport: t2 } = await connect(gw.url);
    const id = t2.sessionId;
    assert.ok(gw.sessions.has(id));
    await t2.terminateSession();
    assert.ok(!gw.sessions.has(id));
    const r = await raw(gw.url, { headers: { ...jsonHeaders, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    assert.equal(r.status, 404);
    await c2.close();
  });
});

describe('progressive disclosure (hybrid)', () => {
  let gw, home, client;
  before(async () => {
    ({ gateway: gw, home } = await demoGateway({ engine: { mode: 'hybrid' } }));
    ({ client } = await connect(gw.url));
  });
  after(async () => {
    await client.close();
    await gw.close();
  });

  test('the list is the core tools plus the meta-tools', async () => {
    const { tools } = await listAll(client);
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('get_home_structure'));
    for (const meta of ['search_tools', 'get_tool_definition', 'use_tool']) assert.ok(names.includes(meta), meta);
    assert.ok(!names.includes('set_thermostat'));
    assert.ok(tools.length < demoTools.length);
  });

  test('search_tools finds a hidden tool, use_tool runs it', async () => {
    const found = structured(await client.callTool({ name: 'search_tools', arguments: { query: 'set the heating temperature' } }));
    assert.equal(found.hits[0].name, 'set_thermostat');
    assert.match(found.hits[0].parameters, /temperature/);
    const def = await client.callTool({ name: 'get_tool_definition', arguments: { name: 'set_thermostat' } });
    assert.equal(def.structuredContent.definition.inputSchema.required[1], 'temperature');
    const r = await client.callTool({ name: 'use_tool', arguments: { name: 'set_thermostat', arguments: { deviceId: 'living-thermostat', temperature: 21.5 } } });
    assert.equal(structured(r).targetTemperature, 21.5);
    assert.equal(home.home.devices.find((d) => d.id === 'living-thermostat').state.target_temperature, 21.5);
  });

  test('use_tool validates the inner arguments', async () => {
    const r = await client.callTool({ name: 'use_tool', arguments: { name: 'set_thermostat', arguments: { deviceId: 'living-thermostat', temperature: 99 } } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /temperature/);
  });
});

describe('invocations: concurrency, timeouts, exceptions, cancellation', () => {
  const tools = ['slow', 'fast', 'hang', 'boom', 'plain'].map((name) => ({ name, description: name, inputSchema: { type: 'object' } }));
  let release;
  const released = new Promise((r) => (release = r));
  let slowSignal;
  const handlers = {
    async slow(_args, { signal }) {
      slowSignal = signal;
      await released;
      return { content: [{ type: 'text', text: 'slow done' }] };
    },
    fast: () => ({ content: [{ type: 'text', text: 'fast done' }] }),
    hang: () => new Promise(() => {}),
    boom() {
      throw new Error('the relay is stuck');
    },
    plain: () => ({ on: true }),
  };
  let gw, client;
  before(async () => {
    gw = await startGateway({ source: handlerSource({ tools }, handlers), timeoutMs: 300 });
    ({ client } = await connect(gw.url));
  });
  after(async () => {
    await client.close();
    await gw.close();
  });

  test('a slow invocation does not hold up others', async () => {
    const slow = client.callTool({ name: 'slow', arguments: {} });
    await new Promise((r) => setTimeout(r, 20));
    const fast = await client.callTool({ name: 'fast', arguments: {} });
    assert.equal(fast.content[0].text, 'fast done');
    const both = await Promise.all([client.callTool({ name: 'fast', arguments: {} }), client.callTool({ name: 'fast', arguments: {} })]);
    assert.equal(both.length, 2);
    release();
    // the slow one may have timed out (300 ms) on a loaded machine; either way it answered
    const r = await slow;
    assert.ok(r.content[0].text === 'slow done' || r.isError);
  });

  test('an invocation past its timeout gets a tool error, never a hung request', async () => {
    const t0 = Date.now();
    const r = await client.callTool({ name: 'hang', arguments: {} });
    assert.equal(r.isError, true);
    assert.equal(r.content[0].text, 'Error: hang timed out after 0.3 s');
    assert.ok(Date.now() - t0 < 5000);
  });

  test('each invocation times out at its own deadline, on one timer per session', async () => {
    const session = new Session(handlerSource({ tools }, handlers), { timeoutMs: 300 });
    const send = (m) => session.send(JSON.stringify(m)).reply;
    await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = (id, name) => send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }).then((r) => ({ at: Date.now(), r: JSON.parse(r ?? 'null') }));
    const t0 = Date.now();
    const first = call(1, 'hang');
    await new Promise((r) => setTimeout(r, 150));
    const t1 = Date.now();
    const second = call(2, 'hang');
    let secondDone = false;
    second.then(() => (secondDone = true));
    // a call that ends in between neither ends nor moves the others' deadlines
    assert.equal((await call(3, 'fast')).r.result.content[0].text, 'fast done');
    const a = await first;
    assert.equal(secondDone, false);
    assert.equal(a.r.result.content[0].text, 'Error: hang timed out after 0.3 s');
    assert.ok(a.at - t0 >= 295, `${a.at - t0} ms`);
    const b = await second;
    assert.equal(b.r.result.isError, true);
    assert.ok(b.at - t1 >= 295, `${b.at - t1} ms`);
    assert.ok(b.at >= a.at);
    session.close();
  });

  test('a timed-out invocation is answered by the engine and its signal aborts', async () => {
    let aborted = false;
    const slow = (/** @type {any} */ _args, /** @type {any} */ ctx) =>
      new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          resolve({ content: [] });
        }),
      );
    const events = [];
    const session = new Session(handlerSource({ tools: [{ name: 'slow', inputSchema: { type: 'object' } }] }, { slow }), {
      timeoutMs: 200,
      report: (level, message, event) => events.push({ level, message, type: event?.type }),
    });
    const r = await session.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } })).reply;
    assert.deepEqual(JSON.parse(r ?? 'null').result, { content: [{ type: 'text', text: 'Error: slow timed out after 0.2 s' }], isError: true });
    assert.equal(aborted, true);
    assert.equal(session.counts.toolErrors, 1);
    assert.deepEqual(events, [{ level: 'warn', message: 'slow failed: slow timed out after 0.2 s', type: 'tool-error' }]);
    // the outcome the handler gave after the abort is dropped: nothing more is sent, nothing waits
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(session.engine.outstanding, 0);
    assert.equal(session.engine.pollTimeout(), undefined);
    session.close();
  });

  test('the deadline timer holds the process open only while an invocation runs', () => {
    const script = (handler, timeoutMs) => `
      import { Session, handlerSource } from ${JSON.stringify(join(root, 'js/dispatch.mjs'))};
      const session = new Session(handlerSource({ tools: [{ name: 't', inputSchema: { type: 'object' } }] }, { t: ${handler} }), { timeoutMs: ${timeoutMs} });
      const send = (m) => session.send(JSON.stringify(m)).reply;
      await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {} } }).then((r) => console.log(JSON.parse(r).result.content[0].text));`;
    const run = (handler, timeoutMs) => {
      const t0 = Date.now();
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(handler, timeoutMs)], { encoding: 'utf8', timeout: 30_000 });
      return { out: r.stdout.trim(), err: r.stderr, status: r.status, ms: Date.now() - t0 };
    };
    // a call that ended: the process exits long before the 60 s timeout
    const done = run('() => ({ ok: true })', 60_000);
    assert.equal(done.status, 0, done.err);
    assert.match(done.out, /"ok":true/);
    assert.ok(done.ms < 20_000, `${done.ms} ms`);
    // a call that never ends keeps it open until its timeout answers it
    const hung = run('() => new Promise(() => {})', 500);
    assert.equal(hung.status, 0, hung.err);
    assert.equal(hung.out, 'Error: t timed out after 0.5 s');
  });

  test('an exception becomes a tool error', async () => {
    const r = await client.callTool({ name: 'boom', arguments: {} });
    assert.deepEqual(r, { content: [{ type: 'text', text: 'Error: the relay is stuck' }], isError: true });
  });

  test('a plain value becomes a success result', async () => {
    const r = await client.callTool({ name: 'plain', arguments: {} });
    assert.deepEqual(r.structuredContent, { success: true, on: true });
  });

  test('cancelling a call aborts its handler', async () => {
    const controller = new AbortController();
    slowSignal = undefined;
    const waitUntilAborted = async (_args, { signal }) => {
      slowSignal = signal;
      await new Promise((r) => signal.addEventListener('abort', r));
      return { content: [] };
    };
    const gw2 = await startGateway({ source: handlerSource({ tools }, { ...handlers, slow: waitUntilAborted }), timeoutMs: 5000 });
    const { client: c } = await connect(gw2.url);
    const call = c.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
    for (let i = 0; i < 100 && !slowSignal; i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort('changed my mind');
    await assert.rejects(call);
    for (let i = 0; i < 100 && !slowSignal.aborted; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(slowSignal.aborted, true);
    assert.equal(gw2.sessions.values().next().value.engine.outstanding, 0);
    await c.close();
    await gw2.close();
  });
});

describe('stdio transport', () => {
  let client;
  before(async () => {
    client = new Client({ name: 'switchboard-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(root, 'js/cli.mjs'), 'serve', '--demo', '--stdio', '--mode', 'hybrid', '--page-size', '2'],
        stderr: 'pipe',
      }),
    );
  });
  after(() => client.close());

  test('initialize, paged list, search_tools then use_tool', async () => {
    assert.equal(client.getServerVersion().name, 'mcp-switchboard');
    const { pages, tools } = await listAll(client);
    assert.ok(pages.length >= 3);
    assert.ok(tools.some((t) => t.name === 'use_tool'));
    const found = structured(await client.callTool({ name: 'search_tools', arguments: { query: 'turn off all lights in a room' } }));
    assert.ok(found.hits.some((h) => h.name === 'control_zone_lights'), JSON.stringify(found));
    const r = await client.callTool({ name: 'use_tool', arguments: { name: 'control_zone_lights', arguments: { zoneId: 'living_room', action: 'off' } } });
    assert.deepEqual(structured(r).lights.map((l) => l.on), [false, false]);
  });

  test('errors over stdio', async () => {
    await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), (e) => e.code === ErrorCode.InvalidParams);
    const r = await client.callTool({ name: 'use_tool', arguments: { name: 'get_states', arguments: { zoneId: 'attic' } } });
    assert.equal(r.isError, true);
  });
});

test('raw initialize without a session gets a session id header', async () => {
  const { gateway } = await demoGateway();
  try {
    const r = await raw(gateway.url, { headers: jsonHeaders, body: initializeBody });
    assert.equal(r.status, 200);
    assert.ok(r.headers['mcp-session-id']);
    assert.equal(JSON.parse(r.body).result.protocolVersion, '2025-11-25');
    const noSession = await raw(gateway.url, { headers: jsonHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    assert.equal(noSession.status, 400);
  } finally {
    await gateway.close();
  }
});

test('a session: 202-style answers for notifications, and ctx.signal aborted for a request cancelled before the tool reads it', async () => {
  const { Session } = await import('../../js/dispatch.mjs');
  const catalog = { tools: [{ name: 'late', description: 'Reads its signal late.', inputSchema: { type: 'object' } }] };
  let release;
  const gate = new Promise((r) => (release = r));
  let seen;
  const session = new Session(
    handlerSource(catalog, {
      async late(_args, ctx) {
        await gate;
        seen = ctx.signal.aborted;
        return { ok: true };
      },
    }),
  );
  const init = session.send(initializeBody);
  assert.equal(init.owed, true);
  assert.ok(await init.reply);
  const note = session.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  assert.equal(note.owed, false);
  assert.equal(await note.reply, null);
  const call = session.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'late', arguments: {} } }));
  assert.equal(call.owed, true);
  session.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }));
  assert.equal(await call.reply, null, 'a cancelled request gets no reply');
  release();
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(seen, true);
  session.close();
});

test("a handlerSource's values reach the client as asToolResultJson shapes them, and a value with no JSON form is the tool's error", async () => {
  const { Session } = await import('../../js/dispatch.mjs');
  const { asToolResult } = await import('../../pkg/full/index.mjs');
  const cyclic = /** @type {any} */ ({ a: 1 });
  cyclic.self = cyclic;
  const values = {
    result: { content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 } },
    plain: { on: true, dim: 0.5 },
    text: 'just text',
    list: [1, 2],
    nothing: undefined,
    badStructured: { content: [], structuredContent: 'no' },
    cyclic,
    big: { n: 1n },
  };
  const catalog = { tools: Object.keys(values).map((name) => ({ name, inputSchema: { type: 'object' } })) };
  const handlers = Object.fromEntries(Object.entries(values).map(([name, v]) => [name, async () => v]));
  const source = handlerSource(catalog, handlers);
  // the same tools through a wrapper of `call`: the wrapper runs, with call()'s JSON text
  const wrapped = { ...source, call: (name, args, ctx) => source.call(name, args, ctx).then((r) => ((r === '{"content":[],"structuredContent":"no"}' ? '{"content":[{"type":"text","text":"wrapped"}]}' : r))) };
  /** @type {import('../../js/dispatch.mjs').GatewayEvent[]} */
  const events = [];
  const counts = { calls: 0, toolErrors: 0 };
  const call = async (session, name, id) => {
    const reply = await session.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } })).reply;
    return JSON.parse(reply ?? 'null');
  };
  const direct = new Session(source, { report: (_l, _m, e) => e && events.push(e), counts });
  const through = new Session(wrapped);
  for (const s of [direct, through]) {
    await s.send(initializeBody).reply;
    await s.send('{"jsonrpc":"2.0","method":"notifications/initialized"}').reply;
  }
  try {
    for (const name of ['result', 'plain', 'text', 'list', 'nothing']) {
      const r = await call(direct, name, 1);
      assert.deepEqual(r.result, asToolResult(values[name]), name);
      assert.deepEqual((await call(through, name, 1)).result, r.result, name);
    }
    // a result of the wrong shape: an internal error, as complete() gives it
    assert.equal((await call(direct, 'badStructured', 2)).error.code, -32603);
    assert.equal((await call(through, 'badStructured', 2)).result.content[0].text, 'wrapped');
    for (const name of ['cyclic', 'big']) {
      const r = await call(direct, name, 3);
      assert.equal(r.result.isError, true, name);
      assert.match(r.result.content[0].text, /^Error: the result cannot be turned into JSON/, name);
      assert.deepEqual((await call(through, name, 3)).result, r.result, name);
    }
    assert.equal(counts.toolErrors, 2);
    assert.deepEqual(
      events.filter((e) => e.type === 'tool-error').map((e) => e.tool),
      ['cyclic', 'big'],
    );
  } finally {
    direct.close();
    through.close();
  }
});
