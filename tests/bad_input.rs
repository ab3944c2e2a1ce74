//! Bad input gets a clear error or a report entry, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_switchboard::{convert, lint, Action, Catalog, Dialect, ErrorKind, Options};
use serde_json::{json, Value};

fn all_dialects(catalog: &Catalog) {
    for d in Dialect::ALL {
        for strict in [false, true] {
            let c = convert(catalog, d, &Options::strict(strict));
            // the output is always valid JSON
            let text = serde_json::to_string(&c.to_json()).expect("serialisable");
            assert!(text.len() > 2);
        }
    }
    let _ = lint(catalog);
}

fn tool(schema: Value) -> Vec<u8> {
    serde_json::to_vec(&json!([{"name": "t", "description": "a test tool", "inputSchema": schema}]))
        .unwrap()
}

#[test]
fn malformed_json_is_an_error_with_position() {
    for bad in [
        &b"{"[..],
        b"[1,]",
        b"{\"tools\": [}",
        b"nul",
        b"\"unterminated",
    ] {
        let e = Catalog::parse(bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Json, "{e}");
        assert!(e.message().contains("line"), "{e}");
    }
}

#[test]
fn non_utf8_bytes_are_an_error() {
    let mut bytes = br#"[{"name": "t", "description": ""#.to_vec();
    bytes.extend_from_slice(&[0xC3, 0x28, 0xFF]);
    bytes.extend_from_slice(br#""}]"#);
    let e = Catalog::parse(&bytes).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Json);
}

#[test]
fn schemas_that_are_not_objects_skip_the_tool() {
    for schema in [
        json!("string"),
        json!(42),
        json!(null),
        json!([1, 2]),
        json!(true),
    ] {
        let c = Catalog::parse(&tool(schema.clone())).unwrap();
        assert!(c.is_empty(), "{schema}");
        assert_eq!(c.report()[0].action, Action::Skipped);
        assert_eq!(c.report()[0].pointer, "/0/inputSchema");
    }
    // nested non-schemas are reported and read as "any value"
    let c = Catalog::parse(&tool(
        json!({"type": "object", "properties": {"a": 5, "b": "x"}}),
    ))
    .unwrap();
    let out = convert(&c, Dialect::Gemini, &Options::default());
    assert!(out
        .report
        .iter()
        .any(|e| e.pointer == "/0/inputSchema/properties/a" && e.action == Action::Dropped));
    all_dialects(&c);
}

#[test]
fn nesting_ten_thousand_deep_is_an_error() {
    let mut s = String::new();
    for _ in 0..10_000 {
        s.push_str("{\"type\":\"object\",\"properties\":{\"a\":");
    }
    s.push_str("{}");
    for _ in 0..10_000 {
        s.push_str("}}");
    }
    let doc = format!("[{{\"name\":\"t\",\"inputSchema\":{s}}}]");
    let e = Catalog::parse(doc.as_bytes()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Json);
    assert!(e.message().contains("recursion limit"), "{e}");
}

#[test]
fn deep_but_parseable_schemas_are_cut_with_a_report() {
    let mut schema = json!({"type": "string"});
    for _ in 0..60 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    let c = Catalog::parse(&tool(schema)).unwrap();
    let out = convert(&c, Dialect::Gemini, &Options::default());
    assert!(out.report.iter().any(|e| e.detail.contains("deeper than")));
    all_dialects(&c);
}

#[test]
fn cyclic_and_dangling_refs() {
    let cases = [
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/properties/a"}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "#"}}}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}, "b": {"$ref": "https://example.com/s.json"}, "c": {"$ref": "#/$defs/%zz"}}}),
        json!({"type": "object", "properties": {"a": {"allOf": [{"$ref": "#/properties/a"}]}}}),
    ];
    for schema in cases {
        let c = Catalog::parse(&tool(schema.clone())).unwrap();
        all_dialects(&c);
    }
    let c = Catalog::parse(&tool(
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}),
    ))
    .unwrap();
    let out = convert(&c, Dialect::OpenAi, &Options::default());
    assert!(out
        .report
        .iter()
        .any(|e| e.detail.contains("points to nothing")));
}

#[test]
fn huge_enums_convert_and_strict_falls_back() {
    let values: Vec<Value> = (0..100_000).map(|i| json!(format!("v{i}"))).collect();
    let c = Catalog::parse(&tool(json!({"type": "object", "properties": {"e": {"type": "string", "enum": values}}, "required": ["e"]}))).unwrap();
    let out = convert(&c, Dialect::Gemini, &Options::default());
    assert_eq!(
        out.tools[0]["functionDeclarations"][0]["parameters"]["properties"]["e"]["enum"]
            .as_array()
            .unwrap()
            .len(),
        100_000
    );
    let strict = convert(&c, Dialect::OpenAi, &Options::strict(true));
    assert!(strict
        .report
        .iter()
        .any(|e| e.action == Action::NotStrict && e.detail.contains("enum values")));
    let ints: Vec<Value> = (0..100_000).map(|i| json!(i)).collect();
    let c = Catalog::parse(&tool(
        json!({"type": "object", "properties": {"e": {"type": "integer", "enum": ints}}}),
    ))
    .unwrap();
    let out = convert(&c, Dialect::Gemini, &Options::default());
    assert_eq!(
        out.tools[0]["functionDeclarations"][0]["parameters"]["properties"]["e"]["enum"][99_999],
        "99999"
    );
}

#[test]
fn a_fifty_megabyte_catalog_converts() {
    let description = "x".repeat(2_000);
    let tools: Vec<Value> = (0..25_000)
        .map(|i| json!({"name": format!("tool_{i}"), "description": description, "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}))
        .collect();
    let bytes = serde_json::to_vec(&json!({"tools": tools})).unwrap();
    assert!(bytes.len() > 50_000_000);
    let c = Catalog::parse(&bytes).unwrap();
    assert_eq!(c.len(), 25_000);
    let out = convert(&c, Dialect::OpenAi, &Options::default());
    assert_eq!(out.tools.len(), 25_000);
}

#[test]
fn odd_but_valid_shapes() {
    let weird = [
        json!({"type": "object", "properties": {"": {"type": "string"}, "a/b~c": {"type": "integer"}}}),
        json!({"type": "object", "properties": {"x": {"type": []}}}),
        json!({"type": "object", "properties": {"x": {"anyOf": []}}}),
        json!({"type": "object", "properties": {"x": {"enum": []}}}),
        json!({"type": "object", "properties": {"x": {"allOf": "nope", "oneOf": 3, "anyOf": {}}}}),
        json!({"type": "object", "properties": {"x": {"type": "array", "items": [true, false], "additionalItems": false}}}),
        json!({"type": "object", "properties": {"x": {"exclusiveMinimum": "1", "minimum": 1e308, "maximum": -1e308, "multipleOf": 0}}}),
        json!({"type": "object", "properties": {"x": {"format": 5, "pattern": "(", "required": "a"}}}),
        json!({"type": "object", "required": ["a", "a", 1], "properties": {"a": false}}),
        json!({"type": "object", "properties": "nope"}),
        json!({"type": "object", "properties": {"x": {"type": "integer", "exclusiveMinimum": 1.5, "exclusiveMaximum": 1e300}}}),
    ];
    for schema in weird {
        let c = Catalog::parse(&tool(schema.clone())).unwrap();
        all_dialects(&c);
    }
}

#[test]
fn a_json_rpc_error_is_named() {
    let e = Catalog::parse(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}"#)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Upstream);
    assert!(e.to_string().contains("-32603") && e.to_string().contains("boom"));
}
