// An upstream MCP server that attacks its client: a 2025-11-25 Streamable
// HTTP server written by hand on node:http, whose tools flood the call's
// stream with server-to-client requests (elicitation, sampling, roots,
// ping) and notifications, answer with `id: null`, and whose notification
// stream floods too; its tools/list holds a tool with a bad schema and one
// whose name carries control characters, and can put its second page past
// any sane size. It counts what comes back. Used by the hostile-upstream
// tests and the soak bench. `node tests/js/hostile-upstream.mjs --stdio`
// is the same server over stdio.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const object = { type: 'object', properties: {} };

/** The tools: the attacks, `ok`, and two an honest list would not hold. */
export const hostileTools = [
  { name: 'ok', description: 'Answers normally.', inputSchema: object },
  { name: 'flood', description: 'Sends server requests on the call stream before its result.', inputSchema: object },
  { name: 'chatter', description: 'Sends progress notifications on the call stream before its result.', inputSchema: object },
  { name: 'nullid', description: 'Answers with id null.', inputSchema: object },
  { name: 'answers', description: 'How many answers to its requests the server got.', inputSchema: object },
  { name: 'bad_schema', description: 'An input schema that is not an object.', inputSchema: { type: 'string' } },
  { name: 'bell\u0007\u001b[2J', description: 'A name with control characters.', inputSchema: object },
];

const METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list', 'ping'];

/**
 * The messages of the `flood` call: `n` server requests, then the result.
 * @param {unknown} id the call's id
 * @param {number} n
 */
function floodMessages(id, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const method = METHODS[i % METHODS.length];
    const params = method === 'elicitation/create' ? { message: 'Sure?', requestedSchema: object } : method === 'sampling/createMessage' ? { messages: [], maxTokens: 1 } : {};
    out.push({ jsonrpc: '2.0', id: `q${i}`, method, params });
  }
  out.push({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'flood over' }] } });
  return out;
}

/** The messages of the `chatter` call: `n` progress notifications, then the result. */
function chatterMessages(id, token, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: i } });
  out.push({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'chatter over' }] } });
  return out;
}

/**
 * What the server answers one request with (both transports): a list of messages to send.
 * @param {any} msg
 * @param {{ flood: number, stats: { answers: number } }} state
 */
function answer(msg, state) {
  const reply = (result) => [{ jsonrpc: '2.0', id: msg.id, result }];
  switch (msg.method) {
    case 'initialize':
      return reply({ protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'hostile', version: '1' } });
    case 'tools/list':
      return reply({ tools: hostileTools });
    case 'tools/call':
      switch (msg.params?.name) {
        case 'flood':
          return floodMessages(msg.id, state.flood);
        case 'chatter':
          return chatterMessages(msg.id, msg.params?._meta?.progressToken, state.flood);
        case 'nullid':
          return [{ jsonrpc: '2.0', id: null, result: { content: [{ type: 'text', text: 'hijacked' }] } }];
        case 'answers':
          return reply({ content: [{ type: 'text', text: String(state.stats.answers) }], structuredContent: { answers: state.stats.answers } });
        default:
          return reply({ content: [{ type: 'text', text: 'fine' }] });
      }
    default:
      return [{ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } }];
  }
}

/**
 * Starts the hostile server on an ephemeral loopback port.
 * @param {{ flood?: number, streamFlood?: number, hugePage?: boolean }} [opts] `flood`: requests per flooding call
 *   (default 20,000); `streamFlood`: requests written on each notification (GET) stream as it opens (default 0);
 *   `hugePage`: tools/list comes in two pages, the second of 3 MB
 * @returns {Promise<{ url: string, stats: { answers: number, posts: number, streams: number }, close: () => Promise<void> }>}
 */
export async function hostileUpstream({ flood = 20_000, streamFlood = 0, hugePage = false } = {}) {
  const stats = { answers: 0, posts: 0, streams: 0 };
  const state = { flood, stats };
  const open = new Set();
  const server = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    if (req.method === 'GET') {
      stats.streams++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let text = '';
      for (let i = 0; i < streamFlood; i++) text += `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: `s${stats.streams}-${i}`, method: 'ping' })}\n\n`;
      if (text) res.write(text);
      return;
    }
    if (req.method === 'DELETE') return res.writeHead(200).end();
    stats.posts++;
    const chunks = [];
    for await (const c of req) chunks.push(c);
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return res.writeHead(400).end();
    }
    if (msg.method === undefined) {
      // an answer to one of its requests
      stats.answers++;
      return res.writeHead(202).end();
    }
    if (msg.id === undefined) return res.writeHead(202).end();
    if (msg.method === 'server/discover') {
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } }));
    }
    if (hugePage && msg.method === 'tools/list') {
      const page = msg.params?.cursor
        ? { tools: [{ name: 'huge', description: 'x'.repeat(3 * 1024 * 1024), inputSchema: object }] }
        : { tools: hostileTools, nextCursor: '2' };
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: page }));
    }
    const headers = { 'content-type': 'text/event-stream', ...(msg.method === 'initialize' ? { 'mcp-session-id': randomUUID() } : {}) };
    res.writeHead(200, headers);
    // every message in one write: as fast as a server can send them
    res.end(answer(msg, state).map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join(''));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${/** @type {any} */ (server.address()).port}/mcp`,
    stats,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The same server over stdio: one message per line. */
function serveStdio() {
  const state = { flood: Number(process.env.HOSTILE_FLOOD ?? 20_000), stats: { answers: 0 } };
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.method === undefined) {
      state.stats.answers++;
      return;
    }
    if (msg.id === undefined) return;
    if (msg.method === 'server/discover') {
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } })}\n`);
      return;
    }
    process.stdout.write(answer(msg, state).map((m) => `${JSON.stringify(m)}\n`).join(''));
  });
}

if (process.argv.includes('--stdio')) serveStdio();
