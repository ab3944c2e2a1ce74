// What keeps the app's memory down on a large home (see test/bench.mjs and
// BENCHMARKS.md): homey-api's answers read chunk by chunk, a few devices
// read one by one, no ICU data loaded by the tools, and a full collection
// after calls that grew the heap.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';

import { appDir, bootApp } from './harness.mjs';
import { createLargeHome } from './large-home.mjs';
import { call, connect } from './mcp-client.mjs';

const require = createRequire(join(appDir, 'app.js'));
const { HomeyAPI, readText } = require('./lib/homey-io');

let b;
let home;
let client;

before(async () => {
  home = createLargeHome();
  // names with characters of two, three and four bytes in UTF-8, so that the 300 KB list's chunks split some
  for (const [i, d] of Object.entries(Object.values(home.devices))) d.name = `${d.name} ë€😀 ${i}`;
  b = await bootApp({ home, settings: { port: 0, mode: 'all', hiddenZones: ['master'] } });
  const status = await b.app.status();
  ({ client } = await connect(`http://127.0.0.1:${status.server.port}/mcp`, status.token));
});
after(async () => {
  await client.close();
  await b.close();
});

test('a response body is decoded chunk by chunk, a character split between chunks included', async () => {
  const bytes = Buffer.from('{"name":"Wandlamp ë€😀"}');
  // every split point, a character's bytes apart included
  for (let cut = 1; cut < bytes.length; cut++) {
    const res = { bodyUsed: false, body: Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]) };
    assert.equal(await readText(res), '{"name":"Wandlamp ë€😀"}');
  }
  await assert.rejects(readText({ bodyUsed: true, url: 'x', body: Readable.from([]) }), /body used already/);
});

test('homey-api reads the Web API through it: the whole home with its names intact', async () => {
  const Util = require(join(require.resolve('homey-api/package.json'), '..', 'lib', 'Util'));
  HomeyAPI();
  assert.equal(Util.fetch.lean, true);
  const { data } = await call(client, 'get_home_structure');
  const names = JSON.stringify(data);
  for (const d of Object.values(home.devices)) {
    if (d.zone === 'master') assert.ok(!names.includes(JSON.stringify(d.name)), `${d.name} is hidden`);
    else assert.ok(names.includes(JSON.stringify(d.name)), d.name);
  }
});

test('get_states with a few device IDs reads them alone, not the whole home; hidden and unknown ones are not found', async () => {
  const hidden = Object.values(home.devices).find((d) => d.zone === 'master');
  const before = home.requests.length;
  const { data, isError } = await call(client, 'get_states', { deviceIds: ['d000-light', 'd017-contact', hidden.id] });
  assert.equal(isError, false);
  assert.deepEqual(data.devices.map((d) => d.id), ['d000-light', 'd017-contact']);
  assert.equal(data.devices[0].name, home.devices['d000-light'].name);
  assert.equal(data.devices[0].zone, 'Woonkamer');
  const paths = home.requests.slice(before).map((r) => r.path);
  assert.ok(!paths.includes('/api/manager/devices/device'), paths.join(' '));
  assert.ok(paths.includes('/api/manager/devices/device/d000-light'));
  // a value that is no device's ID may be a name: the home's names are read (lib/names.js); matching nothing, it is left out
  const unknown = await call(client, 'get_states', { deviceIds: ['d000-light', 'nope'] });
  assert.deepEqual(unknown.data.devices.map((d) => d.id), ['d000-light']);
  const none = await call(client, 'get_states', { deviceIds: [hidden.id] });
  assert.equal(none.isError, true);
  assert.match(none.data.error, /no device with ID/);
  // many devices named: the whole home in one request
  const many = Object.keys(home.devices).slice(0, 30);
  const again = home.requests.length;
  assert.equal((await call(client, 'get_states', { deviceIds: many })).isError, false);
  assert.deepEqual(home.requests.slice(again).map((r) => r.path).filter((p) => p.startsWith('/api/manager/devices')), ['/api/manager/devices/device']);
});

test('no ICU data for the tools\' own work: no localeCompare, toLocale* or Intl outside the energy reports\' calendar', () => {
  const files = [join(appDir, 'app.js'), ...['lib', 'lib/tools'].flatMap((dir) => readdirSync(join(appDir, dir)).filter((f) => f.endsWith('.js')).map((f) => join(appDir, dir, f)))];
  const icu = files.filter((f) => /localeCompare|toLocale\w*String|Intl\./.test(readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')));
  assert.deepEqual(icu.map((f) => f.slice(appDir.length + 1)), ['lib/tools/energy.js']);
});

test('settle(): a full collection when the heap has grown 2 MB since the last one; the app settles after each call', async () => {
  const { settle } = require('./lib/memory');
  const used = () => getHeapStatistics().used_heap_size;
  const turn = () => new Promise((r) => setTimeout(r, 50));
  const MB = 1024 * 1024;
  settle();
  await turn();
  // about 10 MB kept for a while (into the old generation), then let go
  const garbage = async () => {
    let kept = Array.from({ length: 80_000 }, (_, i) => ({ i, text: `item ${i} `.repeat(8) }));
    for (let i = 0; i < 3; i++) await turn();
    assert.equal(kept.length, 80_000);
    kept = null;
    return used();
  };
  const grown = await garbage();
  settle();
  await turn();
  assert.ok(used() < grown - 6 * MB, `${(grown / MB).toFixed(1)} → ${(used() / MB).toFixed(1)} MB`);
  // a tool call settles too
  const again = await garbage();
  assert.equal((await call(client, 'get_device', { deviceId: 'd000-light' })).isError, false);
  await turn();
  assert.ok(used() < again - 6 * MB, `${(again / MB).toFixed(1)} → ${(used() / MB).toFixed(1)} MB`);
});
