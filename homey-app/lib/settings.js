'use strict';

// The app's settings (homey.settings keys), their defaults and how they are
// read. The settings page writes them with Homey.set; the app reacts to the
// 'set' events.

const { randomBytes } = require('crypto');

const KEYS = {
  token: 'token',
  port: 'port',
  serverEnabled: 'serverEnabled',
  mode: 'mode',
  readOnly: 'readOnly',
  noDestructive: 'noDestructive',
  hiddenTools: 'hiddenTools',
  hiddenZones: 'hiddenZones',
  allowedDevices: 'allowedDevices',
  origins: 'origins',
  personalKeyEnabled: 'personalKeyEnabled',
  personalKey: 'personalKey',
  webTools: 'webTools',
};

const DEFAULTS = {
  port: 3480,
  serverEnabled: true,
  mode: 'hybrid',
  readOnly: false,
  noDestructive: false,
  hiddenTools: [],
  hiddenZones: [],
  // protected devices (locks, garage doors, alarms, sirens) the assistant may act on
  allowedDevices: [],
  origins: [],
  personalKeyEnabled: false,
  personalKey: '',
  webTools: false,
};

const MODES = ['hybrid', 'all', 'meta', 'auto'];

/** A new bearer token: 32 random bytes, base64url (43 characters). */
function newToken() {
  return randomBytes(32).toString('base64url');
}

/** A list setting: an array of non-empty strings (the page may store text). */
function list(value) {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  if (typeof value === 'string') return value.split(/[\s,]+/).map((v) => v.trim()).filter(Boolean);
  return [];
}

/**
 * Reads every setting with its default; makes the token on first use.
 * @param {{get: (k: string) => unknown, set: (k: string, v: unknown) => void}} settings homey.settings
 */
function readSettings(settings) {
  const get = (key) => {
    const v = settings.get(KEYS[key]);
    return v === null || v === undefined ? DEFAULTS[key] : v;
  };
  let token = settings.get(KEYS.token);
  if (typeof token !== 'string' || token.length < 32) {
    token = newToken();
    settings.set(KEYS.token, token);
  }
  const port = Number(get('port'));
  const mode = String(get('mode'));
  return {
    token,
    // 0: any free port (the settings page shows the one in use)
    port: Number.isInteger(port) && port >= 0 && port < 65536 ? port : DEFAULTS.port,
    serverEnabled: get('serverEnabled') !== false,
    mode: MODES.includes(mode) ? mode : DEFAULTS.mode,
    readOnly: get('readOnly') === true,
    noDestructive: get('noDestructive') === true,
    hiddenTools: list(get('hiddenTools')),
    hiddenZones: list(get('hiddenZones')),
    allowedDevices: list(get('allowedDevices')),
    origins: list(get('origins')),
    personalKeyEnabled: get('personalKeyEnabled') === true,
    personalKey: typeof get('personalKey') === 'string' ? get('personalKey').trim() : '',
    webTools: get('webTools') === true,
  };
}

module.exports = { KEYS, DEFAULTS, MODES, newToken, readSettings };
