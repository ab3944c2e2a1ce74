// mcp-switchboard/gateway: the gateway library's declarations (tsc emits them
// from the JSDoc of js/gateway.mjs and the modules it re-exports), used as an
// app would (Node's types come with the entry).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import {
  Gateway,
  Session,
  connectUpstream,
  createGateway,
  handlerSource,
  serveStdio,
  startGateway,
  type GatewayEvent,
  type GatewayOptions,
  type GatewayStatus,
  type Logger,
  type StdioServer,
  type ToolHandler,
  type ToolSource,
} from 'mcp-switchboard/gateway';

const setLight: ToolHandler = async (args, ctx) => {
  if (ctx.signal.aborted) throw new Error('stopped');
  return { success: true, on: args['on'] === true };
};
const source: ToolSource = handlerSource({ tools: [] }, { set_light: setLight, get_light: () => 'off' });

const logger: Logger = console;
const onEvent = (e: GatewayEvent): void => {
  if (e.type === 'auth-refused') {
    const failures: number = e.failures;
    void failures;
  } else if (e.type === 'login-limited') {
    const wait: number = e.retryAfterS;
    void wait;
  } else if (e.type === 'session-expired') {
    const id: string = e.session;
    void id;
  }
};
const options: GatewayOptions = { source, host: '0.0.0.0', token: 'secret', maxSessions: 8, sessionIdleMs: 60_000, maxAuthFailures: 5, authWindowMs: 30_000, logger, onEvent, engine: { mode: 'hybrid' } };
const gw: Gateway = await startGateway({ ...options, port: 0 });
const url: string | null = gw.url;

// a request handler for the host's own server
const routed = createGateway({ source, path: '/api/mcp' });
const handler: (req: IncomingMessage, res: ServerResponse) => void = routed.handler;
createServer(handler);
await startGateway({ source, server: createServer(), port: 0 });

// run-time changes
gw.setToken('another');
gw.setOrigins(['https://app.example']);
gw.setPolicy({ readOnly: true, deny: ['trigger_any_flow'] });
gw.setMode('hybrid');
// @ts-expect-error not a disclosure mode
gw.setMode('most');
// @ts-expect-error not an exposure field
gw.setPolicy({ readonly: true });
gw.updateCatalog({ tools: [{ name: 'x', inputSchema: { type: 'object' } }] });
gw.setSource(source);

const reply: string | null = await gw.handleMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}');
const status: GatewayStatus = gw.status();
const counts: number = status.counts.authFailures + status.counts.calls + status.sessions + status.tools;
const mode: 'all' | 'hybrid' | 'meta' | 'auto' = status.mode;
await gw.close();

const stdio: StdioServer = serveStdio({ source, engine: { mode: 'meta' }, log: (line: string) => void line });
await stdio.done;
const upstream: ToolSource & { transport: string } = await connectUpstream('http://127.0.0.1:1/mcp', { token: 't', timeoutMs: 1000 });
const session = new Session(upstream, { timeoutMs: 5000 });
const sent: { owed: boolean; reply: Promise<string | null> } = session.send('{}');

export { url, reply, counts, mode, sent };
