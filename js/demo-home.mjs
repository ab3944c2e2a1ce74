// A simulated home for `serve --demo`: zones, lights, a thermostat, a
// speaker, a socket, a door sensor and flows, kept in memory, behind tools
// shaped like the Homey app's (examples/demo-home.tools-list.json).
import { readFileSync } from 'node:fs';

import { toolFailure, toolSuccess } from '../pkg/full/index.mjs';
import { handlerSource } from './dispatch.mjs';

/** The demo home's tools/list response (text). */
export const demoCatalog = readFileSync(new URL('./examples/demo-home.tools-list.json', import.meta.url), 'utf8');

const CAPABILITIES = {
  onoff: { type: 'boolean', title: 'On', setable: true },
  dim: { type: 'number', title: 'Dim level', min: 0, max: 1, setable: true },
  light_temperature: { type: 'number', title: 'Colour temperature', min: 0, max: 1, setable: true },
  target_temperature: { type: 'number', title: 'Target temperature', min: 5, max: 30, units: '°C', setable: true },
  measure_temperature: { type: 'number', title: 'Temperature', units: '°C', setable: false },
  thermostat_mode: { type: 'enum', title: 'Mode', values: ['auto', 'heat', 'off'], setable: true },
  volume_set: { type: 'number', title: 'Volume', min: 0, max: 1, setable: true },
  speaker_playing: { type: 'boolean', title: 'Playing', setable: true },
  speaker_track: { type: 'string', title: 'Track', setable: false },
  measure_power: { type: 'number', title: 'Power', units: 'W', setable: false },
  alarm_contact: { type: 'boolean', title: 'Door open', setable: false },
};

function initialHome() {
  return {
    zones: [
      { id: 'home', name: 'Home', parent: null },
      { id: 'living_room', name: 'Living room', parent: 'home' },
      { id: 'kitchen', name: 'Kitchen', parent: 'home' },
      { id: 'bedroom', name: 'Bedroom', parent: 'home' },
      { id: 'hallway', name: 'Hallway', parent: 'home' },
      { id: 'garden', name: 'Garden', parent: 'home' },
    ],
    devices: [
      { id: 'living-ceiling', name: 'Ceiling light', zone: 'living_room', class: 'light', app: 'com.philips.hue', state: { onoff: false, dim: 0.8 } },
      { id: 'living-lamp', name: 'Reading lamp', zone: 'living_room', class: 'light', app: 'com.philips.hue', state: { onoff: true, dim: 0.4, light_temperature: 0.7 } },
      { id: 'kitchen-spots', name: 'Kitchen spots', zone: 'kitchen', class: 'light', app: 'com.ikea.tradfri', state: { onoff: false, dim: 1 } },
      { id: 'bedroom-lamp', name: 'Bedside lamp', zone: 'bedroom', class: 'light', app: 'com.ikea.tradfri', state: { onoff: false, dim: 0.3 } },
      { id: 'living-thermostat', name: 'Thermostat', zone: 'living_room', class: 'thermostat', app: 'com.tado', state: { target_temperature: 20, measure_temperature: 19.5, thermostat_mode: 'auto' } },
      { id: 'kitchen-speaker', name: 'Kitchen speaker', zone: 'kitchen', class: 'speaker', app: 'com.sonos', state: { volume_set: 0.25, speaker_playing: false, speaker_track: 'Morning jazz' } },
      { id: 'garden-socket', name: 'Pond pump', zone: 'garden', class: 'socket', app: 'com.fibaro', state: { onoff: true, measure_power: 42 } },
      { id: 'front-door', name: 'Front door', zone: 'hallway', class: 'sensor', app: 'com.aqara', state: { alarm_contact: false } },
    ],
    flows: [
      { id: 'flow-morning', name: 'Good morning', command: 'good_morning', enabled: true, devices: ['living-ceiling', 'kitchen-spots', 'kitchen-speaker'], parameters: [] },
      { id: 'flow-movie', name: 'Movie time', command: 'movie_time', enabled: true, devices: ['living-ceiling', 'living-lamp'], parameters: ['dim'] },
      { id: 'flow-away', name: 'Away mode', command: 'away', enabled: false, devices: ['living-thermostat', 'garden-socket'], parameters: [] },
    ],
  };
}

/**
 * A fresh simulated home: its catalog and the handlers that act on its
 * in-memory state.
 * @returns {{catalog: string, handlers: Record<string, (args: object) => object>, home: object, source: import('./dispatch.mjs').ToolSource}}
 */
export function createDemoHome() {
  const home = initialHome();
  const zone = (id) => home.zones.find((z) => z.id === id);
  const device = (id) => home.devices.find((d) => d.id === id);
  const ids = (list) => list.map((x) => x.id).join(', ');
  const noDevice = (id) => toolFailure(`no device with ID ${JSON.stringify(id)}`, { knownDevices: ids(home.devices), hint: 'call get_home_structure for the IDs' });
  const noZone = (id) => toolFailure(`no zone with ID ${JSON.stringify(id)}`, { knownZones: ids(home.zones) });
  const inZone = (zoneId) => home.devices.filter((d) => d.zone === zoneId || zone(d.zone)?.parent === zoneId);

  /** Sets a capability after checking it; returns an error text or null. */
  function setCapability(d, capability, value) {
    const cap = CAPABILITIES[capability];
    if (!(capability in d.state) || !cap) return `${d.name} has no capability ${capability} (it has ${Object.keys(d.state).join(', ')})`;
    if (!cap.setable) return `${capability} of ${d.name} is a measurement and cannot be set`;
    if (cap.type === 'boolean' && typeof value !== 'boolean') return `${capability} takes true or false`;
    if (cap.type === 'number') {
      if (typeof value !== 'number' || Number.isNaN(value)) return `${capability} takes a number`;
      if (value < cap.min || value > cap.max) return `${capability} takes a number from ${cap.min} to ${cap.max}`;
    }
    if (cap.type === 'enum' && !cap.values.includes(value)) return `${capability} takes one of ${cap.values.join(', ')}`;
    d.state[capability] = value;
    if (capability === 'dim' && 'onoff' in d.state) d.state.onoff = value > 0;
    return null;
  }

  const lightState = (d) => ({ deviceId: d.id, name: d.name, on: d.state.onoff, dim: Math.round((d.state.dim ?? 1) * 100) });

  function applyLight(d, state, dim) {
    if (d.class !== 'light') return `${d.name} is a ${d.class}, not a light`;
    const on = state === 'toggle' ? !d.state.onoff : state === 'on';
    d.state.onoff = on;
    if (on && dim !== undefined) d.state.dim = dim / 100;
    return null;
  }

  const handlers = {
    get_home_structure() {
      return toolSuccess({
        zones: home.zones.map((z) => ({ id: z.id, name: z.name, parent: z.parent })),
        devices: home.devices.map((d) => ({
          id: d.id,
          name: d.name,
          zone: d.zone,
          class: d.class,
          capabilities: Object.keys(d.state).map((c) => ({ id: c, ...CAPABILITIES[c] })),
        })),
      });
    },
    get_states({ zoneId, deviceIds, capability }) {
      if (zoneId && !zone(zoneId)) return noZone(zoneId);
      let list = zoneId ? inZone(zoneId) : home.devices;
      if (deviceIds) list = list.filter((d) => deviceIds.includes(d.id));
      const states = list
        .map((d) => ({ deviceId: d.id, name: d.name, zone: d.zone, values: capability ? pick(d.state, capability) : { ...d.state } }))
        .filter((s) => Object.keys(s.values).length > 0);
      return toolSuccess({ count: states.length, states });
    },
    set_light({ deviceId, state, dim }) {
      const d = device(deviceId);
      if (!d) return noDevice(deviceId);
      const err = applyLight(d, state, dim);
      return err ? toolFailure(err, { deviceId }) : toolSuccess(lightState(d));
    },
    set_thermostat({ deviceId, temperature }) {
      const d = device(deviceId);
      if (!d) return noDevice(deviceId);
      if (d.class !== 'thermostat') return toolFailure(`${d.name} is a ${d.class}, not a thermostat`, { deviceId });
      const err = setCapability(d, 'target_temperature', temperature);
      return err ? toolFailure(err, { deviceId }) : toolSuccess({ deviceId, name: d.name, targetTemperature: temperature, currentTemperature: d.state.measure_temperature });
    },
    control_device({ deviceId, capability, value }) {
      const d = device(deviceId);
      if (!d) return noDevice(deviceId);
      const err = setCapability(d, capability, value);
      return err ? toolFailure(err, { deviceId, capability }) : toolSuccess({ deviceId, name: d.name, capability, value: d.state[capability] });
    },
    toggle_device({ deviceId }) {
      const d = device(deviceId);
      if (!d) return noDevice(deviceId);
      if (!('onoff' in d.state)) return toolFailure(`${d.name} cannot be switched on or off`, { deviceId });
      d.state.onoff = !d.state.onoff;
      return toolSuccess({ deviceId, name: d.name, on: d.state.onoff });
    },
    control_zone_lights({ zoneId, action, dim }) {
      if (!zone(zoneId)) return noZone(zoneId);
      const lights = inZone(zoneId).filter((d) => d.class === 'light');
      if (lights.length === 0) return toolFailure(`there are no lights in ${zone(zoneId).name}`, { zoneId });
      for (const d of lights) applyLight(d, action, dim);
      return toolSuccess({ zoneId, lights: lights.map(lightState) });
    },
    control_zone_capability({ zoneId, capability, value }) {
      if (!zone(zoneId)) return noZone(zoneId);
      const matching = inZone(zoneId).filter((d) => capability in d.state);
      if (matching.length === 0) return toolFailure(`no device in ${zone(zoneId).name} has ${capability}`, { zoneId });
      const results = matching.map((d) => ({ deviceId: d.id, error: setCapability(d, capability, value) ?? undefined }));
      return toolSuccess({ zoneId, capability, value, devices: results });
    },
    get_flow_overview({ include_disabled = false, device_ids }) {
      let flows = home.flows.filter((f) => include_disabled || f.enabled);
      if (device_ids) flows = flows.filter((f) => f.devices.some((d) => device_ids.includes(d)));
      return toolSuccess({ flows });
    },
    trigger_any_flow({ command, parameters = {} }) {
      const flow = home.flows.find((f) => f.command === command);
      if (!flow) return toolFailure(`no flow with command ${JSON.stringify(command)}`, { commands: home.flows.map((f) => f.command).join(', ') });
      if (!flow.enabled) return toolFailure(`the flow "${flow.name}" is disabled`, { command });
      if (command === 'good_morning') {
        applyLight(device('living-ceiling'), 'on', 100);
        applyLight(device('kitchen-spots'), 'on', 100);
        device('kitchen-speaker').state.speaker_playing = true;
      } else if (command === 'movie_time') {
        const dim = typeof parameters.dim === 'number' ? parameters.dim : 20;
        applyLight(device('living-ceiling'), 'off');
        applyLight(device('living-lamp'), 'on', dim);
      }
      return toolSuccess({ triggered: flow.name, command, parameters });
    },
    get_insight_logs({ zoneId }) {
      if (zoneId && !zone(zoneId)) return noZone(zoneId);
      const list = zoneId ? inZone(zoneId) : home.devices;
      const logs = list.flatMap((d) =>
        Object.keys(d.state)
          .filter((c) => c.startsWith('measure_') || c === 'onoff' || c === 'alarm_contact')
          .map((c) => ({ id: `${d.id}:${c}`, deviceId: d.id, capability: c, type: CAPABILITIES[c].type, units: CAPABILITIES[c].units })),
      );
      return toolSuccess({ logs });
    },
    get_insight_data({ logIds, resolution = 'last24Hours' }) {
      const points = { lastHour: 6, last24Hours: 24, last7Days: 28 }[resolution];
      const step = { lastHour: 600_000, last24Hours: 3_600_000, last7Days: 21_600_000 }[resolution];
      const end = Date.UTC(2026, 0, 15, 12);
      const data = [];
      for (const logId of logIds) {
        const [deviceId, capability] = logId.split(':');
        const d = device(deviceId);
        if (!d || !(capability in d.state)) return toolFailure(`no log with ID ${JSON.stringify(logId)}`, { hint: 'call get_insight_logs' });
        const base = d.state[capability];
        const values = Array.from({ length: points }, (_, i) => ({
          t: new Date(end - (points - 1 - i) * step).toISOString(),
          v: typeof base === 'number' ? Math.round((base + Math.sin(i / 3) * (base * 0.05)) * 10) / 10 : i % 5 === 0,
        }));
        data.push({ logId, values });
      }
      return toolSuccess({ resolution, data });
    },
    get_installed_apps() {
      const apps = [...new Set(home.devices.map((d) => d.app))].map((id) => ({ id, devices: home.devices.filter((d) => d.app === id).map((d) => d.id) }));
      return toolSuccess({ apps });
    },
  };

  return { catalog: demoCatalog, handlers, home, source: handlerSource(demoCatalog, handlers, 'demo home') };
}

function pick(state, capability) {
  return capability in state ? { [capability]: state[capability] } : {};
}
