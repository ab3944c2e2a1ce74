// Paths shared by the JS tests.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
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
 * Runs the packaged CLI (pkg/cli.mjs) asynchronously with only PATH and `env` in its environment (a model's key
 * comes from there); resolves with {code, stdout, stderr}.
 * @param {string[]} args
 * @param {{ [name: string]: string }} [env]
 */
export function runPackaged(args, env = {}) {
  const child = spawn(process.execPath, [join(root, 'pkg/cli.mjs'), ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return once(child, 'exit').then(([code]) => ({ code, stdout, stderr }));
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
