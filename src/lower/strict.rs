//! Rule: strict mode (OpenAI structured outputs, Anthropic strict tool use).
//! Every object is closed (`additionalProperties: false`); for OpenAI every
//! property is required and the optional ones become nullable, so the model
//! sends `null` to leave one out (and the call mapping turns that `null`
//! back into "absent"). An open map cannot be strict: the tool falls back to
//! non-strict and the report says why.

use serde_json::Value;

use super::{nullable, words, At, Cx, Node, Nulls, Strict};
use crate::report::Action;

/// Whether the node is an object schema.
fn is_object(node: &Node<'_>) -> bool {
    node.ty() == Some("object") || node.map.contains_key(kw!("properties"))
}

/// Whether the node declares a property that may be sent.
fn declares(node: &Node<'_>) -> bool {
    node.map
        .get(kw!("properties"))
        .and_then(Value::as_object)
        .is_some_and(|p| p.values().any(|s| *s != Value::Bool(false)))
}

/// Before the node's keywords are put in words: whether strict mode can say
/// what the object takes. It cannot for other keys (`additionalProperties`
/// true or a schema, `patternProperties`, `unevaluatedProperties`), for an
/// object whose keys are not declared, and, where every property is sent
/// (OpenAI), for rules on which properties are present.
pub(super) fn check(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(mode) = cx.target.strict else {
        return;
    };
    if !is_object(node) {
        return;
    }
    let open = |k| {
        matches!(
            node.map.get(k),
            Some(Value::Bool(true)) | Some(Value::Object(_))
        )
    };
    let why = if open(kw!("additionalProperties")) {
        Some("is an open object (additionalProperties)")
    } else if node.map.contains_key(kw!("patternProperties")) {
        Some("has patternProperties")
    } else if open(kw!("unevaluatedProperties")) {
        Some("takes other keys (unevaluatedProperties)")
    } else if !declares(node) && !at.is_root() {
        Some("is an object with no declared properties (any keys)")
    } else if !declares(node) && super::json_text_maps::takes_free_keys(cx.root) {
        Some("takes keys it does not name")
    } else if mode == Strict::AllRequired
        && node
            .map
            .contains_any(kw!("dependentRequired").mask() | kw!("dependentSchemas").mask())
    {
        Some("has rules on which properties are present (dependentRequired, dependentSchemas), which sending every property breaks")
    } else {
        None
    };
    if let Some(why) = why {
        let at = at.pointer();
        let where_ = if at.is_empty() { "the root" } else { &at };
        let why = format!("{where_} {why}, which strict mode cannot express");
        cx.not_strict.push((at, why));
    }
}

/// After the children: closes the object and, for OpenAI, makes every
/// property required, the optional ones nullable.
pub(super) fn apply(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(mode) = cx.target.strict else {
        return;
    };
    if !is_object(node) {
        return;
    }
    node.map
        .insert(kw!("additionalProperties"), Value::Bool(false));
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
    let mut ambiguous = Vec::new();
    let original = at_pointer(cx.root, at).and_then(|o| o.get("properties"));
    node.map
        .or_insert(kw!("properties"), Value::Object(serde_json::Map::new()));
    if let Some(Value::Object(props)) = node.map.get_mut(kw!("properties")) {
        for (name, schema) in props.iter_mut() {
            all.push(Value::String(name.clone()));
            if !required.contains(name) {
                if let Value::Object(m) = schema {
                    // null already meant something else than "left out",
                    // unless leaving it out means null (default: null)
                    // what the tool's own schema says of this property; one
                    // declared elsewhere (a shape of a root union) is open
                    let own = original.and_then(|p| p.get(name));
                    let default_null = own.and_then(|p| p.get("default")) == Some(&Value::Null);
                    let null_valid = own.is_none_or(|p| takes_null(cx.root, p, 0));
                    if null_valid && !default_null {
                        let d = words::append(
                            m.get("description").and_then(Value::as_str),
                            &[AMBIGUOUS.into()],
                        );
                        m.insert("description".into(), Value::String(d));
                        ambiguous.push(name.clone());
                    }
                    nullable::render(m, Nulls::TypeArray);
                }
                made.push(name.clone());
            }
        }
    }
    for name in ambiguous {
        cx.note(
            &At::Key(&At::Key(at, "properties"), &name),
            "",
            Action::Narrowed,
            "optional, and null is a value of its own: strict mode makes every property required, so the model can no longer leave it out (its null is passed on as null)",
        );
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

/// The sentence added to an optional property whose `null` is a value.
const AMBIGUOUS: &str = "Null is passed on as null; this parameter cannot be left out.";

/// Whether `null` is valid for an input schema (as far as its keywords
/// tell; `$ref` followed a few levels).
fn takes_null(root: &Value, s: &Value, depth: usize) -> bool {
    let m = match s {
        Value::Bool(b) => return *b,
        Value::Object(m) => m,
        _ => return true,
    };
    if depth > 8 {
        return false;
    }
    if let Some(r) = m.get("$ref").and_then(Value::as_str) {
        if !super::refs::resolve(root, r).is_some_and(|t| takes_null(root, t, depth + 1)) {
            return false;
        }
    }
    let typed = match m.get("type") {
        None => true,
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        Some(_) => false,
    };
    let listed = m
        .get("enum")
        .and_then(Value::as_array)
        .is_none_or(|e| e.contains(&Value::Null));
    let constant = m.get("const").is_none_or(Value::is_null);
    let some = |k: &str| {
        m.get(k)
            .and_then(Value::as_array)
            .is_none_or(|bs| bs.iter().any(|b| takes_null(root, b, depth + 1)))
    };
    let all = m
        .get("allOf")
        .and_then(Value::as_array)
        .is_none_or(|bs| bs.iter().all(|b| takes_null(root, b, depth + 1)));
    typed && listed && constant && some("anyOf") && some("oneOf") && all
}

/// The input node at `at` (relative to the schema root), when `at` names
/// a place in the input.
fn at_pointer<'v>(root: &'v Value, at: &At<'_>) -> Option<&'v Value> {
    let mut cur = root;
    for token in crate::pointer::tokens(&at.pointer())? {
        cur = match cur {
            Value::Object(m) => m.get(&token)?,
            Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
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

/// On the conversion's fast path (`dialect::fast`): strict mode is refused for the whole catalog.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[r#"{"type":"object","properties":{"x":{"type":"string"}}}"#],
    strict: true,
};

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
    fn other_keys_and_presence_rules_cannot_be_strict() {
        for schema in [
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "patternProperties": {"^x_": {}}, "additionalProperties": false}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": {"type": "string"}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "dependentRequired": {"a": ["b"]}}),
            json!({"type": "object", "minProperties": 1}),
            json!({"anyOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "string"}}, "required": ["b"]}]}),
        ] {
            let l = lower(&openai_strict(), &schema, "t", "").unwrap();
            assert_eq!(l.not_strict.len(), 1, "{schema}");
        }
    }

    #[test]
    fn an_optional_property_whose_null_means_something_says_so() {
        // GitHub projects_write: "omit on update to preserve it, or pass null to clear it"
        let schema = json!({"type": "object", "properties": {
            "filter": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "pass null to clear it"},
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
            "name": {"type": "string"}
        }});
        let (out, report) = run(&openai_strict(), schema);
        assert!(out["properties"]["filter"]["description"]
            .as_str()
            .unwrap()
            .ends_with("this parameter cannot be left out."));
        assert!(report.contains(&("/properties/filter".to_string(), Action::Narrowed)));
        // left out means null anyway, or null is refused and means "left out"
        assert!(!report
            .iter()
            .any(|(p, _)| p == "/properties/limit" || p == "/properties/name"));
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
