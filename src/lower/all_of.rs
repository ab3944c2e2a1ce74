//! Rule: `allOf` merged into one schema, for dialects without `allOf`.
//! Properties and `required` are united, bounds take the stricter value,
//! `enum`s are intersected; a real conflict keeps the first value and is
//! reported.

use serde_json::{Map, Value};

use super::{refs, At, Cx, Node, Obj};
use crate::report::Action;

const LOWER_BOUNDS: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
const UPPER_BOUNDS: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];

pub(super) fn merge(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if cx.allows(kw!("allOf")) || !node.map.contains_key(kw!("allOf")) {
        return;
    }
    // merging rewrites much of the node: do it on a JSON map
    let mut map = std::mem::take(&mut node.map).into_map();
    merge_map(cx, &mut map, at);
    node.map = Obj::owned(map);
}

pub(super) fn merge_map(cx: &mut Cx<'_>, map: &mut Map<String, Value>, at: &At<'_>) {
    let Some(all) = map.shift_remove("allOf") else {
        return;
    };
    let Value::Array(mut pending) = all else {
        cx.note(at, "allOf", Action::Dropped, "allOf is not an array");
        return;
    };
    let mut merged = 0;
    let mut guard = 0;
    while !pending.is_empty() && guard < 256 {
        guard += 1;
        let branch = pending.remove(0);
        let branch = match branch {
            Value::Object(mut b) => {
                // a branch that is only a reference: take its target
                if let Some(Value::Object(t)) = b
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| refs::resolve(cx.root, r))
                {
                    b.shift_remove("$ref");
                    for (k, v) in t {
                        b.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
                b
            }
            Value::Bool(true) => continue,
            _ => {
                cx.note(
                    at,
                    "allOf",
                    Action::Dropped,
                    "a branch of allOf that is not an object schema was ignored",
                );
                continue;
            }
        };
        merged += 1;
        for (k, v) in branch {
            if k == "allOf" {
                if let Value::Array(more) = v {
                    pending.extend(more);
                }
                continue;
            }
            if let Some((k, existing, v)) = merge_key(map, k, v) {
                let detail = format!(
                    "allOf branches disagree on {k} ({} and {}); kept the first",
                    super::words::quote(&existing),
                    super::words::quote(&v)
                );
                cx.note(at, &k, Action::Dropped, detail);
            }
        }
    }
    cx.note(
        at,
        "allOf",
        Action::Rewritten,
        format!("{merged} allOf branch(es) merged into one schema"),
    );
}

/// Merges keyword `k` of a schema that must hold as well into `map`:
/// properties and `required` are united, bounds take the stricter value,
/// `enum`s are intersected, annotations fill gaps. Returns the keyword and
/// both values when they disagree in a way one schema cannot say (the value
/// in `map` is kept).
pub(super) fn merge_key(
    map: &mut Map<String, Value>,
    k: String,
    v: Value,
) -> Option<(String, Value, Value)> {
    match k.as_str() {
        "properties" => merge_properties(map, v),
        "required" => merge_required(map, v),
        "enum" => match map.get_mut("enum") {
            Some(Value::Array(have)) => {
                if let Value::Array(other) = v {
                    have.retain(|x| other.contains(x));
                }
            }
            _ => {
                map.insert(k, v);
            }
        },
        key if LOWER_BOUNDS.contains(&key) || UPPER_BOUNDS.contains(&key) => {
            let upper = UPPER_BOUNDS.contains(&key);
            match (map.get(key).and_then(Value::as_f64), v.as_f64()) {
                (Some(a), Some(b)) if (upper && b < a) || (!upper && b > a) => {
                    map.insert(k, v);
                }
                (None, _) => {
                    map.insert(k, v);
                }
                _ => {}
            }
        }
        "description" | "title" | "$comment" | "examples" | "default" => {
            map.entry(k).or_insert(v);
        }
        _ => match map.get(&k) {
            None => {
                map.insert(k, v);
            }
            Some(existing) if *existing == v => {}
            Some(existing) => return Some((k, existing.clone(), v)),
        },
    }
    None
}

fn merge_properties(map: &mut Map<String, Value>, add: Value) {
    let Value::Object(add) = add else { return };
    let props = map
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(props) = props else { return };
    for (name, schema) in add {
        match props.get_mut(&name) {
            // both sides constrain the property: both must hold
            Some(existing) if *existing != schema => {
                let both = Value::Array(vec![existing.take(), schema]);
                let mut m = Map::new();
                m.insert("allOf".into(), both);
                *existing = Value::Object(m);
            }
            Some(_) => {}
            None => {
                props.insert(name, schema);
            }
        }
    }
}

fn merge_required(map: &mut Map<String, Value>, add: Value) {
    let Value::Array(add) = add else { return };
    let req = map
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(req) = req {
        // a set of the names there: merging long lists stays linear
        let mut have: std::collections::HashSet<String> = req
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect();
        for name in add {
            let new = match name.as_str() {
                Some(s) => have.insert(s.to_owned()),
                None => !req.contains(&name),
            };
            if new {
                req.push(name);
            }
        }
    }
}

/// On the conversion's fast path (`dialect::fast`): `allOf` is not a plain keyword: the tool takes the general path.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[
        r#"{"type":"object","properties":{"x":{"allOf":[{"type":"string"},{"maxLength":3}]}}}"#,
    ],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{keywords, Target};
    use super::*;
    use serde_json::json;

    fn no_all_of() -> Target {
        Target {
            keywords: keywords::PORTABLE,
            ..permissive()
        }
    }

    #[test]
    fn merges_properties_and_required() {
        let schema = json!({"type": "object", "properties": {"p": {"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"type": "integer"}}, "required": ["b"]}
        ]}}});
        let (out, report) = run(&no_all_of(), schema);
        assert_eq!(
            out["properties"]["p"],
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a", "b"]})
        );
        assert!(report.contains(&("/properties/p/allOf".to_string(), Action::Rewritten)));
    }

    #[test]
    fn stricter_bounds_and_enum_intersection() {
        let schema = json!({"type": "object", "properties": {"n": {"allOf": [
            {"type": "integer", "minimum": 0, "maximum": 100, "enum": [1, 2, 3]},
            {"minimum": 1, "maximum": 200, "enum": [2, 3, 4]}
        ]}}});
        let (out, _) = run(&no_all_of(), schema);
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "integer", "minimum": 1, "maximum": 100, "enum": [2, 3]})
        );
    }

    #[test]
    fn conflicts_keep_first_and_are_reported() {
        let schema = json!({"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"type": "integer"}]}}});
        let (out, report) = run(&no_all_of(), schema);
        assert_eq!(out["properties"]["x"]["type"], "string");
        assert!(report.contains(&("/properties/x/type".to_string(), Action::Dropped)));
    }

    #[test]
    fn same_property_in_two_branches_is_merged_too() {
        let schema = json!({"type": "object", "allOf": [
            {"properties": {"a": {"type": "string"}}},
            {"properties": {"a": {"maxLength": 3}}},
            {"allOf": [{"properties": {"c": {"type": "boolean"}}}]}
        ]});
        let (out, _) = run(&no_all_of(), schema);
        assert_eq!(
            out["properties"]["a"],
            json!({"type": "string", "maxLength": 3})
        );
        assert_eq!(out["properties"]["c"], json!({"type": "boolean"}));
    }

    #[test]
    fn kept_where_allowed() {
        let schema = json!({"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"maxLength": 3}]}}});
        let (out, report) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
        assert!(report.is_empty());
    }
}
