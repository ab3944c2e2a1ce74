//! The conversion's fast paths against the general ones: every catalog of
//! the corpus (and the schema edge cases), in every dialect, with and
//! without strict mode, gives the same bytes both ways.

mod common;

use mcp_switchboard::{convert, convert_json, Catalog, Dialect, Options};
use serde_json::{json, Value};

/// Every catalog to compare: the corpus's and the edge cases.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut all = common::catalogs();
    all.push(("schema-edge-cases".into(), common::edge_cases()));
    all
}

/// `Conversion::to_json_string` writes what serde_json writes for the
/// conversion.
#[test]
fn json_text_is_serde_jsons() {
    let mut compared = 0;
    for (name, bytes) in inputs() {
        let catalog = Catalog::parse(&bytes).expect("catalog");
        for dialect in Dialect::ALL {
            for strict in [false, true] {
                let conversion = convert(&catalog, dialect, &Options::strict(strict));
                let general = serde_json::to_string(&conversion).expect("json");
                let fast = conversion.to_json_string();
                assert!(
                    fast == general,
                    "{name} {dialect} strict={strict}: the texts differ"
                );
                compared += fast.len();
            }
        }
    }
    assert!(compared > 1_000_000, "{compared} bytes compared");
}

/// The JSON-Schema suite's schemas (draft 2020-12), each as a property of
/// a tool, one catalog per suite file.
fn suite_catalogs() -> Vec<(String, Vec<u8>)> {
    let dir = common::corpus_dir().join("../json-schema-test-suite/draft2020-12");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the JSON-Schema test suite beside the corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let groups: Vec<Value> =
            serde_json::from_slice(&std::fs::read(&path).expect("suite file")).expect("JSON");
        let tools: Vec<Value> = groups
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let schema = g.get("schema").cloned().unwrap_or(Value::Null);
                json!({
                    "name": format!("t{i}"),
                    "inputSchema": {"type": "object", "properties": {"x": schema, "y": {"type": "array", "items": schema}}}
                })
            })
            .collect();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        out.push((
            name.unwrap_or_default(),
            serde_json::to_vec(&json!({"tools": tools})).expect("JSON"),
        ));
    }
    assert!(out.len() > 30, "{} suite files", out.len());
    out
}

/// A catalog in which one tool cannot be converted where `$ref`s are
/// inlined (its schema expands past the limits), between two that can.
fn skipping_catalog() -> Vec<u8> {
    let mut defs = serde_json::Map::new();
    for i in 0..24 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
        );
    }
    defs.insert("d24".into(), json!({"type": "string"}));
    let big =
        json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "$defs": defs});
    serde_json::to_vec(&json!([
        {"name": "first", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
        {"name": "fan.out", "inputSchema": big},
        {"name": "last tool", "inputSchema": {"type": "object"}}
    ]))
    .expect("JSON")
}

/// `convert_json`, which writes each tool as it is converted, writes what
/// `convert` and `Conversion::to_json_string` write: every catalog of the
/// corpus, the edge cases, the JSON-Schema suite's schemas and a catalog
/// with a skipped tool, in every dialect, with and without strict mode and
/// with a choice of strict tools.
#[test]
fn streamed_json_is_the_conversions() {
    let mut all = common::inputs();
    all.extend(suite_catalogs());
    all.push(("skipping".into(), skipping_catalog()));
    let (mut compared, mut skipped) = (0, 0);
    for (name, bytes) in all {
        let Ok(catalog) = Catalog::parse(&bytes) else {
            continue;
        };
        let some: Vec<String> = catalog
            .tools()
            .iter()
            .step_by(2)
            .map(|t| t.name().to_string())
            .chain(["not a tool".to_string()])
            .collect();
        for dialect in Dialect::ALL {
            for options in [
                Options::strict(false),
                Options::strict(true),
                Options::strict(true).with_strict_tools(some.clone()),
            ] {
                let conversion = convert(&catalog, dialect, &options);
                let general = conversion.to_json_string();
                let streamed = convert_json(&catalog, dialect, &options);
                assert!(
                    streamed == general,
                    "{name} {dialect} {options:?}: the texts differ"
                );
                compared += streamed.len();
                skipped += conversion
                    .report
                    .iter()
                    .filter(|e| e.action == mcp_switchboard::Action::Skipped)
                    .count();
            }
        }
    }
    assert!(compared > 10_000_000, "{compared} bytes compared");
    assert!(
        skipped > 0,
        "no tool was skipped: the names of a partial conversion went untested"
    );
}
