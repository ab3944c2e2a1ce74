// The gateway with the clients that speak 2026-07-28: the v2 TypeScript
// SDK client (`@modelcontextprotocol/client` 2.4.0) in its three version
// negotiation modes (legacy, auto, pinned 2026-07-28) over Streamable HTTP
// and stdio, and the MCP Inspector 2.12 command line in its legacy and
// modern eras (run with the Node 22 it needs, from node_modules). A proxy in
// front of the HTTP gateway records the protocol version of every request,
// so each test shows which era was really spoken, not only that it worked.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { serveChild } from './gateway-helpers.mjs';
import { root } from './helpers.mjs';

const MODERN = '2026-07-28';

/** A pass-through proxy that notes each POST's MCP-Protocol-Version header and JSON-RPC method. */
async function recordingProxy(target) {
  const seen = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') {
        let method = null;
        try {
          method = JSON.parse(body.toString('utf8')).method ?? null;
        } catch {}
        seen.push({ version: req.headers['mcp-protocol-version'] ?? null, method });
      }
      const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let gateway;
let proxy;
before(async () => {
  // the Host check wants the gateway's own host: the proxy forwards the client's Host header, so the gateway
  // accepts loopback hosts on any port
  gateway = await serveChild(['--demo', '--mode', 'hybrid']);
  proxy = await recordingProxy(gateway.url);
});
after(async () => {
  await proxy?.close();
  await gateway?.stop();
});

const MODES = [
  { label: 'legacy', option: 'legacy', modern: false },
  { label: 'auto', option: 'auto', modern: true },
  { label: `pinned ${MODERN}`, option: { pin: MODERN }, modern: true },
];

/** The checks every client and mode runs: list, search, use_tool, an unknown tool. */
async function exercise(client) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ['get_home_structure', 'search_tools', 'get_tool_definition', 'use_tool']) assert.ok(names.includes(n), n);
  const found = await client.callTool({ name: 'search_tools', arguments: { query: 'schakel het apparaat in de tuin uit' } });
  assert.ok(found.structuredContent.hits.some((h) => h.name === 'toggle_device'), JSON.stringify(found.structuredContent));
  const used = await client.callTool({ name: 'use_tool', arguments: { name: 'toggle_device', arguments: { deviceId: 'garden-socket' } } });
  assert.equal(used.isError, undefined, JSON.stringify(used));
  assert.equal(used.structuredContent.deviceId, 'garden-socket');
  await assert.rejects(client.callTool({ name: 'open_garage', arguments: {} }), /Unknown tool: open_garage/);
}

/** Connects the v2 client in `mode` over `transport`, checks the era it agreed on, and runs the checks. */
async function session(mode, transport) {
  const client = new Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: mode.option } });
  await client.connect(transport);
  try {
    const version = client.getNegotiatedProtocolVersion();
    if (mode.modern) assert.equal(version, MODERN);
    else assert.notEqual(version, MODERN);
    await exercise(client);
  } finally {
    await client.close();
  }
}

describe('the v2 SDK client over Streamable HTTP', () => {
  for (const mode of MODES) {
    test(mode.label, async () => {
      const before = proxy.seen.length;
      await session(mode, new StreamableHTTPClientTransport(new URL(proxy.url)));
      const calls = proxy.seen.slice(before).filter((r) => r.method === 'tools/call');
      assert.equal(calls.length, 3);
      for (const c of calls) {
        if (mode.modern) assert.equal(c.version, MODERN, 'a 2026-07-28 tools/call');
        else assert.notEqual(c.version, MODERN, 'a 2025 tools/call');
      }
      if (mode.modern) assert.ok(!proxy.seen.slice(before).some((r) => r.method === 'initialize'), 'no 2025 handshake');
    });
  }
});

describe('the v2 SDK client over stdio', () => {
  for (const mode of MODES) {
    test(mode.label, () =>
      session(
        mode,
        new StdioClientTransport({
          command: process.execPath,
          args: [join(root, 'js/cli.mjs'), 'serve', '--demo', '--stdio', '--mode', 'hybrid'],
          stderr: 'pipe',
        }),
      ),
    );
  }
});

describe('the MCP Inspector 2.12 command line', () => {
  // Inspector 2.12 needs Node 22.19 or later: the one the conformance suite uses
  const node22 = join(root, 'node_modules/node/bin/node');
  const cli = join(root, 'node_modules/inspector-2/clients/cli/build/index.js');
  const inspect = async (era, ...args) => {
    const { stdout } = await promisify(execFile)(node22, [cli, proxy.url, '--protocol-era', era, '--format', 'json', '-q', ...args], {
      timeout: 60_000,
      env: { ...process.env, MCP_CATALOG_PATH: join(root, 'target', 'inspector-catalog.json') },
    });
    return JSON.parse(stdout);
  };

  for (const era of ['legacy', 'modern']) {
    test(`--protocol-era ${era}`, async () => {
      const before = proxy.seen.length;
      const listed = await inspect(era, '--method', 'tools/list');
      assert.ok(listed.result.tools.some((t) => t.name === 'use_tool'));
      const used = await inspect(era, '--method', 'tools/call', '--tool-name', 'use_tool', '--tool-args-json', '{"name": "toggle_device", "arguments": {"deviceId": "garden-socket"}}');
      assert.equal(used.result.structuredContent.deviceId, 'garden-socket');
      const unknown = await inspect(era, '--method', 'tools/call', '--tool-name', 'open_garage').then(
        (out) => JSON.stringify(out),
        (e) => `${e.stdout}${e.stderr}`,
      );
      // the Inspector checks the name against the list itself before it calls
      assert.match(unknown, /'?open_garage'? not found|Unknown tool: open_garage/);
      const seen = proxy.seen.slice(before).filter((r) => r.method === 'tools/list' || r.method === 'tools/call');
      assert.ok(seen.length >= 3, JSON.stringify(proxy.seen.slice(before)));
      for (const r of seen) {
        if (era === 'modern') assert.equal(r.version, MODERN);
        else assert.notEqual(r.version, MODERN);
      }
    });
  }
});
