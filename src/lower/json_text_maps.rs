//! Rule: objects with free keys, for dialects whose objects must declare
//! their properties (Gemini's `parameters` answers "properties: should be
//! non-empty for OBJECT type" and refuses the whole request). Such an
//! object (`{type: object}`, `additionalProperties: true` or a schema, the
//! deeper levels of a recursive schema) is sent as a string holding JSON
//! text, its shape said in the description. When the call is read,
//! validation against the tool's own schema parses the text back into the
//! object (the JSON-text coercion), so every map the tool accepts can still
//! be sent. The root stays an object: a tool whose arguments are free keys
//! is offered with no parameters, and the report says so.

use serde_json::{Map, Value};

use super::{words, At, Cx, Node};
use crate::report::Action;

/// Whether `m` declares a property that may be sent.
fn declares(m: Option<&Value>) -> bool {
    m.and_then(Value::as_object)
        .is_some_and(|p| p.values().any(|s| *s != Value::Bool(false)))
}

pub(super) fn apply(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if !cx.target.maps_as_json_text || node.ty() != Some("object") {
        return;
    }
    if declares(node.map.get(kw!("properties"))) {
        return;
    }
    if at.is_root() {
        if takes_free_keys(cx.root) {
            cx.note(
                at,
                "",
                Action::Narrowed,
                "the tool's arguments are free keys, which this dialect cannot declare (an object needs named properties): it is offered with no parameters",
            );
        }
        return;
    }
    let sentence = if node.cut {
        "Send this object as JSON text, in the shape of the level above.".to_string()
    } else {
        shape(node)
    };
    for &k in super::object_props::OBJECT_KEYWORDS {
        node.map.shift_remove(k);
    }
    for key in [kw!("default"), kw!("example")] {
        if let Some(v) = node.map.get_mut(key) {
            if v.is_object() {
                *v = Value::String(v.to_string());
            }
        }
    }
    if let Some(Value::Array(examples)) = node.map.get_mut(kw!("examples")) {
        for v in examples.iter_mut().filter(|v| v.is_object()) {
            *v = Value::String(v.to_string());
        }
    }
    node.map.insert(kw!("type"), Value::String("string".into()));
    node.notes.push(sentence);
    cx.json_texts += 1;
    if node.type_inferred {
        // the tool takes a string here too: the text stays text
        cx.note(
            at,
            "type",
            Action::Narrowed,
            "an object with free keys (no declared properties) is sent as JSON text, as this dialect refuses an object without properties; the tool's schema has no type here and takes the text as a string, so objects arrive as text",
        );
        return;
    }
    cx.note(at, "type", Action::Rewritten, AS_TEXT);
}

/// What the report says of an object with free keys sent as JSON text.
pub(crate) const AS_TEXT: &str = "an object with free keys (no declared properties) is sent as JSON text, as this dialect refuses an object without properties; the text is parsed back into the object when the call is read";

/// What the description says of such an object when nothing tells its
/// values' type (no `additionalProperties` schema, pattern or example).
pub(crate) const AS_TEXT_SENTENCE: &str =
    "Send this object as JSON text, like {\"key\": \"value\"}.";

/// Whether an input schema's root says the arguments may (or must) hold
/// keys it does not name: other keys (`additionalProperties` true or a
/// schema, `patternProperties`, `unevaluatedProperties`), a least number
/// of them, or whole argument objects (`enum`, `const`). A bare `{type:
/// object}` is a tool without parameters.
pub(crate) fn takes_free_keys(root: &Value) -> bool {
    let Some(m) = root.as_object() else {
        return false;
    };
    let open = |k: &str| matches!(m.get(k), Some(Value::Bool(true) | Value::Object(_)));
    open("additionalProperties")
        || open("unevaluatedProperties")
        || m.get("minProperties")
            .and_then(Value::as_u64)
            .is_some_and(|n| n > 0)
        || ["patternProperties", "enum", "const", "propertyNames"]
            .iter()
            .any(|k| m.contains_key(*k))
}

/// The description's sentence: JSON text, an example, and the shape.
fn shape(node: &Node<'_>) -> String {
    let additional = node.map.get(kw!("additionalProperties"));
    let example = node
        .map
        .get(kw!("examples"))
        .and_then(Value::as_array)
        .and_then(|e| {
            e.iter()
                .find(|v| v.as_object().is_some_and(|m| !m.is_empty()))
        })
        .or_else(|| {
            node.map
                .get(kw!("default"))
                .filter(|v| v.as_object().is_some_and(|m| !m.is_empty()))
        })
        .map(words::quote)
        .unwrap_or_else(|| {
            let value = match additional
                .and_then(|a| a.get("type"))
                .and_then(Value::as_str)
            {
                Some("integer" | "number") => "1",
                Some("boolean") => "true",
                Some("string") => "\"text\"",
                _ => "\"value\"",
            };
            format!("{{\"key\": {value}}}")
        });
    let mut out = vec![format!("Send this object as JSON text, like {example}.")];
    let patterns = node
        .map
        .get(kw!("patternProperties"))
        .and_then(Value::as_object);
    match additional {
        Some(Value::Bool(false)) if patterns.is_none_or(Map::is_empty) => {
            out.push("It must be empty: {}.".into())
        }
        Some(Value::Bool(false)) => {}
        Some(s @ Value::Object(_)) if !s.as_object().is_some_and(Map::is_empty) => {
            out.push(format!("Each value is {}.", words::summary(s)))
        }
        _ => {}
    }
    for (p, s) in patterns.into_iter().flatten() {
        out.push(format!("Keys matching {p} take {}.", words::summary(s)));
    }
    if let Some(v) = node.map.get(kw!("propertyNames")) {
        out.push(match v.get("pattern").and_then(Value::as_str) {
            Some(p) => format!("Keys must match the regular expression {p}."),
            None => format!("Keys must be {}.", words::summary(v)),
        });
    }
    let lo = node.map.get(kw!("minProperties")).and_then(Value::as_u64);
    let hi = node.map.get(kw!("maxProperties")).and_then(Value::as_u64);
    match (lo, hi) {
        (Some(a), Some(b)) => out.push(format!("From {a} to {b} entries.")),
        (Some(a), None) if a > 0 => out.push(format!("At least {a} entries.")),
        (None, Some(b)) => out.push(format!("At most {b} entries.")),
        _ => {}
    }
    out.join(" ")
}

/// On the conversion's fast path (`dialect::fast`): an object with free keys as a property's value or items is written, as a string of JSON text where objects must declare properties (`Plain::free_keys` in `dialect::fast`, with [`AS_TEXT_SENTENCE`]).
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[r#"{"type":"object","properties":{"x":{"type":"object","description":"Free."}}}"#],
    refused: &[],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{Nulls, Target};
    use super::*;
    use serde_json::json;

    fn gemini_like() -> Target {
        Target {
            require_type: true,
            nulls: Nulls::Nullable,
            maps_as_json_text: true,
            ..permissive()
        }
    }

    #[test]
    fn home_assistant_service_data_becomes_json_text() {
        // ha-mcp ha_call_service: anyOf [{type: object, additionalProperties: true}, {type: null}]
        let schema = json!({"type": "object", "properties": {"data": {
            "anyOf": [{"additionalProperties": true, "type": "object"}, {"type": "null"}],
            "default": null, "description": "Extra service-call parameters"}}});
        let (out, report) = run(&gemini_like(), schema);
        let data = &out["properties"]["data"];
        assert_eq!(data["type"], "string");
        assert_eq!(data["nullable"], true);
        assert_eq!(
            data["description"],
            "Extra service-call parameters. Send this object as JSON text, like {\"key\": \"value\"}."
        );
        assert!(data.get("additionalProperties").is_none());
        assert!(report.contains(&("/properties/data/type".to_string(), Action::Rewritten)));
    }

    #[test]
    fn the_shape_is_said() {
        let schema = json!({"type": "object", "properties": {
            "headers": {"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 20},
            "empty": {"type": "object", "additionalProperties": false},
            "items": {"type": "array", "items": {"type": "object"}}
        }});
        let (out, _) = run(&gemini_like(), schema);
        let p = &out["properties"];
        assert_eq!(
            p["headers"]["description"],
            "Send this object as JSON text, like {\"key\": \"text\"}. Each value is a string. At most 20 entries."
        );
        assert_eq!(
            p["empty"]["description"],
            "Send this object as JSON text, like {\"key\": \"value\"}. It must be empty: {}."
        );
        assert_eq!(p["items"]["items"]["type"], "string");
    }

    #[test]
    fn objects_with_properties_and_the_root_stay_objects() {
        let schema = json!({"type": "object", "additionalProperties": {"type": "string"}});
        let (out, report) = run(&gemini_like(), schema);
        assert_eq!(out["type"], "object");
        assert_eq!(report, vec![("".to_string(), Action::Narrowed)]);
        let schema = json!({"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}}});
        let (out, _) = run(&gemini_like(), schema);
        assert_eq!(out["properties"]["o"]["type"], "object");
        // a parameterless tool is not a map
        let (_, report) = run(&gemini_like(), json!({"type": "object"}));
        assert!(report.is_empty());
    }

    #[test]
    fn other_dialects_keep_maps() {
        let schema = json!({"type": "object", "properties": {"m": {"type": "object"}}});
        let (out, _) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
    }
}
