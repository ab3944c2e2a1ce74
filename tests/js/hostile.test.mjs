// The gateway against a hostile upstream (over HTTP and over stdio) and
// against clients that hold connections: every bound the gate and the
// upstream client keep, seen from outside. Counts, never times: each test
// says how many requests came back, which statuses were given, what was
// listed, and that the gateway still serves others.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { connectUpstream, connectUpstreams, handlerSource } from '../../js/gateway.mjs';
import { connect, demoGateway, initializeBody, jsonHeaders, raw, startGateway } from './gateway-helpers.mjs';
import { hostileUpstream } from './hostile-upstream.mjs';
import { root } from './helpers.mjs';

const MODERN = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

/** A gateway in front of `source`, logging to `lines`, with an SDK client. */
async function front(source, lines = [], options = {}) {
  const gw = await startGateway({ source, log: (l) => lines.push(l), ...options });
  const { client } = await connect(gw.url);
  return { gw, client };
}

/** The text of a tool result. */
const text = (r) => r.content?.[0]?.text ?? '';

describe('a hostile upstream over HTTP', () => {
  /** @type {string[]} what the upstream connection and the gateway logged */
  const lines = [];
  let up, source, gw, client;
  before(async () => {
    up = await hostileUpstream({ flood: 20_000 });
    source = await connectUpstream(up.url, { timeoutMs: 20_000, log: (l) => lines.push(l) });
    ({ gw, client } = await front(source, lines));
  });
  after(async () => {
    await client.close();
    await gw.close();
    source.close();
    await up.close();
  });

  test('a tool whose schema is bad is left out alone; a name with control characters is flagged, escaped', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['ok', 'flood', 'chatter', 'nullid', 'answers']) assert.ok(names.includes(n), n);
    assert.ok(!names.includes('bad_schema'));
    const log = lines.join('\n');
    assert.match(log, /item 5: left out: .*object/);
    assert.match(log, /\\u\{7\}/);
    // nothing raw reaches the log
    assert.ok(!/[\u0007\u001b]/.test(log));
  });

  test('20,000 requests of the upstream during one call: a bounded number of answers, the call cut, others served', async () => {
    const before = up.stats.answers;
    const [flooded, ping] = await Promise.all([client.callTool({ name: 'flood', arguments: {} }), client.ping()]);
    assert.equal(flooded.isError, true);
    assert.match(text(flooded), /upstream http:.*more than 40 requests in a second/);
    assert.deepEqual(ping, {});
    // at most twice the rate per second came back to it, and the gateway still answers
    const back = up.stats.answers - before;
    assert.ok(back <= 40, `${back} answers posted back`);
    assert.equal(text(await client.callTool({ name: 'ok', arguments: {} })), 'fine');
    assert.match(lines.join('\n'), /refused requests of the upstream/);
  });

  test('progress notifications past the rate are dropped; the call still answers', async () => {
    const seen = [];
    const started = performance.now();
    const r = await client.callTool({ name: 'chatter', arguments: {} }, undefined, { onprogress: (p) => seen.push(p) });
    assert.equal(text(r), 'chatter over');
    // 200 a window of one second pass: the window in force when the call began (opened by an earlier
    // notification) and each one after it (a loaded machine may read the 20,000 over more than one second)
    const seconds = Math.ceil((performance.now() - started) / 1000);
    assert.ok(seen.length <= 200 * (seconds + 1) && seen.length < 20_000 / 4, `${seen.length} progress notifications in ${seconds} s`);
  });

  test('a message with id null is never the answer of a call', async () => {
    const r = await client.callTool({ name: 'nullid', arguments: {} });
    assert.equal(r.isError, true);
    assert.doesNotMatch(text(r), /hijacked/);
  });
});

describe('a hostile upstream over HTTP: its notification stream and its pages', () => {
  test('a notification stream flooding with requests is cut, and opened again ever later', async () => {
    const up = await hostileUpstream({ streamFlood: 5_000 });
    const lines = [];
    const source = await connectUpstream(up.url, { reconnectMs: 200, log: (l) => lines.push(l) });
    try {
      // 5,000 pings on each stream: 40 answered (20 with a result, 20 refused), then the stream is cut;
      // the waits before opening it again double: 400, 800, 1600 ms
      await new Promise((r) => setTimeout(r, 1500));
      const { answers, streams } = up.stats;
      assert.ok(streams >= 2 && streams <= 4, `${streams} streams`);
      assert.ok(answers <= 40 * streams, `${answers} answers for ${streams} streams`);
      assert.match(lines.join('\n'), /more than 40 requests in a second/);
    } finally {
      source.close();
      await up.close();
    }
  });

  test('a page past the reply limit is left out, the pages before it kept', async () => {
    const up = await hostileUpstream({ hugePage: true });
    const lines = [];
    const source = await connectUpstream(up.url, { log: (l) => lines.push(l) });
    try {
      const names = JSON.parse(source.catalog).tools.map((t) => t.name);
      assert.ok(names.includes('flood') && !names.includes('huge'), names.join());
      assert.match(lines.join('\n'), /page 2 of tools\/list could not be read/);
    } finally {
      source.close();
      await up.close();
    }
  });
});

describe('a hostile upstream over stdio', () => {
  let source, gw, client;
  before(async () => {
    const command = [process.execPath, join(root, 'tests/js/hostile-upstream.mjs'), '--stdio'];
    source = await connectUpstreams([{ name: 'bad', command }]);
    ({ gw, client } = await front(source));
  });
  after(async () => {
    await client.close();
    await gw.close();
    source.close();
  });

  test('20,000 requests on its stdout during a call: bounded answers, the rest dropped, the call answered', async () => {
    const r = await client.callTool({ name: 'bad__flood', arguments: {} });
    assert.equal(text(r), 'flood over');
    const { structuredContent } = await client.callTool({ name: 'bad__answers', arguments: {} });
    const answers = /** @type {{ answers: number }} */ (structuredContent).answers;
    assert.ok(answers > 0 && answers <= 40, `${answers} answers written back`);
    assert.equal(text(await client.callTool({ name: 'bad__ok', arguments: {} })), 'fine');
  });

  test('the bad tool is left out alone there too', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('bad__ok') && !names.includes('bad__bad_schema'), names.join());
  });
});

/** A raw socket from a loopback address of our choosing; resolves once connected. */
async function socketFrom(port, localAddress) {
  const s = tcpConnect({ port, host: '127.0.0.1', localAddress });
  s.on('error', () => {});
  await once(s, 'connect');
  return s;
}

/** Whether a socket gets closed by the server within `ms`. */
function closedWithin(socket, ms) {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/** A GET stream held open; resolves with the response once its headers came. */
function holdStream(url, sid, localAddress) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid }, localAddress, agent: false }, resolve);
    req.on('error', reject);
    req.end();
  });
}

describe('held connections', () => {
  test('sessions holding GET streams never keep a new client out; streams end after their lifetime', async () => {
    const { gateway: gw } = await demoGateway({ maxSessions: 4, streamMaxMs: 1500 });
    try {
      const held = [];
      for (let i = 0; i < 4; i++) {
        const init = await raw(gw.url, { headers: jsonHeaders, body: initializeBody });
        const sid = init.headers['mcp-session-id'];
        held.push(await holdStream(gw.url, sid));
      }
      // the table is full of stream holders: a new client takes the place of the least recently used
      const fresh = await raw(gw.url, { headers: jsonHeaders, body: initializeBody });
      assert.equal(fresh.status, 200);
      assert.equal(gw.gate.stats.sessionsEvicted, 1);
      // the other streams end once they lived as long as the gate lets one live
      const ended = await Promise.all(held.slice(1).map((res) => new Promise((r) => res.once('end', () => r(true)).resume())));
      assert.deepEqual(ended, [true, true, true]);
    } finally {
      await gw.close();
    }
  });

  test('half-open connections give way to whole requests; one address holds a bounded share', async () => {
    const { gateway: gw } = await demoGateway({ maxConnections: 16, maxConnectionsPerAddress: 8 });
    try {
      // an attacker at 127.0.0.2 opens 12 sockets sending half a header
      const attacker = [];
      for (let i = 0; i < 12; i++) {
        const s = await socketFrom(gw.port, '127.0.0.2');
        s.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        attacker.push(s);
      }
      // past 8, its own oldest gave way
      const closed = await Promise.all(attacker.map((s) => closedWithin(s, 200)));
      assert.equal(closed.filter(Boolean).length, 4);
      // another at 127.0.0.3 fills the rest of the table with half-open ones
      const second = [];
      for (let i = 0; i < 8; i++) second.push(await socketFrom(gw.port, '127.0.0.3'));
      // a real client is served at once: the oldest half-open connection makes room
      const r = await raw(gw.url, { headers: jsonHeaders, body: initializeBody });
      assert.equal(r.status, 200);
      assert.ok(gw.gate.stats.connectionsEvicted >= 5);
      for (const s of [...attacker, ...second]) s.destroy();
    } finally {
      await gw.close();
    }
  });

  test('sessionless subscriptions/listen streams are capped; their calls too', async () => {
    let release;
    let started = 0;
    const wait = new Promise((r) => (release = r));
    const catalog = { tools: [{ name: 'slow', inputSchema: { type: 'object' } }] };
    const source = handlerSource(catalog, {
      slow: () => {
        started++;
        return wait.then(() => 'done');
      },
    });
    // one address opens every connection here: it may hold them all
    const gw = await startGateway({ source, maxConnectionsPerAddress: 256 });
    const sse = { ...jsonHeaders, accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN };
    try {
      const listen = (id) =>
        new Promise((resolve) => {
          const req = request(gw.url, { method: 'POST', headers: { ...sse, 'mcp-method': 'subscriptions/listen' }, agent: false }, resolve);
          req.end(rpc(id, 'subscriptions/listen', { notifications: { toolsListChanged: true }, _meta: meta }));
        });
      const streams = [];
      for (let i = 0; i < 32; i++) streams.push(await listen(i));
      assert.ok(streams.every((r) => r.statusCode === 200));
      const refused = await listen(99);
      assert.equal(refused.statusCode, 503);
      const body = JSON.parse(await new Promise((r) => refused.setEncoding('utf8').on('data', r)));
      assert.equal(body.id, 99);
      assert.match(body.error.message, /32 subscriptions\/listen streams/);
      for (const s of streams) s.destroy();
      // calls in flight without a session: 64 at most
      const call = (id) =>
        new Promise((resolve) => {
          const req = request(gw.url, { method: 'POST', headers: { ...sse, 'mcp-method': 'tools/call', 'mcp-name': 'slow' }, agent: false }, resolve);
          req.end(rpc(id, 'tools/call', { name: 'slow', arguments: {}, _meta: meta }));
        });
      const calls = Array.from({ length: 64 }, (_, i) => call(i));
      while (started < 64) await new Promise((r) => setTimeout(r, 10));
      const over = await call(100);
      assert.equal(over.statusCode, 503);
      release();
      const answered = await Promise.all(calls);
      assert.ok(answered.every((r) => r.statusCode === 200));
    } finally {
      release();
      await gw.close();
    }
  });
});

/** A raw TCP exchange: writes `head`, collects until the server closes. */
async function rawText(port, head) {
  const socket = tcpConnect(port, '127.0.0.1');
  await once(socket, 'connect');
  let out = '';
  socket.setEncoding('latin1');
  socket.on('data', (d) => (out += d));
  socket.on('error', () => {});
  const closed = new Promise((resolve) => socket.on('close', resolve));
  socket.write(head);
  await closed;
  return out;
}

describe('hostile requests', () => {
  let gw, locked;
  before(async () => {
    ({ gateway: gw } = await demoGateway());
    ({ gateway: locked } = await demoGateway({ token: 't0k' }));
  });
  after(async () => {
    await gw.close();
    await locked.close();
  });

  test('two Host or two Authorization headers are refused with 400', async () => {
    const body = initializeBody;
    const head = (extra) => `POST /mcp HTTP/1.1\r\n${extra}Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const twoHosts = await rawText(gw.port, head('Host: localhost\r\nHost: evil.example\r\n'));
    assert.match(twoHosts, /^HTTP\/1\.1 400 /);
    const twoTokens = await rawText(locked.port, head('Host: localhost\r\nAuthorization: Bearer t0k\r\nAuthorization: Bearer nope\r\n'));
    assert.match(twoTokens, /^HTTP\/1\.1 400 /);
    assert.match(twoTokens, /more than one Host or Authorization header/);
    const one = await rawText(locked.port, head('Host: localhost\r\nAuthorization: Bearer t0k\r\nConnection: close\r\n'));
    assert.match(one, /^HTTP\/1\.1 200 /);
  });

  test('a compressed body is refused clearly with 415', async () => {
    const r = await raw(gw.url, { headers: { ...jsonHeaders, 'content-encoding': 'gzip, gzip' }, body: initializeBody });
    assert.equal(r.status, 415);
    assert.match(r.body, /Content-Encoding gzip, gzip is not accepted/);
  });

  test('a sessionless message that is no JSON-RPC gets its error from the gate', async () => {
    for (const body of ['[]', '{oops', '42']) {
      const r = await raw(gw.url, { headers: jsonHeaders, body });
      assert.equal(r.status, 400, body);
      assert.ok([-32600, -32700].includes(JSON.parse(r.body).error.code), body);
    }
    // no session was made for them
    assert.equal(gw.sessions.size, 0);
  });
});

describe('handlers that throw anything', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  const proxy = new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
      getPrototypeOf() {
        throw new Error('trap');
      },
      ownKeys() {
        throw new Error('trap');
      },
    },
  );
  const thrown = { cyclic, bigint: 10n, proxy, nothing: null, undef: undefined, symbol: Symbol('s'), string: 'plain words' };
  const tools = Object.keys(thrown).map((name) => ({ name: `throw_${name}`, inputSchema: { type: 'object' } }));
  const handlers = Object.fromEntries(
    Object.entries(thrown).map(([name, value]) => [
      `throw_${name}`,
      () => {
        throw value;
      },
    ]),
  );
  // and handlers that return such values
  tools.push({ name: 'return_proxy', inputSchema: { type: 'object' } }, { name: 'return_bigint', inputSchema: { type: 'object' } });
  handlers.return_proxy = () => proxy;
  handlers.return_bigint = () => ({ n: 10n });

  test('every value thrown or returned becomes a tool error; the gateway serves on', async () => {
    const warnings = [];
    const source = handlerSource({ tools }, handlers);
    const { gw, client } = await front(source, [], { logger: { warn: (m) => warnings.push(m) } });
    try {
      for (const t of tools) {
        const r = await client.callTool({ name: t.name, arguments: {} });
        assert.equal(r.isError, true, t.name);
        assert.equal(typeof text(r), 'string', t.name);
      }
      assert.match(text(await client.callTool({ name: 'throw_string', arguments: {} })), /plain words/);
      assert.deepEqual(await client.ping(), {});
      assert.ok(warnings.length >= tools.length);
    } finally {
      await client.close();
      await gw.close();
    }
  });
});
