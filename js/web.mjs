// mcp-switchboard/web: the web tools' I/O, web_fetch and web_search as a tool source. Every
// decision (which URLs and addresses are allowed, which redirect to follow,
// when a body is too large, its encoding, what the result says, which tool
// a combined source routes where) is made by the package (WebFetch,
// WebSearch, mergeWebTools); this module resolves names, opens connections
// pinned to the address the package approved, reads bodies in chunks and
// keeps the time.
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import zlib from 'node:zlib';
import { WebFetch, WebSearch, mergeWebTools, webToolDefinitions } from '../pkg/web/wasm.mjs';

// the web tools' WebAssembly module (its own, apart from the package's main
// one): the state machines, HTML conversion, the tool definitions
export { WebFetch, WebSearch, convertHtml, mergeWebTools, webToolDefinitions, webToolsMetadata } from '../pkg/web/wasm.mjs';

/**
 * @typedef {object} WebToolsOptions
 * @property {boolean} [fetch] offer web_fetch (default true)
 * @property {boolean} [search] offer web_search (default true)
 * @property {boolean} [allowPrivate] let web_fetch reach loopback, private and link-local addresses (default false)
 * @property {string[]} [allowHosts] hosts web_fetch may reach at local addresses even so, as host or host:port
 *   ("homeassistant.local:8123"; without a port, 80 and 443 only), and only as the URL a call gives (never through a
 *   redirect from another page)
 * @property {number} [timeoutMs] web_fetch's timeout when a call gives none (default 30000)
 * @property {number} [maxTimeoutMs] the largest timeout a call may ask for (default 120000)
 * @property {number} [maxBytes] bytes of a page read (default 5 MiB)
 * @property {number} [maxRedirects] redirects followed (default 5)
 * @property {string} [searchEndpoint] the MCP search service (default Exa's, https://mcp.exa.ai/mcp)
 * @property {string} [searchTool] its search tool (default web_search_exa)
 * @property {string} [searchApiKey] its API key
 * @property {number} [searchTimeoutMs] web_search's timeout (default 25000)
 */

const defined = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** The WebFetch options among `options`. */
const fetchOptions = (o) =>
  defined({
    allowPrivate: o.allowPrivate,
    allowHosts: o.allowHosts,
    defaultTimeoutMs: o.timeoutMs,
    maxTimeoutMs: o.maxTimeoutMs,
    maxBytes: o.maxBytes,
    maxRedirects: o.maxRedirects,
  });

/** The WebSearch options among `options`. */
const searchOptions = (o) =>
  defined({ endpoint: o.searchEndpoint, tool: o.searchTool, apiKey: o.searchApiKey, timeoutMs: o.searchTimeoutMs });

/**
 * The web tools as definitions and handlers, the shape `handlerSource(catalog,
 * handlers)` in js/dispatch.mjs takes.
 * @param {WebToolsOptions} [options]
 * @returns {{catalog: string, handlers: Record<string, (args: object, ctx?: {signal?: AbortSignal}) => Promise<object>>}}
 */
export function webTools(options = {}) {
  const tools = webToolDefinitions(defined({ fetch: options.fetch, search: options.search }));
  const handlers = {
    web_fetch: (args, ctx) => webFetch(args, { ...options, signal: ctx?.signal }),
    web_search: (args, ctx) => webSearch(args, { ...options, signal: ctx?.signal }),
  };
  return { catalog: JSON.stringify({ tools }), handlers: Object.fromEntries(tools.map((t) => [t.name, handlers[t.name]])) };
}

/**
 * A tool source (js/dispatch.mjs) with the web tools added after its own:
 * a tool of the same name in `source` wins (mergeWebTools decides), and
 * `metadata` is the engine's search metadata with the web tools' entries
 * (category `web`) added.
 * @param {import('./dispatch.mjs').ToolSource} source
 * @param {WebToolsOptions & {metadata?: object}} [options]
 * @returns {import('./dispatch.mjs').ToolSource & {metadata: object}}
 */
export function withWebTools(source, options = {}) {
  const merged = mergeWebTools(source.catalog, defined({ fetch: options.fetch, search: options.search, metadata: options.metadata }));
  const { handlers } = webTools(options);
  const web = new Set(merged.web);
  return {
    ...source,
    label: `${source.label} + web tools`,
    catalog: JSON.stringify({ tools: merged.tools }),
    metadata: merged.metadata,
    call: (name, args, ctx) => (web.has(name) ? handlers[name](args, ctx) : source.call(name, args, ctx)),
  };
}

/** Rejects when `signal` aborts (for waits that cannot be cancelled themselves, such as a lookup). */
function aborted(signal) {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** A stopped fetch's message. */
const why = (e) => e?.code ?? e?.cause?.code ?? e?.message ?? String(e);

/**
 * Runs one web_fetch call; resolves with its CallToolResult (a tool error
 * for anything that went wrong, never a rejection).
 * @param {object} args `{url, format?, timeout?}`
 * @param {WebToolsOptions & {signal?: AbortSignal}} [options] `signal` stops the fetch (the call was cancelled)
 */
export async function webFetch(args, options = {}) {
  const f = new WebFetch(args, fetchOptions(options));
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, f.timeoutMs());
  const stop = () => controller.abort(new Error('the call was cancelled'));
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop();
  const signal = controller.signal;
  let response = null;
  try {
    let a = f.start();
    while (a.kind !== 'done') {
      try {
        switch (a.kind) {
          case 'resolve': {
            let addresses;
            try {
              addresses = await Promise.race([lookup(a.host, { all: true, verbatim: true }), aborted(signal)]);
            } catch (e) {
              if (signal.aborted) throw e;
              a = f.resolveFailed(why(e));
              break;
            }
            a = f.resolved(addresses.map((r) => r.address));
            break;
          }
          case 'request':
            response = await request(a, signal);
            a = f.response(response.statusCode ?? 0, pairs(response.rawHeaders));
            if (a.kind !== 'read') response.destroy();
            break;
          case 'read':
            a = await read(f, response, f.codings(), signal);
            break;
          case 'decode': {
            let text;
            try {
              text = new TextDecoder(a.encoding).decode(f.bodyBytes());
            } catch {
              a = f.decodeFailed();
              break;
            }
            a = f.decoded(text);
            break;
          }
          default:
            a = f.failed(`unknown step ${a.kind}`);
        }
      } catch (e) {
        a = timedOut ? f.timedOut() : f.failed(signal.aborted ? signal.reason.message : why(e));
      }
    }
    return a.result;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
    response?.destroy();
    controller.abort();
    f.free();
  }
}

/** `[name, value]` pairs from Node's flat raw header list. */
function pairs(raw) {
  const out = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}

/**
 * Sends the GET the machine asked for, over a connection to exactly the
 * address it approved (the lookup is pinned; TLS still checks the name),
 * without following redirects; resolves with the response (headers read).
 */
function request(a, signal) {
  const url = new URL(a.url);
  const family = a.address.includes(':') ? 6 : 4;
  const pinned = (_host, opts, cb) => (opts?.all ? cb(null, [{ address: a.address, family }]) : cb(null, a.address, family));
  const tls = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (tls ? https : http).request(url, {
      method: 'GET',
      headers: Object.fromEntries(a.headers),
      lookup: pinned,
      port: a.port,
      // a pooled socket might be connected to another address
      agent: false,
      signal,
      // TLS checks the certificate against the name, not the address
      ...(tls && !isIP(url.hostname.replace(/^\[|\]$/g, '')) ? { servername: url.hostname } : {}),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

/** A decoder for each coding the package names. */
const DECODERS = { gzip: zlib.createGunzip, deflate: zlib.createInflate, br: zlib.createBrotliDecompress };

/**
 * The body stream with its content codings undone, the last applied first (the package read them from
 * Content-Encoding and refused any it does not name).
 * @param {import('node:http').IncomingMessage} response
 * @param {string[]} codings in the order they were applied
 * @param {{ error?: Error, passed?: boolean }} broken gets the first decoder's error (`passed`: the response's own)
 * @returns {NodeJS.ReadableStream & { destroy: (e?: Error) => void }}
 */
function decoded(response, codings, broken) {
  /** @type {any} */
  let stream = response;
  for (const coding of [...codings].reverse()) {
    const unzip = DECODERS[/** @type {keyof typeof DECODERS} */ (coding)]();
    unzip.once('error', (/** @type {Error} */ e) => (broken.error ??= e));
    const from = stream;
    from.on('error', (/** @type {Error} */ e) => {
      // the network's error passes through the decoders: not theirs
      if (from === response) broken.passed = true;
      unzip.destroy(e);
    });
    stream = from.pipe(unzip);
  }
  return stream;
}

/** Reads the body chunk by chunk until the machine has enough (or the body ends). */
async function read(f, response, codings, signal) {
  /** @type {{ error?: Error, passed?: boolean }} a decoder's failure: the body is not what its Content-Encoding says */
  const broken = {};
  const body = decoded(response, codings, broken);
  const ended = () => body.destroy();
  signal.addEventListener('abort', ended, { once: true });
  try {
    try {
      for await (const chunk of body) {
        const a = f.body(chunk);
        if (a.kind !== 'read') return a;
      }
    } catch (e) {
      if (broken.error && !broken.passed && !signal.aborted) return f.codingFailed(broken.error.message);
      throw e;
    }
    if (signal.aborted) throw signal.reason;
    // a body cut short by the server is an error, not a page
    if (!response.complete) throw new Error('the connection closed before the end of the body');
    return f.end();
  } finally {
    signal.removeEventListener('abort', ended);
    body.destroy();
  }
}

/**
 * Runs one web_search call against the MCP search service; resolves with
 * its CallToolResult (a tool error for anything that went wrong).
 * @param {object} args `{query, num_results?, type?, livecrawl?, context_max_chars?}`
 * @param {WebToolsOptions & {signal?: AbortSignal}} [options]
 * @returns {Promise<import('../pkg/web/wasm.mjs').CallToolResult>}
 */
export async function webSearch(args, options = {}) {
  const s = new WebSearch(args, searchOptions(options));
  try {
    let a = s.start();
    if (a.kind !== 'request') return a.result;
    const timeout = AbortSignal.timeout(a.timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    try {
      const res = await fetch(a.url, { method: 'POST', headers: a.headers, body: a.body, signal });
      a = s.response(res.status, res.headers.get('content-type') ?? '');
      if (res.body) {
        for await (const chunk of res.body) {
          a = s.body(chunk);
          // leaving the loop cancels the rest of the body
          if (a.kind === 'done') return a.result;
        }
      }
      return s.end().result;
    } catch (e) {
      if (timeout.aborted) return s.timedOut().result;
      if (signal.aborted) return s.failed('the call was cancelled').result;
      return s.failed(why(e.cause ?? e)).result;
    }
  } finally {
    s.free();
  }
}
