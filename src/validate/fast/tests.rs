//! The quick check against the general path: whatever it calls valid as
//! sent, the general path calls valid, with no coercions and the
//! arguments unchanged; and it does answer for plain tools.

use serde_json::{json, Value};

use crate::validate::eval::Evaluator;
use crate::validate::quick_validation;
use crate::validate_arguments;

/// `text` through both: the quick answer (edits and errors), checked to
/// be exactly the general one (arguments, coercions and errors in order,
/// message). Whether it answered valid.
fn agree(schema: &Value, text: &str) -> bool {
    let mut ev = Evaluator::new(schema);
    let quick = ev.quick(text);
    assert_eq!(
        ev.valid_as_is(text),
        quick
            .as_ref()
            .is_some_and(|q| q.edits.is_empty() && q.errors.is_empty()),
        "{text}"
    );
    let Some(q) = quick else { return false };
    let args: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let want = validate_arguments(schema, &args);
    let got = quick_validation(text, &q).unwrap_or_else(|| panic!("{text}: {q:?}"));
    assert_eq!(got, want, "quick and general differ: {text}");
    assert_eq!(got.message(), want.message(), "{text}");
    if q.edits.is_empty() {
        assert_eq!(want.arguments, args, "{text}");
    }
    q.errors.is_empty()
}

/// Whether the quick check answers `text` valid with edits (and agrees).
fn edits_agree(schema: &Value, text: &str) -> bool {
    agree(schema, text)
        && Evaluator::new(schema)
            .quick(text)
            .is_some_and(|q| !q.edits.is_empty())
}

/// Whether the quick check answers `text` with errors (and agrees).
fn errors_agree(schema: &Value, text: &str) -> bool {
    let answered = Evaluator::new(schema)
        .quick(text)
        .is_some_and(|q| !q.errors.is_empty());
    // agree() checks the answer, whatever it is
    let valid = agree(schema, text);
    answered && !valid
}

/// A value the schema allows, as a model would send it.
fn sample(s: &Value, depth: usize) -> Value {
    if let Some(Value::String(first)) = s.get("enum").and_then(|e| e.get(0)) {
        return json!(first);
    }
    match s.get("type").and_then(Value::as_str) {
        Some("integer" | "number") => json!(42),
        Some("boolean") => json!(true),
        Some("null") => Value::Null,
        Some("array") => json!([sample(s.get("items").unwrap_or(&json!({})), depth + 1)]),
        Some("object") if depth < 6 => {
            let mut m = serde_json::Map::new();
            for (k, p) in s
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                m.insert(k.clone(), sample(p, depth + 1));
            }
            Value::Object(m)
        }
        Some("object") => json!({}),
        _ => json!("abc123"),
    }
}

/// Argument texts around one valid value: coercible, invalid and edge
/// cases, each as JSON.stringify would write it and some as other
/// writers do.
fn variants(s: &Value) -> Vec<String> {
    let valid = sample(s, 0);
    let mut out = vec![
        valid.to_string(),
        format!(" {} ", serde_json::to_string_pretty(&valid).unwrap()),
    ];
    let Value::Object(m) = &valid else { return out };
    let props = s.get("properties").and_then(Value::as_object);
    for (k, v) in m {
        let with = |x: Value| {
            let mut m = m.clone();
            m.insert(k.clone(), x);
            Value::Object(m).to_string()
        };
        let spelled = |raw: &str| {
            let mut text = String::from("{");
            for (i, (k2, v2)) in m.iter().enumerate() {
                if i > 0 {
                    text.push(',');
                }
                text.push_str(&json!(k2).to_string());
                text.push(':');
                text.push_str(&if k2 == k {
                    raw.to_string()
                } else {
                    v2.to_string()
                });
            }
            text.push('}');
            text
        };
        out.push(with(Value::Null));
        out.push(with(json!("42")));
        out.push(with(json!("true")));
        out.push(with(json!(80.0)));
        out.push(with(json!(80.5)));
        out.push(with(json!(-0)));
        out.push(with(json!(u64::MAX)));
        out.push(with(json!(i64::MIN)));
        out.push(with(json!("not-a-choice")));
        out.push(with(json!(["a", 1])));
        out.push(with(json!({"x": 1.5, "y": [null]})));
        out.push(with(json!("é \" \\ \u{1}")));
        out.push(with(json!([[[[["deep"]]]]])));
        for raw in [
            "-0",
            "0.0",
            "1e3",
            "1E3",
            "01",
            "123456789012345678",
            "1234567890123456789",
            "\"\\u0041bc\"",
            "\"\\ud800\"",
            "\"a\\nb\"",
            "tru",
            "nul",
            "[1,]",
            "{}",
            "[]",
        ] {
            out.push(spelled(raw));
        }
        // the same member twice, and a member the schema does not know
        let text = valid.to_string();
        let member = format!("{}:{}", json!(k), v);
        out.push(format!("{},{member}}}", &text[..text.len() - 1]));
        out.push(format!("{},\"zz_unknown\":1}}", &text[..text.len() - 1]));
        if let Some(p) = props.and_then(|p| p.get(k)) {
            out.push(with(sample(p, 0)));
        }
    }
    let mut less = m.clone();
    if let Some(first) = m.keys().next() {
        less.remove(first);
    }
    out.push(Value::Object(less).to_string());
    out.extend(["[]", "\"{}\"", "null", "{", "{}x", "", "{\"a\":1}{"].map(String::from));
    out
}

fn corpus_tools(file: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let catalog = crate::Catalog::parse(&bytes).unwrap();
    catalog
        .tools()
        .iter()
        .map(|t| t.input_schema().clone())
        .collect()
}

#[test]
fn every_corpus_tool_agrees_with_the_general_path() {
    let mut files: Vec<String> = std::fs::read_dir(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    )
    .unwrap()
    .filter_map(|e| e.ok()?.file_name().into_string().ok())
    .filter(|n| n.ends_with(".tools-list.json"))
    .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let (mut planned, mut quick, mut texts) = (0, 0, 0);
    for file in &files {
        for schema in corpus_tools(file) {
            let before = quick;
            for text in variants(&schema) {
                texts += 1;
                quick += usize::from(agree(&schema, &text));
            }
            planned += usize::from(quick > before);
        }
    }
    eprintln!("{planned} tools answered quickly, {quick} of {texts} texts");
    // the check answers for a good share of the calls, not never
    assert!(planned > 100, "{planned} tools answered quickly");
    assert!(quick > 2_000, "{quick} of {texts} texts answered");
}

#[test]
fn plain_homey_calls_are_answered() {
    for schema in corpus_tools("homey-ai-chat-control-2.2.1.tools-list.json") {
        let valid = sample(&schema, 0).to_string();
        assert!(agree(&schema, &valid), "{valid} against {schema}");
    }
}

#[test]
fn answers_only_what_is_plain() {
    let schema = json!({"type": "object", "properties": {
        "n": {"type": "integer"}, "s": {"type": "string", "enum": ["on", "off"]},
        "b": {"type": "boolean"}, "z": {"type": "null"},
        "a": {"type": "array", "items": {"type": "string"}},
        "o": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"],
              "additionalProperties": false}},
        "required": ["n"], "additionalProperties": false});
    for (text, want) in [
        (r#"{"n":1}"#, true),
        (
            r#" { "n" : -12 , "s" : "off", "b": false, "z": null, "a": [], "o": {"x": 0} } "#,
            true,
        ),
        (r#"{"n":1,"a":["x","y"],"o":{"x":3}}"#, true),
        (r#"{}"#, false),
        (r#"{"n":1.0}"#, false),
        (r#"{"n":1e2}"#, false),
        (r#"{"n":-0}"#, false),
        (r#"{"n":0,"a":[],"o":{"x":-7}}"#, true),
        (r#"{"n":00}"#, false),
        (r#"{"n":"1"}"#, true),
        (r#"{"n":1,"n":2}"#, false),
        (r#"{"n":1,"n":"2"}"#, false),
        (r#"{"n":1,"s":"dim"}"#, false),
        (r#"{"n":1,"s":"o\u006e"}"#, false),
        (r#"{"n":1,"x":1}"#, false),
        (r#"{"n":1,"o":{}}"#, false),
        (r#"{"n":1,"o":{"x":1,"y":2}}"#, false),
        // a single value for an array, null for an optional member: the
        // general path's coercions
        (r#"{"n":1,"a":"x"}"#, true),
        (r#"{"n":1,"a":"[x"}"#, false),
        (r#"{"n":1,"a":1}"#, false),
        (r#"{"b":null,"n":1,"a":null}"#, true),
        (r#"{"b":null , "a":null,"n":1}"#, true),
        // removals out of the declared order: the general path's order of
        // coercions is not the text's
        (r#"{"a":null,"n":1,"b":null}"#, false),
        (r#"{"n":1,"o":null}"#, true),
        (r#"{"n":null}"#, false),
        (r#"{"n":1,"z":0}"#, false),
        (r#"{"n":1}x"#, false),
        (r#"{"n":1,}"#, false),
        (r#"{"n" 1}"#, false),
        (r#"{"n":12345678901234567890}"#, false),
        (r#"{"n":1,"a":["x",1]}"#, false),
        ("", false),
    ] {
        assert_eq!(agree(&schema, text), want, "{text}");
    }
}

/// Numbers and booleans sent as strings, at the top and deep in arrays
/// and objects: edited exactly as the general path coerces them (the same
/// arguments, coercions in the same order, with the same pointers and
/// reasons), or left to it.
#[test]
fn strings_for_numbers_and_booleans_are_edited_as_the_general_path_coerces() {
    let schema = json!({"type": "object", "properties": {
        "z": {"type": "number"}, "n": {"type": "integer"}, "b": {"type": "boolean"},
        "a": {"type": "array", "items": {"type": "integer"}},
        "o": {"type": "object", "properties": {
            "y": {"type": "boolean"}, "x": {"type": "number"},
            "l": {"type": "array", "items": {"type": "object",
                "properties": {"q": {"type": "integer"}}}}}},
        "a/b~c": {"type": "integer"}, "é": {"type": "boolean"}},
        "required": ["n"]});
    for (text, edited) in [
        (r#"{"n":"1"}"#, true),
        (r#"{"z":"42","n":"-12","b":"TRUE"}"#, true),
        (r#"{"n":"7","z":3,"b":"false"}"#, true),
        (r#"{"n":1,"a":["1",2,"-3"]}"#, true),
        (
            r#"{"n":1,"o":{"y":"True","x":"5","l":[{"q":"1"},{"q":2},{"q":"3"}]}}"#,
            true,
        ),
        (r#"{"o":{"x":"1","l":[{"q":"9"}]},"n":2,"a":[4]}"#, true),
        (r#"{"n":"2","a":["4"],"o":{"x":"1","l":[{"q":"9"}]}}"#, true),
        (r#"{"n":"1","a/b~c":"2","é":"false"}"#, true),
        (r#" { "z" : "2" , "n" : "1" } "#, true),
        (r#"{"n":"123456789012345678"}"#, true),
        // members edited out of the schema's order: the general path
        // answers (it coerces in the declared order)
        (r#"{"n":"-12","z":"42","b":"TRUE"}"#, false),
        (r#"{"b":"false","n":"7","z":"-3"}"#, false),
        (r#"{"n":1,"o":{"x":"5","y":"True"}}"#, false),
        (r#"{"o":{"x":"1"},"n":"2"}"#, false),
        // beyond the check: the general path answers
        (r#"{"n":"-0"}"#, false),
        (r#"{"n":"1.0"}"#, false),
        (r#"{"n":"1e3"}"#, false),
        (r#"{"n":" 1"}"#, false),
        (r#"{"n":"01"}"#, false),
        (r#"{"n":"1234567890123456789"}"#, false),
        (r#"{"n":"\u0031"}"#, false),
        (r#"{"n":"one"}"#, false),
        (r#"{"n":""}"#, false),
        (r#"{"b":"yes","n":1}"#, false),
        (r#"{"b":" true","n":1}"#, false),
        (r#"{"n":"1","n":"2"}"#, false),
        (r#"{"n":1,"o":{"x":"1","x":"2"}}"#, false),
        (r#"{"n":"1","z":null}"#, false),
        (r#"{"n":"1","a":"2"}"#, false),
        (r#"{"n":"1","zz":"2"}"#, true),
    ] {
        assert_eq!(edits_agree(&schema, text), edited, "{text}");
    }
    // more declared or required members than the check reads: every call
    // is left to the general path (whose look-ups are hashed); 64 are read
    for (n, answered) in [(64, true), (65, false)] {
        let props: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "integer"})))
            .collect();
        let wide = json!({"type": "object", "properties": props});
        assert_eq!(edits_agree(&wide, r#"{"p3":"1"}"#), answered, "{n}");
        assert_eq!(agree(&wide, r#"{"p3":1}"#), answered, "{n}");
        let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let required = json!({"type": "object", "required": names});
        let all: serde_json::Map<String, Value> =
            (0..n).map(|i| (format!("p{i}"), json!(i))).collect();
        let text = Value::Object(all).to_string();
        assert_eq!(agree(&required, &text), answered, "{n}");
    }
}

/// Words where a choice, a number, an integer or a boolean is wanted: no
/// coercion applies, so the quick check reports the errors, exactly as the
/// general path does (same pointers, keywords, messages and order, also
/// beside edits), or leaves the call to it.
#[test]
fn words_that_fail_are_reported_as_the_general_path_reports_them() {
    let schema = json!({"type": "object", "properties": {
        "z": {"type": "number"}, "n": {"type": "integer"}, "b": {"type": "boolean"},
        "s": {"type": "string", "enum": ["on", "off"]}, "e": {"enum": ["x", "y"]},
        "m": {"enum": ["x", 1]},
        "a": {"type": "array", "items": {"type": "integer"}},
        "o": {"type": "object", "properties": {"y": {"type": "boolean"}, "x": {"type": "number"}}}},
        "required": ["n"]});
    for (text, errors) in [
        (r#"{"n":"many"}"#, true),
        (r#"{"n":1,"s":"dim"}"#, true),
        (r#"{"n":1,"e":"not-a-choice","s":"é \u0000"}"#, false),
        (r#"{"n":1,"e":"not a choice"}"#, true),
        (
            r#"{"z":"lots","n":"7","b":"maybe","s":"dim","e":"z","unexpected":1}"#,
            true,
        ),
        (r#"{"n":1,"a":["x","2",3,"y"]}"#, true),
        (r#"{"n":1,"o":{"y":"Perhaps","x":"v2"}}"#, true),
        (r#"{"n":"1","b":"yes","z":"3"}"#, false),
        // fewer members than declared: the general path reports in the
        // order sent
        (r#"{"s":"dim","n":"many"}"#, true),
        (r#"{"o":{"x":"v"},"n":1}"#, true),
        (r#"{"o":{"y":"w","x":"v"},"n":1}"#, true),
        (r#"{"o":{"x":"v","y":"w"},"n":1}"#, false),
        // as many members as declared: in the declared order, so a call
        // whose failing members are sent out of it is left to it
        (
            r#"{"o":{},"a":[],"m":"x","e":"x","s":"dim","b":true,"n":"many","z":1}"#,
            false,
        ),
        (
            r#"{"z":1,"n":"many","b":true,"s":"dim","e":"x","m":"x","a":[],"o":{}}"#,
            true,
        ),
        // words a coercion reads, or values beyond the check
        (r#"{"n":"TRUE"}"#, false),
        (r#"{"b":"False","n":1}"#, false),
        (r#"{"n":"1e3"}"#, false),
        (r#"{"n":"9x"}"#, false),
        (r#"{"n":"a b"}"#, false),
        (r#"{"n":1,"m":"z"}"#, false),
        (r#"{"n":1,"s":3}"#, false),
        (r#"{"n":true}"#, true),
        (r#"{"n":1,"a":"x"}"#, false),
        (r#"{"n":1,"s":"d\u0069m"}"#, false),
        (r#"{"n":null}"#, false),
        (r#"{"z":"many"}"#, false),
    ] {
        assert_eq!(errors_agree(&schema, text), errors, "{text}");
    }
    // a long enum is looked up through a table: the same answers, and
    // past the errors the check lists, the general path answers
    let ids: Vec<String> = (0..40).map(|i| format!("device-{i}")).collect();
    let long = json!({"type": "object", "properties": {
        "id": {"enum": ids}, "m": {"enum": ids.iter().map(|i| json!(i)).chain([json!(1)]).collect::<Vec<_>>()},
        "a": {"type": "array", "items": {"enum": ids}}}});
    assert!(agree(
        &long,
        r#"{"id":"device-39","a":["device-0","device-7"]}"#
    ));
    assert!(errors_agree(&long, r#"{"id":"device-40"}"#));
    assert!(!errors_agree(&long, r#"{"m":"device-40"}"#));
    let many = |n: usize| {
        let items: Vec<String> = (0..n).map(|i| format!("\"d{i}\"")).collect();
        format!(r#"{{"a":[{}]}}"#, items.join(","))
    };
    assert!(errors_agree(&long, &many(100)));
    assert!(!errors_agree(&long, &many(101)));
    // under a `$id` the general path describes against another base: left
    // to it
    let with_id = json!({"type": "object", "$id": "https://example.com/s",
        "properties": {"n": {"type": "integer"}}});
    assert!(!errors_agree(&with_id, r#"{"n":"many"}"#));
    // every Homey tool's invalid call, as the bench sends it, is answered
    let mut answered = 0;
    for schema in corpus_tools("homey-ai-chat-control-2.2.1.tools-list.json") {
        let mut args = sample(&schema, 0);
        let props = schema.get("properties").and_then(Value::as_object);
        let mut failing = false;
        for (k, p) in props.into_iter().flatten() {
            if p.get("enum").is_some() {
                args[k] = json!("not-a-choice");
                failing = true;
            } else if p.get("type") == Some(&json!("number")) {
                args[k] = json!("many");
                failing = true;
            }
        }
        args["unexpected"] = json!(1);
        if failing {
            assert!(errors_agree(&schema, &args.to_string()), "{args}");
            answered += 1;
        }
    }
    assert_eq!(answered, 5);
}

#[test]
fn schemas_beyond_the_check_are_not_known() {
    // each text valid as sent; a scalar at a node with keywords beyond the
    // plain ones is checked by the evaluator (answered), anything else at
    // such a node is not known
    for (schema, text, answered) in [
        (
            json!({"properties": {"n": {"type": "integer", "minimum": 0}}}),
            r#"{"n":1}"#,
            true,
        ),
        (
            json!({"properties": {"n": {"$ref": "#/$defs/n"}}, "$defs": {"n": {}}}),
            r#"{"n":1}"#,
            true,
        ),
        (
            json!({"properties": {"n": {"type": ["integer", "null"]}}}),
            r#"{"n":null}"#,
            true,
        ),
        (
            json!({"properties": {"n": {"enum": [1, 2]}}}),
            r#"{"n":1}"#,
            true,
        ),
        (
            json!({"properties": {"n": {"anyOf": [{"type": "integer"}]}}}),
            r#"{"n":1}"#,
            true,
        ),
        (
            json!({"properties": {"n": {"const": 1}}}),
            r#"{"n":1}"#,
            true,
        ),
        (
            json!({"properties": {"s": {"type": "string", "pattern": "^a"}}}),
            r#"{"s":"a"}"#,
            true,
        ),
        (
            json!({"properties": {"s": {"type": "string", "format": "date"}}}),
            r#"{"s":"2024-01-01"}"#,
            true,
        ),
        (
            json!({"properties": {"s": {"type": "string", "maxLength": 3}}}),
            r#"{"s":"a"}"#,
            true,
        ),
        (
            json!({"properties": {"a": {"type": "array", "minItems": 1, "maxItems": 2}}}),
            r#"{"a":[1,2]}"#,
            true,
        ),
        (
            json!({"properties": {"n": {"$id": "https://example.com/n", "type": "integer", "minimum": 0}}}),
            r#"{"n":1}"#,
            false,
        ),
        (json!({"required": ["a", "a"]}), r#"{"a":1}"#, false),
        (
            json!({"additionalProperties": {"type": "string"}}),
            r#"{"x":"a"}"#,
            true,
        ),
        (
            json!({"additionalProperties": {"type": "integer"}}),
            r#"{"x":1}"#,
            true,
        ),
        (
            json!({"properties": {"a": {"type": "array", "uniqueItems": true}}}),
            r#"{"a":[1,"1",2]}"#,
            true,
        ),
        (
            json!({"properties": {"a": {"type": "array", "uniqueItems": true}}}),
            r#"{"a":[true]}"#,
            false,
        ),
        (
            json!({"properties": {"a": {"type": "array", "contains": {}}}}),
            r#"{"a":[1]}"#,
            false,
        ),
        (
            json!({"properties": {"a": {"type": "array", "items": [{}]}}}),
            r#"{"a":[1]}"#,
            false,
        ),
        (
            json!({"properties": {"o": {"anyOf": [{"type": "object"}]}}}),
            r#"{"o":{}}"#,
            false,
        ),
        (json!({"type": "thing"}), r#"{}"#, false),
        (
            json!({"type": "object", "not": {"required": ["x"]}}),
            r#"{}"#,
            false,
        ),
    ] {
        let args: Value = serde_json::from_str(text).unwrap();
        let general = validate_arguments(&schema, &args);
        assert!(
            general.is_valid() && general.coercions.is_empty(),
            "{text} against {schema}"
        );
        assert_eq!(agree(&schema, text), answered, "{text} against {schema}");
    }
    // a keyword beyond the check deep down
    let mut deep = json!({"type": "array", "contains": {}});
    let mut shallow = json!({"type": "array"});
    let mut text = String::from("[1]");
    for _ in 0..40 {
        deep = json!({"type": "array", "items": deep});
        shallow = json!({"type": "array", "items": shallow});
        text = format!("[{text}]");
    }
    let text = format!("{{\"a\":{text}}}");
    let (deep, shallow) = (
        json!({"properties": {"a": deep}}),
        json!({"properties": {"a": shallow}}),
    );
    assert!(!Evaluator::new(&deep).valid_as_is(&text));
    assert!(agree(&shallow, &text));
    // arguments that are not an object, whatever the schema allows
    for text in ["[]", "1", "\"{}\"", "null", "true"] {
        assert!(!agree(&json!(true), text), "{text}");
        assert!(!agree(&json!({}), text), "{text}");
    }
    assert!(agree(&json!(true), "{}"));
}

#[test]
fn deep_and_hostile_texts_take_the_general_path() {
    let schema = json!({"type": "object", "properties": {"v": {}}});
    let deep = format!("{{\"v\":{}1{}}}", "[".repeat(100), "]".repeat(100));
    assert!(!agree(&schema, &deep));
    let deep_ok = format!("{{\"v\":{}1{}}}", "[".repeat(50), "]".repeat(50));
    assert!(agree(&schema, &deep_ok));
    let many: Vec<String> = (0..200).map(|i| format!("\"k{i}\":1")).collect();
    assert!(agree(&schema, &format!("{{{}}}", many.join(","))));
    for text in [
        "{\"v\":[",
        "{\"v\":\"",
        "{\"v\":-",
        "{\"v\":\"\u{1}\"}",
        "{\"v",
        "{\"v\":{\"a\"}}",
    ] {
        assert!(!agree(&schema, text), "{text}");
    }
}

/// Every case of the JSON-Schema test suite (draft 2020-12) whose data is
/// an object, written compactly and spaced out: whatever the quick check
/// calls valid as sent, the general path does too.
#[test]
fn the_schema_test_suite_agrees_with_the_general_path() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/json-schema-test-suite/draft2020-12");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut objects, mut quick) = (0, 0);
    for file in files {
        let groups: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        for group in groups.as_array().into_iter().flatten() {
            let schema = &group["schema"];
            for case in group["tests"].as_array().into_iter().flatten() {
                let data = &case["data"];
                if !data.is_object() {
                    continue;
                }
                objects += 1;
                let pretty = serde_json::to_string_pretty(data).unwrap();
                for text in [data.to_string(), pretty] {
                    quick += usize::from(agree(schema, &text));
                }
            }
        }
    }
    assert!(
        objects > 300 && quick > 50,
        "{quick} answered of {objects} objects"
    );
}
