//! Gemini with `parametersJsonSchema`: plain JSON Schema, lightly
//! normalised: `$schema` stripped, `$ref` with siblings inlined (bare
//! references and recursion kept, as Gemini supports them), `const` and
//! `oneOf` rewritten, `allOf` merged, and `responseJsonSchema` from the
//! tool's `outputSchema`. Not for the Live API, which ignores it.

use serde_json::Value;

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
        maps_as_json_text: false,
    }
}

/// One `FunctionDeclaration` with `parametersJsonSchema`.
pub(crate) fn declaration(d: Declared<'_>) -> Value {
    d.function_declaration("parametersJsonSchema")
}
