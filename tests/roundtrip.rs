//! Round trips per dialect on the Home Assistant and Homey catalogs:
//! declare → the model calls (in the dialect's response shape, with the
//! dialect's name and the lowered schema's value forms) → read the call →
//! validate against the original schema → MCP request → result →
//! conversation items.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use mcp_switchboard::{
    convert, format_results, parse_calls, tool_success, validate_arguments, Catalog, Dialect,
    Options,
};
use serde_json::{json, Map, Value};

/// A value a model would send for a lowered schema: the first enum value,
/// the minimum, a short string, every property of objects.
fn sample(schema: &Value, depth: usize) -> Value {
    if depth > 6 {
        return Value::Null;
    }
    if let Some(Value::Array(e)) = schema.get("enum") {
        if let Some(v) = e.iter().find(|v| !v.is_null()) {
            return v.clone();
        }
    }
    if let Some(Value::Array(branches)) = schema.get("anyOf") {
        if let Some(b) = branches
            .iter()
            .find(|b| b.get("type").is_some_and(|t| t != "null" && t != "NULL"))
        {
            return sample(b, depth + 1);
        }
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.to_ascii_lowercase(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string")
            .to_string(),
        _ => "string".into(),
    };
    match ty.as_str() {
        "object" => {
            let mut m = Map::new();
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (k, s) in props {
                    m.insert(k.clone(), sample(s, depth + 1));
                }
            }
            Value::Object(m)
        }
        "array" => json!([sample(schema.get("items").unwrap_or(&json!({})), depth + 1)]),
        "integer" => json!(schema.get("minimum").and_then(Value::as_i64).unwrap_or(1)),
        "number" => json!(schema.get("minimum").and_then(Value::as_f64).unwrap_or(1.5)),
        "boolean" => json!(true),
        // an object with free keys, sent as JSON text (Gemini)
        _ if schema
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.contains("Send this object as JSON text")) =>
        {
            json!("{}")
        }
        _ => json!("kitchen"),
    }
}

#[test]
fn every_tool_round_trips_in_every_dialect() {
    for file in [
        "home-assistant-2025.4.tools-list.json",
        "home-assistant-2026.11.tools-list.json",
        "homey-ai-chat-control-2.2.1.tools-list.json",
    ] {
        let catalog = Catalog::parse(&common::corpus(file)).unwrap();
        for d in Dialect::ALL {
            for strict in [false, true] {
                let conv = convert(&catalog, d, &Options::strict(strict));
                let calls: Vec<(String, Value)> = common::declarations(&conv)
                    .into_iter()
                    .map(|(n, s, _)| {
                        let s = s.unwrap_or(json!({"type": "object"}));
                        let args = sample(&s, 0);
                        (n, args)
                    })
                    .collect();
                let turn =
                    parse_calls(d, &common::response(d, &calls), &conv.names, Some(&catalog))
                        .unwrap();
                assert_eq!(turn.calls.len(), calls.len(), "{file} {d}");
                for (call, (name, sent)) in turn.calls.iter().zip(&calls) {
                    let ctx = format!("{file} {d}{} {name}", if strict { "+strict" } else { "" });
                    assert!(call.error.is_none(), "{ctx}: {:?} for {sent}", call.error);
                    let tool = catalog.get(&call.name).unwrap();
                    assert_eq!(conv.names.mcp_name(name), Some(tool.name()), "{ctx}");
                    // what reaches the MCP server fits the ORIGINAL schema
                    let v = validate_arguments(tool.input_schema(), &call.arguments);
                    assert!(
                        v.is_valid() && v.coercions.is_empty(),
                        "{ctx}: {}",
                        v.message()
                    );
                    let req = call.request.as_ref().unwrap();
                    assert_eq!(req["method"], "tools/call");
                    assert_eq!(req["params"]["name"], tool.name());
                    assert_eq!(req["params"]["arguments"], call.arguments);
                }
                let results: Vec<Value> = turn
                    .calls
                    .iter()
                    .map(|c| tool_success(json!({"tool": c.name})))
                    .collect();
                let items = format_results(d, &turn, &Value::Array(results)).unwrap();
                let text = Value::Array(items).to_string();
                for c in &turn.calls {
                    assert!(
                        text.contains(&c.id) || !c.id_from_model || d == Dialect::Prompted,
                        "{file} {d}: result for {}",
                        c.id
                    );
                }
                assert!(
                    !turn.assistant.is_empty() || turn.calls.is_empty(),
                    "{file} {d}"
                );
            }
        }
    }
}
