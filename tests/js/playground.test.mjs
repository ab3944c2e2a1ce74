// The playground (pkg/playground/, served by `mcp-switchboard playground`)
// in headless Chromium (Debian's, driven by playwright-core; nothing
// downloads a browser), at 1280 px (light) and 390 px (dark): every panel
// driven, with no console errors, no sideways scroll and no serious or
// critical axe-core violations; errors shown in red where they happen and
// cleared by the next success; the keyboard (Tab, Enter, Escape). Then a
// live MCP server: the package's gateway library with the simulated home,
// behind a wrapper that answers CORS for the page's origin, connected to by
// the page's UpstreamClient over fetch; and the same gateway without CORS,
// which the browser refuses. Screenshots of each panel go to
// tests/js/screenshots/ (not committed), for review.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

import { createDemoHome } from '../../pkg/demo-home.mjs';
import { dialects } from '../../pkg/index.mjs';
import { createGateway } from '../../pkg/gateway.mjs';
import { root } from './helpers.mjs';

// the Homey app's own tools, as many as it defines today
const HOMEY_TOOLS = JSON.parse(readFileSync(join(root, 'homey-app/lib/tools.json'), 'utf8')).tools.length;

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(root, 'tests/js/screenshots');
const AXE = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
const PANELS = ['catalog', 'dialects', 'roundtrip', 'search'];
// every dialect, and OpenAI's strict mode beside plain OpenAI
const CARDS = dialects().flatMap((d) => (d === 'openai' ? [d, 'openai strict'] : [d]));

let cli;
let base;
let browser;
let gateway;
/** @type {import('node:http').Server[]} */
const servers = [];

/** Starts an HTTP server on loopback; resolves with its URL. */
async function listen(handler) {
  const s = createServer(handler);
  servers.push(s);
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${s.address().port}`;
}

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run "make tools" (apt-get install chromium)`);
  assert.ok(existsSync(join(root, 'pkg/playground/app.js')), 'pkg/playground/ is missing: run node js/build.mjs');
  mkdirSync(SHOTS, { recursive: true });
  cli = spawn(process.execPath, [join(root, 'js/cli.mjs'), 'playground', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  base = await new Promise((resolve, reject) => {
    let err = '';
    cli.stderr.on('data', (d) => {
      err += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m) resolve(m[1]);
    });
    cli.on('exit', (code) => reject(new Error(`playground exited with ${code}: ${err}`)));
  });
  gateway = createGateway({ source: createDemoHome().source, origins: [base] });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  cli?.kill();
  await gateway?.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
});

/**
 * A page of the playground at a width, with its console errors collected (`allow`: messages expected).
 * @param {number} width
 * @param {{ dark?: boolean, allow?: RegExp }} [options]
 */
async function open(width, { dark = false, allow } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: dark ? 'dark' : 'light' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !allow?.test(m.text()) && errors.push(m.text()));
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  await page.waitForSelector('#token-chart figure', { timeout: 30_000 });
  return { page, context, errors };
}

/** The page scrolls sideways? */
async function noOverflow(page, what) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= inner, `${what}: the page is ${scroll} px wide in a ${inner} px window`);
}

/** axe-core's serious and critical violations. */
async function axe(page) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => (await globalThis.axe.run(document, { resultTypes: ['violations'] })).violations);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
}

/** Loads a bundled catalog and waits for the panels to have it. */
async function useBundled(page, id, tools) {
  await page.selectOption('#bundled', id);
  await page.waitForFunction((n) => document.querySelector('#catalog .status')?.textContent?.includes(`: ${n} tools`), tools);
  await page.waitForSelector('#token-chart figure');
}

for (const [width, dark] of [[1280, false], [390, true]]) {
  test(`every panel at ${width} px (${dark ? 'dark' : 'light'})`, async () => {
    const { page, context, errors } = await open(width, { dark });
    const shot = (panel) => page.locator(`#${panel}`).screenshot({ path: join(SHOTS, `${width}-${panel}.png`) });

    // the keyboard: the skip link first, then the links and panels; a visible focus ring
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip');
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle), 'none');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'README');

    // catalog: the bundled Home Assistant catalog first
    assert.match(await page.textContent('#catalog .status'), /^Home Assistant 2025\.4: 18 tools/);
    await shot('catalog');

    // dialects: a card per dialect, the prompted one as text; the tokens chart, its modes from budget()
    const cards = await page.$$eval('#dialect-cards .card', (els) => els.map((e) => e.dataset.dialect));
    assert.deepEqual(cards, CARDS);
    assert.match(await page.textContent('[data-dialect="gemini"] pre'), /"functionDeclarations"/);
    assert.match(await page.textContent('[data-dialect="openai strict"]'), /"strict": true/);
    const prompt = await page.textContent('[data-dialect="prompted"] pre.text');
    assert.match(prompt, /^# Tools\n\nYou can call the tools below\.\n\n## /);
    assert.equal(await page.$$eval('#token-chart tbody tr', (rows) => rows.length), 1 + dialects().length);
    assert.deepEqual(await page.$$eval('#token-chart tbody tr:first-child .mode', (m) => m.map((x) => x.textContent)), ['all', 'hybrid', 'meta']);
    // the losses at their places: a catalog with many (Notion: $ref, oneOf, const)
    await useBundled(page, 'notion', 24);
    await page.check('#view-losses');
    const marked = await page.$$eval('#dialect-cards [data-dialect="gemini"] .l.mark-loss', (ls) => ls.map((l) => l.dataset.pointer));
    assert.ok(marked.length > 0, 'the gemini card marks its losses');
    assert.ok((await page.textContent('[data-dialect="gemini"] .note-loss')).length > 10);
    await noOverflow(page, 'dialects, losses');
    await shot('dialects');
    await page.check('#view-sent');

    // round trip on the Homey tools: a coercion and a validation error marked, results, history items
    await useBundled(page, 'homey', HOMEY_TOOLS);
    await page.waitForSelector('#rt-calls .call');
    assert.ok((await page.$$('#rt-calls .mark-coerce')).length > 0, 'a coercion is marked');
    assert.ok((await page.$$('#rt-calls .call.bad .mark-error')).length > 0, 'a validation error is marked');
    assert.match(await page.textContent('#rt-history'), /"functionResponse"/);
    assert.match(await page.textContent('#rt-history'), /"error"/);
    for (const [dialect, wire] of [['openai', /"tool_call_id"/], ['anthropic', /"tool_result"/], ['prompted', /Tool results:/]]) {
      await page.selectOption('#rt-dialect', dialect);
      await page.waitForFunction((d) => document.querySelector('#rt-history')?.textContent?.length && document.querySelector('#rt-dialect').value === d, dialect);
      assert.match(await page.textContent('#rt-history'), wire, dialect);
    }
    assert.match(await page.inputValue('#rt-response'), /```json\n\{\n {2}"tool_calls"/);
    // a broken response: red, the old calls gone; the sample again clears it
    await page.selectOption('#rt-dialect', 'openai');
    await page.fill('#rt-response', '{broken');
    await page.click('#rt-read');
    assert.match(await page.textContent('#roundtrip .error[role=alert]:not([hidden])'), /^The response could not be read: json: /);
    assert.equal((await page.$$('#rt-calls .call')).length, 0);
    assert.equal(await page.textContent('#rt-history'), '');
    await page.click('#rt-reset');
    assert.equal(await page.$('#roundtrip .outcome .error:not([hidden])'), null);
    assert.ok((await page.$$('#rt-calls .call')).length >= 2);
    await page.fill('#rt-results', '{');
    await page.click('#rt-answer');
    assert.match(await page.textContent('#roundtrip .error[role=alert]:not([hidden])'), /^The results are not JSON/);
    await page.click('#rt-sample-results');
    assert.equal(await page.$('#roundtrip .outcome .error:not([hidden])'), null);
    assert.match(await page.textContent('#rt-history'), /"tool_call_id"/);
    await noOverflow(page, 'round trip');
    await shot('roundtrip');

    // search, by keyboard: Enter searches, Escape clears
    await useBundled(page, 'home-assistant-2025.4', 18);
    await page.fill('#query', 'zet het licht aan');
    await page.press('#query', 'Enter');
    await page.waitForFunction(() => document.querySelector('#hits li')?.dataset.tool !== undefined);
    assert.match(await page.getAttribute('#hits li', 'data-tool'), /^(HassTurnOn|HassLightSet)$/);
    assert.match(await page.textContent('#search .status'), /^\d+ matching tools?, /);
    assert.equal(await page.$$eval('#hits [data-slot="explain"]', (s) => s.length), await page.$$eval('#hits li', (l) => l.length));
    await shot('search');
    await page.press('#query', 'Escape');
    assert.equal((await page.$$('#hits li')).length, 0);

    // a catalog that cannot be read: red in the catalog panel, the summary gone, the panels keep theirs
    await page.check('#source-paste');
    await page.fill('#paste', '{"tools": [');
    await page.click('#use-paste');
    assert.match(await page.textContent('#catalog .error[role=alert]:not([hidden])'), /^This catalog could not be read \(the panels still show Home Assistant 2025\.4\): json: /);
    assert.equal(await page.$('#catalog .summary details'), null);
    await page.fill('#paste', JSON.stringify({ tools: [{ name: 'ping', description: 'Answers pong', inputSchema: { type: 'object' } }] }));
    await page.press('#paste', 'Control+Enter');
    assert.equal(await page.$('#catalog .error:not([hidden])'), null);
    assert.match(await page.textContent('#catalog .status'), /^Pasted catalog: 1 tool, /);
    await page.waitForSelector('#token-chart figure');

    await noOverflow(page, 'every panel');
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a live MCP server: connected with the page’s UpstreamClient when it answers CORS, refused when not', async () => {
  // the gateway library behind a wrapper answering CORS for the page's origin (preflight included)
  const cors = await listen((req, res) => {
    if (req.headers.origin === base) {
      res.setHeader('access-control-allow-origin', base);
      res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
      res.setHeader('vary', 'origin');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET, POST, DELETE', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '', 'access-control-max-age': '60' }).end();
      return;
    }
    gateway.handler(req, res);
  });
  // the same gateway, without CORS
  const plain = await listen((req, res) => gateway.handler(req, res));
  const { page, context, errors } = await open(1280, { allow: /CORS policy|net::ERR_FAILED/ });
  await page.check('#source-server');

  await page.fill('#server-url', `${plain}/mcp`);
  await page.press('#server-url', 'Enter');
  await page.waitForSelector('#catalog .error[role=alert]:not([hidden])', { timeout: 20_000 });
  assert.match(await page.textContent('#catalog .error[role=alert]'), /^The server could not be reached: .*CORS/);

  await page.fill('#server-url', `${cors}/mcp`);
  await page.click('#connect');
  await page.waitForFunction(() => /: \d+ tools/.test(document.querySelector('#catalog .status')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.equal(await page.$('#catalog .error:not([hidden])'), null);
  assert.match(await page.textContent('#server-form .log'), /Connected: MCP \S+ over streamable-http/);
  assert.ok(await page.$('#catalog .summary code:text-is("set_light")'));
  await page.waitForSelector('#token-chart figure');

  // the round trip's calls run on the server: real results, then the history items
  await page.click('#rt-run');
  await page.waitForFunction(() => !document.querySelector('#rt-results').value.includes('the device did not answer') || document.querySelector('#rt-history-outcome .error:not([hidden])'), null, { timeout: 20_000 });
  await page.waitForFunction(() => document.querySelector('#rt-history-outcome .status')?.textContent?.includes('to append'));
  const results = JSON.parse(await page.inputValue('#rt-results'));
  assert.ok(Object.values(results).some((r) => r && Array.isArray(r.content)), 'a result from the server');
  await page.locator('#server-url').focus();
  await page.keyboard.press('Escape');
  assert.match(await page.textContent('#server-form .log'), /Disconnected\.$/);
  assert.deepEqual(errors, []);
  await context.close();
});
