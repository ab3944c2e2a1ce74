//! What a model sends to make a call with given arguments through a
//! declared schema, doing what the schema and its words ask: an object
//! where a string is declared goes as JSON text, a non-string enum value
//! goes as Google's text form, a property strict mode requires but the call
//! leaves out goes as `null`, and a union takes the first branch its value
//! fits.

use mcp_switchboard::validate;
use serde_json::{Map, Value};

use super::back;
use mcp_switchboard::Dialect;

pub struct Encoder<'a> {
    pub dialect: Dialect,
    /// The declared schema (for `$ref`).
    pub root: &'a Value,
}

impl Encoder<'_> {
    /// What the model sends for `value` where `schema` is declared.
    pub fn encode(&self, value: &Value, schema: &Value, depth: usize) -> Value {
        self.encode_as(value, schema, depth, true)
    }

    /// [`Encoder::encode`]; `text` allows an object or array to go as JSON
    /// text where a string is declared (a union first looks for a branch
    /// that takes the value as it is).
    fn encode_as(&self, value: &Value, schema: &Value, depth: usize, text: bool) -> Value {
        let Value::Object(m) = schema else {
            return value.clone();
        };
        if depth > 64 {
            return value.clone();
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            if let Some(target) = r.strip_prefix('#').and_then(|p| self.root.pointer(p)) {
                return self.encode_as(value, target, depth + 1, text);
            }
        }
        if let Some(Value::Array(branches)) = m.get("anyOf") {
            if value.is_null() && self.takes_null(schema) {
                return Value::Null;
            }
            for as_text in [false, text] {
                for b in branches {
                    let sent = self.encode_as(value, b, depth + 1, as_text);
                    if self.fits(&sent, b) {
                        return sent;
                    }
                }
            }
            return value.clone();
        }
        let types: Vec<String> = match m.get("type") {
            Some(Value::String(t)) => vec![t.to_ascii_lowercase()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_ascii_lowercase)
                .collect(),
            _ => Vec::new(),
        };
        let wants = |t: &str| types.iter().any(|x| x == t);
        match value {
            Value::Object(o)
                if wants("object") || (types.is_empty() && m.contains_key("properties")) =>
            {
                let props = m.get("properties").and_then(Value::as_object);
                let mut out = Map::new();
                for (k, v) in o {
                    let sent = match props.and_then(|p| p.get(k)) {
                        Some(s) => self.encode(v, s, depth + 1),
                        None => match m.get("additionalProperties") {
                            Some(s @ Value::Object(_)) => self.encode(v, s, depth + 1),
                            _ => v.clone(),
                        },
                    };
                    out.insert(k.clone(), sent);
                }
                // strict mode: every property is sent, null for "left out"
                for name in m
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let Some(name) = name.as_str() else { continue };
                    if !out.contains_key(name) {
                        if let Some(s) = props.and_then(|p| p.get(name)) {
                            if self.takes_null(s) {
                                out.insert(name.to_string(), Value::Null);
                            }
                        }
                    }
                }
                Value::Object(out)
            }
            Value::Array(a) if wants("array") || (types.is_empty() && m.contains_key("items")) => {
                let items = m.get("items");
                Value::Array(
                    a.iter()
                        .map(|v| match items {
                            Some(s) => self.encode(v, s, depth + 1),
                            None => v.clone(),
                        })
                        .collect(),
                )
            }
            Value::Object(_) | Value::Array(_) if text && wants("string") => {
                // JSON text, as the description asks
                Value::String(value.to_string())
            }
            Value::Number(_) | Value::Bool(_)
                if self.dialect == Dialect::Gemini
                    && m.get("format") == Some(&Value::String("enum".into())) =>
            {
                // Google's non-string enums are declared as text
                Value::String(value.to_string())
            }
            _ => value.clone(),
        }
    }

    fn takes_null(&self, schema: &Value) -> bool {
        self.fits(&Value::Null, schema)
    }

    /// Whether `v` fits a part of the declared schema (with the root's
    /// definitions beside it, so its `$ref`s resolve).
    fn fits(&self, v: &Value, part: &Value) -> bool {
        let Value::Object(mut whole) = back::json_schema(self.dialect, part) else {
            return back::json_schema(self.dialect, part) != Value::Bool(false);
        };
        for key in ["$defs", "definitions"] {
            if let Some(d) = self.root.get(key) {
                whole.insert(key.into(), d.clone());
            }
        }
        validate(&Value::Object(whole), v).is_empty()
    }
}
