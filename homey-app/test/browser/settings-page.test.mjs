// The settings page in headless Chromium (Debian's, as for the package's
// browser test; playwright-core needs Node 20 or newer, so this file runs
// on Node 22 only), with a stand-in for Homey's /homey.js that passes
// Homey.get/set/api to the booted app; the client configurations it shows
// are then used by the SDK client to connect.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

import { createHome } from '../fake-home.mjs';
import { appDir, bootApp } from '../harness.mjs';
import { connect, toolNames, until } from '../mcp-client.mjs';

const CHROMIUM = '/usr/bin/chromium';
/** A personal API key that may start Flows and nothing else the app asks a key for. */
const LIMITED_KEY = 'limited-personal-key-0001';
const require = createRequire(join(appDir, 'app.js'));

/** Flattens a locale file to {"settings.status.title": "..."}. */
function flat(obj, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'object') flat(v, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

// what Homey's /homey.js does for a settings page: Homey.get/set/api, __,
// data-i18n texts, ready, alert and confirm, then onHomeyReady(Homey)
const homeyJs = `
(function () {
  window.__alerts = [];
  var H = {
    get: function (key, cb) { homeyCall('get', key).then(function (v) { cb(null, v); }, function (e) { cb(e); }); },
    set: function (key, value, cb) { homeyCall('set', key, value).then(function () { if (cb) cb(null); }, function (e) { if (cb) cb(e); }); },
    api: function (method, path, body, cb) { homeyCall('api', method, path, body).then(function (r) { cb(null, r); }, function (e) { cb(new Error(String(e))); }); },
    __: function (key) { return window.__i18n[key] || key; },
    ready: function () { document.body.setAttribute('data-ready', 'true'); },
    alert: function (m) { window.__alerts.push(String(m)); },
    confirm: function (m, icon, cb) { cb(null, true); },
  };
  window.addEventListener('DOMContentLoaded', function () {
    Array.prototype.forEach.call(document.querySelectorAll('[data-i18n]'), function (el) { el.textContent = H.__(el.getAttribute('data-i18n')); });
    onHomeyReady(H);
  });
})();`;

let b;
let server;
let base;
let browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run "make chromium"`);
  b = await bootApp({ home: createHome(), settings: { port: 0 }, tokens: { [LIMITED_KEY]: ['homey.flow.start', 'homey.flow.readonly', 'homey.mood.readonly'] } });
  const page = readFileSync(join(appDir, 'settings/index.html'), 'utf8');
  server = createServer((req, res) => {
    if (req.url === '/homey.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(homeyJs);
    if (req.url === '/' || req.url === '/index.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    return res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
  await b?.close();
});

/** The page in `language`, bridged to the app; resolves once it called Homey.ready(). */
async function open(language, { width = 1280, colorScheme = 'light' } = {}) {
  const api = require('./api.js');
  const routes = b.homey.manifest.api;
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.exposeFunction('homeyCall', async (kind, ...args) => {
    if (kind === 'get') return b.homey.settings.get(args[0]);
    if (kind === 'set') return b.homey.settings.set(args[0], args[1]);
    const [method, path, body] = args;
    const name = Object.keys(routes).find((k) => routes[k].method === method && routes[k].path === path);
    if (!name) throw new Error(`no route ${method} ${path}`);
    return api[name]({ homey: b.homey, body, params: {}, query: {} });
  });
  const i18n = flat(JSON.parse(readFileSync(join(appDir, `locales/${language}.json`), 'utf8')));
  await page.addInitScript((strings) => {
    window.__i18n = strings;
  }, i18n);
  await page.goto(`${base}/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  return { page, errors };
}

test('status, address and token, and configurations that connect', async () => {
  const { page, errors } = await open('en');
  const status = await b.app.status();
  assert.match(await page.textContent('#status'), /^Running \(0 sessions\)/);
  assert.equal(await page.textContent('#url'), status.url);
  assert.equal(await page.inputValue('#token'), status.token);
  assert.equal(await page.getAttribute('#token', 'type'), 'password');
  const texts = await page.$$eval('[data-i18n]', (els) => els.map((e) => [e.getAttribute('data-i18n'), e.textContent]));
  assert.deepEqual(texts.filter(([key, text]) => text === key), [], 'every English text is in locales/en.json');
  await page.click('#show-token');
  assert.equal(await page.getAttribute('#token', 'type'), 'text');

  const config = async (client) => {
    await page.click(`[data-client="${client}"]`);
    return page.textContent('#client-config');
  };
  const claude = JSON.parse(await config('claude')).mcpServers.homey;
  assert.deepEqual(claude.args, ['-y', 'mcp-remote', status.url, '--allow-http', '--header', 'Authorization:${AUTH_HEADER}']);
  assert.equal(claude.env.AUTH_HEADER, `Bearer ${status.token}`);
  const vscode = JSON.parse(await config('vscode')).servers.homey;
  assert.equal(vscode.type, 'http');
  const gemini = JSON.parse(await config('gemini')).mcpServers.homey;
  assert.match(await config('http'), /curl -s http:\/\/127\.0\.0\.1:\d+\/mcp -H "Authorization: Bearer /);
  assert.match(await config('webapi'), new RegExp(`/api/app/${b.homey.manifest.id}/mcp`));
  // what VS Code and Gemini CLI would do with them
  for (const [url, headers] of [[vscode.url, vscode.headers], [gemini.httpUrl, gemini.headers]]) {
    const { client } = await connect(url, null, { headers });
    assert.equal((await toolNames(client)).length, 6);
    await client.close();
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the choices on the page are settings the app applies', async () => {
  const { page, errors } = await open('en');
  await page.selectOption('#mode', 'all');
  await until(() => b.homey.settings.get('mode') === 'all');
  await page.check('#readOnly');
  await until(() => b.homey.settings.get('readOnly') === true);
  const zone = page.locator('#hiddenZones label', { hasText: 'Home / Office / Desk corner' });
  await zone.locator('input').check();
  await until(() => JSON.stringify(b.homey.settings.get('hiddenZones')) === '["desk"]');
  const tool = page.locator('#hiddenTools label', { hasText: 'get_alarms (Alarms)' });
  await tool.locator('input').check();
  await until(() => JSON.stringify(b.homey.settings.get('hiddenTools')) === '["get_alarms"]');
  assert.match(await page.textContent('#flowTools'), /play_radio.*Kitchen radio/s);
  assert.match(await page.textContent('#flowTools'), /get_states: a built-in tool has this name; choose another tool name/);
  await b.app.server.queue;
  const status = await b.app.status();
  const { client } = await connect(status.url, status.token);
  const names = await toolNames(client);
  assert.ok(names.includes('get_states') && !names.includes('set_light') && !names.includes('get_alarms'), names.join(' '));
  await client.close();

  const old = status.token;
  await page.click('#regenerate');
  await until(async () => (await page.inputValue('#token')) !== old);
  assert.equal(await page.inputValue('#token'), b.homey.settings.get('token'));

  await page.fill('#personalKey', 'some-key');
  await page.click('#save-key');
  await until(() => b.homey.settings.get('personalKey') === 'some-key');
  await page.click('#test-key');
  await until(async () => (await page.textContent('#key-result')).length > 0);
  assert.match(await page.textContent('#key-result'), /switched off or empty/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page in Dutch: every text has a translation', async () => {
  const { page, errors } = await open('nl');
  assert.equal(await page.textContent('[data-i18n="settings.network.title"]'), 'Netwerk');
  const keys = await page.$$eval('[data-i18n]', (els) => els.map((e) => [e.getAttribute('data-i18n'), e.textContent]));
  const untranslated = keys.filter(([key, text]) => text === key);
  assert.deepEqual(untranslated, []);
  assert.deepEqual(Object.keys(flat(JSON.parse(readFileSync(join(appDir, 'locales/nl.json'), 'utf8')))).sort(), Object.keys(flat(JSON.parse(readFileSync(join(appDir, 'locales/en.json'), 'utf8')))).sort());
  assert.deepEqual(errors, []);
  await page.close();
});

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

test('the token is hidden everywhere until Show is pressed; the configuration is copied with it', async () => {
  const { page, errors } = await open('en');
  const token = (await b.app.status()).token;
  const visible = () => page.evaluate(() => document.body.innerText);
  for (const client of ['claude', 'vscode', 'gemini', 'http']) {
    await page.click(`[data-client="${client}"]`);
    assert.ok(!(await visible()).includes(token), `${client}: the token shows before Show`);
    assert.match(await page.textContent('#client-config'), /••••/);
  }
  assert.equal(await page.getAttribute('#token', 'type'), 'password');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('#copy-config');
  assert.match(await page.evaluate(() => navigator.clipboard.readText()), new RegExp(token));
  await page.click('#show-token');
  assert.ok((await page.textContent('#client-config')).includes(token));
  assert.equal(await page.textContent('#show-token'), 'Hide');
  await page.click('#show-token');
  assert.ok(!(await visible()).includes(token));
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 1280 and 390 px, in English and Dutch, light and dark: no sideways scroll, no accessibility violations', async () => {
  for (const language of ['en', 'nl']) {
    for (const width of [1280, 390]) {
      for (const colorScheme of ['light', 'dark']) {
        const { page, errors } = await open(language, { width, colorScheme });
        const what = `${language} ${width}px ${colorScheme}`;
        const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        assert.ok(scroll <= client, `${what}: the page scrolls sideways (${scroll} > ${client})`);
        // nothing sticks out of the viewport either (overflow hidden would hide it)
        const wide = await page.evaluate((w) => [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > w + 1 && el.offsetParent !== null).map((el) => el.id || el.tagName), client);
        assert.deepEqual(wide, [], `${what}: elements wider than the page`);
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(background === 'rgb(255, 255, 255)', colorScheme === 'light', `${what}: background ${background}`);
        await page.addScriptTag({ path: AXE });
        const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
        assert.deepEqual(violations, [], what);
        if (process.env.SETTINGS_SCREENSHOTS) await page.screenshot({ path: `${process.env.SETTINGS_SCREENSHOTS}/settings-${language}-${width}-${colorScheme}.png`, fullPage: true });
        assert.deepEqual(errors, [], what);
        await page.close();
      }
    }
  }
});

test('complete Dutch: one session is "1 sessie", tool titles, kinds of protected devices and error texts in Dutch', async () => {
  const status = await b.app.status();
  const { client } = await connect(status.url, status.token);
  const { page, errors } = await open('nl');
  const n = (await b.app.status()).server.sessions;
  assert.ok(n >= 1);
  assert.match(await page.textContent('#status'), new RegExp(`^Actief \\(${n} ${n === 1 ? 'sessie' : 'sessies'}\\)`));
  const forms = await page.evaluate(() => [1, 2].map((k) => plural('settings.status.session', k, '', '')).concat([1, 3].map((k) => plural('settings.status.failedLogin', k, '', ''))));
  assert.deepEqual(forms, ['1 sessie', '2 sessies', '1 mislukte aanmelding', '3 mislukte aanmeldingen']);
  assert.equal(await page.getAttribute('html', 'lang'), 'nl');
  const labels = await page.$$eval('#hiddenTools label', (els) => els.map((e) => e.textContent));
  assert.ok(labels.includes('get_presence (Wie is er thuis)'), labels.join(' | '));
  const english = JSON.parse(readFileSync(join(appDir, 'lib/tools.json'), 'utf8')).tools.map((t) => `(${t.title})`);
  assert.deepEqual(labels.filter((l) => english.some((e) => l.endsWith(e))), [], 'no English tool titles on the Dutch page');
  assert.match(await page.textContent('#allowedDevices'), /Front door lock \(slot, Home \/ Hallway\)/);
  assert.match(await page.textContent('#flowTools'), /get_states: een ingebouwde tool heeft deze naam/);
  await page.click('#test-key');
  await until(async () => (await page.textContent('#key-result')).length > 0);
  assert.equal(await page.textContent('#key-result'), 'De sleutel staat uit of is leeg.');
  assert.deepEqual(errors, []);
  await page.close();
  await client.close();
});

test('the personal key guide: which permissions for what, and a test that says what works', async () => {
  const { page, errors } = await open('en');
  const uses = await page.$$eval('#key-uses li', (els) => els.map((e) => e.textContent));
  assert.deepEqual(uses.map((u) => u.split(': ').pop()), ['homey.flow.start', 'homey.mood.set', 'homey.logic', 'homey.flow', 'homey.user.readonly']);
  await page.fill('#personalKey', LIMITED_KEY);
  await page.click('#save-key');
  await page.check('#personalKeyEnabled');
  await until(() => b.homey.settings.get('personalKey') === LIMITED_KEY && b.homey.settings.get('personalKeyEnabled') === true);
  await page.click('#test-key');
  await page.waitForSelector('#key-result li');
  const works = await page.$$eval('#key-result li', (els) => els.map((e) => [e.getAttribute('data-use'), e.className]));
  assert.deepEqual(works, [['startFlows', 'ok'], ['moods', 'bad'], ['logic', 'bad'], ['editFlows', 'bad'], ['presence', 'bad']]);
  assert.match(await page.textContent('#key-result [data-use="moods"]'), /no, the key lacks homey\.mood\.set/);
  await page.fill('#personalKey', 'not-a-key');
  await page.click('#save-key');
  await until(() => b.homey.settings.get('personalKey') === 'not-a-key');
  await page.click('#test-key');
  await until(async () => /refused/.test(await page.textContent('#key-result')));
  b.homey.settings.set('personalKeyEnabled', false);
  assert.deepEqual(errors, []);
  await page.close();
});
