// The chat sessions the playground replays to a visitor without an API key:
// each scenario is run for real, by runChat() with the package's
// Conversation over the simulated home, against the fake model server of
// each provider (tests/js/fake-models.mjs, in that provider's wire format),
// and written down as it happened (js/playground/chat-turn.mjs): requests,
// streamed responses, calls, results. Only the fake model's answers are
// scripted here (what it says and which tools it calls); everything else
// is the package's. The page labels them as recorded from a local fake
// model. js/build-playground.mjs writes them into pkg/playground/chat/;
// on its own: node tests/js/playground-recordings.mjs [FILE]
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { simulatedHome } from '../../js/simulated-home.mjs';
import { runTurn } from '../../js/playground/chat-turn.mjs';
import { startFakeModel } from './fake-models.mjs';

/** The providers as the page offers them: the Conversation's provider and the model named. */
export const RECORDED_PROVIDERS = [
  { provider: 'gemini', model: 'gemini-2.5-flash', label: 'Gemini' },
  { provider: 'openai', model: 'gpt-4.1-mini', label: 'OpenAI Chat Completions' },
  { provider: 'openai-responses', model: 'gpt-4.1-mini', label: 'OpenAI Responses' },
  { provider: 'anthropic', model: 'claude-sonnet-4-5', label: 'Anthropic' },
  { provider: 'prompted', model: 'qwen3', label: 'Prompted (a local model without tool calling)' },
];

/**
 * What the fake model answers in each scenario, one step per request (see fake-models.mjs).
 * @type {{ id: string, title: string, mode: string, message: string, steps: object[] }[]}
 */
export const SCENARIOS = [
  {
    id: 'door',
    title: 'A question: is the front door open?',
    mode: 'all',
    message: 'Is the front door open?',
    steps: [
      { calls: [{ name: 'get_states', arguments: { deviceIds: ['front-door'], capability: 'alarm_contact' } }] },
      { text: 'No, the front door is closed.' },
    ],
  },
  {
    id: 'evening',
    title: 'Two calls at once, one argument coerced',
    mode: 'all',
    message: 'Turn on the kitchen lights at 60% and set the thermostat to 21 degrees.',
    steps: [
      {
        text: 'On it.',
        calls: [
          { name: 'control_zone_lights', arguments: { zoneId: 'kitchen', action: 'on', dim: 60 } },
          // a number written as a string: coerced against the schema before the tool runs
          { name: 'set_thermostat', arguments: { deviceId: 'living-thermostat', temperature: '21' } },
        ],
      },
      { text: 'The kitchen spots are on at 60% and the thermostat is set to 21 °C.' },
    ],
  },
  {
    id: 'wrong-id',
    title: 'A wrong device ID, read back by the model',
    mode: 'all',
    message: 'Switch on the bedside lamp.',
    steps: [
      { calls: [{ name: 'set_light', arguments: { deviceId: 'bedside-lamp', state: 'on' } }] },
      { calls: [{ name: 'get_home_structure', arguments: {} }] },
      { calls: [{ name: 'set_light', arguments: { deviceId: 'bedroom-lamp', state: 'on' } }] },
      { text: 'The bedside lamp in the bedroom is on.' },
    ],
  },
  {
    id: 'movie',
    title: 'Progressive disclosure: search_tools, then use_tool',
    mode: 'meta',
    message: 'Start movie time with the lamp at 30%.',
    steps: [
      { calls: [{ name: 'search_tools', arguments: { query: 'start a flow' } }] },
      { calls: [{ name: 'use_tool', arguments: { name: 'trigger_any_flow', arguments: { command: 'movie_time', parameters: { dim: 30 } } } }] },
      { text: 'Movie time: the ceiling light is off and the reading lamp is at 30%.' },
    ],
  },
];

/** The key the fakes ask for: it never shows, as a real one would not. */
const KEY = 'recorded-fake-key';

/**
 * Runs every scenario for every provider and returns the recordings.
 * @param {{ pkg: string, catalog: string }} where `pkg`: the built package's folder; `catalog`: the simulated home's
 *   tools/list text
 */
export async function recordSessions({ pkg, catalog }) {
  const { Conversation, toolFailure, toolSuccess } = await import(pathToFileURL(join(pkg, 'index.mjs')).href);
  const sessions = [];
  for (const s of SCENARIOS) {
    for (const p of RECORDED_PROVIDERS) {
      const model = await startFakeModel(p.provider, s.steps, { key: KEY });
      const { handlers } = simulatedHome({ toolSuccess, toolFailure });
      const conversation = new Conversation(catalog, { provider: p.provider, model: p.model, apiKey: KEY, baseUrl: model.baseUrl, mode: s.mode, stream: true });
      try {
        const events = await runTurn(conversation, s.message, {
          secret: KEY,
          onEvent: () => {},
          callTool: (name, args) => handlers[name](args),
        });
        const done = events.at(-1);
        if (done?.type !== 'done' || done.error || model.left !== 0) {
          throw new Error(`recording ${s.id} for ${p.provider}: the turn did not end as scripted (${JSON.stringify(done)})`);
        }
        // the fake's address is of no use to a reader
        const shown = JSON.parse(JSON.stringify(events).split(model.root).join('https://fake-model.invalid'));
        sessions.push({ id: `${s.id}/${p.provider}`, scenario: s.id, title: s.title, provider: p.provider, providerLabel: p.label, model: p.model, mode: s.mode, stream: true, events: shown });
      } finally {
        conversation.free();
        await model.close();
      }
    }
  }
  return {
    about: 'Recorded from a local fake model (tests/js/fake-models.mjs): the model’s answers are scripted; the requests, responses, calls and results are the package’s own.',
    sessions,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
  const { readFileSync } = await import('node:fs');
  const catalog = readFileSync(join(root, 'js/examples/demo-home.tools-list.json'), 'utf8');
  const out = await recordSessions({ pkg: join(root, 'pkg'), catalog });
  const file = process.argv[2] ?? join(root, 'pkg/playground/chat/recordings.json');
  writeFileSync(file, JSON.stringify(out));
  console.log(`${out.sessions.length} sessions recorded into ${file}`);
}
