//! Helpers shared by the integration tests: the shared corpus beside the
//! checkout, and small JSON utilities.

#![allow(dead_code)]

use std::path::PathBuf;

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
