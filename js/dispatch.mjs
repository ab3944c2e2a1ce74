// One MCP session: an Engine (all protocol decisions) plus the I/O around
// it: running the tools it asks for, with a timeout each, and handing back
// the reply that belongs to each incoming message. Shared by the HTTP
// gateway and the stdio transport.
import { Engine, asToolResultJson, readCatalog } from '../pkg/index.mjs';

/**
 * @typedef {object} ToolSource
 * @property {string} catalog the tools/list JSON text the engine serves
 * @property {(name: string, args: object, ctx: {signal: AbortSignal}) => Promise<object | string>} call runs one tool; resolves with a CallToolResult (an object or its JSON text), rejects with an Error whose message the client reads; `ctx.signal` aborts on cancellation or timeout (made when first read)
 * @property {string} [label] what the source is, for logs
 * @property {string} [name] what a timeout waited for (e.g. "upstream http://..."), named in its message
 * @property {() => Promise<void> | void} [close]
 */

/**
 * A tool source made of host handler functions.
 * @param {string | object | Uint8Array} catalog the tools the handlers implement (any catalog shape readCatalog takes)
 * @param {Record<string, (args: object, ctx: {signal: AbortSignal}) => unknown>} handlers name → async function returning a CallToolResult or a plain value
 * @param {string} [label]
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
 * A session's engine and the invocations it has asked for.
 */
export class Session {
  /**
   * @param {ToolSource} source
   * @param {object} options
   * @param {object} [options.engine] EngineOptions
   * @param {number} [options.timeoutMs] per-invocation timeout (default 30 s)
   * @param {(message: string) => void} [options.notify] where server notifications go
   * @param {(line: string) => void} [options.log]
   */
  constructor(source, { engine = {}, timeoutMs = 30_000, notify = () => {}, log = () => {} } = {}) {
    this.source = source;
    this.engine = new Engine(source.catalog, defined(engine));
    this.timeoutMs = timeoutMs;
    this.notify = notify;
    this.log = log;
    /** invocation id → {resolve, abort, timer} */
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

  /** Replaces the catalog of this session (clients get list_changed). */
  setCatalog(catalog) {
    if (this.closed) return;
    this.engine.setCatalog(catalog);
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
            this.log(`dropped a reply nobody waits for: ${o.message.slice(0, 200)}`);
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

  #invoke({ id, tool, arguments: args }, resolve) {
    // the AbortController is made only when the tool reads ctx.signal: most
    // calls never do, and making one costs more than the rest of this method
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
      this.#settle(id, (e) => e.fail(id, `${tool} timed out after ${formatSeconds(this.timeoutMs)}${waitedFor}`));
    }, this.timeoutMs);
    this.pending.set(id, { resolve, abort, timer });
    let running;
    try {
      running = Promise.resolve(this.source.call(tool, args, ctx));
    } catch (err) {
      running = Promise.reject(err);
    }
    running.then(
      (result) => this.#settle(id, (e) => e.complete(id, result)),
      (err) => this.#settle(id, (e) => e.fail(id, errorText(err))),
    );
  }

  /** Reports an invocation's outcome once; late outcomes are dropped. */
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
      this.log(`invocation ${id}: ${e.message}`);
    }
    this.#dispatch(this.engine.drain(), p.resolve);
  }
}

function formatSeconds(ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The object without its undefined fields (options for the package). */
export function defined(o) {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined));
}

/** The message of anything thrown. */
export function errorText(err) {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === 'string' ? err : JSON.stringify(err) ?? String(err);
}
