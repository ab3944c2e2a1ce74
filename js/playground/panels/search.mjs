// Search: the package's ToolIndex over the catalog (with its curated search
// metadata where the catalog has some), queried in English, Dutch or
// German. Each hit keeps a place for the explanation of its rank, and the
// panel one for the reading of the query, for when the package gives them.
import { Outcome, h, plural } from '../dom.mjs';
import { ToolIndex } from '../switchboard.mjs';

export const searchPanel = {
  id: 'search',
  title: 'Search',
  intro: 'Rank the catalog’s tools for a request, as the search_tools meta-tool does: in English, Dutch or German, with their category and score. Enter searches, Escape clears.',

  /** @param {{ store: import('../store.mjs').Store }} ctx */
  create({ store }) {
    const query = h('input', { type: 'search', id: 'query', autocomplete: 'off', enterKeyHint: 'search', placeholder: 'turn on the kitchen light' });
    const category = h('select', { id: 'category' });
    const limit = h('select', { id: 'limit' }, ...[5, 10, 20].map((n) => h('option', { value: n, text: String(n) })));
    limit.value = '10';
    const examples = h('div', { class: 'examples' });
    const hits = h('ol', { class: 'hits', id: 'hits' });
    // the reading of the query (command or question, act, place), when the package explains it
    const reading = h('p', { class: 'reading', hidden: true, dataset: { slot: 'reading' } });
    const outcome = new Outcome({
      clear: () => {
        hits.replaceChildren();
        reading.hidden = true;
      },
    });

    /** @type {ToolIndex | null} */
    let index = null;

    const search = () => {
      const q = query.value.trim();
      if (!index) return;
      if (!q) {
        outcome.clear?.();
        outcome.ok('Type a request and press Enter.');
        return;
      }
      try {
        const found = index.search(q, { limit: Number(limit.value), category: category.value || undefined });
        const top = found.hits[0]?.score || 1;
        hits.replaceChildren(...found.hits.map((hit) => {
          const bar = h('span', { class: 'bar m0', 'aria-hidden': 'true' });
          bar.style.width = `${Math.max(2, (100 * hit.score) / top)}%`;
          return h('li', { class: 'hit', dataset: { tool: hit.name } },
            h('div', { class: 'hit-head' }, h('code', { class: 'name', text: hit.name }), h('span', { class: 'badge', text: hit.category }), h('span', { class: 'score', text: `score ${hit.score}` })),
            h('span', { class: 'track score-bar' }, bar),
            h('p', { class: 'desc', text: hit.description }),
            // why it ranked, when the package explains it
            h('div', { class: 'explain', hidden: true, dataset: { slot: 'explain' } }));
        }));
        outcome.ok(found.total === 0 ? 'No tool matches.' : `${plural(found.total, 'matching tool')}, the best ${found.hits.length} shown.`);
      } catch (e) {
        outcome.fail(e, 'Search');
      }
    };

    const form = h('form', { class: 'search-form', role: 'search', 'aria-label': 'Search the catalog' },
      h('div', { class: 'field grow' }, h('label', { for: 'query', text: 'Request' }), query),
      h('div', { class: 'field' }, h('label', { for: 'category', text: 'Category' }), category),
      h('div', { class: 'field' }, h('label', { for: 'limit', text: 'Hits' }), limit),
      h('button', { type: 'submit', id: 'run-search', text: 'Search' }));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      search();
    });
    query.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        query.value = '';
        outcome.clear?.();
        outcome.ok('');
      }
    });
    category.addEventListener('change', () => query.value.trim() && search());
    limit.addEventListener('change', () => query.value.trim() && search());

    store.on((c) => {
      index?.free();
      index = null;
      hits.replaceChildren();
      try {
        index = new ToolIndex(c.text, /** @type {any} */ (c.metadata) ?? null);
      } catch (e) {
        outcome.fail(e, 'The catalog could not be indexed');
        return;
      }
      // the categories: those of every tool, as the index gives them
      const all = index.search('', { limit: Math.max(1, index.size) }).hits;
      const cats = [...new Set(all.map((x) => x.category))].sort();
      category.replaceChildren(h('option', { value: '', text: 'any' }), ...cats.map((x) => h('option', { value: x, text: x })));
      examples.replaceChildren(...(c.queries.length ? [h('span', { class: 'muted', text: 'Try: ' })] : []), ...c.queries.map((q) => h('button', {
        type: 'button', class: 'chip', text: q, onclick: () => {
          query.value = q;
          search();
        },
      })));
      if (c.queries[0] && !query.value) query.value = c.queries[0];
      if (query.value.trim()) search();
      else outcome.ok(`${plural(index.size, 'tool')} indexed${c.metadata ? ' with their search metadata' : ''}.`);
    });

    return { el: h('div', {}, form, examples, reading, outcome.el, hits) };
  },
};
