//! OpenAI Responses API: flat `{"type": "function", name, description,
//! parameters, strict}`. The API defaults `strict` to true, so it is always
//! written out. Schemas are lowered exactly as for Chat Completions.

use serde_json::{json, Map, Value};

use super::{disclose, openai, Declared};
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

/// Most functions in one namespace: OpenAI advises fewer than ten.
pub(crate) const NAMESPACE_SIZE: usize = 9;

/// Deferred functions grouped into namespaces by category, in the order
/// the categories first come; a category of more than
/// [`NAMESPACE_SIZE`] is split into even parts (`query_1`, `query_2`,
/// ...). Each namespace's name (fitted to the name rule, and none of
/// `taken`) and description (its functions' names) is all the model sees
/// of it at first.
pub(crate) fn namespaces(deferred: Vec<(String, Value)>, taken: &mut Vec<String>) -> Vec<Value> {
    let mut groups: Vec<(String, Vec<Value>)> = Vec::new();
    for (cat, item) in deferred {
        match groups.iter_mut().find(|g| g.0 == cat) {
            Some(g) => g.1.push(item),
            None => groups.push((cat, vec![item])),
        }
    }
    let mut out = Vec::new();
    for (cat, items) in groups {
        let parts = items.len().div_ceil(NAMESPACE_SIZE);
        let mut items = items.into_iter();
        for k in 0..parts {
            // even parts: each takes its share of what is left
            let size = items.len().div_ceil(parts - k);
            let functions: Vec<Value> = items.by_ref().take(size).collect();
            let base = match parts {
                1 => cat.clone(),
                _ => format!("{cat}_{}", k + 1),
            };
            let mut description = format!("Tools ({cat}):");
            for (i, f) in functions.iter().enumerate() {
                description.push_str(if i == 0 { " " } else { ", " });
                description.push_str(f.get("name").and_then(Value::as_str).unwrap_or(""));
            }
            let mut ns = json!({"type": "namespace"});
            ns["name"] = Value::String(disclose::free_name(taken, &base));
            ns["description"] = Value::String(description);
            ns["tools"] = Value::Array(functions);
            out.push(ns);
        }
    }
    out
}

/// The `tool_search` tool: hosted, or ours (`execution: "client"`, with
/// our search's description and parameters) among `deferred` tools.
pub(crate) fn search_tool(ours: bool, deferred: usize) -> Value {
    match ours {
        true => disclose::our_search(
            r#""type":"tool_search","execution":"client","#,
            deferred,
            "parameters",
        ),
        false => json!({"type": "tool_search"}),
    }
}

/// The `tool_search_output` item answering the client search `call_id`:
/// the functions named in `found` (dialect names), each in its
/// namespace, taken from `tools` (the request's tools).
pub(crate) fn search_output(tools: &[Value], call_id: &str, found: &[String]) -> Value {
    let mut loaded = Vec::new();
    for t in tools {
        let functions: Vec<Value> = match t.get("tools").and_then(Value::as_array) {
            Some(fs) => fs
                .iter()
                .filter(|f| {
                    found
                        .iter()
                        .any(|n| f.get("name").and_then(Value::as_str) == Some(n))
                })
                .cloned()
                .collect(),
            None => continue,
        };
        if !functions.is_empty() {
            let mut ns = t.clone();
            ns["tools"] = Value::Array(functions);
            loaded.push(ns);
        }
    }
    json!({"type": "tool_search_output", "call_id": call_id, "execution": "client", "status": "completed", "tools": loaded})
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
            // the native tool search: its call (the caller answers a
            // client one), and the tools a hosted one loaded
            Some("tool_search_call") => {
                let id = item
                    .get("call_id")
                    .and_then(Value::as_str)
                    .or_else(|| item.get("id").and_then(Value::as_str))
                    .unwrap_or("");
                let client = item.get("execution").and_then(Value::as_str) == Some("client");
                calls.search(id, client, item.get("arguments"));
            }
            Some("tool_search_output") => {
                let id = item.get("call_id").and_then(Value::as_str).unwrap_or("");
                for t in item
                    .get("tools")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                {
                    let inner = t.get("tools").and_then(Value::as_array);
                    for f in inner.map(Vec::as_slice).unwrap_or(std::slice::from_ref(t)) {
                        if let Some(name) = f.get("name").and_then(Value::as_str) {
                            calls.loaded(id, name);
                        }
                    }
                }
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
