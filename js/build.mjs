#!/usr/bin/env node
// Builds the npm package into pkg/: the wasm modules (cargo + wasm-bindgen,
// then wasm-opt from npm's binaryen), the checked JS API derived from the
// module's TypeScript declarations (js/checked-api.mjs), the entries for
// Node (CommonJS and ESM, one instance), browsers and bundlers (top-level
// await) and explicit loading (slim), the CLI and the manifest.
//
// pkg/
//   mcp_switchboard_bg.wasm  the module, once
//   slim.mjs  slim.cjs       the checked API; init()/initSync() load the module
//   index.cjs                Node require(): loads the module at once
//   index.mjs                Node import: the same instance as index.cjs
//   browser.mjs              everything else: loads the module with top-level await
//   lib/glue.mjs             wasm-bindgen's glue (imported by slim.mjs; slim.cjs bundles it)
//   *.d.mts *.d.cts          the declarations (slim.d.mts and slim.d.cts in full)
//   gateway.mjs gateway.cjs   mcp-switchboard/gateway: the gateway library (Node), typed by tsc from its JSDoc
//   web.mjs web.cjs          mcp-switchboard/web: the web tools (Node), typed by tsc from its JSDoc
//   web/                     the web tools' own module: mcp_switchboard_web_bg.wasm, lib/glue.mjs,
//                            slim.* (its checked API) and wasm.cjs, wasm.mjs (loaded at once)
//   chat.mjs                 runChat(): a Conversation run with the caller's fetch and callTool (re-exported by slim.mjs)
//   full/                    mcp-switchboard/full: the package's API and the MCP machinery (Engine, HttpGate,
//                            UpstreamClient), on a module of its own (mcp_switchboard_full_bg.wasm, lib/glue.mjs,
//                            slim.*, index.*, browser.mjs, chat.mjs); the gateway runs on it
//   cli.mjs + the gateway modules, examples/, README.md (js/README.npm.md), LICENSE
//   playground/              the playground page, served by `mcp-switchboard playground` (js/build-playground.mjs);
//                            the package ships it without its copy of the module (the CLI serves the package's)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import ts from 'typescript';

import { buildPlayground } from './build-playground.mjs';
import { INIT_TYPES, apiModule, exportNames, readSignatures } from './checked-api.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = join(root, 'pkg');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
const write = (file, text, mode) => writeFileSync(join(pkg, file), text, mode ? { mode } : undefined);

const cargoToml = readFileSync(join(root, 'Cargo.toml'), 'utf8');
const version = cargoToml.match(/^version = "([^"]+)"/m)[1];
const wantBindgen = cargoToml.match(/^wasm-bindgen = \{ version = "=([^"]+)"/m)[1];
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
const wasmOpt = join(root, 'node_modules/.bin/wasm-opt');
const esbuild = join(root, 'node_modules/esbuild/lib/main.js');
if (!existsSync(wasmOpt) || !existsSync(esbuild)) {
  console.error('node_modules is missing binaryen or esbuild: run npm ci');
  process.exit(1);
}

// the modules: cargo + wasm-bindgen (the web target's glue, ESM, loaded by
// init(); from the nodejs target, the declarations of the API alone), then
// wasm-opt, each into its own directory of tmp
const tmp = mkdtempSync(join(tmpdir(), 'switchboard-build-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const built = join(root, 'target/wasm32-unknown-unknown/release/mcp_switchboard.wasm');
function compile(stem, features) {
  run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown', ...(features ? ['--features', features] : [])]);
  const wasm = join(tmp, `${stem}.wasm`);
  cpSync(built, wasm);
  // --no-demangle: the symbol names stay mangled for wasm-opt's ordering by name (below)
  run('wasm-bindgen', ['--target', 'web', '--omit-default-module-path', '--no-demangle', '--out-dir', join(tmp, stem, 'web'), wasm]);
  run('wasm-bindgen', ['--target', 'nodejs', '--out-dir', join(tmp, stem, 'node'), wasm]);
}
compile('mcp_switchboard', 'js');
compile('mcp_switchboard_web', 'web-module');
compile('mcp_switchboard_full', 'full');

rmSync(pkg, { recursive: true, force: true });
mkdirSync(join(pkg, 'lib'), { recursive: true });
mkdirSync(join(pkg, 'web/lib'), { recursive: true });
mkdirSync(join(pkg, 'full/lib'), { recursive: true });
const { build } = await import(pathToFileURL(esbuild).href);

/**
 * One module into pkg/`dir`: the optimised wasm, the glue (lib/glue.mjs),
 * the declarations (slim.d.mts, slim.d.cts: wasm-bindgen's with init() and
 * initSync(), and `imports` before them), and the checked API (slim.mjs,
 * slim.cjs), after checking that exports and declarations agree.
 * `probe(glue)` gives one of the module's objects.
 */
async function checkedModule(stem, dir, { title, imports = [], probe, beside }) {
  const wasmFile = join(pkg, dir, `${stem}_bg.wasm`);
  // only npm's binaryen (Debian's older wasm-opt emits modules that crash on load).
  // --low-memory-unused: rustc links the stack first (1 MB growing down from
  // 1 MB, the data after it), so the low 1 KB is only reached by a stack
  // already overflowing; knowing that, wasm-opt folds constant offsets into
  // the loads and stores (2.2 KB less gzipped). Then the functions are put
  // in the order of their mangled names (wasm-bindgen left them mangled):
  // a module's functions and a generic's instances side by side, which
  // gzip compresses better (the default module 4.8 KB less, the web
  // tools' 0.6 KB; ordered by the demangled names, 2.6 KB and 0.4 KB more)
  run(wasmOpt, ['-Oz', '--converge', '--low-memory-unused', '--reorder-functions-by-name', '--strip-producers', '--strip-target-features', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', join(tmp, stem, `web/${stem}_bg.wasm`), '-o', wasmFile]);
  cpSync(join(tmp, stem, `web/${stem}.js`), join(pkg, dir, 'lib/glue.mjs'));

  // without [Symbol.dispose] (it needs a lib not every project has; free() is there)
  const api = readFileSync(join(tmp, stem, `node/${stem}.d.ts`), 'utf8')
    .replace(/^\/\* (tslint:disable|eslint-disable) \*\/\n/gm, '')
    .replace(/^ *\[Symbol\.dispose\]\(\): void;\n/gm, '');
  const dts = (ext) => [`// ${title} Generated from the Rust sources (src/wasm/).`, ...imports.map((i) => i.replaceAll('.EXT', ext)), api, INIT_TYPES].join('\n');
  writeFileSync(join(pkg, dir, 'slim.d.mts'), dts('.mjs'));
  writeFileSync(join(pkg, dir, 'slim.d.cts'), dts('.cjs'));
  // the module's own exports: without init() and initSync(), which apiModule() writes
  const full = readSignatures(join(pkg, dir, 'slim.d.mts'));
  const sig = { ...full, functions: full.functions.filter((f) => f.name !== 'init' && f.name !== 'initSync') };
  readSignatures(join(pkg, dir, 'slim.d.cts'));

  // the module's own view: every export declared, with as many parameters as
  // declared, and the input limit the checks enforce
  const glue = await import(pathToFileURL(join(pkg, dir, 'lib/glue.mjs')).href);
  glue.initSync({ module: readFileSync(wasmFile) });
  const declaredNames = new Set([...sig.functions.map((f) => f.name), ...sig.classes.map((c) => c.name)]);
  const glueNames = Object.keys(glue).filter((n) => !n.startsWith('__') && n !== 'default' && n !== 'initSync');
  const mismatch = [...glueNames.filter((n) => !declaredNames.has(n)), ...[...declaredNames].filter((n) => !glueNames.includes(n))];
  if (mismatch.length > 0) throw new Error(`${stem}: exports and declarations differ: ${mismatch.join(', ')}`);
  for (const f of sig.functions) {
    if (glue[f.name].length !== f.params.length) throw new Error(`${f.name} takes ${glue[f.name].length} arguments but is declared with ${f.params.length}`);
  }
  for (const c of sig.classes) {
    if (glue[c.name].length !== c.ctor.length) throw new Error(`new ${c.name} takes ${glue[c.name].length} arguments but is declared with ${c.ctor.length}`);
    for (const m of c.methods) {
      const n = glue[c.name].prototype[m.name].length;
      if (n !== m.params.length) throw new Error(`${c.name}.${m.name} takes ${n} arguments but is declared with ${m.params.length}`);
    }
  }
  // the generated methods tell a freed object by wasm-bindgen's pointer field
  if (probe(glue).__wbg_ptr === undefined) throw new Error('wasm-bindgen objects no longer carry __wbg_ptr: update js/checked-api.mjs');
  const limit = glue.__inputLimit();

  // the checked API (ESM), and the same with the glue as one CommonJS file
  const wasmPath = dir ? `mcp-switchboard/${dir}/${stem}_bg.wasm` : `mcp-switchboard/${stem}_bg.wasm`;
  writeFileSync(join(pkg, dir, 'slim.mjs'), apiModule(sig, { glue: './lib/glue.mjs', limit, wasmPath }));
  // JS modules exported beside the checked API (each typed by tsc from its JSDoc)
  for (const file of beside ?? []) besideModule(dir, file);
  await build({
    entryPoints: [join(pkg, dir, 'slim.mjs')],
    outfile: join(pkg, dir, 'slim.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    target: 'node18',
    keepNames: true,
    logLevel: 'warning',
    banner: { js: '// The checked API and wasm-bindgen\'s glue as CommonJS (esbuild of slim.mjs and lib/glue.mjs).' },
  });
  return { sig, wasmFile };
}

/** tsc's options for declarations emitted from JSDoc, checked with --checkJs --strict first. */
const JSDOC = {
  allowJs: true,
  checkJs: true,
  strict: true,
  declaration: true,
  emitDeclarationOnly: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
};

/**
 * js/`file` into pkg/`dir` beside the checked API, re-exported by it: the
 * module (importing the API's types from './slim.mjs'), its declarations
 * emitted by tsc from its JSDoc (checked with --checkJs --strict first),
 * and `export *` lines in slim.mjs and its declarations.
 */
function besideModule(dir, file) {
  const out = join(pkg, dir, file);
  writeFileSync(out, readFileSync(join(root, 'js', file), 'utf8').replaceAll("'../pkg/slim.mjs'", "'./slim.mjs'"));
  // for Node and browsers alike: the DOM's fetch and AbortSignal, not Node's
  const program = ts.createProgram([out], { ...JSDOC, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'], types: [] });
  const problems = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  if (problems.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`js/${file}: its JSDoc types do not check:\n${ts.formatDiagnostics(problems, host)}`);
  }
  const dmts = out.replace(/\.mjs$/, '.d.mts');
  const text = `// Generated by tsc from the JSDoc of js/${file}.\n${readFileSync(dmts, 'utf8')}`;
  writeFileSync(dmts, text);
  writeFileSync(dmts.replace(/\.d\.mts$/, '.d.cts'), text.replaceAll("'./slim.mjs'", "'./slim.cjs'"));
  const stem = file.replace(/\.mjs$/, '');
  for (const [api, ext] of [['slim.mjs', 'mjs'], ['slim.d.mts', 'mjs'], ['slim.d.cts', 'cjs']]) {
    writeFileSync(join(pkg, dir, api), `${readFileSync(join(pkg, dir, api), 'utf8')}\nexport * from './${stem}.${ext}';\n`);
  }
}

// the default module, with runChat() (a Conversation run with the caller's
// fetch and callTool) beside it
const { sig, wasmFile } = await checkedModule('mcp_switchboard', '', {
  title: 'mcp-switchboard: MCP tools for every LLM dialect.',
  probe: (glue) => new glue.Validator('[]'),
  beside: ['chat.mjs'],
});
// mcp-switchboard/full: the default module's exports and the MCP machinery
// (the engine, the HTTP rules, the upstream client), and runChat()
const full = await checkedModule('mcp_switchboard_full', 'full', {
  title: 'mcp-switchboard/full: the package with the MCP engine, HTTP rules and upstream client.',
  probe: (glue) => new glue.SseParser(),
  beside: ['chat.mjs'],
});
// the web tools' module: its types of catalogs, tools and results are the package's
const web = await checkedModule('mcp_switchboard_web', 'web', {
  title: "mcp-switchboard/web: the web tools' WebAssembly module.",
  imports: [
    "import type { CallToolResult, CatalogInput, McpTool, SearchMetadata } from '../slim.EXT';",
    "export type { CallToolResult, CatalogInput, McpTool, SearchMetadata } from '../slim.EXT';",
  ],
  probe: (glue) => new glue.WebSearch({ query: 'probe' }),
});

/**
 * A CommonJS entry that loads a WebAssembly module at once: the checked API
 * of `./slim.cjs` with the module's bytes read from beside it, or (in a
 * bundle) from the installed package.
 */
function nodeLoader({ about, wasm, spec, entry, otherwise }) {
  return `'use strict';
// Node, require(): ${about}
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const api = require('./slim.cjs');

/** The module's bytes: next to this file, or (in a bundle) from the installed package. */
function wasmBytes() {
  try {
    return readFileSync(join(__dirname, '${wasm}'));
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
    let file;
    try {
      file = require.resolve('${spec}');
    } catch {
      throw new Error(\`${entry}: ${wasm} is neither next to \${__filename} nor installed; copy it there${otherwise}\`);
    }
    return readFileSync(file);
  }
}

api.initSync(wasmBytes());
module.exports = api;
`;
}

/**
 * The entries of a module whose WebAssembly loads when it is imported: index.cjs (Node, at once),
 * index.mjs (the same instance), browser.mjs (top-level await) and their declarations, in pkg/`dir`.
 */
function loadedEntries({ dir, wasm, entry, names, about, browser }) {
  const at = (file) => (dir ? `${dir}/${file}` : file);
  write(at('index.cjs'), nodeLoader({ about, wasm, spec: `${entry}/${wasm}`, entry, otherwise: `, or use ${entry}/slim with initSync(bytes)` }));
  write(
    at('index.mjs'),
    `// Node, import: the same module instance as require('${entry}').
import api from './index.cjs';

export const { ${names.join(', ')} } = api;
`,
  );
  write(
    at('browser.mjs'),
    `${browser}
import { init } from './slim.mjs';

await init(new URL('./${wasm}', import.meta.url));

export * from './slim.mjs';
`,
  );
  write(at('index.d.mts'), "export * from './slim.mjs';\n");
  write(at('browser.d.mts'), "export * from './slim.mjs';\n");
  write(at('index.d.cts'), "export * from './slim.cjs';\n");
}

const names = exportNames(sig);
loadedEntries({
  dir: '',
  wasm: 'mcp_switchboard_bg.wasm',
  entry: 'mcp-switchboard',
  names: [...names, 'runChat'],
  about: 'the checked API with the WebAssembly module loaded at once.',
  browser: `// Browsers, workers and bundlers: the checked API with the WebAssembly module
// loaded by top-level await, from the file next to this one (bundlers that
// understand new URL(..., import.meta.url), such as Vite and webpack 5, emit
// it as an asset). Without top-level await, use mcp-switchboard/slim.`,
});
// mcp-switchboard/full: its own module, loaded as the main entry's is
loadedEntries({
  dir: 'full',
  wasm: 'mcp_switchboard_full_bg.wasm',
  entry: 'mcp-switchboard/full',
  names: [...exportNames(full.sig), 'runChat'],
  about: 'the checked API with the MCP machinery, its WebAssembly module loaded at once.',
  browser: `// Browsers, workers and bundlers: mcp-switchboard/full with its WebAssembly module
// loaded by top-level await from the file next to this one.`,
});

// the web tools' module, loaded at once by whoever imports mcp-switchboard/web
// (its entry, web.mjs and web.cjs, imports web/wasm.mjs or requires web/wasm.cjs)
const webNames = exportNames(web.sig);
write(
  'web/wasm.cjs',
  nodeLoader({
    about: "the web tools' checked API with their WebAssembly module loaded at once.",
    wasm: 'mcp_switchboard_web_bg.wasm',
    spec: 'mcp-switchboard/web/mcp_switchboard_web_bg.wasm',
    entry: 'mcp-switchboard/web',
    otherwise: '',
  }),
);
write(
  'web/wasm.mjs',
  `// Node, import: the same module instance as web/wasm.cjs.
import api from './wasm.cjs';

export const { ${webNames.join(', ')} } = api;
`,
);
write('web/wasm.d.mts', "export * from './slim.mjs';\n");
write('web/wasm.d.cts', "export * from './slim.cjs';\n");

// the CLI and the modules it loads (the MCP gateway), importing the package from beside them
const library = ['gateway.mjs', 'dispatch.mjs', 'stdio.mjs', 'upstream.mjs'];
const shell = [...library, 'demo-home.mjs', 'web.mjs'];
for (const file of ['cli.mjs', ...shell]) {
  const text = readFileSync(join(root, 'js', file), 'utf8')
    .replaceAll("'../pkg/index.mjs'", "'./index.mjs'")
    .replaceAll("'../pkg/full/index.mjs'", "'./full/index.mjs'")
    .replaceAll("'../pkg/web/wasm.mjs'", "'./web/wasm.mjs'");
  write(file, text, file === 'cli.mjs' ? 0o755 : undefined);
}

// mcp-switchboard/gateway: the gateway library (gateway.mjs and the modules it
// re-exports). Its declarations are emitted by tsc from the JSDoc, which tsc
// checks against the code (--checkJs --strict) first; the CommonJS entry is
// the same modules bundled by esbuild, on the package's one CommonJS instance.
// mcp-switchboard/web (web.mjs) the same way, on the web tools' module.
{
  const options = { ...JSDOC, lib: ['lib.es2022.d.ts'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')] };
  const program = ts.createProgram(library.map((f) => join(pkg, f)), options);
  const emitted = program.emit();
  // web.mjs: its declarations from the JSDoc of its exports (its body is not checked)
  const webProgram = ts.createProgram([join(pkg, 'web.mjs')], { ...options, checkJs: false, strict: false });
  const webEmitted = webProgram.emit();
  const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics, ...webEmitted.diagnostics];
  if (problems.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`the gateway library's or the web tools' JSDoc types do not check:\n${ts.formatDiagnostics(problems, host)}`);
  }
  for (const file of [...library, 'web.mjs']) {
    const dmts = file.replace(/\.mjs$/, '.d.mts');
    const text = readFileSync(join(pkg, dmts), 'utf8');
    // Node's types come with the entry (a project need not list them)
    const head = `// Generated by tsc from the JSDoc of js/${file}.\n/// <reference types="node" />\n`;
    write(dmts, `${head}${text}`);
    write(dmts.replace(/\.d\.mts$/, '.d.cts'), `${head}${text.replace(/(from |import\()(['"])\.\/([\w/-]+)\.mjs\2/g, '$1$2./$3.cjs$2')}`);
  }
  await build({
    entryPoints: [join(pkg, 'gateway.mjs')],
    outfile: join(pkg, 'gateway.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node18',
    keepNames: true,
    logLevel: 'warning',
    banner: { js: "// mcp-switchboard/gateway as CommonJS (esbuild of gateway.mjs and the modules it imports); the package from require('./full/index.cjs')." },
    plugins: [
      {
        name: 'package-instance',
        setup(b) {
          b.onResolve({ filter: /^\.\/full\/index\.mjs$/ }, () => ({ path: './full/index.cjs', external: true }));
        },
      },
    ],
  });
  await build({
    entryPoints: [join(pkg, 'web.mjs')],
    outfile: join(pkg, 'web.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node18',
    keepNames: true,
    logLevel: 'warning',
    banner: { js: "// mcp-switchboard/web as CommonJS (esbuild of web.mjs); the web tools' module from require('./web/wasm.cjs')." },
    plugins: [
      {
        name: 'web-module-instance',
        setup(b) {
          b.onResolve({ filter: /^\.\/web\/wasm\.mjs$/ }, () => ({ path: './web/wasm.cjs', external: true }));
        },
      },
    ],
  });
}
cpSync(join(root, 'js/examples'), join(pkg, 'examples'), { recursive: true });
cpSync(join(root, 'js/README.npm.md'), join(pkg, 'README.md'));
cpSync(join(root, 'LICENSE'), join(pkg, 'LICENSE'));
await buildPlayground({ root, pkg });

const types = (file) => ({ types: `./${file.replace(/\.(c|m)js$/, '.d.$1ts')}`, default: `./${file}` });
const manifest = {
  name: 'mcp-switchboard',
  version,
  description: 'MCP tools for every LLM dialect (Gemini, OpenAI, Anthropic, VS Code, prompted): schema lowering with a loss report, tool calls and results, tool search and an MCP engine, in WebAssembly.',
  license: 'MIT',
  repository: { type: 'git', url: 'git+https://github.com/mcp-switchboard/mcp-switchboard.git' },
  homepage: 'https://github.com/mcp-switchboard/mcp-switchboard#readme',
  bugs: 'https://github.com/mcp-switchboard/mcp-switchboard/issues',
  type: 'commonjs',
  main: './index.cjs',
  types: './index.d.cts',
  // TypeScript's node10 resolution knows no exports map
  typesVersions: { '*': { slim: ['./slim.d.cts'], gateway: ['./gateway.d.cts'], web: ['./web.d.cts'], full: ['./full/index.d.cts'], 'full/slim': ['./full/slim.d.cts'] } },
  exports: {
    '.': {
      node: { import: types('index.mjs'), require: types('index.cjs') },
      default: types('browser.mjs'),
    },
    './slim': { import: types('slim.mjs'), require: types('slim.cjs') },
    // the package with the MCP engine, HTTP rules and upstream client: a module of its own
    './full': {
      node: { import: types('full/index.mjs'), require: types('full/index.cjs') },
      default: types('full/browser.mjs'),
    },
    './full/slim': { import: types('full/slim.mjs'), require: types('full/slim.cjs') },
    './full/mcp_switchboard_full_bg.wasm': './full/mcp_switchboard_full_bg.wasm',
    // Node only (node:http)
    './gateway': { import: types('gateway.mjs'), require: types('gateway.cjs') },
    // Node only (node:http, node:dns); its own WebAssembly module, loaded when imported
    './web': { import: types('web.mjs'), require: types('web.cjs') },
    './mcp_switchboard_bg.wasm': './mcp_switchboard_bg.wasm',
    './web/mcp_switchboard_web_bg.wasm': './web/mcp_switchboard_web_bg.wasm',
    './package.json': './package.json',
  },
  bin: { 'mcp-switchboard': 'cli.mjs' },
  // the playground without its copy of the module (a name without a slash would match it too)
  files: ['*.mjs', '*.cjs', '*.d.mts', '*.d.cts', 'lib/', '/mcp_switchboard_bg.wasm', 'web/', 'full/', 'examples/', 'playground/*.html', 'playground/*.css', 'playground/*.js', 'playground/catalogs/'],
  engines: { node: '>=18' },
  sideEffects: ['./index.cjs', './index.mjs', './browser.mjs', './cli.mjs', './web.mjs', './web.cjs', './web/wasm.cjs', './web/wasm.mjs', './full/index.cjs', './full/index.mjs', './full/browser.mjs'],
  keywords: ['mcp', 'model-context-protocol', 'llm', 'gemini', 'openai', 'anthropic', 'tool-calling', 'json-schema', 'wasm'],
};
write('package.json', JSON.stringify(manifest, null, 2) + '\n');

for (const [what, file] of [['wasm', wasmFile], ['web tools\' wasm', web.wasmFile], ['full wasm', full.wasmFile]]) {
  const bytes = readFileSync(file);
  console.log(`pkg/ built: ${what} ${(bytes.length / 1024).toFixed(0)} KB, ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(0)} KB gzipped`);
}
