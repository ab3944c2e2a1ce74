#!/usr/bin/env node
// The conversation's own cost per round (building the request, reading the
// response, whole or streamed, routing the calls and writing their results)
// beside the model's round trip on loopback (a fake model server in the
// provider's wire format, tests/js/fake-models.mjs), and beside a floor:
// JSON.stringify of the request's body and JSON.parse of the response, what
// any host pays to hand them over. Then the memory a 50-round conversation
// holds: its history, as JSON text.
//
//   node tests/bench/conversation.mjs [--quick]
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Conversation, runChat } from '../../pkg/index.mjs';
import { startFakeModel, PROVIDERS } from '../js/fake-models.mjs';

const quick = process.argv.includes('--quick');
const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');
const catalog = readFileSync(join(root, 'js/examples/demo-home.tools-list.json'), 'utf8');
const rounds = quick ? 6 : 50;
const repeats = quick ? 1 : 5;

/** A conversation whose every method call is timed. */
function timed(conversation, clock) {
  return new Proxy(conversation, {
    get(target, key) {
      const v = target[key];
      if (typeof v !== 'function') return v;
      return (...args) => {
        const t = performance.now();
        try {
          return v.apply(target, args);
        } finally {
          clock.own += performance.now() - t;
        }
      };
    },
  });
}

/** One turn of `rounds` model requests: a tool call each, then the answer. */
function script(n) {
  const steps = [];
  for (let i = 0; i < n - 1; i++) steps.push({ text: `Step ${i}.`, calls: [{ name: 'get_states', arguments: { zoneId: 'kitchen', capability: 'onoff' } }] });
  steps.push({ text: 'All done: the kitchen light is on and the heating is at 21 degrees.' });
  return steps;
}

async function measure(provider, stream) {
  const samples = [];
  let memory;
  for (let r = 0; r < repeats; r++) {
    const model = await startFakeModel(provider, script(rounds));
    const clock = { own: 0, floor: 0 };
    const fetchTimed = async (url, init) => {
      const t = performance.now();
      JSON.parse(init.body);
      JSON.stringify(JSON.parse(init.body));
      clock.floor += performance.now() - t;
      return fetch(url, init);
    };
    const conversation = new Conversation(catalog, { provider, model: 'bench', baseUrl: model.baseUrl, stream, maxRounds: rounds + 1 });
    const before = conversation.history().length;
    const t0 = performance.now();
    const done = await runChat(timed(conversation, clock), 'Check the kitchen', {
      fetch: fetchTimed,
      callTool: async () => ({ content: [{ type: 'text', text: '{"states":[{"deviceId":"light-kitchen","onoff":true}]}' }] }),
    });
    const wall = performance.now() - t0;
    if (done.reason !== 'stop' || done.rounds !== rounds) throw new Error(`${provider}: ${JSON.stringify(done)}`);
    // the floor's parse of each response, timed apart
    for (const entry of model.log) {
      const t = performance.now();
      if (!stream) JSON.parse(entry.response.body);
      else for (const line of entry.response.body.split('\n')) if (line.startsWith('data: {')) JSON.parse(line.slice(6));
      clock.floor += performance.now() - t;
    }
    const history = JSON.stringify(conversation.history());
    memory = { historyBytes: history.length, items: conversation.history().length - before };
    samples.push({ own: clock.own / rounds, trip: (wall - clock.own) / rounds, floor: clock.floor / rounds });
    conversation.free();
    await model.close();
  }
  const med = (k) => samples.map((s) => s[k]).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  return { own: med('own'), trip: med('trip'), floor: med('floor'), memory };
}

const rows = [];
for (const provider of PROVIDERS) {
  for (const stream of [false, true]) {
    const m = await measure(provider, stream);
    rows.push([
      `${provider}${stream ? ' (stream)' : ''}`,
      `${(m.own * 1000).toFixed(0)} us`,
      `${(m.floor * 1000).toFixed(0)} us`,
      `${(m.own / m.floor).toFixed(1)}x`,
      `${m.trip.toFixed(2)} ms`,
      `${((m.own / m.trip) * 100).toFixed(1)}%`,
      `${(m.memory.historyBytes / 1024).toFixed(1)} KiB (${m.memory.items} items)`,
    ]);
  }
}
const head = ['provider', 'conversation / round', 'JSON floor / round', 'vs floor', 'loopback round trip', 'share', `history after ${rounds} rounds`];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log(`\n${rounds} rounds per turn, median of ${repeats} turns; Node ${process.version}`);
