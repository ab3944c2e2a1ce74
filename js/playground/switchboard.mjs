// The package, as the page uses it: its checked API (the same as
// mcp-switchboard/slim), its module loaded by init() in main.mjs.
export * from '../../pkg/full/slim.mjs';
