//! Rule: null alternatives. A `{"type": "null"}` branch of `anyOf`, or `null`
//! among `enum` values, becomes the node's nullability, which is rendered at
//! the end in the dialect's own style (`nullable: true`, or `"null"` in a
//! type array / an `anyOf` branch).

use serde_json::{Map, Value};

use super::{At, Cx, Node, Nulls};
use crate::report::Action;

/// Whether a schema admits only `null`.
fn is_null_schema(v: &Value) -> bool {
    let Some(m) = v.as_object() else { return false };
    let only_null_type = match m.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.len() == 1 && ts.first().is_some_and(|t| t == "null"),
        _ => false,
    };
    let null_const = m.get("const") == Some(&Value::Null)
        || m.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.len() == 1 && e.first() == Some(&Value::Null));
    let meta_only = m.keys().all(|k| {
        matches!(
            k.as_str(),
            "type" | "const" | "enum" | "description" | "title"
        )
    });
    (only_null_type || null_const) && meta_only
}

/// What the report says of a null branch written as `nullable` (here and
/// on the fast path, `dialect::fast`, which writes `"nullable":true` at
/// the end of the node, where [`render`] puts it).
pub(crate) const NULL_BRANCH: &str = "the null branch of anyOf is written as nullable";

pub(super) fn absorb(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let openapi = cx.target.nulls == Nulls::Nullable;
    if let Some(Value::Array(branches)) = node.map.get(kw!("anyOf")) {
        let nulls = branches.iter().filter(|b| is_null_schema(b)).count();
        let left = branches.len() - nulls;
        if nulls > 0 && left > 0 {
            if let Some(Value::Array(branches)) = node.map.get_mut(kw!("anyOf")) {
                branches.retain(|b| !is_null_schema(b));
            }
            node.nullable = true;
            if openapi {
                cx.note(at, "anyOf", Action::Rewritten, NULL_BRANCH);
            }
        } else if left == 0 {
            node.map.shift_remove(kw!("anyOf"));
            node.map.insert(kw!("type"), Value::String("null".into()));
        }
    }
    if node.ty() != Some("null") {
        let has_null = matches!(node.map.get(kw!("enum")), Some(Value::Array(values))
            if values.len() > 1 && values.contains(&Value::Null));
        if has_null {
            if let Some(Value::Array(values)) = node.map.get_mut(kw!("enum")) {
                values.retain(|v| !v.is_null());
            }
            node.nullable = true;
            if openapi {
                cx.note(
                    at,
                    "enum",
                    Action::Rewritten,
                    "null among the enum values is written as nullable",
                );
            }
        }
    }
    if let Some(Value::Bool(true)) = node.map.get(kw!("nullable")) {
        // OpenAPI input: read it as nullability
        node.map.shift_remove(kw!("nullable"));
        node.nullable = true;
    }
}

/// Renders nullability into a finished schema in the dialect's style.
pub(crate) fn render(map: &mut Map<String, Value>, style: Nulls) {
    match style {
        Nulls::Nullable => {
            map.insert("nullable".into(), Value::Bool(true));
        }
        Nulls::TypeArray => {
            if let Some(c) = map.get("const").filter(|c| !c.is_null()).cloned() {
                // const excludes null: say it as a two-value enum
                map.shift_remove("const");
                map.insert("enum".into(), Value::Array(vec![c, Value::Null]));
            }
            if let Some(Value::Array(values)) = map.get_mut("enum") {
                if !values.contains(&Value::Null) {
                    values.push(Value::Null);
                }
            }
            match map.get_mut("type") {
                Some(Value::String(t)) => {
                    if t != "null" {
                        let t = std::mem::take(t);
                        map.insert(
                            "type".into(),
                            Value::Array(vec![Value::String(t), Value::String("null".into())]),
                        );
                    }
                    return;
                }
                Some(Value::Array(ts)) => {
                    if !ts.iter().any(|t| t == "null") {
                        ts.push(Value::String("null".into()));
                    }
                    return;
                }
                _ => {}
            }
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                if !branches.iter().any(is_null_schema) {
                    branches.push(serde_json::json!({"type": "null"}));
                }
                return;
            }
            if map.contains_key("$ref") {
                let inner = std::mem::take(map);
                map.insert(
                    "anyOf".into(),
                    Value::Array(vec![
                        Value::Object(inner),
                        serde_json::json!({"type": "null"}),
                    ]),
                );
            }
            // an untyped schema admits null already
        }
    }
}

/// On the conversion's fast path (`dialect::fast`): a `{"type": "null"}` branch of `anyOf` is written in the dialect's style, reported with [`NULL_BRANCH`]; `nullable` and `null` among enum values are refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[
        r#"{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"null"}]}}}"#,
        r#"{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}}}"#,
    ],
    refused: &[
        r#"{"type":"object","properties":{"x":{"type":"string","nullable":true}}}"#,
        r#"{"type":"object","properties":{"x":{"enum":["a",null]}}}"#,
    ],
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
                "enum",
                "default",
                "description",
                "properties",
            ],
            ..permissive()
        }
    }

    #[test]
    fn any_of_null_becomes_nullable() {
        let schema = json!({"type": "object", "properties": {"limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "description": "max rows"}}});
        let (out, report) = run(&openapi(), schema);
        assert_eq!(
            out["properties"]["limit"],
            json!({"default": null, "description": "max rows", "type": "integer", "nullable": true})
        );
        assert_eq!(
            report,
            vec![("/properties/limit/anyOf".to_string(), Action::Rewritten)]
        );
    }

    #[test]
    fn enum_null_becomes_nullable() {
        let schema =
            json!({"type": "object", "properties": {"c": {"type": "string", "enum": ["a", null]}}});
        let (out, _) = run(&openapi(), schema);
        assert_eq!(
            out["properties"]["c"],
            json!({"type": "string", "enum": ["a"], "nullable": true})
        );
    }

    #[test]
    fn json_schema_style_round_trips() {
        let schema = json!({"type": "object", "properties": {"limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}});
        let (out, report) = run(&permissive(), schema);
        assert_eq!(
            out["properties"]["limit"],
            json!({"type": ["integer", "null"]})
        );
        assert!(report.is_empty());
    }

    #[test]
    fn const_becomes_a_nullable_enum() {
        let mut m = json!({"type": "string", "const": "x"})
            .as_object()
            .cloned()
            .unwrap();
        render(&mut m, Nulls::TypeArray);
        assert_eq!(
            Value::Object(m),
            json!({"type": ["string", "null"], "enum": ["x", null]})
        );
    }

    #[test]
    fn render_styles() {
        let mut m = json!({"$ref": "#/$defs/A"}).as_object().cloned().unwrap();
        render(&mut m, Nulls::TypeArray);
        assert_eq!(
            Value::Object(m),
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]})
        );
        let mut m = json!({"type": "string", "enum": ["a"]})
            .as_object()
            .cloned()
            .unwrap();
        render(&mut m, Nulls::TypeArray);
        assert_eq!(
            Value::Object(m),
            json!({"type": ["string", "null"], "enum": ["a", null]})
        );
        let mut m = json!({"type": "string"}).as_object().cloned().unwrap();
        render(&mut m, Nulls::Nullable);
        assert_eq!(
            Value::Object(m),
            json!({"type": "string", "nullable": true})
        );
    }
}
