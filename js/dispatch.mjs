// One MCP session: an Engine (all protocol decisions) plus the I/O around
// it: running the tools it asks for, with a timeout each, and handing back
// the reply that belongs to each incoming message. Shared by the HTTP
// gateway, the stdio transport and one-shot message handling. Also the
// shapes the gateway library shares: tool sources, loggers and events.
import { Engine, asToolResultJson, readCatalog } from '../pkg/index.mjs';

/**
 * Where a session's tools come from: the catalog it serves and how to run one.
 * @typedef {object} ToolSource
 * @property {string} catalog the tools/list JSON text the engine serves
 * @property {(name: string, args: { [name: string]: unknown }, ctx: ToolContext) => Promise<CallToolResult | string> | CallToolResult | string} call
 *   runs one tool; resolves with a CallToolResult (an object or its JSON text), rejects with an Error whose
 *   message the client reads
 * @property {string} [label] what the source is, for logs
 * @property {string} [name] what a timeout waited for (e.g. "upstream http://..."), named in its message
 * @property {() => Promise<void> | void} [close] releases the source (an upstream connection)
 */

/** @typedef {import('../pkg/index.mjs').CallToolResult} CallToolResult */

/**
 * What a tool gets besides its arguments.
 * @typedef {object} ToolContext
 * @property {AbortSignal} signal aborts when the client cancels the call or it times out (made when first read)
 */

/**
 * A host tool: takes the validated arguments, returns a CallToolResult or any value (made a success
 * result), or throws (a tool error the model reads).
 * @typedef {(args: { [name: string]: any }, ctx: ToolContext) => unknown} ToolHandler
 */

/**
 * Something that happened, for a host's log. The gate's events (sessions, refused requests, failed
 * logins) come from the package's HTTP rules; the rest from the shell.
 * @typedef {import('../pkg/index.mjs').GateEvent
 *   | { type: "request-error"; remote: string | null; message: string }
 *   | { type: "tool-error"; tool: string; message: string }
 *   | { type: "catalog"; message: string; report: import('../pkg/index.mjs').ReportEntry[] }} GatewayEvent
 */

/**
 * A host's logger: any of the three methods (console, pino and Homey's `this.log` shapes fit).
 * Each gets one line of text and the structured event.
 * @typedef {object} Logger
 * @property {(message: string, event?: GatewayEvent) => void} [info]
 * @property {(message: string, event?: GatewayEvent) => void} [warn]
 * @property {(message: string, event?: GatewayEvent) => void} [error]
 */

/**
 * Where the library reports what happens: a logger object, an event callback, a line function (all optional).
 * @typedef {object} LogOptions
 * @property {Logger} [logger] info for sessions, warn for refusals and tool errors, error for failed requests
 * @property {(event: GatewayEvent) => void} [onEvent] every event, structured
 * @property {(line: string) => void} [log] every message as one line
 */

/** @typedef {'info' | 'warn' | 'error'} Level */

/**
 * A report function for the given log options: `report(level, message, event?)`; null when nobody listens.
 * @param {LogOptions} options
 * @returns {((level: Level, message: string, event?: GatewayEvent) => void) | null}
 */
export function reporter({ logger, onEvent, log }) {
  if (!logger && !onEvent && !log) return null;
  return (level, message, event) => {
    try {
      logger?.[level]?.(message, event);
      if (event) onEvent?.(event);
      log?.(message);
    } catch {
      // a failing logger never breaks a request
    }
  };
}

/**
 * A tool source made of host handler functions.
 * @param {import('../pkg/index.mjs').CatalogInput} catalog the tools the handlers implement (any catalog shape readCatalog takes)
 * @param {{ [name: string]: ToolHandler }} handlers tool name → function returning a CallToolResult or a plain value
 * @param {string} [label] what the source is, for logs
 * @returns {ToolSource}
 */
export function handlerSource(catalog, handlers, label = 'handlers') {
  const { tools } = readCatalog(catalog);
  return {
    label,
    catalog: JSON.stringify({ tools }),
    async call(name, args, ctx) {
      const fn = handlers[name];
      if (typeof fn !== 'function') throw new Error(`no handler is registered for ${name}`);
      return asToolResultJson(await fn(args, ctx));
    },
  };
}

/**
 * Session options.
 * @typedef {object} SessionOptions
 * @property {import('../pkg/index.mjs').EngineOptions} [engine] the engine's options (mode, exposure, ...)
 * @property {number} [timeoutMs] per-invocation timeout (default 30 s)
 * @property {(message: string) => void} [notify] where server notifications (JSON text) go
 * @property {((level: Level, message: string, event?: GatewayEvent) => void) | null} [report] from reporter()
 * @property {{ calls: number; toolErrors: number }} [counts] counters to add this session's calls to
 */

/** @typedef {{ resolve: (reply: string | null) => void, abort: () => void, timer: ReturnType<typeof setTimeout> }} Pending */

/**
 * A session's engine and the invocations it has asked for.
 */
export class Session {
  /**
   * @param {ToolSource} source
   * @param {SessionOptions} [options]
   */
  constructor(source, { engine = {}, timeoutMs = 30_000, notify = () => {}, report = null, counts } = {}) {
    /** the tools; may be replaced (the next invocation uses the new one) */
    this.source = source;
    this.engine = new Engine(source.catalog, defined(engine));
    this.timeoutMs = timeoutMs;
    this.notify = notify;
    this.report = report;
    this.counts = counts ?? { calls: 0, toolErrors: 0 };
    /** @type {Map<number, Pending>} invocation id → its reply's resolver, abort and timer */
    this.pending = new Map();
    this.closed = false;
  }

  /**
   * Feeds one JSON-RPC message. `owed` says at once whether the message
   * is owed a reply (a request, or an invalid message); `reply` resolves
   * with that reply (text), or null when none comes (a notification, a
   * response, a request the client cancelled).
   * @param {string} message
   * @returns {{owed: boolean, reply: Promise<string | null>}}
   */
  send(message) {
    if (this.closed) return { owed: false, reply: Promise.resolve(null) };
    const owed = this.engine.handle(message);
    return { owed, reply: new Promise((resolve) => this.#dispatch(this.engine.drain(), resolve)) };
  }

  /**
   * Replaces the catalog of this session (clients get list_changed).
   * @param {import('../pkg/index.mjs').CatalogInput} catalog
   */
  setCatalog(catalog) {
    this.#change((e) => e.setCatalog(catalog));
  }

  /**
   * Changes the disclosure mode (clients get list_changed when the list changes).
   * @param {import('../pkg/index.mjs').Mode} mode
   */
  setMode(mode) {
    this.#change((e) => e.setMode(mode));
  }

  /**
   * Changes which tools exist (clients get list_changed when the list changes).
   * @param {import('../pkg/index.mjs').ExposureOptions} exposure
   */
  setExposure(exposure) {
    this.#change((e) => e.setExposure(defined(exposure)));
  }

  /** @param {(engine: Engine) => void} change */
  #change(change) {
    if (this.closed) return;
    change(this.engine);
    this.#dispatch(this.engine.drain(), null);
  }

  /** Stops every running invocation; their requests get no reply. */
  close() {
    if (this.closed) return;
    this.closed = true;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.abort();
      p.resolve(null);
      this.pending.delete(id);
    }
    this.engine.free();
  }

  /**
   * Routes drained outputs. Outputs drained right after handle() belong to
   * that message: its reply, or the invocation its reply waits for.
   * @param {import('../pkg/index.mjs').EngineOutput[]} outputs
   * @param {((reply: string | null) => void) | null} resolve
   */
  #dispatch(outputs, resolve) {
    let owed = resolve;
    for (const o of outputs) {
      switch (o.type) {
        case 'reply':
          if (owed) {
            owed(o.message);
            owed = null;
          } else {
            this.report?.('warn', `dropped a reply nobody waits for: ${o.message.slice(0, 200)}`);
          }
          break;
        case 'notification':
          this.notify(o.message);
          break;
        case 'invoke':
          this.#invoke(o, owed ?? (() => {}));
          owed = null;
          break;
        case 'cancel': {
          const p = this.pending.get(o.id);
          if (p) {
            this.pending.delete(o.id);
            clearTimeout(p.timer);
            p.abort();
            p.resolve(null);
          }
          break;
        }
      }
    }
    if (owed) owed(null);
  }

  /**
   * @param {{ id: number, tool: string, arguments: { [name: string]: unknown } }} invocation
   * @param {(reply: string | null) => void} resolve
   */
  #invoke({ id, tool, arguments: args }, resolve) {
    this.counts.calls++;
    // the AbortController is made only when the tool reads ctx.signal: most
    // calls never do, and making one costs more than the rest of this method
    /** @type {AbortController | null} */
    let controller = null;
    let aborted = false;
    const ctx = {
      get signal() {
        controller ??= new AbortController();
        if (aborted) controller.abort();
        return controller.signal;
      },
    };
    const abort = () => {
      aborted = true;
      controller?.abort();
    };
    const timer = setTimeout(() => {
      abort();
      const waitedFor = this.source.name ? ` waiting for ${this.source.name}` : '';
      const message = `${tool} timed out after ${formatSeconds(this.timeoutMs)}${waitedFor}`;
      this.#toolError(tool, message);
      this.#settle(id, (e) => e.fail(id, message));
    }, this.timeoutMs);
    this.pending.set(id, { resolve, abort, timer });
    /** @type {Promise<CallToolResult | string>} */
    let running;
    try {
      running = Promise.resolve(this.source.call(tool, args, ctx));
    } catch (err) {
      running = Promise.reject(err);
    }
    running.then(
      (result) => this.#settle(id, (e) => e.complete(id, result)),
      (err) => {
        const message = errorText(err);
        if (this.pending.has(id)) this.#toolError(tool, message);
        this.#settle(id, (e) => e.fail(id, message));
      },
    );
  }

  /**
   * @param {string} tool
   * @param {string} message
   */
  #toolError(tool, message) {
    this.counts.toolErrors++;
    this.report?.('warn', `${tool} failed: ${message}`, { type: 'tool-error', tool, message });
  }

  /**
   * Reports an invocation's outcome once; late outcomes are dropped.
   * @param {number} id
   * @param {(engine: Engine) => void} report
   */
  #settle(id, report) {
    const p = this.pending.get(id);
    if (!p || this.closed) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    try {
      report(this.engine);
    } catch (e) {
      // complete() refuses a result that is not a CallToolResult, but has
      // already answered the client with an internal error
      this.report?.('warn', `invocation ${id}: ${errorText(e)}`);
    }
    this.#dispatch(this.engine.drain(), p.resolve);
  }
}

/** @param {number} ms */
function formatSeconds(ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The object without its undefined fields (options for the package).
 * @template {object} T
 * @param {T | undefined} o
 * @returns {T}
 */
export function defined(o) {
  return /** @type {T} */ (Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)));
}

/**
 * The message of anything thrown.
 * @param {unknown} err
 * @returns {string}
 */
export function errorText(err) {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : JSON.stringify(err) ?? String(err);
}
