// The providers' own tool search (disclosure "native") against fake Anthropic and OpenAI Responses servers
// that run it as the APIs do (tests/js/fake-models.mjs): the server search picks from the deferred tools and
// answers with the real blocks, the client search asks for our answer, and every request is held to the
// APIs' rules for deferred tools. End to end through `chat --mode native`; for every catalog of the corpus,
// the first request and our answers to a client search, type-checked against the vendor SDKs' request types
// (tsc --strict).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, basename } from 'node:path';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

import { Conversation, convert, runChat } from '../../pkg/index.mjs';
import { startFakeModel, loadedTools, deferredTools, sampleArguments } from './fake-models.mjs';
import { corpus, root, runPackaged as run } from './helpers.mjs';

const catalogs = readdirSync(corpus)
  .filter((f) => f.endsWith('.tools-list.json'))
  .sort()
  .map((f) => ({ label: basename(f, '.tools-list.json'), path: join(corpus, f), catalog: JSON.parse(readFileSync(join(corpus, f), 'utf8')) }));
const HOME = join(corpus, 'home-assistant-2026.11.tools-list.json');
const NATIVE = ['anthropic', 'openai-responses'];
const HANDLERS = join(root, 'tests/js/fixtures/any-handlers.mjs');


/** The first tool a search loaded, called with arguments its schema takes. */
const callFirst = (loaded) => (loaded.length ? [{ name: loaded[0].name, arguments: sampleArguments(loaded[0].schema) }] : []);

/** The tools of a request that are not deferred, and the namespaces' sizes. */
function shape(provider, body) {
  const deferred = new Set(deferredTools(provider, body).map((t) => t.name));
  const flat = body.tools.flatMap((t) => (t.type === 'namespace' ? t.tools : [t]));
  return {
    deferred,
    loaded: flat.filter((t) => t.type !== 'tool_search' && !/^tool_search_tool_/.test(t.type ?? '') && !deferred.has(t.name)),
    namespaces: body.tools.filter((t) => t.type === 'namespace').map((t) => t.tools.length),
  };
}

for (const provider of NATIVE) {
  const key = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';

  test(`chat --provider ${provider} --mode native --search-with provider: the API's search loads a tool, the model calls it`, async () => {
    const model = await startFakeModel(provider, [
      { search: 'turn on light', calls: callFirst },
      (req) => {
        // the search came back verbatim (the fake refuses a server search without its result)
        const loaded = loadedTools(provider, req.body);
        assert.ok(loaded.length > 0, 'the server search is in the history');
        return { text: 'The light is on.' };
      },
    ], { key: 'k' });
    try {
      const r = await run(['chat', '--provider', provider, '--model', 'fake-1', '--base-url', model.baseUrl, '--catalog', HOME, '--handlers', HANDLERS, '--mode', 'native', '--search-with', 'provider', '--json', 'Turn on the kitchen light'], { [key]: 'k' });
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.text, 'The light is on.');
      assert.equal(out.rounds, 2);
      const first = model.requests[0].body;
      const { deferred, loaded } = shape(provider, first);
      assert.ok(loaded.length >= 1 && deferred.size >= 1);
      assert.ok(first.tools.some((t) => (provider === 'anthropic' ? /^tool_search_tool_bm25/.test(t.type) : t.type === 'tool_search' && t.execution !== 'client')), 'the provider search tool is sent');
      // the call of the loaded tool ran, under its MCP name
      assert.equal(out.calls.length, 1);
      assert.equal(out.calls[0].isError, false, JSON.stringify(out.calls[0]));
      assert.ok(deferred.has(out.calls[0].name), `${out.calls[0].name} was deferred`);
    } finally {
      await model.close();
    }
  });

  test(`chat --provider ${provider} --mode native (our search): the client search is answered with our ranked search`, async () => {
    const model = await startFakeModel(provider, [
      { search: 'turn on the kitchen light' },
      (req) => {
        const loaded = loadedTools(provider, req.body);
        assert.ok(loaded.some((t) => t.name === 'intent__HassTurnOn'), `our search loads HassTurnOn: ${loaded.map((t) => t.name)}`);
        return { calls: [{ name: 'intent__HassTurnOn', namespace: loaded.find((t) => t.name === 'intent__HassTurnOn').namespace, arguments: { name: 'kitchen light' } }] };
      },
      { text: 'Done.' },
    ], { key: 'k' });
    try {
      const r = await run(['chat', '--provider', provider, '--model', 'fake-1', '--base-url', model.baseUrl, '--catalog', HOME, '--handlers', HANDLERS, '--mode', 'native', '--json', 'Turn on the kitchen light'], { [key]: 'k' });
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.text, 'Done.');
      assert.equal(model.left, 0);
      assert.equal(out.calls.length, 1);
      assert.match(out.calls[0].name, /HassTurnOn$/);
      assert.equal(out.calls[0].isError, false, JSON.stringify(out.calls[0]));
      const first = model.requests[0].body;
      if (provider === 'openai-responses') assert.ok(first.tools.some((t) => t.type === 'tool_search' && t.execution === 'client'));
    } finally {
      await model.close();
    }
  });
}

test('chat --mode native --stream: the server search or the client search streamed, then the answer', async () => {
  for (const [provider, search] of NATIVE.flatMap((p) => [[p, 'provider'], [p, 'ours']])) {
    const key = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    const steps = search === 'provider'
      ? [{ search: 'light', calls: callFirst }, { text: 'Streamed.' }]
      : [{ search: 'light' }, (req) => ({ calls: callFirst(loadedTools(provider, req.body)) }), { text: 'Streamed.' }];
    const model = await startFakeModel(provider, steps, { key: 'k', chunk: 9 });
    try {
      const r = await run(['chat', '--provider', provider, '--model', 'fake-1', '--base-url', model.baseUrl, '--catalog', HOME, '--handlers', HANDLERS, '--mode', 'native', '--search-with', search, '--stream', 'Lights?'], { [key]: 'k' });
      assert.equal(r.code, 0, `${provider} ${search}: ${r.stderr}`);
      assert.equal(r.stdout, 'Streamed.\n');
      assert.equal(model.left, 0);
    } finally {
      await model.close();
    }
  }
});

test('chat --mode native on a provider without native search is hybrid', async () => {
  const model = await startFakeModel('gemini', [{ text: 'Hi.' }], { key: 'k' });
  try {
    const r = await run(['chat', '--provider', 'gemini', '--model', 'fake-1', '--base-url', model.baseUrl, '--catalog', HOME, '--handlers', HANDLERS, '--mode', 'native', 'Hi'], { GEMINI_API_KEY: 'k' });
    assert.equal(r.code, 0, r.stderr);
    const names = model.requests[0].body.tools.flatMap((t) => t.functionDeclarations.map((f) => f.name));
    assert.ok(names.includes('search_tools') && names.includes('use_tool'), names.join());
  } finally {
    await model.close();
  }
});

test('every corpus catalog: the native request and our answers to client searches are what the APIs and the SDK types take', async () => {
  const typed = [];
  for (const { label, catalog } of catalogs) {
    for (const provider of NATIVE) {
      // a client search for words of a deferred tool's own description: our answer must load tools the request has
      const model = await startFakeModel(provider, [
        (req) => {
          const deferred = deferredTools(provider, req.body);
          const words = (deferred.at(-1)?.description || deferred.at(-1)?.name || 'tool').split(/\s+/).slice(0, 6).join(' ');
          return { search: words };
        },
        (req) => {
          assert.ok(loadedTools(provider, req.body).length > 0, `${label} ${provider}: our search loaded nothing`);
          return { text: 'ok' };
        },
      ]);
      try {
        const conversation = new Conversation(catalog, { provider, model: 'fake-1', apiKey: 'k', baseUrl: model.baseUrl, mode: 'native' });
        const done = await runChat(conversation, 'help', { callTool: async () => ({ content: [{ type: 'text', text: 'ok' }] }) });
        assert.equal(done.text, 'ok', `${label} ${provider}: ${JSON.stringify(done.error ?? done.reason)}`);
      } finally {
        await model.close();
      }
      const [first, second] = model.requests.map((r) => r.body);
      const { deferred, loaded, namespaces } = shape(provider, first);
      assert.ok(loaded.length >= 1, `${label} ${provider}: a tool is never deferred`);
      assert.ok(namespaces.every((n) => n < 10), `${label} ${provider}: namespaces of ${namespaces}`);
      const tools = catalog.result?.tools ?? catalog.tools;
      assert.equal(deferred.size + loaded.length - (provider === 'anthropic' ? 1 : 0), tools.length, `${label} ${provider}: every tool is sent, deferred or loaded`);
      const withProvider = convert(catalog, { to: provider, disclosure: 'native', searchWith: 'provider' }).tools;
      typed.push({ label, provider, tools: first.tools, history: provider === 'anthropic' ? second.messages : second.input, withProvider });
    }
  }
  typeCheck(typed);
});

/** Compiles the requests' parts as the SDKs' request types (tsc --strict); fails with tsc's messages. */
function typeCheck(typed) {
  const dir = mkdtempSync(join(tmpdir(), 'native-types-'));
  try {
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const lines = [
      "import type { ToolUnion, MessageParam } from '@anthropic-ai/sdk/resources/messages';",
      "import type { Tool, ResponseInputItem } from 'openai/resources/responses/responses';",
    ];
    typed.forEach((t, i) => {
      const [tool, item] = t.provider === 'anthropic' ? ['ToolUnion', 'MessageParam'] : ['Tool', 'ResponseInputItem'];
      lines.push(`// ${t.label} ${t.provider}`);
      lines.push(`export const tools${i}: ${tool}[] = ${JSON.stringify(t.tools)};`);
      lines.push(`export const provider${i}: ${tool}[] = ${JSON.stringify(t.withProvider)};`);
      lines.push(`export const history${i}: ${item}[] = ${JSON.stringify(t.history)};`);
    });
    writeFileSync(join(dir, 'native.mts'), lines.join('\n'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: [] }, files: ['native.mts'] }));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const p = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.equal(p.status, 0, `tsc --strict:\n${(p.stdout + p.stderr).slice(0, 4000)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
