// The model APIs the page talks to, and where a visitor's key is kept:
// shared by the chat and the disclosure A/B, so that a key pasted in one
// is there in the other.

/**
 * The providers the page offers: the Conversation's provider, a model to start with, and for a local
 * server a base URL to start with and no key needed.
 */
export const PROVIDERS = [
  { id: 'gemini', provider: 'gemini', label: 'Gemini', model: 'gemini-2.5-flash' },
  { id: 'openai', provider: 'openai', label: 'OpenAI (Chat Completions)', model: 'gpt-4.1-mini' },
  { id: 'openai-responses', provider: 'openai-responses', label: 'OpenAI (Responses)', model: 'gpt-4.1-mini' },
  { id: 'anthropic', provider: 'anthropic', label: 'Anthropic', model: 'claude-sonnet-4-5' },
  { id: 'local', provider: 'openai', label: 'OpenAI-compatible server (Ollama, LM Studio, llama.cpp)', model: 'qwen3', baseUrl: 'http://localhost:11434/v1', local: true },
  { id: 'prompted', provider: 'prompted', label: 'Prompted (a local model without tool calling)', model: 'qwen3', baseUrl: 'http://localhost:11434/v1', local: true },
];

/** Where a key is kept: this tab's sessionStorage, per provider. */
export const keyName = (/** @type {string} */ id) => `mcp-switchboard-playground:key:${id}`;

/** sessionStorage, or null where the browser refuses it (a sandboxed frame). */
export function session() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}
