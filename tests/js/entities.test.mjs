// The entity index and the search's fallback through the built package
// (pkg/): a home given as an object or as text, references resolved with
// why, ambiguity said, kinds, argument checks and errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import * as sb from '../../pkg/index.mjs';
import { corpus, root } from './helpers.mjs';

const home = JSON.parse(readFileSync(join(root, 'tests/search/home/home.json'), 'utf8'));

test('a home resolves spoken references, says when they are ambiguous, and narrows by kind', () => {
  const index = new sb.EntityIndex(home);
  assert.equal(index.size, home.zones.length + home.devices.length + home.flows.length + home.moods.length);
  assert.equal(new sb.EntityIndex(JSON.stringify(home)).size, index.size);
  const r = index.resolve('the reading lamp in the study');
  assert.equal(r.ambiguous, false);
  assert.deepEqual([r.matches[0].name, r.matches[0].zone, r.matches[0].kind], ['Leeslamp', 'Studeerkamer', 'device']);
  assert.ok(r.matches[0].why.some((w) => w.startsWith('study: zone Studeerkamer')), r.matches[0].why.join('; '));
  assert.equal(index.resolve('Begane grond', { limit: 1 }).matches[0].name, 'Begane grond');
  const both = index.resolve('Leeslamp');
  assert.equal(both.ambiguous, true);
  assert.equal(both.note, '2 devices called Leeslamp: Woonkamer, Studeerkamer');
  const flow = index.resolve('goedemorgen', { kind: 'flow' });
  assert.ok(flow.matches.every((m) => m.kind === 'flow') && flow.matches[0].name === 'Goedemorgen');
  assert.deepEqual(index.resolve('qqqq').matches, []);
});

test('the entity index checks its arguments and the home', () => {
  const index = new sb.EntityIndex({ zones: [{ id: 'z', name: 'Keuken' }] });
  assert.throws(() => new sb.EntityIndex(42), (e) => e instanceof TypeError && e.code === 'usage');
  assert.throws(() => new sb.EntityIndex('[]'), (e) => e.code === 'shape' && e.pointer === '');
  assert.throws(() => new sb.EntityIndex({ devices: [{ id: 'd' }] }), (e) => e.code === 'shape' && e.pointer === '/devices/0');
  assert.throws(() => new sb.EntityIndex('{nope'), (e) => e.code === 'json');
  assert.throws(() => index.resolve(42), (e) => e instanceof TypeError && e.code === 'usage');
  assert.throws(() => index.resolve('keuken', { kind: 'room' }), (e) => e.code === 'usage');
});

test('a search that matches nothing answers with guesses, said to be guesses', () => {
  const index = new sb.ToolIndex(readFileSync(join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json')));
  const r = index.search('qqthermoszz');
  assert.equal(r.fallback, 'spelling');
  assert.equal(r.hits[0].name, 'set_thermostat');
  assert.ok(r.hits.every((h) => h.guess === true));
  assert.equal(index.search('qqthermoszz', { fallback: false }).total, 0);
  const found = index.search('thermostaat');
  assert.ok(!('fallback' in found) && !('guess' in found.hits[0]));
});
