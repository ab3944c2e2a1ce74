// Every tool of the app through the official MCP SDK client, against the
// simulated home served by the fake Web API through the real homey-api.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';

import { APP_ID, createHome } from './fake-home.mjs';
import { bootApp, PERSONAL_KEY } from './harness.mjs';
import { call, connect, toolNames } from './mcp-client.mjs';

const require = createRequire(import.meta.url);
const BUILTIN = JSON.parse(readFileSync(new URL('../lib/tools.json', import.meta.url), 'utf8')).tools.map((t) => t.name);

describe('every tool, in "all" mode', () => {
  let app;
  let home;
  let client;
  const called = new Set();
  const run = async (name, args) => {
    called.add(name);
    return call(client, name, args);
  };
  const ok = async (name, args) => {
    const r = await run(name, args);
    assert.equal(r.isError, false, `${name} failed: ${JSON.stringify(r.data)}`);
    assert.equal(r.data.success, true);
    return r.data;
  };
  const fails = async (name, args, pattern) => {
    const r = await run(name, args);
    assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.data)}`);
    const text = [r.data.error, r.data.text, JSON.stringify(r.data)].filter(Boolean).join('\n');
    assert.match(text, pattern);
    return r.data;
  };

  before(async () => {
    home = createHome();
    app = await bootApp({ home, settings: { port: 0, mode: 'all' } });
    const status = await app.app.status();
    ({ client } = await connect(`http://127.0.0.1:${status.server.port}/mcp`, status.token));
  });
  after(async () => {
    await client.close();
    const { timersLeft } = await app.close();
    assert.equal(timersLeft, 0, 'the app stopped its timers');
  });

  test('the list has every built-in tool and the enabled AI tool Flows, and no others', async () => {
    const names = await toolNames(client);
    assert.deepEqual(names.slice(0, BUILTIN.length), BUILTIN);
    assert.deepEqual(names.slice(BUILTIN.length).sort(), ['evening_lights', 'play_radio']);
  });

  test('get_home_structure: zones with paths and their devices, as structuredContent', async () => {
    const { result } = await call(client, 'get_home_structure', {});
    assert.equal(result.structuredContent.success, true);
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    const data = await ok('get_home_structure', {});
    assert.equal(data.zoneCount, 8);
    assert.equal(data.deviceCount, 13);
    const living = data.zones.find((z) => z.id === 'living');
    assert.equal(living.path, 'Home / Living room');
    assert.deepEqual(living.devices.map((d) => d.id), ['living-ceiling', 'living-lamp', 'living-thermostat']);
    assert.deepEqual(living.devices[0].capabilities, ['onoff', 'dim']);
    const office = await ok('get_home_structure', { zoneId: 'office' });
    assert.deepEqual(office.zones.map((z) => z.id), ['office', 'desk']);
    await fails('get_home_structure', { zoneId: 'attic' }, /no zone with ID "attic"/);
  });

  test('get_states: values with timestamps, filters, and devices silent for hours', async () => {
    const onoff = await ok('get_states', { zoneId: 'living', capability: 'onoff' });
    assert.deepEqual(onoff.devices.map((d) => [d.id, d.capabilities.onoff.value]), [['living-ceiling', false], ['living-lamp', true]]);
    assert.match(onoff.devices[0].capabilities.onoff.lastUpdated, /^\d{4}-\d\d-\d\dT/);
    const silent = await ok('get_states', { silentForHours: 24 });
    assert.deepEqual(silent.devices.map((d) => d.id), ['hallway-door']);
    assert.ok(silent.devices[0].silentForHours >= 29.9 && silent.devices[0].silentForHours <= 30.1, String(silent.devices[0].silentForHours));
    const lights = await ok('get_states', { deviceClass: 'light' });
    assert.equal(lights.count, 5);
    const some = await ok('get_states', { deviceIds: ['garden-pump', 'kitchen-socket'], capability: 'measure_power' });
    assert.deepEqual(some.devices.map((d) => d.capabilities.measure_power.units), ['W', 'W']);
    await fails('get_states', { deviceIds: ['nope'] }, /no device with ID "nope"/);
  });

  test('get_device: capability ranges, units, values and whether they can be set', async () => {
    const d = await ok('get_device', { deviceId: 'living-thermostat' });
    assert.equal(d.zone.path, 'Home / Living room');
    assert.deepEqual(
      { min: d.capabilities.target_temperature.min, max: d.capabilities.target_temperature.max, units: d.capabilities.target_temperature.units },
      { min: 5, max: 30, units: '°C' },
    );
    assert.equal(d.capabilities.measure_temperature.setable, false);
    assert.deepEqual(d.capabilities.thermostat_mode.values, ['auto', 'heat', 'cool', 'off']);
    await fails('get_device', { deviceId: 'ghost' }, /no device with ID "ghost"/);
  });

  test('set_light: on/off, brightness in percent, colour temperature and colour', async () => {
    const caps = home.devices['living-lamp'].capabilitiesObj;
    await ok('set_light', { deviceId: 'living-lamp', dim: 30, temperature: 100 });
    assert.equal(caps.dim.value, 0.3);
    assert.equal(caps.onoff.value, true);
    assert.equal(caps.light_temperature.value, 0, '100 % cool is light_temperature 0');
    assert.equal(caps.light_mode.value, 'temperature');
    await ok('set_light', { deviceId: 'living-lamp', hue: 240, saturation: 80 });
    assert.equal(caps.light_hue.value, 0.67);
    assert.equal(caps.light_saturation.value, 0.8);
    assert.equal(caps.light_mode.value, 'color');
    await ok('set_light', { deviceId: 'living-lamp', state: 'toggle' });
    assert.equal(caps.onoff.value, false);
    // validation by the engine, before the tool runs
    await fails('set_light', { deviceId: 'living-lamp', dim: 150 }, /dim: must be a number from 0 to 100; got 150/);
    await fails('set_light', { deviceId: 'living-lamp' }, /set_light/);
    // the device's own capabilities
    await fails('set_light', { deviceId: 'living-ceiling', hue: 10 }, /Ceiling light has no capability light_hue/);
  });

  test('set_thermostat: target and mode, checked against the device range', async () => {
    const data = await ok('set_thermostat', { deviceId: 'living-thermostat', temperature: 21.5, mode: 'heat' });
    assert.equal(data.measuredTemperature, 19.5);
    assert.equal(home.devices['living-thermostat'].capabilitiesObj.target_temperature.value, 21.5);
    assert.equal(home.devices['living-thermostat'].capabilitiesObj.thermostat_mode.value, 'heat');
    await fails('set_thermostat', { deviceId: 'living-thermostat', temperature: 35 }, /must be a number from 5 to 30; got 35/);
    await fails('set_thermostat', { deviceId: 'living-thermostat', temperature: 20, mode: 'turbo' }, /must be one of "auto", "heat", "cool", "off"/);
    assert.equal(home.devices['living-thermostat'].capabilitiesObj.target_temperature.value, 21.5, 'nothing was set when a value was refused');
  });

  test('control_device and toggle_device: any capability, values coerced and checked', async () => {
    const data = await ok('control_device', { deviceId: 'kitchen-speaker', capability: 'volume_set', value: '0.5' });
    assert.deepEqual([data.value, data.previous], [0.5, 0.25]);
    assert.equal(home.devices['kitchen-speaker'].capabilitiesObj.volume_set.value, 0.5);
    // a lock is protected: unlocking is refused, locking is not
    await fails('control_device', { deviceId: 'hallway-lock', capability: 'locked', value: 'false' }, /To unlock "Front door lock" \(a lock\) is not allowed for AI assistants/);
    assert.equal(home.devices['hallway-lock'].capabilitiesObj.locked.value, true);
    await ok('control_device', { deviceId: 'hallway-lock', capability: 'locked', value: true });
    await fails('control_device', { deviceId: 'living-thermostat', capability: 'measure_temperature', value: 3 }, /is a measurement and cannot be set/);
    await fails('control_device', { deviceId: 'kitchen-speaker', capability: 'volume_set', value: 2 }, /must be a number from 0 to 1; got 2/);
    const toggled = await ok('toggle_device', { deviceId: 'kitchen-spots' });
    assert.equal(toggled.onoff, true);
    assert.equal(home.devices['kitchen-spots'].capabilitiesObj.onoff.value, true);
    await fails('toggle_device', { deviceId: 'hallway-door' }, /cannot be switched on or off/);
  });

  test('control_zone_lights and control_zone_capability: a zone and the zones inside it', async () => {
    const off = await ok('control_zone_lights', { zoneId: 'home', action: 'off' });
    assert.equal(off.changed, 5);
    for (const id of ['living-ceiling', 'living-lamp', 'kitchen-spots', 'bedroom-lamp', 'desk-lamp']) assert.equal(home.devices[id].capabilitiesObj.onoff.value, false, id);
    const on = await ok('control_zone_lights', { zoneId: 'office', action: 'on', dim: 70 });
    assert.deepEqual(on.results.map((r) => r.id), ['desk-lamp']);
    assert.equal(home.devices['desk-lamp'].capabilitiesObj.dim.value, 0.7);
    await fails('control_zone_lights', { zoneId: 'office', action: 'off', includeSubzones: false }, /there are no lights in Office/);
    await fails('control_zone_lights', { zoneId: 'garden', action: 'on' }, /there are no lights in Garden/);
    const pumps = await ok('control_zone_capability', { zoneId: 'garden', capability: 'onoff', value: false });
    assert.deepEqual(pumps.results.map((r) => r.id), ['garden-pump']);
    assert.equal(home.devices['garden-pump'].capabilitiesObj.onoff.value, false);
    const sockets = await ok('control_zone_capability', { zoneId: 'home', capability: 'onoff', value: true, deviceClass: 'socket' });
    assert.deepEqual(sockets.results.map((r) => r.id).sort(), ['garden-pump', 'kitchen-socket', 'office-pc']);
  });

  test('get_flow_overview: cards, folders, devices, apps and the AI tool names, with filters', async () => {
    const all = await ok('get_flow_overview', {});
    assert.deepEqual(all.flows.map((f) => f.name).sort(), ['Clashing name', 'Evening lights', 'Good morning', 'Kitchen radio', 'Office off at night']);
    const radio = all.flows.find((f) => f.id === 'flow-radio');
    assert.equal(radio.tool, 'play_radio');
    assert.equal(radio.folder, 'AI tools');
    assert.equal(radio.cards[0].title, 'An AI assistant calls a tool');
    assert.deepEqual(radio.devices, [{ id: 'kitchen-speaker', name: 'Kitchen speaker' }]);
    assert.deepEqual(radio.apps, [APP_ID]);
    const evening = all.flows.find((f) => f.id === 'adv-evening');
    assert.equal(evening.type, 'advanced');
    assert.equal(evening.folder, 'Lights/Evening');
    const disabled = await ok('get_flow_overview', { include_disabled: true });
    assert.equal(disabled.count, 6);
    const speaker = await ok('get_flow_overview', { device_ids: ['kitchen-speaker'] });
    assert.deepEqual(speaker.flows.map((f) => f.id).sort(), ['flow-morning', 'flow-radio']);
    const lights = await ok('get_flow_overview', { folder_paths: ['Lights'] });
    assert.deepEqual(lights.flows.map((f) => f.id).sort(), ['adv-evening', 'flow-morning']);
  });

  test('AI tool Flows: typed parameters become tokens, and the answer card answers the call', async () => {
    const tools = (await client.listTools()).tools;
    const radio = tools.find((t) => t.name === 'play_radio');
    assert.deepEqual(radio.inputSchema, {
      type: 'object',
      properties: {
        station: { type: 'string', description: 'Parameter 1 of the Flow (text).' },
        volume: { type: 'number', description: 'Parameter 2 of the Flow (number).' },
      },
      required: ['station'],
    });
    assert.match(radio.description, /Plays a radio station on the kitchen speaker\. \(Flow "Kitchen radio"\)/);
    const data = await ok('play_radio', { station: 'jazz', volume: 40 });
    assert.equal(data.answer, 'Now playing jazz at volume 40');
    const runs = home.flowRuns.filter((r) => r.flowId === 'flow-radio');
    assert.equal(runs.length, 1);
    assert.equal(runs[0].tokens.text1, 'jazz');
    assert.equal(runs[0].tokens.number2, 40);
    assert.equal(runs[0].tokens.text2, '40');
    assert.equal(home.devices['kitchen-speaker'].capabilitiesObj.volume_set.value, 40, 'the Flow used the number token');
    await fails('play_radio', { volume: 3 }, /station: required/);
    // an answer nobody waits for is an error in the Flow's log
    await assert.rejects(app.homey.flow.getActionCard('ai_tool_answer').listener({ call: 'stale', answer: 'late' }, {}), /No AI tool call is waiting for this answer/);
    const evening = await ok('evening_lights', { bright: 'true' });
    assert.equal(evening.answer, undefined);
    assert.deepEqual(evening.flows, ['Evening lights']);
    assert.equal(home.flowRuns.at(-1).tokens.yesno1, true, 'the yes/no parameter arrives as a boolean token (coerced from "true")');
    // trigger_any_flow: the same Flows by name, parameters checked against the tool's schema
    const again = await ok('trigger_any_flow', { command: 'play_radio', parameters: { station: 'news' } });
    assert.equal(again.answer, 'Now playing news at volume 0');
    await fails('trigger_any_flow', { command: 'play_radio', parameters: { volume: 'loud' } }, /parameters for play_radio/);
    const unknown = await ok('trigger_any_flow', { command: 'not_a_flow' });
    assert.match(unknown.note, /no enabled Flow is known to use the tool name not_a_flow/);
    const refreshed = await ok('refresh_homey_flows', {});
    assert.equal(refreshed.changed, false);
    assert.deepEqual(refreshed.tools.map((t) => t.name).sort(), ['evening_lights', 'play_radio']);
    assert.deepEqual(refreshed.skipped, [{ command: 'get_states', code: 'reserved', reason: 'a built-in tool is called get_states; choose another tool name' }]);
  });

  test('insights: logs of visible devices, values with statistics', async () => {
    const logs = await ok('get_insight_logs', {});
    assert.equal(logs.count, 5);
    const contact = await ok('get_insight_logs', { logType: 'boolean' });
    assert.deepEqual(contact.logs.map((l) => l.id), ['homey:device:hallway-door:alarm_contact']);
    const living = await ok('get_insight_logs', { zoneId: 'living' });
    assert.deepEqual(living.logs.map((l) => l.owner.name), ['Thermostat']);
    const data = await ok('get_insight_data', { logIds: ['homey:device:living-thermostat:measure_temperature', 'nope'], resolution: 'lastHour' });
    const [temp, missing] = data.logs;
    assert.equal(temp.count, 12);
    assert.equal(temp.units, '°C');
    assert.ok(temp.min <= temp.average && temp.average <= temp.max);
    assert.equal(temp.points.length, 12);
    assert.match(missing.error, /no such log/);
    const day = await ok('get_insight_data', { logIds: ['homey:device:garden-pump:measure_power'] });
    assert.equal(day.logs[0].count, 288);
    assert.ok(day.logs[0].points.length <= 200, 'long series are sampled');
    await fails('get_insight_data', { logIds: ['nope'] }, /none of the logs could be read/);
  });

  test('get_installed_apps: apps with their devices, capabilities and Flow cards', async () => {
    const data = await ok('get_installed_apps', { app_ids: ['com.philips.hue', 'com.sonos'], include_devices: true, include_capabilities: true, include_flow_cards: true });
    const hue = data.apps.find((a) => a.id === 'com.philips.hue');
    assert.deepEqual(hue.devices.map((d) => d.id), ['living-ceiling', 'living-lamp']);
    assert.ok(hue.capabilities.includes('light_hue'));
    assert.deepEqual(data.apps.find((a) => a.id === 'com.sonos').flowCards.actions, ['Play a URL']);
    const all = await ok('get_installed_apps', {});
    assert.equal(all.count, 7);
  });

  test('moods: details, where a device is used, and activating (a scope apps lack)', async () => {
    const living = await ok('get_mood_details', { zoneId: 'living' });
    assert.deepEqual(living.moods.map((m) => m.name), ['Movie night']);
    assert.deepEqual(living.moods[0].devices.find((d) => d.id === 'living-lamp').sets, { onoff: true, dim: 0.2 });
    const named = await ok('get_mood_details', { moodName: 'dinn' });
    assert.deepEqual(named.moods.map((m) => m.id), ['mood-dinner']);
    const lamp = await ok('find_device_in_moods', { deviceId: 'living-lamp' });
    assert.deepEqual(lamp.moods.map((m) => m.name).sort(), ['Dinner', 'Movie night']);
    const refused = await fails('set_mood', { moodName: 'movie' }, /Activating a mood needs the Homey permission "homey\.mood\.set", which Homey does not give apps \(403 Missing Scopes\)/);
    assert.equal(refused.missingScope, 'homey.mood.set');
    assert.match(refused.workarounds[0], /An AI assistant calls a tool.*Set mood Movie night/);
    assert.match(refused.workarounds[1], /Personal API key/);
    assert.deepEqual(home.moodsSet, []);
    await fails('set_mood', { moodName: 'disco' }, /no mood named "disco"/);
  });

  test('Logic variables: read through the fallback, setting needs a scope', async () => {
    const data = await ok('get_logic_variables', {});
    assert.deepEqual(data.variables.map((v) => v.name), ['guests_home', 'last_announcement', 'lux_threshold']);
    const lux = await ok('get_logic_variables', { filter_type: 'number' });
    assert.deepEqual(lux.variables, [{ id: 'var-lux', name: 'lux_threshold', type: 'number', value: 120 }]);
    assert.ok(home.requests.some((r) => r.path === '/api/manager/logic/variable' && r.status === 403), 'getVariables was refused');
    assert.ok(home.requests.some((r) => r.path === '/api/manager/logic/state' && r.status === 200), 'the state was read instead');
    await fails('set_logic_variable', { name: 'lux_threshold', value: 150 }, /homey\.logic/);
    await fails('set_logic_variable', { name: 'lux_threshold', value: 'high' }, /lux_threshold is a number variable/);
    assert.equal(home.variables['var-lux'].value, 120);
  });

  test('start_flow: any Flow needs a scope apps lack; the error says how to get around it', async () => {
    const refused = await fails('start_flow', { flowName: 'good MORNING' }, /Starting a Flow needs the Homey permission "homey\.flow\.start"/);
    assert.match(refused.workarounds[0], /Give the Flow "Good morning" this app's trigger card/);
    await fails('start_flow', { flowId: 'flow-away' }, /the Flow "Away mode" is disabled/);
    await fails('start_flow', { flowName: 'nothing like it' }, /no Flow named "nothing like it"/);
    assert.deepEqual(home.flowsStarted, []);
  });

  test('get_energy_report: consumption and production per device and zone', async () => {
    home.devices['garden-pump'].capabilitiesObj.measure_power.value = 42;
    const data = await ok('get_energy_report', {});
    assert.equal(data.consumingWatts, 147);
    assert.equal(data.producingWatts, 1200);
    assert.equal(data.devices[0].id, 'garden-solar');
    assert.equal(data.byZone.Garden, -1158);
    const kitchen = await ok('get_energy_report', { zoneId: 'kitchen' });
    assert.deepEqual(kitchen.devices.map((d) => d.id), ['kitchen-socket']);
  });

  test('get_energy_usage, create_notification and get_presence on a hub without reports, a timeline and the users scope', async () => {
    const usage = await ok('get_energy_usage', { period: 'yesterday' });
    assert.deepEqual([usage.consumedKWh, usage.devices, usage.cost], [0, [], undefined]);
    await ok('create_notification', { text: 'Hello' });
    assert.deepEqual(home.notifications.map((n) => n.excerpt), ['Hello']);
    await fails('get_presence', {}, /homey\.user\.readonly/);
  });

  test('get_flow_cards and manage_flow (a dry run; writing needs the personal key)', async () => {
    const cards = await ok('get_flow_cards', { type: 'action', query: 'turn on' });
    assert.deepEqual(cards.cards.map((c) => c.id), ['homey:device:kitchen-spots:on']);
    const plan = { action: 'create', name: 'Spots at seven', trigger: { card: 'homey:manager:cron:time_exactly' }, actions: [{ card: 'homey:device:kitchen-spots:on' }] };
    const dry = await ok('manage_flow', { ...plan, dryRun: true });
    assert.equal(dry.wouldCreate.enabled, false);
    await fails('manage_flow', plan, /homey\.flow/);
  });

  test('alarms: list, create, change, delete', async () => {
    const list = await ok('get_alarms', {});
    assert.deepEqual(list.alarms.map((a) => [a.time, a.repetition.length]), [['07:00', 5]]);
    const created = await ok('create_alarm', { time: '06:30', name: 'Early', repetition: ['saturday'] });
    assert.deepEqual(created.created.repetition, ['saturday']);
    const id = created.created.id;
    await fails('create_alarm', { time: '25:00' }, /time/);
    const changed = await ok('update_alarm', { alarmId: id, enabled: false, time: '06:45' });
    assert.deepEqual([changed.updated.enabled, changed.updated.time], [false, '06:45']);
    await fails('update_alarm', { alarmId: id }, /nothing to change/);
    await ok('delete_alarm', { alarmId: id });
    assert.equal(home.alarms[id], undefined);
    await fails('delete_alarm', { alarmId: id }, /no alarm with ID/);
  });

  test('diagnostics: the Zigbee mesh and the hub, without secrets', async () => {
    const zigbee = await ok('get_zigbee_network', {});
    assert.deepEqual([zigbee.totalNodes, zigbee.routers, zigbee.endDevices, zigbee.channel], [4, 1, 2, 15]);
    const issues = await ok('get_zigbee_network', { only_issues: true });
    assert.deepEqual(issues.nodes.map((n) => n.name), ['Front door']);
    assert.deepEqual(issues.nodes[0].routeVia, ['Kitchen spots']);
    assert.equal(issues.nodes[0].txErrorPercent, 15);
    assert.doesNotMatch(JSON.stringify(zigbee), /SECRET/);
    const health = await ok('get_homey_system_health', { top: 2 });
    assert.equal(health.version, '12.4.0');
    assert.equal(health.uptimeHours, 50);
    assert.equal(health.memory.largest.length, 2);
    assert.deepEqual(health.storage.largest.map((x) => x.name), ['Insights', 'Apps'], 'swap is not a consumer');
    assert.equal(health.apps.find((a) => a.id === 'com.aqara').crashed, true);
    assert.doesNotMatch(JSON.stringify(health), /SECRET|192\.168/);
  });

  test('with a personal API key, the scoped actions work', async () => {
    app.homey.settings.set('personalKey', PERSONAL_KEY);
    app.homey.settings.set('personalKeyEnabled', true);
    const tested = await app.app.testPersonalKey();
    assert.equal(tested.ok, true);
    assert.deepEqual(tested.works.map((w) => [w.id, w.ok]), [['startFlows', true], ['moods', true], ['logic', true], ['editFlows', true], ['presence', true]]);
    const mood = await ok('set_mood', { moodId: 'mood-movie' });
    assert.equal(mood.activated, true);
    assert.deepEqual(home.moodsSet, ['mood-movie']);
    assert.equal(home.devices['living-lamp'].capabilitiesObj.dim.value, 0.2);
    const started = await ok('start_flow', { flowId: 'adv-evening' });
    assert.deepEqual(started.flow, { id: 'adv-evening', name: 'Evening lights', type: 'advanced' });
    assert.deepEqual(home.flowsStarted, ['adv-evening']);
    const set = await ok('set_logic_variable', { variableId: 'var-guests', value: true });
    assert.equal(set.previous, false);
    assert.equal(home.variables['var-guests'].value, true);
    // reading goes through the key too now
    await ok('get_logic_variables', {});
    assert.ok(home.requests.some((r) => r.path === '/api/manager/logic/variable' && r.status === 200 && r.token === PERSONAL_KEY));
    // the app's own token is still used for everything else
    assert.ok(home.requests.filter((r) => r.path.startsWith('/api/manager/devices')).every((r) => r.token !== PERSONAL_KEY));
    app.homey.settings.set('personalKey', 'wrong-key');
    const wrong = await app.app.testPersonalKey();
    assert.equal(wrong.ok, false);
    app.homey.settings.set('personalKeyEnabled', false);
  });

  test('homey-api\'s realtime client and upload module were never loaded (the app reads on demand)', () => {
    const loaded = Object.values(require.cache).filter((m) => m.loaded && /node_modules\/(socket\.io-client|form-data)\//.test(m.filename) && m.exports.name !== 'deferred');
    assert.deepEqual(loaded.map((m) => m.filename), []);
  });

  test('every tool was called', () => {
    const missing = [...BUILTIN, 'play_radio', 'evening_lights'].filter((n) => !called.has(n));
    assert.deepEqual(missing, []);
  });
});
