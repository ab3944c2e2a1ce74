//! Anthropic Messages API: `{name, description, input_schema}`. Without
//! strict mode JSON Schema passes nearly as it is. Strict tool use closes
//! every object, has no numeric or length bounds (they move into the
//! description), caps `minItems` at 1, takes no recursion (references are
//! inlined and unrolled) and a short list of formats.

use serde_json::{json, Map, Value};

use super::{openai, Declared};
use crate::call::{CallBuilder, ModelTurn, Outcome, RawArgs};
use crate::error::{Error, ErrorKind};
use crate::lower::{Nulls, Refs, Strict, Target};

const STRICT: &[&str] = &[
    "$ref",
    "$defs",
    "type",
    "enum",
    "const",
    "default",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "anyOf",
    "format",
    "pattern",
];

const STRICT_FORMATS: &[(&str, &str)] = &[
    ("string", "date-time"),
    ("string", "date"),
    ("string", "time"),
    ("string", "duration"),
    ("string", "email"),
    ("string", "hostname"),
    ("string", "uri"),
    ("string", "ipv4"),
    ("string", "ipv6"),
    ("string", "uuid"),
];

pub(crate) fn target(strict: bool) -> Target {
    if strict {
        Target {
            keywords: STRICT,
            formats: STRICT_FORMATS,
            refs: Refs::Inline { depth: 3 },
            nulls: Nulls::TypeArray,
            require_type: true,
            string_enums: false,
            require_items: true,
            strict: Some(Strict::ClosedObjects),
            max_min_items: Some(1),
            upper_case_types: false,
        }
    } else {
        Target {
            keywords: openai::LOOSE,
            formats: &[("*", "*")],
            refs: Refs::Keep,
            nulls: Nulls::TypeArray,
            require_type: false,
            string_enums: false,
            require_items: false,
            strict: None,
            max_min_items: None,
            upper_case_types: false,
        }
    }
}

/// One Anthropic tool, built from `d` by move.
pub(crate) fn tool(d: Declared<'_>) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(d.name.to_string()));
    m.insert("description".into(), Value::String(d.description));
    m.insert("input_schema".into(), openai::with_properties(d.schema));
    if d.strict {
        m.insert("strict".into(), Value::Bool(true));
    }
    Value::Object(m)
}

/// Reads every `tool_use` block of an Anthropic message (a Messages API
/// response, a message, or a content array). The assistant turn is the
/// content verbatim (thinking blocks and their signatures included).
pub(crate) fn read_calls(
    response: &Value,
    calls: &mut CallBuilder<'_>,
) -> Result<(String, Vec<Value>), Error> {
    let content = match response {
        Value::Array(blocks) => blocks.clone(),
        Value::Object(m) => match m.get("content") {
            Some(Value::Array(blocks)) => blocks.clone(),
            Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
            _ => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    "",
                    "not an Anthropic message: expected content blocks",
                ))
            }
        },
        _ => {
            return Err(Error::new(
                ErrorKind::Shape,
                "",
                "not an Anthropic message: expected content blocks",
            ))
        }
    };
    let mut text = Vec::new();
    for block in &content {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let name = block.get("name").and_then(Value::as_str).unwrap_or("");
                let args = block
                    .get("input")
                    .map(RawArgs::Value)
                    .unwrap_or(RawArgs::Missing);
                calls.push(block.get("id").and_then(Value::as_str), name, args, None);
            }
            Some("text") => text.push(
                block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            ),
            _ => {}
        }
    }
    Ok((
        text.join(""),
        vec![json!({"role": "assistant", "content": content})],
    ))
}

/// The image media types Anthropic's `base64` image source accepts.
const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

/// One user message with a `tool_result` block per call (text and image
/// content, `is_error` on failures).
pub(crate) fn write_results(turn: &ModelTurn, outcomes: &[Outcome]) -> Vec<Value> {
    let blocks: Vec<Value> = turn
        .calls
        .iter()
        .zip(outcomes)
        .map(|(call, out)| {
            let mut content = Vec::new();
            let text = out.as_text();
            if !text.is_empty() || out.images.is_empty() {
                content.push(json!({"type": "text", "text": if text.is_empty() { "(no output)".to_string() } else { text }}));
            }
            // the media types the Messages API takes; other images stay as
            // the `[image: ...]` line of the text
            for (mime, data) in out.images.iter().filter(|(m, _)| IMAGE_TYPES.contains(&m.as_str())) {
                content.push(json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}));
            }
            let mut b = Map::new();
            b.insert("type".into(), Value::String("tool_result".into()));
            b.insert("tool_use_id".into(), Value::String(call.id.clone()));
            b.insert("content".into(), Value::Array(content));
            if out.is_error {
                b.insert("is_error".into(), Value::Bool(true));
            }
            Value::Object(b)
        })
        .collect();
    if blocks.is_empty() {
        return Vec::new();
    }
    vec![json!({"role": "user", "content": blocks})]
}
