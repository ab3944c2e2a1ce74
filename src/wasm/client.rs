//! The MCP client's decisions, for the gateway's upstream connection.

use serde::Serialize;
use serde_json::Value;
use tsify::Tsify;
use wasm_bindgen::prelude::*;

use super::{js_error, read_value, to_js, usage};
use crate::client::{ClientSession, LegacyEvent, ReplyAction, SseEvent, SseParser};

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
