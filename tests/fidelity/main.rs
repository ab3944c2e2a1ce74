//! Schema fidelity, as a property: for every tool of every corpus catalog,
//! every schema edge case, the Home Assistant fragments and every schema of
//! the JSON Schema Test Suite (draft 2020-12), argument sets
//! valid for the tool's ORIGINAL input schema are drawn at random (seeded),
//! and in every dialect (strict on and off):
//!
//! 1. the model sends them as the declared schema asks (`encode`), and the
//!    declared schema, read back as JSON Schema (`back`), accepts them, or
//!    the report names a narrowing at that place;
//! 2. the calls are read back with `parse_calls` (validation against the
//!    original schema, with coercion), and give back the same arguments, or
//!    the report names a narrowing at the place they differ.
//!
//! Zero unreported losses. `FIDELITY_SAMPLES` sets the argument sets drawn
//! per tool (default 12); `FIDELITY_SEED` draws other sets (any text);
//! `FIDELITY_SHOW` how many losses a failure lists.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;

mod back;
mod coverage;
mod encode;
mod generate;

use mcp_switchboard::{
    convert, parse_calls, validate, Action, Catalog, Conversion, Dialect, Options, MAX_CALLS,
};
use serde_json::{json, Value};

/// Argument sets per tool, and draws allowed to find them.
fn samples_per_tool() -> usize {
    std::env::var("FIDELITY_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12)
}

/// What one conversion of one catalog did to the drawn calls.
#[derive(Default)]
struct Outcome {
    /// Calls checked.
    calls: usize,
    /// Calls the dialect cannot carry, at a place the report names.
    reported: usize,
    /// Calls lost with no report entry saying so.
    losses: Vec<String>,
}

/// The drawn argument sets of each tool of a catalog, by MCP name.
fn draw(label: &str, catalog: &Catalog) -> Vec<(String, Vec<Value>)> {
    let n = samples_per_tool();
    catalog
        .tools()
        .iter()
        .map(|t| {
            let salt = std::env::var("FIDELITY_SEED").unwrap_or_default();
            let seed = generate::seed_of(&format!("{salt}{label}/{}", t.name()));
            (
                t.name().to_string(),
                generate::arguments(t.input_schema(), seed, n, n * 8),
            )
        })
        .collect()
}

/// Deep equality with numbers compared by value (`1` and `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The places (JSON Pointers) where the read-back arguments differ from
/// the ones meant. A member left out on one side and `null` on the other is
/// no difference where the original schema says the default is `null`.
fn differences(meant: &Value, got: &Value, schema: &Value, at: &str, out: &mut Vec<String>) {
    match (meant, got) {
        (Value::Object(a), Value::Object(b)) => {
            for k in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
                let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => differences(x, y, &child(schema, k), &here, out),
                    (None, Some(Value::Null)) | (Some(Value::Null), None)
                        if child(schema, k).get("default") == Some(&Value::Null) => {}
                    _ => out.push(here),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            let items = schema.get("items").cloned().unwrap_or(Value::Bool(true));
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                differences(x, y, &items, &format!("{at}/{i}"), out);
            }
        }
        _ if same(meant, got) => {}
        _ => out.push(at.to_string()),
    }
}

/// The subschema of a member, where the schema says it plainly.
fn child(schema: &Value, key: &str) -> Value {
    schema
        .get("properties")
        .and_then(|p| p.get(key))
        .cloned()
        .unwrap_or(Value::Bool(true))
}

/// Checks the drawn calls of every tool through one conversion.
fn check(
    label: &str,
    catalog: &Catalog,
    conv: &Conversion,
    drawn: &[(String, Vec<Value>)],
) -> Outcome {
    let mut out = Outcome::default();
    let d = conv.dialect;
    let declared: Vec<(String, Option<Value>, bool)> = common::declarations(conv);
    let mut calls: Vec<(String, Value)> = Vec::new();
    let mut meant: Vec<(String, Value)> = Vec::new();
    for (mcp, samples) in drawn {
        let Some(tool) = catalog.get(mcp) else {
            continue;
        };
        let Some(name) = conv.names.dialect_name(mcp) else {
            // left out of the conversion: the report says so
            assert!(
                conv.report.iter().any(|e| e.tool.as_deref() == Some(mcp.as_str())
                    && e.action == Action::Skipped),
                "{label} {d}: {mcp} neither converted nor reported skipped"
            );
            continue;
        };
        let schema = declared
            .iter()
            .find(|(n, _, _)| n == name)
            .and_then(|(_, s, _)| s.clone())
            // Gemini: a tool without parameters is called with none
            .unwrap_or(json!({"type": "object", "additionalProperties": false}));
        let base = format!("{}/inputSchema", tool.pointer());
        let narrowed = coverage::narrowings(&conv.report, mcp, &base);
        let as_json_schema = back::json_schema(d, &schema);
        let encoder = encode::Encoder {
            dialect: d,
            root: &schema,
        };
        for args in samples {
            out.calls += 1;
            let sent = encoder.encode(args, &schema, 0);
            let refused = validate(&as_json_schema, &sent);
            if !refused.is_empty() {
                if refused
                    .iter()
                    .all(|e| coverage::covers(&narrowed, &e.pointer))
                {
                    out.reported += 1;
                } else {
                    out.losses.push(format!(
                        "{label} {d} {mcp}: the declared schema refuses {sent} (meant {args}): {:?}",
                        refused.iter().map(|e| format!("{} {}", e.pointer, e.message)).collect::<Vec<_>>()
                    ));
                }
                continue;
            }
            calls.push((name.to_string(), sent));
            meant.push((mcp.clone(), args.clone()));
        }
    }
    // one response holds at most MAX_CALLS calls: send them in turns
    let mut read = Vec::with_capacity(calls.len());
    for chunk in calls.chunks(MAX_CALLS) {
        let turn = parse_calls(d, &common::response(d, chunk), &conv.names, Some(catalog))
            .unwrap_or_else(|e| panic!("{label} {d}: the response is not read: {e}"));
        assert_eq!(turn.calls.len(), chunk.len(), "{label} {d}");
        read.extend(turn.calls);
    }
    for ((call, (mcp, args)), (_, sent)) in read.iter().zip(&meant).zip(&calls) {
        let Some(tool) = catalog.get(mcp) else {
            continue;
        };
        let base = format!("{}/inputSchema", tool.pointer());
        let narrowed = coverage::narrowings(&conv.report, mcp, &base);
        if let Some(err) = &call.error {
            out.losses.push(format!(
                "{label} {d} {mcp}: the call {sent} (meant {args}) is refused when read: {err}"
            ));
            continue;
        }
        let mut diff = Vec::new();
        differences(args, &call.arguments, tool.input_schema(), "", &mut diff);
        if diff.is_empty() {
            continue;
        }
        if diff.iter().all(|p| coverage::covers(&narrowed, p)) {
            out.reported += 1;
        } else {
            out.losses.push(format!(
                "{label} {d} {mcp}: meant {args}, sent {sent}, read back {} (differs at {diff:?})",
                call.arguments
            ));
        }
    }
    out
}

#[test]
fn every_valid_call_survives_every_dialect_or_is_reported() {
    let mut losses = Vec::new();
    let (mut calls, mut reported, mut tools, mut without) = (0, 0, 0, Vec::new());
    let mut inputs = common::inputs();
    inputs.push((SUITE.into(), suite_catalog()));
    for (label, bytes) in inputs {
        let catalog = Catalog::parse(&bytes).unwrap_or_else(|e| panic!("{label}: {e}"));
        let drawn = draw(&label, &catalog);
        for (name, samples) in &drawn {
            tools += 1;
            // many of the suite's schemas admit nothing the generator draws
            if samples.is_empty() && label != SUITE {
                without.push(format!("{label}/{name}"));
            }
        }
        for (d, strict) in common::variants() {
            let conv = convert(&catalog, d, &Options::strict(strict));
            let o = check(&label, &catalog, &conv, &drawn);
            calls += o.calls;
            reported += o.reported;
            losses.extend(o.losses.into_iter().map(|l| {
                if strict {
                    l.replacen(&format!(" {d} "), &format!(" {d}+strict "), 1)
                } else {
                    l
                }
            }));
        }
    }
    eprintln!(
        "{tools} tools, {calls} calls checked, {reported} refused or changed where the report names the narrowing, {} unreported; no arguments drawn for {without:?}",
        losses.len()
    );
    assert!(
        losses.is_empty(),
        "{} valid calls lost without a report entry:\n{}",
        losses.len(),
        losses
            .iter()
            .take(
                std::env::var("FIDELITY_SHOW")
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(40)
            )
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // the generator reaches (nearly) every tool
    assert!(
        without.len() * 50 <= tools,
        "no valid arguments drawn for {} of {tools} tools: {without:?}",
        without.len()
    );
    assert!(calls > 40_000, "{calls}");
}

/// The label of the JSON Schema Test Suite's catalog.
const SUITE: &str = "json-schema-test-suite";

/// One tool per schema of the JSON Schema Test Suite (draft 2020-12):
/// adversarial schemas, for shapes the corpus lacks.
fn suite_catalog() -> Vec<u8> {
    let dir = common::corpus_dir().join("../json-schema-test-suite/draft2020-12");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the JSON Schema Test Suite beside the corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut tools = Vec::new();
    for path in files {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().replace('-', "_"))
            .unwrap_or_default();
        let groups: Value =
            serde_json::from_slice(&std::fs::read(&path).expect("suite file")).expect("suite JSON");
        for (i, g) in groups.as_array().into_iter().flatten().enumerate() {
            tools.push(json!({"name": format!("{stem}_{i}"), "description": g["description"], "inputSchema": g["schema"]}));
        }
    }
    serde_json::to_vec(&tools).expect("json")
}

#[test]
fn a_narrowing_the_report_leaves_out_is_found() {
    // GitHub projects_write: updated_field.value takes any JSON value,
    // Gemini cannot offer objects; without its report entries the loss shows
    let catalog = Catalog::parse(&common::corpus("github-mcp-server.tools-list.json")).unwrap();
    let tool = catalog.get("projects_write").unwrap().clone();
    let one = Catalog::from_tools(vec![tool]);
    let value = json!({"method": "update_project_item", "owner": "o", "project_number": 1,
        "updated_field": {"id": 7, "value": {"start": "2025-01-31"}}});
    assert!(validate(one.tools()[0].input_schema(), &value).is_empty());
    let drawn = vec![("projects_write".to_string(), vec![value])];
    let mut conv = convert(&one, Dialect::Gemini, &Options::default());
    assert!(check("t", &one, &conv, &drawn).losses.is_empty());
    conv.report.retain(|e| e.action != Action::Narrowed);
    assert_eq!(check("t", &one, &conv, &drawn).losses.len(), 1);
}

#[test]
fn open_maps_round_trip_through_gemini_as_json_text() {
    // ha-mcp ha_call_service: data is {type: object, additionalProperties: true} or null
    let catalog = Catalog::parse(&common::corpus("ha-mcp-8.7.0.tools-list.json")).unwrap();
    let tool = catalog.get("ha_call_service").unwrap().clone();
    let one = Catalog::from_tools(vec![tool]);
    let args = json!({"domain": "climate", "service": "set_temperature",
        "entity_id": "climate.living_room", "data": {"temperature": 21.5, "hvac_mode": "heat", "nested": {"a": [1, null]}}});
    let drawn = vec![("ha_call_service".to_string(), vec![args.clone()])];
    let conv = convert(&one, Dialect::Gemini, &Options::default());
    let o = check("t", &one, &conv, &drawn);
    assert!(o.losses.is_empty(), "{:?}", o.losses);
    assert_eq!((o.calls, o.reported), (1, 0));
    // and the text really is what went through
    let data = &conv.tools[0]["functionDeclarations"][0]["parameters"]["properties"]["data"];
    assert_eq!(data["type"], "STRING");
    let sent = json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {
        "name": "ha_call_service", "args": {"domain": "climate", "service": "set_temperature",
        "entity_id": "climate.living_room", "data": args["data"].to_string()}}}]}}]});
    let turn = parse_calls(Dialect::Gemini, &sent, &conv.names, Some(&one)).unwrap();
    assert_eq!(turn.calls[0].arguments, args);
}
