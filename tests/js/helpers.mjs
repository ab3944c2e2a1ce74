// Paths shared by the JS tests.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const corpus = join(root, '../shared/corpus');
export const example = join(root, 'js/examples/home-assistant.tools-list.json');

/** Runs the CLI from the checkout; returns {status, stdout, stderr}. */
export function cli(args, input) {
  return spawnSync(process.execPath, [join(root, 'js/cli.mjs'), ...args], { input, encoding: 'utf8' });
}

/**
 * Takes `name VALUE` out of `argv` (a benchmark's arguments) and returns VALUE, or `dflt` when absent.
 * @param {string[]} argv changed in place
 * @param {string} name
 * @param {string} dflt
 */
export function takeOption(argv, name, dflt) {
  const i = argv.indexOf(name);
  if (i < 0) return dflt;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
}
