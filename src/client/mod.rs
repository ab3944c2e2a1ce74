//! The client side of MCP, sans I/O: [`UpstreamClient`], the state machine
//! of one connection to an upstream server (eras, transports, sessions,
//! lists, calls; the host moves the bytes and tells the time), and the
//! pieces it is built from, usable alone: the incremental SSE parser,
//! bounded reply bodies, reply classification and request building.

use serde_json::{json, Value};

use crate::engine::LEGACY_VERSIONS;
use crate::error::{Error, ErrorKind};

mod body;
mod types;
mod upstream;
mod wire;

pub use types::{
    CallKind, ClientConfig, ClientOutput, Connection, Failure, HttpSend, ListKind, Transport,
};
pub(crate) use upstream::Slots;
pub use upstream::{upstream_request, Relay, UpstreamClient};

/// One Server-Sent Event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SseEvent {
    /// The `event:` field (`message` when absent).
    pub event: String,
    /// The `data:` lines joined with newlines.
    pub data: String,
    /// The `id:` field, when present.
    pub id: Option<String>,
}

/// An incremental SSE parser: push chunks as they arrive, take whole events.
///
/// Linear in the bytes pushed, however they are split: each byte is looked
/// at once for line ends, and the unfinished tail is moved at most once
/// per chunk. What one event may hold (its unfinished line plus the data
/// gathered so far) is bounded by [`SseParser::with_limit`].
#[derive(Debug)]
pub struct SseParser {
    buffer: String,
    /// Bytes at the start of `buffer` already searched for a line end.
    scanned: usize,
    event: SseEvent,
    has_data: bool,
    limit: usize,
}

/// Default [`SseParser`] limit: the largest event (or unfinished line)
/// kept, in bytes.
pub const DEFAULT_MAX_EVENT: usize = 16 * 1024 * 1024;

impl Default for SseParser {
    fn default() -> Self {
        SseParser::new()
    }
}

impl SseParser {
    /// A parser with nothing buffered, refusing events over
    /// [`DEFAULT_MAX_EVENT`] bytes.
    pub fn new() -> SseParser {
        SseParser::with_limit(DEFAULT_MAX_EVENT)
    }

    /// A parser refusing events (or unfinished lines) over `max_event`
    /// bytes.
    pub fn with_limit(max_event: usize) -> SseParser {
        SseParser {
            buffer: String::new(),
            scanned: 0,
            event: SseEvent::default(),
            has_data: false,
            limit: max_event,
        }
    }

    /// Feeds a chunk of the stream; returns the events it completed. Past
    /// the limit the buffered event is dropped and an
    /// [`ErrorKind::Limit`] error returned.
    pub fn push(&mut self, chunk: &str) -> Result<Vec<SseEvent>, Error> {
        self.buffer.push_str(chunk);
        let mut out = Vec::new();
        let mut start = 0;
        let mut from = self.scanned;
        let buffer = std::mem::take(&mut self.buffer);
        while let Some(end) = buffer
            .get(from..)
            .and_then(|rest| rest.find('\n'))
            .map(|i| from + i)
        {
            let line = buffer.get(start..end).unwrap_or("");
            self.line(line.strip_suffix('\r').unwrap_or(line), &mut out);
            start = end + 1;
            from = start;
            if self.event.data.len() > self.limit {
                return Err(self.too_large());
            }
        }
        self.buffer = buffer;
        if start > 0 {
            self.buffer.drain(..start);
        }
        self.scanned = self.buffer.len();
        if self.buffer.len() + self.event.data.len() > self.limit {
            return Err(self.too_large());
        }
        Ok(out)
    }

    fn too_large(&mut self) -> Error {
        self.buffer.clear();
        self.scanned = 0;
        self.event = SseEvent::default();
        self.has_data = false;
        Error::new(
            ErrorKind::Limit,
            "",
            format!(
                "an SSE event is larger than the limit of {} bytes",
                self.limit
            ),
        )
    }

    /// Ends the stream: a last event without its blank line still counts.
    #[must_use]
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.buffer.is_empty() {
            let line = std::mem::take(&mut self.buffer);
            self.line(line.trim_end_matches('\r'), &mut out);
        }
        self.scanned = 0;
        self.line("", &mut out);
        out
    }

    fn line(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if self.has_data {
                let mut e = std::mem::take(&mut self.event);
                if e.event.is_empty() {
                    e.event = "message".into();
                }
                out.push(e);
            }
            self.event = SseEvent::default();
            self.has_data = false;
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "event" => self.event.event = value.to_string(),
            "data" => {
                if self.has_data {
                    self.event.data.push('\n');
                }
                self.event.data.push_str(value);
                self.has_data = true;
            }
            "id" => self.event.id = Some(value.to_string()),
            _ => {}
        }
    }
}

/// Default [`ReplyBody`] limit: 2 MiB, more than any tool result a model
/// can use, small enough for a hub.
pub const DEFAULT_MAX_REPLY: usize = 2 * 1024 * 1024;

/// An upstream reply body read chunk by chunk, refused as soon as it
/// passes its limit (so a huge or endless reply is never held whole).
#[derive(Debug)]
pub struct ReplyBody {
    bytes: Vec<u8>,
    limit: usize,
}

impl ReplyBody {
    /// An empty body refusing more than `limit` bytes.
    pub fn new(limit: usize) -> ReplyBody {
        ReplyBody {
            bytes: Vec::new(),
            limit,
        }
    }

    /// Adds a chunk; an [`ErrorKind::Limit`] error once the body passes the
    /// limit (the host stops reading and cancels the request).
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Error> {
        if self.bytes.len().saturating_add(chunk.len()) > self.limit {
            self.bytes = Vec::new();
            return Err(Error::new(
                ErrorKind::Limit,
                "",
                format!("the reply is larger than the limit of {} bytes", self.limit),
            ));
        }
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }

    /// Bytes read so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing was read.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The JSON-RPC messages of the whole body (see [`messages`]).
    pub fn messages(&self, content_type: &str) -> Result<Vec<Value>, Error> {
        let text = std::str::from_utf8(&self.bytes).map_err(|e| {
            Error::new(
                ErrorKind::Json,
                "",
                format!("the reply is not UTF-8 (at byte {})", e.valid_up_to()),
            )
        })?;
        messages(text, content_type)
    }
}

/// The JSON-RPC messages in an HTTP reply body: a JSON object (or array)
/// for `application/json`, or the `data` of each event for
/// `text/event-stream`.
pub fn messages(body: &str, content_type: &str) -> Result<Vec<Value>, Error> {
    if content_type
        .to_ascii_lowercase()
        .contains("text/event-stream")
    {
        let mut p = SseParser::new();
        let mut events = p.push(body)?;
        events.extend(p.finish());
        let mut out = Vec::new();
        for e in events
            .into_iter()
            .filter(|e| e.event == "message" && !e.data.trim().is_empty())
        {
            out.push(serde_json::from_str(&e.data).map_err(|err| {
                Error::new(
                    ErrorKind::Json,
                    "",
                    format!("an SSE event is not JSON: {err}"),
                )
            })?);
        }
        return Ok(out);
    }
    let v: Value = serde_json::from_str(body).map_err(|e| Error::json(&e))?;
    Ok(match v {
        Value::Array(a) => a,
        other => vec![other],
    })
}

/// The result of the response to request `id` among `messages`; a JSON-RPC
/// error becomes an [`ErrorKind::Upstream`] error with its code and message.
pub fn result_for(messages: &[Value], id: &Value) -> Result<Value, Error> {
    let Some(m) = messages.iter().find(|m| {
        m.get("id") == Some(id) && (m.get("result").is_some() || m.get("error").is_some())
    }) else {
        return Err(Error::new(
            ErrorKind::Shape,
            "",
            format!("no response to request {id} in the reply"),
        ));
    };
    if let Some(e) = m.get("error") {
        let code = e.get("code").and_then(Value::as_i64).unwrap_or(0);
        let msg = e
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("no message");
        return Err(Error::new(
            ErrorKind::Upstream,
            "/error",
            format!("the server answered with JSON-RPC error {code}: {msg}"),
        ));
    }
    Ok(m.get("result").cloned().unwrap_or(Value::Null))
}

/// Builds the requests of an MCP client session, numbering them, and the
/// HTTP headers that go with them.
#[derive(Debug, Default)]
pub struct ClientSession {
    next_id: u64,
    session_id: Option<String>,
    protocol: Option<String>,
}

impl ClientSession {
    /// A session whose first request has id 1.
    pub fn new() -> ClientSession {
        ClientSession {
            next_id: 1,
            ..ClientSession::default()
        }
    }

    /// Remembers the `Mcp-Session-Id` the server assigned (or forgets it,
    /// to initialize again).
    pub fn set_session_id(&mut self, id: Option<String>) {
        self.session_id = id.filter(|i| !i.is_empty());
    }

    /// Whether the server assigned a session.
    pub fn has_session(&self) -> bool {
        self.session_id.is_some()
    }

    /// Remembers the protocol revision negotiated by `initialize`.
    pub fn set_protocol_version(&mut self, version: Option<String>) {
        self.protocol = version;
    }

    /// The headers of a Streamable HTTP POST: content type, both accepted
    /// reply types, the bearer token, the session and the negotiated
    /// protocol revision (once known).
    pub fn headers(&self, token: Option<&str>) -> Vec<(String, String)> {
        let mut h = vec![
            ("Content-Type".to_string(), "application/json".to_string()),
            (
                "Accept".to_string(),
                "application/json, text/event-stream".to_string(),
            ),
        ];
        if let Some(t) = token.filter(|t| !t.is_empty()) {
            h.push(("Authorization".into(), format!("Bearer {t}")));
        }
        if let Some(s) = &self.session_id {
            h.push(("Mcp-Session-Id".into(), s.clone()));
        }
        if let Some(v) = &self.protocol {
            h.push(("MCP-Protocol-Version".into(), v.clone()));
        }
        h
    }

    fn request(&mut self, method: &str, params: Value) -> (Value, String) {
        let id = Value::from(self.next_id);
        self.next_id += 1;
        let text =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        (id, text)
    }

    /// `initialize`, asking for the newest protocol revision.
    #[must_use]
    pub fn initialize(&mut self, client_name: &str, client_version: &str) -> (Value, String) {
        self.request(
            "initialize",
            json!({"protocolVersion": LEGACY_VERSIONS[0], "capabilities": {}, "clientInfo": {"name": client_name, "version": client_version}}),
        )
    }

    /// `notifications/initialized`.
    pub fn initialized(&self) -> String {
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()
    }

    /// `tools/list`, from `cursor` when following `nextCursor`.
    #[must_use]
    pub fn list_tools(&mut self, cursor: Option<&str>) -> (Value, String) {
        let params = match cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        self.request("tools/list", params)
    }

    /// `tools/call`.
    #[must_use]
    pub fn call_tool(&mut self, name: &str, arguments: &Value) -> (Value, String) {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
    }
}

/// What to do with an upstream server's HTTP reply.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[must_use]
pub enum ReplyAction {
    /// Read the body's messages with [`messages`].
    Read,
    /// There is nothing to read (202 for a notification).
    Nothing,
    /// The server does not speak Streamable HTTP (a 4xx to `initialize`):
    /// fall back to the legacy HTTP+SSE transport (GET the SSE URL, wait
    /// for its `endpoint` event, POST there, read replies from the stream).
    Legacy,
    /// The session expired (404 to a request that carried one): initialize
    /// again, then resend.
    Reinitialize,
    /// Give up with this message.
    Fail(String),
}

/// Decides on an upstream reply from its status and content type.
/// `initializing`: the request was `initialize`; `has_session`: it carried
/// an `Mcp-Session-Id`.
pub fn classify_reply(
    status: u16,
    content_type: &str,
    initializing: bool,
    has_session: bool,
) -> ReplyAction {
    let ctype = content_type.to_ascii_lowercase();
    match status {
        202 | 204 => ReplyAction::Nothing,
        200..=299 if ctype.contains("application/json") || ctype.contains("text/event-stream") => {
            ReplyAction::Read
        }
        200..=299 => ReplyAction::Fail(format!(
            "the upstream answered HTTP {status} with {}, not JSON or an event stream",
            if ctype.is_empty() {
                "no content type"
            } else {
                content_type
            }
        )),
        401 => ReplyAction::Fail(
            "the upstream refused the credentials (HTTP 401): check the upstream token".into(),
        ),
        403 => ReplyAction::Fail(
            "the upstream refused access (HTTP 403): check the upstream token and its rights"
                .into(),
        ),
        404 if has_session && !initializing => ReplyAction::Reinitialize,
        400..=499 if initializing => ReplyAction::Legacy,
        _ => ReplyAction::Fail(format!("the upstream answered HTTP {status}")),
    }
}

/// An event of the legacy HTTP+SSE transport's stream.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LegacyEvent {
    /// Where to POST messages (relative to the stream's URL).
    Endpoint(String),
    /// A JSON-RPC message from the server.
    Message(Value),
    /// Anything else (pings, unknown events): ignore it.
    Other,
}

/// Reads one event of a legacy HTTP+SSE stream.
pub fn legacy_event(event: &SseEvent) -> Result<LegacyEvent, Error> {
    match event.event.as_str() {
        "endpoint" if !event.data.trim().is_empty() => {
            Ok(LegacyEvent::Endpoint(event.data.trim().to_string()))
        }
        "message" if !event.data.trim().is_empty() => serde_json::from_str(&event.data)
            .map(LegacyEvent::Message)
            .map_err(|e| {
                Error::new(
                    ErrorKind::Json,
                    "",
                    format!("an SSE event is not JSON: {e}"),
                )
            }),
        _ => Ok(LegacyEvent::Other),
    }
}

/// What a host's tool handler returned, as a `CallToolResult`: a value
/// with a `content` array is one already and passes unchanged; anything
/// else (a plain value, `null`) becomes [`tool_success`](crate::tool_success)
/// of it.
pub fn as_tool_result(value: Value) -> Value {
    crate::results::value(as_tool_result_text(&value.to_string()))
}

/// [`as_tool_result`] on JSON text, returning JSON text: a
/// `CallToolResult` (an object with a `content` array) is checked without
/// building a value tree and passes on (compacted), which keeps the hot
/// path of a gateway to one scan of the result.
pub fn as_tool_result_text(text: &str) -> Result<String, Error> {
    let text = crate::rawjson::compact(text)?;
    if let crate::rawjson::Top::Object(f) = crate::rawjson::top(&text) {
        if f.get("content").is_some_and(|c| c.starts_with('[')) {
            return Ok(text.into_owned());
        }
    }
    crate::results::tool_success_json(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_frames_across_chunks() {
        let mut p = SseParser::new();
        assert!(p.push("event: endpoint\r\ndata: /mess").unwrap().is_empty());
        let e = p
            .push("ages?session=1\r\n\r\n: comment\ndata: {\"a\":\ndata: 1}\nid: 7\n\n")
            .unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].event, "endpoint");
        assert_eq!(e[0].data, "/messages?session=1");
        assert_eq!(
            (e[1].event.as_str(), e[1].data.as_str(), e[1].id.as_deref()),
            ("message", "{\"a\":\n1}", Some("7"))
        );
        assert!(p.push("data: tail").unwrap().is_empty());
        assert_eq!(p.finish()[0].data, "tail");
    }

    #[test]
    fn replies_as_json_or_sse() {
        let json_body = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
        let m = messages(json_body, "application/json").unwrap();
        assert_eq!(result_for(&m, &json!(1)).unwrap(), json!({"tools": []}));
        let sse = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"Unknown tool\"}}\n\n";
        let m = messages(sse, "text/event-stream; charset=utf-8").unwrap();
        assert_eq!(m.len(), 2);
        let err = result_for(&m, &json!(2)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Upstream);
        assert!(err.to_string().contains("-32602"));
        assert!(result_for(&m, &json!(3)).is_err());
        assert!(messages("{oops", "application/json").is_err());
        assert!(messages("data: {oops\n\n", "text/event-stream").is_err());
    }

    #[test]
    fn requests_are_numbered() {
        let mut s = ClientSession::new();
        let (id, text) = s.initialize("switchboard", "0.1.0");
        assert_eq!(id, json!(1));
        assert!(text.contains("\"protocolVersion\":\"2025-11-25\""));
        let (id, text) = s.list_tools(Some("abc"));
        assert_eq!(id, json!(2));
        assert!(text.contains("\"cursor\":\"abc\""));
        let (_, text) = s.call_tool("x", &json!({"a": 1}));
        assert!(text.contains("tools/call"));
    }

    #[test]
    fn session_headers() {
        let mut s = ClientSession::new();
        let names = |s: &ClientSession, t: Option<&str>| -> Vec<String> {
            s.headers(t).into_iter().map(|(k, _)| k).collect()
        };
        assert_eq!(names(&s, None), ["Content-Type", "Accept"]);
        s.set_session_id(Some("abc".into()));
        s.set_protocol_version(Some("2025-11-25".into()));
        let h = s.headers(Some("t0k"));
        assert!(h.contains(&("Authorization".into(), "Bearer t0k".into())));
        assert!(h.contains(&("Mcp-Session-Id".into(), "abc".into())));
        assert!(h.contains(&("MCP-Protocol-Version".into(), "2025-11-25".into())));
        assert!(s.has_session());
        s.set_session_id(Some(String::new()));
        assert!(!s.has_session());
    }

    #[test]
    fn reply_statuses() {
        use ReplyAction::*;
        assert_eq!(classify_reply(200, "application/json", true, false), Read);
        assert_eq!(classify_reply(200, "text/event-stream", false, true), Read);
        assert_eq!(classify_reply(202, "", false, true), Nothing);
        assert_eq!(classify_reply(405, "text/plain", true, false), Legacy);
        assert_eq!(classify_reply(404, "", true, false), Legacy);
        assert_eq!(classify_reply(404, "", false, true), Reinitialize);
        assert!(matches!(classify_reply(401, "", true, false), Fail(m) if m.contains("401")));
        assert!(matches!(classify_reply(502, "", false, true), Fail(m) if m.contains("502")));
        assert!(
            matches!(classify_reply(200, "text/html", true, false), Fail(m) if m.contains("text/html"))
        );
    }

    #[test]
    fn legacy_events() {
        let ev = |event: &str, data: &str| SseEvent {
            event: event.into(),
            data: data.into(),
            id: None,
        };
        assert_eq!(
            legacy_event(&ev("endpoint", "/messages/?session_id=1\n")).unwrap(),
            LegacyEvent::Endpoint("/messages/?session_id=1".into())
        );
        assert_eq!(
            legacy_event(&ev(
                "message",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"
            ))
            .unwrap(),
            LegacyEvent::Message(json!({"jsonrpc": "2.0", "id": 1, "result": {}}))
        );
        assert_eq!(legacy_event(&ev("ping", "")).unwrap(), LegacyEvent::Other);
        assert!(legacy_event(&ev("message", "{oops")).is_err());
    }

    #[test]
    fn tool_results_from_handlers() {
        let r = json!({"content": [{"type": "text", "text": "hi"}], "isError": true});
        assert_eq!(as_tool_result(r.clone()), r);
        let wrapped = as_tool_result(json!({"on": true}));
        assert_eq!(
            wrapped["structuredContent"],
            json!({"success": true, "on": true})
        );
        assert_eq!(as_tool_result(json!(3))["structuredContent"]["result"], 3);
        assert!(as_tool_result(Value::Null)["content"].is_array());
        let text = r#"{"content":[{"type":"text","text":"hi"}],"isError":true}"#;
        assert_eq!(as_tool_result_text(text).unwrap(), text);
        let wrapped: Value =
            serde_json::from_str(&as_tool_result_text(r#"{"on":true}"#).unwrap()).unwrap();
        assert_eq!(
            wrapped["structuredContent"],
            json!({"success": true, "on": true})
        );
        let odd: Value =
            serde_json::from_str(&as_tool_result_text(r#"{"content":"not a list"}"#).unwrap())
                .unwrap();
        assert_eq!(odd["structuredContent"]["content"], "not a list");
        assert!(as_tool_result_text("{oops").is_err());
    }

    /// Events come out the same however the stream is cut into chunks.
    #[test]
    fn chunking_does_not_matter() {
        let stream = "event: endpoint\r\ndata: /m?s=1\r\n\r\n: c\n\ndata: {\"a\":\ndata: 1}\nid: 7\n\ndata:x\n\ndata: é😀\n\nretry: 5\n\n";
        let mut whole = SseParser::new();
        let mut want = whole.push(stream).unwrap();
        want.extend(whole.finish());
        assert_eq!(want.len(), 4);
        for size in 1..stream.len() {
            let mut p = SseParser::new();
            let mut got = Vec::new();
            let mut rest = stream;
            while !rest.is_empty() {
                let mut cut = size.min(rest.len());
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                let (chunk, tail) = rest.split_at(cut);
                got.extend(p.push(chunk).unwrap());
                rest = tail;
            }
            got.extend(p.finish());
            assert_eq!(got, want, "chunks of {size}");
        }
    }

    #[test]
    fn events_over_the_limit_are_refused() {
        let mut p = SseParser::with_limit(64);
        assert_eq!(p.push(&"data: xxxxxxxx\n".repeat(3)).unwrap(), vec![]);
        let e = p.push(&"data: xxxxxxxx\n".repeat(5)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Limit);
        // the parser starts over after a refusal
        assert_eq!(p.push("data: y\n\n").unwrap()[0].data, "y");
        let mut p = SseParser::with_limit(64);
        assert!(p.push(&"y".repeat(65)).is_err());
        let mut body = ReplyBody::new(10);
        body.push(b"{\"a\":").unwrap();
        body.push(b"1}").unwrap();
        assert_eq!(
            body.messages("application/json").unwrap(),
            vec![json!({"a": 1})]
        );
        assert_eq!(body.push(b"12345").unwrap_err().kind(), ErrorKind::Limit);
        let mut bad = ReplyBody::new(10);
        bad.push(&[0xff, 0xfe]).unwrap();
        assert_eq!(
            bad.messages("application/json").unwrap_err().kind(),
            ErrorKind::Json
        );
    }

    #[test]
    fn endless_lines_are_refused() {
        let mut p = SseParser::new();
        let chunk = "x".repeat(1024 * 1024);
        let mut failed = false;
        for _ in 0..20 {
            if p.push(&chunk).is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed);
    }
}
