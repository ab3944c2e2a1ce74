// The app's shape: only the I/O lives here, the package is used through its
// full, gateway and web entries, and the packed package
// installs without a lock-file integrity that changes with every build.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

import { appDir } from './harness.mjs';

function sources(dir = appDir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'test', '.homeybuild', '.build'].includes(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(c|m)?js$/.test(name)) out.push(path);
  }
  return out;
}

test('the package is used through its full, gateway and web entries; nothing reaches into its files', () => {
  const files = sources().map((f) => [relative(appDir, f), readFileSync(f, 'utf8')]);
  assert.ok(files.length >= 13);
  const gateway = files.filter(([, text]) => /require\(['"]mcp-switchboard\/gateway['"]\)/.test(text)).map(([f]) => f);
  assert.deepEqual(gateway, ['lib/mcp-server.js']);
  // the web tools' module only where the setting turns them on
  const web = files.filter(([, text]) => /require\(['"]mcp-switchboard\/web['"]\)/.test(text)).map(([f]) => f);
  assert.deepEqual(web, ['lib/web-tools.js']);
  // one WebAssembly module: every other use of the package is mcp-switchboard/full (which the gateway loads too);
  // the default entry, a module of its own, is never required
  const main = files.filter(([, text]) => /require(\.resolve)?\(['"]mcp-switchboard['"]\)/.test(text)).map(([f]) => f);
  assert.deepEqual(main, []);
  const full = files.filter(([, text]) => /require\(['"]mcp-switchboard\/full['"]\)/.test(text)).map(([f]) => f);
  assert.ok(full.includes('app.js') && full.includes('lib/assistant.js') && full.includes('lib/capability.js'), full.join(', '));
  const deep = files.filter(([, text]) => /gateway\.mjs|dispatch\.mjs|\/pkg\/|require(\.resolve)?\(['"]mcp-switchboard\/(?!(gateway|web|full)['"])|from ['"]mcp-switchboard\//.test(text)).map(([f]) => f);
  assert.deepEqual(deep, [], 'the core is used through mcp-switchboard/full and the gateway and web entries');
  // no JSON-RPC, HTTP status or login handling of its own
  const protocol = files.filter(([, text]) => /writeHead|-3260\d|createServer|remoteAddress/.test(text)).map(([f]) => f);
  assert.deepEqual(protocol, []);
  // the assistant's requests to the gateway are the package's MCP client's (ClientSession)
  assert.deepEqual(files.filter(([, text]) => /jsonrpc/.test(text)).map(([f]) => f), []);
  // the model's HTTP goes through node-fetch: Node 18's own fetch costs about 30 MB RSS
  assert.deepEqual(files.filter(([, text]) => /(?<![\w.])fetch\(|globalThis\.fetch|undici/.test(text)).map(([f]) => f), []);
});

test('every built-in tool has a handler, and the tool definitions are data', async () => {
  const { tools } = JSON.parse(readFileSync(join(appDir, 'lib/tools.json'), 'utf8'));
  const { tools: meta } = JSON.parse(readFileSync(join(appDir, 'lib/tools.metadata.json'), 'utf8'));
  assert.equal(tools.length, 33);
  assert.deepEqual(Object.keys(meta).sort(), tools.map((t) => t.name).sort());
  for (const t of tools) {
    assert.equal(typeof t.description, 'string', t.name);
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.equal(typeof t.annotations.readOnlyHint, 'boolean', t.name);
  }
});

test('the lock file pins the packed package without an integrity (it changes with every build)', () => {
  const lock = JSON.parse(readFileSync(join(appDir, 'package-lock.json'), 'utf8'));
  const entry = lock.packages['node_modules/mcp-switchboard'];
  assert.equal(entry.resolved, 'file:.build/mcp-switchboard.tgz');
  assert.equal(entry.integrity, undefined);
  const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
  assert.match(manifest.dependencies['homey-api'], /^\d+\.\d+\.\d+$/, 'homey-api pinned to an exact version');
});

test('the manifest: SDK 3, local, Homey Pro (Early 2023) and newer, the Web API permission, no "Homey" in the name', () => {
  const app = JSON.parse(readFileSync(join(appDir, 'app.json'), 'utf8'));
  assert.equal(app.sdk, 3);
  assert.deepEqual(app.platforms, ['local']);
  assert.equal(app.compatibility, '>=12.0.1');
  assert.deepEqual(app.permissions, ['homey:manager:api']);
  for (const name of Object.values(app.name)) assert.doesNotMatch(name, /homey/i);
  assert.deepEqual(app.flow.triggers.map((c) => c.id), ['ai_tool_called']);
  assert.deepEqual(app.flow.conditions.map((c) => c.id), ['assistant_says_yes']);
  assert.deepEqual(app.flow.actions.map((c) => c.id), ['ai_tool_answer', 'ask_assistant']);
  assert.deepEqual(app.flow.actions[1].tokens.map((t) => t.name), ['answer', 'conversation']);
  assert.deepEqual(Object.keys(app.api).sort(), ['getProtectedDevices', 'getStatus', 'getZones', 'mcp', 'regenerateToken', 'testAssistant', 'testPersonalKey']);
  const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(appDir, 'package-lock.json'), 'utf8'));
  // the assistant's HTTP client is the one copy of node-fetch homey-api loads too
  assert.equal(manifest.dependencies['node-fetch'], lock.packages['node_modules/node-fetch'].version);
  assert.deepEqual(Object.keys(lock.packages).filter((p) => p.endsWith('/node-fetch')), ['node_modules/node-fetch']);
});
