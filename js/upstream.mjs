// Upstream MCP servers as tool sources. Every protocol decision (the
// 2026-07-28 probe or the 2025 initialize handshake, the legacy HTTP+SSE
// transport, sessions, request ids, list paging and list_changed refreshes,
// timeouts, cancellation, reply size limits, reconnection, the error text
// that names the upstream, the request that carries an engine's invocation
// and who answers the upstream's questions) is the package's UpstreamClient:
// this module only
// sends the HTTP requests it asks for, feeds the replies back chunk by chunk
// with the time, and hands the results to whoever asked.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';

import { UpstreamClient, checkSourceName, version } from '../pkg/full/index.mjs';
import { defined, errorText, reporter } from './dispatch.mjs';

/**
 * Upstream options.
 * @typedef {object} UpstreamOwnOptions
 * @property {string} [token] bearer token
 * @property {number} [timeoutMs] per-request timeout while connecting, listing and calling (default 30 s)
 * @property {number} [maxReply] largest reply read, in bytes (default 2 MiB)
 * @property {number} [reconnectMs] first wait before reconnecting to an upstream that went away (default 1 s,
 *   doubled after each failure)
 * @property {{ [name: string]: unknown }} [capabilities] the client capabilities declared to the upstream (default
 *   elicitation and sampling: their questions go to the client of the call)
 */

/** @typedef {UpstreamOwnOptions & import('./dispatch.mjs').LogOptions} UpstreamOptions */

/**
 * One upstream of connectUpstreams().
 * @typedef {object} UpstreamSpec
 * @property {string} name the source's name: its tools and prompts are served as `<name>__<tool>`
 * @property {string} [url] its MCP endpoint (Streamable HTTP) or the SSE URL of a legacy server
 * @property {string[]} [command] or: the command line of a server reached over stdio (started here)
 * @property {string} [token] its bearer token (default: options.token)
 */

/** @typedef {string | string[]} UpstreamTarget a URL, or the command line of a stdio server */

/** @typedef {import('./dispatch.mjs').ToolSource} ToolSource */
/** @typedef {import('./dispatch.mjs').ToolContext} ToolContext */
/** @typedef {import('../pkg/full/index.mjs').UpstreamOutput} UpstreamOutput */

/**
 * A tool source that follows its upstreams: `watch(listener)` is told whenever what it serves changed
 * (a list the upstream changed, an upstream lost or back); the gateway and the stdio server follow it.
 * @typedef {ToolSource & {
 *   transport: string,
 *   upstreams: Upstream[],
 *   watch: (listener: () => void) => () => void,
 *   close: () => void,
 * }} UpstreamSource
 */

/**
 * What an upstream may ask while a call runs: passed to the client of that call (which answers, or
 * refuses when it does not offer it).
 */
const ASKS = { elicitation: {}, sampling: {} };

/**
 * Who waits for a call: the invocation's promise and context. While a 2026-07-28 client is asked the
 * upstream's questions (an inputRequired result), the call waits without them, its questions kept by key.
 * @typedef {object} CallEntry
 * @property {((v: unknown) => void) | null} resolve
 * @property {((e: Error) => void) | null} reject
 * @property {ToolContext | null | undefined} ctx
 * @property {Map<string, unknown>} asks the inputRequests entries not passed on yet, by key
 * @property {string | null} state the requestState the client got, while parked
 */

/** The host's clock for the client, in whole milliseconds. */
const now = () => Math.floor(performance.now());

/**
 * The connection to one upstream MCP server: the package's UpstreamClient
 * plus the fetches, timers and promises around it.
 */
export class Upstream {
  /** @type {Map<number, AbortController>} exchange → its fetch */
  #exchanges = new Map();
  /** @type {Map<number, CallEntry>} call → who waits for it */
  #calls = new Map();
  /** @type {Map<string, number>} requestState given to a 2026-07-28 client → the call its answers go to */
  #parked = new Map();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #timer;
  /** @type {Set<(output: UpstreamOutput) => void>} */
  #listeners = new Set();
  #closed = false;
  #report;
  /** @type {import('node:child_process').ChildProcessWithoutNullStreams | null} a stdio server's process */
  #child = null;

  /**
   * @param {UpstreamTarget} target a URL, or the command line of a server reached over stdio
   * @param {UpstreamOptions & { name?: string }} [options]
   */
  constructor(target, options = {}) {
    const { token, timeoutMs, maxReply, reconnectMs, capabilities } = options;
    /** @type {string[] | null} */
    this.command = Array.isArray(target) ? target : null;
    /** the URL, or the command line (what failures name) */
    this.url = Array.isArray(target) ? target.join(' ') : target;
    /** the source's name (several upstreams) */
    this.name = options.name ?? null;
    this.#report = reporter(options);
    const stdio = this.command ? true : undefined;
    this.client = new UpstreamClient(this.url, defined({ token, timeoutMs, maxReply, reconnectMs, capabilities, stdio, clientVersion: version() }));
    /** @type {Extract<UpstreamOutput, { type: 'connected' }> | null} what was negotiated, while connected */
    this.connection = null;
    /** @type {string | null} why the upstream is unavailable, while it is */
    this.down = null;
    this.ready = false;
  }

  /** @returns {'streamable-http' | 'http+sse' | 'stdio' | 'unknown'} */
  get transport() {
    return this.connection?.transport ?? 'unknown';
  }

  /**
   * Listens to every output that is not about one call (connected, listed, ready, unavailable,
   * notification).
   * @param {(output: UpstreamOutput) => void} listener
   * @returns {() => void} stops listening
   */
  listen(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Connects and reads every list; resolves once ready, rejects with a line naming the upstream when
   * the first attempt fails (the client keeps trying after that only when `keepTrying`).
   * @param {{ keepTrying?: boolean }} [options]
   * @returns {Promise<void>}
   */
  start({ keepTrying = false } = {}) {
    return new Promise((resolve, reject) => {
      const stop = this.listen((o) => {
        if (o.type === 'ready') {
          stop();
          resolve();
        } else if (o.type === 'unavailable') {
          stop();
          if (!keepTrying) this.close();
          reject(new Error(o.error.text));
        }
      });
      try {
        this.client.connect(now());
      } catch (e) {
        stop();
        reject(e);
        return;
      }
      this.#pump();
    });
  }

  /**
   * Runs an engine invocation on this upstream (its kind, the name the upstream uses and its arguments, as an
   * "invoke" output gives them): the call that carries it, which resolves with its result or rejects with a
   * line naming the upstream. The context's signal cancels it; its progress goes to the context, and the
   * upstream's questions to the context's client, as its era asks (a request, or an inputRequired result).
   * @param {'tool' | 'resource' | 'prompt' | 'completion'} kind
   * @param {string} name
   * @param {unknown} args
   * @param {ToolContext} [ctx]
   * @returns {Promise<any>}
   */
  relay(kind, name, args, ctx) {
    return this.#start(() => this.client.relay(kind, name, args ?? null, ctx?.era ?? null, now()), ctx);
  }

  /**
   * Sends a call of the given method and params and resolves with its result; rejects with a line naming the
   * upstream. The context's signal cancels it and its progress goes to the context; the upstream's questions
   * are declined (relay() passes them on).
   * @param {import('../pkg/full/index.mjs').UpstreamMethod} method
   * @param {{ [name: string]: unknown }} params
   * @param {ToolContext} [ctx]
   * @returns {Promise<any>}
   */
  request(method, params, ctx) {
    return this.#start(() => this.client.call(method, params, now()), ctx);
  }

  /**
   * Starts a call with `send` (a 2026-07-28 client's retry goes to the call that asked) and waits for it.
   * @param {() => number} send
   * @param {ToolContext} [ctx]
   * @returns {Promise<any>}
   */
  #start(send, ctx) {
    const parked = ctx?.requestState ? this.#parked.get(ctx.requestState) : undefined;
    if (parked !== undefined && ctx) return this.#resume(parked, ctx);
    return new Promise((resolve, reject) => {
      let call;
      try {
        call = send();
      } catch (e) {
        reject(e instanceof Error ? e : new Error(errorText(e)));
        return;
      }
      this.#calls.set(call, { resolve, reject, ctx, asks: new Map(), state: null });
      if (ctx) this.#cancelOnAbort(call, ctx);
      this.#pump();
    });
  }

  /**
   * A 2026-07-28 client's retry with its answers to the upstream's questions: they go to the call,
   * which goes on.
   * @param {number} call
   * @param {ToolContext} ctx
   * @returns {Promise<any>}
   */
  #resume(call, ctx) {
    const entry = this.#calls.get(call);
    if (entry?.state) this.#parked.delete(entry.state);
    return new Promise((resolve, reject) => {
      if (!entry) return reject(new Error(`upstream ${this.url}: the call that asked is over`));
      Object.assign(entry, { resolve, reject, ctx, state: null });
      this.#cancelOnAbort(call, ctx);
      entry.asks.clear();
      try {
        this.client.answerInputs(call, /** @type {any} */ (ctx.inputResponses ?? null), now());
      } catch {
        // the call ended meanwhile
      }
      this.#pump();
    });
  }

  /**
   * @param {number} call
   * @param {ToolContext} ctx
   */
  #cancelOnAbort(call, ctx) {
    const signal = ctx.signal;
    const cancel = () => {
      if (this.#calls.get(call)?.ctx !== ctx) return;
      try {
        this.client.cancel(call, now());
      } catch {
        // it ended meanwhile
      }
      this.#pump();
    };
    if (signal.aborted) queueMicrotask(cancel);
    else signal.addEventListener('abort', cancel, { once: true });
  }

  /**
   * This upstream as one source of an engine (`engine.setSources`).
   * @param {string} name
   * @returns {import('../pkg/full/index.mjs').SourceInput}
   */
  source(name) {
    return this.client.source(name);
  }

  /** Closes the connection: every exchange aborted, a 2025 session ended with DELETE (not waited for). */
  close() {
    if (this.#closed) return;
    this.#listeners.clear();
    this.client.close(now());
    this.#pump();
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#exchanges.clear();
    this.#child?.kill();
    this.#child = null;
    this.client.free();
  }

  /** Drains the client's outputs and carries them out, then sets the timer. */
  #pump() {
    if (this.#closed) return;
    /** @type {UpstreamOutput | undefined} */
    let o;
    // an output may close the upstream (a listener): nothing is read after that
    while (!this.#closed && (o = this.client.pollOutput())) this.#output(o);
    if (this.#closed) return;
    clearTimeout(this.#timer);
    const at = this.client.pollTimeout();
    if (at !== undefined) {
      this.#timer = setTimeout(() => {
        if (this.#closed) return;
        this.client.handleTimeout(now());
        this.#pump();
      }, Math.max(0, at - now()));
      this.#timer.unref?.();
    }
  }

  /** @param {UpstreamOutput} o */
  #output(o) {
    switch (o.type) {
      case 'send':
        this.#send(o);
        return;
      case 'spawn':
        this.#spawn();
        return;
      case 'write':
        this.#child?.stdin.write(`${o.message}\n`);
        return;
      case 'abort':
        this.#exchanges.get(o.exchange)?.abort();
        this.#exchanges.delete(o.exchange);
        return;
      case 'done':
        this.#settle(o.call)?.resolve?.(o.result);
        return;
      case 'failed':
        this.#settle(o.call)?.reject?.(new Error(o.error.text));
        return;
      case 'progress': {
        const p = /** @type {{ progress?: number, total?: number, message?: string }} */ (o.params ?? {});
        if (typeof p.progress === 'number') this.#calls.get(o.call)?.ctx?.progress?.(p.progress, p.total, p.message);
        return;
      }
      case 'ask':
        this.#ask(o);
        return;
      case 'connected':
        this.connection = o;
        this.down = null;
        this.#report?.('info', `upstream ${this.url}: connected (${o.version}, ${o.transport})`);
        break;
      case 'ready':
        this.ready = true;
        break;
      case 'unavailable':
        this.connection = null;
        if (this.ready) this.#report?.('warn', `${o.error.text}; connecting again`);
        this.ready = false;
        this.down = o.error.text;
        break;
      case 'listFailed':
        this.#report?.('warn', `upstream ${this.url}: ${o.kind} could not be read: ${o.error.message}`);
        break;
      case 'warning':
        this.#report?.('warn', `upstream ${this.url}: ${o.message}`);
        break;
    }
    for (const l of [...this.#listeners]) l(o);
  }

  /** @param {number} call */
  #settle(call) {
    const c = this.#calls.get(call);
    this.#calls.delete(call);
    if (c?.state) this.#parked.delete(c.state);
    return c;
  }

  /**
   * A question of the upstream, passed to the client of the call it belongs to as the client's relay says.
   * @param {Extract<UpstreamOutput, { type: 'ask' }>} o
   */
  #ask(o) {
    const entry = o.call === undefined ? undefined : this.#calls.get(o.call);
    const ctx = entry?.ctx;
    const relay = o.relay;
    if (relay.type === 'input' && entry && ctx?.inputRequired) {
      // a 2026-07-28 client is asked in the call's result (inputRequired), all questions of one moment
      // together; its retry brings the answers (#resume)
      if (entry.asks.size === 0) queueMicrotask(() => this.#askModern(/** @type {number} */ (o.call)));
      entry.asks.set(relay.key, relay.request);
      return;
    }
    const decline = (/** @type {string | undefined} */ reason) => {
      try {
        this.client.decline(o.ask, reason, now());
      } catch {
        // the call ended meanwhile
      }
      this.#pump();
    };
    if (relay.type !== 'request' || !ctx?.ask) return decline(undefined);
    ctx.ask(o.method, /** @type {{ [key: string]: unknown }} */ (o.params ?? undefined)).then(
      (result) => {
        try {
          this.client.answer(o.ask, result, now());
        } catch {
          // the call ended meanwhile
        }
        this.#pump();
      },
      (e) => decline(errorText(e)),
    );
  }

  /**
   * Ends a 2026-07-28 invocation with the upstream's questions; the call waits for the client's retry.
   * @param {number} call
   */
  #askModern(call) {
    const entry = this.#calls.get(call);
    if (!entry?.resolve || !entry.ctx?.inputRequired || entry.asks.size === 0) return;
    const requests = Object.fromEntries(entry.asks);
    const state = `upstream-${call}-${randomUUID()}`;
    const done = entry.resolve;
    done(entry.ctx.inputRequired(requests, state));
    Object.assign(entry, { resolve: null, reject: null, ctx: null, state });
    this.#parked.set(state, call);
  }

  /** Starts a stdio server's process (again), ending the one before; its stdout goes to the client. */
  #spawn() {
    this.#child?.kill();
    const [file, ...args] = /** @type {string[]} */ (this.command);
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child = child;
    const live = () => this.#child === child && !this.#closed;
    const exited = (/** @type {string} */ why) => {
      if (!live()) return;
      this.#child = null;
      this.client.exited(why, now());
      this.#pump();
    };
    child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
      if (!live()) return;
      this.client.receive(chunk, now());
      this.#pump();
    });
    // what the server logs, line by line
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (/** @type {string} */ d) => {
      err += d;
      const lines = err.split('\n');
      err = /** @type {string} */ (lines.pop()).slice(-4096);
      for (const line of lines) if (line.trim()) this.#report?.('info', `upstream ${this.url}: ${line.slice(0, 500)}`);
    });
    child.stdin.on('error', () => {});
    child.on('error', (e) => exited(/** @type {NodeJS.ErrnoException} */ (e).code ?? e.message));
    child.on('exit', (code, signal) => exited(signal ? `the process ended with ${signal}` : `the process exited with code ${code}`));
  }

  /**
   * Sends one HTTP request and feeds its reply back.
   * @param {Extract<UpstreamOutput, { type: 'send' }>} o
   */
  async #send(o) {
    const controller = new AbortController();
    const ex = o.exchange;
    this.#exchanges.set(ex, controller);
    const live = () => this.#exchanges.has(ex) && !this.#closed;
    let res;
    try {
      res = await fetch(o.url, { method: o.method, headers: o.headers, body: o.body, signal: controller.signal });
    } catch (e) {
      if (live()) {
        this.#exchanges.delete(ex);
        this.client.responseError(ex, reason(e), now());
        this.#pump();
      }
      return;
    }
    if (!live()) return void res.body?.cancel().catch(() => {});
    this.client.responseHead(ex, res.status, Object.fromEntries(res.headers), now());
    this.#pump();
    try {
      if (res.body) {
        for await (const chunk of res.body) {
          if (!live()) break;
          this.client.responseChunk(ex, chunk, now());
          this.#pump();
        }
      }
    } catch (e) {
      if (live()) {
        this.#exchanges.delete(ex);
        this.client.responseError(ex, reason(e), now());
        this.#pump();
      }
      return;
    }
    if (!live()) return void res.body?.cancel().catch(() => {});
    this.#exchanges.delete(ex);
    this.client.responseEnd(ex, now());
    this.#pump();
  }
}

/**
 * Why a fetch or a body read failed, as the network said it.
 * @param {unknown} e
 */
function reason(e) {
  const c = /** @type {{ cause?: { code?: string, message?: string } } | undefined} */ (e)?.cause;
  return c?.code ?? c?.message ?? errorText(e);
}

/**
 * Connects to an upstream MCP server and reads its whole catalog (tools, and the resources, templates and
 * prompts it offers), then serves it as one tool source: calls, reads and prompts go to the upstream;
 * list changes are followed (`watch`), reconnection is automatic. Rejects with a line naming the
 * upstream when it cannot be reached or refuses.
 * @param {UpstreamTarget} target the MCP endpoint (Streamable HTTP) or the SSE URL of a legacy server; or the
 *   command line (an array) of a server reached over stdio, started here
 * @param {UpstreamOptions} [options]
 * @returns {Promise<UpstreamSource>}
 */
export async function connectUpstream(target, options = {}) {
  const upstream = new Upstream(target, { capabilities: ASKS, ...options });
  const url = upstream.url;
  await upstream.start({ keepTrying: false });
  const watchers = new Set();
  /** @type {UpstreamSource} */
  const source = {
    label: `upstream ${url} (${upstream.transport})`,
    name: `upstream ${url}`,
    transport: upstream.transport,
    upstreams: [upstream],
    catalog: '',
    call: (name, args, ctx) => upstream.relay('tool', name, args, ctx),
    read: (request, ctx, uri) => upstream.relay('resource', uri, request, ctx),
    prompt: (name, args, ctx) => upstream.relay('prompt', name, args, ctx),
    complete: (request, ctx, name) => upstream.relay('completion', name, request, ctx),
    watch(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    close: () => {
      watchers.clear();
      upstream.close();
    },
  };
  const refresh = () => {
    const { catalog, resources, templates, prompts } = upstream.source('upstream');
    source.catalog = JSON.stringify(catalog);
    source.surface = { resources, templates, prompts };
  };
  refresh();
  upstream.listen((o) => {
    // a list changed, or the lists read again after a reconnection; while the upstream is away its tools
    // stay, and calls fail with a line naming it
    if (!(o.type === 'ready' || (o.type === 'listed' && upstream.ready))) return;
    refresh();
    for (const w of [...watchers]) w();
  });
  return source;
}

/**
 * Connects to several upstream MCP servers and serves them as one source: each one's tools and prompts
 * as `<name>__<tool>`, its resources as `<name>+<uri>`. Resolves once every upstream answered (ready or
 * not): one that cannot be reached is served without tools, with its status in `label` and the log, and
 * joins when it comes up; one that goes away later loses its tools until it is back. Rejects only for
 * bad specs (names must be unique, and follow the package's rule for source names: checkSourceName).
 * @param {UpstreamSpec[]} specs
 * @param {UpstreamOptions} [options]
 * @returns {Promise<UpstreamSource>}
 */
export async function connectUpstreams(specs, options = {}) {
  const seen = new Set();
  for (const s of specs) {
    checkSourceName(String(s.name ?? ''));
    if (seen.has(s.name)) throw new Error(`two upstreams are named ${s.name}`);
    if (!s.url === !s.command?.length) throw new Error(`upstream ${s.name}: give a url or a command`);
    seen.add(s.name);
  }
  const report = reporter(options);
  const upstreams = specs.map((s) => new Upstream(s.command ?? /** @type {string} */ (s.url), { capabilities: ASKS, ...options, token: s.token ?? options.token, name: s.name }));
  const watchers = new Set();
  /** @type {Map<string, Upstream>} */
  const byName = new Map(upstreams.map((u) => [/** @type {string} */ (u.name), u]));
  /** @param {string | null | undefined} name */
  const upstreamOf = (name) => {
    const u = name ? byName.get(name) : undefined;
    if (!u) throw new Error(`no upstream is named ${name}`);
    return u;
  };
  /** @type {UpstreamSource} */
  const source = {
    label: '',
    name: 'upstream',
    transport: 'several',
    upstreams,
    catalog: '{"tools":[]}',
    sources: [],
    call: (name, args, ctx) => upstreamOf(ctx.source).relay('tool', name, args, ctx),
    read: (request, ctx, uri) => upstreamOf(ctx.source).relay('resource', uri, request, ctx),
    prompt: (name, args, ctx) => upstreamOf(ctx.source).relay('prompt', name, args, ctx),
    complete: (request, ctx, name) => upstreamOf(ctx.source).relay('completion', name, request, ctx),
    watch(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    close: () => {
      watchers.clear();
      for (const u of upstreams) u.close();
    },
  };
  const refresh = () => {
    source.sources = upstreams.map((u) => u.source(/** @type {string} */ (u.name)));
    source.label = `upstreams ${upstreams.map((u) => `${u.name}=${u.url} (${u.down ? 'unavailable' : u.transport})`).join(', ')}`;
  };
  refresh();
  for (const u of upstreams) {
    u.listen((o) => {
      // every change of what a source serves: its lists, lost, back
      if (o.type === 'ready' || o.type === 'unavailable' || (o.type === 'listed' && u.ready)) {
        refresh();
        for (const w of [...watchers]) w();
      }
    });
  }
  await Promise.all(
    upstreams.map((u) =>
      u.start({ keepTrying: true }).catch((e) => {
        report?.('warn', `${errorText(e)}; its tools are served once it answers`);
      }),
    ),
  );
  refresh();
  return source;
}
