// Conversion options through the package and the command line: which tools
// keep strict mode (Anthropic's per-request limits, strictTools), and the
// report's "narrowed" entries.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import * as sb from '../../pkg/index.mjs';
import { cli, corpus } from './helpers.mjs';

const haMcp = readFileSync(join(corpus, 'ha-mcp-8.7.0.tools-list.json'), 'utf8');

/** The strict tools of a conversion, by name. */
const strictNames = (c) => c.tools.filter((t) => t.strict === true).map((t) => t.name);

test('Anthropic strict mode stays within the per-request limits, and says why a tool is not strict', () => {
  const c = sb.convert(haMcp, { to: 'anthropic', strict: true });
  const strict = strictNames(c);
  assert.ok(strict.length > 0 && strict.length <= 20, `${strict.length} strict tools`);
  const limits = c.report.filter((e) => e.action === 'not_strict' && /Anthropic/.test(e.detail));
  assert.ok(limits.length > 0);
  for (const t of c.tools) {
    if (t.strict) continue;
    assert.ok(c.report.some((e) => e.tool === c.names[t.name] && e.action === 'not_strict'), `${t.name} fell back silently`);
  }
});

test('strictTools chooses the strict tools and their order', () => {
  const wanted = ['ha_call_service', 'ha_restart', 'ha_get_app', 'not_a_tool'];
  const c = sb.convert(haMcp, { to: 'anthropic', strict: true, strictTools: wanted });
  const strict = strictNames(c);
  assert.ok(strict.every((n) => wanted.includes(n)), strict.join(', '));
  assert.ok(strict.includes('ha_restart') && strict.includes('ha_get_app'));
  // ha_call_service has an open map: it cannot be strict, and the report says so
  assert.ok(!strict.includes('ha_call_service'));
  assert.ok(c.report.some((e) => e.tool === 'ha_call_service' && e.action === 'not_strict' && /open object/.test(e.detail)));
  assert.ok(c.report.some((e) => e.tool === 'ha_list_floors_areas' && /chosen for strict mode/.test(e.detail)));
  assert.ok(c.report.some((e) => e.tool === null && /not_a_tool/.test(e.detail)));
  // the same for OpenAI, where only the choice applies
  const o = sb.convert(haMcp, { to: 'openai', strict: true, strictTools: ['ha_restart'] });
  assert.deepEqual(o.tools.filter((t) => t.function.strict).map((t) => t.function.name), ['ha_restart']);
});

test('the command line takes --strict-tools', () => {
  const r = cli(['convert', '--to', 'anthropic', '--strict', '--strict-tools', 'ha_restart,ha_get_app', join(corpus, 'ha-mcp-8.7.0.tools-list.json')]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(strictNames(JSON.parse(r.stdout)).sort(), ['ha_get_app', 'ha_restart']);
});

test('narrowed entries name what a dialect cannot carry', () => {
  const github = readFileSync(join(corpus, 'github-mcp-server.tools-list.json'), 'utf8');
  const c = sb.convert(github, { to: 'gemini' });
  const value = c.report.filter((e) => e.tool === 'projects_write' && e.action === 'narrowed');
  assert.ok(value.some((e) => e.pointer.endsWith('/updated_field/oneOf/0/properties/value/type')));
  // null stays possible: "null clears the field"
  const decl = c.tools[0].functionDeclarations.find((d) => d.name === 'projects_write');
  assert.equal(decl.parameters.properties.updated_field.anyOf[0].properties.value.nullable, true);
});
