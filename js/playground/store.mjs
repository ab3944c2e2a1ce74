// The catalog every panel works on, and who is told when it changes.
import { lint, readCatalog } from './switchboard.mjs';

/**
 * A catalog as the panels use it: read once by the package into its tools (every field kept), and
 * written again as one `{"tools": [...]}` document, so that the loss reports' JSON Pointers are
 * `/tools/<index>/...` whatever layout the catalog came in.
 */
export class Catalog {
  /**
   * @param {string | Uint8Array | object} input a tools/list response, its result, tools, or pages
   * @param {{ title: string, source: string, metadata?: object, queries?: string[], upstream?: object }} info
   */
  constructor(input, info) {
    const read = readCatalog(input);
    this.title = info.title;
    this.source = info.source;
    this.metadata = info.metadata;
    this.queries = info.queries ?? [];
    this.upstream = info.upstream ?? null;
    /** @type {import('../../pkg/full/slim.mjs').McpTool[]} */
    this.tools = read.tools;
    /** what reading it found (duplicates, invalid tools left out) */
    this.report = read.report;
    this.nextCursor = read.nextCursor;
    this.text = JSON.stringify({ tools: read.tools });
    this.bytes = typeof input === 'string' ? new TextEncoder().encode(input).length : input instanceof Uint8Array ? input.length : this.text.length;
    /** @type {import('../../pkg/full/slim.mjs').LintReport | undefined} */
    this.linted = undefined;
  }

  /** The package's lint of the catalog (findings and tokens per dialect), read once. */
  lint() {
    this.linted ??= lint(this.text);
    return this.linted;
  }

  /** @param {string} name */
  tool(name) {
    return this.tools.find((t) => t.name === name);
  }
}

/** Holds the current catalog and tells the panels when it changes. */
export class Store {
  /** @type {Catalog | null} */
  catalog = null;
  /** @type {((c: Catalog) => void)[]} */
  #listeners = [];

  /** @param {(c: Catalog) => void} fn */
  on(fn) {
    this.#listeners.push(fn);
  }

  /** @param {Catalog} catalog */
  set(catalog) {
    this.catalog = catalog;
    for (const fn of this.#listeners) fn(catalog);
  }
}
