#!/usr/bin/env node
// Baseline for the tool-search evaluation: MiniSearch with its default
// settings (fields: name and text; default tokenizer, no prefix, no fuzzy).
//
// usage: node baseline_minisearch.mjs TASKS.json OUT.json
//
// MiniSearch is loaded from $MINISEARCH_PREFIX/node_modules (eval.sh
// installs it there with `npm install --no-save --prefix`), else from the
// project's node_modules. OUT.json maps each query id to the names of its
// top 10 tools, in MiniSearch's order.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const base = process.env.MINISEARCH_PREFIX ? join(resolve(process.env.MINISEARCH_PREFIX), 'x.js') : import.meta.url;
const MiniSearch = createRequire(base)('minisearch');

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
