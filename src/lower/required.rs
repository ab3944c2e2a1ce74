//! Rule: `required`. Names that are not strings and duplicates are removed
//! (the dialects reject or misread them). A required name missing from
//! `properties` is declared there, with the schema other keys take
//! (`additionalProperties`, or any value): dialects reject such a name, and
//! a strict mode would close the object without it, so that no call could
//! ever be valid. Only where the object takes no other keys at all is the
//! name removed (no value can satisfy it).

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
    let mut duplicates = false;
    for n in names {
        match n.as_str() {
            None => bad += 1,
            Some(s) if !seen.insert(s) => duplicates = true,
            Some(s) if props.is_some_and(|p| p.contains_key(s)) => kept.push(s),
            Some(s) => missing.push(s),
        }
    }
    let missing: Vec<String> = missing.into_iter().map(str::to_owned).collect();
    let mut kept: Vec<String> = kept.into_iter().map(str::to_owned).collect();
    let changed = kept.len() != names.len();
    let empty = names.is_empty();
    // a bare `{required: [...]}` (a branch of a union naming properties
    // declared beside it) is plain JSON Schema where types are optional
    let bare =
        node.ty().is_none() && !node.map.contains_key(kw!("properties")) && !cx.target.require_type;
    if bare && bad == 0 && !empty && !duplicates {
        return;
    }
    if bare {
        kept.extend(missing.iter().cloned());
    } else if !missing.is_empty() {
        let closed = node.map.get(kw!("additionalProperties")) == Some(&Value::Bool(false))
            && !node.map.contains_key(kw!("patternProperties"));
        if closed {
            cx.note(
                at,
                "required",
                Action::Dropped,
                format!(
                    "required names {} are not declared in properties and the object takes no other keys: no value is valid; dropped from required",
                    missing.join(", ")
                ),
            );
        } else {
            // what a key outside `properties` takes
            let other = match node.map.get(kw!("additionalProperties")) {
                Some(s @ Value::Object(_)) if !node.map.contains_key(kw!("patternProperties")) => {
                    s.clone()
                }
                _ => Value::Object(serde_json::Map::new()),
            };
            if let Some(Value::Object(p)) = node
                .map
                .or_insert(kw!("properties"), Value::Object(serde_json::Map::new()))
            {
                for name in &missing {
                    p.insert(name.clone(), other.clone());
                }
            }
            cx.note(
                at,
                "required",
                Action::Added,
                format!(
                    "required names {} are not declared in properties; declared there (taking what other keys take) so that they can be sent",
                    missing.join(", ")
                ),
            );
            kept.extend(missing);
        }
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
            let kept = kept.into_iter().map(Value::String).collect();
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

/// On the conversion's fast path (`dialect::fast`): a `required` list of declared names, each once, is written as it is; any other is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[
        r#"{"type":"object","properties":{"x":{"type":"string"}},"required":["x","y"]}"#,
        r#"{"type":"object","properties":{"x":{"type":"string"}},"required":["x","x"]}"#,
    ],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::*;
    use serde_json::json;

    #[test]
    fn missing_names_are_declared_and_reported() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b", "a", 3]});
        let (out, report) = run(&permissive(), schema);
        assert_eq!(out["required"], json!(["a", "b"]));
        assert_eq!(out["properties"]["b"], json!({}));
        assert_eq!(
            report,
            vec![
                ("/required".to_string(), Action::Added),
                ("/required".to_string(), Action::Dropped)
            ]
        );
        // they take what other keys take
        let schema = json!({"type": "object", "additionalProperties": {"type": "integer"}, "required": ["n"]});
        let (out, _) = run(&permissive(), schema);
        assert_eq!(out["properties"]["n"], json!({"type": "integer"}));
    }

    #[test]
    fn strict_mode_can_send_them() {
        let t = super::super::Target {
            strict: Some(super::super::Strict::ClosedObjects),
            require_type: true,
            ..permissive()
        };
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]});
        let (out, _) = run(&t, schema);
        assert_eq!(out["additionalProperties"], false);
        assert!(out["properties"]["b"]["anyOf"].is_array());
        assert_eq!(out["required"], json!(["a", "b"]));
    }

    #[test]
    fn a_closed_object_cannot_declare_them() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"], "additionalProperties": false});
        let (out, report) = run(&permissive(), schema);
        assert_eq!(out["required"], json!(["a"]));
        assert_eq!(report, vec![("/required".to_string(), Action::Dropped)]);
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
