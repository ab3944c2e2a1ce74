// The command line's search, budget and serve commands: JSON on stdout,
// one line on stderr and exit 2 for bad input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { connect, listAll, serveChild } from './gateway-helpers.mjs';
import { cli, corpus, root } from './helpers.mjs';

const homey = join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json');
const demo = join(root, 'js/examples/demo-home.tools-list.json');

test('search prints {total, hits: [{name, score, category, description}]}', () => {
  const r = cli(['search', '--catalog', homey, '--limit', '2', 'thermostaat', 'temperatuur']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['total', 'hits']);
  assert.equal(out.hits.length, 2);
  assert.deepEqual(Object.keys(out.hits[0]), ['name', 'score', 'category', 'description']);
  assert.equal(out.hits[0].name, 'set_thermostat');
});

test('search --category narrows the hits', () => {
  const all = JSON.parse(cli(['search', '--catalog', demo, 'lights']).stdout);
  const category = all.hits[0].category;
  const narrowed = JSON.parse(cli(['search', '--catalog', demo, '--category', category, 'lights']).stdout);
  assert.ok(narrowed.hits.every((h) => h.category === category));
});

test('budget prints the tokens per disclosure mode', () => {
  const r = cli(['budget', '--catalog', demo, '--to', 'anthropic']);
  assert.equal(r.status, 0, r.stderr);
  const b = JSON.parse(r.stdout);
  assert.equal(b.dialect, 'anthropic');
  assert.ok(b.meta < b.hybrid && b.hybrid < b.all, JSON.stringify(b));
  assert.ok(b.core.includes('get_home_structure'));
  assert.equal(JSON.parse(cli(['budget', '--catalog', demo]).stdout).dialect, 'mcp');
});

test('bad input: one line on stderr, exit 2, no stack trace', () => {
  const cases = [
    ['search', 'lights'],
    ['search', '--catalog', demo],
    ['search', '--catalog', demo, '--limit', 'many', 'x'],
    ['search', '--catalog', '/no/such/file', 'x'],
    ['budget'],
    ['budget', '--catalog', demo, '--to', 'klingon'],
    ['serve'],
    ['serve', '--demo', '--upstream', 'http://127.0.0.1:9/mcp'],
    ['serve', '--demo', '--mode', 'sideways', '--port', '0'],
    ['serve', '--demo', '--host', '0.0.0.0', '--port', '0'],
    ['serve', '--demo', '--port', 'eighty'],
    ['serve', '--demo', '--timeout', '-1'],
    ['serve', '--handlers', 'x.mjs'],
  ];
  for (const args of cases) {
    const r = cli(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.ok(r.stderr.split('\n')[0].startsWith('mcp-switchboard: '), args.join(' '));
    assert.ok(!/\n\s+at /.test(r.stderr), `stack trace for ${args.join(' ')}: ${r.stderr}`);
  }
});

test('serve --catalog with --handlers runs host handler functions', async () => {
  const handlers = join(root, 'tests/js/fixtures/echo-handlers.mjs');
  const s = await serveChild(['--catalog', join(root, 'tests/js/fixtures/echo.tools-list.json'), '--handlers', handlers]);
  try {
    const { client } = await connect(s.url);
    const { tools } = await listAll(client);
    assert.deepEqual(tools.map((t) => t.name), ['echo', 'unhandled']);
    const r = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.deepEqual(r.structuredContent, { success: true, echoed: 'hi' });
    const missing = await client.callTool({ name: 'unhandled', arguments: {} });
    assert.equal(missing.content[0].text, 'Error: no handler is registered for unhandled');
    await client.close();
  } finally {
    await s.stop();
  }
});

test('the built package carries the gateway modules', () => {
  for (const f of ['cli.mjs', 'gateway.mjs', 'dispatch.mjs', 'stdio.mjs', 'upstream.mjs', 'demo-home.mjs', 'simulated-home.mjs', 'examples/demo-home.tools-list.json']) {
    assert.ok(existsSync(join(root, 'pkg', f)), `pkg/${f}`);
  }
  const r = spawnSync(process.execPath, [join(root, 'pkg/cli.mjs'), 'budget', '--catalog', join(root, 'pkg/examples/demo-home.tools-list.json')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
