// Disclosure A/B: one request to a model in each disclosure mode (all,
// hybrid, native), as the package's Conversation makes it for the same
// catalog and message, with what each carries: its tokens (the
// Conversation's estimate of the body), the share the provider keeps back
// until its tool search loads it, and its tools. With a key (the chat's,
// kept in this tab), the same message goes to the model once per mode and
// the provider's own token counts are shown beside the estimates. Every
// number and note is the package's; the page lays them out.
import { Outcome, h, pause, plural } from '../dom.mjs';
import { jsonView } from '../json-view.mjs';
import { runTurn } from '../chat-turn.mjs';
import { PROVIDERS, keyName, session } from '../providers.mjs';
import { simulatedHome } from '../../simulated-home.mjs';
import { Conversation, toolFailure, toolSuccess } from '../switchboard.mjs';

/** The modes compared, and what each means. */
const MODES = [
  ['all', 'every tool, loaded'],
  ['hybrid', 'the core tools and our search_tools / get_tool_definition / use_tool'],
  ['native', 'the provider’s own tool search: the core tools loaded, the rest deferred (hybrid where the provider has none)'],
];

const number = new Intl.NumberFormat('en');

export const disclosurePanel = {
  id: 'disclosure',
  title: 'Disclosure A/B',
  intro: 'The same message as the model would first get it in each disclosure mode, made by the package’s Conversation from the catalog above: the tokens each request carries, how many of them the provider keeps back until its tool search loads them, and the tools. With your key, the message goes to the model once per mode and the provider’s own counts are shown beside the estimates.',

  /** @param {{ store: import('../store.mjs').Store, base: URL }} ctx */
  create({ store, base }) {
    const provider = h('select', { id: 'ab-provider' }, ...PROVIDERS.map((p) => h('option', { value: p.id, text: p.label })));
    provider.value = 'anthropic';
    const model = h('input', { type: 'text', id: 'ab-model', autocomplete: 'off', spellcheck: false });
    const baseUrl = h('input', { type: 'url', id: 'ab-base-url', autocomplete: 'off', spellcheck: false, placeholder: 'the provider’s own' });
    const key = h('input', { type: 'password', id: 'ab-key', autocomplete: 'off', spellcheck: false });
    const searchWith = h('select', { id: 'ab-search-with' },
      h('option', { value: 'ours', text: 'ours (answered in this page)' }),
      h('option', { value: 'provider', text: 'the provider’s' }));
    const tools = h('select', { id: 'ab-tools' },
      h('option', { value: 'catalog', text: 'the catalog above' }),
      h('option', { value: 'home', text: 'the simulated home (runs in this page)' }));
    const message = h('textarea', { id: 'ab-message', rows: 2, spellcheck: true, placeholder: 'Turn on the kitchen lights' });
    const compare = h('button', { type: 'submit', id: 'ab-compare', text: 'Compare' });
    const sendAll = h('button', { type: 'button', id: 'ab-send', text: 'Send to the model in each mode' });
    const stop = h('button', { type: 'button', class: 'quiet', id: 'ab-stop', text: 'Stop', disabled: true });
    const outcome = new Outcome({ id: 'ab-outcome', clear: () => result.replaceChildren() });
    const liveOutcome = new Outcome({ id: 'ab-live-outcome' });
    const result = h('div', { id: 'ab-result' });

    /** @type {string | null} the simulated home's tools/list text */
    let homeCatalog = null;
    /** @type {AbortController | null} */
    let running = null;
    /** @type {Map<string, HTMLElement>} each mode's row cell for the provider's counts */
    let liveCells = new Map();

    const storage = session();
    const choice = () => PROVIDERS.find((p) => p.id === provider.value) ?? PROVIDERS[0];
    const showProvider = () => {
      const p = choice();
      model.value = p.model;
      baseUrl.value = p.baseUrl ?? '';
      key.value = storage?.getItem(keyName(p.id)) ?? '';
      key.placeholder = p.local ? 'none needed for a local server' : 'your key: kept in this tab only';
    };
    key.addEventListener('input', () => {
      const name = keyName(choice().id);
      if (key.value) storage?.setItem(name, key.value);
      else storage?.removeItem(name);
    });

    /** The catalog and, where its tools can run here, how to call them. */
    const source = () => {
      if (tools.value === 'home') {
        if (!homeCatalog) throw new Error('the simulated home is not loaded yet');
        return { kind: 'home', catalog: homeCatalog, title: 'the simulated home', runnable: true };
      }
      const c = store.catalog;
      if (!c) throw new Error('no catalog yet');
      return { kind: 'catalog', catalog: c.text, title: c.title, runnable: Boolean(c.upstream && !c.upstream.closed) };
    };

    /** The Conversation's settings for `mode` (the key only when it is to be sent). */
    const settings = (/** @type {string} */ mode, /** @type {boolean} */ live) => {
      const p = choice();
      return {
        provider: p.provider,
        model: model.value.trim() || p.model,
        mode,
        ...(mode === 'native' ? { searchWith: searchWith.value } : {}),
        ...(baseUrl.value.trim() ? { baseUrl: baseUrl.value.trim() } : {}),
        ...(live && key.value ? { apiKey: key.value } : {}),
        ...(p.provider === 'anthropic' ? { browserAccess: true } : {}),
      };
    };

    /** Builds each mode's first request (nothing is sent) and lays them out. */
    const run = async () => {
      const text = message.value.trim() || message.placeholder;
      let src;
      try {
        src = source();
      } catch (e) {
        return outcome.fail(e, 'Disclosure A/B');
      }
      outcome.busy('Making the requests…');
      await pause();
      /** @type {{ mode: string, about: string, request: any, notes: string[] }[]} */
      const rows = [];
      try {
        for (const [mode, about] of MODES) {
          const conversation = new Conversation(src.catalog, /** @type {any} */ (settings(mode, false)));
          try {
            conversation.send(text, Date.now());
            const request = conversation.poll();
            if (request?.type !== 'request') throw new Error(`the conversation asked for ${request?.type ?? 'nothing'} first, not a request`);
            // what the mode became, said by the conversion (a note without a tool)
            const notes = conversation.toolsReport().filter((e) => e.keyword === 'disclosure' && !e.tool).map((e) => e.detail);
            rows.push({ mode, about, request, notes });
          } finally {
            conversation.free();
          }
        }
      } catch (e) {
        return outcome.fail(e, 'The requests could not be made');
      }
      liveCells = new Map();
      result.replaceChildren(chart(rows, liveCells), ...rows.map(requestView));
      const [all, hybrid, native] = rows.map((r) => r.request.size.tokens - r.request.size.deferredTokens);
      const least = Math.min(hybrid, native);
      outcome.ok(`${choice().label}, ${src.title}: the model reads ${number.format(all)} tokens at first with every tool, ${number.format(least)} with ${least === native && native < hybrid ? 'native' : 'hybrid'} disclosure (${pct(least, all)}).`);
      sendAll.disabled = false;
      liveOutcome.ok(src.runnable ? '' : 'The tools of a bundled catalog do not run in this page: to send, choose the simulated home, or connect a server in the Catalog panel.');
    };

    /** Sends the message once per mode, each on a fresh conversation (and a fresh simulated home). */
    const sendEach = async () => {
      if (running) return;
      const p = choice();
      if (!key.value && !p.local && !baseUrl.value.trim()) return liveOutcome.fail(`paste your ${p.label} key above`, 'Send');
      let src;
      try {
        src = source();
      } catch (e) {
        return liveOutcome.fail(e, 'Send');
      }
      if (!src.runnable) return liveOutcome.fail('the tools of a bundled catalog do not run in this page: choose the simulated home, or connect a server in the Catalog panel', 'Send');
      if (!liveCells.size) await run();
      const text = message.value.trim() || message.placeholder;
      running = new AbortController();
      sendAll.disabled = true;
      stop.disabled = false;
      let failed = 0;
      try {
        for (const [mode] of MODES) {
          const cell = liveCells.get(mode);
          if (!cell) continue;
          liveOutcome.busy(`Asking ${p.label} in ${mode} mode…`);
          cell.replaceChildren(h('span', { class: 'muted', text: 'asking…' }));
          const call = callerFor(src, store);
          const conversation = new Conversation(src.catalog, /** @type {any} */ ({ ...settings(mode, true), stream: false }));
          try {
            const events = await runTurn(conversation, text, { callTool: call, onEvent: () => {}, signal: running.signal, secret: key.value || undefined });
            const done = /** @type {any} */ (events.at(-1));
            cell.replaceChildren(liveView(done, events));
            if (done?.error) failed++;
          } catch (e) {
            failed++;
            cell.replaceChildren(h('span', { class: 'bad', role: 'alert', text: running.signal.aborted ? 'stopped' : String(/** @type {any} */ (e)?.message ?? e) }));
            if (running.signal.aborted) break;
          } finally {
            conversation.free();
          }
        }
        if (running.signal.aborted) liveOutcome.ok('Stopped.');
        else if (failed) liveOutcome.fail(`${plural(failed, 'mode')} of ${MODES.length} failed: see the rows above`, p.label);
        else liveOutcome.ok(`Sent in each mode: the provider’s counts are beside the estimates.`);
      } finally {
        running = null;
        sendAll.disabled = false;
        stop.disabled = true;
      }
    };
    stop.addEventListener('click', () => running?.abort(new Error('stopped by you')));
    sendAll.addEventListener('click', sendEach);

    const form = h('form', { class: 'ab-form', id: 'ab-form', 'aria-label': 'Compare the disclosure modes' },
      h('div', { class: 'row wrap' },
        h('div', { class: 'field' }, h('label', { for: 'ab-provider', text: 'Provider' }), provider),
        h('div', { class: 'field' }, h('label', { for: 'ab-model', text: 'Model' }), model),
        h('div', { class: 'field' }, h('label', { for: 'ab-search-with', text: 'Native search' }), searchWith),
        h('div', { class: 'field' }, h('label', { for: 'ab-tools', text: 'Tools' }), tools)),
      h('div', { class: 'field grow' }, h('label', { for: 'ab-message', text: 'Message' }), message),
      h('div', { class: 'row' }, compare),
      h('details', { class: 'box', id: 'ab-send-box' }, h('summary', { text: 'Send it to the model in each mode (your key)' }),
        h('div', { class: 'row wrap' },
          h('div', { class: 'field grow' }, h('label', { for: 'ab-base-url', text: 'Base URL' }), baseUrl),
          h('div', { class: 'field grow' }, h('label', { for: 'ab-key', text: 'API key' }), key)),
        h('p', { class: 'muted about', text: 'The key is the chat’s: kept in this tab (sessionStorage), sent only to the base URL. Each mode is a new conversation on the same message; tool calls run on the simulated home (a fresh one per mode) or the connected server.' }),
        h('div', { class: 'row' }, sendAll, stop),
        liveOutcome.el));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      run();
    });
    message.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        run();
      }
    });
    for (const el of [provider, searchWith, tools]) {
      el.addEventListener('change', () => {
        if (el === provider) showProvider();
        run();
      });
    }

    store.on((c) => {
      if (!message.value.trim() && c.queries[0]) message.placeholder = c.queries[0];
      if (tools.value === 'catalog') run();
    });

    const start = async () => {
      showProvider();
      try {
        const r = await fetch(new URL('chat/demo-home.tools-list.json', base));
        if (!r.ok) throw new Error(`chat/demo-home.tools-list.json: HTTP ${r.status}`);
        homeCatalog = await r.text();
      } catch (e) {
        tools.querySelector('option[value="home"]')?.remove();
        outcome.fail(e, 'The simulated home could not be loaded');
      }
    };

    return { el: h('div', {}, form, outcome.el, result), start };
  },
};

/** `part` of `whole` as a percentage. */
const pct = (/** @type {number} */ part, /** @type {number} */ whole) => `${Math.round((100 * part) / Math.max(1, whole))}%`;

/**
 * How a mode's tool calls run: on a fresh simulated home, or on the connected server.
 * @param {{ kind: string }} src
 * @param {import('../store.mjs').Store} store
 */
function callerFor(src, store) {
  if (src.kind === 'home') {
    const { handlers } = simulatedHome({ toolSuccess, toolFailure });
    return (/** @type {string} */ name, /** @type {any} */ args) => {
      const fn = handlers[name];
      if (typeof fn !== 'function') throw new Error(`the simulated home has no tool ${name}`);
      return fn(args);
    };
  }
  const up = /** @type {any} */ (store.catalog?.upstream);
  return (/** @type {string} */ name, /** @type {any} */ args) => up.call('tools/call', { name, arguments: args });
}

/**
 * The comparison: a row per mode with its tools, and a bar of the tokens the model reads at first and
 * those sent but deferred; an empty cell per row for the provider's counts.
 * @param {{ mode: string, about: string, request: any, notes: string[] }[]} rows
 * @param {Map<string, HTMLElement>} liveCells
 */
function chart(rows, liveCells) {
  const max = Math.max(1, ...rows.map((r) => r.request.size.tokens));
  const legend = h('ul', { class: 'legend' },
    h('li', {}, h('span', { class: 'swatch m0', 'aria-hidden': 'true' }), h('b', { text: 'read at first' }), ': what the model reads before it searches'),
    h('li', {}, h('span', { class: 'swatch m3', 'aria-hidden': 'true' }), h('b', { text: 'deferred' }), ': sent, read only once the tool search loads it'));
  const table = h('table', { class: 'bars ab' },
    h('caption', { text: 'Estimated tokens of each mode’s first request (instructions, the message and the tools), by the package’s estimate.' }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'mode' }), h('th', { scope: 'col', text: 'tokens sent' }), h('th', { scope: 'col', text: 'the provider counted' }))),
    h('tbody', {}, ...rows.map((r) => {
      const s = r.request.size;
      const read = s.tokens - s.deferredTokens;
      const first = h('span', { class: 'bar m0', 'aria-hidden': 'true' });
      first.style.width = `${(100 * read) / max}%`;
      const later = h('span', { class: 'bar m3', 'aria-hidden': 'true' });
      later.style.width = `${(100 * s.deferredTokens) / max}%`;
      const live = h('td', { class: 'live', dataset: { mode: r.mode } }, h('span', { class: 'muted', text: 'not sent' }));
      liveCells.set(r.mode, live);
      return h('tr', { dataset: { mode: r.mode } },
        h('th', { scope: 'row' }, r.mode, h('span', { class: 'muted small', text: ` ${r.about}` })),
        h('td', {},
          h('div', { class: 'bar-row' }, h('span', { class: 'mode', text: 'sent' }), h('span', { class: 'track stack' }, first, later), h('span', { class: 'num', text: number.format(s.tokens) })),
          h('p', { class: 'facts', dataset: { slot: 'facts' } },
            `${number.format(read)} read at first`,
            s.deferredTokens ? ` · ${number.format(s.deferredTokens)} deferred` : '',
            ` · ${plural(s.tools, 'tool')}${s.deferredTools ? `, ${number.format(s.deferredTools)} deferred` : ''}`),
          ...r.notes.map((n) => h('p', { class: 'note muted', text: n }))),
        live);
    })));
  return h('figure', { 'aria-label': 'Tokens per disclosure mode' }, legend, table);
}

/**
 * A mode's request: its method and URL, and its body, laid out when it is opened (a body of every tool
 * can be large).
 * @param {{ mode: string, request: any }} r
 */
function requestView({ mode, request }) {
  const box = h('details', { class: 'box request', dataset: { mode } },
    h('summary', { text: `The ${mode} request: ${request.method} ${request.url}, ${plural(new TextEncoder().encode(request.body).length, 'byte')}` }));
  box.addEventListener('toggle', () => {
    if (!box.open || box.querySelector('pre')) return;
    box.append(jsonView(JSON.parse(request.body), { label: `the ${mode} request’s body` }));
  });
  return box;
}

/**
 * What the provider said of one mode's turn: its token counts, the rounds and calls, the answer.
 * @param {any} done the turn's `done` event
 * @param {any[]} events
 */
function liveView(done, events) {
  if (!done || done.type !== 'done') return h('span', { class: 'bad', text: 'the turn did not end' });
  const calls = events.filter((e) => e.type === 'call').map((e) => e.name);
  return h('div', {},
    done.error ? h('p', { class: 'bad', text: `${done.error.kind}: ${done.error.message}` }) : null,
    h('p', { class: 'facts', dataset: { slot: 'usage' } }, `input ${number.format(done.usage?.inputTokens ?? 0)} · output ${number.format(done.usage?.outputTokens ?? 0)} tokens`),
    h('p', { class: 'muted small', text: `${plural(done.rounds, 'round')}${calls.length ? ` · ${calls.join(', ')}` : ' · no tool call'}` }),
    done.text ? h('p', { class: 'answer', text: done.text.length > 200 ? `${done.text.slice(0, 200)}…` : done.text }) : null);
}
