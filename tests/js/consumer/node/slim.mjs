// The slim entry in a self-contained esbuild bundle for Node (ESM output):
// the wasm's bytes are in the bundle (esbuild's binary loader).
import { convert, initSync } from 'mcp-switchboard/slim';
import wasm from 'mcp-switchboard/mcp_switchboard_bg.wasm';

initSync(wasm);
if (convert('[{"name": "x"}]', { to: 'anthropic' }).tools.length === 1) console.log('ok');
