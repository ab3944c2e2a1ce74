// The official MCP SDK client (from the workspace's devDependencies) and raw
// HTTP requests against the app's server.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { bootApp } from './harness.mjs';

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

/**
 * `ok(name, args)`: a call's data, asserting it succeeded; `fails(name, args,
 * pattern)`: its data, asserting it failed with an error matching `pattern`.
 * `client()` gives the connected client (set in a test's `before`).
 */
export function expectCalls(client) {
  return {
    async ok(name, args = {}) {
      const r = await call(client(), name, args);
      assert.equal(r.isError, false, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r.data).slice(0, 400)}`);
      return r.data;
    },
    async fails(name, args, pattern) {
      const r = await call(client(), name, args);
      assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.data).slice(0, 300)}`);
      assert.match(r.data.error ?? r.data.text ?? '', pattern);
      return r.data;
    },
  };
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

/**
 * A test file's app: before its tests, the app booted on `makeHome()` with
 * `settings` and an SDK client connected to its LAN server, handed to
 * `use({b, home, client})` (b: bootApp's result); after them, both closed.
 */
export function withApp(makeHome, settings, use) {
  let b;
  let client;
  before(async () => {
    const home = makeHome();
    b = await bootApp({ home, settings });
    const status = await b.app.status();
    ({ client } = await connect(`http://127.0.0.1:${status.server.port}/mcp`, status.token));
    use({ b, home, client });
  });
  after(async () => {
    await client.close();
    await b.close();
  });
}
