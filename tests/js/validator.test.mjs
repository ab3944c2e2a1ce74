// The Validator answers plain calls from their JSON text (valid as sent,
// strings read as numbers and booleans, words that fail a choice or a
// type): every answer must be exactly validateArguments', which always
// takes the general path (same arguments, coercions, errors, message, and
// the same order of keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import * as sb from '../../pkg/index.mjs';
import { corpus } from './helpers.mjs';

/** A value the property schema allows, as a model would send it. */
function sample(s, depth = 0) {
  if (s?.enum) return s.enum[0];
  switch (s?.type) {
    case 'integer':
    case 'number':
      return 42;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [sample(s.items ?? {}, depth + 1)];
    case 'object':
      return depth < 4 ? Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, p]) => [k, sample(p, depth + 1)])) : {};
    default:
      return 'abc123';
  }
}

/** Valid, coercible, invalid and edge-case arguments for one tool. */
function argumentSets(tool) {
  const props = tool.inputSchema?.properties ?? {};
  const valid = sample({ type: 'object', properties: props });
  const out = [valid, { ...valid, unexpected: 1 }, {}, undefined, '{}', JSON.stringify(valid)];
  const loose = {};
  const invalid = { ...valid };
  for (const [k, s] of Object.entries(props)) {
    const v = valid[k];
    loose[k] = typeof v === 'number' ? String(v) : typeof v === 'boolean' ? 'TRUE' : v;
    invalid[k] = s?.enum ? 'not-a-choice' : typeof v === 'number' || typeof v === 'boolean' ? 'many' : v;
    for (const odd of ['42', '-0', '1.5', '12345678901234567890', 'true', 'False', ' 7', 'many', 'not a word', 'é\u0000"', -0, 80.0, 80.5, 2 ** 64, null, [['x', '1']], { x: '1', y: ['true'] }]) {
      out.push({ ...valid, [k]: odd });
    }
  }
  out.push(loose, invalid, { ...invalid, unexpected: 1 });
  // the members in the reverse order
  out.push(Object.fromEntries(Object.entries(loose).reverse()), Object.fromEntries(Object.entries(invalid).reverse()));
  return out;
}

// both read the same schemas: the catalog's text may spell numbers that
// JSON.stringify writes otherwise (`0.0`), and messages quote limits as
// written
const same = (tools) => {
  const validator = new sb.Validator(JSON.stringify(tools));
  let calls = 0;
  for (const tool of tools) {
    for (const args of argumentSets(tool)) {
      const want = sb.validateArguments(tool, args);
      const got = validator.validate(tool.name, args);
      assert.equal(JSON.stringify(got), JSON.stringify(want), `${tool.name} ${JSON.stringify(args)}`);
      calls++;
    }
  }
  return calls;
};

// a valid unchanged call's result is built by a function made from text
// once per Validator; where a content security policy forbids that (here
// Node's --disallow-code-generation-from-strings), the result's text is
// parsed instead: this file runs again that way, and must pass the same
const strict = process.execArgv.includes('--disallow-code-generation-from-strings');

test('functions from text are forbidden in the strict run', () => {
  assert.equal((() => {
    try {
      return Function('return "made"')();
    } catch (e) {
      return e.name;
    }
  })(), strict ? 'EvalError' : 'made');
});

test('the same answers where functions cannot be made from text', { skip: strict }, () => {
  const file = fileURLToPath(import.meta.url);
  // a run of its own, reporting to its output (not to this runner)
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const r = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--test-reporter=tap', file], { encoding: 'utf8', env, timeout: 300_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // every test but this one ran and passed
  assert.match(r.stdout, /# pass 3\n/);
  assert.match(r.stdout, /# skipped 1\n/);
});

test('the Validator answers every corpus tool exactly as validateArguments does', () => {
  const files = readdirSync(corpus).filter((f) => f.endsWith('.tools-list.json'));
  assert.ok(files.length >= 5);
  let calls = 0;
  for (const file of files) {
    calls += same(sb.readCatalog(readFileSync(join(corpus, file))).tools);
  }
  assert.ok(calls > 10_000, `${calls} calls`);
});

test('nested strings for numbers and booleans, words and edge cases agree', () => {
  const tool = {
    name: 't',
    inputSchema: {
      type: 'object',
      properties: {
        z: { type: 'number' },
        n: { type: 'integer' },
        b: { type: 'boolean' },
        s: { type: 'string', enum: ['on', 'off'] },
        a: { type: 'array', items: { type: 'integer' } },
        o: { type: 'object', properties: { y: { type: 'boolean' }, x: { type: 'number' }, l: { type: 'array', items: { type: 'object', properties: { q: { type: 'integer' } } } } } },
        'a/b~c': { type: 'integer' },
      },
      required: ['n'],
    },
  };
  const validator = new sb.Validator(JSON.stringify([tool]));
  const deep = (d) => (d === 0 ? '1' : [deep(d - 1)]);
  for (const args of [
    { z: '42', n: '-12', b: 'TRUE', s: 'on' },
    { n: '-12', z: '42' },
    { n: 1, a: ['1', 2, '-3'], o: { y: 'True', x: '5', l: [{ q: '1' }, { q: 2 }, { q: 'x' }] } },
    { o: { x: 'v', y: 'w' }, n: 1 },
    { o: { y: 'w', x: 'v' }, n: 'many', s: 'dim', 'a/b~c': 'x' },
    { n: '\u0031', s: 'd\u0069m' },
    { n: '1', n2: '2', b: 'yes' },
    { n: 1, a: deep(70) },
    { n: '123456789012345678' },
    { n: '1234567890123456789' },
    { n: 'ünïcödé' },
    { n: 1, s: '\u2028' },
  ]) {
    assert.equal(JSON.stringify(validator.validate('t', args)), JSON.stringify(sb.validateArguments(tool, args)), JSON.stringify(args));
    // as text too, spaced out, and with a lone surrogate in a string
    for (const text of [JSON.stringify(args, null, 1), JSON.stringify(args).replace(/}$/, ',"x":"\ud800"}')]) {
      assert.equal(JSON.stringify(validator.validate('t', text)), JSON.stringify(sb.validateArguments(tool, text)), text);
    }
  }
});
