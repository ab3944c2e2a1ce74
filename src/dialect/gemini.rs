//! Gemini (Developer API and Live API): `functionDeclarations` whose
//! `parameters` use Google's OpenAPI schema subset: one upper-case `type`,
//! `nullable`, string-only `enum`, no `$ref`, no `additionalProperties`
//! (the Live API rejects it), no `oneOf`/`allOf`/`const`.

use serde_json::{json, Map, Value};

use super::Declared;
use crate::call::{CallBuilder, ModelTurn, Outcome, RawArgs};
use crate::error::{Error, ErrorKind};
use crate::lower::{Nulls, Refs, Target};

/// The schema fields Google's `Schema` object accepts.
const KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "propertyOrdering",
    "default",
    "example",
];

/// Formats Google documents per type; others move into the description.
const FORMATS: &[(&str, &str)] = &[
    ("*", "enum"),
    ("string", "date-time"),
    ("integer", "int32"),
    ("integer", "int64"),
    ("number", "float"),
    ("number", "double"),
];

pub(crate) fn target() -> Target {
    Target {
        keywords: KEYWORDS,
        formats: FORMATS,
        refs: Refs::Inline { depth: 3 },
        nulls: Nulls::Nullable,
        require_type: true,
        string_enums: true,
        require_items: true,
        strict: None,
        max_min_items: None,
        upper_case_types: true,
        maps_as_json_text: true,
    }
}

/// One `FunctionDeclaration`, built from `d` by move. A tool without
/// parameters has no `parameters` (Gemini rejects an object schema with no
/// properties).
pub(crate) fn declaration(d: Declared<'_>) -> Value {
    // type names are already in capitals (`Target::upper_case_types`)
    d.function_declaration("parameters")
}

/// Most function declarations in one request (the SDKs'
/// `Tool.function_declarations`: "Maximum 512 function declarations"; the
/// API answers "At most 512 function declarations can be specified").
pub(crate) const MAX_DECLARATIONS: usize = 512;

/// Whether `n` tools are more than one Gemini request takes (never, for
/// the other dialects).
pub(crate) fn over_limit(dialect: super::Dialect, n: usize) -> bool {
    matches!(dialect, super::Dialect::Gemini | super::Dialect::GeminiJson) && n > MAX_DECLARATIONS
}

/// Both Gemini dialects send one `Tool` holding every declaration.
pub(crate) fn wrap(declarations: Vec<Value>) -> Vec<Value> {
    if declarations.is_empty() {
        return Vec::new();
    }
    let mut tool = Map::new();
    tool.insert("functionDeclarations".into(), Value::Array(declarations));
    vec![Value::Object(tool)]
}

/// Reads the calls of a Gemini response: every `functionCall` part of every
/// candidate (a `GenerateContentResponse`), of a bare `Content`, of a parts
/// array, or of a Live API `toolCall` message. Ids are kept when Gemini gives
/// them; `thoughtSignature` is kept on the call and in the assistant turn.
pub(crate) fn read_calls(
    response: &Value,
    calls: &mut CallBuilder<'_>,
) -> Result<(String, Vec<Value>), Error> {
    let mut text = Vec::new();
    let mut assistant = Vec::new();
    let mut read_parts = |parts: &[Value], calls: &mut CallBuilder<'_>| {
        for part in parts {
            if let Some(fc) = part.get("functionCall") {
                let name = fc.get("name").and_then(Value::as_str).unwrap_or("");
                let args = fc
                    .get("args")
                    .map(RawArgs::Value)
                    .unwrap_or(RawArgs::Missing);
                let sig = part.get("thoughtSignature").and_then(Value::as_str);
                calls.push(fc.get("id").and_then(Value::as_str), name, args, sig);
            } else if let Some(t) = part.get("text").and_then(Value::as_str) {
                if part.get("thought") != Some(&Value::Bool(true)) {
                    text.push(t.to_string());
                }
            }
        }
    };
    if let Some(live) = response.get("toolCall") {
        let fcs = live
            .get("functionCalls")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let parts: Vec<Value> = fcs
            .into_iter()
            .map(|fc| json!({"functionCall": fc}))
            .collect();
        read_parts(&parts, calls);
        return Ok((text.join(""), assistant));
    }
    if let Some(candidates) = response.get("candidates") {
        let Some(candidates) = candidates.as_array() else {
            return Err(Error::new(
                ErrorKind::Shape,
                "/candidates",
                "candidates must be an array",
            ));
        };
        for c in candidates {
            let Some(content) = c.get("content") else {
                continue;
            };
            let parts = content
                .get("parts")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            read_parts(parts, calls);
            if assistant.is_empty() || parts.iter().any(|p| p.get("functionCall").is_some()) {
                let mut turn = content.clone();
                if let Value::Object(m) = &mut turn {
                    m.entry("role")
                        .or_insert_with(|| Value::String("model".into()));
                }
                if assistant.is_empty() {
                    assistant.push(turn);
                } else if let Some(Value::Array(all)) =
                    assistant.first_mut().and_then(|a| a.get_mut("parts"))
                {
                    all.extend(parts.iter().cloned());
                }
            }
        }
        if candidates.is_empty() {
            if let Some(reason) = response
                .pointer("/promptFeedback/blockReason")
                .and_then(Value::as_str)
            {
                return Err(Error::new(
                    ErrorKind::Upstream,
                    "/promptFeedback/blockReason",
                    format!("Gemini blocked the prompt: {reason}"),
                ));
            }
        }
        return Ok((text.join(""), assistant));
    }
    let parts = match response {
        Value::Array(parts) => parts.clone(),
        Value::Object(m) if m.contains_key("parts") => m.get("parts").and_then(Value::as_array).cloned().unwrap_or_default(),
        Value::Object(m) if m.contains_key("promptFeedback") => {
            let reason = response.pointer("/promptFeedback/blockReason").and_then(Value::as_str).unwrap_or("no candidates");
            return Err(Error::new(ErrorKind::Upstream, "/promptFeedback", format!("Gemini returned no candidates: {reason}")));
        }
        _ => {
            return Err(Error::new(
                ErrorKind::Shape,
                "",
                "not a Gemini response: expected candidates, a Content with parts, a parts array or a Live toolCall",
            ))
        }
    };
    read_parts(&parts, calls);
    assistant.push(json!({"role": "model", "parts": parts}));
    Ok((text.join(""), assistant))
}

/// One `functionResponse` part per call, in call order, under one user
/// turn: `{"output": ...}` or `{"error": ...}`; the id only when Gemini gave
/// one. For the Live API, send the `functionResponse` objects as
/// `toolResponse.functionResponses`.
pub(crate) fn write_results(turn: &ModelTurn, outcomes: &[Outcome]) -> Vec<Value> {
    let parts: Vec<Value> = turn
        .calls
        .iter()
        .zip(outcomes)
        .map(|(call, out)| {
            let response = if out.is_error {
                json!({"error": out.value()})
            } else {
                json!({"output": out.value()})
            };
            let mut fr = Map::new();
            if call.id_from_model {
                fr.insert("id".into(), Value::String(call.id.clone()));
            }
            fr.insert("name".into(), Value::String(call.dialect_name.clone()));
            fr.insert("response".into(), response);
            json!({"functionResponse": Value::Object(fr)})
        })
        .collect();
    if parts.is_empty() {
        return Vec::new();
    }
    vec![json!({"role": "user", "parts": parts})]
}
