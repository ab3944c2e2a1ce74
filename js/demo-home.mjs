// A simulated home for `serve --demo`: zones, lights, a thermostat, a
// speaker, a socket, a door sensor and flows, kept in memory, behind tools
// shaped like the Homey app's (examples/demo-home.tools-list.json).
import { readFileSync } from 'node:fs';

import { toolFailure, toolSuccess } from '../pkg/full/index.mjs';
import { handlerSource } from './dispatch.mjs';
import { simulatedHome } from './simulated-home.mjs';

/** The demo home's tools/list response (text). */
export const demoCatalog = readFileSync(new URL('./examples/demo-home.tools-list.json', import.meta.url), 'utf8');

/**
 * A fresh simulated home: its catalog and the handlers that act on its
 * in-memory state.
 * @returns {{catalog: string, handlers: Record<string, (args: object) => object>, home: object, source: import('./dispatch.mjs').ToolSource}}
 */
export function createDemoHome() {
  const { handlers, home } = simulatedHome({ toolSuccess, toolFailure });
  return { catalog: demoCatalog, handlers, home, source: handlerSource(demoCatalog, handlers, 'demo home') };
}
