// What an owner asks of the realistic home (large-home.mjs): which windows
// are open, which lights are on, low batteries and offline devices; energy
// used today, this week and this month with its cost; a note on the
// timeline; who is home; Flows made by talking.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { createLargeHome } from './large-home.mjs';
import { bootApp, PERSONAL_KEY } from './harness.mjs';
import { call, connect } from './mcp-client.mjs';

let b;
let home;
let client;
const ok = async (name, args = {}) => {
  const r = await call(client, name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r.data).slice(0, 400)}`);
  return r.data;
};
const fails = async (name, args, pattern) => {
  const r = await call(client, name, args);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.data).slice(0, 300)}`);
  assert.match(r.data.error ?? r.data.text ?? '', pattern);
  return r.data;
};

before(async () => {
  home = createLargeHome();
  b = await bootApp({ home, settings: { port: 0, mode: 'all' } });
  const status = await b.app.status();
  ({ client } = await connect(`http://127.0.0.1:${status.server.port}/mcp`, status.token));
});
after(async () => {
  await client.close();
  await b.close();
});

const devices = () => Object.values(home.devices);
const value = (d, id) => d.capabilitiesObj[id]?.value;
const ids = (list) => list.map((d) => d.id).sort();

describe('get_states filters by state', () => {
  test('open windows and doors, lights that are on, unlocked locks: only those devices and the values that matched', async () => {
    const open = await ok('get_states', { where: ['open'] });
    const expected = devices().filter((d) => value(d, 'alarm_contact') === true || value(d, 'garagedoor_closed') === false || (value(d, 'windowcoverings_set') > 0 && value(d, 'alarm_contact') === undefined));
    assert.ok(expected.length >= 3, 'the home has open windows');
    assert.deepEqual(ids(open.devices), ids(expected));
    for (const d of open.devices) assert.ok(Object.keys(d.capabilities).length === 1, JSON.stringify(d.capabilities));
    const lightsOn = await ok('get_states', { where: ['on'], deviceClass: 'light' });
    assert.deepEqual(ids(lightsOn.devices), ids(devices().filter((d) => (d.virtualClass || d.class) === 'light' && value(d, 'onoff') === true)));
    assert.deepEqual(Object.keys(lightsOn.devices[0].capabilities), ['onoff']);
    const kitchenOn = await ok('get_states', { where: ['on'], zoneId: 'kitchen' });
    assert.ok(kitchenOn.devices.every((d) => d.zone === 'Kitchen'));
    home.devices['car-tesla'].capabilitiesObj.locked.value = false;
    const unlocked = await ok('get_states', { where: ['unlocked'] });
    assert.deepEqual(ids(unlocked.devices), ['car-tesla']);
    home.devices['car-tesla'].capabilitiesObj.locked.value = true;
    assert.equal((await ok('get_states', { where: ['unlocked'] })).count, 0);
  });

  test('low batteries (with a threshold), offline devices, raised alarms, and states combined', async () => {
    const low = await ok('get_states', { where: ['low_battery'] });
    assert.deepEqual(ids(low.devices), ids(devices().filter((d) => value(d, 'measure_battery') <= 20)));
    assert.ok(low.devices.every((d) => Object.keys(d.capabilities).join() === 'measure_battery'));
    const lower = await ok('get_states', { where: ['low_battery'], batteryBelow: 10 });
    assert.ok(lower.count < low.count && lower.count > 0, `${lower.count} of ${low.count}`);
    const offline = await ok('get_states', { where: ['offline'] });
    assert.deepEqual(ids(offline.devices), ids(devices().filter((d) => d.available === false)));
    assert.ok(offline.count > 0);
    const alarms = await ok('get_states', { where: ['alarm'] });
    assert.deepEqual(ids(alarms.devices), ids(devices().filter((d) => Object.entries(d.capabilitiesObj).some(([id, c]) => id.startsWith('alarm_') && c.value === true))));
    const both = await ok('get_states', { where: ['open', 'low_battery'] });
    assert.deepEqual(ids(both.devices), ids(devices().filter((d) => value(d, 'alarm_contact') === true && value(d, 'measure_battery') <= 20)));
    await fails('get_states', { where: ['ajar'] }, /where\/0: must be one of/);
  });

  test('the filtered answer is a fraction of the whole', async () => {
    const all = JSON.stringify(await ok('get_states', {}));
    const open = JSON.stringify(await ok('get_states', { where: ['open'] }));
    assert.ok(open.length * 10 < all.length, `${open.length} against ${all.length}`);
  });
});

describe('energy used over a day, week or month', () => {
  /** The fake hub's own report, read as a client would. */
  const report = async (kind, key) => {
    const param = { day: 'date', week: 'isoWeek', month: 'yearMonth' }[kind];
    const res = await fetch(`${b.api.url}/api/manager/energy/report/${kind}?${param}=${key}`, { headers: { authorization: `Bearer ${PERSONAL_KEY}` } });
    return res.json();
  };
  const local = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

  test('today: kWh per device and zone, the meter apart, the cost from the hub\'s price', async () => {
    const today = await ok('get_energy_usage', { period: 'today', top: 200 });
    assert.equal(today.date, local);
    assert.equal(today.timeZone, 'Europe/Amsterdam');
    const items = (await report('day', local)).items.filter((i) => home.devices[i.id].energyObj?.cumulative !== true);
    const used = items.filter((i) => i.values.kWh > 0).reduce((n, i) => n + i.values.kWh, 0);
    assert.ok(Math.abs(today.consumedKWh - used) < 0.01, `${today.consumedKWh} against ${used}`);
    assert.ok(today.producedKWh > 0, 'the solar panels produced');
    assert.deepEqual(today.meters.map((m) => m.name), ['Slimme meter']);
    assert.ok(!today.devices.some((d) => d.name === 'Slimme meter'), 'the meter is not added to the devices');
    assert.equal(today.cost.currency, 'EUR');
    assert.equal(today.cost.pricePerKWh, 0.32);
    assert.ok(Math.abs(today.cost.total - used * 0.32) < 0.05, `${today.cost.total}`);
    const zoneSum = Object.values(today.byZone).reduce((n, v) => n + v, 0);
    assert.ok(Math.abs(zoneSum - (today.consumedKWh - today.producedKWh)) < 0.01);
    const top = await ok('get_energy_usage', {});
    assert.equal(top.devices.length, 10);
    assert.ok(Math.abs(top.devices[0].kWh) >= Math.abs(top.devices[9].kWh), "largest first");
  });

  test('yesterday, this and last week, this and last month; per zone and per device', async () => {
    const [y, m] = local.split('-').map(Number);
    const yesterday = await ok('get_energy_usage', { period: 'yesterday' });
    assert.notEqual(yesterday.date, local);
    assert.equal(new Date(`${local}T12:00:00Z`) - new Date(`${yesterday.date}T12:00:00Z`), 86_400_000);
    const week = await ok('get_energy_usage', { period: 'this_week' });
    assert.match(week.isoWeek, /^\d{4}-W\d\d$/);
    const lastWeek = await ok('get_energy_usage', { period: 'last_week' });
    assert.notEqual(lastWeek.isoWeek, week.isoWeek);
    const month = await ok('get_energy_usage', { period: 'this_month' });
    assert.equal(month.month, `${y}-${String(m).padStart(2, '0')}`);
    assert.ok(month.consumedKWh > week.consumedKWh / 7, 'a month holds more than a day');
    const lastMonth = await ok('get_energy_usage', { period: 'last_month' });
    assert.equal(lastMonth.month, m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`);
    const kitchen = await ok('get_energy_usage', { period: 'this_month', zoneId: 'kitchen', top: 200 });
    assert.ok(kitchen.devices.length > 0 && kitchen.devices.every((d) => d.zone === 'Kitchen'));
    assert.deepEqual(Object.keys(kitchen.byZone), ['Kitchen']);
    const one = kitchen.devices[0];
    const single = await ok('get_energy_usage', { period: 'this_month', deviceIds: [one.id] });
    assert.deepEqual(single.devices, [one]);
    assert.equal(single.consumedKWh, one.kWh > 0 ? one.kWh : 0);
    await fails('get_energy_usage', { period: 'last_year' }, /period: must be one of/);
  });

  test('without a price on the hub there is no cost', async () => {
    const price = home.energy.priceFixed;
    home.energy.priceFixed = null;
    const today = await ok('get_energy_usage', {});
    assert.equal(today.cost, undefined);
    home.energy.priceFixed = price;
  });
});

describe('the household: the timeline and who is home', () => {
  test('create_notification writes to the timeline', async () => {
    const data = await ok('create_notification', { text: '  The **washing** is done  ' });
    assert.equal(data.text, 'The **washing** is done');
    assert.deepEqual(home.notifications.map((n) => n.excerpt), ['The **washing** is done']);
    await fails('create_notification', { text: '' }, /text/);
  });

  test('get_presence: refused to the app\'s token with the ways around it; with the personal key, who is home and asleep', async () => {
    const refused = await fails('get_presence', {}, /Reading who is home needs the Homey permission "homey\.user\.readonly"/);
    assert.equal(refused.missingScope, 'homey.user.readonly');
    b.homey.settings.set('personalKey', PERSONAL_KEY);
    b.homey.settings.set('personalKeyEnabled', true);
    const data = await ok('get_presence', {});
    assert.deepEqual(data.home, ['Anna', 'Emma']);
    assert.deepEqual(data.away, ['Joris']);
    assert.equal(data.users.find((u) => u.name === 'Emma').asleep, true);
    assert.equal(data.anyoneHome, true);
    assert.doesNotMatch(JSON.stringify(data), /user-anna/, 'no user IDs');
    b.homey.settings.set('personalKeyEnabled', false);
  });
});

describe('Flows by talking', () => {
  const light = () => Object.values(home.devices).find((d) => d.zone === 'woonkamer' && 'dim' in d.capabilitiesObj);
  const morning = () => ({
    action: 'create',
    name: 'Ochtendlicht woonkamer',
    trigger: { card: 'homey:manager:cron:time_exactly', args: { time: '07:00' } },
    actions: [{ card: `homey:device:${light().id}:dim`, args: { dim: 0.5 } }, { card: 'homey:manager:notifications:create_notification', args: { text: 'Goedemorgen' } }],
  });

  test('get_flow_cards: the hub\'s cards with their arguments, by type, words, device and owner', async () => {
    const dim = await ok('get_flow_cards', { deviceId: light().id, type: 'action' });
    assert.deepEqual(dim.cards.map((c) => c.id).sort(), [`homey:device:${light().id}:dim`, `homey:device:${light().id}:off`, `homey:device:${light().id}:on`]);
    assert.deepEqual(dim.cards.find((c) => c.id.endsWith(':dim')).args, [{ name: 'dim', type: 'range', title: 'Brightness', min: 0, max: 1 }]);
    const time = await ok('get_flow_cards', { type: 'trigger', query: 'time' });
    assert.deepEqual(time.cards.map((c) => c.id), ['homey:manager:cron:time_exactly']);
    const sonos = await ok('get_flow_cards', { owner: 'com.sonos' });
    assert.equal(sonos.cards[0].args.find((a) => a.name === 'volume').optional, true);
  });

  test('a dry run and the checks need no key; writing does', async () => {
    const before = Object.keys(home.flows).length;
    const dry = await ok('manage_flow', { ...morning(), dryRun: true });
    assert.equal(dry.wouldCreate.enabled, false);
    assert.equal(dry.wouldCreate.folder, 'AI');
    assert.match(dry.note, /the folder "AI" would be made/);
    assert.deepEqual(dry.wouldCreate.actions[0], { id: `homey:device:${light().id}:dim`, args: { dim: 0.5 } });
    assert.equal(Object.keys(home.flows).length, before, 'nothing was written');
    await fails('manage_flow', { ...morning(), actions: [{ card: `homey:device:${light().id}:dim`, args: { dim: 5 } }] }, /actions\/0 \(Dim .*\): .*dim.*must/);
    await fails('manage_flow', { ...morning(), trigger: { card: 'homey:manager:cron:time_exactly' } }, /trigger .*time: required/);
    await fails('manage_flow', { ...morning(), actions: [{ card: 'homey:device:nope:on' }] }, /the hub has no action card "homey:device:nope:on"/);
    const refused = await fails('manage_flow', morning(), /Making a Flow needs the Homey permission "homey\.flow"/);
    assert.equal(refused.missingScope, 'homey.flow');
  });

  test('with the personal key: made disabled in "AI", read back, enabled, changed, deleted; only what the app made', async () => {
    b.homey.settings.set('personalKey', PERSONAL_KEY);
    b.homey.settings.set('personalKeyEnabled', true);
    const made = await ok('manage_flow', morning());
    const id = made.created.id;
    assert.deepEqual(made.readBack, { same: true });
    const stored = home.flows[id];
    assert.equal(stored.enabled, false);
    assert.equal(home.folders[stored.folder].name, 'AI');
    assert.deepEqual(b.homey.settings.get('madeFlows'), [id]);
    const enabled = await ok('manage_flow', { action: 'update', flowId: id, enabled: true });
    assert.deepEqual(enabled.readBack, { same: true });
    assert.equal(home.flows[id].enabled, true);
    assert.equal(home.flows[id].actions.length, 2, 'the actions were kept');
    const changed = await ok('manage_flow', { action: 'update', flowId: id, actions: [{ card: `homey:device:${light().id}:on` }] });
    assert.deepEqual(changed.changed.actions, [{ id: `homey:device:${light().id}:on`, args: {} }]);
    assert.ok((await ok('get_flow_overview', {})).flows.some((f) => f.id === id && f.folder === 'AI'));
    // an Advanced Flow: one chain of cards
    const adv = await ok('manage_flow', { ...morning(), advanced: true, name: 'Avond', conditions: [{ card: `homey:device:${light().id}:on`, inverted: true }] });
    assert.deepEqual(adv.readBack, { same: true });
    const cards = Object.values(home.advancedFlows[adv.created.id].cards);
    assert.deepEqual(cards.map((c) => c.type), ['trigger', 'condition', 'action', 'action']);
    assert.equal(cards[1].inverted, true);
    assert.equal(home.advancedFlows[adv.created.id].folder, home.flows[id].folder, 'the same folder "AI"');
    // the hub storing something else shows in the comparison
    home.onSaveFlow = (flow) => {
      flow.actions[0].args = {};
    };
    const odd = await ok('manage_flow', morning());
    home.onSaveFlow = undefined;
    assert.deepEqual(odd.readBack, { same: false, differences: ['actions/0'] });
    // deleting: only what the app made
    await fails('manage_flow', { action: 'delete', flowId: 'flow-nacht' }, /the app deletes only Flows it made; "Welterusten" was not made by it/);
    assert.ok(home.flows['flow-nacht']);
    const dryDelete = await ok('manage_flow', { action: 'delete', flowId: id, dryRun: true });
    assert.equal(dryDelete.wouldDelete.id, id);
    await ok('manage_flow', { action: 'delete', flowId: id });
    assert.equal(home.flows[id], undefined);
    assert.ok(!b.homey.settings.get('madeFlows').includes(id));
    await ok('manage_flow', { action: 'delete', flowId: adv.created.id });
    await ok('manage_flow', { action: 'delete', flowId: odd.created.id });
    assert.deepEqual(b.homey.settings.get('madeFlows'), []);
  });

  test('a Flow that would unlock a protected device, or use a hidden one, is not made', async () => {
    await fails('manage_flow', { ...morning(), actions: [{ card: 'homey:device:voordeur-slot:unlock' }] }, /"Voordeur slot" \(a lock\) is not allowed for AI assistants/);
    await ok('manage_flow', { ...morning(), actions: [{ card: 'homey:device:voordeur-slot:lock' }], dryRun: true });
    await fails('manage_flow', { action: 'update', flowId: 'flow-thuiskomst', enabled: true }, /"Voordeur slot"/);
    b.homey.settings.set('hiddenZones', ['woonkamer']);
    await fails('manage_flow', morning(), /the hub has no action card/);
    assert.equal((await ok('get_flow_cards', { deviceId: light().id })).count, 0, 'a hidden device has no cards');
    b.homey.settings.set('hiddenZones', []);
    b.homey.settings.set('personalKeyEnabled', false);
  });
});
