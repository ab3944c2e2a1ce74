'use strict';

// Zones, devices and their capabilities: reading and setting through the
// Web API.

const { toolFailure } = require('mcp-switchboard/full');
const { checkValue } = require('../capability');
const { ProtectedError } = require('../guard');
const { hoursSince, time, zonePath } = require('./common');

/** A device's class, its virtual class first (a socket used as a light is a light). */
function deviceClass(d) {
  return d.virtualClass || d.class;
}

function isLight(d) {
  return deviceClass(d) === 'light';
}

/** The most recent capability update of a device, in ms (0 when none). */
function lastUpdate(d) {
  let last = 0;
  for (const cap of Object.values(d.capabilitiesObj ?? {})) {
    const t = cap?.lastUpdated ? new Date(cap.lastUpdated).getTime() : 0;
    if (t > last) last = t;
  }
  return last;
}

function capabilityState(cap) {
  const out = { value: cap.value ?? null };
  if (cap.units) out.units = cap.units;
  if (cap.lastUpdated) out.lastUpdated = time(cap.lastUpdated);
  return out;
}

function deviceSummary(d) {
  return {
    id: d.id,
    name: d.name,
    class: deviceClass(d),
    capabilities: Object.keys(d.capabilitiesObj ?? {}),
    ...(d.available === false ? { available: false, unavailableMessage: d.unavailableMessage ?? undefined } : {}),
  };
}

/** The value of capability `id` of a device, or undefined when it has none. */
function valueOf(d, id) {
  return d.capabilitiesObj?.[id]?.value;
}

/**
 * The states `get_states` filters on (its `where`): each tells whether a
 * device is in it and which capabilities say so (the answer shows those).
 * A device without any of the capabilities a state reads is not in it.
 */
const STATES = {
  on: (d) => (valueOf(d, 'onoff') === true ? ['onoff'] : null),
  off: (d) => (valueOf(d, 'onoff') === false ? ['onoff'] : null),
  open: (d) => {
    if (valueOf(d, 'alarm_contact') === true) return ['alarm_contact'];
    if (valueOf(d, 'garagedoor_closed') === false) return ['garagedoor_closed'];
    const set = valueOf(d, 'windowcoverings_set');
    return typeof set === 'number' && set > 0 && valueOf(d, 'alarm_contact') === undefined ? ['windowcoverings_set'] : null;
  },
  closed: (d) => {
    if (valueOf(d, 'alarm_contact') === false) return ['alarm_contact'];
    if (valueOf(d, 'garagedoor_closed') === true) return ['garagedoor_closed'];
    return valueOf(d, 'windowcoverings_set') === 0 && valueOf(d, 'alarm_contact') === undefined ? ['windowcoverings_set'] : null;
  },
  locked: (d) => (valueOf(d, 'locked') === true ? ['locked'] : null),
  unlocked: (d) => (valueOf(d, 'locked') === false ? ['locked'] : null),
  low_battery: (d, { batteryBelow }) => {
    if (valueOf(d, 'alarm_battery') === true) return ['alarm_battery'];
    const level = valueOf(d, 'measure_battery');
    return typeof level === 'number' && level <= batteryBelow ? ['measure_battery'] : null;
  },
  offline: (d) => (d.available === false ? [] : null),
  alarm: (d) => {
    const raised = Object.keys(d.capabilitiesObj ?? {}).filter((id) => id.startsWith('alarm_') && valueOf(d, id) === true);
    return raised.length ? raised : null;
  },
};

module.exports = function deviceTools({ io }) {
  async function getHomeStructure({ zoneId }) {
    const { zones, devices, zonesById } = await io.home();
    let shown = zones;
    if (zoneId !== undefined) {
      const { ids } = await io.zoneWithin(zoneId);
      shown = zones.filter((z) => ids.has(z.id));
    }
    const byZone = new Map(shown.map((z) => [z.id, []]));
    for (const d of devices) byZone.get(d.zone)?.push(deviceSummary(d));
    return {
      zones: shown.map((z) => ({ id: z.id, name: z.name, parent: z.parent ?? null, path: zonePath(z, zonesById), devices: byZone.get(z.id) })),
      zoneCount: shown.length,
      deviceCount: [...byZone.values()].reduce((n, l) => n + l.length, 0),
    };
  }

  async function getStates({ zoneId, deviceIds, capability, deviceClass: cls, silentForHours, where, batteryBelow = 20 }) {
    const { devices, zonesById } = await io.home();
    let list = devices;
    if (zoneId !== undefined) {
      const { ids } = await io.zoneWithin(zoneId);
      list = list.filter((d) => ids.has(d.zone));
    }
    if (deviceIds) {
      const wanted = new Set(deviceIds);
      list = list.filter((d) => wanted.has(d.id));
      const missing = deviceIds.filter((id) => !list.some((d) => d.id === id));
      if (missing.length === deviceIds.length) {
        return toolFailure(`no device with ID ${missing.map((m) => JSON.stringify(m)).join(', ')}`, { hint: 'get_home_structure lists the device IDs' });
      }
    }
    if (cls) list = list.filter((d) => deviceClass(d) === cls);
    if (capability) list = list.filter((d) => capability in (d.capabilitiesObj ?? {}));
    const now = Date.now();
    const out = [];
    for (const d of list) {
      const last = lastUpdate(d);
      const silent = last ? hoursSince(last, now) : null;
      if (silentForHours !== undefined && silent !== null && silent < silentForHours) continue;
      // every state asked for must hold; the answer then shows the capabilities that said so
      let shown = null;
      if (where?.length) {
        const said = where.map((state) => STATES[state]?.(d, { batteryBelow }) ?? null);
        if (said.some((c) => c === null)) continue;
        shown = new Set(said.flat());
      }
      const caps = {};
      for (const [id, cap] of Object.entries(d.capabilitiesObj ?? {})) {
        if (capability ? id !== capability : shown && !shown.has(id)) continue;
        caps[id] = capabilityState(cap);
      }
      out.push({
        id: d.id,
        name: d.name,
        zone: zonesById[d.zone]?.name ?? d.zone,
        class: deviceClass(d),
        available: d.available !== false,
        lastUpdated: last ? time(last) : null,
        silentForHours: silent,
        capabilities: caps,
      });
    }
    return { devices: out, count: out.length, ...(where?.length ? { where } : {}), at: time(now) };
  }

  async function getDevice({ deviceId }) {
    const d = await io.device(deviceId);
    const zones = await io.allZones();
    const capabilities = {};
    for (const [id, cap] of Object.entries(d.capabilitiesObj ?? {})) {
      capabilities[id] = {
        title: cap.title,
        type: cap.type,
        value: cap.value ?? null,
        setable: cap.setable !== false,
        ...(cap.units ? { units: cap.units } : {}),
        ...(typeof cap.min === 'number' ? { min: cap.min } : {}),
        ...(typeof cap.max === 'number' ? { max: cap.max } : {}),
        ...(typeof cap.step === 'number' ? { step: cap.step } : {}),
        ...(Array.isArray(cap.values) ? { values: cap.values.map((v) => v.id) } : {}),
        ...(cap.lastUpdated ? { lastUpdated: time(cap.lastUpdated) } : {}),
      };
    }
    return {
      id: d.id,
      name: d.name,
      zone: { id: d.zone, name: zones[d.zone]?.name ?? null, path: zones[d.zone] ? zonePath(zones[d.zone], zones) : null },
      class: deviceClass(d),
      available: d.available !== false,
      app: d.ownerUri ?? null,
      capabilities,
    };
  }

  /** Sets capabilities in order; each value checked against the device first. */
  async function apply(device, values) {
    const checked = values.map(([cap, value]) => [cap, checkValue(device, cap, value)]);
    // nothing is set when one of the values is refused
    for (const [cap, value] of checked) io.checkWrite(device, cap, value);
    for (const [cap, value] of checked) await io.setCapability(device, cap, value);
    return Object.fromEntries(checked);
  }

  async function setLight({ deviceId, state, dim, temperature, hue, saturation }) {
    const d = await io.device(deviceId);
    const caps = d.capabilitiesObj ?? {};
    const values = [];
    if (state !== undefined) {
      const on = state === 'toggle' ? !caps.onoff?.value : state === 'on';
      values.push(['onoff', on]);
    }
    if (dim !== undefined) {
      values.push(['dim', Math.round(dim) / 100]);
      if (state === undefined && 'onoff' in caps) values.push(['onoff', dim > 0]);
    }
    if (temperature !== undefined) {
      // Homey: light_temperature 0 is cool white, 1 is warm white
      values.push(['light_temperature', Math.round(100 - temperature) / 100]);
      if ('light_mode' in caps) values.push(['light_mode', 'temperature']);
    }
    if (hue !== undefined) values.push(['light_hue', Math.round((hue % 360) / 3.6) / 100]);
    if (saturation !== undefined) values.push(['light_saturation', Math.round(saturation) / 100]);
    if ((hue !== undefined || saturation !== undefined) && 'light_mode' in caps) values.push(['light_mode', 'color']);
    const set = await apply(d, values);
    return { device: { id: d.id, name: d.name }, set };
  }

  async function setThermostat({ deviceId, temperature, mode }) {
    const d = await io.device(deviceId);
    const values = [['target_temperature', temperature]];
    if (mode !== undefined) values.push(['thermostat_mode', mode]);
    const set = await apply(d, values);
    const measured = d.capabilitiesObj?.measure_temperature?.value;
    return { device: { id: d.id, name: d.name }, set, ...(typeof measured === 'number' ? { measuredTemperature: measured } : {}) };
  }

  async function controlDevice({ deviceId, capability, value }) {
    const d = await io.device(deviceId);
    const previous = d.capabilitiesObj?.[capability]?.value ?? null;
    const set = await apply(d, [[capability, value]]);
    return { device: { id: d.id, name: d.name }, capability, value: set[capability], previous };
  }

  async function toggleDevice({ deviceId }) {
    const d = await io.device(deviceId);
    if (!('onoff' in (d.capabilitiesObj ?? {}))) throw new Error(`${d.name} cannot be switched on or off (it has no onoff capability)`);
    const on = !d.capabilitiesObj.onoff.value;
    await apply(d, [['onoff', on]]);
    return { device: { id: d.id, name: d.name }, onoff: on };
  }

  /** Runs `values(device)` on each device; reports each outcome. */
  async function onEach(devices, values) {
    const results = [];
    for (const d of devices) {
      try {
        const set = await apply(d, values(d));
        results.push({ id: d.id, name: d.name, ok: true, set });
      } catch (err) {
        results.push({ id: d.id, name: d.name, ok: false, error: err.message, ...(err instanceof ProtectedError ? { protected: true } : {}) });
      }
    }
    const changed = results.filter((r) => r.ok).length;
    const refused = results.filter((r) => r.protected);
    // nothing else to do and only protected devices in the way: the call failed, and says why
    if (changed === 0 && refused.length > 0 && refused.length === results.length) {
      return toolFailure(refused.length === 1 ? refused[0].error : `${refused.length} protected devices were left alone: ${refused.map((r) => r.name).join(', ')}. ${refused[0].error.replace(/^[^.]*\. /, '')}`, { results });
    }
    return { results, changed, failed: results.length - changed };
  }

  async function controlZoneLights({ zoneId, action, dim, includeSubzones = true }) {
    const { zone, ids } = await io.zoneWithin(zoneId, includeSubzones);
    const { devices } = await io.home();
    const lights = devices.filter((d) => ids.has(d.zone) && isLight(d) && 'onoff' in (d.capabilitiesObj ?? {}));
    if (lights.length === 0) return toolFailure(`there are no lights in ${zone.name}`, { zone: zone.name, hint: 'get_states with deviceClass "light" lists the lights' });
    const outcome = await onEach(lights, (d) => {
      const on = action === 'toggle' ? !d.capabilitiesObj.onoff.value : action === 'on';
      const values = [['onoff', on]];
      if (on && dim !== undefined && 'dim' in d.capabilitiesObj) values.push(['dim', Math.round(dim) / 100]);
      return values;
    });
    return outcome.isError ? outcome : { zone: zone.name, action, ...outcome };
  }

  async function controlZoneCapability({ zoneId, capability, value, deviceClass: cls, includeSubzones = true }) {
    const { zone, ids } = await io.zoneWithin(zoneId, includeSubzones);
    const { devices } = await io.home();
    const matching = devices.filter((d) => ids.has(d.zone) && capability in (d.capabilitiesObj ?? {}) && (!cls || deviceClass(d) === cls));
    if (matching.length === 0) {
      return toolFailure(`no device in ${zone.name} has the capability ${capability}${cls ? ` and class ${cls}` : ''}`, { zone: zone.name });
    }
    const outcome = await onEach(matching, () => [[capability, value]]);
    return outcome.isError ? outcome : { zone: zone.name, capability, ...outcome };
  }

  return {
    get_home_structure: getHomeStructure,
    get_states: getStates,
    get_device: getDevice,
    set_light: setLight,
    set_thermostat: setThermostat,
    control_device: controlDevice,
    toggle_device: toggleDevice,
    control_zone_lights: controlZoneLights,
    control_zone_capability: controlZoneCapability,
  };
};

