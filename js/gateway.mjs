// Streamable HTTP MCP server on node:http. Every transport decision (which
// request is refused with which status, when a session starts or ends,
// whether a body gets a reply, which address has failed too many logins)
// comes from HttpGate; every JSON-RPC decision from the session's Engine.
// This module moves bytes, keeps the session table's objects, runs the
// clock and passes run-time changes (token, origins, exposure, mode,
// catalog) on to them.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { HttpGate, readCatalog } from '../pkg/full/index.mjs';
import { Session, defined, errorStack, errorText, reporter } from './dispatch.mjs';

// the library's other parts, so that one import (mcp-switchboard/gateway) has them all
export { Session, handlerSource } from './dispatch.mjs';
export { serveStdio } from './stdio.mjs';
export { Upstream, connectUpstream, connectUpstreams } from './upstream.mjs';

/**
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {import('node:http').Server} Server
 * @typedef {import('./dispatch.mjs').ToolSource} ToolSource
 * @typedef {import('./dispatch.mjs').ToolHandler} ToolHandler
 * @typedef {import('./dispatch.mjs').ToolContext} ToolContext
 * @typedef {import('./dispatch.mjs').GatewayEvent} GatewayEvent
 * @typedef {import('./dispatch.mjs').Logger} Logger
 * @typedef {import('./dispatch.mjs').LogOptions} LogOptions
 * @typedef {import('./dispatch.mjs').Level} Level
 * @typedef {import('./stdio.mjs').StdioOptions} StdioOptions
 * @typedef {import('./stdio.mjs').StdioServer} StdioServer
 * @typedef {import('./upstream.mjs').UpstreamOptions} UpstreamOptions
 * @typedef {import('../pkg/full/index.mjs').EngineOptions} EngineOptions
 * @typedef {import('../pkg/full/index.mjs').ExposureOptions} ExposureOptions
 * @typedef {import('../pkg/full/index.mjs').Mode} Mode
 * @typedef {import('../pkg/full/index.mjs').GateStats} GateStats
 * @typedef {import('../pkg/full/index.mjs').Lockout} Lockout
 */

/**
 * Gateway options. The limits are the package's HTTP rules (HttpGate options); every one has a
 * default sized for a small hub.
 * @typedef {object} GatewayOwnOptions
 * @property {ToolSource} source the tools (handlerSource(), connectUpstream(), or your own)
 * @property {string} [host] the address the server is bound to (default 127.0.0.1); any address that is not
 *   loopback needs a token, and a loopback one answers only requests addressed to localhost
 * @property {string} [path] the MCP endpoint's path (default /mcp)
 * @property {string} [token] the bearer token every request must carry
 * @property {string[]} [origins] browser origins allowed besides localhost ones (`*` for any)
 * @property {number} [maxBody] largest request body in bytes (default 1 MiB)
 * @property {number} [maxSessions] most sessions at once (default 64)
 * @property {number} [sessionIdleMs] idle time after which a session expires (default 10 minutes)
 * @property {number} [maxStreams] notification streams per session (default 2)
 * @property {number} [maxInflight] requests in progress per session (default 16)
 * @property {number} [headersTimeoutMs] time for a request's headers (default 10 s)
 * @property {number} [requestTimeoutMs] time for a whole request (default 30 s)
 * @property {number} [maxConnections] open connections at once (default 256); past it, a connection that has not
 *   sent a whole request yet (or an idle one) makes room, else the new one is closed
 * @property {number} [maxConnectionsPerAddress] open connections per remote address (default 64)
 * @property {number} [streamMaxMs] the longest an event stream (a session's GET stream, a subscriptions/listen
 *   stream) stays open before the gateway ends it (default 30 minutes); keepalives every 25 s (or half of this)
 * @property {number} [maxAuthFailures] failed logins per remote address within authWindowMs before that
 *   address gets 429 (default 10)
 * @property {number} [authWindowMs] the window of maxAuthFailures, and how long a locked-out address waits
 *   (default 60 s)
 * @property {EngineOptions} [engine] every session's engine options (mode, pageSize, allow, deny, readOnly, ...)
 * @property {number} [timeoutMs] per-invocation timeout (default 30 s)
 * @property {(req: IncomingMessage) => string | undefined} [remoteAddress] the client's address, for
 *   failed-login limiting (default: the socket's remote address; behind a proxy, read its header here)
 */

/** @typedef {GatewayOwnOptions & LogOptions} GatewayOptions */

/**
 * Where startGateway() serves.
 * @typedef {object} ListenOptions
 * @property {Server} [server] serve on this http.Server (its request listener is added; it is started on
 *   port/host unless it listens already); default: a new one
 * @property {number} [port] default 0 (an ephemeral port)
 */

/**
 * What status() tells.
 * @typedef {object} GatewayStatus
 * @property {string | null} url the MCP endpoint, once listening
 * @property {number} sessions sessions open
 * @property {number} tools tools the exposure admits
 * @property {number} listed tools tools/list shows (meta-tools included)
 * @property {Mode} mode the disclosure mode
 * @property {boolean} token whether requests must carry a bearer token
 * @property {string[]} origins browser origins allowed besides localhost ones
 * @property {Lockout[]} lockedOut remote addresses the gate refuses for their failed logins, and until when
 * @property {GateStats & { calls: number; toolErrors: number; messages: number }} counts what the gate
 *   decided, tool calls and tool errors, and messages taken by handleMessage()
 */

/** @typedef {Session & { streams: Set<ServerResponse> }} HttpSession */

/** Each connection's number for the gate, on its socket. */
const CONNECTION = Symbol('connection');

/**
 * An MCP gateway not yet listening: its request handler serves the
 * Streamable HTTP transport on any node:http server or framework, and
 * handleMessage() answers single messages.
 * @param {GatewayOptions} options
 * @returns {Gateway}
 */
export function createGateway(options) {
  return new Gateway(options);
}

/**
 * Starts a gateway on its own http.Server (or the one given); resolves once it listens.
 * @param {GatewayOptions & ListenOptions} options
 * @returns {Promise<Gateway>}
 */
export async function startGateway(options) {
  const gateway = new Gateway(options);
  try {
    await gateway.listen(options);
  } catch (e) {
    await gateway.close();
    throw e;
  }
  return gateway;
}

/**
 * An MCP server over Streamable HTTP: sessions, SSE, list_changed on GET streams, bearer tokens,
 * origin checks and failed-login limiting, with run-time changes that keep sessions open.
 */
export class Gateway {
  /** @type {ToolSource} */
  #source;
  /** @type {EngineOptions} */
  #engine;
  #timeoutMs;
  /** @type {string[]} */
  #origins;
  #report;
  #remoteAddress;
  /** the session handleMessage() uses; also what status() reads */
  #shared;
  #counts = { calls: 0, toolErrors: 0, messages: 0 };
  /** @type {ReturnType<typeof setInterval>} */
  #sweeper;
  /** @type {Server | null} */
  #server = null;
  #ownServer = false;
  /** @type {Promise<void> | undefined} */
  #closing;
  #closed = false;
  /** @type {Outcomes} */
  #outcomes;
  /** the bind address (for listen()) and the endpoint's path (for the URL) */
  #host;
  #path;
  /** the last channel given to a 2026-07-28 request */
  #channels = 0;
  /** the last number given to a connection */
  #connectionIds = 0;
  /** @type {Map<number, import('node:net').Socket>} open connections by number */
  #sockets = new Map();

  /** @param {GatewayOptions} options */
  constructor(options) {
    const { source, host = '127.0.0.1', token, engine = {}, timeoutMs = 30_000, origins = [] } = options;
    const { path, maxBody, maxSessions, sessionIdleMs, maxStreams, maxInflight, headersTimeoutMs, requestTimeoutMs, maxConnections, maxAuthFailures, authWindowMs } = options;
    const { maxConnectionsPerAddress, streamMaxMs } = options;
    this.#report = reporter(options);
    this.#host = host;
    this.#path = path ?? '/mcp';
    /** the Streamable HTTP rules and the session table (the package's HttpGate) */
    this.gate = new HttpGate(
      host,
      token ?? null,
      defined({
        origins,
        path,
        maxBody,
        maxSessions,
        sessionIdleMs,
        maxStreams,
        maxInflight,
        headersTimeoutMs,
        requestTimeoutMs,
        maxConnections,
        maxAuthFailures,
        authWindowMs,
        maxConnectionsPerAddress,
        streamMaxMs,
      }),
    );
    this.#origins = [...origins];
    this.#source = source;
    this.#engine = { ...engine };
    this.#timeoutMs = timeoutMs;
    this.#remoteAddress = options.remoteAddress ?? ((/** @type {IncomingMessage} */ req) => req.socket?.remoteAddress);
    // made first: it checks the engine options (mode, dialect names) and the catalog up front
    this.#shared = new Session(source, { engine: this.#engine, timeoutMs, report: this.#report, counts: this.#counts });
    if (!source.sources) this.#reportCatalog(source.catalog);
    this.#follow(source);
    /** the limits the server applies (timeouts, connections, body size) */
    this.limits = this.gate.limits;
    // how exchanges end without the engine: fixed for a gate, read once
    const gate = this.gate;
    this.#outcomes = /** @type {Outcomes} */ (Object.fromEntries(OUTCOMES.map((o) => [o, gate.outcome(o)])));
    /** @type {Map<string, HttpSession>} open sessions by id */
    this.sessions = new Map();
    /** the MCP endpoint, once listening */
    this.url = /** @type {string | null} */ (null);
    /** the port, once listening */
    this.port = /** @type {number | null} */ (null);
    // expired sessions are swept a few times per idle period (the gate also
    // refuses an expired id the moment it is used)
    const every = Math.max(1000, Math.min(this.limits.sessionIdleMs / 4, 30_000));
    this.#sweeper = setInterval(() => {
      this.#closeSessions(this.gate.sweep(Date.now()));
      this.#events();
    }, every);
    this.#sweeper.unref();
    /**
     * The request handler: `(req, res)` for node:http, Express, Fastify (`reply.hijack()`, then
     * `request.raw`, `reply.raw`) or any server built on node:http. A body a framework has read already
     * is taken from `req.body` (text, bytes or parsed JSON).
     * @type {(req: IncomingMessage, res: ServerResponse) => void}
     */
    this.handler = (req, res) => {
      if (this.#closed) return reject(res, CLOSED);
      this.#handle(req, res).catch((e) => {
        const message = errorText(e);
        this.#report?.('error', `request failed: ${errorStack(e)}`, { type: 'request-error', remote: this.#remoteAddress(req) ?? null, message });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
        res.end();
      });
    };
    /**
     * Counts a new connection with the gate: closes it, or others to make room, when the gate says so.
     * @param {import('node:net').Socket} socket
     */
    this.connectionListener = (socket) => {
      if (this.#closed) return void socket.destroy();
      const id = ++this.#connectionIds;
      /** @type {any} */ (socket)[CONNECTION] = id;
      // the gate names the one to close to make room: another, or this one
      const close = this.gate.connectionOpened(id, socket.remoteAddress ?? null);
      if (close === id) return void socket.destroy();
      if (close !== 0) this.#sockets.get(close)?.destroy();
      this.#sockets.set(id, socket);
      socket.once('close', () => {
        this.#sockets.delete(id);
        if (!this.#closed) this.gate.connectionClosed(id);
      });
    };
  }

  /** The http.Server serving the gateway, once listening. */
  get server() {
    return this.#server;
  }

  /**
   * Serves on `server` (a new one by default) and listens on port and the gateway's host, unless the
   * server listens already. The gateway's limits are applied to the server (timeouts, connections).
   * @param {ListenOptions} [options]
   * @returns {Promise<void>}
   */
  async listen({ server, port = 0 } = {}) {
    if (this.#server) throw Object.assign(new Error('the gateway listens already'), { code: 'usage' });
    const limits = this.limits;
    const own = !server;
    const srv =
      server ??
      createServer({
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        // how often Node looks for connections past those timeouts
        connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
      });
    if (!own) {
      srv.headersTimeout = limits.headersTimeoutMs;
      srv.requestTimeout = limits.requestTimeoutMs;
    }
    // the gate counts connections (per address too) and decides which give way past the limits; the
    // server's own cap is only a backstop far above them
    srv.maxConnections = limits.maxConnections * 4;
    srv.on('connection', this.connectionListener);
    srv.on('request', this.handler);
    this.#server = srv;
    this.#ownServer = own;
    if (!srv.listening) {
      const host = this.#host;
      await new Promise((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(port, host, () => {
          srv.off('error', reject);
          resolve(undefined);
        });
      });
    }
    const address = srv.address();
    if (address && typeof address === 'object') {
      const shown = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
      this.port = address.port;
      this.url = `http://${shown}:${address.port}${this.#path}`;
    }
  }

  /**
   * Answers one JSON-RPC message without HTTP sessions (e.g. a Web API route: JSON in, JSON out),
   * with one engine shared by every call: the reply as JSON text, or null for a notification or a
   * response.
   * @param {string | object} message the message as JSON text, or parsed
   * @returns {Promise<string | null>}
   */
  handleMessage(message) {
    this.#counts.messages++;
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    return this.#shared.send(text ?? '').reply;
  }

  /**
   * Changes the bearer token from the next request on; open sessions stay (their clients send the new
   * token). null removes it, which a gateway bound to a non-loopback address refuses (throws).
   * @param {string | null} token
   */
  setToken(token) {
    this.gate.setToken(token);
  }

  /**
   * Changes the browser origins allowed besides localhost ones, from the next request on.
   * @param {string[]} origins
   */
  setOrigins(origins) {
    this.gate.setOrigins(origins);
    this.#origins = [...origins];
  }

  /**
   * Changes which tools exist (fields left out are off) in every session and for new ones; clients
   * with a GET stream get tools/list_changed when their list changes.
   * @param {ExposureOptions} exposure
   */
  setPolicy(exposure) {
    const e = defined(exposure);
    this.#shared.setExposure(e);
    const { allow, deny, readOnly, noDestructive, ...rest } = this.#engine;
    this.#engine = { ...rest, ...e };
    this.#spread();
  }

  /** Every session serves what the shared engine serves (changed once, there). */
  #spread() {
    for (const s of this.sessions.values()) s.follow(this.#shared);
  }

  /**
   * Changes the disclosure mode in every session and for new ones (list_changed as above).
   * @param {Mode} mode
   */
  setMode(mode) {
    this.#shared.setMode(mode);
    this.#engine = { ...this.#engine, mode };
    this.#spread();
  }

  /**
   * Replaces the catalog every session serves, keeping the source's call (e.g. flows added or removed);
   * clients with a GET stream get tools/list_changed. Tool names MCP does not allow are reported
   * (a "catalog" event), not refused.
   * @param {import('../pkg/full/index.mjs').CatalogInput} catalog
   */
  updateCatalog(catalog) {
    this.#setCatalog(catalog);
    this.#spread();
  }

  /**
   * The shared engine serves this catalog (the sessions do once they follow it).
   * @param {import('../pkg/full/index.mjs').CatalogInput} catalog
   */
  #setCatalog(catalog) {
    const text = this.#reportCatalog(catalog);
    this.#source = { ...this.#source, catalog: text };
    this.#shared.source = this.#source;
    this.#shared.setCatalog(text);
  }

  /**
   * The same as updateCatalog().
   * @param {import('../pkg/full/index.mjs').CatalogInput} catalog
   */
  setCatalog(catalog) {
    this.updateCatalog(catalog);
  }

  /**
   * Replaces the tool source (its catalog and how tools run) for every session; calls already running
   * finish on the old one. The old source is not closed.
   * @param {ToolSource} source
   */
  setSource(source) {
    this.#follow(source);
    if (source.sources) {
      // several sources: the engine merges them
      this.#source = source;
      this.#shared.setSource(source);
      this.#spread();
      return;
    }
    this.#source = source;
    this.#setCatalog(source.catalog);
    this.#shared.setSurface(source.surface ?? {});
    this.#spread();
  }

  /** @type {ToolSource | null} the source whose changes are followed */
  #followed = null;
  /** @type {(() => void) | undefined} */
  #unfollow;

  /**
   * Follows a source that tells of its changes (upstreams: a list changed, one went away or came back):
   * every session serves it anew, and clients get list_changed.
   * @param {ToolSource} source
   */
  #follow(source) {
    if (this.#followed === source) return;
    this.#unfollow?.();
    this.#followed = source;
    this.#unfollow = source.watch?.(() => {
      if (!this.#closed && this.#followed === source) this.setSource(source);
    });
  }

  /** The tool source in use. */
  get source() {
    return this.#source;
  }

  /**
   * What the gateway is doing.
   * @returns {GatewayStatus}
   */
  status() {
    const engine = this.#shared.engine;
    return {
      url: this.url,
      sessions: this.sessions.size,
      tools: engine.tools,
      listed: engine.listed,
      mode: engine.mode,
      token: this.gate.hasToken,
      origins: [...this.#origins],
      lockedOut: this.gate.lockouts(Date.now()),
      counts: { ...this.gate.stats, ...this.#counts },
    };
  }

  /**
   * Ends every session and stops serving: a server the gateway made is closed, a server it was given
   * only loses the gateway's request listener.
   * @returns {Promise<void>}
   */
  close() {
    this.#closing ??= (async () => {
      this.#closed = true;
      clearInterval(this.#sweeper);
      this.#unfollow?.();
      for (const [id, s] of this.sessions) {
        this.sessions.delete(id);
        this.gate.remove(id);
        endSession(s);
      }
      // subscriptions/listen streams get their responses before the connections close
      this.#shared.endSubscriptions();
      await new Promise((resolve) => setImmediate(resolve));
      this.#shared.close();
      const srv = this.#server;
      if (srv) {
        srv.off('request', this.handler);
        srv.off('connection', this.connectionListener);
        if (this.#ownServer) {
          await new Promise((resolve) => {
            srv.close(() => resolve(undefined));
            srv.closeAllConnections();
          });
        }
      }
      this.#events();
      this.gate.free();
    })();
    return this.#closing;
  }

  /**
   * Reads a catalog, reports tool names MCP does not allow, and gives its tools as JSON text.
   * @param {import('../pkg/full/index.mjs').CatalogInput} catalog
   * @returns {string}
   */
  #reportCatalog(catalog) {
    const { tools, report } = readCatalog(catalog);
    const flagged = report.filter((e) => e.action === 'flagged' || e.action === 'skipped');
    if (flagged.length > 0) {
      const message = `catalog: ${flagged.map((e) => `${e.pointer}: ${e.detail}`).join('; ')}`;
      this.#report?.('warn', message, { type: 'catalog', message, report: flagged });
    }
    return JSON.stringify({ tools });
  }

  /**
   * A request's exchange on session `id` ended (after close(), nothing is left to tell).
   * @param {string} id
   */
  #finished(id) {
    if (!this.#closed) this.gate.finished(id, Date.now());
  }

  /**
   * Keeps an event stream alive and ends it when it has lived as long as the gate lets one live (its
   * limits' streamKeepaliveMs and streamMaxMs).
   * @param {ServerResponse} res
   * @param {() => void} end ends the stream
   */
  #keepAlive(res, end) {
    const { streamKeepaliveMs, streamMaxMs } = this.limits;
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), streamKeepaliveMs).unref();
    const lifetime = setTimeout(end, streamMaxMs).unref();
    res.once('close', () => {
      clearInterval(keepalive);
      clearTimeout(lifetime);
    });
  }

  /** Passes the gate's events on to the logger. */
  #events() {
    if (!this.#report) return;
    for (const event of this.gate.events()) {
      const [level, message] = describe(event);
      this.#report(level, message, event);
    }
  }

  /**
   * Serves a 2026-07-28 request on a channel of its own on the shared engine: its reply with the status the
   * engine gives, and the notifications that belong to it (progress, log messages, a subscriptions/listen
   * stream) as SSE events before it. A stream the client closes cancels what the request started.
   * @param {ServerResponse} res
   * @param {string} body
   * @param {boolean} expectsReply
   * @param {boolean} sse the client takes only an SSE stream
   * @param {boolean} mayStream the client takes an SSE stream
   * @param {import('../pkg/full/index.mjs').HttpHeaders} headers the request's (Mcp-Param-* are checked by the engine)
   * @param {number} [counted] the channel the gate counted this request on (checkMessage), released when it ends
   */
  async #stateless(res, body, expectsReply, sse, mayStream, headers, counted) {
    const shared = this.#shared;
    const channel = counted ?? ++this.#channels;
    if (!expectsReply) {
      await shared.exchange(channel, body, undefined, headers).reply;
      shared.closeChannel(channel);
      return finish(res, this.#outcomes.accepted);
    }
    let streaming = false;
    const open = () => {
      if (streaming) return;
      streaming = true;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      // a subscriptions/listen stream past its lifetime ends with its response
      this.#keepAlive(res, () => {
        shared.endSubscriptions(channel);
        if (!res.writableEnded) setTimeout(() => res.end(), 100).unref();
      });
    };
    /** @param {string} m */
    const stream = (m) => {
      if (res.writableEnded || res.destroyed) return;
      open();
      res.write(sseEvent(m));
    };
    res.once('close', () => {
      shared.closeChannel(channel);
      if (counted !== undefined && !this.#closed) this.gate.statelessEnded(channel);
    });
    const pending = shared.exchange(channel, body, sse || mayStream ? stream : undefined, headers).reply;
    if (sse && !res.writableEnded) open();
    const reply = await pending;
    if (res.writableEnded || res.destroyed) return;
    if (reply === null) {
      if (streaming) return res.end();
      return finish(res, this.#outcomes.cancelled);
    }
    if (streaming) return res.end(sseEvent(reply.message));
    sendJson(res, reply.status, reply.message);
  }

  /** @returns {HttpSession} */
  #newSession() {
    const session = /** @type {HttpSession} */ (
      new Session(this.#source, {
        engine: this.#engine,
        // the shared engine's catalog, index, disclosure and compiled schemas: nothing is built per session
        base: this.#shared.engine,
        timeoutMs: this.#timeoutMs,
        report: this.#report,
        counts: this.#counts,
        notify: (m) => this.#push(session, m),
      })
    );
    session.streams = new Set();
    return session;
  }

  /**
   * Closes the sessions the gate named (expired, ended, evicted).
   * @param {string[]} ids
   */
  #closeSessions(ids) {
    for (const id of ids) {
      const s = this.sessions.get(id);
      if (!s) continue;
      this.sessions.delete(id);
      endSession(s);
    }
  }

  /**
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   */
  async #handle(req, res) {
    const gate = this.gate;
    const sid = req.headers['mcp-session-id'];
    const url = /** @type {{originalUrl?: string}} */ (req).originalUrl ?? req.url ?? '';
    // the headers as Node read them, in one string: they cross into wasm in one piece
    const raw = req.rawHeaders;
    const headers = Array.isArray(raw) ? raw.join('\n') : req.headers;
    // the connection has sent a whole request: it no longer gives way to new ones
    const connection = /** @type {any} */ (req.socket)?.[CONNECTION];
    const verdict = gate.request(req.method ?? '', url, headers, Date.now(), this.#remoteAddress(req) ?? null, connection);
    this.#closeSessions(verdict.close);
    this.#events();
    // CORS for an allowed origin: on whatever answers this request
    for (const [name, value] of verdict.cors) res.setHeader(name, value);
    const session = typeof sid === 'string' ? this.sessions.get(sid) : undefined;
    switch (verdict.action) {
      case 'reject':
        return reject(res, verdict);
      case 'options':
        return finish(res, { status: verdict.status, message: '' }, Object.fromEntries(verdict.headers));
      case 'stream':
        if (typeof sid === 'string' && session) this.#openStream(sid, session, res);
        else finish(res, this.#outcomes.ended);
        return;
      case 'end':
        return finish(res, this.#outcomes.ended);
      case 'read':
        break;
    }
    if (session && typeof sid === 'string') res.once('close', () => this.#finished(sid));
    const body = await readBody(req, res, (size) => (this.#closed ? CLOSED : gate.checkBodySize(size)));
    if (body === null) return;
    if (this.#closed) return reject(res, CLOSED);
    // the gate reads the body with the request's headers: a 2026-07-28
    // message stands alone (a channel of its own on the shared engine), a
    // refused one gets its JSON-RPC error, the rest is 2025 traffic; in a
    // session the session's engine takes that in the same reading
    const live = session !== undefined && !session.closed ? session : undefined;
    // a request without a session gets a channel now: the gate counts it against its limits
    const channel = session === undefined ? ++this.#channels : undefined;
    const message = live ? live.take(headers, body, this.limits.maxBody) : gate.checkMessage(headers, body, session !== undefined, channel);
    if (message.action === 'refuse') return sendJson(res, message.status, message.body);
    if (message.action === 'stateless') return this.#stateless(res, body, message.expectsReply, verdict.sse, verdict.stream, headers, message.expectsReply ? channel : undefined);
    if (live && message.action === 'handled') {
      const { owed } = message;
      return answer(this.#outcomes, res, (stream) => live.taken(0, owed, stream), verdict.sse, verdict.stream, {});
    }
    // in a session the engine classifies the message as it reads it (the
    // size limit was enforced while the body streamed in)
    if (session) return answer(this.#outcomes, res, (stream) => session.exchange(0, body, stream), verdict.sse, verdict.stream, {});
    const kind = message.action;
    switch (kind) {
      case 'too-large':
      case 'no-session':
        return finish(res, this.#outcomes[kind]);
      case 'new-session': {
        const id = randomUUID();
        const opened = gate.openSession(id, Date.now());
        this.#events();
        if (opened.action !== 'open') return reject(res, opened);
        this.#closeSessions(opened.close);
        const fresh = this.#newSession();
        this.sessions.set(id, fresh);
        res.once('close', () => this.#finished(id));
        return answer(this.#outcomes, res, (stream) => fresh.exchange(0, body, stream), verdict.sse, verdict.stream, { 'mcp-session-id': id });
      }
      default:
        // without a session nothing else is owed a reply: no engine is made for it
        return finish(res, this.#outcomes.accepted);
    }
  }

  /**
   * Opens a notification stream on the session; the gate keeps it alive and ends it.
   * @param {string} sid
   * @param {HttpSession} session
   * @param {ServerResponse} res
   */
  #openStream(sid, session, res) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    session.streams.add(res);
    this.#keepAlive(res, () => res.end());
    // the gate counted the stream for its session (request()); streamClosed counts it off
    res.once('close', () => {
      session.streams.delete(res);
      if (!this.#closed) this.gate.streamClosed(sid, Date.now());
    });
  }

  /**
   * A server notification goes to one of the session's GET streams, if any is open.
   * @param {HttpSession} session
   * @param {string} message
   */
  #push(session, message) {
    for (const res of session.streams) {
      if (res.writableEnded || res.destroyed) continue;
      res.write(sseEvent(message));
      return;
    }
  }
}

/** @typedef {import('../pkg/full/index.mjs').HttpOutcome} HttpOutcome */
/** @typedef {{ [outcome in HttpOutcome]: { status: number; message: string } }} Outcomes */

/** @type {HttpOutcome[]} */
const OUTCOMES = ['too-large', 'no-session', 'accepted', 'cancelled', 'ended'];

/**
 * The answer to a request that arrives after close().
 * @type {import('../pkg/full/index.mjs').HttpAction}
 */
const CLOSED = { action: 'reject', status: 503, headers: [['Connection', 'close']], message: 'the MCP gateway is closed' };

/**
 * A log line and level for a gate event.
 * @param {import('../pkg/full/index.mjs').GateEvent} e
 * @returns {[Level, string]}
 */
function describe(e) {
  switch (e.type) {
    case 'auth-refused':
      return ['warn', `refused a request without the right token${e.remote ? ` from ${e.remote}` : ''} (${e.failures} failed)`];
    case 'login-limited':
      return ['warn', `refused ${e.remote}: too many failed logins (retry after ${e.retryAfterS} s)`];
    case 'refused':
      return ['warn', `refused${e.remote ? ` ${e.remote}` : ''} with ${e.status}: ${e.message}`];
    default:
      return ['info', `${e.type.replace('-', ' ')}: ${e.session}`];
  }
}

/**
 * Feeds a message to a session (`exchange`, given the stream for this
 * request's notifications) and sends what it is owed: 202 for a
 * notification or response, else the reply as JSON or as a one-event SSE
 * stream.
 * @param {Outcomes} outcomes
 * @param {ServerResponse} res
 * @param {(stream: ((message: string) => void) | undefined) => ReturnType<Session['exchange']>} exchange
 * @param {boolean} sse the client takes only an SSE stream
 * @param {boolean} mayStream the client takes an SSE stream
 * @param {{ [name: string]: string }} headers
 */
async function answer(outcomes, res, exchange, sse, mayStream, headers) {
  let streaming = false;
  const open = () => {
    if (streaming) return;
    streaming = true;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
    res.flushHeaders();
  };
  // progress and log messages of this request go on its own stream when
  // the client takes one (else on the session's GET stream)
  /** @param {string} m */
  const stream = (m) => {
    if (res.writableEnded || res.destroyed) return;
    open();
    res.write(sseEvent(m));
  };
  const { owed, reply: pending } = exchange(sse || mayStream ? stream : undefined);
  if (!owed) return finish(res, outcomes.accepted, headers);
  if (sse) open();
  const reply = await pending;
  if (res.writableEnded || res.destroyed) return;
  if (reply === null) {
    // the client cancelled the request: no reply is owed
    if (streaming) return res.end();
    return finish(res, outcomes.cancelled, headers);
  }
  if (streaming) return res.end(sseEvent(reply.message));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply.message), ...headers });
  res.end(reply.message);
}

/** @param {HttpSession} session */
function endSession(session) {
  for (const res of session.streams) res.end();
  session.streams.clear();
  session.close();
}

/**
 * Reads a request body, enforcing the gate's limit while it streams in.
 * Resolves with the text, or null when the request was refused (413) or
 * broke off. A body a framework has read already comes from `req.body`.
 * @param {IncomingMessage & { body?: unknown }} req
 * @param {ServerResponse} res
 * @param {(size: number) => import('../pkg/full/index.mjs').HttpAction | null} check the gate's size check
 * @returns {Promise<string | null>}
 */
function readBody(req, res, check) {
  if (req.readableEnded && req.body !== undefined) {
    const b = req.body;
    const text = typeof b === 'string' ? b : b instanceof Uint8Array ? Buffer.from(b).toString('utf8') : JSON.stringify(b) ?? '';
    const refusal = check(Buffer.byteLength(text));
    if (refusal) {
      reject(res, refusal);
      return Promise.resolve(null);
    }
    return Promise.resolve(text);
  }
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk) => {
      if (done) return;
      size += chunk.length;
      const refusal = check(size);
      if (refusal) {
        done = true;
        reject(res, refusal);
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      // most bodies come in one chunk: no copy to join them
      resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'));
    });
    req.on('error', () => {
      if (done) return;
      done = true;
      resolve(null);
    });
  });
}

/**
 * Answers with a gate rejection: its status, headers and one-line message.
 * With `Connection: close` among the headers the connection closes once
 * the answer is sent, and a body still on its way is never read.
 * @param {ServerResponse} res
 * @param {import('../pkg/full/index.mjs').HttpAction | import('../pkg/full/index.mjs').GateVerdict} decision
 */
function reject(res, decision) {
  if (decision.action !== 'reject') throw new Error(`a rejection was expected, not ${decision.action}`);
  const { status, headers, message } = decision;
  const text = message ? `${message}\n` : '';
  const head = Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v]));
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...head });
  res.end(text);
  if (head.connection === 'close') {
    // stop reading; give the answer a moment to reach the client first
    res.req.pause();
    res.once('finish', () => setTimeout(() => res.socket?.destroy(), 50).unref());
  }
}

/**
 * Answers with a JSON-RPC message and the status the engine or the gate gave.
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} body
 */
function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Ends an exchange the gate decided on without the engine.
 * @param {ServerResponse} res
 * @param {{ status: number, message: string }} outcome
 * @param {{ [name: string]: string }} [headers]
 */
function finish(res, { status, message }, headers = {}) {
  if (message) {
    const text = `${message}\n`;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  } else {
    res.writeHead(status, headers);
    res.end();
  }
}

/**
 * One Server-Sent Event carrying a JSON-RPC message.
 * @param {string} message
 */
function sseEvent(message) {
  return `event: message\ndata: ${message}\n\n`;
}
