//! OpenAI Chat Completions: `{"type": "function", "function": {name,
//! description, parameters, strict}}`. Without strict mode the schema stays
//! close to the original (arrays get `items`, which OpenAI requires).
//! Strict mode follows the structured-outputs subset: closed objects,
//! every property required with optional ones nullable, no `allOf`/`not`/
//! conditionals, a short list of formats.

use serde_json::{json, Value};

use super::Declared;
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
        }
    }
}

/// The `parameters` object: every tool gets one (strict mode needs it).
pub(crate) fn parameters(d: &Declared<'_>) -> Value {
    let mut schema = d.schema.clone();
    if let Value::Object(m) = &mut schema {
        m.entry("properties").or_insert_with(|| json!({}));
    }
    schema
}

/// One Chat Completions tool.
pub(crate) fn tool(d: &Declared<'_>) -> Value {
    let mut f = serde_json::Map::new();
    f.insert("name".into(), Value::String(d.name.to_string()));
    f.insert("description".into(), Value::String(d.description.clone()));
    f.insert("parameters".into(), parameters(d));
    if d.strict {
        f.insert("strict".into(), Value::Bool(true));
    }
    json!({"type": "function", "function": Value::Object(f)})
}
