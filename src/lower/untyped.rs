//! Rule: untyped schemas. The type is inferred from the keywords present
//! (`properties` → object, `items` → array, `minLength` → string, enum
//! values, ...). Where nothing tells and the dialect requires a type, the
//! value is offered as a string, a number, a boolean, null or a list of
//! those. Objects cannot be offered (an object with free keys has no typed
//! form next to a string), so the description and the report say so.

use serde_json::Value;

use super::{At, Cx, Node};
use crate::report::Action;

/// The JSON type name of a value.
pub(crate) fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The type the keywords of a schema imply, if one does.
fn implied(node: &Node<'_>) -> Option<String> {
    const OBJECT: u64 = kw!("properties").mask()
        | kw!("additionalProperties").mask()
        | kw!("patternProperties").mask()
        | kw!("required").mask()
        | kw!("minProperties").mask()
        | kw!("maxProperties").mask()
        | kw!("propertyNames").mask();
    const ARRAY: u64 = kw!("items").mask()
        | kw!("prefixItems").mask()
        | kw!("minItems").mask()
        | kw!("maxItems").mask()
        | kw!("uniqueItems").mask()
        | kw!("contains").mask();
    const STRING: u64 = kw!("minLength").mask()
        | kw!("maxLength").mask()
        | kw!("pattern").mask()
        | kw!("format").mask();
    const NUMBER: u64 = kw!("minimum").mask()
        | kw!("maximum").mask()
        | kw!("exclusiveMinimum").mask()
        | kw!("exclusiveMaximum").mask()
        | kw!("multipleOf").mask();
    if node.map.contains_any(OBJECT) {
        return Some("object".into());
    }
    if node.map.contains_any(ARRAY) {
        return Some("array".into());
    }
    if node.map.contains_any(STRING) {
        return Some("string".into());
    }
    if node.map.contains_any(NUMBER) {
        return Some("number".into());
    }
    if let Some(c) = node.map.get(kw!("const")).filter(|c| !c.is_null()) {
        return Some(type_of(c).to_string());
    }
    if let Some(Value::Array(values)) = node.map.get(kw!("enum")) {
        let mut types: Vec<&str> = values
            .iter()
            .filter(|v| !v.is_null())
            .map(type_of)
            .collect();
        if types.iter().all(|t| matches!(*t, "integer" | "number")) && types.contains(&"number") {
            return Some("number".into());
        }
        types.dedup();
        if types.len() == 1 {
            return types.first().map(|t| (*t).to_string());
        }
        return None;
    }
    None
}

pub(super) fn infer(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if !cx.target.require_type {
        // JSON Schema dialects take untyped schemas as they are
        return;
    }
    const DECIDED: u64 = kw!("type").mask()
        | kw!("anyOf").mask()
        | kw!("oneOf").mask()
        | kw!("allOf").mask()
        | kw!("$ref").mask();
    if node.map.contains_any(DECIDED) {
        return;
    }
    if let Some(t) = implied(node) {
        node.map.insert(kw!("type"), Value::String(t.clone()));
        node.type_inferred = true;
        cx.note(
            at,
            "type",
            Action::Added,
            format!("no type given; {t} inferred from the other keywords"),
        );
        return;
    }
    if node.map.contains_key(kw!("enum")) {
        return;
    }
    node.map
        .insert(kw!("anyOf"), Value::Array(any_value_branches(true)));
    node.nullable = true;
    node.notes.push(NO_OBJECTS.into());
    cx.note(at, "type", Action::Narrowed, ANY_VALUE);
}

/// What the report says of an untyped value offered as any typed value.
pub(crate) const ANY_VALUE: &str = "no type given and the dialect requires one: offered as a string, a number, a boolean, null or a list of those; objects cannot be sent";

/// This rule's fast form (`dialect::fast`, Gemini: types in capitals,
/// null as `nullable`): the members [`any_value_branches`] and the node's
/// nullability come out as, written straight into the schema's text.
pub(crate) const TYPED_ANY_VALUE: &str = r#""anyOf":[{"type":"STRING"},{"type":"NUMBER"},{"type":"BOOLEAN"},{"type":"ARRAY","items":{"anyOf":[{"type":"STRING"},{"type":"NUMBER"},{"type":"BOOLEAN"}]}}],"nullable":true"#;

/// The sentence added where "any value" lost its objects.
pub(crate) const NO_OBJECTS: &str = "Objects cannot be sent here.";

/// The typed branches that stand for "any value" where every schema needs
/// a type: the scalars and, with `arrays`, a list of scalars. Null is the
/// node's nullability; objects have no typed form.
pub(super) fn any_value_branches(arrays: bool) -> Vec<Value> {
    // parsed from text: smaller in the module than building the values
    const SCALARS: &str = r#"[{"type": "string"}, {"type": "number"}, {"type": "boolean"}]"#;
    const LIST: &str = r#"{"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]}}"#;
    let mut out: Vec<Value> = serde_json::from_str(SCALARS).unwrap_or_default();
    if arrays {
        out.extend(serde_json::from_str::<Value>(LIST).ok());
    }
    out
}

/// On the conversion's fast path (`dialect::fast`): an untyped property value or items is written, as [`TYPED_ANY_VALUE`] with [`NO_OBJECTS`] where every schema needs a type; an untyped value elsewhere is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[r#"{"type":"object","properties":{"x":{"description":"Any value."}}}"#],
    refused: &[
        r#"{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"description":"Any."}]}}}"#,
    ],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::Target;
    use super::*;
    use serde_json::json;

    fn typed() -> Target {
        Target {
            require_type: true,
            ..permissive()
        }
    }

    #[test]
    fn infers_from_keywords() {
        let schema = json!({"type": "object", "properties": {
            "o": {"properties": {"a": {"type": "string"}}},
            "a": {"items": {"type": "string"}},
            "s": {"maxLength": 3},
            "n": {"minimum": 0.5},
            "e": {"enum": [1, 2]},
            "f": {"enum": [1, 2.5]},
            "c": {"const": "circle"}
        }});
        let (out, report) = run(&typed(), schema);
        let p = &out["properties"];
        assert_eq!(p["o"]["type"], "object");
        assert_eq!(p["a"]["type"], "array");
        assert_eq!(p["s"]["type"], "string");
        assert_eq!(p["n"]["type"], "number");
        assert_eq!(p["e"]["type"], "integer");
        assert_eq!(p["f"]["type"], "number");
        assert_eq!(p["c"]["type"], "string");
        assert_eq!(report.len(), 7);
    }

    #[test]
    fn homey_value_becomes_scalar_union() {
        let schema = json!({"type": "object", "properties": {"value": {"description": "The value to set (boolean for onoff, number 0-1 for dim)"}}});
        let (out, report) = run(&typed(), schema);
        let scalars = json!([{"type": "string"}, {"type": "number"}, {"type": "boolean"}]);
        assert_eq!(
            out["properties"]["value"],
            json!({"description": "The value to set (boolean for onoff, number 0-1 for dim). Objects cannot be sent here.",
                "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"},
                    {"type": "array", "items": {"anyOf": scalars}}, {"type": "null"}]})
        );
        assert_eq!(
            report,
            vec![("/properties/value/type".to_string(), Action::Narrowed)]
        );
    }

    #[test]
    fn any_value_keeps_null_for_openapi_dialects() {
        // GitHub projects_write: "Any JSON value is accepted; use null to clear the field."
        let t = Target {
            nulls: super::super::Nulls::Nullable,
            ..typed()
        };
        let schema = json!({"type": "object", "properties": {"value": {"description": "use null to clear the field"}}});
        let (out, _) = run(&t, schema);
        assert_eq!(out["properties"]["value"]["nullable"], true);
        assert_eq!(
            out["properties"]["value"]["anyOf"]
                .as_array()
                .unwrap()
                .len(),
            4
        );
    }

    #[test]
    fn not_alone_does_not_type_a_value() {
        let schema = json!({"type": "object", "properties": {"foo": {"not": {"type": "null"}}}});
        let (out, _) = run(&typed(), schema);
        assert!(out["properties"]["foo"]["anyOf"].is_array());
    }

    /// The fast path writes what the general rule makes for Gemini.
    #[test]
    fn the_fast_form_is_the_general_one() {
        let catalog = crate::Catalog::parse(
            br#"[{"name": "t", "description": "T.", "inputSchema": {"type": "object",
                "properties": {"v": {"description": "Any."}}}}]"#,
        )
        .unwrap();
        let out = crate::convert(&catalog, crate::Dialect::Gemini, &crate::Options::default());
        let text = out.to_json_string();
        assert!(text.contains(TYPED_ANY_VALUE), "{text}");
    }

    #[test]
    fn permissive_dialects_leave_untyped_values() {
        let schema = json!({"type": "object", "properties": {"value": {"description": "any"}}});
        let (out, report) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
        assert!(report.is_empty());
    }
}
