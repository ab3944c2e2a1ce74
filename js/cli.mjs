#!/usr/bin/env node
// mcp-switchboard command line: reads files or stdin, calls the package,
// prints JSON. Bad input gets one line on stderr and exit code 2.
import { createReadStream, existsSync, promises as fsp, readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve as resolvePath, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sb from '../pkg/index.mjs';

const USAGE = `usage:
  mcp-switchboard convert --to <dialect> [--strict [--strict-tools A,B]] [FILE|-]
  mcp-switchboard lint [FILE|-]
  mcp-switchboard calls --from <dialect> --catalog FILE [RESPONSE|-]
  mcp-switchboard validate --catalog FILE --tool NAME [ARGS|FILE|-]
  mcp-switchboard search --catalog FILE [--meta FILE] [--category C] [--limit K] QUERY
  mcp-switchboard budget --catalog FILE [--to DIALECT]
  mcp-switchboard serve [--port P] [--host H] [--token T] [--stdio]
        (--demo | --upstream [NAME=](URL|COMMAND)... [--upstream-token [NAME=]T...] | --catalog FILE [--handlers MODULE])
        [--mode all|hybrid|meta|auto] [--page-size N] [--timeout SECONDS] [--meta FILE]
        [--allow A,B] [--deny A,B] [--read-only] [--no-destructive] [--origin O,P] [--max-body BYTES]
        [--max-sessions N] [--session-idle SECONDS] [--max-streams N] [--max-inflight N]
        [--max-connections N] [--max-reply BYTES] [--stats SECONDS]
        [--web-tools [--web-allow-private] [--web-allow-hosts H,I] [--web-search-endpoint URL]
         [--web-search-key KEY] [--web-search-timeout SECONDS]]
  mcp-switchboard chat --provider gemini|openai|openai-responses|anthropic|prompted --model NAME
        [--base-url URL] [--api-key-env VAR] (--demo | --upstream URL | --catalog FILE --handlers MODULE)
        [--upstream-token T] [--mode all|hybrid|meta|auto] [--stream] [--json] [--max-rounds N]
        [--system TEXT] [--timeout SECONDS] MESSAGE
  mcp-switchboard playground [--port N]
  mcp-switchboard dialects
  mcp-switchboard --version
dialects: ${sb.dialects().join(', ')}
FILE is a tools/list response, its result, an array of tools, or several pages; - or nothing reads stdin.
RESPONSE is a model response in the dialect's own shape (plain text for prompted).
ARGS is the arguments as inline JSON ('{"on": true}'), or a FILE holding them; validate exits 1
when they do not fit the tool's schema.
serve runs an MCP server (Streamable HTTP at http://HOST:PORT/mcp, or stdio) until SIGINT or SIGTERM;
tokens may also come from MCP_SWITCHBOARD_TOKEN and MCP_SWITCHBOARD_UPSTREAM_TOKEN.
--upstream URL fronts one MCP server (Streamable HTTP, or the SSE URL of an HTTP+SSE one) with its own
names; --upstream "COMMAND ARGS" starts one that speaks stdio (split at spaces). Give --upstream NAME=URL
or NAME="COMMAND ARGS" once per server to front several: their tools and prompts are served as
NAME__TOOL, their resources as NAME+URI; one that is down is served without tools and joins when it
answers. --upstream-token NAME=T is that server's token, --upstream-token T everyone's.
chat asks a model MESSAGE with the source's tools and runs its tool calls until it answers: the answer
on stdout (as it arrives with --stream), or with --json {text, rounds, calls: [{name, arguments, isError}],
usage}. The key comes from the environment only: --api-key-env VAR, by default GEMINI_API_KEY,
OPENAI_API_KEY or ANTHROPIC_API_KEY (not needed with a --base-url of a local server). --base-url follows
each vendor's SDK: OpenAI's includes /v1 (any OpenAI-compatible server: Ollama, LM Studio, llama.cpp,
vLLM, OpenRouter), Anthropic's and Gemini's are the host's root. Exit 0 on an answer, 1 when a provider
error or the round limit ended the turn, 2 on usage errors.
playground serves the playground page (convert, tokens, calls, search, all in the browser) at
http://127.0.0.1:N/ (default 8766) until SIGINT or SIGTERM.
--web-tools adds web_fetch and web_search (category web) beside the source's tools; web_fetch refuses
loopback and private addresses unless --web-allow-private (or the host is in --web-allow-hosts).`;

class UsageError extends Error {}

/** Splits argv into flags (with their values) and positional arguments. */
function parseArgs(argv, spec) {
  const flags = {};
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      flags.help = true;
    } else if (a.startsWith('--') && a !== '--') {
      const eq = a.indexOf('=');
      const [name, inline] = eq < 0 ? [a.slice(2), undefined] : [a.slice(2, eq), a.slice(eq + 1)];
      if (!(name in spec)) throw new UsageError(`unknown option --${name}`);
      if (spec[name] === 'bool') {
        flags[name] = true;
      } else if (spec[name] === 'list') {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        (flags[name] ??= []).push(v);
      } else {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new UsageError(`--${name} needs a value`);
        flags[name] = v;
      }
    } else {
      rest.push(a);
    }
  }
  return { flags, rest };
}

/** Reads a file, or stdin for '-' or nothing, as bytes (UTF-8 is checked in Rust). */
function readInput(path) {
  try {
    return new Uint8Array(readFileSync(path === undefined || path === '-' ? 0 : path));
  } catch (e) {
    throw new UsageError(`cannot read ${path ?? 'stdin'}: ${e.code ?? e.message}`);
  }
}

function print(value) {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

const commands = {
  convert(argv) {
    const { flags, rest } = parseArgs(argv, { to: 'value', strict: 'bool', 'strict-tools': 'value' });
    if (!flags.to) throw new UsageError('convert needs --to <dialect>');
    if (rest.length > 1) throw new UsageError('convert reads one FILE');
    const options = { to: flags.to, strict: !!flags.strict };
    if (flags['strict-tools'] !== undefined) options.strictTools = flags['strict-tools'].split(',').filter(Boolean);
    print(sb.convert(readInput(rest[0]), options));
  },
  lint(argv) {
    const { rest } = parseArgs(argv, {});
    if (rest.length > 1) throw new UsageError('lint reads one FILE');
    print(sb.lint(readInput(rest[0])));
  },
  dialects() {
    print(sb.dialects());
  },
  calls(argv) {
    const { flags, rest } = parseArgs(argv, { from: 'value', catalog: 'value' });
    if (!flags.from) throw new UsageError('calls needs --from <dialect>');
    if (!flags.catalog) throw new UsageError('calls needs --catalog FILE (for the tool names and schemas)');
    if (rest.length > 1) throw new UsageError('calls reads one RESPONSE');
    const catalog = readInput(flags.catalog);
    const { names } = sb.convert(catalog, { to: flags.from });
    const response = Buffer.from(readInput(rest[0])).toString('utf8');
    print(sb.parseCalls(flags.from, response, names, catalog));
  },
  validate(argv) {
    const { flags, rest } = parseArgs(argv, { catalog: 'value', tool: 'value' });
    if (!flags.catalog || !flags.tool) throw new UsageError('validate needs --catalog FILE and --tool NAME');
    if (rest.length > 1) throw new UsageError('validate reads one ARGS');
    const { tools } = sb.readCatalog(readInput(flags.catalog));
    const tool = tools.find((t) => t.name === flags.tool);
    if (!tool) throw new UsageError(`no tool named ${JSON.stringify(flags.tool)} in ${flags.catalog}`);
    // inline JSON (an object or an array) as it is, anything else names a file
    const inline = rest[0] !== undefined && /^\s*[{[]/.test(rest[0]);
    const args = inline ? rest[0] : Buffer.from(readInput(rest[0])).toString('utf8');
    const result = sb.validateArguments(tool, args);
    print(result);
    if (!result.valid) process.exitCode = 1;
  },
};

/** Reads a JSON file (for --meta). */
function readJson(path) {
  const text = Buffer.from(readInput(path)).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path} is not JSON: ${e.message}`);
  }
}

/** A whole number from a flag, or undefined. */
function intFlag(flags, name, min = 0) {
  if (flags[name] === undefined) return undefined;
  const n = Number(flags[name]);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} needs a whole number of at least ${min}`);
  return n;
}

const list = (v) => (v === undefined ? undefined : v.split(',').map((x) => x.trim()).filter(Boolean));

Object.assign(commands, {
  search(argv) {
    const { flags, rest } = parseArgs(argv, { catalog: 'value', meta: 'value', category: 'value', limit: 'value' });
    if (!flags.catalog) throw new UsageError('search needs --catalog FILE');
    if (rest.length === 0) throw new UsageError('search needs a QUERY');
    const index = new sb.ToolIndex(readInput(flags.catalog), flags.meta ? readJson(flags.meta) : undefined);
    const found = index.search(rest.join(' '), { limit: intFlag(flags, 'limit', 1), category: flags.category });
    print({ total: found.total, hits: found.hits.map(({ name, score, category, description }) => ({ name, score, category, description })) });
  },
  budget(argv) {
    const { flags, rest } = parseArgs(argv, { catalog: 'value', to: 'value' });
    if (!flags.catalog) throw new UsageError('budget needs --catalog FILE');
    if (rest.length > 0) throw new UsageError('budget takes no positional arguments');
    print(sb.budget(readInput(flags.catalog), { to: flags.to }));
  },
  async chat(argv) {
    const { flags, rest } = parseArgs(argv, {
      provider: 'value', model: 'value', 'base-url': 'value', 'api-key-env': 'value', demo: 'bool', upstream: 'list',
      'upstream-token': 'list', catalog: 'value', handlers: 'value', mode: 'value', stream: 'bool', json: 'bool',
      'max-rounds': 'value', system: 'value', timeout: 'value',
    });
    // the package with the MCP machinery the tools run on (the gateway's module)
    const chat = await import('../pkg/full/index.mjs');
    const provider = chat.providers().find((p) => p.name === flags.provider);
    if (!provider) throw new UsageError(`chat needs --provider ${chat.providers().map((p) => p.name).join('|')}`);
    if (!flags.model) throw new UsageError('chat needs --model NAME');
    if (rest.length !== 1 || rest[0] === '') throw new UsageError('chat takes one MESSAGE (quote it)');
    const chosen = ['demo', 'upstream', 'catalog'].filter((k) => flags[k] !== undefined);
    if (chosen.length !== 1) throw new UsageError('chat needs exactly one tool source: --demo, --upstream URL or --catalog FILE --handlers MODULE');
    if (flags.catalog && !flags.handlers) throw new UsageError('--catalog FILE goes with --handlers MODULE (the functions that run its tools)');
    if (flags.handlers && !flags.catalog) throw new UsageError('--handlers goes with --catalog FILE');
    if (flags.upstream && flags.upstream.length !== 1) throw new UsageError('chat takes one --upstream URL');
    const maxRounds = flags['max-rounds'] === undefined ? undefined : Number(flags['max-rounds']);
    if (maxRounds !== undefined && !(Number.isInteger(maxRounds) && maxRounds >= 1 && maxRounds <= 1000)) throw new UsageError('--max-rounds needs a whole number from 1 to 1000');
    const timeout = flags.timeout === undefined ? 30 : Number(flags.timeout);
    if (!(timeout > 0 && timeout <= 3600)) throw new UsageError('--timeout needs a number of seconds (0 to 3600)');
    if (flags.mode !== undefined && !['all', 'hybrid', 'meta', 'auto'].includes(flags.mode)) throw new UsageError(`unknown mode ${JSON.stringify(flags.mode)}; choose all, hybrid, meta or auto`);
    if (flags['base-url'] !== undefined && !/^https?:\/\/[^\s]+$/i.test(flags['base-url'])) throw new UsageError(`--base-url needs an http:// or https:// URL (got ${flags['base-url']})`);
    // the key from the environment only, never from a flag's value
    const keyVar = flags['api-key-env'] ?? provider.keyVariable;
    const apiKey = process.env[keyVar] || undefined;
    if (!apiKey && (flags['api-key-env'] !== undefined || flags['base-url'] === undefined)) {
      throw new UsageError(`no API key: set ${keyVar} in the environment${flags['api-key-env'] ? '' : ' (or --api-key-env VAR)'}`);
    }
    const source = await toolSource(flags, timeout * 1000, undefined, () => {});
    const conversation = new chat.Conversation(source.catalog, {
      provider: provider.name,
      model: flags.model,
      apiKey,
      baseUrl: flags['base-url'],
      mode: flags.mode,
      stream: !!flags.stream,
      maxRounds,
      system: flags.system,
      toolTimeoutMs: timeout * 1000,
    });
    const unwatch = source.watch?.(() => conversation.setCatalog(source.catalog));
    const streamed = flags.stream && !flags.json;
    let done;
    try {
      done = await chat.runChat(conversation, rest[0], {
        callTool: (name, args) => source.call(name, args, { signal: AbortSignal.timeout(timeout * 1000), kind: 'tool', source: null }),
        onText: streamed ? (delta) => process.stdout.write(delta) : undefined,
      });
    } finally {
      unwatch?.();
      await source.close?.();
      conversation.free();
    }
    if (flags.json) {
      print({ text: done.text, rounds: done.rounds, calls: done.calls, usage: done.usage, reason: done.reason, ...(done.error ? { error: done.error } : {}) });
    } else if (streamed) {
      process.stdout.write('\n');
    } else if (done.text) {
      process.stdout.write(`${done.text}\n`);
    }
    if (done.reason === 'error') {
      process.stderr.write(`mcp-switchboard: ${provider.name} failed: ${describe(done.error)}\n`);
      process.exitCode = 1;
    } else if (done.reason === 'max_rounds') {
      process.stderr.write(`mcp-switchboard: stopped after ${done.rounds} model requests (--max-rounds) without an answer\n`);
      process.exitCode = 1;
    } else if (done.reason !== 'stop') {
      process.stderr.write(`mcp-switchboard: the answer ended early: ${done.reason}${done.note ? ` (${done.note})` : ''}\n`);
    }
  },
  async serve(argv) {
    const { flags, rest } = parseArgs(argv, {
      port: 'value', host: 'value', token: 'value', upstream: 'list', 'upstream-token': 'list', mode: 'value',
      demo: 'bool', stdio: 'bool', catalog: 'value', handlers: 'value', timeout: 'value', 'page-size': 'value',
      meta: 'value', allow: 'value', deny: 'value', 'read-only': 'bool', 'no-destructive': 'bool', origin: 'value',
      'max-body': 'value', 'conformance-fixtures': 'bool', 'max-sessions': 'value', 'session-idle': 'value',
      'max-streams': 'value', 'max-inflight': 'value', 'max-connections': 'value', 'max-reply': 'value',
      stats: 'value', 'web-tools': 'bool', 'web-allow-private': 'bool', 'web-allow-hosts': 'value',
      'web-search-endpoint': 'value', 'web-search-key': 'value', 'web-search-timeout': 'value',
    });
    if (rest.length > 0) throw new UsageError(`serve takes no positional arguments (got ${rest[0]})`);
    const chosen = ['demo', 'upstream', 'catalog', 'conformance-fixtures'].filter((k) => flags[k] !== undefined);
    if (chosen.length !== 1) throw new UsageError('serve needs exactly one tool source: --demo, --upstream URL (or NAME=URL, repeated) or --catalog FILE');
    if (flags.handlers && !flags.catalog) throw new UsageError('--handlers goes with --catalog FILE');
    const log = (line) => process.stderr.write(`mcp-switchboard: ${line}\n`);
    const timeoutMs = flags.timeout === undefined ? 30_000 : Math.round(Number(flags.timeout) * 1000);
    if (!(timeoutMs > 0)) throw new UsageError('--timeout needs a number of seconds');
    const sessionIdleMs = flags['session-idle'] === undefined ? undefined : Math.round(Number(flags['session-idle']) * 1000);
    if (sessionIdleMs !== undefined && !(sessionIdleMs > 0)) throw new UsageError('--session-idle needs a number of seconds');
    const maxReply = intFlag(flags, 'max-reply', 1);
    const engine = {
      mode: flags.mode,
      pageSize: intFlag(flags, 'page-size', 1),
      metadata: flags.meta ? readJson(flags.meta) : undefined,
      allow: list(flags.allow),
      deny: list(flags.deny),
      readOnly: !!flags['read-only'],
      noDestructive: !!flags['no-destructive'],
    };
    let source = await toolSource(flags, timeoutMs, maxReply, log);
    if (flags['web-tools']) {
      const { withWebTools } = await import('./web.mjs');
      source = withWebTools(source, webOptions(flags, engine.metadata));
      engine.metadata = source.metadata;
    } else if (Object.keys(flags).some((k) => k.startsWith('web-'))) {
      throw new UsageError('the --web-* options go with --web-tools');
    }
    const tools = source.sources
      ? source.sources.reduce((n, s) => n + (s.available ? sb.readCatalog(s.catalog).tools.length : 0), 0)
      : sb.readCatalog(source.catalog).tools.length;
    if (flags.stdio) {
      const { serveStdio } = await import('./stdio.mjs');
      log(`serving ${source.label} (${tools} tools) on stdio`);
      const server = serveStdio({ source, engine, timeoutMs, log });
      // upstreams: what they serve changes (lists, one lost or back)
      source.watch?.(() => server.session.setSource(source));
      stopped().then(() => server.close());
      await server.done;
      await source.close?.();
      return;
    }
    const { startGateway } = await import('./gateway.mjs');
    // failed requests, tool errors, lock-outs and catalog problems; not every session or refused request
    const logger = { warn: (line, e) => e?.type !== 'refused' && e?.type !== 'auth-refused' && log(line), error: log };
    const gateway = await startGateway({
      source, engine, timeoutMs, logger,
      host: flags.host ?? '127.0.0.1',
      port: intFlag(flags, 'port') ?? 8765,
      token: flags.token ?? process.env.MCP_SWITCHBOARD_TOKEN,
      origins: list(flags.origin),
      maxBody: intFlag(flags, 'max-body', 1),
      maxSessions: intFlag(flags, 'max-sessions', 1),
      sessionIdleMs,
      maxStreams: intFlag(flags, 'max-streams', 0),
      maxInflight: intFlag(flags, 'max-inflight', 1),
      maxConnections: intFlag(flags, 'max-connections', 1),
    }).catch((e) => {
      source.close?.();
      if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${flags.host ?? '127.0.0.1'}:${flags.port ?? 8765}: ${e.code}`);
      throw e;
    });
    log(`serving ${source.label} (${tools} tools, mode ${flags.mode ?? 'all'}) at ${gateway.url}`);
    const stats = intFlag(flags, 'stats', 1);
    if (stats) {
      // one line now and then for operators (and the soak bench)
      const line = () => log(`stats: ${gateway.sessions.size} sessions, ${(process.memoryUsage.rss() / 1048576).toFixed(1)} MB rss`);
      setInterval(line, stats * 1000).unref();
    }
    await stopped();
    await gateway.close();
    await source.close?.();
    log('stopped');
  },
});

Object.assign(commands, {
  async playground(argv) {
    const { flags, rest } = parseArgs(argv, { port: 'value' });
    if (rest.length > 0) throw new UsageError(`playground takes no positional arguments (got ${rest[0]})`);
    const port = intFlag(flags, 'port') ?? 8766;
    if (port > 65535) throw new UsageError('--port needs a port number (0 to 65535)');
    // beside this file in the package; in a checkout (where js/playground/ is its source), the one
    // js/build.mjs built
    const dir = [new URL('./playground/', import.meta.url), new URL('../pkg/playground/', import.meta.url)]
      .map((u) => fileURLToPath(u))
      .find((d) => existsSync(`${d}app.js`));
    if (!dir) throw new UsageError('the playground is not built: run "node js/build.mjs" in the checkout');
    // the package ships the playground without its copy of the module: the package's own is served
    const module = fileURLToPath(new URL('./full/mcp_switchboard_full_bg.wasm', import.meta.url));
    const server = createServer(staticFiles(realpathSync(dir), existsSync(module) ? { '/mcp_switchboard_full_bg.wasm': module } : {}));
    await new Promise((resolve, reject) => {
      server.once('error', (e) => reject(e.code === 'EADDRINUSE' || e.code === 'EACCES' ? new UsageError(`cannot listen on 127.0.0.1:${port}: ${e.code}`) : e));
      server.listen(port, '127.0.0.1', resolve);
    });
    process.stderr.write(`mcp-switchboard: the playground at http://127.0.0.1:${server.address().port}/ (Ctrl+C stops)\n`);
    await stopped();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  },
});

/** Content types of the files the playground has (anything else is served as bytes). */
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * A request handler serving the files under `root` (a real path) and nothing else: GET and HEAD only,
 * index.html for a folder that has one, never a listing, nothing outside `root` (no `..`, no
 * symbolic link leading out), and a content security policy that lets the page load only its own
 * files (it may connect to any MCP server the visitor names). `beside` names files served for paths
 * `root` does not have.
 * @param {string} root
 * @param {{ [path: string]: string }} [beside]
 */
function staticFiles(root, beside = {}) {
  return async (req, res) => {
    const refuse = (status, text) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...(status === 405 ? { allow: 'GET, HEAD' } : {}) });
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(405, 'method not allowed');
    let name;
    try {
      name = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      return refuse(400, 'bad path');
    }
    if (name.includes('\0') || name.split(/[\\/]/).includes('..')) return refuse(404, 'not found');
    let file = resolvePath(root, `.${name}`);
    let stat;
    try {
      if (!existsSync(file) && Object.hasOwn(beside, name)) file = beside[name];
      else {
        if ((await fsp.stat(file)).isDirectory()) file = join(file, 'index.html');
        file = await fsp.realpath(file);
        if (!file.startsWith(root + sep)) return refuse(404, 'not found');
      }
      stat = await fsp.stat(file);
      if (!stat.isFile()) return refuse(404, 'not found');
    } catch {
      return refuse(404, 'not found');
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src *; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  };
}

/**
 * Resolves when serve is asked to stop: SIGINT, SIGTERM or SIGHUP, or, when
 * started by npm exec (npx), once npm is gone (it does not always pass its
 * own termination on to the command it runs through a shell). A stop that
 * takes over 10 s ends the process.
 */
function stopped() {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      setTimeout(() => process.exit(1), 10_000).unref();
      resolve();
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, stop);
    if (process.env.npm_command === 'exec') {
      const gone = () => process.ppid !== starter.parent || (starter.npm > 1 && !alive(starter.npm));
      setInterval(() => gone() && stop(), 500).unref();
    }
  });
}

/** Who started this process (npm, then the shell it runs commands through), read at once. */
const starter = { parent: process.ppid, npm: parentOf(process.ppid) };

/** The parent of a process, where /proc tells it (Linux); undefined elsewhere. */
function parentOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Whether a process exists. */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The web tools' options from serve's flags. */
function webOptions(flags, metadata) {
  const seconds = flags['web-search-timeout'] === undefined ? undefined : Math.round(Number(flags['web-search-timeout']) * 1000);
  if (seconds !== undefined && !(seconds > 0)) throw new UsageError('--web-search-timeout needs a number of seconds');
  return {
    metadata,
    allowPrivate: !!flags['web-allow-private'],
    allowHosts: list(flags['web-allow-hosts']),
    searchEndpoint: flags['web-search-endpoint'],
    searchApiKey: flags['web-search-key'] ?? process.env.MCP_SWITCHBOARD_WEB_SEARCH_KEY,
    searchTimeoutMs: seconds,
  };
}

/** A provider error in one line: its kind, status, message and wait. */
function describe(error) {
  if (!error) return 'unknown error';
  const status = error.status ? ` ${error.status}` : '';
  const wait = error.retryAfterMs != null ? ` (retry after ${Math.ceil(error.retryAfterMs / 1000)} s)` : '';
  return `${error.kind}${status}: ${error.message}${wait}`;
}

/** The tool source serve was asked for. */
async function toolSource(flags, timeoutMs, maxReply, log) {
  if (flags.demo) return (await import('./demo-home.mjs')).createDemoHome().source;
  if (flags['conformance-fixtures']) return (await import('./conformance-fixtures.mjs')).conformanceSource();
  if (flags.upstream) {
    const { connectUpstream, connectUpstreams } = await import('./upstream.mjs');
    const { specs, token } = upstreamSpecs(flags.upstream, flags['upstream-token'] ?? []);
    try {
      if (specs.length === 1 && specs[0].name === undefined) return await connectUpstream(specs[0].command ?? /** @type {string} */ (specs[0].url), { token, timeoutMs, maxReply, log });
      return await connectUpstreams(/** @type {any} */ (specs), { token, timeoutMs, maxReply, log });
    } catch (e) {
      throw new UsageError(e.message);
    }
  }
  const { handlerSource } = await import('./dispatch.mjs');
  let handlers = {};
  if (flags.handlers) {
    const { pathToFileURL } = await import('node:url');
    const mod = await import(pathToFileURL(flags.handlers).href).catch((e) => {
      throw new UsageError(`cannot load ${flags.handlers}: ${e.message}`);
    });
    handlers = mod.default ?? mod;
  }
  return handlerSource(readInput(flags.catalog), handlers, flags.catalog);
}

/**
 * The upstreams of serve: `URL` (one, unnamed) or `NAME=URL` each, and their tokens: `NAME=T` for one,
 * `T` (or MCP_SWITCHBOARD_UPSTREAM_TOKEN) for every one.
 * @param {string[]} given
 * @param {string[]} tokens
 */
function upstreamSpecs(given, tokens) {
  const specs = given.map((g) => {
    const m = /^([A-Za-z0-9_-]+)=(.+)$/.exec(g);
    const [name, target] = m ? [m[1], m[2]] : [undefined, g];
    // a URL, or the command line of a stdio server (split at spaces)
    if (/^https?:\/\//i.test(target)) return { name, url: target, command: undefined, token: undefined };
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) throw new UsageError(`--upstream needs an http:// or https:// URL or a command (got ${target})`);
    const command = target.split(/\s+/).filter(Boolean);
    if (command.length === 0) throw new UsageError('--upstream needs a URL or a command');
    return { name, url: undefined, command, token: undefined };
  });
  const unnamed = specs.filter((s) => s.name === undefined);
  if (specs.length > 1 && unnamed.length > 0) throw new UsageError(`several upstreams need names: --upstream NAME=URL (not ${unnamed[0].url ?? unnamed[0].command?.join(' ')})`);
  let token = process.env.MCP_SWITCHBOARD_UPSTREAM_TOKEN;
  for (const t of tokens) {
    const eq = t.indexOf('=');
    const spec = eq > 0 ? specs.find((s) => s.name === t.slice(0, eq)) : undefined;
    if (spec) spec.token = t.slice(eq + 1);
    else token = t;
  }
  return { specs, token };
}

const [command, ...argv] = process.argv.slice(2);
try {
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    process.exit(0);
  }
  if (command === '--version' || command === '-v') {
    console.log(sb.version());
    process.exit(0);
  }
  if (!command) {
    process.stderr.write(USAGE + '\n');
    process.exit(2);
  }
  const fn = commands[command];
  if (!fn) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  await fn(argv);
} catch (e) {
  process.stderr.write(`mcp-switchboard: ${e.message}\n`);
  if (e instanceof UsageError) process.stderr.write(`run "mcp-switchboard --help" for usage\n`);
  process.exit(2);
}
