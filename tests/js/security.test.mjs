// Transport security and exposure control: Origin and Host (403), bearer
// token (401), body size (413, declared or streamed), unknown session (404),
// no token off loopback, and hidden tools unreachable by tools/call and
// use_tool.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { connect, demoGateway, initializeBody, jsonHeaders, listAll, raw, serveChild, structured } from './gateway-helpers.mjs';
import { cli } from './helpers.mjs';

describe('HTTP security', () => {
  let gw, locked;
  before(async () => {
    ({ gateway: gw } = await demoGateway({ maxBody: 64 * 1024 }));
    ({ gateway: locked } = await demoGateway({ token: 's3cret-token' }));
  });
  after(async () => {
    await gw.close();
    await locked.close();
  });

  test('a foreign Origin is refused with 403', async () => {
    const r = await raw(gw.url, { headers: { ...jsonHeaders, origin: 'https://evil.example' }, body: initializeBody });
    assert.equal(r.status, 403);
    assert.match(r.body, /origin https:\/\/evil.example is not allowed/);
    const ok = await raw(gw.url, { headers: { ...jsonHeaders, origin: 'http://localhost:5173' }, body: initializeBody });
    assert.equal(ok.status, 200);
  });

  test('a foreign Host (DNS rebinding) is refused with 403', async () => {
    const r = await raw(gw.url, { headers: { ...jsonHeaders, host: 'evil.example' }, body: initializeBody });
    assert.equal(r.status, 403);
  });

  test('a missing or wrong bearer token is refused with 401', async () => {
    const none = await raw(locked.url, { headers: jsonHeaders, body: initializeBody });
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    const wrong = await raw(locked.url, { headers: { ...jsonHeaders, authorization: 'Bearer nope' }, body: initializeBody });
    assert.equal(wrong.status, 401);
    await assert.rejects(connect(locked.url), (e) => e.code === 401 && /bearer token/.test(e.message));
    const { client } = await connect(locked.url, { requestInit: { headers: { authorization: 'Bearer s3cret-token' } } });
    assert.ok((await client.listTools()).tools.length > 0);
    await client.close();
  });

  test('an oversized body is refused with 413, declared or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(100 * 1024) } });
    const declared = await raw(gw.url, { headers: jsonHeaders, body: big });
    assert.equal(declared.status, 413);
    const chunk = 'x'.repeat(16 * 1024);
    const streamed = await raw(gw.url, { headers: { ...jsonHeaders, 'transfer-encoding': 'chunked' }, chunks: Array(16).fill(chunk) });
    // the gateway answers 413 as soon as the limit is passed and closes the connection
    assert.ok(streamed.status === 413 || streamed.status === 'reset', `got ${streamed.status}`);
    const still = await raw(gw.url, { headers: jsonHeaders, body: initializeBody });
    assert.equal(still.status, 200);
  });

  test('an unknown session is refused with 404', async () => {
    const r = await raw(gw.url, { headers: { ...jsonHeaders, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    assert.equal(r.status, 404);
    const del = await raw(gw.url, { method: 'DELETE', headers: { 'mcp-session-id': 'no-such-session' } });
    assert.equal(del.status, 404);
  });

  test('GET without an event-stream Accept is 405; other paths 404', async () => {
    const r = await raw(gw.url, { method: 'GET', headers: { accept: 'application/json' } });
    assert.equal(r.status, 405);
    assert.match(r.headers.allow, /POST/);
    const other = await raw(gw.url.replace('/mcp', '/other'), { headers: jsonHeaders, body: initializeBody });
    assert.equal(other.status, 404);
  });

  test('an unsupported MCP-Protocol-Version is refused with 400', async () => {
    const r = await raw(gw.url, { headers: { ...jsonHeaders, 'mcp-protocol-version': '1999-01-01' }, body: initializeBody });
    assert.equal(r.status, 400);
  });
});

describe('binding', () => {
  test('serve refuses another host without a token', () => {
    const r = cli(['serve', '--demo', '--host', '0.0.0.0', '--port', '0']);
    assert.equal(r.status, 2);
    assert.match(r.stderr.split('\n')[0], /token/);
    assert.ok(!/\n\s+at /.test(r.stderr));
  });

  test('serve binds 127.0.0.1 by default and stops cleanly on SIGTERM', async () => {
    const s = await serveChild(['--demo']);
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client } = await connect(s.url);
    assert.equal((await client.listTools()).tools.length, 13);
    await client.close();
    assert.equal(await s.stop(), 0);
    assert.match(s.stderr(), /stopped/);
  });
});

describe('exposure control', () => {
  const cases = [
    { name: 'deny', engine: { deny: ['trigger_any_flow'] }, hidden: 'trigger_any_flow', visible: 'set_light' },
    { name: 'allow', engine: { allow: ['get_states', 'set_light'] }, hidden: 'toggle_device', visible: 'set_light' },
    { name: 'readOnly', engine: { readOnly: true }, hidden: 'set_light', visible: 'get_states' },
    { name: 'noDestructive', engine: { noDestructive: true }, hidden: 'trigger_any_flow', visible: 'set_light' },
  ];
  for (const mode of ['all', 'hybrid']) {
    for (const c of cases) {
      test(`${c.name} (${mode}): the hidden tool is not listed, not callable, not reachable by use_tool`, async () => {
        const { gateway, home } = await demoGateway({ engine: { ...c.engine, mode } });
        const before = JSON.stringify(home.home);
        const { client } = await connect(gateway.url);
        try {
          const { tools } = await listAll(client);
          assert.ok(!tools.some((t) => t.name === c.hidden));
          const hiddenArgs = { deviceId: 'living-lamp', state: 'on', command: 'good_morning' };
          await assert.rejects(client.callTool({ name: c.hidden, arguments: hiddenArgs }), /Unknown tool/);
          if (mode === 'hybrid') {
            const viaUse = await client.callTool({ name: 'use_tool', arguments: { name: c.hidden, arguments: hiddenArgs } });
            assert.equal(viaUse.isError, true);
            assert.match(viaUse.content[0].text, /There is no tool named/);
            const found = structured(await client.callTool({ name: 'search_tools', arguments: { query: c.hidden.replaceAll('_', ' '), limit: 20 } }));
            assert.ok(!found.hits.some((h) => h.name === c.hidden));
            const def = await client.callTool({ name: 'get_tool_definition', arguments: { name: c.hidden } });
            assert.equal(def.isError, true);
            const ok = await client.callTool({ name: 'use_tool', arguments: { name: c.visible, arguments: c.visible === 'set_light' ? { deviceId: 'living-lamp', state: 'off' } : {} } });
            assert.ok(!ok.isError, JSON.stringify(ok));
          } else {
            const ok = await client.callTool({ name: c.visible, arguments: c.visible === 'set_light' ? { deviceId: 'living-lamp', state: 'toggle' } : {} });
            assert.ok(!ok.isError, JSON.stringify(ok));
          }
          if (c.hidden !== c.visible) {
            const after = JSON.parse(JSON.stringify(home.home));
            // only the visible tool's light may have changed
            const lamp = (h) => h.devices.find((d) => d.id === 'living-lamp');
            lamp(after).state = lamp(JSON.parse(before)).state;
            assert.equal(JSON.stringify(after), before);
          }
        } finally {
          await client.close();
          await gateway.close();
        }
      });
    }
  }
});
