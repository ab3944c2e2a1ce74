//! Prompted tools, for models without function calling: a system-prompt
//! section listing each tool with its parameters in plain words, and the
//! exact JSON the model must reply with to call them.

use serde_json::{json, Value};

use super::Declared;
use crate::call::{CallBuilder, ModelTurn, Outcome, RawArgs};
use crate::error::{Error, ErrorKind};
use crate::lenient;
use crate::lower::{keywords_portable, words, Nulls, Refs, Target};
use crate::rawjson;

pub(crate) fn target() -> Target {
    Target {
        keywords: keywords_portable(),
        formats: &[("*", "*")],
        refs: Refs::Inline { depth: 2 },
        nulls: Nulls::TypeArray,
        require_type: false,
        string_enums: false,
        require_items: false,
        strict: None,
        max_min_items: None,
        upper_case_types: false,
        maps_as_json_text: false,
    }
}

/// The per-tool entry the prompt is made from.
pub(crate) fn entry(d: &Declared<'_>) -> Value {
    json!({"name": d.name, "description": d.description, "parameters": d.schema})
}

/// The reply format, stated once in the prompt and parsed back by the call
/// reader.
pub(crate) const REPLY_EXAMPLE: &str =
    r#"{"tool_calls": [{"name": "<tool name>", "arguments": {"<parameter>": "<value>"}}]}"#;

/// The system-prompt section.
pub(crate) fn prompt(tools: &[Declared<'_>]) -> String {
    let mut out = String::from("# Tools\n\nYou can call the tools below.\n");
    for d in tools {
        out.push_str(&format!("\n## {}\n{}\n", d.name, d.description.trim()));
        out.push_str(&parameters(&d.schema));
    }
    out.push_str(
        "\n# How to call tools\n\nTo call tools, reply with only this JSON object in a ```json code block, and nothing else:\n\n```json\n",
    );
    out.push_str(REPLY_EXAMPLE);
    out.push_str(
        "\n```\n\nList several entries in \"tool_calls\" to call several tools at once. Use only the tools and parameters listed above; \
leave out optional parameters you do not need. The results come back in the next message, starting with \"Tool results:\". \
If no tool is needed, answer in plain text without any JSON.\n",
    );
    out
}

/// Parameters as a bulleted list: name, kind, required or not, description.
fn parameters(schema: &Value) -> String {
    let Some(props) = schema
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty())
    else {
        return "Parameters: none.\n".into();
    };
    let required: std::collections::HashSet<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::from("Parameters:\n");
    for (name, s) in props {
        let need = if required.contains(&name.as_str()) {
            "required"
        } else {
            "optional"
        };
        out.push_str(&format!("- {name} ({}, {need})", kind(s)));
        if let Some(d) = s
            .get("description")
            .and_then(Value::as_str)
            .filter(|d| !d.trim().is_empty())
        {
            out.push_str(": ");
            out.push_str(&d.trim().replace('\n', " "));
        }
        out.push('\n');
    }
    out
}

/// A parameter's kind: words for simple schemas, compact JSON Schema for
/// nested objects.
fn kind(s: &Value) -> String {
    let nested_object = |v: &Value| {
        v.get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty())
    };
    let complex = nested_object(s) || s.get("items").is_some_and(nested_object);
    if complex {
        let mut compact = s.clone();
        if let Value::Object(m) = &mut compact {
            m.remove("description");
        }
        return format!("JSON Schema {compact}");
    }
    words::summary_listing(s, 500)
}

/// Reads calls from plain model text: the reply format of the prompt
/// (`{"tool_calls": [...]}`), a single `{"name", "arguments"}` object, or an
/// array of them, fenced or bare, with prose around; single quotes and
/// trailing commas are forgiven. Anything else is no call.
pub(crate) fn read_calls(
    response: &Value,
    calls: &mut CallBuilder<'_>,
) -> Result<(String, Vec<Value>), Error> {
    // a whole Chat Completions response: its first message
    let response = response.pointer("/choices/0/message").unwrap_or(response);
    let text = match response {
        Value::String(s) => s.clone(),
        Value::Object(m) => match m.get("content").or_else(|| m.get("text")) {
            Some(Value::String(s)) => s.clone(),
            _ => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    "",
                    "expected the model's text (a string, or a message with content)",
                ))
            }
        },
        _ => {
            return Err(Error::new(
                ErrorKind::Shape,
                "",
                "expected the model's text (a string, or a message with content)",
            ))
        }
    };
    for value in lenient::find_values(&text) {
        collect(&value, calls, 0);
    }
    Ok((
        text.clone(),
        vec![json!({"role": "assistant", "content": text})],
    ))
}

/// Keys models use for the tool name and for the arguments.
const NAME_KEYS: &[&str] = &["name", "tool", "tool_name", "function", "action"];
const ARG_KEYS: &[&str] = &["arguments", "parameters", "args", "input", "action_input"];

fn collect(v: &Value, calls: &mut CallBuilder<'_>, depth: usize) {
    if depth > 3 {
        return;
    }
    match v {
        Value::Array(items) => {
            for i in items {
                collect(i, calls, depth + 1);
            }
        }
        Value::Object(m) => {
            if let Some(list) = m.get("tool_calls").or_else(|| m.get("calls")) {
                collect(list, calls, depth + 1);
                return;
            }
            if let Some(f) = m.get("function").filter(|f| f.is_object()) {
                collect(f, calls, depth + 1);
                return;
            }
            let Some(name) = NAME_KEYS
                .iter()
                .find_map(|k| m.get(*k).and_then(Value::as_str))
            else {
                return;
            };
            let args = ARG_KEYS.iter().find_map(|k| m.get(*k));
            let raw = match args {
                Some(Value::String(s)) => RawArgs::Text(s),
                Some(a) => RawArgs::Value(a),
                None => RawArgs::Missing,
            };
            calls.push(m.get("id").and_then(Value::as_str), name, raw, None);
        }
        _ => {}
    }
}

/// The results as one user message: "Tool results:" and a JSON array of
/// `{name, id, output}` / `{name, id, error}`.
pub(crate) fn write_results(turn: &ModelTurn, outcomes: &[Outcome]) -> Vec<Value> {
    if turn.calls.is_empty() {
        return Vec::new();
    }
    let items: Vec<Value> = turn
        .calls
        .iter()
        .zip(outcomes)
        .map(|(call, out)| {
            let key = if out.is_error { "error" } else { "output" };
            json!({"name": call.dialect_name, "id": call.id, key: out.value()})
        })
        .collect();
    let mut body = String::new();
    rawjson::push_value_pretty(&mut body, &Value::Array(items));
    vec![json!({"role": "user", "content": format!("Tool results:\n```json\n{body}\n```")})]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_read_as_a_list() {
        let schema = json!({"type": "object", "properties": {
            "deviceId": {"type": "string", "description": "The device"},
            "state": {"type": "string", "enum": ["on", "off"]},
            "filter": {"type": "object", "properties": {"zone": {"type": "string"}}}
        }, "required": ["deviceId"]});
        let text = parameters(&schema);
        assert!(
            text.contains("- deviceId (a string, required): The device\n"),
            "{text}"
        );
        assert!(
            text.contains("- state (one of \"on\", \"off\", optional)\n"),
            "{text}"
        );
        assert!(
            text.contains("- filter (JSON Schema {\"type\":\"object\""),
            "{text}"
        );
        assert_eq!(
            parameters(&json!({"type": "object"})),
            "Parameters: none.\n"
        );
    }
}
