// Node, import: the installed package's ESM entry. Run by consumer.test.mjs
// with Node 18 and Node 22 from a fresh project; prints "ok".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import * as sb from 'mcp-switchboard';
import { ToolIndex, convert, formatResults, init, parseCalls, toolSuccess, version } from 'mcp-switchboard';
import { Engine } from 'mcp-switchboard/full';

const require = createRequire(import.meta.url);
const catalog = readFileSync(require.resolve('mcp-switchboard/package.json').replace('package.json', 'examples/home-assistant.tools-list.json'));

// no default export, and one module instance for import and require
assert.equal('default' in sb, false);
assert.equal(require('mcp-switchboard').ToolIndex, ToolIndex);
assert.equal(require('mcp-switchboard/full').Engine, Engine);
assert.equal('Engine' in sb, false);
assert.equal(version(), require('mcp-switchboard/package.json').version);
await init(); // loaded already: does nothing
await assert.rejects(init(42), (e) => e instanceof TypeError && e.code === 'usage');

const openai = convert(catalog, { to: 'openai', strict: true });
assert.equal(openai.tools.length, 8);
const turn = parseCalls('openai', { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'HassTurnOn', arguments: '{"name": "kitchen"}' } }] } }] }, openai, catalog);
assert.equal(turn.calls[0].request.params.name, 'HassTurnOn');
const out = formatResults('openai', turn, [toolSuccess({ on: true })]);
assert.deepEqual(out.results, [{ role: 'tool', tool_call_id: 'c1', content: '{"success":true,"on":true}' }]);

// the server side is mcp-switchboard/full's
const engine = new Engine(catalog, { mode: 'hybrid' });
assert.equal(engine.handle('{"jsonrpc":"2.0","id":1,"method":"ping"}'), true);
assert.equal(engine.drain()[0].message, '{"jsonrpc":"2.0","id":1,"result":{}}');
engine.free();

// the slim entry is its own, explicitly loaded instance
const slim = await import('mcp-switchboard/slim');
assert.throws(() => slim.dialects(), (e) => e.code === 'usage');
await slim.init(readFileSync(require.resolve('mcp-switchboard/mcp_switchboard_bg.wasm')));
assert.equal(slim.dialects().length, 7);
console.log('ok');
