'use strict';

// "Ask the assistant": Flow cards ask a model a question, and the model may
// use the app's own tools on the way. Everything about the conversation (the
// provider's requests and responses, its errors and the retries, the tool
// calls and their validation, the history and its budget) is the package's
// Conversation (mcp-switchboard/full, the module the app and its gateway load), driven by its runChat(). This module
// does the I/O around it:
// - the model's HTTP through node-fetch, which homey-api loads anyway (Node
//   18's own fetch costs about 30 MB RSS the first time it is used);
// - the tools through the gateway's engine, as an MCP client's calls go
//   (lib/mcp-server.js: the owner's disclosure mode, read-only, hidden tools;
//   the handlers keep hidden zones and protected devices out as for anyone);
// - the owner's time limit, the conversations kept for follow-up questions
//   (a few, for an hour), and what each Ask did in the app's log.

const { randomBytes } = require('crypto');

const { Conversation, runChat } = require('mcp-switchboard/full');

/** Conversations kept for follow-up questions, and how long one is kept unused. */
const MAX_CONVERSATIONS = 8;
const KEEP_MS = 60 * 60 * 1000;
/** Tokens of history a conversation sends at most (older tool results are shortened first, then old exchanges left out). */
const HISTORY_BUDGET = 8000;
/** A conversation's name: the token an Ask gave, or one the owner chose. */
const CONVERSATION_ID = /^[\p{L}\p{N}_.:-]{1,64}$/u;

/** The settings' providers as the package names them ("compatible": Chat Completions at the owner's base URL). */
const PROVIDER = { gemini: 'gemini', openai: 'openai', anthropic: 'anthropic', compatible: 'openai' };
const PROVIDER_NAME = { gemini: 'Gemini', openai: 'OpenAI', anthropic: 'Anthropic' };

const SYSTEM = [
  'You are the assistant of a Homey smart home, asked a question by one of the owner\'s Flows.',
  'Use the tools to look at or change the home: get_home_structure gives the zones and devices; when search_tools is listed, it finds the other tools, and use_tool runs them.',
  'Answer in the language of the question, briefly and in plain text without Markdown: the answer may be spoken aloud or sent as a notification.',
].join(' ');
const YES_NO = 'The Flow branches on your answer: after using the tools you need, answer with one English word, yes or no, and nothing else.';

/** Node's http response (node-fetch) as runChat reads one: status, headers, and the body chunk by chunk. */
function response(res) {
  return {
    status: res.status,
    headers: [...res.headers.entries()],
    body: {
      getReader() {
        const chunks = res.body[Symbol.asyncIterator]();
        return {
          read: () => chunks.next().then(({ done, value }) => ({ done: Boolean(done), value })),
          cancel: () => chunks.return?.().then(() => undefined),
        };
      },
    },
    arrayBuffer: () => res.arrayBuffer(),
  };
}

/** The fetch runChat gets: node-fetch's, loaded on first use. */
let nodeFetch = null;
function fetchModel(url, { method, headers, body, signal }) {
  nodeFetch ??= require('node-fetch');
  return nodeFetch(url, { method, headers, body, signal, compress: true }).then(response);
}

/** An Ask that did not give an answer: `code` says why (settings, provider, time, rounds, refused, empty, not-yes-no). */
class AskError extends Error {
  constructor(message, code, details = {}) {
    super(message);
    this.name = 'AskError';
    this.code = code;
    Object.assign(this, details);
  }
}

class Assistant {
  /**
   * @param {object} options
   * @param {object} options.homey the app's Homey instance (translations, timers, the clock's time zone)
   * @param {{listTools: () => Promise<object[]>, callTool: (request: object) => Promise<object>}} options.tools
   *   the gateway's engine (lib/mcp-server.js)
   * @param {() => object} options.settings the app's settings (lib/settings.js)
   * @param {(...a: unknown[]) => void} options.log
   */
  constructor({ homey, tools, settings, log }) {
    this.homey = homey;
    this.tools = tools;
    this.settings = settings;
    this.log = log;
    /** @type {Map<string, {chat: Conversation, catalog: string, used: number, queue: Promise<unknown>, running: number}>} by name, least recently used first */
    this.conversations = new Map();
  }

  /** A text of locales/*.json's "assistant" part in the hub's language, `__name__` replaced. */
  t(key, values = {}) {
    const text = this.homey.__(`assistant.${key}`, values);
    return typeof text === 'string' && text ? text : key;
  }

  /**
   * Asks the model `question`; the model may call the app's tools first.
   * @param {string} question
   * @param {{conversation?: string, yesNo?: boolean, keep?: boolean}} [options] `conversation`: continue
   *   that conversation (an earlier answer's token, or a name of the owner's: a new one starts under a name not
   *   known yet); `yesNo`: the answer is read as yes or no; `keep: false`: a one-off conversation, not kept
   * @returns {Promise<{answer: string, conversation: string | null, yes?: boolean, calls: object[], rounds: number, ms: number}>}
   */
  async ask(question, { conversation, yesNo = false, keep = true } = {}) {
    question = String(question ?? '').trim();
    if (!question) throw new AskError(this.t('errors.noQuestion'), 'settings');
    const options = this.options(yesNo);
    this.sweep();
    const name = String(conversation ?? '').trim();
    if (name && !CONVERSATION_ID.test(name)) throw new AskError(this.t('errors.badConversation'), 'settings');
    if (!keep) return this.run(null, null, question, options, yesNo);
    const id = name || randomBytes(6).toString('base64url');
    let entry = this.conversations.get(id);
    if (entry) {
      // most recently used last
      this.conversations.delete(id);
      this.conversations.set(id, entry);
      entry.running++;
    } else {
      entry = { chat: null, catalog: '', used: Date.now(), queue: Promise.resolve(), running: 1 };
      this.conversations.set(id, entry);
      this.evict();
    }
    // one question at a time per conversation
    const turn = entry.queue.then(() => this.run(id, entry, question, options, yesNo));
    entry.queue = turn.catch(() => {});
    try {
      return await turn;
    } finally {
      entry.running--;
      entry.used = Date.now();
      // dropped while it ran (settings changed, or pushed out): freed now
      if (this.conversations.get(id) !== entry && entry.running === 0) reset(entry);
      this.evict();
    }
  }

  /** The conversation's options from the settings; an AskError (code "settings") says what is missing. */
  options(yesNo) {
    const s = this.settings().assistant;
    if (!s.provider) throw new AskError(this.t('errors.noProvider'), 'settings');
    if (!s.model) throw new AskError(this.t('errors.noModel'), 'settings');
    if (s.provider === 'compatible' && !s.baseUrl) throw new AskError(this.t('errors.noBaseUrl'), 'settings');
    if (s.provider !== 'compatible' && !s.baseUrl && !s.key) throw new AskError(this.t('errors.noKey', { provider: PROVIDER_NAME[s.provider] }), 'settings');
    // the time in UTC and the hub's zone by name: the model converts it (formatting it here in the zone would
    // load ICU's time zone data, 8 MB RSS on Node 18)
    const now = `${new Date().toISOString().slice(0, 16)} UTC`;
    const zone = this.homey.clock?.getTimezone?.();
    return {
      provider: PROVIDER[s.provider],
      model: s.model,
      ...(s.key ? { apiKey: s.key } : {}),
      ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}),
      system: `${SYSTEM} When the conversation started it was ${now}${zone ? `; the home is in the time zone ${zone}` : ''}.${yesNo ? ` ${YES_NO}` : ''}`,
      // the tools as the gateway lists them, in the owner's disclosure mode: search_tools and use_tool
      // included, answered by the gateway's engine like a client's
      mode: 'all',
      historyBudget: HISTORY_BUDGET,
      timeLimitS: s.timeLimitS,
      providerName: PROVIDER_NAME[s.provider] ?? this.t('modelServer'),
    };
  }

  /** One turn of conversation `id` (null: a one-off), within the time limit. */
  async run(id, entry, question, options, yesNo) {
    const { timeLimitS, providerName, ...chatOptions } = options;
    const pages = await this.tools.listTools();
    const catalog = JSON.stringify(pages);
    let chat = entry?.chat;
    try {
      if (!chat) {
        chat = new Conversation(pages, chatOptions);
        if (entry) Object.assign(entry, { chat, catalog });
      } else if (entry.catalog !== catalog) {
        // Flow tools came or went, or the exposure changed, since the last question
        chat.setCatalog(pages);
        entry.catalog = catalog;
      }
    } catch (err) {
      throw new AskError(this.t('errors.settings', { message: err.message }), 'settings');
    }
    const label = `[ask ${id ?? 'once'}]`;
    this.log(label, JSON.stringify(question.length > 200 ? `${question.slice(0, 200)}…` : question));
    const started = Date.now();
    const controller = new AbortController();
    const timer = this.homey.setTimeout(() => controller.abort(), timeLimitS * 1000);
    let done;
    try {
      done = await runChat(chat, question, {
        fetch: fetchModel,
        callTool: (name, args, call) => this.tools.callTool(call.request),
        onCall: (call) => this.log(label, 'calls', call.name, short(call.arguments)),
        onRetry: (r) => this.log(label, `${providerName}: ${r.error.kind}${r.error.status ? ` (${r.error.status})` : ''}, trying again in ${Math.round((r.atMs - Date.now()) / 100) / 10} s`),
        signal: controller.signal,
      });
    } catch (err) {
      // a turn cut off mid-way cannot go on: the conversation starts over at the next question
      if (entry) reset(entry);
      else chat.free();
      if (controller.signal.aborted) {
        this.log(label, `no answer within the time limit of ${timeLimitS} s`);
        throw new AskError(this.t('errors.time', { seconds: timeLimitS }), 'time');
      }
      this.log(label, 'failed:', err.message);
      throw new AskError(this.t('errors.failed', { message: err.message }), 'failed');
    } finally {
      this.homey.clearTimeout(timer);
    }
    const ms = Date.now() - started;
    const failed = done.calls.filter((c) => c.isError).map((c) => c.name);
    this.log(label, `${done.reason} after ${(ms / 1000).toFixed(1)} s: ${done.rounds} round(s), ${done.calls.length} call(s)${failed.length ? ` (failed or refused: ${failed.join(', ')})` : ''}, ${done.usage.inputTokens}/${done.usage.outputTokens} tokens`);
    if (id === null) chat.free();
    const text = done.text.trim();
    if (done.error) {
      const e = done.error;
      this.log(label, `${providerName}: ${e.kind}${e.status ? ` ${e.status}` : ''}: ${e.message}`);
      const values = { provider: providerName, status: e.status ?? '', model: chatOptions.model };
      // a kind of error without a text of its own gets the general one
      let says = this.t(`errors.provider.${e.kind}`, values);
      if (says === `errors.provider.${e.kind}`) says = this.t('errors.provider.other', values);
      const wait = e.retryAfterMs ? this.t('errors.retryAfter', { seconds: Math.ceil(e.retryAfterMs / 1000) }) : '';
      const message = `${says}${wait}${e.message ? ` (${e.message.slice(0, 300)})` : ''}`;
      throw new AskError(message, 'provider', { kind: e.kind, status: e.status });
    }
    if (done.reason === 'max_rounds') throw new AskError(this.t('errors.rounds', { rounds: done.rounds }), 'rounds');
    if (!text) throw new AskError(this.t(done.reason === 'refusal' || done.reason === 'safety' ? 'errors.refused' : 'errors.empty'), done.reason === 'refusal' || done.reason === 'safety' ? 'refused' : 'empty');
    const result = { answer: text, conversation: id, calls: done.calls, rounds: done.rounds, ms };
    if (yesNo) {
      const word = /^[\s"'*_`(]*(yes|no|ja|nee)\b/i.exec(text)?.[1].toLowerCase();
      if (!word) throw new AskError(this.t('errors.notYesNo', { answer: text.slice(0, 200) }), 'not-yes-no');
      result.yes = word === 'yes' || word === 'ja';
    }
    return result;
  }

  /** For the settings page's Test button: a one-off question with the tools, and what came of it. */
  async test() {
    const s = this.settings().assistant;
    try {
      const r = await this.ask('This is a test from the settings page of the Homey app. Answer with the one word OK.', { keep: false });
      return { ok: true, ms: r.ms, answer: r.answer.slice(0, 200), provider: s.provider, model: s.model };
    } catch (err) {
      return { ok: false, code: err.code ?? 'failed', kind: err.kind ?? null, status: err.status ?? null, error: err.message };
    }
  }

  /** Conversations kept now. */
  get size() {
    return this.conversations.size;
  }

  /** Drops conversations unused for an hour. */
  sweep() {
    const old = Date.now() - KEEP_MS;
    for (const [id, entry] of this.conversations) if (entry.running === 0 && entry.used < old) this.drop(id);
  }

  /** Drops the least recently used idle conversations past the limit. */
  evict() {
    for (const [id, entry] of this.conversations) {
      if (this.conversations.size <= MAX_CONVERSATIONS) break;
      if (entry.running === 0) this.drop(id);
    }
  }

  /** Forgets conversation `id`; one that is running is freed when its turn ends. */
  drop(id) {
    const entry = this.conversations.get(id);
    this.conversations.delete(id);
    if (entry?.running === 0) reset(entry);
  }

  /** The settings changed (another model or key): every conversation is dropped; running turns finish on theirs. */
  forget() {
    for (const id of [...this.conversations.keys()]) this.drop(id);
  }

  close() {
    this.forget();
  }
}

/** A kept conversation's model conversation freed: its next question starts a new one. */
function reset(entry) {
  entry.chat?.free();
  entry.chat = null;
  entry.catalog = '';
}

/** Arguments for the log, shortened. */
function short(args) {
  const text = JSON.stringify(args) ?? '';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

module.exports = { Assistant, AskError, MAX_CONVERSATIONS, KEEP_MS };
