#!/usr/bin/env node
// Conversion benchmark: the GitHub MCP server catalog ×4 (456 tools) as
// one tools/list JSON string, converted to Gemini `parameters` (JSON string
// in, JSON string out), side by side in one process:
//
//   floor        JSON.stringify(JSON.parse(payload)): no converter is faster
//   switchboard  convertJson(payload, 'gemini', false) from the built pkg/
//   peers        JS converters from npm (devDependencies), each used the way
//                its SDK uses it, with JSON.parse / JSON.stringify around it
//
// Samples are interleaved (one of each per round, the order rotating every
// round) so that every contender shares the machine's noise; a full GC runs
// before each sample, outside the timed region. Also measured: the cold load
// of the wasm package (fresh processes) and the size of its .wasm.
//
//   node tests/bench/convert.mjs            full run (about a minute)
//   node tests/bench/convert.mjs --quick    short run: checks that it works
//   options: --rounds N --warmup N --cold N --json (results as JSON on stdout too)
//
// Needs pkg/ (node js/build.mjs) and the devDependencies (npm ci), and the
// corpus in ../shared/corpus beside the repository.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isDeepStrictEqual } from 'node:util';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpusFile = join(root, '..', 'shared', 'corpus', 'github-mcp-server.tools-list.json');
const wasmFile = join(root, 'pkg', 'mcp_switchboard_bg.wasm');
const pkgEntry = join(root, 'pkg', 'index.mjs');

// ---------------------------------------------------------------- options
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const num = (name, dflt) => {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) fail(`${name} needs a positive integer`);
  return n;
};
const quick = flag('--quick');
const ROUNDS = num('--rounds', quick ? 5 : 150);
const WARMUP = num('--warmup', quick ? 2 : 25);
const COLD = num('--cold', quick ? 2 : 11);
// ×4 (456 tools): a Gemini request holds at most 512 declarations; past it the conversion discloses
const COPIES = 4;

/** The 1-minute load average: other work on the machine skews the numbers. */
function loadavg() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  } catch {
    return '?';
  }
}

function fail(msg) {
  console.error(`convert.mjs: ${msg}`);
  process.exit(1);
}

// ---------------------------------------------------------------- inputs
if (!existsSync(corpusFile)) fail(`corpus not found: ${corpusFile} (../shared/corpus beside the repository)`);
if (!existsSync(pkgEntry)) fail('pkg/ is not built: node js/build.mjs');

/** The catalog ×COPIES as one tools/list response; copies renamed `<name>_c<i>`. */
function buildPayload() {
  const doc = JSON.parse(readFileSync(corpusFile, 'utf8'));
  const tools = doc.result.tools;
  const all = [];
  for (let c = 0; c < COPIES; c++) {
    for (const t of tools) all.push(c === 0 ? t : { ...t, name: `${t.name}_c${c}` });
  }
  return { text: JSON.stringify({ ...doc, result: { ...doc.result, tools: all } }), count: all.length };
}
const payload = buildPayload();

function pkgVersion(name) {
  const file = join(root, 'node_modules', ...name.split('/'), 'package.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')).version;
  } catch {
    return null;
  }
}

async function importPeer(name) {
  try {
    return await import(name);
  } catch (e) {
    fail(`cannot import ${name} (${e.code || e.message}): run npm ci`);
  }
}

// ---------------------------------------------------------------- contenders
const sb = await import(pathToFileURL(pkgEntry).href);
const { google } = await importPeer('@ai-sdk/google');
const { GoogleGenAI } = await importPeer('@google/genai');

// @ai-sdk/google: convertJSONSchemaToOpenAPISchema is not exported; it runs in
// prepareTools() inside the language model's getArgs(), which builds the
// request body. getArgs is what doGenerate/doStream call before fetch.
const aiSdkModel = google('gemini-2.5-flash');
if (typeof aiSdkModel.getArgs !== 'function') fail('@ai-sdk/google: the language model has no getArgs() (a different major?)');

// @google/genai: processJsonSchema is not exported; models.generateContent()
// runs it (tTool) on every functionDeclarations[].parameters, then
// JSON.stringify()s the request body. The HTTP request is stubbed: the body
// string it would send is the output.
const genai = new GoogleGenAI({ apiKey: 'benchmark-no-network' });
let genaiBody = null;
if (!genai.models.apiClient || typeof genai.models.apiClient.request !== 'function') fail('@google/genai: models.apiClient.request not found (a different major?)');
genai.models.apiClient.request = async (req) => {
  genaiBody = req.body;
  return { headers: {}, json: async () => ({}) };
};

const contenders = [
  {
    id: 'floor',
    label: 'floor: `JSON.stringify(JSON.parse(s))`',
    version: `node ${process.version}`,
    run: (s) => JSON.stringify(JSON.parse(s)),
  },
  {
    id: 'switchboard',
    label: 'mcp-switchboard `convertJson(s, "gemini", false)` (wasm)',
    version: sb.version(),
    run: (s) => sb.convertJson(s, 'gemini', false),
  },
  {
    id: 'ai-sdk',
    module: '@ai-sdk/google',
    label: '@ai-sdk/google `convertJSONSchemaToOpenAPISchema` (via `getArgs`)',
    version: pkgVersion('@ai-sdk/google'),
    run: async (s) => {
      const tools = JSON.parse(s).result.tools.map((t) => ({
        type: 'function',
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
      }));
      const { args } = await aiSdkModel.getArgs({ prompt: [], tools });
      return JSON.stringify(args.tools);
    },
  },
  {
    id: 'genai',
    module: '@google/genai',
    label: '@google/genai `processJsonSchema` (via `models.generateContent`)',
    version: pkgVersion('@google/genai'),
    run: async (s) => {
      const functionDeclarations = JSON.parse(s).result.tools.map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
      }));
      genaiBody = null;
      await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x', config: { tools: [{ functionDeclarations }] } });
      return genaiBody;
    },
  },
];
const switchboardRun = () => contenders[1].run(payload.text);
const peers = contenders.filter((c) => c.id !== 'floor' && c.id !== 'switchboard');

// ---------------------------------------------------------------- sanity check
/** Every output must be JSON holding one Gemini declaration per tool. */
function declarations(id, out) {
  const v = JSON.parse(out);
  if (id === 'floor') return v.result.tools;
  if (id === 'switchboard') return v.tools[0].functionDeclarations;
  if (id === 'ai-sdk') return v[0].functionDeclarations;
  return v.tools[0].functionDeclarations;
}
for (const c of contenders) {
  const out = await c.run(payload.text);
  if (typeof out !== 'string') fail(`${c.id}: output is not a string`);
  const decls = declarations(c.id, out);
  if (decls.length !== payload.count) fail(`${c.id}: ${decls.length} declarations for ${payload.count} tools`);
  if (c.id !== 'floor' && !decls.every((d) => typeof d.name === 'string')) fail(`${c.id}: a declaration has no name`);
  c.outBytes = Buffer.byteLength(out);
}
// the text convertJson writes (ASCII: characters past it as \u escapes)
// reads as what convert() gives
if (!isDeepStrictEqual(JSON.parse(await switchboardRun()), sb.convert(payload.text, { to: 'gemini' }))) fail('switchboard: convertJson and convert disagree');

// ---------------------------------------------------------------- timing
const loadBefore = loadavg();
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const now = () => performance.now();

async function sample(c) {
  gc();
  const t0 = now();
  const out = c.run(payload.text);
  if (out instanceof Promise) await out;
  return now() - t0;
}

for (let i = 0; i < WARMUP; i++) for (const c of contenders) await sample(c);
for (const c of contenders) c.samples = [];
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < contenders.length; k++) {
    const c = contenders[(r + k) % contenders.length];
    c.samples.push(await sample(c));
  }
}

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
for (const c of contenders) {
  c.median = quantile(c.samples, 0.5);
  c.p90 = quantile(c.samples, 0.9);
  c.min = Math.min(...c.samples);
}
const floor = contenders[0];
const switchboard = contenders[1];
const fastestPeer = peers.reduce((a, b) => (b.median < a.median ? b : a));

// ---------------------------------------------------------------- cold load and size
// Fresh processes, in rotating order: one that imports only node:fs (the
// baseline), one that also imports pkg/index.mjs, and one per peer package.
// Timed from spawn to exit (wall), and inside the child around the import()
// alone (less noisy).
function coldLoad(spec) {
  const code = `import 'node:fs'; const t = performance.now(); await import(${JSON.stringify(spec)}); process.stdout.write(String(performance.now() - t));`;
  const t0 = now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const wall = now() - t0;
  if (r.status !== 0) fail(`cold-load child failed: ${r.stderr}`);
  return { wall, importMs: Number(r.stdout) };
}
const coldSpecs = { baseline: 'node:fs', wasm: pathToFileURL(pkgEntry).href };
for (const p of peers) coldSpecs[p.id] = p.module;
const cold = Object.fromEntries(Object.keys(coldSpecs).map((k) => [k, []]));
coldLoad(coldSpecs.baseline); // warm the file cache
coldLoad(coldSpecs.wasm);
for (let i = 0; i < COLD; i++) {
  const keys = Object.keys(coldSpecs);
  for (let j = 0; j < keys.length; j++) {
    const k = keys[(i + j) % keys.length];
    cold[k].push(coldLoad(coldSpecs[k]));
  }
}
const coldBaseline = quantile(cold.baseline.map((x) => x.wall), 0.5);
const coldWasm = quantile(cold.wasm.map((x) => x.wall), 0.5);
const coldImport = quantile(cold.wasm.map((x) => x.importMs), 0.5);
const wasmBytes = readFileSync(wasmFile);
const wasmGzip = gzipSync(wasmBytes, { level: 9 }).length;

// ---------------------------------------------------------------- report
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const sign = (x) => (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(1);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const cpu = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)[1];
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
})();

const lines = [];
lines.push(`Conversion: GitHub catalog ×${COPIES} to Gemini (${payload.count.toLocaleString('en-US')} tools, ${kib(Buffer.byteLength(payload.text))} of JSON in)`);
lines.push(`node ${process.version}, ${cpu} ×${cpus().length}; ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; load average ${loadBefore} before, ${loadavg()} after${quick ? ' (--quick: numbers are not meaningful)' : ''}`);
lines.push('');
lines.push('| converter | version | median ms | p90 ms | min ms | median × floor | JSON out |');
lines.push('|---|---|---:|---:|---:|---:|---:|');
for (const c of contenders) {
  const mark = c === fastestPeer ? ' (fastest peer)' : '';
  lines.push(`| ${c.label}${mark} | ${c.version} | ${f1(c.median)} | ${f1(c.p90)} | ${f1(c.min)} | ${f2(c.median / floor.median)} | ${kib(c.outBytes)} |`);
}
lines.push('');
lines.push(`| wasm package | value |`);
lines.push('|---|---:|');
lines.push(`| \`pkg/mcp_switchboard_bg.wasm\` raw | ${wasmBytes.length.toLocaleString('en-US')} B (${kib(wasmBytes.length)}) |`);
lines.push(`| same, gzip -9 | ${wasmGzip.toLocaleString('en-US')} B (${kib(wasmGzip)}) |`);
lines.push(`| cold \`node\` importing \`node:fs\` only (median of ${COLD}) | ${f1(coldBaseline)} ms |`);
lines.push(`| cold \`node\` importing \`pkg/index.mjs\` too (median of ${COLD}) | ${f1(coldWasm)} ms (${sign(coldWasm - coldBaseline)} ms) |`);
lines.push(`| \`await import('pkg/index.mjs')\` alone, timed in those processes (median) | ${f1(coldImport)} ms |`);
for (const p of peers) lines.push(`| for comparison: \`await import('${p.module}')\` alone (median of ${COLD}) | ${f1(quantile(cold[p.id].map((x) => x.importMs), 0.5))} ms |`);
lines.push('');
const vsFloor = switchboard.median / floor.median;
const vsPeer = fastestPeer.median / switchboard.median;
lines.push(
  `Summary: mcp-switchboard ${f1(switchboard.median)} ms = ${f2(vsFloor)}× the floor (target ≤ 2×: ${vsFloor <= 2 ? 'met' : 'missed'}); ` +
    `fastest peer ${fastestPeer.id} ${fastestPeer.version} ${f1(fastestPeer.median)} ms, ` +
    (vsPeer >= 1 ? `switchboard ${f2(vsPeer)}× faster` : `switchboard ${f2(1 / vsPeer)}× slower`) +
    ` (target faster than the peer: ${vsPeer > 1 ? 'met' : 'missed'}); wasm ${kib(wasmGzip)} gzipped, cold import ${f1(coldImport)} ms.`,
);
console.log(lines.join('\n'));

if (flag('--json')) {
  const result = {
    node: process.version,
    cpu,
    tools: payload.count,
    rounds: ROUNDS,
    contenders: contenders.map(({ id, version, median, p90, min, outBytes, samples }) => ({ id, version, median, p90, min, outBytes, samples })),
    wasm: { raw: wasmBytes.length, gzip9: wasmGzip },
    cold,
  };
  console.log(JSON.stringify(result));
}
