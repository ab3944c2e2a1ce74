// The package's types against the model SDKs' own: what convert() and
// formatResults() give goes where the SDKs take it, what the SDKs give goes
// into parseCalls() and the result helpers, with no casts. Compiled, never
// run (the declared values stand for what the SDKs return).
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Response as OpenAiResponse, ResponseInputItem, Tool as ResponsesTool } from 'openai/resources/responses/responses';
import type { Message, MessageParam, Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import type { Content, GenerateContentResponse, LiveServerToolCall, Tool as GeminiTool } from '@google/genai';
import type { CallToolResult as McpCallToolResult, ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

import {
  Engine,
  ToolIndex,
  Validator,
  asToolResult,
  asToolResultJson,
  budget,
  convert,
  convertJson,
  dialects,
  formatResults,
  lint,
  parseCalls,
  readCatalog,
  toolException,
  toolFailure,
  toolSuccess,
  validateArguments,
  type Conversion,
  type DialectName,
  type EngineOutput,
  type SwitchboardError,
} from 'mcp-switchboard/full';

declare const listed: ListToolsResult;
declare const mcpResult: McpCallToolResult;

// OpenAI Chat Completions
const openai = convert(listed, { to: 'openai', strict: true });
const chatTools: ChatCompletionTool[] = openai.tools;
declare const completion: ChatCompletion;
const chatTurn = parseCalls('openai', completion, openai, listed);
const chatOut = formatResults('openai', chatTurn, [mcpResult, null]);
const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Turn on the kitchen light' }, ...chatOut.assistant, ...chatOut.results];
// the calls, named as MCP names them, with their tools/call requests
const firstCall: string | undefined = chatTurn.calls[0]?.request?.params.name;

// OpenAI Responses
const responses = convert(listed, { to: 'openai-responses' });
const responsesTools: ResponsesTool[] = responses.tools;
declare const response: OpenAiResponse;
const responsesTurn = parseCalls('openai-responses', response, responses);
const responsesOut = formatResults('openai-responses', responsesTurn, { call_1: mcpResult });
const resultItems: ResponseInputItem[] = responsesOut.results;
// the assistant items are the response's own output items, typed as the SDK types them; the SDK
// does not declare every output item an input item (a computer call's status may be "failed"),
// so they take the same cast its response.output takes
const input: ResponseInputItem[] = [...(responsesOut.assistant as ResponseInputItem[]), ...resultItems];

// Anthropic
const anthropic = convert(listed, { to: 'anthropic', strict: true });
const anthropicTools: AnthropicTool[] = anthropic.tools;
declare const message: Message;
const anthropicTurn = parseCalls('anthropic', message, anthropic, listed);
const anthropicOut = formatResults('anthropic', anthropicTurn, [toolSuccess({ on: true })]);
const anthropicMessages: MessageParam[] = [{ role: 'user', content: 'Turn on the kitchen light' }, ...anthropicOut.assistant, ...anthropicOut.results];

// Google Gen AI: JSON Schema declarations
const geminiJson = convert(listed, { to: 'gemini-json' });
const geminiTools: GeminiTool[] = geminiJson.tools;
declare const generated: GenerateContentResponse;
const geminiTurn = parseCalls('gemini-json', generated, geminiJson, listed);
const geminiOut = formatResults('gemini-json', geminiTurn, [mcpResult]);
const contents: Content[] = [{ role: 'user', parts: [{ text: 'Turn on the kitchen light' }] }, ...geminiOut.assistant, ...geminiOut.results];
// the Live API's tool calls, and the OpenAPI-subset declarations (whose upper-case types
// Google's SDK declares as an enum): their turns are Contents all the same
declare const liveCall: { toolCall: LiveServerToolCall };
const gemini = convert(listed, { to: 'gemini' });
const liveOut = formatResults('gemini', parseCalls('gemini', liveCall, gemini), [mcpResult]);
const liveContents: Content[] = [...liveOut.assistant, ...liveOut.results];
const parameterType: string | undefined = gemini.tools[0]?.functionDeclarations[0]?.parameters?.type;

// MCP: the result helpers give CallToolResults, and take the SDK's
const results: McpCallToolResult[] = [toolSuccess({ on: true }), toolFailure('no such light'), toolFailure('busy', { retry: 5 }), toolException('boom'), asToolResult(mcpResult), asToolResult(42)];
const engine = new Engine(listed);
engine.complete(1, mcpResult);
engine.complete(2, asToolResultJson({ on: true }));
engine.setMode('hybrid');
// @ts-expect-error not a mode
engine.setMode('everything');
// @ts-expect-error a catalog is needed
new Engine();
const outputs: EngineOutput[] = engine.drain();
for (const o of outputs) {
  if (o.type === 'invoke') engine.fail(o.id, `${o.tool} is not here`);
}

// optional arguments are optional
new ToolIndex(listed).search('light');
new Engine(listed, { mode: 'auto', contextTokens: 8000 });
budget(listed);
parseCalls('prompted', 'I will call get_states: {"name": "get_states", "arguments": {}}', convert(listed, { to: 'prompted' }));
convertJson('[]', 'openai');
new Validator(listed).validate('get_states');
validateArguments(readCatalog(listed).tools[0]!);
lint(new Uint8Array(0));

// a dialect not known at compile time gives the union, told apart by `dialect`
declare const chosen: DialectName;
const any: Conversion = convert(listed, { to: chosen });
const prompt: string | undefined = any.dialect === 'prompted' ? any.prompt : undefined;
const all: DialectName[] = dialects();
// @ts-expect-error not a dialect
convert(listed, { to: 'cobol' });
// @ts-expect-error an OpenAI turn is not an Anthropic one
formatResults('openai', anthropicTurn, []);

// errors carry their code and pointer
try {
  convert('{', { to: 'openai' });
} catch (e) {
  const error = e as SwitchboardError;
  const where: string = `${error.code} at ${error.pointer}`;
  void where;
}

export { all, anthropicMessages, anthropicTools, chatTools, contents, firstCall, geminiTools, input, liveContents, messages, parameterType, prompt, responsesTools, results };
