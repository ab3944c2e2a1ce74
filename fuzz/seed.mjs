#!/usr/bin/env node
// Builds the libFuzzer corpora in fuzz/corpus/<target>/ (not committed):
// the committed seeds, plus inputs made from the shared corpus next to the
// checkout (../shared/corpus): each tool of each catalog as a catalog of
// its own, its schema with empty arguments, a few catalogs (their first
// tools) with a query sentence in English, Dutch and German, and the
// schema edge cases.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const shared = join(here, '../../shared/corpus');
const targets = ['catalog', 'lint', 'calls', 'validate', 'search', 'entities', 'engine', 'http', 'sse', 'lenient', 'rawjson', 'html', 'conversation', 'upstream', 'connections'];
const counts = {};

function put(target, data) {
  const dir = join(here, 'corpus', target);
  mkdirSync(dir, { recursive: true });
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  writeFileSync(join(dir, createHash('sha1').update(bytes).digest('hex')), bytes);
  counts[target] = (counts[target] ?? 0) + 1;
}

for (const t of targets) {
  mkdirSync(join(here, 'corpus', t), { recursive: true });
  for (const dir of ['seeds', 'regressions']) {
    const from = join(here, dir, t);
    if (!existsSync(from)) continue;
    for (const f of readdirSync(from)) if (!f.startsWith('.')) copyFileSync(join(from, f), join(here, 'corpus', t, `${dir}-${f}`));
  }
}

if (existsSync(shared)) {
  const sentences = JSON.parse(readFileSync(join(shared, 'ha-intents-sentences.json'), 'utf8')).sentences;
  const queries = ['en', 'nl', 'de'].flatMap((lang) => (sentences[lang] ?? []).filter((_, i) => i % 97 === 0).map((s) => s.text));
  for (const file of readdirSync(shared).filter((f) => f.endsWith('.tools-list.json'))) {
    const doc = JSON.parse(readFileSync(join(shared, file), 'utf8'));
    const tools = doc.result?.tools ?? doc.tools ?? doc;
    for (const tool of tools) {
      const one = JSON.stringify([tool]);
      put('catalog', one);
      put('lint', one);
      put('rawjson', JSON.stringify(tool));
      put('validate', `${JSON.stringify(tool.inputSchema ?? {})}\0{}`);
    }
    // as many of the first 12 tools as fit in 3,500 bytes (one at least),
    // so that catalog and query stay whole under the long runs' 4096-byte
    // cap on inputs (run.sh)
    let some = JSON.stringify({ tools: tools.slice(0, 1) });
    for (let n = 2; n <= Math.min(12, tools.length); n++) {
      const more = JSON.stringify({ tools: tools.slice(0, n) });
      if (more.length > 3500) break;
      some = more;
    }
    queries.slice(0, 6).forEach((q) => put('search', `${some}\xff${q}`));
  }
  queries.forEach((q) => put('search', q));
  const edge = JSON.parse(readFileSync(join(shared, 'schema-edge-cases.json'), 'utf8'));
  for (const [name, schema] of Object.entries(edge)) {
    put('catalog', JSON.stringify([{ name, description: 'edge case', inputSchema: schema }]));
    put('validate', `${JSON.stringify(schema)}\0{}`);
  }
} else {
  console.warn(`${shared} not found: the corpora hold the committed seeds only`);
}
// the entity index: the evaluation's spoken references, in the target's own home
const refs = JSON.parse(readFileSync(join(here, '../tests/search/home/references.json'), 'utf8')).references;
refs.forEach((r) => put('entities', r.text));
console.log(`corpora in fuzz/corpus/: ${targets.map((t) => `${t} ${readdirSync(join(here, 'corpus', t)).length}`).join(', ')}`);
