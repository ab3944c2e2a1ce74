// Several upstream MCP servers behind one gateway (SDK servers started
// here, the SDK client in front): names prefixed by source, calls, prompts
// and resources routed back, list_changed passed on, questions of an
// upstream passed to the client, and an upstream that goes away and comes
// back without taking the others down.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { startGateway } from '../../js/gateway.mjs';
import { connectUpstreams } from '../../js/upstream.mjs';
import { connect, jsonHeaders, raw, serveChild } from './gateway-helpers.mjs';
import { dynamicUpstream, haTools, streamableUpstream, until } from './upstream-servers.mjs';

const toolNames = async (client) => (await client.listTools()).tools.map((t) => t.name);

describe('two upstreams behind one gateway', () => {
  let ha, garden, source, gw, client;
  before(async () => {
    ha = await streamableUpstream({ pageSize: 7 });
    garden = await dynamicUpstream();
    source = await connectUpstreams(
      [
        { name: 'ha', url: ha.url, token: ha.token },
        { name: 'garden', url: garden.url },
      ],
      { reconnectMs: 100, timeoutMs: 2000 },
    );
    gw = await startGateway({ source, engine: { mode: 'all' } });
    ({ client } = await connect(gw.url, {}, { capabilities: { elicitation: {} } }));
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      assert.equal(req.params.message, 'Which name?');
      return { action: 'accept', content: { name: 'Ada' } };
    });
  });
  after(async () => {
    await client.close();
    await gw.close();
    source.close();
    await ha.close();
    await garden.close();
  });

  test('every tool is named <source>__<name>', async () => {
    assert.deepEqual(await toolNames(client), [...haTools.map((t) => `ha__${t.name}`), 'garden__get_state', 'garden__ask_name']);
    assert.match(source.label, /^upstreams ha=http:\S+ \(streamable-http\), garden=http:\S+ \(streamable-http\)$/);
  });

  test('calls reach their upstream under its own names', async () => {
    const r = await client.callTool({ name: 'garden__get_state', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'garden: get_state ok' }]);
    const t = await client.callTool({ name: 'ha__HassTurnOn', arguments: { name: 'Kitchen light' } });
    assert.equal(JSON.parse(t.content[0].text).response_type, 'action_done');
    assert.deepEqual(ha.log.at(-1), { method: 'tools/call', name: 'HassTurnOn', arguments: { name: 'Kitchen light' } });
  });

  test('prompts, resources and templates pass through under the source naming', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['garden__water']);
    const p = await client.getPrompt({ name: 'garden__water', arguments: { zone: 'lawn' } });
    assert.equal(p.messages[0].content.text, 'Water lawn in the garden');
    assert.deepEqual(garden.log.at(-1), { method: 'prompts/get', name: 'water', arguments: { zone: 'lawn' } });
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ['garden+garden://zones']);
    const read = await client.readResource({ uri: 'garden+garden://zones' });
    assert.equal(read.contents[0].text, 'read garden://zones');
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['garden+garden://zone/{id}']);
    await client.readResource({ uri: 'garden+garden://zone/7' });
    assert.deepEqual(garden.log.at(-1), { method: 'resources/read', uri: 'garden://zone/7' });
  });

  test("an upstream's question goes to the client of the call", async () => {
    const r = await client.callTool({ name: 'garden__ask_name', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'accept: Ada' }]);
  });

  test("an upstream's list_changed reaches the gateway's clients", async () => {
    let told = 0;
    client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ToolListChangedNotificationSchema, () => told++);
    await garden.addTool({ name: 'water_now', inputSchema: { type: 'object', properties: {} } });
    await until(async () => (await toolNames(client)).includes('garden__water_now'));
    await until(() => told > 0);
    const r = await client.callTool({ name: 'garden__water_now', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'garden: water_now ok' }]);
  });

  test('an upstream that goes away loses its tools, the others stay; back, it gets them again', async () => {
    const port = garden.port;
    await garden.close();
    await until(async () => !(await toolNames(client)).some((n) => n.startsWith('garden__')));
    assert.ok((await toolNames(client)).includes('ha__HassTurnOn'));
    assert.match(source.label, /garden=http:\S+ \(unavailable\)/);
    assert.match(source.upstreams[1].down, /^upstream http:\/\/127\.0\.0\.1:\d+\/mcp is unreachable \(ECONNREFUSED\)$/);
    // a call to a tool that went away: the engine says so
    await assert.rejects(client.callTool({ name: 'garden__get_state', arguments: {} }), /garden__get_state/);
    // the others go on
    const t = await client.callTool({ name: 'ha__GetLiveContext', arguments: {} });
    assert.match(t.content[0].text, /Live Context/);
    garden = await dynamicUpstream({ port });
    await until(async () => (await toolNames(client)).includes('garden__get_state'));
    const r = await client.callTool({ name: 'garden__get_state', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'garden: get_state ok' }]);
  });
});

test('an upstream down at start is served without its tools and joins when it answers', async () => {
  const ha = await streamableUpstream({ pageSize: 100 });
  const probe = await dynamicUpstream({ name: 'attic' });
  const port = probe.port;
  await probe.close();
  const source = await connectUpstreams(
    [
      { name: 'ha', url: ha.url, token: ha.token },
      { name: 'attic', url: `http://127.0.0.1:${port}/mcp` },
    ],
    { reconnectMs: 100 },
  );
  const gw = await startGateway({ source, engine: { mode: 'all' } });
  const { client } = await connect(gw.url);
  let attic;
  try {
    assert.match(source.label, /attic=http:\S+ \(unavailable\)/);
    const names = await toolNames(client);
    assert.equal(names.length, haTools.length);
    attic = await dynamicUpstream({ name: 'attic', port });
    await until(async () => (await toolNames(client)).includes('attic__get_state'));
  } finally {
    await client.close();
    await gw.close();
    source.close();
    await ha.close();
    await attic?.close();
  }
});

describe('serve with several upstreams', () => {
  test('--upstream NAME=URL twice, a token for one of them', async () => {
    const ha = await streamableUpstream({ token: 'secret=' });
    const garden = await dynamicUpstream();
    const s = await serveChild(['--upstream', `ha=${ha.url}`, '--upstream', `garden=${garden.url}`, '--upstream-token', 'ha=secret=', '--mode', 'all']);
    try {
      const { client } = await connect(s.url);
      const names = await toolNames(client);
      assert.ok(names.includes('ha__HassTurnOn') && names.includes('garden__get_state'), names.join());
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name), ['garden__water']);
      await client.close();
    } finally {
      await s.stop();
      await ha.close();
      await garden.close();
    }
  });

  test('several upstreams need names', async () => {
    await assert.rejects(serveChild(['--upstream', 'http://127.0.0.1:9/a', '--upstream', 'b=http://127.0.0.1:9/b']), /exited with 2: mcp-switchboard: several upstreams need names/);
    await assert.rejects(serveChild(['--upstream', 'a=http://127.0.0.1:9/a', '--upstream', 'a=http://127.0.0.1:9/b']), /exited with 2: mcp-switchboard: two upstreams are named a/);
  });
});

test('one upstream keeps its own names and passes prompts, resources and list changes through', async () => {
  const { connectUpstream } = await import('../../js/upstream.mjs');
  const garden = await dynamicUpstream();
  const source = await connectUpstream(garden.url);
  const gw = await startGateway({ source, engine: { mode: 'all' } });
  const { client } = await connect(gw.url);
  try {
    assert.deepEqual(await toolNames(client), ['get_state', 'ask_name']);
    const p = await client.getPrompt({ name: 'water', arguments: { zone: 'beds' } });
    assert.equal(p.messages[0].content.text, 'Water beds in the garden');
    const read = await client.readResource({ uri: 'garden://zone/3' });
    assert.equal(read.contents[0].text, 'read garden://zone/3');
    // no elicitation offered by this client: the upstream hears a refusal, the call a clear error
    const r = await client.callTool({ name: 'ask_name', arguments: {} });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^Error: upstream http:\S+: .*elicitation/);
    await garden.addTool({ name: 'mow', inputSchema: { type: 'object', properties: {} } });
    await until(async () => (await toolNames(client)).includes('mow'));
  } finally {
    await client.close();
    await gw.close();
    source.close();
    await garden.close();
  }
});

test("a 2026-07-28 client gets an upstream's question as inputRequired, and its retry answers it", async () => {
  const { connectUpstream } = await import('../../js/upstream.mjs');
  const garden = await dynamicUpstream();
  const source = await connectUpstream(garden.url);
  const gw = await startGateway({ source, engine: { mode: 'all' } });
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  /** One stateless tools/call; its result (from JSON or the last event of a stream). */
  const call = async (id, params) => {
    const headers = { ...jsonHeaders, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ask_name' };
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask_name', arguments: {}, ...params, _meta: meta } });
    const r = await raw(gw.url, { headers, body });
    const text = /event-stream/.test(r.headers['content-type']) ? r.body.split('\n').filter((l) => l.startsWith('data: ')).at(-1).slice(6) : r.body;
    return JSON.parse(text).result;
  };
  try {
    const first = await call(1, {});
    assert.equal(first.resultType, 'input_required', JSON.stringify(first));
    const [[key, question]] = Object.entries(first.inputRequests);
    assert.equal(question.method, 'elicitation/create');
    assert.equal(question.params.message, 'Which name?');
    const done = await call(2, { inputResponses: { [key]: { action: 'accept', content: { name: 'Grace' } } }, requestState: first.requestState });
    assert.deepEqual(done.content, [{ type: 'text', text: 'accept: Grace' }]);
    // a retry whose call is over is a new call: the upstream asks again
    const again = await call(3, { inputResponses: {}, requestState: first.requestState });
    assert.equal(again.resultType, 'input_required');
    assert.notEqual(again.requestState, first.requestState);
    assert.equal(garden.log.filter((e) => e.name === 'ask_name').length, 2);
  } finally {
    await gw.close();
    source.close();
    await garden.close();
  }
});

describe('a stdio upstream beside an HTTP one', () => {
  const script = new URL('./upstream-stdio-server.mjs', import.meta.url).pathname;
  let ha, source, gw, client;
  const lines = [];
  before(async () => {
    ha = await streamableUpstream({ pageSize: 100 });
    source = await connectUpstreams(
      [
        { name: 'ha', url: ha.url, token: ha.token },
        { name: 'shed', command: [process.execPath, script, 'shed'] },
      ],
      { reconnectMs: 100, log: (l) => lines.push(l) },
    );
    gw = await startGateway({ source, engine: { mode: 'all' } });
    ({ client } = await connect(gw.url, {}, { capabilities: { elicitation: {} } }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Lin' } }));
  });
  after(async () => {
    await client.close();
    await gw.close();
    source.close();
    await ha.close();
  });

  test('its tools, prompts and questions pass through; what it logs goes to the log', async () => {
    assert.match(source.label, /shed=\S+ \S+upstream-stdio-server\.mjs shed \(stdio\)/);
    const names = await toolNames(client);
    assert.deepEqual(names.filter((n) => n.startsWith('shed__')), ['shed__get_state', 'shed__ask_name', 'shed__add_tool', 'shed__crash']);
    const r = await client.callTool({ name: 'shed__get_state', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'shed: get_state ok' }]);
    const asked = await client.callTool({ name: 'shed__ask_name', arguments: {} });
    assert.deepEqual(asked.content, [{ type: 'text', text: 'accept: Lin' }]);
    const p = await client.getPrompt({ name: 'shed__water', arguments: { zone: 'pots' } });
    assert.equal(p.messages[0].content.text, 'Water pots in the shed');
    assert.ok(lines.some((l) => /upstream \S+ \S+ shed: shed server starting/.test(l)), lines.join('\n'));
  });

  test('list_changed over stdio reaches the clients', async () => {
    await client.callTool({ name: 'shed__add_tool', arguments: {} });
    await until(async () => (await toolNames(client)).includes('shed__added_4'));
  });

  test('a process that ends loses its tools and is started again', async () => {
    await client.callTool({ name: 'shed__crash', arguments: {} });
    await until(() => source.upstreams[1].down);
    assert.match(source.upstreams[1].down, /is unreachable \(the process exited with code 3\)$/);
    await until(async () => (await toolNames(client)).includes('shed__get_state'));
    const r = await client.callTool({ name: 'shed__get_state', arguments: {} });
    assert.deepEqual(r.content, [{ type: 'text', text: 'shed: get_state ok' }]);
  });
});

test('serve --upstream with a stdio command', async () => {
  const script = new URL('./upstream-stdio-server.mjs', import.meta.url).pathname;
  const s = await serveChild(['--upstream', `${process.execPath} ${script} attic`, '--mode', 'all']);
  try {
    const { client } = await connect(s.url);
    assert.deepEqual(await toolNames(client), ['get_state', 'ask_name', 'add_tool', 'crash']);
    await client.close();
  } finally {
    await s.stop();
  }
});
