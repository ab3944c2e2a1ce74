// Every dialect side by side: one tool of the catalog as each model API
// gets it, or the MCP tool with each dialect's loss report entries at their
// places; and the tokens of the whole list per dialect and disclosure mode.
// Conversion, reports and token counts are the package's (convert, lint,
// budget); the page lays them out, a dialect at a time so it stays usable.
import { Outcome, h, pause, plural } from '../dom.mjs';
import { addMark, jsonView } from '../json-view.mjs';
import { budget, convert, dialects } from '../switchboard.mjs';

/**
 * The conversions shown: every dialect, and OpenAI's strict mode beside plain OpenAI.
 * `lint` is the name of the variant in lint()'s token totals.
 * @returns {{ name: string, to: import('../../../pkg/full/slim.mjs').DialectName, strict: boolean, lint: string }[]}
 */
function variants() {
  return dialects().flatMap((d) => {
    const plain = { name: d, to: d, strict: false, lint: d };
    return d === 'openai' ? [plain, { name: 'openai strict', to: d, strict: true, lint: `${d}+strict` }] : [plain];
  });
}

/** What each disclosure mode means, for the chart's legend (a mode not listed is shown by its name). */
const MODES = {
  all: 'every tool',
  hybrid: 'the core tools and the meta-tools',
  meta: 'the meta-tools alone',
  native: 'the provider’s own tool search: what the model reads at first (the deferred tools are sent, read once loaded); only where the provider has one',
};

const number = new Intl.NumberFormat('en');

export const dialectsPanel = {
  id: 'dialects',
  title: 'Dialects',
  intro: 'One tool as each model API gets it, side by side; switch to “Where it loses” to see each dialect’s loss report entries at their places in the MCP tool. Below: the tokens of the whole tool list per dialect and disclosure mode.',

  /** @param {{ store: import('../store.mjs').Store }} ctx */
  create({ store }) {
    const outcome = new Outcome({ clear: () => grid.replaceChildren() });
    const toolSelect = h('select', { id: 'dialect-tool' });
    const viewName = 'dialect-view';
    const views = h('fieldset', { class: 'seg compact' }, h('legend', { text: 'View' }),
      ...[['sent', 'Sent to the model'], ['losses', 'Where it loses']].map(([value, label], i) =>
        h('label', { for: `view-${value}` }, h('input', { type: 'radio', name: viewName, id: `view-${value}`, value, checked: i === 0, onchange: () => render() }), ` ${label}`)));
    const grid = h('div', { class: 'cards', id: 'dialect-cards' });
    const chartOutcome = new Outcome({ clear: () => chart.replaceChildren() });
    const chart = h('div', { class: 'chart', id: 'token-chart' });

    /** @type {{ catalog: import('../store.mjs').Catalog, conversions: Map<string, any>, lint?: import('../../../pkg/full/slim.mjs').LintReport } | null} */
    let state = null;

    const view = () => /** @type {HTMLInputElement} */ (views.querySelector('input:checked')).value;

    /** The cards for the selected tool, from the conversions made so far. */
    const render = () => {
      if (!state) return;
      const { catalog, conversions } = state;
      const index = catalog.tools.findIndex((t) => t.name === toolSelect.value);
      const tool = catalog.tools[index];
      if (!tool) return grid.replaceChildren();
      const prefix = `/tools/${index}`;
      const cards = [];
      for (const v of variants()) {
        const whole = conversions.get(v.name);
        if (!whole) continue;
        const mine = whole.report.filter((/** @type {any} */ r) => r.tool === tool.name && (r.pointer === prefix || r.pointer.startsWith(`${prefix}/`)));
        const general = whole.report.filter((/** @type {any} */ r) => r.tool === null);
        const tokens = state.lint?.totals[v.lint];
        const head = h('header', {},
          h('h3', { text: v.name }),
          h('span', { class: `badge${mine.length ? ' warn' : ''}`, text: mine.length ? plural(mine.length, 'report entry', 'report entries') : 'nothing lost' }),
          tokens === undefined ? null : h('span', { class: 'badge', text: `whole list: ${number.format(tokens)} tokens` }));
        let body;
        if (view() === 'losses') {
          const marks = new Map();
          for (const r of mine) addMark(marks, r.pointer.slice(prefix.length), { kind: 'loss', label: `${r.action} ${r.keyword}`, text: r.detail });
          body = mine.length ? withJumps(jsonView(tool, { marks, label: `${tool.name} with the ${v.name} losses marked` })) : [h('p', { class: 'muted', text: 'Nothing lost: the tool goes to this dialect as it is.' })];
        } else {
          body = sent(tool, v);
        }
        const notes = general.length ? h('ul', { class: 'general' }, ...general.map((r) => h('li', {}, h('b', { text: `${r.action} ${r.keyword}` }), ` ${r.detail}`))) : null;
        cards.push(h('article', { class: 'card', dataset: { dialect: v.name } }, head, ...body, notes));
      }
      grid.replaceChildren(...cards);
      // each schema scrolled to its first mark
      for (const pre of grid.querySelectorAll('pre.json')) {
        const first = /** @type {HTMLElement | null} */ (pre.querySelector('.marked'));
        if (first) pre.scrollTop = Math.max(0, first.offsetTop - 8);
      }
    };

    toolSelect.addEventListener('change', render);

    /** Converts the catalog to every dialect, a dialect at a time, then counts its tokens. */
    const update = async (/** @type {import('../store.mjs').Catalog} */ catalog) => {
      state = { catalog, conversions: new Map() };
      const mine = state;
      const stale = () => state !== mine;
      grid.replaceChildren();
      chart.replaceChildren();
      toolSelect.replaceChildren(...catalog.tools.map((t) => h('option', { value: t.name, text: t.name })));
      /** @type {Map<string, number>} report entries per tool, over every dialect */
      const counts = new Map();
      const all = variants();
      for (const [i, v] of all.entries()) {
        outcome.busy(`Converting to ${v.name} (${i + 1} of ${all.length})…`);
        await pause();
        if (stale()) return;
        try {
          const c = convert(catalog.text, { to: v.to, strict: v.strict });
          mine.conversions.set(v.name, c);
          for (const r of c.report) if (r.tool !== null) counts.set(r.tool, (counts.get(r.tool) ?? 0) + 1);
        } catch (e) {
          outcome.fail(e, `Converting to ${v.name}`);
          return;
        }
      }
      // the tool with the most entries first shown; each option says its count
      let pick = catalog.tools[0]?.name;
      for (const opt of toolSelect.options) {
        const n = counts.get(opt.value) ?? 0;
        if (n > 0) opt.textContent = `${opt.value} (${plural(n, 'report entry', 'report entries')})`;
        if (n > (counts.get(pick) ?? 0)) pick = opt.value;
      }
      if (pick !== undefined) toolSelect.value = pick;
      const entries = [...mine.conversions.values()].reduce((n, c) => n + c.report.length, 0);
      outcome.ok(`${plural(catalog.tools.length, 'tool')} in ${all.length} conversions, ${plural(entries, 'report entry', 'report entries')} in all.`);
      render();

      // tokens: lint's totals (strict variants included) on the cards, budget() per mode in the chart
      await pause();
      if (stale()) return;
      try {
        mine.lint = catalog.lint();
        render();
      } catch (e) {
        outcome.fail(e, 'Counting tokens');
      }
      await drawChart(catalog, stale);
    };

    /**
     * @param {import('../store.mjs').Catalog} catalog
     * @param {() => boolean} stale
     */
    const drawChart = async (catalog, stale) => {
      const rows = [undefined, ...dialects()];
      /** @type {import('../../../pkg/full/slim.mjs').Budget[]} */
      const budgets = [];
      for (const [i, to] of rows.entries()) {
        chartOutcome.busy(`Counting tokens: ${to ?? 'MCP'} (${i + 1} of ${rows.length})…`);
        await pause();
        if (stale()) return;
        try {
          budgets.push(budget(catalog.text, to ? { to } : {}));
        } catch (e) {
          chartOutcome.fail(e, `Counting tokens for ${to ?? 'MCP'}`);
          return;
        }
      }
      chart.replaceChildren(tokenChart(budgets));
      chartOutcome.ok(`Estimated tokens of the tool list, ${plural(catalog.tools.length, 'tool')}.`);
    };

    const el = h('div', {},
      h('div', { class: 'row controls' }, h('label', { for: 'dialect-tool', text: 'Tool' }), toolSelect, views),
      outcome.el,
      grid,
      h('h3', { class: 'sub', id: 'tokens-title', text: 'Tokens per dialect and disclosure mode' }),
      chartOutcome.el,
      chart,
    );
    store.on((c) => void update(c));
    return { el };
  },
};

/**
 * A marked schema with a row of links above it, one per marked place, that scroll the schema there.
 * @param {HTMLElement} pre
 */
function withJumps(pre) {
  const lines = /** @type {HTMLElement[]} */ ([...pre.querySelectorAll('.l.marked')]);
  const jumps = h('div', { class: 'jumps' }, h('span', { class: 'muted', text: 'At: ' }), ...lines.map((line) => h('button', {
    type: 'button', class: 'jump', text: line.dataset.pointer || '/', title: `scroll to ${line.dataset.pointer || '/'}`,
    onclick: () => {
      pre.scrollTop = Math.max(0, line.offsetTop - 8);
      line.classList.remove('flash');
      void line.offsetWidth;
      line.classList.add('flash');
    },
  })));
  return [jumps, pre];
}

/**
 * What one dialect sends for one tool: its conversion alone, each part of it (the tools, and what
 * the dialect adds: VS Code's runtime tools, the prompted dialect's system prompt, as readable text).
 * @param {any} tool
 * @param {ReturnType<typeof variants>[number]} v
 */
function sent(tool, v) {
  const c = convert({ tools: [tool] }, { to: v.to, strict: v.strict });
  const parts = Object.entries(c).filter(([k]) => !['dialect', 'names', 'report'].includes(k));
  // text first (the prompt), then JSON
  parts.sort(([, a], [, b]) => Number(typeof b === 'string') - Number(typeof a === 'string'));
  const out = [];
  for (const [key, value] of parts) {
    if (Array.isArray(value) && value.length === 0) {
      out.push(h('p', { class: 'muted', text: `${key}: none (the tool cannot be sent; see “Where it loses”)` }));
    } else if (typeof value === 'string') {
      out.push(h('p', { class: 'part', text: key }), h('pre', { class: 'text', tabIndex: 0, 'aria-label': `${v.name} ${key}`, text: value }));
    } else {
      out.push(h('p', { class: 'part', text: key }), jsonView(value, { label: `${v.name} ${key}` }));
    }
  }
  return out;
}

/**
 * The tokens chart: a row per dialect, a bar per disclosure mode (the modes are the number fields
 * budget() returns, so a new mode shows up as it is added).
 * @param {import('../../../pkg/full/slim.mjs').Budget[]} budgets
 */
function tokenChart(budgets) {
  // every mode any row has, in the order budget() gives them; a row shows the modes it has
  const modes = [...new Set(budgets.flatMap((b) => Object.keys(b).filter((k) => typeof (/** @type {any} */ (b)[k]) === 'number')))];
  const max = Math.max(1, ...budgets.flatMap((b) => modes.map((m) => /** @type {any} */ (b)[m] ?? 0)));
  const legend = h('ul', { class: 'legend' }, ...modes.map((m, i) => h('li', {}, h('span', { class: `swatch m${i % 6}`, 'aria-hidden': 'true' }), h('b', { text: m }), MODES[/** @type {keyof MODES} */ (m)] ? `: ${MODES[/** @type {keyof MODES} */ (m)]}` : '')));
  const core = budgets[0]?.core ?? [];
  const table = h('table', { class: 'bars' },
    h('caption', { text: `Estimated tokens of the tool list sent to the model. Hybrid's core tools: ${core.length ? core.join(', ') : 'none'}.` }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'dialect' }), h('th', { scope: 'col', text: 'tokens per mode' }))),
    h('tbody', {}, ...budgets.map((b) => h('tr', {},
      h('th', { scope: 'row', text: b.dialect }),
      h('td', {}, ...modes.map((m, i) => {
        const n = /** @type {any} */ (b)[m];
        if (typeof n !== 'number') return null;
        const bar = h('span', { class: `bar m${i % 6}`, 'aria-hidden': 'true' });
        bar.style.width = `${(100 * n) / max}%`;
        return h('div', { class: 'bar-row' }, h('span', { class: 'mode', text: m }), h('span', { class: 'track' }, bar), h('span', { class: 'num', text: number.format(n) }));
      }))))));
  return h('figure', { 'aria-labelledby': 'tokens-title' }, legend, table);
}
