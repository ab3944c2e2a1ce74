//! The MCP client: the upstream connection's state machine
//! (`UpstreamClient`) and the decisions it is built from.

use serde::Serialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{js_error, read_value, to_js, usage};
use crate::client::{
    CallKind, ClientConfig, ClientOutput, ClientSession, LegacyEvent, ListKind, Relay, ReplyAction,
    SseEvent, SseParser, UpstreamClient,
};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A request of a client session: its id and the JSON-RPC message. */
export interface ClientRequest { id: number; message: string }
"#;

/// One Server-Sent Event.
#[derive(Serialize, Tsify)]
pub struct ServerSentEvent {
    /// The `event:` field (`message` when absent).
    event: String,
    /// The `data:` lines joined with newlines.
    data: String,
    /// The `id:` field, when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
}

/// What to do with an upstream server's HTTP reply.
#[derive(Serialize, Tsify)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum UpstreamAction {
    /// Read the body's messages with `readReply`.
    Read,
    /// There is nothing to read.
    None,
    /// Fall back to the legacy HTTP+SSE transport.
    Legacy,
    /// The session expired: initialize again, then resend.
    Reinitialize,
    /// Give up.
    Fail {
        /// Why.
        message: String,
    },
}

/// One event of a legacy HTTP+SSE stream: where to POST, or a server message.
#[derive(Serialize, Tsify)]
#[serde(untagged)]
pub enum LegacyStreamEvent {
    /// Where to POST messages (relative to the stream's URL).
    Endpoint {
        /// The URL.
        endpoint: String,
    },
    /// A JSON-RPC message from the server.
    Message {
        /// The message.
        #[tsify(type = "object")]
        message: Value,
    },
}

/// Decides on an upstream server's HTTP reply: `read` its body, `none`
/// (nothing to read), fall back to the `legacy` HTTP+SSE transport,
/// `reinitialize` (the session expired), or `fail` with a message.
#[wasm_bindgen(js_name = classifyReply, unchecked_return_type = "UpstreamAction")]
pub fn classify_reply_js(
    status: u16,
    content_type: &str,
    initializing: bool,
    has_session: bool,
) -> Result<JsValue, JsValue> {
    let action =
        match crate::client::classify_reply(status, content_type, initializing, has_session) {
            ReplyAction::Read => UpstreamAction::Read,
            ReplyAction::Nothing => UpstreamAction::None,
            ReplyAction::Legacy => UpstreamAction::Legacy,
            ReplyAction::Reinitialize => UpstreamAction::Reinitialize,
            ReplyAction::Fail(message) => UpstreamAction::Fail { message },
        };
    to_js(&action)
}

/// Reads one event of a legacy HTTP+SSE stream (an `SseParser` event):
/// where to POST, a server message, or `null` for anything else.
#[wasm_bindgen(js_name = readLegacyEvent, unchecked_return_type = "LegacyStreamEvent | null")]
pub fn read_legacy_event_js(
    #[wasm_bindgen(unchecked_param_type = "ServerSentEvent")] event: JsValue,
) -> Result<JsValue, JsValue> {
    let v = read_value(&event, "the event")?;
    let field = |k: &str| v.get(k).and_then(Value::as_str);
    let e = SseEvent {
        event: field("event").unwrap_or("message").to_string(),
        data: field("data").unwrap_or("").to_string(),
        id: field("id").map(str::to_owned),
    };
    match crate::client::legacy_event(&e).map_err(|e| js_error(&e))? {
        LegacyEvent::Endpoint(endpoint) => to_js(&LegacyStreamEvent::Endpoint { endpoint }),
        LegacyEvent::Message(message) => to_js(&LegacyStreamEvent::Message { message }),
        LegacyEvent::Other => Ok(JsValue::NULL),
    }
}

/// Reads the JSON-RPC messages of an HTTP reply body (JSON or an SSE stream).
#[wasm_bindgen(js_name = readReply, unchecked_return_type = "object[]")]
pub fn read_reply_js(body: &str, content_type: &str) -> Result<JsValue, JsValue> {
    to_js(&crate::client::messages(body, content_type).map_err(|e| js_error(&e))?)
}

/// The result of the response to request `id` among `messages`; a JSON-RPC
/// error is thrown with code "upstream".
#[wasm_bindgen(js_name = resultFor, unchecked_return_type = "unknown")]
pub fn result_for_js(
    #[wasm_bindgen(unchecked_param_type = "readonly object[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | number")] id: JsValue,
) -> Result<JsValue, JsValue> {
    let messages = read_value(&messages, "messages")?;
    let Value::Array(messages) = messages else {
        return Err(usage("messages must be an array of JSON-RPC messages"));
    };
    let id = match (id.as_f64(), id.as_string()) {
        (Some(n), _) => Value::from(n as i64),
        (_, Some(s)) => Value::String(s),
        _ => return Err(usage("the id must be a string or a number")),
    };
    to_js(&crate::client::result_for(&messages, &id).map_err(|e| js_error(&e))?)
}

/// An incremental Server-Sent Events parser.
#[wasm_bindgen(js_name = SseParser)]
pub struct JsSseParser {
    inner: SseParser,
}

#[wasm_bindgen(js_class = SseParser)]
impl JsSseParser {
    /// A parser with nothing buffered, refusing events over `maxEvent`
    /// bytes (default 16 MiB).
    #[wasm_bindgen(constructor)]
    pub fn new(max_event: Option<f64>) -> JsSseParser {
        JsSseParser {
            inner: match max_event {
                Some(n) => SseParser::with_limit(super::millis(n) as usize),
                None => SseParser::new(),
            },
        }
    }

    /// Feeds a chunk; returns the completed events.
    #[wasm_bindgen(unchecked_return_type = "ServerSentEvent[]")]
    pub fn push(&mut self, chunk: &str) -> Result<JsValue, JsValue> {
        let events = self.inner.push(chunk).map_err(|e| js_error(&e))?;
        let v: Vec<ServerSentEvent> = events
            .into_iter()
            .map(|e| ServerSentEvent {
                event: e.event,
                data: e.data,
                id: e.id,
            })
            .collect();
        to_js(&v)
    }
}

impl Default for JsSseParser {
    fn default() -> Self {
        JsSseParser::new(None)
    }
}

/// An upstream reply body read chunk by chunk under a size limit.
#[wasm_bindgen(js_name = ReplyBody)]
pub struct JsReplyBody {
    inner: crate::client::ReplyBody,
}

#[wasm_bindgen(js_class = ReplyBody)]
impl JsReplyBody {
    /// An empty body refusing more than `maxBytes` (default 2 MiB).
    #[wasm_bindgen(constructor)]
    pub fn new(max_bytes: Option<f64>) -> JsReplyBody {
        let limit = max_bytes.map_or(crate::client::DEFAULT_MAX_REPLY, |n| {
            super::millis(n) as usize
        });
        JsReplyBody {
            inner: crate::client::ReplyBody::new(limit),
        }
    }

    /// Adds a chunk; throws (code "limit") past the limit.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.inner.push(chunk).map_err(|e| js_error(&e))
    }

    /// Bytes read so far.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inner.len()
    }

    /// The JSON-RPC messages of the whole body (JSON or an SSE stream).
    #[wasm_bindgen(unchecked_return_type = "object[]")]
    pub fn messages(&self, content_type: &str) -> Result<JsValue, JsValue> {
        to_js(
            &self
                .inner
                .messages(content_type)
                .map_err(|e| js_error(&e))?,
        )
    }
}

/// Builds the requests of an MCP client session (ids 1, 2, ...).
#[wasm_bindgen(js_name = ClientSession)]
pub struct JsClientSession {
    inner: ClientSession,
}

/// A request as `{id, message}`.
fn request_js(id: Value, message: String) -> Result<JsValue, JsValue> {
    to_js(&serde_json::json!({"id": id, "message": message}))
}

#[wasm_bindgen(js_class = ClientSession)]
impl JsClientSession {
    /// A new session.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsClientSession {
        JsClientSession {
            inner: ClientSession::new(),
        }
    }

    /// The initialize request.
    #[wasm_bindgen(unchecked_return_type = "ClientRequest")]
    pub fn initialize(&mut self, name: &str, version: &str) -> Result<JsValue, JsValue> {
        let (id, message) = self.inner.initialize(name, version);
        request_js(id, message)
    }

    /// The notifications/initialized message.
    pub fn initialized(&self) -> String {
        self.inner.initialized()
    }

    /// Remembers the Mcp-Session-Id the server assigned (`null` forgets it).
    #[wasm_bindgen(js_name = setSessionId)]
    pub fn set_session_id(&mut self, id: Option<String>) {
        self.inner.set_session_id(id);
    }

    /// Remembers the protocol revision negotiated by initialize.
    #[wasm_bindgen(js_name = setProtocolVersion)]
    pub fn set_protocol_version(&mut self, version: Option<String>) {
        self.inner.set_protocol_version(version);
    }

    /// Whether the server assigned a session.
    #[wasm_bindgen(getter, js_name = hasSession)]
    pub fn has_session(&self) -> bool {
        self.inner.has_session()
    }

    /// The headers of a Streamable HTTP POST (with the bearer token, when given).
    #[wasm_bindgen(unchecked_return_type = "{ [name: string]: string }")]
    pub fn headers(&self, token: Option<String>) -> Result<JsValue, JsValue> {
        let m: serde_json::Map<String, Value> = self
            .inner
            .headers(token.as_deref())
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        to_js(&Value::Object(m))
    }

    /// The tools/list request (from a cursor).
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "ClientRequest")]
    pub fn list_tools(&mut self, cursor: Option<String>) -> Result<JsValue, JsValue> {
        let (id, message) = self.inner.list_tools(cursor.as_deref());
        request_js(id, message)
    }

    /// The tools/call request.
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "ClientRequest")]
    pub fn call_tool(
        &mut self,
        name: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "object")] arguments: JsValue,
    ) -> Result<JsValue, JsValue> {
        let args = if arguments.is_undefined() {
            Value::Object(Default::default())
        } else {
            read_value(&arguments, "arguments")?
        };
        let (id, message) = self.inner.call_tool(name, &args);
        request_js(id, message)
    }
}

impl Default for JsClientSession {
    fn default() -> Self {
        JsClientSession::new()
    }
}

/// Settings of an [`JsUpstreamClient`]; every field optional.
#[derive(serde::Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct UpstreamOptions {
    /// A bearer token sent with every request.
    token: Option<String>,
    /// `clientInfo.name` (default "mcp-switchboard").
    client_name: Option<String>,
    /// `clientInfo.version` (default: this package's version).
    client_version: Option<String>,
    /// The client capabilities declared (default `{}`): declare sampling,
    /// elicitation or roots only when the host answers `ask` outputs.
    #[tsify(type = "{ [name: string]: unknown }")]
    capabilities: Option<Value>,
    /// Request timeout in milliseconds (default 30000).
    timeout_ms: Option<f64>,
    /// The largest reply body or event read, in bytes (default 2 MiB).
    max_reply: Option<f64>,
    /// The most pages read per list (default 100).
    max_pages: Option<f64>,
    /// The most items kept per list (default 10000).
    max_items: Option<f64>,
    /// The most input rounds of one 2026-07-28 call (default 8).
    max_rounds: Option<f64>,
    /// The first wait before reconnecting, in milliseconds (default 1000).
    reconnect_ms: Option<f64>,
    /// The server is a local process over stdio (`url` names it): the
    /// host answers `spawn` and `write` outputs, and feeds `receive` and
    /// `exited`.
    stdio: Option<bool>,
}

/// Why something failed: `code` says the kind (`rpc`, `http`, `timeout`,
/// `cancelled`, `transport`, `unreachable`, `limit`, `protocol`), `text`
/// says it in one line naming the upstream.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct UpstreamFailure {
    /// The kind.
    #[tsify(
        type = r#""rpc" | "http" | "timeout" | "cancelled" | "transport" | "unreachable" | "limit" | "protocol""#
    )]
    code: &'static str,
    /// A one-line description.
    message: String,
    /// The description naming the upstream (`upstream <url>: …`).
    text: String,
    /// The JSON-RPC error code (kind `rpc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    rpc_code: Option<i64>,
    /// The JSON-RPC error's data (kind `rpc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(type = "unknown")]
    data: Option<Value>,
    /// The HTTP status (kind `http`).
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
}

impl UpstreamFailure {
    fn new(f: crate::client::Failure, url: &str) -> UpstreamFailure {
        let message = f.to_string();
        let text = f.describe(url);
        let code = f.code();
        let (rpc_code, data, status) = match f {
            crate::client::Failure::Rpc { code, data, .. } => (Some(code), data, None),
            crate::client::Failure::Http { status, .. } => (None, None, Some(status)),
            _ => (None, None, None),
        };
        UpstreamFailure {
            code,
            message,
            text,
            rpc_code,
            data,
            status,
        }
    }
}

/// What the upstream client wants done (see `UpstreamClient.pollOutput`).
#[derive(Serialize, Tsify)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum UpstreamOutput {
    /// Send this HTTP request; feed back its reply under `exchange`.
    Send {
        /// The exchange's number.
        exchange: u64,
        /// `POST`, `GET` or `DELETE`.
        method: &'static str,
        /// Where to.
        url: String,
        /// The request headers.
        #[tsify(type = "{ [name: string]: string }")]
        headers: serde_json::Map<String, Value>,
        /// The body, for a POST.
        #[serde(skip_serializing_if = "Option::is_none")]
        body: Option<String>,
        /// The call it carries, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<u64>,
        /// A long-lived event stream: no timeout on reading it.
        stream: bool,
    },
    /// Stdio: start the server's process (again); feed its stdout to
    /// `receive`, its end to `exited`.
    Spawn,
    /// Stdio: write this message and a newline to the process's stdin.
    Write {
        /// The JSON-RPC message.
        message: String,
    },
    /// Abort this exchange and stop reading its body.
    Abort {
        /// The exchange.
        exchange: u64,
    },
    /// The connection is negotiated.
    Connected {
        /// `modern` (2026-07-28) or `legacy` (2025, after initialize).
        #[tsify(type = r#""legacy" | "modern""#)]
        era: &'static str,
        /// The protocol revision.
        version: String,
        /// How the server is reached.
        #[tsify(type = r#""streamable-http" | "http+sse" | "stdio""#)]
        transport: &'static str,
        /// The server's capabilities.
        #[tsify(type = "{ [name: string]: unknown }")]
        capabilities: Value,
        /// The server's identity (`null` when it gave none).
        #[tsify(type = "unknown")]
        server_info: Value,
        /// The server's instructions.
        #[serde(skip_serializing_if = "Option::is_none")]
        instructions: Option<String>,
    },
    /// A list was read whole (again, after the server said it changed).
    Listed {
        /// Which list.
        #[tsify(type = "UpstreamList")]
        kind: &'static str,
        /// Its items.
        #[tsify(type = "object[]")]
        items: Vec<Value>,
        /// Whether items were left out past the limits.
        truncated: bool,
    },
    /// A list could not be read.
    ListFailed {
        /// Which list.
        #[tsify(type = "UpstreamList")]
        kind: &'static str,
        /// Why.
        error: UpstreamFailure,
    },
    /// Every list was read after connecting.
    Ready,
    /// The connection failed or was lost (the client tries again).
    Unavailable {
        /// Why.
        error: UpstreamFailure,
    },
    /// A call's result.
    Done {
        /// The call.
        call: u64,
        /// The result.
        #[tsify(type = "unknown")]
        result: Value,
    },
    /// A call failed.
    Failed {
        /// The call.
        call: u64,
        /// Why.
        error: UpstreamFailure,
    },
    /// Progress of a call.
    Progress {
        /// The call.
        call: u64,
        /// The notifications/progress params.
        #[tsify(type = "unknown")]
        params: Value,
    },
    /// The server asks something: answer with answer() or refuse().
    Ask {
        /// The ask's number.
        ask: u64,
        /// The call it belongs to.
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<u64>,
        /// The method (sampling/createMessage, elicitation/create, roots/list).
        method: String,
        /// Its params.
        #[tsify(type = "unknown")]
        params: Value,
        /// Who answers it.
        relay: AskRelay,
    },
    /// Another notification from the server.
    Notification {
        /// The call it came with.
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<u64>,
        /// The method.
        method: String,
        /// Its params.
        #[tsify(type = "unknown")]
        params: Value,
    },
    /// Something to tell a log: a list item left out, or kept with its
    /// name flagged; requests of the server refused, dropped or cut past
    /// the client's limits.
    Warning {
        /// The call it concerns, when one.
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<u64>,
        /// What happened, in one line.
        message: String,
    },
}

/// Who answers a question of an upstream server (an `ask` output).
#[derive(Serialize, Tsify)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum AskRelay {
    /// The host: answer() or refuse() it, or decline() it (the call was
    /// made with call(), belongs to no call, or its client cannot be asked).
    Host,
    /// The 2025 client of the invocation the call relays: ask it
    /// (`ctx.ask(method, params)`), then answer() with its result or
    /// decline() with why it refused.
    Request,
    /// The 2026-07-28 client of the invocation the call relays: `request`
    /// is the entry `key` of the inputRequests it is answered with
    /// (`ctx.inputRequired`); its retry's inputResponses go to
    /// answerInputs().
    Input {
        /// The entry's key.
        key: String,
        /// The entry.
        #[tsify(type = "{ method: string; params?: unknown }")]
        request: Value,
    },
}

#[wasm_bindgen(typescript_custom_section)]
const UPSTREAM_TYPES: &'static str = r#"
/** A list an upstream server offers. */
export type UpstreamList = "tools" | "resources" | "resourceTemplates" | "prompts";
/** What an upstream call asks for. */
export type UpstreamMethod = "tools/call" | "resources/read" | "prompts/get" | "completion/complete";
"#;

fn list_kind(name: &str) -> Result<ListKind, JsValue> {
    ListKind::ALL
        .into_iter()
        .find(|k| k.field() == name)
        .ok_or_else(|| {
            usage(&format!(
                "unknown list {name:?}; choose tools, resources, resourceTemplates or prompts"
            ))
        })
}

fn upstream_output(o: ClientOutput, url: &str) -> UpstreamOutput {
    match o {
        ClientOutput::Send(s) => UpstreamOutput::Send {
            exchange: s.exchange,
            method: s.method,
            url: s.url,
            headers: s
                .headers
                .into_iter()
                .map(|(k, v)| (k, Value::String(v)))
                .collect(),
            body: s.body,
            call: s.call,
            stream: s.stream,
        },
        ClientOutput::Abort { exchange } => UpstreamOutput::Abort { exchange },
        ClientOutput::Spawn => UpstreamOutput::Spawn,
        ClientOutput::Write { message } => UpstreamOutput::Write { message },
        ClientOutput::Connected(c) => UpstreamOutput::Connected {
            era: match c.era {
                crate::engine::Era::Modern => "modern",
                _ => "legacy",
            },
            version: c.version,
            transport: c.transport.as_str(),
            capabilities: c.capabilities,
            server_info: c.server_info,
            instructions: c.instructions,
        },
        ClientOutput::Listed {
            kind,
            items,
            truncated,
        } => UpstreamOutput::Listed {
            kind: kind.field(),
            items,
            truncated,
        },
        ClientOutput::ListFailed { kind, error } => UpstreamOutput::ListFailed {
            kind: kind.field(),
            error: UpstreamFailure::new(error, url),
        },
        ClientOutput::Ready => UpstreamOutput::Ready,
        ClientOutput::Unavailable { error } => UpstreamOutput::Unavailable {
            error: UpstreamFailure::new(error, url),
        },
        ClientOutput::Done { call, result } => UpstreamOutput::Done { call, result },
        ClientOutput::Failed { call, error } => UpstreamOutput::Failed {
            call,
            error: UpstreamFailure::new(error, url),
        },
        ClientOutput::Progress { call, params } => UpstreamOutput::Progress { call, params },
        ClientOutput::Ask {
            ask,
            call,
            method,
            params,
            relay,
        } => UpstreamOutput::Ask {
            ask,
            call,
            method,
            params,
            relay: match relay {
                Relay::Input { key, request } => AskRelay::Input { key, request },
                Relay::Request => AskRelay::Request,
                _ => AskRelay::Host,
            },
        },
        ClientOutput::Notification {
            call,
            method,
            params,
        } => UpstreamOutput::Notification {
            call,
            method,
            params,
        },
        ClientOutput::Skipped {
            kind,
            index,
            reason,
            ..
        } => UpstreamOutput::Warning {
            call: None,
            message: format!("{} item {index}: {reason}", kind.field()),
        },
        ClientOutput::Limited { call, message } => UpstreamOutput::Warning { call, message },
    }
}

/// The client side of one upstream MCP server, sans I/O: it decides the
/// era and transport, sessions, reply matching, pagination, list changes,
/// calls, timeouts and cancellation; the host sends the HTTP requests it
/// is told to send and feeds back what comes of them, with the time.
#[wasm_bindgen(js_name = UpstreamClient)]
pub struct JsUpstreamClient {
    inner: UpstreamClient,
}

#[wasm_bindgen(js_class = UpstreamClient)]
impl JsUpstreamClient {
    /// A client for the server at `url` (its MCP endpoint, or the SSE URL
    /// of a legacy HTTP+SSE server).
    #[wasm_bindgen(constructor)]
    pub fn new(
        url: &str,
        options: Option<Ts<UpstreamOptions>>,
    ) -> Result<JsUpstreamClient, JsValue> {
        let o: UpstreamOptions = super::options(options, "upstream options")?;
        let mut config = ClientConfig::new(url)
            .with_token(o.token)
            .with_stdio(o.stdio.unwrap_or(false));
        if o.client_name.is_some() || o.client_version.is_some() {
            let name = o.client_name.unwrap_or_else(|| config.client_name.clone());
            let version = o
                .client_version
                .unwrap_or_else(|| config.client_version.clone());
            config = config.with_client(name, version);
        }
        if let Some(c) = o.capabilities {
            if !c.is_object() {
                return Err(usage("capabilities must be an object"));
            }
            config = config.with_capabilities(c);
        }
        let n = |v: Option<f64>| v.map(super::millis);
        if let Some(ms) = n(o.timeout_ms) {
            config = config.with_timeout_ms(ms);
        }
        if let Some(b) = n(o.max_reply) {
            config = config.with_max_reply(b as usize);
        }
        if o.max_pages.is_some() || o.max_items.is_some() {
            let pages = n(o.max_pages).map_or(config.max_pages, |p| p as usize);
            let items = n(o.max_items).map_or(config.max_items, |i| i as usize);
            config = config.with_list_limits(pages, items);
        }
        if let Some(r) = n(o.max_rounds) {
            config = config.with_max_rounds(r as usize);
        }
        if let Some(ms) = n(o.reconnect_ms) {
            config = config.with_reconnect_ms(ms);
        }
        Ok(JsUpstreamClient {
            inner: UpstreamClient::new(config),
        })
    }

    /// Starts connecting (throws when already connecting, connected or closed).
    pub fn connect(&mut self, now_ms: f64) -> Result<(), JsValue> {
        self.inner
            .connect(super::millis(now_ms))
            .map_err(|e| js_error(&e))
    }

    /// Sends a call (queued until connected) and returns its number.
    pub fn call(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "UpstreamMethod")] method: &str,
        #[wasm_bindgen(unchecked_param_type = "{ [name: string]: unknown }")] params: JsValue,
        now_ms: f64,
        timeout_ms: Option<f64>,
    ) -> Result<f64, JsValue> {
        let kind = CallKind::from_method(method).ok_or_else(|| {
            usage(&format!(
                "unknown method {method:?}; choose tools/call, resources/read, prompts/get or completion/complete"
            ))
        })?;
        let params = read_value(&params, "params")?;
        self.inner
            .call(
                kind,
                params,
                timeout_ms.map(super::millis),
                super::millis(now_ms),
            )
            .map(|id| id as f64)
            .map_err(|e| js_error(&e))
    }

    /// Sends the call that carries an Engine invocation (its `kind`, the
    /// name the source uses, its arguments: an "invoke" output's `kind`,
    /// `tool` and `arguments`) and returns its number. `era`: the era of
    /// the invocation's client (the server's questions come out with the
    /// relay that reaches it), or null when no client can be asked.
    pub fn relay(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = r#""tool" | "resource" | "prompt" | "completion""#)]
        kind: &str,
        name: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] arguments: JsValue,
        #[wasm_bindgen(unchecked_param_type = r#""legacy" | "modern" | null | undefined"#)]
        era: JsValue,
        now_ms: f64,
    ) -> Result<f64, JsValue> {
        let kind = match kind {
            "tool" => crate::engine::InvocationKind::Tool,
            "resource" => crate::engine::InvocationKind::Resource,
            "prompt" => crate::engine::InvocationKind::Prompt,
            "completion" => crate::engine::InvocationKind::Completion,
            other => {
                return Err(usage(&format!(
                    "unknown invocation kind {other:?}; choose tool, resource, prompt or completion"
                )))
            }
        };
        let client = match era.as_string().as_deref() {
            Some("modern") => Some(crate::engine::Era::Modern),
            Some("legacy") => Some(crate::engine::Era::Legacy),
            None if era.is_null() || era.is_undefined() => None,
            _ => return Err(usage(r#"era must be "legacy", "modern" or null"#)),
        };
        let arguments = if arguments.is_undefined() {
            Value::Null
        } else {
            read_value(&arguments, "arguments")?
        };
        self.inner
            .relay(kind, name, &arguments, client, super::millis(now_ms))
            .map(|id| id as f64)
            .map_err(|e| js_error(&e))
    }

    /// Declines an `ask` output (a JSON-RPC internal error): `reason` says
    /// why the client refused, or by default that it cannot answer.
    pub fn decline(
        &mut self,
        ask: f64,
        reason: Option<String>,
        now_ms: f64,
    ) -> Result<(), JsValue> {
        self.inner
            .decline(super::millis(ask), reason.as_deref(), super::millis(now_ms))
            .map_err(|e| js_error(&e))
    }

    /// A 2026-07-28 client's retry brought its inputResponses: every
    /// question of `call` relayed to it is answered with its entry, or
    /// refused when it has none.
    #[wasm_bindgen(js_name = answerInputs)]
    pub fn answer_inputs(
        &mut self,
        call: f64,
        #[wasm_bindgen(unchecked_param_type = "{ [key: string]: unknown } | null | undefined")]
        responses: JsValue,
        now_ms: f64,
    ) -> Result<(), JsValue> {
        let responses = if responses.is_undefined() {
            Value::Null
        } else {
            read_value(&responses, "inputResponses")?
        };
        self.inner
            .answer_inputs(super::millis(call), &responses, super::millis(now_ms))
            .map_err(|e| js_error(&e))
    }

    /// Cancels a running call.
    pub fn cancel(&mut self, call: f64, now_ms: f64) -> Result<(), JsValue> {
        self.inner
            .cancel(super::millis(call), super::millis(now_ms))
            .map_err(|e| js_error(&e))
    }

    /// Answers an `ask` output with its result.
    pub fn answer(
        &mut self,
        ask: f64,
        #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue,
        now_ms: f64,
    ) -> Result<(), JsValue> {
        let result = read_value(&result, "the result")?;
        self.inner
            .answer(super::millis(ask), result, super::millis(now_ms))
            .map_err(|e| js_error(&e))
    }

    /// Answers an `ask` output with a JSON-RPC error.
    pub fn refuse(
        &mut self,
        ask: f64,
        code: f64,
        message: &str,
        now_ms: f64,
    ) -> Result<(), JsValue> {
        let code = if code.is_finite() {
            code as i64
        } else {
            crate::engine::WireCode::InternalError.code()
        };
        self.inner
            .refuse(super::millis(ask), code, message, super::millis(now_ms))
            .map_err(|e| js_error(&e))
    }

    /// Closes the connection (aborting every exchange, ending a 2025 session).
    pub fn close(&mut self, now_ms: f64) {
        self.inner.close(super::millis(now_ms));
    }

    /// An exchange's reply began: its status and headers (`Object.fromEntries(response.headers)`).
    #[wasm_bindgen(js_name = responseHead)]
    pub fn response_head(
        &mut self,
        exchange: f64,
        status: u16,
        #[wasm_bindgen(unchecked_param_type = "{ [name: string]: string }")] headers: JsValue,
        now_ms: f64,
    ) -> Result<(), JsValue> {
        let Value::Object(map) = read_value(&headers, "headers")? else {
            return Err(usage("headers must be an object of strings"));
        };
        let headers: Vec<(String, String)> = map
            .into_iter()
            .filter_map(|(k, v)| v.as_str().map(|v| (k, v.to_string())))
            .collect();
        self.inner.response_head(
            super::millis(exchange),
            status,
            &headers,
            super::millis(now_ms),
        );
        Ok(())
    }

    /// A piece of an exchange's body.
    #[wasm_bindgen(js_name = responseChunk)]
    pub fn response_chunk(&mut self, exchange: f64, chunk: &[u8], now_ms: f64) {
        self.inner
            .response_chunk(super::millis(exchange), chunk, super::millis(now_ms));
    }

    /// Stdio: a piece of the process's stdout.
    pub fn receive(&mut self, chunk: &[u8], now_ms: f64) {
        self.inner.receive(chunk, super::millis(now_ms));
    }

    /// Stdio: the process exited or could not start (`reason` says why).
    pub fn exited(&mut self, reason: &str, now_ms: f64) {
        self.inner.exited(reason, super::millis(now_ms));
    }

    /// An exchange's body ended.
    #[wasm_bindgen(js_name = responseEnd)]
    pub fn response_end(&mut self, exchange: f64, now_ms: f64) {
        self.inner
            .response_end(super::millis(exchange), super::millis(now_ms));
    }

    /// An exchange failed (network error): `message` says why.
    #[wasm_bindgen(js_name = responseError)]
    pub fn response_error(&mut self, exchange: f64, message: &str, now_ms: f64) {
        self.inner
            .response_error(super::millis(exchange), message, super::millis(now_ms));
    }

    /// Handles every deadline at or before `nowMs`.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now_ms: f64) {
        self.inner.handle_timeout(super::millis(now_ms));
    }

    /// When handleTimeout is next due (in the host's milliseconds), or undefined.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(|t| t as f64)
    }

    /// The next output, or undefined when there is nothing to do.
    #[wasm_bindgen(js_name = pollOutput, unchecked_return_type = "UpstreamOutput | undefined")]
    pub fn poll_output(&mut self) -> Result<JsValue, JsValue> {
        match self.inner.poll_output() {
            Some(o) => to_js(&upstream_output(o, &self.inner.config().url)),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The last items read of a list.
    #[wasm_bindgen(unchecked_return_type = "object[]")]
    pub fn items(
        &self,
        #[wasm_bindgen(unchecked_param_type = "UpstreamList")] kind: &str,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.inner.items(list_kind(kind)?))
    }

    /// This server as one source of an Engine (`engine.setSources([...])`).
    #[wasm_bindgen(unchecked_return_type = "SourceInput")]
    pub fn source(&self, name: &str) -> Result<JsValue, JsValue> {
        let item = |k| Value::Array(self.inner.items(k).to_vec());
        to_js(&serde_json::json!({
            "name": name,
            "catalog": {"tools": item(ListKind::Tools)},
            "resources": item(ListKind::Resources),
            "templates": item(ListKind::ResourceTemplates),
            "prompts": item(ListKind::Prompts),
            "available": self.inner.connection().is_some(),
        }))
    }
}
