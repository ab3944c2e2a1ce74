// The playground: loads the package's WebAssembly module and the list of
// bundled catalogs, then lays out the panels. A panel is a module with an
// id, a title, an introduction and create({ store, ... }) → { el, start? };
// the list below is the page.
import { errorText, h } from './dom.mjs';
import { catalogPanel } from './panels/catalog.mjs';
import { chatPanel } from './panels/chat.mjs';
import { dialectsPanel } from './panels/dialects.mjs';
import { disclosurePanel } from './panels/disclosure.mjs';
import { roundTripPanel } from './panels/roundtrip.mjs';
import { searchPanel } from './panels/search.mjs';
import { Store } from './store.mjs';
import { init, version } from './switchboard.mjs';

const PANELS = [catalogPanel, dialectsPanel, roundTripPanel, chatPanel, disclosurePanel, searchPanel];

const base = new URL('./', import.meta.url);
const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const boot = /** @type {HTMLElement} */ (document.getElementById('boot'));

async function start() {
  const [, index] = await Promise.all([
    init(new URL('mcp_switchboard_full_bg.wasm', base)),
    fetch(new URL('catalogs/index.json', base)).then((r) => {
      if (!r.ok) throw new Error(`catalogs/index.json: HTTP ${r.status}`);
      return r.json();
    }),
  ]);
  /** @type {HTMLElement} */ (document.getElementById('version')).textContent = `v${version()}`;
  const store = new Store();
  const nav = /** @type {HTMLElement} */ (document.getElementById('panel-nav'));
  const starts = [];
  for (const panel of PANELS) {
    const { el, start } = panel.create({ store, index, base });
    const title = h('h2', { id: `${panel.id}-title`, text: panel.title });
    main.append(h('section', { id: panel.id, class: 'panel', 'aria-labelledby': title.id }, title, h('p', { class: 'intro', text: panel.intro }), el));
    nav.append(h('a', { href: `#${panel.id}`, text: panel.title }));
    if (start) starts.push(start);
  }
  boot.remove();
  for (const s of starts) await s();
  document.body.dataset.ready = 'true';
}

start().catch((e) => {
  boot.className = 'error';
  boot.setAttribute('role', 'alert');
  boot.textContent = `The playground could not start: ${errorText(e)}`;
});
