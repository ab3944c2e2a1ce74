//! Building MCP tool results in the common shapes, for tools the host
//! implements itself.
//!
//! * [`tool_success`]: `{success: true, ...data}` as text and as
//!   `structuredContent`;
//! * [`tool_failure`]: `{success: false, error}` likewise, with `isError`;
//! * [`tool_exception`]: an `Error: ...` text with `isError`, for a tool that
//!   threw.

use serde_json::{json, Value};

use crate::error::Error;
use crate::rawjson::{self, Top};

/// The `CallToolResult` text for `data` (JSON text) under `success`, with
/// `error` set for a failure. `{"success": …}` comes first, then `data`'s
/// fields (`{"result": data}` for a non-object, nothing for `null`); an
/// `error` field keeps its place but takes the message.
fn flagged(success: bool, data: &str, error: Option<&str>) -> Result<String, Error> {
    // the data goes under structuredContent (and under `result` when it is
    // not an object): two levels down at most
    let data = rawjson::compact_nested(data, 2)?;
    let top = rawjson::top(&data);
    let mut s = String::with_capacity(data.len() + 32);
    s.push_str(if success {
        r#"{"success":true"#
    } else {
        r#"{"success":false"#
    });
    let mut error_written = false;
    // `raw_key` is a JSON string as written, quotes included
    let field = |s: &mut String, raw_key: &str, value: &str| {
        s.push(',');
        s.push_str(raw_key);
        s.push(':');
        s.push_str(value);
    };
    let message = error.map(|m| {
        let mut t = String::new();
        rawjson::push_str(&mut t, m);
        t
    });
    match &top {
        Top::Object(fields) => {
            for f in &fields.0 {
                match (f.key.as_ref(), &message) {
                    ("success", _) => {}
                    ("error", Some(m)) => {
                        field(&mut s, f.raw_key, m);
                        error_written = true;
                    }
                    _ => field(&mut s, f.raw_key, f.value),
                }
            }
        }
        Top::Other("null") => {}
        Top::Other(v) => field(&mut s, r#""result""#, v),
    }
    if let (Some(m), false) = (&message, error_written) {
        field(&mut s, r#""error""#, m);
    }
    s.push('}');
    let mut out = String::with_capacity(2 * s.len() + 80);
    out.push_str(r#"{"content":[{"type":"text","text":"#);
    rawjson::push_str(&mut out, &s);
    out.push_str(r#"}],"structuredContent":"#);
    out.push_str(&s);
    if !success {
        out.push_str(r#","isError":true"#);
    }
    out.push('}');
    Ok(out)
}

/// Reads text this module wrote.
/// Reads text this module wrote back into a value; a value too deep to
/// pass through as text (over 128 levels) becomes a tool exception that
/// says so.
pub(crate) fn value(text: Result<String, Error>) -> Value {
    match text.and_then(|t| serde_json::from_str(&t).map_err(|e| Error::json(&e))) {
        Ok(v) => v,
        Err(e) => tool_exception(&format!(
            "the tool's result cannot be written: {}",
            e.message()
        )),
    }
}

/// A successful `CallToolResult`: `data`'s fields (or `{result: data}` for a
/// non-object) next to `success: true`.
pub fn tool_success(data: Value) -> Value {
    value(tool_success_json(&data.to_string()))
}

/// [`tool_success`] on JSON text, giving JSON text: the fields are copied
/// as they are written, never parsed into a tree. Fails when `data` is not
/// JSON.
pub fn tool_success_json(data: &str) -> Result<String, Error> {
    flagged(true, data, None)
}

/// A failed `CallToolResult` the model should read: `{success: false,
/// error, ...details}` with `isError: true`.
pub fn tool_failure(error: &str, details: Value) -> Value {
    value(tool_failure_json(error, &details.to_string()))
}

/// [`tool_failure`] on JSON text, giving JSON text. Fails when `details`
/// is not JSON.
pub fn tool_failure_json(error: &str, details: &str) -> Result<String, Error> {
    flagged(false, details, Some(error))
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

    #[test]
    fn text_forms() {
        // spaced-out text comes out compact; fields keep their order
        let ok = tool_success_json("{ \"b\": [1, 2], \"success\": false, \"a\": null }");
        let want = r#"{"content":[{"type":"text","text":"{\"success\":true,\"b\":[1,2],\"a\":null}"}],"structuredContent":{"success":true,"b":[1,2],"a":null}}"#;
        assert_eq!(ok.ok().as_deref(), Some(want));
        // an error field keeps its place and takes the message
        let bad = tool_failure_json("no \"x\"", r#"{"error":1,"id":"x"}"#).unwrap_or_default();
        let v: Value = serde_json::from_str(&bad).unwrap_or_default();
        assert_eq!(
            v["content"][0]["text"],
            r#"{"success":false,"error":"no \"x\"","id":"x"}"#
        );
        assert_eq!(v["isError"], true);
        assert_eq!(
            tool_success_json("null").ok(),
            Some(tool_success(Value::Null).to_string())
        );
        assert_eq!(
            tool_success_json("\"hi\"").ok(),
            Some(tool_success(json!("hi")).to_string())
        );
        let e = tool_success_json("{oops").err().map(|e| e.kind());
        assert_eq!(e, Some(crate::ErrorKind::Json));
        assert!(tool_success_json(&"[".repeat(100_000)).is_err());
        // a value nested past the limit gets an error result, not null
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        assert_eq!(tool_success(deep)["isError"], true);
    }
}
