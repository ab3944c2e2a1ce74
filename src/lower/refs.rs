//! Rule: `$ref` / `$defs`. Local references are inlined (always for
//! dialects without `$ref`, only when the reference has sibling keywords for
//! dialects that keep `$ref`). Recursion is unrolled to a bounded depth and
//! then cut; references to nowhere are dropped.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{At, Cx, Node, Refs};
use crate::pointer;
use crate::report::Action;

/// Longest chain of references followed at one node (`a` → `b` → `c` ...).
const MAX_CHAIN: usize = 32;

/// Expands the node's `$ref`, if any. Returns how many references were
/// pushed onto the recursion stack (the walk pops them after the children).
pub(super) fn expand<'a: 'b, 'b>(cx: &mut Cx<'a>, node: &mut Node<'b>, at: &At<'_>) -> usize {
    let mut pushed = 0;
    for _ in 0..MAX_CHAIN {
        let Some(reference) = node.map.get(kw!("$ref")) else {
            break;
        };
        let Some(reference) = reference.as_str().map(str::to_owned) else {
            node.map.shift_remove(kw!("$ref"));
            cx.note(at, "$ref", Action::Dropped, "$ref is not a string");
            break;
        };
        let root: &'a Value = cx.root;
        let target = resolve(root, &reference);
        let Some(target) = target else {
            node.map.shift_remove(kw!("$ref"));
            cx.note(
                at,
                "$ref",
                Action::Dropped,
                format!("{reference:?} points to nothing in this schema; read as \"any value\""),
            );
            break;
        };
        if cx.target.refs == Refs::Keep && node.map.len() == 1 {
            // a bare reference stays; its definition is lowered where it lives
            break;
        }
        node.map.shift_remove(kw!("$ref"));
        let limit = match cx.target.refs {
            Refs::Inline { depth } => depth,
            Refs::Keep => 1,
        };
        let seen = cx.ref_stack.iter().filter(|r| **r == reference).count();
        if seen >= limit {
            cut(node, target);
            if cx.target.maps_as_json_text && node.ty() == Some("object") {
                // an object without properties: the deeper levels go as JSON text
                node.cut = true;
                cx.note(
                    at,
                    "$ref",
                    Action::Rewritten,
                    format!("recursive {reference:?} unrolled {limit} level(s) deep; deeper levels are sent as JSON text"),
                );
            } else {
                node.notes
                    .push("Nested further levels are left out.".into());
                cx.note(
                    at,
                    "$ref",
                    Action::Narrowed,
                    format!("recursive {reference:?} unrolled {limit} level(s) deep; deeper levels are left out"),
                );
            }
            break;
        }
        let why = match cx.target.refs {
            Refs::Inline { .. } => "this dialect has no $ref",
            Refs::Keep => "it has sibling keywords, which some APIs ignore next to $ref",
        };
        cx.note(
            at,
            "$ref",
            Action::Rewritten,
            format!("{reference:?} inlined: {why}"),
        );
        cx.ref_stack.push(reference);
        pushed += 1;
        if let Value::Object(t) = target {
            for (k, v) in t {
                if matches!(k.as_str(), "$defs" | "definitions" | "$schema" | "$id") {
                    continue;
                }
                // the siblings' properties and required names add to the
                // definition's (both hold); other siblings win
                if k == "properties" {
                    if let (Some(Value::Object(mine)), Value::Object(theirs)) =
                        (node.map.get_mut(kw!("properties")), v)
                    {
                        for (name, sub) in theirs {
                            mine.entry(name.clone()).or_insert_with(|| sub.clone());
                        }
                        continue;
                    }
                }
                if k == "required" {
                    if let (Some(Value::Array(mine)), Value::Array(theirs)) =
                        (node.map.get_mut(kw!("required")), v)
                    {
                        for name in theirs {
                            if !mine.contains(name) {
                                mine.push(name.clone());
                            }
                        }
                        continue;
                    }
                }
                node.map.put(Cow::Borrowed(k), Cow::Borrowed(v), false);
            }
        } else if target == &Value::Bool(false) {
            node.map.insert(kw!("not"), Value::Object(Map::new()));
        }
    }
    if matches!(cx.target.refs, Refs::Inline { .. }) {
        for key in [kw!("$defs"), kw!("definitions")] {
            if node.map.shift_remove(key).is_some() {
                cx.note(
                    at,
                    key.name(),
                    Action::Rewritten,
                    "definitions inlined where they are referenced",
                );
            }
        }
    }
    pushed
}

/// Resolves a local reference (`#`, `#/$defs/X`, `#/definitions/X`, any
/// `#/json/pointer`) against the schema root.
pub(crate) fn resolve<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = pointer::percent_decode(fragment);
    let mut cur = root;
    for token in pointer::tokens(&decoded)? {
        cur = match cur {
            Value::Object(m) => m.get(&token)?,
            Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Where recursion stops: keep the target's type and description, drop its
/// structure.
fn cut<'a>(node: &mut Node<'a>, target: &'a Value) {
    for key in ["type", "description", "title"] {
        if let Some(v) = target.get(key) {
            node.map.put(Cow::Borrowed(key), Cow::Borrowed(v), false);
        }
    }
}

/// On the conversion's fast path (`dialect::fast`): `$ref` and `$defs` are not plain keywords.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[
        r##"{"type":"object","properties":{"x":{"$ref":"#/$defs/y"}},"$defs":{"y":{"type":"string"}}}"##,
    ],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{Refs, Target};
    use super::*;
    use serde_json::json;

    fn inline() -> Target {
        Target {
            refs: Refs::Inline { depth: 2 },
            ..permissive()
        }
    }

    #[test]
    fn resolves_local_pointers() {
        let root = json!({"$defs": {"a b": {"type": "string"}}, "items": [1, {"x": 2}]});
        assert_eq!(
            resolve(&root, "#/$defs/a%20b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(resolve(&root, "#/items/1/x"), Some(&json!(2)));
        assert_eq!(resolve(&root, "#"), Some(&root));
        assert_eq!(resolve(&root, "#/nope"), None);
        assert_eq!(resolve(&root, "other.json#/a"), None);
    }

    #[test]
    fn inlines_with_sibling_description_winning() {
        let schema = json!({"type": "object", "properties": {"addr": {"$ref": "#/$defs/Addr", "description": "home"}},
            "$defs": {"Addr": {"type": "object", "description": "an address", "properties": {"city": {"type": "string"}}}}});
        let (out, report) = run(&inline(), schema);
        assert_eq!(
            out,
            json!({"type": "object", "properties": {"addr": {"description": "home", "type": "object", "properties": {"city": {"type": "string"}}}}})
        );
        assert!(report.contains(&("/properties/addr/$ref".to_string(), Action::Rewritten)));
        assert!(report.contains(&("/$defs".to_string(), Action::Rewritten)));
    }

    #[test]
    fn sibling_properties_add_to_the_definitions() {
        let schema = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/Base",
            "properties": {"extra": {"type": "integer"}}, "required": ["extra"]}},
            "$defs": {"Base": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}});
        let (out, _) = run(&inline(), schema);
        let x = &out["properties"]["x"];
        assert_eq!(
            x["properties"],
            json!({"extra": {"type": "integer"}, "id": {"type": "string"}})
        );
        assert_eq!(x["required"], json!(["extra", "id"]));
    }

    #[test]
    fn keep_mode_leaves_bare_refs() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}});
        let (out, report) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
        assert!(report.is_empty());
    }

    #[test]
    fn recursion_is_bounded() {
        let schema = json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {"v": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}});
        let (out, report) = run(&inline(), schema);
        let level2 = &out["properties"]["tree"]["properties"]["kids"]["items"];
        assert_eq!(level2["type"], "object");
        let cut = &level2["properties"]["kids"]["items"];
        assert_eq!(cut["type"], "object");
        assert!(cut.get("properties").is_none());
        assert!(report
            .iter()
            .any(|(p, a)| p.ends_with("/kids/items/$ref") && *a == Action::Narrowed));
    }

    #[test]
    fn self_reference_to_root_terminates() {
        let schema = json!({"type": "object", "properties": {"child": {"$ref": "#"}}});
        let (out, _) = run(&inline(), schema);
        assert_eq!(
            out["properties"]["child"]["properties"]["child"]["type"],
            "object"
        );
    }

    #[test]
    fn dangling_and_non_string_refs_are_dropped() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}, "b": {"$ref": 5}}});
        let (out, report) = run(&inline(), schema);
        assert_eq!(out["properties"]["a"], json!({}));
        assert!(report.contains(&("/properties/a/$ref".to_string(), Action::Dropped)));
        assert!(report.contains(&("/properties/b/$ref".to_string(), Action::Dropped)));
    }

    #[test]
    fn ref_fan_out_hits_the_node_limit() {
        // each definition refers to the next twice: 2^30 nodes if expanded
        let mut defs = serde_json::Map::new();
        for i in 0..30 {
            defs.insert(format!("d{i}"), json!({"type": "object", "properties": {"l": {"$ref": format!("#/$defs/d{}", i + 1)}, "r": {"$ref": format!("#/$defs/d{}", i + 1)}}}));
        }
        defs.insert("d30".into(), json!({"type": "string"}));
        let schema =
            json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs});
        let err = super::super::lower(&inline(), &schema, "t", "").unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::Limit);
    }
}
