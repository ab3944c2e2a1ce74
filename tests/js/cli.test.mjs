// The command line: JSON on stdout, one line on stderr and exit 2 for bad input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { cli, corpus, example, root } from './helpers.mjs';

test('convert prints {dialect, tools, names, report}', () => {
  const r = cli(['convert', '--to', 'openai', '--strict', example]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['dialect', 'tools', 'names', 'report']);
  assert.equal(out.tools[0].type, 'function');
  assert.equal(out.tools[0].function.strict, true);
});

test('convert reads stdin with - or no file', () => {
  const text = readFileSync(join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json'));
  for (const args of [['convert', '--to', 'gemini', '-'], ['convert', '--to=gemini']]) {
    const r = cli(args, text);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).tools[0].functionDeclarations.length, 14);
  }
});

test('prompted and vscode carry their extras', () => {
  const p = JSON.parse(cli(['convert', '--to', 'prompted', example]).stdout);
  assert.match(p.prompt, /"tool_calls"/);
  const v = JSON.parse(cli(['convert', '--to', 'vscode', example]).stdout);
  assert.equal(v.runtime.length, v.tools.length);
});

test('lint prints findings and token totals', () => {
  const r = cli(['lint', example]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.tools.length, 8);
});

test('bad input: one line on stderr, exit 2, no stack trace', () => {
  const cases = [
    [['convert', '--to', 'gemini'], '{"tools": ['],
    [['convert', '--to', 'gemini'], Buffer.from([0x5b, 0xff, 0x5d])],
    [['convert', '--to', 'klingon', example]],
    [['convert', example]],
    [['convert', '--to', 'gemini', '/no/such/file.json']],
    [['convert', '--to', 'gemini', '--bogus', example]],
    [['frobnicate']],
    [[]],
  ];
  for (const [args, input] of cases) {
    const r = cli(args, input ?? '');
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}`);
    const first = r.stderr.split('\n')[0];
    assert.ok(first.length > 0, args.join(' '));
    assert.ok(!/\n\s+at /.test(r.stderr), `stack trace for ${args.join(' ')}: ${r.stderr}`);
  }
});

test('calls prints normalised calls with their tools/call requests', () => {
  const homey = join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json');
  const response = JSON.stringify({ content: [{ type: 'tool_use', id: 't1', name: 'set_thermostat', input: { deviceId: 'th', temperature: '21' } }] });
  const r = cli(['calls', '--from', 'anthropic', '--catalog', homey, '-'], response);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.calls[0].request.params, { name: 'set_thermostat', arguments: { deviceId: 'th', temperature: 21 } });
  const text = cli(['calls', '--from', 'prompted', '--catalog', homey], 'Calling {"name": "get_states", "arguments": {}} now');
  assert.equal(JSON.parse(text.stdout).calls[0].name, 'get_states');
});

test('validate says what to send instead and exits 1 when invalid', () => {
  const homey = join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json');
  const bad = cli(['validate', '--catalog', homey, '--tool', 'set_light'], '{"state": "purple"}');
  assert.equal(bad.status, 1);
  const out = JSON.parse(bad.stdout);
  assert.equal(out.valid, false);
  assert.match(out.message, /\/state: must be one of "on", "off", "toggle"/);
  const good = cli(['validate', '--catalog', homey, '--tool', 'set_light'], '{"deviceId": "x", "state": "on", "dim": "50"}');
  assert.equal(good.status, 0, good.stdout);
  assert.equal(JSON.parse(good.stdout).arguments.dim, 50);
  const unknown = cli(['validate', '--catalog', homey, '--tool', 'nope'], '{}');
  assert.equal(unknown.status, 2);
});

test('the demo (make demo) runs start to finish', () => {
  const r = spawnSync(process.execPath, [join(root, 'js/demo.mjs')], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /"functionDeclarations"/);
  assert.match(r.stdout, /search_tools \{"query": "lamp aan in de woonkamer"\}\n\{\n  "total": \d+,\n  "hits": \[\n    \{\n      "name": "set_light"/);
  assert.match(r.stdout, /"dim":60/);
  assert.match(r.stdout, /\/state: must be one of "on", "off", "toggle"/);
});
