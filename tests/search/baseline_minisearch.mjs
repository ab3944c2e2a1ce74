#!/usr/bin/env node
// Baseline for the tool-search evaluation: MiniSearch with its default
// settings (fields: name and text; default tokenizer, no prefix, no fuzzy).
//
// usage: node baseline_minisearch.mjs TASKS.json OUT.json
//
// MiniSearch comes from the project's node_modules (a devDependency).
// OUT.json maps each query id to the names of its top 10 tools, in
// MiniSearch's order.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const MiniSearch = createRequire(import.meta.url)('minisearch');

const [tasksPath, outPath] = process.argv.slice(2);
const tasks = JSON.parse(readFileSync(tasksPath, 'utf8'));
const indexes = new Map();
for (const [catalog, docs] of Object.entries(tasks.catalogs)) {
  const ms = new MiniSearch({ fields: ['name', 'text'] });
  ms.addAll(docs.map((d, id) => ({ id, name: d.name, text: d.text })));
  indexes.set(catalog, { ms, names: docs.map((d) => d.name) });
}
const out = {};
for (const q of tasks.queries) {
  const { ms, names } = indexes.get(q.catalog);
  out[q.id] = ms.search(q.text).slice(0, 10).map((r) => names[r.id]);
}
writeFileSync(outPath, JSON.stringify(out));
