//! Rule: `required`. Names that are not strings, duplicates, and names
//! missing from `properties` are removed (the dialects reject or
//! misread them).

use serde_json::Value;

use super::{At, Cx, Node, Obj};
use crate::report::Action;

pub(super) fn clean(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(req) = node.map.get(kw!("required")) else {
        return;
    };
    let Value::Array(names) = req else {
        node.map.shift_remove(kw!("required"));
        cx.note(
            at,
            "required",
            Action::Dropped,
            "required is not an array of names",
        );
        return;
    };
    let props = node.map.get(kw!("properties")).and_then(Value::as_object);
    let mut kept: Vec<&str> = Vec::with_capacity(names.len());
    // duplicates are found by hashing: a list of many names stays linear
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    let mut missing = Vec::new();
    let mut bad = 0;
    for n in names {
        match n.as_str() {
            None => bad += 1,
            Some(s) if !seen.insert(s) => {}
            Some(s) if props.is_some_and(|p| p.contains_key(s)) => kept.push(s),
            Some(s) => missing.push(s),
        }
    }
    let changed = kept.len() != names.len();
    let empty = names.is_empty();
    if !missing.is_empty() {
        cx.note(
            at,
            "required",
            Action::Dropped,
            format!(
                "required names {} are not declared in properties; dropped from required",
                missing.join(", ")
            ),
        );
    }
    if bad > 0 {
        cx.note(
            at,
            "required",
            Action::Dropped,
            format!("{bad} entries of required are not strings"),
        );
    }
    if changed {
        if kept.is_empty() {
            node.map.shift_remove(kw!("required"));
        } else {
            let kept = kept
                .into_iter()
                .map(|s| Value::String(s.to_string()))
                .collect();
            node.map.insert(kw!("required"), Value::Array(kept));
        }
    } else if empty {
        node.map.shift_remove(kw!("required"));
    }
}

/// Removes one name from `required`.
pub(super) fn forget(map: &mut Obj<'_>, name: &str) {
    if let Some(Value::Array(names)) = map.get_mut(kw!("required")) {
        names.retain(|n| n != name);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::*;
    use serde_json::json;

    #[test]
    fn missing_names_are_dropped_and_reported() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b", "a", 3]});
        let (out, report) = run(&permissive(), schema);
        assert_eq!(out["required"], json!(["a"]));
        assert_eq!(report.len(), 2);
        assert!(report
            .iter()
            .all(|(p, a)| p == "/required" && *a == Action::Dropped));
    }

    #[test]
    fn empty_required_is_removed_quietly() {
        let (out, report) = run(
            &permissive(),
            json!({"type": "object", "properties": {"meta": {"type": "object"}}, "required": []}),
        );
        assert!(out.get("required").is_none());
        assert!(report.is_empty());
    }
}
