// The MCP conformance suite's server scenarios (all suites, spec
// 2025-11-25) against the gateway serving the conformance fixture tools.
// The suite needs Node 22: it runs with the `node` devDependency's binary.
// Scenario results are compared with conformance-baseline.json: a failure
// not listed there fails this test, and so does a listed one that passes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { conformanceSource } from '../../js/conformance-fixtures.mjs';
import { startGateway } from '../../js/gateway.mjs';
import { root } from './helpers.mjs';

const node22 = join(root, 'node_modules/node/bin/node');
const suite = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const baseline = JSON.parse(readFileSync(join(root, 'tests/js/conformance-baseline.json'), 'utf8')).expectedFailures;

/** scenario name → {passed, failed, failures: [messages]} from the suite's output directory. */
function readResults(dir) {
  const results = {};
  for (const entry of readdirSync(dir)) {
    const m = entry.match(/^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
    if (!m) continue;
    const checks = JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8'));
    const failures = checks.filter((c) => c.status === 'FAILURE');
    results[m[1]] = { passed: checks.filter((c) => c.status === 'SUCCESS').length, failed: failures.length, failures: failures.map((c) => `${c.id}: ${c.errorMessage}`) };
  }
  return results;
}

test('conformance server scenarios match the baseline', { timeout: 300_000 }, async (t) => {
  assert.ok(existsSync(node22), 'node_modules/node/bin/node (the node@22 devDependency) is missing: run npm ci');
  assert.ok(existsSync(suite), '@modelcontextprotocol/conformance is missing: run npm ci');
  for (const [scenario, reason] of Object.entries(baseline)) assert.ok(reason.trim().length > 10, `baseline entry ${scenario} needs a reason`);

  const gateway = await startGateway({ source: conformanceSource(), timeoutMs: 10_000 });
  const out = mkdtempSync(join(tmpdir(), 'switchboard-conformance-'));
  try {
    // the suite's exit code reflects failures; the results directory is what we read
    const run = await promisify(execFile)(node22, [suite, 'server', '--url', gateway.url, '--suite', 'all', '--spec-version', '2025-11-25', '-o', out], {
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((e) => e);
    const results = readResults(out);
    const scenarios = Object.keys(results);
    assert.ok(scenarios.length >= 30, `the suite ran ${scenarios.length} scenarios:\n${run.stdout}\n${run.stderr}`);

    const unexpected = scenarios.filter((s) => results[s].failed > 0 && !(s in baseline));
    const nowPassing = Object.keys(baseline).filter((s) => s in results && results[s].failed === 0);
    const missing = Object.keys(baseline).filter((s) => !(s in results));
    const report = [
      ...unexpected.map((s) => `new failure: ${s}\n    ${results[s].failures.join('\n    ')}`),
      ...nowPassing.map((s) => `passes now, remove it from conformance-baseline.json: ${s}`),
      ...missing.map((s) => `in the baseline but not run by the suite: ${s}`),
    ];
    assert.deepEqual(report, [], report.join('\n'));

    const passed = scenarios.filter((s) => results[s].failed === 0);
    for (const s of ['server-initialize', 'ping', 'tools-list', 'tools-call-simple-text', 'tools-call-error', 'json-schema-2020-12', 'dns-rebinding-protection']) {
      assert.ok(passed.includes(s), `${s} passes`);
    }
    t.diagnostic(`${passed.length} scenarios pass, ${scenarios.length - passed.length} fail as the baseline expects`);
  } finally {
    rmSync(out, { recursive: true, force: true });
    await gateway.close();
  }
});
