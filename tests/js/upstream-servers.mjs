// Independent upstream MCP servers built with the official SDK, serving the
// Home Assistant 2025.4 catalog with canned results: Streamable HTTP
// (McpServer + StreamableHTTPServerTransport, bearer token, paged
// tools/list) and the legacy HTTP+SSE transport (SSEServerTransport).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { corpus } from './helpers.mjs';

export const haTools = JSON.parse(readFileSync(join(corpus, 'home-assistant-2025.4.tools-list.json'), 'utf8')).result.tools;

/** A Home Assistant-like intent response. */
function actionDone(name) {
  return {
    speech: {},
    response_type: 'action_done',
    data: { targets: [], success: [{ name: name ?? 'all', type: 'entity', id: `light.${(name ?? 'all').toLowerCase().replaceAll(' ', '_')}` }], failed: [] },
  };
}

/**
 * One McpServer with the HA catalog; `log` records what it was asked.
 * @param {{pageSize: number, log: object[], delayMs: number}} opts
 */
function haServer({ pageSize, log, delayMs }) {
  const mcp = new McpServer({ name: 'fake-home-assistant', version: '2025.4.4' }, { capabilities: { tools: {} } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const start = Number(req.params?.cursor ?? 0);
    log.push({ method: 'tools/list', cursor: req.params?.cursor ?? null });
    const end = start + pageSize;
    return { tools: haTools.slice(start, end), ...(end < haTools.length ? { nextCursor: String(end) } : {}) };
  });
  mcp.server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: args = {} } = req.params;
    log.push({ method: 'tools/call', name, arguments: args });
    if (name === 'good_night') {
      await new Promise((resolve) => {
        const t = setTimeout(resolve, delayMs);
        extra.signal.addEventListener('abort', () => clearTimeout(t));
      });
      return { content: [{ type: 'text', text: 'Script started' }] };
    }
    if (name === 'calendar_get_events') throw new Error('calendar.family is unavailable');
    if (name === 'GetLiveContext') return { content: [{ type: 'text', text: 'Live Context: Kitchen light is off; Living room thermostat 19.5 °C' }] };
    return { content: [{ type: 'text', text: JSON.stringify(actionDone(args.name ?? args.area)) }] };
  });
  return mcp;
}

/** Listens on an ephemeral loopback port; resolves with {url, close}. */
async function listen(server, path) {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}${path}`;
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readJson(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

/**
 * A Streamable HTTP upstream like Home Assistant's /api/mcp.
 * @param {object} [opts]
 * @param {string} [opts.token] required bearer token
 * @param {number} [opts.pageSize] tools per tools/list page (default 5)
 * @param {boolean} [opts.json] answer with JSON instead of SSE
 * @param {number} [opts.delayMs] how long good_night takes (default 2 s)
 */
export async function streamableUpstream({ token = 'ha-token', pageSize = 5, json = false, delayMs = 2000 } = {}) {
  const log = [];
  const sessions = new Map();
  const server = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? sessions.get(sid) : undefined;
    if (sid && !transport) {
      res.writeHead(404).end('session not found');
      return;
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      await haServer({ pageSize, log, delayMs }).connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  const { url, close } = await listen(server, '/api/mcp');
  return {
    url,
    token,
    log,
    close,
    /** Forgets every session, as a restarted server would. */
    dropSessions: () => sessions.clear(),
  };
}

/** A legacy HTTP+SSE upstream (older Home Assistant): GET /mcp_server/sse, POST /mcp_server/messages. */
export async function legacyUpstream({ token = 'ha-token', pageSize = 100 } = {}) {
  const log = [];
  const transports = new Map();
  const streams = { opened: 0 };
  const server = createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end();
      return;
    }
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/mcp_server/sse' && req.method === 'GET') {
      streams.opened++;
      const transport = new SSEServerTransport('/mcp_server/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      await haServer({ pageSize, log, delayMs: 2000 }).connect(transport);
    } else if (url.pathname === '/mcp_server/messages' && req.method === 'POST') {
      const transport = transports.get(url.searchParams.get('sessionId'));
      if (!transport) return res.writeHead(404).end('no session');
      await transport.handlePostMessage(req, res, await readJson(req));
    } else {
      res.writeHead(405, { allow: 'GET' }).end('method not allowed');
    }
  });
  const { url, close } = await listen(server, '/mcp_server/sse');
  return {
    url,
    token,
    log,
    close,
    streams,
    /** Ends every event stream, as a restarted server would. */
    dropStreams: () => {
      for (const t of transports.values()) t.close();
    },
  };
}

/**
 * A Streamable HTTP upstream whose catalog changes (the SDK's Server, capabilities with listChanged):
 * tools, prompts, resources and a resource template, and a tool that asks the client (elicitation).
 * `addTool` adds a tool and tells every session (notifications/tools/list_changed). It listens on
 * `port` when given (to come back on the same address after close()).
 * @param {{ name?: string, port?: number, token?: string }} [opts]
 */
export async function dynamicUpstream({ name = 'garden', port = 0, token } = {}) {
  const tools = [
    { name: 'get_state', description: `The state of the ${name}.`, inputSchema: { type: 'object', properties: {} } },
    { name: 'ask_name', description: 'Asks the user for a name.', inputSchema: { type: 'object', properties: {} } },
  ];
  const log = [];
  const servers = new Set();
  const sessions = new Map();
  const make = () => gardenServer({ name, tools, log });
  const http = createServer(async (req, res) => {
    if (token && req.headers.authorization !== `Bearer ${token}`) return res.writeHead(401).end();
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? sessions.get(sid) : undefined;
    if (sid && !transport) return res.writeHead(404).end('session not found');
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (!transport) {
      const server = make();
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
      await server.connect(transport);
      servers.add(server);
      transport.onclose = () => servers.delete(server);
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise((r) => http.listen(port, '127.0.0.1', r));
  const url = `http://127.0.0.1:${http.address().port}/mcp`;
  return {
    url,
    port: http.address().port,
    log,
    tools,
    /** Adds a tool; every session is told its list changed. */
    async addTool(tool) {
      tools.push(tool);
      await Promise.all([...servers].map((s) => s.sendToolListChanged().catch(() => {})));
    },
    close: () =>
      new Promise((resolve) => {
        sessions.clear();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/**
 * The SDK Server of dynamicUpstream() and the stdio test server: a tool list that may grow, prompts,
 * resources and a template, and `ask_name` asking the client (elicitation). With `stdio` (the stdio
 * server only), `add_tool` adds a tool (list_changed) and `crash` ends the process.
 * @param {{ name: string, tools: object[], log: object[], stdio?: boolean }} opts
 */
export function gardenServer({ name, tools, log, stdio = false }) {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    log.push({ method: 'tools/call', name: req.params.name });
    if (stdio && req.params.name === 'add_tool') {
      tools.push({ name: `added_${tools.length}`, inputSchema: { type: 'object', properties: {} } });
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: 'added' }] };
    }
    if (stdio && req.params.name === 'crash') {
      setTimeout(() => process.exit(3), 20);
      return { content: [{ type: 'text', text: 'bye' }] };
    }
    if (req.params.name === 'ask_name') {
      // asked on the call's own stream
      const params = { message: 'Which name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } };
      const answer = await server.elicitInput(/** @type {any} */ (params), { relatedRequestId: extra.requestId });
      return { content: [{ type: 'text', text: `${answer.action}: ${answer.content?.name ?? ''}` }] };
    }
    return { content: [{ type: 'text', text: `${name}: ${req.params.name} ok` }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'water', description: `Water the ${name}`, arguments: [{ name: 'zone', required: true }] }] }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    log.push({ method: 'prompts/get', name: req.params.name, arguments: req.params.arguments });
    return { messages: [{ role: 'user', content: { type: 'text', text: `Water ${req.params.arguments?.zone} in the ${name}` } }] };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: `${name}://zones`, name: 'zones', mimeType: 'text/plain' }] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [{ uriTemplate: `${name}://zone/{id}`, name: 'zone' }] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    log.push({ method: 'resources/read', uri: req.params.uri });
    return { contents: [{ uri: req.params.uri, mimeType: 'text/plain', text: `read ${req.params.uri}` }] };
  });
  return server;
}

/** Polls until `check` returns something truthy (or fails after `ms`). */
export async function until(check, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
