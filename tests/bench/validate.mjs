#!/usr/bin/env node
// Validation throughput on the argument shapes of Homey catalogs, through
// the wasm package, side by side with Ajv (compiled validators, the
// fastest JS validator) and a floor (JSON.stringify + JSON.parse of the
// arguments, the cost of handing them across any boundary).
//
//   node tests/bench/validate.mjs [--quick] [--baseline DIR]
//
// Two catalogs: the Homey app's own tools (homey-app/lib/tools.json: bounds,
// patterns, type lists, anyOf) and the corpus's Homey catalog
// (homey-ai-chat-control 2.2.1). For every tool, the calls a model sends:
// "valid" (valid as sent, nothing to coerce), "coercible" (valid once
// coerced: numbers and booleans sent as strings, else a single value for
// an array, else null for an optional member) and "invalid" (every choice,
// number and boolean wrong: a choice not offered, a word; else one member
// of another kind, a list for a string). Each case is
// checked before timing to be what its name says, by the Validator and by
// Ajv; a tool on which no such call can be made has no case of that shape.
//
// Ajv runs as a caller would run it, with coercion of the same kinds
// (`coerceTypes: "array"`), every error (`allErrors`) and, for an invalid
// call, the message for the model (`errorsText`). The Validator leaves the
// caller's arguments as they were and returns coerced ones: it pays a copy
// through JSON (JSON.stringify in, JSON.parse of the result). Ajv coerces
// in place, so its fair time includes the same copy ("Ajv, copied through
// JSON"); "Ajv, in place" is Ajv alone on a fresh copy made before the
// clock starts (the caller's object changed). Arguments given as JSON text
// (as MCP and OpenAI's API deliver them) are timed too: the Validator on
// the text, Ajv after JSON.parse of it. The target: the Validator's time at
// most 3× Ajv's, the same copy or parse paid by both.
//
// --baseline DIR adds the Validator of another build of the package (DIR
// is its pkg/, e.g. the parent commit's, copied aside), timed in the same
// rounds and checked to give the same results. Each round runs the
// contenders in a rotating order.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

import * as sb from '../../pkg/index.mjs';
import { corpus, root, takeOption } from '../js/helpers.mjs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const argv = process.argv.slice(2);
const baseline = takeOption(argv, '--baseline');
const quick = argv.includes('--quick');
const CATALOGS = [
  ['the Homey app', join(root, 'homey-app/lib/tools.json')],
  ['homey-ai-chat-control 2.2.1', join(corpus, 'homey-ai-chat-control-2.2.1.tools-list.json')],
];
const Base = baseline ? require(join(resolve(baseline), 'index.cjs')).Validator : null;

const typesOf = (s) => (Array.isArray(s?.type) ? s.type : s?.type ? [s.type] : []);
const typeOf = (s) => typesOf(s)[0];

/** Strings tried where a pattern is asked for (the first that matches). */
const PATTERNED = ['abc123', '12:30', '2024-05-01', '2024-05-01T12:30:00Z', 'a', '1', 'A1', 'https://example.com/'];

/** A value `s` allows, as a model would send it. */
function sample(s, depth = 0) {
  if (s?.const !== undefined) return s.const;
  if (s?.enum) return s.enum[0];
  switch (typeOf(s)) {
    case 'integer':
    case 'number': {
      const lo = s.minimum ?? (s.exclusiveMinimum ?? -Infinity) + 1;
      const hi = s.maximum ?? (s.exclusiveMaximum ?? Infinity) - 1;
      return Math.max(lo, Math.min(hi, 42));
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items ?? {}, depth + 1));
    case 'object':
      return depth < 4 ? Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, p]) => [k, sample(p, depth + 1)])) : {};
    default:
      return s?.pattern ? (PATTERNED.find((t) => new RegExp(s.pattern, 'u').test(t)) ?? 'abc123') : 'abc123';
  }
}

/** What a model sends instead of a number or boolean: the same as a string (where a string is not valid too). */
function loosened(s, v) {
  const types = typesOf(s);
  const scalar = types.some((t) => ['integer', 'number', 'boolean'].includes(t)) && !types.includes('string');
  return scalar && !s.enum && typeof v !== 'string' ? String(v) : undefined;
}

/** A value no coercion fixes where a model often errs: a choice not offered, a word for a number or a boolean. */
function wrong(s) {
  const types = typesOf(s);
  if (s?.enum?.every((e) => typeof e === 'string')) return 'not-a-choice';
  if (types.length > 0 && types.every((t) => ['integer', 'number', 'boolean'].includes(t))) return 'many';
  return undefined;
}

/** A value of another kind: a list where one string is wanted, an object among a list's strings. */
function otherKind(s) {
  const types = typesOf(s);
  if (types.length === 1 && types[0] === 'string') return ['a', 'b'];
  if (types.length === 1 && types[0] === 'array' && typeOf(s.items) === 'string') return [{ x: 1 }];
  return undefined;
}

/** The valid, coercible and invalid calls for one tool (`undefined` where none can be made). */
function shapes(tool) {
  const schema = tool.inputSchema ?? {};
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const valid = sample({ type: 'object', properties: props });
  const entries = Object.entries(props);
  // numbers and booleans as strings; else a single value for an array;
  // else null for an optional member
  let coercible = { ...valid };
  let changed = false;
  for (const [k, s] of entries) {
    const loose = loosened(s, valid[k]);
    if (loose !== undefined) [coercible[k], changed] = [loose, true];
  }
  const array = entries.find(([k, s]) => typeOf(s) === 'array' && valid[k].length === 1);
  if (!changed && array) [coercible[array[0]], changed] = [valid[array[0]][0], true];
  // (a scalar one: Ajv reads null as "", 0 or false, not as an object)
  const scalar = (s) => typesOf(s).length > 0 && typesOf(s).every((t) => ['string', 'integer', 'number', 'boolean'].includes(t));
  const optional = entries.find(([k, s]) => !required.has(k) && scalar(s) && !s.enum);
  if (!changed && optional) [coercible[optional[0]], changed] = [null, true];
  if (!changed) coercible = undefined;
  // every choice, number and boolean wrong; else one member of another kind
  const invalid = { ...valid };
  let broken = false;
  for (const [k, s] of entries) {
    const bad = wrong(s);
    if (bad !== undefined) [invalid[k], broken] = [bad, true];
  }
  const other = entries.find(([, s]) => otherKind(s) !== undefined);
  if (!broken && other) [invalid[other[0]], broken] = [otherKind(other[1]), true];
  return { valid, coercible, invalid: broken ? invalid : undefined };
}

const SHAPES = ['valid', 'coercible', 'invalid'];

/** The cases of one catalog, each checked to be what its shape says. */
function casesOf(name, file) {
  const text = readFileSync(file);
  const { tools } = sb.readCatalog(text);
  const validator = new sb.Validator(text);
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: 'array' });
  addFormats(ajv);
  const compiled = new Map(tools.map((t) => [t.name, ajv.compile(t.inputSchema)]));
  const cases = [];
  for (const tool of tools) {
    const made = shapes(tool);
    for (const shape of SHAPES) {
      const args = made[shape];
      if (args === undefined) continue;
      const json = JSON.stringify(args);
      const c = { tool: tool.name, shape, args, json, ajv: compiled.get(tool.name) };
      const got = validator.validate(tool.name, args);
      const what = `${name}: ${tool.name} ${shape} ${json}`;
      const as = { valid: got.valid && got.coercions.length === 0, coercible: got.valid && got.coercions.length > 0, invalid: !got.valid }[shape];
      if (!as) throw new Error(`not ${shape} for the Validator: ${what}: ${JSON.stringify(got)}`);
      const copy = JSON.parse(json);
      if (c.ajv(copy) !== got.valid) throw new Error(`Ajv says ${!got.valid}: ${what}`);
      if (JSON.stringify(validator.validate(tool.name, json)) !== JSON.stringify(got)) throw new Error(`text and object differ: ${what}`);
      if (JSON.stringify(sb.validateArguments(tool, args)) !== JSON.stringify(got)) throw new Error(`validateArguments differs: ${what}`);
      cases.push(c);
    }
  }
  const base = Base ? new Base(text) : null;
  for (const c of cases) {
    if (base && JSON.stringify(base.validate(c.tool, c.args)) !== JSON.stringify(validator.validate(c.tool, c.args))) throw new Error(`the baseline differs on ${c.tool} ${c.json}`);
  }
  return { name, tools, cases, validator, ajv, base };
}

/** The contenders for one catalog; `fresh` marks one that gets a copy of the arguments made before the clock starts. */
function runners({ validator, ajv, base }) {
  const ajvCall = (c, args) => c.ajv(args) || ajv.errorsText(c.ajv.errors);
  const out = {
    floor: { run: (c) => JSON.parse(JSON.stringify(c.args)) },
    'Validator': { run: (c) => validator.validate(c.tool, c.args) },
    'Ajv, copied through JSON': { run: (c) => ajvCall(c, JSON.parse(JSON.stringify(c.args))) },
    'Ajv, in place': { run: (c, fresh) => ajvCall(c, fresh), fresh: true },
    'Validator, from text': { run: (c) => validator.validate(c.tool, c.json) },
    'Ajv, from text': { run: (c) => ajvCall(c, JSON.parse(c.json)) },
  };
  if (base) out[`Validator, baseline ${baseline}`] = { run: (c) => base.validate(c.tool, c.args) };
  return out;
}

const rounds = quick ? 3 : 15;
const perRound = quick ? 200 : 2000;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const us = (ms) => (ms * 1000).toFixed(2);

/**
 * Milliseconds per call of `runner` over `list`, cycled: CPU time of the
 * process (time spent waiting for a busy machine's cores does not count).
 */
function time(runner, list) {
  const fresh = runner.fresh ? Array.from({ length: perRound }, (_, i) => JSON.parse(list[i % list.length].json)) : [];
  const t0 = process.cpuUsage();
  for (let i = 0; i < perRound; i++) runner.run(list[i % list.length], fresh[i]);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000 / perRound;
}

const summary = [];
for (const [name, file] of CATALOGS) {
  const catalog = casesOf(name, file);
  const { cases } = catalog;
  const contenders = runners(catalog);
  const byShape = Object.fromEntries(SHAPES.map((k) => [k, cases.filter((c) => c.shape === k)]));
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, { all: [], ...Object.fromEntries(SHAPES.map((s) => [s, []])) }]));
  for (let r = 0; r < rounds + 2; r++) {
    const names = Object.keys(contenders);
    const order = [...names.slice(r % names.length), ...names.slice(0, r % names.length)];
    for (const n of order) {
      const all = time(contenders[n], cases);
      const each = SHAPES.map((k) => time(contenders[n], byShape[k]));
      if (r < 2) continue;
      times[n].all.push(all);
      SHAPES.forEach((k, i) => times[n][k].push(each[i]));
    }
  }
  const m = (n, k = 'all') => median(times[n][k]);
  const counts = SHAPES.map((k) => `${byShape[k].length} ${k}`).join(', ');
  console.log(`\n${name}: ${catalog.tools.length} tools, ${cases.length} calls (${counts}); ${rounds} rounds of ${perRound} calls, median CPU µs per call:\n`);
  console.log(`| contender | ${SHAPES.join(' | ')} | all | × floor |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const n of Object.keys(times)) {
    console.log(`| ${n} | ${SHAPES.map((k) => us(m(n, k))).join(' | ')} | ${us(m(n))} | ${(m(n) / m('floor')).toFixed(1)} |`);
  }
  const ratio = (a, b) => SHAPES.map((k) => (m(a, k) / m(b, k)).toFixed(2)).concat((m(a) / m(b)).toFixed(2));
  console.log(`\n| the Validator's time over | ${SHAPES.join(' | ')} | all |`);
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| Ajv, copied through JSON (target ≤ 3) | ${ratio('Validator', 'Ajv, copied through JSON').join(' | ')} |`);
  console.log(`| Ajv, from text (target ≤ 3) | ${ratio('Validator, from text', 'Ajv, from text').join(' | ')} |`);
  console.log(`| Ajv, in place | ${ratio('Validator', 'Ajv, in place').join(' | ')} |`);
  if (Base) console.log(`| the baseline | ${ratio('Validator', `Validator, baseline ${baseline}`).join(' | ')} |`);
  summary.push([name, m('Validator') / m('Ajv, copied through JSON'), m('Validator, from text') / m('Ajv, from text'), m('Validator') / m('Ajv, in place')]);
}
console.log('\n| catalog | × Ajv copied through JSON | × Ajv from text | × Ajv in place |');
console.log('|---|---:|---:|---:|');
for (const [name, a, b, c] of summary) console.log(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${c.toFixed(2)} |`);
