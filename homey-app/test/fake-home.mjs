// A simulated home for the app's tests: zones, devices with capabilities and
// timestamps, Flows (some using the app's cards), moods, Logic variables,
// apps, insights, live energy, alarms, the Zigbee mesh and the hub's health.
// The fake Web API (fake-homey-api.mjs) serves it and the fake runtime
// (harness.mjs) triggers its Flows; both act on this one object.
import { EventEmitter } from 'node:events';

export const APP_ID = 'org.mcpswitchboard.hub';
export const TRIGGER = `homey:app:${APP_ID}:ai_tool_called`;
export const ANSWER = `homey:app:${APP_ID}:ai_tool_answer`;

const HOUR = 3_600_000;

function cap(id, type, value, { title = id, units, min, max, step, setable = true, values, ago = 0.1 } = {}, now = Date.now()) {
  return {
    id,
    type,
    title,
    value,
    setable,
    getable: true,
    ...(units ? { units } : {}),
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    ...(step !== undefined ? { step } : {}),
    ...(values ? { values: values.map((v) => ({ id: v, title: v })) } : {}),
    lastUpdated: new Date(now - ago * HOUR).toISOString(),
  };
}

function device(id, name, zone, cls, app, caps, extra = {}) {
  return {
    id,
    name,
    zone,
    class: cls,
    driverId: `homey:app:${app}:${cls}`,
    ownerUri: `homey:app:${app}`,
    available: true,
    ready: true,
    capabilities: caps.map((c) => c.id),
    capabilitiesObj: Object.fromEntries(caps.map((c) => [c.id, c])),
    ...extra,
  };
}

export function createHome() {
  const now = Date.now();
  const zones = {
    home: { id: 'home', name: 'Home', parent: null, icon: 'home' },
    living: { id: 'living', name: 'Living room', parent: 'home', icon: 'livingRoom' },
    kitchen: { id: 'kitchen', name: 'Kitchen', parent: 'home', icon: 'kitchen' },
    bedroom: { id: 'bedroom', name: 'Bedroom', parent: 'home', icon: 'bedroom' },
    hallway: { id: 'hallway', name: 'Hallway', parent: 'home', icon: 'hallway' },
    garden: { id: 'garden', name: 'Garden', parent: 'home', icon: 'garden' },
    office: { id: 'office', name: 'Office', parent: 'home', icon: 'office' },
    desk: { id: 'desk', name: 'Desk corner', parent: 'office', icon: 'office' },
  };
  const devices = Object.fromEntries(
    [
      device('living-ceiling', 'Ceiling light', 'living', 'light', 'com.philips.hue', [cap('onoff', 'boolean', false), cap('dim', 'number', 0.8, { min: 0, max: 1, step: 0.01 })]),
      device('living-lamp', 'Reading lamp', 'living', 'light', 'com.philips.hue', [
        cap('onoff', 'boolean', true),
        cap('dim', 'number', 0.4, { min: 0, max: 1 }),
        cap('light_temperature', 'number', 0.5, { min: 0, max: 1 }),
        cap('light_hue', 'number', 0.1, { min: 0, max: 1 }),
        cap('light_saturation', 'number', 0.5, { min: 0, max: 1 }),
        cap('light_mode', 'enum', 'temperature', { values: ['color', 'temperature'] }),
      ]),
      device('living-thermostat', 'Thermostat', 'living', 'thermostat', 'com.tado', [
        cap('target_temperature', 'number', 20, { min: 5, max: 30, step: 0.5, units: '°C' }),
        cap('measure_temperature', 'number', 19.5, { units: '°C', setable: false }),
        cap('thermostat_mode', 'enum', 'auto', { values: ['auto', 'heat', 'cool', 'off'] }),
      ]),
      device('kitchen-spots', 'Kitchen spots', 'kitchen', 'light', 'com.ikea.tradfri', [cap('onoff', 'boolean', false, { ago: 3 }), cap('dim', 'number', 1, { min: 0, max: 1 })]),
      device('kitchen-speaker', 'Kitchen speaker', 'kitchen', 'speaker', 'com.sonos', [cap('volume_set', 'number', 0.25, { min: 0, max: 1 }), cap('speaker_playing', 'boolean', false)]),
      device('kitchen-socket', 'Coffee machine', 'kitchen', 'socket', 'com.fibaro', [cap('onoff', 'boolean', true), cap('measure_power', 'number', 15, { units: 'W', setable: false })]),
      device('bedroom-lamp', 'Bedside lamp', 'bedroom', 'light', 'com.ikea.tradfri', [cap('onoff', 'boolean', false, { ago: 10 }), cap('dim', 'number', 0.3, { min: 0, max: 1, ago: 10 })]),
      device('hallway-door', 'Front door', 'hallway', 'sensor', 'com.aqara', [
        cap('alarm_contact', 'boolean', false, { setable: false, ago: 30 }),
        cap('measure_battery', 'number', 12, { units: '%', setable: false, ago: 30 }),
      ]),
      device('hallway-lock', 'Front door lock', 'hallway', 'lock', 'com.nuki', [cap('locked', 'boolean', true)]),
      device('garden-pump', 'Pond pump', 'garden', 'socket', 'com.fibaro', [cap('onoff', 'boolean', true), cap('measure_power', 'number', 42, { units: 'W', setable: false })]),
      device('garden-solar', 'Solar panels', 'garden', 'solarpanel', 'com.enphase', [cap('measure_power', 'number', -1200, { units: 'W', setable: false })]),
      device('office-pc', 'Office computer', 'office', 'socket', 'com.fibaro', [cap('onoff', 'boolean', true), cap('measure_power', 'number', 90, { units: 'W', setable: false })]),
      device('desk-lamp', 'Desk lamp', 'desk', 'light', 'com.ikea.tradfri', [cap('onoff', 'boolean', false), cap('dim', 'number', 0.5, { min: 0, max: 1 })]),
    ].map((d) => [d.id, d]),
  );

  const folders = {
    lights: { id: 'lights', name: 'Lights', parent: null },
    evening: { id: 'evening', name: 'Evening', parent: 'lights' },
    ai: { id: 'ai', name: 'AI tools', parent: null },
  };

  const flows = {
    'flow-radio': {
      id: 'flow-radio',
      name: 'Kitchen radio',
      enabled: true,
      folder: 'ai',
      trigger: { id: TRIGGER, args: { command: 'play_radio', description: 'Plays a radio station on the kitchen speaker.', param1: 'station', type1: 'text', param2: 'volume', type2: 'number_optional' } },
      conditions: [],
      actions: [
        { id: 'homey:device:kitchen-speaker:volume_set', args: { volume: '[[number2]]' } },
        { id: ANSWER, args: { call: '[[call]]', answer: 'Now playing [[text1]] at volume [[number2]]' } },
      ],
    },
    'flow-away': {
      id: 'flow-away',
      name: 'Away mode',
      enabled: false,
      folder: 'ai',
      trigger: { id: TRIGGER, args: { command: 'away_mode', description: 'Switches everything off.' } },
      conditions: [],
      actions: [{ id: 'homey:device:garden-pump:off', args: {} }],
    },
    'flow-reserved': {
      id: 'flow-reserved',
      name: 'Clashing name',
      enabled: true,
      folder: 'ai',
      trigger: { id: TRIGGER, args: { command: 'get_states', description: 'Takes a built-in name.' } },
      conditions: [],
      actions: [],
    },
    'flow-morning': {
      id: 'flow-morning',
      name: 'Good morning',
      enabled: true,
      folder: 'lights',
      trigger: { id: 'homey:manager:cron:time_exactly', args: { time: '07:00' } },
      conditions: [{ id: 'homey:manager:logic:variable_boolean', args: { variable: 'guests_home' }, inverted: true }],
      actions: [
        { id: 'homey:device:kitchen-spots:on', args: {} },
        { id: 'homey:device:kitchen-speaker:volume_set', args: { volume: 0.2 } },
      ],
    },
    'flow-office': {
      id: 'flow-office',
      name: 'Office off at night',
      enabled: true,
      folder: null,
      trigger: { id: 'homey:manager:cron:time_exactly', args: { time: '23:00' } },
      conditions: [],
      actions: [{ id: 'homey:device:office-pc:off', args: {} }],
    },
  };
  const advancedFlows = {
    'adv-evening': {
      id: 'adv-evening',
      name: 'Evening lights',
      enabled: true,
      folder: 'evening',
      cards: {
        c1: { id: TRIGGER, type: 'trigger', args: { command: 'evening_lights', description: 'Sets the living room for the evening.', param1: 'bright', type1: 'yesno' } },
        c2: { id: 'homey:manager:cron:sunset', type: 'trigger', args: {} },
        c3: { id: 'homey:device:living-lamp:dim', type: 'action', args: { dim: 0.3 } },
      },
    },
  };

  const flowCards = {
    triggers: {
      [TRIGGER]: { id: TRIGGER, ownerUri: `homey:app:${APP_ID}`, title: 'An AI assistant calls a tool' },
      'homey:manager:cron:time_exactly': { id: 'homey:manager:cron:time_exactly', ownerUri: 'homey:manager:cron', title: 'The time is ...' },
      'homey:manager:cron:sunset': { id: 'homey:manager:cron:sunset', ownerUri: 'homey:manager:cron', title: 'The sun sets' },
    },
    conditions: {
      'homey:manager:logic:variable_boolean': { id: 'homey:manager:logic:variable_boolean', ownerUri: 'homey:manager:logic', title: 'Variable is true' },
    },
    actions: {
      [ANSWER]: { id: ANSWER, ownerUri: `homey:app:${APP_ID}`, title: 'Answer the AI assistant' },
      'homey:device:kitchen-spots:on': { id: 'homey:device:kitchen-spots:on', ownerUri: 'homey:device:kitchen-spots', title: 'Turn on' },
      'homey:device:kitchen-speaker:volume_set': { id: 'homey:device:kitchen-speaker:volume_set', ownerUri: 'homey:device:kitchen-speaker', title: 'Set volume' },
      'homey:app:com.sonos:play_url': { id: 'homey:app:com.sonos:play_url', ownerUri: 'homey:app:com.sonos', title: 'Play a URL' },
    },
  };

  const moods = {
    'mood-movie': { id: 'mood-movie', name: 'Movie night', zone: 'living', preset: 'relax', devices: { 'living-lamp': { state: { onoff: true, dim: 0.2 } }, 'living-ceiling': { state: { onoff: false } } } },
    'mood-dinner': { id: 'mood-dinner', name: 'Dinner', zone: 'kitchen', devices: { 'kitchen-spots': { state: { onoff: true, dim: 0.6 } }, 'living-lamp': { state: { onoff: true, dim: 0.5 } } } },
    'mood-focus': { id: 'mood-focus', name: 'Focus', zone: 'office', devices: { 'desk-lamp': { state: { onoff: true, dim: 1 } } } },
  };

  const variables = {
    'var-lux': { id: 'var-lux', name: 'lux_threshold', type: 'number', value: 120 },
    'var-guests': { id: 'var-guests', name: 'guests_home', type: 'boolean', value: false },
    'var-note': { id: 'var-note', name: 'last_announcement', type: 'string', value: 'Dinner is ready' },
  };

  const apps = Object.fromEntries(
    [
      ['com.philips.hue', 'Philips Hue', 'running', 52],
      ['com.ikea.tradfri', 'IKEA TRÅDFRI', 'running', 31],
      ['com.sonos', 'Sonos', 'running', 40],
      ['com.fibaro', 'FIBARO', 'running', 28],
      ['com.aqara', 'Aqara', 'crashed', 0],
      ['com.tado', 'tado°', 'running', 35],
      [APP_ID, 'MCP Switchboard', 'running', 45],
    ].map(([id, name, state, mem]) => [
      id,
      { id, name, version: '1.2.3', state, enabled: true, crashed: state === 'crashed', crashedCount: state === 'crashed' ? 3 : 0, ...(state === 'crashed' ? { crashedMessage: 'out of memory' } : {}), usage: { mem: mem * 1024 * 1024, cpu: 0.4 } },
    ]),
  );

  const insightLogs = {
    'homey:device:living-thermostat:measure_temperature': { id: 'homey:device:living-thermostat:measure_temperature', ownerUri: 'homey:device:living-thermostat', title: 'Temperature', type: 'number', units: '°C', lastValue: 19.5 },
    'homey:device:hallway-door:alarm_contact': { id: 'homey:device:hallway-door:alarm_contact', ownerUri: 'homey:device:hallway-door', title: 'Contact alarm', type: 'boolean', lastValue: false },
    'homey:device:garden-pump:measure_power': { id: 'homey:device:garden-pump:measure_power', ownerUri: 'homey:device:garden-pump', title: 'Power', type: 'number', units: 'W', lastValue: 42 },
    'homey:device:office-pc:measure_power': { id: 'homey:device:office-pc:measure_power', ownerUri: 'homey:device:office-pc', title: 'Power', type: 'number', units: 'W', lastValue: 90 },
    'homey:manager:weather:temperature': { id: 'homey:manager:weather:temperature', ownerUri: 'homey:manager:weather', title: 'Outdoor temperature', type: 'number', units: '°C', lastValue: 8 },
  };
  const insightEntries = (id, resolution) => {
    const points = resolution === 'lastHour' ? 12 : 288;
    const span = resolution === 'lastHour' ? HOUR : 24 * HOUR;
    const values = [];
    for (let i = 0; i < points; i++) {
      const t = new Date(now - span + (i * span) / points).toISOString();
      const v = id.endsWith('alarm_contact') ? i % 50 === 0 : Math.round((18 + 3 * Math.sin(i / 20)) * 10) / 10;
      values.push({ t, v });
    }
    return { values, start: values[0].t, end: values[values.length - 1].t, step: span / points };
  };

  const alarms = {
    'alarm-1': { id: 'alarm-1', name: 'Work days', time: '07:00', enabled: true, repetition: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false } },
  };

  const zigbee = {
    zigbee_ready: true,
    controllerState: { channel: 15, softwareVersion: '7.4', networkKey: 'SECRET-NETWORK-KEY', routes: { 4660: [12345], 2222: [] } },
    nodes: {
      a: { networkAddress: 0, name: 'Homey', type: 'Coordinator', lastSeen: now, stats: { tx: 900, txError: 2, rx: 4000 } },
      b: { networkAddress: 12345, name: 'Kitchen spots', type: 'Router', lastSeen: now - 0.1 * HOUR, modelId: 'TRADFRI bulb', manufacturerName: 'IKEA', stats: { tx: 200, txError: 3, rx: 900 } },
      c: { networkAddress: 4660, name: 'Front door', type: 'EndDevice', lastSeen: now - 30 * HOUR, modelId: 'lumi.sensor_magnet', manufacturerName: 'LUMI', stats: { tx: 100, txError: 15, rx: 40 } },
      d: { networkAddress: 2222, name: 'Hallway motion', type: 'EndDevice', lastSeen: now - 1 * HOUR, stats: { tx: 50, txError: 1, rx: 20 } },
    },
  };

  const system = {
    info: { homeyVersion: '12.4.0', homeyModelName: 'Homey Pro (Early 2023)', bootDate: new Date(now - 50 * HOUR).toISOString(), rebootReason: 'reboot-ota', uptime: 50 * 3600, loadavg: [0.52, 0.61, 0.58], videoCoreTemperature: 51, wifiConnected: false, ethernetConnected: true, ethernetAddress: '192.168.1.10', cloudId: 'SECRET-CLOUD-ID' },
    memory: { total: 4096 * 1024 * 1024, free: 1400 * 1024 * 1024, types: { apps: { name: 'Apps', size: 900 * 1024 * 1024 }, system: { name: 'System', size: 1200 * 1024 * 1024 } } },
    storage: { total: 32768 * 1024 * 1024, free: 20000 * 1024 * 1024, types: { apps: { name: 'Apps', size: 2000 * 1024 * 1024 }, swap: { name: 'Swap', size: 1024 * 1024 * 1024 }, insights: { name: 'Insights', size: 3000 * 1024 * 1024 } } },
  };

  return homeObject({
    id: 'fake-homey-0001',
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
    alarms,
    nextAlarm: 2,
    zigbee,
    system,
  });
}

/**
 * A home from its parts (zones, devices, Flows, ...): an event emitter with
 * the records the tests read and the changes an owner makes in the Homey app.
 */
export function homeObject(parts) {
  const home = new EventEmitter();
  Object.assign(home, {
    ...parts,
    /** Every Web API request: {method, path, token, status}. */
    requests: [],
    /** Every Flow the runtime ran: {flowId, tokens}. */
    flowRuns: [],
    /** Moods activated, Flows started through the Web API. */
    moodsSet: [],
    flowsStarted: [],
    /** Adds or replaces a Flow (as the user saving it in the Homey app). */
    saveFlow(flow, advanced = false) {
      (advanced ? this.advancedFlows : this.flows)[flow.id] = flow;
      this.emit('flows-changed', { saved: flow.id });
    },
    setFlowEnabled(id, enabled) {
      const flow = this.flows[id] ?? this.advancedFlows[id];
      flow.enabled = enabled;
      // enabling or disabling does not update the trigger card's arguments
      this.emit('flows-toggled', { id, enabled });
    },
    deleteFlow(id) {
      delete this.flows[id];
      delete this.advancedFlows[id];
      this.emit('flows-changed', { deleted: id });
    },
  });
  return home;
}
