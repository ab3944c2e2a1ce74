// CommonJS (NodeNext resolves index.d.cts): the same API.
import sb = require('mcp-switchboard');
import type { Conversion, EngineOutput } from 'mcp-switchboard';

const conversion: Conversion<'anthropic'> = sb.convert('[]', { to: 'anthropic' });
const engine = new sb.Engine('[]');
const outputs: EngineOutput[] = engine.drain();
export { conversion, outputs };
