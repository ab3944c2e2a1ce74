//! Rule: type arrays. `["string", "null"]` becomes one type plus
//! nullability; several non-null types become `anyOf` branches, each taking
//! the keywords that apply to its type. Dialects that speak JSON Schema
//! without strict mode keep type arrays as they are.

use serde_json::{Map, Value};

use super::{At, Cx, Node, Nulls};
use crate::report::Action;

const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// Keywords that only constrain values of one type.
pub(super) fn belongs_to(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "minLength" | "maxLength" | "pattern" | "format" | "contentEncoding"
        | "contentMediaType" => "string",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" | "contains"
        | "minContains" | "maxContains" => "array",
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "propertyNames"
        | "minProperties"
        | "maxProperties"
        | "dependentRequired" => "object",
        _ => return None,
    })
}

pub(super) fn split(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(Value::Array(list)) = node.map.get(kw!("type")) else {
        return;
    };
    let mut types: Vec<String> = Vec::new();
    let mut unknown = Vec::new();
    for t in list {
        match t.as_str() {
            Some(s) if TYPES.contains(&s) => {
                if !types.iter().any(|x| x == s) {
                    types.push(s.to_string());
                }
            }
            _ => unknown.push(t.to_string()),
        }
    }
    if !unknown.is_empty() {
        cx.note(
            at,
            "type",
            Action::Dropped,
            format!("unknown type name(s) {} ignored", unknown.join(", ")),
        );
    }
    let keep_arrays = cx.target.nulls == Nulls::TypeArray && cx.target.strict.is_none();
    if keep_arrays {
        node.map.insert(
            kw!("type"),
            Value::Array(types.into_iter().map(Value::String).collect()),
        );
        return;
    }
    let had_null = types.iter().any(|t| t == "null");
    types.retain(|t| t != "null");
    if had_null && !types.is_empty() {
        node.nullable = true;
    }
    match types.len() {
        0 => {
            let t = if had_null { "null" } else { "string" };
            node.map.insert(kw!("type"), Value::String(t.into()));
        }
        1 => {
            let t = types.pop().unwrap_or_default();
            node.map.insert(kw!("type"), Value::String(t));
            if had_null {
                cx.note(
                    at,
                    "type",
                    Action::Rewritten,
                    "type array with \"null\" written as one type that may be null",
                );
            }
        }
        _ => {
            node.map.shift_remove(kw!("type"));
            let mut branches = Vec::with_capacity(types.len());
            for t in &types {
                let mut b = Map::new();
                b.insert("type".into(), Value::String(t.clone()));
                let family = if t == "integer" { "number" } else { t.as_str() };
                for (k, v) in node.map.iter() {
                    if belongs_to(k) == Some(family) {
                        b.insert(k.to_string(), v.clone());
                    }
                }
                branches.push(Value::Object(b));
            }
            node.map.retain(|_, k, _| belongs_to(k).is_none());
            if let Some(Value::Array(existing)) = node.map.shift_remove(kw!("anyOf")).as_deref() {
                // type list AND anyOf: both must hold; keep the type branches
                // and report the other list
                cx.note(
                    at,
                    "anyOf",
                    Action::Dropped,
                    format!(
                        "anyOf next to a type list; kept the type list, dropped {} branch(es)",
                        existing.len()
                    ),
                );
            }
            node.map.insert(kw!("anyOf"), Value::Array(branches));
            node.any_of_from = Some("type");
            cx.note(at, "type", Action::Rewritten, as_any_of(&types.join(", ")));
        }
    }
}

/// This rule's fast form (`dialect::fast`, Gemini): the `anyOf` member
/// written straight into the schema's text, one branch per type, `names`
/// spelt as the dialect spells types, as the branches above come out.
pub(crate) fn push_any_of(out: &mut String, names: &[&str]) {
    out.push_str("\"anyOf\":[");
    for (i, name) in names.iter().enumerate() {
        out.push_str(if i > 0 {
            ",{\"type\":\""
        } else {
            "{\"type\":\""
        });
        out.push_str(name);
        out.push_str("\"}");
    }
    out.push(']');
}

/// What the report says of a type array (`list`, the names joined by
/// ", ") written as `anyOf`.
pub(crate) fn as_any_of(list: &str) -> String {
    format!("type array {list} written as anyOf with one branch per type")
}

/// On the conversion's fast path (`dialect::fast`): a type array of scalars is written, as [`push_any_of`] writes it where the dialect says `anyOf`; one with `null` is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[r#"{"type":"object","properties":{"x":{"type":["string","number"]}}}"#],
    refused: &[r#"{"type":"object","properties":{"x":{"type":["string","null"]}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{Nulls, Target};
    use super::*;
    use serde_json::json;

    fn openapi() -> Target {
        Target {
            nulls: Nulls::Nullable,
            keywords: &[
                "type",
                "nullable",
                "anyOf",
                "items",
                "properties",
                "required",
                "minLength",
                "minimum",
                "description",
            ],
            ..permissive()
        }
    }

    #[test]
    fn null_pair_becomes_nullable() {
        let schema = json!({"type": "object", "properties": {"q": {"type": ["string", "null"]}}});
        let (out, report) = run(&openapi(), schema);
        assert_eq!(
            out["properties"]["q"],
            json!({"type": "string", "nullable": true})
        );
        assert_eq!(
            report,
            vec![("/properties/q/type".to_string(), Action::Rewritten)]
        );
    }

    #[test]
    fn several_types_split_their_keywords() {
        let schema = json!({"type": "object", "properties": {"v": {"type": ["string", "integer", "null"], "minLength": 1, "minimum": 0, "description": "d"}}});
        let (out, _) = run(&openapi(), schema);
        assert_eq!(
            out["properties"]["v"],
            json!({"description": "d", "anyOf": [{"type": "string", "minLength": 1}, {"type": "integer", "minimum": 0}], "nullable": true})
        );
    }

    #[test]
    fn json_schema_targets_keep_arrays() {
        let schema = json!({"type": "object", "properties": {"q": {"type": ["string", "null"]}}});
        let (out, report) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
        assert!(report.is_empty());
    }

    #[test]
    fn unknown_names_are_dropped() {
        let schema =
            json!({"type": "object", "properties": {"q": {"type": ["string", "text", 3]}}});
        let (out, report) = run(&openapi(), schema);
        assert_eq!(out["properties"]["q"], json!({"type": "string"}));
        assert_eq!(report.len(), 1);
    }
}
