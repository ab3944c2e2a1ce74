// An upstream MCP server over HTTP as a tool source: Streamable HTTP with a
// bearer token (Home Assistant's /api/mcp), falling back to the legacy
// HTTP+SSE transport of older servers. Requests, headers, reply reading and
// what each HTTP status means come from the package (ClientSession,
// classifyReply, ReplyBody, resultFor, SseParser, readLegacyEvent); this
// module only does the fetches. Replies are read under a size limit
// (ReplyBody, 2 MiB by default): a larger one is a clear error, never held
// whole.
import { ClientSession, ReplyBody, SseParser, classifyReply, readLegacyEvent, resultFor, version } from '../pkg/index.mjs';
import { errorText, reporter } from './dispatch.mjs';

const CLIENT_NAME = 'mcp-switchboard';

/**
 * Upstream options.
 * @typedef {object} UpstreamOwnOptions
 * @property {string} [token] bearer token
 * @property {number} [timeoutMs] per-request timeout while connecting and listing (default 30 s)
 * @property {number} [maxReply] largest reply read, in bytes (default 2 MiB)
 */

/** @typedef {UpstreamOwnOptions & import('./dispatch.mjs').LogOptions} UpstreamOptions */

/**
 * Connects to an upstream MCP server and reads its whole catalog
 * (following nextCursor). Tool calls go to the upstream; reconnection
 * (expired sessions, a broken legacy stream) is automatic.
 * @param {string} url the MCP endpoint (Streamable HTTP) or the SSE URL of a legacy server
 * @param {UpstreamOptions} [options]
 * @returns {Promise<import('./dispatch.mjs').ToolSource & {transport: string, close: () => void}>}
 */
export async function connectUpstream(url, options = {}) {
  const { token, timeoutMs = 30_000, maxReply } = options;
  const report = reporter(options);
  /** @param {string} line */
  const log = (line) => report?.('info', line);
  const client = new UpstreamClient(url, token, log, maxReply);
  try {
    await client.connect(AbortSignal.timeout(timeoutMs));
    /** @type {object[]} */
    const tools = [];
    /** @type {string | null} */
    let cursor = null;
    do {
      const c = cursor;
      const page = /** @type {{tools?: object[], nextCursor?: string}} */ (await client.request((s) => s.listTools(c), AbortSignal.timeout(timeoutMs)));
      tools.push(...(page.tools ?? []));
      cursor = page.nextCursor ?? null;
    } while (cursor);
    return {
      label: `upstream ${url} (${client.transport})`,
      name: `upstream ${url}`,
      transport: client.transport,
      catalog: JSON.stringify({ tools }),
      call: (name, args, ctx) => /** @type {Promise<import('../pkg/index.mjs').CallToolResult>} */ (client.request((s) => s.callTool(name, args), ctx.signal)),
      close: () => client.close(),
    };
  } catch (e) {
    client.close();
    const message = errorText(e);
    throw new Error(message.startsWith('upstream ') ? message : client.describe(e));
  }
}

/** @typedef {import('../pkg/index.mjs').ClientRequest} ClientRequest */
/** @typedef {{ action: 'read', messages: object[] } | { action: 'none' | 'legacy' | 'reinitialize' }} PostReply */

class UpstreamClient {
  /**
   * @param {string} url
   * @param {string | undefined} token
   * @param {(line: string) => void} log
   * @param {number | undefined} maxReply
   */
  constructor(url, token, log, maxReply) {
    this.url = url;
    this.token = token;
    this.log = log;
    this.maxReply = maxReply;
    this.session = new ClientSession();
    this.transport = 'streamable-http';
    /** legacy transport: the POST endpoint, and requests waiting for their response by id */
    /** @type {string | null} */
    this.endpoint = null;
    /** @type {Map<number, (m: object | Error) => void>} */
    this.waiting = new Map();
    /** @type {AbortController | null} */
    this.stream = null;
  }

  /**
   * Initializes (Streamable HTTP, or the legacy transport when the server asks for it).
   * @param {AbortSignal} signal
   */
  async connect(signal) {
    try {
      await this.#connect(signal);
    } catch (e) {
      throw new Error(this.describe(e, signal));
    }
  }

  /** @param {AbortSignal} signal */
  async #connect(signal) {
    if (this.transport === 'streamable-http') {
      const init = this.session.initialize(CLIENT_NAME, version());
      const reply = await this.#post(this.url, init.message, signal, true);
      if (reply.action !== 'legacy') {
        if (reply.action !== 'read') throw new Error('no reply to initialize');
        this.session.setProtocolVersion(protocolOf(resultFor(reply.messages, init.id)));
        await this.#send(this.session.initialized(), signal);
        return;
      }
      this.transport = 'http+sse';
    }
    // legacy HTTP+SSE: a new stream and a new session on it
    this.stream?.abort();
    this.session.free();
    this.session = new ClientSession();
    await this.#openLegacy(signal);
    const init = this.session.initialize(CLIENT_NAME, version());
    this.session.setProtocolVersion(protocolOf(await this.#legacyRequest(init, signal)));
    await this.#send(this.session.initialized(), signal);
  }

  /**
   * Sends one request built by `build(session)` and resolves with its result.
   * Errors name the upstream and what went wrong.
   * @param {(session: ClientSession) => ClientRequest} build
   * @param {AbortSignal} signal
   * @returns {Promise<unknown>}
   */
  async request(build, signal) {
    try {
      return await this.#request(build, signal, true);
    } catch (e) {
      const message = errorText(e);
      throw new Error(message.startsWith('upstream ') ? message : this.describe(e, signal));
    }
  }

  /**
   * @param {(session: ClientSession) => ClientRequest} build
   * @param {AbortSignal} signal
   * @param {boolean} mayRetry
   * @returns {Promise<unknown>}
   */
  async #request(build, signal, mayRetry) {
    if (this.transport !== 'streamable-http') {
      if (!this.endpoint) {
        // the event stream broke off: open a new one
        this.log(`upstream ${this.url}: event stream closed, connecting again`);
        await this.#connect(signal);
      }
      return this.#legacyRequest(build(this.session), signal);
    }
    const req = build(this.session);
    const reply = await this.#post(this.url, req.message, signal, false);
    if (reply.action === 'reinitialize' && mayRetry) {
      this.log(`upstream ${this.url}: session expired, initializing again`);
      this.session.setSessionId(null);
      await this.#connect(signal);
      return this.#request(build, signal, false);
    }
    if (reply.action !== 'read') throw new Error(`no reply to ${req.id}`);
    return resultFor(reply.messages, req.id);
  }

  /**
   * A notification (no reply expected).
   * @param {string} message
   * @param {AbortSignal} signal
   */
  async #send(message, signal) {
    if (this.transport === 'streamable-http') {
      await this.#post(this.url, message, signal, false);
    } else {
      if (!this.endpoint) throw new Error('the legacy event stream is closed');
      await this.#post(this.endpoint, message, signal, false);
    }
  }

  /**
   * POSTs a message; classifyReply says what the answer means.
   * @param {string} url
   * @param {string} message
   * @param {AbortSignal} signal
   * @param {boolean} initializing
   * @returns {Promise<PostReply>}
   */
  async #post(url, message, signal, initializing) {
    const res = await fetch(url, { method: 'POST', headers: this.session.headers(this.token ?? null), body: message, signal });
    const ctype = res.headers.get('content-type') ?? '';
    const decision = classifyReply(res.status, ctype, initializing, this.session.hasSession);
    if (initializing && decision.action === 'read') this.session.setSessionId(res.headers.get('mcp-session-id'));
    switch (decision.action) {
      case 'read':
        return { action: 'read', messages: await this.#read(res, ctype) };
      case 'fail':
        await res.body?.cancel();
        throw new Error(decision.message);
      default:
        await res.body?.cancel();
        return { action: decision.action };
    }
  }

  /**
   * Reads a reply body chunk by chunk; past the limit it stops (and cancels the rest).
   * @param {Response} res
   * @param {string} ctype
   * @returns {Promise<object[]>}
   */
  async #read(res, ctype) {
    const body = new ReplyBody(this.maxReply);
    try {
      try {
        if (res.body) for await (const chunk of res.body) body.push(chunk);
      } catch (err) {
        const e = /** @type {Error & {code?: string, cause?: {code?: string}}} */ (err);
        if (e.code === 'limit') throw e;
        throw new Error(`the reply broke off before its end (${e.cause?.code ?? e.message})`);
      }
      return body.messages(ctype);
    } finally {
      body.free();
    }
  }

  /**
   * Legacy HTTP+SSE: GET the stream and wait for its endpoint event.
   * @param {AbortSignal} signal
   */
  async #openLegacy(signal) {
    const controller = new AbortController();
    this.stream = controller;
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const headers = { accept: 'text/event-stream', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) };
    const res = await fetch(this.url, { headers, signal: controller.signal });
    const ctype = res.headers.get('content-type') ?? '';
    const decision = classifyReply(res.status, ctype, false, false);
    if (decision.action === 'fail') {
      controller.abort();
      throw new Error(decision.message);
    }
    /** @type {{resolve: (url: string) => void, reject: (e: Error) => void}} */
    let found = { resolve: () => {}, reject: () => {} };
    /** @type {Promise<string>} */
    const endpoint = new Promise((resolve, reject) => {
      found = { resolve, reject };
    });
    if (!res.body) throw new Error('the event stream has no body');
    this.#pump(res.body, found, controller).finally(() => signal.removeEventListener('abort', onAbort));
    this.endpoint = await endpoint;
    signal.removeEventListener('abort', onAbort);
  }

  /**
   * Reads the legacy stream: the endpoint, then responses routed to their requests.
   * @param {ReadableStream<Uint8Array>} body
   * @param {{resolve: (url: string) => void, reject: (e: Error) => void}} found
   * @param {AbortController} controller
   */
  async #pump(body, found, controller) {
    const parser = new SseParser(this.maxReply);
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
          const e = readLegacyEvent(event);
          if (e && 'endpoint' in e) found.resolve(new URL(e.endpoint, this.url).href);
          else if (e && 'message' in e) this.waiting.get(/** @type {{id: number}} */ (e.message).id)?.(e.message);
        }
      }
      throw new Error('the upstream closed its event stream');
    } catch (err) {
      const reason = controllerReason(err);
      if (this.stream === controller) this.endpoint = null;
      found.reject(reason);
      for (const deliver of this.waiting.values()) deliver(reason);
      this.waiting.clear();
    } finally {
      parser.free();
    }
  }

  /**
   * @param {ClientRequest} req
   * @param {AbortSignal} signal
   * @returns {Promise<unknown>}
   */
  async #legacyRequest(req, signal) {
    if (!this.endpoint) throw new Error('the legacy event stream is closed');
    /** @type {Promise<object>} */
    const response = new Promise((resolve, reject) => {
      this.waiting.set(req.id, (m) => (m instanceof Error ? reject(m) : resolve(m)));
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    try {
      const reply = await this.#post(this.endpoint, req.message, signal, false);
      const messages = reply.action === 'read' ? reply.messages : [await response];
      return resultFor(messages, req.id);
    } finally {
      this.waiting.delete(req.id);
    }
  }

  /**
   * A one-line message naming the upstream and the problem.
   * @param {unknown} e
   * @param {AbortSignal} [signal]
   */
  describe(e, signal) {
    if (signal?.aborted) {
      const r = signal.reason;
      const what = r?.name === 'TimeoutError' ? 'did not answer in time' : 'request was stopped';
      return `upstream ${this.url}: ${what}`;
    }
    const c = /** @type {{cause?: {code?: string, message?: string}} | undefined} */ (e)?.cause;
    const cause = c?.code ?? c?.message;
    if (e instanceof TypeError && cause) return `upstream ${this.url} is unreachable (${cause})`;
    return `upstream ${this.url}: ${errorText(e)}`;
  }

  close() {
    this.stream?.abort();
    this.stream = null;
    this.endpoint = null;
    this.session.free();
  }
}

/**
 * The protocol version of an initialize result.
 * @param {unknown} result
 * @returns {string | null}
 */
function protocolOf(result) {
  const v = /** @type {{protocolVersion?: unknown} | null} */ (result)?.protocolVersion;
  return typeof v === 'string' ? v : null;
}

/**
 * @param {unknown} err
 * @returns {Error}
 */
function controllerReason(err) {
  return err instanceof Error ? err : new Error(String(err));
}
