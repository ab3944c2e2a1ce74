//! Anthropic Messages API: `{name, description, input_schema}`. Without
//! strict mode JSON Schema passes nearly as it is. Strict tool use closes
//! every object, has no numeric or length bounds (they move into the
//! description), caps `minItems` at 1, takes no recursion (references are
//! inlined and unrolled) and a short list of formats.

use serde_json::{Map, Value};

use super::{openai, Declared};
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
        }
    }
}

/// One Anthropic tool.
pub(crate) fn tool(d: &Declared<'_>) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(d.name.to_string()));
    m.insert("description".into(), Value::String(d.description.clone()));
    m.insert("input_schema".into(), openai::parameters(d));
    if d.strict {
        m.insert("strict".into(), Value::Bool(true));
    }
    Value::Object(m)
}
