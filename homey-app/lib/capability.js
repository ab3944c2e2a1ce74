'use strict';

// A Homey capability's value rules as the JSON Schema of one value, so the
// package's validator checks (and coerces) a value before it goes to the
// device. Homey's capability objects carry type, min, max, step and enum
// values; this only restates them.

const { validateArguments } = require('mcp-switchboard/full');

/** The JSON Schema of a value `cap` (an entry of device.capabilitiesObj) accepts. */
function capabilitySchema(cap) {
  switch (cap.type) {
    case 'boolean':
      return { type: 'boolean' };
    case 'number': {
      const s = { type: 'number' };
      if (typeof cap.min === 'number') s.minimum = cap.min;
      if (typeof cap.max === 'number') s.maximum = cap.max;
      return s;
    }
    case 'enum': {
      const values = Array.isArray(cap.values) ? cap.values.map((v) => v.id) : [];
      return values.length > 0 ? { enum: values } : { type: 'string' };
    }
    case 'string':
      return { type: 'string' };
    default:
      return {};
  }
}

/**
 * Checks `value` for capability `cap` of device `device`. Resolves with the
 * value to send (coerced: "0.5" → 0.5, "true" → true) or throws an Error
 * that says what the capability takes.
 */
function checkValue(device, capabilityId, value) {
  const cap = device.capabilitiesObj?.[capabilityId];
  if (!cap) {
    const has = Object.keys(device.capabilitiesObj ?? {}).join(', ') || 'none';
    throw new Error(`${device.name} has no capability ${capabilityId} (it has ${has})`);
  }
  if (cap.setable === false) throw new Error(`${capabilityId} of ${device.name} is a measurement and cannot be set`);
  const schema = { type: 'object', properties: { [capabilityId]: capabilitySchema(cap) }, required: [capabilityId] };
  const checked = validateArguments({ inputSchema: schema }, { [capabilityId]: value });
  if (!checked.valid) throw new Error(`${device.name}: ${checked.message}`);
  return checked.arguments[capabilityId];
}

module.exports = { capabilitySchema, checkValue };
