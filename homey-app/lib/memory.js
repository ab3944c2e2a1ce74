'use strict';

// V8 flags that keep the app's memory down. Homey stops an app above about
// 80 MB RSS, and an app cannot choose Node's command line, so they are set
// here at runtime: app.js requires this module first, before the package
// compiles its WebAssembly module. Measured with homey-app/test/bench.mjs on
// Node 18.20.8 (x86-64), see BENCHMARKS.md: with all of them the app's RSS
// is 60.6 MB after boot and 68.0 MB after 1,000 tool calls, without any
// 71.3 and 96.2 MB. Each comment says what leaving that one flag out costs
// (RSS after boot / after 1,000 calls, mean of two runs). Flags that did not
// help are left out (--no-wasm-tier-up: dynamic tiering still tiers up;
// --single-threaded-gc, --wasm-num-compilation-tasks=0: no change).

const v8 = require('v8');

const FLAGS = [
  // Compile each WebAssembly function when it is first called instead of
  // the whole 1 MB module when the package loads (6 MB less right after
  // require('mcp-switchboard/full')): without it 65.4 / 74.8 MB.
  '--wasm-lazy-compilation',
  // WebAssembly on V8's baseline compiler (Liftoff) only. Otherwise the
  // functions that run often (building the search index, searching) are
  // compiled again by TurboFan in the background, and that compiler's
  // memory stays with the process: without it 68.9 / 75.3 MB. In a
  // separate check the engine's load and index took 80–93 instead of
  // 134–188 ms of CPU and one search_tools call 139–185 instead of
  // 169–237 µs: TurboFan's compile time is not earned back over 2,000
  // searches.
  '--liftoff-only',
  // No TurboFan for JavaScript: the app's own JS is light (the work is in
  // WebAssembly), and optimized code and its compiler's memory cost more
  // than it saves: without it 63.4 / 77.2 MB.
  '--no-opt',
  // The young generation stays at its first size instead of growing to two
  // 16 MB semi-spaces under a steady stream of calls (the size limit itself,
  // --max-semi-space-size, is read only at startup): without it
  // 61.8 / 71.3 MB.
  '--semi-space-growth-factor=1',
  // The old generation grows by smaller steps and is compacted sooner:
  // without it 60.9 / 71.1 MB.
  '--optimize-for-size',
];

for (const flag of FLAGS) v8.setFlagsFromString(flag);

module.exports = { FLAGS };
