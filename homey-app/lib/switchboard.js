'use strict';

// The one module that knows where the mcp-switchboard package keeps its MCP
// gateway. The package does not export it as a subpath yet, so the modules
// are imported by their file path next to the package's package.json; once
// it does, load() becomes `import('mcp-switchboard/gateway')`.

const path = require('path');
const { pathToFileURL } = require('url');

let loading = null;

/**
 * The gateway library: startGateway (Streamable HTTP server), handlerSource
 * (tools from handler functions) and Session (one engine and its calls).
 * @returns {Promise<{startGateway: Function, handlerSource: Function, Session: Function}>}
 */
function load() {
  loading ??= (async () => {
    const dir = path.dirname(require.resolve('mcp-switchboard/package.json'));
    const file = (name) => pathToFileURL(path.join(dir, name)).href;
    const [gateway, dispatch] = await Promise.all([import(file('gateway.mjs')), import(file('dispatch.mjs'))]);
    return { startGateway: gateway.startGateway, handlerSource: dispatch.handlerSource, Session: dispatch.Session };
  })();
  return loading;
}

module.exports = { load };
