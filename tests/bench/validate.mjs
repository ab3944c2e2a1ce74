#!/usr/bin/env node
// Validation throughput on the Homey catalog's argument shapes, through the
// wasm package, side by side with Ajv (compiled validators, the fastest JS
// validator) and a floor (JSON.stringify + JSON.parse of the arguments,
// the cost of handing them across any boundary). Run: node tests/bench/validate.mjs [--quick]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

import * as sb from '../../pkg/index.mjs';
import { corpus } from '../js/helpers.mjs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const addFormats = require('ajv-formats');

const quick = process.argv.includes('--quick');
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

const cases = tools.flatMap((t) => shapes(t).map((args) => ({ tool: t, args, json: JSON.stringify(args) })));
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

// outputs first: the Validator and validateArguments agree on every case,
// and with Ajv on which cases are valid
for (const c of cases) {
  const a = validator.validate(c.tool.name, c.args);
  const b = sb.validateArguments(c.tool, c.args);
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`Validator and validateArguments differ on ${c.tool.name} ${c.json}`);
  const ajvOk = runners['Ajv 8 (compiled, coerceTypes)'](c).ok;
  if (a.valid !== ajvOk) throw new Error(`Ajv says ${ajvOk}, mcp-switchboard ${a.valid} for ${c.tool.name} ${c.json}`);
}

const rounds = quick ? 3 : 15;
const perRound = quick ? 200 : 2000;
const times = Object.fromEntries(Object.keys(runners).map((k) => [k, []]));
for (let r = 0; r < rounds + 2; r++) {
  for (const [name, fn] of Object.entries(runners)) {
    const t0 = performance.now();
    for (let i = 0; i < perRound; i++) fn(cases[i % cases.length]);
    const dt = performance.now() - t0;
    if (r >= 2) times[name].push(dt / perRound);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const floor = median(times.floor);
console.log(`Validation of ${cases.length} argument shapes (${tools.length} Homey tools × valid / coercible / invalid), ${rounds} rounds of ${perRound} calls, median per call:\n`);
console.log('| validator | µs per call | calls per second | × floor |');
console.log('|---|---:|---:|---:|');
for (const [name, t] of Object.entries(times)) {
  const m = median(t);
  console.log(`| ${name} | ${(m * 1000).toFixed(2)} | ${Math.round(1000 / m).toLocaleString('en-US')} | ${(m / floor).toFixed(1)} |`);
}
