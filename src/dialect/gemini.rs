//! Gemini (Developer API and Live API): `functionDeclarations` whose
//! `parameters` use Google's OpenAPI schema subset: one upper-case `type`,
//! `nullable`, string-only `enum`, no `$ref`, no `additionalProperties`
//! (the Live API rejects it), no `oneOf`/`allOf`/`const`.

use serde_json::{json, Map, Value};

use super::Declared;
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
    }
}

/// One `FunctionDeclaration`. A tool without parameters has no
/// `parameters` (Gemini rejects an object schema with no properties).
pub(crate) fn declaration(d: &Declared<'_>) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(d.name.to_string()));
    m.insert("description".into(), Value::String(d.description.clone()));
    if !d.no_parameters() {
        let mut schema = d.schema.clone();
        upper_types(&mut schema);
        m.insert("parameters".into(), schema);
    }
    if let Some(out) = &d.output {
        m.insert("responseJsonSchema".into(), out.clone());
    }
    Value::Object(m)
}

/// Both Gemini dialects send one `Tool` holding every declaration.
pub(crate) fn wrap(declarations: Vec<Value>) -> Vec<Value> {
    if declarations.is_empty() {
        return Vec::new();
    }
    vec![json!({"functionDeclarations": declarations})]
}

/// Google's `Type` enum is spelled in capitals on the wire.
fn upper_types(v: &mut Value) {
    let Value::Object(m) = v else { return };
    if let Some(Value::String(t)) = m.get_mut("type") {
        *t = t.to_ascii_uppercase();
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for p in props.values_mut() {
            upper_types(p);
        }
    }
    if let Some(items) = m.get_mut("items") {
        upper_types(items);
    }
    if let Some(Value::Array(branches)) = m.get_mut("anyOf") {
        for b in branches {
            upper_types(b);
        }
    }
}
