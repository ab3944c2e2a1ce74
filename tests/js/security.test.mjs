// Transport security and exposure control: Origin and Host parsed and
// matched exactly (403), bearer token (401), body size (413, declared or
// streamed, the connection closed), content type (415), unknown or expired
// session (404), the session table (eviction, 503), streams per session
// (409), slow headers and connection limits, no token off loopback, hidden
// tools unreachable by any spelling of their name, and upstream faults that
// become tool errors naming the upstream.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect as tcpConnect } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { faultyUpstream } from './faulty-upstream.mjs';
import { connect, demoGateway, initializeBody, jsonHeaders, listAll, proxied, raw, serveChild, startGateway, structured } from './gateway-helpers.mjs';
import { cli } from './helpers.mjs';

/**
 * A raw TCP exchange: writes `head` (and `body` if given), then collects
 * what the server sends until it closes the connection. Resolves with
 * {text, closed: true}.
 */
async function rawExchange(port, head, body) {
  const socket = tcpConnect(port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (d) => (text += d));
  socket.on('error', () => {});
  const closed = new Promise((resolve) => socket.on('close', resolve));
  socket.write(head);
  if (body !== undefined) socket.write(body);
  await closed;
  return { text, closed: true };
}

/** POSTs a message in a session and resolves with the HTTP status. */
async function post(url, sid, message) {
  const r = await raw(url, { headers: { ...jsonHeaders, ...(sid ? { 'mcp-session-id': sid } : {}) }, body: JSON.stringify(message) });
  return r;
}

/** Opens a session with a raw initialize; resolves with its id. */
async function open(url) {
  const r = await raw(url, { headers: jsonHeaders, body: initializeBody });
  assert.equal(r.status, 200, r.body);
  return r.headers['mcp-session-id'];
}

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

  test('origins are parsed and matched exactly, not by prefix', async () => {
    const { port } = gw;
    for (const origin of [
      'null',
      'http://127.0.0.1.nip.io',
      'http://127.evil.example',
      'http://[::1].evil.com',
      'http://127.0.0.1@evil.com',
      'http://localhost.evil.com',
      `http://localhost:${port}.evil.com`,
      'http://[::2]',
      'file://localhost',
    ]) {
      const r = await raw(gw.url, { headers: { ...jsonHeaders, origin }, body: initializeBody });
      assert.equal(r.status, 403, origin);
      assert.equal(r.headers.connection, 'close', origin);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://[::1]:${port}`, 'http://localhost', 'https://LOCALHOST:8443']) {
      const r = await raw(gw.url, { headers: { ...jsonHeaders, origin }, body: initializeBody });
      assert.equal(r.status, 200, origin);
    }
  });

  test('Host headers are parsed and matched exactly (DNS rebinding)', async () => {
    const { port } = gw;
    for (const host of [`127.0.0.1.nip.io:${port}`, `127.evil.example:${port}`, `localhost.evil.example:${port}`, `[::1].evil.com:${port}`]) {
      const r = await raw(gw.url, { headers: { ...jsonHeaders, host }, body: initializeBody });
      assert.equal(r.status, 403, host);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const r = await raw(gw.url, { headers: { ...jsonHeaders, host }, body: initializeBody });
      assert.equal(r.status, 200, host);
    }
  });

  test('the bearer scheme is read without case; the token must match exactly', async () => {
    for (const authorization of ['Bearer s3cret-token', 'bearer s3cret-token', 'BEARER s3cret-token']) {
      const r = await raw(locked.url, { headers: { ...jsonHeaders, authorization }, body: initializeBody });
      assert.equal(r.status, 200, authorization);
    }
    for (const authorization of ['Bearer s3cret-toke', 'Bearer s3cret-token2', 'Basic s3cret-token', 's3cret-token']) {
      const r = await raw(locked.url, { headers: { ...jsonHeaders, authorization }, body: initializeBody });
      assert.equal(r.status, 401, authorization);
    }
  });

  test('only application/json bodies are read', async () => {
    for (const ctype of ['application/jsonp', 'application/json-seq', 'text/json', 'text/plain']) {
      const r = await raw(gw.url, { headers: { ...jsonHeaders, 'content-type': ctype }, body: initializeBody });
      assert.equal(r.status, 415, ctype);
    }
    const ok = await raw(gw.url, { headers: { ...jsonHeaders, 'content-type': 'Application/JSON; charset=utf-8' }, body: initializeBody });
    assert.equal(ok.status, 200);
  });

  test('a declared oversize body gets 413 before any of it is sent, and the connection closes', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${gw.port}\r\nContent-Type: application/json\r\nContent-Length: 2147483648\r\n\r\n`;
    // no body is ever written: the answer and the close come without it
    const r = await rawExchange(gw.port, head);
    assert.match(r.text, /^HTTP\/1\.1 413 /);
    assert.match(r.text, /connection: close/i);
    assert.match(r.text, /the limit is 65536/);
  });

  test('invalid UTF-8 in a body is a JSON-RPC parse error, not a crash', async () => {
    const bytes = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}')]);
    const r = await raw(gw.url, { headers: jsonHeaders, body: bytes });
    assert.equal(r.status, 400);
    const sid = await open(gw.url);
    const inSession = await raw(gw.url, { headers: { ...jsonHeaders, 'mcp-session-id': sid }, body: Buffer.from([0xff, 0xfe, 0x7b]) });
    assert.equal(inSession.status, 200);
    assert.equal(JSON.parse(inSession.body).error.code, -32700);
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

  test('failed logins lock their address out; status() lists it and until when, from the gate', async () => {
    const { gateway } = await demoGateway({ token: 's3cret-token', maxAuthFailures: 2, authWindowMs: 60_000 });
    try {
      assert.deepEqual(gateway.status().lockedOut, []);
      const wrong = { headers: { ...jsonHeaders, authorization: 'Bearer nope' }, body: initializeBody };
      assert.equal((await raw(gateway.url, wrong)).status, 401);
      assert.deepEqual(gateway.status().lockedOut, []);
      const before = Date.now();
      assert.equal((await raw(gateway.url, wrong)).status, 401);
      const right = await raw(gateway.url, { headers: { ...jsonHeaders, authorization: 'Bearer s3cret-token' }, body: initializeBody });
      assert.equal(right.status, 429);
      const [one, ...rest] = gateway.status().lockedOut;
      assert.deepEqual(rest, []);
      assert.match(one.remote, /127\.0\.0\.1$/);
      assert.ok(one.until >= before + 60_000 && one.until <= Date.now() + 60_000, `${one.until}`);
      assert.ok(one.retryAfterS > 55 && one.retryAfterS <= 60, `${one.retryAfterS}`);
      assert.equal(right.headers['retry-after'], String(one.retryAfterS));
    } finally {
      await gateway.close();
    }
  });

  test('CORS for the allowed origins only: preflight without the token, headers on every answer, Mcp-Session-Id exposed', async () => {
    const app = 'https://app.example';
    const { gateway } = await demoGateway({ token: 's3cret-token', origins: [app] });
    try {
      const preflight = (origin, asked = 'content-type, authorization, mcp-param-zone') =>
        raw(gateway.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': asked } });
      const ok = await preflight(app);
      assert.equal(ok.status, 204);
      assert.equal(ok.body, '');
      assert.equal(ok.headers['access-control-allow-origin'], app);
      assert.equal(ok.headers['access-control-allow-methods'], 'GET, POST, DELETE');
      const allowed = ok.headers['access-control-allow-headers'].toLowerCase().split(', ');
      for (const h of ['mcp-session-id', 'mcp-protocol-version', 'authorization', 'content-type', 'last-event-id', 'mcp-param-zone']) assert.ok(allowed.includes(h), `${h}: ${allowed}`);
      assert.match(ok.headers.vary, /\bOrigin\b/);
      // a loopback origin passes the gate but is not listed: no CORS; a foreign one is refused
      const loopback = await preflight(`http://localhost:${gateway.port + 1}`);
      assert.equal(loopback.status, 204);
      assert.equal(loopback.headers['access-control-allow-origin'], undefined);
      const evil = await preflight('https://evil.example');
      assert.equal(evil.status, 403);
      assert.equal(evil.headers['access-control-allow-origin'], undefined);

      // the session opens with the token; the page may read its id
      const post = (origin, authorization, body, more = {}) =>
        raw(gateway.url, { headers: { ...jsonHeaders, ...(origin ? { origin } : {}), authorization, ...more }, body });
      const opened = await post(app, 'Bearer s3cret-token', initializeBody);
      assert.equal(opened.status, 200);
      assert.equal(opened.headers['access-control-allow-origin'], app);
      assert.equal(opened.headers['access-control-expose-headers'], 'Mcp-Session-Id');
      assert.equal(opened.headers.vary, 'Origin');
      const sid = opened.headers['mcp-session-id'];
      // a reply in the session, a refusal (401) and the end of the session carry them too
      const listed = await post(app, 'Bearer s3cret-token', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': sid });
      assert.equal(listed.status, 200);
      assert.equal(listed.headers['access-control-allow-origin'], app);
      const refused = await post(app, 'Bearer nope', initializeBody);
      assert.equal(refused.status, 401);
      assert.equal(refused.headers['access-control-allow-origin'], app);
      const ended = await raw(gateway.url, { method: 'DELETE', headers: { origin: app, authorization: 'Bearer s3cret-token', 'mcp-session-id': sid } });
      assert.equal(ended.status, 204);
      assert.equal(ended.headers['access-control-allow-origin'], app);
      // no Origin, or an unlisted one, gets none
      const plain = await post(undefined, 'Bearer s3cret-token', initializeBody);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['access-control-allow-origin'], undefined);
      const foreign = await post('https://evil.example', 'Bearer s3cret-token', initializeBody);
      assert.equal(foreign.status, 403);
      assert.equal(foreign.headers['access-control-allow-origin'], undefined);
      // the origins change at once
      gateway.setOrigins([]);
      assert.equal((await preflight(app)).status, 403);
    } finally {
      await gateway.close();
    }
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

describe('bounded per client', () => {
  test('a full session table makes room by closing the least recently used idle session', async () => {
    const { gateway } = await demoGateway({ maxSessions: 3 });
    try {
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await open(gateway.url));
      assert.equal(gateway.sessions.size, 3);
      assert.equal(gateway.gate.sessions, 3);
      // the two oldest were closed: their ids get 404 (clients initialize again)
      for (const sid of ids.slice(0, 2)) assert.equal((await post(gateway.url, sid, { jsonrpc: '2.0', id: 1, method: 'ping' })).status, 404);
      for (const sid of ids.slice(2)) assert.equal((await post(gateway.url, sid, { jsonrpc: '2.0', id: 1, method: 'ping' })).status, 200);
    } finally {
      await gateway.close();
    }
  });

  test('when every session is busy, initialize gets 503 with Retry-After', async () => {
    let release;
    const gate = new Promise((r) => (release = r));
    const catalog = { tools: [{ name: 'wait', description: 'Waits until released.', inputSchema: { type: 'object' } }] };
    const { handlerSource } = await import('../../js/dispatch.mjs');
    const gateway = await startGateway({ source: handlerSource(catalog, { wait: async () => (await gate, { done: true }) }), maxSessions: 2 });
    try {
      const ids = [await open(gateway.url), await open(gateway.url)];
      const busy = ids.map((sid) => post(gateway.url, sid, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait', arguments: {} } }));
      // both calls are in progress once the gate counts them
      while (gateway.sessions.size < 2 || [...gateway.sessions.values()].some((s) => s.pending.size === 0)) await new Promise((r) => setTimeout(r, 10));
      const r = await raw(gateway.url, { headers: jsonHeaders, body: initializeBody });
      assert.equal(r.status, 503);
      assert.equal(r.headers['retry-after'], '1');
      release();
      for (const b of await Promise.all(busy)) assert.equal(b.status, 200);
      // idle again: a new session takes the place of one of them
      assert.equal((await raw(gateway.url, { headers: jsonHeaders, body: initializeBody })).status, 200);
    } finally {
      release();
      await gateway.close();
    }
  });

  test('an idle session expires: its id gets 404 and the table forgets it', async () => {
    const { gateway } = await demoGateway({ sessionIdleMs: 200 });
    try {
      const sid = await open(gateway.url);
      assert.equal((await post(gateway.url, sid, { jsonrpc: '2.0', id: 1, method: 'ping' })).status, 200);
      await new Promise((r) => setTimeout(r, 400));
      assert.equal((await post(gateway.url, sid, { jsonrpc: '2.0', id: 2, method: 'ping' })).status, 404);
      assert.equal(gateway.sessions.size, 0);
      assert.equal(gateway.gate.sessions, 0);
    } finally {
      await gateway.close();
    }
  });

  test('notification streams per session are bounded (409)', async () => {
    const { gateway } = await demoGateway({ maxStreams: 1 });
    const sid = await open(gateway.url);
    const { request } = await import('node:http');
    const get = () =>
      new Promise((resolve, reject) => {
        const req = request(gateway.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid } }, (res) => resolve({ status: res.statusCode, req, res }));
        req.on('error', reject);
        req.end();
      });
    try {
      const first = await get();
      assert.equal(first.status, 200);
      const second = await get();
      assert.equal(second.status, 409);
      second.res.resume();
      // closing the first frees its place
      first.req.destroy();
      while (gateway.sessions.get(sid).streams.size > 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 20));
      const third = await get();
      assert.equal(third.status, 200);
      third.req.destroy();
    } finally {
      await gateway.close();
    }
  });

  test('headers that arrive too slowly: the connection is closed', async () => {
    const { gateway } = await demoGateway({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const socket = tcpConnect(gateway.port, '127.0.0.1');
      await once(socket, 'connect');
      socket.on('error', () => {});
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      // one header byte now and then, never the end of the headers
      const drip = setInterval(() => socket.writable && socket.write('X'), 100);
      await closed;
      clearInterval(drip);
    } finally {
      await gateway.close();
    }
  });

  test('past the connection limit the oldest silent connection gives way; with none, the new one is closed', async () => {
    const { gateway } = await demoGateway({ maxConnections: 4 });
    const sockets = [];
    const open = async () => {
      const s = tcpConnect(gateway.port, '127.0.0.1');
      s.on('error', () => {});
      s.gone = new Promise((resolve) => s.on('close', resolve));
      await once(s, 'connect');
      sockets.push(s);
      return s;
    };
    try {
      // four connections that send nothing: a fifth takes the place of the oldest
      for (let i = 0; i < 4; i++) await open();
      await open();
      await sockets[0].gone;
      // once every connection has sent a whole request (kept alive), a new one is closed as it arrives
      for (const s of sockets.slice(1)) {
        s.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${initializeBody.length}\r\n\r\n${initializeBody}`);
        await once(s, 'data');
      }
      const extra = await open();
      await extra.gone;
      assert.equal(gateway.gate.stats.connectionsRefused, 1);
      assert.equal(gateway.gate.stats.connectionsEvicted, 1);
    } finally {
      for (const s of sockets) s.destroy();
      await gateway.close();
    }
  });
});

describe('hidden tools under other spellings', () => {
  const tricks = (name) => [
    name.toUpperCase(),
    name[0].toUpperCase() + name.slice(1),
    `${name} `,
    ` ${name}`,
    `${name}\u0000`,
    `${name}\u00ad`,
    name.replace('o', '\u043e'), // Cyrillic o
    name.replace('_', '-'),
    name.replace('_', '\u2010'),
    `functions.${name}`,
    `default_api.${name}`,
    `demo__${name}`,
    `${name}\u200b`,
  ];
  for (const mode of ['all', 'hybrid']) {
    test(`denied trigger_any_flow (${mode}): no spelling reaches it`, async () => {
      const { gateway, home } = await demoGateway({ engine: { deny: ['trigger_any_flow'], mode } });
      const before = JSON.stringify(home.home);
      const { client } = await connect(gateway.url);
      try {
        for (const name of tricks('trigger_any_flow')) {
          const args = { command: 'good_morning' };
          await assert.rejects(client.callTool({ name, arguments: args }), /Unknown tool|Invalid params/, JSON.stringify(name));
          if (mode === 'hybrid') {
            const viaUse = await client.callTool({ name: 'use_tool', arguments: { name, arguments: args } });
            assert.equal(viaUse.isError, true, JSON.stringify(name));
            const def = await client.callTool({ name: 'get_tool_definition', arguments: { name } });
            assert.equal(def.isError, true, JSON.stringify(name));
          }
        }
        assert.equal(JSON.stringify(home.home), before);
      } finally {
        await client.close();
        await gateway.close();
      }
    });
  }
});

describe('upstream faults become tool errors naming the upstream', () => {
  let upstream, proxy, client;
  before(async () => {
    upstream = await faultyUpstream();
    proxy = await proxied(upstream.url, { timeoutMs: 2000 }, { timeoutMs: 1000 });
    ({ client } = proxy);
  });
  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  const expected = {
    hang: /^Error: hang timed out after 1 s waiting for upstream http:/,
    garbage: /^Error: upstream http:\S+: .*not valid JSON|^Error: upstream http:\S+: .*expected value/,
    html: /^Error: upstream http:\S+: the upstream answered HTTP 200 with text\/html/,
    huge: /^Error: upstream http:\S+: the reply is larger than the limit of 2097152 bytes/,
    cut_sse: /^Error: upstream http:\S+: the reply broke off before its end/,
    error500: /^Error: upstream http:\S+: the upstream answered HTTP 500/,
    wrong_id: /^Error: upstream http:\S+: no response to request/,
  };
  for (const [name, message] of Object.entries(expected)) {
    test(`${name}: a tool error`, async () => {
      const r = await client.callTool({ name, arguments: {} });
      assert.equal(r.isError, true, JSON.stringify(r));
      assert.match(r.content[0].text, message);
      // the gateway goes on serving
      const ok = await client.callTool({ name: 'ok', arguments: {} });
      assert.deepEqual(ok.content, [{ type: 'text', text: 'fine' }]);
    });
  }
});
