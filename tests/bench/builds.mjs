#!/usr/bin/env node
// Two or more builds of the package side by side in one Node process: the
// conversion (GitHub catalog ×10 to Gemini, as in convert.mjs), the search
// index build (1,000 GitHub tools, as in search.mjs) and validation (the
// Homey argument shapes, as in validate.mjs), each build's outputs checked
// identical to the first build's before any timing, then rounds in which
// every build runs once, the order rotating, with the floor
// JSON.stringify(JSON.parse(s)) in the same rounds. For choosing a build
// profile or checking that a change is faster without changing results.
//
//   node tests/bench/builds.mjs DIR [DIR ...]     each DIR a built pkg/ (node js/build.mjs, then copy it)
//   options: --rounds N (default 40)  --only convert|search|validate
//            --catalog FILE  the conversion's catalog ×10 (a file of the corpus, or a path; default the GitHub server's)
//            --to DIALECT    the conversion's dialect (default gemini)
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { corpus, root, takeOption } from '../js/helpers.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => takeOption(argv, name, dflt);
const ROUNDS = Number(opt('--rounds', '40'));
const only = opt('--only', '');
const catalogFile = opt('--catalog', 'github-mcp-server.tools-list.json');
const to = opt('--to', 'gemini');
const dirs = argv.map((d) => resolve(d));
if (dirs.length < 1) {
  console.error('usage: node tests/bench/builds.mjs PKG_DIR [PKG_DIR ...] [--rounds N] [--only convert|search|validate]');
  process.exit(1);
}

const builds = [];
for (const dir of dirs) {
  const api = await import(pathToFileURL(join(dir, 'slim.mjs')).href);
  const bytes = readFileSync(join(dir, 'mcp_switchboard_bg.wasm'));
  api.initSync(bytes);
  builds.push({ dir, api, raw: bytes.length, gz: gzipSync(bytes, { level: 9 }).length });
}

// inputs
const gh = JSON.parse(readFileSync(join(corpus, 'github-mcp-server.tools-list.json'), 'utf8'));
const converted = JSON.parse(readFileSync(resolve(corpus, catalogFile), 'utf8'));
const convertTools = converted.result?.tools ?? converted.tools;
const all = [];
for (let c = 0; c < 10; c++) for (const t of convertTools) all.push(c === 0 ? t : { ...t, name: `${t.name}_c${c}` });
const convertText = JSON.stringify(converted.result ? { ...converted, result: { ...converted.result, tools: all } } : { ...converted, tools: all });
const searchTools = [];
for (let i = 0; searchTools.length < 1000; i++) {
  const t = gh.result.tools[i % gh.result.tools.length];
  const copy = Math.floor(i / gh.result.tools.length);
  searchTools.push(copy === 0 ? t : { ...t, name: `${t.name}_c${copy}` });
}
const searchText = JSON.stringify({ tools: searchTools });
const queries = JSON.parse(readFileSync(join(root, 'tests/search/github-queries.json'), 'utf8')).queries.map((q) => q.text);
const homey = readFileSync(join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json'));
const homeyTools = JSON.parse(homey).result.tools;
const cases = homeyTools.flatMap((t) => {
  const props = t.inputSchema.properties ?? {};
  const valid = {};
  const loose = {};
  for (const [k, s] of Object.entries(props)) {
    const v = s.enum ? s.enum[0] : s.type === 'number' ? 42 : s.type === 'boolean' ? true : s.type === 'array' ? ['a', 'b'] : s.type === 'object' ? { x: 1 } : 'abc123';
    valid[k] = v;
    loose[k] = s.type === 'number' ? '42' : s.type === 'boolean' ? 'true' : v;
  }
  const invalid = { ...valid, unexpected: 1 };
  for (const [k, s] of Object.entries(props)) {
    if (s.enum) invalid[k] = 'not-a-choice';
    else if (s.type === 'number') invalid[k] = 'many';
  }
  return [valid, loose, invalid].map((args) => ({ tool: t.name, args }));
});
for (const b of builds) b.validator = new b.api.Validator(homey);

const tasks = {
  convert: { floor: () => JSON.stringify(JSON.parse(convertText)), run: (b) => b.api.convertJson(convertText, to, false), unit: 'ms' },
  search: {
    run: (b) => {
      const index = new b.api.ToolIndex(searchText);
      const out = queries.map((q) => index.search(q, { limit: 5 }));
      index.free();
      return out;
    },
    time: (b) => {
      const t0 = performance.now();
      const index = new b.api.ToolIndex(searchText);
      const dt = performance.now() - t0;
      index.free();
      return dt;
    },
    unit: 'ms',
  },
  validate: {
    floor: () => cases.map((c) => JSON.parse(JSON.stringify(c.args))),
    run: (b) => cases.map((c) => b.validator.validate(c.tool, c.args)),
    unit: 'µs per call',
    per: cases.length,
  },
};

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const time = (f) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

console.log(`| build | wasm raw | gzip -9 |\n|---|---:|---:|`);
for (const b of builds) console.log(`| ${b.dir} | ${b.raw.toLocaleString('en-US')} B | ${b.gz.toLocaleString('en-US')} B (${(b.gz / 1024).toFixed(1)} KiB) |`);
for (const [name, task] of Object.entries(tasks)) {
  if (only && only !== name) continue;
  // outputs first: every build's equal to the first build's
  // outputs compared as values: text may differ in its escapes (since
  // a84357a convertJson writes ASCII)
  const same = (out) => JSON.stringify(name === 'convert' ? JSON.parse(out) : out);
  const first = same(task.run(builds[0]));
  for (const b of builds.slice(1)) {
    if (same(task.run(b)) !== first) throw new Error(`${name}: ${b.dir} gives a different output from ${builds[0].dir}`);
  }
  const contenders = [...(task.floor ? [{ dir: 'floor', t: () => time(task.floor) }] : []), ...builds.map((b) => ({ dir: b.dir, t: () => (task.time ? task.time(b) : time(() => task.run(b))) }))];
  const samples = contenders.map(() => []);
  const warm = Math.max(3, Math.floor(ROUNDS / 5));
  for (let r = 0; r < ROUNDS + warm; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (k + r) % contenders.length;
      global.gc?.();
      const dt = contenders[i].t();
      if (r >= warm) samples[i].push(dt);
    }
  }
  const scale = task.per ? 1000 / task.per : 1;
  const base = median(samples[task.floor ? 1 : 0]);
  console.log(`\n${name}${name === 'convert' ? ` ${catalogFile} ×10 to ${to}` : ''} (${task.unit}; ${ROUNDS} interleaved rounds, identical outputs)\n\n| build | median | min | × first build |${task.floor ? ' × floor |' : ''}\n|---|---:|---:|---:|${task.floor ? '---:|' : ''}`);
  const floorMed = task.floor ? median(samples[0]) : 0;
  contenders.forEach((c, i) => {
    const m = median(samples[i]);
    const cells = [c.dir, (m * scale).toFixed(2), (Math.min(...samples[i]) * scale).toFixed(2), (m / base).toFixed(3)];
    if (task.floor) cells.push((m / floorMed).toFixed(2));
    console.log(`| ${cells.join(' | ')} |`);
  });
}
