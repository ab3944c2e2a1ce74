// The package has no default export: importing one is an error, as it is at run time.
// @ts-expect-error TS1192: no default export
import switchboard from 'mcp-switchboard';

export { switchboard };
