#!/usr/bin/env node
// Builds the playground (js/playground/) into pkg/playground/: a static
// folder anyone can host, which `mcp-switchboard playground` serves. It runs
// on the package alone: the page's modules and the package's checked API are
// bundled by esbuild into app.js, the WebAssembly module sits beside it, and
// the bundled catalogs are read from the corpus beside the checkout
// (../shared/corpus/) and from the Homey app's tool definitions, minified
// into catalogs/. js/build.mjs calls it after pkg/ is built; on its own
// (`node js/build-playground.mjs`) it rebuilds the page from the pkg/ there.
//
// pkg/playground/
//   index.html  style.css  app.js   the page
//   mcp_switchboard_full_bg.wasm     the package's full module (a copy: the folder stands alone)
//   catalogs/index.json              the bundled catalogs: title, source, sample queries, files
//   catalogs/<id>.json               each catalog (and <id>.metadata.json: its search metadata)
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The catalogs the page offers, in the order it lists them: where each is read from (relative to the
 * checkout), what it is, and a few queries to try in its search (English, Dutch, German).
 */
const CATALOGS = [
  {
    id: 'home-assistant-2025.4',
    title: 'Home Assistant 2025.4',
    file: '../shared/corpus/home-assistant-2025.4.tools-list.json',
    about: "Home Assistant's own MCP server (the Assist API): intents such as HassTurnOn and HassLightSet.",
    queries: ['zet het licht aan in de woonkamer', 'set the thermostat to 21 degrees', 'Rollläden im Schlafzimmer schließen'],
  },
  {
    id: 'home-assistant-2026.11',
    title: 'Home Assistant 2026.11',
    file: '../shared/corpus/home-assistant-2026.11.tools-list.json',
    about: 'Home Assistant 2026.11: tools named <integration>__<Intent>, with titles, annotations and required parameters.',
    queries: ['turn off the kitchen lights', 'hoe warm is het in de slaapkamer', 'Timer für zehn Minuten stellen'],
  },
  {
    id: 'ha-mcp',
    title: 'ha-mcp 8.7.0',
    file: '../shared/corpus/ha-mcp-8.7.0.tools-list.json',
    about: 'The community Home Assistant MCP server (FastMCP): pydantic schemas with anyOf null, $defs and defaults.',
    queries: ['create an automation', 'welke apparaten hebben een lege batterij', 'Verlauf eines Sensors anzeigen'],
  },
  {
    id: 'homey',
    title: 'Homey app (this project)',
    file: 'homey-app/lib/tools.json',
    metadata: 'homey-app/lib/tools.metadata.json',
    about: "The tools of this project's Homey app, with its curated search metadata (Dutch and German keywords).",
    queries: ['dim the living room lamp to 30%', 'welke deuren staan open', 'Stromverbrauch heute'],
  },
  {
    id: 'github',
    title: 'GitHub MCP server',
    file: '../shared/corpus/github-mcp-server.tools-list.json',
    about: "GitHub's MCP server: 114 tools with annotations (MIT licence, (c) GitHub).",
    queries: ['open a pull request', 'comment on an issue', 'list the workflow runs'],
  },
  {
    id: 'notion',
    title: 'Notion MCP 2.5.2',
    file: '../shared/corpus/notion-mcp-2.5.2.tools-list.json',
    about: "Notion's MCP server, generated from an OpenAPI spec: $ref, oneOf, const and type arrays.",
    queries: ['search pages by title', 'add a comment to a page', 'query a database'],
  },
];

/** Minified JSON of a file (the page reads JSON of any layout; minified, it moves fewer bytes). */
const minified = (file) => JSON.stringify(JSON.parse(readFileSync(file, 'utf8')));

/** Every file under `dir`, with its size. */
function files(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/**
 * Builds the playground into `pkg`/playground from the package built in `pkg`.
 * @param {{ root: string, pkg: string, log?: (line: string) => void }} options
 * @returns {Promise<{ dir: string, bytes: number, gzipped: number }>}
 */
export async function buildPlayground({ root, pkg, log = console.log }) {
  const src = join(root, 'js/playground');
  const out = join(pkg, 'playground');
  for (const need of ['full/slim.mjs', 'full/lib/glue.mjs', 'full/mcp_switchboard_full_bg.wasm']) {
    if (!existsSync(join(pkg, need))) throw new Error(`pkg/${need} is missing: build the package first (node js/build.mjs)`);
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'catalogs'), { recursive: true });

  const { build } = await import(pathToFileURL(join(root, 'node_modules/esbuild/lib/main.js')).href);
  await build({
    entryPoints: [join(src, 'main.mjs')],
    outfile: join(out, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    banner: { js: '// mcp-switchboard playground (js/playground/ and the package, bundled by esbuild)' },
  });
  cpSync(join(src, 'index.html'), join(out, 'index.html'));
  cpSync(join(src, 'style.css'), join(out, 'style.css'));
  cpSync(join(pkg, 'full/mcp_switchboard_full_bg.wasm'), join(out, 'mcp_switchboard_full_bg.wasm'));

  const index = [];
  for (const c of CATALOGS) {
    const file = join(root, c.file);
    if (!existsSync(file)) {
      log(`playground: ${c.file} is missing; the page is built without ${c.title}`);
      continue;
    }
    writeFileSync(join(out, 'catalogs', `${c.id}.json`), minified(file));
    const entry = { id: c.id, title: c.title, about: c.about, queries: c.queries, file: `catalogs/${c.id}.json` };
    if (c.metadata) {
      writeFileSync(join(out, 'catalogs', `${c.id}.metadata.json`), minified(join(root, c.metadata)));
      entry.metadata = `catalogs/${c.id}.metadata.json`;
    }
    index.push(entry);
  }
  writeFileSync(join(out, 'catalogs/index.json'), JSON.stringify(index));

  let bytes = 0;
  let gzipped = 0;
  for (const f of files(out)) {
    const body = readFileSync(f);
    bytes += body.length;
    gzipped += gzipSync(body, { level: 9 }).length;
  }
  log(`pkg/playground built: ${index.length} catalogs, ${(bytes / 1024).toFixed(0)} KB, ${(gzipped / 1024).toFixed(0)} KB gzipped (${relative(root, out)})`);
  return { dir: out, bytes, gzipped };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  await buildPlayground({ root, pkg: join(root, 'pkg') });
}
