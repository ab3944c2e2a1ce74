//! Gemini with `parametersJsonSchema`: plain JSON Schema, lightly
//! normalised: `$schema` stripped, `$ref` with siblings inlined (bare
//! references and recursion kept, as Gemini supports them), `const` and
//! `oneOf` rewritten, `allOf` merged, and `responseJsonSchema` from the
//! tool's `outputSchema`. Not for the Live API, which ignores it.

use serde_json::{Map, Value};

use super::Declared;
use crate::lower::{Nulls, Refs, Target};

/// The JSON Schema keywords Gemini documents for `parametersJsonSchema`.
const KEYWORDS: &[&str] = &[
    "$ref",
    "$defs",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "properties",
    "required",
    "propertyOrdering",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "default",
];

const FORMATS: &[(&str, &str)] = &[
    ("string", "date-time"),
    ("string", "date"),
    ("string", "time"),
    ("integer", "int32"),
    ("integer", "int64"),
    ("number", "float"),
    ("number", "double"),
];

pub(crate) fn target() -> Target {
    Target {
        keywords: KEYWORDS,
        formats: FORMATS,
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

/// One `FunctionDeclaration` with `parametersJsonSchema`.
pub(crate) fn declaration(d: Declared<'_>) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(d.name.to_string()));
    let no_parameters = d.no_parameters();
    m.insert("description".into(), Value::String(d.description));
    if !no_parameters {
        m.insert("parametersJsonSchema".into(), d.schema);
    }
    if let Some(out) = d.output {
        m.insert("responseJsonSchema".into(), out);
    }
    Value::Object(m)
}
