// Google's JS SDK as a real client: every `gemini` and `gemini-json`
// conversion of every corpus catalog (and the schema edge cases) goes
// through @google/genai's models.generateContent, for the Gemini API and
// for Vertex AI, with fetch replaced by a stub, so the SDK's own schema
// processing runs. None may throw, and the request that would go on the
// wire must keep the API's schema rules (which the SDK does not check).
// Calls the model answers with go back through parseCalls.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { GoogleGenAI } from '@google/genai';

import * as sb from '../../pkg/index.mjs';
import { corpus } from './helpers.mjs';

const MODEL = 'gemini-2.5-flash';

/** The catalogs: every corpus tools/list, and one tool per edge case. */
function catalogs() {
  const out = readdirSync(corpus)
    .filter((f) => f.endsWith('.tools-list.json'))
    .sort()
    .map((f) => [f, readFileSync(join(corpus, f), 'utf8')]);
  const cases = JSON.parse(readFileSync(join(corpus, 'schema-edge-cases.json'), 'utf8'));
  const tools = Object.entries(cases).map(([name, inputSchema]) => ({ name, description: `Edge case ${name}`, inputSchema }));
  out.push(['schema-edge-cases', JSON.stringify(tools)]);
  assert.ok(out.length >= 6);
  return out;
}

/** Clients for both backends; auth never leaves the process. */
const clients = {
  'Gemini API': () => new GoogleGenAI({ apiKey: 'test-key' }),
  'Vertex AI': () =>
    new GoogleGenAI({
      vertexai: true,
      project: 'test-project',
      location: 'us-central1',
      googleAuthOptions: { authClient: { getRequestHeaders: async () => new Headers({ authorization: 'Bearer test' }) } },
    }),
  'Vertex AI express': () => new GoogleGenAI({ vertexai: true, apiKey: 'test-key' }),
};

/** Runs `fn` with fetch answering `reply` (a GenerateContentResponse); returns [result, the request bodies]. */
async function stubbed(reply, fn) {
  const sent = [];
  const real = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    sent.push({ url: String(url), body: JSON.parse(init.body) });
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  try {
    return [await fn(), sent];
  } finally {
    globalThis.fetch = real;
  }
}

const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/** The API's rules for a `Schema` (parameters), as the request carries it. */
function schemaProblems(s, at, out) {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) {
    out.push(`${at}: not a schema`);
    return;
  }
  if (s.type !== undefined && s.anyOf !== undefined) out.push(`${at}: type beside anyOf`);
  if (s.type === undefined && s.anyOf === undefined) out.push(`${at}: neither type nor anyOf`);
  if (s.type !== undefined && !TYPES.has(s.type)) out.push(`${at}: type ${JSON.stringify(s.type)}`);
  if (s.type === 'OBJECT' && Object.keys(s.properties ?? {}).length === 0) out.push(`${at}: properties should be non-empty for OBJECT type`);
  if (s.type === 'ARRAY' && s.items === undefined) out.push(`${at}: ARRAY without items`);
  if (s.enum !== undefined && !s.enum.every((v) => typeof v === 'string')) out.push(`${at}: enum values must be strings`);
  for (const r of s.required ?? []) if (!(r in (s.properties ?? {}))) out.push(`${at}: required ${r} is not a property`);
  for (const [k, v] of Object.entries(s.properties ?? {})) schemaProblems(v, `${at}/properties/${k}`, out);
  if (s.items !== undefined) schemaProblems(s.items, `${at}/items`, out);
  if (s.anyOf !== undefined) {
    if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) out.push(`${at}: anyOf is empty`);
    else s.anyOf.forEach((b, i) => schemaProblems(b, `${at}/anyOf/${i}`, out));
  }
}

/** Every rule the request's function declarations break. */
function wireProblems(body) {
  const out = [];
  const decls = body.tools?.[0]?.functionDeclarations ?? [];
  decls.forEach((d, i) => {
    const at = `/tools/0/functionDeclarations/${i} (${d.name})`;
    if (d.parameters !== undefined) {
      if (d.parameters.type !== 'OBJECT') out.push(`${at}/parameters: root type ${d.parameters.type}`);
      schemaProblems(d.parameters, `${at}/parameters`, out);
    }
    if (d.parametersJsonSchema !== undefined) {
      const p = d.parametersJsonSchema;
      if (p.type !== 'object') out.push(`${at}/parametersJsonSchema: root type ${p.type}`);
      if ('$schema' in p) out.push(`${at}/parametersJsonSchema: $schema`);
      for (const k of ['anyOf', 'oneOf', 'allOf', 'not']) if (k in p) out.push(`${at}/parametersJsonSchema: ${k} at the top`);
    }
  });
  return { out, count: decls.length };
}

const TEXT_REPLY = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] };

for (const [file, text] of catalogs()) {
  for (const to of ['gemini', 'gemini-json']) {
    for (const [backend, client] of Object.entries(clients)) {
      test(`${file} ${to} through @google/genai (${backend})`, async () => {
        const conv = sb.convert(text, { to });
        const declared = conv.tools[0].functionDeclarations.length;
        const [res, sent] = await stubbed(TEXT_REPLY, () =>
          client().models.generateContent({ model: MODEL, contents: 'Turn on the kitchen light.', config: { tools: structuredClone(conv.tools) } }),
        );
        assert.equal(res.text, 'ok');
        assert.equal(sent.length, 1);
        const { out, count } = wireProblems(sent[0].body);
        assert.equal(count, declared, 'every declaration reaches the request');
        assert.deepEqual(out, [], `the request breaks the API's schema rules:\n${out.join('\n')}`);
      });
    }
  }
}

test('the stubbed SDK refuses what the API refuses: type beside anyOf (the check above is real)', async () => {
  // what the GitHub catalog's projects_write used to become
  const bad = [{ functionDeclarations: [{ name: 'projects_write', description: 'd', parameters: {
    type: 'OBJECT', properties: { updated_field: { type: 'OBJECT', anyOf: [{ type: 'OBJECT', properties: { id: { type: 'INTEGER' } } }] } } } }] }];
  for (const [backend, client] of Object.entries(clients)) {
    await assert.rejects(
      stubbed(TEXT_REPLY, () => client().models.generateContent({ model: MODEL, contents: 'x', config: { tools: bad } })),
      /type and anyOf cannot be both populated/,
      backend,
    );
  }
  // and an OBJECT without properties passes the SDK but not the wire check
  const empty = [{ functionDeclarations: [{ name: 'ha_call_service', description: 'd', parameters: {
    type: 'OBJECT', properties: { data: { type: 'OBJECT', nullable: true } } } }] }];
  const [, sent] = await stubbed(TEXT_REPLY, () => clients['Gemini API']().models.generateContent({ model: MODEL, contents: 'x', config: { tools: empty } }));
  assert.match(wireProblems(sent[0].body).out.join('\n'), /properties should be non-empty for OBJECT type/);
});

test('a call through the SDK comes back with its open map as an object', async () => {
  // ha-mcp ha_call_service: data is any object (or null); Gemini gets JSON text
  const text = readFileSync(join(corpus, 'ha-mcp-8.7.0.tools-list.json'), 'utf8');
  const catalog = JSON.parse(text).result.tools.filter((t) => t.name === 'ha_call_service');
  const conv = sb.convert(catalog, { to: 'gemini' });
  const data = { temperature: 21.5, hvac_mode: 'heat', nested: { list: [1, null, 'x'] } };
  const args = { domain: 'climate', service: 'set_temperature', entity_id: 'climate.living_room', data: JSON.stringify(data) };
  const reply = { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'ha_call_service', args } }] }, finishReason: 'STOP' }] };
  for (const [backend, client] of Object.entries(clients)) {
    const [res] = await stubbed(reply, () =>
      client().models.generateContent({ model: MODEL, contents: 'Set the living room to 21.5', config: { tools: structuredClone(conv.tools) } }),
    );
    assert.equal(res.functionCalls.length, 1, backend);
    const turn = sb.parseCalls('gemini', JSON.parse(JSON.stringify(res)), conv, catalog);
    assert.equal(turn.calls.length, 1);
    const call = turn.calls[0];
    assert.equal(call.error, undefined, `${backend}: ${call.error}`);
    assert.deepEqual(call.arguments, { ...args, data }, backend);
    assert.deepEqual(call.request.params.arguments.data, data);
  }
});
