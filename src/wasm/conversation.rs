//! The model ⇄ MCP conversation (`Conversation`), sans I/O: the host
//! sends the requests it is given, feeds back the responses and the tool
//! results, and tells the time.

use serde::Deserialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{js_error, read_catalog, read_value, string_of, to_js, usage};
use crate::conversation::{Conversation, ConversationOptions as Options, Output, ToolMode};
use crate::Provider;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** The model APIs a Conversation speaks ("prompted": the prompted dialect over a Chat Completions endpoint). */
export type ProviderName = "gemini" | "openai" | "openai-responses" | "anthropic" | "prompted";
/** A failure of the model's API. */
export interface ProviderError {
  kind: "auth" | "rate_limited" | "quota" | "bad_request" | "context_too_long" | "not_found" | "server" | "timeout" | "network" | "interrupted" | "malformed";
  /** The HTTP status, when there was one. */
  status: number | null;
  /** The provider's message. */
  message: string;
  /** The provider's error type or code. */
  code: string | null;
  /** How long the provider asked to wait. */
  retryAfterMs: number | null;
}
/** Why a turn (or a round) ended. */
export type FinishReason = "stop" | "tool_calls" | "max_tokens" | "refusal" | "safety" | "max_rounds" | "error";
/** One tool call of a turn: the MCP tool that ran (through use_tool or not), its arguments after coercion, and whether it failed. */
export interface CallRecord { name: string; arguments: unknown; isError: boolean }
/** The end of a turn. */
export interface ConversationDone {
  type: "done";
  reason: FinishReason;
  /** The model's last answer. */
  text: string;
  rounds: number;
  calls: CallRecord[];
  usage: { inputTokens: number; outputTokens: number };
  error?: ProviderError;
  note?: string;
}
/**
 * What the conversation asks of the host: send a request to the model (then report its response with
 * response(), body() and end(), or failure()), stop reading one, show text, run a tool (report with
 * complete() or fail()), wait for a retry (call handleTimeout() at `atMs`), or the turn's end.
 */
export type ConversationOutput =
  | { type: "request"; id: number; method: "POST"; url: string; path: string; headers: [string, string][]; body: string; stream: boolean; size: RequestSize }
  | { type: "cancel"; request: number }
  | { type: "text"; request: number; delta: string }
  | { type: "call"; id: string; name: string; arguments: { [name: string]: unknown }; coercions?: Coercion[]; via?: string;
      request: { jsonrpc: "2.0"; id: string; method: "tools/call"; params: { name: string; arguments: { [name: string]: unknown } } } }
  | { type: "retry"; error: ProviderError; atMs: number }
  | ConversationDone;
/**
 * How much a request to the model carries, estimated: the body's tokens, of which `deferredTokens` are tool
 * definitions the provider keeps back until its tool search loads them (native disclosure; else 0), and the
 * tools it carries (meta-tools and a search tool included), of which `deferredTools` are deferred.
 */
export interface RequestSize { tokens: number; deferredTokens: number; tools: number; deferredTools: number }
/** Response headers: pairs, a plain object, or anything with entries() (a fetch Headers). */
export type HeadersInput = [string, string][] | { [name: string]: string } | { entries(): Iterable<[string, string]> };
"#;

/// Settings of a conversation.
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConversationOptions {
    /// The model API.
    #[tsify(type = "ProviderName")]
    provider: String,
    /// The model's name.
    model: String,
    /// The API key (sent in the provider's header); none for local servers.
    #[serde(default)]
    #[tsify(optional)]
    api_key: Option<String>,
    /// The base URL (OpenAI's includes /v1; Anthropic's and Gemini's are the host's root). Default: the vendor's.
    #[serde(default)]
    #[tsify(optional)]
    base_url: Option<String>,
    /// The system prompt.
    #[serde(default)]
    #[tsify(optional)]
    system: Option<String>,
    /// Most model requests per turn (default 10).
    #[serde(default)]
    #[tsify(optional)]
    max_rounds: Option<u32>,
    /// Sampling temperature.
    #[serde(default)]
    #[tsify(optional)]
    temperature: Option<f64>,
    /// Nucleus sampling.
    #[serde(default)]
    #[tsify(optional)]
    top_p: Option<f64>,
    /// Most tokens per response (Anthropic: 4096 when left out).
    #[serde(default)]
    #[tsify(optional)]
    max_output_tokens: Option<u64>,
    /// Most tokens of history sent (estimated): older tool results are shortened first.
    #[serde(default)]
    #[tsify(optional)]
    history_budget: Option<usize>,
    /// Streamed responses (text as it arrives).
    #[serde(default)]
    #[tsify(optional)]
    stream: Option<bool>,
    /// Which tools the model is shown (default "all"); "native": the provider's own tool search (anthropic, openai-responses; hybrid for the others).
    #[serde(default)]
    #[tsify(optional, type = "Mode | \"native\"")]
    mode: Option<String>,
    /// With mode "native": whose search loads the deferred tools: "ours" (default; answered by the conversation with the catalog's ranked multilingual search) or "provider".
    #[serde(default)]
    #[tsify(optional, type = "\"ours\" | \"provider\"")]
    search_with: Option<String>,
    /// Tools listed in hybrid mode (default: chosen from the catalog).
    #[serde(default)]
    #[tsify(optional)]
    core: Option<Vec<String>>,
    /// Curated search metadata for search_tools.
    #[serde(default)]
    #[tsify(optional, type = "SearchMetadata")]
    metadata: Option<Value>,
    /// For "auto": the model's context in tokens (default 32000).
    #[serde(default)]
    #[tsify(optional)]
    context_tokens: Option<usize>,
    /// Strict tool schemas (OpenAI, Anthropic).
    #[serde(default)]
    #[tsify(optional)]
    strict: Option<bool>,
    /// Anthropic from a browser: sends anthropic-dangerous-direct-browser-access.
    #[serde(default)]
    #[tsify(optional)]
    browser_access: Option<bool>,
    /// Milliseconds without a byte of the model's response before it is given up (default 120000).
    #[serde(default)]
    #[tsify(optional)]
    request_timeout_ms: Option<u64>,
    /// Milliseconds a tool call may take (default 60000).
    #[serde(default)]
    #[tsify(optional)]
    tool_timeout_ms: Option<u64>,
    /// Retries of a request that failed for a passing reason (default 2).
    #[serde(default)]
    #[tsify(optional)]
    max_retries: Option<u32>,
    /// The longest wait before a retry (default 30000 ms).
    #[serde(default)]
    #[tsify(optional)]
    max_retry_wait_ms: Option<u64>,
}

impl ConversationOptions {
    fn read(self) -> Result<(Provider, Options), JsValue> {
        let provider = Provider::parse(&self.provider).ok_or_else(|| {
            usage(&format!(
                "unknown provider {:?}; choose gemini, openai, openai-responses, anthropic or prompted",
                self.provider
            ))
        })?;
        let mut o = Options::new(self.model);
        o.api_key = self.api_key;
        o.base_url = self.base_url;
        o.system = self.system;
        o.temperature = self.temperature;
        o.top_p = self.top_p;
        o.max_output_tokens = self.max_output_tokens;
        o.history_budget = self.history_budget;
        o.stream = self.stream.unwrap_or(false);
        o.core = self.core;
        o.metadata = self.metadata;
        o.strict = self.strict.unwrap_or(false);
        o.browser_access = self.browser_access.unwrap_or(false);
        if let Some(m) = self.mode {
            o.mode = ToolMode::parse(&m).ok_or_else(|| {
                usage(&format!(
                    "unknown mode {m:?}; choose all, hybrid, meta, auto or native"
                ))
            })?;
        }
        if let Some(w) = self.search_with {
            o.search_with = crate::SearchWith::parse(&w).ok_or_else(|| {
                usage(&format!(
                    "unknown searchWith {w:?}; choose ours or provider"
                ))
            })?;
        }
        if let Some(n) = self.max_rounds {
            o = o.with_max_rounds(n);
        }
        if let Some(n) = self.context_tokens {
            o = o.with_context_tokens(n);
        }
        if let Some(n) = self.request_timeout_ms {
            o = o.with_request_timeout_ms(n);
        }
        if let Some(n) = self.tool_timeout_ms {
            o = o.with_tool_timeout_ms(n);
        }
        if let Some(n) = self.max_retries {
            o = o.with_max_retries(n);
        }
        if let Some(n) = self.max_retry_wait_ms {
            o = o.with_max_retry_wait_ms(n);
        }
        Ok((provider, o))
    }
}

/// A whole model ⇄ MCP conversation, sans I/O: `send(text, now)`, then
/// `poll()` the outputs and answer them; `runChat` (in `mcp-switchboard`)
/// does that with a `fetch` and a `callTool` of yours.
#[wasm_bindgen(js_name = Conversation)]
pub struct JsConversation {
    inner: Conversation,
}

/// Milliseconds from JS as the core takes them.
fn ms(now: f64) -> u64 {
    super::millis(now)
}

/// The providers a Conversation speaks: each one's name, its vendor's
/// base URL and the environment variable its SDK reads the key from.
#[wasm_bindgen(
    unchecked_return_type = "{ name: ProviderName; baseUrl: string; keyVariable: string; dialect: DialectName }[]"
)]
pub fn providers() -> Result<JsValue, JsValue> {
    let list: Vec<Value> = Provider::ALL
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.as_str(),
                "baseUrl": p.default_base_url(),
                "keyVariable": p.key_variable(),
                "dialect": p.dialect().as_str(),
            })
        })
        .collect();
    to_js(&list)
}

/// Response headers as pairs: an array of pairs, a plain object, or a
/// fetch `Headers` (anything with `entries()`).
fn headers_of(headers: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    if headers.is_undefined() || headers.is_null() {
        return Ok(Vec::new());
    }
    // a fetch Headers: the headers the conversation reads, by name (its
    // entries are slow to walk)
    let get = js_sys::Reflect::get(headers, &"get".into()).unwrap_or(JsValue::UNDEFINED);
    if let Some(get) = get.dyn_ref::<js_sys::Function>() {
        let mut out = Vec::new();
        for name in crate::conversation::READ_HEADERS {
            if let Some(v) = get.call1(headers, &JsValue::from_str(name))?.as_string() {
                out.push((name.to_string(), v));
            }
        }
        return Ok(out);
    }
    let pairs: JsValue = if js_sys::Array::is_array(headers) {
        headers.clone()
    } else {
        let entries =
            js_sys::Reflect::get(headers, &"entries".into()).unwrap_or(JsValue::UNDEFINED);
        match entries.dyn_ref::<js_sys::Function>() {
            Some(f) => js_sys::Array::from(&f.call0(headers)?).into(),
            None => js_sys::Object::entries(headers.unchecked_ref()).into(),
        }
    };
    let v = read_value(&pairs, "the headers")?;
    let mut out = Vec::new();
    for pair in v
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .take(256)
    {
        if let (Some(k), Some(val)) = (
            pair.get(0).and_then(Value::as_str),
            pair.get(1).and_then(Value::as_str),
        ) {
            out.push((k.to_string(), val.to_string()));
        }
    }
    Ok(out)
}

#[wasm_bindgen(js_class = Conversation)]
impl JsConversation {
    /// A conversation over the tools of `catalog` (an MCP tools/list result, or any catalog form).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
        options: Ts<ConversationOptions>,
    ) -> Result<JsConversation, JsValue> {
        let catalog = read_catalog(&catalog)?;
        let o = ConversationOptions::from_js(options.js_value())
            .map_err(|e| usage(&format!("bad conversation options: {e}")))?;
        let (provider, options) = o.read()?;
        Ok(JsConversation {
            inner: Conversation::new(provider, catalog, options),
        })
    }

    /// Starts a turn with the user's text (`now`: milliseconds, as Date.now() gives).
    pub fn send(&mut self, text: &str, now: f64) -> Result<(), JsValue> {
        self.inner.send(text, ms(now)).map_err(|e| js_error(&e))
    }

    /// The next output, or undefined.
    #[wasm_bindgen(unchecked_return_type = "ConversationOutput | undefined")]
    pub fn poll(&mut self) -> Result<JsValue, JsValue> {
        match self.inner.poll_output() {
            // the body goes as a string of its own, not escaped inside the
            // output's JSON and parsed again
            Some(Output::Request(mut r)) => {
                let body = std::mem::take(&mut r.body);
                let out = to_js(&Output::Request(r))?;
                js_sys::Reflect::set(&out, &"body".into(), &JsValue::from_str(&body))?;
                Ok(out)
            }
            Some(o) => to_js(&o),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// When handleTimeout() is next due (milliseconds), or undefined.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(|t| t as f64)
    }

    /// The time is `now`: deadlines and retry waits are dealt with.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now: f64) {
        self.inner.handle_timeout(ms(now));
    }

    /// Request `id`'s response began: its status and headers.
    pub fn response(
        &mut self,
        id: f64,
        status: f64,
        #[wasm_bindgen(unchecked_param_type = "HeadersInput")] headers: JsValue,
        now: f64,
    ) -> Result<(), JsValue> {
        let headers = headers_of(&headers)?;
        let status = if (100.0..1000.0).contains(&status) {
            status as u16
        } else {
            0
        };
        self.inner
            .handle_response(id as u64, status, &headers, ms(now));
        Ok(())
    }

    /// A chunk of request `id`'s body, as it came (bytes or text).
    pub fn body(
        &mut self,
        id: f64,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] chunk: JsValue,
        now: f64,
    ) -> Result<(), JsValue> {
        let bytes = if let Some(b) = chunk.dyn_ref::<js_sys::Uint8Array>() {
            b.to_vec()
        } else if chunk.is_string() {
            string_of(&chunk, "the chunk")?.into_bytes()
        } else {
            return Err(usage("the chunk must be a Uint8Array or a string"));
        };
        self.inner.handle_body(id as u64, &bytes, ms(now));
        Ok(())
    }

    /// Request `id`'s body ended.
    pub fn end(&mut self, id: f64, now: f64) {
        self.inner.handle_end(id as u64, ms(now));
    }

    /// Request `id` could not be sent, or its connection broke.
    pub fn failure(&mut self, id: f64, message: &str, now: f64) {
        self.inner.handle_failure(id as u64, message, ms(now));
    }

    /// Call `id`'s result: a CallToolResult, a JSON-RPC response or error, any value (the tool's output;
    /// undefined: no output), or an Error (the tool threw; the model reads it as an error result).
    pub fn complete(
        &mut self,
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue,
        now: f64,
    ) -> Result<(), JsValue> {
        if let Some(e) = result.dyn_ref::<js_sys::Error>() {
            let message: String = e.message().into();
            self.inner.fail_call(id, &message, ms(now));
            return Ok(());
        }
        // a tool that returned nothing succeeded with no output
        let value = if result.is_undefined() {
            crate::tool_success(Value::Null)
        } else if result.is_string() {
            // JSON text (as an MCP source gives it), else the tool's text
            let text = string_of(&result, "the result")?;
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        } else {
            read_value(&result, "the result")?
        };
        self.inner.complete_call(id, &value, ms(now));
        Ok(())
    }

    /// Call `id` failed (it threw, or timed out): the model reads `message` as an error result.
    pub fn fail(&mut self, id: &str, message: &str, now: f64) {
        self.inner.fail_call(id, message, ms(now));
    }

    /// The catalog changed (notifications/tools/list_changed): the tools are converted again.
    #[wasm_bindgen(js_name = setCatalog)]
    pub fn set_catalog(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<(), JsValue> {
        self.inner.set_catalog(read_catalog(&catalog)?);
        Ok(())
    }

    /// The history, in the model API's own shape.
    #[wasm_bindgen(unchecked_return_type = "unknown[]")]
    pub fn history(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.history())
    }

    /// The tools as the model is shown them, in the dialect's shape.
    #[wasm_bindgen(unchecked_return_type = "unknown[]")]
    pub fn tools(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.tools().tools)
    }

    /// What converting the tools for the model did: each tool's losses and,
    /// in a disclosure mode, which tools are loaded, deferred or reached
    /// through the meta-tools (a note without a tool: what the mode became).
    #[wasm_bindgen(js_name = toolsReport, unchecked_return_type = "ReportEntry[]")]
    pub fn tools_report(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.tools().report)
    }

    /// Whether a turn is under way.
    #[wasm_bindgen(getter)]
    pub fn busy(&self) -> bool {
        self.inner.busy()
    }

    /// The provider.
    #[wasm_bindgen(getter, unchecked_return_type = "ProviderName")]
    pub fn provider(&self) -> String {
        self.inner.provider().as_str().to_string()
    }
}
