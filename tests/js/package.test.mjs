// The built npm package (pkg/) under Node: both module systems, the typed
// API, errors, the browser build's module, and the size budget.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

import * as esm from '../../pkg/index.mjs';
import * as full from '../../pkg/full/index.mjs';
import { root, corpus, example } from './helpers.mjs';

const require = createRequire(import.meta.url);
const cjs = require('../../pkg/index.cjs');

test('CommonJS and ESM entries expose the same API', () => {
  for (const name of ['convert', 'convertJson', 'lint', 'dialects', 'version']) {
    assert.equal(typeof esm[name], 'function', name);
    assert.equal(typeof cjs[name], 'function', name);
  }
  assert.deepEqual(esm.dialects(), ['gemini', 'gemini-json', 'openai', 'openai-responses', 'anthropic', 'vscode', 'prompted']);
});

test('convert accepts text, bytes and objects alike', () => {
  const text = readFileSync(example, 'utf8');
  const a = esm.convert(text, { to: 'gemini' });
  const b = esm.convert(new Uint8Array(readFileSync(example)), { to: 'gemini' });
  const c = esm.convert(JSON.parse(text), { to: 'gemini' });
  assert.deepEqual(a, b);
  assert.deepEqual(a, c);
  assert.equal(a.dialect, 'gemini');
  assert.equal(a.tools.length, 1);
  const decls = a.tools[0].functionDeclarations;
  assert.equal(decls.length, 8);
  const live = decls.find((d) => d.name === 'GetLiveContext');
  // the {} branch of anyOf becomes the typed forms of "any value": one domain is as valid as a list
  const domain = live.parameters.properties.domain;
  assert.equal(domain.type, undefined);
  assert.deepEqual(domain.anyOf.map((b) => b.type), ['ARRAY', 'STRING', 'NUMBER', 'BOOLEAN']);
  assert.equal(domain.nullable, true);
  assert.ok(a.report.some((e) => e.pointer === '/result/tools/7/inputSchema/properties/domain/anyOf/0' && e.action === 'narrowed'));
  assert.equal(a.names.HassTurnOn, 'HassTurnOn');
});

test('convertJson is the string-to-string path of convert', () => {
  const text = readFileSync(example, 'utf8');
  for (const to of esm.dialects()) {
    assert.deepEqual(JSON.parse(esm.convertJson(text, to, true)), esm.convert(text, { to, strict: true }));
  }
});

test('convertJson writes ASCII text that reads as convert, with Buffer or without', () => {
  // the GitHub catalog's descriptions hold characters past ASCII (— →),
  // escaped in the file
  const text = JSON.stringify(JSON.parse(readFileSync(join(corpus, 'github-mcp-server.tools-list.json'), 'utf8')));
  assert.match(text, /[^\x00-\x7f]/);
  const saved = globalThis.Buffer;
  for (const to of esm.dialects()) {
    const expected = esm.convert(text, { to });
    const out = esm.convertJson(text, to);
    assert.doesNotMatch(out, /[^\x00-\x7f]/, to);
    assert.deepEqual(JSON.parse(out), expected, to);
    // where there is no Buffer (a browser), the glue decodes the text
    delete globalThis.Buffer;
    try {
      assert.equal(esm.convertJson(text, to), out, to);
    } finally {
      globalThis.Buffer = saved;
    }
  }
  // a character past U+FFFF is written as its surrogate pair
  const small = JSON.stringify({ tools: [{ name: 'lamp', description: 'Zet de lamp aan 💡 (één keer)', inputSchema: { type: 'object' } }] });
  const out = esm.convertJson(small, 'gemini');
  assert.match(out, /\\ud83d\\udca1 \(\\u00e9\\u00e9n keer\)/);
  assert.equal(JSON.parse(out).tools[0].functionDeclarations[0].description, 'Zet de lamp aan 💡 (één keer)');
});

test('every corpus catalog converts in every dialect', () => {
  for (const file of ['home-assistant-2025.4.tools-list.json', 'homey-ai-chat-control-2.2.1.tools-list.json', 'github-mcp-server.tools-list.json']) {
    const bytes = new Uint8Array(readFileSync(join(corpus, file)));
    for (const to of esm.dialects()) {
      const out = esm.convert(bytes, { to, strict: true });
      assert.ok(Object.keys(out.names).length > 0, `${file} ${to}`);
    }
  }
});

test('errors carry code and pointer, and never crash the module', () => {
  const cases = [
    ['{bad', { to: 'gemini' }, 'json'],
    [new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]), { to: 'gemini' }, 'json'],
    ['"hello"', { to: 'gemini' }, 'shape'],
    ['{"result": {"tools": 5}}', { to: 'gemini' }, 'shape'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}', { to: 'gemini' }, 'upstream'],
    ['[]', { to: 'cobol' }, 'usage'],
    ['[]', undefined, 'usage'],
    [42, { to: 'gemini' }, 'usage'],
    ['['.repeat(10000) + ']'.repeat(10000), { to: 'gemini' }, 'json'],
  ];
  for (const [input, opts, code] of cases) {
    assert.throws(() => esm.convert(input, opts), (e) => {
      assert.ok(e instanceof Error);
      assert.equal(e.code, code, e.message);
      assert.equal(typeof e.pointer, 'string');
      return true;
    });
  }
  assert.equal(esm.convert('{"result":{"tools":5}}'.length ? '[]' : '', { to: 'openai' }).tools.length, 0);
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => esm.convert(cyclic, { to: 'gemini' }), (e) => e.code === 'usage');
});

test('lint reports per tool and per dialect', () => {
  const r = esm.lint(readFileSync(example, 'utf8'));
  const night = r.tools.find((t) => t.name === 'good_night');
  assert.ok(night.findings.some((f) => f.message.startsWith('no description')));
  assert.ok(r.totals.gemini > 100);
  assert.ok(r.tools.every((t) => t.tokens['openai+strict'] > 0));
});

test('the slim entry loads the module from bytes, once', async () => {
  const slim = await import('../../pkg/slim.mjs');
  assert.throws(() => slim.convert('[]', { to: 'gemini' }), (e) => e.code === 'usage' && /init\(\)/.test(e.message));
  const bytes = readFileSync(join(root, 'pkg/mcp_switchboard_bg.wasm'));
  slim.initSync(bytes);
  slim.initSync(bytes);
  await slim.init(bytes);
  const out = slim.convert(readFileSync(example, 'utf8'), { to: 'anthropic' });
  assert.equal(out.tools.length, 8);
});

test('the package ships the module once, a license, and no test fixtures', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'pkg/package.json'), 'utf8'));
  assert.deepEqual(Object.keys(manifest.exports), ['.', './slim', './full', './full/slim', './full/mcp_switchboard_full_bg.wasm', './gateway', './web', './mcp_switchboard_bg.wasm', './web/mcp_switchboard_web_bg.wasm', './package.json']);
  assert.deepEqual(Object.keys(manifest.exports['.']), ['node', 'default']);
  assert.equal(manifest.bin['mcp-switchboard'], 'cli.mjs');
  for (const f of ['LICENSE', 'README.md', 'mcp_switchboard_bg.wasm', 'cli.mjs', 'gateway.mjs', 'gateway.cjs', 'gateway.d.mts', 'gateway.d.cts', 'web.mjs', 'web.cjs', 'web.d.mts', 'web.d.cts', 'web/mcp_switchboard_web_bg.wasm', 'chat.mjs', 'chat.d.mts', 'full/mcp_switchboard_full_bg.wasm', 'full/index.mjs', 'full/index.cjs', 'full/browser.mjs', 'full/chat.mjs', 'full/chat.d.mts']) assert.ok(existsSync(join(root, 'pkg', f)), f);
  assert.ok(!existsSync(join(root, 'pkg/conformance-fixtures.mjs')));
  assert.doesNotMatch(readFileSync(join(root, 'pkg/README.md'), 'utf8'), /make test/);
  const wasm = readFileSync(join(root, 'pkg/mcp_switchboard_bg.wasm'));
  const gz = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gz <= 430080, `wasm is ${gz} bytes gzipped; the budget is 430,080 B`);
});

test('the web tools are a module of their own, loaded by mcp-switchboard/web alone', () => {
  for (const name of ['convertHtml', 'WebFetch', 'WebSearch', 'mergeWebTools', 'webToolDefinitions', 'webToolsMetadata']) {
    assert.equal(esm[name], undefined, name);
    assert.equal(cjs[name], undefined, name);
  }
  // which modules Node compiled: the package's and, for the gateway, the full one; the web tools' only once mcp-switchboard/web is imported
  const script = `
    const compiled = [];
    const Module = WebAssembly.Module;
    WebAssembly.Module = class extends Module {
      constructor(bytes) {
        super(bytes);
        const names = WebAssembly.Module.exports(this).map((e) => e.name);
        compiled.push(names.includes('convertHtml') ? 'web' : names.includes('engine_new') ? 'full' : 'main');
      }
    };
    await import('./index.mjs');
    await import('./gateway.mjs');
    require('./index.cjs');
    require('./gateway.cjs');
    const before = compiled.join(',');
    const web = await import('./web.mjs');
    const cjsWeb = require('./web.cjs');
    console.log(before, compiled.join(','), Object.keys(web).sort().join(','), cjsWeb.WebFetch === web.WebFetch);
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(join(root, 'pkg/x.cjs'))}); process.chdir(${JSON.stringify(join(root, 'pkg'))}); ${script}`], { cwd: join(root, 'pkg'), encoding: 'utf8' });
  assert.equal(out.trim(), 'main,full main,full,web WebFetch,WebSearch,convertHtml,mergeWebTools,webFetch,webSearch,webToolDefinitions,webTools,webToolsMetadata,withWebTools true');
  // the modules' own exports: the web tools in one, everything else in the other
  const exported = (file) => WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(root, 'pkg', file)))).map((e) => e.name);
  const web = exported('web/mcp_switchboard_web_bg.wasm').filter((n) => !n.startsWith('__') && n !== 'memory');
  assert.ok(web.every((n) => /^(web|convertHtml|mergeWebTools|version)/.test(n)), web.join(', '));
  assert.deepEqual(exported('mcp_switchboard_bg.wasm').filter((n) => /^web|html|mergeWebTools/i.test(n)), []);
});

test('the default module converts, validates, searches and talks to models; mcp-switchboard/full adds the engine, the HTTP gate and the upstream client', () => {
  for (const name of ['convert', 'parseCalls', 'formatResults', 'Validator', 'ToolIndex', 'EntityIndex', 'Conversation', 'runChat']) {
    assert.equal(typeof esm[name], 'function', name);
    assert.equal(typeof cjs[name], 'function', name);
    assert.equal(typeof full[name], 'function', name);
  }
  for (const name of ['Engine', 'HttpGate', 'UpstreamClient']) {
    assert.equal(esm[name], undefined, name);
    assert.equal(typeof full[name], 'function', name);
  }
  const wasm = readFileSync(join(root, 'pkg/full/mcp_switchboard_full_bg.wasm'));
  assert.ok(gzipSync(wasm, { level: 9 }).length > gzipSync(readFileSync(join(root, 'pkg/mcp_switchboard_bg.wasm')), { level: 9 }).length);
});

test('the TypeScript declarations name the API types', () => {
  const dts = readFileSync(join(root, 'pkg/slim.d.mts'), 'utf8');
  for (const needle of ['export function convert<D extends DialectName>(catalog: CatalogInput, options: ConvertOptions<D>): Conversion<D>;', 'export interface ReportEntry', 'export type DialectName', 'export function lint(catalog: CatalogInput): LintReport;']) {
    assert.ok(dts.includes(needle), needle);
  }
  const fullDts = readFileSync(join(root, 'pkg/full/slim.d.mts'), 'utf8');
  assert.ok(fullDts.includes('constructor(catalog: CatalogInput, options?: EngineOptions | null);'));
  assert.doesNotMatch(fullDts.replace(/\/\*\*[\s\S]*?\*\//g, ''), /\bany\b/);
  // no `any` anywhere in a type
  assert.doesNotMatch(dts.replace(/\/\*\*[\s\S]*?\*\//g, ''), /\bany\b/);
});

test('parseCalls, validateArguments and formatResults through the package', () => {
  const catalog = readFileSync(join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json'));
  const conv = esm.convert(catalog, { to: 'gemini' });
  const response = { candidates: [{ content: { role: 'model', parts: [
    { functionCall: { name: 'set_light', args: { deviceId: 'a', state: 'on', dim: '30' } }, thoughtSignature: 'sig' },
    { functionCall: { name: 'nope', args: {} } },
  ] } }] };
  // the Conversion itself or its names map both work
  for (const names of [conv, conv.names]) {
    const turn = esm.parseCalls('gemini', response, names, catalog);
    assert.equal(turn.calls.length, 2);
    assert.deepEqual(turn.calls[0].arguments, { deviceId: 'a', state: 'on', dim: 30 });
    assert.equal(turn.calls[0].request.method, 'tools/call');
    assert.equal(turn.calls[0].thoughtSignature, 'sig');
    assert.match(turn.calls[1].error, /no tool named "nope"/);
    const out = esm.formatResults('gemini', turn, [esm.toolSuccess({ dim: 30 }), null]);
    assert.equal(out.assistant[0].parts[0].thoughtSignature, 'sig');
    assert.deepEqual(out.results[0].parts[0].functionResponse.response, { output: { success: true, dim: 30 } });
    assert.match(out.results[0].parts[1].functionResponse.response.error, /no tool named/);
  }
  const prompted = esm.parseCalls('prompted', 'ok: {"name": "get_states", "arguments": {}}', esm.convert(catalog, { to: 'prompted' }));
  assert.equal(prompted.calls[0].name, 'get_states');
  const tool = esm.readCatalog(catalog).tools.find((t) => t.name === 'set_light');
  const v = esm.validateArguments(tool, { state: 'dim', dim: '250' });
  assert.equal(v.valid, false);
  assert.match(v.message, /deviceId/);
  assert.match(v.message, /\/state/);
  assert.throws(() => esm.parseCalls('gemini', '{broken', conv), (e) => e.code === 'json');
  // a turn keeps its dialect, and its results are written in that dialect only
  const turn = esm.parseCalls('gemini', response, conv, catalog);
  assert.equal(turn.dialect, 'gemini');
  assert.throws(() => esm.formatResults('anthropic', turn, [null, null]), (e) => e.code === 'usage' && /read as gemini/.test(e.message));
  // wrong argument types are TypeErrors that name the argument; the module goes on
  assert.throws(() => esm.validateArguments(42, {}), (e) => e instanceof TypeError && e.code === 'usage' && /tool must be a string or an object, not a number/.test(e.message));
  // a symbol is a value of the type `unknown` the arguments have, but it has no JSON form
  assert.throws(() => esm.validateArguments(tool, Symbol('x')), (e) => !(e instanceof TypeError) && e.code === 'usage');
  assert.throws(() => new full.Engine(catalog).handle({}), (e) => e instanceof TypeError && /message must be a string, not an object/.test(e.message));
  assert.equal(esm.validateArguments(tool, { deviceId: 'a', state: 'on' }).valid, true);
  assert.deepEqual(esm.toolFailure('not found', { deviceId: 'x' }).structuredContent, { success: false, deviceId: 'x', error: 'not found' });
  assert.equal(esm.toolException('boom').isError, true);
  // result helpers: text and structuredContent agree, the flag comes first
  const ok = esm.toolSuccess({ success: false, dim: 0.5, tags: ['a'] });
  assert.deepEqual(ok.structuredContent, { success: true, dim: 0.5, tags: ['a'] });
  assert.equal(ok.content[0].text, '{"success":true,"dim":0.5,"tags":["a"]}');
  assert.deepEqual(esm.toolSuccess([1]).structuredContent, { success: true, result: [1] });
  assert.deepEqual(esm.toolSuccess().structuredContent, { success: true });
  assert.equal(esm.toolFailure('gone', { error: 'old', id: 1 }).content[0].text, '{"success":false,"error":"gone","id":1}');
  assert.throws(() => esm.toolSuccess('{not json'), (e) => e.code === 'json');
  assert.deepEqual(esm.asToolResult(ok), ok);
  assert.deepEqual(esm.asToolResult(7).structuredContent, { success: true, result: 7 });
});

test('the engine, the tool index and the budget through the package', () => {
  const catalog = readFileSync(join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json'));
  const engine = new full.Engine(catalog, { mode: 'hybrid', pageSize: 2 });
  engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'use_tool', arguments: { name: 'toggle_device', arguments: { deviceId: 'lamp' } } } }));
  const out = engine.drain();
  const list = JSON.parse(out[0].message);
  assert.equal(list.result.tools.length, 2);
  assert.ok(list.result.nextCursor);
  const inv = out.find((o) => o.type === 'invoke');
  assert.deepEqual([inv.tool, inv.arguments], ['toggle_device', { deviceId: 'lamp' }]);
  assert.equal(engine.outstanding, 1);
  // a result as spaced-out JSON text goes out compact
  engine.complete(inv.id, '{ "content": [ { "type": "text", "text": "a b" } ] }');
  assert.equal(engine.drain()[0].message, '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"a b"}]}}');
  assert.throws(() => engine.complete(inv.id, esm.toolSuccess({})), (e) => e.code === 'usage' && e.misuse === 'not_outstanding');
  const index = new esm.ToolIndex(catalog);
  assert.equal(index.search('thermostaat', { limit: 1 }).hits[0].name, 'set_thermostat');
  assert.deepEqual(index.suggest('set_ligth', 1), ['set_light']);
  // why it ranked: the reading, each hit's parts adding up to its score
  const why = index.explain('thermostaat', { limit: 1 });
  assert.equal(why.hits[0].name, 'set_thermostat');
  assert.equal(why.reading.kind, 'keywords');
  const h = why.hits[0];
  assert.ok(Math.abs((h.matched + h.nameBonus + h.headBonus) * h.actFactor * h.mediaFactor - h.score) < 1e-3);
  assert.throws(() => index.explain(42), TypeError);
  assert.throws(() => index.explain('x', { limit: 'ten' }), (e) => e.code === 'usage');
  const b = esm.budget(catalog, { to: 'openai' });
  assert.ok(b.meta < b.hybrid && b.hybrid < b.all);
  assert.throws(() => new full.HttpGate('0.0.0.0'), (e) => e.code === 'usage' && e.misuse === 'needs_token');
  // an argument of the wrong kind is a usage error, but no misuse of state
  assert.throws(() => index.explain('x', { limit: 'ten' }), (e) => e.code === 'usage' && e.misuse === undefined);
  const gate = new full.HttpGate('127.0.0.1');
  assert.equal(gate.checkRequest('POST', '/mcp', { 'content-type': 'application/json', origin: 'https://evil.example' }, false).status, 403);
  // a header given as an array counts by its first value
  assert.equal(gate.checkRequest('POST', '/mcp', { 'content-type': 'application/json', origin: ['https://evil.example'] }, false).status, 403);
  assert.equal(gate.checkRequest('POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, false).action, 'read');
  assert.throws(() => gate.checkRequest('POST', '/mcp', 42, false), (e) => e.code === 'usage');
  assert.equal(gate.checkBody('{"jsonrpc":"2.0","method":"notifications/initialized"}', true), 'accepted');
});

test('headers as raw lines (req.rawHeaders joined) read as Node reads req.headers', () => {
  const gate = new full.HttpGate('127.0.0.1', 't0k');
  const raw = (...lines) => lines.join('\n');
  const base = ['Content-Type', 'application/json', 'Accept', 'application/json, text/event-stream', 'Authorization', 'Bearer t0k'];
  // names in any case; the same decisions as from the header object
  assert.equal(gate.checkRequest('POST', '/mcp', raw(...base), false).action, 'read');
  assert.equal(gate.checkRequest('POST', '/mcp', raw(...base, 'ORIGIN', 'https://evil.example'), false).status, 403);
  assert.equal(gate.checkRequest('POST', '/mcp', raw(...base.slice(0, 4), 'authorization', 'Bearer nope'), false).status, 401);
  // a repeated Authorization or Host is refused (RFC 9112: 400), whichever value comes first; a repeated Accept is joined
  assert.equal(gate.checkRequest('POST', '/mcp', raw(...base, 'authorization', 'Bearer nope'), false).status, 400);
  assert.equal(gate.checkRequest('POST', '/mcp', raw(...base.slice(0, 4), 'Authorization', 'Bearer nope', 'Authorization', 'Bearer t0k'), false).status, 400);
  assert.equal(gate.checkRequest('POST', '/mcp', raw(...base, 'Host', '127.0.0.1', 'host', '127.0.0.1'), false).status, 400);
  const joined = gate.checkRequest('POST', '/mcp', raw('content-type', 'application/json', 'accept', 'application/json', 'accept', 'text/event-stream', 'authorization', 'Bearer t0k'), false);
  assert.deepEqual({ action: joined.action, stream: joined.stream }, { action: 'read', stream: true });
  // a repeated session id is joined, so it names no session
  const sid = gate.request('POST', '/mcp', raw(...base, 'Mcp-Session-Id', 'a', 'mcp-session-id', 'b'), 1, null);
  const viaObject = gate.request('POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer t0k', 'mcp-session-id': 'a, b' }, 2, null);
  assert.deepEqual({ ...sid }, { ...viaObject });
  // 2026-07-28 header checks: raw lines as the object
  const modern = raw('content-type', 'application/json', 'MCP-Protocol-Version', '2026-07-28', 'Mcp-Method', 'tools/call', 'mcp-name', 'other');
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
  const fromRaw = gate.checkMessage(modern, body, false);
  const fromObject = gate.checkMessage({ 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'other' }, body, false);
  assert.equal(fromRaw.action, 'refuse');
  assert.deepEqual({ ...fromRaw }, { ...fromObject });
  assert.deepEqual({ ...gate.checkMessage(modern.replace('other', 'ping'), body, false) }, { action: 'stateless', expectsReply: true });
  assert.throws(() => gate.checkMessage(7, body, false), (e) => e.code === 'usage');

  // Mcp-Param-* headers from raw lines: checked against the arguments as from the object
  const catalog = JSON.stringify({ tools: [{ name: 'set', inputSchema: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } } }] });
  const engine = new full.Engine(catalog, {});
  const call = (zone) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'set', arguments: { zone }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
  const outcome = (headers) => {
    engine.handleHttp(1, call('kitchen'), headers);
    const out = engine.drain();
    engine.closeChannel(1);
    engine.drain();
    return out.map((o) => (o.type === 'reply' ? JSON.parse(o.message).error?.code ?? 'result' : o.type));
  };
  assert.deepEqual(outcome(raw('Mcp-Param-Zone', 'kitchen')), ['invoke']);
  assert.deepEqual(outcome(raw('mcp-param-zone', 'hall')), outcome({ 'mcp-param-zone': 'hall' }));
  assert.notDeepEqual(outcome(raw('mcp-param-zone', 'hall')), ['invoke']);
  // repeated: joined (as req.headers joins them), so no longer the argument
  assert.deepEqual(outcome(raw('Mcp-Param-Zone', 'kitchen', 'mcp-param-zone', 'kitchen')), outcome({ 'mcp-param-zone': 'kitchen, kitchen' }));
  assert.notDeepEqual(outcome(raw('Mcp-Param-Zone', 'kitchen', 'mcp-param-zone', 'kitchen')), ['invoke']);
  assert.throws(() => engine.handleHttp(1, call('kitchen'), 7), (e) => e.code === 'usage');
  engine.free();
});

test('the answers the gateway asks for on every request are made once and frozen', () => {
  const gate = new full.HttpGate('127.0.0.1');
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const first = gate.request('POST', '/mcp', headers, 1, null);
  assert.deepEqual({ ...first, close: [...first.close], cors: [...first.cors] }, { action: 'read', maxBody: gate.limits.maxBody, sse: false, stream: true, close: [], cors: [] });
  // the same verdict again is the same object, which no caller can change under the next
  assert.equal(gate.request('POST', '/mcp', headers, 2, null), first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.close));
  assert.throws(() => first.close.push('a-session'), TypeError);
  // other flags, other verdicts; a refusal is made for its request
  const sseOnly = gate.request('POST', '/mcp', { ...headers, accept: 'text/event-stream' }, 3, null);
  assert.equal(sseOnly.action === 'read' || sseOnly.action === 'reject', true);
  assert.notEqual(sseOnly, first);
  const refused = gate.request('POST', '/mcp', { ...headers, origin: 'https://evil.example' }, 4, null);
  assert.equal(refused.status, 403);
  assert.equal(Object.isFrozen(refused), false);

  const engine = new full.Engine(JSON.stringify({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] }), {});
  const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const owed = engine.handleChecked(0, {}, init, 1 << 20);
  assert.deepEqual({ ...owed }, { action: 'handled', owed: true });
  assert.ok(Object.isFrozen(owed));
  engine.drain();
  const none = engine.handleChecked(0, {}, '{"jsonrpc":"2.0","method":"notifications/initialized"}', 1 << 20);
  assert.deepEqual({ ...none }, { action: 'handled', owed: false });
  assert.equal(engine.handleChecked(0, {}, '{"jsonrpc":"2.0","id":1,"method":"ping"}', 1 << 20), owed);
  engine.free();
});

test('validateValue checks a plain value without coercion, in words', () => {
  const either = { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] };
  assert.deepEqual(esm.validateValue(either, {}), {
    valid: false,
    errors: [{ pointer: '', keyword: 'anyOf', message: 'give at least one of a, b' }],
    message: '/: give at least one of a, b.',
  });
  assert.equal(esm.validateValue(either, { b: 1 }).valid, true);
  // a string is a value, not JSON text; nothing is coerced
  assert.equal(esm.validateValue({ type: 'string' }, '{"a": 1}').valid, true);
  assert.equal(esm.validateValue({ type: 'integer' }, '5').message, '/: must be an integer; got "5".');
  assert.equal(esm.validateValue(false, null).valid, false);
  assert.throws(() => esm.validateValue({}, undefined), (e) => e.code === 'usage');
});

test('readCatalog flags tool names MCP does not allow and keeps the tools', () => {
  const { tools, report } = esm.readCatalog([{ name: 'turn on', inputSchema: { type: 'object' } }, { name: 'ok', inputSchema: { type: 'object' } }]);
  assert.deepEqual(tools.map((t) => t.name), ['turn on', 'ok']);
  assert.deepEqual(report.map((e) => [e.tool, e.pointer, e.action]), [['turn on', '/0/name', 'flagged']]);
});
