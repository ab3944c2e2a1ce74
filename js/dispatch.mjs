// One MCP session: an Engine (all protocol decisions, invocation deadlines
// included) plus the I/O around it: running the tools it asks for, one timer
// armed when the engine says, and handing back the reply that belongs to
// each incoming message. Shared by the HTTP
// gateway, the stdio transport and one-shot message handling. Also the
// shapes the gateway library shares: tool sources, loggers and events.
import { Engine, asToolResultJson, readCatalog } from '../pkg/full/index.mjs';

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
 * @property {import('../pkg/full/index.mjs').SurfaceInput} [surface] resources, templates and prompts served besides the tools
 * @property {import('../pkg/full/index.mjs').SourceInput[]} [sources] several sources served as one (instead of catalog
 *   and surface): names are prefixed with the source's name, and ctx.source names the source of each invocation
 * @property {(listener: () => void) => () => void} [watch] tells the listener whenever what the source serves
 *   changed (the gateway and the stdio server then serve it anew); returns a function that stops it
 * @property {(request: any, ctx: ToolContext, uri: string) => unknown} [read] reads a resource: a ReadResourceResult
 *   (`uri`: the URI as the source knows it, without a prefix several sources add)
 * @property {(name: string, args: { [name: string]: string }, ctx: ToolContext) => unknown} [prompt] renders a
 *   prompt: a GetPromptResult
 * @property {(request: any, ctx: ToolContext, name: string) => unknown} [complete] answers completion/complete: a
 *   CompleteResult (`name`: the prompt's name or the template as the source knows it)
 */

/** @typedef {import('../pkg/full/index.mjs').CallToolResult} CallToolResult */

/**
 * What a tool gets besides its arguments.
 * @typedef {object} ToolContext
 * @property {AbortSignal} signal aborts when the client cancels the call or it times out (made when first read)
 * @property {string} [kind] what is asked: "tool", "resource", "prompt" or "completion"
 * @property {'legacy' | 'modern'} [era] the request's era (2025 session, or 2026-07-28 stateless)
 * @property {string | null} [source] the source named by the engine (several sources)
 * @property {unknown} [inputResponses] 2026-07-28: the client's answers on a retry
 * @property {string} [requestState] 2026-07-28: the state given with inputRequired() on the retry
 * @property {(progress: number, total?: number, message?: string) => boolean} [progress] reports progress
 *   (notifications/progress, when the client asked with a progressToken)
 * @property {(level: import('../pkg/full/index.mjs').LogLevel, data: unknown, logger?: string) => boolean} [log] sends
 *   notifications/message if the client's level lets it through
 * @property {(method: string, params?: { [key: string]: unknown }) => Promise<unknown>} [ask] asks the client
 *   (sampling/createMessage, elicitation/create, roots/list; 2025 revisions)
 * @property {(requests: { [key: string]: unknown }, state?: string) => unknown} [inputRequired] 2026-07-28: return
 *   this to ask the client; the request comes back with ctx.inputResponses
 */

/**
 * A host tool: takes the validated arguments, returns a CallToolResult or any value (made a success
 * result), or throws (a tool error the model reads).
 * @typedef {(args: { [name: string]: any }, ctx: ToolContext) => unknown} ToolHandler
 */

/**
 * Something that happened, for a host's log. The gate's events (sessions, refused requests, failed
 * logins) come from the package's HTTP rules; the rest from the shell.
 * @typedef {import('../pkg/full/index.mjs').GateEvent
 *   | { type: "request-error"; remote: string | null; message: string }
 *   | { type: "tool-error"; tool: string; message: string }
 *   | { type: "catalog"; message: string; report: import('../pkg/full/index.mjs').ReportEntry[] }} GatewayEvent
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
 * A tool source made of host handler functions, optionally with resources, resource templates, prompts
 * and completions (the `surface`): reads, prompt renders and completions the engine asks for go to
 * `surface.read`, `surface.prompt` and `surface.complete`.
 * @param {import('../pkg/full/index.mjs').CatalogInput} catalog the tools the handlers implement (any catalog shape readCatalog takes)
 * @param {{ [name: string]: ToolHandler }} handlers tool name → function returning a CallToolResult or a plain value
 * @param {string} [label] what the source is, for logs
 * @param {SurfaceHandlers} [surface] resources, templates and prompts, and the functions serving them
 * @returns {ToolSource}
 */
export function handlerSource(catalog, handlers, label = 'handlers', surface) {
  const { tools } = readCatalog(catalog);
  /** @type {(name: string, args: { [name: string]: unknown }, ctx: ToolContext) => unknown} */
  const run = (name, args, ctx) => {
    const fn = handlers[name];
    if (typeof fn !== 'function') throw new Error(`no handler is registered for ${name}`);
    return fn(args, ctx);
  };
  /** @type {ToolSource} */
  const source = {
    label,
    catalog: JSON.stringify({ tools }),
    async call(name, args, ctx) {
      const result = await run(name, args, ctx);
      // a 2026-07-28 question to the client goes back to the session as it is
      return isInputRequired(result) ? /** @type {any} */ (result) : asToolResultJson(result);
    },
  };
  // a session runs the handler itself while `call` is this one, and gives its value to the engine
  // to shape and check in one pass (Engine.completeValue), not through asToolResultJson first
  /** @type {any} */ (source)[HANDLER_VALUES] = { call: source.call, run };
  if (surface) {
    const { resources, templates, prompts, read, prompt, complete } = surface;
    source.surface = defined({ resources, templates, prompts });
    if (read) source.read = read;
    if (prompt) source.prompt = prompt;
    if (complete) source.complete = complete;
  }
  return source;
}

/**
 * Resources, templates and prompts a host serves, and the functions that serve them.
 * @typedef {object} SurfaceHandlers
 * @property {object[]} [resources] resources/list entries ({uri, name, mimeType, ...})
 * @property {object[]} [templates] resources/templates/list entries ({uriTemplate, name, ...})
 * @property {object[]} [prompts] prompts/list entries ({name, description, arguments})
 * @property {(request: { uri: string, template?: string, variables?: { [name: string]: string } }, ctx: ToolContext) => unknown} [read]
 *   a ReadResourceResult for a listed URI or one matching a template
 * @property {(name: string, args: { [name: string]: string }, ctx: ToolContext) => unknown} [prompt] a GetPromptResult
 * @property {(request: { [name: string]: unknown }, ctx: ToolContext) => unknown} [complete] a CompleteResult for a
 *   completion/complete request's params
 */

/**
 * On a handlerSource(): its own `call` and `run(name, args, ctx)`, which gives the handler's value as it is.
 * A session runs a tool with `run` while the source's `call` is still that `call` (not replaced by a wrapper).
 */
const HANDLER_VALUES = Symbol('handler values');

/** What ctx.inputRequired() returns: a handler returns it to ask the client (2026-07-28). */
const INPUT_REQUIRED = Symbol('input required');

/**
 * @param {unknown} v
 * @returns {v is { [INPUT_REQUIRED]: true, requests: { [key: string]: unknown }, state?: string }}
 */
function isInputRequired(v) {
  return typeof v === 'object' && v !== null && INPUT_REQUIRED in v;
}

/**
 * Session options.
 * @typedef {object} SessionOptions
 * @property {import('../pkg/full/index.mjs').EngineOptions} [engine] the engine's options (mode, exposure, ...)
 * @property {number} [timeoutMs] per-invocation timeout (default 30 s: the engine's option `timeoutMs`)
 * @property {(message: string) => void} [notify] where server messages that belong to no open request go (JSON text)
 * @property {((level: Level, message: string, event?: GatewayEvent) => void) | null} [report] from reporter()
 * @property {{ calls: number; toolErrors: number }} [counts] counters to add this session's calls to
 * @property {Engine} [base] an engine whose catalog, index, disclosure and compiled schemas this session shares
 *   (`engine.fork()`): nothing is built for it, whatever the catalog's size; `engine` and the source's catalog
 *   are then not read
 */

/**
 * One request in flight: where its reply and the messages on its stream go.
 * @typedef {object} Exchange
 * @property {(reply: { message: string, status: number } | null) => void} done the reply (null: none is owed)
 * @property {((message: string) => void) | undefined} stream a notification or server request on the request's stream
 * @property {number} channel
 * @property {string | null} key set once the engine names the request
 */

/** @typedef {{ key: string, ctx: Context, tool: string }} Pending */

/**
 * What an invocation's tool gets besides its arguments (a ToolContext). Its signal is an AbortController's, made
 * when first read: most calls never read it, and making one costs more than starting the invocation. The getter is
 * the class's (a getter in an object literal makes every context slowly); the rest are the context's own fields.
 * @implements {ToolContext}
 */
class Context {
  /** @type {AbortController | null} */
  #controller = null;
  #aborted = false;

  /**
   * @param {import('../pkg/full/index.mjs').EngineOutput & { type: 'invoke' }} invocation
   * @param {NonNullable<ToolContext['progress']>} progress
   * @param {NonNullable<ToolContext['log']>} log
   * @param {NonNullable<ToolContext['ask']>} ask
   */
  constructor(invocation, progress, log, ask) {
    this.kind = invocation.kind;
    this.era = invocation.era;
    this.source = invocation.source;
    this.inputResponses = invocation.inputResponses;
    this.requestState = invocation.requestState;
    this.progress = progress;
    this.log = log;
    this.ask = ask;
    /** @type {NonNullable<ToolContext['inputRequired']>} */
    this.inputRequired = (requests, state) => ({ [INPUT_REQUIRED]: true, requests, state });
  }

  /**
   * aborts when the client cancels the call or it times out
   * @returns {ToolContext['signal']}
   */
  get signal() {
    this.#controller ??= new AbortController();
    if (this.#aborted) this.#controller.abort();
    return this.#controller.signal;
  }

  /**
   * The call was cancelled or timed out: the signal aborts (now, or when first read).
   * @param {Context} ctx
   */
  static abort(ctx) {
    ctx.#aborted = true;
    ctx.#controller?.abort();
  }
}

/** @param {number} channel @param {unknown} to */
const keyOf = (channel, to) => `${channel} ${JSON.stringify(to)}`;

/**
 * A session's engine and the invocations it has asked for. Every output names its channel and the request it
 * belongs to; replies and request-scoped notifications are routed by them.
 */
export class Session {
  /**
   * @param {ToolSource} source
   * @param {SessionOptions} [options]
   */
  constructor(source, { engine = {}, timeoutMs, notify = () => {}, report = null, counts, base } = {}) {
    /** the tools; may be replaced (the next invocation uses the new one) */
    this.source = source;
    if (base) this.engine = base.fork();
    else {
      this.engine = new Engine(source.catalog, defined({ timeoutMs, waitingFor: source.name, ...defined(engine) }));
      if (source.sources) this.engine.setSources(source.sources, 'prefixed');
      else if (source.surface) this.engine.setSurface(source.surface);
    }
    this.notify = notify;
    this.report = report;
    this.counts = counts ?? { calls: 0, toolErrors: 0 };
    /** @type {Map<number, Pending>} invocation id → its request and abort */
    this.pending = new Map();
    /** @type {Map<string, Exchange>} "channel id" → the request waiting for its reply */
    this.exchanges = new Map();
    /** @type {Map<number, { resolve: (v: unknown) => void, reject: (e: Error) => void }>} questions to the client */
    this.asks = new Map();
    this.closed = false;
  }

  /**
   * The session's one timer, armed when the engine's next invocation deadline falls (Engine.pollTimeout; or later
   * than that: it asks again when it fires), and kept from holding the process open while no invocation runs.
   * @type {ReturnType<typeof setTimeout> | null}
   */
  #timer = null;
  /** when #timer fires, on the engine's clock (Date.now()) */
  #armed = Infinity;

  /**
   * Tells the engine the time: invocations begun since start their clock, those past their deadline are answered
   * (a "timedOut" output each, then the reply); then arms the timer for the next deadline.
   */
  #tick() {
    if (this.closed) return;
    this.engine.handleTimeout(Date.now());
    this.#dispatch(this.engine.drain(), null);
    const at = this.engine.pollTimeout();
    if (at !== undefined && !this.closed) this.#arm(at);
  }

  /**
   * Arms the timer for `at` unless it fires by then already.
   * @param {number} at when, as Engine.pollTimeout gives it
   */
  #arm(at) {
    const timer = this.#timer;
    if (timer !== null) {
      if (!timer.hasRef()) timer.ref();
      if (this.#armed <= at) return;
      clearTimeout(timer);
    }
    this.#armed = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#armed = Infinity;
      this.#tick();
    }, Math.max(1, at - Date.now()));
  }

  /** An invocation ended: with none left running, the deadline timer no longer holds the process open. */
  #ended() {
    if (this.pending.size === 0) this.#timer?.unref();
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
    const { owed, reply } = this.exchange(0, message);
    return { owed, reply: reply.then((r) => r?.message ?? null) };
  }

  /**
   * Feeds one JSON-RPC message on a channel (one per connection, session, or 2026-07-28 HTTP request).
   * `reply` resolves with the reply and its HTTP status, or null when none is owed; `stream` gets the
   * notifications and server requests that belong to this request (progress, log messages, a
   * subscriptions/listen stream), which otherwise go to `notify`.
   * @param {number} channel
   * @param {string} message
   * @param {(message: string) => void} [stream]
   * @param {import('../pkg/full/index.mjs').HttpHeaders} [headers] the HTTP request's headers, for a
   *   2026-07-28 POST (its Mcp-Param-* headers are checked against the arguments)
   * @returns {{owed: boolean, reply: Promise<{ message: string, status: number } | null>}}
   */
  exchange(channel, message, stream, headers) {
    if (this.closed) return { owed: false, reply: Promise.resolve(null) };
    const owed = headers ? this.engine.handleHttp(channel, message, headers) : this.engine.handleOn(channel, message);
    return this.taken(channel, owed, stream);
  }

  /**
   * A POST of this HTTP session: the gate's decision on it (HttpGate.checkMessage, with the gate's
   * `maxBody`) and, unless that is to refuse it or to serve it as a 2026-07-28 message of its own, the
   * engine takes it on channel 0, with the body read once for both (then the action is "handled": its
   * reply comes from taken()).
   * @param {import('../pkg/full/index.mjs').HttpHeaders} headers the request's
   * @param {string} message the body
   * @param {number} maxBody the gate's limits.maxBody
   */
  take(headers, message, maxBody) {
    return this.engine.handleChecked(0, headers, message, maxBody);
  }

  /**
   * The reply to the message the engine has just taken on `channel`, as exchange() gives it.
   * @param {number} channel
   * @param {boolean} owed whether the message is owed a reply
   * @param {(message: string) => void} [stream]
   * @returns {{owed: boolean, reply: Promise<{ message: string, status: number } | null>}}
   */
  taken(channel, owed, stream) {
    /** @type {Promise<{ message: string, status: number } | null>} */
    const reply = new Promise((done) => this.#dispatch(this.engine.drain(), { done, stream, channel, key: null }));
    return { owed, reply };
  }

  /**
   * A channel closed (a request's stream, a connection): its invocations are cancelled, its subscriptions end,
   * and its requests get no reply.
   * @param {number} channel
   */
  closeChannel(channel) {
    if (this.closed) return;
    this.engine.closeChannel(channel);
    this.#dispatch(this.engine.drain(), null);
    for (const [k, ex] of this.exchanges) {
      if (ex.channel !== channel) continue;
      this.exchanges.delete(k);
      ex.done(null);
    }
  }

  /**
   * Ends every subscriptions/listen stream (or those of one channel) with its response.
   * @param {number} [channel]
   */
  endSubscriptions(channel) {
    this.#change((e) => e.endSubscriptions(channel));
  }

  /**
   * Serves what `other` serves from now on (its source, catalog, options, resources and prompts), sharing
   * what it built: a change made once to `other` reaches this session without being made again; clients
   * get list_changed for what changed.
   * @param {Session} other
   */
  follow(other) {
    if (other === this) return;
    this.source = other.source;
    this.#change((e) => e.follow(other.engine));
  }

  /**
   * Replaces the catalog of this session (clients get list_changed).
   * @param {import('../pkg/full/index.mjs').CatalogInput} catalog
   */
  setCatalog(catalog) {
    this.#change((e) => e.setCatalog(catalog));
  }

  /**
   * Serves this source from now on: its catalog and surface, or its several sources (clients get
   * list_changed for what changed). Invocations already running finish on the old one.
   * @param {ToolSource} source
   */
  setSource(source) {
    this.source = source;
    if (!this.closed) this.engine.setWaitingFor(source.name ?? null);
    if (source.sources) {
      const sources = source.sources;
      this.#change((e) => e.setSources(sources, 'prefixed'));
      return;
    }
    this.#change((e) => {
      e.setCatalog(source.catalog);
      e.setSurface(source.surface ?? {});
    });
  }

  /**
   * Replaces the resources, templates and prompts (clients get list_changed).
   * @param {import('../pkg/full/index.mjs').SurfaceInput} surface
   */
  setSurface(surface) {
    this.#change((e) => e.setSurface(surface));
  }

  /**
   * A resource changed: subscribed clients are told.
   * @param {string} uri
   */
  resourceUpdated(uri) {
    this.#change((e) => e.resourceUpdated(uri));
  }

  /**
   * Changes the disclosure mode (clients get list_changed when the list changes).
   * @param {import('../pkg/full/index.mjs').Mode} mode
   */
  setMode(mode) {
    this.#change((e) => e.setMode(mode));
  }

  /**
   * Changes which tools exist (clients get list_changed when the list changes).
   * @param {import('../pkg/full/index.mjs').ExposureOptions} exposure
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
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    for (const [id, p] of this.pending) {
      Context.abort(p.ctx);
      this.pending.delete(id);
    }
    for (const [k, ex] of this.exchanges) {
      this.exchanges.delete(k);
      ex.done(null);
    }
    for (const [id, a] of this.asks) {
      this.asks.delete(id);
      a.reject(new Error('the session closed'));
    }
    this.engine.free();
  }

  /**
   * Routes drained outputs by their channel and request. `current` is the
   * request just handled: the first output naming a request on its channel
   * that nobody waits for yet names it.
   * @param {import('../pkg/full/index.mjs').EngineOutput[]} outputs
   * @param {Exchange | null} current
   */
  #dispatch(outputs, current) {
    /** @param {number} channel @param {unknown} to */
    const find = (channel, to) => {
      const key = keyOf(channel, to);
      let ex = this.exchanges.get(key);
      if (!ex && current && current.key === null && current.channel === channel) {
        current.key = key;
        this.exchanges.set(key, current);
        ex = current;
      }
      return ex;
    };
    let invoked = false;
    for (const o of outputs) {
      switch (o.type) {
        case 'reply': {
          const ex = find(o.channel, o.to);
          if (ex?.key) {
            this.exchanges.delete(ex.key);
            ex.done({ message: o.message, status: o.status });
          } else {
            this.report?.('warn', `dropped a reply nobody waits for: ${o.message.slice(0, 200)}`);
          }
          break;
        }
        case 'notification':
        case 'request': {
          const ex = o.to === null ? undefined : find(o.channel, o.to);
          if (ex?.stream) ex.stream(o.message);
          else this.notify(o.message);
          break;
        }
        case 'invoke': {
          const ex = find(o.channel, o.request);
          invoked = true;
          this.#invoke(o, ex?.key ?? keyOf(o.channel, o.request));
          break;
        }
        case 'timedOut': {
          // the engine answered the request; the work is stopped
          const p = this.pending.get(o.id);
          if (!p) break;
          this.pending.delete(o.id);
          this.#ended();
          Context.abort(p.ctx);
          this.#toolError(o.tool, o.message);
          break;
        }
        case 'cancel': {
          const p = this.pending.get(o.id);
          if (p) {
            this.pending.delete(o.id);
            this.#ended();
            Context.abort(p.ctx);
            const ex = this.exchanges.get(p.key);
            if (ex) {
              this.exchanges.delete(p.key);
              ex.done(null);
            }
          }
          break;
        }
        case 'answer': {
          const a = this.asks.get(o.ask);
          if (!a) break;
          this.asks.delete(o.ask);
          if (o.error !== undefined) {
            const e = /** @type {{ message?: string }} */ (o.error);
            a.reject(Object.assign(new Error(e?.message ?? 'the client refused'), { error: o.error }));
          } else a.resolve(o.result);
          break;
        }
      }
    }
    // a notification or response: nothing is owed
    if (current && current.key === null) current.done(null);
    // the clock of the invocations just begun starts now
    if (invoked) this.#tick();
  }

  /**
   * Runs one invocation on the source by its kind.
   * @param {import('../pkg/full/index.mjs').EngineOutput & { type: 'invoke' }} invocation
   * @param {string} key the request it answers
   */
  #invoke(invocation, key) {
    const { id, tool, kind, arguments: args } = invocation;
    this.counts.calls++;
    const session = this;
    const ctx = new Context(
      invocation,
      (progress, total, message) => session.#tell((e) => e.progress(id, progress, total, message)),
      // the package reads a string as JSON text: the data goes across as JSON
      (level, data, logger) => session.#tell((e) => e.log(id, level, JSON.stringify(data ?? null), logger)),
      (method, params) => session.#ask(id, method, params),
    );
    // its deadline is the engine's (see #tick)
    this.pending.set(id, { key, ctx, tool });
    // a handlerSource's tool: the handler's value goes to the engine as it is
    const s = this.source;
    const handlers = kind === 'tool' ? /** @type {any} */ (s)[HANDLER_VALUES] : undefined;
    const values = handlers !== undefined && handlers.call === s.call;
    /** @type {Promise<unknown>} */
    let running;
    try {
      running = Promise.resolve(values ? handlers.run(tool, args, ctx) : this.#run(kind, tool, args, ctx));
    } catch (err) {
      running = Promise.reject(err);
    }
    /** @param {unknown} err */
    const failed = (err) => {
      const message = errorText(err);
      if (this.pending.has(id)) this.#toolError(tool, message);
      this.#settle(id, (e) => e.fail(id, message));
    };
    running.then((result) => {
      // any value a handler gives (a Proxy whose traps throw included) ends as a result or a tool error
      let asks;
      try {
        asks = isInputRequired(result);
      } catch (e) {
        return failed(e);
      }
      this.#settle(id, (e) => {
        if (asks) {
          const r = /** @type {any} */ (result);
          e.inputRequired(id, r.requests, r.state);
        } else if (!values) e.complete(id, /** @type {any} */ (result));
        else {
          // a value with no result form failed the call, as a handler that threw
          const failed = e.completeValue(id, result);
          if (failed !== undefined) this.#toolError(tool, failed);
        }
      });
    }, failed);
  }

  /**
   * @param {string} kind
   * @param {string} name
   * @param {any} args
   * @param {ToolContext} ctx
   */
  #run(kind, name, args, ctx) {
    const s = this.source;
    switch (kind) {
      case 'resource':
        if (!s.read) throw new Error(`${args?.uri ?? name} cannot be read`);
        return s.read(args, ctx, name);
      case 'prompt':
        if (!s.prompt) throw new Error(`no handler is registered for the prompt ${name}`);
        return s.prompt(name, args ?? {}, ctx);
      case 'completion':
        if (!s.complete) return { completion: { values: [] } };
        return s.complete(args, ctx, name);
      default:
        return s.call(name, args, ctx);
    }
  }

  /**
   * Something an invocation tells the client while it runs.
   * @param {(engine: Engine) => boolean} say
   * @returns {boolean} whether a message went out
   */
  #tell(say) {
    if (this.closed) return false;
    let sent = false;
    try {
      sent = say(this.engine);
    } catch (e) {
      this.report?.('warn', errorText(e));
    }
    this.#dispatch(this.engine.drain(), null);
    return sent;
  }

  /**
   * Asks the client on behalf of invocation `id` (2025 revisions): resolves with its result.
   * @param {number} id
   * @param {string} method
   * @param {{ [key: string]: unknown } | undefined} params
   * @returns {Promise<unknown>}
   */
  #ask(id, method, params) {
    if (this.closed) return Promise.reject(new Error('the session closed'));
    return new Promise((resolve, reject) => {
      let ask;
      try {
        ask = this.engine.ask(id, method, params);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(errorText(e)));
        return;
      }
      this.asks.set(ask, { resolve, reject });
      this.#dispatch(this.engine.drain(), null);
    });
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
    this.#ended();
    try {
      report(this.engine);
    } catch (e) {
      // complete() refuses a result that is not of its kind, but has
      // already answered the client with an internal error; a value that
      // could not even be read (a Proxy that throws) fails the call here
      const message = errorText(e);
      this.report?.('warn', `invocation ${id}: ${message}`);
      try {
        this.engine.fail(id, message);
      } catch {
        // answered already
      }
    }
    this.#dispatch(this.engine.drain(), null);
  }
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
 * The message of anything thrown, whatever it is: an Error's message, a string, other values as JSON or as
 * text (null, undefined, a BigInt, a cyclic object, a Proxy whose traps throw); never throws.
 * @param {unknown} err
 * @returns {string}
 */
export function errorText(err) {
  try {
    if (err instanceof Error) {
      const m = err.message;
      return typeof m === 'string' && m !== '' ? m : String(err.name || 'Error');
    }
    if (typeof err === 'string') return err;
    const json = JSON.stringify(err);
    if (typeof json === 'string') return json;
  } catch {
    // a cyclic object, a BigInt inside, a throwing getter or Proxy: as text below
  }
  try {
    return String(err);
  } catch {
    return 'a value that cannot be shown';
  }
}

/**
 * The stack of anything thrown, or its message (never throws).
 * @param {unknown} err
 * @returns {string}
 */
export function errorStack(err) {
  try {
    if (err instanceof Error && typeof err.stack === 'string') return err.stack;
  } catch {
    // a Proxy: its message below
  }
  return errorText(err);
}
