// A stdio MCP server for the upstream tests (the SDK's Server on
// StdioServerTransport): the tools, prompts and resources of
// gardenServer(), plus add_tool (list_changed) and crash (the process
// ends). Its name is the first argument.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { gardenServer } from './upstream-servers.mjs';

const name = process.argv[2] ?? 'shed';
const none = { type: 'object', properties: {} };
const tools = [
  { name: 'get_state', description: `The state of the ${name}.`, inputSchema: none },
  { name: 'ask_name', description: 'Asks the user for a name.', inputSchema: none },
  { name: 'add_tool', description: 'Adds a tool.', inputSchema: none },
  { name: 'crash', description: 'Ends the server.', inputSchema: none },
];
process.stderr.write(`${name} server starting\n`);
await gardenServer({ name, tools, log: [], stdio: true }).connect(new StdioServerTransport());
