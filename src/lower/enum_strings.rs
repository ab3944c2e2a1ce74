//! Rule: non-string enums, for dialects whose `enum` holds only strings
//! (Gemini). Following Google's documented form, the values become strings
//! with `format: "enum"` and the declared type is kept
//! (`{type: INTEGER, format: enum, enum: ["1", "2"]}`). A boolean enum
//! holding both values is just a boolean. Calls are mapped back by
//! validating against the tool's original schema, which coerces `"2"` to `2`.

use serde_json::Value;

use super::untyped::type_of;
use super::{At, Cx, Node};
use crate::report::Action;

/// This rule's fast form for an enum of strings (`dialect::fast`): the
/// member the `format` inserted below comes out as, written at the end of
/// the node.
pub(crate) const FORMAT_ENUM: &str = ",\"format\":\"enum\"";

pub(super) fn rewrite(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if !cx.target.string_enums {
        return;
    }
    let Some(Value::Array(values)) = node.map.get(kw!("enum")) else {
        if node.map.contains_key(kw!("enum")) {
            node.map.shift_remove(kw!("enum"));
            cx.note(at, "enum", Action::Dropped, "enum is not an array");
        }
        return;
    };
    if values.iter().all(Value::is_string) {
        if node.ty().is_none() {
            node.map.insert(kw!("type"), Value::String("string".into()));
        }
        node.map
            .or_insert(kw!("format"), Value::String("enum".into()));
        return;
    }
    let values = values.clone();
    if values.iter().all(Value::is_boolean) {
        node.map.shift_remove(kw!("enum"));
        node.map
            .insert(kw!("type"), Value::String("boolean".into()));
        if values.contains(&Value::Bool(true)) && values.contains(&Value::Bool(false)) {
            cx.note(
                at,
                "enum",
                Action::Dropped,
                "an enum of true and false is just a boolean",
            );
        } else {
            let only = values.first().cloned().unwrap_or(Value::Bool(true));
            node.notes.push(format!("Must be {only}."));
            cx.note(
                at,
                "enum",
                Action::Described,
                format!("a boolean enum of only {only}: said in the description"),
            );
        }
        return;
    }
    let types: Vec<&str> = values.iter().map(type_of).collect();
    let declared = match node.ty() {
        Some(t) => t.to_string(),
        None if types.iter().all(|t| *t == "integer") => "integer".into(),
        None if types.iter().all(|t| matches!(*t, "integer" | "number")) => "number".into(),
        None => "string".into(),
    };
    let declared = if matches!(declared.as_str(), "integer" | "number" | "string") {
        declared
    } else {
        "string".into()
    };
    let strings: Vec<Value> = values
        .iter()
        .map(|v| match v {
            Value::String(s) => Value::String(s.clone()),
            other => Value::String(other.to_string()),
        })
        .collect();
    node.map
        .insert(kw!("type"), Value::String(declared.clone()));
    node.map.insert(kw!("format"), Value::String("enum".into()));
    node.map.insert(kw!("enum"), Value::Array(strings));
    cx.note(
        at,
        "enum",
        Action::Rewritten,
        format!("enum values written as strings with format \"enum\" (type {declared} kept); calls are converted back to the original values"),
    );
}

/// On the conversion's fast path (`dialect::fast`): an enum of strings is written, with [`FORMAT_ENUM`] where the dialect wants it; any other enum is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[r#"{"type":"object","properties":{"x":{"type":"string","enum":["a","b"]}}}"#],
    refused: &[r#"{"type":"object","properties":{"x":{"type":"integer","enum":[1,2]}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::Target;
    use super::*;
    use serde_json::json;

    fn gemini_like() -> Target {
        Target {
            string_enums: true,
            ..permissive()
        }
    }

    #[test]
    fn integer_enum_keeps_declared_type() {
        let schema = json!({"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}, "flag": {"enum": [true, false]}}});
        let (out, report) = run(&gemini_like(), schema);
        assert_eq!(
            out["properties"]["level"],
            json!({"type": "integer", "enum": ["1", "2", "3"], "format": "enum"})
        );
        assert_eq!(out["properties"]["flag"], json!({"type": "boolean"}));
        assert_eq!(
            report,
            vec![
                ("/properties/level/enum".to_string(), Action::Rewritten),
                ("/properties/flag/enum".to_string(), Action::Dropped)
            ]
        );
    }

    #[test]
    fn string_enums_get_the_enum_format() {
        let schema = json!({"type": "object", "properties": {"s": {"enum": ["on", "off"]}}});
        let (out, _) = run(&gemini_like(), schema);
        assert_eq!(
            out["properties"]["s"],
            json!({"enum": ["on", "off"], "type": "string", "format": "enum"})
        );
    }

    #[test]
    fn mixed_values_become_strings() {
        let schema = json!({"type": "object", "properties": {"m": {"enum": [1, "a", 2.5]}}});
        let (out, _) = run(&gemini_like(), schema);
        assert_eq!(
            out["properties"]["m"],
            json!({"enum": ["1", "a", "2.5"], "type": "string", "format": "enum"})
        );
    }

    #[test]
    fn single_boolean_is_described() {
        let schema = json!({"type": "object", "properties": {"confirm": {"enum": [true]}}});
        let (out, _) = run(&gemini_like(), schema);
        assert_eq!(
            out["properties"]["confirm"],
            json!({"type": "boolean", "description": "Must be true."})
        );
    }
}
