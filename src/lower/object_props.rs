//! Rule: object keywords on schemas that are not objects (`properties` on a
//! string means nothing and some APIs reject it), and the root, which every
//! dialect wants to be a plain object.

use serde_json::{Map, Value};

use super::{At, Cx, Kw, Node, Obj};
use crate::report::Action;

const OBJECT_KEYWORDS: &[Kw] = &[
    kw!("properties"),
    kw!("required"),
    kw!("additionalProperties"),
    kw!("patternProperties"),
    kw!("propertyNames"),
    kw!("minProperties"),
    kw!("maxProperties"),
    kw!("dependentRequired"),
    kw!("dependentSchemas"),
];

pub(super) fn clean(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let object = match node.map.get(kw!("type")) {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => true,
    };
    if !object {
        for &key in OBJECT_KEYWORDS {
            if node.map.shift_remove(key).is_some() {
                let detail = format!(
                    "{key} on a {} schema has no effect",
                    node.ty().unwrap_or("this")
                );
                cx.note(at, key.name(), Action::Dropped, detail);
            }
        }
    }
    if let Some(p) = node.map.get(kw!("properties")) {
        if !p.is_object() {
            node.map.shift_remove(kw!("properties"));
            cx.note(
                at,
                "properties",
                Action::Dropped,
                "properties is not an object",
            );
        }
    }
}

/// Makes the root a plain object schema before the walk: `type:
/// "object"`, and a union of object shapes at the root (which no dialect
/// accepts) merged into one object whose properties are required only when
/// every shape requires them. The shapes are listed in the description.
pub(super) fn root_object(cx: &mut Cx<'_>, root: &mut Obj<'_>) {
    match root.get(kw!("type")) {
        Some(Value::String(t)) if t == "object" => {}
        None => {
            root.insert(kw!("type"), Value::String("object".into()));
        }
        Some(other) => {
            let had = other.to_string();
            root.insert(kw!("type"), Value::String("object".into()));
            cx.note(
                &At::Root,
                "type",
                Action::Rewritten,
                format!("the root of an input schema must be an object, not {had}"),
            );
        }
    }
    for key in [kw!("anyOf"), kw!("oneOf")] {
        let Some(Value::Array(branches)) = root.shift_remove(key).map(|v| v.into_owned()) else {
            continue;
        };
        let mut shapes = Vec::new();
        let mut common: Option<Vec<Value>> = None;
        let mut props = match root.shift_remove(kw!("properties")).map(|v| v.into_owned()) {
            Some(Value::Object(p)) => p,
            _ => Map::new(),
        };
        for b in &branches {
            let b = match b
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| super::refs::resolve(cx.root, r))
            {
                Some(target) => target,
                None => b,
            };
            shapes.push(super::words::summary(b));
            if let Some(Value::Object(bp)) = b.get("properties") {
                for (k, v) in bp {
                    props.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            let req: Vec<Value> = b
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            common = Some(match common {
                None => req,
                Some(c) => {
                    let names: std::collections::HashSet<String> = req
                        .iter()
                        .filter_map(|n| n.as_str().map(str::to_owned))
                        .collect();
                    c.into_iter()
                        .filter(|n| match n.as_str() {
                            Some(s) => names.contains(s),
                            None => req.contains(n),
                        })
                        .collect()
                }
            });
        }
        root.insert(kw!("properties"), Value::Object(props));
        if let Some(common) = common.filter(|c| !c.is_empty()) {
            let req = root.or_insert(kw!("required"), Value::Array(Vec::new()));
            if let Some(Value::Array(req)) = req {
                let mut have: std::collections::HashSet<String> = req
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect();
                for n in common {
                    let new = match n.as_str() {
                        Some(s) => have.insert(s.to_owned()),
                        None => !req.contains(&n),
                    };
                    if new {
                        req.push(n);
                    }
                }
            }
        }
        let note = format!("Send one of these shapes: {}.", shapes.join("; "));
        let desc = super::words::append(
            root.get(kw!("description")).and_then(Value::as_str),
            &[note],
        );
        root.insert(kw!("description"), Value::String(desc));
        cx.note(
            &At::Root,
            key.name(),
            Action::Described,
            "alternatives at the root merged into one object; properties are required only where every shape requires them, and the shapes are listed in the description",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::*;
    use serde_json::json;

    #[test]
    fn drops_properties_on_strings() {
        let schema = json!({"type": "object", "properties": {"s": {"type": "string", "properties": {"a": {}}, "required": ["a"]}}});
        let (out, report) = run(&permissive(), schema);
        assert_eq!(out["properties"]["s"], json!({"type": "string"}));
        assert_eq!(report.len(), 2);
    }

    #[test]
    fn root_gets_object_type_and_unions_merge() {
        let schema = json!({"anyOf": [
            {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
            {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        ]});
        let (out, report) = run(&permissive(), schema);
        assert_eq!(out["type"], "object");
        assert_eq!(
            out["properties"],
            json!({"id": {"type": "string"}, "name": {"type": "string"}})
        );
        assert!(out["description"]
            .as_str()
            .unwrap()
            .starts_with("Send one of these shapes"));
        assert!(report.contains(&("/anyOf".to_string(), Action::Described)));
    }
}
