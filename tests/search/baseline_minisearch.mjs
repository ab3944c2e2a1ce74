#!/usr/bin/env node
// Baseline for the tool-search evaluation: MiniSearch with its default
// settings (fields: name and text; default tokenizer, no prefix, no fuzzy).
//
// usage: node baseline_minisearch.mjs TASKS.json OUT.json
//
// MiniSearch comes from the project's node_modules (a devDependency).
// OUT.json maps each query id to the names of its top 10 tools, in
// MiniSearch's order (only tools in the query's `allow` list, when it has
// one: a category filter).
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
  const allow = q.allow ? new Set(q.allow) : null;
  out[q.id] = ms
    .search(q.text)
    .map((r) => names[r.id])
    .filter((n) => !allow || allow.has(n))
    .slice(0, 10);
}
writeFileSync(outPath, JSON.stringify(out));
