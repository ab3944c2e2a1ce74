//! The conversion's fast paths against the general ones: every catalog of
//! the corpus (and the schema edge cases), in every dialect, with and
//! without strict mode, gives the same bytes both ways.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use mcp_switchboard::{convert, convert_json, convert_text, Catalog, Dialect, Options};
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

/// A catalog's text written other ways: compact, pretty, wrapped in a
/// JSON-RPC response, and with every string's non-ASCII characters and
/// slashes written as escapes.
fn text_variants(bytes: &[u8]) -> Vec<(&'static str, String)> {
    let mut out = vec![("as given", String::from_utf8_lossy(bytes).into_owned())];
    let Ok(value) = serde_json::from_slice::<Value>(bytes) else {
        return out;
    };
    let compact = value.to_string();
    let mut escaped = String::with_capacity(compact.len());
    let mut in_string = false;
    let mut backslash = false;
    for c in compact.chars() {
        match c {
            '"' if !backslash => in_string = !in_string,
            '/' if in_string && !backslash => {
                escaped.push_str("\\/");
                continue;
            }
            c if in_string && !c.is_ascii() => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    escaped.push_str(&format!("\\u{u:04x}"));
                }
                continue;
            }
            _ => {}
        }
        backslash = c == '\\' && !backslash;
        escaped.push(c);
    }
    out.push(("escaped", escaped));
    out.push((
        "pretty",
        serde_json::to_string_pretty(&value).unwrap_or_default(),
    ));
    if value.get("result").is_none() && value.get("tools").is_some() {
        out.push((
            "response",
            json!({"jsonrpc": "2.0", "id": 7, "result": value}).to_string(),
        ));
    }
    out.push(("compact", compact));
    out
}

/// Schemas near the edge of what the text path takes, each as a property:
/// it must hand each one it is not sure of to the general path.
fn near_plain_catalog() -> Vec<u8> {
    let nodes = [
        json!({"type": "string"}),
        json!({"type": "string", "description": "  padded  "}),
        json!({"type": "string", "description": " \n "}),
        json!({"type": "string", "description": ""}),
        json!({"type": "string", "title": ""}),
        json!({"type": "string", "title": "T", "description": "d"}),
        json!({"type": "string", "enum": []}),
        json!({"type": "string", "enum": ["a", "a"]}),
        json!({"type": "string", "enum": ["a", 1]}),
        json!({"type": "integer", "enum": [1, 2]}),
        json!({"enum": ["a", "b"]}),
        json!({"type": "string", "enum": ["a\"b", "c/d", "é"]}),
        json!({"type": "string", "default": "x", "enum": ["x", "y"]}),
        json!({"type": "string", "default": 3}),
        json!({"type": "number", "default": "3"}),
        json!({"type": "integer", "default": 3.5}),
        json!({"type": "boolean", "default": true}),
        json!({"type": "boolean", "default": null}),
        json!({"type": "integer", "minimum": -5, "maximum": 5}),
        json!({"type": "integer", "minimum": 10, "maximum": 5}),
        json!({"type": "number", "minimum": 0.5}),
        json!({"type": "number", "maximum": 1e3}),
        json!({"type": "string", "minLength": 1, "maxLength": 0}),
        json!({"type": "string", "minimum": 1}),
        json!({"type": "integer", "minLength": 1}),
        json!({"type": "array"}),
        json!({"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 1}),
        json!({"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}),
        json!({"type": "array", "items": [{"type": "string"}]}),
        json!({"type": "array", "items": {}}),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": []}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "a"]}),
        json!({"type": "object", "properties": {"a/b~c": {"type": "string"}}, "required": ["a/b~c"]}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
        json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": false}}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}}),
        json!({"type": "string", "additionalProperties": false}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "$schema": "http://json-schema.org/draft-07/schema#"}),
        json!({"type": "array", "items": {"type": "object", "properties": {"a~b/c": {"type": "string"}}, "additionalProperties": false}}),
        json!({"type": "null"}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "A"}),
        json!({"anyOf": [{"type": "integer", "minimum": 1, "maximum": 9}, {"type": "null"}], "description": "n"}),
        json!({"anyOf": [{"maxLength": 5, "type": "string"}, {"type": "null"}], "default": "x"}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": 5}),
        json!({"anyOf": [{"type": "null"}, {"type": "string"}]}),
        json!({"anyOf": [{"type": "string", "description": "inner"}, {"type": "null"}], "description": "outer"}),
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "boolean"}, {"type": "null", "description": "none"}]}),
        json!({"type": "string", "anyOf": [{"type": "string"}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}], "description": "x"}),
        json!({"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}),
        json!({"anyOf": [{"type": "string"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "default": "a"}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}, {"type": "array", "items": {"type": "integer"}}, {"type": "boolean"}]}),
        json!({"anyOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "boolean"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "minimum": 2}),
        json!({"anyOf": []}),
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}], "title": "B"}),
        json!({"title": "B", "oneOf": [{"type": "string", "description": "s"}, {"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"], "additionalProperties": false}]}),
        json!({"oneOf": [{"type": "string"}, {"type": "null"}]}),
        json!({"oneOf": [{"type": "string"}, {"type": "string"}]}),
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}], "anyOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"type": "string", "oneOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"type": "array", "items": {"oneOf": [{"description": "Label", "type": "string"}, {"type": "object", "properties": {"n": {"type": "string", "enum": ["a"]}, "m": {"oneOf": [{"type": "boolean"}, {"type": "number"}]}}, "required": ["n"]}]}}),
        json!({"anyOf": {"type": "string"}}),
        json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}}),
        json!({"type": ["string", "null"]}),
        json!({"type": "string", "format": "date-time"}),
        json!({"type": "string", "x-extra": 1}),
        json!(true),
        json!({}),
        // untyped values
        json!({"description": "Any"}),
        json!({"title": "T"}),
        json!({"description": "Any value!", "title": "T"}),
        json!({"title": "T", "description": "ends with a colon:"}),
        json!({"description": "  padded  "}),
        json!({"description": "with \"quotes\", a / and é"}),
        json!({"description": "Any", "default": 3}),
        json!({"description": "Any", "examples": [1]}),
        json!({"type": "array", "items": {"description": "d"}}),
        json!({"anyOf": [{}, {"type": "string"}]}),
        // type arrays
        json!({"type": ["string", "number", "boolean"], "description": "V."}),
        json!({"title": "T", "type": ["integer", "string"]}),
        json!({"type": ["string", "number"], "description": "d", "title": "t"}),
        json!({"type": ["string", "string"]}),
        json!({"type": ["string"]}),
        json!({"type": ["number", "integer"]}),
        json!({"type": ["string", "object"]}),
        json!({"type": ["string", "array"]}),
        json!({"type": ["string", "number"], "enum": ["a", 1]}),
        json!({"type": ["string", "number"], "default": "a"}),
        json!({"type": ["string", "number", "null"]}),
        json!({"type": [], "description": "none"}),
        json!({"anyOf": [{"type": ["string", "number"]}, {"type": "boolean"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": ["string", "number"]}}}]}),
        json!({"type": "array", "items": {"type": ["integer", "boolean"]}}),
        // objects with free keys
        json!({"type": "object", "properties": {}, "description": "In."}),
        json!({"type": "object", "description": "In"}),
        json!({"properties": {}, "type": "object"}),
        json!({"type": "object", "properties": {}, "title": "T"}),
        json!({"description": "In", "properties": {}, "type": "object", "title": "T"}),
        json!({"description": "In \"x\" é  ", "type": "object"}),
        json!({"type": "object", "properties": {}, "required": []}),
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        json!({"type": "object", "additionalProperties": {"type": "integer"}}),
        json!({"type": "array", "items": {"type": "object"}}),
        json!({"type": "object", "properties": {"m": {"type": "object", "description": "M."}, "n": {"type": "string"}}, "required": ["n"]}),
        json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": "object"}}}]}),
        json!({"anyOf": [{"type": "object"}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "object"}, {"type": "string"}]}),
        json!({"oneOf": [{"type": "object", "properties": {"m": {"type": "object"}}}, {"type": "object", "properties": {"n": {"type": "string"}}}]}),
        // a type beside a union, and unions of objects
        json!({"description": "U.", "oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}, {"type": "object", "properties": {"b": {"type": "integer"}}, "additionalProperties": false}], "type": "object"}),
        json!({"type": "object", "description": "d", "oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "integer"}}}]}),
        json!({"type": "object", "anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "integer"}}}]}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "integer"}}}], "type": "object", "title": "x"}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"a": {"type": "string"}}}]}),
        json!({"type": "object", "oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "string"}]}),
        json!({"type": "string", "anyOf": [{"type": "string", "maxLength": 3}, {"type": "string", "minLength": 5}]}),
        json!({"type": "integer", "anyOf": [{"type": "integer"}, {"type": "number"}]}),
        json!({"type": "object", "anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}]}),
        json!({"type": "object", "anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "string"}}}], "default": {}}),
        json!({"type": "array", "items": {"oneOf": [{"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"], "additionalProperties": false}, {"type": "object", "properties": {"i": {"type": "integer"}}, "required": ["i"], "additionalProperties": false}], "type": "object"}}),
        json!({"oneOf": [{"type": "object", "properties": {"id": {"type": "integer"}, "value": {"description": "Any."}}, "required": ["id", "value"], "additionalProperties": false}, {"type": "object", "properties": {"name": {"type": "string"}, "value": {}}, "additionalProperties": false}], "type": "object", "description": "Either."}),
        // null branches as Python's generators write them
        json!({"anyOf": [{"enum": ["installed", "available"], "type": "string"}, {"type": "null"}], "default": null, "description": "Src."}),
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}], "default": "a"}),
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}], "default": "z"}),
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"], "maxLength": 3}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "string", "enum": ["a", "a"]}, {"type": "null"}]}),
        json!({"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "string"}, {"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "description": "F."}),
        json!({"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "string"}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "null"}, {"type": "string"}, {"type": "integer"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "integer"}], "default": "x"}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "integer"}], "default": null, "title": "T"}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "null"}, {"type": "string"}]}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}, {"type": "string"}, {"type": "null"}], "title": "T"}),
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}),
        json!({"type": "string", "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}),
        json!({"type": "object", "anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "string"}}}, {"type": "null"}]}),
        json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}}),
    ];
    let mut tools: Vec<Value> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            json!({"name": format!("edge_{i}"), "description": "An edge.",
                   "inputSchema": {"type": "object", "properties": {"p": n}}})
        })
        .collect();
    for (i, root) in [
        json!({"properties": {"a": {"type": "string"}}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "description": "root"}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "minimum": 1}),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "$schema": "https://json-schema.org/draft/2020-12/schema"}),
        json!({"type": "object", "properties": {}}),
        json!({"type": "object", "properties": {}, "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": false}),
        json!({"type": "object", "$schema": 7, "properties": {"a": {"type": "string"}}}),
        json!({"type": "object", "properties": {}, "required": ["a"]}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}]}),
        json!({"type": "object", "properties": {"a~/": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "b": {"type": "object", "properties": {"c": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": null}}, "additionalProperties": false}}, "additionalProperties": false}),
        json!({"type": "object", "additionalProperties": false, "properties": {"p": {"type": "object", "additionalProperties": false, "properties": {"q": {"type": "string"}}}, "r": {"type": "array", "items": {"type": "object", "additionalProperties": false, "properties": {"s": {"type": "integer", "minimum": 0}}}}}}),
    ]
    .into_iter()
    .enumerate()
    {
        tools.push(json!({"name": format!("root_{i}"), "description": "A root.", "inputSchema": root}));
    }
    tools.push(json!({"name": "no_description", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}));
    tools.push(json!({"name": "blank_description", "description": "  ", "title": "Titled", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}));
    tools.push(json!({"name": "with_output", "description": "Out.", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}, "outputSchema": {"type": "object"}}));
    tools.push(json!({"name": "with-a-very-long-name-that-goes-on-and-on-past-sixty-four-characters-for-gemini", "description": "Long.", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}));
    tools.push(json!({"name": "dotted.name", "description": "Dots.", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}));
    serde_json::to_vec(&json!({"tools": tools})).expect("JSON")
}

/// Texts the catalog reader takes otherwise, or refuses.
fn odd_documents() -> Vec<(String, Vec<u8>)> {
    let tool = r#"{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}"#;
    [
        format!(r#"{{"tools":[{tool},{tool}]}}"#),
        format!(r#"{{"tools":[{tool}],"tools":[]}}"#),
        format!(r#"{{"result":{{"tools":[{tool}]}},"tools":[]}}"#),
        format!(r#"{{"error":{{"code":1,"message":"no"}},"tools":[{tool}]}}"#),
        format!(r#"[{tool}]"#),
        tool.to_string(),
        format!(r#"{{"tools":[{tool}]}} {{"tools":[]}}"#),
        format!(r#"{{"tools":[{tool}]}} x"#),
        format!(r#"{{"tools":[{tool},]}}"#),
        r#"{"tools":[{"name":"t","name":"u","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]}"#.into(),
        r#"{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"string","type":"number"}}}}]}"#.into(),
        r#"{"tools":[{"name":"t","description":"d","inputSchema":{"type":"string"}}]}"#.into(),
        r#"{"tools":[{"name":"t","description":5,"inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]}"#.into(),
        r#"{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"string","description":"bad \x"}}}}]}"#.into(),
        r#"{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"integer","minimum":-0}}}}]}"#.into(),
        r#"{"tools":[]}"#.into(),
        r#"{"result":{"tools":[],"nextCursor":"c"}}"#.into(),
        format!(r#"{{"tools":[{}]}}"#, "[".repeat(130) + &"]".repeat(130)),
        format!(
            r#"{{"tools":[{{"name":"deep","description":"d","inputSchema":{{"type":"object","properties":{{"a":{}}}}}}}]}}"#,
            "{\"type\":\"array\",\"items\":".repeat(60) + "{\"type\":\"string\"}" + &"}".repeat(60)
        ),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, t)| (format!("odd {i}"), t.into_bytes()))
    .collect()
}

/// `convert_text`, which converts plain tools straight from the text,
/// gives what `Catalog::parse` and `convert_json` give (the same text, or
/// the same error) for every catalog of the corpus, the edge cases, the
/// JSON-Schema suite's schemas, schemas near the edge of what it takes
/// and documents of other shapes, each written several ways, in every
/// dialect, with and without strict mode.
#[test]
fn text_conversion_is_the_catalogs() {
    let mut all = common::inputs();
    all.extend(suite_catalogs());
    all.push(("skipping".into(), skipping_catalog()));
    all.push(("near plain".into(), near_plain_catalog()));
    all.extend(odd_documents());
    let mut compared = 0;
    for (name, bytes) in all {
        for (how, text) in text_variants(&bytes) {
            for dialect in Dialect::ALL {
                for options in [Options::strict(false), Options::strict(true)] {
                    let general = Catalog::parse(text.as_bytes())
                        .map(|c| convert_json(&c, dialect, &options));
                    let direct = convert_text(&text, dialect, &options);
                    match (&general, &direct) {
                        (Ok(a), Ok(b)) => {
                            assert!(
                                a == b,
                                "{name} ({how}) {dialect} {options:?}: the texts differ\n{}",
                                first_difference(a, b)
                            );
                            compared += a.len();
                        }
                        (Err(a), Err(b)) => {
                            assert_eq!(a.to_string(), b.to_string(), "{name} ({how})")
                        }
                        _ => panic!("{name} ({how}) {dialect}: {general:?} against {direct:?}"),
                    }
                }
            }
        }
    }
    assert!(compared > 50_000_000, "{compared} bytes compared");
}

/// Where two texts part, with some text around it.
fn first_difference(a: &str, b: &str) -> String {
    let i = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = i.saturating_sub(200);
    format!(
        "general: …{}\ntext:    …{}",
        a.get(from..(i + 200).min(a.len())).unwrap_or("?"),
        b.get(from..(i + 200).min(b.len())).unwrap_or("?")
    )
}
