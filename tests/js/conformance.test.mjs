// The MCP conformance suites' server scenarios (all suites) against the
// gateway serving the conformance fixtures: suite 0.1.16 at spec
// 2025-11-25, and 0.2.0-alpha.12 (the `conformance-2026` devDependency) at
// 2025-11-25 and 2026-07-28. The suites need Node 22: they run with the
// `node` devDependency's binary. Scenario results are compared with
// conformance-baseline.json: a failure not listed there fails this test,
// and so does a listed one that passes.
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
const suites = {
  '0.1.16': join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  '0.2.0-alpha.12': join(root, 'node_modules/conformance-2026/dist/index.js'),
};
/** @type {{ [run: string]: { [scenario: string]: string } }} */
const baselines = JSON.parse(readFileSync(join(root, 'tests/js/conformance-baseline.json'), 'utf8')).runs;

/** suite version, spec revision, the fewest scenarios it runs, scenarios that must pass */
const RUNS = [
  ['0.1.16', '2025-11-25', 30, ['server-initialize', 'ping', 'tools-list', 'tools-call-simple-text', 'tools-call-error', 'json-schema-2020-12', 'dns-rebinding-protection', 'resources-read-text', 'prompts-get-with-args', 'tools-call-with-progress', 'tools-call-elicitation']],
  ['0.2.0-alpha.12', '2025-11-25', 30, ['server-initialize', 'tools-list', 'tools-call-sampling', 'completion-complete']],
  ['0.2.0-alpha.12', '2026-07-28', 35, ['server-stateless', 'http-header-validation', 'caching', 'tools-call-simple-text', 'input-required-result-multi-round', 'input-required-result-tampered-state']],
];

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

for (const [version, spec, fewest, mustPass] of RUNS) {
  const run = `${version} ${spec}`;
  test(`conformance ${run}: server scenarios match the baseline`, { timeout: 300_000 }, async (t) => {
    const suite = suites[/** @type {keyof typeof suites} */ (version)];
    const baseline = baselines[run];
    assert.ok(existsSync(node22), 'node_modules/node/bin/node (the node@22 devDependency) is missing: run npm ci');
    assert.ok(existsSync(suite), `the conformance suite ${version} is missing: run npm ci`);
    assert.ok(baseline, `conformance-baseline.json has no entry for ${run}`);
    for (const [scenario, reason] of Object.entries(baseline)) assert.ok(reason.trim().length > 10, `baseline entry ${scenario} needs a reason`);

    const gateway = await startGateway({ source: conformanceSource(), timeoutMs: 10_000 });
    const out = mkdtempSync(join(tmpdir(), 'switchboard-conformance-'));
    try {
      // the suite's exit code reflects failures; the results directory is what we read
      const ran = await promisify(execFile)(node22, [suite, 'server', '--url', gateway.url, '--suite', 'all', '--spec-version', spec, '-o', out], {
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((e) => e);
      const results = readResults(out);
      const scenarios = Object.keys(results);
      assert.ok(scenarios.length >= fewest, `the suite ran ${scenarios.length} scenarios:\n${ran.stdout}\n${ran.stderr}`);

      const unexpected = scenarios.filter((s) => results[s].failed > 0 && !(s in baseline));
      const nowPassing = Object.keys(baseline).filter((s) => s in results && results[s].failed === 0);
      const missing = Object.keys(baseline).filter((s) => !(s in results));
      const report = [
        ...unexpected.map((s) => `new failure: ${s}\n    ${results[s].failures.join('\n    ')}`),
        ...nowPassing.map((s) => `passes now, remove it from conformance-baseline.json (${run}): ${s}`),
        ...missing.map((s) => `in the baseline but not run by the suite: ${s}`),
      ];
      assert.deepEqual(report, [], report.join('\n'));

      const passed = scenarios.filter((s) => results[s].failed === 0);
      for (const s of mustPass) assert.ok(passed.includes(s), `${s} passes`);
      t.diagnostic(`${passed.length} scenarios pass, ${scenarios.length - passed.length} fail as the baseline expects`);
    } finally {
      rmSync(out, { recursive: true, force: true });
      await gateway.close();
    }
  });
}
