// An upstream MCP server (Streamable HTTP, written by hand on node:http)
// whose tools misbehave on purpose, one fault per tool: it hangs, answers
// garbage or HTML, streams a 50 MB reply, cuts an event stream in the
// middle, answers HTTP 500 or a response with the wrong id. `ok` works.
// Used by the fault tests and by the soak bench.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const FAULTS = {
  ok: 'answers normally',
  hang: 'never answers',
  garbage: 'answers 200 application/json with text that is not JSON',
  html: 'answers 200 text/html',
  huge: 'answers a 50 MB JSON result, streamed',
  cut_sse: 'starts an event stream and closes the connection mid-event',
  error500: 'answers HTTP 500',
  wrong_id: 'answers a response with another id',
};

export const faultyTools = Object.entries(FAULTS).map(([name, description]) => ({
  name,
  description: `A tool that ${description}.`,
  inputSchema: { type: 'object', properties: {} },
}));

/** Writes `megabytes` MB of one JSON result without holding it in memory. */
function streamHuge(res, id, megabytes) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
  const chunk = 'x'.repeat(1024 * 1024);
  let left = megabytes;
  const more = () => {
    while (left > 0) {
      left -= 1;
      if (!res.write(chunk)) return res.once('drain', more);
    }
    res.end('"}]}}');
  };
  res.on('close', () => (left = 0));
  more();
}

/**
 * Starts the faulty upstream on an ephemeral loopback port.
 * @param {object} [opts]
 * @param {number} [opts.hugeMegabytes] size of the `huge` reply (default 50)
 * @returns {Promise<{url: string, calls: Record<string, number>, close: () => Promise<void>}>}
 */
export async function faultyUpstream({ hugeMegabytes = 50 } = {}) {
  const calls = {};
  const hanging = new Set();
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks = [];
    for await (const c of req) chunks.push(c);
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return res.writeHead(400).end();
    }
    if (msg.id === undefined) return res.writeHead(202).end();
    const reply = (result, headers = {}) => {
      const text = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
      res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(text);
    };
    switch (msg.method) {
      case 'initialize':
        return reply(
          { protocolVersion: msg.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'faulty', version: '1' } },
          { 'mcp-session-id': randomUUID() },
        );
      case 'tools/list':
        return reply({ tools: faultyTools });
      case 'tools/call':
        break;
      default:
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no such method' } }));
    }
    const name = msg.params?.name;
    calls[name] = (calls[name] ?? 0) + 1;
    switch (name) {
      case 'ok':
        return reply({ content: [{ type: 'text', text: 'fine' }] });
      case 'hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      case 'garbage':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('<<<this is not JSON>>>');
      case 'html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
      case 'huge':
        return streamHuge(res, msg.id, hugeMegabytes);
      case 'cut_sse':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[`);
        return setTimeout(() => res.destroy(), 20);
      case 'error500':
        return res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      case 'wrong_id':
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 'not-yours', result: { content: [] } }));
      default:
        return reply({ content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true });
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    calls,
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
