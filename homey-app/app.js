'use strict';

// MCP Switchboard: AI assistants reach the home's devices, Flows, moods,
// insights and diagnostics over the Model Context Protocol. The MCP engine
// (protocol, progressive disclosure, search, argument validation) and the
// HTTP gateway come from the mcp-switchboard package; this app only does the
// Homey I/O and holds the tool definitions (lib/tools.json).

require('./lib/memory');

const Homey = require('homey');
const { toolFailure } = require('mcp-switchboard/full');

const builtin = require('./lib/tools.json');
const metadata = require('./lib/tools.metadata.json');
const { HomeyIO, ScopeError, NotFoundError, ProtectedError } = require('./lib/homey-io');
const { FlowTools } = require('./lib/flow-tools');
const { McpServer, SERVER_KEYS } = require('./lib/mcp-server');
const { KEYS, newToken, readSettings } = require('./lib/settings');
const { zonePath } = require('./lib/tools/common');
const { KIND_CODES, protectedKind } = require('./lib/guard');
const { withWebTools } = require('./lib/web-tools');

const TOOL_MODULES = [
  require('./lib/tools/devices'),
  require('./lib/tools/flows'),
  require('./lib/tools/insights'),
  require('./lib/tools/moods'),
  require('./lib/tools/logic'),
  require('./lib/tools/system'),
  require('./lib/tools/energy'),
  require('./lib/tools/alarms'),
  require('./lib/tools/home'),
  require('./lib/tools/flow-edit'),
];

/** A handler whose known failures become tool errors with guidance. */
function guarded(fn) {
  return async (args, ctx) => {
    try {
      return await fn(args ?? {}, ctx);
    } catch (err) {
      if (err instanceof ScopeError) return toolFailure(err.message, { missingScope: err.scope, workarounds: err.workarounds });
      if (err instanceof NotFoundError) return toolFailure(err.message, err.hint ? { hint: err.hint } : undefined);
      if (err instanceof ProtectedError) return toolFailure(err.message, { protectedDevice: { ...err.device, is: err.kind, refused: err.action } });
      throw err;
    }
  };
}

/** What the personal API key is used for, and the permission each needs. */
const PERSONAL_KEY_USES = [
  { id: 'startFlows', scope: 'homey.flow.start' },
  { id: 'moods', scope: 'homey.mood.set' },
  { id: 'logic', scope: 'homey.logic' },
  { id: 'editFlows', scope: 'homey.flow' },
  { id: 'presence', scope: 'homey.user.readonly' },
];

/** Whether a token's scopes include `scope` ("homey" and "homey.flow" include "homey.flow.start"; "homey.user" includes "homey.user.readonly"). */
function grants(scopes, scope) {
  const parts = scope.split('.');
  for (let i = 1; i <= parts.length; i++) if (scopes.includes(parts.slice(0, i).join('.'))) return true;
  return false;
}

class SwitchboardApp extends Homey.App {
  async onInit() {
    this.settings = readSettings(this.homey.settings);
    const log = (...a) => this.log(...a);
    this.io = new HomeyIO(this.homey, { settings: () => this.settings, log });

    this.flowTools = new FlowTools({
      homey: this.homey,
      io: this.io,
      reserved: new Set(builtin.tools.map((t) => t.name)),
      onChange: () => this.flowToolsChanged(),
      log,
    });

    // handlers by tool name; Flow tools come and go as Flows change
    this.handlers = {};
    const context = { io: this.io, flowTools: this.flowTools, homey: this.homey };
    for (const make of TOOL_MODULES) {
      for (const [name, fn] of Object.entries(make(context))) this.handlers[name] = guarded(fn);
    }
    const missing = builtin.tools.map((t) => t.name).filter((n) => !this.handlers[n]);
    if (missing.length) throw new Error(`tools without a handler: ${missing.join(', ')}`);

    this.server = new McpServer({
      name: 'mcp-switchboard-homey',
      version: this.homey.manifest.version,
      metadata: this.metadata(),
      log,
      error: (...a) => this.error(...a),
    });
    try {
      await this.flowTools.init();
    } catch (err) {
      this.error('the AI tool Flows could not be read:', err.message);
    }
    await this.server.start(this.catalog(), this.handlers, this.settings);

    this.homey.settings.on('set', (key) => this.settingChanged(key));
    this.homey.settings.on('unset', (key) => this.settingChanged(key));
    this.log(`ready: ${builtin.tools.length} tools and ${this.flowTools.tools.size} AI tool Flow(s)`);
  }

  /** The tools/list text: the built-in tools, the Flow tools and, when switched on, the web tools. */
  catalog() {
    const tools = [...builtin.tools, ...this.flowTools.definitions()];
    if (!this.settings.webTools) return JSON.stringify({ tools });
    const web = withWebTools(tools, metadata);
    for (const [name, fn] of Object.entries(web.handlers)) this.handlers[name] = fn;
    return JSON.stringify({ tools: web.tools });
  }

  /** The search metadata: the app's, with the web tools' (category "web") when they are on. */
  metadata() {
    return this.settings.webTools ? withWebTools([], metadata).metadata : metadata;
  }

  /** The web tools switched on or off: handlers, catalog and metadata change, and the gateway is made again with them. */
  webToolsChanged() {
    if (!this.settings.webTools) {
      delete this.handlers.web_fetch;
      delete this.handlers.web_search;
    }
    this.server.restart(this.catalog(), this.metadata(), this.settings)
      .catch((err) => this.error('switching the web tools failed:', err.message));
  }

  flowToolsChanged() {
    for (const name of Object.keys(this.handlers)) {
      if (!builtin.tools.some((t) => t.name === name) && !this.flowTools.has(name)) delete this.handlers[name];
    }
    for (const { name } of this.flowTools.definitions()) {
      this.handlers[name] = guarded((args, ctx) => this.flowTools.run(name, args, ctx));
    }
    if (this.server?.source) this.server.setCatalog(this.catalog());
  }

  settingChanged(key) {
    const before = this.settings;
    this.settings = readSettings(this.homey.settings);
    if (key === KEYS.personalKey || key === KEYS.personalKeyEnabled) this.io.reset();
    if (before.webTools !== this.settings.webTools) {
      this.webToolsChanged();
      return;
    }
    if (SERVER_KEYS.some((k) => JSON.stringify(before[k]) !== JSON.stringify(this.settings[k]))) {
      this.server.apply(this.settings).catch((err) => this.error('applying the settings failed:', err.message));
    }
  }

  /** For the Web API route /mcp. */
  handleWebApi(body) {
    return this.server.handleWebApi(body);
  }

  /** For the settings page. */
  async status() {
    let address = null;
    try {
      address = String(await this.homey.cloud.getLocalAddress()).split(':')[0];
    } catch {
      // not known (e.g. while the network is down)
    }
    const server = this.server.status();
    const host = address ?? '<hub address>';
    return {
      appId: this.homey.manifest.id,
      version: this.homey.manifest.version,
      server,
      address,
      url: `http://${host}:${server.port}/mcp`,
      webApiUrl: `http://${host}/api/app/${this.homey.manifest.id}/mcp`,
      token: this.settings.token,
      mode: this.settings.mode,
      tools: builtin.tools.map((t) => ({ name: t.name, title: t.title })),
      flowTools: this.flowTools.definitions().map((t) => ({ name: t.name, description: t.description })),
      skippedFlowTools: this.flowTools.skipped,
      personalKey: { enabled: this.settings.personalKeyEnabled, set: this.settings.personalKey.length > 0 },
    };
  }

  /** Makes a new bearer token; the LAN server restarts with it. */
  async regenerateToken() {
    const token = newToken();
    this.homey.settings.set(KEYS.token, token);
    return { token };
  }

  /** Every zone with its path, hidden ones included (for the settings page). */
  async zones() {
    const zones = await this.io.allZones();
    return Object.values(zones)
      .map((z) => ({ id: z.id, name: z.name, path: zonePath(z, zones) }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /** The protected devices (locks, garage doors, alarms, sirens) and whether the owner allowed each (for the settings page). */
  async protectedDevices() {
    const { zonesById, devicesById, allowed } = await this.io.visibility();
    const out = [];
    for (const d of devicesById.values()) {
      const kind = protectedKind(d);
      if (!kind) continue;
      const zone = zonesById[d.zone];
      out.push({ id: d.id, name: d.name, kind, code: KIND_CODES.get(kind), zone: zone ? zonePath(zone, zonesById) : null, allowed: allowed.has(d.id) });
    }
    return out.sort((a, b) => (a.zone ?? '').localeCompare(b.zone ?? '') || a.name.localeCompare(b.name));
  }

  /**
   * For the settings page's test button: whether the key works, and what the
   * app can do with it (each action and the permission it needs).
   */
  async testPersonalKey() {
    try {
      const { hub, scopes } = await this.io.testPersonalKey();
      const can = (scope) => (scopes === null ? null : grants(scopes, scope));
      return { ok: true, hub, works: PERSONAL_KEY_USES.map(({ id, scope }) => ({ id, scope, ok: can(scope) })) };
    } catch (err) {
      return { ok: false, code: err.code ?? 'refused', error: err.message };
    }
  }

  async onUninit() {
    this.flowTools?.close();
    await this.server?.close();
    await this.io?.close();
  }
}

module.exports = SwitchboardApp;
