// The request bodies the Conversation sends, checked against the vendor
// SDKs' own request types under tsc --strict: each body, recorded by the
// fake model servers over a whole loop (the user's message, the model's
// calls, the tools' results, an error result, the answer; plain and
// streamed), is written as an object literal assigned to the SDK's type,
// so a field the API does not take, or one of the wrong type, fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { Conversation, runChat } from '../../pkg/index.mjs';
import { startFakeModel } from './fake-models.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');
const catalog = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(root, 'js/examples/demo-home.tools-list.json'), 'utf8')));

/** The SDK type each provider's body must fit, plain and streamed. */
const TYPES = {
  openai: ['ChatCompletionCreateParamsNonStreaming', 'ChatCompletionCreateParamsStreaming'],
  prompted: ['ChatCompletionCreateParamsNonStreaming', 'ChatCompletionCreateParamsStreaming'],
  'openai-responses': ['ResponseCreateParamsNonStreaming', 'ResponseCreateParamsStreaming'],
  anthropic: ['MessageCreateParamsNonStreaming', 'MessageCreateParamsStreaming'],
  gemini: ['GeminiRequest', 'GeminiRequest'],
};

async function bodies(provider, stream, options) {
  const model = await startFakeModel(provider, [
    { text: 'Let me look.', calls: [{ name: 'get_home_structure', arguments: {} }, { name: 'set_light', arguments: { deviceId: 'light-kitchen', state: 'on', dim: '40' } }] },
    { calls: [{ name: 'set_light', arguments: { deviceId: 'nowhere', state: 'on' } }] },
    { text: 'Done.' },
  ]);
  try {
    const c = new Conversation(catalog, { provider, model: 'model-1', apiKey: 'k', baseUrl: model.baseUrl, stream, ...options });
    const done = await runChat(c, 'Turn on the kitchen light', {
      callTool: async (name) => {
        if (name === 'set_light') throw new Error('no such light');
        return { content: [{ type: 'text', text: 'a home' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }], structuredContent: { zones: [] } };
      },
    });
    assert.equal(done.reason, 'stop', JSON.stringify(done));
    return model.requests.map((r) => r.body);
  } finally {
    await model.close();
  }
}

test('every request body type-checks against the vendor SDK request types (tsc --strict)', { timeout: 180_000 }, async () => {
  const lines = [
    "import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';",
    "import type { ResponseCreateParamsNonStreaming, ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';",
    "import type { MessageCreateParamsNonStreaming, MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';",
    "import { Type, type Content, type GenerationConfig, type Tool } from '@google/genai';",
    '// the REST body of generateContent, its fields typed by @google/genai',
    'type GeminiRequest = { contents: Content[]; systemInstruction?: Content; tools?: Tool[]; generationConfig?: GenerationConfig };',
  ];
  let n = 0;
  const options = [
    { system: 'You run a home.', temperature: 0.2, maxOutputTokens: 512 },
    { mode: 'hybrid', topP: 0.9, strict: true },
  ];
  for (const provider of Object.keys(TYPES)) {
    for (const [i, stream] of [false, true].entries()) {
      for (const o of options) {
        for (const body of await bodies(provider, stream, o)) {
          let literal = JSON.stringify(body, null, 1);
          // the gemini dialect's upper-case type names are @google/genai's Type enum, by value
          // and its int64 counts are strings there (proto3's JSON takes a number or a string for them)
          if (provider === 'gemini') {
            literal = literal
              .replace(/"type": "(STRING|NUMBER|INTEGER|BOOLEAN|ARRAY|OBJECT|NULL)"/g, '"type": Type.$1')
              .replace(/"(minItems|maxItems|minLength|maxLength|minProperties|maxProperties)": (\d+)/g, '"$1": "$2"');
          }
          lines.push(`export const b${n++}: ${TYPES[provider][i]} = ${literal};`);
        }
      }
    }
  }
  const dir = join(root, 'target/chat-types');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bodies.mts'), lines.join('\n') + '\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], noEmit: true, skipLibCheck: true }, files: ['bodies.mts'] }),
  );
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const r = await promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { maxBuffer: 64 * 1024 * 1024 }).catch((e) => e);
  assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}`.slice(0, 6000));
  assert.ok(n >= 60, `${n} bodies`);
});
