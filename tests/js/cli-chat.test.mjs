// `mcp-switchboard chat` end to end, for every provider: against its own
// demo home (--demo) and against `serve --demo` over Streamable HTTP
// (--upstream), with a fake model server in the provider's wire format.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { once } from 'node:events';

import { startFakeModel, PROVIDERS } from './fake-models.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');
const cli = join(root, 'pkg/cli.mjs');
const KEY_VARS = { gemini: 'GEMINI_API_KEY', openai: 'OPENAI_API_KEY', 'openai-responses': 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', prompted: 'OPENAI_API_KEY' };

/** Runs the CLI; resolves with its exit code and output. */
function run(args, env = {}) {
  const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return once(child, 'exit').then(([code]) => ({ code, stdout, stderr }));
}

let server;
let upstreamUrl;
before(async () => {
  server = spawn(process.execPath, [cli, 'serve', '--demo', '--port', '0', '--mode', 'all'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  upstreamUrl = await new Promise((resolve, reject) => {
    const seen = (d) => {
      err += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (m) resolve(m[0]);
    };
    server.stderr.on('data', seen);
    server.stdout.on('data', seen);
    server.on('exit', () => reject(new Error(`serve exited: ${err}`)));
  });
});
after(() => server?.kill());

const script = [
  { calls: [{ name: 'set_light', arguments: { deviceId: 'kitchen-spots', state: 'on', dim: '40' } }, { name: 'set_light', arguments: { deviceId: 'no-such-lamp', state: 'on' } }] },
  { text: 'The kitchen light is on at 40%.' },
];

for (const provider of PROVIDERS.filter((p) => p !== 'prompted')) {
  for (const [label, source] of [['--demo', () => ['--demo']], ['--upstream (serve --demo over Streamable HTTP)', () => ['--upstream', upstreamUrl]]]) {
    test(`chat --provider ${provider} ${label} --json`, async () => {
      const model = await startFakeModel(provider, script, { key: 'k-123' });
      try {
        const r = await run(['chat', '--provider', provider, '--model', 'fake-1', '--base-url', model.baseUrl, ...source(), '--json', 'Turn on the kitchen light at 40%'], { [KEY_VARS[provider]]: 'k-123' });
        assert.equal(r.code, 0, r.stderr);
        const out = JSON.parse(r.stdout);
        assert.equal(out.text, 'The kitchen light is on at 40%.');
        assert.equal(out.rounds, 2);
        assert.deepEqual(out.calls.map((c) => [c.name, c.isError]), [['set_light', false], ['set_light', true]]);
        assert.equal(out.calls[0].arguments.dim, 40, 'the arguments after coercion');
        assert.ok(out.usage.inputTokens > 0);
      } finally {
        await model.close();
      }
    });
  }

  test(`chat --provider ${provider} --stream prints the answer as it arrives; a provider error exits 1`, async () => {
    const model = await startFakeModel(provider, [{ text: 'Streamed answer, in pieces.' }, { status: 400, message: 'model not supported' }], { key: 'k' });
    try {
      let r = await run(['chat', '--provider', provider, '--model', 'fake-1', '--base-url', model.baseUrl, '--demo', '--stream', 'hello'], { [KEY_VARS[provider]]: 'k' });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'Streamed answer, in pieces.\n');
      r = await run(['chat', '--provider', provider, '--model', 'fake-1', '--base-url', model.baseUrl, '--demo', 'hello'], { [KEY_VARS[provider]]: 'k' });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /bad_request 400: model not supported/);
    } finally {
      await model.close();
    }
  });
}

test('chat: usage errors exit 2; the key comes from the environment only', async () => {
  const cases = [
    [['chat', '--model', 'm', '--demo', 'hi'], /--provider/],
    [['chat', '--provider', 'openai', '--demo', 'hi'], /--model/],
    [['chat', '--provider', 'openai', '--model', 'm', 'hi'], /one tool source/],
    [['chat', '--provider', 'openai', '--model', 'm', '--demo'], /one MESSAGE/],
    [['chat', '--provider', 'openai', '--model', 'm', '--demo', '--max-rounds', '0', 'hi'], /--max-rounds/],
    [['chat', '--provider', 'openai', '--model', 'm', '--demo', '--api-key', 'sk-x', 'hi'], /unknown option --api-key/],
    [['chat', '--provider', 'anthropic', '--model', 'm', '--demo', 'hi'], /ANTHROPIC_API_KEY/],
    [['chat', '--provider', 'openai', '--model', 'm', '--demo', '--api-key-env', 'MY_KEY', 'hi'], /MY_KEY/],
  ];
  for (const [args, want] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, want);
  }
  // --api-key-env names the variable
  const model = await startFakeModel('openai', [{ text: 'ok' }], { key: 'from-env' });
  try {
    const r = await run(['chat', '--provider', 'openai', '--model', 'm', '--base-url', model.baseUrl, '--api-key-env', 'MY_KEY', '--demo', 'hi'], { MY_KEY: 'from-env' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ok\n');
  } finally {
    await model.close();
  }
});

test('chat --provider prompted over a local OpenAI-compatible server, hybrid mode, the round limit exits 1', async () => {
  const model = await startFakeModel('prompted', [
    { calls: [{ name: 'use_tool', arguments: { name: 'set_light', arguments: { deviceId: 'kitchen-spots', state: 'off' } } }] },
    { text: 'Off.' },
  ]);
  try {
    const r = await run(['chat', '--provider', 'prompted', '--model', 'llama', '--base-url', model.baseUrl, '--demo', '--mode', 'hybrid', '--json', 'kitchen light off']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.calls, [{ name: 'set_light', arguments: { deviceId: 'kitchen-spots', state: 'off' }, isError: false }]);
    assert.equal(model.requests[0].headers.authorization, undefined, 'no key for a local server');
  } finally {
    await model.close();
  }
  const loop = await startFakeModel('gemini', Array(3).fill({ calls: [{ name: 'get_home_structure', arguments: {} }] }), { key: 'g' });
  try {
    const r = await run(['chat', '--provider', 'gemini', '--model', 'gemini-2.5-flash', '--base-url', loop.root, '--demo', '--max-rounds', '2', 'loop'], { GEMINI_API_KEY: 'g' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /stopped after 2 model requests/);
  } finally {
    await loop.close();
  }
});
