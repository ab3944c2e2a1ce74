//! OpenAI Responses API: flat `{"type": "function", name, description,
//! parameters, strict}`. The API defaults `strict` to true, so it is always
//! written out. Schemas are lowered exactly as for Chat Completions.

use serde_json::{json, Map, Value};

use super::{openai, Declared};
use crate::call::{CallBuilder, ModelTurn, Outcome, RawArgs};
use crate::error::{Error, ErrorKind};

/// One Responses API tool, built from `d` by move.
pub(crate) fn tool(d: Declared<'_>) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::String("function".into()));
    m.insert("name".into(), Value::String(d.name.to_string()));
    m.insert("description".into(), Value::String(d.description));
    m.insert("parameters".into(), openai::with_properties(d.schema));
    m.insert("strict".into(), Value::Bool(d.strict));
    Value::Object(m)
}

/// Reads the `function_call` items of a Responses API response (its
/// `output`, or a bare item array). The id is `call_id`; the assistant
/// items are the output items verbatim (reasoning items included, which
/// reasoning models need back).
pub(crate) fn read_calls(
    response: &Value,
    calls: &mut CallBuilder<'_>,
) -> Result<(String, Vec<Value>), Error> {
    let items = match response {
        Value::Array(items) => items.clone(),
        Value::Object(m) => match m.get("output") {
            Some(Value::Array(items)) => items.clone(),
            _ if m.get("type").is_some() => vec![response.clone()],
            _ => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    "",
                    "not a Responses API response: expected output items",
                ))
            }
        },
        _ => {
            return Err(Error::new(
                ErrorKind::Shape,
                "",
                "not a Responses API response: expected output items",
            ))
        }
    };
    let mut text = Vec::new();
    for item in &items {
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => {
                let name = item.get("name").and_then(Value::as_str).unwrap_or("");
                let args = match item.get("arguments") {
                    Some(Value::String(s)) => RawArgs::Text(s),
                    Some(v) => RawArgs::Value(v),
                    None => RawArgs::Missing,
                };
                let id = item
                    .get("call_id")
                    .or_else(|| item.get("id"))
                    .and_then(Value::as_str);
                calls.push(id, name, args, None);
            }
            Some("message") => {
                for c in item
                    .get("content")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                {
                    if let Some(t) = c.get("text").and_then(Value::as_str) {
                        text.push(t.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    Ok((text.join(""), items))
}

/// One `function_call_output` item per call.
pub(crate) fn write_results(turn: &ModelTurn, outcomes: &[Outcome]) -> Vec<Value> {
    turn.calls
        .iter()
        .zip(outcomes)
        .map(|(call, out)| json!({"type": "function_call_output", "call_id": call.id, "output": openai::result_text(out)}))
        .collect()
}
