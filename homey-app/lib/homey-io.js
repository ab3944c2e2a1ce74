'use strict';

// Device I/O through the Homey Web API (homey-api). The app's own token
// (HomeyAPI.createAppAPI) does most things; a few actions need scopes Homey
// does not give apps (starting a Flow, activating a mood, ...): those retry
// with the optional personal API key from the settings, and otherwise fail
// with a ScopeError that says how to get around it.

const Module = require('module');
const path = require('path');

const { ProtectedError, protectedKind, riskyChange } = require('./guard');
const { lookup } = require('./tools/common');

/**
 * Registers module `name` (as `from` resolves it) as a stand-in that loads
 * the real module the first time it is called or constructed, or one of
 * `properties` is read. Only for modules used that way: an export that is
 * one function or class, or an object read only through `properties`.
 */
function defer(name, from, properties = []) {
  let file;
  try {
    file = require.resolve(name, { paths: [from] });
  } catch {
    return; // not installed where `from` looks: it loads as it would
  }
  if (require.cache[file]) return;
  let real = null;
  const load = () => {
    if (!real) {
      delete require.cache[file];
      real = require(file);
    }
    return real;
  };
  const stand = new Module(file, module);
  stand.filename = file;
  stand.loaded = true;
  stand.exports = function deferred(...args) {
    return new.target ? Reflect.construct(load(), args) : load()(...args);
  };
  for (const key of properties) Object.defineProperty(stand.exports, key, { get: () => load()[key] });
  require.cache[file] = stand;
}

/**
 * homey-api's HomeyAPI class, loaded lean. The package's index loads every
 * Athom cloud client; HomeyAPI alone loads the local Web API client when a
 * client is made. That client loads two modules at the top that the app
 * never uses (about 19 MB on Node 18 together): socket.io-client for
 * realtime events (the app reads on demand, and homey-api caches items only
 * while a socket is open) and form-data for app uploads (the developer kit).
 * Its requests go through node-fetch 2, which loads whatwg-url (with tr46's
 * Unicode mapping table: 4 MB RSS, 1.9 MB of JS heap on Node 18) only to
 * parse URLs where Node has no URL class of its own; Node 18 has one.
 * They are put off until something really uses them.
 */
function loadHomeyApi() {
  const dir = path.dirname(require.resolve('homey-api/package.json'));
  defer('socket.io-client', dir);
  defer('form-data', dir);
  try {
    defer('whatwg-url', path.dirname(require.resolve('node-fetch/package.json', { paths: [dir] })), ['URL']);
  } catch {
    // node-fetch not where homey-api finds it: it loads as it would
  }
  return require(path.join(dir, 'lib', 'HomeyAPI', 'HomeyAPI'));
}

let homeyApiClass = null;
/** HomeyAPI, loaded on first use. */
function HomeyAPI() {
  homeyApiClass ??= loadHomeyApi();
  return homeyApiClass;
}

/** Whether a Web API error says the token lacks a scope (403 Missing Scopes). */
function missingScope(err) {
  if (!err) return false;
  return err.statusCode === 403 || /missing scope/i.test(String(err.message || ''));
}

/** An action the app's token may not do, with the ways around it. */
class ScopeError extends Error {
  /**
   * @param {string} action what was attempted, e.g. "Activating a mood"
   * @param {string} scope the Web API scope it needs
   * @param {{personalKeyTried: boolean, cardHint?: string}} info
   */
  constructor(action, scope, { personalKeyTried, cardHint }) {
    const workarounds = [];
    if (cardHint) workarounds.push(cardHint);
    if (personalKeyTried) {
      workarounds.push(`The personal API key in the app's settings lacks it too: make a new key at my.homey.app (Settings, API keys) that includes the "${scope}" permission and paste it in the app's settings.`);
    } else {
      workarounds.push(`Or, in the app's settings, switch on "Personal API key" and paste a key made at my.homey.app (Settings, API keys) with the "${scope}" permission; it is used only for actions like this one.`);
    }
    super(`${action} needs the Homey permission "${scope}", which Homey does not give apps (403 Missing Scopes).`);
    this.name = 'ScopeError';
    this.scope = scope;
    this.workarounds = workarounds;
  }
}

/** A device or zone that does not exist, or that the settings hide. */
class NotFoundError extends Error {
  constructor(message, hint) {
    super(message);
    this.name = 'NotFoundError';
    this.hint = hint;
  }
}

class HomeyIO {
  /**
   * @param {object} homey the app's Homey instance
   * @param {{settings: () => {hiddenZones: string[], personalKeyEnabled: boolean, personalKey: string}, log?: (...a: unknown[]) => void}} options
   */
  constructor(homey, { settings, log = () => {} }) {
    this.homey = homey;
    this.settings = settings;
    this.log = log;
    this._app = null;
    this._personal = null;
  }

  /** The Web API client with the app's own token. */
  api() {
    this._app ??= HomeyAPI().createAppAPI({ homey: this.homey }).catch((err) => {
      this._app = null;
      throw err;
    });
    return this._app;
  }

  /** The client with the personal API key, when the settings switch it on; else null. */
  async personalApi() {
    const { personalKeyEnabled, personalKey } = this.settings();
    if (!personalKeyEnabled || !personalKey) return null;
    if (this._personal?.key !== personalKey) {
      const address = await this.homey.api.getLocalUrl();
      const api = HomeyAPI().createLocalAPI({ address, token: personalKey });
      this._personal = { key: personalKey, api };
      api.catch(() => {
        if (this._personal?.api === api) this._personal = null;
      });
    }
    return this._personal.api;
  }

  /** Checks the personal API key: resolves with the hub's name, or throws. */
  /**
   * Checks the personal API key: the hub's name and the key's permissions
   * (its session's scopes, which reading needs no permission for), or throws
   * an Error whose `code` is "off" (switched off or empty) or "refused".
   */
  async testPersonalKey() {
    const api = await this.personalApi().catch(() => null);
    if (!api) throw Object.assign(new Error('the personal API key is switched off or empty'), { code: 'off' });
    let client;
    let session;
    try {
      client = await api;
      session = await client.sessions.getSessionMe();
    } catch (err) {
      throw Object.assign(new Error(`the hub refused the key (${err.statusCode ?? err.message})`), { code: 'refused' });
    }
    // the hub's name needs homey.system.readonly, which a key may lack
    const info = await client.system.getInfo().catch(() => null);
    return { hub: info?.homeyName ?? info?.hostname ?? null, scopes: Array.isArray(session?.scopes) ? session.scopes : null };
  }

  /**
   * Runs `run(api)` with the app's token; when that lacks `scope`, again with
   * the personal API key, if any; otherwise throws a ScopeError.
   */
  async withScope(scope, action, run, cardHint) {
    try {
      return await run(await this.api());
    } catch (err) {
      if (!missingScope(err)) throw err;
    }
    const personal = await this.personalApi();
    if (personal) {
      try {
        return await run(await personal);
      } catch (err) {
        if (!missingScope(err)) throw err;
        throw new ScopeError(action, scope, { personalKeyTried: true, cardHint });
      }
    }
    throw new ScopeError(action, scope, { personalKeyTried: false, cardHint });
  }

  /** Every zone, hidden ones included, by ID. */
  async allZones() {
    const api = await this.api();
    return api.zones.getZones();
  }

  /** The IDs of zones the settings hide: those listed and every zone inside them. */
  hiddenZoneIds(zonesById) {
    const listed = new Set(this.settings().hiddenZones);
    const hidden = new Set();
    if (listed.size === 0) return hidden;
    for (const zone of Object.values(zonesById)) {
      // walk up the parents; a cycle or a missing parent ends the walk
      const seen = new Set();
      for (let z = zone; z && !seen.has(z.id); z = zonesById[z.parent]) {
        seen.add(z.id);
        if (listed.has(z.id)) {
          hidden.add(zone.id);
          break;
        }
      }
    }
    return hidden;
  }

  /** The visible zones and devices (arrays), read together. */
  async home() {
    const { zones, devices, zonesById } = await this.visibility();
    return { zones, devices, zonesById };
  }

  /**
   * The whole home and what the settings hide: the visible zones and
   * devices (arrays), every zone by ID, every device by ID (a Map), the
   * hidden zone and device IDs, and the protected devices the owner allowed.
   */
  async visibility() {
    const api = await this.api();
    const [zonesById, all] = await Promise.all([api.zones.getZones(), api.devices.getDevices()]);
    const hiddenZones = this.hiddenZoneIds(zonesById);
    const devicesById = new Map(Object.values(all ?? {}).map((d) => [d.id, d]));
    const hiddenDevices = new Set();
    const devices = [];
    for (const d of devicesById.values()) {
      if (hiddenZones.has(d.zone)) hiddenDevices.add(d.id);
      else devices.push(d);
    }
    const zones = Object.values(zonesById).filter((z) => !hiddenZones.has(z.id));
    return { zones, devices, zonesById, devicesById, hiddenZones, hiddenDevices, allowed: new Set(this.settings().allowedDevices ?? []) };
  }

  /** One visible device, or a NotFoundError. */
  async device(id) {
    const api = await this.api();
    let device;
    try {
      device = await api.devices.getDevice({ id });
    } catch (err) {
      if (err.statusCode === 404) throw new NotFoundError(`no device with ID ${JSON.stringify(id)}`, 'get_home_structure lists the device IDs');
      throw err;
    }
    if (this.settings().hiddenZones.length > 0) {
      const hidden = this.hiddenZoneIds(await this.allZones());
      if (hidden.has(device.zone)) throw new NotFoundError(`no device with ID ${JSON.stringify(id)}`, 'get_home_structure lists the device IDs');
    }
    return device;
  }

  /** A visible zone and the IDs of the zones inside it (itself included). */
  async zoneWithin(zoneId, includeSubzones = true) {
    const { zones } = await this.home();
    const zone = lookup(zones, { id: zoneId });
    if (!zone) throw new NotFoundError(`no zone with ID ${JSON.stringify(zoneId)}`, 'get_home_structure lists the zone IDs');
    const ids = new Set([zone.id]);
    if (includeSubzones) {
      let grew = true;
      while (grew) {
        grew = false;
        for (const z of zones) {
          if (!ids.has(z.id) && ids.has(z.parent)) {
            ids.add(z.id);
            grew = true;
          }
        }
      }
    }
    return { zone, ids };
  }

  /** Throws a ProtectedError when setting `capabilityId` of `device` to `value` is refused to the assistant. */
  checkWrite(device, capabilityId, value) {
    const action = riskyChange(device, capabilityId, value);
    if (action && !(this.settings().allowedDevices ?? []).includes(device.id)) {
      throw new ProtectedError(device, protectedKind(device), action);
    }
  }

  /**
   * Sets one capability value of `device` (a device object): every device
   * write of every tool comes through here, so a protected device is
   * refused (ProtectedError) whatever tool asked, unless the owner allowed it.
   */
  async setCapability(device, capabilityId, value) {
    this.checkWrite(device, capabilityId, value);
    const api = await this.api();
    await api.devices.setCapabilityValue({ deviceId: device.id, capabilityId, value });
  }

  /** Drops the clients (settings changed, or the app stops). */
  reset() {
    this._personal = null;
  }

  async close() {
    for (const p of [this._app, this._personal?.api]) {
      const api = await p?.catch(() => null);
      if (api && typeof api.destroy === 'function') api.destroy();
    }
    this._app = null;
    this._personal = null;
  }
}

module.exports = { HomeyIO, ScopeError, NotFoundError, ProtectedError, missingScope, HomeyAPI };
