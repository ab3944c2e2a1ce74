// The MCP Inspector's command line (`mcp-inspector --cli URL --transport
// http --method ...`, what `npx @modelcontextprotocol/inspector --cli` runs)
// against the gateway. It is run with this Node: npx would put
// node_modules/.bin first on PATH, where the conformance suite's Node 22 lives.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { serveChild } from './gateway-helpers.mjs';
import { root } from './helpers.mjs';

const inspector = join(root, 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` };

async function inspect(url, ...args) {
  const { stdout } = await promisify(execFile)(process.execPath, [inspector, '--cli', url, '--transport', 'http', ...args], { env, timeout: 60_000 });
  return JSON.parse(stdout);
}

let server;
before(async () => {
  server = await serveChild(['--demo', '--mode', 'hybrid']);
});
after(() => server.stop());

test('inspector --cli tools/list', async () => {
  const out = await inspect(server.url, '--method', 'tools/list');
  const names = out.tools.map((t) => t.name);
  for (const n of ['get_home_structure', 'search_tools', 'get_tool_definition', 'use_tool']) assert.ok(names.includes(n), n);
});

test('inspector --cli tools/call: search_tools, then use_tool', async () => {
  const found = await inspect(server.url, '--method', 'tools/call', '--tool-name', 'search_tools', '--tool-arg', 'query=toggle a device');
  assert.ok(found.structuredContent.hits.some((h) => h.name === 'toggle_device'));
  const r = await inspect(server.url, '--method', 'tools/call', '--tool-name', 'use_tool', '--tool-arg', 'name=toggle_device', '--tool-arg', 'arguments={"deviceId":"garden-socket"}');
  assert.deepEqual(r.structuredContent, { success: true, deviceId: 'garden-socket', name: 'Pond pump', on: false });
});

test('inspector --cli tools/call of an unknown tool fails', async () => {
  await assert.rejects(inspect(server.url, '--method', 'tools/call', '--tool-name', 'open_garage'), (e) => {
    assert.notEqual(e.code, 0);
    assert.match(e.stderr + e.stdout, /Unknown tool: open_garage/);
    return true;
  });
});
