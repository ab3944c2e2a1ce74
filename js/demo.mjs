#!/usr/bin/env node
// `make demo`: the main jobs on bundled examples, start to finish.
//  1. Converts the bundled Home Assistant catalog to Gemini and prints it
//     (declarations, name map and loss report).
//  2. Starts the MCP gateway in front of the simulated home in hybrid mode
//     and runs a short session with the official MCP SDK client: list the
//     tools, search for one in Dutch, call it through use_tool, read the
//     states back. Then it stops.
// `node js/cli.mjs serve --demo` keeps the gateway running instead.
import { readFileSync } from 'node:fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import * as sb from '../pkg/index.mjs';
import { createDemoHome } from './demo-home.mjs';
import { startGateway } from './gateway.mjs';

const say = (title, value) => {
  process.stdout.write(`\n== ${title}\n`);
  if (value !== undefined) process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
};

const example = readFileSync(new URL('./examples/home-assistant.tools-list.json', import.meta.url));
say('the bundled Home Assistant catalog in Gemini\'s format (convert --to gemini)', sb.convert(example, { to: 'gemini' }));

const home = createDemoHome();
const gateway = await startGateway({ source: home.source, engine: { mode: 'hybrid' } });
say(`MCP gateway for the simulated home at ${gateway.url} (hybrid mode)`);
const client = new Client({ name: 'mcp-switchboard-demo', version: sb.version() });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  const { tools } = await client.listTools();
  say('tools/list: the core tools and the meta-tools', tools.map((t) => `${t.name}: ${t.description.split('\n')[0]}`).join('\n'));
  const text = (r) => r.content.map((c) => c.text).join('\n');
  const found = await client.callTool({ name: 'search_tools', arguments: { query: 'lamp aan in de woonkamer', limit: 3 } });
  say('search_tools {"query": "lamp aan in de woonkamer"}', found.structuredContent);
  const call = { name: 'set_light', arguments: { deviceId: 'living-ceiling', state: 'on', dim: '60' } };
  const used = await client.callTool({ name: 'use_tool', arguments: call });
  say(`use_tool ${JSON.stringify(call)} (the string "60" is coerced to the number 60)`, text(used));
  const states = await client.callTool({ name: 'get_states', arguments: { zoneId: 'living_room' } });
  say('get_states {"zoneId": "living_room"}', text(states));
  const wrong = await client.callTool({ name: 'use_tool', arguments: { name: 'set_light', arguments: { state: 'purple' } } });
  say('use_tool with bad arguments: the model is told what to send instead', text(wrong));
} finally {
  await client.close();
  await gateway.close();
}
say('done: run `node js/cli.mjs serve --demo` to keep the gateway running, or `node js/cli.mjs --help` for every command');
