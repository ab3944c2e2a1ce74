// CommonJS (NodeNext resolves full/index.d.cts): the same API.
import sb = require('mcp-switchboard/full');
import type { Conversion, EngineOutput } from 'mcp-switchboard/full';

const conversion: Conversion<'anthropic'> = sb.convert('[]', { to: 'anthropic' });
const engine = new sb.Engine('[]');
const outputs: EngineOutput[] = engine.drain();
export { conversion, outputs };
