// "Ask the assistant" on the realistic home (large-home.mjs): the Flow cards
// against fake model servers in each provider's real wire format
// (tests/js/fake-models.mjs at the repository's root), the tools run through
// the gateway's engine under every exposure rule, provider errors and the
// time limit as clear Flow errors, follow-up conversations, the yes-or-no
// condition and the settings page's test.
// first: counts the WebAssembly modules compiled from here on
import { compiled, instances } from './wasm-modules.mjs';

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { after, before, beforeEach, describe, test } from 'node:test';

import { startFakeModel } from '../../tests/js/fake-models.mjs';
import { createHome } from './fake-home.mjs';
import { appDir, bootApp } from './harness.mjs';
import { createLargeHome } from './large-home.mjs';

const require = createRequire(`${appDir}/app.js`);
const KEY = 'model-key-0123456789';

let b;
let home;
let lines = [];
const models = [];

/** A fake model server for `provider` (the settings' name; "compatible" is Chat Completions without a key). */
async function model(provider, steps, options = {}) {
  const wire = provider === 'compatible' ? 'openai' : provider;
  const m = await startFakeModel(wire, steps, provider === 'compatible' ? options : { key: KEY, ...options });
  models.push(m);
  return m;
}

/** The settings' assistant part, pointed at fake model `m`. */
function use(provider, m, extra = {}) {
  const set = { assistantProvider: provider, assistantModel: 'test-model', assistantBaseUrl: m?.baseUrl ?? '', assistantKey: provider === 'compatible' ? '' : KEY, assistantTimeLimit: 60, ...extra };
  for (const [k, v] of Object.entries(set)) b.homey.settings.set(k, v);
}

/** Asserts that `promise` rejects with an Error whose message (what the Flow shows) matches `pattern`. */
const fails = (promise, pattern) => assert.rejects(promise, (err) => {
  assert.match(err.message, pattern);
  return true;
});
const ask = (question, conversation) => b.homey.runCard('action', 'ask_assistant', { question, ...(conversation === undefined ? {} : { conversation }) });
const saysYes = (question) => b.homey.runCard('condition', 'assistant_says_yes', { question });
/** What a request to the model carried, as text (its body in the provider's shape). */
const sent = (m, i) => JSON.stringify(m.requests[i].body);

before(async () => {
  home = createLargeHome();
  b = await bootApp({ home, settings: { port: 0 } });
  b.app.log = (...a) => lines.push(a.map(String).join(' '));
});
after(async () => {
  await Promise.all(models.map((m) => m.close()));
  const { timersLeft } = await b.close();
  assert.equal(timersLeft, 0, 'no timer left running');
});
beforeEach(() => {
  lines = [];
  for (const [k, v] of Object.entries({ mode: 'hybrid', readOnly: false, hiddenZones: [], hiddenTools: [] })) {
    if (JSON.stringify(b.homey.settings.get(k)) !== JSON.stringify(v)) b.homey.settings.set(k, v);
  }
});

describe('the Ask card in each provider\'s wire format', () => {
  for (const provider of ['gemini', 'openai', 'anthropic', 'compatible']) {
    test(`${provider}: the tools the gateway lists, a call run on the home, the answer and the conversation as tokens, the calls in the log`, async () => {
      await b.app.server.queue;
      const m = await model(provider, [
        { calls: [{ name: 'get_states', arguments: { where: ['on'], deviceClass: 'light' } }] },
        { text: 'The ceiling light in the living room and two more are on.' },
      ]);
      use(provider, m);
      const out = await ask('Which lights are on?');
      assert.equal(out.answer, 'The ceiling light in the living room and two more are on.');
      assert.match(out.conversation, /^[\w-]{8}$/);
      assert.equal(m.requests.length, 2);
      // the model was offered exactly what an MCP client is listed (hybrid: the core tools and the meta-tools)
      const listed = (await b.app.server.listTools()).flatMap((p) => p.tools.map((t) => t.name));
      assert.ok(listed.includes('search_tools') && listed.length === 6, listed.join(' '));
      for (const name of listed) assert.ok(sent(m, 0).includes(`"${name}"`), `${provider}: ${name} offered`);
      assert.ok(!sent(m, 0).includes('"set_light"'), 'a tool that is not listed is not offered');
      assert.ok(sent(m, 0).includes('Which lights are on?'));
      // the tool ran on the home: the lights that are on went back to the model, the others did not
      const on = Object.values(home.devices).filter((d) => d.class === 'light' && d.capabilitiesObj.onoff.value === true);
      const off = Object.values(home.devices).filter((d) => d.class === 'light' && d.capabilitiesObj.onoff.value === false);
      for (const d of on) assert.ok(sent(m, 1).includes(d.id), `${d.id} reached the model`);
      for (const d of off) assert.ok(!sent(m, 1).includes(d.id), `${d.id} is off`);
      if (provider === 'compatible') assert.equal(m.requests[0].headers.authorization, undefined);
      assert.ok(lines.some((l) => /^\[ask [\w-]{8}\] calls get_states \{"where":\["on"\],"deviceClass":"light"\}$/.test(l)), lines.join('\n'));
      assert.ok(lines.some((l) => /\] stop after [\d.]+ s: 2 round\(s\), 1 call\(s\),/.test(l)), lines.join('\n'));
      assert.ok(!lines.join('\n').includes(KEY), 'the key is not logged');
    });
  }

  test('the model names a zone as the question does: resolved to its ID before the tool runs', async () => {
    const m = await model('openai', [
      { calls: [{ name: 'get_states', arguments: { zoneId: 'Begane grond', where: ['on'] } }] },
      { text: 'Downstairs, some lights are on.' },
    ]);
    use('openai', m);
    assert.equal((await ask('Wat staat er aan op de begane grond?')).answer, 'Downstairs, some lights are on.');
    const result = sent(m, 1);
    const ground = new Set(['ground', 'woonkamer', 'kitchen', 'hal', 'garage']);
    const on = Object.values(home.devices).filter((d) => d.capabilitiesObj?.onoff?.value === true);
    assert.ok(on.some((d) => ground.has(d.zone)));
    for (const d of on) assert.equal(result.includes(d.id), ground.has(d.zone), d.id);
  });

  test('hybrid mode: a tool found with search_tools and run with use_tool by the gateway\'s engine', async () => {
    const lamp = home.devices['d001-light'];
    lamp.capabilitiesObj.onoff.value = false;
    const m = await model('openai', [
      { calls: [{ name: 'search_tools', arguments: { query: 'zet een lamp aan' } }] },
      { calls: [{ name: 'use_tool', arguments: { name: 'set_light', arguments: { deviceId: 'd001-light', state: 'on' } } }] },
      { text: 'De ledstrip in de keuken is aan.' },
    ]);
    use('openai', m);
    const out = await ask('Zet de ledstrip in de keuken aan');
    assert.equal(out.answer, 'De ledstrip in de keuken is aan.');
    assert.equal(lamp.capabilitiesObj.onoff.value, true);
    assert.ok(sent(m, 1).includes('set_light'), 'the search found set_light');
  });
});

describe('every exposure rule holds for the assistant', () => {
  test('read-only: a write the model asks for is refused and the device stays as it was; the model reads why', async () => {
    b.homey.settings.set('readOnly', true);
    await b.app.server.queue;
    const lamp = home.devices['d000-light'];
    const before = lamp.capabilitiesObj.onoff.value;
    const m = await model('anthropic', [
      {
        calls: [
          // through use_tool: the gateway's engine refuses it
          { name: 'use_tool', arguments: { name: 'set_light', arguments: { deviceId: 'd000-light', state: 'toggle' } } },
          // a tool the model was not offered: the conversation refuses it
          { name: 'control_device', arguments: { deviceId: 'd000-light', capability: 'onoff', value: !before } },
        ],
      },
      { text: 'I may not switch lights.' },
    ]);
    use('anthropic', m);
    assert.equal((await ask('Toggle the ceiling light')).answer, 'I may not switch lights.');
    assert.equal(lamp.capabilitiesObj.onoff.value, before);
    const results = m.requests[1].body.messages.at(-1).content.filter((c) => c.type === 'tool_result');
    assert.equal(results.length, 2);
    for (const r of results) assert.equal(r.is_error, true, JSON.stringify(r));
    assert.match(JSON.stringify(results[0]), /set_light/);
    assert.ok(lines.some((l) => l.includes('failed or refused: use_tool')), lines.join('\n'));
    // in "all" mode no write tool is offered at all
    b.homey.settings.set('mode', 'all');
    await b.app.server.queue;
    const all = await model('anthropic', [{ text: 'Nothing to do.' }]);
    use('anthropic', all);
    await ask('Toggle the ceiling light');
    assert.ok(!sent(all, 0).includes('"set_light"') && !sent(all, 0).includes('"control_device"') && sent(all, 0).includes('"get_states"'));
  });

  test('protected devices: the lock is not unlocked, the garage door not opened, whatever the model tries', async () => {
    b.homey.settings.set('mode', 'all');
    await b.app.server.queue;
    const m = await model('gemini', [
      { calls: [{ name: 'control_device', arguments: { deviceId: 'voordeur-slot', capability: 'locked', value: false } }, { name: 'toggle_device', arguments: { deviceId: 'garagedeur' } }] },
      { text: 'The front door stays locked.' },
    ]);
    use('gemini', m);
    const garage = JSON.stringify(home.devices.garagedeur.capabilitiesObj);
    await ask('Unlock the front door and open the garage');
    assert.equal(home.devices['voordeur-slot'].capabilitiesObj.locked.value, true);
    assert.equal(JSON.stringify(home.devices.garagedeur.capabilitiesObj), garage);
    const back = sent(m, 1);
    assert.match(back, /Voordeur slot/);
    assert.match(back, /protectedDevice/);
  });

  test('hidden zones: their devices are neither listed to the model nor found when it names them', async () => {
    b.homey.settings.set('hiddenZones', ['master']);
    await b.app.server.queue;
    const hidden = Object.values(home.devices).filter((d) => d.zone === 'master');
    assert.ok(hidden.length > 3);
    const m = await model('openai', [
      { calls: [{ name: 'get_home_structure', arguments: {} }, { name: 'get_states', arguments: { deviceIds: [hidden[0].id] } }] },
      { text: 'Nothing there.' },
    ]);
    use('openai', m);
    await ask('What is in the master bedroom?');
    for (const d of hidden) assert.ok(!sent(m, 1).includes(d.name), `${d.name} is hidden`);
    assert.ok(!sent(m, 1).includes('Master bedroom'));
    assert.ok(sent(m, 1).includes('Woonkamer'), 'the rest of the home is there');
  });
});

describe('provider errors and the time limit are clear Flow errors', () => {
  test('a key the provider refuses (401)', async () => {
    const m = await model('anthropic', [{ text: 'never' }], { key: 'another-key' });
    use('anthropic', m);
    await fails(ask('Hello'), /^Anthropic refused the API key \(HTTP 401\): check the key in the app's settings \(.*Incorrect API key provided.*\)$/);
    assert.ok(lines.some((l) => /Anthropic: auth 401/.test(l)), lines.join('\n'));
  });

  test('rate limited (429) with a wait longer than the conversation waits: the error says when to try again', async () => {
    const m = await model('openai', [{ status: 429, message: 'Rate limit reached for requests', retryAfter: 120 }]);
    use('openai', m);
    await fails(ask('Hello'), /^OpenAI is limiting requests \(HTTP 429\), try again in 120 s \(Rate limit reached for requests\)$/);
    assert.equal(m.requests.length, 1, 'not retried past the provider\'s wait');
  });

  test('a passing 429 is retried after the provider\'s wait, and the answer comes', async () => {
    const m = await model('gemini', [{ status: 429, message: 'Resource exhausted', retryAfterMs: 50 }, { text: 'Fine.' }]);
    use('gemini', m);
    assert.equal((await ask('Hello')).answer, 'Fine.');
    assert.equal(m.requests.length, 2);
    assert.ok(lines.some((l) => /Gemini: rate_limited \(429\), trying again in/.test(l)), lines.join('\n'));
  });

  test('a model the server does not know (404), and no server at the address', async () => {
    const m = await model('compatible', [{ status: 404, message: 'model "qwen9" not found, try pulling it first' }]);
    use('compatible', m);
    await fails(ask('Hello'), /^The model server does not know the model "test-model" or the address \(HTTP 404\).*model "qwen9" not found/);
    const closed = createServer();
    await new Promise((ok) => closed.listen(0, '127.0.0.1', ok));
    const { port } = closed.address();
    await new Promise((ok) => closed.close(ok));
    use('compatible', { baseUrl: `http://127.0.0.1:${port}/v1` });
    await fails(ask('Hello'), /^The model server could not be reached: check the base URL and the network/);
  });

  test('no answer within the time limit: the Flow fails when the limit passes, and the request is abandoned', async () => {
    let closed = 0;
    const silent = createServer((req) => req.on('close', () => closed++));
    await new Promise((ok) => silent.listen(0, '127.0.0.1', ok));
    try {
      use('compatible', { baseUrl: `http://127.0.0.1:${silent.address().port}/v1` }, { assistantTimeLimit: 5 });
      const start = Date.now();
      await fails(ask('Hello', 'slow'), /^The assistant gave no answer within 5 s, the time limit in the app's settings\.$/);
      const took = Date.now() - start;
      assert.ok(took >= 4900 && took < 8000, `${took} ms`);
      await new Promise((ok) => setTimeout(ok, 100));
      assert.equal(closed, 1, 'the request to the model was abandoned');
      assert.ok(lines.some((l) => l === '[ask slow] no answer within the time limit of 5 s'), lines.join('\n'));
    } finally {
      silent.closeAllConnections();
      await new Promise((ok) => silent.close(ok));
    }
    // the conversation starts over, under the same name
    const m = await model('compatible', [{ text: 'Here now.' }]);
    use('compatible', m);
    assert.deepEqual(await ask('Hello again', 'slow'), { answer: 'Here now.', conversation: 'slow' });
    assert.equal(m.requests[0].body.messages.filter((x) => x.role === 'user').length, 1);
  });

  test('settings that are missing say what to fill in', async () => {
    for (const [k, v] of Object.entries({ assistantProvider: '', assistantModel: 'm', assistantKey: '', assistantBaseUrl: '' })) b.homey.settings.set(k, v);
    await fails(ask('Hello'), /No assistant is set up yet: choose a model provider/);
    b.homey.settings.set('assistantProvider', 'openai');
    await fails(ask('Hello'), /No API key for OpenAI/);
    b.homey.settings.set('assistantProvider', 'compatible');
    await fails(ask('Hello'), /needs its address: enter the base URL/);
    b.homey.settings.set('assistantModel', '');
    await fails(ask('Hello'), /No model is chosen/);
    b.homey.settings.set('assistantModel', 'm');
    b.homey.settings.set('assistantProvider', 'anthropic');
    b.homey.settings.set('assistantKey', 'k');
    b.homey.settings.set('assistantBaseUrl', '');
    b.homey.settings.set('assistantTimeLimit', -3);
    assert.equal(b.app.settings.assistant.timeLimitS, 5, 'the time limit is at least 5 s');
    await fails(ask('   '), /The question is empty/);
  });
});

describe('conversations', () => {
  test('the Conversation token continues a conversation; the tools listed anew when they change', async () => {
    const m = await model('anthropic', [{ text: 'Two windows are open.' }, { text: 'The kitchen window and the bathroom window.' }, { text: 'Yes.' }]);
    use('anthropic', m);
    const first = await ask('How many windows are open?');
    const second = await ask('Which ones?', first.conversation);
    assert.equal(second.conversation, first.conversation);
    const history = m.requests[1].body.messages;
    assert.deepEqual(history.map((x) => x.role), ['user', 'assistant', 'user']);
    assert.match(JSON.stringify(history[1]), /Two windows are open\./);
    // a tool hidden between two questions is not offered at the next one; the history stays
    b.homey.settings.set('hiddenTools', ['get_flow_overview']);
    await b.app.server.queue;
    await ask('Are they closed now?', first.conversation);
    assert.ok(sent(m, 0).includes('"get_flow_overview"') && !sent(m, 2).includes('"get_flow_overview"'));
    assert.equal(m.requests[2].body.messages.length, 5);
  });

  test('a name of one\'s own keeps a conversation; at most 8 are kept, the least recently used goes first', async () => {
    const m = await model('openai', Array.from({ length: 14 }, (_, i) => ({ text: `answer ${i}` })));
    use('openai', m);
    assert.deepEqual(await ask('first', 'keuken'), { answer: 'answer 0', conversation: 'keuken' });
    for (let i = 0; i < 8; i++) await ask(`other ${i}`);
    assert.equal(b.app.assistant.size, 8);
    assert.equal((await b.app.status()).assistant.conversations, 8);
    // "keuken" was the least recently used: it starts over
    await ask('second', 'keuken');
    assert.deepEqual(m.requests[9].body.messages.filter((x) => x.role !== 'system').map((x) => x.content), ['second']);
    await fails(ask('third', 'not a name!'), /The conversation must be the Conversation token/);
    // another model or key in the settings: conversations are dropped
    b.homey.settings.set('assistantModel', 'another-model');
    assert.equal(b.app.assistant.size, 0);
  });

  test('two conversations at once: their tool calls run side by side on the shared engine, each gets its own result', async () => {
    // Gemini's calls carry no ids of their own: each conversation numbers them alike
    const step = (req) => {
      const last = req.body.contents.at(-1);
      const question = JSON.stringify(req.body.contents[0]);
      const id = question.includes('hallway') ? 'd002-light' : 'd004-light';
      if (last.parts.some((p) => p.functionResponse)) return { text: JSON.stringify(last.parts[0].functionResponse.response).includes(id) ? `saw ${id}` : 'wrong device' };
      return { calls: [{ name: 'get_states', arguments: { deviceIds: [id] } }] };
    };
    const m = await model('gemini', [step, step, step, step]);
    use('gemini', m);
    const [x, y] = await Promise.all([ask('Is the hallway light on?'), ask('Is the bedroom light on?')]);
    assert.deepEqual([x.answer, y.answer], ['saw d002-light', 'saw d004-light']);
  });

  test('two questions in one conversation at once: one after the other', async () => {
    const m = await model('openai', [{ text: 'one' }, { text: 'two' }]);
    use('openai', m);
    const [a, c] = await Promise.all([ask('q1', 'same'), ask('q2', 'same')]);
    assert.deepEqual([a.answer, c.answer], ['one', 'two']);
    assert.equal(m.requests[1].body.messages.filter((x) => x.role === 'user').length, 2);
  });
});

describe('the condition card and the settings page\'s test', () => {
  test('"the assistant says yes": yes, no (also in Dutch), and an answer that is neither', async () => {
    const m = await model('gemini', [
      { calls: [{ name: 'get_states', arguments: { where: ['open'] } }] },
      { text: 'Yes.' },
      { text: 'Nee' },
      { text: 'Perhaps, it depends.' },
    ]);
    use('gemini', m);
    assert.equal(await saysYes('Is a window open?'), true);
    assert.match(sent(m, 0), /answer with one English word, yes or no/);
    assert.equal(await saysYes('Is het donker?'), false);
    await fails(saysYes('Will it rain?'), /^The assistant answered neither yes nor no: "Perhaps, it depends\."$/);
    assert.equal(b.app.assistant.size, 0, 'conditions keep no conversation');
  });

  test('the settings page\'s test asks the model and says what came of it', async () => {
    const api = require('./api.js');
    const m = await model('anthropic', [{ text: 'OK' }]);
    use('anthropic', m);
    const ok = await api.testAssistant({ homey: b.homey });
    assert.equal(ok.ok, true);
    assert.equal(ok.answer, 'OK');
    assert.equal(typeof ok.ms, 'number');
    use('anthropic', m, { assistantKey: 'wrong' });
    const bad = await api.testAssistant({ homey: b.homey });
    assert.deepEqual({ ok: bad.ok, code: bad.code, kind: bad.kind, status: bad.status }, { ok: false, code: 'provider', kind: 'auth', status: 401 });
    assert.match(bad.error, /refused the API key/);
  });
});

test('the errors in the hub\'s language: Dutch', async () => {
  const nl = await bootApp({ home: createHome(), settings: { port: 0 }, language: 'nl' });
  try {
    const m = await model('openai', [{ status: 401, message: 'Incorrect API key provided' }]);
    for (const [k, v] of Object.entries({ assistantProvider: 'openai', assistantModel: 'gpt', assistantBaseUrl: m.baseUrl, assistantKey: KEY })) nl.homey.settings.set(k, v);
    await fails(nl.homey.runCard('action', 'ask_assistant', { question: 'Hallo' }), /^OpenAI weigerde de API-sleutel \(HTTP 401\): controleer de sleutel in de instellingen van de app/);
    nl.homey.settings.set('assistantProvider', '');
    await fails(nl.homey.runCard('action', 'ask_assistant', { question: 'Hallo' }), /^Er is nog geen assistent ingesteld/);
  } finally {
    await nl.close();
  }
});

test('the app, its gateway and the assistant run on one WebAssembly module: mcp-switchboard/full', async () => {
  // after the boot, tool calls and Ask runs above (the web tools, off by default, would load a second)
  assert.equal(compiled.length, 1, compiled.map((m) => `${m.bytes} B`).join(', '));
  assert.equal(instances.length, 1);
  const full = require('mcp-switchboard/full');
  assert.equal(typeof full.Conversation, 'function');
  assert.equal(typeof full.HttpGate, 'function');
  assert.equal(require.cache[require.resolve('mcp-switchboard')], undefined, 'the default entry (a module of its own) is never loaded');
});
