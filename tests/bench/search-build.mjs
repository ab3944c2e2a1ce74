#!/usr/bin/env node
// The search index build at 1,000 tools (the GitHub catalog repeated with
// renamed copies, as in search.mjs), side by side: one or more builds of
// the package and MiniSearch (default settings, the same documents as
// search.mjs) in the same rounds, the order rotating, a full GC before
// each sample. Each build's rankings for the 50 GitHub queries are checked
// identical to the first build's before any timing. Reports wall time and
// the process's CPU time per build (user + system: on a machine shared
// with other jobs, the CPU time is close to what the build takes on an
// idle core), with the load average before and after. Then the 50
// queries' latency (top 5) on each build's index, the builds alternating
// query by query, p50 and p99.
//
//   node --expose-gc tests/bench/search-build.mjs [PKG_DIR ...] [--rounds N] [--tools N]
//   (no PKG_DIR: the repository's pkg/)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

import { corpus, root, takeOption } from '../js/helpers.mjs';

const require = createRequire(import.meta.url);
const MiniSearch = require('minisearch');

const argv = process.argv.slice(2);
const opt = (name, dflt) => takeOption(argv, name, dflt);
const ROUNDS = Number(opt('--rounds', '30'));
const TOOLS = Number(opt('--tools', '1000'));
const dirs = (argv.length ? argv : [join(root, 'pkg')]).map((d) => resolve(d));

const builds = [];
for (const dir of dirs) {
  const api = await import(pathToFileURL(join(dir, 'slim.mjs')).href);
  api.initSync(readFileSync(join(dir, 'mcp_switchboard_bg.wasm')));
  builds.push({ name: dir, api });
}

const base = JSON.parse(readFileSync(join(corpus, 'github-mcp-server.tools-list.json'), 'utf8')).result.tools;
const tools = [];
for (let i = 0; tools.length < TOOLS; i++) {
  const t = base[i % base.length];
  const copy = Math.floor(i / base.length);
  tools.push(copy === 0 ? t : { ...t, name: `${t.name}_c${copy}` });
}
const text = JSON.stringify({ tools });
// MiniSearch's documents: as in search.mjs
const docs = tools.map((t, id) => {
  const props = t.inputSchema?.properties ?? {};
  const params = Object.entries(props).map(([k, s]) => `${k} ${s.description ?? ''} ${(s.enum ?? []).join(' ')}`).join(' ');
  return { id, name: t.name.replace(/[_.]/g, ' '), text: `${t.title ?? ''} ${t.description ?? ''} ${params}` };
});
const queries = JSON.parse(readFileSync(join(root, 'tests/search/github-queries.json'), 'utf8')).queries.map((q) => q.text);

// the same rankings (names and scores) from every build
const rankings = (b) => {
  const index = new b.api.ToolIndex(text);
  const out = JSON.stringify(queries.map((q) => index.search(q, { limit: 10 })));
  index.free();
  return out;
};
const first = rankings(builds[0]);
for (const b of builds.slice(1)) {
  if (rankings(b) !== first) throw new Error(`${b.name} ranks differently from ${builds[0].name}`);
}

const contenders = [
  ...builds.map((b) => ({ name: b.name, run: () => new b.api.ToolIndex(text), free: (x) => x.free() })),
  {
    name: 'MiniSearch 7.2 (defaults)',
    run: () => {
      const ms = new MiniSearch({ fields: ['name', 'text'] });
      ms.addAll(docs);
      return ms;
    },
    free: () => {},
  },
];
const wall = contenders.map(() => []);
const cpu = contenders.map(() => []);
const load = loadavg()[0];
const warm = Math.max(3, Math.floor(ROUNDS / 5));
for (let r = 0; r < ROUNDS + warm; r++) {
  for (let k = 0; k < contenders.length; k++) {
    const i = (k + r) % contenders.length;
    global.gc?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const x = contenders[i].run();
    const dt = performance.now() - t0;
    const dc = process.cpuUsage(c0);
    contenders[i].free(x);
    if (r >= warm) {
      wall[i].push(dt);
      cpu[i].push((dc.user + dc.system) / 1000);
    }
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const mini = contenders.length - 1;
console.log(`Index build at ${TOOLS.toLocaleString('en-US')} tools, ${ROUNDS} interleaved rounds (${warm} warm-up), rankings identical; load average ${load.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after.\n`);
console.log('| build | wall median ms | wall min ms | CPU median ms | CPU min ms | × first (wall) | × MiniSearch (wall) | × MiniSearch (CPU) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
contenders.forEach((c, i) => {
  const cells = [
    c.name,
    median(wall[i]).toFixed(1),
    Math.min(...wall[i]).toFixed(1),
    median(cpu[i]).toFixed(1),
    Math.min(...cpu[i]).toFixed(1),
    (median(wall[i]) / median(wall[0])).toFixed(3),
    (median(wall[i]) / median(wall[mini])).toFixed(2),
    (median(cpu[i]) / median(cpu[mini])).toFixed(2),
  ];
  console.log(`| ${cells.join(' | ')} |`);
});

// query latency: every build's index, the builds alternating query by query
const indexes = builds.map((b) => new b.api.ToolIndex(text));
const lat = builds.map(() => []);
for (let r = 0; r < ROUNDS + warm; r++) {
  for (const q of queries) {
    for (let k = 0; k < builds.length; k++) {
      const i = (k + r) % builds.length;
      const t0 = performance.now();
      indexes[i].search(q, { limit: 5 });
      const dt = (performance.now() - t0) * 1000;
      if (r >= warm) lat[i].push(dt);
    }
  }
}
const pct = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor((a.length * p) / 100))];
console.log(`\nQueries: ${queries.length} GitHub queries × ${ROUNDS} rounds per build, top 5; load average ${loadavg()[0].toFixed(1)}.\n`);
console.log('| build | p50 µs | p99 µs | × first (p50) |');
console.log('|---|---:|---:|---:|');
builds.forEach((b, i) => {
  console.log(`| ${b.name} | ${pct(lat[i], 50).toFixed(1)} | ${pct(lat[i], 99).toFixed(1)} | ${(pct(lat[i], 50) / pct(lat[0], 50)).toFixed(3)} |`);
});
for (const x of indexes) x.free();
