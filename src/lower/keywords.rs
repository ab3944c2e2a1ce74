//! Rule: the keyword allowlist, applied last. Whatever the dialect does not
//! accept and no earlier rule rewrote or described is dropped and reported.
//! Nullability and the collected sentences are rendered here too.

use serde_json::Value;

use super::{nullable, words, Cx, Node};
use crate::report::Action;

/// Every JSON Schema 2020-12 keyword (plus draft-07's `definitions`), for
/// dialects that accept JSON Schema as it is.
#[cfg(test)]
pub(crate) const JSON_SCHEMA: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "definitions",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$comment",
    "type",
    "enum",
    "const",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
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
    "unevaluatedItems",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
];

/// The JSON Schema core that every JSON-Schema-speaking model API accepts
/// and models read well: no composition beyond `anyOf`, no conditionals.
pub(crate) const PORTABLE: &[&str] = &[
    "$ref",
    "$defs",
    "definitions",
    "type",
    "enum",
    "const",
    "title",
    "description",
    "default",
    "format",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "additionalProperties",
    "required",
    "minProperties",
    "maxProperties",
    "anyOf",
    "multipleOf",
    "examples",
];

/// [`PORTABLE`] without `const`.
#[cfg(test)]
pub(crate) fn portable_no_const() -> &'static [&'static str] {
    let list: Vec<&'static str> = PORTABLE.iter().copied().filter(|k| *k != "const").collect();
    Box::leak(list.into_boxed_slice())
}

fn reason(key: &str) -> String {
    match key {
        "$schema" => "the dialect takes no $schema".into(),
        "$id" | "$anchor" | "$dynamicAnchor" | "$comment" => {
            format!("{key} means nothing to the model")
        }
        "if" | "then" | "else" => {
            "conditional schemas (if/then/else) are not supported here".into()
        }
        "readOnly" | "writeOnly" => format!("{key} does not apply to tool arguments"),
        "additionalProperties" => {
            "the dialect cannot close an object; the model is shown only the declared properties"
                .into()
        }
        "uniqueItems" => "uniqueItems: false has no effect".into(),
        "nullable" => "nullable is OpenAPI, not JSON Schema".into(),
        _ => format!("{key} is not supported by this dialect"),
    }
}

pub(super) fn finish(cx: &mut Cx<'_>, node: &mut Node, at: &str) {
    let drop: Vec<String> = node
        .map
        .keys()
        .filter(|k| !cx.target.allows(k))
        .cloned()
        .collect();
    for key in drop {
        node.map.shift_remove(&key);
        cx.note(at, &key, Action::Dropped, reason(&key));
    }
    if let Some(Value::String(d)) = node.map.get("description") {
        if d.trim().is_empty() {
            node.map.shift_remove("description");
            cx.note(
                at,
                "description",
                Action::Dropped,
                "the description is empty",
            );
        }
    }
    if node.nullable {
        nullable::render(&mut node.map, cx.target.nulls);
    }
    if !node.notes.is_empty() {
        let text = words::append(
            node.map.get("description").and_then(Value::as_str),
            &node.notes,
        );
        node.map.insert("description".into(), Value::String(text));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::Target;
    use serde_json::json;

    #[test]
    fn unknown_keywords_are_dropped_and_reported() {
        let t = Target {
            keywords: &["type", "properties", "description"],
            ..permissive()
        };
        let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
            "x": {"type": "string", "if": {"minLength": 1}, "then": {}, "x-vendor": 1, "description": " "}
        }});
        let (out, report) = run(&t, schema);
        assert_eq!(
            out,
            json!({"type": "object", "properties": {"x": {"type": "string"}}})
        );
        let kws: Vec<&str> = report
            .iter()
            .map(|(p, _)| p.rsplit('/').next().unwrap())
            .collect();
        assert_eq!(
            kws,
            vec!["if", "then", "x-vendor", "description", "$schema"]
        );
    }
}
