'use strict';

// The two ways in to the MCP engine, both served by one gateway from the
// package (mcp-switchboard/gateway): the app's own Streamable HTTP server on
// the LAN (bearer token, Origin checks, failed logins limited per address by
// the gate) and the app's Web API route (/api/app/<id>/mcp, Homey's own
// token, one JSON-RPC message in, its reply out). This module only starts
// and stops the gateway, hands it the tools and passes settings on.

const { createGateway, handlerSource } = require('mcp-switchboard/gateway');
const { ClientSession } = require('mcp-switchboard/full');

const INSTRUCTIONS = 'This server controls a Homey smart home. Call get_home_structure first for the zone and device IDs the other tools take; '
  + 'get_states reads current values. In hybrid mode more tools are found with search_tools and run with use_tool.';

/** The settings the MCP entries use. */
const SERVER_KEYS = ['serverEnabled', 'port', 'token', 'origins', 'mode', 'readOnly', 'noDestructive', 'hiddenTools'];

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The engine's exposure from the settings (fields left out are off). */
function exposure(s) {
  return { readOnly: s.readOnly, noDestructive: s.noDestructive, ...(s.hiddenTools.length ? { deny: s.hiddenTools } : {}) };
}

class McpServer {
  /**
   * @param {object} options
   * @param {string} options.name server name reported to clients
   * @param {string} options.version
   * @param {object} options.metadata curated search metadata for the tools
   * @param {string} [options.host] bind address of the LAN server (default 0.0.0.0)
   * @param {(...a: unknown[]) => void} options.log
   * @param {(...a: unknown[]) => void} [options.error]
   */
  constructor({ name, version, metadata, host = '0.0.0.0', log, error = log }) {
    this.name = name;
    this.version = version;
    this.metadata = metadata;
    this.host = host;
    this.log = log;
    this.source = null;
    this.gateway = null;
    this.settings = null;
    this.lastError = null;
    // sessions opening and closing are not worth a log line on a hub
    this.logger = { warn: (line) => log('[mcp]', line), error: (line) => error('[mcp]', line) };
    this.queue = Promise.resolve();
  }

  /** Starts serving `catalog` (tools/list JSON text) with `handlers` (by tool name; read at each call). */
  async start(catalog, handlers, settings) {
    this.source = handlerSource(catalog, handlers, 'homey');
    return this.apply(settings);
  }

  /**
   * Serves a new tool list with new search metadata: the gateway is made
   * again (the engine's metadata is fixed when it is made), so connected
   * clients connect again.
   */
  restart(catalog, metadata, settings) {
    const run = this.queue.then(() => {
      this.metadata = metadata;
      this.source = { ...this.source, catalog };
      this.settings = null;
      return this.#apply(settings);
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Serves a new tool list (clients with an open stream get list_changed). */
  setCatalog(catalog) {
    if (this.gateway) {
      this.gateway.updateCatalog(catalog);
      this.source = this.gateway.source;
    } else {
      this.source = { ...this.source, catalog };
    }
  }

  /** Applies new settings: the token, origins, mode and exposure in place; a new port or the server switch restarts it. */
  apply(settings) {
    const run = this.queue.then(() => this.#apply(settings));
    this.queue = run.catch(() => {});
    return run;
  }

  async #apply(s) {
    const before = this.settings;
    this.settings = s;
    if (this.gateway && before && before.port === s.port && before.serverEnabled === s.serverEnabled) {
      const gw = this.gateway;
      if (before.token !== s.token) gw.setToken(s.token);
      if (!same(before.origins, s.origins)) gw.setOrigins(s.origins);
      if (!same(exposure(before), exposure(s))) gw.setPolicy(exposure(s));
      if (before.mode !== s.mode) gw.setMode(s.mode);
      return this.status();
    }
    if (this.gateway) {
      const old = this.gateway;
      this.gateway = null;
      await old.close();
    }
    this.lastError = null;
    this.lastErrorCode = null;
    this.gateway = this.#create(s);
    if (!s.serverEnabled) return this.status();
    try {
      await this.gateway.listen({ port: s.port });
      this.log(`MCP server listening on port ${this.gateway.port}`);
    } catch (err) {
      this.lastError = err.code === 'EADDRINUSE' ? `port ${s.port} is in use by another program: choose another port` : err.message;
      this.lastErrorCode = err.code === 'EADDRINUSE' ? 'port-in-use' : null;
      this.log('MCP server did not start:', this.lastError);
      // the Web API route still needs a gateway
      await this.gateway.close();
      this.gateway = this.#create(s);
    }
    return this.status();
  }

  #create(s) {
    return createGateway({
      source: this.source,
      host: this.host,
      token: s.token,
      origins: s.origins,
      engine: {
        name: this.name,
        version: this.version,
        instructions: INSTRUCTIONS,
        mode: s.mode,
        metadata: this.metadata,
        ...exposure(s),
      },
      logger: this.logger,
    });
  }

  /** One JSON-RPC message (or batch) from the Web API route; the reply, or null when none is owed. */
  async handleWebApi(body) {
    await this.queue;
    if (!this.gateway) throw new Error('the MCP engine is not ready yet');
    const reply = await this.gateway.handleMessage(typeof body === 'string' ? body : JSON.stringify(body ?? null));
    return reply === null ? null : JSON.parse(reply);
  }

  /**
   * The app's own assistant as a client of the same engine as the Web API
   * route (the gateway's handleMessage): the tools/list pages it lists, in
   * the owner's disclosure mode and exposure.
   * @returns {Promise<object[]>} the pages' results (the conversation reads them as one catalog)
   */
  async listTools() {
    const pages = [];
    // the requests are the package's MCP client's, numbered for the shared engine
    const client = new ClientSession();
    try {
      let cursor;
      do {
        const request = JSON.parse(client.listTools(cursor ?? null).message);
        const reply = await this.handleWebApi({ ...request, id: this.#nextId() });
        if (reply.error) throw new Error(`the tool list could not be read: ${reply.error.message}`);
        pages.push(reply.result);
        cursor = reply.result.nextCursor;
      } while (cursor && pages.length < 100);
    } finally {
      client.free();
    }
    return pages;
  }

  /**
   * Runs a tools/call request the conversation wrote on that engine, as a
   * client's would run: validated, under the exposure, through the app's
   * handlers. Its id is made unique on the shared engine (conversations
   * and Web API callers number their requests each on their own).
   * @returns {Promise<object>} the JSON-RPC response (the conversation reads its result or error)
   */
  callTool(request) {
    return this.handleWebApi({ ...request, id: this.#nextId() });
  }

  #asked = 0;
  #nextId() {
    this.#asked = (this.#asked + 1) % Number.MAX_SAFE_INTEGER;
    return `homey-assistant-${this.#asked}`;
  }

  /** For the settings page: the gateway's own status, and what the app adds (port in use, errors). */
  status() {
    const gw = this.gateway?.status();
    return {
      running: Boolean(gw?.url),
      port: this.gateway?.port ?? this.settings?.port ?? null,
      sessions: gw?.sessions ?? 0,
      tools: gw?.tools ?? 0,
      listed: gw?.listed ?? 0,
      calls: gw?.counts.calls ?? 0,
      failedLogins: gw?.counts.authFailures ?? 0,
      error: this.lastError,
      errorCode: this.lastErrorCode ?? null,
      // the gate's own failed-login table: the addresses it refuses now
      lockedOut: (gw?.lockedOut ?? []).map((l) => l.remote),
    };
  }

  async close() {
    await this.queue;
    if (this.gateway) await this.gateway.close();
    this.gateway = null;
  }
}

module.exports = { McpServer, SERVER_KEYS };
