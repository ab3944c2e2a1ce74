// The chat with the home: the package's Conversation, driven by runChat()
// in this page, with the visitor's own key (kept in this tab's
// sessionStorage, given to the Conversation, which sends it to the
// provider's base URL and nowhere else). The tools run in the page, on the
// simulated home (js/simulated-home.mjs), or on the server connected in the
// Catalog panel. Each turn has three views: the chat, the trace (every
// request, call, result and retry with its time) and the raw HTTP
// exchanges. Without a key, a recorded session plays back: recorded from a
// local fake model (tests/js/playground-recordings.mjs), and said so.
import { Outcome, errorText, h, plural } from '../dom.mjs';
import { addMark, jsonView } from '../json-view.mjs';
import { runTurn } from '../chat-turn.mjs';
import { simulatedHome } from '../../simulated-home.mjs';
import { PROVIDERS, keyName, session } from '../providers.mjs';
import { Conversation, toolFailure, toolSuccess } from '../switchboard.mjs';

const EXAMPLES = ['Is the front door open?', 'Turn on the kitchen lights and set the thermostat to 21 degrees.', 'Zet de leeslamp op 30%', 'Welche Flows gibt es?'];

let ids = 0;

export const chatPanel = {
  id: 'chat',
  title: 'Chat with the home',
  intro: 'The package’s Conversation runs the whole loop in this page: it writes each request to the model, reads the answer as it streams, and the tools run here, on a simulated home (or on the server you connected). Bring your own key, or replay a recorded session.',

  /** @param {{ store: import('../store.mjs').Store, base: URL }} ctx */
  create({ store, base }) {
    const provider = h('select', { id: 'chat-provider' }, ...PROVIDERS.map((p) => h('option', { value: p.id, text: p.label })));
    const model = h('input', { type: 'text', id: 'chat-model', autocomplete: 'off', spellcheck: false });
    const baseUrl = h('input', { type: 'url', id: 'chat-base-url', autocomplete: 'off', spellcheck: false, placeholder: 'the provider’s own' });
    const key = h('input', { type: 'password', id: 'chat-key', autocomplete: 'off', spellcheck: false });
    const forget = h('button', { type: 'button', class: 'quiet', id: 'chat-forget', text: 'Forget the key' });
    const mode = h('select', { id: 'chat-mode' }, ...['all', 'hybrid', 'meta', 'native', 'auto'].map((m) => h('option', { value: m, text: m })));
    const stream = h('input', { type: 'checkbox', id: 'chat-stream', checked: true });
    const tools = h('select', { id: 'chat-tools' }, h('option', { value: 'home', text: 'the simulated home (in this page)' }));
    const message = h('textarea', { id: 'chat-message', rows: 2, spellcheck: true, placeholder: 'Turn on the kitchen lights' });
    const send = h('button', { type: 'submit', id: 'chat-send', text: 'Send' });
    const stop = h('button', { type: 'button', class: 'quiet', id: 'chat-stop', text: 'Stop', disabled: true });
    const reset = h('button', { type: 'button', class: 'quiet', id: 'chat-new', text: 'New chat' });
    const outcome = new Outcome({ id: 'chat-outcome' });
    const turns = h('div', { class: 'turns', id: 'chat-turns', 'aria-live': 'polite' });
    const homeView = h('div', { id: 'chat-home' });
    const recording = h('select', { id: 'chat-recording' });
    const replay = h('button', { type: 'button', id: 'chat-replay', text: 'Replay' });
    const replayOutcome = new Outcome({ id: 'chat-replay-outcome' });
    const recordedAbout = h('p', { class: 'muted about', id: 'chat-recorded-about' });

    /** @type {string | null} the simulated home's tools/list text */
    let homeCatalog = null;
    /** @type {ReturnType<typeof simulatedHome> | null} */
    let home = null;
    /** @type {Conversation | null} */
    let conversation = null;
    /** what the conversation was made with: a new one when it changes */
    let made = '';
    /** @type {AbortController | null} */
    let running = null;
    /** @type {any[]} */
    let recordings = [];
    /** whether the last message started a new conversation because the settings changed */
    let renewed = false;

    const storage = session();
    const choice = () => PROVIDERS.find((p) => p.id === provider.value) ?? PROVIDERS[0];
    const showProvider = () => {
      const p = choice();
      model.value = p.model;
      baseUrl.value = p.baseUrl ?? '';
      key.value = storage?.getItem(keyName(p.id)) ?? '';
      key.placeholder = p.local ? 'none needed for a local server' : 'your key: kept in this tab only';
    };
    provider.addEventListener('change', showProvider);
    key.addEventListener('input', () => {
      const name = keyName(choice().id);
      if (key.value) storage?.setItem(name, key.value);
      else storage?.removeItem(name);
    });
    forget.addEventListener('click', () => {
      key.value = '';
      storage?.removeItem(keyName(choice().id));
      outcome.ok('The key is forgotten.');
    });

    const freshHome = () => {
      home = simulatedHome({ toolSuccess, toolFailure });
      showHome();
    };
    const showHome = () => {
      if (!home) return;
      homeView.replaceChildren(h('ul', { class: 'devices' }, ...home.home.devices.map((/** @type {any} */ d) => h('li', { dataset: { device: d.id } },
        h('b', { text: d.name }), h('span', { class: 'muted', text: ` ${d.zone.replace('_', ' ')} · ` }),
        h('code', { text: Object.entries(d.state).map(([k, v]) => `${k}=${typeof v === 'number' ? Math.round(v * 100) / 100 : v}`).join(' ') })))));
    };

    const newChat = () => {
      running?.abort();
      conversation?.free();
      conversation = null;
      made = '';
      turns.replaceChildren();
      freshHome();
      outcome.ok('A new chat: the history and the home are as new.');
    };
    reset.addEventListener('click', newChat);

    /** The conversation for the current settings: the same while they stay, a new one when they change. */
    const conversationFor = (/** @type {string} */ catalog) => {
      const p = choice();
      const options = {
        provider: p.provider,
        model: model.value.trim(),
        mode: mode.value,
        stream: stream.checked,
        ...(baseUrl.value.trim() ? { baseUrl: baseUrl.value.trim() } : {}),
        ...(key.value ? { apiKey: key.value } : {}),
        // Anthropic answers a page only when it asks for it by this header
        ...(p.provider === 'anthropic' ? { browserAccess: true } : {}),
      };
      const id = JSON.stringify([options, tools.value, catalog.length]);
      if (conversation && id === made) return conversation;
      if (conversation) renewed = true;
      conversation?.free();
      conversation = null;
      conversation = new Conversation(catalog, /** @type {any} */ (options));
      made = id;
      return conversation;
    };

    /** The catalog and the tool runner of the chosen source. */
    const toolSource = () => {
      const up = store.catalog?.upstream;
      if (tools.value === 'server' && store.catalog && up && !up.closed) {
        const title = store.catalog.title;
        return {
          catalog: store.catalog.text,
          call: (/** @type {string} */ name, /** @type {any} */ args) => up.call('tools/call', { name, arguments: args }),
          title,
        };
      }
      if (!homeCatalog || !home) throw new Error('the simulated home is not loaded yet');
      const handlers = home.handlers;
      return {
        catalog: homeCatalog,
        call: (/** @type {string} */ name, /** @type {any} */ args) => {
          const fn = handlers[name];
          if (typeof fn !== 'function') throw new Error(`the simulated home has no tool ${name}`);
          const result = fn(args);
          showHome();
          return result;
        },
        title: 'the simulated home',
      };
    };

    const ask = async () => {
      const text = message.value.trim();
      if (!text || running) return;
      const p = choice();
      if (!model.value.trim()) return outcome.fail('name a model', 'Chat');
      if (!key.value && !p.local && !baseUrl.value.trim()) {
        return outcome.fail(`paste your ${p.label} key above, or replay a recorded session below`, 'Chat');
      }
      let source;
      let chat;
      try {
        source = toolSource();
        chat = conversationFor(source.catalog);
      } catch (e) {
        return outcome.fail(e, 'The conversation could not start');
      }
      const view = new TurnView({ label: `${p.label} · ${model.value.trim()} · ${mode.value}${renewed ? ' · a new conversation (the settings changed)' : ''}` });
      renewed = false;
      turns.append(view.el);
      message.value = '';
      running = new AbortController();
      send.disabled = true;
      stop.disabled = false;
      outcome.busy(`Asking ${p.label}…`);
      try {
        await runTurn(chat, text, { callTool: source.call, onEvent: (e) => view.add(e), signal: running.signal, secret: key.value || undefined });
        const done = view.done;
        if (done?.error) outcome.fail(`${done.error.kind}: ${done.error.message}`, p.label);
        else outcome.ok(done ? `Answered in ${plural(done.rounds, 'round')}.` : '');
      } catch (e) {
        view.failed(e);
        if (running.signal.aborted) outcome.ok('Stopped. The next message starts a new conversation.');
        else outcome.fail(e, 'The turn failed');
        // a turn cut short leaves the history mid-round: the next one starts anew
        conversation?.free();
        conversation = null;
        made = '';
      } finally {
        running = null;
        send.disabled = false;
        stop.disabled = true;
      }
    };
    stop.addEventListener('click', () => running?.abort(new Error('stopped by you')));

    const form = h('form', { class: 'chat-form', id: 'chat-form', 'aria-label': 'Ask the model' },
      h('div', { class: 'field grow' }, h('label', { for: 'chat-message', text: 'Message' }), message),
      h('div', { class: 'row' }, send, stop, reset));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      ask();
    });
    message.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        ask();
      }
    });

    const replaySession = async () => {
      const s = recordings.find((r) => r.id === recording.value);
      if (!s) return replayOutcome.fail('choose a recorded session');
      replay.disabled = true;
      outcome.ok('');
      /** @type {any[]} */
      let events;
      try {
        const r = await fetch(new URL(s.file, base));
        if (!r.ok) throw new Error(`${s.file}: HTTP ${r.status}`);
        events = await r.json();
      } catch (e) {
        replay.disabled = false;
        return replayOutcome.fail(e, 'The recording could not be read');
      }
      const view = new TurnView({ label: `${s.providerLabel} · ${s.model} · ${s.mode}`, recorded: true });
      turns.append(view.el);
      replayOutcome.busy(`Replaying ${s.title} (${s.providerLabel})…`);
      let last = 0;
      for (const e of events) {
        // the recorded pace, no pause longer than a third of a second
        await new Promise((ok) => setTimeout(ok, Math.min(330, Math.max(e.type === 'text' ? 40 : 0, e.t - last))));
        last = e.t;
        view.add(e);
      }
      replay.disabled = false;
      replayOutcome.ok(`Replayed: ${plural(view.done?.rounds ?? 0, 'round')}, ${plural(view.calls, 'tool call')}.`);
    };
    replay.addEventListener('click', replaySession);

    // the connected server, when there is one, as a source of tools
    store.on((c) => {
      const live = c.upstream && !c.upstream.closed;
      tools.replaceChildren(h('option', { value: 'home', text: 'the simulated home (in this page)' }), ...(live ? [h('option', { value: 'server', text: `${c.title} (connected)` })] : []));
    });

    const start = async () => {
      showProvider();
      try {
        const [catalog, recorded] = await Promise.all(['chat/demo-home.tools-list.json', 'chat/recordings.json'].map(async (f) => {
          const r = await fetch(new URL(f, base));
          if (!r.ok) throw new Error(`${f}: HTTP ${r.status}`);
          return r.text();
        }));
        homeCatalog = catalog;
        freshHome();
        const { about, sessions } = JSON.parse(recorded);
        recordings = sessions;
        recordedAbout.textContent = about;
        const scenarios = [...new Set(sessions.map((/** @type {any} */ s) => s.scenario))];
        recording.replaceChildren(...scenarios.map((sc) => {
          const of = sessions.filter((/** @type {any} */ s) => s.scenario === sc);
          return h('optgroup', { label: of[0].title }, ...of.map((/** @type {any} */ s) => h('option', { value: s.id, text: `${of[0].title}: ${s.providerLabel}` })));
        }));
        outcome.ok('Ready: choose a provider and paste your key, or replay a recorded session.');
      } catch (e) {
        outcome.fail(e, 'The chat could not load the simulated home');
      }
    };

    const el = h('div', {},
      h('form', { class: 'chat-settings', 'aria-label': 'Model and key', onsubmit: (/** @type {Event} */ e) => e.preventDefault() },
        h('div', { class: 'field' }, h('label', { for: 'chat-provider', text: 'Provider' }), provider),
        h('div', { class: 'field' }, h('label', { for: 'chat-model', text: 'Model' }), model),
        h('div', { class: 'field grow' }, h('label', { for: 'chat-base-url', text: 'Base URL' }), baseUrl),
        h('div', { class: 'field grow' }, h('label', { for: 'chat-key', text: 'API key' }), key),
        h('div', { class: 'field' }, h('label', { for: 'chat-mode', text: 'Tools shown' }), mode),
        h('div', { class: 'field' }, h('label', { for: 'chat-tools', text: 'Tools run on' }), tools),
        h('div', { class: 'field check' }, h('label', { for: 'chat-stream' }, stream, ' stream'))),
      h('p', { class: 'muted about', id: 'chat-key-note' }, 'The key stays in this tab (sessionStorage) and goes only to the base URL above, with each request the conversation makes. ', forget),
      h('div', { class: 'examples' }, h('span', { class: 'muted', text: 'Try: ' }), ...EXAMPLES.map((x) => h('button', {
        type: 'button', class: 'chip', text: x, onclick: () => {
          message.value = x;
          message.focus();
        },
      }))),
      form,
      outcome.el,
      turns,
      h('details', { class: 'box', id: 'chat-home-box' }, h('summary', { text: 'The simulated home, as the tools left it' }), homeView),
      h('h3', { class: 'sub', text: 'No key? Replay a recorded session' }),
      recordedAbout,
      h('div', { class: 'row' }, h('label', { for: 'chat-recording', text: 'Session' }), recording, replay),
      replayOutcome.el,
    );
    return { el, start };
  },
};

/** One turn shown three ways (chat, trace, raw), filled in as its events come. */
class TurnView {
  /** @param {{ label: string, recorded?: boolean }} options */
  constructor({ label, recorded = false }) {
    const n = ++ids;
    this.calls = 0;
    /** @type {any} */
    this.done = null;
    this.chat = h('div', { class: 'chat-view' });
    this.trace = h('ol', { class: 'trace' });
    this.raw = h('div', { class: 'raw' });
    /** @type {HTMLElement | null} the answer being written */
    this.answer = null;
    /** @type {Map<string, HTMLElement>} */
    this.callEls = new Map();
    const views = [['chat', 'Chat', this.chat], ['trace', 'Trace', this.trace], ['raw', 'Raw', this.raw]];
    const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': `Views of turn ${n}` });
    /** @type {HTMLElement[]} */
    const panels = [];
    /** @type {HTMLElement[]} */
    const buttons = [];
    views.forEach(([id, title, body], i) => {
      const tabId = `turn-${n}-${id}-tab`;
      const panelId = `turn-${n}-${id}`;
      const button = h('button', { type: 'button', role: 'tab', id: tabId, class: 'tab', 'aria-controls': panelId, 'aria-selected': i === 0 ? 'true' : 'false', tabIndex: i === 0 ? 0 : -1, text: /** @type {string} */ (title), dataset: { view: /** @type {string} */ (id) } });
      const panel = h('div', { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId, class: 'view', hidden: i !== 0, tabIndex: 0 }, /** @type {HTMLElement} */ (body));
      button.addEventListener('click', () => select(i));
      button.addEventListener('keydown', (e) => {
        const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: views.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        select((to + views.length) % views.length);
        buttons[(to + views.length) % views.length].focus();
      });
      buttons.push(button);
      panels.push(panel);
      tabs.append(button);
    });
    const select = (/** @type {number} */ k) => {
      buttons.forEach((b, i) => {
        b.setAttribute('aria-selected', String(i === k));
        b.tabIndex = i === k ? 0 : -1;
      });
      panels.forEach((p, i) => {
        p.hidden = i !== k;
      });
    };
    this.el = h('article', { class: `turn${recorded ? ' recorded' : ''}`, dataset: { turn: String(n) }, 'aria-label': `Turn ${n}` },
      h('header', {}, h('span', { class: 'muted', text: label }), recorded ? h('span', { class: 'badge warn', text: 'recorded from a local fake model' }) : null),
      tabs, ...panels);
  }

  /** @param {import('../chat-turn.mjs').TurnEvent} e */
  add(e) {
    const at = h('span', { class: 'at', text: `${e.t} ms` });
    switch (e.type) {
      case 'user':
        this.chat.append(h('p', { class: 'bubble user' }, h('span', { class: 'who', text: 'You' }), e.text));
        this.line(at, 'You: ', e.text);
        break;
      case 'request': {
        this.line(at, `→ request ${e.n}: ${e.method} `, h('code', { text: e.url }));
        this.raw.append(h('h4', { text: `Request ${e.n}: ${e.method} ${e.url}` }), headersView(e.headers), bodyView(e.body, `request ${e.n} body`));
        break;
      }
      case 'response':
        this.line(at, `← response ${e.n}: `, e.failed ? h('span', { class: 'bad', text: `failed: ${e.failed}` }) : `HTTP ${e.status}, ${plural(e.body.length, 'character')}`);
        this.raw.append(h('h4', { text: `Response ${e.n}: ${e.failed ? 'failed' : `HTTP ${e.status}`}` }), headersView(e.headers), bodyView(e.body, `response ${e.n} body`));
        break;
      case 'text':
        if (!this.answer) {
          this.answer = h('p', { class: 'bubble model' }, h('span', { class: 'who', text: 'Model' }));
          this.chat.append(this.answer);
        }
        this.answer.append(e.delta);
        break;
      case 'call': {
        this.calls++;
        // text after the calls is a new answer
        this.answer = null;
        const marks = new Map();
        for (const c of e.coercions ?? []) addMark(marks, c.pointer, { kind: 'coerce', label: 'coerced', text: `${JSON.stringify(c.from)} → ${c.to === null ? 'removed' : JSON.stringify(c.to)}: ${c.reason}` });
        const el = h('details', { class: 'tool-call', dataset: { call: e.id, tool: e.name } },
          h('summary', {}, h('code', { text: e.name }), e.via ? h('span', { class: 'muted', text: ` via ${e.via}` }) : null, ' ',
            e.coercions?.length ? h('span', { class: 'badge warn', text: 'coerced' }) : null, ' ', h('span', { class: 'badge status-badge', text: 'running' })),
          jsonView(e.arguments, { marks, label: `arguments of ${e.name}` }));
        this.callEls.set(e.id, el);
        this.chat.append(el);
        this.line(at, `call ${e.id}: `, h('code', { text: e.name }), `${e.via ? ` (via ${e.via})` : ''} ${JSON.stringify(e.arguments)}`,
          ...(e.coercions ?? []).map((c) => h('span', { class: 'warn', text: ` · ${c.pointer || '/'} coerced ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}` })));
        break;
      }
      case 'result': {
        const el = this.callEls.get(e.id);
        if (el) {
          const badge = el.querySelector('.status-badge');
          if (badge) {
            badge.className = `badge status-badge ${e.isError ? 'bad' : 'good'}`;
            badge.textContent = e.isError ? 'error' : 'done';
          }
          el.append(h('p', { class: 'part', text: 'Result' }), jsonView(e.result, { label: `result of ${e.name}` }));
        }
        this.line(at, `result ${e.id}: `, h('span', { class: e.isError ? 'bad' : 'good', text: e.isError ? 'error' : 'ok' }), ` ${summary(e.result)}`);
        break;
      }
      case 'retry':
        this.line(at, h('span', { class: 'warn', text: `retry after ${e.waitMs} ms: ${e.kind}: ${e.message}` }));
        break;
      case 'done': {
        this.done = e;
        const usage = e.usage && typeof e.usage === 'object' ? Object.entries(e.usage).map(([k, v]) => `${k} ${v}`).join(', ') : '';
        if (e.error) this.chat.append(h('p', { class: 'error', role: 'alert', text: `${e.error.kind}: ${e.error.message}` }));
        this.chat.append(h('p', { class: 'muted done', text: `${e.reason} · ${plural(e.rounds, 'round')} · ${plural(this.calls, 'tool call')}${usage ? ` · tokens: ${usage}` : ''}` }));
        this.line(at, `done: ${e.reason}, ${plural(e.rounds, 'round')}${usage ? `, ${usage}` : ''}`, e.error ? h('span', { class: 'bad', text: ` (${e.error.kind}: ${e.error.message})` }) : null);
        break;
      }
    }
  }

  /** @param {unknown} e */
  failed(e) {
    this.chat.append(h('p', { class: 'error', role: 'alert', text: errorText(e) }));
    this.line(h('span', { class: 'bad', text: `stopped: ${errorText(e)}` }));
  }

  /** @param {...(Node | string | null)} parts */
  line(...parts) {
    this.trace.append(h('li', {}, ...parts));
  }
}

/** @param {[string, string][]} headers */
const headersView = (headers) => h('pre', { class: 'headers', text: headers.map(([k, v]) => `${k}: ${v}`).join('\n') || '(no headers)' });

/**
 * A body: JSON pretty-printed, anything else (a stream's events) as it came.
 * @param {string} body
 * @param {string} label
 */
function bodyView(body, label) {
  try {
    return jsonView(JSON.parse(body), { label });
  } catch {
    return h('pre', { class: 'body', 'aria-label': label, text: body || '(empty)' });
  }
}

/** A result in one short line: its text content, else its JSON. */
function summary(/** @type {any} */ result) {
  const text = Array.isArray(result?.content) ? result.content.filter((/** @type {any} */ c) => c?.type === 'text').map((/** @type {any} */ c) => c.text).join(' ') : JSON.stringify(result);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
