// What the assistant may not reach, on the realistic home (large-home.mjs):
// protected devices (locks, garage doors, gates, home alarms, sirens) are
// refused whatever tool, Flow or mood would act on them, unless the owner
// allowed the device; and each zone hidden in turn leaves no trace of its
// devices in any tool's answer (IDs, names, Zigbee nodes, values, totals).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createLargeHome } from './large-home.mjs';
import { bootApp, PERSONAL_KEY } from './harness.mjs';
import { call, connect } from './mcp-client.mjs';

/** Boots the app on a new realistic home for the tests of the enclosing describe(); returns a getter. */
function booted() {
  let b = null;
  before(async () => {
    const home = createLargeHome();
    const app = await bootApp({ home, settings: { port: 0, mode: 'all', personalKey: PERSONAL_KEY, personalKeyEnabled: true } });
    const status = await app.app.status();
    const { client } = await connect(`http://127.0.0.1:${status.server.port}/mcp`, status.token);
    b = { ...app, client };
  });
  after(async () => {
    await b.client.close();
    await b.close();
  });
  return () => b;
}

describe('protected devices', () => {
  const app = booted();
  const run = (name, args) => call(app().client, name, args);
  const refused = async (name, args, pattern = /is not allowed for AI assistants/) => {
    const r = await run(name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should be refused: ${JSON.stringify(r.data).slice(0, 300)}`);
    assert.match(r.data.error ?? JSON.stringify(r.data), pattern);
    return r.data;
  };
  const ok = async (name, args) => {
    const r = await run(name, args);
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r.data).slice(0, 300)}`);
    return r.data;
  };
  const value = (id, cap) => app().home.devices[id].capabilitiesObj[cap].value;

  test('unlocking, opening, disarming and sirens are refused through control_device and toggle_device; the safe direction works', async () => {
    const data = await refused('control_device', { deviceId: 'voordeur-slot', capability: 'locked', value: false });
    assert.match(data.error, /To unlock "Voordeur slot" \(a lock\) is not allowed for AI assistants.*allow this device in the app's settings/);
    assert.deepEqual(data.protectedDevice, { id: 'voordeur-slot', name: 'Voordeur slot', is: 'a lock', refused: 'unlock' });
    await refused('control_device', { deviceId: 'voordeur-slot', capability: 'locked', value: 'false' });
    assert.equal(value('voordeur-slot', 'locked'), true);
    await ok('control_device', { deviceId: 'voordeur-slot', capability: 'locked', value: true });
    await refused('control_device', { deviceId: 'garagedeur', capability: 'garagedoor_closed', value: false }, /To open "Garagedeur" \(a garage door\)/);
    await refused('control_device', { deviceId: 'garagedeur', capability: 'onoff', value: true }, /Changing "Garagedeur"/);
    await refused('toggle_device', { deviceId: 'garagedeur' });
    await ok('control_device', { deviceId: 'garagedeur', capability: 'garagedoor_closed', value: true });
    await refused('control_device', { deviceId: 'oprit-poort', capability: 'onoff', value: true }, /a gate/);
    await refused('control_device', { deviceId: 'alarmsysteem', capability: 'homealarm_state', value: 'disarmed' }, /To disarm "Alarmsysteem" \(a home alarm\)/);
    await ok('control_device', { deviceId: 'alarmsysteem', capability: 'homealarm_state', value: 'armed' });
    // a siren by its capabilities (class "other"), a car lock by its capability (class "car")
    await refused('control_device', { deviceId: 'sirene', capability: 'onoff', value: true }, /a siren/);
    await refused('control_device', { deviceId: 'car-tesla', capability: 'locked', value: false }, /"Family car" \(a lock\)/);
    assert.deepEqual(
      [value('garagedeur', 'garagedoor_closed'), value('garagedeur', 'onoff'), value('oprit-poort', 'onoff'), value('alarmsysteem', 'homealarm_state'), value('sirene', 'onoff'), value('car-tesla', 'locked')],
      [true, false, false, 'armed', false, true],
    );
  });

  test('zone tools leave protected devices alone and say so', async () => {
    const data = await refused('control_zone_capability', { zoneId: 'home', capability: 'locked', value: false }, /2 protected devices were left alone: .*(Voordeur slot|Family car)/);
    assert.equal(data.results.length, 2);
    assert.equal(value('voordeur-slot', 'locked'), true);
    assert.equal(value('car-tesla', 'locked'), true);
    const driveway = await ok('control_zone_capability', { zoneId: 'outside', capability: 'onoff', value: true });
    const gate = driveway.results.find((r) => r.id === 'oprit-poort');
    assert.equal(gate.ok, false);
    assert.equal(gate.protected, true);
    assert.ok(driveway.changed > 0, 'the other devices were switched');
    assert.equal(value('oprit-poort', 'onoff'), false);
    assert.equal(value('sirene', 'onoff'), false);
  });

  test('Flows and moods that would act on a protected device are refused, those that lock pass', async () => {
    const b = app();
    const { home } = b;
    await refused('start_flow', { flowName: 'Thuiskomst' }, /the Flow "Thuiskomst" cannot run: changing "Voordeur slot" \(a lock\)/);
    await refused('start_flow', { flowName: 'Iemand thuis' }, /the Flow "Thuiskomst" cannot run/);
    await refused('start_flow', { flowName: 'Alarm uit' }, /"Alarmsysteem" \(a home alarm\)/);
    await refused('start_flow', { flowName: 'Garage open' }, /"Garagedeur"/);
    await ok('start_flow', { flowName: 'Welterusten' });
    assert.deepEqual(home.flowsStarted, ['flow-nacht']);
    await refused('set_mood', { moodName: 'Vertrek' }, /the mood "Vertrek" cannot run: to unlock "Voordeur slot"/);
    await ok('set_mood', { moodName: 'Slapen' });
    assert.deepEqual(home.moodsSet, ['mood-slapen']);
    // an AI tool Flow the owner made that unlocks the door: by its tool and by trigger_any_flow
    await refused('open_front_door', {}, /the Flow "Deur open voor bezoek" cannot run/);
    await refused('trigger_any_flow', { command: 'open_front_door' });
    assert.ok(!home.flowRuns.some((r) => r.flowId === 'flow-ai-door'), 'the Flow never ran');
  });

  test('the owner allows one device in the settings: then it works, the others stay protected; the settings page lists them', async () => {
    const b = app();
    const { home } = b;
    const listed = await b.app.protectedDevices();
    assert.deepEqual(listed.map((d) => [d.id, d.kind]).sort(), [['alarmsysteem', 'a home alarm'], ['car-tesla', 'a lock'], ['garagedeur', 'a garage door'], ['oprit-poort', 'a gate'], ['sirene', 'a siren'], ['voordeur-slot', 'a lock']]);
    assert.equal(listed.find((d) => d.id === 'voordeur-slot').zone, 'Thuis / Begane grond / Hal');
    b.homey.settings.set('allowedDevices', ['voordeur-slot']);
    await ok('control_device', { deviceId: 'voordeur-slot', capability: 'locked', value: false });
    assert.equal(value('voordeur-slot', 'locked'), false);
    await ok('open_front_door', {});
    assert.ok(home.flowRuns.some((r) => r.flowId === 'flow-ai-door'));
    await ok('start_flow', { flowName: 'Thuiskomst' });
    await refused('control_device', { deviceId: 'car-tesla', capability: 'locked', value: false });
    assert.equal((await b.app.protectedDevices()).find((d) => d.id === 'voordeur-slot').allowed, true);
    b.homey.settings.set('allowedDevices', []);
    await refused('control_device', { deviceId: 'voordeur-slot', capability: 'locked', value: false });
  });
});

describe('each zone hidden in turn leaves no trace in any tool', () => {
  const app = booted();

  /** The zone and the zones inside it. */
  const within = (home, zoneId) => {
    const ids = new Set([zoneId]);
    for (let grew = true; grew;) {
      grew = false;
      for (const z of Object.values(home.zones)) if (!ids.has(z.id) && ids.has(z.parent)) grew = ids.add(z.id);
    }
    return ids;
  };

  test('IDs, names, Zigbee nodes, values and totals', async () => {
    const b = app();
    const { home } = b;
    const allZones = Object.keys(home.zones).filter((z) => z !== 'home');
    for (const zoneId of allZones) {
      const zones = within(home, zoneId);
      const hidden = Object.values(home.devices).filter((d) => zones.has(d.zone));
      const visible = Object.values(home.devices).filter((d) => !zones.has(d.zone));
      const visibleText = JSON.stringify(visible.map((d) => d.name));
      b.homey.settings.set('hiddenZones', [zoneId]);
      const answers = {};
      const ask = async (name, args = {}) => {
        const r = await call(b.client, name, args);
        answers[`${name} ${JSON.stringify(args)}`] = r;
        return r;
      };
      const structure = (await ask('get_home_structure')).data;
      await ask('get_states');
      await ask('get_states', { deviceClass: 'light' });
      await ask('get_flow_overview', { include_disabled: true });
      await ask('get_insight_logs');
      await ask('get_installed_apps', { include_devices: true, include_capabilities: true, include_flow_cards: true });
      await ask('get_mood_details');
      const energy = (await ask('get_energy_report')).data;
      const zigbee = (await ask('get_zigbee_network')).data;
      const usage = (await ask('get_energy_usage', { period: 'this_month', top: 200 })).data;
      await ask('get_flow_cards', { limit: 200, owner: 'homey:device' });
      await ask('get_flow_cards', { limit: 200, owner: 'homey:device', type: 'condition' });
      await ask('get_homey_system_health');
      await ask('refresh_homey_flows');
      await ask('control_zone_lights', { zoneId: 'home', action: 'on' });
      for (const d of hidden.slice(0, 3)) {
        assert.equal((await ask('get_device', { deviceId: d.id })).isError, true, d.id);
        assert.equal((await ask('control_device', { deviceId: d.id, capability: Object.keys(d.capabilitiesObj)[0], value: true })).isError, true, d.id);
        assert.equal((await ask('find_device_in_moods', { deviceId: d.id })).isError, true, d.id);
      }
      // Flows and moods that touch a hidden device are not there, not even to start
      const flowsOfZone = [...Object.values(home.flows), ...Object.values(home.advancedFlows)]
        .filter((f) => JSON.stringify(f).match(/homey:device:([^:"]+)/g)?.some((m) => zones.has(home.devices[m.slice(13)]?.zone)));
      for (const f of flowsOfZone.slice(0, 3)) {
        const r = await ask('start_flow', { flowId: f.id });
        assert.equal(r.isError, true, `${zoneId}: ${f.name}`);
        assert.match(r.data.error, /no Flow with ID/);
      }
      for (const m of Object.values(home.moods).filter((x) => Object.keys(x.devices).some((id) => zones.has(home.devices[id]?.zone)))) {
        assert.match((await ask('set_mood', { moodId: m.id })).data.error, /no mood with ID/, m.name);
      }
      for (const tool of ['cosy_woonkamer', 'open_front_door']) {
        const f = Object.values(home.flows).find((x) => x.trigger.args.command === tool);
        const acts = JSON.stringify(f.actions).match(/homey:device:([^:"]+)/g).some((m) => zones.has(home.devices[m.slice(13)].zone));
        if (acts) assert.match((await ask(tool)).data.error, /does not run for the assistant/, `${zoneId}: ${tool}`);
      }

      // answers to a call that named a hidden device by its ID may repeat that ID ("no device with ID ...")
      const text = JSON.stringify(Object.entries(answers).filter(([k]) => !hidden.some((d) => k.includes(d.id))).map(([, r]) => r.data));
      for (const d of hidden) {
        assert.ok(!text.includes(d.id), `${zoneId}: the ID ${d.id} leaked in ${Object.keys(answers).filter((k) => JSON.stringify(answers[k].data).includes(d.id))}`);
        if (!visibleText.includes(d.name)) assert.ok(!text.includes(`"${d.name}"`), `${zoneId}: the name ${d.name} leaked`);
        const node = home.zigbee.nodes[d.settings.zb_ieee_address];
        const same = (n) => n !== node && n.name === node?.name && !hidden.some((h) => h.settings.zb_ieee_address === n.ieeeAddress);
        if (node && !Object.values(home.zigbee.nodes).some(same)) assert.ok(!text.includes(`"${node.name}"`), `${zoneId}: the Zigbee node ${node.name} leaked`);
      }
      for (const z of zones) assert.ok(!text.includes(`"${home.zones[z].name}"`), `${zoneId}: the zone name ${home.zones[z].name} leaked`);
      // totals count the visible devices only
      assert.equal(structure.deviceCount, visible.length, zoneId);
      const watts = visible.map((d) => d.capabilitiesObj.measure_power?.value).filter((w) => typeof w === 'number');
      assert.equal(energy.consumingWatts, Math.round(watts.filter((w) => w > 0).reduce((a, w) => a + w, 0) * 10) / 10, zoneId);
      assert.equal(energy.hubTotalWatts, undefined, 'the hub total counts hidden devices');
      const listed = usage.devices.reduce((n, d) => n + Math.max(0, d.kWh), 0);
      assert.ok(Math.abs(usage.consumedKWh - listed) < 0.01, `${zoneId}: the month's total ${usage.consumedKWh} is the visible devices' ${listed}`);
      assert.equal(usage.deviceCount, visible.filter((d) => home.energy.dailyKwh.has(d.id) && d.energyObj?.cumulative !== true).length, zoneId);
      const visibleNodes = Object.values(home.zigbee.nodes).filter((n) => !hidden.some((d) => d.settings.zb_ieee_address === n.ieeeAddress));
      assert.equal(zigbee.totalNodes, visibleNodes.length, zoneId);
    }
    b.homey.settings.set('hiddenZones', []);
  });
});
