#!/usr/bin/env node
// Builds the npm package into pkg/: the wasm module (cargo + wasm-bindgen,
// then wasm-opt from npm's binaryen when installed), the Node (CommonJS and
// ESM) and browser entries, the CLI and the package manifest.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = join(root, 'pkg');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });

const cargoToml = readFileSync(join(root, 'Cargo.toml'), 'utf8');
const version = cargoToml.match(/^version = "([^"]+)"/m)[1];
const wantBindgen = cargoToml.match(/^wasm-bindgen = "=([^"]+)"/m)[1];
let haveBindgen = '';
try {
  haveBindgen = execFileSync('wasm-bindgen', ['--version'], { encoding: 'utf8' }).trim().split(' ')[1];
} catch {
  /* reported below */
}
if (haveBindgen !== wantBindgen) {
  console.error(`wasm-bindgen ${wantBindgen} is needed (found ${haveBindgen || 'none'}): cargo install wasm-bindgen-cli --version ${wantBindgen}`);
  process.exit(1);
}

run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown']);
const wasm = join(root, 'target/wasm32-unknown-unknown/release/mcp_switchboard.wasm');

rmSync(pkg, { recursive: true, force: true });
mkdirSync(pkg, { recursive: true });
for (const [target, dir, type] of [['nodejs', 'node', 'commonjs'], ['web', 'web', 'module']]) {
  run('wasm-bindgen', ['--target', target, '--out-dir', join(pkg, dir), wasm]);
  writeFileSync(join(pkg, dir, 'package.json'), JSON.stringify({ type }, null, 2) + '\n');
}

// wasm-opt: only npm's binaryen (Debian's older wasm-opt emits modules that crash on load)
const wasmOpt = join(root, 'node_modules/.bin/wasm-opt');
if (existsSync(wasmOpt)) {
  for (const dir of ['node', 'web']) {
    const file = join(pkg, dir, 'mcp_switchboard_bg.wasm');
    run(wasmOpt, ['-Oz', '--converge', '--strip-producers', '--strip-target-features', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', file, '-o', file]);
  }
} else {
  console.warn('node_modules/.bin/wasm-opt not found (npm ci installs it): the module is not size-optimised');
}

// Node ESM entry: the CommonJS module's exports, by name
const require = createRequire(import.meta.url);
const names = Object.keys(require(join(pkg, 'node/mcp_switchboard.js'))).filter((n) => !n.startsWith('__'));
writeFileSync(
  join(pkg, 'index.mjs'),
  `import { createRequire } from 'node:module';\nconst m = createRequire(import.meta.url)('./node/mcp_switchboard.js');\nexport const { ${names.join(', ')} } = m;\n`,
);
writeFileSync(join(pkg, 'index.cjs'), "module.exports = require('./node/mcp_switchboard.js');\n");
writeFileSync(join(pkg, 'index.d.ts'), "export * from './node/mcp_switchboard.js';\n");
writeFileSync(
  join(pkg, 'browser.mjs'),
  `import init from './web/mcp_switchboard.js';\nawait init({ module_or_path: new URL('./web/mcp_switchboard_bg.wasm', import.meta.url) });\nexport * from './web/mcp_switchboard.js';\n`,
);
writeFileSync(join(pkg, 'browser.d.ts'), "export * from './web/mcp_switchboard.js';\n");
// the CLI and the modules it loads (the MCP gateway), importing the package from beside them
const shell = ['dispatch.mjs', 'gateway.mjs', 'stdio.mjs', 'upstream.mjs', 'demo-home.mjs', 'conformance-fixtures.mjs'];
for (const file of ['cli.mjs', ...shell]) {
  const text = readFileSync(join(root, 'js', file), 'utf8').replaceAll("'../pkg/index.mjs'", "'./index.mjs'");
  writeFileSync(join(pkg, file), text, file === 'cli.mjs' ? { mode: 0o755 } : undefined);
}
cpSync(join(root, 'js/examples'), join(pkg, 'examples'), { recursive: true });
cpSync(join(root, 'README.md'), join(pkg, 'README.md'));

const manifest = {
  name: 'mcp-switchboard',
  version,
  description: 'MCP tools for every LLM dialect (Gemini, OpenAI, Anthropic, VS Code, prompted): schema lowering with a loss report, in WebAssembly.',
  license: 'MIT',
  main: './index.cjs',
  module: './browser.mjs',
  types: './index.d.ts',
  exports: {
    '.': {
      browser: { types: './browser.d.ts', default: './browser.mjs' },
      node: { types: './index.d.ts', import: './index.mjs', require: './index.cjs' },
      types: './browser.d.ts',
      default: './browser.mjs',
    },
    './package.json': './package.json',
  },
  bin: { 'mcp-switchboard': './cli.mjs' },
  files: ['index.cjs', 'index.mjs', 'index.d.ts', 'browser.mjs', 'browser.d.ts', 'cli.mjs', ...shell, 'node/', 'web/', 'examples/', 'README.md'],
  engines: { node: '>=18' },
  sideEffects: ['./browser.mjs'],
  keywords: ['mcp', 'llm', 'gemini', 'openai', 'anthropic', 'json-schema', 'wasm'],
};
writeFileSync(join(pkg, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');

const size = readFileSync(join(pkg, 'node/mcp_switchboard_bg.wasm'));
console.log(`pkg/ built: wasm ${(size.length / 1024).toFixed(0)} KB, ${(gzipSync(size, { level: 9 }).length / 1024).toFixed(0)} KB gzipped`);
