// The app's two MCP entries and its settings: hybrid disclosure with search
// and use_tool, list_changed when Flows change, authentication, Origin
// checks, rate-limited failed logins, the Web API route, and settings that
// take effect at once.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';

import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { TRIGGER, createHome } from './fake-home.mjs';
import { appDir, bootApp } from './harness.mjs';
import { call, connect, rawInitialize, toolNames, until } from './mcp-client.mjs';

const require = createRequire(`${appDir}/app.js`);

async function boot(settings = {}) {
  const home = createHome();
  const booted = await bootApp({ home, settings: { port: 0, ...settings } });
  const status = await booted.app.status();
  return { ...booted, status, url: `http://127.0.0.1:${status.server.port}/mcp` };
}

describe('hybrid disclosure (the default)', () => {
  let b;
  let client;
  before(async () => {
    b = await boot();
    ({ client } = await connect(b.url, b.status.token));
  });
  after(async () => {
    await client.close();
    await b.close();
  });

  test('lists the overview tools the package picks, and the meta-tools; answers ping', async () => {
    assert.equal(b.status.mode, 'hybrid');
    assert.deepEqual(await client.ping(), {});
    assert.deepEqual(await toolNames(client), ['get_home_structure', 'get_states', 'get_flow_overview', 'search_tools', 'get_tool_definition', 'use_tool']);
  });

  test('search_tools ranks the right tool for English, Dutch and German requests, Flow tools included', async () => {
    const top = async (query) => (await call(client, 'search_tools', { query, limit: 3 })).data.hits.map((h) => h.name);
    assert.ok((await top('zet alle lampen in de woonkamer uit')).includes('control_zone_lights'));
    assert.equal((await top('Heizung auf 21 Grad'))[0], 'set_thermostat');
    assert.equal((await top('is the front door open'))[0], 'get_states');
    assert.equal((await top('hoeveel stroom verbruikt het huis'))[0], 'get_energy_report');
    assert.equal((await top('activeer de filmavond sfeer'))[0], 'set_mood');
    assert.equal((await top('play some radio'))[0], 'play_radio');
  });

  test('get_tool_definition and use_tool run a found tool, with its arguments validated', async () => {
    const def = await call(client, 'get_tool_definition', { name: 'control_zone_lights' });
    assert.equal(def.isError, false);
    assert.deepEqual(def.data.definition.inputSchema.required, ['zoneId', 'action']);
    const used = await call(client, 'use_tool', { name: 'control_zone_lights', arguments: { zoneId: 'living', action: 'on', dim: 70 } });
    assert.equal(used.isError, false, JSON.stringify(used.data));
    assert.equal(used.data.changed, 2);
    assert.equal(b.home.devices['living-ceiling'].capabilitiesObj.dim.value, 0.7);
    const bad = await call(client, 'use_tool', { name: 'control_zone_lights', arguments: { zoneId: 'living', action: 'dance' } });
    assert.equal(bad.isError, true);
    assert.match(bad.data.text, /action: must be one of "on", "off", "toggle"; got "dance"/);
    const flow = await call(client, 'use_tool', { name: 'play_radio', arguments: { station: 'classic' } });
    assert.equal(flow.data.answer, 'Now playing classic at volume 0');
  });

  test('the Web API route answers JSON-RPC with the same engine and tools', async () => {
    const api = require('./api.js');
    const init = await api.mcp({ homey: b.homey, body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'web', version: '1' } } } });
    assert.equal(init.result.serverInfo.name, 'mcp-switchboard-homey');
    assert.equal(await api.mcp({ homey: b.homey, body: { jsonrpc: '2.0', method: 'notifications/initialized' } }), null);
    const list = await api.mcp({ homey: b.homey, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
    assert.equal(list.result.tools.length, 6);
    const states = await api.mcp({ homey: b.homey, body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_states', arguments: { deviceIds: ['garden-pump'] } } } });
    assert.equal(states.result.structuredContent.devices[0].name, 'Pond pump');
    const bad = await api.mcp({ homey: b.homey, body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope', arguments: {} } } });
    assert.equal(bad.error.code, -32602);
    const status = await api.getStatus({ homey: b.homey });
    assert.equal(status.webApiUrl, `http://127.0.0.1/api/app/${b.homey.manifest.id}/mcp`);
    const zones = await api.getZones({ homey: b.homey });
    assert.deepEqual(zones.map((z) => z.path), ['Home', 'Home / Bedroom', 'Home / Garden', 'Home / Hallway', 'Home / Kitchen', 'Home / Living room', 'Home / Office', 'Home / Office / Desk corner']);
  });

  test('homey-api answered all of the above without the modules the app puts off (they cost memory)', () => {
    const installed = `${appDir}/node_modules/`;
    const packages = new Set(Object.keys(require.cache).filter((f) => f.startsWith(installed)).map((f) => f.slice(installed.length).split('/')[0]));
    assert.ok(packages.has('homey-api') && packages.has('node-fetch'), [...packages].join(', '));
    for (const name of ['socket.io-client', 'engine.io-client', 'form-data', 'whatwg-url', 'tr46']) {
      const loaded = Object.entries(require.cache).filter(([f, m]) => f.startsWith(`${installed}${name}/`) && m.exports?.name !== 'deferred');
      assert.deepEqual(loaded.map(([f]) => f), [], `${name} was loaded`);
    }
  });
});

describe('Flows change while a client is connected', () => {
  let b;
  let client;
  let transport;
  const changes = [];
  before(async () => {
    b = await boot({ mode: 'all' });
    ({ client, transport } = await connect(b.url, b.status.token));
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => changes.push(n));
    // the SDK client opens its GET stream after initializing
    await until(() => b.app.server.gateway.sessions.get(transport.sessionId)?.streams.size === 1);
  });
  after(async () => {
    await client.close();
    await b.close();
  });

  test('saving a Flow with the AI tool card: list_changed arrives and the new tool works', async () => {
    b.home.saveFlow({
      id: 'flow-blinds',
      name: 'Blinds',
      enabled: true,
      folder: null,
      trigger: { id: TRIGGER, args: { command: 'set_blinds', description: 'Moves the living room blinds.', param1: 'position', type1: 'number', param2: 'quiet', type2: 'yesno_optional' } },
      conditions: [],
      actions: [],
    });
    await until(() => changes.length === 1);
    const names = await toolNames(client);
    assert.ok(names.includes('set_blinds'));
    const tool = (await client.listTools()).tools.find((t) => t.name === 'set_blinds');
    assert.deepEqual(tool.inputSchema.required, ['position']);
    assert.equal(tool.inputSchema.properties.quiet.type, 'boolean');
    const r = await call(client, 'set_blinds', { position: 60 });
    assert.equal(r.isError, false);
    assert.deepEqual(b.home.flowRuns.at(-1), { flowId: 'flow-blinds', tokens: { command: 'set_blinds', call: b.home.flowRuns.at(-1).tokens.call, text1: '60', number1: 60, yesno1: false, text2: '', number2: 0, yesno2: false, text3: '', number3: 0, yesno3: false } });
  });

  test('disabling and deleting Flows removes their tools; saving the same Flow again changes nothing', async () => {
    b.home.saveFlow(b.home.flows['flow-blinds']);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(changes.length, 1, 'an unchanged tool list is not announced');
    // enabling or disabling does not update the card: the next read (periodic, or asked for) sees it
    b.home.setFlowEnabled('flow-radio', false);
    const refreshed = await call(client, 'refresh_homey_flows', {});
    assert.equal(refreshed.data.changed, true);
    await until(() => changes.length === 2);
    assert.ok(!(await toolNames(client)).includes('play_radio'));
    await assert.rejects(call(client, 'play_radio', { station: 'x' }), /Unknown tool: play_radio/);
    b.home.deleteFlow('flow-blinds');
    await until(() => changes.length === 3);
    assert.ok(!(await toolNames(client)).includes('set_blinds'));
  });
});

describe('the LAN server refuses strangers', () => {
  let b;
  before(async () => {
    b = await boot({ origins: ['https://assistant.example'] });
  });
  after(async () => {
    await b.close();
  });

  test('the token is made at the first start, is long and random, and is kept', async () => {
    const token = b.homey.settings.get('token');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(b.status.token, token);
    const other = await boot();
    assert.notEqual(other.status.token, token);
    await other.close();
  });

  test('no token or a wrong token: 401; a foreign Origin: 403; listed and local origins pass', async () => {
    const none = await rawInitialize(b.url);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await rawInitialize(b.url, { authorization: 'Bearer wrong' })).status, 401);
    const auth = { authorization: `Bearer ${b.status.token}` };
    assert.equal((await rawInitialize(b.url, { ...auth, origin: 'https://evil.example' })).status, 403);
    assert.equal((await rawInitialize(b.url, { ...auth, origin: 'https://assistant.example' })).status, 200);
    assert.equal((await rawInitialize(b.url, { ...auth, origin: 'http://localhost:6274' })).status, 200);
    assert.equal((await rawInitialize(b.url, auth)).status, 200);
  });

  test('the SDK client with a wrong token cannot connect', async () => {
    await assert.rejects(connect(b.url, 'not-the-token'), /401|Unauthorized|invalid_token|bearer/i);
  });

  test('repeated failed logins lock the address out, even with the right token, for a while', async () => {
    const auth = { authorization: `Bearer ${b.status.token}` };
    const statuses = [];
    const before = (await b.app.status()).server.failedLogins;
    assert.ok(before >= 2 && before < 10, String(before));
    for (let i = 0; i < 12; i++) statuses.push((await rawInitialize(b.url, { authorization: `Bearer guess-${i}` })).status);
    // the package's default: 10 failed logins within a minute
    assert.deepEqual(statuses.slice(0, 10 - before), Array(10 - before).fill(401));
    assert.deepEqual(statuses.slice(10 - before), Array(2 + before).fill(429));
    const locked = await rawInitialize(b.url, auth);
    assert.equal(locked.status, 429);
    const wait = Number(locked.headers.get('retry-after'));
    assert.ok(wait > 30 && wait <= 60, String(wait));
    const status = (await b.app.status()).server;
    assert.deepEqual(status.lockedOut, ['127.0.0.1']);
    assert.equal(status.failedLogins, 10);
  });
});

describe('settings take effect at once', () => {
  let b;
  before(async () => {
    b = await boot({ mode: 'all' });
  });
  after(async () => {
    await b.close();
  });

  const settle = () => b.app.server.queue;
  const session = async () => {
    const status = await b.app.status();
    return connect(`http://127.0.0.1:${status.server.port}/mcp`, status.token);
  };

  test('read-only mode and no destructive tools', async () => {
    b.homey.settings.set('readOnly', true);
    await settle();
    let { client } = await session();
    const names = await toolNames(client);
    for (const gone of ['set_light', 'control_device', 'create_alarm', 'delete_alarm', 'start_flow', 'play_radio']) assert.ok(!names.includes(gone), gone);
    for (const kept of ['get_states', 'get_alarms', 'get_zigbee_network']) assert.ok(names.includes(kept), kept);
    const refused = await client.callTool({ name: 'set_light', arguments: { deviceId: 'living-lamp', state: 'on' } }).catch((e) => e);
    assert.match(String(refused.message ?? JSON.stringify(refused)), /set_light/);
    await client.close();
    b.homey.settings.set('readOnly', false);
    b.homey.settings.set('noDestructive', true);
    await settle();
    ({ client } = await session());
    const safe = await toolNames(client);
    assert.ok(!safe.includes('delete_alarm') && !safe.includes('start_flow'));
    assert.ok(safe.includes('set_light') && safe.includes('create_alarm') && safe.includes('play_radio'));
    await client.close();
    b.homey.settings.set('noDestructive', false);
    await settle();
  });

  test('hidden tools are neither listed nor callable, also through the Web API route', async () => {
    b.homey.settings.set('hiddenTools', ['get_zigbee_network', 'play_radio']);
    await settle();
    const { client } = await session();
    const names = await toolNames(client);
    assert.ok(!names.includes('get_zigbee_network') && !names.includes('play_radio'));
    const web = await b.app.handleWebApi({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_zigbee_network', arguments: {} } });
    assert.equal(web.error.code, -32602);
    await client.close();
    b.homey.settings.set('hiddenTools', []);
    await settle();
  });

  test('the web tools: off by default; switched on they are listed and refuse addresses in the home network; off again', async () => {
    let { client } = await session();
    assert.ok(!(await toolNames(client)).includes('web_fetch'));
    await client.close();
    b.homey.settings.set('webTools', true);
    await settle();
    ({ client } = await session());
    const names = await toolNames(client);
    assert.ok(names.includes('web_fetch') && names.includes('web_search'), names.join(' '));
    const refused = await client.callTool({ name: 'web_fetch', arguments: { url: 'http://192.168.1.10/manual.html' } });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(refused.content), /refused to fetch/);
    await client.close();
    // found by search in hybrid mode, in Dutch too
    b.homey.settings.set('mode', 'hybrid');
    await settle();
    ({ client } = await session());
    const found = await call(client, 'search_tools', { query: 'zoek op internet naar de handleiding van de thermostaat' });
    assert.match(JSON.stringify(found), /web_search/);
    await client.close();
    b.homey.settings.set('mode', 'all');
    b.homey.settings.set('webTools', false);
    await settle();
    ({ client } = await session());
    assert.ok(!(await toolNames(client)).includes('web_fetch'));
    await client.close();
  });

  test('hidden zones: their devices, moods, logs, Flows and energy are left out everywhere', async () => {
    b.homey.settings.set('hiddenZones', ['office']);
    const { client } = await session();
    const structure = (await call(client, 'get_home_structure', {})).data;
    assert.ok(!structure.zones.some((z) => z.id === 'office' || z.id === 'desk'));
    assert.equal(structure.deviceCount, 11);
    assert.match((await call(client, 'get_device', { deviceId: 'office-pc' })).data.error, /no device with ID "office-pc"/);
    assert.equal((await call(client, 'control_device', { deviceId: 'desk-lamp', capability: 'onoff', value: true })).isError, true);
    assert.equal(b.home.devices['desk-lamp'].capabilitiesObj.onoff.value, false);
    assert.match((await call(client, 'control_zone_lights', { zoneId: 'desk', action: 'on' })).data.error, /no zone with ID "desk"/);
    const onAll = (await call(client, 'control_zone_lights', { zoneId: 'home', action: 'on' })).data;
    assert.ok(!onAll.results.some((r) => r.id === 'desk-lamp'));
    assert.ok(!(await call(client, 'get_mood_details', {})).data.moods.some((m) => m.name === 'Focus'));
    assert.ok(!(await call(client, 'get_insight_logs', {})).data.logs.some((l) => l.id.includes('office-pc')));
    assert.ok(!(await call(client, 'get_flow_overview', {})).data.flows.some((f) => f.name === 'Office off at night'));
    assert.ok(!(await call(client, 'get_energy_report', {})).data.devices.some((d) => d.id === 'office-pc'));
    assert.equal((await call(client, 'get_states', { deviceIds: ['office-pc'] })).isError, true);
    await client.close();
    b.homey.settings.set('hiddenZones', []);
  });

  test('a new token: the old one is refused, the new one works', async () => {
    const old = (await b.app.status()).token;
    const { token } = await require('./api.js').regenerateToken({ homey: b.homey });
    assert.notEqual(token, old);
    await settle();
    const status = await b.app.status();
    assert.equal(status.token, token);
    assert.equal((await rawInitialize(status.url.replace('<hub address>', '127.0.0.1'), { authorization: `Bearer ${old}` })).status, 401);
    assert.equal((await rawInitialize(`http://127.0.0.1:${status.server.port}/mcp`, { authorization: `Bearer ${token}` })).status, 200);
  });

  test('a connected client stays connected through mode and exposure changes and sees the new list', async () => {
    const { client } = await session();
    assert.ok((await toolNames(client)).includes('set_light'));
    b.homey.settings.set('mode', 'meta');
    await settle();
    assert.deepEqual(await toolNames(client), ['search_tools', 'get_tool_definition', 'use_tool']);
    b.homey.settings.set('mode', 'all');
    b.homey.settings.set('readOnly', true);
    await settle();
    const names = await toolNames(client);
    assert.ok(names.includes('get_states') && !names.includes('set_light'));
    b.homey.settings.set('readOnly', false);
    await settle();
    assert.ok((await toolNames(client)).includes('set_light'));
    await client.close();
  });

  test('the disclosure mode and the server switch', async () => {
    b.homey.settings.set('mode', 'meta');
    await settle();
    let { client } = await session();
    assert.deepEqual(await toolNames(client), ['search_tools', 'get_tool_definition', 'use_tool']);
    await client.close();
    b.homey.settings.set('serverEnabled', false);
    await settle();
    const status = await b.app.status();
    assert.equal(status.server.running, false);
    await assert.rejects(fetch(`http://127.0.0.1:${b.status.server.port}/mcp`, { method: 'POST' }));
    b.homey.settings.set('serverEnabled', true);
    b.homey.settings.set('mode', 'hybrid');
    await settle();
    ({ client } = await session());
    assert.equal((await toolNames(client)).length, 6);
    await client.close();
  });

  test('a port in use is reported on the settings page, not a crash', async () => {
    const other = await boot();
    b.homey.settings.set('port', other.status.server.port);
    await settle();
    const status = await b.app.status();
    assert.equal(status.server.running, false);
    assert.match(status.server.error, /port \d+ is in use by another program/);
    await other.close();
    b.homey.settings.set('port', 0);
    await settle();
    assert.equal((await b.app.status()).server.running, true);
  });
});
