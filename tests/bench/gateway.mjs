#!/usr/bin/env node
// Gateway benchmark (not a test): requests per second, p50/p99 latency and
// server CPU per request for tools/list and tools/call on loopback, in both
// protocol eras. 2025: sessions (initialize, then requests with
// Mcp-Session-Id), mcp-switchboard's gateway (`serve --demo`) against the
// official SDK 1.32.2's McpServer serving the same demo-home tools with the
// same handlers (with JSON replies, and with its default SSE replies).
// 2026-07-28: stateless requests (no initialize, no session; the version and
// client capabilities in `_meta`, MCP-Protocol-Version / Mcp-Method / Mcp-Name
// headers), the same gateway against the v2 server SDK's McpServer behind
// createMcpHandler. All servers are child processes on this machine, measured
// back to back in rounds that alternate the order. Then the engine's own
// overhead per tools/call inside wasm (handle + drain + complete + drain, and
// with completeValue as the gateway reports a handlerSource's value), in
// process.
//
//   node tests/bench/gateway.mjs [--quick] [--clients N] [--seconds S] [--rounds R] [--baseline DIR] [--no-pin]
//   node tests/bench/gateway.mjs --sessions [--baseline DIR]
//
// --sessions: what a session costs at 3,000 tools (the corpus catalogs,
// renamed and repeated until there are 3,000): the gateway of this
// checkout, and of --baseline DIR (another checkout with its own pkg/, e.g.
// the parent commit's), each in a child process of its own, serving the
// catalog; 64 sessions initialized one after the other (CPU time of the
// process per initialize, and RSS growth per session after a GC), then 200
// sessionless `[]` POSTs (CPU per request) and a ping's latency while 8
// clients send them.
//
// On a machine with two or more CPUs and `taskset`, every server runs on
// CPU 0 and the load generator (this process) on CPU 1, so that no server
// pays for the generator's work and requests/s compares the servers alone;
// --no-pin lets the scheduler place them (the generator then takes part of
// each server's CPU, and the ratios shrink toward 1).
//
// --baseline DIR adds, in the 2025 era, the gateway of another checkout
// (DIR/js/cli.mjs with its own built pkg/, e.g. the parent commit's) as one
// more server: the ratio tables then give this gateway ÷ that one as well.
//
// Prints a Markdown table.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
/** Servers on CPU 0, this process on CPU 1 (see above), when the machine allows it. */
const pinned = !args.includes('--no-pin') && args[0]?.startsWith('--serve') !== true && pin();
const MODERN = '2026-07-28';
const clientInfo = { name: 'bench', version: '1' };

if (args[0] === '--sessions-child') {
  await sessionsChild(args[1]);
} else if (args.includes('--sessions')) {
  await sessions();
} else if (args[0] === '--serve-sdk') {
  await serveSdk(args[1] === 'sse');
} else if (args[0] === '--serve-sdk-v2') {
  await serveSdkV2();
} else {
  await main();
}

/** The SDK server: McpServer + StreamableHTTPServerTransport, stateful, JSON replies (or its default SSE replies). */
async function serveSdk(sse) {
  const { randomUUID } = await import('node:crypto');
  const { createServer } = await import('node:http');
  const { z } = await import('zod');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { createDemoHome } = await import(join(root, 'js/demo-home.mjs'));
  const { catalog, handlers } = createDemoHome();
  const tools = JSON.parse(catalog).result.tools;
  const sessions = new Map();
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sid = req.headers['mcp-session-id'];
    let transport = sid && sessions.get(sid);
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: !sse, onsessioninitialized: (id) => sessions.set(id, transport) });
      const mcp = new McpServer({ name: 'sdk-demo-home', version: '1.0.0' });
      for (const t of tools) {
        mcp.registerTool(t.name, { description: t.description, inputSchema: z.fromJSONSchema(t.inputSchema), annotations: t.annotations }, (a) => handlers[t.name](a ?? {}));
      }
      await mcp.connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  server.listen(0, '127.0.0.1', () => process.stderr.write(`sdk at http://127.0.0.1:${server.address().port}/mcp\n`));
}

/**
 * The v2 SDK server (`@modelcontextprotocol/server`): createMcpHandler with a factory building an McpServer
 * with the demo-home tools, 2026-07-28 only (`legacy: 'reject'`), on node:http through a web Request/Response bridge.
 */
async function serveSdkV2() {
  const { createServer } = await import('node:http');
  const { z } = await import('zod');
  const { McpServer, createMcpHandler } = await import('@modelcontextprotocol/server');
  const { createDemoHome } = await import(join(root, 'js/demo-home.mjs'));
  const { catalog, handlers } = createDemoHome();
  // The factory runs once per request (createMcpHandler's design); the schemas are converted once, up front.
  const tools = JSON.parse(catalog).result.tools.map((t) => ({ ...t, schema: z.fromJSONSchema(t.inputSchema) }));
  const factory = () => {
    const mcp = new McpServer({ name: 'sdk-v2-demo-home', version: '1.0.0' });
    for (const t of tools) {
      mcp.registerTool(t.name, { description: t.description, inputSchema: t.schema, annotations: t.annotations }, (a) => handlers[t.name](a ?? {}));
    }
    return mcp;
  };
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const c of response.body) res.write(c);
    res.end();
  });
  server.listen(0, '127.0.0.1', () => process.stderr.write(`sdk at http://127.0.0.1:${server.address().port}/mcp\n`));
}

function flag(name, fallback) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

async function main() {
  const quick = args.includes('--quick');
  const clients = flag('clients', quick ? 8 : 16);
  const seconds = flag('seconds', quick ? 1 : 4);
  const rounds = flag('rounds', quick ? 1 : 3);

  const gateway = await startChild([join(root, 'js/cli.mjs'), 'serve', '--demo', '--port', '0'], /at (http:\S+)/);
  const sdk = (mode) => startChild([fileURLToPath(import.meta.url), ...mode], /sdk at (http:\S+)/);
  // Each leg: a server and the era of the requests it gets; the gateway serves both eras from one child.
  const baselineAt = args.indexOf('--baseline');
  const baseline = baselineAt >= 0 ? await startChild([join(args[baselineAt + 1], 'js/cli.mjs'), 'serve', '--demo', '--port', '0'], /at (http:\S+)/) : null;
  const legs = [
    { era: '2025-06-18', server: 'mcp-switchboard', ...gateway },
    ...(baseline ? [{ era: '2025-06-18', server: 'mcp-switchboard at --baseline', ...baseline }] : []),
    { era: '2025-06-18', server: 'SDK 1.32.2 McpServer, JSON replies', ...(await sdk(['--serve-sdk', 'json'])) },
    { era: '2025-06-18', server: 'SDK 1.32.2 McpServer, SSE replies (default)', ...(await sdk(['--serve-sdk', 'sse'])) },
    { era: MODERN, server: 'mcp-switchboard', ...gateway },
    { era: MODERN, server: 'SDK 2.4.0 McpServer, createMcpHandler', ...(await sdk(['--serve-sdk-v2'])) },
  ];
  const ops = {
    'tools/list': { method: 'tools/list', params: {} },
    'tools/call': { method: 'tools/call', params: { name: 'get_states', arguments: { zoneId: 'kitchen' } } },
  };
  const results = [];
  try {
    // One reply of each kind from each leg, checked before timing: the same 13 tools, the same tool result.
    for (const [op, call] of Object.entries(ops)) {
      const replies = [];
      for (const leg of legs) {
        const reply = await probe(leg, call);
        if (!reply.result || reply.result.isError) throw new Error(`${leg.server} (${leg.era}) ${op}: ${JSON.stringify(reply).slice(0, 300)}`);
        replies.push(JSON.stringify(op === 'tools/list' ? reply.result.tools.map((t) => t.name) : reply.result.content));
      }
      if (op === 'tools/list' && JSON.parse(replies[0]).length !== 13) throw new Error(`tools/list: ${replies[0]}`);
      if (new Set(replies).size !== 1) throw new Error(`${op}: the servers disagree:\n${replies.join('\n')}`);
    }
    for (const [op, call] of Object.entries(ops)) {
      const acc = legs.map(() => ({ count: 0, ms: 0, cpu: 0, latencies: [] }));
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? legs.keys() : [...legs.keys()].reverse();
        for (const i of order) {
          const m = await load(legs[i], call, clients, seconds * 1000);
          acc[i].count += m.count;
          acc[i].ms += m.ms;
          acc[i].cpu += m.cpuMs;
          acc[i].latencies.push(...m.latencies);
        }
      }
      legs.forEach(({ era, server }, i) => {
        const a = acc[i];
        a.latencies.sort((x, y) => x - y);
        results.push({ era, server, op, rps: (a.count / a.ms) * 1000, p50: pct(a.latencies, 0.5), p99: pct(a.latencies, 0.99), cpuUs: (a.cpu * 1000) / a.count });
      });
    }
  } finally {
    for (const leg of legs) leg.child.kill('SIGTERM');
  }

  const engine = await engineOverhead(quick ? 20_000 : 100_000);

  const placement = pinned ? 'each server on CPU 0, the load generator on CPU 1' : 'servers and load generator placed by the scheduler';
  console.log(`\nGateway benchmark: ${clients} concurrent clients, ${seconds} s x ${rounds} round(s) per server, era and operation, loopback, ${placement}, Node ${process.version}\n`);
  console.log('| era | server | operation | requests/s | p50 ms | p99 ms | server CPU µs/request |');
  console.log('|---|---|---|---:|---:|---:|---:|');
  for (const era of new Set(legs.map((l) => l.era))) {
    for (const r of results.filter((r) => r.era === era)) console.log(`| ${r.era} | ${r.server} | ${r.op} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuUs.toFixed(0)} |`);
  }
  for (const era of new Set(legs.map((l) => l.era))) {
    const sdks = legs.filter((l) => l.era === era && l.server !== 'mcp-switchboard').map((l) => l.server);
    console.log(`\n| ${era}: ratio (mcp-switchboard ÷ SDK, requests/s) | ${sdks.join(' | ')} |`);
    console.log(`|---|${sdks.map(() => '---:').join('|')}|`);
    for (const op of Object.keys(ops)) {
      const ours = results.find((r) => r.era === era && r.op === op && r.server === 'mcp-switchboard');
      const cells = sdks.map((name) => `${(ours.rps / results.find((r) => r.era === era && r.op === op && r.server === name).rps).toFixed(2)}×`);
      console.log(`| ${op} | ${cells.join(' | ')} |`);
    }
  }
  console.log(`\nEngine overhead per tools/call in wasm (handle + drain + complete + drain, ${engine.calls} calls): ${engine.usPerCall.toFixed(2)} µs; with completeValue (a handler's value, as the gateway reports a handlerSource's): ${engine.usPerValue.toFixed(2)} µs`);
}

/**
 * What one client sends for `call` in its era: for 2025 a session of its own (initialize + initialized,
 * then Mcp-Session-Id), for 2026-07-28 nothing beforehand, the version, capabilities and clientInfo in
 * `_meta` and headers that match the body. Resolves with {headers, message}.
 */
async function client(agent, { url, era }, call) {
  if (era === MODERN) {
    const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': call.method };
    if (call.params.name) headers['mcp-name'] = call.params.name;
    const _meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': clientInfo };
    return { headers, message: { jsonrpc: '2.0', id: 1, method: call.method, params: { ...call.params, _meta } } };
  }
  const init = await post(agent, url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: era, capabilities: {}, clientInfo } });
  if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status} ${init.body}`);
  const headers = { 'mcp-session-id': init.headers['mcp-session-id'], 'mcp-protocol-version': era };
  await post(agent, url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return { headers, message: { jsonrpc: '2.0', id: 1, ...call } };
}

/** One request of `call` on a leg; resolves with the JSON-RPC reply (from a JSON body or the last SSE event). */
async function probe(leg, call) {
  const agent = new Agent({ keepAlive: false });
  try {
    const { headers, message } = await client(agent, leg, call);
    const r = await post(agent, leg.url, message, headers);
    if (r.status !== 200) throw new Error(`${leg.server} (${leg.era}) ${call.method}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
    if (!/text\/event-stream/.test(r.headers['content-type'] ?? '')) return JSON.parse(r.body);
    const data = r.body.split('\n').filter((l) => l.startsWith('data: '));
    return JSON.parse(data.at(-1).slice(6));
  } finally {
    agent.destroy();
  }
}

/**
 * Moves this process to CPU 1 when there are two CPUs or more and `taskset` runs; servers then start on
 * CPU 0. Returns whether it did.
 */
function pin() {
  if (availableParallelism() < 2) return false;
  const r = spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  return r.status === 0;
}

/** Starts a server child (on CPU 0 when pinned) and waits for the URL it prints on stderr. */
async function startChild(argv, pattern) {
  const [cmd, cmdArgs] = pinned ? ['taskset', ['-c', '0', process.execPath, ...argv]] : [process.execPath, argv];
  const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'ignore', 'pipe'], cwd: root });
  let err = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = err.match(pattern);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited with ${code}: ${err}`)));
  });
  child.stderr.resume();
  return { url, child };
}

/** POSTs one JSON-RPC message; resolves with {status, headers, body}. */
function post(agent, url, message, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(message));
  });
}

/**
 * N clients, each with its own keep-alive connection (and in 2025 its own session), sending `call` in a
 * loop for `ms`. The loop writes prebuilt request bytes on a raw socket and reads each response by its
 * length (or chunks), so the load generator costs far less than the servers it measures.
 */
async function load(leg, call, clients, ms) {
  const { url, child } = leg;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const requests = [];
  for (let i = 0; i < clients; i++) requests.push(await client(agent, leg, call));
  agent.destroy();
  const { hostname, port, pathname } = new URL(url);
  const latencies = [];
  let count = 0;
  const cpu0 = cpuMs(child.pid);
  const t0 = performance.now();
  const end = t0 + ms;
  await Promise.all(
    requests.map(async ({ headers, message }) => {
      const body = JSON.stringify(message);
      const head = [`POST ${pathname} HTTP/1.1`, `host: ${hostname}:${port}`, 'content-type: application/json', 'accept: application/json, text/event-stream', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, '', ''].join('\r\n');
      const bytes = Buffer.from(head + body);
      const conn = await rawConnection(hostname, Number(port));
      try {
        while (performance.now() < end) {
          const s = performance.now();
          const r = await conn.exchange(bytes);
          if (r.status !== 200 || r.body.includes('"error"')) throw new Error(`HTTP ${r.status}: ${r.body.slice(0, 300)}`);
          latencies.push(performance.now() - s);
          count++;
        }
      } finally {
        conn.close();
      }
    }),
  );
  return { count, ms: performance.now() - t0, cpuMs: cpuMs(child.pid) - cpu0, latencies };
}

/** CPU time (user + system) a process has used, in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** A keep-alive HTTP/1.1 connection: write a request, read one response (content-length or chunked). */
async function rawConnection(host, port) {
  const { connect } = await import('node:net');
  const socket = connect({ host, port, noDelay: true });
  await once(socket, 'connect');
  let buf = Buffer.alloc(0);
  let waiter = null;
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    if (waiter) waiter();
  });
  socket.on('error', () => waiter?.());
  const more = () => new Promise((resolve) => (waiter = resolve));
  return {
    async exchange(bytes) {
      socket.write(bytes);
      let headEnd;
      while ((headEnd = buf.indexOf('\r\n\r\n')) < 0) await more();
      const head = buf.subarray(0, headEnd).toString('latin1');
      const status = Number(head.slice(9, 12));
      const len = head.match(/\r\ncontent-length: *(\d+)/i);
      let pos = headEnd + 4;
      let body;
      if (len) {
        while (buf.length < pos + Number(len[1])) await more();
        body = buf.subarray(pos, pos + Number(len[1])).toString('utf8');
        pos += Number(len[1]);
      } else {
        const parts = [];
        for (;;) {
          let lineEnd;
          while ((lineEnd = buf.indexOf('\r\n', pos)) < 0) await more();
          const size = parseInt(buf.subarray(pos, lineEnd).toString('latin1'), 16);
          while (buf.length < lineEnd + 2 + size + 2) await more();
          parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
          pos = lineEnd + 2 + size + 2;
          if (size === 0) break;
        }
        body = Buffer.concat(parts).toString('utf8');
      }
      buf = buf.subarray(pos);
      waiter = null;
      return { status, body };
    },
    close: () => socket.destroy(),
  };
}

function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
}

/** The engine alone: handle + drain + complete + drain per tools/call. */
async function engineOverhead(calls) {
  const { Engine, toolSuccess } = await import(join(root, 'pkg/full/index.mjs'));
  const { demoCatalog } = await import(join(root, 'js/demo-home.mjs'));
  const engine = new Engine(demoCatalog, {});
  engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }));
  engine.drain();
  const result = toolSuccess({ deviceId: 'living-lamp', on: true, dim: 40 });
  const message = (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"set_light","arguments":{"deviceId":"living-lamp","state":"on","dim":40}}}`;
  // complete(): the result object as a CallToolResult; completeValue(): as a handler's value, shaped in the same pass
  const run = (n, from, value) => {
    for (let i = 0; i < n; i++) {
      engine.handle(message(from + i));
      const [inv] = engine.drain();
      if (value) engine.completeValue(inv.id, result);
      else engine.complete(inv.id, result);
      engine.drain();
    }
  };
  const time = (value) => {
    run(2000, 1, value); // warm-up
    const t0 = performance.now();
    run(calls, 10_000, value);
    return ((performance.now() - t0) * 1000) / calls;
  };
  const usPerCall = time(false);
  const usPerValue = time(true);
  engine.free();
  return { calls, usPerCall, usPerValue };
}

/** 3,000 tools: the corpus catalogs, each tool renamed `c<round>_<name>`, repeated until there are 3,000. */
function bigCatalog(n = 3000) {
  const corpus = join(root, '../shared/corpus');
  const files = readdirSync(corpus).filter((f) => f.endsWith('.tools-list.json'));
  const all = files.map((f) => {
    const j = JSON.parse(readFileSync(join(corpus, f), 'utf8'));
    return j.result?.tools ?? j.tools ?? j;
  });
  const tools = [];
  for (let round = 0; tools.length < n; round++) {
    for (const list of all) {
      for (const t of list) {
        if (tools.length >= n) break;
        tools.push({ ...t, name: `c${round}_${t.name}`.slice(0, 64) });
      }
    }
  }
  return { tools };
}

/** In a child: the gateway of checkout `dir` serving 3,000 tools; prints what its sessions cost, as JSON. */
async function sessionsChild(dir) {
  const { startGateway, handlerSource } = await import(join(dir, 'js/gateway.mjs'));
  const catalog = bigCatalog();
  const gw = await startGateway({ source: handlerSource(catalog, {}), maxSessions: 256 });
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const post = (body, headers = {}) =>
    new Promise((resolve, reject) => {
      const req = request(gw.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, sid: res.headers['mcp-session-id'] }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } });
  await post(initialize);
  const settle = () => {
    global.gc?.();
    return process.memoryUsage().rss;
  };
  const n = 64;
  const rss0 = settle();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) if ((await post(initialize)).status !== 200) throw new Error('initialize failed');
  const wall = (performance.now() - t0) / n;
  const cpu = process.cpuUsage(cpu0);
  const rss1 = settle();
  const m = 200;
  const c1 = process.cpuUsage();
  for (let i = 0; i < m; i++) await post('[]');
  const c2 = process.cpuUsage(c1);
  // a legitimate ping in a session while 8 clients send sessionless `[]`
  const { sid } = await post(initialize);
  let stop = false;
  const noise = Array.from({ length: 8 }, async () => {
    while (!stop) await post('[]');
  });
  const lat = [];
  for (let i = 0; i < 100; i++) {
    const s = performance.now();
    await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), { 'mcp-session-id': sid });
    lat.push(performance.now() - s);
  }
  stop = true;
  await Promise.all(noise);
  lat.sort((a, b) => a - b);
  agent.destroy();
  await gw.close();
  process.stdout.write(
    JSON.stringify({
      tools: catalog.tools.length,
      initCpuMs: (cpu.user + cpu.system) / 1000 / n,
      initWallMs: wall,
      mbPerSession: (rss1 - rss0) / 1048576 / n,
      sessionlessCpuMs: (c2.user + c2.system) / 1000 / m,
      pingP50Ms: pct(lat, 0.5),
      pingP95Ms: pct(lat, 0.95),
    }),
  );
  process.exit(0);
}

/** --sessions: each checkout's gateway in a child process of its own, side by side. */
async function sessions() {
  const at = args.indexOf('--baseline');
  const dirs = [['this checkout', root], ...(at >= 0 ? [[`--baseline ${args[at + 1]}`, args[at + 1]]] : [])];
  const rows = [];
  for (const [name, dir] of dirs) {
    const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--sessions-child', dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
    rows.push([name, JSON.parse(r.stdout)]);
  }
  console.log(`\nSessions at ${rows[0][1].tools} tools (64 initializes one after the other, in process; Node ${process.version})\n`);
  console.log('| gateway | CPU ms / initialize | wall ms / initialize | RSS MB / session | CPU ms / sessionless `[]` | ping p50 / p95 ms beside 8 `[]` senders |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, m] of rows) {
    console.log(`| ${name} | ${m.initCpuMs.toFixed(2)} | ${m.initWallMs.toFixed(2)} | ${m.mbPerSession.toFixed(2)} | ${m.sessionlessCpuMs.toFixed(2)} | ${m.pingP50Ms.toFixed(2)} / ${m.pingP95Ms.toFixed(2)} |`);
  }
}
