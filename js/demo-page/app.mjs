// The demo page's glue: reads the form, calls the package, writes the page.
// Every decision (conversion, search) is the package's.
import { convert, dialects, ToolIndex, version } from '../../pkg/browser.mjs';

const $ = (id) => document.getElementById(id);
const status = (text, isError = false) => {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : '';
};

for (const d of dialects()) $('dialect').append(new Option(d, d));
const response = await fetch(new URL('../examples/home-assistant.tools-list.json', import.meta.url));
$('catalog').value = await response.text();

function runConvert() {
  try {
    const t0 = performance.now();
    const out = convert($('catalog').value, { to: $('dialect').value, strict: $('strict').checked });
    const ms = performance.now() - t0;
    $('output').textContent = JSON.stringify(out.prompt ?? out.tools, null, 2);
    $('report').replaceChildren(
      ...out.report.map((e) => {
        const tr = document.createElement('tr');
        for (const v of [e.tool ?? '', e.pointer, e.action, e.detail]) tr.append(Object.assign(document.createElement('td'), { textContent: v }));
        return tr;
      }),
    );
    status(`${Object.keys(out.names).length} tools, ${out.report.length} report entries, ${ms.toFixed(1)} ms (mcp-switchboard ${version()})`);
  } catch (e) {
    status(`${e.code ?? 'error'}: ${e.message}`, true);
  }
}

function runSearch() {
  try {
    const index = new ToolIndex($('catalog').value);
    const { hits, total } = index.search($('query').value, { limit: 5 });
    index.free();
    $('hits').replaceChildren(...hits.map((h) => Object.assign(document.createElement('li'), { textContent: `${h.name} (${h.category}, ${h.score}): ${h.description}` })));
    status(`${total} matching tools`);
  } catch (e) {
    status(`${e.code ?? 'error'}: ${e.message}`, true);
  }
}

$('convert').addEventListener('click', runConvert);
$('search').addEventListener('click', runSearch);
runConvert();
document.body.dataset.ready = 'true';
