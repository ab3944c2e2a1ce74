// The tools, resources, prompts and completions the MCP conformance
// suite's server scenarios ask for
// (`serve --conformance-fixtures`). Test use only.
import { handlerSource } from './dispatch.mjs';

// 1x1 red PNG and a 44-byte silent WAV
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const none = { type: 'object', properties: {} };
const tool = (name, description, inputSchema = none) => ({ name, description, inputSchema });

const tools = [
  tool('test_simple_text', 'Returns a simple text.'),
  tool('test_image_content', 'Returns an image.'),
  tool('test_audio_content', 'Returns an audio clip.'),
  tool('test_embedded_resource', 'Returns an embedded resource.'),
  tool('test_multiple_content_types', 'Returns text, an image and a resource.'),
  tool('test_error_handling', 'Always fails.'),
  tool('test_tool_with_logging', 'Sends log messages while it runs.'),
  tool('test_tool_with_progress', 'Reports progress while it runs.'),
  tool('test_sampling', 'Asks the client for a completion.', { type: 'object', properties: { prompt: { type: 'string' } } }),
  tool('test_elicitation', 'Asks the user for input.', { type: 'object', properties: { message: { type: 'string' } } }),
  tool('test_elicitation_sep1034_defaults', 'Asks the user for input with defaults.'),
  tool('test_elicitation_sep1330_enums', 'Asks the user to pick from enums.'),
  tool('test_reconnection', 'Answers after a short delay.'),
  tool('test_input_required_result_elicitation', 'Asks the user for their name (2026-07-28 input requests).'),
  tool('test_input_required_result_sampling', 'Asks the client for a completion (2026-07-28 input requests).'),
  tool('test_input_required_result_list_roots', "Asks for the client's roots (2026-07-28 input requests)."),
  tool('test_input_required_result_request_state', 'Asks for a confirmation, with request state.'),
  tool('test_input_required_result_multiple_inputs', 'Asks for several inputs at once, with request state.'),
  tool('test_input_required_result_multi_round', 'Asks twice, with request state that changes.'),
  tool('test_input_required_result_tampered_state', 'Asks for a confirmation; the request state must come back unchanged.'),
  tool('test_input_required_result_capabilities', 'Asks the client for a completion.'),
  tool('test_missing_capability', 'Needs sampling from the client.'),
  tool('test_streaming_elicitation', 'Asks the user for input.'),
  tool('test_logging_tool', 'Sends log messages while it runs.'),
  tool('json_schema_2020_12_tool', 'Tool with JSON Schema 2020-12 features', {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { $anchor: 'address', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    allOf: [{ anyOf: [{ required: ['name'] }, { required: ['address'] }, { not: { required: ['name', 'address'] } }] }],
    if: { required: ['address'] },
    then: { properties: { address: { required: ['city'] } } },
    else: true,
    additionalProperties: false,
  }),
  tool('test_custom_headers', 'Echoes its arguments; region and priority are mirrored into Mcp-Param headers (2026-07-28).', {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      query: { type: 'string' },
    },
    required: ['region'],
  }),
];

const text = (t) => ({ type: 'text', text: t });

const handlers = {
  test_simple_text: () => ({ content: [text('This is a simple text response for testing.')] }),
  test_custom_headers: (args) => ({ content: [text(JSON.stringify(args))] }),
  test_image_content: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  test_audio_content: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  test_embedded_resource: () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }),
  test_multiple_content_types: () => ({
    content: [
      text('Multiple content types test:'),
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ],
  }),
  test_error_handling: () => {
    throw new Error('This tool intentionally returns an error for testing');
  },
  test_tool_with_logging: async (_args, ctx) => {
    ctx.log?.('info', 'Tool execution started');
    await sleep(50);
    ctx.log?.('info', 'Tool processing data');
    await sleep(50);
    ctx.log?.('info', 'Tool execution completed');
    return { content: [text('Tool with logging executed successfully')] };
  },
  test_tool_with_progress: async (_args, ctx) => {
    for (const step of [0, 50, 100]) {
      ctx.progress?.(step, 100);
      if (step < 100) await sleep(50);
    }
    return { content: [text('Tool with progress executed successfully')] };
  },
  test_sampling: async ({ prompt }, ctx) => {
    const answer = await askClient(ctx, 'sampling/createMessage', { messages: [{ role: 'user', content: text(prompt ?? '') }], maxTokens: 100 });
    if (isAsking(answer)) return answer;
    const reply = /** @type {any} */ (answer)?.content?.text ?? JSON.stringify(answer);
    return { content: [text(`LLM response: ${reply}`)] };
  },
  test_elicitation: async ({ message }, ctx) => {
    const schema = {
      type: 'object',
      properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
      required: ['username', 'email'],
    };
    const answer = await askClient(ctx, 'elicitation/create', { message: message ?? '', requestedSchema: schema });
    if (isAsking(answer)) return answer;
    const { action, content } = /** @type {any} */ (answer) ?? {};
    return { content: [text(`User response: action=${action}, content=${JSON.stringify(content ?? {})}`)] };
  },
  test_elicitation_sep1034_defaults: async (_args, ctx) => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      },
    };
    return elicited(ctx, await askClient(ctx, 'elicitation/create', { message: 'Please review your details', requestedSchema: schema }));
  },
  test_elicitation_sep1330_enums: async (_args, ctx) => {
    const schema = {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
    };
    return elicited(ctx, await askClient(ctx, 'elicitation/create', { message: 'Please pick your options', requestedSchema: schema }));
  },
  test_reconnection: async () => {
    await new Promise((r) => setTimeout(r, 100));
    return { content: [text('Reconnection test completed successfully')] };
  },
  json_schema_2020_12_tool: (args) => ({ content: [text(JSON.stringify(args))] }),
  test_input_required_result_elicitation: (_args, ctx) =>
    rounds(ctx, [{ user_name: elicit('What is your name?', { name: { type: 'string' } }) }], (r) => `Hello, ${r.user_name?.content?.name}!`),
  test_input_required_result_sampling: (_args, ctx) =>
    rounds(ctx, [{ capital_question: sample('What is the capital of France?') }], (r) => `Sampling said: ${r.capital_question?.content?.text}`),
  test_input_required_result_list_roots: (_args, ctx) =>
    rounds(ctx, [{ client_roots: { method: 'roots/list', params: {} } }], (r) => `Roots: ${(r.client_roots?.roots ?? []).map((/** @type {any} */ x) => x.uri).join(', ')}`),
  test_input_required_result_request_state: (_args, ctx) =>
    rounds(ctx, [{ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }) }], () => 'Confirmed: state-ok', true),
  test_input_required_result_tampered_state: (_args, ctx) =>
    rounds(ctx, [{ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }) }], () => 'Confirmed: state-ok', true),
  test_input_required_result_multiple_inputs: (_args, ctx) =>
    rounds(
      ctx,
      [
        {
          user_name: elicit('What is your name?', { name: { type: 'string' } }),
          greeting: sample('Generate a greeting', 50),
          client_roots: { method: 'roots/list', params: {} },
        },
      ],
      (r) => `Hello, ${r.user_name?.content?.name}: ${r.greeting?.content?.text}`,
      true,
    ),
  test_input_required_result_multi_round: (_args, ctx) =>
    rounds(
      ctx,
      [{ step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }) }, { step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }) }],
      (r) => `Done: ${r.step2?.content?.color}`,
      true,
    ),
  test_input_required_result_capabilities: (_args, ctx) =>
    rounds(ctx, [{ question: sample('What is the capital of France?') }], (r) => `Sampling said: ${r.question?.content?.text}`),
  test_missing_capability: (_args, ctx) => rounds(ctx, [{ question: sample('Say hello') }], (r) => `Sampling said: ${r.question?.content?.text}`),
  test_streaming_elicitation: (_args, ctx) =>
    rounds(ctx, [{ user_name: elicit('What is your name?', { name: { type: 'string' } }) }], (r) => `Hello, ${r.user_name?.content?.name}!`),
  test_logging_tool: async (_args, ctx) => {
    for (const m of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
      ctx.log?.('info', m);
      await sleep(20);
    }
    return { content: [text('Tool with logging executed successfully')] };
  },
};

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** What a handler returns to ask the client in 2026-07-28 (an InputRequiredResult). */
const ASKING = Symbol('asking');

/** @param {unknown} v */
const isAsking = (v) => typeof v === 'object' && v !== null && ASKING in v;

/**
 * Asks the client: a request on the 2025 session, or in 2026-07-28 an InputRequiredResult the client
 * answers by retrying (the answer is then in ctx.inputResponses).
 * @param {import('./dispatch.mjs').ToolContext} ctx
 * @param {string} method
 * @param {{ [key: string]: unknown }} params
 */
async function askClient(ctx, method, params) {
  if (ctx.era === 'modern') {
    const answer = /** @type {any} */ (ctx.inputResponses)?.ask;
    if (answer !== undefined) return answer?.result ?? answer;
    const asking = /** @type {object} */ (ctx.inputRequired?.({ ask: { method, params } }));
    return Object.assign(asking, { [ASKING]: true });
  }
  if (!ctx.ask) throw new Error(`${method} is not available`);
  return ctx.ask(method, params);
}

/**
 * @param {string} message
 * @param {{ [name: string]: object }} properties
 */
const elicit = (message, properties) => ({
  method: 'elicitation/create',
  params: { message, requestedSchema: { type: 'object', properties, required: Object.keys(properties) } },
});

/**
 * @param {string} question
 * @param {number} [maxTokens]
 */
const sample = (question, maxTokens = 100) => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: text(question) }], maxTokens },
});

/**
 * A 2026-07-28 multi round-trip: round n asks `steps[n]` (an InputRequiredResult), and once the
 * client has answered the last step the result is `done(answers)`. With `state`, the round travels in
 * the request state.
 * @param {import('./dispatch.mjs').ToolContext} ctx
 * @param {{ [key: string]: unknown }[]} steps
 * @param {(answers: { [key: string]: any }) => string} done
 * @param {boolean} [state]
 */
function rounds(ctx, steps, done, state = false) {
  const answers = /** @type {{ [key: string]: any }} */ (ctx.inputResponses ?? {});
  const round = ctx.inputResponses === undefined ? 0 : state ? Number(ctx.requestState?.replace('round-', '')) : steps.length;
  if (!Number.isInteger(round) || round < 0 || round > steps.length) throw new Error('the request state is not one this tool gave');
  if (round < steps.length) return ctx.inputRequired?.(steps[round], state ? `round-${round + 1}` : undefined);
  return { content: [text(done(answers))] };
}

/**
 * @param {import('./dispatch.mjs').ToolContext} _ctx
 * @param {unknown} answer
 */
function elicited(_ctx, answer) {
  if (isAsking(answer)) return answer;
  const { action, content } = /** @type {any} */ (answer) ?? {};
  return { content: [text(`Elicitation completed: action=${action}, content=${JSON.stringify(content ?? {})}`)] };
}

const resources = [
  { uri: 'test://static-text', name: 'static-text', description: 'A static text resource.', mimeType: 'text/plain' },
  { uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (a PNG image).', mimeType: 'image/png' },
  { uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource clients can subscribe to.', mimeType: 'text/plain' },
];
const templates = [
  { uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data for an id.', mimeType: 'application/json' },
];
const prompts = [
  { name: 'test_simple_prompt', description: 'A prompt without arguments.' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
  { name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for context first.' },
];

/** @type {import('./dispatch.mjs').SurfaceHandlers} */
const surface = {
  resources,
  templates,
  prompts,
  read({ uri, variables }) {
    if (uri === 'test://static-text') return { contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] };
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    if (uri === 'test://watched-resource') return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content.' }] };
    const id = variables?.id ?? uri.match(/^test:\/\/template\/([^/]+)\/data$/)?.[1];
    if (id !== undefined) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
    throw new Error(`unknown resource ${uri}`);
  },
  prompt(name, args, ctx) {
    const user = (/** @type {object} */ content) => ({ role: 'user', content });
    switch (name) {
      case 'test_simple_prompt':
        return { messages: [user(text('This is a simple prompt for testing.'))] };
      case 'test_prompt_with_arguments':
        return { messages: [user(text(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`))] };
      case 'test_prompt_with_embedded_resource':
        return {
          messages: [
            user({ type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } }),
            user(text('Please process the embedded resource above.')),
          ],
        };
      case 'test_prompt_with_image':
        return { messages: [user({ type: 'image', data: PNG, mimeType: 'image/png' }), user(text('Please analyze the image above.'))] };
      case 'test_input_required_result_prompt': {
        const answer = /** @type {any} */ (ctx.inputResponses)?.user_context;
        if (answer === undefined) return ctx.inputRequired?.({ user_context: elicit('What context should the prompt use?', { context: { type: 'string' } }) });
        return { messages: [user(text(`Use this context: ${answer?.content?.context}`))] };
      }
      default:
        throw new Error(`unknown prompt ${name}`);
    }
  },
  complete(request) {
    const value = String(/** @type {any} */ (request)?.argument?.value ?? '');
    const values = ['paris', 'park', 'party'].filter((v) => v.startsWith(value));
    return { completion: { values, total: values.length, hasMore: false } };
  },
};

/** The fixture tools, resources, prompts and completions as a source. */
export function conformanceSource() {
  return handlerSource({ tools }, handlers, 'conformance fixtures', surface);
}
