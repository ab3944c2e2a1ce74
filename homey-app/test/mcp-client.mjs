// The official MCP SDK client (from the workspace's devDependencies) and raw
// HTTP requests against the app's server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An SDK client connected to `url` with `token`. */
export async function connect(url, token, { headers = {} } = {}) {
  const client = new Client({ name: 'homey-app-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  await client.connect(transport);
  return { client, transport };
}

/** A call's structured result; asserts nothing about isError. */
export async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  let data = result.structuredContent;
  if (data === undefined) {
    const text = result.content?.[0]?.text ?? '';
    try {
      data = JSON.parse(text);
    } catch {
      data = { text };
    }
  }
  return { isError: result.isError === true, data, result };
}

/** Every tool name the client sees (all pages). */
export async function toolNames(client) {
  const names = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor);
  return names;
}

export const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** POSTs an initialize request with `headers`; resolves with {status, headers, text}. */
export async function rawInitialize(url, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: initializeBody,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Waits until `check()` is truthy (polling every 10 ms, at most `ms`). */
export async function until(check, ms = 3000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out waiting');
}
