//! `validate` and `validate_arguments` on hostile input: deep values, huge
//! strings and enums, cyclic and exponential `$ref`s, broken patterns,
//! arguments that are not an object. Never a panic, never a stack overflow,
//! never quadratic time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_switchboard::{validate, validate_arguments, ArgumentError, Validation};
use serde_json::{json, Map, Value};

/// Runs `f` on a thread with a 1 MiB stack, the size WebAssembly gets by
/// default: deep input must not need more (even in a debug build).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic, no overflow");
}

/// `[{"a": [{"a": ... 1 ...}]}]`, `depth` levels, built without recursion.
fn deep(depth: usize) -> Value {
    let mut v = json!(1);
    for i in 0..depth {
        v = if i % 2 == 0 {
            Value::Array(vec![v])
        } else {
            Value::Object(Map::from_iter([("a".to_string(), v)]))
        };
    }
    v
}

/// Drops a value of any depth without recursion (the derived drop recurses).
fn drop_deep(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.into_iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}

fn drop_validation(v: Validation) {
    drop_deep(v.arguments);
    for c in v.coercions {
        drop_deep(c.from);
        if let Some(to) = c.to {
            drop_deep(to);
        }
    }
}

fn keywords(errors: &[ArgumentError]) -> Vec<&str> {
    errors.iter().map(|e| e.keyword.as_str()).collect()
}

#[test]
fn ten_thousand_deep_values_do_not_overflow() {
    on_small_stack(|| {
        let args = Value::Object(Map::from_iter([("a".to_string(), deep(10_000))]));
        // no constraint below the top: nothing to walk
        assert!(validate(&json!({"type": "object"}), &args).is_empty());
        assert!(validate(&json!(true), &args).is_empty());

        // a recursive schema follows the value down until the depth limit
        let recursive = json!({"items": {"$ref": "#"}, "properties": {"a": {"$ref": "#"}}});
        let errors = validate(&recursive, &args);
        assert_eq!(keywords(&errors), ["depth"], "{errors:?}");
        assert!(errors[0].message.contains("nested too deeply"));

        // the same, through alternatives that coercion tries on copies
        let alternatives = json!({
            "$defs": {"node": {"anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"$ref": "#/$defs/node"}},
                {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}}
            ]}},
            "type": "object",
            "additionalProperties": {"$ref": "#/$defs/node"}
        });
        for schema in [&recursive, &alternatives] {
            let v = validate_arguments(schema, &args);
            assert!(!v.is_valid());
            assert!(v.message().len() < 2_000);
            drop_validation(v);
        }

        // equality and hashing of deep values are iterative
        let same = Value::Object(Map::from_iter([("a".to_string(), deep(10_000))]));
        let konst = Value::Object(Map::from_iter([("const".to_string(), same)]));
        assert!(validate(&konst, &args).is_empty());
        let twice = Value::Array(vec![deep(10_000), deep(10_000)]);
        let errors = validate(&json!({"uniqueItems": true}), &twice);
        assert_eq!(
            errors[0].message,
            "items must be unique; items 0 and 1 are equal"
        );
        let enum_schema = Value::Object(Map::from_iter([(
            "enum".to_string(),
            Value::Array(vec![deep(9_999), json!(1)]),
        )]));
        assert_eq!(keywords(&validate(&enum_schema, &args)), ["enum"]);

        drop_deep(args);
        drop_deep(konst);
        drop_deep(twice);
        drop_deep(enum_schema);
    });
}

#[test]
fn ten_thousand_deep_schemas_do_not_overflow() {
    on_small_stack(|| {
        let mut schema = json!({"type": "integer"});
        for _ in 0..10_000 {
            schema = Value::Object(Map::from_iter([
                ("type".to_string(), json!("object")),
                (
                    "properties".to_string(),
                    Value::Object(Map::from_iter([("a".to_string(), schema)])),
                ),
            ]));
        }
        let args = json!({"a": {"a": {"a": "x"}}});
        assert_eq!(keywords(&validate(&schema, &args)), ["type"]);
        let v = validate_arguments(&schema, &args);
        assert_eq!(v.errors[0].pointer, "/a/a/a");
        drop_validation(v);
        drop_deep(schema);
    });
}

#[test]
fn ten_megabyte_strings_are_checked_in_linear_time() {
    let mut big = "a".repeat(10 << 20);
    big.push('!');
    // the pattern fails too, but the length message already asks for it: a
    // string of the wrong length is not searched
    let schema = json!({"type": "string", "maxLength": 10, "pattern": "^a+$"});
    let errors = validate(&schema, &json!(big));
    assert_eq!(keywords(&errors), ["maxLength"]);
    assert_eq!(
        errors[0].message,
        format!(
            "must be a string of at most 10 characters matching the pattern ^a+$; got \"{}…\" (10485761 characters)",
            "a".repeat(40)
        )
    );
    // code points, not bytes
    let wide = "é".repeat(5 << 20);
    assert!(validate(
        &json!({"minLength": 5242880, "maxLength": 5242880}),
        &json!(wide)
    )
    .is_empty());

    // coercion does not try to read a huge string as a number or as JSON
    let tool = json!({"type": "object", "properties": {
        "n": {"type": "integer"}, "o": {"type": "object"}, "l": {"type": "array", "maxItems": 1}}});
    let digits = "1".repeat(10 << 20);
    let mut junk = String::from("{");
    junk.push_str(&"[".repeat(10 << 20));
    let v = validate_arguments(&tool, &json!({"n": digits, "o": junk, "l": big}));
    assert_eq!(keywords(&v.errors), ["type", "type"]);
    assert_eq!(v.coercions.len(), 1, "only the array wrap");
    assert!(v.message().len() < 500, "{}", v.message());
}

#[test]
fn an_enum_of_a_hundred_thousand_values() {
    let values: Vec<Value> = (0..100_000).map(Value::from).collect();
    let tool = json!({"type": "object", "properties": {"level": {"enum": values}}});
    assert!(validate_arguments(&tool, &json!({"level": 99_999})).is_valid());
    let v = validate_arguments(&tool, &json!({"level": "99999"}));
    assert!(v.is_valid());
    assert_eq!(v.arguments, json!({"level": 99_999}));
    let v = validate_arguments(&tool, &json!({"level": 100_000}));
    let message = v.message();
    assert!(
        message.starts_with("/level: must be one of 0, 1, 2,"),
        "{message}"
    );
    assert!(
        message.ends_with("… (100000 in all); got 100000."),
        "{message}"
    );
    assert!(message.len() < 300);
}

#[test]
fn a_hundred_thousand_items_are_not_quadratic() {
    let items: Vec<Value> = (0..100_000).map(|i| json!({"id": i, "on": true})).collect();
    let schema = json!({"type": "array", "uniqueItems": true,
        "items": {"type": "object", "properties": {"id": {"type": "integer"}}}});
    assert!(validate(&schema, &Value::Array(items.clone())).is_empty());
    let mut dup = items;
    dup.push(json!({"on": true, "id": 5.0}));
    let errors = validate(&schema, &Value::Array(dup));
    assert_eq!(
        errors[0].message,
        "items must be unique; items 5 and 100000 are equal"
    );
}

#[test]
fn unique_items_that_differ_only_deep_down_are_not_quadratic() {
    // equal for 30 levels, different at the bottom: a hash of the top
    // levels only would put them all in one bucket
    let mut items: Vec<Value> = (0..20_000)
        .map(|i| {
            let mut v = json!(i);
            for _ in 0..30 {
                v = Value::Array(vec![v]);
            }
            v
        })
        .collect();
    assert!(validate(&json!({"uniqueItems": true}), &Value::Array(items.clone())).is_empty());
    items.push(items[123].clone());
    let errors = validate(&json!({"uniqueItems": true}), &Value::Array(items));
    assert_eq!(
        errors[0].message,
        "items must be unique; items 123 and 20000 are equal"
    );
}

#[test]
fn cyclic_refs_end() {
    let schemas = [
        json!({"$ref": "#"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
        json!({"anyOf": [{"$ref": "#"}]}),
        json!({"oneOf": [{"$ref": "#"}, {"type": "integer"}]}),
        json!({"allOf": [{"$ref": "#"}], "type": "object"}),
        json!({"not": {"$ref": "#"}}),
        json!({"$defs": {"a": {"$anchor": "x", "$ref": "#x"}}, "$ref": "#x"}),
        json!({"$id": "http://x.test/s", "properties": {"p": {"$ref": "http://x.test/s"}}, "$ref": "s"}),
        json!({"if": {"$ref": "#"}, "then": {"$ref": "#"}, "else": {"$ref": "#"}}),
    ];
    for schema in &schemas {
        for args in [json!({}), json!({"p": {"p": "1"}}), json!("x")] {
            let _ = validate(schema, &args);
            let _ = validate_arguments(schema, &args);
        }
    }
    // a loop adds no constraint
    assert!(validate(&schemas[0], &json!({"any": "thing"})).is_empty());
    assert!(validate(&schemas[1], &json!(5)).is_empty());
}

#[test]
fn exponential_refs_hit_the_budget() {
    // every level refers to the next one twice: 2^40 evaluations if naive
    let mut defs = Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"allOf": [{"$ref": next}, {"$ref": next}]}),
        );
    }
    defs.insert("d40".into(), json!({"type": "integer"}));
    let schema =
        json!({"$defs": defs, "type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}});
    let errors = validate(&schema, &json!({"a": 1}));
    assert_eq!(keywords(&errors), ["limit"]);
    assert!(errors[0]
        .message
        .starts_with("could not be checked completely"));
    let v = validate_arguments(&schema, &json!({"a": "x"}));
    assert!(!v.is_valid());
    // the same problem reached on many ways is reported once
    assert_eq!(
        v.errors.iter().filter(|e| e.keyword == "type").count(),
        1,
        "{:?}",
        v.errors
    );
}

#[test]
fn invalid_patterns_are_skipped() {
    for pattern in [
        "(",
        "(a)\\1",
        "(?=a)",
        "[z-a]",
        "\\p{Greek}",
        "a{99999}{99999}",
        "\\",
    ] {
        let schema = json!({"type": "string", "pattern": pattern});
        assert!(
            validate(&schema, &json!("anything")).is_empty(),
            "{pattern}"
        );
        let schema = json!({"patternProperties": {pattern: {"type": "integer"}}});
        assert!(
            validate(&schema, &json!({"(": "x", "a": "y"})).is_empty(),
            "{pattern}"
        );
        let tool = json!({"type": "object", "properties": {"s": {"type": "string", "pattern": pattern}},
            "patternProperties": {pattern: {"type": "integer"}}});
        assert!(
            validate_arguments(&tool, &json!({"s": "x"})).is_valid(),
            "{pattern}"
        );
    }
    // a name that only an invalid pattern would allow is unknown
    let schema = json!({"patternProperties": {"(": true}, "additionalProperties": false});
    assert_eq!(
        keywords(&validate(&schema, &json!({"(": 1}))),
        ["additionalProperties"]
    );
}

#[test]
fn arguments_that_are_not_an_object() {
    let tool = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    for args in [
        json!(null),
        json!(5),
        json!(true),
        json!("text"),
        json!([{"a": 1}]),
        json!("[1, 2]"),
        json!("{not json"),
        json!(""),
    ] {
        let v = validate_arguments(&tool, &args);
        assert_eq!(v.errors.len(), 1, "{args}");
        assert_eq!(v.errors[0].pointer, "");
        assert_eq!(v.errors[0].keyword, "type");
        assert!(v.errors[0]
            .message
            .starts_with("the arguments must be a JSON object"));
        assert!(v.coercions.is_empty());
        assert_eq!(v.arguments, args);
    }
    // a string holding an object is parsed, and then coerced as usual
    let v = validate_arguments(&tool, &json!(" {\"a\": \"7\"} "));
    assert!(v.is_valid(), "{:?}", v.errors);
    assert_eq!(v.arguments, json!({"a": 7}));
    assert_eq!(v.coercions.len(), 2);
    assert_eq!(v.coercions[0].pointer, "");
}

#[test]
fn schemas_that_make_no_sense_do_not_panic() {
    let schemas = [
        json!(null),
        json!(5),
        json!("schema"),
        json!([1, 2]),
        json!({"type": 5}),
        json!({"type": ["nope", 3]}),
        json!({"properties": 5, "required": "a", "items": 3, "prefixItems": {}}),
        json!({"minimum": "x", "maximum": null, "multipleOf": 0, "exclusiveMaximum": true}),
        json!({"multipleOf": -1.5, "minLength": -1, "maxLength": 1e300, "minItems": 0.5}),
        json!({"enum": "x", "const": {"a": [1]}}),
        json!({"$ref": 5}),
        json!({"$ref": "#/%zz/~2/01"}),
        json!({"$ref": "http://[::1"}),
        json!({"$ref": "#/items/99999999999999999999999"}),
        json!({"$id": 5, "$anchor": [], "$defs": 3}),
        json!({"$id": "::::", "$ref": "../../.."}),
        json!({"allOf": 5, "anyOf": [], "oneOf": [5, null], "not": 3, "if": 4}),
        json!({"contains": {"type": "integer"}, "minContains": "x", "maxContains": -1}),
        json!({"format": "date-time", "pattern": ""}),
        json!({"dependentRequired": {"a": 5}, "dependentSchemas": {"a": 5}, "dependencies": 3}),
        json!({"propertyNames": {"maxLength": 1}, "additionalProperties": 5}),
    ];
    let instances = [
        json!({"a": [1, "2", null], "bb": {"c": 1.5}}),
        json!([1, 2, 3]),
        json!("2024-01-01T00:00:00Z"),
        json!(12),
        json!(null),
    ];
    for schema in &schemas {
        for instance in &instances {
            let _ = validate(schema, instance);
            let v = validate_arguments(schema, instance);
            let _ = v.message();
        }
    }
}
