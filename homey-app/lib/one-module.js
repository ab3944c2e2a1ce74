'use strict';

// One WebAssembly module for the whole app. The package's entries each load
// a module of their own: `mcp-switchboard` (and the gateway, which requires
// it) the default one, `mcp-switchboard/chat` one that holds the same API
// plus the model conversation the Ask cards run. Loading both costs about
// 5 MB more RSS than either alone on Node 18 (with lib/memory.js's flags:
// +10.5 MB for the default module, +10.9 MB for the chat module, +15.4 MB
// for both). So the app loads the chat module alone and answers every
// `require('mcp-switchboard')` (the app's and the gateway's) with it.
// app.js requires this right after lib/memory.js, before anything loads the
// package.

const Module = require('module');

/**
 * Registers `mcp-switchboard/chat`'s exports as `mcp-switchboard`'s (once;
 * true when they are). test/layout.test.mjs checks that the chat entry has
 * every export of the main one.
 */
function oneModule() {
  let main;
  let chatFile;
  try {
    main = require.resolve('mcp-switchboard');
    chatFile = require.resolve('mcp-switchboard/chat');
  } catch {
    return false;
  }
  if (require.cache[main]) return require.cache[main].exports === require(chatFile);
  const chat = require(chatFile);
  const stand = new Module(main, module);
  stand.filename = main;
  stand.loaded = true;
  stand.exports = chat;
  require.cache[main] = stand;
  return true;
}

oneModule();

module.exports = { oneModule };
