// Search: the package's ToolIndex over the catalog (with its curated search
// metadata where the catalog has some), queried in English, Dutch or
// German, with the package's explanation (ToolIndex.explain): how the query
// was read (question, command, need or keywords; the act; the places; the
// terms each word became) and why each hit ranked (what each term added,
// the bonuses and the factors).
import { Outcome, h, plural } from '../dom.mjs';
import { ToolIndex } from '../switchboard.mjs';

export const searchPanel = {
  id: 'search',
  title: 'Search',
  intro: 'Rank the catalog’s tools for a request, as the search_tools meta-tool does: in English, Dutch or German, with their category and score, how the request was read and why each tool ranked. Enter searches, Escape clears.',

  /** @param {{ store: import('../store.mjs').Store }} ctx */
  create({ store }) {
    const query = h('input', { type: 'search', id: 'query', autocomplete: 'off', enterKeyHint: 'search', placeholder: 'turn on the kitchen light' });
    const category = h('select', { id: 'category' });
    const limit = h('select', { id: 'limit' }, ...[5, 10, 20].map((n) => h('option', { value: n, text: String(n) })));
    limit.value = '10';
    const examples = h('div', { class: 'examples' });
    const hits = h('ol', { class: 'hits', id: 'hits' });
    // the reading of the query (command or question, act, place, terms)
    const reading = h('div', { class: 'reading', id: 'reading', hidden: true, dataset: { slot: 'reading' } });
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
        const options = { limit: Number(limit.value), category: category.value || undefined };
        const found = index.search(q, options);
        const why = index.explain(q, options);
        showReading(reading, why);
        const top = found.hits[0]?.score || 1;
        hits.replaceChildren(...found.hits.map((hit, i) => {
          const bar = h('span', { class: 'bar m0', 'aria-hidden': 'true' });
          bar.style.width = `${Math.max(2, (100 * hit.score) / top)}%`;
          return h('li', { class: 'hit', dataset: { tool: hit.name } },
            h('div', { class: 'hit-head' }, h('code', { class: 'name', text: hit.name }), h('span', { class: 'badge', text: hit.category }), h('span', { class: 'score', text: `score ${hit.score}` })),
            h('span', { class: 'track score-bar' }, bar),
            h('p', { class: 'desc', text: hit.description }),
            // why it ranked
            explainHit(why.hits.find((x) => x.name === hit.name), i === 0));
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

/** @param {number} x */
const num = (x) => String(Math.round(x * 1000) / 1000);

/**
 * The reading of the query: what kind of sentence, the act, the language, the places, and the groups of terms.
 * @param {HTMLElement} el
 * @param {import('../../../pkg/full/slim.mjs').SearchExplanation} why
 */
function showReading(el, why) {
  const r = why.reading;
  const facts = [
    h('b', { text: `Read as ${r.kind === 'keywords' ? 'keywords' : `a ${r.kind}`}` }),
    r.act ? ` · act: ${r.act}` : ' · no act said',
    r.past ? ' · about the past' : '',
    r.why ? ' · asks why' : '',
    r.language ? ` · language: ${r.language}` : '',
    r.places.length ? ` · place: ${r.places.join(', ')} (weighs less than the thing)` : '',
    why.fallback ? ` · nothing matched: the hits are guesses (${why.fallback})` : '',
  ];
  el.replaceChildren(h('p', { class: 'facts' }, ...facts),
    r.groups.length
      ? h('ul', { class: 'terms', 'aria-label': 'The terms searched for' }, ...r.groups.map((g) => h('li', { class: g.implied ? 'implied' : '', title: g.implied ? 'implied by the reading, not said' : 'said' },
        g.implied ? `(${g.from}) → ` : `${g.from} → `,
        g.terms.map((t) => (t.weight === 1 ? t.term : `${t.term} ×${num(t.weight)}`)).join(' | '))))
      : h('p', { class: 'muted', text: 'No word to search for: the tools are listed by name.' }));
  el.hidden = false;
}

/**
 * Why one hit ranked: each term's share, the bonuses, the factors.
 * @param {import('../../../pkg/full/slim.mjs').HitExplanation | undefined} x
 * @param {boolean} open
 */
function explainHit(x, open) {
  const slot = h('details', { class: 'explain', open, dataset: { slot: 'explain' } }, h('summary', { text: 'Why it ranked' }));
  if (!x) return slot;
  if (x.guess) {
    slot.append(h('p', { class: 'sum', text: 'A guess: no word of the query matched, so the tools spelled most like it (or doing the act asked) are shown.' }));
    return slot;
  }
  slot.append(h('ul', { class: 'terms' }, ...x.terms.map((t) => h('li', { class: t.implied ? 'implied' : '' }, `${t.implied ? `(${t.from})` : t.from} → ${t.term}${t.weight === 1 ? '' : ` ×${num(t.weight)}`}: +${num(t.score)}`))));
  const parts = [`terms ${num(x.matched)}`];
  if (x.nameBonus) parts.push(`+ name ${num(x.nameBonus)}`);
  if (x.headBonus) parts.push(`+ about its object ${num(x.headBonus)}`);
  let line = parts.join(' ');
  if (x.actFactor !== 1) line += ` × ${x.actFactor > 1 ? 'fits the act' : 'misfits the act'} ${num(x.actFactor)}`;
  if (x.mediaFactor !== 1) line += ` × shows something not asked for ${num(x.mediaFactor)}`;
  slot.append(h('p', { class: 'sum', text: x.exact ? `${line}; the query names it exactly, so it comes first (${num(x.score)}).` : `${line} = ${num(x.score)}` }));
  return slot;
}
