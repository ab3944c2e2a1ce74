#!/usr/bin/env node
// Cold import of one or more built packages side by side: fresh `node`
// processes, alternating between the packages (the order reversed every
// round), each timing `await import('<pkg>/index.mjs')` alone. Prints the
// median and minimum per package, and the load average before and after.
// For checking that a change leaves the cold import where it was, when the
// machine's noise moves the absolute numbers from run to run.
//
//   node tests/bench/cold-import.mjs PKG_DIR [PKG_DIR ...] [--rounds N]   (default 31)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { takeOption } from '../js/helpers.mjs';

const argv = process.argv.slice(2);
const rounds = Number(takeOption(argv, '--rounds', '31'));
const dirs = argv.map((d) => resolve(d));
if (dirs.length < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node tests/bench/cold-import.mjs PKG_DIR [PKG_DIR ...] [--rounds N]');
  process.exit(1);
}
const load = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  } catch {
    return '?';
  }
};
const before = load();
const times = dirs.map(() => []);
for (let r = 0; r < rounds; r++) {
  const order = dirs.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const i of order) {
    const entry = pathToFileURL(join(dirs[i], 'index.mjs')).href;
    const code = `const t = performance.now(); await import(${JSON.stringify(entry)}); console.log(performance.now() - t);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    const ms = Number(child.stdout.trim());
    if (child.status !== 0 || !Number.isFinite(ms)) {
      console.error(`${dirs[i]}: the import failed\n${child.stderr}`);
      process.exit(1);
    }
    times[i].push(ms);
  }
}
console.log(`Cold \`await import\`, ${rounds} fresh processes per package, alternating; load average ${before} before, ${load()} after\n`);
console.log('| package | median ms | min ms |\n|---|---:|---:|');
dirs.forEach((d, i) => {
  const t = times[i].sort((a, b) => a - b);
  console.log(`| ${d} | ${t[t.length >> 1].toFixed(1)} | ${t[0].toFixed(1)} |`);
});
