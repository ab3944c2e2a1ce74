// The gateway in front of independent upstream MCP servers (the SDK's
// McpServer) serving the Home Assistant 2025.4 catalog: Streamable HTTP
// (SSE and JSON replies, paged tools/list, bearer token, session expiry),
// the legacy HTTP+SSE transport, and upstream failures as clear tool errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startGateway } from '../../js/gateway.mjs';
import { connectUpstream } from '../../js/upstream.mjs';
import { connect, listAll, proxied, serveChild, structured } from './gateway-helpers.mjs';
import { haTools, legacyUpstream, streamableUpstream } from './upstream-servers.mjs';

const names = haTools.map((t) => t.name);

/** search_tools then use_tool through a hybrid gateway. */
async function turnOnKitchen(client) {
  const found = structured(await client.callTool({ name: 'search_tools', arguments: { query: 'turn on the light' } }));
  assert.ok(found.hits.slice(0, 3).some((h) => h.name === 'HassTurnOn'), JSON.stringify(found.hits.map((h) => h.name)));
  const r = await client.callTool({ name: 'use_tool', arguments: { name: 'HassTurnOn', arguments: { name: 'Kitchen light', domain: ['light'] } } });
  assert.ok(!r.isError, JSON.stringify(r));
  return JSON.parse(r.content[0].text);
}

describe('Streamable HTTP upstream (SSE replies, paged list, token)', () => {
  let upstream, proxy, source, client;
  before(async () => {
    upstream = await streamableUpstream({ pageSize: 5 });
    proxy = await proxied(upstream.url, { token: upstream.token }, { engine: { mode: 'hybrid' }, timeoutMs: 500 });
    ({ source, client } = proxy);
  });
  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('the whole catalog is read, following nextCursor', () => {
    assert.equal(source.transport, 'streamable-http');
    assert.deepEqual(JSON.parse(source.catalog).tools.map((t) => t.name), names);
    assert.deepEqual(
      upstream.log.filter((e) => e.method === 'tools/list').map((e) => e.cursor),
      [null, '5', '10', '15'],
    );
  });

  test('hybrid mode in front: core tools plus meta-tools', async () => {
    const { tools } = await listAll(client);
    const listed = tools.map((t) => t.name);
    assert.ok(listed.includes('GetLiveContext'));
    assert.ok(listed.includes('search_tools') && listed.includes('use_tool'));
    assert.ok(!listed.includes('HassTurnOn'));
  });

  test('search_tools → use_tool reaches the upstream with the arguments', async () => {
    const result = await turnOnKitchen(client);
    assert.equal(result.response_type, 'action_done');
    assert.deepEqual(upstream.log.at(-1), { method: 'tools/call', name: 'HassTurnOn', arguments: { name: 'Kitchen light', domain: ['light'] } });
  });

  test('a core tool is called directly', async () => {
    const r = await client.callTool({ name: 'GetLiveContext', arguments: {} });
    assert.match(r.content[0].text, /Kitchen light is off/);
  });

  test('an upstream JSON-RPC error becomes a tool error naming the upstream', async () => {
    const r = await client.callTool({ name: 'use_tool', arguments: { name: 'calendar_get_events', arguments: { calendar: 'Family', range: 'today' } } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^Error: upstream http:\/\/127\.0\.0\.1:\d+\/api\/mcp: .*calendar\.family is unavailable/);
  });

  test('a slow upstream call times out as a tool error', async () => {
    const r = await client.callTool({ name: 'use_tool', arguments: { name: 'good_night', arguments: { delay: 1 } } });
    // the message names the upstream the call waited for
    assert.deepEqual(r, { content: [{ type: 'text', text: `Error: good_night timed out after 0.5 s waiting for upstream ${upstream.url}` }], isError: true });
  });

  test('an expired upstream session is initialized again', async () => {
    upstream.dropSessions();
    const result = await turnOnKitchen(client);
    assert.equal(result.response_type, 'action_done');
  });
});

test('Streamable HTTP upstream answering with JSON', async () => {
  const upstream = await streamableUpstream({ json: true, pageSize: 100 });
  const source = await connectUpstream(upstream.url, { token: upstream.token });
  const gw = await startGateway({ source, engine: { mode: 'hybrid' } });
  const { client } = await connect(gw.url);
  try {
    assert.equal((await turnOnKitchen(client)).response_type, 'action_done');
  } finally {
    await client.close();
    await gw.close();
    await source.close();
    await upstream.close();
  }
});

test('legacy HTTP+SSE upstream: endpoint event, POSTs, replies on the stream', async () => {
  const upstream = await legacyUpstream();
  const source = await connectUpstream(upstream.url, { token: upstream.token });
  const gw = await startGateway({ source, engine: { mode: 'hybrid' } });
  const { client } = await connect(gw.url);
  try {
    assert.equal(source.transport, 'http+sse');
    assert.equal(JSON.parse(source.catalog).tools.length, haTools.length);
    assert.equal((await turnOnKitchen(client)).response_type, 'action_done');
    const r = await client.callTool({ name: 'GetLiveContext', arguments: {} });
    assert.match(r.content[0].text, /Live Context/);
    // the server ends the stream: the next call opens a new one
    upstream.dropStreams();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await turnOnKitchen(client)).response_type, 'action_done');
    assert.equal(upstream.streams.opened, 2);
  } finally {
    await client.close();
    await gw.close();
    await source.close();
    await upstream.close();
  }
});

describe('upstream failures', () => {
  test('a wrong token is refused at connect with a clear message', async () => {
    const upstream = await streamableUpstream();
    try {
      await assert.rejects(connectUpstream(upstream.url, { token: 'wrong' }), (e) => {
        assert.match(e.message, /^upstream http:\/\/127\.0\.0\.1:\d+\/api\/mcp: the upstream refused the credentials \(HTTP 401\)/);
        return true;
      });
    } finally {
      await upstream.close();
    }
  });

  test('an unreachable upstream is refused at connect', async () => {
    const upstream = await streamableUpstream();
    await upstream.close();
    await assert.rejects(connectUpstream(upstream.url, { token: upstream.token }), /is unreachable \(ECONNREFUSED\)/);
  });

  test('serve --upstream to a dead server: one line on stderr, exit 2', async () => {
    const upstream = await streamableUpstream();
    await upstream.close();
    await assert.rejects(serveChild(['--upstream', upstream.url, '--upstream-token', 'x']), (e) => {
      assert.match(e.message, /exited with 2: mcp-switchboard: upstream .* is unreachable/);
      assert.ok(!/\n\s+at /.test(e.message));
      return true;
    });
  });

  test('an upstream that goes down later: calls become tool errors naming it', async () => {
    const upstream = await streamableUpstream();
    const source = await connectUpstream(upstream.url, { token: upstream.token });
    const gw = await startGateway({ source, engine: { mode: 'all' } });
    const { client } = await connect(gw.url);
    try {
      await upstream.close();
      const r = await client.callTool({ name: 'HassTurnOff', arguments: { area: 'Kitchen' } });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /^Error: upstream http:\/\/127\.0\.0\.1:\d+\/api\/mcp is unreachable \(ECONNREFUSED\)$/);
    } finally {
      await client.close();
      await gw.close();
      await source.close();
    }
  });

  test('serve --upstream from the command line proxies the catalog', async () => {
    const upstream = await streamableUpstream();
    const s = await serveChild(['--upstream', upstream.url, '--mode', 'all'], { env: { MCP_SWITCHBOARD_UPSTREAM_TOKEN: upstream.token } });
    try {
      const { client } = await connect(s.url);
      const { tools } = await listAll(client);
      assert.deepEqual(tools.map((t) => t.name), names);
      await client.close();
    } finally {
      await s.stop();
      await upstream.close();
    }
  });
});
