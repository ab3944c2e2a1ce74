//! JSON-RPC 2.0 on the wire: reading one incoming message and writing
//! replies. Wire errors (JSON-RPC codes) live here, apart from the crate's
//! Rust [`Error`](crate::Error).

use serde_json::{json, Map, Value};

/// JSON-RPC error codes used by MCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WireCode {
    /// -32700: the message is not JSON.
    ParseError,
    /// -32600: JSON, but not a valid request (batches included: MCP removed them).
    InvalidRequest,
    /// -32601: no such method.
    MethodNotFound,
    /// -32602: bad parameters, unknown tool, bad cursor.
    InvalidParams,
    /// -32603: the server failed.
    InternalError,
    /// -32002: a resource that does not exist (2025 revisions only; the
    /// 2026-07-28 revision answers -32602 instead).
    ResourceNotFound,
    /// -32020 (2026-07-28): the HTTP headers do not match the body, or a
    /// required header is missing or malformed.
    HeaderMismatch,
    /// -32021 (2026-07-28): the request needs a client capability the
    /// client did not declare; `data.requiredCapabilities` names it.
    MissingClientCapability,
    /// -32022 (2026-07-28): the protocol version is not served here;
    /// `data.supported` lists those that are.
    UnsupportedProtocolVersion,
}

impl WireCode {
    /// The numeric code.
    pub fn code(self) -> i64 {
        match self {
            WireCode::ParseError => -32700,
            WireCode::InvalidRequest => -32600,
            WireCode::MethodNotFound => -32601,
            WireCode::InvalidParams => -32602,
            WireCode::InternalError => -32603,
            WireCode::ResourceNotFound => -32002,
            WireCode::HeaderMismatch => -32020,
            WireCode::MissingClientCapability => -32021,
            WireCode::UnsupportedProtocolVersion => -32022,
        }
    }
}

/// One incoming message, classified.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Incoming {
    /// A request: it gets exactly one reply with its id.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification: no reply.
    Notification { method: String, params: Value },
    /// A response to something the server sent: its id, and the result
    /// (`Ok`) or the error object (`Err`).
    Response {
        id: Value,
        outcome: Result<Value, Value>,
    },
    /// Not a message we can take; reply with this error (id when known).
    Invalid {
        id: Value,
        code: WireCode,
        message: String,
    },
}

/// Reads one JSON-RPC message.
pub(crate) fn read(text: &str) -> Incoming {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Incoming::Invalid {
                id: Value::Null,
                code: WireCode::ParseError,
                message: format!("Parse error: {e}"),
            }
        }
    };
    let Value::Object(mut m) = value else {
        let message = if value.is_array() {
            "Invalid Request: batches are not supported (MCP removed JSON-RPC batching); send one message per request"
        } else {
            "Invalid Request: a message must be a JSON object"
        };
        return Incoming::Invalid {
            id: Value::Null,
            code: WireCode::InvalidRequest,
            message: message.into(),
        };
    };
    // the message is taken apart: its parts move out, nothing is copied
    let id = m.remove("id");
    let valid_id = |id: &Value| {
        matches!(id, Value::String(_)) || id.as_i64().is_some() || id.as_u64().is_some()
    };
    let reply_id = id.clone().filter(valid_id).unwrap_or(Value::Null);
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Incoming::Invalid {
            id: reply_id,
            code: WireCode::InvalidRequest,
            message: "Invalid Request: \"jsonrpc\" must be \"2.0\"".into(),
        };
    }
    let method = match m.remove("method") {
        Some(Value::String(s)) => s,
        Some(_) => {
            return Incoming::Invalid {
                id: reply_id,
                code: WireCode::InvalidRequest,
                message: "Invalid Request: \"method\" must be a string".into(),
            }
        }
        None if m.contains_key("result") || m.contains_key("error") => {
            let id = id.unwrap_or(Value::Null);
            let outcome = match (m.remove("result"), m.remove("error")) {
                (Some(r), None) => Ok(r),
                (_, Some(e)) => Err(e),
                (None, None) => Err(Value::Null),
            };
            return Incoming::Response { id, outcome };
        }
        None => {
            return Incoming::Invalid {
                id: reply_id,
                code: WireCode::InvalidRequest,
                message: "Invalid Request: no \"method\"".into(),
            }
        }
    };
    let params = m.remove("params").unwrap_or(Value::Null);
    if !(params.is_null() || params.is_object()) {
        return Incoming::Invalid {
            id: reply_id,
            code: WireCode::InvalidRequest,
            message: "Invalid Request: \"params\" must be an object".into(),
        };
    }
    match id {
        None => Incoming::Notification { method, params },
        Some(id) if valid_id(&id) => Incoming::Request { id, method, params },
        Some(_) => Incoming::Invalid {
            id: Value::Null,
            code: WireCode::InvalidRequest,
            message: "Invalid Request: \"id\" must be a string or an integer".into(),
        },
    }
}

/// A success reply.
pub(crate) fn result(id: &Value, result: Value) -> String {
    result_text(id, &result.to_string())
}

/// A success reply around a result that is already compact JSON text.
pub(crate) fn result_text(id: &Value, result: &str) -> String {
    let id = id.to_string();
    let mut out = String::with_capacity(result.len() + id.len() + 32);
    out.push_str(r#"{"jsonrpc":"2.0","id":"#);
    out.push_str(&id);
    out.push_str(r#","result":"#);
    out.push_str(result);
    out.push('}');
    out
}

/// An error reply.
pub(crate) fn error(id: &Value, code: WireCode, message: &str, data: Option<Value>) -> String {
    let mut e = Map::new();
    e.insert("code".into(), Value::from(code.code()));
    e.insert("message".into(), Value::String(message.to_string()));
    if let Some(d) = data {
        e.insert("data".into(), d);
    }
    json!({"jsonrpc": "2.0", "id": id, "error": Value::Object(e)}).to_string()
}

/// A notification.
pub(crate) fn notification(method: &str, params: Option<Value>) -> String {
    let mut m = Map::new();
    m.insert("jsonrpc".into(), Value::String("2.0".into()));
    m.insert("method".into(), Value::String(method.to_string()));
    if let Some(p) = params {
        m.insert("params".into(), p);
    }
    Value::Object(m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_messages() {
        assert!(matches!(
            read("{"),
            Incoming::Invalid {
                code: WireCode::ParseError,
                ..
            }
        ));
        assert!(matches!(
            read("[]"),
            Incoming::Invalid {
                code: WireCode::InvalidRequest,
                ..
            }
        ));
        assert!(matches!(
            read("3"),
            Incoming::Invalid {
                code: WireCode::InvalidRequest,
                ..
            }
        ));
        assert!(matches!(
            read(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#),
            Incoming::Invalid {
                id: Value::Number(_),
                ..
            }
        ));
        assert!(matches!(
            read(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            Incoming::Invalid {
                code: WireCode::InvalidRequest,
                ..
            }
        ));
        assert!(matches!(
            read(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            Incoming::Invalid { .. }
        ));
        assert!(matches!(
            read(r#"{"jsonrpc":"2.0","id":"a","method":"ping","params":[1]}"#),
            Incoming::Invalid { .. }
        ));
        assert!(matches!(
            read(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Incoming::Notification { .. }
        ));
        assert!(matches!(
            read(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#),
            Incoming::Response { outcome: Ok(_), .. }
        ));
        match read(r#"{"jsonrpc":"2.0","id":"x","method":"tools/list"}"#) {
            Incoming::Request { id, method, params } => {
                assert_eq!(
                    (id, method.as_str(), params),
                    (Value::String("x".into()), "tools/list", Value::Null)
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn writes_replies() {
        assert_eq!(
            result(&json!(1), json!({})),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        assert_eq!(
            error(&json!("a"), WireCode::MethodNotFound, "nope", None),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"nope"}}"#
        );
    }
}
