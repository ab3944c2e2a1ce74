// `mcp-switchboard playground`: the static server of the built playground
// (pkg/playground/) on 127.0.0.1. Its files with their content types (the
// module as application/wasm, which streaming compilation needs), GET and
// HEAD only, no folder listing, nothing outside the folder (.. in any
// spelling, a symbolic link leading out), and its usage errors.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import { cli, root } from './helpers.mjs';

const dir = join(root, 'pkg/playground');
let server;
let port;

/** Starts `mcp-switchboard playground --port 0` from a CLI file; resolves with the process and its port. */
async function start(cliFile) {
  const child = spawn(process.execPath, [cliFile, 'playground', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const at = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(err);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`playground exited with ${code}: ${err}`)));
  });
  return { child, at };
}

before(async () => {
  ({ child: server, at: port } = await start(join(root, 'js/cli.mjs')));
});

after(() => server?.kill());

/** One request with the path exactly as given (no URL normalisation). */
function get(path, method = 'GET', at = port) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: at, path, method }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves the built page with the right content types', async () => {
  const types = {
    '/': ['text/html; charset=utf-8', 'index.html'],
    '/index.html': ['text/html; charset=utf-8', 'index.html'],
    '/app.js': ['text/javascript; charset=utf-8', 'app.js'],
    '/style.css': ['text/css; charset=utf-8', 'style.css'],
    '/mcp_switchboard_full_bg.wasm': ['application/wasm', 'mcp_switchboard_full_bg.wasm'],
    '/catalogs/index.json': ['application/json', 'catalogs/index.json'],
  };
  for (const [path, [type, file]] of Object.entries(types)) {
    const res = await get(path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers['content-type'], type, path);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.headers['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
    assert.deepEqual(res.body, readFileSync(join(dir, file)), path);
  }
  const head = await get('/app.js', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(Number(head.headers['content-length']), readFileSync(join(dir, 'app.js')).length);
  assert.equal(head.body.length, 0);
  // every bundled catalog listed is there
  for (const c of JSON.parse(readFileSync(join(dir, 'catalogs/index.json'), 'utf8'))) {
    assert.equal((await get(`/${c.file}`)).status, 200, c.file);
  }
});

test('no listing, no other methods, nothing outside the folder', async () => {
  for (const path of ['/catalogs/', '/catalogs', '/nope.html']) assert.equal((await get(path)).status, 404, path);
  const post = await get('/', 'POST');
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, 'GET, HEAD');
  assert.equal((await get('/%E0%A4%A')).status, 400);
  // the package's files beside the folder, and the checkout's, in every spelling of ..
  const secret = readFileSync(join(root, 'Cargo.toml'), 'utf8').slice(0, 40);
  const paths = [
    '/../cli.mjs', '/../../Cargo.toml', '/%2e%2e/cli.mjs', '/%2E%2E%2F%2E%2E%2FCargo.toml', '/..%2f..%2fCargo.toml',
    '/catalogs/..%2f..%2fcli.mjs', '/catalogs/%2e%2e/%2e%2e/%2e%2e/Cargo.toml', '/..%5c..%5cCargo.toml', '/..\\..\\Cargo.toml',
    `/${'..%2f'.repeat(12)}etc/passwd`, '//etc/passwd', '/index.html%00.wasm',
  ];
  for (const path of paths) {
    const res = await get(path);
    assert.ok(res.status === 404 || res.status === 400, `${path}: ${res.status}`);
    assert.ok(!res.body.toString().includes(secret) && !res.body.toString().includes('root:'), path);
  }
  // a symbolic link in the folder that leads out of it
  const link = join(dir, 'catalogs/link-out.json');
  symlinkSync(join(root, 'Cargo.toml'), link);
  try {
    assert.equal((await get('/catalogs/link-out.json')).status, 404);
  } finally {
    rmSync(link, { force: true });
  }
});

test('usage errors', () => {
  for (const args of [['playground', 'extra'], ['playground', '--port', '70000'], ['playground', '--port', 'x'], ['playground', '--host', '0.0.0.0']]) {
    const r = cli(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, /^mcp-switchboard: /);
  }
});

test('as installed: the package ships the page without its copy of the module, and serves its own', async () => {
  const [{ files }] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: join(root, 'pkg'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const shipped = files.map((f) => f.path);
  assert.ok(shipped.includes('playground/index.html') && shipped.includes('playground/app.js') && shipped.includes('playground/catalogs/index.json'));
  assert.ok(!shipped.includes('playground/mcp_switchboard_full_bg.wasm') && shipped.includes('full/mcp_switchboard_full_bg.wasm'));
  const installed = mkdtempSync(join(tmpdir(), 'switchboard-installed-'));
  let child;
  try {
    for (const f of shipped) {
      mkdirSync(dirname(join(installed, f)), { recursive: true });
      cpSync(join(root, 'pkg', f), join(installed, f));
    }
    const started = await start(join(installed, 'cli.mjs'));
    child = started.child;
    const wasm = await get('/mcp_switchboard_full_bg.wasm', 'GET', started.at);
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers['content-type'], 'application/wasm');
    assert.deepEqual(wasm.body, readFileSync(join(root, 'pkg/full/mcp_switchboard_full_bg.wasm')));
    assert.equal((await get('/', 'GET', started.at)).status, 200);
    // the module is the one file served from beside the folder
    for (const path of ['/cli.mjs', '/..%2fcli.mjs', '/package.json', '/catalogs/..%2f..%2fcli.mjs']) assert.equal((await get(path, 'GET', started.at)).status, 404, path);
  } finally {
    child?.kill();
    rmSync(installed, { recursive: true, force: true });
  }
});
