//! Rule: strict mode (OpenAI structured outputs, Anthropic strict tool use).
//! Every object is closed (`additionalProperties: false`); for OpenAI every
//! property is required and the optional ones become nullable, so the model
//! sends `null` to leave one out (and the call mapping turns that `null`
//! back into "absent"). An open map cannot be strict: the tool falls back to
//! non-strict and the report says why.

use serde_json::Value;

use super::{nullable, At, Cx, Node, Nulls, Strict};
use crate::report::Action;

pub(super) fn apply(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(mode) = cx.target.strict else {
        return;
    };
    let is_object = node.ty() == Some("object") || node.map.contains_key(kw!("properties"));
    if !is_object {
        return;
    }
    let has_props = node
        .map
        .get(kw!("properties"))
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    match node.map.get(kw!("additionalProperties")) {
        Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) | Some(Value::Object(_)) => {
            let at = at.pointer();
            let where_ = if at.is_empty() { "the root" } else { &at };
            let why = format!("{where_} is an open object (additionalProperties), which strict mode cannot express");
            cx.not_strict.push((at, why));
            return;
        }
        _ if !has_props && !at.is_root() => {
            let at = at.pointer();
            let why = format!("{at} is an object with no declared properties (any keys), which strict mode cannot express");
            cx.not_strict.push((at, why));
            return;
        }
        _ => {
            node.map
                .insert(kw!("additionalProperties"), Value::Bool(false));
        }
    }
    if node.map.contains_key(kw!("patternProperties")) {
        let at = at.pointer();
        let why = format!(
            "{} has patternProperties, which strict mode cannot express",
            if at.is_empty() { "the root" } else { &at }
        );
        cx.not_strict.push((at, why));
        return;
    }
    if mode != Strict::AllRequired {
        return;
    }
    // a set: looked up once per property
    let required: std::collections::HashSet<String> = node
        .map
        .get(kw!("required"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let mut made = Vec::new();
    let mut all = Vec::new();
    node.map
        .or_insert(kw!("properties"), Value::Object(serde_json::Map::new()));
    if let Some(Value::Object(props)) = node.map.get_mut(kw!("properties")) {
        for (name, schema) in props.iter_mut() {
            all.push(Value::String(name.clone()));
            if !required.contains(name) {
                if let Value::Object(m) = schema {
                    nullable::render(m, Nulls::TypeArray);
                }
                made.push(name.clone());
            }
        }
    }
    node.map.insert(kw!("required"), Value::Array(all));
    if !made.is_empty() {
        cx.note(
            at,
            "required",
            Action::Rewritten,
            format!("optional {} {} made required and nullable for strict mode: the model sends null to leave one out", if made.len() == 1 { "property" } else { "properties" }, made.join(", ")),
        );
    }
}

/// OpenAI's documented limits for strict schemas: at most 5000 properties,
/// 10 levels of nesting and 1000 enum values. Returns why a schema is over.
pub(crate) fn over_limits(schema: &Value) -> Option<String> {
    fn walk(v: &Value, depth: usize, props: &mut usize, enums: &mut usize, deepest: &mut usize) {
        let Value::Object(m) = v else { return };
        *deepest = (*deepest).max(depth);
        if let Some(Value::Array(e)) = m.get("enum") {
            *enums += e.len();
        }
        if let Some(Value::Object(p)) = m.get("properties") {
            *props += p.len();
            for s in p.values() {
                walk(s, depth + 1, props, enums, deepest);
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(s) = m.get(key) {
                walk(s, depth + 1, props, enums, deepest);
            }
        }
        for key in ["anyOf", "prefixItems"] {
            if let Some(Value::Array(bs)) = m.get(key) {
                for b in bs {
                    walk(b, depth, props, enums, deepest);
                }
            }
        }
        if let Some(Value::Object(defs)) = m.get("$defs") {
            for s in defs.values() {
                walk(s, depth, props, enums, deepest);
            }
        }
    }
    let (mut props, mut enums, mut deepest) = (0, 0, 0);
    walk(schema, 0, &mut props, &mut enums, &mut deepest);
    if props > 5000 {
        return Some(format!("{props} properties; strict mode allows 5000"));
    }
    if deepest > 10 {
        return Some(format!(
            "{deepest} levels of nesting; strict mode allows 10"
        ));
    }
    if enums > 1000 {
        return Some(format!("{enums} enum values; strict mode allows 1000"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{lower, Target};
    use super::*;
    use serde_json::json;

    fn openai_strict() -> Target {
        Target {
            strict: Some(Strict::AllRequired),
            ..permissive()
        }
    }

    #[test]
    fn optional_properties_become_nullable_and_required() {
        let schema = json!({"type": "object", "properties": {
            "q": {"type": "string"},
            "limit": {"type": "integer", "description": "max rows"},
            "mode": {"type": "string", "enum": ["a", "b"]}
        }, "required": ["q"]});
        let (out, report) = run(&openai_strict(), schema);
        assert_eq!(
            out,
            json!({"type": "object", "properties": {
                "q": {"type": "string"},
                "limit": {"type": ["integer", "null"], "description": "max rows"},
                "mode": {"type": ["string", "null"], "enum": ["a", "b", null]}
            }, "required": ["q", "limit", "mode"], "additionalProperties": false})
        );
        assert_eq!(report, vec![("/required".to_string(), Action::Rewritten)]);
    }

    #[test]
    fn open_maps_cannot_be_strict() {
        let schema = json!({"type": "object", "properties": {"headers": {"type": "object", "additionalProperties": {"type": "string"}}}});
        let l = lower(&openai_strict(), &schema, "t", "").unwrap();
        assert_eq!(l.not_strict.len(), 1);
        assert_eq!(l.not_strict[0].0, "/properties/headers");
        let schema = json!({"type": "object", "properties": {"meta": {"type": "object"}}});
        assert_eq!(
            lower(&openai_strict(), &schema, "t", "")
                .unwrap()
                .not_strict
                .len(),
            1
        );
    }

    #[test]
    fn a_tool_without_parameters_is_a_closed_empty_object() {
        let (out, _) = run(&openai_strict(), json!({"type": "object"}));
        assert_eq!(
            out,
            json!({"type": "object", "additionalProperties": false, "properties": {}, "required": []})
        );
    }

    #[test]
    fn limits() {
        let mut props = serde_json::Map::new();
        for i in 0..5001 {
            props.insert(format!("p{i}"), json!({"type": "string"}));
        }
        assert!(over_limits(&json!({"type": "object", "properties": props})).is_some());
        let mut deep = json!({"type": "string"});
        for _ in 0..11 {
            deep = json!({"type": "object", "properties": {"x": deep}});
        }
        assert!(over_limits(&deep).unwrap().contains("nesting"));
        assert!(
            over_limits(&json!({"type": "object", "properties": {"a": {"type": "string"}}}))
                .is_none()
        );
    }
}
