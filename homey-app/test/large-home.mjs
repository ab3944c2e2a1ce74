// A realistic home for the app's tests and bench: 15 zones with Dutch and
// English names on three floors, 150 devices of 30-odd kinds from a dozen
// apps (with the fields a hub really returns, about 3 KB each), 60 Flows
// (simple and Advanced, in folders, some using the app's cards), moods,
// Insights logs, live energy and day, week and month energy reports with a
// fixed electricity price, users with their presence, and a Zigbee mesh whose
// nodes are the Zigbee devices. Made from a seed: the same home every run.
//
// It includes what a cautious owner cares about: a front door lock, a
// garage door, a driveway gate, a home alarm, a siren and a car that can be
// unlocked, so the tests can check that the assistant is refused there
// whatever tool it uses.
import { ANSWER, APP_ID, TRIGGER, homeObject } from './fake-home.mjs';

const HOUR = 3_600_000;

/** A small deterministic PRNG (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZONES = [
  // id, name, parent, icon
  ['home', 'Thuis', null, 'home'],
  ['ground', 'Begane grond', 'home', 'floor'],
  ['first', 'First floor', 'home', 'floor'],
  ['attic', 'Zolder', 'home', 'attic'],
  ['outside', 'Outside', 'home', 'garden'],
  ['woonkamer', 'Woonkamer', 'ground', 'livingRoom'],
  ['kitchen', 'Kitchen', 'ground', 'kitchen'],
  ['hal', 'Hal', 'ground', 'hallway'],
  ['garage', 'Garage', 'ground', 'garage'],
  ['master', 'Master bedroom', 'first', 'bedroom'],
  ['kinderkamer', 'Kinderkamer', 'first', 'bedroom'],
  ['badkamer', 'Badkamer', 'first', 'bathroom'],
  ['studeerkamer', 'Studeerkamer', 'attic', 'office'],
  ['tuin', 'Tuin', 'outside', 'garden'],
  ['oprit', 'Driveway', 'outside', 'garden'],
];

// kind: class, app, capabilities [id, type, value, options], names (nl/en mixed), zigbee?
const KINDS = {
  light: ['light', 'com.philips.hue', [['onoff', 'boolean', true], ['dim', 'number', 0.6, { min: 0, max: 1, step: 0.01, units: '%' }], ['light_temperature', 'number', 0.4, { min: 0, max: 1 }], ['light_hue', 'number', 0.1, { min: 0, max: 1 }], ['light_saturation', 'number', 0.5, { min: 0, max: 1 }], ['light_mode', 'enum', 'temperature', { values: ['color', 'temperature'] }]], ['Plafondlamp', 'Spots', 'Ceiling light', 'Hanglamp', 'Wandlamp', 'Leeslamp', 'Ledstrip'], true],
  bulb: ['light', 'com.ikea.tradfri', [['onoff', 'boolean', false], ['dim', 'number', 0.3, { min: 0, max: 1, step: 0.01, units: '%' }]], ['Lamp', 'Bulb', 'Bureaulamp', 'Nachtlamp'], true],
  socket: ['socket', 'com.fibaro', [['onoff', 'boolean', true], ['measure_power', 'number', 40, { units: 'W', setable: false }], ['meter_power', 'number', 120.5, { units: 'kWh', setable: false }]], ['Stopcontact', 'Plug', 'Koffiezetapparaat', 'Wasmachine', 'TV socket', 'Vaatwasser'], true],
  thermostat: ['thermostat', 'com.tado', [['target_temperature', 'number', 20, { min: 5, max: 30, step: 0.5, units: '°C' }], ['measure_temperature', 'number', 19.5, { units: '°C', setable: false }], ['thermostat_mode', 'enum', 'auto', { values: ['auto', 'heat', 'cool', 'off'] }]], ['Thermostaat', 'Radiator valve'], false],
  contact: ['sensor', 'com.aqara', [['alarm_contact', 'boolean', false, { setable: false }], ['measure_battery', 'number', 80, { units: '%', setable: false }]], ['Raam', 'Window', 'Deur', 'Door sensor'], true],
  motion: ['sensor', 'com.aqara', [['alarm_motion', 'boolean', false, { setable: false }], ['measure_luminance', 'number', 120, { units: 'lx', setable: false }], ['measure_battery', 'number', 64, { units: '%', setable: false }]], ['Bewegingssensor', 'Motion sensor'], true],
  climate: ['sensor', 'com.aqara', [['measure_temperature', 'number', 20.4, { units: '°C', setable: false }], ['measure_humidity', 'number', 55, { units: '%', setable: false }], ['measure_battery', 'number', 9, { units: '%', setable: false }]], ['Klimaatsensor', 'Temperature sensor'], true],
  blinds: ['windowcoverings', 'com.somfy', [['windowcoverings_set', 'number', 1, { min: 0, max: 1 }], ['windowcoverings_state', 'enum', 'idle', { values: ['up', 'idle', 'down'] }]], ['Rolluik', 'Screen', 'Blinds'], false],
  speaker: ['speaker', 'com.sonos', [['volume_set', 'number', 0.25, { min: 0, max: 1 }], ['speaker_playing', 'boolean', false]], ['Speaker', 'Sonos'], false],
  smoke: ['sensor', 'com.fibaro', [['alarm_smoke', 'boolean', false, { setable: false }], ['measure_battery', 'number', 90, { units: '%', setable: false }]], ['Rookmelder', 'Smoke detector'], true],
  water: ['sensor', 'com.aqara', [['alarm_water', 'boolean', false, { setable: false }], ['measure_battery', 'number', 70, { units: '%', setable: false }]], ['Lekkagesensor', 'Water leak sensor'], true],
  tv: ['tv', 'com.samsung', [['onoff', 'boolean', false], ['volume_set', 'number', 0.2, { min: 0, max: 1 }], ['measure_power', 'number', 0.5, { units: 'W', setable: false }]], ['TV', 'Televisie'], false],
  button: ['button', 'com.ikea.tradfri', [['measure_battery', 'number', 50, { units: '%', setable: false }]], ['Schakelaar', 'Remote'], true],
};

function capability(id, type, value, opts, ago, now) {
  const o = opts ?? {};
  return {
    id,
    type,
    title: id.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
    desc: null,
    value,
    setable: o.setable !== false,
    getable: true,
    insights: true,
    chartType: type === 'boolean' ? 'stepLine' : 'spline',
    decimals: type === 'number' ? 2 : undefined,
    ...(o.units ? { units: o.units } : {}),
    ...(o.min !== undefined ? { min: o.min } : {}),
    ...(o.max !== undefined ? { max: o.max } : {}),
    ...(o.step !== undefined ? { step: o.step } : {}),
    ...(o.values ? { values: o.values.map((v) => ({ id: v, title: v.charAt(0).toUpperCase() + v.slice(1) })) } : {}),
    iconObj: null,
    options: {},
    lastUpdated: new Date(now - ago * HOUR).toISOString(),
  };
}

function deviceObject(id, name, zone, cls, app, caps, now, rnd, extra = {}) {
  const ago = rnd() < 0.05 ? 30 + rnd() * 40 : rnd() * 3;
  const capabilitiesObj = Object.fromEntries(caps.map(([cid, type, value, opts]) => [cid, capability(cid, type, value, opts, ago, now)]));
  const zigbee = extra.zigbee;
  return {
    id,
    name,
    driverUri: `homey:app:${app}`,
    driverId: `homey:app:${app}:${cls}`,
    ownerUri: `homey:app:${app}`,
    zone,
    zoneName: undefined,
    icon: null,
    iconObj: { id: `icon-${cls}`, url: `/icon/${app}/${cls}.svg` },
    iconOverride: null,
    class: cls,
    virtualClass: extra.virtualClass ?? null,
    capabilities: Object.keys(capabilitiesObj),
    capabilitiesObj,
    flags: [],
    ui: { quickAction: caps.some(([c]) => c === 'onoff') ? 'onoff' : null, components: [] },
    uiIndicator: caps.find(([c]) => c.startsWith('measure_'))?.[0] ?? null,
    available: extra.available ?? true,
    unavailableMessage: extra.available === false ? 'Device is unreachable' : null,
    warningMessage: null,
    ready: true,
    repair: false,
    unpair: false,
    data: { id: `${app}-${id}` },
    settings: {
      ...(zigbee ? { zb_ieee_address: zigbee, zb_product_id: 'ZB-MODEL', zb_manufacturer_name: 'Manufacturer', zb_device_type: 'router' } : {}),
      energy_value_on: null,
      energy_value_off: null,
      report_interval: 300,
    },
    settingsObj: false,
    energy: caps.some(([c]) => c === 'measure_power') ? { approximation: null } : null,
    energyObj: caps.some(([c]) => c === 'measure_power') ? { approximation: null, cumulative: false, batteries: null } : null,
    images: [],
    insights: caps.map(([cid]) => ({ id: cid, title: cid, type: 'number', units: null, decimals: 2, chartType: 'spline' })),
    color: '#000000',
    note: null,
    lastSeenAt: new Date(now - ago * HOUR).toISOString(),
    ...extra.more,
  };
}

/** The realistic home: same shape as createHome() (fake-home.mjs), larger. */
export function createLargeHome(seed = 7) {
  const rnd = random(seed);
  const now = Date.now();
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const zones = Object.fromEntries(ZONES.map(([id, name, parent, icon]) => [id, { id, name, parent, icon, active: false, activeOrigins: [], activeLastUpdated: null }]));
  const devices = {};
  let ieee = 0x00158d0001000000;
  const add = (d) => {
    devices[d.id] = d;
    return d;
  };
  const used = new Set();

  // the protected ones: by class, and by capability alone (the car)
  add(deviceObject('voordeur-slot', 'Voordeur slot', 'hal', 'lock', 'com.nuki', [['locked', 'boolean', true], ['measure_battery', 'number', 60, { units: '%', setable: false }]], now, rnd));
  add(deviceObject('garagedeur', 'Garagedeur', 'garage', 'garagedoor', 'com.tuya', [['garagedoor_closed', 'boolean', true], ['onoff', 'boolean', false]], now, rnd));
  add(deviceObject('oprit-poort', 'Poort oprit', 'oprit', 'gate', 'com.tuya', [['onoff', 'boolean', false]], now, rnd));
  add(deviceObject('alarmsysteem', 'Alarmsysteem', 'hal', 'homealarm', 'com.ajax', [['homealarm_state', 'enum', 'armed', { values: ['armed', 'disarmed', 'partially_armed'] }]], now, rnd));
  add(deviceObject('sirene', 'Buitensirene', 'tuin', 'other', 'com.heiman', [['onoff', 'boolean', false], ['alarm_generic', 'boolean', false]], now, rnd));
  add(deviceObject('car-tesla', 'Family car', 'oprit', 'car', 'com.tesla', [['locked', 'boolean', true], ['measure_battery', 'number', 78, { units: '%', setable: false }]], now, rnd));
  add(deviceObject('p1-meter', 'Slimme meter', 'garage', 'sensor', 'com.homewizard', [['measure_power', 'number', 880, { units: 'W', setable: false }], ['meter_power', 'number', 8123.4, { units: 'kWh', setable: false }]], now, rnd, { more: { energyObj: { cumulative: true } } }));
  add(deviceObject('zonnepanelen', 'Zonnepanelen', 'attic', 'solarpanel', 'com.enphase', [['measure_power', 'number', -1850, { units: 'W', setable: false }], ['meter_power', 'number', 3021.7, { units: 'kWh', setable: false }]], now, rnd));

  const rooms = ZONES.filter(([id]) => !['home', 'ground', 'first', 'attic', 'outside'].includes(id)).map(([id, name]) => [id, name]);
  const kinds = Object.keys(KINDS);
  let n = 0;
  while (Object.keys(devices).length < 150) {
    const [zone, zoneName] = rooms[n % rooms.length];
    const kind = n < rooms.length * 2 ? (n < rooms.length ? 'light' : 'contact') : pick(kinds);
    const [cls, app, caps, names, zigbeeKind] = KINDS[kind];
    let name = `${pick(names)} ${zoneName.toLowerCase()}`;
    for (let i = 2; used.has(name); i++) name = `${pick(names)} ${zoneName.toLowerCase()} ${i}`;
    used.add(name);
    const values = caps.map(([c, t, v, o]) => {
      if (t === 'boolean') return [c, t, rnd() < 0.3 ? !v : v, o];
      if (t === 'number' && c === 'measure_battery') return [c, t, Math.round(5 + rnd() * 95), o];
      if (t === 'number' && c === 'measure_power') return [c, t, Math.round(rnd() * 300 * 10) / 10, o];
      return [c, t, v, o];
    });
    const zigbee = zigbeeKind ? `0x${(ieee++).toString(16).padStart(16, '0')}` : undefined;
    add(deviceObject(`d${String(n).padStart(3, '0')}-${kind}`, name, zone, cls, app, values, now, rnd, { zigbee, available: rnd() > 0.04, virtualClass: kind === 'socket' && rnd() < 0.2 ? 'light' : null }));
    n++;
  }

  const folders = {
    verlichting: { id: 'verlichting', name: 'Verlichting', parent: null },
    avond: { id: 'avond', name: 'Avond', parent: 'verlichting' },
    security: { id: 'security', name: 'Security', parent: null },
    energie: { id: 'energie', name: 'Energie', parent: null },
    ai: { id: 'ai', name: 'AI tools', parent: null },
  };
  const list = Object.values(devices);
  const flows = {};
  const advancedFlows = {};
  const onoffDevices = list.filter((d) => 'onoff' in d.capabilitiesObj && !['garagedoor', 'gate', 'other'].includes(d.class));
  // flows on ordinary devices, each in one zone
  for (let i = 0; Object.keys(flows).length + Object.keys(advancedFlows).length < 52; i++) {
    const d = onoffDevices[i % onoffDevices.length];
    const zoneName = zones[d.zone].name;
    const on = i % 2 === 0;
    const id = `flow-${String(i).padStart(2, '0')}`;
    if (i % 5 === 4) {
      advancedFlows[id] = {
        id,
        name: `${zoneName}: ${d.name} ${on ? 'aan' : 'uit'} bij beweging`,
        enabled: i % 7 !== 0,
        folder: pick(['verlichting', 'avond', null]),
        cards: {
          a: { id: 'homey:manager:cron:sunset', type: 'trigger', args: {} },
          b: { id: `homey:device:${d.id}:${on ? 'on' : 'off'}`, type: 'action', args: {} },
          c: { id: 'homey:manager:logic:variable_boolean', type: 'condition', args: { variable: 'guests_home' } },
        },
      };
    } else {
      flows[id] = {
        id,
        name: `${d.name} ${on ? 'on' : 'off'} at ${String(6 + (i % 17)).padStart(2, '0')}:00`,
        enabled: i % 9 !== 0,
        folder: pick(['verlichting', 'avond', 'energie', null]),
        trigger: { id: 'homey:manager:cron:time_exactly', args: { time: `${String(6 + (i % 17)).padStart(2, '0')}:00` } },
        conditions: [],
        actions: [{ id: `homey:device:${d.id}:${on ? 'on' : 'off'}`, args: {} }],
      };
    }
  }
  // flows on protected devices: unlock, open, disarm, and one that only locks (allowed)
  Object.assign(flows, {
    'flow-thuiskomst': { id: 'flow-thuiskomst', name: 'Thuiskomst', enabled: true, folder: 'security', trigger: { id: 'homey:manager:presence:user_enter', args: {} }, conditions: [], actions: [{ id: 'homey:device:voordeur-slot:unlock', args: {} }, { id: `homey:device:${onoffDevices[0].id}:on`, args: {} }] },
    'flow-garage-open': { id: 'flow-garage-open', name: 'Garage open', enabled: true, folder: 'security', trigger: { id: 'homey:manager:cron:time_exactly', args: { time: '07:30' } }, conditions: [], actions: [{ id: 'homey:device:garagedeur:garagedoor_open', args: {} }] },
    'flow-alarm-uit': { id: 'flow-alarm-uit', name: 'Alarm uit', enabled: true, folder: 'security', trigger: { id: 'homey:manager:cron:time_exactly', args: { time: '06:45' } }, conditions: [], actions: [{ id: 'homey:app:com.ajax:disarm', args: { device: { id: 'alarmsysteem', name: 'Alarmsysteem' } } }] },
    'flow-nacht': { id: 'flow-nacht', name: 'Welterusten', enabled: true, folder: 'security', trigger: { id: 'homey:manager:cron:time_exactly', args: { time: '23:30' } }, conditions: [], actions: [{ id: 'homey:device:voordeur-slot:lock', args: {} }, { id: `homey:device:${onoffDevices[1].id}:off`, args: {} }] },
    'flow-start-thuiskomst': { id: 'flow-start-thuiskomst', name: 'Iemand thuis', enabled: true, folder: null, trigger: { id: 'homey:manager:cron:time_exactly', args: { time: '17:00' } }, conditions: [], actions: [{ id: 'homey:manager:flow:programmatic_trigger', args: { flow: { id: 'flow-thuiskomst', name: 'Thuiskomst' } } }] },
  });
  // AI tool Flows (the app's trigger card)
  Object.assign(flows, {
    'flow-ai-radio': { id: 'flow-ai-radio', name: 'Radio keuken', enabled: true, folder: 'ai', trigger: { id: TRIGGER, args: { command: 'play_radio', description: 'Plays a radio station in the kitchen.', param1: 'station', type1: 'text' } }, conditions: [], actions: [{ id: ANSWER, args: { call: '[[call]]', answer: 'Playing [[text1]]' } }] },
    'flow-ai-door': { id: 'flow-ai-door', name: 'Deur open voor bezoek', enabled: true, folder: 'ai', trigger: { id: TRIGGER, args: { command: 'open_front_door', description: 'Opens the front door for a visitor.' } }, conditions: [], actions: [{ id: 'homey:device:voordeur-slot:unlock', args: {} }] },
  });
  // one AI tool Flow per room's first light, so each zone has a Flow tool of its own
  for (const [zone, zoneName] of rooms.slice(0, 1)) {
    const d = list.find((x) => x.zone === zone && x.class === 'light');
    flows[`flow-ai-${zone}`] = { id: `flow-ai-${zone}`, name: `${zoneName} gezellig`, enabled: true, folder: 'ai', trigger: { id: TRIGGER, args: { command: `cosy_${zone}`, description: `Makes the ${zoneName} cosy.` } }, conditions: [], actions: [{ id: `homey:device:${d.id}:dim`, args: { dim: 0.3 } }] };
  }

  const flowCards = {
    triggers: {
      [TRIGGER]: { id: TRIGGER, ownerUri: `homey:app:${APP_ID}`, title: 'An AI assistant calls a tool' },
      'homey:manager:cron:time_exactly': { id: 'homey:manager:cron:time_exactly', ownerUri: 'homey:manager:cron', title: 'The time is ...' },
      'homey:manager:cron:sunset': { id: 'homey:manager:cron:sunset', ownerUri: 'homey:manager:cron', title: 'The sun sets' },
      'homey:manager:presence:user_enter': { id: 'homey:manager:presence:user_enter', ownerUri: 'homey:manager:presence', title: 'Someone came home' },
    },
    conditions: {
      'homey:manager:logic:variable_boolean': { id: 'homey:manager:logic:variable_boolean', ownerUri: 'homey:manager:logic', title: 'Variable is true' },
    },
    actions: {
      [ANSWER]: { id: ANSWER, ownerUri: `homey:app:${APP_ID}`, title: 'Answer the AI assistant' },
      'homey:manager:flow:programmatic_trigger': { id: 'homey:manager:flow:programmatic_trigger', ownerUri: 'homey:manager:flow', title: 'Start a Flow' },
      'homey:app:com.ajax:disarm': { id: 'homey:app:com.ajax:disarm', ownerUri: 'homey:app:com.ajax', title: 'Disarm' },
    },
  };

  // every light and socket has its cards, as on a hub
  for (const d of list) {
    const caps = d.capabilitiesObj;
    const owner = `homey:device:${d.id}`;
    if ('onoff' in caps) {
      flowCards.actions[`${owner}:on`] = { id: `${owner}:on`, ownerUri: owner, title: `Turn on ${d.name}`, args: [] };
      flowCards.actions[`${owner}:off`] = { id: `${owner}:off`, ownerUri: owner, title: `Turn off ${d.name}`, args: [] };
      flowCards.conditions[`${owner}:on`] = { id: `${owner}:on`, ownerUri: owner, title: `${d.name} is turned on`, args: [] };
    }
    if ('dim' in caps) flowCards.actions[`${owner}:dim`] = { id: `${owner}:dim`, ownerUri: owner, title: `Dim ${d.name}`, args: [{ name: 'dim', type: 'range', min: 0, max: 1, title: { en: 'Brightness' } }] };
    if ('locked' in caps) {
      flowCards.actions[`${owner}:lock`] = { id: `${owner}:lock`, ownerUri: owner, title: `Lock ${d.name}`, args: [] };
      flowCards.actions[`${owner}:unlock`] = { id: `${owner}:unlock`, ownerUri: owner, title: `Unlock ${d.name}`, args: [] };
    }
  }
  Object.assign(flowCards.triggers['homey:manager:cron:time_exactly'], { args: [{ name: 'time', type: 'time', title: { en: 'Time' } }] });
  flowCards.actions['homey:manager:notifications:create_notification'] = { id: 'homey:manager:notifications:create_notification', ownerUri: 'homey:manager:notifications', title: 'Create a notification', args: [{ name: 'text', type: 'text' }] };
  flowCards.actions['homey:app:com.sonos:play_url'] = { id: 'homey:app:com.sonos:play_url', ownerUri: 'homey:app:com.sonos', title: 'Play a URL on a speaker', args: [{ name: 'device', type: 'device' }, { name: 'url', type: 'text' }, { name: 'volume', type: 'number', min: 0, max: 100, required: false }] };

  const moods = {};
  for (const [zone, zoneName] of rooms.slice(0, 8)) {
    const lights = list.filter((d) => d.zone === zone && d.class === 'light').slice(0, 3);
    if (!lights.length) continue;
    moods[`mood-${zone}`] = { id: `mood-${zone}`, name: `${zoneName} sfeer`, zone, devices: Object.fromEntries(lights.map((d) => [d.id, { state: { onoff: true, dim: 0.4 } }])) };
  }
  moods['mood-vertrek'] = { id: 'mood-vertrek', name: 'Vertrek', zone: 'hal', devices: { 'voordeur-slot': { state: { locked: false } } } };
  moods['mood-slapen'] = { id: 'mood-slapen', name: 'Slapen', zone: 'hal', devices: { 'voordeur-slot': { state: { locked: true } }, 'alarmsysteem': { state: { homealarm_state: 'partially_armed' } } } };

  const variables = {
    'var-guests': { id: 'var-guests', name: 'guests_home', type: 'boolean', value: false },
    'var-lux': { id: 'var-lux', name: 'lux_drempel', type: 'number', value: 120 },
  };
  const apps = Object.fromEntries([...new Set(list.map((d) => d.ownerUri.slice('homey:app:'.length))), APP_ID].map((id) => [id, { id, name: id, version: '1.0.0', state: 'running', enabled: true, crashed: false, crashedCount: 0, usage: { mem: 30 * 1024 * 1024, cpu: 0.2 } }]));

  const insightLogs = {};
  for (const d of list) {
    for (const [cid, cap] of Object.entries(d.capabilitiesObj)) {
      if (!cid.startsWith('measure_') && !cid.startsWith('alarm_')) continue;
      const id = `homey:device:${d.id}:${cid}`;
      insightLogs[id] = { id, ownerUri: `homey:device:${d.id}`, title: cap.title, type: cap.type, units: cap.units ?? null, lastValue: cap.value };
    }
  }
  insightLogs['homey:manager:weather:temperature'] = { id: 'homey:manager:weather:temperature', ownerUri: 'homey:manager:weather', title: 'Buitentemperatuur', type: 'number', units: '°C', lastValue: 8 };
  const insightEntries = (id, resolution) => {
    const points = resolution === 'lastHour' ? 12 : 288;
    const span = resolution === 'lastHour' ? HOUR : 24 * HOUR;
    const values = [];
    for (let i = 0; i < points; i++) values.push({ t: new Date(now - span + (i * span) / points).toISOString(), v: Math.round((18 + 3 * Math.sin(i / 20)) * 10) / 10 });
    return { values, start: values[0].t, end: values[values.length - 1].t, step: span / points };
  };

  // energy: kWh per metered device per day, from its id (stable), for the reports
  const metered = list.filter((d) => 'measure_power' in d.capabilitiesObj);
  const dailyKwh = new Map(metered.map((d, i) => [d.id, d.class === 'solarpanel' ? -(8 + (i % 5)) : Math.round((0.2 + ((i * 37) % 50) / 10) * 100) / 100]));
  const energy = { priceFixed: 0.32, currency: 'EUR', dailyKwh };

  const zigbeeNodes = {};
  let nwk = 1000;
  zigbeeNodes.coordinator = { ieeeAddress: '0x00158d0000000001', networkAddress: 0, name: 'Homey', type: 'Coordinator', lastSeen: now, stats: { tx: 9000, txError: 10, rx: 40000 } };
  const routesTable = {};
  const zigbeeDevices = list.filter((d) => d.settings.zb_ieee_address);
  zigbeeDevices.forEach((d, i) => {
    const router = d.class === 'light' || d.class === 'socket';
    const address = nwk++;
    // some nodes keep the name they had when paired (the device was renamed since)
    const name = i % 10 === 3 ? `${d.name.split(' ')[0]} (paired)` : d.name;
    zigbeeNodes[d.settings.zb_ieee_address] = { ieeeAddress: d.settings.zb_ieee_address, networkAddress: address, name, type: router ? 'Router' : 'EndDevice', lastSeen: d.available ? now - rnd() * HOUR : now - 40 * HOUR, modelId: 'model', manufacturerName: 'maker', stats: { tx: 100 + i, txError: i % 13 === 0 ? 30 : 1, rx: 300 } };
    if (!router && i > 0) routesTable[address] = [1000 + ((i - 1) % 20)];
  });
  const zigbee = { zigbee_ready: true, controllerState: { channel: 20, networkKey: 'SECRET-NETWORK-KEY', routes: routesTable }, nodes: zigbeeNodes };

  const users = {
    'user-anna': { id: 'user-anna', name: 'Anna', role: 'owner', present: true, asleep: false, enabled: true, verified: true },
    'user-joris': { id: 'user-joris', name: 'Joris', role: 'user', present: false, asleep: false, enabled: true, verified: true },
    'user-emma': { id: 'user-emma', name: 'Emma', role: 'user', present: true, asleep: true, enabled: true, verified: true },
  };

  const system = {
    info: { homeyVersion: '12.4.0', homeyModelName: 'Homey Pro (Early 2023)', homeyName: 'Thuis', bootDate: new Date(now - 50 * HOUR).toISOString(), uptime: 50 * 3600, wifiConnected: false, ethernetConnected: true, cloudId: 'SECRET-CLOUD-ID' },
    memory: { total: 4096 * 1024 * 1024, free: 1400 * 1024 * 1024, types: {} },
    storage: { total: 32768 * 1024 * 1024, free: 20000 * 1024 * 1024, types: {} },
  };

  return homeObject({
    id: 'fake-homey-large',
    zones,
    devices,
    folders,
    flows,
    advancedFlows,
    flowCards,
    moods,
    variables,
    apps,
    insightLogs,
    insightEntries,
    alarms: {},
    nextAlarm: 1,
    zigbee,
    system,
    energy,
    users,
    notifications: [],
  });
}
