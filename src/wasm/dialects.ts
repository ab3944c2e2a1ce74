
/** The dialects tools can be converted to. */
export type DialectName = "gemini" | "gemini-json" | "openai" | "openai-responses" | "anthropic" | "vscode" | "prompted";

/** Google's OpenAPI schema subset (dialect "gemini"): upper-case types, `nullable`, string-only `enum`. */
export type GeminiSchema = {
  type?: "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT" | "NULL";
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  items?: GeminiSchema;
  minItems?: number;
  maxItems?: number;
  properties?: { [name: string]: GeminiSchema };
  required?: string[];
  minProperties?: number;
  maxProperties?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: GeminiSchema[];
  propertyOrdering?: string[];
  default?: unknown;
  example?: unknown;
};
/** A Gemini `FunctionDeclaration` (dialect "gemini"); a tool without parameters has no `parameters`. */
export type GeminiFunctionDeclaration = { name: string; description: string; parameters?: GeminiSchema };
/** The one Gemini `Tool` holding every declaration (dialect "gemini"). */
export type GeminiTool = { functionDeclarations: GeminiFunctionDeclaration[] };
/** A Gemini `FunctionDeclaration` in JSON Schema (dialect "gemini-json"). */
export type GeminiJsonFunctionDeclaration = { name: string; description: string; parametersJsonSchema?: JsonSchema; responseJsonSchema?: JsonSchema };
/** The one Gemini `Tool` holding every declaration (dialect "gemini-json"). */
export type GeminiJsonTool = { functionDeclarations: GeminiJsonFunctionDeclaration[] };
/** A Gemini `functionCall`. */
export type GeminiFunctionCall = { id?: string; name: string; args?: { [name: string]: unknown } };
/** A Gemini `Part` of a model turn. */
export type GeminiPart = { text?: string; thought?: boolean; thoughtSignature?: string; functionCall?: GeminiFunctionCall };
/** The `user` turn answering a model turn's calls: one `functionResponse` part per call. */
export type GeminiFunctionResponses = {
  role: "user";
  parts: { functionResponse: { id?: string; name: string; response: { output: unknown } | { error: unknown } } }[];
};

/** The `parameters` (OpenAI, VS Code) or `input_schema` (Anthropic) object: a JSON Schema object. */
export type ParametersSchema = { type: "object"; properties: { [name: string]: JsonSchema }; [keyword: string]: unknown };
/** An OpenAI Chat Completions tool. */
export type OpenAiTool = { type: "function"; function: { name: string; description: string; parameters: ParametersSchema; strict?: boolean } };
/** A Chat Completions tool call. */
export type OpenAiToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
/** The assistant message of a Chat Completions turn. */
export type OpenAiAssistantMessage = { role: "assistant"; content: string | null; refusal?: string | null; tool_calls?: OpenAiToolCall[] };
/** A `role: "tool"` message with one call's result. */
export type OpenAiToolMessage = { role: "tool"; tool_call_id: string; content: string };

/** An OpenAI Responses API function tool (`strict` is always written: the API defaults it to true); `defer_loading` in a namespace of disclosure "native". */
export type OpenAiResponsesTool = { type: "function"; name: string; description: string; parameters: ParametersSchema; strict: boolean; defer_loading?: boolean };
/** Disclosure "native": deferred functions of one category (fewer than ten), the name and description all the model sees at first. */
export type OpenAiNamespace = { type: "namespace"; name: string; description: string; tools: OpenAiResponsesTool[] };
/** Disclosure "native": the hosted tool search, or ours (`execution: "client"`, answered with a `tool_search_output` item). */
export type OpenAiToolSearch = { type: "tool_search"; execution?: "client"; description?: string; parameters?: JsonSchema };
/** A `tool_search_output` item answering a client tool search: the functions loaded, in their namespaces. */
export type OpenAiToolSearchOutput = { type: "tool_search_output"; call_id: string; execution: "client"; status: "completed"; tools: OpenAiNamespace[] };
/** A Responses API output item, as the API sent it. */
export type OpenAiResponsesItem = { type: string; [field: string]: unknown };
/** A Responses API `function_call_output` item with one call's result. */
export type OpenAiFunctionCallOutput = { type: "function_call_output"; call_id: string; output: string };

/** An Anthropic Messages API tool: `input_examples` when the tool carries examples that fit its schema (not with a tool search), `defer_loading` when disclosure "native" defers it. */
export type AnthropicTool = { name: string; description: string; input_schema: ParametersSchema; strict?: boolean; defer_loading?: boolean; input_examples?: { [name: string]: unknown }[] };
/** Disclosure "native" with searchWith "provider": the API's tool search. */
export type AnthropicToolSearch =
  | { type: "tool_search_tool_bm25_20251119"; name: "tool_search_tool_bm25" }
  | { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex" };
/** An Anthropic content block, as the API sent it. */
export type AnthropicBlock = { type: string; [field: string]: unknown };
/** The `user` message answering a model turn's calls: one `tool_result` block per call. */
export type AnthropicToolResults = {
  role: "user";
  content: {
    type: "tool_result";
    tool_use_id: string;
    content: ({ type: "text"; text: string } | { type: "image"; source: { type: "base64"; media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp"; data: string } } | { type: "tool_reference"; tool_name: string })[];
    is_error?: boolean;
  }[];
};

/** A `contributes.languageModelTools` entry of a VS Code extension's package.json. */
export type VsCodeTool = {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  userDescription: string;
  modelDescription: string;
  inputSchema: ParametersSchema;
};
/** A runtime `LanguageModelChatTool`. */
export type VsCodeRuntimeTool = { name: string; description: string; inputSchema: ParametersSchema };
/** A part of a VS Code chat response: text (`value`) or a tool call. */
export type VsCodePart = { value: string } | { callId: string; name: string; input: object };
/** The `user` message answering a model turn's calls: one `LanguageModelToolResultPart` per call. */
export type VsCodeToolResults = { role: "user"; content: { callId: string; content: { value: string }[] }[] };

/** One entry of the `prompted` dialect: what the system prompt lists for a tool. */
export type PromptedTool = { name: string; description: string; parameters: JsonSchema };
/** A plain chat message (dialect "prompted"). */
export type PromptedMessage<Role extends string> = { role: Role; content: string };

/**
 * What each dialect's items are: `tool` goes into the request's tools array, `result` follows a model
 * turn with the calls' results, `extra` is what convert() adds for that dialect.
 */
export interface DialectTypes {
  gemini: { tool: GeminiTool; result: GeminiFunctionResponses; extra: {} };
  "gemini-json": { tool: GeminiJsonTool; result: GeminiFunctionResponses; extra: {} };
  openai: { tool: OpenAiTool; result: OpenAiToolMessage; extra: {} };
  "openai-responses": { tool: OpenAiResponsesTool | OpenAiNamespace | OpenAiToolSearch; result: OpenAiFunctionCallOutput; extra: {} };
  anthropic: { tool: AnthropicTool | AnthropicToolSearch; result: AnthropicToolResults; extra: {} };
  vscode: { tool: VsCodeTool; result: VsCodeToolResults; extra: { /** The runtime LanguageModelChatTool objects. */ runtime: VsCodeRuntimeTool[] } };
  prompted: { tool: PromptedTool; result: PromptedMessage<"user">; extra: { /** The system-prompt section. */ prompt: string } };
}

type GeminiPartsOf<R> =
  R extends string ? GeminiPart :
  R extends { candidates?: readonly (infer C)[] } ? (C extends { content?: { parts?: readonly (infer P)[] } } ? P : GeminiPart) :
  R extends { toolCall?: { functionCalls?: readonly (infer F)[] } } ? { functionCall: F } :
  R extends { parts?: readonly (infer P)[] } ? P :
  R extends readonly (infer P)[] ? P :
  GeminiPart;
type OpenAiMessageOf<R> =
  R extends string ? OpenAiAssistantMessage :
  R extends { choices: readonly { message: infer M }[] } ? M :
  R extends readonly (infer T)[] ? { role: "assistant"; content: null; tool_calls: T[] } :
  R extends { role: string } ? R :
  OpenAiAssistantMessage;
type OpenAiItemsOf<R> =
  R extends string ? OpenAiResponsesItem :
  R extends { output: readonly (infer I)[] } ? I :
  R extends readonly (infer I)[] ? I :
  R extends { type: string } ? R :
  OpenAiResponsesItem;
type ContentOf<R, Default> =
  R extends string ? Default :
  R extends { content: string } ? { type: "text"; text: string } :
  R extends { content: readonly (infer B)[] } ? B :
  R extends readonly (infer B)[] ? B :
  Default;

/**
 * An item of a model turn's history (`ModelTurn.assistant`) for a response of type `R`: the response's own
 * items where the API needs them back verbatim, typed as the response was.
 */
export type AssistantItem<D extends DialectName, R = unknown> =
  D extends "gemini" | "gemini-json" ? { role: "model"; parts: GeminiPartsOf<R>[] } :
  D extends "openai" ? OpenAiMessageOf<R> :
  D extends "openai-responses" ? OpenAiItemsOf<R> :
  D extends "anthropic" ? { role: "assistant"; content: ContentOf<R, AnthropicBlock>[] } :
  D extends "vscode" ? { role: "assistant"; content: ContentOf<R, VsCodePart>[] } :
  PromptedMessage<"assistant">;
/** An item that follows a model turn with its calls' results (formatResults().results). */
export type ResultItem<D extends DialectName> = DialectTypes[D]["result"];
/** An item of convert().tools. */
export type DialectTool<D extends DialectName> = DialectTypes[D]["tool"];
