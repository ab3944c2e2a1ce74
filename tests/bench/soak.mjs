#!/usr/bin/env node
// Soak and fault bench for the gateway (a bench, not a timed test).
//
//   node tests/bench/soak.mjs            30 minutes, 32 clients (BENCHMARKS.md)
//   node tests/bench/soak.mjs --quick    a few seconds (make test)
//   node tests/bench/soak.mjs --minutes 2 --clients 16 --json
//
// 1. Load: `serve --demo --mode hybrid` in a child process; every client
//    loops initialize → notifications/initialized → tools/list →
//    search_tools → use_tool and abandons the session (no DELETE). Every
//    interval: requests/s, errors, p50/p99 latency, the server's RSS and
//    its session count (from its --stats line).
//    Attacks mixed in all along, each from a loopback address of its own
//    (127.0.0.2 and up, as other machines would be): sockets sending half
//    a header, sessions holding GET streams, sessionless subscriptions/listen
//    streams held open, and junk (sessionless `[]`, compressed bodies, two
//    Host headers, wrong tokens). Beside it, `serve --upstream` in front of
//    tests/js/hostile-upstream.mjs, called in a loop: each call floods the
//    gateway with 20,000 server requests, its notification stream with
//    more. The RSS of both servers is sampled; after the warm-up (the
//    first fifth) it must stay flat.
// 2. Attacks on the same server: Origin and Host variants, thousands of
//    connections at once, headers sent one byte at a time, oversize
//    declared and chunked bodies, invalid UTF-8, hidden-tool names.
// 3. Upstream faults: `serve --upstream` in front of a server whose tools
//    hang, answer garbage or HTML, send 50 MB, cut an event stream, answer
//    500 or the wrong id: each must be a tool error naming the upstream.
//
// Exits 1 when a check fails: an error under load, a session table past
// its limit, an attack that gets through, RSS that grows after the
// warm-up, a flood answered past its bound, a fault that is not a tool
// error.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { faultyUpstream } from '../js/faulty-upstream.mjs';
import { hostileUpstream } from '../js/hostile-upstream.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = args.includes('--quick');
const asJson = args.includes('--json');
const seconds = quick ? 6 : flag('minutes', 30) * 60;
const clients = flag('clients', quick ? 8 : 32);
const interval = quick ? 2 : flag('interval', 10);
const connections = flag('connections', quick ? 400 : 5000);
const slowClients = flag('slow', quick ? 20 : 200);
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};

/** Starts `mcp-switchboard serve ...`; resolves with {url, port, pid, lastStats(), stop()}. */
async function serve(extra) {
  const child = spawn(process.execPath, [join(root, 'js/cli.mjs'), 'serve', '--port', '0', '--stats', '1', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  let stats = { sessions: 0, rss: 0 };
  child.stderr.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      for (const m of d.matchAll(/stats: (\d+) sessions, ([\d.]+) MB rss/g)) stats = { sessions: Number(m[1]), rss: Number(m[2]) };
      const at = err.match(/at (http:\/\/\S+)/);
      if (at) resolve(at[1]);
      if (err.length > 1e6) err = err.slice(-1e5);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid,
    stats: () => stats,
    rss: () => rssOf(child.pid),
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Resident memory of a process in MB (Linux /proc). */
function rssOf(pid) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: clients * 2 });

/** One HTTP exchange; resolves with {status, headers, body}. */
function http(url, { method = 'POST', headers = {}, body, useAgent = true } = {}) {
  return new Promise((resolve) => {
    const req = request(url, { method, headers, agent: useAgent ? agent : false }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', () => resolve({ status: 'reset', headers: {}, body: '' }));
    });
    req.on('error', (e) => resolve({ status: e.code ?? 'error', headers: {}, body: '' }));
    req.end(body);
  });
}

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const initialize = rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'soak', version: '1' } });
const queries = ['turn on the light', 'thermostat temperature', 'kitchen speaker volume', 'zet de lamp aan', 'Heizung', 'is the front door open'];

/** RSS growth after the warm-up (the first fifth of the samples), in MB per minute, by least squares. */
function slope(samples, key) {
  const after = samples.slice(Math.floor(samples.length / 5));
  if (after.length < 2) return 0;
  const n = after.length;
  const mx = after.reduce((a, s) => a + s.t, 0) / n;
  const my = after.reduce((a, s) => a + s[key], 0) / n;
  let num = 0;
  let den = 0;
  for (const s of after) {
    num += (s.t - mx) * (s[key] - my);
    den += (s.t - mx) ** 2;
  }
  return den ? (num / den) * 60 : 0;
}

/** A raw socket from a loopback address of its own (an attacker elsewhere), connected. */
async function socketFrom(port, localAddress) {
  const s = tcpConnect({ port, host: '127.0.0.1', localAddress });
  s.on('error', () => {});
  await Promise.race([once(s, 'connect'), once(s, 'close')]);
  return s;
}

/** One HTTP exchange from `localAddress`, without keep-alive; resolves with {status, body}. */
function from(localAddress, url, { method = 'POST', headers = {}, body } = {}) {
  return new Promise((resolve) => {
    const req = request(url, { method, headers, agent: false, localAddress }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', () => resolve({ status: 'reset', headers: {}, body: '' }));
    });
    req.on('error', (e) => resolve({ status: e.code ?? 'error', headers: {}, body: '' }));
    req.end(body);
  });
}

/** A held event stream from `localAddress` (GET in a session, or a sessionless listen): resolves with its response, or null. */
function hold(localAddress, url, { method, headers, body }) {
  return new Promise((resolve) => {
    const req = request(url, { method, headers, agent: false, localAddress }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(null);
      }
      res.resume();
      resolve(res);
    });
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/**
 * Attacks run beside the load until `stopped()`, each from an address of its own; resolves with what each
 * did. Half-header sockets, GET stream holders, sessionless listen holders, junk requests.
 */
async function mixedAttacks(server, stopped) {
  const { url, port } = server;
  const tally = { halfHeaders: 0, halfClosed: 0, streamsHeld: 0, listensHeld: 0, listensRefused: 0, junk: {} };
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  // sockets that never finish their headers: up to 80 at once from one address (its share is 64)
  const halfHeaders = async () => {
    const open = new Set();
    while (!stopped()) {
      while (open.size < 80 && !stopped()) {
        const s = await socketFrom(port, '127.0.0.2');
        tally.halfHeaders++;
        s.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n');
        open.add(s);
        s.once('close', () => {
          open.delete(s);
          tally.halfClosed++;
        });
      }
      await pause(50);
    }
    for (const s of open) s.destroy();
  };
  // sessions that hold GET streams and never send a request again
  const streamHolders = async () => {
    const held = new Set();
    while (!stopped()) {
      if (held.size < 40) {
        const init = await from('127.0.0.3', url, { headers: json, body: initialize });
        const sid = init.headers['mcp-session-id'];
        const res = sid ? await hold('127.0.0.3', url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid } }) : null;
        if (res) {
          tally.streamsHeld++;
          held.add(res);
          res.once('close', () => held.delete(res));
        }
      }
      await pause(held.size < 40 ? 20 : 200);
    }
    for (const r of held) r.destroy();
  };
  // sessionless 2026-07-28 subscriptions/listen streams held open
  const listenHolders = async () => {
    const held = new Set();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const headers = { ...json, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' };
    let id = 0;
    while (!stopped()) {
      if (held.size < 40) {
        const body = rpc(++id, 'subscriptions/listen', { notifications: { toolsListChanged: true }, _meta: meta });
        const res = await hold('127.0.0.4', url, { method: 'POST', headers, body });
        if (res) {
          tally.listensHeld++;
          held.add(res);
          res.once('close', () => held.delete(res));
        } else tally.listensRefused++;
      }
      await pause(held.size < 40 ? 20 : 200);
    }
    for (const r of held) r.destroy();
  };
  // junk: sessionless non-JSON-RPC, compressed bodies, two Host headers, a token where none is wanted
  const junk = async () => {
    const kinds = [
      () => from('127.0.0.5', url, { headers: json, body: '[]' }),
      () => from('127.0.0.5', url, { headers: { ...json, 'content-encoding': 'gzip, gzip' }, body: initialize }),
      () => from('127.0.0.5', url, { headers: { ...json, 'mcp-session-id': 'forged' }, body: rpc(1, 'tools/list') }),
      async () => {
        const s = await socketFrom(port, '127.0.0.5');
        s.write(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: ${initialize.length}\r\n\r\n${initialize}`);
        let text = '';
        s.setEncoding('latin1').on('data', (d) => (text += d));
        await once(s, 'close');
        return { status: Number(text.match(/^HTTP\/1\.1 (\d+)/)?.[1] ?? 0) };
      },
    ];
    let i = 0;
    while (!stopped()) {
      const r = await kinds[i++ % kinds.length]();
      const key = `${(i - 1) % kinds.length}:${r.status}`;
      tally.junk[key] = (tally.junk[key] ?? 0) + 1;
      await pause(10);
    }
  };
  await Promise.all([halfHeaders(), streamHolders(), listenHolders(), junk()]);
  return tally;
}

/** `serve --upstream` in front of the hostile upstream, called in a loop until `stopped()`; samples both RSS. */
async function hostileLoop(stopped) {
  const up = await hostileUpstream({ flood: 20_000, streamFlood: 2_000 });
  const server = await serve(['--upstream', up.url, '--timeout', '10']);
  const samples = [];
  const t0 = performance.now();
  const results = { calls: 0, cut: 0, other: 0 };
  const sampler = setInterval(() => samples.push({ t: Math.round((performance.now() - t0) / 1000), rssMB: Number(server.rss().toFixed(1)), answers: up.stats.answers }), interval * 1000);
  try {
    const init = await http(server.url, { headers: json, body: initialize, useAgent: false });
    const sid = init.headers['mcp-session-id'];
    while (!stopped()) {
      const r = await http(server.url, { headers: { ...json, 'mcp-session-id': sid }, body: rpc(5, 'tools/call', { name: 'flood', arguments: {} }), useAgent: false });
      results.calls++;
      const text = JSON.parse(r.body || '{}').result?.content?.[0]?.text ?? r.body;
      if (/more than 40 requests in a second/.test(text)) results.cut++;
      else results.other++;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    clearInterval(sampler);
    await server.stop();
    await up.close();
  }
  const secs = (performance.now() - t0) / 1000;
  return { ...results, answers: up.stats.answers, answersPerSecond: Number((up.stats.answers / secs).toFixed(1)), streams: up.stats.streams, samples };
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

/** The load phase: clients looping over short abandoned sessions. */
async function load(server) {
  const t0 = performance.now();
  let stop = false;
  let window = { requests: 0, errors: 0, latencies: [] };
  const samples = [];
  const totals = { requests: 0, errors: 0, sessions: 0, statuses: {} };
  const errorsSeen = [];

  async function step(sid, body, expect) {
    const start = performance.now();
    const r = await http(server.url, { headers: { ...json, ...(sid ? { 'mcp-session-id': sid } : {}) }, body });
    window.latencies.push(performance.now() - start);
    window.requests += 1;
    totals.requests += 1;
    totals.statuses[r.status] = (totals.statuses[r.status] ?? 0) + 1;
    let ok = r.status === expect;
    if (ok && r.status === 200) {
      try {
        const reply = JSON.parse(r.body);
        ok = !reply.error && reply.result?.isError !== true;
      } catch {
        ok = false;
      }
    }
    if (!ok) {
      window.errors += 1;
      totals.errors += 1;
      if (errorsSeen.length < 5) errorsSeen.push(`${r.status} ${r.body.slice(0, 200)}`);
    }
    return r;
  }

  async function client(n) {
    let i = 0;
    while (!stop) {
      const init = await step(null, initialize, 200);
      const sid = init.headers['mcp-session-id'];
      if (!sid) continue;
      totals.sessions += 1;
      await step(sid, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), 202);
      await step(sid, rpc(2, 'tools/list'), 200);
      await step(sid, rpc(3, 'tools/call', { name: 'search_tools', arguments: { query: queries[(n + i) % queries.length] } }), 200);
      await step(sid, rpc(4, 'tools/call', { name: 'use_tool', arguments: { name: 'set_light', arguments: { deviceId: 'living-lamp', state: 'toggle' } } }), 200);
      i += 1;
      // abandoned: no DELETE
    }
  }

  const sampler = setInterval(() => {
    const s = [...window.latencies].sort((a, b) => a - b);
    const elapsed = (performance.now() - t0) / 1000;
    samples.push({
      t: Math.round(elapsed),
      rps: Math.round(window.requests / interval),
      errors: window.errors,
      p50: Number(percentile(s, 50).toFixed(2)),
      p99: Number(percentile(s, 99).toFixed(2)),
      rssMB: Number(server.rss().toFixed(1)),
      sessions: server.stats().sessions,
    });
    window = { requests: 0, errors: 0, latencies: [] };
  }, interval * 1000);
  const running = Array.from({ length: clients }, (_, n) => client(n));
  const mixed = mixedAttacks(server, () => stop);
  const hostile = hostileLoop(() => stop);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(running);
  const [attacksMixed, hostileUp] = await Promise.all([mixed, hostile]);
  clearInterval(sampler);
  return { samples, totals, errorsSeen, seconds: (performance.now() - t0) / 1000, attacksMixed, hostileUp };
}

/** Raw TCP: writes `head`, collects the answer until the server closes. */
async function rawExchange(port, head, { drip = false } = {}) {
  const socket = tcpConnect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  let text = '';
  const start = performance.now();
  socket.setEncoding('latin1');
  socket.on('data', (d) => (text += d));
  const closed = new Promise((resolve) => socket.on('close', resolve));
  let timer;
  if (drip) {
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    timer = setInterval(() => socket.writable && socket.write('X'), 1000);
  } else {
    socket.write(head);
  }
  await closed;
  clearInterval(timer);
  return { status: Number(text.match(/^HTTP\/1\.1 (\d+)/)?.[1] ?? 0), ms: performance.now() - start };
}

/** The attack phase against the loaded server. */
async function attacks(server) {
  const out = [];
  const note = (name, result, ok) => {
    out.push({ name, result, ok });
    check(ok, `attack ${name}: ${result}`);
  };
  const { url, port } = server;
  const statusOf = async (headers, body = initialize) => (await http(url, { headers: { ...json, ...headers }, body, useAgent: false })).status;

  const origins = ['null', 'http://localhost.evil.com', 'http://127.0.0.1.nip.io', 'http://127.evil.example', 'http://[::1].evil.com', 'http://127.0.0.1@evil.com', 'http://[::2]'];
  const originStatuses = await Promise.all(origins.map((o) => statusOf({ origin: o })));
  note('foreign Origin variants', `${origins.length} variants: ${[...new Set(originStatuses)].join(', ')}`, originStatuses.every((s) => s === 403));
  const v6 = await statusOf({ origin: `http://[::1]:${port}` });
  note('IPv6 loopback Origin', `http://[::1]:${port}: ${v6}`, v6 === 200);

  const hosts = [`127.0.0.1.nip.io:${port}`, `127.evil.example:${port}`, `localhost.evil.example:${port}`, `[::1].evil.com:${port}`];
  const hostStatuses = await Promise.all(hosts.map((h) => statusOf({ host: h })));
  note('Host rebinding', `${hosts.length} hosts: ${[...new Set(hostStatuses)].join(', ')}`, hostStatuses.every((s) => s === 403));

  const big = await rawExchange(port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2147483648\r\n\r\n`);
  note('declared 2 GiB body', `${big.status}, connection closed after ${big.ms.toFixed(0)} ms without reading a byte`, big.status === 413);
  const chunk = 'x'.repeat(64 * 1024);
  const chunked = await new Promise((resolve) => {
    const start = performance.now();
    const req = request(url, { method: 'POST', headers: { ...json, 'transfer-encoding': 'chunked' }, agent: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode, ms: performance.now() - start });
    });
    req.on('error', (e) => resolve({ status: e.code, ms: performance.now() - start }));
    let sent = 0;
    const more = () => {
      while (sent < 64) {
        sent += 1;
        if (!req.write(chunk)) return req.once('drain', more);
      }
      req.end();
    };
    more();
  });
  note('chunked body past the limit', `${chunked.status} after ${chunked.ms.toFixed(0)} ms`, chunked.status === 413 || chunked.status === 'ECONNRESET' || chunked.status === 'EPIPE');

  const utf8 = await http(url, { headers: json, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), useAgent: false });
  note('invalid UTF-8 body', `${utf8.status} ${utf8.body.slice(0, 60).trim()}`, utf8.status === 400 || utf8.status === 200);

  const ctype = await statusOf({ 'content-type': 'application/jsonp' });
  note('application/jsonp', String(ctype), ctype === 415);

  // hidden tool under other spellings (serve runs with --deny trigger_any_flow)
  const init = await http(url, { headers: json, body: initialize, useAgent: false });
  const sid = init.headers['mcp-session-id'];
  const spellings = ['trigger_any_flow', 'TRIGGER_ANY_FLOW', 'trigger_any_flow ', 'trigger_any_flow\u0000', 'trigger_any_flow\u00ad', 'trigger_any_fl\u043ew', 'trigger-any-flow', 'functions.trigger_any_flow', 'default_api.trigger_any_flow'];
  let reached = 0;
  for (const name of spellings) {
    const direct = await http(url, { headers: { ...json, 'mcp-session-id': sid }, body: rpc(9, 'tools/call', { name, arguments: { command: 'good_morning' } }), useAgent: false });
    const via = await http(url, { headers: { ...json, 'mcp-session-id': sid }, body: rpc(10, 'tools/call', { name: 'use_tool', arguments: { name, arguments: { command: 'good_morning' } } }), useAgent: false });
    const directOk = JSON.parse(direct.body).error !== undefined;
    const viaOk = JSON.parse(via.body).result?.isError === true;
    if (!directOk || !viaOk) reached += 1;
  }
  note('hidden tool name tricks', `${spellings.length} spellings × (tools/call, use_tool): ${reached} reached it`, reached === 0);

  // thousands of connections at once, each with an initialize
  const before = server.rss();
  const start = performance.now();
  const storm = await Promise.all(Array.from({ length: connections }, () => http(url, { headers: json, body: initialize, useAgent: false })));
  const counts = {};
  for (const r of storm) counts[r.status] = (counts[r.status] ?? 0) + 1;
  await new Promise((r) => setTimeout(r, 1500));
  const after = server.rss();
  note(
    `${connections} connections at once`,
    `${Object.entries(counts).map(([k, v]) => `${v}× ${k}`).join(', ')} in ${((performance.now() - start) / 1000).toFixed(1)} s; RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB; ${server.stats().sessions} sessions`,
    (counts[200] ?? 0) > 0 && server.stats().sessions <= 64 && !counts[500],
  );

  // slow headers: one byte a second, never finished
  const t = performance.now();
  const slow = await Promise.all(Array.from({ length: slowClients }, () => rawExchange(port, '', { drip: true })));
  const slowest = Math.max(...slow.map((s) => s.ms));
  note(`${slowClients} connections sending headers at 1 byte/s`, `all closed (408) within ${(slowest / 1000).toFixed(1)} s`, slow.every((s) => s.status === 408 || s.status === 0) && slowest < 30_000);
  void t;
  return out;
}

/** Each fault of the faulty upstream through `serve --upstream`. */
async function faults() {
  const upstream = await faultyUpstream();
  const server = await serve(['--upstream', upstream.url, '--timeout', '2']);
  const out = [];
  try {
    const init = await http(server.url, { headers: json, body: initialize, useAgent: false });
    const sid = init.headers['mcp-session-id'];
    for (const name of ['hang', 'garbage', 'html', 'huge', 'cut_sse', 'error500', 'wrong_id', 'ok']) {
      const start = performance.now();
      const r = await http(server.url, { headers: { ...json, 'mcp-session-id': sid }, body: rpc(5, 'tools/call', { name, arguments: {} }), useAgent: false });
      const ms = performance.now() - start;
      const result = JSON.parse(r.body).result;
      const text = result?.content?.[0]?.text ?? r.body;
      const ok = name === 'ok' ? result?.isError !== true : result?.isError === true && /upstream http:/.test(text) && ms < 10_000;
      out.push({ name, ms: Number(ms.toFixed(0)), message: text.slice(0, 160), rssMB: Number(server.rss().toFixed(1)), ok });
      check(ok, `upstream fault ${name}: ${text.slice(0, 160)}`);
    }
  } finally {
    await server.stop();
    await upstream.close();
  }
  return out;
}

const loadBefore = loadavg()[0];
const server = await serve(['--demo', '--mode', 'hybrid', '--deny', 'trigger_any_flow']);
const startRss = server.rss();
const soak = await load(server);
const attackResults = await attacks(server);
const endRss = server.rss();
await server.stop();
const faultResults = await faults();
agent.destroy();

const rss = soak.samples.map((s) => s.rssMB);
const maxSessions = Math.max(0, ...soak.samples.map((s) => s.sessions));
const growth = { load: Number(slope(soak.samples, 'rssMB').toFixed(2)), hostile: Number(slope(soak.hostileUp.samples, 'rssMB').toFixed(2)) };
check(soak.totals.errors === 0, `${soak.totals.errors} errors under load: ${soak.errorsSeen.join(' | ')}`);
check(maxSessions <= 64, `${maxSessions} sessions, past the default limit of 64`);
check(soak.totals.sessions > maxSessions, 'the load did not fill the session table');
// flat after the warm-up: judged on runs long enough to have one
if (!quick) {
  check(growth.load < 0.5, `the loaded server's RSS grows ${growth.load} MB/min after the warm-up`);
  check(growth.hostile < 0.5, `the hostile upstream's gateway RSS grows ${growth.hostile} MB/min after the warm-up`);
}
// every flooding call is cut, and at most twice the rate of requests comes back each second (the call's and
// the notification stream's together share it)
check(soak.hostileUp.calls > 0 && soak.hostileUp.other === 0, `hostile upstream: ${soak.hostileUp.other} of ${soak.hostileUp.calls} flooding calls not cut`);
check(soak.hostileUp.answersPerSecond <= 40, `hostile upstream: ${soak.hostileUp.answersPerSecond} answers per second came back`);
check(soak.attacksMixed.listensRefused > 0 || quick, 'no sessionless listen stream was refused');
const summary = {
  node: process.version,
  cpu: `${cpus()[0]?.model} ×${cpus().length}`,
  load: { before: loadBefore, after: loadavg()[0] },
  clients,
  seconds: Math.round(soak.seconds),
  requests: soak.totals.requests,
  errors: soak.totals.errors,
  sessionsOpened: soak.totals.sessions,
  maxSessions,
  rssMB: { start: Number(startRss.toFixed(1)), min: Math.min(...rss), max: Math.max(...rss), end: Number(endRss.toFixed(1)) },
  rssGrowthMBPerMinute: growth,
  samples: soak.samples,
  attacksMixed: soak.attacksMixed,
  hostileUpstream: soak.hostileUp,
  attacks: attackResults,
  faults: faultResults,
  failures,
};

if (asJson) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  console.log(`Soak: serve --demo --mode hybrid, ${clients} clients, ${summary.seconds} s; ${summary.node} on ${summary.cpu}; load average ${loadBefore.toFixed(2)} before, ${summary.load.after.toFixed(2)} after\n`);
  console.log(`${summary.requests} requests, ${summary.errors} errors, ${summary.sessionsOpened} sessions opened and abandoned; at most ${maxSessions} in the table; server RSS ${summary.rssMB.start} MB at start, ${summary.rssMB.min}–${summary.rssMB.max} MB under load, ${summary.rssMB.end} MB after the attacks\n`);
  console.log(`RSS after the warm-up (the first fifth): ${growth.load} MB/min for the loaded server, ${growth.hostile} MB/min for the gateway in front of the hostile upstream (least squares)\n`);
  console.log('| t (s) | req/s | errors | p50 ms | p99 ms | RSS MB | sessions |\n|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of soak.samples) console.log(`| ${s.t} | ${s.rps} | ${s.errors} | ${s.p50} | ${s.p99} | ${s.rssMB} | ${s.sessions} |`);
  const m = soak.attacksMixed;
  console.log(`\nMixed in: ${m.halfHeaders} half-header sockets (${m.halfClosed} closed by the server), ${m.streamsHeld} GET streams held, ${m.listensHeld} sessionless listen streams held and ${m.listensRefused} refused, junk ${JSON.stringify(m.junk)}`);
  const h = soak.hostileUp;
  console.log(`Hostile upstream: ${h.calls} flooding calls (${h.cut} cut, ${h.other} otherwise), ${h.answers} answers came back (${h.answersPerSecond}/s), ${h.streams} notification streams opened; gateway RSS ${h.samples.map((s) => s.rssMB).join(', ')} MB`);
  console.log('\n| attack | result | held |\n|---|---|---|');
  for (const a of attackResults) console.log(`| ${a.name} | ${a.result} | ${a.ok ? 'yes' : '**no**'} |`);
  console.log('\n| upstream fault | time ms | tool result | gateway RSS MB |\n|---|---:|---|---:|');
  for (const f of faultResults) console.log(`| ${f.name} | ${f.ms} | ${f.message.replaceAll('|', '\\|')} | ${f.rssMB} |`);
  if (failures.length) console.log(`\nFAILED:\n- ${failures.join('\n- ')}`);
}
process.exit(failures.length ? 1 : 0);
