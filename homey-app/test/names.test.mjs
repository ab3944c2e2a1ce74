// Names where the tools take IDs, on the realistic home (large-home.mjs:
// zones, devices, Flows and moods with Dutch and English names): the
// assistant may say "Begane grond" or "the kitchen" where a tool takes a
// zone's ID, "Voordeur slot" for a device, "welterusten" for a Flow. The
// package's entity index decides what a name means and when it is
// ambiguous; the tools answer "did you mean" then, never guess, and never
// offer what the settings hide. IDs still work as before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { PERSONAL_KEY } from './harness.mjs';
import { createLargeHome } from './large-home.mjs';
import { call, expectCalls, withApp } from './mcp-client.mjs';

let b;
let home;
let client;
const { ok, fails } = expectCalls(() => client);
const devices = () => Object.values(home.devices);
const onoff = (id) => home.devices[id].capabilitiesObj.onoff.value;
/** An answer without the time it was made. */
const timeless = ({ at, ...rest }) => rest;

withApp(createLargeHome, { port: 0, mode: 'all' }, (booted) => ({ b, home, client } = booted));

describe('names where the tools take IDs', () => {
  test('zones by their names, Dutch and English, with articles and a typo: the same answer as by ID', async () => {
    const byId = await ok('get_home_structure', { zoneId: 'ground' });
    assert.deepEqual(byId.zones.map((z) => z.id).sort(), ['garage', 'ground', 'hal', 'kitchen', 'woonkamer']);
    assert.deepEqual(timeless(await ok('get_home_structure', { zoneId: 'Begane grond' })), timeless(byId));
    assert.deepEqual(timeless(await ok('get_home_structure', { zoneId: 'begane grnd' })), timeless(byId));
    assert.deepEqual(timeless(await ok('get_states', { zoneId: 'the kitchen', where: ['on'] })), timeless(await ok('get_states', { zoneId: 'kitchen', where: ['on'] })));
    assert.deepEqual(timeless(await ok('get_states', { zoneId: 'de studeerkamer' })), timeless(await ok('get_states', { zoneId: 'studeerkamer' })));
  });

  test('devices by name, alone and in lists; a light switched by its name', async () => {
    assert.equal((await ok('get_device', { deviceId: 'voordeur slot' })).id, 'voordeur-slot');
    const light = home.devices['d001-light'];
    assert.equal((await ok('get_device', { deviceId: light.name.toUpperCase() })).id, light.id);
    const listed = await ok('get_states', { deviceIds: ['Voordeur slot', 'd000-light', 'Garagedeur'] });
    assert.deepEqual(listed.devices.map((d) => d.id).sort(), ['d000-light', 'garagedeur', 'voordeur-slot']);
    const was = onoff(light.id);
    await ok('set_light', { deviceId: light.name, state: was ? 'off' : 'on' });
    assert.equal(onoff(light.id), !was);
    // IDs as before
    assert.equal((await ok('get_device', { deviceId: 'd000-light' })).id, 'd000-light');
  });

  test('names in a row are resolved on one reading of the home; a settings change reads it again', async () => {
    const wholeList = (from) => home.requests.slice(from).filter((r) => r.path === '/api/manager/devices/device').length;
    const byId = home.requests.length;
    await ok('get_states', { zoneId: 'hal' });
    const handler = wholeList(byId);
    await ok('get_device', { deviceId: 'Garagedeur' });
    const from = home.requests.length;
    assert.equal((await ok('get_device', { deviceId: 'Voordeur slot' })).id, 'voordeur-slot');
    assert.equal((await ok('get_states', { zoneId: 'Hal' })).devices.length > 0, true);
    assert.equal(wholeList(from), handler, 'only get_states reads the whole list, as by ID');
    b.homey.settings.set('readOnly', false);
    const again = home.requests.length;
    await ok('get_device', { deviceId: 'Voordeur slot' });
    assert.equal(wholeList(again), 1, 'the names are read again');
  });

  test('one name for two lights: "did you mean", with where each is, and nothing switched; the zone tells them apart', async () => {
    const lights = devices().filter((d) => d.class === 'light' && d.capabilitiesObj?.onoff);
    const first = lights.find((d) => d.zone === 'woonkamer');
    const second = lights.find((d) => d.zone === 'studeerkamer');
    assert.ok(first && second);
    const names = [first.name, second.name];
    first.name = 'Booglamp';
    second.name = 'Booglamp';
    try {
      const states = [onoff(first.id), onoff(second.id)];
      const r = await fails('set_light', { deviceId: 'Booglamp', state: 'toggle' }, /"Booglamp" may be more than one device \(2 devices called Booglamp: .*Woonkamer.*Studeerkamer|Studeerkamer.*Woonkamer/);
      assert.deepEqual(r.didYouMean.slice(0, 2).map((m) => m.id).sort(), [first.id, second.id].sort());
      assert.deepEqual(r.didYouMean.slice(0, 2).map((m) => m.zone).sort(), ['Studeerkamer', 'Woonkamer']);
      assert.deepEqual([onoff(first.id), onoff(second.id)], states, 'nothing was switched');
      await ok('set_light', { deviceId: 'de booglamp in de studeerkamer', state: 'toggle' });
      assert.deepEqual([onoff(first.id), onoff(second.id)], [states[0], !states[1]]);
      // in a list too: asked, not guessed
      await fails('get_states', { deviceIds: ['booglamp'] }, /may be more than one device/);
    } finally {
      [first.name, second.name] = names;
    }
  });

  test('Flows and moods by name', async () => {
    const overview = await ok('get_flow_overview', { device_ids: ['Voordeur slot'] });
    assert.deepEqual(overview.flows.map((f) => f.id).sort(), (await ok('get_flow_overview', { device_ids: ['voordeur-slot'] })).flows.map((f) => f.id).sort());
    assert.ok(overview.count >= 2);
    assert.equal((await ok('get_mood_details', { moodId: 'woonkamer sfeer' })).moods[0].id, 'mood-woonkamer');
    // a mood that unlocks the front door: refused, which says it found the one named
    await fails('set_mood', { moodName: 'vertrek' }, /Vertrek/);
    b.homey.settings.set('personalKey', PERSONAL_KEY);
    b.homey.settings.set('personalKeyEnabled', true);
    try {
      const started = await ok('start_flow', { flowName: 'welterusten' });
      assert.equal(started.flow.id, 'flow-nacht');
      assert.equal((await ok('start_flow', { flowId: 'radio keuken' })).flow.id, 'flow-ai-radio');
      assert.deepEqual(home.flowsStarted.slice(-2), ['flow-nacht', 'flow-ai-radio']);
    } finally {
      b.homey.settings.set('personalKeyEnabled', false);
    }
  });

  test('a name that matches nothing says where the IDs are listed', async () => {
    const r = await fails('get_device', { deviceId: 'xyzzy quux' }, /^no device with ID or name "xyzzy quux"$/);
    assert.match(r.hint, /get_home_structure/);
    await fails('get_states', { zoneId: 'xyzzy' }, /no zone with ID or name "xyzzy"/);
  });

  test('what the settings hide is neither found by name nor offered', async () => {
    const lights = devices().filter((d) => d.class === 'light' && d.capabilitiesObj?.onoff);
    const shown = lights.find((d) => d.zone === 'woonkamer');
    const hidden = lights.find((d) => d.zone === 'studeerkamer');
    const names = [shown.name, hidden.name];
    shown.name = 'Booglamp';
    hidden.name = 'Booglamp';
    b.homey.settings.set('hiddenZones', ['attic']);
    try {
      // the hidden one does not make the name ambiguous
      assert.equal((await ok('get_device', { deviceId: 'booglamp' })).id, shown.id);
      const r = await call(client, 'get_device', { deviceId: 'booglamp in de studeerkamer' });
      assert.ok(!JSON.stringify(r.data).includes(hidden.id), JSON.stringify(r.data));
      for (const zone of ['Zolder', 'Studeerkamer']) assert.ok(!JSON.stringify(r.data).includes(zone), JSON.stringify(r.data));
      // the hidden zone's name: not found, or other zones offered (never the hidden one)
      const zone = await fails('get_home_structure', { zoneId: 'Studeerkamer' }, /no zone with ID or name|may be more than one zone/);
      assert.ok(!(zone.didYouMean ?? []).some((m) => ['studeerkamer', 'attic'].includes(m.id)), JSON.stringify(zone));
      // by ID, as before: not there
      await fails('get_device', { deviceId: hidden.id }, /no device with ID/);
    } finally {
      [shown.name, hidden.name] = names;
      b.homey.settings.set('hiddenZones', []);
    }
  });
});
