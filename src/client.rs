//! Client helpers for talking to an upstream MCP server, sans I/O: build the
//! requests, read replies that arrive as JSON or as a Server-Sent Events
//! stream, and map JSON-RPC errors. The host moves the bytes.

use serde_json::{json, Value};

use crate::engine::PROTOCOL_VERSIONS;
use crate::error::{Error, ErrorKind};

/// One Server-Sent Event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field (`message` when absent).
    pub event: String,
    /// The `data:` lines joined with newlines.
    pub data: String,
    /// The `id:` field, when present.
    pub id: Option<String>,
}

/// An incremental SSE parser: push chunks as they arrive, take whole events.
#[derive(Debug, Default)]
pub struct SseParser {
    buffer: String,
    event: SseEvent,
    has_data: bool,
}

/// Longest SSE line kept (a guard against a stream that never ends a line).
const MAX_LINE: usize = 16 * 1024 * 1024;

impl SseParser {
    /// A parser with nothing buffered.
    pub fn new() -> SseParser {
        SseParser::default()
    }

    /// Feeds a chunk of the stream; returns the events it completed.
    pub fn push(&mut self, chunk: &str) -> Result<Vec<SseEvent>, Error> {
        self.buffer.push_str(chunk);
        let mut out = Vec::new();
        while let Some(end) = self.buffer.find('\n') {
            let mut line: String = self.buffer.drain(..=end).collect();
            line.pop();
            if line.ends_with('\r') {
                line.pop();
            }
            self.line(&line, &mut out);
        }
        if self.buffer.len() > MAX_LINE {
            self.buffer.clear();
            return Err(Error::new(
                ErrorKind::Limit,
                "",
                "an SSE line is longer than 16 MiB",
            ));
        }
        Ok(out)
    }

    /// Ends the stream: a last event without its blank line still counts.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.buffer.is_empty() {
            let line = std::mem::take(&mut self.buffer);
            self.line(line.trim_end_matches('\r'), &mut out);
        }
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

/// Builds the requests of an MCP client session, numbering them.
#[derive(Debug, Default)]
pub struct ClientSession {
    next_id: u64,
}

impl ClientSession {
    /// A session whose first request has id 1.
    pub fn new() -> ClientSession {
        ClientSession { next_id: 1 }
    }

    fn request(&mut self, method: &str, params: Value) -> (Value, String) {
        let id = Value::from(self.next_id);
        self.next_id += 1;
        let text =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
        (id, text)
    }

    /// `initialize`, asking for the newest protocol revision.
    pub fn initialize(&mut self, client_name: &str, client_version: &str) -> (Value, String) {
        self.request(
            "initialize",
            json!({"protocolVersion": PROTOCOL_VERSIONS[0], "capabilities": {}, "clientInfo": {"name": client_name, "version": client_version}}),
        )
    }

    /// `notifications/initialized`.
    pub fn initialized(&self) -> String {
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()
    }

    /// `tools/list`, from `cursor` when following `nextCursor`.
    pub fn list_tools(&mut self, cursor: Option<&str>) -> (Value, String) {
        let params = match cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        self.request("tools/list", params)
    }

    /// `tools/call`.
    pub fn call_tool(&mut self, name: &str, arguments: &Value) -> (Value, String) {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
    }
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
