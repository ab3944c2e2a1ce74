// The app's memory and speed without a hub, on the realistic home
// (large-home.mjs: 150 devices of about 3 KB each, 15 zones, 60 Flows).
// This process runs the fake Web API, the MCP SDK client and a fake model
// server (tests/js/fake-models.mjs, Chat Completions); the app runs alone in
// a child process (booted as in the tests: the fake `homey` runtime, the real
// homey-api talking to the fake Web API over loopback), so the child's RSS
// is the app's, and the fake Web API's share of each call's time is measured
// apart. The child loads nothing but the fake runtime and the app (the SDK
// client alone would add about 25 MB to a process), and notes its memory at
// each step of the boot: Node alone, the package, homey-api, the app's
// modules, onInit. Then the tool calls, then the Ask card's runs (each asks
// the fake model, which calls two of the app's tools before it answers;
// every other one a follow-up in the same conversation).
//
//   homey-app/test/node_modules/node18/bin/node homey-app/test/bench.mjs [calls] [asks]
//
// BENCH_MAPS=1 also prints where the app's RSS is (the node binary's pages,
// malloc, V8's heap pages, JIT and wasm code) after each phase.
// (after `make test-homey`, which installs Node 18 and the app's packages)
import { fork } from 'node:child_process';
import { once, setMaxListeners } from 'node:events';
import { fileURLToPath } from 'node:url';

if (process.argv[2] === '--child') {
  // the app's process: boot step by step, then answer the parent's questions. The package's
  // WebAssembly memory is noted as it is made, to tell its share.
  // the highest RSS seen, sampled every 50 ms from the end of the boot on
  let peak = 0;
  const memory = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    const cpu = process.cpuUsage();
    return { rss: m.rss, peak, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, wasm: wasmMemory?.buffer.byteLength ?? 0, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  const steps = [];
  const step = (name) => steps.push({ name, ...memory() });
  let wasmMemory = null;
  step('Node alone');
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = function (...args) {
    const instance = new Instance(...args);
    wasmMemory ??= instance.exports.memory ?? null;
    return instance;
  };
  const { createFakeHomey, appDir } = await import('./harness.mjs');
  const { EventEmitter } = await import('node:events');
  const { createRequire } = await import('node:module');
  const started = Number(process.argv[4]);
  // what the runtime knows of the home (the Flows that use the app's trigger card, for its argument
  // values): the home itself is the fake Web API's, in the parent process
  const home = Object.assign(new EventEmitter(), { devices: {}, flowRuns: [] }, JSON.parse(process.argv[6]));
  const model = { assistantProvider: 'compatible', assistantModel: 'bench-model', assistantBaseUrl: process.argv[5] };
  const homey = createFakeHomey({ home, apiUrl: process.argv[3], settings: { port: 0, ...model } });
  step('the fake runtime and home');
  // the modules in the order the app loads them (app.js's first line, then the package), so each is counted once
  const requireApp = createRequire(`${appDir}/app.js`);
  requireApp('./lib/memory');
  requireApp('mcp-switchboard/full');
  step('require mcp-switchboard/full');
  requireApp('./lib/homey-io').HomeyAPI();
  step('homey-api (HomeyAPI, lean)');
  const App = requireApp('./app.js');
  step("the app's modules");
  const app = new App();
  app.homey = homey;
  homey.app = app;
  await app.onInit();
  step('onInit done');
  // BENCH_HEAP_SNAPSHOTS=<dir>: heap snapshots after boot and after the calls and a full GC (they cost memory themselves)
  const snapshots = process.env.BENCH_HEAP_SNAPSHOTS;
  const snapshot = async (name) => snapshots && (await import('node:v8')).writeHeapSnapshot(`${snapshots}/${name}.heapsnapshot`);
  await snapshot('boot');
  const booted = performance.timeOrigin + performance.now() - started;
  setInterval(memory, 50).unref();
  const status = await app.status();
  // BENCH_MAPS=1: where the RSS is, by kind of mapping (/proc/self/smaps), and the V8 heap's spaces
  const residentByKind = () => {
    const { readFileSync } = requireApp('node:fs');
    const kinds = {};
    let kind = null;
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+ *(.*)$/.exec(line);
      if (head) {
        const [, lo, hi, perms, file] = head;
        const kb = Number((BigInt(`0x${hi}`) - BigInt(`0x${lo}`)) / 1024n);
        if (file === process.execPath) kind = 'the node binary';
        else if (file.startsWith('/')) kind = 'other files';
        else if (file === '[heap]') kind = 'malloc (brk)';
        else if (file.startsWith('[')) kind = 'other';
        else if (perms.includes('x')) kind = 'JIT and wasm code';
        else if (kb === 256) kind = 'V8 heap pages';
        else kind = 'other anonymous (malloc arenas, wasm memory, large V8 pages)';
      } else if (kind && line.startsWith('Rss:')) {
        kinds[kind] = (kinds[kind] ?? 0) + Number(line.split(/\s+/)[1]) / 1024;
      }
    }
    const v8 = requireApp('node:v8');
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, +(x.physical_space_size / 1048576).toFixed(1)]));
    return { mb: Object.fromEntries(Object.entries(kinds).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, +v.toFixed(1)])), heapSpaces: spaces, external: +(process.memoryUsage().external / 1048576).toFixed(1) };
  };
  process.on('disconnect', () => process.exit(0));
  process.on('message', (m) => {
    if (m === 'memory') process.send({ memory: memory() });
    if (m === 'maps') process.send({ maps: residentByKind() });
    if (m?.ask) {
      const start = performance.now();
      homey.runCard('action', 'ask_assistant', m.ask).then(
        (tokens) => process.send({ asked: { ...tokens, ms: performance.now() - start } }),
        (err) => process.send({ asked: { error: err.message } }),
      );
    }
    if (m === 'gc') {
      globalThis.gc?.();
      setTimeout(async () => {
        const m = memory();
        await snapshot('after-calls');
        process.send({ memory: m });
      }, 200);
    }
    if (m === 'exit') app.onUninit().then(() => process.exit(0));
  });
  process.send({ ready: { port: status.server.port, token: status.token, bootMs: booted, memory: memory(), steps } });
} else {
  const { createLargeHome } = await import('./large-home.mjs');
  const { TRIGGER } = await import('./fake-home.mjs');
  const { APP_SCOPES, startFakeHomeyApi } = await import('./fake-homey-api.mjs');
  const { APP_TOKEN, PERSONAL_KEY } = await import('./harness.mjs');
  const { connect } = await import('./mcp-client.mjs');
  const { startFakeModel } = await import('../../tests/js/fake-models.mjs');
  const calls = Number(process.argv[2] ?? 1000);
  const asks = Number(process.argv[3] ?? 20);
  const IDLE_S = 15;
  // the SDK client's transport adds an abort listener per request to one signal on Node 18's fetch
  // (here, in the client; not in the app)
  setMaxListeners(0);
  const home = createLargeHome();
  const api = await startFakeHomeyApi(home, { tokens: { [APP_TOKEN]: APP_SCOPES, [PERSONAL_KEY]: ['*'] } });
  // the model: asks for the open windows and the lights that are on (through use_tool), then answers
  const answer = (request) => {
    const messages = request.body.messages;
    if (messages.at(-1).role === 'user') return { calls: [{ name: 'get_states', arguments: { where: ['open'] } }] };
    const before = messages.findLast((m) => m.role === 'assistant');
    if (before?.tool_calls?.[0]?.function.name === 'get_states') return { calls: [{ name: 'use_tool', arguments: { name: 'get_states', arguments: { where: ['on'], deviceClass: 'light' } } }] };
    return { text: 'Three windows are open, and the lights in the living room and the kitchen are on.' };
  };
  const model = await startFakeModel('openai', Array.from({ length: asks * 3 }, () => answer));
  const runtime = {
    id: home.id,
    system: { info: { homeyVersion: home.system.info.homeyVersion } },
    flows: Object.fromEntries(Object.entries(home.flows).filter(([, f]) => f.trigger?.id === TRIGGER)),
    advancedFlows: Object.fromEntries(Object.entries(home.advancedFlows).filter(([, f]) => Object.values(f.cards).some((c) => c.id === TRIGGER))),
  };
  const t0 = performance.timeOrigin + performance.now();
  const child = fork(fileURLToPath(import.meta.url), ['--child', api.url, String(t0), model.baseUrl, JSON.stringify(runtime)], { execArgv: ['--expose-gc', ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)], stdio: 'inherit' });
  const ask = async (question, key) => {
    child.send(question);
    for (;;) {
      const [m] = await once(child, 'message');
      if (m[key] !== undefined) return m[key];
    }
  };
  const maps = async (when) => {
    if (process.env.BENCH_MAPS) console.log(`resident ${when}:`, JSON.stringify(await ask('maps', 'maps')));
  };
  const [{ ready }] = await once(child, 'message');
  const url = `http://127.0.0.1:${ready.port}/mcp`;
  const { client } = await connect(url, ready.token);
  const firstAnswer = performance.timeOrigin + performance.now() - t0;
  const afterBoot = ready.memory;
  const afterConnect = await ask('memory', 'memory');
  await maps('after connecting');

  // a mix of what an assistant does in hybrid mode: the listed tools, search, and use_tool; things by ID and by name
  const mix = [
    ['get_states', { deviceIds: ['d000-light', 'd017-contact'] }],
    ['get_states', { zoneId: 'Begane grond', where: ['on'] }],
    ['use_tool', { name: 'get_device', arguments: { deviceId: home.devices['d097-thermostat'].name } }],
    ['get_home_structure', {}],
    ['search_tools', { query: 'zet de lamp in de woonkamer aan', limit: 3 }],
    ['use_tool', { name: 'set_light', arguments: { deviceId: 'd000-light', state: 'toggle' } }],
    ['use_tool', { name: 'get_device', arguments: { deviceId: 'd097-thermostat' } }],
    ['use_tool', { name: 'control_device', arguments: { deviceId: 'd000-light', capability: 'dim', value: 0.4 } }],
    ['use_tool', { name: 'get_energy_report', arguments: {} }],
    ['get_flow_overview', {}],
  ];
  const latencies = [];
  const requestsBefore = home.requests.length;
  let errors = 0;
  for (let i = 0; i < calls; i++) {
    const [name, args] = mix[i % mix.length];
    const start = performance.now();
    const result = await client.callTool({ name, arguments: args });
    latencies.push(performance.now() - start);
    if (result.isError) errors++;
  }
  const webApiRequests = home.requests.length - requestsBefore;
  const afterCalls = await ask('memory', 'memory');
  await maps('after the calls');

  // the Ask card: every other question a follow-up in the conversation before
  const askMs = [];
  let conversation = '';
  for (let i = 0; i < asks; i++) {
    const asked = await ask({ ask: { question: `Which windows are open, and which lights are on? (${i})`, conversation: i % 2 ? conversation : '' } }, 'asked');
    if (asked.error) throw new Error(`Ask ${i}: ${asked.error}`);
    conversation = asked.conversation;
    askMs.push(asked.ms);
  }
  const afterAsks = await ask('memory', 'memory');
  await maps('after the Ask runs');
  // V8's memory reducer shrinks the heap once a process has been idle for a few seconds, as the app is
  // most of the time on a hub
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  const afterIdle = await ask('memory', 'memory');
  const afterGc = await ask('gc', 'memory');
  await maps('after a full GC');

  // the fake Web API alone: the same kind of requests, straight from here
  const direct = [];
  for (let i = 0; i < 500; i++) {
    const path = ['/api/manager/devices/device', '/api/manager/zones/zone', '/api/manager/devices/device/d000-light'][i % 3];
    const start = performance.now();
    await (await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${APP_TOKEN}` } })).text();
    direct.push(performance.now() - start);
  }

  await client.close();
  child.send('exit');
  await once(child, 'exit');
  await api.close();
  await model.close();

  const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;
  const pct = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];
  const ms = (v) => `${v.toFixed(2)} ms`;
  const perCall = webApiRequests / calls;
  const webApiMs = pct(direct, 50);
  console.log(JSON.stringify({ node: process.version, devices: Object.keys(home.devices).length, calls, errors, asks, modelRequests: model.requests.length }, null, 0));
  console.log('boot, step by step (RSS; JS heap used of total; no GC forced):');
  for (const [i, st] of ready.steps.entries()) {
    const grew = i ? ` (${st.rss >= ready.steps[i - 1].rss ? '+' : ''}${((st.rss - ready.steps[i - 1].rss) / 1048576).toFixed(1)})` : '';
    console.log(`  ${st.name.padEnd(28)} ${mb(st.rss)}${grew}; heap ${mb(st.heapUsed)} of ${mb(st.heapTotal)}`);
  }
  console.log(`RSS after boot:            ${mb(afterBoot.rss)} (JS heap used ${mb(afterBoot.heapUsed)} of ${mb(afterBoot.heapTotal)}, WebAssembly memory ${mb(afterBoot.wasm)})`);
  console.log(`RSS after first session:   ${mb(afterConnect.rss)}`);
  console.log(`RSS after ${calls} calls:     ${mb(afterCalls.rss)} (JS heap used ${mb(afterCalls.heapUsed)} of ${mb(afterCalls.heapTotal)}, WebAssembly memory ${mb(afterCalls.wasm)})`);
  console.log(`RSS after ${asks} Ask runs:     ${mb(afterAsks.rss)} (JS heap used ${mb(afterAsks.heapUsed)} of ${mb(afterAsks.heapTotal)}, WebAssembly memory ${mb(afterAsks.wasm)})`);
  console.log(`highest RSS during the calls and the Ask runs (sampled every 50 ms): ${mb(afterAsks.peak)} (during the calls: ${mb(afterCalls.peak)}; after connecting ${mb(afterConnect.peak)})`);
  console.log(`RSS after ${IDLE_S} s idle:      ${mb(afterIdle.rss)} (JS heap used ${mb(afterIdle.heapUsed)} of ${mb(afterIdle.heapTotal)}, WebAssembly memory ${mb(afterIdle.wasm)})`);
  console.log(`RSS after a full GC:       ${mb(afterGc.rss)} (JS heap used ${mb(afterGc.heapUsed)} of ${mb(afterGc.heapTotal)}, WebAssembly memory ${mb(afterGc.wasm)})`);
  console.log(`boot (fork to onInit done): ${ms(ready.bootMs)}`);
  console.log(`cold start to first answer: ${ms(firstAnswer)} (fork to the SDK client's initialize answered)`);
  console.log(`app's CPU time per call:    ${ms((afterCalls.cpuMs - afterConnect.cpuMs) / calls)} (user + system in its process; less disturbed by other load than latency)`);
  console.log(`tool call latency:          p50 ${ms(pct(latencies, 50))}, p99 ${ms(pct(latencies, 99))}, mean ${ms(latencies.reduce((a, b) => a + b, 0) / calls)}`);
  if (asks) console.log(`Ask run (2 tool calls, 3 model requests): p50 ${ms(pct(askMs, 50))}, max ${ms(Math.max(...askMs))}`);
  console.log(`Web API requests per call:  ${perCall.toFixed(2)}; the fake Web API alone answers one in p50 ${ms(webApiMs)} (p99 ${ms(pct(direct, 99))})`);
}
