//! Rule: object keywords on schemas that are not objects (`properties` on a
//! string means nothing and some APIs reject it), and the root, which every
//! dialect wants to be a plain object.

use serde_json::{Map, Value};

use super::{At, Cx, Kw, Node, Obj};
use crate::report::Action;

/// The keywords that only say something about objects.
pub(super) const OBJECT_KEYWORDS: &[Kw] = &[
    kw!("properties"),
    kw!("required"),
    kw!("additionalProperties"),
    kw!("patternProperties"),
    kw!("propertyNames"),
    kw!("minProperties"),
    kw!("maxProperties"),
    kw!("dependentRequired"),
    kw!("dependentSchemas"),
    kw!("unevaluatedProperties"),
    kw!("propertyOrdering"),
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
/// "object"`; `allOf` at the root merged; a union of object shapes at the
/// root merged into one object whose properties are required only when
/// every shape requires them, the shapes listed in the description; `not`,
/// conditionals and `enum`/`const` at the root left out. Model APIs refuse
/// combinators at the top of an input schema (Anthropic: no `oneOf`,
/// `allOf` or `anyOf` there), even where they take them deeper down. The
/// tool's own schema still checks every call.
pub(super) fn root_object(cx: &mut Cx<'_>, root: &mut Obj<'_>) {
    root_reference(cx, root);
    if root.contains_key(kw!("allOf")) {
        let mut map = std::mem::take(root).into_map();
        super::all_of::merge_map(cx, &mut map, &At::Root);
        *root = Obj::owned(map);
    }
    root_shape(cx, root);
    root_keywords(cx, root);
    if let Some(not) = root.shift_remove(kw!("not")) {
        say(
            root,
            format!("Must not be {}.", super::words::summary(&not)),
        );
        cx.note(
            &At::Root,
            "not",
            Action::Described,
            "not at the top level of an input schema is refused by model APIs; said in the description",
        );
    }
    for key in [
        kw!("if"),
        kw!("then"),
        kw!("else"),
        kw!("enum"),
        kw!("const"),
    ] {
        if root.shift_remove(key).is_some() {
            cx.note(
                &At::Root,
                key.name(),
                Action::Dropped,
                format!("{key} at the top level of an input schema is refused by model APIs; the tool's own schema still checks every call"),
            );
        }
    }
}

/// A `$ref` at the root, followed (a few hops) so that what it brings is
/// cleaned as the root.
fn root_reference(cx: &mut Cx<'_>, root: &mut Obj<'_>) {
    for _ in 0..8 {
        let Some(Value::String(r)) = root.get(kw!("$ref")).cloned() else {
            break;
        };
        root.shift_remove(kw!("$ref"));
        let Some(Value::Object(target)) = super::refs::resolve(cx.root, &r) else {
            cx.note(
                &At::Root,
                "$ref",
                Action::Dropped,
                format!("{r:?} points to no object schema"),
            );
            break;
        };
        // both hold: merged as allOf merges (properties and required united)
        let mut map = std::mem::take(root).into_map();
        for (k, v) in target {
            if !matches!(k.as_str(), "$defs" | "definitions" | "$schema" | "$id") {
                super::all_of::merge_key(&mut map, k.clone(), v.clone());
            }
        }
        *root = Obj::owned(map);
        cx.note(
            &At::Root,
            "$ref",
            Action::Rewritten,
            format!("{r:?} at the root inlined"),
        );
    }
}

/// Keywords of other types than object at the root left out.
fn root_keywords(cx: &mut Cx<'_>, root: &mut Obj<'_>) {
    let foreign: Vec<String> = root
        .iter()
        .filter(|(k, _)| super::type_array::belongs_to(k).is_some_and(|t| t != "object"))
        .map(|(k, _)| k.to_string())
        .collect();
    if !foreign.is_empty() {
        root.retain(|_, k, _| !foreign.iter().any(|f| f == k));
        for k in foreign {
            cx.note(
                &At::Root,
                &k,
                Action::Dropped,
                format!("{k} at the root of an input schema, which is an object, has no effect"),
            );
        }
    }
}

/// Appends a sentence to the root's description.
fn say(root: &mut Obj<'_>, note: String) {
    let desc = super::words::append(
        root.get(kw!("description")).and_then(Value::as_str),
        &[note],
    );
    root.insert(kw!("description"), Value::String(desc));
}

/// A schema with its `$ref` followed (once).
fn resolved<'v>(root: &'v Value, b: &'v Value) -> &'v Value {
    b.get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| super::refs::resolve(root, r))
        .unwrap_or(b)
}

/// The shapes of a union branch: the branch, or the shapes of its own
/// union's branches (references followed, a few levels deep).
fn shape_leaves<'v>(root: &'v Value, b: &'v Value, depth: usize, out: &mut Vec<&'v Value>) {
    let b = resolved(root, b);
    let nested = ["anyOf", "oneOf"]
        .iter()
        .find_map(|k| b.get(*k).and_then(Value::as_array));
    match nested {
        Some(bs) if depth < 4 && !bs.is_empty() => {
            if b.get("properties").is_some() || b.get("required").is_some() {
                // its own keys hold beside the nested shapes
                out.push(b);
            }
            for x in bs {
                shape_leaves(root, x, depth + 1, out);
            }
        }
        _ => out.push(b),
    }
}

/// The root's type, and a union of object shapes at the root merged.
fn root_shape(cx: &mut Cx<'_>, root: &mut Obj<'_>) {
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
        let mut props = match root.shift_remove(kw!("properties")).map(|v| v.into_owned()) {
            Some(Value::Object(p)) => p,
            _ => Map::new(),
        };
        // every shape, nested unions and references followed
        let mut leaves: Vec<&Value> = Vec::new();
        for b in &branches {
            shapes.push(super::words::summary(resolved(cx.root, b)));
            shape_leaves(cx.root, b, 0, &mut leaves);
        }
        // a property the shapes declare takes what one of them says (or
        // anything, where a shape does not name it), besides what the root
        // says; a name a shape requires is a parameter, declared or not
        let mut names: Vec<String> = Vec::new();
        for leaf in &leaves {
            let declared = leaf.get("properties").and_then(Value::as_object);
            let required = leaf.get("required").and_then(Value::as_array);
            let listed = declared.into_iter().flat_map(|p| p.keys().cloned()).chain(
                required
                    .into_iter()
                    .flatten()
                    .filter_map(|n| n.as_str().map(str::to_owned)),
            );
            for n in listed {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
        }
        for name in &names {
            // a shape that does not name it says nothing of it, unless it
            // says what other keys take
            let versions: Vec<Option<&Value>> = leaves
                .iter()
                .map(|l| {
                    l.get("properties").and_then(|p| p.get(name)).or_else(|| {
                        l.get("additionalProperties")
                            .filter(|a| **a != Value::Bool(false))
                    })
                })
                .collect();
            let mut distinct: Vec<Value> = Vec::new();
            let mut open = false;
            for v in versions.into_iter().flatten() {
                if *v == Value::Bool(true) {
                    open = true;
                } else if !distinct.contains(v) {
                    distinct.push(v.clone());
                }
            }
            let from_shapes = match (open, distinct.len()) {
                (true, _) | (_, 0) => None,
                (false, 1) => distinct.pop(),
                _ => {
                    let mut m = Map::new();
                    m.insert("anyOf".into(), Value::Array(distinct));
                    Some(Value::Object(m))
                }
            };
            let merged = match (props.shift_remove(name), from_shapes) {
                (Some(mine), Some(theirs)) if mine != theirs => {
                    let mut m = Map::new();
                    m.insert("allOf".into(), Value::Array(vec![mine, theirs]));
                    Value::Object(m)
                }
                (Some(mine), _) => mine,
                (None, Some(theirs)) => theirs,
                (None, None) => Value::Object(Map::new()),
            };
            props.insert(name.clone(), merged);
        }
        // a shape that takes other keys lets them through the merged object
        // (unless the root itself closes it)
        for leaf in &leaves {
            if let Some(Value::Object(pp)) = leaf.get("patternProperties") {
                if let Some(Value::Object(mine)) =
                    root.or_insert(kw!("patternProperties"), Value::Object(Map::new()))
                {
                    for (p, sub) in pp {
                        mine.entry(p.clone()).or_insert_with(|| sub.clone());
                    }
                }
            }
            let open = |k: &str| matches!(leaf.get(k), Some(Value::Bool(true) | Value::Object(_)));
            if (open("additionalProperties") || open("unevaluatedProperties"))
                && !root.contains_key(kw!("additionalProperties"))
            {
                root.insert(kw!("additionalProperties"), Value::Bool(true));
            }
        }
        // required where every shape requires it
        let mut common: Option<Vec<Value>> = None;
        for leaf in &leaves {
            let req: Vec<Value> = leaf
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
        say(
            root,
            format!("Send one of these shapes: {}.", shapes.join("; ")),
        );
        cx.note(
            &At::Root,
            key.name(),
            Action::Described,
            "alternatives at the root merged into one object; properties are required only where every shape requires them, and the shapes are listed in the description",
        );
        if cx.target.strict == Some(super::Strict::AllRequired) {
            // every property would be sent (null for "left out"), and the
            // shapes tell apart by which ones are there
            cx.not_strict.push((
                String::new(),
                format!("the root has alternatives ({key}), told apart by which properties are present, and strict mode sends every property"),
            ));
        }
    }
}

/// On the conversion's fast path (`dialect::fast`): keywords of another type than the node's are refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[
        r#"{"type":"object","properties":{"x":{"type":"string","properties":{"a":{"type":"string"}}}}}"#,
    ],
    strict: false,
};

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

    #[test]
    fn combinators_leave_the_root_in_every_dialect() {
        // plain Anthropic keeps allOf deeper down, never at the top
        let t = crate::dialect::Dialect::Anthropic.target(false);
        let schema = json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"allOf": [{"type": "integer"}, {"minimum": 1}]}}}
        ], "not": {"required": ["c"]}, "if": {"required": ["a"]}, "then": {"required": ["b"]}});
        let (out, report) = run(&t, schema);
        for k in ["allOf", "anyOf", "oneOf", "not", "if", "then"] {
            assert!(out.get(k).is_none(), "{k} left at the root: {out}");
        }
        assert_eq!(out["type"], "object");
        assert_eq!(out["required"], json!(["a"]));
        assert!(out["properties"]["b"]["allOf"].is_array());
        assert!(report.contains(&("/allOf".to_string(), Action::Rewritten)));
        assert!(report.contains(&("/not".to_string(), Action::Described)));
        assert!(report.contains(&("/if".to_string(), Action::Dropped)));
    }
}
