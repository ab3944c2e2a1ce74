// One turn of a chat, run by runChat() and written down as it happens: the
// visitor's message, each HTTP exchange with the model (the request as the
// Conversation made it, the response as it came), the text as it streams,
// each tool call and its result, retries, and the turn's end. The page
// shows these events (chat, trace and raw views); the recordings a visitor
// without a key replays are the same events, written by
// tests/js/playground-recordings.mjs from runs against the fake model
// servers. No DOM here, and no decision about the wire: the Conversation
// makes every request and reads every response.
import { runChat } from '../chat.mjs';

/**
 * @typedef {{ t: number } & (
 *   | { type: 'user', text: string }
 *   | { type: 'request', n: number, method: string, url: string, headers: [string, string][], body: string }
 *   | { type: 'response', n: number, status: number, headers: [string, string][], body: string, failed?: string }
 *   | { type: 'text', delta: string }
 *   | { type: 'call', id: string, name: string, arguments: unknown, via?: string, coercions?: { pointer: string, from: unknown, to: unknown, reason: string }[] }
 *   | { type: 'result', id: string, name: string, result: unknown, isError: boolean }
 *   | { type: 'retry', kind: string, message: string, waitMs: number }
 *   | { type: 'done', reason: string, text: string, rounds: number, calls: unknown[], usage: unknown, error?: { kind: string, message: string } }
 * )} TurnEvent
 *   `t`: milliseconds since the turn began
 */

/** Text put in place of the API key wherever it appears in what is shown or recorded. */
export const HIDDEN = '•••';

/**
 * Replaces every occurrence of `secret` in `text` (nothing to do without a secret).
 * @param {string} text
 * @param {string | undefined} secret
 */
export const redact = (text, secret) => (secret ? text.split(secret).join(HIDDEN) : text);

/**
 * @param {any} headers a Headers, a list of pairs or an object
 * @returns {[string, string][]}
 */
function pairs(headers) {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers.map(([k, v]) => [String(k), String(v)]);
  if (typeof headers.entries === 'function') return [...headers.entries()].map(([k, v]) => [String(k), String(v)]);
  return Object.entries(headers).map(([k, v]) => [k, String(v)]);
}

/**
 * Runs one turn of `conversation` with runChat and reports every event to `onEvent` as it happens.
 * @param {import('../../pkg/full/slim.mjs').Conversation} conversation
 * @param {string} message
 * @param {{
 *   callTool: (name: string, args: { [name: string]: unknown }) => unknown,
 *   onEvent: (event: TurnEvent) => void,
 *   fetch?: typeof globalThis.fetch,
 *   signal?: AbortSignal,
 *   secret?: string,
 *   now?: () => number,
 * }} options `secret`: the API key, hidden from every event
 * @returns {Promise<TurnEvent[]>} the turn's events, its `done` last
 */
export async function runTurn(conversation, message, { callTool, onEvent, fetch: fetchFn = globalThis.fetch, signal, secret, now = Date.now }) {
  const start = now();
  /** @type {TurnEvent[]} */
  const events = [];
  /** @param {any} e */
  const emit = (e) => {
    const event = /** @type {TurnEvent} */ ({ t: now() - start, ...e });
    events.push(event);
    onEvent(event);
  };
  const hide = (/** @type {[string, string][]} */ list) => list.map(([k, v]) => /** @type {[string, string]} */ ([k, redact(v, secret)]));
  let exchanges = 0;

  /**
   * The fetch runChat uses: the real one, with the request and the response (read as it streams) written down.
   * @param {string} url
   * @param {{ method: string, headers: [string, string][], body: string, signal: AbortSignal }} init
   */
  const logged = async (url, init) => {
    const n = ++exchanges;
    emit({ type: 'request', n, method: init.method, url: redact(url, secret), headers: hide(pairs(init.headers)), body: redact(init.body ?? '', secret) });
    let res;
    try {
      res = await fetchFn(url, init);
    } catch (e) {
      emit({ type: 'response', n, status: 0, headers: [], body: '', failed: e instanceof Error ? e.message : String(e) });
      throw e;
    }
    const headers = pairs(res.headers);
    const decoder = new TextDecoder();
    let text = '';
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      text += decoder.decode();
      emit({ type: 'response', n, status: res.status, headers: hide(headers), body: redact(text, secret) });
    };
    const reader = res.body?.getReader();
    return {
      status: res.status,
      headers,
      body: reader
        ? {
            getReader: () => ({
              async read() {
                const r = await reader.read();
                if (r.value) text += decoder.decode(r.value, { stream: true });
                if (r.done) end();
                return r;
              },
              cancel: (/** @type {unknown} */ why) => {
                end();
                return reader.cancel(why);
              },
            }),
          }
        : null,
      async arrayBuffer() {
        const buf = await res.arrayBuffer();
        text += decoder.decode(new Uint8Array(buf));
        end();
        return buf;
      },
    };
  };

  emit({ type: 'user', text: message });
  const done = await runChat(conversation, message, {
    fetch: /** @type {any} */ (logged),
    signal,
    now,
    onText: (delta) => emit({ type: 'text', delta }),
    onCall: (call) => {
      emit({ type: 'call', id: call.id, name: call.name, arguments: call.arguments, ...(call.via ? { via: call.via } : {}), ...(call.coercions?.length ? { coercions: call.coercions } : {}) });
    },
    onRetry: (retry) => emit({ type: 'retry', kind: retry.error.kind, message: retry.error.message, waitMs: Math.max(0, retry.atMs - now()) }),
    callTool: async (name, args, call) => {
      try {
        const result = await callTool(name, args);
        const isError = typeof result === 'object' && result !== null && /** @type {any} */ (result).isError === true;
        emit({ type: 'result', id: call.id, name, result, isError });
        return result;
      } catch (e) {
        emit({ type: 'result', id: call.id, name, result: { error: e instanceof Error ? e.message : String(e) }, isError: true });
        throw e;
      }
    },
  });
  const { type: _type, ...rest } = /** @type {any} */ (done);
  emit({ type: 'done', ...rest });
  return events;
}
