// The stdio MCP transport: newline-delimited JSON-RPC on stdin and stdout,
// logs on stderr. One session; messages are handled as they arrive, so a
// slow tool does not hold up the next request.
import { createInterface } from 'node:readline';

import { Session } from './dispatch.mjs';

/**
 * Serves one MCP session over a pair of streams.
 * @param {object} options
 * @param {import('./dispatch.mjs').ToolSource} options.source
 * @param {object} [options.engine] EngineOptions
 * @param {number} [options.timeoutMs] per-invocation timeout
 * @param {NodeJS.ReadableStream} [options.input] default process.stdin
 * @param {NodeJS.WritableStream} [options.output] default process.stdout
 * @param {(line: string) => void} [options.log]
 * @returns {{done: Promise<void>, close: () => void}} done resolves when the input ends and every reply is written
 */
export function serveStdio({ source, engine = {}, timeoutMs = 30_000, input = process.stdin, output = process.stdout, log = () => {} }) {
  const write = (message) => output.write(`${message}\n`);
  const session = new Session(source, { engine, timeoutMs, log, notify: write });
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
      resolve();
    });
  });
  return {
    done,
    close() {
      lines.close();
    },
  };
}
