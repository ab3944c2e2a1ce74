// runChat(): runs one turn of a Conversation with the caller's fetch and
// callTool, in Node and in browsers. It only does I/O: every decision
// (the request's URL, headers and body, how a response or a stream is
// read, what an error is, when to retry, when a deadline passes, what a
// tool's result or failure says to the model) is the Conversation's, in
// the WebAssembly module. This loop sends what it is told to send, feeds
// back what comes, and arms the one timer the Conversation asks for.

/**
 * @typedef {import('../pkg/slim.mjs').Conversation} Conversation
 * @typedef {import('../pkg/slim.mjs').ConversationOutput} ConversationOutput
 * @typedef {import('../pkg/slim.mjs').ConversationDone} ConversationDone
 * @typedef {Extract<ConversationOutput, { type: 'call' }>} ConversationCall
 * @typedef {Extract<ConversationOutput, { type: 'retry' }>} ConversationRetry
 * @typedef {typeof globalThis extends { AbortSignal: abstract new (...args: never[]) => infer T } ? T : never} Signal
 *   An AbortSignal, where the environment declares one (the DOM lib, @types/node)
 */

/**
 * The fetch runChat() needs: the global one, or any that takes a URL and `{method, headers, body, signal}`
 * and gives a Response (its `body` read as a stream when it has one).
 * @typedef {(url: string, init: { method: string, headers: [string, string][], body: string, signal: Signal }) => Promise<{
 *   status: number,
 *   headers: { entries(): Iterable<[string, string]> } | [string, string][] | { [name: string]: string },
 *   body?: { getReader(): { read(): Promise<{ done: boolean, value?: Uint8Array }>, cancel?(reason?: unknown): Promise<void> } } | null,
 *   arrayBuffer(): Promise<ArrayBuffer>,
 * }>} ChatFetch
 */

/**
 * @typedef {object} RunChatOptions
 * @property {(name: string, args: { [name: string]: unknown }, call: ConversationCall) => unknown} callTool
 *   Runs an MCP tool: resolves with its CallToolResult (or any value: the tool's output); a rejection is an
 *   error result the model reads. An MCP client's `(name, args) => client.callTool({ name, arguments: args })`.
 * @property {ChatFetch} [fetch] The fetch to the model (default: the global fetch).
 * @property {(delta: string) => void} [onText] Text of the answer as it arrives.
 * @property {(call: ConversationCall) => void} [onCall] A tool call about to run.
 * @property {(retry: ConversationRetry) => void} [onRetry] A request failed for a passing reason and goes again.
 * @property {Signal} [signal] Stops the turn: requests and the wait are abandoned and runChat rejects.
 * @property {() => number} [now] The clock, in milliseconds (default Date.now).
 */

/**
 * Runs one turn: sends `message`, then every request, tool call and wait the conversation asks for, until its
 * `done` output, which it resolves with (`reason`, `text`, `rounds`, `calls`, `usage`, and `error` when a
 * provider error ended the turn). Provider errors do not reject: they are in `done.error`.
 * @param {Conversation} conversation
 * @param {string} message
 * @param {RunChatOptions} options
 * @returns {Promise<ConversationDone>}
 */
export async function runChat(conversation, message, options) {
  const { callTool, onText, onCall, onRetry, signal } = options ?? /** @type {RunChatOptions} */ ({});
  const fetchFn = options?.fetch ?? /** @type {ChatFetch} */ (/** @type {unknown} */ (globalThis.fetch));
  const now = options?.now ?? Date.now;
  if (typeof callTool !== 'function') throw usageError('runChat(): options.callTool must be a function');
  if (typeof fetchFn !== 'function') throw usageError('runChat(): no fetch: pass options.fetch');
  if (typeof message !== 'string') throw usageError('runChat(): message must be a string');
  signal?.throwIfAborted();
  conversation.send(message, now());

  /** @type {Map<number, AbortController>} */
  const requests = new Map();
  let pending = 0;
  let dirty = false;
  /** @type {() => void} */
  let wake = () => {};
  const poke = () => {
    dirty = true;
    wake();
  };
  const onAbort = () => poke();
  signal?.addEventListener('abort', onAbort);

  /** @param {Extract<ConversationOutput, { type: 'request' }>} out */
  const send = async (out) => {
    const controller = new AbortController();
    requests.set(out.id, controller);
    try {
      const res = await fetchFn(out.url, { method: out.method, headers: out.headers, body: out.body, signal: controller.signal });
      conversation.response(out.id, res.status, res.headers, now());
      poke();
      const reader = res.body?.getReader();
      if (reader) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value) conversation.body(out.id, value, now());
          poke();
        }
      } else {
        conversation.body(out.id, new Uint8Array(await res.arrayBuffer()), now());
      }
      conversation.end(out.id, now());
    } catch (e) {
      // a request the conversation stopped reading is not a failure
      if (!controller.signal.aborted) conversation.failure(out.id, messageOf(e), now());
    } finally {
      requests.delete(out.id);
    }
  };

  /** @param {ConversationCall} out */
  const run = async (out) => {
    let result;
    try {
      result = await callTool(out.name, out.arguments, out);
    } catch (e) {
      result = e instanceof Error ? e : new Error(messageOf(e));
    }
    conversation.complete(out.id, result, now());
  };

  /** @type {unknown} */
  let broken;
  let finished = false;
  /** @param {Promise<void>} task */
  const track = (task) => {
    pending++;
    task
      // a task that fails (a conversation freed under it, a callback that threw) ends the turn
      // with that error; once the turn is over, late tasks are let go
      .catch((e) => {
        if (!finished) broken ??= e;
      })
      .finally(() => {
        pending--;
        poke();
      });
  };

  try {
    for (;;) {
      dirty = false;
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      if (broken !== undefined) throw broken;
      /** @type {ConversationOutput | undefined} */
      let out;
      while ((out = conversation.poll()) !== undefined) {
        switch (out.type) {
          case 'request':
            track(send(out));
            break;
          case 'cancel':
            requests.get(out.request)?.abort();
            break;
          case 'text':
            onText?.(out.delta);
            break;
          case 'call':
            onCall?.(out);
            track(run(out));
            break;
          case 'retry':
            onRetry?.(out);
            break;
          case 'done':
            return out;
        }
      }
      if (dirty) continue;
      const at = conversation.pollTimeout();
      if (at === undefined && pending === 0) throw new Error('runChat(): the conversation waits on nothing (was it driven elsewhere at the same time?)');
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      await new Promise((resolve) => {
        wake = () => resolve(undefined);
        if (at !== undefined) timer = setTimeout(() => resolve(undefined), Math.max(0, at - now()));
      });
      clearTimeout(timer);
      wake = () => {};
      if (at !== undefined && now() >= at) conversation.handleTimeout(now());
    }
  } finally {
    finished = true;
    signal?.removeEventListener('abort', onAbort);
    for (const c of requests.values()) c.abort();
  }
}

/** @param {unknown} e */
function messageOf(e) {
  if (e instanceof Error) {
    const cause = /** @type {{ cause?: unknown }} */ (e).cause;
    return cause instanceof Error && cause.message ? `${e.message} (${cause.message})` : e.message || e.name;
  }
  return String(e);
}

/** @param {string} message */
function usageError(message) {
  const e = /** @type {TypeError & { code: string, pointer: string }} */ (new TypeError(message));
  e.code = 'usage';
  e.pointer = '';
  return e;
}
