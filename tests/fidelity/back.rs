//! A dialect's declared schema as the JSON Schema of what the model can
//! send through it. JSON Schema dialects are already that. Gemini's OpenAPI
//! subset is translated: lower-case types, `nullable` as a `null` type,
//! `format: enum` values accepted as written or as the declared type's
//! value, and objects closed: the model fills in declared properties only.

use serde_json::{json, Map, Value};

use mcp_switchboard::Dialect;

/// The JSON Schema the model's arguments must fit.
pub fn json_schema(dialect: Dialect, declared: &Value) -> Value {
    match dialect {
        Dialect::Gemini => gemini(declared, 0),
        _ => declared.clone(),
    }
}

fn gemini(s: &Value, depth: usize) -> Value {
    let Value::Object(m) = s else {
        return s.clone();
    };
    if depth > 64 {
        return json!({});
    }
    let mut out = Map::new();
    let ty = m
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);
    let nullable = m.get("nullable") == Some(&Value::Bool(true));
    for (k, v) in m {
        match k.as_str() {
            "type" | "nullable" | "propertyOrdering" | "example" => {}
            "properties" => {
                let props: Map<String, Value> = v
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(n, p)| (n.clone(), gemini(p, depth + 1)))
                    .collect();
                out.insert(k.clone(), Value::Object(props));
            }
            "items" => {
                out.insert(k.clone(), gemini(v, depth + 1));
            }
            "anyOf" => {
                let bs: Vec<Value> = v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|b| gemini(b, depth + 1))
                    .collect();
                out.insert(k.clone(), Value::Array(bs));
            }
            "format" if v == "enum" => {}
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    let enum_format = m.get("format") == Some(&json!("enum"));
    if let (true, Some(t), Some(Value::Array(values))) = (enum_format, &ty, m.get("enum")) {
        if t != "string" {
            // Google's form for non-string enums: the value as text, or as
            // the declared type's value
            let mut all = values.clone();
            for v in values {
                if let Some(parsed) = v
                    .as_str()
                    .and_then(|t| serde_json::from_str::<Value>(t).ok())
                {
                    all.push(parsed);
                }
            }
            out.insert("enum".into(), Value::Array(all));
            if nullable {
                if let Some(Value::Array(e)) = out.get_mut("enum") {
                    e.push(Value::Null);
                }
            }
            return Value::Object(out);
        }
    }
    if let Some(t) = ty {
        if t == "object" && out.contains_key("properties") {
            out.insert("additionalProperties".into(), Value::Bool(false));
        }
        let t = Value::String(t);
        out.insert("type".into(), if nullable { json!([t, "null"]) } else { t });
        if nullable {
            if let Some(Value::Array(e)) = out.get_mut("enum") {
                e.push(Value::Null);
            }
        }
    } else if nullable {
        match out.get_mut("anyOf") {
            Some(Value::Array(bs)) => bs.push(json!({"type": "null"})),
            _ => {
                out.insert("anyOf".into(), json!([{"type": "null"}]));
            }
        }
    }
    Value::Object(out)
}
