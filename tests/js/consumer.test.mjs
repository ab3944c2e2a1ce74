// The npm package as its users meet it: packed once (npm pack of pkg/),
// installed from the tarball into a fresh project in a temporary directory,
// then used from there:
// * Node 18 and Node 22 (the node18 and node devDependencies): import and
//   require, and every export called with arguments of the wrong type;
// * the command line through npm exec: --version, validate with inline
//   JSON, serve stopped by SIGINT and SIGTERM;
// * mcp-switchboard/gateway imported and required as a library, serving a
//   host tool to the official MCP SDK client (Node 18 and 22);
// * TypeScript (tsc --strict, NodeNext and bundler resolution) against the
//   OpenAI, Anthropic, Google Gen AI and MCP SDK types, and real outputs
//   checked against the declared types;
// * esbuild, Vite and webpack bundles loaded in headless Chromium, and
//   esbuild bundles for Node;
// * @arethetypeswrong/cli and publint on the tarball.
// Tools and SDK type packages come from the repository's devDependencies;
// the package itself only from the tarball.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { chromium } from 'playwright-core';

import { KINDS, readSignatures } from '../../js/checked-api.mjs';
import { corpus, root } from './helpers.mjs';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const NODES = { 18: join(root, 'node_modules/node18/bin/node'), 22: join(root, 'node_modules/node/bin/node') };
const fixtures = join(root, 'tests/js/consumer');

let dir;
let project;
let tarball;

/** Runs a command in the project; resolves with {stdout, stderr}, rejects with them on failure. */
function sh(cmd, args, options = {}) {
  return run(cmd, args, { cwd: project, maxBuffer: 64 * 1024 * 1024, timeout: 120_000, ...options });
}

before(async () => {
  for (const [v, bin] of Object.entries(NODES)) assert.ok(existsSync(bin), `Node ${v} (${bin}) is missing: run npm ci`);
  dir = mkdtempSync(join(tmpdir(), 'switchboard-consumer-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: join(root, 'pkg') });
  tarball = join(dir, JSON.parse(packed.stdout)[0].filename);
  project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }, null, 2));
  // the package has no dependencies: installed from the tarball alone
  await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball]);
  cpSync(fixtures, project, { recursive: true });
  // the type packages the type test compiles against, linked from the repository's node_modules
  for (const name of ['openai', '@anthropic-ai/sdk', '@google/genai', '@modelcontextprotocol/sdk', '@types/node']) {
    mkdirSync(join(project, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('Node 18 and 22 import and require the package', async () => {
  for (const [v, node] of Object.entries(NODES)) {
    for (const file of ['smoke.mjs', 'smoke.cjs']) {
      const { stdout } = await sh(node, [file]).catch((e) => assert.fail(`Node ${v} ${file}:\n${e.stderr}`));
      assert.equal(stdout.trim(), 'ok', `Node ${v} ${file}`);
    }
  }
});

test('every export called with wrong argument types throws a typed error, and the module keeps working', async () => {
  // the package's module, and the web tools' (mcp-switchboard/web)
  for (const [entry, dir] of [['mcp-switchboard', ''], ['mcp-switchboard/web', 'web'], ['mcp-switchboard/full', 'full']]) {
    const installed = join(project, 'node_modules/mcp-switchboard', dir);
    const sig = readSignatures(join(installed, 'slim.d.mts'));
    const limit = Number(readFileSync(join(installed, 'slim.mjs'), 'utf8').match(/const LIMIT = (\d+);/)[1]);
    const functions = sig.functions.filter((f) => f.name !== 'init' && f.name !== 'initSync');
    writeFileSync(join(project, 'signatures.json'), JSON.stringify({ functions, classes: sig.classes, limit, kinds: KINDS }));
    for (const [v, node] of Object.entries(NODES)) {
      for (const mode of ['esm', 'cjs']) {
        const { stdout } = await sh(node, ['--max-old-space-size=2048', 'wrong-types.mjs', 'signatures.json', mode, entry]).catch((e) => assert.fail(`Node ${v} ${mode} ${entry}:\n${e.stdout}${e.stderr}`));
        assert.match(stdout, /^ok: \d+ calls/, `Node ${v} ${mode} ${entry}`);
      }
    }
  }
});

test('mcp-switchboard/gateway as a library: its own server and a request handler, served to the MCP SDK client', async () => {
  for (const [v, node] of Object.entries(NODES)) {
    for (const mode of ['esm', 'cjs']) {
      const { stdout } = await sh(node, ['gateway.mjs', mode]).catch((e) => assert.fail(`Node ${v} ${mode}:\n${e.stdout}${e.stderr}`));
      assert.equal(stdout.trim(), 'ok', `Node ${v} ${mode}`);
    }
  }
});

/** Resolves with the gateway's URL from its log line; rejects if the process ends first. */
function servingUrl(child) {
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (d) => {
      log += d;
      const m = log.match(/serving .* at (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before serving:\n${log}`)));
  });
}

/** Whether something answers at url. */
const answers = (url) =>
  fetch(url, { method: 'POST', signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );

/** Waits until nothing answers at url (at most 5 s). */
async function gone(url) {
  for (let i = 0; i < 50; i++) {
    if (!(await answers(url))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

test('the command line through npm exec: --version, validate with inline JSON, serve stops when stopped', async () => {
  const exec = (args) => sh('npm', ['exec', '--offline', '--', 'mcp-switchboard', ...args]);
  const { version } = JSON.parse(readFileSync(join(project, 'node_modules/mcp-switchboard/package.json'), 'utf8'));
  assert.equal((await exec(['--version'])).stdout.trim(), version);
  const catalog = join(project, 'node_modules/mcp-switchboard/examples/home-assistant.tools-list.json');
  const ok = JSON.parse((await exec(['validate', '--catalog', catalog, '--tool', 'HassLightSet', '{"brightness": "50"}'])).stdout);
  assert.deepEqual([ok.valid, ok.arguments], [true, { brightness: 50 }]);
  const bad = await exec(['validate', '--catalog', catalog, '--tool', 'HassLightSet', '{"brightness": 500}']).catch((e) => e);
  assert.equal(bad.code, 1);
  assert.equal(JSON.parse(bad.stdout).valid, false);

  // SIGINT and SIGTERM stop serve; so does stopping the npm exec that started it
  const bin = join(project, 'node_modules/mcp-switchboard/cli.mjs');
  for (const signal of ['SIGINT', 'SIGTERM']) {
    const child = spawn(process.execPath, [bin, 'serve', '--demo', '--port', '0'], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
    const url = await servingUrl(child);
    assert.ok(await answers(url));
    child.kill(signal);
    const [code] = await once(child, 'exit');
    assert.equal(code, 0, signal);
    assert.ok(!(await answers(url)), `${signal}: still serving`);
  }
  // npm exec stopped, politely or not: what it started stops too (in its own process group, so
  // that whatever is left can be ended with it)
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    const npm = spawn('npm', ['exec', '--offline', '--', 'mcp-switchboard', 'serve', '--demo', '--port', '0'], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    try {
      const url = await servingUrl(npm);
      npm.kill(signal);
      await once(npm, 'exit');
      assert.ok(await gone(url), `serve outlived the npm exec that started it (${signal})`);
    } finally {
      try {
        process.kill(-npm.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
      npm.stderr.destroy();
    }
  }
});

test('@arethetypeswrong/cli and publint find no problems', async () => {
  const attw = await run(process.execPath, [join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--exclude-entrypoints', './mcp_switchboard_bg.wasm', './web/mcp_switchboard_web_bg.wasm', './full/mcp_switchboard_full_bg.wasm', '--format', 'json'], { maxBuffer: 16 * 1024 * 1024 }).catch((e) => e);
  const report = JSON.parse(attw.stdout);
  assert.deepEqual([report.problems, report.analysis.problems], [{}, []], JSON.stringify(report.problems));
  assert.deepEqual(Object.keys(report.analysis.entrypoints), ['.', './slim', './full', './full/slim', './gateway', './web', './package.json']);
  assert.equal(attw.code ?? 0, 0);
  const publint = await run(process.execPath, [join(root, 'node_modules/publint/src/cli.js'), '--strict', tarball]).catch((e) => assert.fail(`${e.stdout}${e.stderr}`));
  assert.match(publint.stdout, /All good!/);
});

test('TypeScript: the SDKs take what the package gives, and real outputs have the declared types', { timeout: 300_000 }, async () => {
  const generated = await sh(process.execPath, ['outputs.mjs', corpus]).catch((e) => assert.fail(`${e.stdout}${e.stderr}`));
  assert.match(generated.stdout, /^ok: \d+ outputs/);
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  // bare: ES2022 alone (no DOM, no @types/node), the package's own declarations fully checked
  // node: NodeNext with @types/node and the SDKs; bundler: bundler resolution with the DOM
  for (const config of ['bare', 'node', 'bundler']) {
    await sh(process.execPath, [tsc, '-p', `types/tsconfig.${config}.json`]).catch((e) => assert.fail(`tsc ${config}:\n${e.stdout}${e.stderr}`));
  }
});

/** A static server for a directory. */
async function serve(base) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^\/+/, '');
    try {
      const body = readFileSync(join(base, path.endsWith('/') || path === '' ? join(path, 'index.html') : path));
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'text/html' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

test('bundles: esbuild, Vite and webpack in Chromium, esbuild for Node', { timeout: 300_000 }, async () => {
  const out = join(dir, 'out');
  const web = join(project, 'web');
  const page = (script, module) => `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script ${module ? 'type="module" ' : ''}src="./${script}"></script></body></html>`;
  const esbuild = await import('esbuild');
  const bundle = (entry, outdir, options) => esbuild.build({ entryPoints: [entry], outdir, bundle: true, absWorkingDir: project, logLevel: 'warning', ...options });
  // esbuild, for browsers: the slim entry, its wasm through the file loader, as a script and as a module
  for (const format of ['iife', 'esm']) {
    const result = await bundle(join(web, 'slim.mjs'), join(out, `esbuild-${format}`), { format, loader: { '.wasm': 'file' } });
    assert.deepEqual(result.warnings, []);
    writeFileSync(join(out, `esbuild-${format}`, 'index.html'), page('slim.js', format === 'esm'));
  }
  // Vite and webpack: the default entry, top-level await and the wasm as an asset
  const { build } = await import('vite');
  await build({ root: web, base: './', configFile: false, logLevel: 'warn', build: { outDir: join(out, 'vite'), emptyOutDir: true } });
  const webpack = require('webpack');
  const stats = await new Promise((resolve, reject) =>
    webpack({ mode: 'production', context: project, entry: './web/main.mjs', output: { path: join(out, 'webpack'), filename: 'main.js' }, target: 'web', performance: { hints: false } }, (e, s) => (e ? reject(e) : resolve(s))),
  );
  assert.ok(!stats.hasErrors() && !stats.hasWarnings(), stats.toString('errors-warnings'));
  writeFileSync(join(out, 'webpack', 'index.html'), page('main.js', false));

  const { server, url } = await serve(out);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    for (const name of ['esbuild-iife', 'esbuild-esm', 'vite', 'webpack']) {
      const tab = await browser.newPage();
      const errors = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await tab.goto(`${url}/${name}/`);
      await tab.waitForSelector('body[data-result]', { state: 'attached', timeout: 20_000 }).catch(() => assert.fail(`${name}: ${errors.join('; ')}`));
      const result = JSON.parse(await tab.getAttribute('body', 'data-result'));
      assert.deepEqual(result, { tools: 2, hit: 'set_light', reply: '{"on":true}', wrong: Array(4).fill('TypeError usage') }, name);
      assert.deepEqual(errors, [], name);
      await tab.close();
    }
  } finally {
    await browser.close();
    await new Promise((ok) => server.close(ok));
  }

  // esbuild, for Node: the default entry as CommonJS (the wasm found through node_modules, or
  // copied next to the bundle), the slim entry as one self-contained ES module
  await bundle(join(project, 'node/default.mjs'), join(project, 'dist'), { platform: 'node', target: 'node18', outExtension: { '.js': '.cjs' } });
  const alone = join(dir, 'alone');
  mkdirSync(alone);
  await bundle(join(project, 'node/slim.mjs'), alone, { platform: 'node', target: 'node18', format: 'esm', loader: { '.wasm': 'binary' }, outExtension: { '.js': '.mjs' } });
  cpSync(join(project, 'dist/default.cjs'), join(alone, 'default.cjs'));
  cpSync(join(project, 'node_modules/mcp-switchboard/mcp_switchboard_bg.wasm'), join(alone, 'mcp_switchboard_bg.wasm'));
  for (const [v, node] of Object.entries(NODES)) {
    for (const file of [join(project, 'dist/default.cjs'), join(alone, 'default.cjs'), join(alone, 'slim.mjs')]) {
      const { stdout } = await run(node, [file], { cwd: dir }).catch((e) => assert.fail(`Node ${v} ${file}:\n${e.stderr.slice(-2000)}`));
      assert.equal(stdout.trim(), 'ok', `Node ${v} ${file}`);
    }
  }
});
