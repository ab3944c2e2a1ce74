// What a bundled page does with the package: convert, search, validate a
// call, and call exports with arguments of the wrong type (each must be a
// TypeError with code "usage", and the module must go on working).
// Returns a summary the browser test compares.
const catalog = JSON.stringify([
  { name: 'set_light', description: 'Turns a light on or off', inputSchema: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] } },
  { name: 'get_temperature', description: 'Reads a thermometer', inputSchema: { type: 'object', properties: {} } },
]);

export function run(sb) {
  const wrong = [];
  const attempt = (call) => {
    try {
      call();
      wrong.push('no error');
    } catch (e) {
      wrong.push(e instanceof TypeError ? `TypeError ${e.code}` : `${e.constructor.name} ${e.code}`);
    }
  };
  const validator = new sb.Validator(catalog);
  attempt(() => validator.validate(42, {}));
  attempt(() => sb.convertJson({ tools: [] }, 'gemini', false));
  attempt(() => new sb.ToolIndex(catalog).search(42));
  attempt(() => sb.toolException(new Error('x')));
  return {
    tools: sb.convert(catalog, { to: 'gemini' }).tools[0].functionDeclarations.length,
    hit: new sb.ToolIndex(catalog).search('zet het licht aan', { limit: 1 }).hits[0].name,
    reply: JSON.stringify(validator.validate('set_light', { on: 'true' }).arguments),
    wrong,
  };
}
