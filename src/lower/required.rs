//! Rule: `required`. Names that are not strings, duplicates, and names
//! missing from `properties` are removed (the dialects reject or
//! misread them).

use serde_json::{Map, Value};

use super::{Cx, Node};
use crate::report::Action;

pub(super) fn clean(cx: &mut Cx<'_>, node: &mut Node, at: &str) {
    let Some(req) = node.map.get("required") else {
        return;
    };
    let Value::Array(names) = req else {
        node.map.shift_remove("required");
        cx.note(
            at,
            "required",
            Action::Dropped,
            "required is not an array of names",
        );
        return;
    };
    let props = node.map.get("properties").and_then(Value::as_object);
    let mut kept: Vec<Value> = Vec::with_capacity(names.len());
    let mut missing = Vec::new();
    let mut bad = 0;
    for n in names {
        match n.as_str() {
            None => bad += 1,
            Some(s) if kept.iter().any(|k| k == s) => {}
            Some(s) if props.is_some_and(|p| p.contains_key(s)) => kept.push(n.clone()),
            Some(s) => missing.push(s.to_string()),
        }
    }
    let changed = kept.len() != names.len();
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
            node.map.shift_remove("required");
        } else {
            node.map.insert("required".into(), Value::Array(kept));
        }
    } else if names.is_empty() {
        node.map.shift_remove("required");
    }
}

/// Removes one name from `required`.
pub(super) fn forget(map: &mut Map<String, Value>, name: &str) {
    if let Some(Value::Array(names)) = map.get_mut("required") {
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
