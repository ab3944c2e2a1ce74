//! Building MCP tool results in the common shapes, for tools the host
//! implements itself.
//!
//! * [`tool_success`]: `{success: true, ...data}` as text and as
//!   `structuredContent`;
//! * [`tool_failure`]: `{success: false, error}` likewise, with `isError`;
//! * [`tool_exception`]: an `Error: ...` text with `isError`, for a tool that
//!   threw.

use serde_json::{json, Map, Value};

fn with_flag(success: bool, data: Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("success".into(), Value::Bool(success));
    match data {
        Value::Object(d) => {
            for (k, v) in d {
                if k != "success" {
                    m.insert(k, v);
                }
            }
        }
        Value::Null => {}
        other => {
            m.insert("result".into(), other);
        }
    }
    m
}

fn result(structured: Map<String, Value>, is_error: bool) -> Value {
    let text = Value::Object(structured.clone()).to_string();
    let mut r =
        json!({"content": [{"type": "text", "text": text}], "structuredContent": structured});
    if is_error {
        r["isError"] = Value::Bool(true);
    }
    r
}

/// A successful `CallToolResult`: `data`'s fields (or `{result: data}` for a
/// non-object) next to `success: true`.
pub fn tool_success(data: Value) -> Value {
    result(with_flag(true, data), false)
}

/// A failed `CallToolResult` the model should read: `{success: false,
/// error, ...details}` with `isError: true`.
pub fn tool_failure(error: &str, details: Value) -> Value {
    let mut m = with_flag(false, details);
    m.insert("error".into(), Value::String(error.to_string()));
    result(m, true)
}

/// A `CallToolResult` for a tool that threw: the message as text, `isError`.
pub fn tool_exception(message: &str) -> Value {
    json!({"content": [{"type": "text", "text": format!("Error: {message}")}], "isError": true})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        let ok = tool_success(json!({"dim": 0.5}));
        assert_eq!(
            ok["structuredContent"],
            json!({"success": true, "dim": 0.5})
        );
        assert_eq!(ok["content"][0]["text"], "{\"success\":true,\"dim\":0.5}");
        assert!(ok.get("isError").is_none());
        assert_eq!(
            tool_success(json!([1]))["structuredContent"],
            json!({"success": true, "result": [1]})
        );
        let bad = tool_failure("device not found", json!({"deviceId": "x"}));
        assert_eq!(
            bad["structuredContent"],
            json!({"success": false, "deviceId": "x", "error": "device not found"})
        );
        assert_eq!(bad["isError"], true);
        assert_eq!(
            tool_exception("boom"),
            json!({"content": [{"type": "text", "text": "Error: boom"}], "isError": true})
        );
    }
}
