'use strict';

// What the assistant may not do to the home, whatever tool it uses:
//
// - Protected devices: unlocking a lock, opening a garage door or gate,
//   disarming a home alarm, and any change to a siren or an alarm
//   capability. Decided by Homey's device classes and capabilities, not by
//   names, so it holds for every brand: a `locked` capability is a lock
//   whatever the class, a `garagedoor` class is a garage door whatever its
//   capabilities. Locking, closing and arming stay allowed. The owner can
//   allow single devices in the settings.
// - Hidden zones: their devices are not there for the assistant. A Flow or
//   mood that would act on one is refused as if it did not exist.
//
// Flows and moods are read before they run: a mood's device settings, a
// Flow's action cards (simple and Advanced Flows, the Flows it starts in
// turn), the devices and zones its cards belong to or name in their
// arguments.

/** Classes whose devices open the home or raise (or silence) an alarm. */
const PROTECTED_CLASSES = new Map([
  ['lock', 'a lock'],
  ['garagedoor', 'a garage door'],
  ['gate', 'a gate'],
  ['homealarm', 'a home alarm'],
  ['siren', 'a siren'],
]);

/** A short code for each kind (the settings page shows it in the owner's language). */
const KIND_CODES = new Map([['a lock', 'lock'], ['a garage door', 'garagedoor'], ['a gate', 'gate'], ['a home alarm', 'homealarm'], ['a siren', 'siren']]);

/** Capabilities that make any device protected, whatever its class. */
const PROTECTED_CAPABILITIES = new Map([
  ['locked', 'a lock'],
  ['garagedoor_closed', 'a garage door'],
  ['homealarm_state', 'a home alarm'],
]);

/** Flow card IDs (the part after the device) that only make a protected device safer. */
const SAFE_CARDS = new Set(['lock', 'garagedoor_close', 'close', 'homealarm_state_armed']);

/** A device's class, its virtual class first (a socket used as a light is a light). */
function deviceClass(d) {
  return d?.virtualClass || d?.class || null;
}

/** The base of a capability ID ("alarm_generic.siren" → "alarm_generic"). */
function base(capabilityId) {
  return String(capabilityId).split('.')[0];
}

/** Whether a capability raises or silences an alarm (sirens, alarm_* that can be set). */
function sirenCapability(capabilityId) {
  const id = base(capabilityId);
  return id.startsWith('alarm_') || /siren/i.test(String(capabilityId));
}

/**
 * What makes `device` protected ("a lock", "a siren", ...), or null. A
 * device is protected when its class is one of PROTECTED_CLASSES, it has a
 * capability of PROTECTED_CAPABILITIES, or it has an alarm or siren
 * capability that can be set.
 */
function protectedKind(device) {
  const cls = deviceClass(device);
  if (PROTECTED_CLASSES.has(cls)) return PROTECTED_CLASSES.get(cls);
  const caps = device?.capabilitiesObj ?? {};
  for (const id of Object.keys(caps)) {
    if (PROTECTED_CAPABILITIES.has(base(id))) return PROTECTED_CAPABILITIES.get(base(id));
  }
  for (const [id, cap] of Object.entries(caps)) {
    if (cap?.setable !== false && sirenCapability(id)) return 'a siren';
  }
  return null;
}

/**
 * What setting `capabilityId` of `device` to `value` would do when that is
 * refused ("unlock", "open", "disarm", "change"), or null when it is
 * allowed. Only the safe direction of a protected device passes: locking,
 * closing, arming.
 */
function riskyChange(device, capabilityId, value) {
  const kind = protectedKind(device);
  if (!kind) return null;
  const id = base(capabilityId);
  if (id === 'locked') return value === true || value === 'true' ? null : 'unlock';
  if (id === 'garagedoor_closed') return value === true || value === 'true' ? null : 'open';
  if (id === 'homealarm_state') return value === 'armed' || value === 'partially_armed' ? null : 'disarm';
  if (sirenCapability(capabilityId)) return 'sound or silence';
  // any other capability of a lock, garage door, gate, alarm or siren
  // (onoff on a garage door opener, windowcoverings on a gate, ...)
  return 'change';
}

/** A device the assistant may not act on this way: the message says why and what the owner can do. */
class ProtectedError extends Error {
  /**
   * @param {{id: string, name: string}} device
   * @param {string} kind e.g. "a lock"
   * @param {string} action e.g. "unlock"
   * @param {string} [via] what would have done it, e.g. 'the Flow "Leaving home"'
   */
  constructor(device, kind, action, via) {
    const what = `${action === 'change' ? 'Changing' : `To ${action}`} "${device.name}" (${kind})`;
    super(`${via ? `${via} cannot run: ${what.charAt(0).toLowerCase()}${what.slice(1)}` : what} is not allowed for AI assistants. `
      + 'Locks, garage doors and gates, home alarms and sirens are protected; the owner can allow this device in the app\'s settings (Protected devices).');
    this.name = 'ProtectedError';
    this.device = { id: device.id, name: device.name };
    this.kind = kind;
    this.action = action;
  }
}

/** "homey:device:abc:on" → {owner: "homey:device:abc", card: "on"}. */
function splitCardId(id) {
  const parts = String(id ?? '').split(':');
  return parts.length >= 4 ? { owner: parts.slice(0, 3).join(':'), card: parts.slice(3).join(':') } : { owner: null, card: String(id ?? '') };
}

/** The cards of a Flow or Advanced Flow as [{type, card}]. */
function flowCards(flow) {
  if (flow?.cards && typeof flow.cards === 'object') {
    return Object.values(flow.cards).filter((c) => c && typeof c.id === 'string').map((c) => ({ type: c.type, card: c }));
  }
  return [
    ...(flow?.trigger && typeof flow.trigger.id === 'string' ? [{ type: 'trigger', card: flow.trigger }] : []),
    ...(Array.isArray(flow?.conditions) ? flow.conditions : []).filter((c) => c && typeof c.id === 'string').map((c) => ({ type: 'condition', card: c })),
    ...(Array.isArray(flow?.actions) ? flow.actions : []).filter((c) => c && typeof c.id === 'string').map((c) => ({ type: 'action', card: c })),
  ];
}

/** The IDs named by a card's arguments (device, zone and Flow pickers hold {id, name}). */
function argumentIds(card) {
  const ids = [];
  for (const v of Object.values(card?.args ?? {})) {
    if (v && typeof v === 'object' && typeof v.id === 'string') ids.push(v.id);
  }
  return ids;
}

/**
 * What a Flow touches: [{deviceId, card, action}] for the devices its cards
 * belong to or name, zoneIds, and flowIds it starts. `action` is true for
 * action cards (what the Flow does), false for triggers and conditions
 * (what it reads).
 */
function flowReach(flow) {
  const devices = [];
  const zones = new Set();
  const flows = new Set();
  for (const { type, card } of flowCards(flow)) {
    const action = type === 'action';
    const { owner, card: local } = splitCardId(card.id);
    if (owner?.startsWith('homey:device:')) devices.push({ deviceId: owner.slice('homey:device:'.length), card: local, action });
    if (owner?.startsWith('homey:zone:')) zones.add(owner.slice('homey:zone:'.length));
    for (const id of argumentIds(card)) {
      devices.push({ deviceId: id, card: local, action });
      zones.add(id);
      if (action) flows.add(id);
    }
  }
  return { devices, zones, flows };
}

const MAX_FLOW_DEPTH = 8;

/**
 * Checks that `flow` may run for the assistant: it acts on no protected
 * device (unless allowed) and touches no hidden device or zone, nor do the
 * Flows it starts (followed MAX_FLOW_DEPTH deep). Throws ProtectedError, or
 * returns {hidden: true} when it touches what the settings hide.
 * @param {object} flow a Flow or Advanced Flow from the Web API
 * @param {{devicesById: Map<string, object>, flowsById: Map<string, object>, hiddenDevices: Set<string>, hiddenZones: Set<string>, allowed: Set<string>}} home
 */
function checkFlow(flow, home, depth = 0, seen = new Set()) {
  if (!flow || seen.has(flow.id) || depth > MAX_FLOW_DEPTH) return { hidden: false };
  seen.add(flow.id);
  const { devices, zones, flows } = flowReach(flow);
  for (const z of zones) if (home.hiddenZones.has(z)) return { hidden: true };
  for (const { deviceId } of devices) if (home.hiddenDevices.has(deviceId)) return { hidden: true };
  for (const { deviceId, card, action } of devices) {
    if (!action || home.allowed.has(deviceId) || SAFE_CARDS.has(card)) continue;
    const device = home.devicesById.get(deviceId);
    const kind = device ? protectedKind(device) : null;
    if (kind) throw new ProtectedError(device, kind, 'change', `the Flow "${flow.name}"`);
  }
  for (const id of flows) {
    const next = home.flowsById.get(id);
    if (next && checkFlow(next, home, depth + 1, seen).hidden) return { hidden: true };
  }
  return { hidden: false };
}

/**
 * Checks that activating `mood` is allowed: it sets no hidden device and
 * changes no protected device the risky way. Throws ProtectedError, or
 * returns {hidden: true}.
 */
function checkMood(mood, home) {
  for (const [deviceId, setting] of Object.entries(mood?.devices ?? {})) {
    if (home.hiddenDevices.has(deviceId)) return { hidden: true };
    const device = home.devicesById.get(deviceId);
    if (!device || home.allowed.has(deviceId)) continue;
    const state = setting?.state ?? setting ?? {};
    for (const [cap, value] of Object.entries(state)) {
      const action = riskyChange(device, cap, value);
      if (action) throw new ProtectedError(device, protectedKind(device), action, `the mood "${mood.name}"`);
    }
  }
  return { hidden: false };
}

module.exports = {
  KIND_CODES,
  PROTECTED_CLASSES,
  PROTECTED_CAPABILITIES,
  ProtectedError,
  protectedKind,
  riskyChange,
  checkFlow,
  checkMood,
  flowCards,
  flowReach,
  splitCardId,
  deviceClass,
};
