// The stdio MCP transport: newline-delimited JSON-RPC on stdin and stdout,
// logs on stderr. One session; messages are handled as they arrive, so a
// slow tool does not hold up the next request.
import { createInterface } from 'node:readline';

import { Session, reporter } from './dispatch.mjs';

/**
 * stdio options.
 * @typedef {object} StdioOwnOptions
 * @property {import('./dispatch.mjs').ToolSource} source the tools
 * @property {import('../pkg/full/index.mjs').EngineOptions} [engine] the engine's options (mode, exposure, ...)
 * @property {number} [timeoutMs] per-invocation timeout (default 30 s)
 * @property {NodeJS.ReadableStream} [input] default process.stdin
 * @property {NodeJS.WritableStream} [output] default process.stdout
 */

/** @typedef {StdioOwnOptions & import('./dispatch.mjs').LogOptions} StdioOptions */

/**
 * A stdio server: `done` resolves when the input ends and every reply is written.
 * @typedef {object} StdioServer
 * @property {Promise<void>} done
 * @property {() => void} close stops reading (replies still owed are written)
 * @property {Session} session the session, for run-time changes (setCatalog, setMode, setExposure)
 */

/**
 * Serves one MCP session over a pair of streams.
 * @param {StdioOptions} options
 * @returns {StdioServer}
 */
export function serveStdio(options) {
  const { source, engine = {}, timeoutMs = 30_000, input = process.stdin, output = process.stdout } = options;
  /** @param {string} message */
  const write = (message) => output.write(`${message}\n`);
  const session = new Session(source, { engine, timeoutMs, report: reporter(options), notify: write });
  /** @type {Set<Promise<void>>} */
  const inflight = new Set();
  const lines = createInterface({ input, crlfDelay: Infinity });
  // the client went away: stop reading
  output.on('error', () => lines.close());
  lines.on('line', (line) => {
    if (line.trim() === '') return;
    const p = session.send(line).reply.then((reply) => {
      if (reply !== null) write(reply);
    });
    inflight.add(p);
    p.finally(() => inflight.delete(p));
  });
  const done = new Promise((resolve) => {
    lines.on('close', async () => {
      while (inflight.size) await Promise.allSettled([...inflight]);
      session.close();
      resolve(undefined);
    });
  });
  return {
    done: done.then(() => {}),
    session,
    close() {
      lines.close();
    },
  };
}
