// The playground (pkg/playground/, served by `mcp-switchboard playground`)
// in headless Chromium (Debian's, driven by playwright-core; nothing
// downloads a browser), at 1280 px (light) and 390 px (dark): every panel
// driven, with no console errors, no sideways scroll and no serious or
// critical axe-core violations; errors shown in red where they happen and
// cleared by the next success; the keyboard (Tab, Enter, Escape). Then a
// live MCP server: the package's gateway library with the simulated home,
// behind a wrapper that answers CORS for the page's origin, connected to by
// the page's UpstreamClient over fetch; and the same gateway without CORS,
// which the browser refuses. The chat: a recorded session replayed without
// a key, and a chat with the fake model server of each provider
// (tests/js/fake-models.mjs, answering CORS) on another origin than the
// page's, its tools on the page's simulated home or on the gateway; the
// search's reading and why each hit ranked. Screenshots of each panel go
// to tests/js/screenshots/ (not committed), for review.
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
import { startFakeModel } from './fake-models.mjs';
import { root } from './helpers.mjs';

// the Homey app's own tools, as many as it defines today
const HOMEY_TOOLS = JSON.parse(readFileSync(join(root, 'homey-app/lib/tools.json'), 'utf8')).tools.length;

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(root, 'tests/js/screenshots');
const AXE = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
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
    // native only where the provider has its own tool search
    const rowModes = await page.$$eval('#token-chart tbody tr', (rows) => Object.fromEntries(rows.map((r) => [r.querySelector('th').textContent, [...r.querySelectorAll('.mode')].map((x) => x.textContent)])));
    assert.deepEqual(rowModes.anthropic, ['all', 'hybrid', 'meta', 'native']);
    assert.deepEqual(rowModes['openai-responses'], ['all', 'hybrid', 'meta', 'native']);
    assert.deepEqual(rowModes.gemini, ['all', 'hybrid', 'meta']);
    assert.match(await page.textContent('#token-chart .legend'), /native: the provider’s own tool search/);
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
    assert.equal(await page.$$eval('#hits [data-slot="explain"]', (s) => s.length), await page.$$eval('#hits > li', (l) => l.length));
    // how the request was read, and why the first hit ranked: each term's share, the sum
    assert.match(await page.textContent('#reading .facts'), /^Read as a command · act: change · language: nl/);
    assert.match(await page.textContent('#reading .terms'), /zet … aan → turn/);
    assert.equal(await page.getAttribute('#hits > li:first-child .explain', 'open'), '');
    const why = await page.textContent('#hits > li:first-child .explain');
    assert.match(why, /zet … aan → turn: \+\d/);
    assert.match(why, /terms [\d.]+ \+ name [\d.]+ = [\d.]+$/);
    // a question: the place said, what it implies, the fit of a tool that reads
    await page.fill('#query', 'is the light in the kitchen on?');
    await page.press('#query', 'Enter');
    await page.waitForFunction(() => document.querySelector('#reading .facts')?.textContent?.startsWith('Read as a question'));
    assert.match(await page.textContent('#reading .facts'), /act: read · language: en · place: kitchen/);
    assert.match(await page.textContent('#reading .terms'), /\(state\) → state ×0\.8/);
    assert.match(await page.textContent('#hits > li:first-child .explain'), /× fits the act 1\.3 = /);
    await noOverflow(page, 'search explained');
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
  // the gateway answers CORS itself for the origins it allows (the page's), preflight included
  const cors = await listen((req, res) => gateway.handler(req, res));
  // a gateway that does not list the page's origin: no CORS headers, the browser refuses
  const closed = createGateway({ source: createDemoHome().source });
  const plain = await listen((req, res) => closed.handler(req, res));
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

  // the chat's tools run on the connected server, not on the page's simulated home
  const model = await startFakeModel('openai', [
    { calls: [{ name: 'set_light', arguments: { deviceId: 'kitchen-spots', state: 'on' } }] },
    { text: 'The kitchen spots are on.' },
  ], { cors: true });
  try {
    await page.selectOption('#chat-provider', 'local');
    await page.fill('#chat-base-url', model.baseUrl);
    await page.selectOption('#chat-tools', 'server');
    await page.fill('#chat-message', 'Turn on the kitchen spots');
    await page.click('#chat-send');
    await page.waitForSelector('#chat-turns .turn .done', { timeout: 20_000 });
    const call = page.locator('#chat-turns .tool-call[data-tool="set_light"]');
    assert.equal(await call.locator('.status-badge').textContent(), 'done');
    assert.match(await call.textContent(), /"Kitchen spots"/);
    assert.match(await page.textContent('#chat-home [data-device="kitchen-spots"]'), /onoff=false/);
    // the server's tools went to the model
    assert.ok(model.requests[0].body.tools.some((t) => t.function.name === 'set_light'));
  } finally {
    await model.close();
  }
  await page.locator('#server-url').focus();
  await page.keyboard.press('Escape');
  assert.match(await page.textContent('#server-form .log'), /Disconnected\.$/);
  await closed.close();
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [width, dark] of [[1280, false], [390, true]]) {
  test(`the chat at ${width} px (${dark ? 'dark' : 'light'}): a recorded session replayed without a key`, async () => {
    const { page, context, errors } = await open(width, { dark });
    await page.waitForFunction(() => document.querySelectorAll('#chat-recording option').length > 0);
    assert.match(await page.textContent('#chat-recorded-about'), /^Recorded from a local fake model/);
    // no key: said where it happens, nothing sent
    await page.selectOption('#chat-provider', 'gemini');
    await page.fill('#chat-key', '');
    await page.fill('#chat-message', 'Is the front door open?');
    await page.press('#chat-message', 'Enter');
    assert.match(await page.textContent('#chat .error[role=alert]:not([hidden])'), /^Chat: paste your Gemini key above, or replay a recorded session below/);
    assert.equal(await page.$('#chat-turns .turn'), null);

    await page.selectOption('#chat-recording', 'evening/anthropic');
    await page.click('#chat-replay');
    await page.waitForFunction(() => /^Replayed: 2 rounds, 2 tool calls\./.test(document.querySelector('#chat-replay-outcome .status')?.textContent ?? ''), null, { timeout: 20_000 });
    const turn = page.locator('#chat-turns .turn.recorded').last();
    assert.equal(await turn.locator('header .badge').textContent(), 'recorded from a local fake model');
    assert.match(await turn.locator('.bubble.model').last().textContent(), /The kitchen spots are on at 60% and the thermostat is set to 21 °C\./);
    // the coerced argument marked, each call done
    assert.equal(await turn.locator('.tool-call[data-tool="set_thermostat"] .badge.warn').textContent(), 'coerced');
    assert.deepEqual(await turn.locator('.tool-call .status-badge').allTextContents(), ['done', 'done']);
    // the trace and raw views, by keyboard: the requests, the calls, the key hidden
    await turn.locator('[role=tab][data-view="chat"]').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await turn.locator('[role=tab][data-view="trace"]').getAttribute('aria-selected'), 'true');
    const trace = await turn.locator('.trace').textContent();
    assert.match(trace, /→ request 1: POST https:\/\/fake-model\.invalid\/v1\/messages/);
    assert.match(trace, /call toolu_1_1: set_thermostat .*coerced "21" → 21/);
    await page.keyboard.press('ArrowRight');
    const raw = await turn.locator('.raw').textContent();
    assert.match(raw, /x-api-key: •••/);
    assert.match(raw, /anthropic-version: 2023-06-01/);
    assert.match(raw, /event: content_block_delta/);
    await noOverflow(page, 'chat, raw view');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.locator('#chat').screenshot({ path: join(SHOTS, `${width}-chat.png`) });
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

/** The A/B's numbers of one mode's row: tokens sent, read at first, deferred. */
async function abRow(page, mode) {
  const row = page.locator(`#ab-result tr[data-mode="${mode}"]`);
  const sent = Number((await row.locator('.num').textContent()).replace(/,/g, ''));
  const facts = await row.locator('[data-slot="facts"]').textContent();
  const read = Number(/^([\d,]+) read at first/.exec(facts)?.[1].replace(/,/g, ''));
  const deferred = Number(/ · ([\d,]+) deferred · /.exec(facts)?.[1].replace(/,/g, '') ?? 0);
  return { sent, read, deferred, facts, notes: await row.locator('.note').allTextContents() };
}

for (const [width, dark] of [[1280, false], [390, true]]) {
  test(`the disclosure A/B at ${width} px (${dark ? 'dark' : 'light'}): one request per mode, the tokens each carries`, async () => {
    const { page, context, errors } = await open(width, { dark });
    await page.selectOption('#bundled', 'github');
    await page.waitForFunction(() => /^GitHub MCP server: \d+ tools/.test(document.querySelector('#catalog .status')?.textContent ?? ''));
    await page.fill('#ab-message', 'list the open pull requests of my repository');
    await page.press('#ab-message', 'Enter');
    await page.waitForFunction(() => /^Anthropic, GitHub MCP server: the model reads/.test(document.querySelector('#ab-outcome .status')?.textContent ?? ''));
    assert.deepEqual(await page.$$eval('#ab-result tbody tr', (rows) => rows.map((r) => r.dataset.mode)), ['all', 'hybrid', 'native']);
    const all = await abRow(page, 'all');
    const hybrid = await abRow(page, 'hybrid');
    const native = await abRow(page, 'native');
    assert.equal(all.deferred, 0);
    assert.equal(all.read, all.sent);
    assert.ok(hybrid.sent < all.sent / 2, `hybrid ${hybrid.sent} of all ${all.sent}`);
    // native: every tool sent, most deferred; what the model reads at first is far below all
    assert.ok(native.deferred > 0 && native.read + native.deferred === native.sent, native.facts);
    assert.ok(native.read < all.sent / 2, native.facts);
    assert.match(native.facts, /\d+ tools, \d+ deferred$/);
    // the request itself, laid out when opened
    await page.click('#ab-result details[data-mode="native"] summary');
    assert.match(await page.textContent('#ab-result details[data-mode="native"] pre'), /"defer_loading": true/);
    assert.match(await page.textContent('#ab-result details[data-mode="native"] summary'), /^The native request: POST https:\/\/api\.anthropic\.com\/v1\/messages, [\d,]+ bytes$/);
    await noOverflow(page, 'disclosure A/B');
    await page.locator('#disclosure').screenshot({ path: join(SHOTS, `${width}-disclosure.png`) });

    // Gemini has no tool search: native is hybrid, and the row says so
    await page.selectOption('#ab-provider', 'gemini');
    await page.waitForFunction(() => /^Gemini, /.test(document.querySelector('#ab-outcome .status')?.textContent ?? ''));
    const gNative = await abRow(page, 'native');
    const gHybrid = await abRow(page, 'hybrid');
    assert.equal(gNative.sent, gHybrid.sent);
    assert.equal(gNative.deferred, 0);
    assert.match(gNative.notes.join(' '), /no native tool search: disclosed as hybrid/);
    // a bundled catalog's tools do not run here: sending says so, in red where it happens
    await page.click('#ab-send-box summary');
    await page.click('#ab-send');
    assert.match(await page.textContent('#ab-live-outcome .error[role=alert]:not([hidden])'), /^Send: /);
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the disclosure A/B sent to a fake model in each mode: the provider’s counts beside the estimates', async () => {
  const { page, context, errors } = await open(1280);
  const KEY = 'visitor-secret-key';
  const model = await startFakeModel('anthropic', [{ text: 'All: done.' }, { text: 'Hybrid: done.' }, { text: 'Native: done.' }], { cors: true, key: KEY });
  try {
    await page.selectOption('#ab-tools', 'home');
    await page.waitForFunction(() => /, the simulated home: the model reads/.test(document.querySelector('#ab-outcome .status')?.textContent ?? ''));
    await page.click('#ab-send-box summary');
    await page.fill('#ab-base-url', model.baseUrl);
    await page.fill('#ab-key', KEY);
    await page.fill('#ab-message', 'Turn on the kitchen lights');
    await page.click('#ab-send');
    await page.waitForFunction(() => /^Sent in each mode/.test(document.querySelector('#ab-live-outcome .status')?.textContent ?? ''), null, { timeout: 20_000 });
    assert.equal(model.requests.length, 3);
    const names = model.requests.map((r) => r.body.tools.map((t) => t.name));
    assert.ok(!names[0].includes('use_tool') && names[1].includes('use_tool'), JSON.stringify(names));
    for (const [i, mode] of ['all', 'hybrid', 'native'].entries()) {
      const cell = page.locator(`#ab-result td.live[data-mode="${mode}"]`);
      assert.match(await cell.textContent(), /^input 12 · output 7 tokens1 round · no tool call/, mode);
      assert.match(await cell.locator('.answer').textContent(), new RegExp(`^${mode[0].toUpperCase()}${mode.slice(1)}: done\\.$`));
      assert.match(model.requests[i].headers['x-api-key'], new RegExp(KEY));
    }
    // the key shows nowhere in the page, and is the chat's too
    assert.ok(!(await page.textContent('#disclosure')).includes(KEY));
    await page.selectOption('#chat-provider', 'anthropic');
    assert.equal(await page.inputValue('#chat-key'), KEY);
    assert.deepEqual(errors, []);
  } finally {
    await model.close();
    await context.close();
  }
});

test('a chat with each provider’s fake model on another origin: the visitor’s key, the tools on the simulated home', async () => {
  // the wrong key's 401 is logged by the browser
  const { page, context, errors } = await open(1280, { allow: /status of 401/ });
  const KEY = 'visitor-secret-key';
  const choices = [
    ['gemini', 'gemini', (hd) => hd['x-goog-api-key']],
    ['openai', 'openai', (hd) => hd.authorization],
    ['openai-responses', 'openai-responses', (hd) => hd.authorization],
    ['anthropic', 'anthropic', (hd) => hd['x-api-key']],
    ['local', 'openai', () => undefined],
    ['prompted', 'prompted', () => undefined],
  ];
  try {
    for (const [choice, provider, keyOf] of choices) {
      const local = choice === 'local' || choice === 'prompted';
      const model = await startFakeModel(provider, [
        { calls: [{ name: 'set_light', arguments: { deviceId: 'living-lamp', state: 'off' } }] },
        { text: `Done by ${choice}: the reading lamp is off.` },
      ], { cors: true, ...(local ? {} : { key: KEY }) });
      try {
        await page.click('#chat-new');
        await page.selectOption('#chat-provider', choice);
        await page.fill('#chat-base-url', model.baseUrl);
        if (!local) await page.fill('#chat-key', KEY);
        await page.fill('#chat-message', 'Turn off the reading lamp');
        await page.click('#chat-send');
        await page.waitForSelector('#chat-turns .turn .done', { timeout: 20_000 });
        const turn = page.locator('#chat-turns .turn').last();
        assert.match(await turn.locator('.bubble.model').last().textContent(), new RegExp(`Done by ${choice}: the reading lamp is off\\.`), choice);
        assert.equal(await turn.locator('.tool-call .status-badge').textContent(), 'done', choice);
        assert.match(await page.textContent('#chat-home [data-device="living-lamp"]'), /onoff=false/, choice);
        assert.equal(model.requests.length, 2, choice);
        if (local) assert.equal(await page.inputValue('#chat-key'), '', choice);
        else assert.match(keyOf(model.requests[0].headers), new RegExp(KEY), choice);
        if (provider === 'anthropic') assert.equal(model.requests[0].headers['anthropic-dangerous-direct-browser-access'], 'true');
        // the key shows nowhere in the page, and is kept in this tab only
        assert.ok(!(await page.textContent('#chat')).includes(KEY), choice);
        assert.equal(await page.$('#chat .outcome .error:not([hidden])'), null, choice);
      } finally {
        await model.close();
      }
    }
    const stored = await page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage } }));
    assert.deepEqual(Object.keys(stored.local), []);
    assert.equal(stored.session['mcp-switchboard-playground:key:anthropic'], KEY);

    // a wrong key: the provider's error, in red where it happens
    const model = await startFakeModel('openai', [], { cors: true, key: KEY });
    try {
      await page.selectOption('#chat-provider', 'openai');
      await page.fill('#chat-base-url', model.baseUrl);
      await page.fill('#chat-key', 'wrong-key');
      await page.fill('#chat-message', 'Is the front door open?');
      await page.press('#chat-message', 'Enter');
      await page.waitForSelector('#chat .outcome .error[role=alert]:not([hidden])', { timeout: 20_000 });
      assert.match(await page.textContent('#chat .outcome .error'), /^OpenAI \(Chat Completions\): auth: /);
      await page.click('#chat-forget');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('mcp-switchboard-playground:key:openai')), null);
    } finally {
      await model.close();
    }

    // Stop in the middle of a streamed answer: no error, the turn says where it stopped, the next one runs
    const slow = await startFakeModel('anthropic', [{ text: 'A long answer that streams slowly, word after word, until the visitor stops it.' }, { text: 'Fresh start.' }], { cors: true, key: KEY, delayMs: 400 });
    try {
      await page.selectOption('#chat-provider', 'anthropic');
      await page.fill('#chat-base-url', slow.baseUrl);
      await page.fill('#chat-key', KEY);
      await page.fill('#chat-message', 'Tell me about the home');
      await page.press('#chat-message', 'Enter');
      await page.waitForSelector('#chat-turns .turn:last-child .bubble.model', { timeout: 20_000 });
      await page.click('#chat-stop');
      await page.waitForFunction(() => document.querySelector('#chat-outcome .status')?.textContent === 'Stopped. The next message starts a new conversation.');
      assert.equal(await page.$('#chat-outcome .error:not([hidden])'), null);
      assert.match(await page.textContent('#chat-turns .turn:last-child .trace'), /stopped: stopped by you/);
      await page.fill('#chat-message', 'Again');
      await page.click('#chat-send');
      await page.waitForSelector('#chat-turns .turn:last-child .done', { timeout: 20_000 });
      assert.match(await page.textContent('#chat-turns .turn:last-child .bubble.model'), /Fresh start\./);
    } finally {
      await slow.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
