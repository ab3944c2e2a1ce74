'use strict';

// The optional web tools (web_fetch, web_search) from the package's own
// module for them (mcp-switchboard/web), loaded only once the setting is on:
// a hub that does not use them does not compile that module. The package
// decides everything about them (addresses refused, redirects, charsets,
// HTML to Markdown, the search service's replies, their search metadata in
// category "web"); this module only asks for them.

let web = null;

/** The package's web tools module, loaded at the first use. */
function load() {
  web ??= require('mcp-switchboard/web');
  return web;
}

/**
 * The built-in and Flow tools with the web tools added after them (a tool of
 * the same name keeps the app's), the search metadata with theirs, and their
 * handlers by name.
 * @param {object[]} tools
 * @param {object} metadata the app's search metadata
 * @returns {{tools: object[], metadata: object, handlers: Record<string, Function>}}
 */
function withWebTools(tools, metadata) {
  const w = load();
  const merged = w.mergeWebTools(JSON.stringify({ tools }), { metadata });
  const { handlers } = w.webTools({});
  const names = new Set(merged.web);
  return {
    tools: merged.tools,
    metadata: merged.metadata,
    handlers: Object.fromEntries(Object.entries(handlers).filter(([name]) => names.has(name))),
  };
}

module.exports = { withWebTools };
