// The slim entry in an esbuild bundle (any format, no top-level await): the
// wasm comes through esbuild's file loader and init() loads it.
import * as sb from 'mcp-switchboard/slim';
import wasmUrl from 'mcp-switchboard/mcp_switchboard_bg.wasm';

import { run } from './checks.mjs';

sb.init(new URL(wasmUrl, document.baseURI)).then(() => {
  document.body.dataset.result = JSON.stringify(run(sb));
});
