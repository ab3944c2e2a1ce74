#!/usr/bin/env node
// HTML → Markdown benchmark: the package's convertHtml (wasm, through the
// built pkg/) against turndown (npm, a pinned devDependency, with domino as
// its DOM in Node; scripts, styles, meta and link removed as web-fetching
// agents configure it), side by side in one run.
//
//   throughput   the fixtures in tests/fixtures/html/ and a large page (the
//                fixtures' bodies repeated to about 2 MB): samples
//                interleaved, the order rotating every round, a full GC
//                before each; MB/s of HTML at the median
//   bad inputs   100,000 nested elements, a 50 MB page, one 20 MB line:
//                each converter in a fresh process, time and peak memory
//                (the process's maximum RSS above its RSS once the input is
//                built), or how it failed (a 120 s limit)
//
//   node tests/bench/html.mjs            full run (a few minutes)
//   node tests/bench/html.mjs --quick    short run: checks that it works
//   options: --rounds N --json
//
// Needs pkg/ (node js/build.mjs) and the devDependencies (npm ci).

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const num = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};

// ------------------------------------------------------------ converters
async function converters() {
  const { convertHtml } = await import(join(root, 'pkg', 'web.mjs'));
  const { default: TurndownService } = await import('turndown');
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  td.remove(['script', 'style', 'meta', 'link']);
  return {
    switchboard: (html) => convertHtml(html).content,
    turndown: (html) => td.turndown(html),
  };
}

// ------------------------------------------------------------ bad inputs
const BAD = {
  'nested-100k': (n = quick ? 10_000 : 100_000) => '<div>'.repeat(n) + 'deep' + '</div>'.repeat(n),
  'page-50mb': () => {
    const mb = quick ? 5 : 50;
    const para = '<p>' + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16) + '</p>\n';
    return '<html><body>' + para.repeat(Math.ceil((mb * 1_000_000) / para.length)) + '</body></html>';
  },
  'one-line-20mb': () => '<p>' + 'word '.repeat((quick ? 2 : 20) * 200_000) + '</p>',
};

// a child: build one bad input, convert it once, report time and memory
if (argv[0] === '--child') {
  const [, name, which] = argv;
  const convert = (await converters())[name];
  const input = BAD[which]();
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const t = performance.now();
  let out;
  try {
    out = { ok: true, chars: convert(input).length };
  } catch (e) {
    out = { ok: false, error: `${e.constructor.name}: ${e.message.slice(0, 80)}` };
  }
  out.ms = performance.now() - t;
  out.peakMB = (process.resourceUsage().maxRSS * 1024 - before) / 1048576;
  out.inputMB = input.length / 1e6;
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}

// ------------------------------------------------------------ throughput
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const conv = await converters();
const dir = join(root, 'tests', 'fixtures', 'html');
const pages = readdirSync(dir)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((f) => ({ name: f, html: readFileSync(join(dir, f), 'utf8') }));
const bodies = pages.map((p) => p.html.replace(/^[\s\S]*?<body[^>]*>/i, '').replace(/<\/body>[\s\S]*$/i, '')).join('\n');
const large = '<html><head><title>Large</title></head><body>' + bodies.repeat(Math.ceil((quick ? 200_000 : 2_000_000) / bodies.length)) + '</body></html>';
pages.push({ name: `large (${(large.length / 1e6).toFixed(1)} MB)`, html: large });

const rounds = num('--rounds', quick ? 3 : 30);
const names = Object.keys(conv);
const rows = [];
for (const page of pages) {
  const bytes = Buffer.byteLength(page.html);
  const per = page.html.length > 1e6 ? Math.max(2, Math.round(rounds / 5)) : rounds;
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) conv[n](page.html); // warm-up
  for (let r = 0; r < per; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const n of order) {
      gc();
      const t = performance.now();
      conv[n](page.html);
      times[n].push(performance.now() - t);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const row = { page: page.name, kb: bytes / 1024 };
  for (const n of names) {
    row[`${n}Ms`] = median(times[n]);
    row[`${n}MBs`] = bytes / 1e6 / (row[`${n}Ms`] / 1000);
  }
  row.ratio = row.turndownMs / row.switchboardMs;
  rows.push(row);
}

const bad = [];
for (const which of Object.keys(BAD)) {
  for (const name of names) {
    const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', fileURLToPath(import.meta.url), '--child', name, which, ...(quick ? ['--quick'] : [])], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    let out;
    try {
      out = JSON.parse(r.stdout);
    } catch {
      const why = r.error?.code === 'ETIMEDOUT' ? 'over 120 s' : r.signal ? `killed (${r.signal})` : `exit ${r.status}: ${(r.stderr || '').trim().split('\n').filter(Boolean).slice(-1)[0] ?? ''}`;
      out = { ok: false, error: why.slice(0, 100) };
    }
    bad.push({ input: which, converter: name, ...out });
  }
}

// ------------------------------------------------------------ report
const f = (x, d = 1) => (x === undefined ? '—' : x.toFixed(d));
console.log(`HTML → Markdown, ${rounds} rounds, Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'}${quick ? ' (--quick)' : ''}\n`);
console.log('| page | KB | switchboard ms | MB/s | turndown ms | MB/s | turndown / switchboard |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.page} | ${f(r.kb, 0)} | ${f(r.switchboardMs, 2)} | ${f(r.switchboardMBs)} | ${f(r.turndownMs, 2)} | ${f(r.turndownMBs)} | ${f(r.ratio, 2)}× |`);
console.log('\n| bad input | converter | input MB | time ms | peak memory MB | outcome |');
console.log('|---|---|---:|---:|---:|---|');
for (const b of bad) console.log(`| ${b.input} | ${b.converter} | ${f(b.inputMB)} | ${f(b.ms, 0)} | ${f(b.peakMB, 0)} | ${b.ok ? `ok, ${b.chars} chars out` : b.error} |`);
if (argv.includes('--json')) console.log(JSON.stringify({ rows, bad }));

// the package must convert every input without failing
const failed = bad.filter((b) => b.converter === 'switchboard' && !b.ok);
if (failed.length) {
  console.error(`switchboard failed on: ${failed.map((b) => `${b.input} (${b.error})`).join(', ')}`);
  process.exit(1);
}
