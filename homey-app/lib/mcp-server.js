'use strict';

// The two ways in to the MCP engine, both from the package's gateway
// library: the app's own Streamable HTTP server on the LAN (bearer token,
// Origin checks, failed logins rate-limited) and the app's Web API route
// (/api/app/<id>/mcp, Homey's own token, JSON replies). This module only
// starts, restarts and stops them and hands them the tools.

const { load } = require('./switchboard');
const { LoginGuard, guardServer } = require('./login-guard');

const INSTRUCTIONS = 'This server controls a Homey smart home. Call get_home_structure first for the zone and device IDs the other tools take; '
  + 'get_states reads current values. In hybrid mode more tools are found with search_tools and run with use_tool.';

/** The settings that need the LAN server restarted when they change. */
const SERVER_KEYS = ['serverEnabled', 'port', 'token', 'origins', 'mode', 'readOnly', 'noDestructive', 'hiddenTools'];

class McpServer {
  /**
   * @param {object} options
   * @param {string} options.name server name reported to clients
   * @param {string} options.version
   * @param {object} options.metadata curated search metadata for the tools
   * @param {string} [options.host] bind address of the LAN server (default 0.0.0.0)
   * @param {(...a: unknown[]) => void} options.log
   */
  constructor({ name, version, metadata, host = '0.0.0.0', log }) {
    this.name = name;
    this.version = version;
    this.metadata = metadata;
    this.host = host;
    this.log = log;
    this.lib = null;
    this.source = null;
    this.gateway = null;
    this.web = null;
    this.settings = null;
    this.lastError = null;
    this.guard = new LoginGuard();
    this.queue = Promise.resolve();
  }

  engineOptions(s) {
    return {
      name: this.name,
      version: this.version,
      instructions: INSTRUCTIONS,
      mode: s.mode,
      metadata: this.metadata,
      readOnly: s.readOnly,
      noDestructive: s.noDestructive,
      ...(s.hiddenTools.length ? { deny: s.hiddenTools } : {}),
    };
  }

  /** Starts both entries with `catalog` (tools/list JSON text) and `handlers`. */
  async start(catalog, handlers, settings) {
    this.lib = await load();
    this.source = this.lib.handlerSource(catalog, handlers, 'homey');
    return this.apply(settings);
  }

  /** Serves a new tool list (clients with an open stream get list_changed). */
  setCatalog(catalog) {
    const text = this.lib.handlerSource(catalog, {}, 'homey').catalog;
    this.source.catalog = text;
    if (this.gateway) this.gateway.setCatalog(text);
    this.web?.setCatalog(text);
  }

  /** Applies new settings; restarts what they affect. Calls are run one at a time. */
  apply(settings) {
    const run = this.queue.then(() => this.#apply(settings));
    this.queue = run.catch(() => {});
    return run;
  }

  async #apply(settings) {
    const before = this.settings;
    this.settings = settings;
    const changed = !before || SERVER_KEYS.some((k) => JSON.stringify(before[k]) !== JSON.stringify(settings[k]));
    const engine = this.engineOptions(settings);
    if (!before || ['mode', 'readOnly', 'noDestructive', 'hiddenTools'].some((k) => JSON.stringify(before[k]) !== JSON.stringify(settings[k]))) {
      this.web?.close();
      this.web = new this.lib.Session(this.source, { engine, log: (line) => this.log('[web api]', line) });
    }
    if (!changed) return this.status();
    if (this.gateway) {
      const old = this.gateway;
      this.gateway = null;
      await old.close();
    }
    this.lastError = null;
    if (!settings.serverEnabled) return this.status();
    try {
      this.gateway = await this.lib.startGateway({
        source: this.source,
        host: this.host,
        port: settings.port,
        token: settings.token,
        origins: settings.origins,
        engine,
        log: (line) => this.log('[mcp]', line),
      });
      guardServer(this.gateway.server, this.guard, (line) => this.log('[mcp]', line));
      this.log(`MCP server listening on port ${this.gateway.port}`);
    } catch (err) {
      this.lastError = err.code === 'EADDRINUSE' ? `port ${settings.port} is in use by another program: choose another port` : err.message;
      this.log('MCP server did not start:', this.lastError);
    }
    return this.status();
  }

  /** One JSON-RPC message (or batch) from the Web API route; the reply, or null when none is owed. */
  async handleWebApi(body) {
    if (!this.web) throw new Error('the MCP engine is not ready yet');
    const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
    const { owed, reply } = this.web.send(text);
    const answer = await reply;
    if (!owed || answer === null) return null;
    return JSON.parse(answer);
  }

  status() {
    return {
      running: this.gateway !== null,
      port: this.gateway?.port ?? this.settings?.port ?? null,
      sessions: this.gateway?.sessions.size ?? 0,
      error: this.lastError,
      lockedOut: this.guard.lockedOut(),
    };
  }

  async close() {
    await this.queue;
    this.web?.close();
    this.web = null;
    if (this.gateway) await this.gateway.close();
    this.gateway = null;
  }
}

module.exports = { McpServer, SERVER_KEYS };
