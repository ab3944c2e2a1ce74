#!/usr/bin/env node
// The playground's weight and time to interactive, beside a floor: a page
// that only loads the package's module (init()) from the same server.
//
// Sizes: each file of pkg/playground/ as served (bytes), gzip -9 and
// brotli; what the first visit loads (the page, the module, the catalog
// list and the first catalog) and the whole folder; the page's own code
// (its modules bundled without the package) beside React + ReactDOM bundled
// the same way (what a UI library would add); and what the folder adds to
// the npm package (npm pack --dry-run of pkg/ with and without it).
// Time: headless Chromium (Debian's), a fresh context per run (no cache),
// the floor page and the playground alternating: DOMContentLoaded, ready
// (module loaded, panels laid out, first catalog read), and done (every
// panel filled: conversions, tokens chart).
//
//   node tests/bench/playground.mjs [--runs N] [--quick]   (default 15 runs; --quick: 1, for make test)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import { chromium } from 'playwright-core';

import { root, takeOption } from '../js/helpers.mjs';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const runs = quick ? 1 : Number(takeOption(argv, '--runs', '15'));
const dir = join(root, 'pkg/playground');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const load = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
};

// sizes
const files = readdirSync(dir, { recursive: true }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
const index = JSON.parse(readFileSync(join(dir, 'catalogs/index.json'), 'utf8'));
const first = new Set(['index.html', 'style.css', 'app.js', 'mcp_switchboard_full_bg.wasm', 'catalogs/index.json', index[0]?.file]);
const rows = [];
const sum = { all: [0, 0, 0], first: [0, 0, 0] };
for (const f of files) {
  const body = readFileSync(f);
  const name = relative(dir, f);
  const r = [body.length, gz(body), br(body)];
  rows.push([name, ...r]);
  for (let i = 0; i < 3; i++) {
    sum.all[i] += r[i];
    if (first.has(name)) sum.first[i] += r[i];
  }
}
console.log('| file | bytes | gzip -9 | brotli 11 |\n|---|---:|---:|---:|');
for (const [name, ...r] of rows.sort((a, b) => b[1] - a[1])) console.log(`| ${name} | ${r[0].toLocaleString('en')} | ${kb(r[1])} | ${kb(r[2])} |`);
console.log(`| **first visit** (${[...first].join(', ')}) | ${sum.first[0].toLocaleString('en')} | ${kb(sum.first[1])} | ${kb(sum.first[2])} |`);
console.log(`| **whole folder** | ${sum.all[0].toLocaleString('en')} | ${kb(sum.all[1])} | ${kb(sum.all[2])} |\n`);

// the page's own code, and a UI library, bundled alike
const { build } = await import(pathToFileURL(join(root, 'node_modules/esbuild/lib/main.js')).href);
const bundle = async (options) => {
  const out = await build({ bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, logLevel: 'silent', legalComments: 'none', ...options });
  return Buffer.from(out.outputFiles[0].contents);
};
const own = await bundle({
  entryPoints: [join(root, 'js/playground/main.mjs')],
  plugins: [{ name: 'package-apart', setup: (b) => b.onResolve({ filter: /pkg\/slim\.mjs$/ }, (a) => ({ path: a.path, external: true })) }],
});
console.log(`page's own code (js/playground/, minified): ${own.length.toLocaleString('en')} B, ${kb(gz(own))} gzip`);
try {
  const react = await bundle({
    stdin: { contents: "import { createRoot } from 'react-dom/client'; import { createElement } from 'react'; createRoot(document.body).render(createElement('p'));", resolveDir: root },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const version = JSON.parse(readFileSync(join(root, 'node_modules/react-dom/package.json'), 'utf8')).version;
  console.log(`React + ReactDOM ${version} (createRoot, minified, production): ${react.length.toLocaleString('en')} B, ${kb(gz(react))} gzip`);
} catch (e) {
  console.log(`React + ReactDOM: not measured (${e.message.split('\n')[0]})`);
}

// what the folder adds to the npm package
const packed = (cwd) => JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))[0];
const without = mkdtempSync(join(tmpdir(), 'pkg-without-playground-'));
try {
  cpSync(join(root, 'pkg'), without, { recursive: true, filter: (f) => !relative(join(root, 'pkg'), f).startsWith('playground') });
  const [w, wo] = [packed(join(root, 'pkg')), packed(without)];
  console.log(`npm package: ${kb(w.size)} packed, ${kb(w.unpackedSize)} unpacked, ${w.entryCount} files; without playground/: ${kb(wo.size)}, ${kb(wo.unpackedSize)}, ${wo.entryCount} (+${kb(w.size - wo.size)} packed, +${(100 * (w.size / wo.size - 1)).toFixed(0)}%)\n`);
} finally {
  rmSync(without, { recursive: true, force: true });
}

// the floor page: the package's module loaded, nothing else
const floor = mkdtempSync(join(tmpdir(), 'playground-floor-'));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const [base, rest] = path.startsWith('/floor/') ? [floor, path.slice(7)] : [dir, path.slice(1)];
  try {
    const body = readFileSync(join(base, rest || 'index.html'));
    res.writeHead(200, { 'content-type': TYPES[extname(rest || 'index.html')] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
try {
  writeFileSync(join(floor, 'main.mjs'), `import { init } from ${JSON.stringify(join(root, 'pkg/full/slim.mjs'))};\nawait init(new URL('mcp_switchboard_full_bg.wasm', import.meta.url));\ndocument.body.dataset.ready = 'true';\n`);
  writeFileSync(join(floor, 'app.js'), await bundle({ entryPoints: [join(floor, 'main.mjs')] }));
  writeFileSync(join(floor, 'index.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><title>floor</title><script type="module" src="app.js"></script><body></body></html>');
  cpSync(join(dir, 'mcp_switchboard_full_bg.wasm'), join(floor, 'mcp_switchboard_full_bg.wasm'));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const before = load();
  const times = { floor: [], dcl: [], ready: [], done: [], transferred: [] };
  for (let r = 0; r < runs; r++) {
    for (const which of r % 2 ? ['playground', 'floor'] : ['floor', 'playground']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(which === 'floor' ? `${url}/floor/` : `${url}/`);
      const ready = await (await page.waitForFunction(() => document.body.dataset.ready === 'true' && performance.now(), null, { polling: 'raf', timeout: 60_000 })).jsonValue();
      if (which === 'floor') {
        times.floor.push(ready);
      } else {
        const done = await (await page.waitForFunction(() => document.querySelector('#token-chart figure') && performance.now(), null, { polling: 'raf', timeout: 60_000 })).jsonValue();
        const [dcl, bytes] = await page.evaluate(() => {
          const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
          const resources = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource'));
          return [nav.domContentLoadedEventEnd, nav.encodedBodySize + resources.reduce((n, e) => n + e.encodedBodySize, 0)];
        });
        times.dcl.push(dcl);
        times.ready.push(ready);
        times.done.push(done);
        times.transferred.push(bytes);
      }
      await context.close();
    }
  }
  await browser.close();
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const ms = (a) => `${median(a).toFixed(0)} ms (min ${Math.min(...a).toFixed(0)})`;
  console.log(`Chromium ${browser.version()}, ${runs} runs each, fresh context per run; load average ${before} → ${load()}`);
  console.log(`| page | DOMContentLoaded | ready | every panel filled | bytes loaded |\n|---|---:|---:|---:|---:|`);
  console.log(`| floor (the module alone) | | ${ms(times.floor)} | | |`);
  console.log(`| playground (${index[0]?.title}) | ${ms(times.dcl)} | ${ms(times.ready)} | ${ms(times.done)} | ${median(times.transferred).toLocaleString('en')} B |`);
  console.log(`ready ÷ floor: ${(median(times.ready) / median(times.floor)).toFixed(2)}; every panel filled ÷ floor: ${(median(times.done) / median(times.floor)).toFixed(2)}`);
} finally {
  server.close();
  rmSync(floor, { recursive: true, force: true });
}
