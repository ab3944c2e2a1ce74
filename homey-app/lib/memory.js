'use strict';

// V8 flags that keep the app's memory down. Homey stops an app above about
// 80 MB RSS, and an app cannot choose Node's command line, so they are set
// here at runtime: app.js requires this module first, before the package
// compiles its WebAssembly module. Each was measured with
// homey-app/test/bench.mjs on Node 18.20.8 (x86-64), RSS after 1,000 tool
// calls, see BENCHMARKS.md; flags that did not help there are left out
// (--no-wasm-tier-up: no change).

const v8 = require('v8');

const FLAGS = [
  // Compile each WebAssembly function when it is first called instead of
  // the whole 1 MB module when the package loads: 5–6 MB less RSS right
  // after require('mcp-switchboard'), 1–3 MB less after boot and after calls.
  '--wasm-lazy-compilation',
  // The young generation stays at its first size instead of growing to two
  // 16 MB semi-spaces under a steady stream of calls (the size limit itself,
  // --max-semi-space-size, is read only at startup): 11 MB less after calls
  // (86 instead of 97 MB), heap total 20 instead of 32 MB.
  '--semi-space-growth-factor=1',
  // The old generation grows by smaller steps and is compacted sooner:
  // 13–14 MB less after calls on its own (83–84 instead of 97 MB).
  '--optimize-for-size',
  // No TurboFan for JavaScript: the app's own JS is light (the work is in
  // WebAssembly, which keeps its own tiers), and optimized code and its
  // compiler's memory cost 3 MB after calls (mean of 4 runs each: 76 instead
  // of 79 MB with the flags above) with no CPU time per call measurably lost.
  '--no-opt',
];

for (const flag of FLAGS) v8.setFlagsFromString(flag);

module.exports = { FLAGS };
