// The web tools' shell (js/web.mjs) against servers started here on
// loopback: web_fetch with private addresses allowed for them (pages,
// redirect chains, encodings decoded in Rust and by the host's TextDecoder,
// the 5 MiB cap, a 50 MB page, timeouts, binary types, compressed bodies),
// the default refusing loopback and private addresses (directly, through a
// name that resolves to 127.0.0.1 and after a redirect), and web_search
// against a local MCP search service that answers like Exa's (SSE and JSON
// replies, a JSON-RPC error, HTTP 500, a hang). The real request code runs;
// only the addresses point here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

import { handlerSource } from '../../js/dispatch.mjs';
import { webFetch, webSearch, webTools, withWebTools } from '../../js/web.mjs';
import { Engine } from '../../pkg/full/index.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = (name) => readFileSync(join(root, 'tests/fixtures/html', name));
const MiB = 1024 * 1024;

/**
 * Starts `handler` on 127.0.0.1, and on ::1 at the same port where the
 * machine has IPv6 (`localhost` may resolve to either first); resolves with
 * `{port, close}`.
 */
async function listen(handler) {
  const server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const v6 = http.createServer(handler);
  const both = await new Promise((resolve) => {
    v6.once('error', () => resolve(false));
    v6.listen(port, '::1', () => resolve(true));
  });
  const close = () => {
    for (const s of both ? [server, v6] : [server]) {
      s.closeAllConnections();
      s.close();
    }
  };
  return { port, close };
}

/** Writes `total` bytes of HTML paragraphs in 64 KiB chunks, minding backpressure; counts what was sent. */
async function stream(res, total, sent) {
  const chunk = Buffer.from('<p>' + 'Lorem ipsum dolor sit amet, '.repeat(2340) + '</p>\n');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  while (sent.bytes < total && !res.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunk.length, total - sent.bytes));
    sent.bytes += piece.length;
    if (!res.write(piece)) {
      // one wait at a time: the listener of the event that did not come goes too (else each wait left a
      // 'close' listener behind, 11 of them past the first 640 KiB)
      await new Promise((r) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          r(undefined);
        };
        res.once('drain', done);
        res.once('close', done);
      });
    }
  }
  res.end();
}

const error = (result) => {
  assert.equal(result.isError, true, JSON.stringify(result).slice(0, 500));
  return result.structuredContent.error;
};
const ok = (result) => {
  assert.ok(!result.isError, JSON.stringify(result).slice(0, 500));
  return result.structuredContent;
};

describe('web_fetch', () => {
  let site, base;
  const sent = { bytes: 0 };
  const open = new Set();
  before(async () => {
    site = await listen((req, res) => {
      const path = new URL(req.url, 'http://x').pathname;
      const html = (body, type = 'text/html; charset=utf-8') => (res.writeHead(200, { 'content-type': type }), res.end(body));
      const hop = path.match(/^\/hops\/(\d+)$/);
      if (hop) {
        const n = Number(hop[1]);
        res.writeHead(n % 2 ? 301 : 307, { location: n > 0 ? `/hops/${n - 1}` : '/news' });
        return res.end();
      }
      switch (path) {
        case '/news':
          return html(fixture('news-article.html'));
        case '/nl':
          return html(fixture('nl-installation-guide.html'));
        case '/loop':
          res.writeHead(302, { location: '/loop' });
          return res.end();
        case '/to-loopback':
          res.writeHead(302, { location: `http://127.0.0.1:${site.port}/news` });
          return res.end();
        case '/to-private':
          res.writeHead(302, { location: 'http://10.0.0.1/admin' });
          return res.end();
        case '/cp1252':
          // "Café – “quoted” €5" in windows-1252, declared in the header
          return html(Buffer.from([...Buffer.from('<p>Caf'), 0xe9, 0x20, 0x96, 0x20, 0x93, ...Buffer.from('quoted'), 0x94, 0x20, 0x80, 0x35, ...Buffer.from('</p>')]), 'text/html; charset=windows-1252');
        case '/wrong-label':
          // a label no encoding has, and bytes that are not UTF-8: read as windows-1252
          return html(Buffer.from('<p>Grüße</p>', 'latin1'), 'text/html; charset=klingon-8');
        case '/sjis':
          // 日本語のページ in Shift_JIS, declared in a <meta>
          return html(Buffer.concat([Buffer.from('<meta charset="Shift_JIS"><title>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x79, 0x81, 0x5b, 0x83, 0x57]), Buffer.from('</title><h1>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]), Buffer.from('</h1>')]), 'text/html');
        case '/latin2':
          // Łódź in ISO-8859-2
          return html(Buffer.concat([Buffer.from('<p>'), Buffer.from([0xa3, 0xf3, 0x64, 0xbc]), Buffer.from('</p>')]), 'text/html; charset=ISO-8859-2');
        case '/big':
          return stream(res, 8 * MiB, { bytes: 0 });
        case '/huge':
          sent.bytes = 0;
          return stream(res, 50 * 1000 * 1000, sent);
        case '/hang':
          open.add(res);
          return; // never answers
        case '/slow':
          // headers and a first chunk, then a trickle that never ends
          res.writeHead(200, { 'content-type': 'text/html' });
          res.write('<p>first</p>');
          open.add(res);
          res.timer = setInterval(() => res.write('<p>more</p>'), 100);
          res.on('close', () => clearInterval(res.timer));
          return;
        case '/png':
          return html(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'image/png');
        case '/untyped-binary':
          res.writeHead(200, { 'content-type': '' });
          return res.end(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0]));
        case '/gzip':
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
          return res.end(gzipSync('<h1>Packed</h1><p>unpacked by the host</p>'));
        case '/gzip-gzip':
          // compressed twice, the codings in the order they were applied
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip' });
          return res.end(gzipSync(gzipSync('<h1>Twice</h1>')));
        case '/br-gzip':
          res.writeHead(200, [['content-type', 'text/html'], ['content-encoding', 'br'], ['content-encoding', 'gzip']]);
          return res.end(gzipSync(brotliCompressSync('<h1>Both</h1>')));
        case '/gzip-lie':
          // says twice, is once
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip' });
          return res.end(gzipSync('<h1>Once</h1>'));
        case '/zstd':
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'zstd' });
          return res.end('(zstd bytes)');
        case '/gzip3':
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip, gzip, gzip' });
          return res.end(gzipSync(gzipSync(gzipSync('<h1>Bomb</h1>'))));
        case '/json':
          return html('{"temperature": 21.5}', 'application/json');
        case '/gone':
          res.writeHead(404, { 'content-type': 'text/html' });
          return res.end('<h1>Not here</h1>');
        default:
          res.writeHead(500);
          return res.end();
      }
    });
    base = `http://127.0.0.1:${site.port}`;
  });
  after(() => {
    for (const res of open) res.destroy();
    site.close();
  });

  const local = { allowPrivate: true };

  test('a page becomes Markdown with its title and metadata', async () => {
    const r = ok(await webFetch({ url: `${base}/news` }, local));
    assert.match(r.content, /^# /m);
    assert.ok(r.title && r.title.length > 0);
    assert.equal(r.metadata.status, 200);
    assert.equal(r.metadata.charset, 'utf-8');
    assert.equal(r.metadata.url, `${base}/news`);
    assert.equal(r.metadata.truncated, false);
    assert.doesNotMatch(r.content, /<script|<\/?div/);
    const text = ok(await webFetch({ url: `${base}/nl`, format: 'text' }, local));
    assert.equal(text.metadata.format, 'text');
    assert.doesNotMatch(text.content, /^#+ |\]\(http/m);
    assert.match(text.content, /schijfruimte/);
    const raw = ok(await webFetch({ url: `${base}/nl`, format: 'html' }, local));
    assert.match(raw.content, /^<html>/);
  });

  test('redirect chains are followed through the core, and bounded', async () => {
    const r = ok(await webFetch({ url: `${base}/hops/4` }, local));
    assert.equal(r.metadata.url, `${base}/news`);
    assert.equal(r.metadata.requestedUrl, `${base}/hops/4`);
    assert.match(error(await webFetch({ url: `${base}/hops/5` }, { ...local, maxRedirects: 3 })), /too many redirects \(more than 3\)/);
    assert.match(error(await webFetch({ url: `${base}/loop` }, local)), /too many redirects \(more than 5\)/);
  });

  test('by default loopback and private addresses are refused: literal, by name, after a redirect', async () => {
    assert.match(error(await webFetch({ url: `${base}/news` })), /127\.0\.0\.1, a loopback address/);
    // localhost is a name: dns.lookup resolves it, and the answer is refused
    assert.match(error(await webFetch({ url: `http://localhost:${site.port}/news` })), /refused to fetch localhost: it resolves to (127\.0\.0\.1|::1), a loopback address/);
    assert.match(error(await webFetch({ url: `http://[::1]:${site.port}/news` })), /loopback/);
    assert.match(error(await webFetch({ url: 'http://169.254.169.254/latest/meta-data/' })), /link-local/);
    assert.match(error(await webFetch({ url: 'http://0x7f000001/' })), /loopback/);
    // localhost is allowed by name at its port, the redirect to 127.0.0.1 is checked again and refused
    const named = { allowHosts: [`localhost:${site.port}`] };
    ok(await webFetch({ url: `http://localhost:${site.port}/news` }, named));
    // without the port, only 80 and 443 are allowed
    assert.match(error(await webFetch({ url: `http://localhost:${site.port}/news` }, { allowHosts: ['localhost'] })), /allowed at the ports listed in the settings only, not \d+/);
    const e = error(await webFetch({ url: `http://localhost:${site.port}/to-loopback` }, named));
    assert.match(e, /refused to fetch the redirect to 127\.0\.0\.1: it resolves to 127\.0\.0\.1, a loopback address/);
    assert.match(error(await webFetch({ url: `http://localhost:${site.port}/to-private` }, named)), /redirect to 10\.0\.0\.1.*a private address/);
  });

  test('encodings: windows-1252 in Rust, a wrong label, Shift_JIS and ISO-8859-2 by the host TextDecoder', async () => {
    const cp = ok(await webFetch({ url: `${base}/cp1252` }, local));
    assert.equal(cp.content, 'Café – “quoted” €5');
    assert.equal(cp.metadata.charset, 'windows-1252');
    const wrong = ok(await webFetch({ url: `${base}/wrong-label` }, local));
    assert.equal(wrong.content, 'Grüße');
    assert.equal(wrong.metadata.charset, 'windows-1252');
    const sjis = ok(await webFetch({ url: `${base}/sjis` }, local));
    assert.equal(sjis.metadata.charset, 'shift_jis');
    assert.equal(sjis.title, '日本語のページ');
    assert.equal(sjis.content, '# 日本語');
    const l2 = ok(await webFetch({ url: `${base}/latin2` }, local));
    assert.equal(l2.metadata.charset, 'iso-8859-2');
    assert.equal(l2.content, 'Łódź');
  });

  test('the body stops at 5 MiB, and a 50 MB page is not read past it', async () => {
    const big = ok(await webFetch({ url: `${base}/big` }, local));
    assert.equal(big.metadata.bytes, 5 * MiB);
    assert.equal(big.metadata.truncated, true);
    assert.match(big.content, /\[truncated\]$/);
    const started = performance.now();
    const huge = ok(await webFetch({ url: `${base}/huge` }, local));
    assert.equal(huge.metadata.bytes, 5 * MiB);
    assert.ok(huge.content.length <= 100_000 + 20, `${huge.content.length}`);
    // the connection was dropped: the server could not send the 50 MB (socket buffers hold a few MB)
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(sent.bytes < 20 * 1000 * 1000, `${sent.bytes} bytes sent`);
    assert.ok(performance.now() - started < 20_000);
  });

  test('timeouts: no answer, and a body that never ends', async () => {
    let t = performance.now();
    assert.match(error(await webFetch({ url: `${base}/hang`, timeout: 0.3 }, local)), /did not answer within 0\.3 seconds/);
    assert.ok(performance.now() - t < 5_000);
    t = performance.now();
    assert.match(error(await webFetch({ url: `${base}/slow`, timeout: 0.5 }, local)), /did not answer within 0\.5 seconds/);
    assert.ok(performance.now() - t < 5_000);
    // the default comes from the options, and a call may not ask for more than the most
    assert.match(error(await webFetch({ url: `${base}/hang` }, { ...local, timeoutMs: 200 })), /within 0\.2 seconds/);
    assert.match(error(await webFetch({ url: `${base}/news`, timeout: 121 }, local)), /at most 120 seconds/);
    // a cancelled call stops at once
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    assert.match(error(await webFetch({ url: `${base}/hang` }, { ...local, signal: controller.signal })), /cancelled/);
  });

  test('binary content is refused; compressed bodies, JSON and errors are reported', async () => {
    assert.match(error(await webFetch({ url: `${base}/png` }, local)), /is image\/png, not a web page or text/);
    assert.match(error(await webFetch({ url: `${base}/untyped-binary` }, local)), /binary data without a content type/);
    assert.equal(ok(await webFetch({ url: `${base}/gzip` }, local)).content, '# Packed\n\nunpacked by the host');
    // every coding of a chain is undone, last applied first, across one header or several
    assert.equal(ok(await webFetch({ url: `${base}/gzip-gzip` }, local)).content, '# Twice');
    assert.equal(ok(await webFetch({ url: `${base}/br-gzip` }, local)).content, '# Both');
    // or refused clearly: a body that is not what its codings say, a coding it cannot undo, too many
    assert.match(error(await webFetch({ url: `${base}/gzip-lie` }, local)), /the body is not the gzip, gzip its Content-Encoding says/);
    assert.match(error(await webFetch({ url: `${base}/zstd` }, local)), /compressed with zstd, which web_fetch cannot decode/);
    assert.match(error(await webFetch({ url: `${base}/gzip3` }, local)), /compressed 3 times/);
    assert.equal(ok(await webFetch({ url: `${base}/json` }, local)).content, '{"temperature": 21.5}');
    assert.match(error(await webFetch({ url: `${base}/gone` }, local)), /answered HTTP 404 Not Found/);
    const closed = await listen(() => {});
    closed.close();
    assert.match(error(await webFetch({ url: `http://127.0.0.1:${closed.port}/` }, local)), /could not fetch .*ECONNREFUSED/);
    assert.match(error(await webFetch({ url: 'http://no-such-host.invalid/' }, local)), /could not resolve no-such-host\.invalid/);
    assert.match(error(await webFetch({ url: 'file:///etc/passwd' }, local)), /web_fetch: url/);
  });
});

/** What the fake search service answers with, per path. */
const EXA_TEXT = [
  'Title: Amber warning for wind tonight\nURL: https://weather.example.org/warnings/amber\nPublished: 2025-11-19T10:00:00.000Z\nAuthor: N/A\nHighlights:\nGusts up to 110 km/h are expected after 22:00.',
  'Title: Storm tips for your home\nURL: https://home.example.net/storm\nPublished: N/A\nAuthor: Jan de Vries\nHighlights:\nBring in garden furniture and close the shutters.',
].join('\n\n');

describe('web_search', () => {
  let service, seen;
  const hanging = new Set();
  before(async () => {
    seen = [];
    service = await listen(async (req, res) => {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      seen.push({ path: req.url, headers: req.headers, body });
      const result = { content: [{ type: 'text', text: EXA_TEXT }] };
      const reply = (r) => JSON.stringify({ jsonrpc: '2.0', id: body.id, ...r });
      switch (new URL(req.url, 'http://x').pathname) {
        case '/sse':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(': keep-alive\n\n');
          return res.end(`event: message\ndata: ${reply({ result })}\n\n`);
        case '/json':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(reply({ result }));
        case '/rpc-error':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(reply({ error: { code: -32602, message: 'Invalid arguments for tool web_search_exa' } }));
        case '/tool-error':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return res.end(`data: ${reply({ result: { isError: true, content: [{ type: 'text', text: 'Search error: rate limit exceeded' }] } })}\n\n`);
        case '/500':
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end('internal error');
        case '/huge':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(`{"jsonrpc":"2.0","id":${body.id},"result":{"content":[{"type":"text","text":"${'x'.repeat(3 * MiB)}"}]}}`);
        case '/hang':
          hanging.add(res);
          return;
        default:
          res.writeHead(404);
          return res.end();
      }
    });
  });
  after(() => {
    for (const res of hanging) res.destroy();
    service.close();
  });
  const at = (path, more = {}) => ({ searchEndpoint: `http://127.0.0.1:${service.port}${path}`, ...more });

  test('the request is a JSON-RPC tools/call over POST, and an SSE reply becomes citable entries', async () => {
    const r = await webSearch({ query: 'storm warning tonight', num_results: 2, type: 'fast' }, at('/sse'));
    assert.ok(!r.isError, JSON.stringify(r));
    const { body, headers } = seen.at(-1);
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.method, 'tools/call');
    assert.equal(body.params.name, 'web_search_exa');
    assert.deepEqual(body.params.arguments, { query: 'storm warning tonight', numResults: 2, type: 'fast', contextMaxCharacters: 10000 });
    assert.match(headers.accept, /application\/json/);
    assert.match(headers.accept, /text\/event-stream/);
    assert.equal(headers['content-type'], 'application/json');
    const text = r.content[0].text;
    assert.match(text, /^Results for "storm warning tonight":\n\n1\. Amber warning for wind tonight\n {3}https:\/\/weather\.example\.org\/warnings\/amber/);
    assert.match(text, /2\. Storm tips for your home\n {3}https:\/\/home\.example\.net\/storm\n {3}by Jan de Vries/);
    assert.deepEqual(r.structuredContent.results.map((x) => x.url), ['https://weather.example.org/warnings/amber', 'https://home.example.net/storm']);
  });

  test('a JSON reply, and an API key in the query string', async () => {
    const r = await webSearch({ query: 'thermostat manual' }, at('/json', { searchApiKey: 'k y/1' }));
    assert.equal(r.structuredContent.results.length, 2);
    assert.equal(seen.at(-1).path, '/json?exaApiKey=k%20y%2F1');
  });

  test('errors become clear tool errors: JSON-RPC error, the service reports an error, HTTP 500, oversize, unreachable', async () => {
    assert.match(error(await webSearch({ query: 'x' }, at('/rpc-error'))), /web search failed: .*Invalid arguments for tool web_search_exa/);
    assert.match(error(await webSearch({ query: 'x' }, at('/tool-error'))), /the search service reported an error: Search error: rate limit exceeded/);
    assert.match(error(await webSearch({ query: 'x' }, at('/500'))), /web search failed: .*500/);
    assert.match(error(await webSearch({ query: 'x' }, at('/huge'))), /reply is larger than 2097152 bytes/);
    const closed = await listen(() => {});
    closed.close();
    assert.match(error(await webSearch({ query: 'x' }, { searchEndpoint: `http://127.0.0.1:${closed.port}/mcp` })), /could not reach the search service: ECONNREFUSED/);
    assert.match(error(await webSearch({ query: '' }, at('/json'))), /web_search: query must not be empty/);
  });

  test('a service that hangs: the timeout (25 s by default, short here) is a tool error', async () => {
    const t = performance.now();
    assert.match(error(await webSearch({ query: 'x' }, at('/hang', { searchTimeoutMs: 300 }))), /did not answer within 0\.3 seconds/);
    assert.ok(performance.now() - t < 5_000);
  });
});

describe('the web tools as a tool source', () => {
  test('webTools() is what handlerSource takes; withWebTools adds them beside a source, its own tools winning', async () => {
    const { catalog, handlers } = webTools({ search: false });
    const source = handlerSource(catalog, handlers, 'web');
    assert.deepEqual(JSON.parse(source.catalog).tools.map((t) => t.name), ['web_fetch']);
    const refused = JSON.parse(await source.call('web_fetch', { url: 'http://127.0.0.1/' }, {}));
    assert.match(refused.structuredContent.error, /loopback/);

    const home = handlerSource([{ name: 'set_light', inputSchema: { type: 'object' } }, { name: 'web_search', description: 'the home own search', inputSchema: { type: 'object' } }], {
      set_light: () => ({ ok: true }),
      web_search: () => ({ own: true }),
    }, 'home');
    const both = withWebTools(home, { metadata: { tools: { set_light: { category: 'lights' } } } });
    assert.deepEqual(JSON.parse(both.catalog).tools.map((t) => t.name), ['set_light', 'web_search', 'web_fetch']);
    assert.equal(both.metadata.tools.web_fetch.category, 'web');
    assert.equal(both.metadata.tools.set_light.category, 'lights');
    assert.equal(both.metadata.tools.web_search, undefined);
    assert.equal(JSON.parse(await both.call('web_search', {}, {})).structuredContent.own, true);
    assert.match(JSON.parse(JSON.stringify(await both.call('web_fetch', { url: 'http://10.1.1.1/' }, {}))).structuredContent.error, /private/);
    // the engine finds web_fetch by its category and words
    const engine = new Engine(both.catalog, { mode: 'hybrid', metadata: both.metadata });
    engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'read a web page', category: 'web' } } }));
    const [reply] = engine.drain();
    assert.match(reply.message, /web_fetch/);
    engine.free();
  });

  test('serve --web-tools (the packaged CLI) offers them beside the demo home', async () => {
    const page = await listen((req, res) => (res.writeHead(200, { 'content-type': 'text/html' }), res.end('<title>Local</title><h1>Hub notes</h1>')));
    const args = ['serve', '--demo', '--port', '0', '--web-tools', '--web-allow-hosts', `localhost:${page.port}`];
    const child = spawn(process.execPath, [join(root, 'pkg/cli.mjs'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise((resolve, reject) => {
        let log = '';
        child.stderr.on('data', (d) => {
          log += d;
          const m = log.match(/serving .* at (http:\/\/\S+)/);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${log}`)));
      });
      const post = async (body, session) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        const data = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))?.slice(6);
        return { session: res.headers.get('mcp-session-id'), message: data ? JSON.parse(data) : null };
      };
      const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
      const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, init.session);
      const names = list.message.result.tools.map((t) => t.name);
      assert.ok(names.includes('web_fetch') && names.includes('web_search'), names.join());
      assert.ok(names.length > 2);
      const fetchPage = async (url) => (await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'web_fetch', arguments: { url } } }, init.session)).message.result;
      // the allowed name is read, the same server by its address is refused
      assert.equal(ok(await fetchPage(`http://localhost:${page.port}/`)).content, '# Hub notes');
      assert.match(error(await fetchPage(`http://127.0.0.1:${page.port}/`)), /loopback/);
    } finally {
      child.kill('SIGTERM');
      page.close();
    }
  });
});
