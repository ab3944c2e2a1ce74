//! Rule: `anyOf` branches that accept anything (`{}` or `true`, as in Home
//! Assistant's `GetLiveContext.domain: anyOf [{}, {type: array}]`). Such a
//! branch makes the whole union accept anything, and APIs that want a type
//! on every branch reject it. Dialects that require types put the typed
//! form of "any value" in its place (a string, a number, a boolean, null,
//! a list of those), so a plain string is still accepted where the other
//! branches want an array; objects cannot be offered, which the report and
//! the description say. After the children are lowered, a union left with
//! a single branch is folded into its parent.

use std::borrow::Cow;

use serde_json::Value;

use super::{untyped, At, Cx, Node};
use crate::report::Action;

/// Keys that say nothing about which values are valid.
fn is_annotation(key: &str) -> bool {
    matches!(
        key,
        "description" | "title" | "$comment" | "examples" | "default" | "deprecated"
    )
}

/// Whether a branch accepts every value.
pub(super) fn accepts_anything(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(m) => m.keys().all(|k| is_annotation(k)),
        _ => false,
    }
}

pub(super) fn drop_any(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if !cx.target.require_type && cx.target.strict.is_none() {
        return;
    }
    // look before changing: a borrowed list is copied on change
    let Some(Value::Array(branches)) = node.map.get(kw!("anyOf")) else {
        return;
    };
    if !branches.is_empty() && !branches.iter().any(accepts_anything) {
        return;
    }
    let Some(Value::Array(branches)) = node.map.get_mut(kw!("anyOf")) else {
        return;
    };
    let mut dropped = Vec::new();
    let mut i = 0;
    branches.retain(|b| {
        let any = accepts_anything(b);
        if any {
            dropped.push(i);
        }
        i += 1;
        !any
    });
    if branches.is_empty() {
        node.map.shift_remove(kw!("anyOf"));
        cx.note(
            at,
            "anyOf",
            Action::Rewritten,
            "every branch of anyOf accepts any value; read as an untyped value",
        );
        return;
    }
    let has_array = branches
        .iter()
        .any(|b| b.get("type").and_then(Value::as_str) == Some("array"));
    for b in untyped::any_value_branches(!has_array) {
        if !branches.contains(&b) {
            branches.push(b);
        }
    }
    node.nullable = true;
    node.any_object_branch = true;
    node.notes.push(untyped::NO_OBJECTS.into());
    for i in dropped {
        cx.note(
            &At::Index(&At::Key(at, "anyOf"), i),
            "",
            Action::Narrowed,
            "this anyOf branch accepts any value and has no type, which the dialect rejects: a string, a number, a boolean, null or a list of those are offered in its place; objects cannot be sent",
        );
    }
}

/// Folds a one-branch `anyOf` into the node (after the children are lowered).
pub(super) fn collapse(_cx: &mut Cx<'_>, node: &mut Node<'_>, _at: &At<'_>) {
    let single = matches!(node.map.get(kw!("anyOf")), Some(Value::Array(b)) if b.len() == 1);
    if !single {
        return;
    }
    let Some(Value::Array(mut branches)) = node.map.shift_remove(kw!("anyOf")).map(Cow::into_owned)
    else {
        return;
    };
    let Some(Value::Object(branch)) = branches.pop() else {
        return;
    };
    for (k, v) in branch {
        if k == "description" {
            // both say something: the branch's words (a JSON-text shape,
            // a note) follow the node's
            if let (Some(Value::String(mine)), Value::String(theirs)) =
                (node.map.get(kw!("description")), &v)
            {
                if mine != theirs {
                    let joined = super::words::append(Some(mine), std::slice::from_ref(theirs));
                    node.map.insert(kw!("description"), Value::String(joined));
                }
                continue;
            }
        }
        if k == "nullable" && v == Value::Bool(true) {
            node.nullable = true;
            continue;
        }
        if k == "type" {
            if let Value::Array(ts) = &v {
                // a rendered nullable branch: take the nullability back
                if ts.iter().any(|t| t == "null") {
                    node.nullable = true;
                    let rest: Vec<Value> = ts.iter().filter(|t| *t != "null").cloned().collect();
                    let v = match rest.len() {
                        1 => rest.into_iter().next().unwrap_or(Value::Null),
                        _ => Value::Array(rest),
                    };
                    node.map.put(Cow::Owned(k), Cow::Owned(v), true);
                    continue;
                }
            }
        }
        node.map.put(Cow::Owned(k), Cow::Owned(v), false);
    }
}

/// On the conversion's fast path (`dialect::fast`): a union branch must be a typed plain schema: `{}` and `true` are refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[r#"{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{}]}}}"#],
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
            keywords: &[
                "type",
                "nullable",
                "anyOf",
                "items",
                "description",
                "properties",
            ],
            ..permissive()
        }
    }

    #[test]
    fn home_assistant_live_context_domain() {
        // a single domain ("light") is as valid as a list of them
        let schema = json!({"type": "object", "properties": {"domain": {"anyOf": [{}, {"items": {"type": "string"}, "type": "array"}], "description": "Filter entities by domain ..."}}});
        let (out, report) = run(&typed(), schema);
        assert_eq!(
            out["properties"]["domain"],
            json!({"description": "Filter entities by domain ... Objects cannot be sent here.", "anyOf": [
                {"items": {"type": "string"}, "type": "array"},
                {"type": "string"}, {"type": "number"}, {"type": "boolean"}], "nullable": true})
        );
        assert_eq!(
            report,
            vec![("/properties/domain/anyOf/0".to_string(), Action::Narrowed)]
        );
    }

    #[test]
    fn all_empty_branches_leave_an_untyped_value() {
        let schema = json!({"type": "object", "properties": {"v": {"anyOf": [{}, true]}}});
        let (out, report) = run(&typed(), schema);
        // untyped values are offered as scalars where a type is required
        assert!(out["properties"]["v"]["anyOf"].is_array());
        assert!(report
            .iter()
            .any(|(p, a)| p == "/properties/v/anyOf" && *a == Action::Rewritten));
    }

    #[test]
    fn permissive_dialects_keep_the_branch() {
        let schema =
            json!({"type": "object", "properties": {"d": {"anyOf": [{}, {"type": "array"}]}}});
        let (out, _) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
    }
}
