// Sample data for the round trip: a model response calling the selected
// catalog's tools, written as each model API returns one (so that it always
// names a real tool), and sample MCP results. It is only a starting point
// the visitor edits: reading it (parseCalls) and answering it
// (formatResults) is the package's.

/** @typedef {{ name: string, args: { [name: string]: unknown } }} SampleCall */

/**
 * A plausible value for a parameter: its const, first enum value, default or example, else one of its
 * type. Numbers are written as text, the slip models make most, which the package coerces.
 * @param {any} s
 * @returns {unknown}
 */
function sampleValue(s) {
  if (!s || typeof s !== 'object') return 'example';
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ('default' in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return String(typeof s.minimum === 'number' ? s.minimum : 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'example';
  }
}

/** A tool's parameters (its input schema's properties). @param {any} tool */
const params = (tool) => {
  const p = tool?.inputSchema?.properties;
  return p && typeof p === 'object' && !Array.isArray(p) ? p : {};
};

/** The first parameter declared a number. @param {any} tool */
const numeric = (tool) => Object.keys(params(tool)).find((k) => ['integer', 'number'].includes(params(tool)[k]?.type));

/** Whether a tool has required parameters (so that calling it with none is an error to show). */
export const requiresSome = (/** @type {any} */ tool) => Array.isArray(tool?.inputSchema?.required) && tool.inputSchema.required.length > 0;

/**
 * Sample arguments for a tool: its required parameters (or its first one when none is), and its first
 * number parameter, which the sample writes as text.
 * @param {any} tool an MCP tool
 */
export function sampleArguments(tool) {
  const props = params(tool);
  const required = new Set(requiresSome(tool) ? tool.inputSchema.required : []);
  const keys = new Set(Object.keys(props).filter((k) => required.has(k)));
  if (keys.size === 0 && Object.keys(props).length > 0) keys.add(Object.keys(props)[0]);
  const n = numeric(tool);
  if (n !== undefined) keys.add(n);
  return Object.fromEntries([...keys].map((k) => [k, sampleValue(props[k])]));
}

/**
 * The tool a sample starts from: one with required parameters and a number parameter (so that the
 * sample shows a coercion and a missing argument), else the nearest to that.
 * @param {any[]} tools
 */
export function sampleTool(tools) {
  const rank = (/** @type {any} */ t) => (requiresSome(t) ? 2 : 0) + (numeric(t) !== undefined ? 1 : 0) + (Object.keys(params(t)).length > 0 ? 0.5 : 0);
  return tools.reduce((best, t) => (rank(t) > rank(best) ? t : best), tools[0]);
}

/**
 * The calls of the sample response: the chosen tool with sample arguments, a second tool (whose result
 * will be an error), and the chosen tool again without its required arguments, when it has some.
 * @param {any[]} tools the catalog's MCP tools
 * @param {string} chosen the chosen tool's MCP name
 * @returns {{ tool: any, args: { [name: string]: unknown } }[]}
 */
export function sampleCalls(tools, chosen) {
  const first = tools.find((t) => t.name === chosen) ?? tools[0];
  if (!first) return [];
  const others = tools.filter((t) => t !== first);
  const second = others.find((t) => Object.keys(params(t)).length > 0) ?? others[0] ?? first;
  const calls = [{ tool: first, args: sampleArguments(first) }, { tool: second, args: sampleArguments(second) }];
  if (requiresSome(first)) calls.push({ tool: first, args: {} });
  return calls;
}

/**
 * A model response with these calls, as the dialect's API returns it (text for prompted), or null for
 * a dialect this page has no sample of.
 * @param {string} dialect
 * @param {SampleCall[]} calls names as the dialect knows them
 * @returns {string | null}
 */
export function sampleResponse(dialect, calls) {
  const say = 'Let me do that.';
  const json = (/** @type {unknown} */ v) => JSON.stringify(v, null, 2);
  switch (dialect) {
    case 'gemini':
    case 'gemini-json':
      return json({
        candidates: [{ content: { role: 'model', parts: calls.map((c) => ({ functionCall: { name: c.name, args: c.args } })) }, finishReason: 'STOP', index: 0 }],
      });
    case 'openai':
      return json({
        id: 'chatcmpl-sample',
        object: 'chat.completion',
        choices: [{
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: calls.map((c, i) => ({ id: `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) },
          finish_reason: 'tool_calls',
        }],
      });
    case 'openai-responses':
      return json({
        id: 'resp_sample',
        object: 'response',
        status: 'completed',
        output: calls.map((c, i) => ({ type: 'function_call', id: `fc_${i + 1}`, call_id: `call_${i + 1}`, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' })),
      });
    case 'anthropic':
      return json({
        id: 'msg_sample',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: say }, ...calls.map((c, i) => ({ type: 'tool_use', id: `toolu_${i + 1}`, name: c.name, input: c.args }))],
        stop_reason: 'tool_use',
      });
    case 'vscode':
      return json([{ value: say }, ...calls.map((c, i) => ({ callId: `call_${i + 1}`, name: c.name, input: c.args }))]);
    case 'prompted':
      return `${say}\n\n\`\`\`json\n${json({ tool_calls: calls.map((c) => ({ name: c.name, arguments: c.args })) })}\n\`\`\``;
    default:
      return null;
  }
}
