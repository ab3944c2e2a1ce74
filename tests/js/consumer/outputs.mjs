// Writes types/outputs.mts: real outputs of the installed package (corpus
// catalogs in every dialect, model turns, results, validation, search, the
// engine, the gateway's helpers), each as a literal that must `satisfies`
// its declared type. tsc then checks, without `skipLibCheck`, that every
// output has the declared shape: no field missing, none the types do not
// name, no value of another type.
// Usage: node outputs.mjs CORPUS_DIR
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import * as sb from 'mcp-switchboard/full';

const corpus = process.argv[2];
const read = (file) => readFileSync(join(corpus, file), 'utf8');
const edge = Object.entries(JSON.parse(read('schema-edge-cases.json'))).map(([name, inputSchema]) => ({ name, description: 'edge', inputSchema }));
const catalogs = {
  'home-assistant': read('home-assistant-2025.4.tools-list.json'),
  homey: read('homey-ai-chat-control-2.2.1.tools-list.json'),
  edge: JSON.stringify(edge),
};

const out = [];
const check = (type, value) => out.push(`export const o${out.length} = ${JSON.stringify(value)} satisfies ${type};`);
const lit = (s) => JSON.stringify(s);

for (const [name, catalog] of Object.entries(catalogs)) {
  for (const to of sb.dialects()) {
    for (const strict of [false, true]) check(`Conversion<${lit(to)}>`, sb.convert(catalog, { to, strict }));
  }
  // progressive disclosure: the meta-tools, and the providers' own tool search (hybrid elsewhere)
  for (const to of sb.dialects()) {
    for (const disclosure of ['hybrid', 'meta', 'native', 'auto']) check(`Conversion<${lit(to)}>`, sb.convert(catalog, { to, disclosure }));
  }
  for (const to of ['anthropic', 'openai-responses']) {
    check(`Conversion<${lit(to)}>`, sb.convert(catalog, { to, disclosure: 'native', searchWith: 'provider', providerSearch: 'regex', strict: true }));
  }
  check('LintReport', sb.lint(catalog));
  check('ReturnType<typeof readCatalog>', sb.readCatalog(catalog));
  check('Budget', sb.budget(catalog));
  check('Budget', sb.budget(catalog, { to: 'openai', core: [] }));
  const index = new sb.ToolIndex(catalog);
  check('SearchResults', index.search('zet het licht aan', { limit: 5 }));
  check('string[]', index.suggest(`${name}_x`, 3));
  const validator = new sb.Validator(catalog);
  for (const tool of sb.readCatalog(catalog).tools.slice(0, 5)) {
    check('Validation', validator.validate(tool.name, { brightness: '50', extra: [1] }));
    check('Validation', sb.validateArguments(tool, '{}'));
  }
}
check('DialectName[]', sb.dialects());
out.push(`export const allDialects = ${JSON.stringify(sb.dialects())} as const satisfies readonly DialectName[];`);
out.push('export const everyDialectListed: [Exclude<DialectName, (typeof allDialects)[number]>] extends [never] ? true : false = true;');

// model turns and their results, in every dialect
const catalog = catalogs.homey;
const responses = {
  gemini: { candidates: [{ content: { role: 'model', parts: [{ text: 'Sure.' }, { functionCall: { name: 'set_light', args: { deviceId: 'a', state: 'on' } }, thoughtSignature: 'sig' }, { functionCall: { id: 'g2', name: 'nope', args: {} } }] } }] },
  'gemini-json': { toolCall: { functionCalls: [{ id: 'l1', name: 'get_states', args: {} }] } },
  openai: { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'set_light', arguments: '{"deviceId": "a", "state": "on"}' } }, { id: 'c2', type: 'function', function: { name: 'set_light', arguments: '{broken' } }] } }] },
  'openai-responses': { output: [{ type: 'reasoning', id: 'r1', summary: [] }, { type: 'function_call', call_id: 'f1', name: 'get_states', arguments: '{}' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }] },
  anthropic: { content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: 'On it.' }, { type: 'tool_use', id: 't1', name: 'set_light', input: { deviceId: 'a', state: 'on' } }] },
  vscode: [{ value: 'Calling.' }, { callId: 'v1', name: 'get_states', input: {} }],
  prompted: 'Calling {"name": "get_states", "arguments": {}} now',
};
// the native tool search read back: searches kept in the history, never calls
const nativeResponses = {
  anthropic: { content: [{ type: 'server_tool_use', id: 's1', name: 'tool_search_tool_bm25', input: { query: 'lights' }, caller: { type: 'direct' } }, { type: 'tool_search_tool_result', tool_use_id: 's1', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'set_light' }] } }, { type: 'tool_use', id: 't1', name: 'set_light', input: { deviceId: 'a', state: 'on' } }], stop_reason: 'tool_use' },
  'openai-responses': { output: [{ type: 'tool_search_call', id: 'ts1', call_id: 'c9', execution: 'client', arguments: { query: 'lights' }, status: 'completed' }] },
};
for (const [dialect, response] of Object.entries(nativeResponses)) {
  const turn = sb.parseCalls(dialect, response, sb.convert(catalog, { to: dialect, disclosure: 'native' }), catalog);
  check(`ModelTurn<${lit(dialect)}>`, turn);
}
const image = { content: [{ type: 'image', mimeType: 'image/png', data: 'aGk=' }, { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zy8+' }] };
for (const [dialect, response] of Object.entries(responses)) {
  const turn = sb.parseCalls(dialect, response, sb.convert(catalog, { to: dialect }), catalog);
  check(`ModelTurn<${lit(dialect)}>`, turn);
  const outcomes = [sb.toolSuccess({ on: true }), sb.toolFailure('busy', { retry: 1 }), sb.toolException('boom'), image, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'down' } }, null];
  const results = turn.calls.map((_, i) => outcomes[i % outcomes.length]);
  check(`{ assistant: AssistantItem<${lit(dialect)}>[]; results: ResultItem<${lit(dialect)}>[] }`, sb.formatResults(dialect, turn, results));
  check(`{ assistant: AssistantItem<${lit(dialect)}>[]; results: ResultItem<${lit(dialect)}>[] }`, sb.formatResults(dialect, turn, turn.calls.map(() => image)));
}

// tool results
check('ToolSuccess', sb.toolSuccess({ dim: 0.5 }));
check('ToolSuccess', sb.toolSuccess([1, 2]));
check('ToolSuccess', sb.toolSuccess());
check('ToolFailure', sb.toolFailure('gone'));
check('ToolFailure', sb.toolFailure('gone', { id: 1 }));
check('ToolException', sb.toolException('boom'));
check('ToolSuccess', sb.asToolResult(7));
check('CallToolResult', sb.asToolResult(image));
check('string', sb.asToolResultJson({ a: 1 }));

// the engine
const engine = new sb.Engine(catalog, { mode: 'hybrid', pageSize: 3, name: 'home', instructions: 'Be brief.' });
for (const message of [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'use_tool', arguments: { name: 'set_light', arguments: { deviceId: 'a', state: 'on' } } } },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'light' } } },
  { jsonrpc: '2.0', id: 5, method: 'nope' },
]) {
  engine.handle(JSON.stringify(message));
}
const drained = engine.drain();
check('EngineOutput[]', drained);
const invoke = drained.find((o) => o.type === 'invoke');
engine.complete(invoke.id, sb.toolSuccess({ on: true }));
engine.setMode('all');
check('EngineOutput[]', engine.drain());
engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'set_light', arguments: { deviceId: 'a', state: 'on' } } }));
const [second] = engine.drain();
engine.handle(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6 } }));
check('EngineOutput[]', [second, ...engine.drain()]);
// an invocation past its deadline: the engine answers it ("timedOut", then the reply)
engine.handle(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'set_light', arguments: { deviceId: 'a', state: 'on' } } }));
engine.drain();
engine.handleTimeout(0);
const due = engine.pollTimeout();
check('number | undefined', due);
engine.handleTimeout(/** @type {number} */ (due));
check('EngineOutput[]', engine.drain());

// the gateway's helpers
const gate = new sb.HttpGate('127.0.0.1', null, { maxBody: 1000, origins: ['https://app.example'] });
for (const [method, headers, known] of [
  ['POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, false],
  ['POST', { 'content-type': 'application/json', origin: 'https://evil.example' }, false],
  ['GET', { accept: 'text/event-stream', 'mcp-session-id': 's' }, true],
  ['DELETE', { 'mcp-session-id': 's' }, true],
  ['PUT', {}, false],
]) {
  check('HttpAction', gate.checkRequest(method, '/mcp', headers, known));
}
check('HttpAction', gate.checkRequest('POST', '/elsewhere', {}, false));
for (const [body, session] of [['{"jsonrpc":"2.0","id":1,"method":"initialize"}', false], ['{"jsonrpc":"2.0","id":1,"method":"ping"}', true], ['{"jsonrpc":"2.0","method":"notifications/initialized"}', true], ['{"jsonrpc":"2.0","id":1,"method":"ping"}', false], ['x'.repeat(2000), true]]) {
  check('BodyAction', gate.checkBody(body, session));
}
check('HttpAction | null', gate.checkBodySize(10));
check('HttpAction | null', gate.checkBodySize(5000));
for (const o of ['too-large', 'no-session', 'accepted', 'cancelled', 'ended']) check('{ status: number; message: string }', gate.outcome(o));
const session = new sb.ClientSession();
check('ClientRequest', session.initialize('client', '1.0'));
check('ClientRequest', session.listTools(null));
check('ClientRequest', session.callTool('set_light', { on: true }));
check('string', session.initialized());
session.setSessionId('s1');
check('{ [name: string]: string }', session.headers('token'));
const parser = new sb.SseParser();
check('ServerSentEvent[]', parser.push('event: endpoint\ndata: /messages?s=1\n\nid: 7\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'));
check('LegacyStreamEvent | null', sb.readLegacyEvent({ event: 'endpoint', data: '/messages?s=1' }));
check('LegacyStreamEvent | null', sb.readLegacyEvent({ event: 'message', data: '{"jsonrpc":"2.0","id":1,"result":{}}' }));
check('LegacyStreamEvent | null', sb.readLegacyEvent({ event: 'ping', data: '' }));
for (const [status, type, init, has] of [[200, 'application/json', false, true], [202, '', false, true], [404, 'text/plain', true, false], [404, 'text/plain', false, true], [500, 'text/plain', false, true]]) {
  check('UpstreamAction', sb.classifyReply(status, type, init, has));
}
// the upstream client, against a scripted 2026-07-28 server
const upstream = new sb.UpstreamClient('http://hub.local/mcp', { timeoutMs: 100 });
const drainUpstream = () => {
  const all = [];
  for (let o = upstream.pollOutput(); o; o = upstream.pollOutput()) all.push(o);
  return all;
};
const replyTo = (send, reply) => {
  upstream.responseHead(send.exchange, 200, { 'content-type': 'application/json' }, 1);
  upstream.responseChunk(send.exchange, new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(send.body).id, ...reply })), 1);
  upstream.responseEnd(send.exchange, 1);
};
upstream.connect(0);
const [probe] = drainUpstream();
check('UpstreamOutput', probe);
replyTo(probe, { result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hub', version: '1' } } } });
for (const o of drainUpstream()) {
  check('UpstreamOutput', o);
  if (o.type === 'send') replyTo(o, { result: { tools: [{ name: 'set_light', inputSchema: { type: 'object' } }] } });
}
for (const o of drainUpstream()) check('UpstreamOutput', o);
upstream.call('tools/call', { name: 'set_light', arguments: {} }, 2);
replyTo(drainUpstream()[0], { error: { code: -32602, message: 'Unknown tool' } });
upstream.call('prompts/get', { name: 'assist' }, 3);
drainUpstream(); // the prompts/get request, left unanswered
upstream.handleTimeout(upstream.pollTimeout());
for (const o of drainUpstream()) check('UpstreamOutput', o);
check('SourceInput', upstream.source('hub'));
check('object[]', upstream.items('tools'));
upstream.close(200);
check('number | undefined', upstream.pollTimeout());
check('object[]', sb.readReply('data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n', 'text/event-stream'));

const types = [
  'Budget', 'BodyAction', 'CallToolResult', 'ClientRequest', 'Conversion', 'DialectName', 'EngineOutput', 'HttpAction', 'LegacyStreamEvent', 'LintReport', 'ModelTurn',
  'AssistantItem', 'ResultItem', 'SearchResults', 'ServerSentEvent', 'ToolException', 'ToolFailure', 'ToolSuccess', 'UpstreamAction', 'UpstreamOutput', 'SourceInput', 'Validation', 'readCatalog',
];
writeFileSync(
  'types/outputs.mts',
  [
    '// Generated by outputs.mjs: real outputs of the package, each checked against its declared type.',
    `import type { ${types.filter((t) => t !== 'readCatalog').join(', ')} } from 'mcp-switchboard/full';`,
    "import type { readCatalog } from 'mcp-switchboard/full';",
    ...out,
    '',
  ].join('\n'),
);
console.log(`ok: ${out.length} outputs`);
