// Streamable HTTP MCP server on node:http. Every transport decision (which
// request is refused with which status, when a session starts, whether a
// body gets a reply) comes from HttpGate; every JSON-RPC decision from the
// session's Engine. This module moves bytes, keeps the session table and
// runs the clock.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { HttpGate } from '../pkg/index.mjs';
import { Session, defined } from './dispatch.mjs';

/**
 * @typedef {object} GatewayOptions
 * @property {import('./dispatch.mjs').ToolSource} source the tools
 * @property {string} [host] bind address (default 127.0.0.1; another host needs a token)
 * @property {number} [port] default 0 (an ephemeral port)
 * @property {string} [token] bearer token every request must carry
 * @property {string[]} [origins] browser origins allowed besides localhost
 * @property {number} [maxBody] largest request body in bytes (default 1 MiB)
 * @property {number} [maxSessions] most sessions at once (default 64)
 * @property {number} [sessionIdleMs] idle time after which a session expires (default 10 minutes)
 * @property {number} [maxStreams] notification streams per session (default 2)
 * @property {number} [maxInflight] requests in progress per session (default 16)
 * @property {number} [headersTimeoutMs] time for a request's headers (default 10 s)
 * @property {number} [requestTimeoutMs] time for a whole request (default 30 s)
 * @property {number} [maxConnections] open connections at once (default 256)
 * @property {object} [engine] EngineOptions for every session (mode, pageSize, allow, deny, readOnly, ...)
 * @property {number} [timeoutMs] per-invocation timeout (default 30 s)
 * @property {(line: string) => void} [log]
 */

/**
 * Starts the gateway; resolves once it listens.
 * @param {GatewayOptions} options
 * @returns {Promise<{url: string, port: number, server: import('node:http').Server, sessions: Map<string, Session>, gate: HttpGate, setCatalog: (catalog: string) => void, close: () => Promise<void>}>}
 */
export async function startGateway(options) {
  const { source, host = '127.0.0.1', port = 0, token, engine = {}, timeoutMs = 30_000, log = () => {} } = options;
  const { origins, maxBody, maxSessions, sessionIdleMs, maxStreams, maxInflight, headersTimeoutMs, requestTimeoutMs, maxConnections } = options;
  const gate = new HttpGate(
    host,
    token ?? null,
    defined({ origins, maxBody, maxSessions, sessionIdleMs, maxStreams, maxInflight, headersTimeoutMs, requestTimeoutMs, maxConnections }),
  );
  const limits = gate.limits;
  // a probe engine checks the options (mode, dialect names) up front
  new Session(source, { engine, timeoutMs }).close();

  /** @type {Map<string, Session & {streams: Set<import('node:http').ServerResponse>}>} */
  const sessions = new Map();

  const newSession = () => {
    const session = new Session(source, { engine, timeoutMs, log, notify: (m) => pushNotification(session, m) });
    session.streams = new Set();
    return session;
  };

  /** Closes the sessions the gate named (expired, ended, evicted). */
  const closeSessions = (ids) => {
    for (const id of ids) {
      const s = sessions.get(id);
      if (!s) continue;
      sessions.delete(id);
      endSession(s);
    }
  };

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // how often Node looks for connections past those timeouts
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    (req, res) => {
      handle(req, res).catch((e) => {
        log(`request failed: ${e.stack ?? e}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
        res.end();
      });
    },
  );
  server.maxConnections = limits.maxConnections;
  // expired sessions are swept a few times per idle period (the gate also
  // refuses an expired id the moment it is used)
  const sweeper = setInterval(() => closeSessions(gate.sweep(Date.now())), Math.max(1000, Math.min(limits.sessionIdleMs / 4, 30_000)));
  sweeper.unref();

  async function handle(req, res) {
    const sid = req.headers['mcp-session-id'];
    const verdict = gate.request(req.method ?? '', req.url ?? '', req.headers, Date.now());
    closeSessions(verdict.close);
    const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    switch (verdict.action) {
      case 'reject':
        return reject(res, verdict);
      case 'stream':
        return openStream(sid, session, req, res);
      case 'end':
        return finish(res, gate.outcome('ended'));
      case 'read':
        break;
    }
    if (session) res.once('close', () => gate.finished(sid, Date.now()));
    const body = await readBody(req, res, gate);
    if (body === null) return;
    // in a session the engine classifies the message as it reads it (the
    // size limit was enforced while the body streamed in)
    if (session) return answer(res, session, body, verdict.sse, {});
    const kind = gate.checkBody(body, false);
    switch (kind) {
      case 'too-large':
      case 'no-session':
        return finish(res, gate.outcome(kind));
      case 'new-session': {
        const id = randomUUID();
        const opened = gate.openSession(id, Date.now());
        if (opened.action !== 'open') return reject(res, opened);
        closeSessions(opened.close);
        const fresh = newSession();
        sessions.set(id, fresh);
        res.once('close', () => gate.finished(id, Date.now()));
        return answer(res, fresh, body, verdict.sse, { 'mcp-session-id': id });
      }
      case 'reply': {
        // no session and not JSON-RPC: a throwaway engine writes the error reply
        const once = newSession();
        try {
          return await answer(res, once, body, verdict.sse, {});
        } finally {
          once.close();
        }
      }
    }
  }

  /**
   * Feeds `body` to the session and sends what it is owed: 202 for a
   * notification or response, else the reply as JSON or as a one-event SSE
   * stream.
   */
  async function answer(res, session, body, sse, headers) {
    const { owed, reply: pending } = session.send(body);
    if (!owed) return finish(res, gate.outcome('accepted'), headers);
    if (sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
      res.flushHeaders();
    }
    const reply = await pending;
    if (res.writableEnded || res.destroyed) return;
    if (reply === null) {
      // the client cancelled the request: no reply is owed
      if (sse) return res.end();
      return finish(res, gate.outcome('cancelled'), headers);
    }
    if (sse) return res.end(sseEvent(reply));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply), ...headers });
    res.end(reply);
  }

  function openStream(sid, session, req, res) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    session.streams.add(res);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), 25_000).unref();
    let open = true;
    const drop = () => {
      if (!open) return;
      open = false;
      clearInterval(keepalive);
      session.streams.delete(res);
      gate.streamClosed(sid, Date.now());
    };
    req.on('close', drop);
    res.on('close', drop);
  }

  /** A server notification goes to one of the session's GET streams, if any is open. */
  function pushNotification(session, message) {
    const [stream] = session.streams;
    if (stream) stream.write(sseEvent(message));
  }

  function endSession(session) {
    for (const s of session.streams) s.end();
    session.streams.clear();
    session.close();
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}/mcp`;

  let closing;
  return {
    url,
    port: address.port,
    server,
    sessions,
    gate,
    /**
     * Replaces the catalog every session serves (e.g. the upstream's tools
     * changed); clients with an open GET stream get tools/list_changed.
     * @param {string} catalog tools/list JSON text
     */
    setCatalog(catalog) {
      source.catalog = catalog;
      for (const s of sessions.values()) s.setCatalog(catalog);
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        for (const [id, s] of sessions) {
          sessions.delete(id);
          gate.remove(id);
          endSession(s);
        }
        await new Promise((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        gate.free();
      })();
      return closing;
    },
  };
}

/**
 * Reads a request body, enforcing the gate's limit while it streams in.
 * Resolves with the text, or null when the request was refused (413) or
 * broke off.
 */
function readBody(req, res, gate) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk) => {
      if (done) return;
      size += chunk.length;
      const refusal = gate.checkBodySize(size);
      if (refusal) {
        done = true;
        reject(res, refusal);
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => {
      if (done) return;
      done = true;
      resolve(null);
    });
  });
}

/**
 * Answers with a gate rejection: its status, headers and one-line message.
 * With `Connection: close` among the headers the connection closes once
 * the answer is sent, and a body still on its way is never read.
 */
function reject(res, { status, headers = [], message }) {
  const text = message ? `${message}\n` : '';
  const head = Object.fromEntries(headers.map(([k, v]) => [k.toLowerCase(), v]));
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...head });
  res.end(text);
  if (head.connection === 'close') {
    // stop reading; give the answer a moment to reach the client first
    res.req.pause();
    res.once('finish', () => setTimeout(() => res.socket?.destroy(), 50).unref());
  }
}

/** Ends an exchange the gate decided on without the engine. */
function finish(res, { status, message }, headers = {}) {
  if (message) {
    const text = `${message}\n`;
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  } else {
    res.writeHead(status, headers);
    res.end();
  }
}

/** One Server-Sent Event carrying a JSON-RPC message. */
function sseEvent(message) {
  return `event: message\ndata: ${message}\n\n`;
}
