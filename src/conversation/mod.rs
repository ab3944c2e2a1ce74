//! A whole model ⇄ MCP loop, sans I/O: [`Conversation`].
//!
//! The conversation holds the history in the model API's own shape, the
//! tool catalog, the disclosure mode and the options. It says what to do
//! next as [`Output`]s: the HTTP request to send to the model, text as it
//! arrives, the MCP tool calls to run (validated and coerced against each
//! tool's real schema; the meta-tools `search_tools`,
//! `get_tool_definition` and `use_tool` are answered here, without the
//! host), a retry to wait for, and the end of the turn with its reason.
//! The host does the I/O and reports back: the response's status and
//! headers, its body (whole, or chunks as they arrive), each call's MCP
//! result or failure, and the time when a deadline passes.
//!
//! ```
//! use mcp_switchboard::conversation::{Conversation, ConversationOptions, Output};
//! use mcp_switchboard::{Catalog, Provider};
//!
//! let catalog = Catalog::parse(br#"[{"name": "get_time", "inputSchema": {"type": "object"}}]"#)?;
//! let options = ConversationOptions::new("gpt-4.1").with_api_key("sk-test");
//! let mut chat = Conversation::new(Provider::OpenAi, catalog, options);
//! chat.send("What time is it?", 0)?;
//! let Some(Output::Request(req)) = chat.poll_output() else { panic!() };
//! assert_eq!(req.url, "https://api.openai.com/v1/chat/completions");
//!
//! // the model asks for the tool
//! let body = br#"{"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
//!   "content": null, "tool_calls": [{"id": "c1", "type": "function",
//!   "function": {"name": "get_time", "arguments": "{}"}}]}}]}"#;
//! chat.handle_response(req.id, 200, &[], 1);
//! chat.handle_body(req.id, body, 1);
//! chat.handle_end(req.id, 1);
//! let Some(Output::Call(call)) = chat.poll_output() else { panic!() };
//! assert_eq!(call.name, "get_time");
//!
//! // the host ran it; the conversation asks the model again
//! chat.complete_call(&call.id, &serde_json::json!({"content": [{"type": "text", "text": "12:00"}]}), 2);
//! let Some(Output::Request(again)) = chat.poll_output() else { panic!() };
//! let body = br#"{"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": "It is noon."}}]}"#;
//! chat.handle_response(again.id, 200, &[], 3);
//! chat.handle_body(again.id, body, 3);
//! chat.handle_end(again.id, 3);
//! let mut done = None;
//! while let Some(out) = chat.poll_output() {
//!     if let Output::Done(d) = out { done = Some(d) }
//! }
//! assert_eq!(done.map(|d| d.text), Some("It is noon.".to_string()));
//! # Ok::<(), mcp_switchboard::Error>(())
//! ```

use std::collections::VecDeque;

use serde::Serialize;
use serde_json::{json, Value};

use crate::call::{Call, ModelTurn};
use crate::catalog::Catalog;
use crate::client::SseParser;
use crate::dialect::{
    convert, format_results, openai_responses, parse_calls, visible_tokens, Conversion,
    DisclosureMode, Options, SearchWith,
};
use crate::engine::disclosure::{Answer, Route, View};
use crate::engine::{Disclosure, EngineConfig, Mode};
use crate::error::{Error, ErrorKind};
pub use crate::provider::Provider;
use crate::provider::{self, Read, RequestParts, Stream};
use crate::tokens::estimate_tokens;
use crate::validate::Coercion;

#[cfg(test)]
mod tests;

/// Which tools the model is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ToolMode {
    /// Every tool.
    #[default]
    All,
    /// A few core tools plus `search_tools`, `get_tool_definition` and
    /// `use_tool`.
    Hybrid,
    /// The meta-tools alone.
    Meta,
    /// `Hybrid` when the full list would take more than a tenth of the
    /// context ([`ConversationOptions::with_context_tokens`]), `All`
    /// otherwise.
    Auto,
    /// The provider's own tool search (Anthropic, OpenAI Responses): the
    /// core tools loaded, the others deferred and loaded by the search
    /// ([`ConversationOptions::with_search_with`]); a client search is
    /// answered here, with the ranked search of the catalog. `Hybrid` for
    /// the other providers.
    Native,
}

impl ToolMode {
    /// Reads `all`, `hybrid`, `meta`, `auto` or `native`.
    pub fn parse(s: &str) -> Option<ToolMode> {
        Some(match s {
            "all" => ToolMode::All,
            "hybrid" => ToolMode::Hybrid,
            "meta" => ToolMode::Meta,
            "auto" => ToolMode::Auto,
            "native" => ToolMode::Native,
            _ => return None,
        })
    }

    /// The mode's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolMode::All => "all",
            ToolMode::Hybrid => "hybrid",
            ToolMode::Meta => "meta",
            ToolMode::Auto => "auto",
            ToolMode::Native => "native",
        }
    }
}

/// A conversation's settings: `ConversationOptions::new(model)`, then
/// `with_*`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ConversationOptions {
    /// The model's name, as the API takes it.
    pub model: String,
    /// The API key, written into the provider's header (`x-goog-api-key`,
    /// `Authorization: Bearer`, `x-api-key`); none for local servers.
    pub api_key: Option<String>,
    /// The base URL; `None`: the vendor's ([`Provider::default_base_url`]).
    pub base_url: Option<String>,
    /// The system prompt.
    pub system: Option<String>,
    /// Most model requests in one turn (default 10).
    pub max_rounds: u32,
    /// Sampling temperature (Gemini, OpenAI; Anthropic's Messages API no
    /// longer takes one).
    pub temperature: Option<f64>,
    /// Nucleus sampling (Gemini, OpenAI; not Anthropic).
    pub top_p: Option<f64>,
    /// Most tokens the model may write per response (Anthropic requires
    /// one: 4096 when `None`).
    pub max_output_tokens: Option<u64>,
    /// Most tokens of history sent (estimated); older tool results are
    /// shortened first, then the oldest exchanges left out. `None`: no
    /// limit.
    pub history_budget: Option<usize>,
    /// Ask for a streamed response.
    pub stream: bool,
    /// Which tools the model is shown.
    pub mode: ToolMode,
    /// In [`ToolMode::Native`], whose search loads the deferred tools:
    /// ours (the default: answered here, with the catalog's ranked
    /// multilingual search) or the provider's.
    pub search_with: SearchWith,
    /// The tools listed in hybrid mode (default: read-only overview tools
    /// chosen from the catalog).
    pub core: Option<Vec<String>>,
    /// Curated search metadata for `search_tools`.
    pub metadata: Option<Value>,
    /// The model's context, in tokens, for [`ToolMode::Auto`] (default
    /// 32,000).
    pub context_tokens: usize,
    /// Strict tool schemas (OpenAI, Anthropic).
    pub strict: bool,
    /// Anthropic from a browser: `anthropic-dangerous-direct-browser-access`.
    pub browser_access: bool,
    /// Milliseconds without a byte of the model's response before it is
    /// given up (default 120,000).
    pub request_timeout_ms: u64,
    /// Milliseconds a tool call may take (default 60,000).
    pub tool_timeout_ms: u64,
    /// Retries of a request that failed for a passing reason (429, 5xx,
    /// a timeout, a network failure; default 2).
    pub max_retries: u32,
    /// The longest wait before a retry (default 30,000 ms): a provider
    /// asking for longer ends the turn with its error.
    pub max_retry_wait_ms: u64,
    /// The largest response body read, in bytes (default 16 MiB).
    pub max_response_bytes: usize,
}

impl ConversationOptions {
    /// The defaults for `model`.
    pub fn new(model: impl Into<String>) -> ConversationOptions {
        ConversationOptions {
            model: model.into(),
            api_key: None,
            base_url: None,
            system: None,
            max_rounds: 10,
            temperature: None,
            top_p: None,
            max_output_tokens: None,
            history_budget: None,
            stream: false,
            mode: ToolMode::All,
            search_with: SearchWith::Ours,
            core: None,
            metadata: None,
            context_tokens: 32_000,
            strict: false,
            browser_access: false,
            request_timeout_ms: 120_000,
            tool_timeout_ms: 60_000,
            max_retries: 2,
            max_retry_wait_ms: 30_000,
            max_response_bytes: 16 * 1024 * 1024,
        }
    }

    /// The API key.
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// The base URL (OpenAI's convention includes `/v1`; Anthropic's and
    /// Gemini's are the host's root).
    pub fn with_base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// The system prompt.
    pub fn with_system(mut self, system: impl Into<String>) -> Self {
        self.system = Some(system.into());
        self
    }

    /// Most model requests per turn (at least 1).
    pub fn with_max_rounds(mut self, n: u32) -> Self {
        self.max_rounds = n.max(1);
        self
    }

    /// Sampling temperature.
    pub fn with_temperature(mut self, t: f64) -> Self {
        self.temperature = Some(t);
        self
    }

    /// Nucleus sampling.
    pub fn with_top_p(mut self, p: f64) -> Self {
        self.top_p = Some(p);
        self
    }

    /// Most tokens per response.
    pub fn with_max_output_tokens(mut self, n: u64) -> Self {
        self.max_output_tokens = Some(n);
        self
    }

    /// Most tokens of history sent (estimated).
    pub fn with_history_budget(mut self, tokens: usize) -> Self {
        self.history_budget = Some(tokens);
        self
    }

    /// Streamed responses on or off.
    pub fn with_stream(mut self, stream: bool) -> Self {
        self.stream = stream;
        self
    }

    /// The disclosure mode.
    pub fn with_mode(mut self, mode: ToolMode) -> Self {
        self.mode = mode;
        self
    }

    /// Whose search loads the deferred tools in native mode.
    pub fn with_search_with(mut self, search: SearchWith) -> Self {
        self.search_with = search;
        self
    }

    /// The tools listed in hybrid mode.
    pub fn with_core<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.core = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Curated search metadata.
    pub fn with_metadata(mut self, metadata: Value) -> Self {
        self.metadata = Some(metadata);
        self
    }

    /// The model's context in tokens, for [`ToolMode::Auto`].
    pub fn with_context_tokens(mut self, tokens: usize) -> Self {
        self.context_tokens = tokens;
        self
    }

    /// Strict tool schemas.
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Anthropic's header for calls straight from a browser.
    pub fn with_browser_access(mut self, on: bool) -> Self {
        self.browser_access = on;
        self
    }

    /// Milliseconds without a byte of the response before it is given up.
    pub fn with_request_timeout_ms(mut self, ms: u64) -> Self {
        self.request_timeout_ms = ms.max(1);
        self
    }

    /// Milliseconds a tool call may take.
    pub fn with_tool_timeout_ms(mut self, ms: u64) -> Self {
        self.tool_timeout_ms = ms.max(1);
        self
    }

    /// Retries of a request that failed for a passing reason.
    pub fn with_max_retries(mut self, n: u32) -> Self {
        self.max_retries = n.min(10);
        self
    }

    /// The longest wait before a retry.
    pub fn with_max_retry_wait_ms(mut self, ms: u64) -> Self {
        self.max_retry_wait_ms = ms;
        self
    }

    /// The largest response body read, in bytes.
    pub fn with_max_response_bytes(mut self, n: usize) -> Self {
        self.max_response_bytes = n.max(1024);
        self
    }
}

/// Tokens counted by the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[non_exhaustive]
pub struct Usage {
    /// Tokens read (the prompt, the history, the tools).
    #[serde(rename = "inputTokens")]
    pub input_tokens: u64,
    /// Tokens written.
    #[serde(rename = "outputTokens")]
    pub output_tokens: u64,
}

/// Why a response, or the turn, ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FinishReason {
    /// The model answered.
    Stop,
    /// The model asked for tools (a round's end, not the turn's).
    ToolCalls,
    /// The answer reached the output token limit.
    MaxTokens,
    /// The model refused.
    Refusal,
    /// A safety filter blocked the prompt or the answer.
    Safety,
    /// The round limit ended the turn while the model still wanted tools.
    MaxRounds,
    /// A provider error ended the turn.
    Error,
}

/// What kind of failure a provider's answer was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ProviderErrorKind {
    /// 401/403: a missing or wrong key (Gemini's 400 `API_KEY_INVALID` too).
    Auth,
    /// 429: too many requests; see `retry_after_ms`.
    RateLimited,
    /// 429 `insufficient_quota`: the account is out of credit.
    Quota,
    /// 400: the provider refused the request; its message says why.
    BadRequest,
    /// The prompt is longer than the model's context.
    ContextTooLong,
    /// 404: no such model or path (check the base URL and the model).
    NotFound,
    /// 5xx or an overloaded provider.
    Server,
    /// No answer in time.
    Timeout,
    /// The request could not be sent or the connection broke.
    Network,
    /// The stream ended before its last event.
    Interrupted,
    /// A response that is not what the API sends.
    Malformed,
}

impl ProviderErrorKind {
    /// Whether a retry may help.
    pub fn passing(self) -> bool {
        matches!(
            self,
            ProviderErrorKind::RateLimited
                | ProviderErrorKind::Server
                | ProviderErrorKind::Timeout
                | ProviderErrorKind::Network
        )
    }
}

/// A failure of the model's API, as the provider gave it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ProviderError {
    /// What kind of failure.
    pub kind: ProviderErrorKind,
    /// The HTTP status, when the response had one.
    pub status: Option<u16>,
    /// The provider's message (or ours, when it gave none).
    pub message: String,
    /// The provider's error type or code (`rate_limit_error`,
    /// `context_length_exceeded`, `RESOURCE_EXHAUSTED`).
    pub code: Option<String>,
    /// How long the provider asked to wait, in milliseconds.
    #[serde(rename = "retryAfterMs")]
    pub retry_after_ms: Option<u64>,
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            Some(s) => write!(f, "HTTP {s}: {}", self.message)?,
            None => f.write_str(&self.message)?,
        }
        if let Some(ms) = self.retry_after_ms {
            write!(f, " (retry after {} s)", ms.div_ceil(1000))?;
        }
        Ok(())
    }
}

/// An HTTP request to send to the model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ModelRequest {
    /// Names the request in the answers about it.
    pub id: u64,
    /// Always `POST`.
    pub method: &'static str,
    /// The base URL joined with `path`.
    pub url: String,
    /// The path after the base URL (with its query).
    pub path: String,
    /// The headers: content type, the key, the API version.
    pub headers: Vec<(String, String)>,
    /// The JSON body, as text.
    pub body: String,
    /// Whether the response will be a stream of Server-Sent Events.
    pub stream: bool,
    /// How much the request carries, estimated.
    pub size: RequestSize,
}

/// How much a request to the model carries: its tokens (estimated, as
/// [`crate::budget`] counts them) and its tools, with the share the
/// provider keeps back until the model's tool search loads it (native
/// disclosure; zero in every other mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RequestSize {
    /// Estimated tokens of the whole body: instructions, history, tools.
    pub tokens: usize,
    /// Of those, the deferred tool definitions': sent, but read by the
    /// model only once its tool search loads them.
    pub deferred_tokens: usize,
    /// Tools the request carries (meta-tools and a search tool included;
    /// for `prompted`, the tools its prompt describes).
    pub tools: usize,
    /// Of those, the deferred ones.
    pub deferred_tools: usize,
}

/// An MCP tool call for the host to run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolCall {
    /// The call's id: answer with it.
    pub id: String,
    /// The MCP tool.
    pub name: String,
    /// The arguments, validated and coerced.
    pub arguments: Value,
    /// What coercion changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub coercions: Vec<Coercion>,
    /// The meta-tool the model went through (`use_tool`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The MCP `tools/call` JSON-RPC request.
    pub request: Value,
}

/// One tool call of a turn, as `--json` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct CallRecord {
    /// The MCP tool (through `use_tool` or not).
    pub name: String,
    /// The arguments it ran with (after coercion), or as sent when they
    /// were refused.
    pub arguments: Value,
    /// Whether it failed or was refused.
    #[serde(rename = "isError")]
    pub is_error: bool,
}

/// The end of a turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Finished {
    /// Why it ended.
    pub reason: FinishReason,
    /// The model's last answer.
    pub text: String,
    /// Model requests made in the turn (retries not counted).
    pub rounds: u32,
    /// The tool calls of the turn.
    pub calls: Vec<CallRecord>,
    /// Tokens, all rounds together.
    pub usage: Usage,
    /// The error that ended the turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ProviderError>,
    /// The provider's words for a refusal or a block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What the conversation asks of the host, or tells it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Output {
    /// Send this request; report with `handle_response`, `handle_body`
    /// and `handle_end` (or `handle_failure`).
    Request(ModelRequest),
    /// Stop reading this request's response (it timed out or failed).
    Cancel {
        /// The request.
        request: u64,
    },
    /// Text of the model's answer, as it arrives.
    Text {
        /// The request whose response holds it.
        request: u64,
        /// The new text.
        delta: String,
    },
    /// Run this tool; report with `complete_call` or `fail_call`.
    Call(ToolCall),
    /// The request failed for a passing reason and will be sent again
    /// at `at_ms` (after `handle_timeout` at that time).
    Retry {
        /// The failure.
        error: ProviderError,
        /// When the request goes again.
        #[serde(rename = "atMs")]
        at_ms: u64,
    },
    /// The turn ended.
    Done(Finished),
}

/// One item of the history and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    User,
    Assistant,
    Results,
}

/// The response being read.
struct Reading {
    id: u64,
    deadline: u64,
    /// `None` until the head came: the status and whether the body is a
    /// stream.
    head: Option<(u16, bool)>,
    body: Vec<u8>,
    sse: Option<(SseParser, Stream)>,
    /// The bytes of a character split across chunks.
    pending: Vec<u8>,
    /// Whether text of this response went out already.
    spoke: bool,
}

/// The calls of a round, waiting for their results.
struct Running {
    turn: ModelTurn,
    results: Vec<Value>,
    /// `(call id, index in the turn, deadline, record index)`.
    waiting: Vec<(String, usize, u64, Option<usize>)>,
}

enum Phase {
    Idle,
    Model(Reading),
    Backoff { until: u64 },
    Tools(Running),
}

/// The tools as the model sees them: the view (disclosure), the listed
/// tools as a catalog, and their conversion to the dialect.
struct Tools {
    view: View,
    listed: Catalog,
    conversion: Conversion,
    /// In native mode, the deferred tools (by dialect name) and the name
    /// of our Anthropic search tool (answered here).
    native: Option<(Vec<String>, Option<String>)>,
    /// The tools' counts and deferred tokens, for each request's size.
    size: RequestSize,
}

/// A whole model ⇄ MCP conversation, sans I/O. See the [module
/// documentation](self).
pub struct Conversation {
    provider: Provider,
    options: ConversationOptions,
    catalog: Catalog,
    tools: Tools,
    history: Vec<Value>,
    kinds: Vec<Kind>,
    outputs: VecDeque<Output>,
    phase: Phase,
    next_id: u64,
    round: u32,
    attempt: u32,
    failures: Vec<(String, u32)>,
    calls: Vec<CallRecord>,
    usage: Usage,
    text: String,
    /// The `retry-after` headers of a failed response, until its body
    /// is read.
    error_headers: Vec<(String, String)>,
}

/// The response headers the conversation reads (a host may pass these
/// alone): the body's type, and how long to wait before a retry.
pub const READ_HEADERS: [&str; 3] = ["content-type", "retry-after", "retry-after-ms"];

/// The longest user message, in bytes.
const MAX_TEXT: usize = 64 * 1024 * 1024;

impl Conversation {
    /// A conversation with `provider` over the tools of `catalog`.
    pub fn new(provider: Provider, catalog: Catalog, options: ConversationOptions) -> Conversation {
        let tools = tools_for(provider, &catalog, &options);
        Conversation {
            provider,
            options,
            catalog,
            tools,
            history: Vec::new(),
            kinds: Vec::new(),
            outputs: VecDeque::new(),
            phase: Phase::Idle,
            next_id: 1,
            round: 0,
            attempt: 0,
            failures: Vec::new(),
            calls: Vec::new(),
            usage: Usage::default(),
            text: String::new(),
            error_headers: Vec::new(),
        }
    }

    /// The provider.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The options.
    pub fn options(&self) -> &ConversationOptions {
        &self.options
    }

    /// The history, in the API's own shape (the system prompt is not in
    /// it).
    pub fn history(&self) -> &[Value] {
        &self.history
    }

    /// The tools as the model is shown them, in the dialect's shape.
    pub fn tools(&self) -> &Conversion {
        &self.tools.conversion
    }

    /// Whether a turn is under way.
    pub fn busy(&self) -> bool {
        !matches!(self.phase, Phase::Idle)
    }

    /// Starts a turn with the user's `text`. Fails while a turn is under
    /// way.
    pub fn send(&mut self, text: &str, now: u64) -> Result<(), Error> {
        if self.busy() {
            return Err(Error::misused(
                crate::Misuse::Busy,
                "",
                "a turn is under way: wait for its Done output before sending again",
            ));
        }
        if text.len() > MAX_TEXT {
            return Err(Error::new(
                ErrorKind::Limit,
                "",
                format!("the message is over {MAX_TEXT} bytes"),
            ));
        }
        self.push(self.provider.user_message(text), Kind::User);
        self.round = 0;
        self.calls.clear();
        self.usage = Usage::default();
        self.text.clear();
        self.next_round(now);
        Ok(())
    }

    /// The catalog changed (`notifications/tools/list_changed`): the
    /// tools are converted again and go with the next request.
    pub fn set_catalog(&mut self, catalog: Catalog) {
        self.tools = tools_for(self.provider, &catalog, &self.options);
        self.catalog = catalog;
    }

    /// The next output, oldest first.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<Output> {
        self.outputs.pop_front()
    }

    /// When [`Conversation::handle_timeout`] is next due (milliseconds,
    /// on the host's clock), if anything waits on time.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        match &self.phase {
            Phase::Idle => None,
            Phase::Model(r) => Some(r.deadline),
            Phase::Backoff { until } => Some(*until),
            Phase::Tools(run) => run.waiting.iter().map(|w| w.2).min(),
        }
    }

    /// The time is `now`: a request without an answer, a tool call past
    /// its time, or a retry's wait, is dealt with.
    pub fn handle_timeout(&mut self, now: u64) {
        match &mut self.phase {
            Phase::Idle => {}
            Phase::Model(r) if now >= r.deadline => {
                let id = r.id;
                self.outputs.push_back(Output::Cancel { request: id });
                let secs = self.options.request_timeout_ms.div_ceil(1000);
                self.failed(
                    ProviderError {
                        kind: ProviderErrorKind::Timeout,
                        status: None,
                        message: format!("the model did not answer within {secs} s"),
                        code: None,
                        retry_after_ms: None,
                    },
                    now,
                );
            }
            Phase::Model(_) => {}
            Phase::Backoff { until } if now >= *until => {
                self.attempt += 1;
                self.request(now);
            }
            Phase::Backoff { .. } => {}
            Phase::Tools(run) => {
                let late: Vec<String> = run
                    .waiting
                    .iter()
                    .filter(|w| now >= w.2)
                    .map(|w| w.0.clone())
                    .collect();
                let secs = self.options.tool_timeout_ms.div_ceil(1000);
                for id in late {
                    self.fail_call(
                        &id,
                        &format!("the tool did not answer within {secs} s"),
                        now,
                    );
                }
            }
        }
    }

    /// The response to request `id` began: its status and headers.
    pub fn handle_response(
        &mut self,
        id: u64,
        status: u16,
        headers: &[(String, String)],
        now: u64,
    ) {
        let timeout = self.options.request_timeout_ms;
        let Phase::Model(r) = &mut self.phase else {
            return;
        };
        if r.id != id || r.head.is_some() {
            return;
        }
        let ok = (200..300).contains(&status);
        let event_stream = headers.iter().any(|(k, v)| {
            k.eq_ignore_ascii_case("content-type")
                && v.to_ascii_lowercase().contains("text/event-stream")
        });
        let streaming = ok && event_stream;
        r.head = Some((status, streaming));
        r.deadline = now.saturating_add(timeout);
        if streaming {
            let limit = self.options.max_response_bytes;
            r.sse = Some((SseParser::with_limit(limit), Stream::new(self.provider)));
        }
        if !ok {
            // the error body is read whole, then judged with the headers
            r.body.clear();
            self.error_headers = headers
                .iter()
                .filter(|(k, _)| k.to_ascii_lowercase().starts_with("retry-after"))
                .take(4)
                .cloned()
                .collect();
        }
    }

    /// A chunk of request `id`'s body (bytes as they came; a character
    /// may be split between chunks).
    pub fn handle_body(&mut self, id: u64, chunk: &[u8], now: u64) {
        let timeout = self.options.request_timeout_ms;
        let limit = self.options.max_response_bytes;
        let prompted = self.provider == Provider::Prompted;
        let Phase::Model(r) = &mut self.phase else {
            return;
        };
        if r.id != id || r.head.is_none() {
            return;
        }
        r.deadline = now.saturating_add(timeout);
        let Some((parser, stream)) = &mut r.sse else {
            if r.body.len().saturating_add(chunk.len()) > limit {
                let id = r.id;
                self.outputs.push_back(Output::Cancel { request: id });
                self.failed(
                    provider::malformed(&format!("the response is over {limit} bytes")),
                    now,
                );
                return;
            }
            r.body.extend_from_slice(chunk);
            return;
        };
        let text = utf8_chunk(&mut r.pending, chunk);
        let events = match parser.push(&text) {
            Ok(events) => events,
            Err(e) => {
                let id = r.id;
                self.outputs.push_back(Output::Cancel { request: id });
                self.failed(provider::malformed(e.message()), now);
                return;
            }
        };
        let mut delta = String::new();
        let mut failure = None;
        for ev in &events {
            if let Err(e) = stream.event(ev, &mut delta) {
                failure = Some(e);
                break;
            }
        }
        if !delta.is_empty() && !prompted {
            r.spoke = true;
            self.outputs.push_back(Output::Text { request: id, delta });
        }
        if let Some(e) = failure {
            let id = r.id;
            self.outputs.push_back(Output::Cancel { request: id });
            self.failed(e, now);
        }
    }

    /// Request `id`'s body ended.
    pub fn handle_end(&mut self, id: u64, now: u64) {
        let Phase::Model(r) = &mut self.phase else {
            return;
        };
        if r.id != id {
            return;
        }
        let Some((status, _)) = r.head else {
            return;
        };
        let spoke = r.spoke;
        let read = if let Some((mut parser, mut stream)) = r.sse.take() {
            let mut delta = String::from_utf8_lossy(&std::mem::take(&mut r.pending)).into_owned();
            let mut events = parser.push(&delta).unwrap_or_default();
            delta.clear();
            events.extend(parser.finish());
            let mut failure = None;
            for ev in &events {
                if let Err(e) = stream.event(ev, &mut delta) {
                    failure = Some(e);
                    break;
                }
            }
            if !delta.is_empty() && self.provider != Provider::Prompted {
                self.outputs.push_back(Output::Text { request: id, delta });
            }
            match failure {
                Some(e) => Err(e),
                None => stream.finish(),
            }
        } else {
            let body = std::mem::take(&mut r.body);
            if !(200..300).contains(&status) {
                let text = String::from_utf8_lossy(&body);
                let headers = std::mem::take(&mut self.error_headers);
                Err(self.provider.error(status, &headers, &text, now))
            } else {
                match serde_json::from_slice::<Value>(&body) {
                    Ok(v) => self.provider.read(&v),
                    Err(e) => Err(provider::malformed(&format!(
                        "the response is not JSON ({e})"
                    ))),
                }
            }
        };
        match read {
            Ok(read) => self.answered(id, read, spoke, now),
            Err(e) => self.failed(e, now),
        }
    }

    /// Request `id` could not be sent, or its connection broke.
    pub fn handle_failure(&mut self, id: u64, message: &str, now: u64) {
        let Phase::Model(r) = &self.phase else {
            return;
        };
        if r.id != id {
            return;
        }
        let message: String = message.chars().take(500).collect();
        self.failed(
            ProviderError {
                kind: ProviderErrorKind::Network,
                status: None,
                message: format!("the request failed: {message}"),
                code: None,
                retry_after_ms: None,
            },
            now,
        );
    }

    /// The MCP result of call `id`: a `CallToolResult`, a JSON-RPC
    /// response holding one or an error, or any value (taken as the
    /// tool's output).
    pub fn complete_call(&mut self, id: &str, result: &Value, now: u64) {
        let Phase::Tools(run) = &mut self.phase else {
            return;
        };
        let Some(at) = run.waiting.iter().position(|w| w.0 == id) else {
            return;
        };
        let (_, index, _, record) = run.waiting.remove(at);
        let result = crate::call::as_result(result);
        let is_error = result.get("isError") == Some(&Value::Bool(true));
        if let Some(slot) = run.results.get_mut(index) {
            *slot = result.clone();
        }
        let key = run.turn.calls.get(index).map(failure_key);
        if let Some(rec) = record.and_then(|i| self.calls.get_mut(i)) {
            rec.is_error = is_error;
        }
        if let (true, Some(key)) = (is_error, key) {
            self.count_failure(key);
        }
        self.maybe_continue(now);
    }

    /// Call `id` failed: its tool threw, or the call timed out. The model
    /// reads `message` as an error result.
    pub fn fail_call(&mut self, id: &str, message: &str, now: u64) {
        let message: String = message.chars().take(4000).collect();
        let result = json!({"content": [{"type": "text", "text": message}], "isError": true});
        self.complete_call(id, &result, now);
    }

    /// Whether every call of the round is answered: then the results go
    /// into the history and the model is asked again.
    fn maybe_continue(&mut self, now: u64) {
        let Phase::Tools(run) = &self.phase else {
            return;
        };
        if !run.waiting.is_empty() {
            return;
        }
        let Phase::Tools(run) = std::mem::replace(&mut self.phase, Phase::Idle) else {
            return;
        };
        self.write_results(&run.turn, run.results);
        self.next_round(now);
    }

    fn write_results(&mut self, turn: &ModelTurn, results: Vec<Value>) {
        let dialect = self.provider.dialect();
        match format_results(dialect, turn, &Value::Array(results)) {
            Ok(items) => {
                for item in items {
                    self.push(item, Kind::Results);
                }
            }
            Err(e) => {
                // cannot happen for results built here; said in the history
                let note = format!("(the tool results could not be written: {})", e.message());
                self.push(self.provider.user_message(&note), Kind::Results);
            }
        }
    }

    fn push(&mut self, item: Value, kind: Kind) {
        self.history.push(item);
        self.kinds.push(kind);
    }

    fn count_failure(&mut self, key: String) {
        match self.failures.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => {
                if self.failures.len() >= 256 {
                    self.failures.remove(0);
                }
                self.failures.push((key, 1));
            }
        }
    }

    fn failures_of(&self, key: &str) -> u32 {
        self.failures
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0, |(_, n)| *n)
    }

    /// Starts the next round: a new request, or the end when the round
    /// limit is reached.
    fn next_round(&mut self, now: u64) {
        self.round += 1;
        self.attempt = 0;
        self.request(now);
    }

    /// Builds and sends the current request (a new round or a retry).
    fn request(&mut self, now: u64) {
        self.fit_history();
        let stream = self.options.stream;
        let prompt = self
            .tools
            .conversion
            .extra
            .get("prompt")
            .and_then(Value::as_str);
        let tools: &[Value] = if self.provider == Provider::Prompted {
            &[]
        } else {
            &self.tools.conversion.tools
        };
        let built = self.provider.request(&RequestParts {
            options: &self.options,
            tools,
            prompt,
            history: &self.history,
            stream,
        });
        let body = built.body();
        let (path, headers) = (built.path, built.headers);
        let id = self.next_id;
        self.next_id += 1;
        let base = self
            .options
            .base_url
            .as_deref()
            .unwrap_or(self.provider.default_base_url())
            .trim_end_matches('/');
        let url = format!("{base}{path}");
        self.phase = Phase::Model(Reading {
            id,
            deadline: now.saturating_add(self.options.request_timeout_ms),
            head: None,
            body: Vec::new(),
            sse: None,
            pending: Vec::new(),
            spoke: false,
        });
        let size = RequestSize {
            tokens: estimate_tokens(&body),
            ..self.tools.size
        };
        self.outputs.push_back(Output::Request(ModelRequest {
            id,
            method: "POST",
            url,
            path,
            headers,
            body,
            stream,
            size,
        }));
    }

    /// A failed request: retried after a wait when the failure may pass,
    /// else the end of the turn.
    fn failed(&mut self, error: ProviderError, now: u64) {
        let spoke = matches!(&self.phase, Phase::Model(r) if r.spoke);
        let wait = error.retry_after_ms.unwrap_or_else(|| {
            // 1 s, 2 s, 4 s, ... without jitter (no randomness here)
            1000u64.saturating_mul(1 << self.attempt.min(10))
        });
        let retry = error.kind.passing()
            && !spoke
            && self.attempt < self.options.max_retries
            && wait <= self.options.max_retry_wait_ms;
        if retry {
            let until = now.saturating_add(wait);
            self.phase = Phase::Backoff { until };
            self.outputs.push_back(Output::Retry {
                error,
                at_ms: until,
            });
            return;
        }
        self.finish(FinishReason::Error, Some(error), None);
    }

    fn finish(&mut self, reason: FinishReason, error: Option<ProviderError>, note: Option<String>) {
        self.phase = Phase::Idle;
        self.outputs.push_back(Output::Done(Finished {
            reason,
            text: std::mem::take(&mut self.text),
            rounds: self.round,
            calls: std::mem::take(&mut self.calls),
            usage: self.usage,
            error,
            note,
        }));
    }

    /// A response read whole: its turn goes into the history, its calls
    /// are run (or answered here), or the turn ends.
    fn answered(&mut self, id: u64, read: Read, spoke: bool, now: u64) {
        self.usage.input_tokens += read.usage.input_tokens;
        self.usage.output_tokens += read.usage.output_tokens;
        let dialect = self.provider.dialect();
        let turn = match parse_calls(
            dialect,
            &read.response,
            &self.tools.conversion.names,
            Some(&self.tools.listed),
        ) {
            Ok(turn) => turn,
            Err(e) => {
                self.failed(provider::malformed(e.message()), now);
                return;
            }
        };
        for mut item in turn.assistant.iter().cloned() {
            if settle_assistant(self.provider, &mut item) {
                self.push(item, Kind::Assistant);
            }
        }
        // client searches of the native tool search (OpenAI), answered
        // here: their output items follow the model's
        let mut searched = false;
        for search in turn.searches.iter().filter(|s| s.client) {
            let found = self.found(&search.arguments);
            let item =
                openai_responses::search_output(&self.tools.conversion.tools, &search.id, &found);
            self.push(item, Kind::Assistant);
            searched = true;
        }
        let no_calls = turn.calls.is_empty();
        if !spoke && !turn.text.is_empty() && (self.provider != Provider::Prompted || no_calls) {
            self.outputs.push_back(Output::Text {
                request: id,
                delta: turn.text.clone(),
            });
        }
        self.text = turn.text.clone();
        // Anthropic's pause_turn (a long server-side turn, its tool search
        // among them) goes on from the content as it came
        let paused = self.provider == Provider::Anthropic && read.finish == FinishReason::ToolCalls;
        if no_calls && (searched || paused) {
            if self.round >= self.options.max_rounds {
                self.finish(FinishReason::MaxRounds, None, None);
            } else {
                self.next_round(now);
            }
            return;
        }
        if no_calls {
            let reason = match read.finish {
                FinishReason::ToolCalls => FinishReason::Stop,
                r => r,
            };
            self.finish(reason, None, read.note);
            return;
        }
        if self.round >= self.options.max_rounds {
            // the calls get results all the same, so the history stays
            // whole for the next turn
            let n = turn.calls.len();
            let why = format!(
                "not run: the limit of {} model requests in one turn was reached",
                self.options.max_rounds
            );
            let results = vec![crate::results::tool_exception(&why); n];
            self.write_results(&turn, results);
            self.finish(FinishReason::MaxRounds, None, None);
            return;
        }
        self.run_calls(turn, now);
    }

    /// Answers what can be answered here (refused calls, the meta-tools,
    /// repeated failures) and hands the rest to the host.
    fn run_calls(&mut self, turn: ModelTurn, now: u64) {
        let mut results = vec![Value::Null; turn.calls.len()];
        let mut waiting = Vec::new();
        let deadline = now.saturating_add(self.options.tool_timeout_ms);
        for (i, call) in turn.calls.iter().enumerate() {
            let key = failure_key(call);
            let (name, arguments, coercions, via) = match self.route(call) {
                Routed::Answer(result) => {
                    if let Some(slot) = results.get_mut(i) {
                        *slot = result;
                    }
                    continue;
                }
                Routed::Refused(record) => {
                    if let Some(r) = record {
                        self.calls.push(r);
                    }
                    self.count_failure(key);
                    continue;
                }
                Routed::RefusedWith(result, record) => {
                    if let Some(slot) = results.get_mut(i) {
                        *slot = result;
                    }
                    self.calls.push(record);
                    self.count_failure(key);
                    continue;
                }
                Routed::Host {
                    name,
                    arguments,
                    coercions,
                    via,
                } => (name, arguments, coercions, via),
            };
            let fails = self.failures_of(&key);
            if fails >= 2 {
                if let Some(slot) = results.get_mut(i) {
                    *slot = crate::results::tool_exception(&format!(
                        "not run: this exact call of {name} failed {fails} times already; do not repeat it. Change the arguments, try another tool, or tell the user what went wrong."
                    ));
                }
                self.calls.push(CallRecord {
                    name,
                    arguments,
                    is_error: true,
                });
                continue;
            }
            self.calls.push(CallRecord {
                name: name.clone(),
                arguments: arguments.clone(),
                is_error: false,
            });
            let record = Some(self.calls.len() - 1);
            waiting.push((call.id.clone(), i, deadline, record));
            let request = crate::call::tools_call_request(&call.id, &name, &arguments);
            self.outputs.push_back(Output::Call(ToolCall {
                id: call.id.clone(),
                name,
                arguments,
                coercions,
                via,
                request,
            }));
        }
        self.phase = Phase::Tools(Running {
            turn,
            results,
            waiting,
        });
        self.maybe_continue(now);
    }

    /// Where a call goes.
    fn route(&self, call: &Call) -> Routed {
        let known = |name: &str| self.catalog.get(name).is_some();
        if call.error.is_some() {
            // refused by the reader: unknown tool, unreadable or invalid
            // arguments; the call's own error is its result (null)
            let record = known(&call.name).then(|| CallRecord {
                name: call.name.clone(),
                arguments: call.arguments.clone(),
                is_error: true,
            });
            return Routed::Refused(record);
        }
        if let Some((_, Some(tool))) = &self.tools.native {
            if *tool == call.name {
                return Routed::Answer(self.references(&call.arguments));
            }
        }
        match self.tools.view.route(&call.name) {
            Route::Meta(meta) => {
                match meta.answer(&self.tools.view, &self.catalog, &call.arguments) {
                    Answer::Result(result) => Routed::Answer(result),
                    Answer::Invoke(name, args) => {
                        let Some(tool) = self.catalog.get(&name) else {
                            return Routed::Answer(crate::results::tool_exception(&format!(
                                "there is no tool named {name:?}"
                            )));
                        };
                        let v = crate::validate::validate_arguments(tool.input_schema(), &args);
                        if !v.is_valid() {
                            let text = format!("the arguments do not fit {name}: {}", v.message());
                            return Routed::RefusedWith(
                                crate::results::tool_exception(&text),
                                CallRecord {
                                    name,
                                    arguments: args,
                                    is_error: true,
                                },
                            );
                        }
                        Routed::Host {
                            name,
                            arguments: v.arguments,
                            coercions: v.coercions,
                            via: Some(crate::engine::disclosure::USE.to_string()),
                        }
                    }
                }
            }
            _ if meta_name(&call.name).is_some() && !known(&call.name) => {
                Routed::Answer(crate::results::tool_exception(&format!(
                    "{} is not available in this conversation",
                    call.name
                )))
            }
            _ => Routed::Host {
                name: call.name.clone(),
                arguments: call.arguments.clone(),
                coercions: call.coercions.clone(),
                via: None,
            },
        }
    }

    /// Keeps the history within its budget: the oldest tool results are
    /// shortened first (never the last round's), then the oldest
    /// exchanges left out whole (a user message and everything up to the
    /// next), never the current one; a call is never parted from its
    /// result.
    fn fit_history(&mut self) {
        let Some(budget) = self.options.history_budget else {
            return;
        };
        let mut sizes: Vec<usize> = self.history.iter().map(item_tokens).collect();
        let mut total: usize = sizes.iter().sum();
        if total <= budget {
            return;
        }
        let last_results = self.kinds.iter().rposition(|k| *k == Kind::Results);
        for max in [2000, 500, 100] {
            for i in 0..self.history.len() {
                if total <= budget {
                    return;
                }
                if self.kinds.get(i) != Some(&Kind::Results) || Some(i) == last_results {
                    continue;
                }
                if let (Some(item), Some(size)) = (self.history.get_mut(i), sizes.get_mut(i)) {
                    if provider::shorten_strings(item, max, 0) > 0 {
                        let new = item_tokens(item);
                        total = total.saturating_sub(*size) + new;
                        *size = new;
                    }
                }
            }
        }
        // then whole exchanges, oldest first, while another user message
        // follows
        while total > budget {
            let users: Vec<usize> = self
                .kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| **k == Kind::User)
                .map(|(i, _)| i)
                .take(2)
                .collect();
            let (Some(&first), Some(&second)) = (users.first(), users.get(1)) else {
                return;
            };
            let dropped: usize = sizes.drain(first..second).sum();
            self.history.drain(first..second);
            self.kinds.drain(first..second);
            total = total.saturating_sub(dropped);
        }
    }
}

impl Conversation {
    /// The deferred tools a search of the native tool search loads, by
    /// dialect name: those named in `paths` (tools, or namespaces: their
    /// tools), then the best matches of the catalog's ranked search for
    /// `query` (in `category`, when given), at most `limit` (default 5, at
    /// most 20) in all.
    fn found(&self, args: &Value) -> Vec<String> {
        let Some((deferred, _)) = &self.tools.native else {
            return Vec::new();
        };
        // arguments written as JSON text are read
        let read;
        let args = match args {
            Value::String(t) => {
                read = serde_json::from_str(t).unwrap_or_else(|_| args.clone());
                &read
            }
            _ => args,
        };
        let limit = args
            .get("limit")
            .and_then(Value::as_u64)
            .map_or(5, |n| n.clamp(1, 20) as usize);
        let mut out: Vec<String> = Vec::new();
        let add = |name: &str, out: &mut Vec<String>| {
            if out.len() < limit
                && deferred.iter().any(|d| d == name)
                && !out.iter().any(|o| o == name)
            {
                out.push(name.to_string());
            }
        };
        let paths: Vec<&str> = args
            .get("paths")
            .and_then(Value::as_array)
            .map(|p| p.iter().filter_map(Value::as_str).take(64).collect())
            .unwrap_or_default();
        for path in &paths {
            add(path, &mut out);
            let members = self
                .tools
                .conversion
                .tools
                .iter()
                .filter(|t| t.get("name").and_then(Value::as_str) == Some(path))
                .filter_map(|t| t.get("tools").and_then(Value::as_array))
                .flatten();
            for f in members {
                add(
                    f.get("name").and_then(Value::as_str).unwrap_or(""),
                    &mut out,
                );
            }
        }
        let query = match args.get("query") {
            Some(Value::String(q)) => q.clone(),
            _ => match args {
                Value::String(q) => q.clone(),
                _ => paths.join(" "),
            },
        };
        if let Some(index) = self.tools.view.index().filter(|_| !query.trim().is_empty()) {
            let mut opts = crate::search::SearchOptions::new().with_limit(limit + 20);
            if let Some(c) = args.get("category").and_then(Value::as_str) {
                opts = opts.with_category(c);
            }
            for hit in index.search(&query, &opts).hits {
                if let Some(d) = self.tools.conversion.names.dialect_name(&hit.name) {
                    add(d, &mut out);
                }
            }
        }
        out
    }

    /// The result of a call of our Anthropic search tool: the tools found,
    /// as `tool_reference` blocks (the API loads them), or a sentence.
    fn references(&self, args: &Value) -> Value {
        let found = self.found(args);
        if found.is_empty() {
            return crate::results::tool_exception(
                "No tool matched. Try other words, or the tools already loaded.",
            );
        }
        let refs: Vec<Value> = found
            .iter()
            .map(|n| json!({"type": "tool_reference", "tool_name": n}))
            .collect();
        json!({ "content": refs })
    }
}

/// Where a call goes.
enum Routed {
    /// Answered here (a meta-tool).
    Answer(Value),
    /// Refused by the reader: its own error is its result.
    Refused(Option<CallRecord>),
    /// Refused here, with this result.
    RefusedWith(Value, CallRecord),
    /// For the host to run.
    Host {
        name: String,
        arguments: Value,
        coercions: Vec<Coercion>,
        via: Option<String>,
    },
}

fn meta_name(name: &str) -> Option<&str> {
    use crate::engine::disclosure::{DEFINITION, SEARCH, USE};
    [SEARCH, DEFINITION, USE].into_iter().find(|m| *m == name)
}

/// A call's identity for the repeated-failure guard: the tool and its
/// arguments (through `use_tool`, the tool it names).
fn failure_key(call: &Call) -> String {
    let mut key = call.name.clone();
    key.push('\u{0}');
    key.push_str(&call.arguments.to_string());
    key
}

fn item_tokens(item: &Value) -> usize {
    estimate_tokens(&item.to_string())
}

/// Text of a chunk of bytes, with a character split at its end kept for
/// the next chunk (`pending`), and bytes that are not UTF-8 replaced.
fn utf8_chunk(pending: &mut Vec<u8>, chunk: &[u8]) -> String {
    pending.extend_from_slice(chunk);
    let bytes = std::mem::take(pending);
    match std::str::from_utf8(&bytes) {
        Ok(s) => s.to_string(),
        Err(e) => {
            let good = e.valid_up_to();
            match e.error_len() {
                // an unfinished character at the end: kept for later
                None => {
                    let (head, tail) = bytes.split_at(good);
                    *pending = tail.to_vec();
                    String::from_utf8_lossy(head).into_owned()
                }
                Some(_) => {
                    // a bad byte inside: replaced, and the rest read on
                    let mut out = String::from_utf8_lossy(&bytes).into_owned();
                    if out.ends_with('\u{FFFD}') && bytes.len().saturating_sub(good) < 4 {
                        // the lossy read may have replaced a split end too;
                        // rare, and the replacement is harmless
                        out.shrink_to_fit();
                    }
                    out
                }
            }
        }
    }
}

/// An assistant item as the history takes it; `false`: left out (empty).
fn settle_assistant(provider: Provider, item: &mut Value) -> bool {
    match provider {
        Provider::Anthropic => {
            let Some(Value::Array(blocks)) = item.get_mut("content") else {
                return false;
            };
            for b in blocks.iter_mut() {
                if matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("tool_use" | "server_tool_use")
                ) && !b.get("input").is_some_and(Value::is_object)
                {
                    b["input"] = json!({});
                }
            }
            !blocks.is_empty()
        }
        Provider::Gemini => item
            .get("parts")
            .and_then(Value::as_array)
            .is_some_and(|p| !p.is_empty()),
        _ => true,
    }
}

/// The functions of a conversion: a group's (an OpenAI namespace, Gemini's
/// `functionDeclarations`) counted by its members.
fn tool_count(c: &Conversion) -> usize {
    c.tools
        .iter()
        .map(|t| {
            t.get("tools")
                .or_else(|| t.get("functionDeclarations"))
                .and_then(Value::as_array)
                .map_or(1, Vec::len)
        })
        .sum()
}

/// The tools as the model sees them under the options' mode.
fn tools_for(provider: Provider, catalog: &Catalog, options: &ConversationOptions) -> Tools {
    let dialect = provider.dialect();
    let native = options.mode == ToolMode::Native;
    if native && dialect.has_native_search() {
        let mut o = Options::strict(options.strict)
            .with_disclosure(DisclosureMode::Native)
            .with_search_with(options.search_with);
        o.core = options.core.clone();
        o.metadata = options.metadata.clone();
        let conversion = convert(catalog, dialect, &o);
        let config = EngineConfig {
            disclosure: Disclosure {
                mode: Mode::All,
                core: None,
                metadata: options.metadata.clone(),
                definitions: None,
            },
            ..EngineConfig::default()
        };
        let mut deferred = Vec::new();
        for t in &conversion.tools {
            let inner = t.get("tools").and_then(Value::as_array);
            for f in inner.map(Vec::as_slice).unwrap_or(std::slice::from_ref(t)) {
                if f.get("defer_loading") == Some(&Value::Bool(true)) {
                    if let Some(n) = f.get("name").and_then(Value::as_str) {
                        deferred.push(n.to_string());
                    }
                }
            }
        }
        // our Anthropic search tool: first, and no tool of the catalog
        let ours = conversion
            .tools
            .first()
            .filter(|_| dialect == crate::Dialect::Anthropic && !deferred.is_empty())
            .and_then(|t| t.get("input_schema").and(t.get("name")))
            .and_then(Value::as_str)
            .filter(|n| {
                conversion
                    .names
                    .mcp_name(n)
                    .is_some_and(|m| catalog.get(m).is_none())
            })
            .map(str::to_owned);
        let tools = tool_count(&conversion);
        let all = estimate_tokens(&Value::Array(conversion.tools.clone()).to_string());
        let size = RequestSize {
            tokens: 0,
            deferred_tokens: all.saturating_sub(visible_tokens(&conversion)),
            tools,
            deferred_tools: deferred.len(),
        };
        return Tools {
            view: View::build(catalog, &config),
            listed: catalog.clone(),
            conversion,
            native: Some((deferred, ours)),
            size,
        };
    }
    let mode = match options.mode {
        ToolMode::All => Mode::All,
        ToolMode::Hybrid | ToolMode::Native => Mode::Hybrid,
        ToolMode::Meta => Mode::Meta,
        ToolMode::Auto => Mode::Auto {
            context_tokens: options.context_tokens,
            share: 0.1,
        },
    };
    let disclosure = Disclosure {
        mode,
        core: options.core.clone(),
        metadata: options.metadata.clone(),
        definitions: Some(provider.dialect()),
    };
    let config = EngineConfig {
        disclosure,
        ..EngineConfig::default()
    };
    let view = View::build(catalog, &config);
    let listed = Catalog::from_value(Value::Array(view.listed().to_vec()))
        .unwrap_or_else(|_| Catalog::from_tools(Vec::new()));
    let mut conversion = convert(&listed, dialect, &Options::strict(options.strict));
    if native {
        conversion.report.insert(
            0,
            crate::report::ReportEntry {
                tool: None,
                pointer: String::new(),
                keyword: "disclosure".into(),
                action: crate::report::Action::Rewritten,
                detail: format!("{dialect} has no native tool search: disclosed as hybrid"),
            },
        );
    }
    let size = RequestSize {
        tools: tool_count(&conversion),
        ..RequestSize::default()
    };
    Tools {
        view,
        listed,
        conversion,
        native: None,
        size,
    }
}
