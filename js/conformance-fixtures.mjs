// The tools the MCP conformance suite's server scenarios call
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
  tool('json_schema_2020_12_tool', 'Tool with JSON Schema 2020-12 features', {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
    properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
    additionalProperties: false,
  }),
];

const text = (t) => ({ type: 'text', text: t });

const handlers = {
  test_simple_text: () => ({ content: [text('This is a simple text response for testing.')] }),
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
  // the engine has no channel for log or progress notifications during a call
  test_tool_with_logging: () => ({ content: [text('Tool with logging executed successfully')] }),
  test_tool_with_progress: () => ({ content: [text('Tool with progress executed successfully')] }),
  test_sampling: () => {
    throw new Error('sampling is not supported by this gateway');
  },
  test_elicitation: () => {
    throw new Error('elicitation is not supported by this gateway');
  },
  test_elicitation_sep1034_defaults: () => {
    throw new Error('elicitation is not supported by this gateway');
  },
  test_elicitation_sep1330_enums: () => {
    throw new Error('elicitation is not supported by this gateway');
  },
  test_reconnection: async () => {
    await new Promise((r) => setTimeout(r, 100));
    return { content: [text('Reconnection test completed successfully')] };
  },
  json_schema_2020_12_tool: (args) => ({ content: [text(JSON.stringify(args))] }),
};

/** The fixture tools as a source. */
export function conformanceSource() {
  return handlerSource({ tools }, handlers, 'conformance fixtures');
}
