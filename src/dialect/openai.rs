//! OpenAI Chat Completions: `{"type": "function", "function": {name,
//! description, parameters, strict}}`. Without strict mode the schema stays
//! close to the original (arrays get `items`, which OpenAI requires).
//! Strict mode follows the structured-outputs subset: closed objects,
//! every property required with optional ones nullable, no `allOf`/`not`/
//! conditionals, a short list of formats.

use serde_json::{json, Value};

use super::Declared;
use crate::call::{CallBuilder, ModelTurn, Outcome, RawArgs};
use crate::error::{Error, ErrorKind};
use crate::lower::{Nulls, Refs, Strict, Target};

/// What non-strict function parameters keep: JSON Schema minus the meta
/// keywords that mean nothing to a model.
pub(crate) const LOOSE: &[&str] = &[
    "$ref",
    "$defs",
    "definitions",
    "type",
    "enum",
    "const",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "format",
    "contentEncoding",
    "contentMediaType",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "items",
    "prefixItems",
    "contains",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "required",
    "maxProperties",
    "minProperties",
    "dependentRequired",
    "dependentSchemas",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
];

/// The structured-outputs subset.
const STRICT: &[&str] = &[
    "$ref",
    "$defs",
    "type",
    "enum",
    "const",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];

const STRICT_FORMATS: &[(&str, &str)] = &[
    ("string", "date-time"),
    ("string", "time"),
    ("string", "date"),
    ("string", "duration"),
    ("string", "email"),
    ("string", "hostname"),
    ("string", "ipv4"),
    ("string", "ipv6"),
    ("string", "uuid"),
];

pub(crate) fn target(strict: bool) -> Target {
    if strict {
        Target {
            keywords: STRICT,
            formats: STRICT_FORMATS,
            refs: Refs::Keep,
            nulls: Nulls::TypeArray,
            require_type: true,
            string_enums: false,
            require_items: true,
            strict: Some(Strict::AllRequired),
            max_min_items: None,
            upper_case_types: false,
            maps_as_json_text: false,
        }
    } else {
        Target {
            keywords: LOOSE,
            formats: &[("*", "*")],
            refs: Refs::Keep,
            nulls: Nulls::TypeArray,
            require_type: false,
            string_enums: false,
            require_items: true,
            strict: None,
            max_min_items: None,
            upper_case_types: false,
            maps_as_json_text: false,
        }
    }
}

/// The `parameters` object: every tool gets one (strict mode needs it).
pub(crate) fn parameters(d: &Declared<'_>) -> Value {
    with_properties(d.schema.clone())
}

/// [`parameters`] from a schema taken by move.
pub(crate) fn with_properties(mut schema: Value) -> Value {
    if let Value::Object(m) = &mut schema {
        m.entry("properties").or_insert_with(|| json!({}));
    }
    schema
}

/// One Chat Completions tool, built from `d` by move.
pub(crate) fn tool(d: Declared<'_>) -> Value {
    let mut f = serde_json::Map::new();
    f.insert("name".into(), Value::String(d.name.to_string()));
    f.insert("description".into(), Value::String(d.description));
    f.insert("parameters".into(), with_properties(d.schema));
    if d.strict {
        f.insert("strict".into(), Value::Bool(true));
    }
    json!({"type": "function", "function": Value::Object(f)})
}

/// Reads the `tool_calls` of a Chat Completions response (every choice), a
/// message, or a bare `tool_calls` array; also the legacy `function_call`.
/// Arguments arrive as JSON text: a call whose text is broken gets an
/// error, the others go on.
pub(crate) fn read_calls(
    response: &Value,
    calls: &mut CallBuilder<'_>,
) -> Result<(String, Vec<Value>), Error> {
    let messages: Vec<Value> = if let Some(choices) = response.get("choices") {
        let Some(choices) = choices.as_array() else {
            return Err(Error::new(
                ErrorKind::Shape,
                "/choices",
                "choices must be an array",
            ));
        };
        choices
            .iter()
            .filter_map(|c| c.get("message").cloned())
            .collect()
    } else if response.get("tool_calls").is_some()
        || response.get("role").is_some()
        || response.get("function_call").is_some()
    {
        vec![response.clone()]
    } else if let Value::Array(tc) = response {
        vec![json!({"role": "assistant", "content": null, "tool_calls": tc})]
    } else {
        return Err(Error::new(
            ErrorKind::Shape,
            "",
            "not a Chat Completions response: expected choices, a message or tool_calls",
        ));
    };
    let mut text = Vec::new();
    for m in &messages {
        if let Some(t) = m.get("content").and_then(Value::as_str) {
            text.push(t.to_string());
        }
        for tc in m
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let f = tc.get("function").cloned().unwrap_or(Value::Null);
            let name = f.get("name").and_then(Value::as_str).unwrap_or("");
            let args = match f.get("arguments") {
                Some(Value::String(s)) => RawArgs::Text(s),
                Some(v) => RawArgs::Value(v),
                None => RawArgs::Missing,
            };
            calls.push(tc.get("id").and_then(Value::as_str), name, args, None);
        }
        if let Some(fc) = m.get("function_call") {
            let name = fc.get("name").and_then(Value::as_str).unwrap_or("");
            let args = fc
                .get("arguments")
                .and_then(Value::as_str)
                .map(RawArgs::Text)
                .unwrap_or(RawArgs::Missing);
            calls.push(None, name, args, None);
        }
    }
    let assistant = messages.into_iter().take(1).collect();
    Ok((text.join(""), assistant))
}

/// One `role: "tool"` message per call.
pub(crate) fn write_results(turn: &ModelTurn, outcomes: &[Outcome]) -> Vec<Value> {
    turn.calls
        .iter()
        .zip(outcomes)
        .map(|(call, out)| json!({"role": "tool", "tool_call_id": call.id, "content": result_text(out)}))
        .collect()
}

/// Result text for APIs with no error flag: errors say so in words.
pub(crate) fn result_text(out: &Outcome) -> String {
    let text = out.as_text();
    if out.is_error {
        format!("Error: {text}")
    } else if text.is_empty() {
        "(no output)".into()
    } else {
        text
    }
}
