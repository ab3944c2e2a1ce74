// Calls every export of the installed package with arguments of the wrong
// type, one argument at a time, and checks that each call throws a typed
// error (a TypeError with code "usage" naming the argument when the type is
// wrong, code "limit" for a string past the input limit) and never traps,
// and that the module still works after every call.
// Usage: node wrong-types.mjs SIGNATURES.json esm|cjs [ENTRY]
// SIGNATURES.json is what js/checked-api.mjs reads from the declarations
// ({functions, classes, limit}) of ENTRY's module: mcp-switchboard (the
// default), mcp-switchboard/full (the same with the engine, the HTTP gate and
// the upstream client) or
// mcp-switchboard/web (the web tools' module, of which the entry exports
// what it declares); every declared export needs a sample
// below.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [file, mode, entry = 'mcp-switchboard'] = process.argv.slice(2);
const signatures = JSON.parse(readFileSync(file, 'utf8'));
const { limit, kinds } = signatures;
const load = (name) => (mode === 'cjs' ? createRequire(import.meta.url)(name) : import(name));
const main = await load('mcp-switchboard');
const sb = entry === 'mcp-switchboard' ? main : await load(entry);
// the web entry exports its module's functions but version()
const functions = signatures.functions.filter((f) => f.name in sb || entry === 'mcp-switchboard');
const { classes } = signatures;

const catalog = '[{"name": "set_light", "description": "Sets a light", "inputSchema": {"type": "object", "properties": {"on": {"type": "boolean"}}, "required": ["on"]}}]';
const tool = JSON.parse(catalog)[0];
const conversion = main.convert(catalog, { to: 'openai' });
const response = { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'set_light', arguments: '{"on": true}' } }] } }] };
const turn = main.parseCalls('openai', response, conversion, catalog);
// what shows that the module still works
const works = entry === 'mcp-switchboard/web' ? () => JSON.stringify(sb.convertHtml('<h1>Hi</h1>')) : () => JSON.stringify(sb.convert(catalog, { to: 'gemini' }));
const baseline = works();

/** Valid arguments for every export. */
const SAMPLES = {
  convert: () => [catalog, { to: 'gemini' }],
  convertJson: () => [catalog, 'gemini', false],
  lint: () => [catalog],
  readCatalog: () => [catalog],
  dialects: () => [],
  version: () => [],
  parseCalls: () => ['openai', response, conversion, catalog],
  formatResults: () => ['openai', turn, [main.toolSuccess({ ok: 1 })]],
  validateArguments: () => [tool, { on: true }],
  validateValue: () => [{ type: 'integer' }, 5],
  toolSuccess: () => [{ a: 1 }],
  toolFailure: () => ['no', { id: 1 }],
  toolException: () => ['boom'],
  asToolResult: () => [{ a: 1 }],
  asToolResultJson: () => [{ a: 1 }],
  budget: () => [catalog, { to: 'openai' }],
  classifyReply: () => [200, 'application/json', false, true],
  readReply: () => ['{"jsonrpc": "2.0", "id": 1, "result": {}}', 'application/json'],
  resultFor: () => [[{ jsonrpc: '2.0', id: 1, result: { ok: true } }], 1],
  readLegacyEvent: () => [{ event: 'endpoint', data: '/messages' }],
  'new Engine': () => [catalog, { mode: 'all' }],
  'Engine.handle': () => ['{"jsonrpc": "2.0", "id": 1, "method": "ping"}'],
  'Engine.drain': () => [],
  'Engine.complete': () => [1, main.toolSuccess({})],
  'Engine.completeValue': () => [1, { on: true }],
  'Engine.handleChecked': () => [1, { 'mcp-protocol-version': '2025-06-18' }, '{"jsonrpc": "2.0", "id": 1, "method": "ping"}', 1000],
  'Engine.fail': () => [1, 'failed'],
  'Engine.setCatalog': () => [catalog],
  'Engine.setMode': () => ['hybrid'],
  'Engine.handleOn': () => [1, '{"jsonrpc": "2.0", "id": 1, "method": "ping"}'],
  'Engine.handleHttp': () => [1, '{"jsonrpc": "2.0", "id": 1, "method": "ping"}', { 'mcp-param-region': 'nl' }],
  'Engine.closeChannel': () => [1],
  'Engine.endSubscriptions': () => [],
  'Engine.setSurface': () => [{ resources: [], templates: [], prompts: [] }],
  'Engine.setSources': () => [[{ name: 'home', catalog }]],
  'Engine.resourceUpdated': () => ['file:///a.txt', null],
  'Engine.progress': () => [1, 0.5, 1, 'half'],
  'Engine.log': () => [null, 'info', { text: 'x' }, 'test'],
  'Engine.ask': () => [1, 'roots/list', {}],
  'Engine.inputRequired': () => [1, { a: { method: 'roots/list' } }, 'state'],
  'Engine.setExposure': () => [{ readOnly: true }],
  'Engine.fork': () => [],
  'Engine.follow': () => [new sb.Engine(catalog)],
  'Engine.handleTimeout': () => [1000],
  'Engine.pollTimeout': () => [],
  'Engine.setWaitingFor': () => ['upstream hub'],
  checkSourceName: () => ['hub'],
  'new EntityIndex': () => [{ zones: [{ id: 'z1', name: 'Kitchen' }], devices: [{ id: 'd1', name: 'Ceiling light', zone: 'z1', class: 'light' }] }],
  'EntityIndex.resolve': () => ['kitchen light', { limit: 2 }],
  'new ToolIndex': () => [catalog, { tools: {} }],
  'ToolIndex.search': () => ['light', { limit: 2 }],
  'ToolIndex.explain': () => ['light', { limit: 2 }],
  'ToolIndex.suggest': () => ['set_ligth', 1],
  'new Validator': () => [catalog],
  'Validator.validate': () => ['set_light', { on: true }],
  'new HttpGate': () => ['127.0.0.1', null, { maxBody: 1000 }],
  'HttpGate.checkRequest': () => ['POST', '/mcp', { 'content-type': 'application/json' }, false],
  'HttpGate.checkBody': () => ['{}', false],
  'HttpGate.checkBodySize': () => [10],
  'HttpGate.outcome': () => ['ended'],
  'HttpGate.checkMessage': () => [{ 'content-type': 'application/json' }, '{"jsonrpc": "2.0", "id": 1, "method": "ping"}', false],
  'HttpGate.request': () => ['POST', '/mcp', { 'content-type': 'application/json' }, 1, '10.0.0.1'],
  'HttpGate.openSession': () => ['s1', 1],
  'HttpGate.finished': () => ['s1', 2],
  'HttpGate.streamClosed': () => ['s1', 2],
  'HttpGate.remove': () => ['s1'],
  'HttpGate.sweep': () => [3],
  'HttpGate.setToken': () => ['t0k'],
  'HttpGate.setOrigins': () => [['https://app.example']],
  'HttpGate.events': () => [],
  'HttpGate.lockouts': () => [1000],
  'HttpGate.connectionOpened': () => [7, '10.0.0.2'],
  'HttpGate.connectionClosed': () => [7],
  'HttpGate.statelessEnded': () => [1],
  'new ReplyBody': () => [1000],
  'ReplyBody.push': () => [new TextEncoder().encode('{"jsonrpc": "2.0", "id": 1, "result": {}}')],
  'ReplyBody.messages': () => ['application/json'],
  'new SseParser': () => [4096],
  'SseParser.push': () => ['data: x\n\n'],
  'new ClientSession': () => [],
  'ClientSession.initialize': () => ['client', '1.0'],
  'ClientSession.initialized': () => [],
  'ClientSession.setSessionId': () => ['s1'],
  'ClientSession.setProtocolVersion': () => ['2025-06-18'],
  'ClientSession.headers': () => ['token'],
  'ClientSession.listTools': () => [null],
  'ClientSession.callTool': () => ['set_light', { on: true }],
  'new UpstreamClient': () => ['http://127.0.0.1:9/mcp', { timeoutMs: 1000, capabilities: {} }],
  'UpstreamClient.connect': () => [1000],
  'UpstreamClient.call': () => ['tools/call', { name: 'set_light', arguments: { on: true } }, 1000, 500],
  'UpstreamClient.cancel': () => [1, 1000],
  'UpstreamClient.relay': () => ['tool', 'set_light', { on: true }, 'legacy', 1000],
  'UpstreamClient.decline': () => [1, 'the user said no', 1000],
  'UpstreamClient.answerInputs': () => [1, { 'upstream-1': { action: 'accept' } }, 1000],
  'UpstreamClient.answer': () => [1, { action: 'accept' }, 1000],
  'UpstreamClient.refuse': () => [1, -32601, 'not offered', 1000],
  'UpstreamClient.close': () => [1000],
  'UpstreamClient.responseHead': () => [1, 200, { 'content-type': 'application/json' }, 1000],
  'UpstreamClient.responseChunk': () => [1, new Uint8Array([123, 125]), 1000],
  'UpstreamClient.responseEnd': () => [1, 1000],
  'UpstreamClient.responseError': () => [1, 'ECONNRESET', 1000],
  'UpstreamClient.receive': () => [new Uint8Array([123, 125, 10]), 1000],
  'UpstreamClient.exited': () => ['the process exited with code 1', 1000],
  'UpstreamClient.handleTimeout': () => [1000],
  'UpstreamClient.pollTimeout': () => [],
  'UpstreamClient.pollOutput': () => [],
  'UpstreamClient.items': () => ['tools'],
  'UpstreamClient.source': () => ['hub'],
  providers: () => [],
  'new Conversation': () => [catalog, { provider: 'openai', model: 'm', apiKey: 'k' }],
  'Conversation.send': () => ['hi', 1000],
  'Conversation.poll': () => [],
  'Conversation.pollTimeout': () => [],
  'Conversation.handleTimeout': () => [1000],
  'Conversation.response': () => [1, 200, [['content-type', 'application/json']], 1000],
  'Conversation.body': () => [1, new Uint8Array([123, 125]), 1000],
  'Conversation.end': () => [1, 1000],
  'Conversation.failure': () => [1, 'ECONNRESET', 1000],
  'Conversation.complete': () => ['c1', { content: [] }, 1000],
  'Conversation.fail': () => ['c1', 'boom', 1000],
  'Conversation.setCatalog': () => [catalog],
  'Conversation.history': () => [],
  'Conversation.tools': () => [],
  'Conversation.toolsReport': () => [],
  convertHtml: () => ['<h1>Hi</h1>', { format: 'text' }],
  webToolDefinitions: () => [{ search: false }],
  webToolsMetadata: () => [],
  mergeWebTools: () => [catalog, { metadata: { tools: {} } }],
  'new WebFetch': () => [{ url: 'http://example.com/' }, { allowPrivate: false }],
  'WebFetch.timeoutMs': () => [],
  'WebFetch.start': () => [],
  'WebFetch.resolved': () => [['93.184.215.14']],
  'WebFetch.resolveFailed': () => ['ENOTFOUND'],
  'WebFetch.response': () => [200, [['content-type', 'text/html']]],
  'WebFetch.body': () => [new Uint8Array([60, 112, 62])],
  'WebFetch.end': () => [],
  'WebFetch.bodyBytes': () => [],
  'WebFetch.decoded': () => ['<p>x</p>'],
  'WebFetch.decodeFailed': () => [],
  'WebFetch.timedOut': () => [],
  'WebFetch.failed': () => ['ECONNRESET'],
  'WebFetch.codingFailed': () => ['incorrect header check'],
  'WebFetch.codings': () => [],
  'new WebSearch': () => [{ query: 'thermostat manual' }, { endpoint: 'http://127.0.0.1:9/mcp', timeoutMs: 1000 }],
  'WebSearch.start': () => [],
  'WebSearch.response': () => [200, 'application/json'],
  'WebSearch.body': () => [new Uint8Array([123, 125])],
  'WebSearch.end': () => [],
  'WebSearch.timedOut': () => [],
  'WebSearch.failed': () => ['ECONNREFUSED'],
};

const huge = 'x'.repeat(limit + 1);
const WRONG = [
  ['undefined', undefined],
  ['null', null],
  ['a number', 42],
  ['a boolean', true],
  ['an object', { a: 1 }],
  ['an array', [1]],
  ['a symbol', Symbol('s')],
  ['a function', () => 1],
  ['a bigint', 1n],
  ['a huge string', huge],
];
const CODES = new Set(['json', 'shape', 'upstream', 'limit', 'usage']);

function kind(v) {
  if (v === null) return kinds.null;
  if (Array.isArray(v)) return kinds.array;
  if (v instanceof Uint8Array) return kinds.bytes;
  return kinds[typeof v];
}

let calls = 0;
const failures = [];

/** Runs one call; checks what it threw against what the argument's type allows. */
function attempt(label, call, param, value) {
  calls += 1;
  try {
    call();
    if (param && !(param.mask & kind(value))) failures.push(`${label}: no TypeError`);
    if (value === huge && param) failures.push(`${label}: no limit error`);
  } catch (e) {
    if (!(e instanceof Error) || !CODES.has(e.code) || typeof e.pointer !== 'string') {
      failures.push(`${label}: threw ${e?.constructor?.name}: ${e?.message} (code ${e?.code})`);
    } else if (param && !(param.mask & kind(value))) {
      if (!(e instanceof TypeError) || e.code !== 'usage' || !e.message.includes(param.name)) failures.push(`${label}: ${e.constructor.name} ${e.code}: ${e.message}`);
    } else if (param && value === huge && e.code !== 'limit') {
      failures.push(`${label}: ${e.code}: ${e.message}`);
    }
  }
  // the module still works
  assert.equal(works(), baseline, `after ${label}`);
}

const sample = (name) => {
  assert.ok(SAMPLES[name], `no sample arguments for ${name}: add them to tests/js/consumer/wrong-types.mjs`);
  return SAMPLES[name]();
};

for (const f of functions) {
  const ok = sample(f.name);
  attempt(`${f.name}(sample)`, () => sb[f.name](...ok));
  f.params.forEach((p, i) => {
    for (const [what, value] of WRONG) {
      const args = [...ok];
      args[i] = value;
      attempt(`${f.name}() with ${p.name} = ${what}`, () => sb[f.name](...args), p, value);
    }
  });
}

for (const c of classes) {
  const Class = sb[c.name];
  const ctorArgs = sample(`new ${c.name}`);
  c.ctor.forEach((p, i) => {
    for (const [what, value] of WRONG) {
      const args = [...ctorArgs];
      args[i] = value;
      attempt(`new ${c.name}() with ${p.name} = ${what}`, () => new Class(...args).free(), p, value);
    }
  });
  for (const m of c.methods) {
    const obj = new Class(...ctorArgs);
    const ok = sample(`${c.name}.${m.name}`);
    attempt(`${c.name}.${m.name}(sample)`, () => obj[m.name](...ok));
    m.params.forEach((p, i) => {
      for (const [what, value] of WRONG) {
        const args = [...ok];
        args[i] = value;
        attempt(`${c.name}.${m.name}() with ${p.name} = ${what}`, () => obj[m.name](...args), p, value);
      }
    });
    // the object itself still works, on another object it is refused, freed it says so
    attempt(`${c.name}.${m.name}(sample) again`, () => obj[m.name](...ok));
    assert.throws(() => Class.prototype[m.name].call({}, ...ok), (e) => e instanceof TypeError && e.code === 'usage');
    obj.free();
    obj.free();
    if (Symbol.dispose) obj[Symbol.dispose]();
    assert.throws(() => obj[m.name](...ok), (e) => e.code === 'usage' && /freed/.test(e.message));
  }
}

// an object whose JSON passes the limit is refused before it is copied
const tooLarge = { tools: [{ name: 'x', description: huge }] };
const web = entry === 'mcp-switchboard/web';
if (!web) assert.throws(() => sb.convert(tooLarge, { to: 'gemini' }), (e) => e.code === 'limit');
else assert.throws(() => sb.mergeWebTools(tooLarge), (e) => e.code === 'limit');
// cyclic and BigInt-holding values cannot be JSON
const cyclic = {};
cyclic.self = cyclic;
assert.throws(() => (!web ? sb.lint(cyclic) : sb.mergeWebTools(cyclic)), (e) => e.code === 'usage');
assert.throws(() => main.toolSuccess({ n: 1n }), (e) => e.code === 'usage');

assert.deepEqual(failures, [], failures.join('\n'));
console.log(`ok: ${calls} calls`);
