//! Rule: `oneOf` → `anyOf` for dialects without `oneOf`. The branches are
//! all kept; only "exactly one" becomes "at least one", which for the usual
//! tagged unions (a `const` discriminator per branch) changes nothing.

use super::{At, Cx, Node};
use crate::report::Action;

/// What the report says of `oneOf` written as `anyOf` (here and on the
/// fast path, `dialect::fast`, which writes Gemini's `anyOf` after the
/// node's own keywords, as this rule's comes out).
pub(crate) const AS_ANY_OF: &str =
    "oneOf written as anyOf (the dialect has no oneOf; every branch is kept)";

pub(super) fn rewrite(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if cx.allows(kw!("oneOf")) || !node.map.contains_key(kw!("oneOf")) {
        return;
    }
    let Some(one_of) = node.map.shift_remove(kw!("oneOf")) else {
        return;
    };
    if !one_of.is_array() {
        cx.note(at, "oneOf", Action::Dropped, "oneOf is not an array");
        return;
    }
    if node.map.contains_key(kw!("anyOf")) {
        // both present: the value must match both lists; fold oneOf into allOf
        // so the allOf rule (or the dialect) deals with it
        let any_of = node
            .map
            .shift_remove(kw!("anyOf"))
            .map(|v| v.into_owned())
            .unwrap_or_default();
        let mut a = serde_json::Map::new();
        a.insert("anyOf".into(), any_of);
        let mut b = serde_json::Map::new();
        b.insert("anyOf".into(), one_of.into_owned());
        cx.note(
            at,
            "oneOf",
            Action::Rewritten,
            "oneOf next to anyOf: both kept as anyOf lists inside allOf",
        );
        node.map.insert(
            kw!("allOf"),
            serde_json::Value::Array(vec![
                serde_json::Value::Object(a),
                serde_json::Value::Object(b),
            ]),
        );
        super::all_of::merge(cx, node, at);
        return;
    }
    node.map.insert_cow(kw!("anyOf"), one_of);
    node.any_of_from = Some("oneOf");
    cx.note(at, "oneOf", Action::Rewritten, AS_ANY_OF);
}

/// On the conversion's fast path (`dialect::fast`): `oneOf` of plain branches is written, as `anyOf` after the node's own keywords where the dialect has no `oneOf`, reported with [`AS_ANY_OF`].
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[
        r#"{"type":"object","properties":{"x":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}"#,
    ],
    refused: &[],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{keywords, Target};
    use super::*;
    use serde_json::json;

    fn target() -> Target {
        Target {
            keywords: keywords::PORTABLE,
            ..permissive()
        }
    }

    #[test]
    fn becomes_any_of_with_all_branches() {
        let schema = json!({"type": "object", "properties": {"shape": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}}},
            {"type": "object", "properties": {"kind": {"const": "square"}}}
        ]}}});
        let (out, report) = run(&target(), schema);
        let any_of = out["properties"]["shape"]["anyOf"].as_array().unwrap();
        assert_eq!(any_of.len(), 2);
        assert_eq!(
            report,
            vec![("/properties/shape/oneOf".to_string(), Action::Rewritten)]
        );
    }

    #[test]
    fn next_to_any_of_both_constraints_survive() {
        let schema = json!({"type": "object", "properties": {"x": {
            "anyOf": [{"type": "string"}, {"type": "integer"}],
            "oneOf": [{"type": "string"}, {"type": "boolean"}]
        }}});
        let (out, report) = run(&target(), schema);
        // allOf of two anyOf lists cannot be merged without loss: the first is kept,
        // the disagreement reported
        assert!(out["properties"]["x"].get("anyOf").is_some());
        assert!(report
            .iter()
            .any(|(p, a)| p == "/properties/x/oneOf" && *a == Action::Rewritten));
        assert!(report
            .iter()
            .any(|(p, a)| p == "/properties/x/anyOf" && *a == Action::Dropped));
    }

    #[test]
    fn kept_where_allowed() {
        let schema = json!({"type": "object", "properties": {"x": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}});
        let (out, _) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
    }
}
