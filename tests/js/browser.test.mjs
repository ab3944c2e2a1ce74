// The browser build in a real browser: the demo page (js/demo-page/) loads
// pkg/browser.mjs in headless Chromium (Debian's, installed by `make tools`;
// nothing downloads a browser), converts the bundled catalog and searches it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

import { root } from './helpers.mjs';

const CHROMIUM = '/usr/bin/chromium';
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };

let server;
let base;
let browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run "make tools" (apt-get install chromium)`);
  // a static server for the checkout (js/ and pkg/ only)
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^\/+/, '');
    if (!/^(js|pkg)\//.test(path) || path.includes('..')) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(join(root, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
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

test('the demo page converts and searches with the browser build', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${base}/js/demo-page/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  assert.match(await page.textContent('#status'), /^8 tools, \d+ report entries/);
  assert.match(await page.textContent('#output'), /"functionDeclarations"/);
  assert.ok((await page.$$('#report tr')).length > 0);

  await page.selectOption('#dialect', 'openai');
  await page.check('#strict');
  await page.click('#convert');
  const out = JSON.parse(await page.textContent('#output'));
  assert.equal(out[0].type, 'function');
  assert.equal(out[0].function.strict, true);

  await page.fill('#query', 'zet het licht aan');
  await page.click('#search');
  const hits = await page.$$eval('#hits li', (lis) => lis.map((li) => li.textContent));
  assert.ok(hits.length > 0);
  assert.match(hits[0], /^HassTurnOn|^HassLightSet/);

  await page.fill('#catalog', '{"tools": [');
  await page.click('#convert');
  assert.match(await page.textContent('#status'), /^json: /);
  assert.deepEqual(errors, []);
  await page.close();
});
