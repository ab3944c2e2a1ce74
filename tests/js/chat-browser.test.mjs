// mcp-switchboard in a real browser (Debian's headless Chromium): the
// browser entry loads its module by top-level await, and runChat() runs a
// streamed conversation with the page's own fetch against a fake model
// server on another origin, with a tool the page implements.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

import { root } from './helpers.mjs';
import { startFakeModel } from './fake-models.mjs';

const CHROMIUM = '/usr/bin/chromium';
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };

let server;
let base;
let browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run "make tools" (apt-get install chromium)`);
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^\/+/, '');
    if (path === '') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>chat</title>');
    if (!/^pkg\//.test(path) || path.includes('..')) return res.writeHead(404).end();
    try {
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(join(root, path)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => server?.close(ok) ?? ok());
});

test('runChat in a browser: a streamed Anthropic conversation with a tool of the page', async () => {
  const model = await startFakeModel(
    'anthropic',
    [{ calls: [{ name: 'get_time', arguments: { zone: 'Europe/Amsterdam' } }] }, { text: 'It is noon in Amsterdam.' }],
    { key: 'browser-key', cors: true },
  );
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(base);
    const out = await page.evaluate(async (baseUrl) => {
      const { Conversation, runChat } = await import('/pkg/browser.mjs');
      const catalog = { tools: [{ name: 'get_time', description: 'The time in a zone', inputSchema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } }] };
      const chat = new Conversation(catalog, { provider: 'anthropic', model: 'claude-test', apiKey: 'browser-key', baseUrl, stream: true, browserAccess: true });
      let text = '';
      const done = await runChat(chat, 'What time is it in Amsterdam?', {
        callTool: async (name, args) => ({ content: [{ type: 'text', text: `${name} ${args.zone}: 12:00` }] }),
        onText: (d) => (text += d),
      });
      return { reason: done.reason, text: done.text, streamed: text, calls: done.calls };
    }, model.baseUrl);
    assert.deepEqual(out, { reason: 'stop', text: 'It is noon in Amsterdam.', streamed: 'It is noon in Amsterdam.', calls: [{ name: 'get_time', arguments: { zone: 'Europe/Amsterdam' }, isError: false }] });
    assert.equal(model.requests[0].headers['anthropic-dangerous-direct-browser-access'], 'true');
    assert.match(JSON.stringify(model.requests[1].body.messages.at(-1)), /get_time Europe\/Amsterdam: 12:00/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await model.close();
  }
});
