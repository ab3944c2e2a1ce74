//! Rule: arrays without `items` (OpenAI rejects them, Gemini needs an item
//! type), and tuples (`prefixItems`) for dialects without tuples.

use serde_json::{Map, Value};

use super::{At, Cx, Node};
use crate::report::Action;

fn is_array(node: &Node<'_>) -> bool {
    match node.map.get(kw!("type")) {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "array"),
        _ => false,
    }
}

pub(super) fn ensure(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if !is_array(node) {
        return;
    }
    if node.map.get(kw!("items")).is_some_and(Value::is_array) {
        // draft-04 tuple form: read it as prefixItems
        if let Some(items) = node.map.shift_remove(kw!("items")) {
            node.map.insert_cow(kw!("prefixItems"), items);
            if let Some(extra) = node.map.shift_remove(kw!("additionalItems")) {
                node.map.insert_cow(kw!("items"), extra);
            }
        }
    }
    if node.map.contains_key(kw!("prefixItems")) && !cx.allows(kw!("prefixItems")) {
        tuple_to_items(cx, node, at);
    }
    if cx.target.require_items && !node.map.get(kw!("items")).is_some_and(Value::is_object) {
        let had = node.map.shift_remove(kw!("items"));
        node.map.insert(kw!("items"), Value::Object(Map::new()));
        let detail = match had.as_deref() {
            Some(Value::Bool(false)) => {
                "items: false (an empty array) is not expressible; items may be any value"
            }
            _ => {
                "the array does not say what its items are; an items schema for any value was added"
            }
        };
        cx.note(at, "items", Action::Added, detail);
    }
}

fn tuple_to_items(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(Value::Array(positions)) = node
        .map
        .shift_remove(kw!("prefixItems"))
        .map(|v| v.into_owned())
    else {
        return;
    };
    let mut distinct: Vec<Value> = Vec::new();
    for p in &positions {
        if !distinct.contains(p) {
            distinct.push(p.clone());
        }
    }
    let words: Vec<String> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| format!("item {} is {}", i + 1, super::words::summary(p)))
        .collect();
    node.notes.push(format!("In order: {}.", words.join("; ")));
    let closed = matches!(node.map.get(kw!("items")), Some(Value::Bool(false)));
    let merged = match distinct.len() {
        0 => Value::Object(Map::new()),
        1 => distinct.pop().unwrap_or(Value::Null),
        _ => {
            let mut m = Map::new();
            m.insert("anyOf".into(), Value::Array(distinct));
            Value::Object(m)
        }
    };
    if closed {
        node.map.insert(kw!("items"), merged);
        node.map
            .or_insert(kw!("maxItems"), Value::from(positions.len()));
    } else if !node.map.contains_key(kw!("items")) {
        // items after the tuple may be anything: the positions' schemas
        // would refuse some; the positions are said in words
        node.map.insert(kw!("items"), Value::Object(Map::new()));
    }
    cx.note(
        at,
        "prefixItems",
        Action::Described,
        "tuple positions written as one items schema; the order is said in the description",
    );
}

/// On the conversion's fast path (`dialect::fast`): an array without `items` is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[r#"{"type":"object","properties":{"x":{"type":"array"}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{keywords, Target};
    use super::*;
    use serde_json::json;

    fn strictish() -> Target {
        Target {
            require_items: true,
            keywords: keywords::PORTABLE,
            ..permissive()
        }
    }

    #[test]
    fn adds_items() {
        let schema = json!({"type": "object", "properties": {"cols": {"type": "array"}}});
        let (out, report) = run(&strictish(), schema);
        assert_eq!(
            out["properties"]["cols"],
            json!({"type": "array", "items": {}})
        );
        assert_eq!(
            report,
            vec![("/properties/cols/items".to_string(), Action::Added)]
        );
    }

    #[test]
    fn tuples_become_items_and_words() {
        let schema = json!({"type": "object", "properties": {"pt": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false}}});
        let (out, _) = run(&strictish(), schema);
        assert_eq!(out["properties"]["pt"]["items"], json!({"type": "number"}));
        assert_eq!(out["properties"]["pt"]["maxItems"], json!(2));
        assert!(out["properties"]["pt"]["description"]
            .as_str()
            .unwrap()
            .contains("item 2 is a number"));
    }

    #[test]
    fn an_open_tuple_takes_any_further_item() {
        let schema = json!({"type": "object", "properties": {"pt": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]}}});
        let (out, _) = run(&strictish(), schema);
        assert_eq!(out["properties"]["pt"]["items"], json!({}));
        assert!(out["properties"]["pt"].get("maxItems").is_none());
    }

    #[test]
    fn permissive_keeps_bare_arrays() {
        let schema = json!({"type": "object", "properties": {"cols": {"type": "array"}}});
        let (out, _) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
    }
}
