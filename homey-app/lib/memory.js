'use strict';

// V8 flags that keep the app's memory down. Homey stops an app above about
// 80 MB RSS, and an app cannot choose Node's command line, so they are set
// here at runtime: app.js requires this module first, before the package
// compiles its WebAssembly module. Each was measured with
// homey-app/test/bench.mjs on Node 18.20.8 (x86-64), RSS after 1,000 tool
// calls, see BENCHMARKS.md; flags that did not help there are left out
// (--no-wasm-tier-up: no change, as dynamic tiering still tiers up).

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
  // WebAssembly runs on V8's baseline compiler (Liftoff) only. Otherwise
  // functions that run often (building the search index, searching) are
  // compiled again by TurboFan in the background, and that compiler's
  // memory stays with the process: 8–9 MB less RSS after boot and after
  // calls (60 instead of 69 MB after boot). No CPU time lost in the bench:
  // 3.5–4.0 ms per call either way, and in a separate check the engine's
  // load and index took 80–93 instead of 134–188 ms of CPU and one
  // search_tools call 139–185 instead of 169–237 µs (TurboFan's compile
  // time is not earned back over 2,000 searches).
  '--liftoff-only',
  // No TurboFan for JavaScript: the app's own JS is light (the work is in
  // WebAssembly, which keeps its own tiers), and optimized code and its
  // compiler's memory cost 3 MB after calls (mean of 4 runs each: 76 instead
  // of 79 MB with the flags above) with no CPU time per call measurably lost.
  '--no-opt',
];

for (const flag of FLAGS) v8.setFlagsFromString(flag);

module.exports = { FLAGS };
