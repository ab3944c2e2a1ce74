// The Conversation and runChat() against fake model servers in each
// provider's wire format, plain and streamed: several calls in one turn, a
// number sent as a string, a tool that fails, use_tool in hybrid mode,
// provider errors, retries, a stream cut in the middle, the round limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Conversation, runChat, parseCalls, formatResults, convert, providers } from '../../pkg/index.mjs';
import { startFakeModel, PROVIDERS } from './fake-models.mjs';

const catalog = {
  tools: [
    {
      name: 'set_light',
      description: 'Turn a light on or off, with a brightness',
      inputSchema: { type: 'object', properties: { deviceId: { type: 'string' }, state: { type: 'string', enum: ['on', 'off'] }, brightness: { type: 'integer', minimum: 0, maximum: 100 } }, required: ['deviceId', 'state'] },
    },
    { name: 'get_states', description: 'Read the state of every device', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: {} } },
    { name: 'lock_door', description: 'Lock a door', inputSchema: { type: 'object', properties: { door: { type: 'string' } }, required: ['door'] } },
  ],
};

/** Tools run in-process: lock_door throws. */
function tools() {
  const ran = [];
  const callTool = async (name, args) => {
    ran.push({ name, args });
    if (name === 'lock_door') throw new Error('the lock does not answer');
    if (name === 'get_states') return { content: [{ type: 'text', text: '{"lamp":"off"}' }] };
    return { content: [{ type: 'text', text: `done: ${JSON.stringify(args)}` }] };
  };
  return { ran, callTool };
}

const KEY = 'test-key-123';

async function chat(provider, steps, { stream = false, ...options } = {}, message = 'Turn on the lamp and lock the door') {
  const model = await startFakeModel(provider, steps, { key: KEY, chunk: 7 });
  const conversation = new Conversation(catalog, { provider, model: 'fake-1', apiKey: KEY, baseUrl: model.baseUrl, stream, ...options });
  const { ran, callTool } = tools();
  let text = '';
  try {
    const done = await runChat(conversation, message, { callTool, onText: (d) => (text += d) });
    return { done, model, ran, text, conversation };
  } finally {
    await model.close();
  }
}

/** The tool results the second request carried back, as text, per provider. */
function resultsOf(provider, body) {
  switch (provider) {
    case 'gemini':
      return body.contents.at(-1).parts.map((p) => p.functionResponse);
    case 'openai':
      return body.messages.filter((m) => m.role === 'tool');
    case 'openai-responses':
      return body.input.filter((i) => i.type === 'function_call_output');
    case 'anthropic':
      return body.messages.at(-1).content;
    case 'prompted':
      return [body.messages.at(-1)];
  }
}

for (const provider of PROVIDERS) {
  for (const stream of [false, true]) {
    test(`${provider}${stream ? ', streamed' : ''}: several calls in one turn, a number as a string, a tool that fails`, async () => {
      const { done, model, ran, text } = await chat(
        provider,
        [
          { text: 'On it.', calls: [{ name: 'set_light', arguments: { deviceId: 'lamp', state: 'on', brightness: '40' } }, { name: 'lock_door', arguments: { door: 'front' } }] },
          { text: 'The lamp is on at 40%; the front door did not lock.' },
        ],
        { stream },
      );
      assert.equal(done.reason, 'stop', JSON.stringify(done));
      assert.equal(done.text, 'The lamp is on at 40%; the front door did not lock.');
      assert.equal(done.rounds, 2);
      assert.deepEqual(ran[0], { name: 'set_light', args: { deviceId: 'lamp', state: 'on', brightness: 40 } });
      assert.deepEqual(
        done.calls.map((c) => [c.name, c.isError]),
        [['set_light', false], ['lock_door', true]],
      );
      assert.equal(done.calls[0].arguments.brightness, 40);
      assert.ok(done.usage.inputTokens > 0 && done.usage.outputTokens > 0);
      if (provider !== 'prompted') assert.ok(text.includes('the front door did not lock'), text);
      // the request: the vendor's path and key header
      assert.equal(model.requests.length, 2);
      const [first, second] = model.requests;
      const path = { gemini: stream ? '/v1beta/models/fake-1:streamGenerateContent?alt=sse' : '/v1beta/models/fake-1:generateContent', openai: '/v1/chat/completions', prompted: '/v1/chat/completions', 'openai-responses': '/v1/responses', anthropic: '/v1/messages' }[provider];
      assert.equal(first.path, path);
      if (provider === 'anthropic') assert.equal(first.headers['anthropic-version'], '2023-06-01');
      // the results went back in the provider's shape: the failure as an error
      const results = resultsOf(provider, second.body);
      const flat = JSON.stringify(results);
      assert.ok(flat.includes('the lock does not answer'), flat);
      if (provider === 'anthropic') assert.equal(results[1].is_error, true);
      if (provider === 'gemini') assert.ok('error' in results[1].response && 'output' in results[0].response);
      if (provider === 'openai' || provider === 'openai-responses') assert.match(JSON.stringify(results[1]), /Error: the lock does not answer/);
    });
  }

  test(`${provider}: use_tool in hybrid mode runs the real tool, search_tools is answered without the host`, async () => {
    const { done, model, ran } = await chat(
      provider,
      [
        { calls: [{ name: 'search_tools', arguments: { query: 'lock the door' } }] },
        { calls: [{ name: 'use_tool', arguments: { name: 'set_light', arguments: { deviceId: 'lamp', state: 'on', brightness: '25' } } }] },
        { text: 'Done.' },
      ],
      { mode: 'hybrid', stream: provider === 'anthropic' },
    );
    assert.equal(done.reason, 'stop', JSON.stringify(done));
    assert.deepEqual(ran, [{ name: 'set_light', args: { deviceId: 'lamp', state: 'on', brightness: 25 } }]);
    assert.deepEqual(done.calls, [{ name: 'set_light', arguments: { deviceId: 'lamp', state: 'on', brightness: 25 }, isError: false }]);
    const sent = JSON.stringify(model.requests[0].body);
    assert.ok(sent.includes('use_tool') && !sent.includes('"lock_door"') || provider === 'prompted', 'hybrid lists the meta-tools, not the catalog');
    assert.ok(JSON.stringify(model.requests[1].body).includes('lock_door'), 'search_tools answered with the catalog tool');
  });

  test(`${provider}: 401, 400 with the provider's message, 429 retried after retry-after, 500 retried then given up`, async () => {
    const bad = await startFakeModel(provider, [{ text: 'never' }], { key: 'the-right-key' });
    try {
      const c = new Conversation(catalog, { provider, model: 'fake-1', apiKey: 'wrong', baseUrl: bad.baseUrl });
      const done = await runChat(c, 'hi', { callTool: async () => ({}) });
      assert.equal(done.reason, 'error');
      assert.equal(done.error.kind, 'auth');
      assert.equal(done.error.status, 401);
      assert.match(done.error.message, /Incorrect API key/);
    } finally {
      await bad.close();
    }
    let r = await chat(provider, [{ status: 400, message: 'tools[0].name: bad name' }], {}, 'hi');
    assert.equal(r.done.error.kind, 'bad_request');
    assert.equal(r.done.error.message, 'tools[0].name: bad name');
    r = await chat(provider, [{ status: 429, message: 'slow down', retryAfter: '0.05' }, { text: 'ok' }], {}, 'hi');
    assert.equal(r.done.reason, 'stop');
    assert.equal(r.model.requests.length, 2);
    r = await chat(provider, [{ status: 429, message: 'later', retryAfter: '120' }], {}, 'hi');
    assert.deepEqual([r.done.error.kind, r.done.error.retryAfterMs], ['rate_limited', 120000]);
    assert.equal(r.model.requests.length, 1, 'a wait past maxRetryWaitMs is not waited');
    r = await chat(provider, [{ status: 500, message: 'boom' }, { status: 503, message: 'boom' }], { maxRetries: 1 }, 'hi');
    assert.deepEqual([r.done.error.kind, r.model.requests.length], ['server', 2]);
    r = await chat(provider, [{ status: 400, message: "This model's maximum context length is 128000 tokens", code: 'context_length_exceeded' }], {}, 'hi');
    assert.equal(r.done.error.kind, 'context_too_long');
  });

  test(`${provider}: a stream cut in the middle, a body cut in the middle, the round limit`, async () => {
    let r = await chat(provider, [{ text: 'This answer will never finish, because the connection drops.', cut: true }], { stream: true, maxRetries: 0 }, 'hi');
    assert.equal(r.done.reason, 'error');
    assert.ok(['interrupted', 'network'].includes(r.done.error.kind), JSON.stringify(r.done.error));
    r = await chat(provider, [{ text: 'cut', cut: true }], { maxRetries: 0 }, 'hi');
    assert.equal(r.done.reason, 'error');
    assert.ok(['malformed', 'network'].includes(r.done.error.kind), JSON.stringify(r.done.error));
    const again = { calls: [{ name: 'get_states', arguments: {} }] };
    r = await chat(provider, [again, again, again], { maxRounds: 2 }, 'hi');
    assert.equal(r.done.reason, 'max_rounds');
    assert.equal(r.model.requests.length, 2);
    assert.equal(r.ran.length, 1);
  });
}

test('the refusal, the output limit and a safety block are finish reasons', async () => {
  for (const [provider, finish, want] of [
    ['openai', 'refusal', 'refusal'],
    ['anthropic', 'refusal', 'refusal'],
    ['openai-responses', 'max_tokens', 'max_tokens'],
    ['gemini', 'safety', 'safety'],
  ]) {
    const { done } = await chat(provider, [{ text: 'No.', finish }], {}, 'hi');
    assert.equal(done.reason, want, provider);
  }
});

test('Gemini thought signatures go back with their calls', async () => {
  const { model } = await chat('gemini', [{ calls: [{ name: 'get_states', arguments: {}, thoughtSignature: 'c2lnbmF0dXJl' }] }, { text: 'ok' }], { stream: true }, 'hi');
  const history = model.requests[1].body.contents;
  assert.equal(history[1].role, 'model');
  assert.equal(history[1].parts[0].thoughtSignature, 'c2lnbmF0dXJl');
});

test('runChat: a tool that hangs is timed out by the conversation; the model reads why', async () => {
  const model = await startFakeModel('openai', [{ calls: [{ name: 'get_states', arguments: {} }] }, { text: 'ok' }]);
  try {
    const c = new Conversation(catalog, { provider: 'openai', model: 'm', baseUrl: model.baseUrl, toolTimeoutMs: 50 });
    const done = await runChat(c, 'hi', { callTool: () => new Promise(() => {}) });
    assert.equal(done.reason, 'stop');
    assert.match(JSON.stringify(model.requests[1].body), /did not answer within/);
    assert.deepEqual(done.calls, [{ name: 'get_states', arguments: {}, isError: true }]);
  } finally {
    await model.close();
  }
});

test('the conversation checks its arguments and options', () => {
  assert.throws(() => new Conversation(catalog, { provider: 'nope', model: 'm' }), /unknown provider/);
  assert.throws(() => new Conversation(catalog, { provider: 'openai' }), /model/);
  assert.throws(() => new Conversation(catalog, { provider: 'openai', model: 'm', mode: 'most' }), /unknown mode/);
  const c = new Conversation(catalog, { provider: 'anthropic', model: 'm', browserAccess: true, apiKey: 'k' });
  assert.throws(() => c.send(42, 0), (e) => e.code === 'usage');
  c.send('hi', 0);
  const req = c.poll();
  assert.equal(req.url, 'https://api.anthropic.com/v1/messages');
  assert.deepEqual(Object.fromEntries(req.headers)['anthropic-dangerous-direct-browser-access'], 'true');
  assert.throws(() => c.send('again', 0), /turn is under way/);
  c.free();
  assert.deepEqual(providers().map((p) => p.name), PROVIDERS);
});

test('parseCalls validates with the conversion\'s own catalog and names another API\'s shape', () => {
  const conversion = convert(catalog, { to: 'openai' });
  const response = { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'set_light', arguments: '{"deviceId":"x","state":"on","brightness":"7"}' } }] } }] };
  const turn = parseCalls('openai', response, conversion);
  assert.equal(turn.calls[0].arguments.brightness, 7, 'coerced without passing the catalog again');
  assert.equal(JSON.stringify(conversion).includes('inputSchema'), false, 'the catalog is not enumerable');
  const anthropicMessage = { id: 'msg_1', type: 'message', role: 'assistant', stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 't', name: 'set_light', input: {} }] };
  assert.throws(() => parseCalls('openai', anthropicMessage, conversion), (e) => e.code === 'shape' && /Anthropic Messages response/.test(e.message) && /"anthropic"/.test(e.message));
  assert.throws(() => parseCalls('anthropic', response, conversion), /OpenAI Chat Completions response/);
  assert.throws(() => parseCalls('gemini', { output: [{ type: 'function_call', call_id: 'c', name: 'x', arguments: '{}' }] }, conversion), /Responses API/);
});

test('formatResults writes a thrown error, a JSON-RPC error and plain values as what they are', () => {
  const conversion = convert(catalog, { to: 'anthropic' });
  const message = { role: 'assistant', content: ['a', 'b', 'c', 'd'].map((id) => ({ type: 'tool_use', id, name: 'get_states', input: {} })) };
  const turn = parseCalls('anthropic', message, conversion);
  const { results } = formatResults('anthropic', turn, [new Error('socket hang up'), { code: -32603, message: 'internal' }, { temperature: 21 }, 'plain text']);
  const blocks = results[0].content;
  assert.equal(blocks[0].is_error, true);
  assert.match(blocks[0].content[0].text, /socket hang up/);
  assert.equal(blocks[1].is_error, true);
  assert.match(blocks[1].content[0].text, /internal/);
  assert.equal(blocks[2].is_error, undefined);
  assert.equal(blocks[2].content[0].text, '{"temperature":21}');
  assert.equal(blocks[3].content[0].text, 'plain text');
  const openai = formatResults('openai', parseCalls('openai', { role: 'assistant', tool_calls: [{ id: 'x', type: 'function', function: { name: 'get_states', arguments: '{}' } }] }, convert(catalog, { to: 'openai' })), [new TypeError('fetch failed')]);
  assert.match(openai.results[0].content, /^Error: fetch failed/);
});
