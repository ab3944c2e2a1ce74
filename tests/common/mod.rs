//! Helpers shared by the integration tests: the shared corpus beside the
//! checkout, and small JSON utilities.

#![allow(dead_code)]

use std::path::PathBuf;

use mcp_switchboard::{Conversion, Dialect};
use serde_json::{json, Value};

/// `../shared/corpus/` relative to the crate root.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// Reads a corpus file.
pub fn corpus(name: &str) -> Vec<u8> {
    let path = corpus_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every `*.tools-list.json` catalog in the corpus, by file name.
pub fn catalogs() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(corpus_dir())
        .expect("the shared corpus must sit beside the checkout")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tools-list.json"))
        .map(|n| {
            let bytes = corpus(&n);
            (n, bytes)
        })
        .collect();
    out.sort();
    assert!(out.len() >= 5, "expected the corpus catalogs");
    out
}

/// The schema edge cases as a catalog: one tool per case.
pub fn edge_cases() -> Vec<u8> {
    let cases: Value =
        serde_json::from_slice(&corpus("schema-edge-cases.json")).expect("edge cases");
    let tools: Vec<Value> = cases
        .as_object()
        .expect("object")
        .iter()
        .map(|(k, v)| json!({"name": k, "description": format!("Edge case {k}"), "inputSchema": v}))
        .collect();
    serde_json::to_vec(&tools).expect("json")
}

/// The Home Assistant fragments that broke clients, as a catalog.
pub fn fragments() -> Vec<u8> {
    let f: Value =
        serde_json::from_slice(&corpus("home-assistant-fragments.json")).expect("fragments");
    let tools: Vec<Value> = f["fragments"]
        .as_object()
        .expect("fragments object")
        .iter()
        .enumerate()
        .map(|(i, (k, v))| json!({"name": format!("fragment_{i}"), "description": k, "inputSchema": {"type": "object", "properties": {"value": v}}}))
        .collect();
    serde_json::to_vec(&tools).expect("json")
}

/// Visits every schema node of a lowered schema (properties, items, anyOf,
/// prefixItems, additionalProperties, $defs) with its pointer.
pub fn visit(v: &Value, at: &str, f: &mut dyn FnMut(&str, &serde_json::Map<String, Value>)) {
    let Value::Object(m) = v else { return };
    f(at, m);
    for key in ["properties", "$defs", "definitions", "patternProperties"] {
        if let Some(Value::Object(props)) = m.get(key) {
            for (k, s) in props {
                visit(s, &format!("{at}/{key}/{k}"), f);
            }
        }
    }
    for key in [
        "items",
        "additionalProperties",
        "not",
        "contains",
        "propertyNames",
    ] {
        if let Some(s) = m.get(key) {
            visit(s, &format!("{at}/{key}"), f);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(bs)) = m.get(key) {
            for (i, b) in bs.iter().enumerate() {
                visit(b, &format!("{at}/{key}/{i}"), f);
            }
        }
    }
}

/// Every corpus catalog, the schema edge cases and the Home Assistant
/// fragments.
pub fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut v = catalogs();
    v.push(("schema-edge-cases".into(), edge_cases()));
    v.push(("home-assistant-fragments".into(), fragments()));
    v
}

/// Every dialect, and its strict variant where it has one.
pub fn variants() -> Vec<(Dialect, bool)> {
    let mut v = Vec::new();
    for d in Dialect::ALL {
        v.push((d, false));
        if d.has_strict() {
            v.push((d, true));
        }
    }
    v
}

/// The declarations of a conversion, whatever the wrapping.
pub fn declarations(c: &Conversion) -> Vec<(String, Option<Value>, bool)> {
    match c.dialect {
        Dialect::Gemini | Dialect::GeminiJson => c
            .tools
            .first()
            .and_then(|t| t["functionDeclarations"].as_array().cloned())
            .unwrap_or_default()
            .into_iter()
            .map(|d| {
                let schema = d
                    .get("parameters")
                    .or_else(|| d.get("parametersJsonSchema"))
                    .cloned();
                (d["name"].as_str().unwrap().to_string(), schema, false)
            })
            .collect(),
        Dialect::OpenAi => c
            .tools
            .iter()
            .map(|t| {
                let f = &t["function"];
                (
                    f["name"].as_str().unwrap().to_string(),
                    Some(f["parameters"].clone()),
                    f["strict"] == true,
                )
            })
            .collect(),
        Dialect::OpenAiResponses => c
            .tools
            .iter()
            .map(|t| {
                (
                    t["name"].as_str().unwrap().to_string(),
                    Some(t["parameters"].clone()),
                    t["strict"] == true,
                )
            })
            .collect(),
        Dialect::Anthropic => c
            .tools
            .iter()
            .map(|t| {
                (
                    t["name"].as_str().unwrap().to_string(),
                    Some(t["input_schema"].clone()),
                    t["strict"] == true,
                )
            })
            .collect(),
        Dialect::VsCode => c
            .tools
            .iter()
            .map(|t| {
                (
                    t["name"].as_str().unwrap().to_string(),
                    Some(t["inputSchema"].clone()),
                    false,
                )
            })
            .collect(),
        Dialect::Prompted => c
            .tools
            .iter()
            .map(|t| {
                (
                    t["name"].as_str().unwrap().to_string(),
                    Some(t["parameters"].clone()),
                    false,
                )
            })
            .collect(),
        _ => panic!("new dialect {:?} needs a case here", c.dialect),
    }
}

/// The model's response carrying one call per declaration, in the dialect's shape.
pub fn response(d: Dialect, calls: &[(String, Value)]) -> Value {
    match d {
        Dialect::Gemini | Dialect::GeminiJson => {
            json!({"candidates": [{"content": {"role": "model", "parts":
            calls.iter().map(|(n, a)| json!({"functionCall": {"name": n, "args": a}})).collect::<Vec<_>>()}}]})
        }
        Dialect::OpenAi => {
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls":
            calls.iter().enumerate().map(|(i, (n, a))| json!({"id": format!("call_{i}"), "type": "function", "function": {"name": n, "arguments": a.to_string()}})).collect::<Vec<_>>()}}]})
        }
        Dialect::OpenAiResponses => json!({"output":
            calls.iter().enumerate().map(|(i, (n, a))| json!({"type": "function_call", "call_id": format!("c{i}"), "name": n, "arguments": a.to_string()})).collect::<Vec<_>>()}),
        Dialect::Anthropic => json!({"role": "assistant", "content":
            calls.iter().enumerate().map(|(i, (n, a))| json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": n, "input": a})).collect::<Vec<_>>()}),
        Dialect::VsCode => Value::Array(
            calls
                .iter()
                .enumerate()
                .map(|(i, (n, a))| json!({"callId": format!("v{i}"), "name": n, "input": a}))
                .collect(),
        ),
        Dialect::Prompted => {
            let list: Vec<Value> = calls
                .iter()
                .map(|(n, a)| json!({"name": n, "arguments": a}))
                .collect();
            Value::String(format!(
                "Sure.\n```json\n{}\n```",
                json!({"tool_calls": list})
            ))
        }
        _ => unreachable!("a new dialect needs a response shape here"),
    }
}
