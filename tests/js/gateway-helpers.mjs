// Shared set-up for the gateway tests: a gateway in this process and the
// official SDK client talking to it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { createDemoHome } from '../../js/demo-home.mjs';
import { startGateway } from '../../js/gateway.mjs';
import { root } from './helpers.mjs';

export { createDemoHome, startGateway };

/**
 * A gateway in front of an upstream server, with an SDK client connected:
 * {source, gw, client, close()}.
 * @param {string} url the upstream's MCP endpoint
 * @param {object} connectOptions connectUpstream options (token, timeoutMs, ...)
 * @param {object} gatewayOptions startGateway options besides the source
 */
export async function proxied(url, connectOptions, gatewayOptions) {
  const { connectUpstream } = await import('../../js/upstream.mjs');
  const source = await connectUpstream(url, connectOptions);
  const gw = await startGateway({ source, ...gatewayOptions });
  const { client } = await connect(gw.url);
  return {
    source,
    gw,
    client,
    async close() {
      await client.close();
      await gw.close();
      await source.close();
    },
  };
}

/** A gateway serving a fresh demo home, on an ephemeral port. */
export async function demoGateway(options = {}) {
  const home = createDemoHome();
  const gateway = await startGateway({ source: home.source, ...options });
  return { gateway, home };
}

/**
 * An SDK client connected over Streamable HTTP.
 * @param {string} url
 * @param {object} [transportOptions] e.g. {requestInit: {headers}}
 */
export async function connect(url, transportOptions = {}, clientOptions = {}) {
  const client = new Client({ name: 'switchboard-test', version: '1.0.0' }, clientOptions);
  const transport = new StreamableHTTPClientTransport(new URL(url), transportOptions);
  await client.connect(transport);
  return { client, transport };
}

/** Every page of tools/list, following nextCursor. */
export async function listAll(client) {
  const pages = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return { pages, tools: pages.flatMap((p) => p.tools) };
}

/** The structured result of a call (or its text parsed). */
export function structured(result) {
  return result.structuredContent ?? JSON.parse(result.content[0].text);
}

/**
 * A raw HTTP request (node:http, so bodies and headers are exactly what
 * the test says). Resolves with {status, headers, body}.
 */
export function raw(url, { method = 'POST', headers = {}, body, chunks } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (e) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve({ status: 'reset', headers: {}, body: '' }) : reject(e)));
    if (chunks) {
      // stream the body without a content-length
      let i = 0;
      const next = () => {
        if (i === chunks.length) return req.end();
        req.write(chunks[i++], next);
      };
      next();
    } else {
      req.end(body);
    }
  });
}

export const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/**
 * Runs `mcp-switchboard serve ...` as a child process and waits for the URL
 * it prints. Resolves with {url, child, stderr(), stop()}.
 */
export async function serveChild(args, { env } = {}) {
  const child = spawn(process.execPath, [join(root, 'js/cli.mjs'), 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/at (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      return code;
    },
  };
}
