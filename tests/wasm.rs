//! The core compiled to wasm32 and run under Node (wasm-bindgen-test):
//! conversion of real catalogs and bad input, where a panic would trap and
//! a deep recursion would overflow the small wasm stack.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(target_arch = "wasm32")]

use mcp_switchboard::{convert, lint, Catalog, Dialect, ErrorKind, Options};
use wasm_bindgen_test::wasm_bindgen_test;

const HOME_ASSISTANT: &[u8] =
    include_bytes!("../../shared/corpus/home-assistant-2025.4.tools-list.json");
const HOMEY: &[u8] =
    include_bytes!("../../shared/corpus/homey-ai-chat-control-2.2.1.tools-list.json");
const GITHUB: &[u8] = include_bytes!("../../shared/corpus/github-mcp-server.tools-list.json");
const EDGE: &[u8] = include_bytes!("../../shared/corpus/schema-edge-cases.json");

#[wasm_bindgen_test]
fn real_catalogs_convert_to_every_dialect() {
    for bytes in [HOME_ASSISTANT, HOMEY, GITHUB] {
        let catalog = Catalog::parse(bytes).expect("catalog");
        for d in Dialect::ALL {
            for strict in [false, true] {
                let c = convert(&catalog, d, &Options::strict(strict));
                assert_eq!(c.names.len(), catalog.len());
            }
        }
        let report = lint(&catalog);
        assert_eq!(report.tools.len(), catalog.len());
    }
}

#[wasm_bindgen_test]
fn edge_cases_convert() {
    let cases: serde_json::Value = serde_json::from_slice(EDGE).expect("edge cases");
    let tools: Vec<serde_json::Value> = cases
        .as_object()
        .expect("object")
        .iter()
        .map(|(k, v)| serde_json::json!({"name": k, "description": "edge", "inputSchema": v}))
        .collect();
    let catalog = Catalog::parse(&serde_json::to_vec(&tools).expect("json")).expect("catalog");
    let c = convert(&catalog, Dialect::Gemini, &Options::default());
    assert_eq!(c.names.len(), 15);
}

#[wasm_bindgen_test]
fn deep_nesting_is_an_error_not_a_trap() {
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    assert_eq!(
        Catalog::parse(deep.as_bytes()).unwrap_err().kind(),
        ErrorKind::Json
    );
    let mut schema = serde_json::json!({"type": "string"});
    for _ in 0..60 {
        schema = serde_json::json!({"type": "object", "properties": {"a": schema}});
    }
    let doc = serde_json::json!([{"name": "deep", "inputSchema": schema}]);
    let catalog = Catalog::parse(doc.to_string().as_bytes()).expect("parses");
    for d in Dialect::ALL {
        let _ = convert(&catalog, d, &Options::strict(true));
    }
}

#[wasm_bindgen_test]
fn bad_bytes_and_refs() {
    assert_eq!(
        Catalog::parse(b"[{\"name\": \"\xff\"}]")
            .unwrap_err()
            .kind(),
        ErrorKind::Json
    );
    let cyclic = br##"[{"name": "c", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/A"}, "B": {"$ref": "#/nowhere"}}}}]"##;
    let catalog = Catalog::parse(cyclic).expect("parses");
    for d in Dialect::ALL {
        let _ = convert(&catalog, d, &Options::default());
    }
    let values: Vec<u32> = (0..100_000).collect();
    let doc = serde_json::json!([{"name": "e", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer", "enum": values}}}}]);
    let catalog = Catalog::parse(doc.to_string().as_bytes()).expect("parses");
    let c = convert(&catalog, Dialect::Gemini, &Options::default());
    assert_eq!(c.names.len(), 1);
}

#[wasm_bindgen_test]
fn calls_and_validation_in_wasm() {
    use mcp_switchboard::{format_results, parse_calls, validate_arguments};
    let catalog = Catalog::parse(HOMEY).expect("catalog");
    let conv = convert(&catalog, Dialect::OpenAi, &Options::strict(true));
    let response = serde_json::json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "set_light", "arguments": "{\"deviceId\": \"x\", \"state\": \"on\", \"dim\": null}"}},
        {"id": "b", "type": "function", "function": {"name": "set_light", "arguments": "{\"deviceId\": "}}
    ]}}]});
    let turn = parse_calls(Dialect::OpenAi, &response, &conv.names, Some(&catalog)).expect("turn");
    assert_eq!(
        turn.calls[0].arguments,
        serde_json::json!({"deviceId": "x", "state": "on"})
    );
    assert!(turn.calls[1].error.is_some());
    let out = format_results(
        Dialect::OpenAi,
        &turn,
        &serde_json::json!([{"content": []}, null]),
    )
    .expect("results");
    assert_eq!(out.len(), 2);
    // the deepest arguments JSON text can carry (serde_json stops at 128
    // levels) and 10 MB strings do not trap on the small wasm stack
    let deep_text = format!("{{\"a\": {}1{}}}", "[".repeat(126), "]".repeat(126));
    let deep: serde_json::Value = serde_json::from_str(&deep_text).expect("127 levels parse");
    let v = validate_arguments(
        &serde_json::json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "array"}}}}),
        &deep,
    );
    let _ = v.message();
    let big = "x".repeat(10 * 1024 * 1024);
    let v = validate_arguments(
        &serde_json::json!({"type": "object", "properties": {"s": {"type": "string", "maxLength": 10, "pattern": "^a+$"}}}),
        &serde_json::json!({"s": big}),
    );
    assert!(!v.is_valid());
}

#[wasm_bindgen_test]
fn engine_in_wasm() {
    use mcp_switchboard::engine::{Engine, EngineConfig, Output};
    let mut e = Engine::new(
        Catalog::parse(HOMEY).expect("catalog"),
        EngineConfig::default(),
    );
    assert!(e.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_states","arguments":{}}}"#));
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!("an invocation")
    };
    e.complete(
        inv.id,
        &serde_json::json!({"content": [{"type": "text", "text": "ok"}]}),
    )
    .expect("complete");
    assert!(matches!(e.poll_output(), Some(Output::Reply(_))));
    // an invalid message is owed its error
    assert!(e.handle(&"[".repeat(10_000)));
    assert!(matches!(e.poll_output(), Some(Output::Reply(r)) if r.message.contains("-32700")));
}

/// Pages of linear memory the module has grown to (it never shrinks).
fn memory_mb() -> usize {
    core::arch::wasm32::memory_size(0) * 64 / 1024
}

#[wasm_bindgen_test]
fn hostile_input_grows_memory_by_a_bounded_amount() {
    use mcp_switchboard::{client::SseParser, parse_calls, NameMap};
    let names = NameMap::from_json(&serde_json::json!({"t": "t"})).expect("names");
    // ten megabytes of `{}` once grew the module to almost a gigabyte
    let before = memory_mb();
    let text = "{}".repeat(5_000_000);
    let turn = parse_calls(
        Dialect::Prompted,
        &serde_json::Value::String(text),
        &names,
        None,
    )
    .expect("read");
    assert!(turn.calls.is_empty());
    drop(turn);
    // the text, its two copies in the turn, and a bounded number of values
    assert!(
        memory_mb() <= before + 64,
        "{before} MB → {} MB",
        memory_mb()
    );
    // an 8 MiB event stream of comment lines is read in one pass
    let body = ": c\n".repeat(2 << 20);
    let mut p = SseParser::new();
    assert!(p.push(&body).expect("parsed").is_empty());
    // a kilobyte of references to references stays a small conversion
    let mut defs = serde_json::Map::new();
    for i in 0..14 {
        defs.insert(
            format!("d{i}"),
            serde_json::json!({"type": "object", "properties": {
                "l": {"$ref": format!("#/$defs/d{}", i + 1)}, "r": {"$ref": format!("#/$defs/d{}", i + 1)}}}),
        );
    }
    let doc = serde_json::json!([{"name": "f", "inputSchema": {"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/d0"}}}}]);
    let catalog = Catalog::parse(doc.to_string().as_bytes()).expect("parses");
    for d in Dialect::ALL {
        assert!(
            convert(&catalog, d, &Options::default())
                .to_json_string()
                .len()
                < 200_000
        );
    }
    assert!(
        memory_mb() <= before + 96,
        "{before} MB → {} MB",
        memory_mb()
    );
}
