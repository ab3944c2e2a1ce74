#!/usr/bin/env node
// Tool-search latency through the wasm package, side by side with
// MiniSearch (default settings) on the same documents: index build time,
// memory, and p50/p99 query time over 1,000 and 10,000 tools (the GitHub
// catalog repeated with renamed tools). Then the entity index: resolving
// the spoken references of tests/search/home/ in a home of 1,000 things
// (the evaluation's home, its rooms copied), beside MiniSearch over the
// same names with fuzzy and prefix matching on.
// Run: node tests/bench/search.mjs [--quick]
// Memory is measured in a fresh child process per engine and size.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import * as sb from '../../pkg/index.mjs';
import { corpus, root } from '../js/helpers.mjs';

const require = createRequire(import.meta.url);
const MiniSearch = require('minisearch');

const quick = process.argv.includes('--quick');

/** The GitHub catalog repeated to `n` tools, each copy's names suffixed. */
export function catalogOf(n) {
  const base = JSON.parse(readFileSync(join(corpus, 'github-mcp-server.tools-list.json'), 'utf8')).result.tools;
  const tools = [];
  for (let i = 0; tools.length < n; i++) {
    const t = base[i % base.length];
    const copy = Math.floor(i / base.length);
    tools.push(copy === 0 ? t : { ...t, name: `${t.name}_c${copy}` });
  }
  return { tools };
}

/** MiniSearch documents: the same text the harness gives the baselines. */
function miniDocs(catalog) {
  return catalog.tools.map((t, id) => {
    const props = t.inputSchema?.properties ?? {};
    const params = Object.entries(props).map(([k, s]) => `${k} ${s.description ?? ''} ${(s.enum ?? []).join(' ')}`).join(' ');
    return { id, name: t.name.replace(/[_.]/g, ' '), text: `${t.title ?? ''} ${t.description ?? ''} ${params}` };
  });
}

const queries = JSON.parse(readFileSync(join(root, 'tests/search/github-queries.json'), 'utf8')).queries.map((q) => q.text);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** Build time (median of `builds`) and per-query latencies for one engine. */
function measure(name, build, search, n, builds) {
  const times = [];
  let index;
  for (let b = 0; b < builds; b++) {
    const t0 = performance.now();
    index = build();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const rounds = quick ? 2 : 20;
  for (let w = 0; w < 3; w++) for (const q of queries) search(index, q);
  const lat = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const t0 = performance.now();
      search(index, q);
      lat.push((performance.now() - t0) * 1000);
    }
  }
  lat.sort((a, b) => a - b);
  return { name, n, build: times[Math.floor(times.length / 2)], p50: percentile(lat, 50), p99: percentile(lat, 99), queries: lat.length };
}

/** Child-process mode: resident memory added by building one index. */
function memoryChild(engine, n) {
  const catalog = catalogOf(n);
  const text = JSON.stringify(catalog);
  const docs = miniDocs(catalog);
  global.gc?.();
  const before = process.memoryUsage();
  let keep;
  if (engine === 'ours') keep = new sb.ToolIndex(text);
  else {
    keep = new MiniSearch({ fields: ['name', 'text'] });
    keep.addAll(docs);
  }
  global.gc?.();
  const after = process.memoryUsage();
  const out = { rss: after.rss - before.rss, heap: after.heapUsed - before.heapUsed, external: after.external + after.arrayBuffers - before.external - before.arrayBuffers, keep: !!keep };
  process.stdout.write(JSON.stringify(out));
}

if (process.argv[2] === '--memory') {
  memoryChild(process.argv[3], Number(process.argv[4]));
} else {
  const sizes = quick ? [1000] : [1000, 10000];
  const rows = [];
  for (const n of sizes) {
    const catalog = catalogOf(n);
    const text = JSON.stringify(catalog);
    const docs = miniDocs(catalog);
    const builds = quick ? 1 : n > 5000 ? 3 : 7;
    rows.push(measure('mcp-switchboard ToolIndex (wasm)', () => new sb.ToolIndex(text), (i, q) => i.search(q, { limit: 5 }), n, builds));
    rows.push(measure('MiniSearch 7.2 (defaults)', () => {
      const ms = new MiniSearch({ fields: ['name', 'text'] });
      ms.addAll(docs);
      return ms;
    }, (i, q) => i.search(q).slice(0, 5), n, builds));
    for (const r of rows.slice(-2)) {
      const engine = r.name.startsWith('mcp') ? 'ours' : 'minisearch';
      const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--memory', engine, String(n)], { encoding: 'utf8' });
      try {
        const m = JSON.parse(child.stdout);
        r.memory = engine === 'ours' ? m.external + m.heap : m.heap + m.external;
        r.rss = m.rss;
      } catch {
        r.memory = NaN;
      }
    }
  }
  console.log(`Tool search, ${queries.length} GitHub queries (tests/search/github-queries.json), top 5; build includes reading the catalog.\n`);
  console.log('| engine | tools | build ms | query p50 µs | query p99 µs | index memory MB | queries timed |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.n.toLocaleString('en-US')} | ${r.build.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.memory / 1048576).toFixed(1)} | ${r.queries} |`);
  }
}

/** The evaluation's home grown to at least `n` things: its rooms (the
 * zones without zones inside) copied with their devices and moods, each
 * copy's zone names numbered. */
export function homeOf(n) {
  const home = JSON.parse(readFileSync(join(root, 'tests/search/home/home.json'), 'utf8'));
  const parents = new Set(home.zones.map((z) => z.parent).filter(Boolean));
  const rooms = home.zones.filter((z) => !parents.has(z.id));
  const out = { zones: [...home.zones], devices: [...home.devices], flows: [...home.flows], moods: [...home.moods] };
  const size = () => out.zones.length + out.devices.length + out.flows.length + out.moods.length;
  for (let copy = 2; size() < n; copy++) {
    for (const room of rooms) {
      if (size() >= n) break;
      const id = `${room.id}-${copy}`;
      out.zones.push({ ...room, id, name: `${room.name} ${copy}` });
      for (const d of home.devices.filter((x) => x.zone === room.id)) out.devices.push({ ...d, id: `${d.id}-${copy}`, zone: id });
      for (const m of home.moods.filter((x) => x.zone === room.id)) out.moods.push({ ...m, id: `${m.id}-${copy}`, zone: id });
    }
  }
  return out;
}

if (process.argv[2] !== '--memory') {
  const home = homeOf(1000);
  const things = home.zones.length + home.devices.length + home.flows.length + home.moods.length;
  const refs = JSON.parse(readFileSync(join(root, 'tests/search/home/references.json'), 'utf8')).references.map((r) => r.text);
  const zoneName = Object.fromEntries(home.zones.map((z) => [z.id, z.name]));
  const named = [...home.zones, ...home.devices, ...home.flows, ...home.moods].map((t, id) => ({ id, name: t.name, zone: zoneName[t.zone ?? t.parent] ?? '' }));
  const timed = (build, resolve) => {
    const t0 = performance.now();
    const index = build();
    const buildMs = performance.now() - t0;
    for (let w = 0; w < 3; w++) for (const q of refs) resolve(index, q);
    const lat = [];
    for (let r = 0; r < (quick ? 3 : 30); r++) {
      for (const q of refs) {
        const t1 = performance.now();
        resolve(index, q);
        lat.push((performance.now() - t1) * 1000);
      }
    }
    lat.sort((a, b) => a - b);
    return { build: buildMs, p50: percentile(lat, 50), p99: percentile(lat, 99), n: lat.length };
  };
  const ours = timed(() => new sb.EntityIndex(home), (i, q) => i.resolve(q, { limit: 5 }));
  const mini = timed(() => {
    const ms = new MiniSearch({ fields: ['name', 'zone'], searchOptions: { fuzzy: 0.2, prefix: true, boost: { name: 2 } } });
    ms.addAll(named);
    return ms;
  }, (i, q) => i.search(q).slice(0, 5));
  console.log(`\nEntity resolution, ${refs.length} spoken references (tests/search/home/references.json) in a home of ${things.toLocaleString('en-US')} things, top 5.\n`);
  console.log('| engine | build ms | resolve p50 µs | resolve p99 µs | references timed |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| mcp-switchboard EntityIndex (wasm) | ${ours.build.toFixed(1)} | ${ours.p50.toFixed(1)} | ${ours.p99.toFixed(1)} | ${ours.n} |`);
  console.log(`| MiniSearch 7.2 (names and zones, fuzzy 0.2, prefix) | ${mini.build.toFixed(1)} | ${mini.p50.toFixed(1)} | ${mini.p99.toFixed(1)} | ${mini.n} |`);
}
