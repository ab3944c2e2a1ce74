//! Unit tests for coercion and messages.

use serde_json::{json, Value};

use super::*;

fn coerce(schema: Value, args: Value) -> Validation {
    validate_arguments(&schema, &args)
}

fn tool(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

/// `(pointer, from, to)` of each coercion.
fn changes(v: &Validation) -> Vec<(String, Value, Option<Value>)> {
    v.coercions
        .iter()
        .map(|c| (c.pointer.clone(), c.from.clone(), c.to.clone()))
        .collect()
}

fn messages(schema: Value, instance: Value) -> Vec<String> {
    validate(&schema, &instance)
        .into_iter()
        .map(|e| match e.pointer.as_str() {
            "" => e.message,
            p => format!("{p}: {}", e.message),
        })
        .collect()
}

// ---- coercion ----

#[test]
fn integral_floats_become_integers_where_an_integer_is_wanted() {
    let s = tool(json!({
        "n": {"type": "integer"},
        "m": {"type": ["integer", "null"]},
        "x": {"type": "number"},
        "e": {"enum": [1, 2, 3]},
        "list": {"type": "array", "items": {"type": "integer"}}
    }));
    let v = coerce(
        s,
        json!({"n": 80.0, "m": -3.0, "x": 2.0, "e": 2.0, "list": [1.0, 2]}),
    );
    assert!(v.is_valid());
    assert_eq!(
        v.arguments,
        json!({"n": 80, "m": -3, "x": 2.0, "e": 2, "list": [1, 2]})
    );
    assert_eq!(v.arguments["n"].as_i64(), Some(80));
    assert_eq!(
        changes(&v),
        vec![
            ("/n".into(), json!(80.0), Some(json!(80))),
            ("/m".into(), json!(-3.0), Some(json!(-3))),
            ("/e".into(), json!(2.0), Some(json!(2))),
            ("/list/0".into(), json!(1.0), Some(json!(1))),
        ]
    );
    assert_eq!(
        v.coercions[0].reason,
        "a number with no fraction; an integer is wanted"
    );
    // a fraction stays, and is an error
    let v = coerce(tool(json!({"n": {"type": "integer"}})), json!({"n": 80.5}));
    assert!(v.coercions.is_empty());
    assert_eq!(v.message(), "/n: must be an integer; got 80.5.");
}

#[test]
fn numeric_strings_become_numbers() {
    let s = tool(json!({
        "i": {"type": "integer"},
        "f": {"type": "number"},
        "t": {"type": "integer"},
        "e": {"type": "integer"},
        "bad": {"type": "integer"},
        "half": {"type": "integer"}
    }));
    let v = coerce(
        s,
        json!({"i": "21", "f": "21.5", "t": " 7 ", "e": "1e3", "bad": "21x", "half": "21.5"}),
    );
    assert_eq!(
        v.arguments,
        json!({"i": 21, "f": 21.5, "t": 7, "e": 1000, "bad": "21x", "half": "21.5"})
    );
    assert_eq!(
        v.coercions[0].reason,
        "a string holding a number; an integer is wanted"
    );
    assert_eq!(
        v.coercions[1].reason,
        "a string holding a number; a number is wanted"
    );
    assert_eq!(
        v.message(),
        "/bad: must be an integer; got \"21x\". /half: must be an integer; got \"21.5\"."
    );
    let v = coerce(
        tool(json!({"i": {"type": "integer"}})),
        json!({"i": "21.0"}),
    );
    assert_eq!(v.arguments, json!({"i": 21}));
    assert_eq!(v.arguments["i"].as_i64(), Some(21));
}

#[test]
fn boolean_strings_become_booleans() {
    let s = tool(json!({"a": {"type": "boolean"}, "b": {"type": "boolean"},
        "c": {"type": "boolean"}, "d": {"type": "boolean"}}));
    let v = coerce(
        s,
        json!({"a": "true", "b": "FALSE", "c": " True ", "d": "yes"}),
    );
    assert_eq!(
        v.arguments,
        json!({"a": true, "b": false, "c": true, "d": "yes"})
    );
    assert_eq!(v.coercions.len(), 3);
    assert_eq!(
        v.message(),
        "/d: must be a boolean (true or false); got \"yes\"."
    );
}

#[test]
fn a_single_value_becomes_a_one_item_array() {
    let s = tool(json!({
        "ids": {"type": "array", "items": {"type": "integer"}},
        "names": {"type": "array", "items": {"type": "string"}},
        "objs": {"type": "array", "items": {"type": "object"}},
        "none": {"type": "array"}
    }));
    let v = coerce(
        s,
        json!({"ids": "5", "names": "kitchen", "objs": {"a": 1}, "none": null}),
    );
    assert_eq!(
        v.arguments,
        json!({"ids": [5], "names": ["kitchen"], "objs": [{"a": 1}]})
    );
    assert_eq!(
        changes(&v),
        vec![
            ("/ids".into(), json!("5"), Some(json!(["5"]))),
            ("/ids/0".into(), json!("5"), Some(json!(5))),
            ("/names".into(), json!("kitchen"), Some(json!(["kitchen"]))),
            ("/objs".into(), json!({"a": 1}), Some(json!([{"a": 1}]))),
            ("/none".into(), Value::Null, None),
        ]
    );
    assert!(v.is_valid());
    // null is not wrapped: for a required member it is an error
    let s = json!({"type": "object", "properties": {"l": {"type": "array"}}, "required": ["l"]});
    let v = coerce(s, json!({"l": null}));
    assert!(v.coercions.is_empty());
    assert_eq!(v.message(), "/l: must be an array; got null.");
}

#[test]
fn json_in_strings_is_parsed_where_an_object_or_array_is_wanted() {
    let s = tool(json!({
        "o": {"type": "object", "properties": {"n": {"type": "integer"}}},
        "a": {"type": "array", "items": {"type": "number"}},
        "s": {"type": "string"},
        "broken": {"type": "object"}
    }));
    let v = coerce(
        s,
        json!({"o": "{\"n\": \"3\"}", "a": " [1, \"2.5\"] ", "s": "{\"x\": 1}", "broken": "{oops"}),
    );
    assert_eq!(
        v.arguments,
        json!({"o": {"n": 3}, "a": [1, 2.5], "s": "{\"x\": 1}", "broken": "{oops"})
    );
    assert_eq!(
        v.coercions[0].reason,
        "a string holding a JSON object; an object is wanted"
    );
    assert_eq!(
        v.coercions[2].reason,
        "a string holding a JSON array; an array is wanted"
    );
    assert_eq!(v.message(), "/broken: must be an object; got \"{oops\".");
}

#[test]
fn stringified_enum_values_map_back_to_the_declared_value() {
    // what Gemini sends back for non-string enums
    let s = tool(json!({
        "level": {"type": "integer", "enum": [1, 2, 3]},
        "ratio": {"enum": [0.5, 1.5]},
        "flag": {"enum": [true, false]},
        "maybe": {"enum": [null, "x"]},
        "obj": {"enum": [{"a": [1, 2]}]},
        "c": {"const": 5},
        "state": {"enum": ["on", "off"]}
    }));
    let v = coerce(
        s,
        json!({"level": "2", "ratio": "1.5", "flag": "true", "maybe": "null",
               "obj": "{\"a\": [1, 2.0]}", "c": "5", "state": "on"}),
    );
    assert!(v.is_valid(), "{}", v.message());
    assert_eq!(
        v.arguments,
        json!({"level": 2, "ratio": 1.5, "flag": true, "maybe": null, "obj": {"a": [1, 2]}, "c": 5, "state": "on"})
    );
    assert_eq!(v.coercions.len(), 6);
    assert_eq!(
        v.coercions[0].reason,
        "the declared enum value was sent as a string"
    );
    // a string that spells no declared value stays, and is reported
    let v = coerce(
        tool(json!({"level": {"enum": [1, 2, 3]}})),
        json!({"level": "4"}),
    );
    assert!(v.coercions.is_empty());
    assert_eq!(v.message(), "/level: must be one of 1, 2, 3; got \"4\".");
}

#[test]
fn long_enums_coerce_as_short_ones_do() {
    // past eight values an enum is looked up through a table: the same
    // values found, the first of equal ones, the same integer rule
    let pad = |values: Value, long: bool| {
        let mut values = values.as_array().cloned().unwrap_or_default();
        if long {
            values.extend((0..10).map(|i| json!(format!("pad{i}"))));
        }
        Value::Array(values)
    };
    for long in [false, true] {
        let s = tool(json!({
            "level": {"enum": pad(json!([1, 2, 2.0, 3]), long)},
            "flag": {"enum": pad(json!([true, false]), long)},
            "maybe": {"enum": pad(json!([null, "x"]), long)},
            "obj": {"enum": pad(json!([{"a": [1, 2]}]), long)},
            "name": {"enum": pad(json!(["on", "off"]), long)}
        }));
        let v = coerce(
            s.clone(),
            json!({"level": "2.0", "flag": "FALSE", "maybe": "null",
                   "obj": "{\"a\": [1, 2.0]}", "name": "on"}),
        );
        assert!(v.is_valid(), "{long}: {}", v.message());
        assert_eq!(
            v.arguments,
            json!({"level": 2, "flag": false, "maybe": null, "obj": {"a": [1, 2]}, "name": "on"}),
            "{long}"
        );
        assert_eq!(v.coercions.len(), 4, "{long}");
        let v = coerce(s, json!({"level": "4", "name": "dim", "flag": "yes"}));
        assert!(v.coercions.is_empty(), "{long}");
        assert_eq!(v.errors.len(), 3, "{long}: {}", v.message());
        // 80.0 becomes 80 where every value is an integer
        let integers: Vec<Value> = (0..if long { 20 } else { 5 }).map(|i| json!(i)).collect();
        let mut mixed = integers.clone();
        mixed.push(json!("x"));
        let v = coerce(
            tool(json!({"i": {"enum": integers}, "m": {"enum": mixed}})),
            json!({"i": 4.0, "m": 4.0}),
        );
        assert!(v.is_valid(), "{long}: {}", v.message());
        assert_eq!(v.arguments, json!({"i": 4, "m": 4.0}), "{long}");
    }
}

#[test]
fn null_for_an_optional_property_removes_it() {
    // OpenAI strict mode: optional properties are nullable, null means absent
    let s = json!({"type": "object", "properties": {
        "name": {"type": "string"},
        "area": {"type": "string"},
        "note": {"type": ["string", "null"]},
        "level": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    }, "required": ["name"]});
    let v = coerce(
        s,
        json!({"name": null, "area": null, "note": null, "level": null}),
    );
    assert_eq!(
        v.arguments,
        json!({"name": null, "note": null, "level": null})
    );
    assert_eq!(changes(&v), vec![("/area".into(), Value::Null, None)]);
    assert_eq!(
        v.coercions[0].reason,
        "null for an optional property means it is absent"
    );
    assert_eq!(v.message(), "/name: must be a string; got null.");
}

#[test]
fn a_value_that_validates_is_not_coerced() {
    let s = tool(json!({
        "either": {"type": ["string", "integer"]},
        "alt": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "e": {"enum": ["1", 1]},
        "free": {},
        "n": {"type": ["string", "null"]}
    }));
    let args = json!({"either": "21", "alt": "21", "e": "1", "free": "true", "n": null});
    let v = coerce(s, args.clone());
    assert!(v.is_valid());
    assert!(v.coercions.is_empty());
    assert_eq!(v.arguments, args);
    // nothing at all when the whole call validates
    let s = tool(json!({"n": {"type": "integer"}}));
    let v = coerce(s, json!({"n": 1}));
    assert!(v.coercions.is_empty() && v.is_valid());
}

#[test]
fn alternatives_refs_and_all_of_guide_coercion() {
    let s = json!({
        "type": "object",
        "$defs": {"pct": {"type": "integer", "minimum": 0, "maximum": 100}},
        "properties": {
            "a": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
            "b": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
            "c": {"$ref": "#/$defs/pct"},
            "d": {"allOf": [{"$ref": "#/$defs/pct"}, {"multipleOf": 5}]},
            "e": {"oneOf": [{"type": "null"}, {"type": "array", "items": {"$ref": "#/$defs/pct"}}]},
            "t": {"prefixItems": [{"type": "integer"}, {"type": "boolean"}]},
            "p": {"patternProperties": {"^x-": {"type": "number"}},
                  "additionalProperties": {"type": "boolean"}},
            "i": {"if": {"type": "string"}, "then": {"pattern": "^[0-9]+$"},
                  "else": {"type": "integer"}}
        }
    });
    let v = coerce(
        s,
        json!({"a": "5", "b": "true", "c": "50", "d": "55", "e": "7",
               "t": ["1", "false", "x"], "p": {"x-a": "1.5", "y": "true"}, "i": 12.0}),
    );
    assert!(v.is_valid(), "{}", v.message());
    assert_eq!(
        v.arguments,
        json!({"a": 5, "b": true, "c": 50, "d": 55, "e": [7],
               "t": [1, false, "x"], "p": {"x-a": 1.5, "y": true}, "i": 12})
    );
}

#[test]
fn coercion_keeps_member_order_and_unknown_members() {
    let s = tool(json!({"b": {"type": "integer"}, "a": {"type": "integer"}}));
    let v = coerce(s, json!({"z": "1", "a": "2", "b": "3"}));
    let keys: Vec<&String> = v.arguments.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["z", "a", "b"]);
    assert_eq!(v.arguments["z"], "1");
}

#[test]
fn coerced_values_are_still_validated() {
    let s = tool(json!({"b": {"type": "integer", "minimum": 0, "maximum": 100}}));
    let v = coerce(s, json!({"b": "150"}));
    assert_eq!(v.arguments, json!({"b": 150}));
    assert_eq!(
        v.message(),
        "/b: must be an integer from 0 to 100; got 150."
    );
}

// ---- messages ----

#[test]
fn messages_say_what_to_send_instead() {
    let light = json!({
        "type": "object",
        "properties": {
            "deviceId": {"type": "string", "description": "The ID of the light device."},
            "color": {"type": "string"},
            "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
            "state": {"type": "string", "enum": ["on", "off", "toggle"]}
        },
        "required": ["deviceId"],
        "additionalProperties": false
    });
    let v = coerce(
        light,
        json!({"brightness": 150, "state": "dim", "colour": "red"}),
    );
    assert_eq!(
        v.message(),
        "/brightness: must be an integer from 0 to 100; got 150. \
         /state: must be one of \"on\", \"off\", \"toggle\"; got \"dim\". \
         /: unknown property \"colour\"; allowed: deviceId, color, brightness, state. \
         /deviceId: required (a string, the ID of the light device)."
    );
    let keywords: Vec<&str> = v.errors.iter().map(|e| e.keyword.as_str()).collect();
    assert_eq!(
        keywords,
        ["maximum", "enum", "additionalProperties", "required"]
    );
    assert_eq!(v.errors[2].pointer, "");
    assert_eq!(v.errors[3].pointer, "/deviceId");
}

#[test]
fn number_string_and_array_messages() {
    assert_eq!(
        messages(
            json!({"type": "number", "exclusiveMinimum": 0, "maximum": 1}),
            json!(0)
        ),
        ["must be a number greater than 0 and at most 1; got 0"]
    );
    assert_eq!(
        messages(
            json!({"type": "integer", "minimum": 1, "multipleOf": 5}),
            json!(7)
        ),
        ["must be an integer at least 1 that is a multiple of 5; got 7"]
    );
    assert_eq!(
        messages(
            json!({"type": "string", "minLength": 2, "maxLength": 4}),
            json!("héllo")
        ),
        ["must be a string of 2 to 4 characters; got \"héllo\" (5 characters)"]
    );
    assert_eq!(
        messages(
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!("A1")
        ),
        ["must be a string matching the pattern ^[a-z]+$; got \"A1\""]
    );
    assert_eq!(
        messages(
            json!({"type": "string", "format": "date"}),
            json!("31/01/2025")
        ),
        ["must be a date (YYYY-MM-DD); got \"31/01/2025\""]
    );
    assert_eq!(
        messages(json!({"const": {"mode": "auto"}}), json!({"mode": "x"})),
        ["must be {\"mode\":\"auto\"}; got an object"]
    );
    assert_eq!(
        messages(json!({"type": "array", "minItems": 2}), json!([1])),
        ["must have at least 2 items; got 1"]
    );
    assert_eq!(
        messages(json!({"maxProperties": 1}), json!({"a": 1, "b": 2})),
        ["must have at most 1 property; got 2"]
    );
    assert_eq!(
        messages(json!({"uniqueItems": true}), json!(["a", "b", "a"])),
        ["items must be unique; items 0 and 2 are equal"]
    );
    assert_eq!(
        messages(
            json!({"contains": {"type": "integer", "minimum": 10}}),
            json!([1, 2])
        ),
        ["must contain at least 1 item that is an integer at least 10; got 0"]
    );
    assert_eq!(
        messages(
            json!({"contains": {"const": 1}, "maxContains": 1}),
            json!([1, 1])
        ),
        ["must contain at most 1 item that is 1; got 2"]
    );
    assert_eq!(
        messages(json!({"not": {"type": "null"}}), json!(null)),
        ["must not be null; got null"]
    );
    assert_eq!(
        messages(json!({"properties": {"x": false}}), json!({"x": 1})),
        ["/x: no value is allowed here; got 1"]
    );
    assert_eq!(
        messages(
            json!({"dependentRequired": {"start": ["end"]}}),
            json!({"start": 1})
        ),
        ["/end: required when \"start\" is given"]
    );
    assert_eq!(
        messages(json!({"propertyNames": {"pattern": "^[a-z]+$"}}), json!({"Bad": 1})),
        ["property name \"Bad\" is not allowed: names must be a string matching the pattern ^[a-z]+$"]
    );
    assert_eq!(
        messages(
            json!({"type": "array", "items": {"type": "string"}}),
            json!({})
        ),
        ["must be an array of strings; got an empty object"]
    );
}

#[test]
fn alternatives_are_summed_up_or_narrowed_to_the_one_meant() {
    let target = json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "area"}, "area": {"type": "string"}},
         "required": ["kind", "area"]},
        {"type": "object", "properties": {"kind": {"const": "device"}, "id": {"type": "integer"}},
         "required": ["kind", "id"]},
        {"type": "string", "minLength": 3}
    ]});
    // the discriminator says which alternative was meant: its errors
    assert_eq!(
        messages(target.clone(), json!({"kind": "device", "id": "x"})),
        ["/id: must be an integer; got \"x\""]
    );
    // only one alternative is a string: its errors
    assert_eq!(
        messages(target.clone(), json!("ab")),
        ["must be a string of at least 3 characters; got \"ab\" (2 characters)"]
    );
    // otherwise a summary of the alternatives
    assert_eq!(
        messages(target.clone(), json!(5)),
        [
            "must be one of: an object with kind = \"area\" (required), area (required); \
          an object with kind = \"device\" (required), id (required); \
          or a string of at least 3 characters; got 5"
        ]
    );
    assert_eq!(
        messages(
            json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}),
            json!("x")
        ),
        ["must be either an integer or null; got \"x\""]
    );
    assert_eq!(
        messages(json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}), json!(5)),
        ["must match exactly one of: (1) an integer; (2) a number at least 0; it matches 1 and 2"]
    );
}

#[test]
fn descriptions_follow_refs() {
    let s = json!({
        "$defs": {"id": {"type": "string", "description": "The entity ID"}},
        "type": "object",
        "properties": {"entity": {"$ref": "#/$defs/id"}, "mode": {"enum": ["a", "b"]}},
        "required": ["entity", "mode", "other"]
    });
    assert_eq!(
        messages(s, json!({})),
        [
            "/entity: required (a string, the entity ID)",
            "/mode: required (one of \"a\", \"b\")",
            "/other: required"
        ]
    );
}

#[test]
fn message_joins_dedupes_and_caps() {
    let s = json!({"type": "object", "properties": {"a": {"allOf": [{"type": "integer"}, {"type": "integer"}]}}});
    let v = coerce(s, json!({"a": "x"}));
    assert_eq!(v.message(), "/a: must be an integer; got \"x\".");
    let s = json!({"type": "array", "items": {"type": "integer"}});
    let many: Vec<Value> = (0..30).map(|i| json!(format!("x{i}"))).collect();
    let errors = validate(&s, &Value::Array(many));
    let v = Validation {
        arguments: Value::Null,
        coercions: Vec::new(),
        errors,
    };
    let text = v.message();
    assert!(
        text.starts_with("/0: must be an integer; got \"x0\". /1:"),
        "{text}"
    );
    assert!(
        text.ends_with("/19: must be an integer; got \"x19\". … and 10 more problem(s)."),
        "{text}"
    );
    assert!(!v.is_valid());
    let ok = coerce(json!({"type": "object"}), json!({}));
    assert!(ok.is_valid());
    assert_eq!(ok.message(), "");
}

/// The message as lines formatted, told apart as text and joined: what
/// [`Validation::message`] gives without building them.
fn message_by_lines(errors: &[ArgumentError]) -> String {
    let mut lines: Vec<String> = Vec::new();
    for e in errors {
        let at = if e.pointer.is_empty() {
            "/"
        } else {
            &e.pointer
        };
        let line = format!("{at}: {}.", e.message.trim_end_matches('.'));
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    let more = lines.len().saturating_sub(MESSAGE_ERRORS);
    lines.truncate(MESSAGE_ERRORS);
    if more > 0 {
        lines.push(format!("… and {more} more problem(s)."));
    }
    lines.join(" ")
}

#[test]
fn the_message_says_each_line_once_as_text() {
    let error = |pointer: &str, message: &str| ArgumentError {
        pointer: pointer.to_string(),
        keyword: "type".to_string(),
        message: message.to_string(),
    };
    let message = |errors: Vec<ArgumentError>| {
        let want = message_by_lines(&errors);
        let v = Validation {
            arguments: Value::Null,
            coercions: Vec::new(),
            errors,
        };
        assert_eq!(v.message(), want);
        want
    };
    // the same line twice, also with its full stop; a `:` in a pointer
    // that makes two errors read alike; the whole object
    let said = message(vec![
        error("/a", "must be a string; got 1"),
        error("/a", "must be a string; got 1."),
        error("/a", "b: c"),
        error("/a: b", "c"),
        error("/a: b", "d"),
        error("", "required (x)"),
    ]);
    assert_eq!(
        said,
        "/a: must be a string; got 1. /a: b: c. /a: b: d. /: required (x)."
    );
    // past the few compared one by one, and past the lines listed
    for n in [15, 16, 17, 20, 21, 40] {
        let errors = (0..n)
            .flat_map(|i| {
                let at = format!("/{}", i % 23);
                [error(&at, "must be an integer"), error(&at, "x: y")]
            })
            .collect();
        message(errors);
    }
    assert_eq!(message(Vec::new()), "");
}

#[test]
fn errors_are_capped() {
    let s = json!({"type": "array", "items": {"type": "integer"}});
    let many: Vec<Value> = (0..5_000).map(|i| json!(format!("x{i}"))).collect();
    let errors = validate(&s, &Value::Array(many));
    assert_eq!(errors.len(), eval::MAX_ERRORS + 1);
    let last = errors.last().unwrap();
    assert_eq!(
        (last.keyword.as_str(), last.message.as_str()),
        ("limit", "4000 more problem(s) not listed")
    );
}

#[test]
fn results_serialize_for_javascript() {
    let s = tool(json!({"a": {"type": "string"}, "n": {"type": "integer"}}));
    let v = coerce(s, json!({"a": null, "n": "x"}));
    let out = serde_json::to_value(&v).unwrap();
    assert_eq!(
        out,
        json!({
            "arguments": {"n": "x"},
            "coercions": [{"pointer": "/a", "from": null, "to": null,
                           "reason": "null for an optional property means it is absent"}],
            "errors": [{"pointer": "/n", "keyword": "type", "message": "must be an integer; got \"x\""}]
        })
    );
}

#[test]
fn pointers_escape_member_names() {
    let s = json!({"properties": {"a/b": {"properties": {"m~n": {"type": "integer"}}}}});
    let errors = validate(&s, &json!({"a/b": {"m~n": "x"}}));
    assert_eq!(errors[0].pointer, "/a~1b/m~0n");
    let v = coerce(s, json!({"a/b": {"m~n": "1"}}));
    assert_eq!(v.coercions[0].pointer, "/a~1b/m~0n");
}

#[test]
fn unknown_member_messages_name_what_is_allowed() {
    assert_eq!(
        messages(
            json!({"properties": {"a": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": false}),
            json!({"b": 1, "c": 2, "x-ok": 3})
        ),
        ["unknown properties \"b\", \"c\"; allowed: a, or names matching ^x-"]
    );
    assert_eq!(
        messages(json!({"additionalProperties": false}), json!({"b": 1})),
        ["unknown property \"b\"; this object takes no properties"]
    );
}

#[test]
fn older_drafts_keywords_still_work() {
    // draft 4 boolean exclusive bounds
    let s = json!({"type": "number", "maximum": 10, "exclusiveMaximum": true,
                   "minimum": 0, "exclusiveMinimum": true});
    assert_eq!(
        messages(s.clone(), json!(10)),
        ["must be a number greater than 0 and less than 10; got 10"]
    );
    assert!(validate(&s, &json!(9.5)).is_empty());
    assert_eq!(validate(&s, &json!(0)).len(), 1);
    // draft 7 dependencies, both forms
    let s = json!({"dependencies": {"a": ["b"], "c": {"required": ["d"]}}});
    assert_eq!(
        messages(s.clone(), json!({"a": 1})),
        ["/b: required when \"a\" is given"]
    );
    assert_eq!(messages(s, json!({"c": 1})), ["/d: required"]);
    // items as an array, with additionalItems
    let s = json!({"items": [{"type": "integer"}], "additionalItems": {"type": "string"}});
    assert!(validate(&s, &json!([1, "a", "b"])).is_empty());
    assert_eq!(
        messages(s, json!(["a", 1])),
        [
            "/0: must be an integer; got \"a\"",
            "/1: must be a string; got 1"
        ]
    );
    // definitions, and $dynamicRef read as a reference to its anchor
    let s = json!({"definitions": {"n": {"$dynamicAnchor": "n", "type": "integer"}},
                   "properties": {"a": {"$ref": "#/definitions/n"}, "b": {"$dynamicRef": "#n"}}});
    assert_eq!(
        messages(s, json!({"a": "x", "b": "y"})),
        [
            "/a: must be an integer; got \"x\"",
            "/b: must be an integer; got \"y\""
        ]
    );
}

#[test]
fn unresolvable_refs_and_loops_constrain_nothing() {
    let s = json!({"properties": {"a": {"$ref": "https://elsewhere.test/schema.json"},
                                  "b": {"$ref": "#/$defs/missing"}, "c": {"$ref": "#"}}});
    assert!(validate(&s, &json!({"a": 1, "b": 2, "c": {"c": {"c": 3}}})).is_empty());
}

#[test]
fn a_choice_of_required_members_is_said_as_one() {
    let either = json!({"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
    let v = validate_arguments(&either, &json!({}));
    assert_eq!(v.message(), "/: give at least one of a, b.");
    assert!(validate_arguments(&either, &json!({"b": 1})).is_valid());
    let pairs =
        json!({"anyOf": [{"required": ["zone", "capability"]}, {"required": ["deviceId"]}]});
    assert_eq!(
        messages(pairs, json!({"zone": "x"})),
        ["give at least one of zone and capability; or deviceId"]
    );
    let one = json!({"oneOf": [{"required": ["id"]}, {"required": ["name"]}]});
    assert_eq!(
        messages(one.clone(), json!({})),
        ["give exactly one of id, name"]
    );
    assert_eq!(
        messages(one, json!({"id": 1, "name": "x"})),
        ["give only one of id, name; got id and name"]
    );
    // alternatives that say more than which members to give keep their own words
    let shapes = json!({"anyOf": [{"required": ["a"], "properties": {"a": {"type": "string"}}}, {"type": "string"}]});
    assert!(!messages(shapes, json!({}))[0].starts_with("give"));
}
