// The slim entry: load the module explicitly, then the same API.
import { convert, init, initSync, type Conversion } from 'mcp-switchboard/slim';

declare const wasmUrl: string;
await init(new URL(wasmUrl, 'https://example.com/'));
await init(fetch(wasmUrl));
initSync(new Uint8Array(0));
// @ts-expect-error init() needs the wasm
await init();
const c: Conversion<'gemini-json'> = convert('[]', { to: 'gemini-json' });
export { c };
