// CommonJS: require('mcp-switchboard/gateway') has the same declarations.
import gateway = require('mcp-switchboard/gateway');
import type { GatewayStatus } from 'mcp-switchboard/gateway';

const gw = gateway.createGateway({ source: gateway.handlerSource('[]', {}) });
const status: GatewayStatus = gw.status();
export { status };
