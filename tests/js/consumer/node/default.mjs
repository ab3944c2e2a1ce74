// The default entry in an esbuild bundle for Node (CommonJS output): the
// wasm is read next to the bundle, or from the installed package.
import { convert, version } from 'mcp-switchboard';

if (convert('[{"name": "x"}]', { to: 'openai' }).tools.length === 1 && version()) console.log('ok');
