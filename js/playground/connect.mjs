// A live MCP server in the page: the package's UpstreamClient decides the
// protocol (the 2026-07-28 probe or the 2025 handshake, sessions, paging,
// list changes, timeouts, the error text); this module only does what it
// says with the browser's fetch and timers, and hands its outputs on.
import { UpstreamClient } from './switchboard.mjs';

/** The client's clock, in whole milliseconds. */
const now = () => Math.floor(performance.now());

/** @typedef {import('../../pkg/full/slim.mjs').UpstreamOutput} UpstreamOutput */

/** One connection to a Streamable HTTP (or legacy HTTP+SSE) MCP server, over fetch. */
export class BrowserUpstream {
  /** @type {Map<number, AbortController>} */
  #exchanges = new Map();
  /** @type {Map<number, { resolve: (v: unknown) => void, reject: (e: Error) => void }>} */
  #calls = new Map();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #timer;
  #closed = false;

  /**
   * @param {string} url the server's MCP endpoint
   * @param {{ token?: string, onOutput: (o: UpstreamOutput) => void }} options
   */
  constructor(url, { token, onOutput }) {
    this.url = url;
    this.client = new UpstreamClient(url, token ? { token } : {});
    this.onOutput = onOutput;
    /** @type {Extract<UpstreamOutput, { type: 'connected' }> | null} */
    this.connection = null;
  }

  /** Starts connecting; the outputs tell how it goes. */
  connect() {
    this.client.connect(now());
    this.#pump();
  }

  /**
   * Sends a call (tools/call, ...) and resolves with its result; rejects with the package's text.
   * @param {import('../../pkg/full/slim.mjs').UpstreamMethod} method
   * @param {{ [name: string]: unknown }} params
   */
  call(method, params) {
    return new Promise((resolve, reject) => {
      if (this.#closed) return reject(new Error(`${this.url}: disconnected`));
      const call = this.client.call(method, params, now());
      this.#calls.set(call, { resolve, reject });
      this.#pump();
    });
  }

  /** The last items read of a list. @param {import('../../pkg/full/slim.mjs').UpstreamList} kind */
  items(kind) {
    return this.client.items(kind);
  }

  /** Closes the connection (a 2025 session is ended with DELETE, not waited for). */
  close() {
    if (this.#closed) return;
    this.client.close(now());
    this.#pump();
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const c of this.#exchanges.values()) c.abort();
    this.#exchanges.clear();
    for (const { reject } of this.#calls.values()) reject(new Error(`${this.url}: disconnected`));
    this.#calls.clear();
    this.client.free();
  }

  get closed() {
    return this.#closed;
  }

  /** Carries out the client's outputs, then sets its timer. */
  #pump() {
    if (this.#closed) return;
    /** @type {UpstreamOutput | undefined} */
    let o;
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
    }
  }

  /** @param {UpstreamOutput} o */
  #output(o) {
    switch (o.type) {
      case 'send':
        this.#send(o);
        return;
      case 'abort':
        this.#exchanges.get(o.exchange)?.abort();
        this.#exchanges.delete(o.exchange);
        return;
      case 'done': {
        const c = this.#calls.get(o.call);
        this.#calls.delete(o.call);
        c?.resolve(o.result);
        return;
      }
      case 'failed': {
        const c = this.#calls.get(o.call);
        this.#calls.delete(o.call);
        c?.reject(new Error(o.error.text));
        return;
      }
      case 'ask':
        // no client capabilities were declared: nothing here answers sampling or elicitation
        this.client.refuse(o.ask, -32601, `the playground cannot answer ${o.method}`, now());
        queueMicrotask(() => this.#pump());
        return;
      case 'connected':
        this.connection = o;
        break;
      case 'unavailable':
        this.connection = null;
        break;
    }
    this.onOutput(o);
  }

  /**
   * Sends one HTTP request and feeds its reply back as it comes.
   * @param {Extract<UpstreamOutput, { type: 'send' }>} o
   */
  async #send(o) {
    const controller = new AbortController();
    const ex = o.exchange;
    this.#exchanges.set(ex, controller);
    const live = () => this.#exchanges.has(ex) && !this.#closed;
    /** @param {unknown} e */
    const failed = (e) => {
      if (!live()) return;
      this.#exchanges.delete(ex);
      // a refused cross-origin request is a TypeError with no detail: say what it usually means
      const why = e instanceof TypeError ? `${e.message} (a network error, or the server does not allow this page's origin: CORS)` : String(e);
      this.client.responseError(ex, why, now());
      this.#pump();
    };
    let res;
    try {
      res = await fetch(o.url, { method: o.method, headers: o.headers, body: o.body, signal: controller.signal, cache: 'no-store' });
    } catch (e) {
      return failed(e);
    }
    if (!live()) return void res.body?.cancel().catch(() => {});
    this.client.responseHead(ex, res.status, Object.fromEntries(res.headers), now());
    this.#pump();
    try {
      const reader = res.body?.getReader();
      while (reader && live()) {
        const { done, value } = await reader.read();
        if (done || !live()) break;
        this.client.responseChunk(ex, value, now());
        this.#pump();
      }
      if (!live()) return void reader?.cancel().catch(() => {});
    } catch (e) {
      return failed(e);
    }
    this.#exchanges.delete(ex);
    this.client.responseEnd(ex, now());
    this.#pump();
  }
}
