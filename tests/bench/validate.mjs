#!/usr/bin/env node
// Validation throughput on the Homey catalog's argument shapes, through the
// wasm package, side by side with Ajv (compiled validators, the fastest JS
// validator) and a floor (JSON.stringify + JSON.parse of the arguments,
// the cost of handing them across any boundary).
//
//   node tests/bench/validate.mjs [--quick] [--baseline DIR]
//
// --baseline DIR adds the Validator of another build of the package (DIR
// is its pkg/, e.g. the parent commit's, copied aside), timed in the same
// rounds and checked to give the same results. Each round runs the
// contenders in a rotating order; the second table splits the time by
// shape.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

import * as sb from '../../pkg/index.mjs';
import { corpus, takeOption } from '../js/helpers.mjs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const argv = process.argv.slice(2);
const baseline = takeOption(argv, '--baseline');
const quick = argv.includes('--quick');
const catalog = readFileSync(join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json'));
const { tools } = sb.readCatalog(catalog);

/** Argument shapes a model sends: valid, coercible (strings for numbers), invalid. */
function shapes(tool) {
  const props = tool.inputSchema.properties ?? {};
  const valid = {};
  const loose = {};
  for (const [k, s] of Object.entries(props)) {
    const v = s.enum ? s.enum[0] : s.type === 'number' ? 42 : s.type === 'boolean' ? true : s.type === 'array' ? ['a', 'b'] : s.type === 'object' ? { x: 1 } : 'abc123';
    valid[k] = v;
    loose[k] = s.type === 'number' ? '42' : s.type === 'boolean' ? 'true' : v;
  }
  const invalid = { ...valid, unexpected: 1 };
  for (const [k, s] of Object.entries(props)) {
    if (s.enum) invalid[k] = 'not-a-choice';
    else if (s.type === 'number') invalid[k] = 'many';
  }
  return [valid, loose, invalid];
}

const SHAPES = ['valid', 'coercible', 'invalid'];
const cases = tools.flatMap((t) => shapes(t).map((args, i) => ({ tool: t, args, shape: SHAPES[i], json: JSON.stringify(args) })));
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
addFormats(ajv);
const validator = new sb.Validator(catalog);
const compiled = new Map(tools.map((t) => [t.name, ajv.compile(t.inputSchema)]));

const runners = {
  floor: (c) => JSON.parse(JSON.stringify(c.args)),
  'mcp-switchboard Validator (wasm)': (c) => validator.validate(c.tool.name, c.args),
  'mcp-switchboard validateArguments (wasm, schema passed each call)': (c) => sb.validateArguments(c.tool, c.args),
  'Ajv 8 (compiled, coerceTypes)': (c) => {
    const args = structuredClone(c.args);
    const ok = compiled.get(c.tool.name)(args);
    return { ok, errors: compiled.get(c.tool.name).errors };
  },
};
const BASELINE = `mcp-switchboard Validator (wasm), baseline ${baseline}`;
if (baseline) {
  const base = new (require(join(resolve(baseline), 'index.cjs')).Validator)(catalog);
  runners[BASELINE] = (c) => base.validate(c.tool.name, c.args);
}

// outputs first: the Validator and validateArguments agree on every case,
// and with Ajv on which cases are valid
for (const c of cases) {
  const a = validator.validate(c.tool.name, c.args);
  const b = sb.validateArguments(c.tool, c.args);
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`Validator and validateArguments differ on ${c.tool.name} ${c.json}`);
  const ajvOk = runners['Ajv 8 (compiled, coerceTypes)'](c).ok;
  if (a.valid !== ajvOk) throw new Error(`Ajv says ${ajvOk}, mcp-switchboard ${a.valid} for ${c.tool.name} ${c.json}`);
  if (baseline && JSON.stringify(runners[BASELINE](c)) !== JSON.stringify(a)) throw new Error(`the baseline differs on ${c.tool.name} ${c.json}`);
}

const rounds = quick ? 3 : 15;
const perRound = quick ? 200 : 2000;
const byShape = Object.fromEntries(SHAPES.map((k) => [k, cases.filter((c) => c.shape === k)]));
const times = Object.fromEntries(Object.keys(runners).map((k) => [k, { all: [], ...Object.fromEntries(SHAPES.map((s) => [s, []])) }]));
const time = (fn, list) => {
  const t0 = performance.now();
  for (let i = 0; i < perRound; i++) fn(list[i % list.length]);
  return (performance.now() - t0) / perRound;
};
for (let r = 0; r < rounds + 2; r++) {
  const names = Object.keys(runners);
  const order = [...names.slice(r % names.length), ...names.slice(0, r % names.length)];
  for (const name of order) {
    const all = time(runners[name], cases);
    const each = SHAPES.map((k) => time(runners[name], byShape[k]));
    if (r < 2) continue;
    times[name].all.push(all);
    SHAPES.forEach((k, i) => times[name][k].push(each[i]));
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const us = (ms) => (ms * 1000).toFixed(2);
const floor = median(times.floor.all);
console.log(`Validation of ${cases.length} argument shapes (${tools.length} Homey tools × valid / coercible / invalid), ${rounds} rounds of ${perRound} calls, median per call:\n`);
console.log('| validator | µs per call | calls per second | × floor |');
console.log('|---|---:|---:|---:|');
for (const [name, t] of Object.entries(times)) {
  const m = median(t.all);
  console.log(`| ${name} | ${us(m)} | ${Math.round(1000 / m).toLocaleString('en-US')} | ${(m / floor).toFixed(1)} |`);
}
const ajv8 = median(times['Ajv 8 (compiled, coerceTypes)'].all);
console.log(`\nBy shape (${byShape.valid.length} calls of each), µs per call, and all shapes × Ajv's time:\n`);
console.log(`| validator | ${SHAPES.join(' | ')} | all × Ajv |`);
console.log('|---|---:|---:|---:|---:|');
for (const [name, t] of Object.entries(times)) {
  console.log(`| ${name} | ${SHAPES.map((k) => us(median(t[k]))).join(' | ')} | ${(median(t.all) / ajv8).toFixed(2)} |`);
}
