// Node, require(): the installed package's CommonJS entry. Run by
// consumer.test.mjs with Node 18 and Node 22 from a fresh project; prints "ok".
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');

const sb = require('mcp-switchboard');

const catalog = readFileSync(require.resolve('mcp-switchboard/package.json').replace('package.json', 'examples/home-assistant.tools-list.json'));
assert.equal(sb.version(), require('mcp-switchboard/package.json').version);
assert.equal(sb.convert(catalog, { to: 'anthropic' }).tools.length, 8);
const index = new sb.ToolIndex(catalog);
assert.equal(index.search('zet het licht aan', { limit: 1 }).hits.length, 1);
const v = new sb.Validator(catalog).validate('HassLightSet', { brightness: '50' });
assert.deepEqual(v.arguments, { brightness: 50 });
assert.throws(() => sb.convert(catalog, { to: 'cobol' }), (e) => e.code === 'usage');
assert.throws(() => sb.lint(42), (e) => e instanceof TypeError && e.code === 'usage');

// require('mcp-switchboard/slim') is the same instance, loaded already
const slim = require('mcp-switchboard/slim');
assert.equal(slim, sb);
slim.initSync(readFileSync(require.resolve('mcp-switchboard/mcp_switchboard_bg.wasm')));
assert.equal(slim.convert(catalog, { to: 'gemini' }).tools.length, 1);
assert.throws(() => sb.initSync('bytes'), (e) => e instanceof TypeError && e.code === 'usage');
console.log('ok');
