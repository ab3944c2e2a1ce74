// The npm Validator on wide arguments: the time of one call grows
// linearly with the members, items and enum values of a JS object (it
// once searched names and enum values one by one: 8,000 items against an
// 8,000-value enum took 660 ms). Nothing here compares a time with a
// threshold: the same shape at n and 4n, the best of three CPU timings
// each; linear work gives about 4, quadratic 16, and the test allows 10.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as sb from '../../pkg/index.mjs';

/** CPU milliseconds of `f()`, the best of three. */
function cpu(f) {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = process.cpuUsage();
    f();
    const t = process.cpuUsage(t0);
    best = Math.min(best, (t.user + t.system) / 1000);
  }
  return best;
}

/** `n` members `p0`, `p1`, … with the schema `each(i)` and the value `arg(i)`. */
function members(n, each, arg, rest = {}) {
  const properties = {};
  const args = {};
  for (let i = 0; i < n; i++) {
    properties[`p${i}`] = each(i);
    args[`p${i}`] = arg(i);
  }
  return { schema: { type: 'object', properties, ...rest }, args };
}

/** An array member of `n` items against an `n`-value enum of strings. */
function itemsInEnum(n, prefix) {
  const values = Array.from({ length: n }, (_, i) => `v${i}`);
  const items = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  return { schema: { type: 'object', properties: { a: { type: 'array', items: { enum: values } } } }, args: { a: items } };
}

const SHAPES = {
  'n properties': (n) => ({ ...members(n, () => ({ type: 'string' }), () => 'x'), valid: true }),
  'n properties, all required': (n) => ({
    ...members(n, () => ({ type: 'string' }), () => 'x', { required: Array.from({ length: n }, (_, i) => `p${i}`) }),
    valid: true,
  }),
  'n items of an n-value enum': (n) => ({ ...itemsInEnum(n, 'v'), valid: true }),
  'n items not in an n-value enum': (n) => ({ ...itemsInEnum(n, 'w'), valid: false }),
  'n properties, an enum each': (n) => ({
    ...members(n, (i) => ({ enum: Array.from({ length: 10 }, (_, j) => `e${i}_${j}`) }), (i) => `e${i}_9`),
    valid: true,
  }),
  'n integers sent as strings': (n) => ({ ...members(n, () => ({ type: 'integer' }), (i) => String(i)), valid: true }),
};

for (const [what, shape] of Object.entries(SHAPES)) {
  test(`Validator.validate is linear: ${what}`, () => {
    const time = (n) => {
      const { schema, args, valid } = shape(n);
      const validator = new sb.Validator(JSON.stringify([{ name: 't', inputSchema: schema }]));
      assert.equal(validator.validate('t', args).valid, valid, what);
      // a few calls, so that the smaller time is well above the clock's grain
      return cpu(() => {
        for (let i = 0; i < 3; i++) validator.validate('t', args);
      });
    };
    const n = 2000;
    const small = time(n);
    const large = time(4 * n);
    const ratio = large / Math.max(small, 0.01);
    assert.ok(ratio < 10, `${what}: ${small.toFixed(1)} ms at n = ${n}, ${large.toFixed(1)} ms at 4n: ${ratio.toFixed(1)}× (linear is about 4, quadratic 16)`);
  });
}
