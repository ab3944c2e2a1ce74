//! Rule: keywords beside `anyOf`, for dialects that want every schema typed
//! (Gemini's `parameters`, the strict modes). Google's SDK refuses a schema
//! holding both `type` and `anyOf` ("type and anyOf cannot be both
//! populated"), and a strict mode can only close an object that declares
//! its properties itself. A node with `anyOf` and other constraints means
//! "these constraints and one of the branches", which is "one of (these
//! constraints and the branch)": the constraints move into every branch
//! (as `allOf` merges them, keywords of one type only into branches of that
//! type) and only annotations stay beside `anyOf`. A branch whose type the
//! node's type excludes matches nothing and is dropped. A union left with
//! one plain branch is folded into the node at once, so the node's own
//! rules see it (a nullable map is a map).
//!
//! Where the dialect writes objects with free keys as JSON text, such a
//! branch beside a branch that takes strings is dropped: the model's text
//! would be read as that string, not as the object.

use serde_json::{Map, Value};

use super::{all_of, refs, type_array, untyped, At, Cx, Node};
use crate::report::Action;

/// Keys that stay beside `anyOf`: they say nothing about which values are
/// valid, or belong to the node rather than to its values.
fn stays(key: &str) -> bool {
    matches!(
        key,
        "anyOf"
            | "description"
            | "title"
            | "default"
            | "examples"
            | "example"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
    ) || key.starts_with('$')
}

/// The JSON types a branch admits, when it says (`$ref` followed once).
fn types_of<'v>(root: &'v Value, branch: &'v Value) -> Option<Vec<&'v str>> {
    let b = match branch.get("$ref").and_then(Value::as_str) {
        Some(r) if branch.get("type").is_none() => refs::resolve(root, r)?,
        _ => branch,
    };
    match b.get("type")? {
        Value::String(t) => Some(vec![t.as_str()]),
        Value::Array(ts) => Some(ts.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// `a` and `b` as one type, when a value can have both.
fn meet<'t>(a: &'t str, b: &'t str) -> Option<&'t str> {
    match (a, b) {
        _ if a == b => Some(a),
        ("integer", "number") | ("number", "integer") => Some("integer"),
        _ => None,
    }
}

pub(super) fn distribute(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if !cx.target.require_type {
        return;
    }
    let Some(Value::Array(branches)) = node.map.get(kw!("anyOf")) else {
        return;
    };
    let moving: Vec<(String, Value)> = node
        .map
        .iter()
        .filter(|(k, _)| !stays(k))
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    if branches.iter().any(|b| is_free_map(cx.root, b)) {
        node.any_object_branch = true;
    }
    if branches.len() == 1 && moving.is_empty() && fold(cx, node, at) {
        return;
    }
    if !moving.is_empty() {
        move_into_branches(cx, node, at, &moving);
    }
    if cx.target.maps_as_json_text {
        drop_maps_beside_strings(cx, node, at);
    }
}

/// Moves the node's constraints into each branch of its `anyOf`.
fn move_into_branches<'a>(
    cx: &mut Cx<'a>,
    node: &mut Node<'_>,
    at: &At<'_>,
    moving: &[(String, Value)],
) {
    let root: &'a Value = cx.root;
    let Some(Value::Array(branches)) = node.map.get(kw!("anyOf")).cloned() else {
        return;
    };
    let own_type = moving
        .iter()
        .find(|(k, _)| k == "type")
        .and_then(|(_, v)| v.as_str())
        .map(str::to_owned);
    let origin = node.any_of_from.unwrap_or("anyOf");
    let mut out = Vec::with_capacity(branches.len());
    for (i, branch) in branches.iter().enumerate() {
        let mut b = match branch {
            Value::Object(m) => m.clone(),
            Value::Bool(true) => Map::new(),
            _ => {
                out.push(branch.clone());
                continue;
            }
        };
        // the branch's type, narrowed by the node's
        let branch_types = types_of(root, branch);
        let ty = match (&own_type, &branch_types) {
            (Some(own), Some(theirs)) => {
                let met: Vec<&str> = theirs.iter().filter_map(|t| meet(own, t)).collect();
                match met.first() {
                    Some(t) => Some((*t).to_string()),
                    None => {
                        cx.note(
                            &At::Index(&At::Key(at, origin), i),
                            "",
                            Action::Dropped,
                            format!(
                                "this branch's type ({}) is excluded by the type {own} beside anyOf: it matches nothing",
                                theirs.join(", ")
                            ),
                        );
                        continue;
                    }
                }
            }
            (Some(own), None) => Some(own.clone()),
            (None, Some(theirs)) if theirs.len() == 1 => theirs.first().map(|t| (*t).to_string()),
            _ => None,
        };
        if let Some(t) = &ty {
            b.insert("type".into(), Value::String(t.clone()));
        }
        let family = ty
            .as_deref()
            .map(|t| if t == "integer" { "number" } else { t });
        for (k, v) in moving {
            if k == "type" {
                continue;
            }
            if let (Some(f), Some(kf)) = (family, type_array::belongs_to(k)) {
                if f != kf {
                    // a keyword of another type does not apply to this branch
                    continue;
                }
            }
            if let Some((k, _, v)) = all_of::merge_key(&mut b, k.clone(), v.clone()) {
                // both must hold and one schema cannot say it: allOf does
                // (merged, or reported, when the branch is lowered)
                let mut one = Map::new();
                one.insert(k, v);
                match b.get_mut("allOf") {
                    Some(Value::Array(all)) => all.push(Value::Object(one)),
                    _ => {
                        b.insert("allOf".into(), Value::Array(vec![Value::Object(one)]));
                    }
                }
            }
        }
        out.push(Value::Object(b));
    }
    node.map.retain(|_, k, _| stays(k));
    let names: Vec<&str> = moving.iter().map(|(k, _)| k.as_str()).collect();
    node.map.insert(kw!("anyOf"), Value::Array(out));
    cx.note(
        at,
        origin,
        Action::Rewritten,
        moved(&names.join(", "), origin),
    );
}

/// What the report says of constraints (`names`, joined by ", ") moved from
/// beside a union (`origin`: `anyOf`, `oneOf` or `type`) into its branches.
pub(crate) fn moved(names: &str, origin: &str) -> String {
    format!("{names} beside {origin} moved into each branch: the dialect takes no constraints beside anyOf, and every branch must hold them")
}

/// Folds a one-branch `anyOf` whose branch is plain (no reference, union,
/// `allOf`, `const` or type list, which the rules before this one would
/// have had to see) into a node that holds only annotations besides.
/// The node's subschemas then all come from the branch, and report
/// pointers below it name the branch. Returns whether it did.
fn fold(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) -> bool {
    let Some(Value::Array(branches)) = node.map.get(kw!("anyOf")) else {
        return false;
    };
    let Some(Value::Object(branch)) = branches.first() else {
        return false;
    };
    let plain = !branch.keys().any(|k| {
        matches!(
            k.as_str(),
            "$ref" | "anyOf" | "oneOf" | "allOf" | "const" | "nullable" | "$defs" | "definitions"
        )
    }) && !branch.get("type").is_some_and(Value::is_array)
        && !branch
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.contains(&Value::Null));
    if !plain {
        return false;
    }
    let branch = branch.clone();
    node.map.shift_remove(kw!("anyOf"));
    let mut map = std::mem::take(&mut node.map).into_map();
    let description = map.get("description").cloned();
    for (k, v) in branch {
        if k == "description" {
            if let (Some(Value::String(mine)), Value::String(theirs)) = (&description, &v) {
                if mine != theirs {
                    let joined = super::words::append(Some(mine), std::slice::from_ref(theirs));
                    map.insert(k, Value::String(joined));
                }
                continue;
            }
        }
        if let Some((k, existing, v)) = all_of::merge_key(&mut map, k, v) {
            cx.note(
                at,
                &k,
                Action::Dropped,
                format!(
                    "the only anyOf branch and its parent disagree on {k} ({} and {}); kept the parent's",
                    super::words::quote(&existing),
                    super::words::quote(&v)
                ),
            );
        }
    }
    node.map = super::Obj::owned(map);
    node.folded_from = Some(node.any_of_from.take().unwrap_or("anyOf"));
    true
}

/// Whether a branch is an object with no declared properties: free keys,
/// which the dialect sends as JSON text.
pub(super) fn is_free_map(root: &Value, branch: &Value) -> bool {
    let b = match branch.get("$ref").and_then(Value::as_str) {
        Some(r) => match refs::resolve(root, r) {
            Some(t) => t,
            None => return false,
        },
        None => branch,
    };
    let Some(m) = b.as_object() else { return false };
    let object = match m.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
        None => m.contains_key("additionalProperties") || m.contains_key("patternProperties"),
    };
    let declared = m
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| p.values().any(|s| *s != Value::Bool(false)));
    let combined = ["anyOf", "oneOf", "allOf", "enum", "const"]
        .iter()
        .any(|k| m.contains_key(*k));
    object && !declared && !combined
}

/// Whether a branch admits strings.
fn takes_strings(root: &Value, branch: &Value) -> bool {
    match types_of(root, branch) {
        Some(ts) => ts.contains(&"string"),
        None => {
            // untyped: anything, unless its enum holds no string
            match branch.get("enum").and_then(Value::as_array) {
                Some(values) => values.iter().any(Value::is_string),
                None => branch.get("const").is_none_or(Value::is_string),
            }
        }
    }
}

/// Drops the free-key object branches of a union that also takes strings.
fn drop_maps_beside_strings(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(Value::Array(branches)) = node.map.get(kw!("anyOf")) else {
        return;
    };
    let maps: Vec<usize> = (0..branches.len())
        .filter(|&i| branches.get(i).is_some_and(|b| is_free_map(cx.root, b)))
        .collect();
    let strings = branches
        .iter()
        .enumerate()
        .any(|(i, b)| !maps.contains(&i) && takes_strings(cx.root, b));
    if maps.is_empty() || !strings {
        return;
    }
    let origin = node.any_of_from.unwrap_or("anyOf");
    if let Some(Value::Array(branches)) = node.map.get_mut(kw!("anyOf")) {
        let mut i = 0;
        branches.retain(|_| {
            let keep = !maps.contains(&i);
            i += 1;
            keep
        });
    }
    for i in maps {
        cx.note(
            &At::Index(&At::Key(at, origin), i),
            "",
            Action::Narrowed,
            "an object with free keys is sent as JSON text in this dialect, and here that text would be read as the string the other branch takes: objects cannot be sent",
        );
    }
    node.notes.push(untyped::NO_OBJECTS.into());
}

/// After the branches are lowered: where one of them wrote an object as
/// JSON text and another branch of the original union takes any object,
/// the call is read through that other branch, which takes the text as it
/// is (a string where the tool wants the object).
pub(super) fn after_children(
    cx: &mut Cx<'_>,
    node: &mut Node<'_>,
    at: &At<'_>,
    texts_before: usize,
) {
    if !node.any_object_branch || cx.json_texts == texts_before {
        return;
    }
    let origin = node.any_of_from.or(node.folded_from).unwrap_or("anyOf");
    cx.note(
        at,
        origin,
        Action::Narrowed,
        "a branch writes an object as JSON text, and another branch takes any object, through which the call is read with the text as a plain string: such objects arrive as text",
    );
}

/// On the conversion's fast path (`dialect::fast`): a type beside a union of branches of that type is written, and moved into them where every schema needs a type ([`Plain::union_node`](crate::dialect::fast)); any other keyword beside a union is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[
        r#"{"type":"object","properties":{"x":{"type":"object","oneOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"string"}}}]}}}"#,
    ],
    refused: &[
        r#"{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"integer"}],"minimum":1}}}"#,
    ],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{Nulls, Target};
    use super::*;
    use serde_json::json;

    fn typed() -> Target {
        Target {
            require_type: true,
            nulls: Nulls::Nullable,
            ..permissive()
        }
    }

    #[test]
    fn github_projects_write_type_moves_into_the_branches() {
        let schema = json!({"type": "object", "properties": {"f": {
        "description": "the field", "type": "object",
        "anyOf": [
            {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
            {"properties": {"name": {"type": "string"}}, "required": ["name"]}
        ]}}});
        let (out, report) = run(&typed(), schema);
        let f = &out["properties"]["f"];
        assert!(f.get("type").is_none(), "{f}");
        assert_eq!(f["description"], "the field");
        assert_eq!(f["anyOf"][0]["type"], "object");
        assert_eq!(f["anyOf"][1]["type"], "object");
        assert_eq!(f["anyOf"][1]["required"], json!(["name"]));
        assert!(report.contains(&("/properties/f/anyOf".to_string(), Action::Rewritten)));
    }

    #[test]
    fn shared_properties_and_required_reach_every_branch() {
        // "a, and one of b or c"
        let schema = json!({"type": "object", "properties": {"x": {
            "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
            "anyOf": [{"properties": {"b": {"type": "string"}}, "required": ["b"]},
                      {"properties": {"c": {"type": "string"}}, "required": ["c"]}]}}});
        let (out, _) = run(&typed(), schema);
        let x = &out["properties"]["x"];
        assert_eq!(x["anyOf"][0]["required"], json!(["b", "a"]));
        assert_eq!(
            x["anyOf"][1]["properties"],
            json!({"c": {"type": "string"}, "a": {"type": "string"}})
        );
    }

    #[test]
    fn excluded_branches_are_dropped_and_keywords_follow_their_type() {
        let schema = json!({"type": "object", "properties": {"n": {
            "type": "number", "minimum": 0,
            "anyOf": [{"type": "integer"}, {"type": "string"}]}}});
        let (out, report) = run(&typed(), schema);
        // one branch left: folded into the node after its children
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "integer", "minimum": 0})
        );
        assert!(report.contains(&("/properties/n/anyOf/1".to_string(), Action::Dropped)));
    }

    #[test]
    fn a_nullable_map_is_folded_into_its_node() {
        let schema = json!({"type": "object", "properties": {"data": {
            "anyOf": [{"type": "object", "additionalProperties": true}, {"type": "null"}],
            "description": "service data"}}});
        let (out, _) = run(&typed(), schema);
        let d = &out["properties"]["data"];
        assert_eq!(d["type"], "object");
        assert_eq!(d["nullable"], true);
        assert!(d.get("anyOf").is_none());
    }

    #[test]
    fn maps_beside_strings_are_dropped_where_maps_are_json_text() {
        let t = Target {
            maps_as_json_text: true,
            ..typed()
        };
        let schema = json!({"type": "object", "properties": {"hash": {"anyOf": [
            {"type": "string"}, {"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}]}}});
        let (out, report) = run(&t, schema.clone());
        assert_eq!(out["properties"]["hash"]["type"], "string");
        assert!(report.contains(&("/properties/hash/anyOf/1".to_string(), Action::Narrowed)));
        // without JSON text the branch stays
        let (out, _) = run(&typed(), schema);
        assert_eq!(
            out["properties"]["hash"]["anyOf"].as_array().unwrap().len(),
            2
        );
    }

    #[test]
    fn json_schema_dialects_keep_type_beside_any_of() {
        let schema = json!({"type": "object", "properties": {"f": {"type": "object",
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}}});
        let (out, report) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
        assert!(report.is_empty());
    }
}
