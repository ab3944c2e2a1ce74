// Catalog in: a bundled catalog, pasted JSON, a dropped or chosen file, or
// the tools of a live MCP server (connect.mjs). Whatever comes in is read
// by the package (store.mjs); a catalog it cannot read is an error here and
// the panels keep the catalog they had.
import { BrowserUpstream } from '../connect.mjs';
import { Outcome, h, onSubmitKey, plural } from '../dom.mjs';
import { Catalog } from '../store.mjs';

const SOURCES = [
  ['bundled', 'Bundled'],
  ['paste', 'Paste'],
  ['file', 'File'],
  ['server', 'Server'],
];

/** @param {number} n */
const kb = (n) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`);

export const catalogPanel = {
  id: 'catalog',
  title: 'Catalog',
  intro: 'The tools every panel works on: a catalog bundled with the page, a tools/list response you paste or drop, or the tools of a live MCP server (Streamable HTTP; the server must allow this page’s origin).',

  /**
   * @param {{ store: import('../store.mjs').Store, index: any[], base: URL }} ctx
   */
  create({ store, index, base }) {
    const outcome = new Outcome({ clear: () => summary.replaceChildren() });
    const summary = h('div', { class: 'summary' });
    /** @type {Map<string, HTMLElement>} */
    const boxes = new Map();

    // the source chooser: a radio group (arrow keys move between them)
    const radios = h('div', { class: 'seg' });
    const chooser = h('fieldset', { class: 'sources' }, h('legend', { text: 'Source' }), radios);
    const show = (/** @type {string} */ which) => {
      for (const [k, box] of boxes) box.hidden = k !== which;
      /** @type {HTMLInputElement} */ (radios.querySelector(`input[value="${which}"]`)).checked = true;
    };
    for (const [value, label] of SOURCES) {
      const input = h('input', { type: 'radio', name: 'catalog-source', value, id: `source-${value}`, onchange: () => show(value) });
      radios.append(h('label', { for: `source-${value}` }, input, ` ${label}`));
    }

    // bundled
    const select = h('select', { id: 'bundled' });
    for (const c of index) select.append(h('option', { value: c.id, text: c.title }));
    const about = h('p', { class: 'muted about' });
    /** @type {Map<string, Promise<{ text: string, metadata?: object }>>} */
    const fetched = new Map();
    const fetchBundled = (/** @type {any} */ entry) => {
      if (!fetched.has(entry.id)) {
        const get = async (/** @type {string} */ file) => {
          const res = await fetch(new URL(file, base));
          if (!res.ok) throw new Error(`${file}: HTTP ${res.status}`);
          return res.text();
        };
        const p = Promise.all([get(entry.file), entry.metadata ? get(entry.metadata).then(JSON.parse) : undefined]).then(([text, metadata]) => ({ text, metadata }));
        p.catch(() => fetched.delete(entry.id));
        fetched.set(entry.id, p);
      }
      return /** @type {Promise<{ text: string, metadata?: object }>} */ (fetched.get(entry.id));
    };
    const loadBundled = async () => {
      const entry = index.find((c) => c.id === select.value);
      if (!entry) return;
      about.textContent = entry.about;
      outcome.busy(`Loading ${entry.title}…`);
      try {
        const { text, metadata } = await fetchBundled(entry);
        if (select.value !== entry.id) return;
        use(text, { title: entry.title, source: 'bundled', metadata, queries: entry.queries });
      } catch (e) {
        outcome.fail(e, `${entry.title} could not be loaded`);
      }
    };
    select.addEventListener('change', loadBundled);
    boxes.set('bundled', h('div', { class: 'box' }, h('label', { for: 'bundled', text: 'Catalog' }), ' ', select, about));

    // paste
    const pasted = h('textarea', {
      id: 'paste', rows: 8, spellcheck: false, placeholder: '{"tools": [{"name": "…", "inputSchema": {"type": "object"}}]}',
    });
    const usePasted = () => use(pasted.value, { title: 'Pasted catalog', source: 'pasted' });
    onSubmitKey(pasted, usePasted);
    boxes.set('paste', h('div', { class: 'box' },
      h('label', { for: 'paste', text: 'A tools/list response, its result, an array of tools or one tool (Ctrl+Enter reads it)' }),
      pasted,
      h('div', { class: 'row' }, h('button', { type: 'button', id: 'use-paste', text: 'Use this catalog', onclick: usePasted })),
    ));

    // file: chosen, or dropped anywhere on the panel
    const file = h('input', { type: 'file', id: 'file', accept: '.json,application/json' });
    const readFile = async (/** @type {File} */ f) => {
      show('file');
      try {
        use(new Uint8Array(await f.arrayBuffer()), { title: f.name, source: 'file' });
      } catch (e) {
        outcome.fail(e, `${f.name} could not be read`);
      }
    };
    file.addEventListener('change', () => file.files?.[0] && readFile(file.files[0]));
    boxes.set('file', h('div', { class: 'box drop' },
      h('label', { for: 'file', text: 'A JSON file with a tools/list response (or drop one anywhere on this panel)' }), file));

    // server
    const url = h('input', { type: 'url', id: 'server-url', placeholder: 'http://127.0.0.1:8765/mcp', required: true, autocomplete: 'url' });
    const token = h('input', { type: 'password', id: 'server-token', autocomplete: 'off', placeholder: 'optional' });
    const connectButton = h('button', { type: 'submit', id: 'connect', text: 'Connect' });
    const log = h('ol', { class: 'log', 'aria-label': 'Connection log' });
    /** @type {BrowserUpstream | null} */
    let upstream = null;
    const disconnect = (/** @type {string} */ why) => {
      if (!upstream) return;
      upstream.close();
      upstream = null;
      connectButton.textContent = 'Connect';
      line(why);
    };
    const line = (/** @type {string} */ text) => log.append(h('li', { text }));
    const form = h('form', { class: 'box', id: 'server-form' },
      h('div', { class: 'field' }, h('label', { for: 'server-url', text: 'MCP endpoint URL' }), url),
      h('div', { class: 'field' }, h('label', { for: 'server-token', text: 'Bearer token' }), token),
      h('div', { class: 'row' }, connectButton, h('span', { class: 'muted', text: 'Escape disconnects.' })),
      log,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (upstream) return disconnect('Disconnected.');
      connect(url.value.trim(), token.value);
    });
    form.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && upstream) {
        e.preventDefault();
        disconnect('Disconnected.');
      }
    });
    const connect = (/** @type {string} */ target, /** @type {string} */ bearer) => {
      log.replaceChildren();
      outcome.busy(`Connecting to ${target}…`);
      let ready = false;
      /** @type {BrowserUpstream} */
      let up;
      try {
        up = new BrowserUpstream(target, {
          token: bearer || undefined,
          onOutput: (o) => {
            if (upstream !== up) return;
            if (o.type === 'connected') {
              line(`Connected: MCP ${o.version} over ${o.transport}${o.serverInfo && typeof o.serverInfo === 'object' && 'name' in o.serverInfo ? `, ${o.serverInfo.name}` : ''}.`);
            } else if (o.type === 'listed') {
              line(`Listed ${o.items.length} ${o.kind}${o.truncated ? ' (truncated)' : ''}.`);
              if (ready && o.kind === 'tools' && store.catalog?.upstream === up) useServer(up);
            } else if (o.type === 'listFailed') {
              line(`Could not list ${o.kind}: ${o.error.message}`);
            } else if (o.type === 'ready') {
              ready = true;
              useServer(up);
            } else if (o.type === 'unavailable') {
              if (!ready) {
                disconnect('Gave up.');
                outcome.fail(o.error.text, 'The server could not be reached');
              } else {
                // lost after it was ready: the client connects again by itself
                line('Lost; connecting again…');
                outcome.fail(o.error.text, 'The server went away (connecting again; Disconnect stops)');
              }
            }
          },
        });
      } catch (e) {
        outcome.fail(e, 'Cannot connect');
        return;
      }
      upstream = up;
      connectButton.textContent = 'Disconnect';
      try {
        up.connect();
      } catch (e) {
        disconnect('Gave up.');
        outcome.fail(e, 'Cannot connect');
      }
    };
    const useServer = (/** @type {BrowserUpstream} */ up) => {
      const info = up.connection?.serverInfo;
      const name = info && typeof info === 'object' && 'name' in info ? String(info.name) : up.url;
      use({ tools: up.items('tools') }, { title: name, source: 'server', upstream: up });
    };
    boxes.set('server', form);

    /**
     * Reads a catalog and makes it the page's; an error stays here.
     * @param {string | Uint8Array | object} input
     * @param {ConstructorParameters<typeof Catalog>[1]} info
     */
    const use = (input, info) => {
      let catalog;
      try {
        catalog = new Catalog(input, info);
      } catch (e) {
        const still = store.catalog ? ` (the panels still show ${store.catalog.title})` : '';
        outcome.fail(e, `This catalog could not be read${still}`);
        return;
      }
      outcome.ok(`${catalog.title}: ${plural(catalog.tools.length, 'tool')}, ${kb(catalog.bytes)}.`);
      summary.replaceChildren(...describe(catalog));
      store.set(catalog);
    };

    const el = h('div', {}, chooser, ...boxes.values(), outcome.el, summary);
    el.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      el.classList.add('dragging');
    });
    el.addEventListener('dragleave', (e) => {
      if (!el.contains(/** @type {Node | null} */ (e.relatedTarget))) el.classList.remove('dragging');
    });
    el.addEventListener('drop', (e) => {
      el.classList.remove('dragging');
      const f = e.dataTransfer?.files?.[0];
      if (!f) return;
      e.preventDefault();
      readFile(f);
    });
    show('bundled');
    return { el, start: loadBundled };
  },
};

/**
 * What the summary says of a catalog: its tools and what reading it found.
 * @param {Catalog} c
 */
function describe(c) {
  const tools = h('details', { class: 'tools' },
    h('summary', { text: plural(c.tools.length, 'tool') }),
    h('ul', { class: 'chips' }, ...c.tools.map((t) => h('li', {}, h('code', { text: t.name })))));
  const found = c.report.length === 0 ? null : h('details', { class: 'found', open: true },
    h('summary', { text: `Reading it found ${plural(c.report.length, 'problem')}` }),
    h('ul', {}, ...c.report.map((r) => h('li', {}, h('code', { text: r.pointer || '/' }), ` ${r.action}: ${r.detail}`))));
  const more = c.nextCursor ? h('p', { class: 'muted', text: `This is one page of a longer list (nextCursor ${JSON.stringify(c.nextCursor)}).` }) : null;
  return [tools, found, more].filter((x) => x !== null);
}
