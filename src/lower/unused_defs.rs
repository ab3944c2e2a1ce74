//! Rule: definitions nothing refers to, for dialects that keep `$ref`.
//! Generated schemas often carry every definition of an API in every tool
//! (Notion's server: 9 in each of its 24 tools, whether used or not). They
//! constrain nothing, cost tokens, and an unused definition that cannot be
//! strict (an open map) would make the whole tool non-strict. Only the
//! definitions reachable from the rest of the root schema, directly or
//! through other definitions, are lowered and kept.

use serde_json::{Map, Value};

use super::{walk, At, Cx, Kw, Node};
use crate::pointer;
use crate::report::Action;

/// The root's definition keywords.
const DEFS: [Kw; 2] = [kw!("$defs"), kw!("definitions")];

/// Lowers the root's definitions that are used, drops the others.
pub(super) fn lower_used(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>, depth: usize) {
    let mut taken: Vec<(Kw, Map<String, Value>)> = Vec::new();
    for key in DEFS {
        if let Some(Value::Object(defs)) = node.map.take_if(key, Value::is_object).as_deref() {
            taken.push((key, defs.clone()));
        }
    }
    if taken.is_empty() {
        return;
    }
    let mut pending = Vec::new();
    for (_, k, v) in (0..node.map.len()).filter_map(|i| node.map.get_index(i)) {
        if !DEFS.iter().any(|d| d.name() == k) {
            references(v, &mut pending);
        }
    }
    let mut lowered: Vec<(Kw, String, Value)> = Vec::new();
    while let Some((which, name)) = pending.pop() {
        if lowered
            .iter()
            .any(|(w, n, _)| w.name() == which && *n == name)
        {
            continue;
        }
        let Some((key, sub)) = taken
            .iter()
            .find(|(k, _)| k.name() == which)
            .and_then(|(k, defs)| defs.get(&name).map(|s| (*k, s)))
        else {
            continue;
        };
        let here = At::Key(at, key.name());
        let v = walk(cx, sub, &At::Key(&here, &name), depth + 1).unwrap_or(Value::Bool(false));
        references(&v, &mut pending);
        lowered.push((key, name, v));
    }
    for (key, defs) in taken {
        let mut out = Map::new();
        let mut unused = Vec::new();
        for name in defs.keys() {
            match lowered.iter().position(|(k, n, _)| *k == key && n == name) {
                Some(i) => {
                    let (_, _, v) = lowered.swap_remove(i);
                    out.insert(name.clone(), v);
                }
                None => unused.push(name.as_str()),
            }
        }
        if !unused.is_empty() {
            cx.note(
                at,
                key.name(),
                Action::Rewritten,
                format!(
                    "{} definition(s) that nothing refers to left out: {}",
                    unused.len(),
                    unused.join(", ")
                ),
            );
        }
        if out.is_empty() {
            node.map.shift_remove(key);
        } else {
            node.map.insert(key, Value::Object(out));
        }
    }
}

/// Adds the root definitions `value` refers to (`#/$defs/Name...`), as
/// `(keyword, name)`, to `out`.
fn references(value: &Value, out: &mut Vec<(String, String)>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    if let Some(target) = definition(r) {
                        out.push(target);
                    }
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
}

/// The root definition a local reference points into.
fn definition(reference: &str) -> Option<(String, String)> {
    let fragment = reference.strip_prefix('#')?;
    let tokens = pointer::tokens(&pointer::percent_decode(fragment))?;
    let mut t = tokens.into_iter();
    let which = t.next().filter(|k| DEFS.iter().any(|d| d.name() == k))?;
    Some((which, t.next()?))
}

/// On the conversion's fast path (`dialect::fast`): `$defs` is not a plain keyword.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[
        r#"{"type":"object","properties":{"x":{"type":"string"}},"$defs":{"y":{"type":"string"}}}"#,
    ],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{lower, Strict, Target};
    use super::*;
    use serde_json::json;

    #[test]
    fn only_reachable_definitions_are_kept() {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "string"},
            "Unused": {"type": "object", "additionalProperties": true},
            "Cycle": {"type": "array", "items": {"$ref": "#/$defs/Cycle"}}
        }});
        let (out, report) = run(&permissive(), schema);
        assert_eq!(
            out["$defs"].as_object().unwrap().keys().collect::<Vec<_>>(),
            ["A", "B"]
        );
        assert_eq!(report, vec![("/$defs".to_string(), Action::Rewritten)]);
    }

    #[test]
    fn an_unused_open_map_does_not_stop_strict_mode() {
        // notion-mcp: every tool carries every definition
        let t = Target {
            strict: Some(Strict::AllRequired),
            require_type: true,
            ..permissive()
        };
        let schema = json!({"type": "object", "properties": {"q": {"type": "string"}},
            "$defs": {"Props": {"type": "object", "additionalProperties": true}}});
        let l = lower(&t, &schema, "t", "").unwrap();
        assert!(l.not_strict.is_empty(), "{:?}", l.not_strict);
        assert!(l.schema.get("$defs").is_none());
    }

    #[test]
    fn escaped_names_and_deep_pointers_count() {
        let schema = json!({"type": "object", "properties": {
            "x": {"$ref": "#/definitions/a~1b"},
            "y": {"$ref": "#/$defs/C/properties/z"}},
            "definitions": {"a/b": {"type": "integer"}},
            "$defs": {"C": {"type": "object", "properties": {"z": {"type": "string"}}}}});
        let (out, report) = run(&permissive(), schema);
        assert!(out["definitions"]["a/b"].is_object());
        assert!(out["$defs"]["C"].is_object());
        assert!(report.is_empty());
    }
}
