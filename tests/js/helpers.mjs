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
