//! Every tool of every corpus catalog, every schema edge case and the Home
//! Assistant fragments, through every dialect (strict on and off), checked
//! against each dialect's documented rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashSet;

use mcp_switchboard::{convert, Action, Catalog, Dialect, Options};
use regex_lite::Regex;
use serde_json::{Map, Value};

use common::{catalogs, declarations, inputs, variants, visit};

const GEMINI_KEYS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "propertyOrdering",
    "default",
    "example",
];
const GEMINI_TYPES: &[&str] = &[
    "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
];
const OPENAI_STRICT_KEYS: &[&str] = &[
    "$ref",
    "$defs",
    "type",
    "enum",
    "const",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];
const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
const ANTHROPIC_STRICT_KEYS: &[&str] = &[
    "type",
    "enum",
    "const",
    "default",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "anyOf",
    "format",
    "pattern",
];

fn name_rule(d: Dialect) -> Regex {
    Regex::new(match d {
        Dialect::Gemini | Dialect::GeminiJson => r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$",
        Dialect::VsCode => r"^[\w-]{1,64}$",
        Dialect::Prompted => r"^[A-Za-z0-9_.-]{1,128}$",
        _ => r"^[a-zA-Z0-9_-]{1,64}$",
    })
    .unwrap()
}

fn check_gemini(ctx: &str, schema: &Value, problems: &mut Vec<String>) {
    visit(schema, "", &mut |at, m| {
        for k in m.keys() {
            if !GEMINI_KEYS.contains(&k.as_str()) {
                problems.push(format!("{ctx}{at}: key {k} outside Gemini's Schema"));
            }
        }
        match m.get("type").and_then(Value::as_str) {
            Some(t) if !GEMINI_TYPES.contains(&t) => problems.push(format!("{ctx}{at}: type {t}")),
            None if !m.contains_key("anyOf") => {
                problems.push(format!("{ctx}{at}: no type and no anyOf"))
            }
            _ => {}
        }
        let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
        if let Some(f) = m.get("format").and_then(Value::as_str) {
            let ok = f == "enum"
                || (ty == "STRING" && f == "date-time")
                || (ty == "INTEGER" && (f == "int32" || f == "int64"))
                || (ty == "NUMBER" && (f == "float" || f == "double"));
            if !ok {
                problems.push(format!("{ctx}{at}: format {f} on {ty}"));
            }
        }
        if let Some(e) = m.get("enum") {
            if !e.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
                problems.push(format!("{ctx}{at}: enum values must be strings"));
            }
        }
        if ty == "ARRAY" && !m.contains_key("items") {
            problems.push(format!("{ctx}{at}: ARRAY without items"));
        }
        // @google/genai: "type and anyOf cannot be both populated."
        if m.contains_key("type") && m.contains_key("anyOf") {
            problems.push(format!("{ctx}{at}: type beside anyOf"));
        }
        // the API: "properties: should be non-empty for OBJECT type"
        if ty == "OBJECT"
            && m.get("properties")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty)
        {
            problems.push(format!("{ctx}{at}: OBJECT without properties"));
        }
        if ty != "OBJECT" && (m.contains_key("properties") || m.contains_key("required")) {
            problems.push(format!("{ctx}{at}: properties/required on {ty}"));
        }
        check_required(ctx, at, m, problems);
    });
}

fn check_required(ctx: &str, at: &str, m: &Map<String, Value>, problems: &mut Vec<String>) {
    if let Some(req) = m.get("required").and_then(Value::as_array) {
        let props = m.get("properties").and_then(Value::as_object);
        for r in req {
            let name = r.as_str().unwrap_or("");
            if !props.is_some_and(|p| p.contains_key(name)) {
                problems.push(format!("{ctx}{at}: required {name} is not a property"));
            }
        }
    }
}

fn is_nullable(s: &Value) -> bool {
    match s.get("type") {
        Some(Value::Array(ts)) if ts.iter().any(|t| t == "null") => true,
        _ => {
            s.get("anyOf")
                .and_then(Value::as_array)
                .is_some_and(|b| b.iter().any(|x| x["type"] == "null"))
                || (s.get("type").is_none()
                    && s.get("anyOf").is_none()
                    && s.get("enum").is_none()
                    && s.get("$ref").is_none())
        }
    }
}

fn check_openai_strict(ctx: &str, schema: &Value, original: &Value, problems: &mut Vec<String>) {
    if schema["type"] != "object" {
        problems.push(format!("{ctx}: root is not an object"));
    }
    visit(schema, "", &mut |at, m| {
        for k in m.keys() {
            if !OPENAI_STRICT_KEYS.contains(&k.as_str()) {
                problems.push(format!("{ctx}{at}: key {k} outside OpenAI strict"));
            }
        }
        if let Some(f) = m.get("format").and_then(Value::as_str) {
            if !OPENAI_FORMATS.contains(&f) {
                problems.push(format!("{ctx}{at}: format {f}"));
            }
        }
        let is_object = m.get("type").is_some_and(|t| {
            t == "object"
                || t.as_array()
                    .is_some_and(|a| a.iter().any(|x| x == "object"))
        });
        if is_object {
            if m.get("additionalProperties") != Some(&Value::Bool(false)) {
                problems.push(format!("{ctx}{at}: object not closed"));
            }
            let props: Vec<&String> = m
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().collect())
                .unwrap_or_default();
            let req: Vec<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if props.len() != req.len() || props.iter().any(|p| !req.contains(&p.as_str())) {
                problems.push(format!("{ctx}{at}: required is not every property"));
            }
        }
    });
    // optional parameters of the original stay optional: nullable, not forced
    let orig_req: Vec<&str> = original
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, s) in props {
            if !orig_req.contains(&k.as_str()) && !is_nullable(s) {
                problems.push(format!(
                    "{ctx}/properties/{k}: optional parameter is not nullable"
                ));
            }
        }
    }
}

fn check_anthropic_strict(ctx: &str, schema: &Value, problems: &mut Vec<String>) {
    visit(schema, "", &mut |at, m| {
        for k in m.keys() {
            if !ANTHROPIC_STRICT_KEYS.contains(&k.as_str()) {
                problems.push(format!("{ctx}{at}: key {k} outside Anthropic strict"));
            }
        }
        if m.get("type") == Some(&Value::String("object".into()))
            && m.get("additionalProperties") != Some(&Value::Bool(false))
        {
            problems.push(format!("{ctx}{at}: object not closed"));
        }
        if m.get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|n| n > 1)
        {
            problems.push(format!("{ctx}{at}: minItems above 1"));
        }
    });
}

/// Keywords no model API takes at the top of an input schema.
const NOT_AT_ROOT: &[&str] = &[
    "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "enum", "const",
];

fn check_root(ctx: &str, schema: &Value, problems: &mut Vec<String>) {
    for k in NOT_AT_ROOT {
        if schema.get(*k).is_some() {
            problems.push(format!("{ctx}: {k} at the top level"));
        }
    }
}

/// Every definition is reached from the rest of the schema.
fn check_defs_used(ctx: &str, schema: &Value, problems: &mut Vec<String>) {
    let Some(root) = schema.as_object() else {
        return;
    };
    let name_of = |r: &str| -> Option<(String, String)> {
        let mut t = r.strip_prefix("#/")?.split('/');
        let which = t.next()?.to_string();
        let name = t.next()?.replace("~1", "/").replace("~0", "~");
        matches!(which.as_str(), "$defs" | "definitions").then_some((which, name))
    };
    let refs_in = |v: &Value, out: &mut Vec<(String, String)>| {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(m) => {
                    if let Some(r) = m.get("$ref").and_then(Value::as_str).and_then(name_of) {
                        out.push(r);
                    }
                    stack.extend(m.values());
                }
                Value::Array(a) => stack.extend(a),
                _ => {}
            }
        }
    };
    let mut pending = Vec::new();
    for (k, v) in root {
        if k != "$defs" && k != "definitions" {
            refs_in(v, &mut pending);
        }
    }
    let mut seen: HashSet<(String, String)> = HashSet::new();
    while let Some(d) = pending.pop() {
        if seen.insert(d.clone()) {
            if let Some(def) = root.get(&d.0).and_then(|m| m.get(&d.1)) {
                refs_in(def, &mut pending);
            }
        }
    }
    for which in ["$defs", "definitions"] {
        for name in root
            .get(which)
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.keys())
        {
            if !seen.contains(&(which.to_string(), name.clone())) {
                problems.push(format!(
                    "{ctx}/{which}/{name}: definition nothing refers to"
                ));
            }
        }
    }
}

/// What a strict Anthropic schema costs against the request's limits:
/// optional properties and union-typed schemas (anyOf, type lists), at
/// every level.
fn anthropic_cost(schema: &Value) -> (usize, usize) {
    let (mut optional, mut unions) = (0, 0);
    visit(schema, "", &mut |_, m| {
        if let Some(props) = m.get("properties").and_then(Value::as_object) {
            let req: Vec<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            optional += props.keys().filter(|k| !req.contains(&k.as_str())).count();
        }
        if m.contains_key("anyOf")
            || m.get("type")
                .and_then(Value::as_array)
                .is_some_and(|t| t.len() > 1)
        {
            unions += 1;
        }
    });
    (optional, unions)
}

/// Anthropic's per-request limits on strict tools.
fn check_anthropic_request(
    ctx: &str,
    decls: &[(String, Option<Value>, bool)],
    problems: &mut Vec<String>,
) {
    let (mut tools, mut optional, mut unions) = (0, 0, 0);
    for (_, schema, is_strict) in decls {
        if let (true, Some(schema)) = (is_strict, schema) {
            let (o, u) = anthropic_cost(schema);
            tools += 1;
            optional += o;
            unions += u;
        }
    }
    if tools > 20 || optional > 24 || unions > 16 {
        problems.push(format!("{ctx}: {tools} strict tools, {optional} optional and {unions} union-typed parameters; Anthropic takes 20, 24 and 16 per request"));
    }
}

fn check_refs(ctx: &str, schema: &Value, problems: &mut Vec<String>) {
    visit(schema, "", &mut |at, m| {
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let target = r.strip_prefix('#').and_then(|p| schema.pointer(p));
            if target.is_none() {
                problems.push(format!("{ctx}{at}: $ref {r} does not resolve"));
            }
        }
    });
    if schema.get("$schema").is_some() {
        problems.push(format!("{ctx}: $schema left in"));
    }
}

#[test]
fn every_catalog_through_every_dialect_follows_the_rules() {
    let mut problems = Vec::new();
    let mut converted = 0;
    for (file, bytes) in inputs() {
        let catalog = Catalog::parse(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!catalog.is_empty(), "{file}");
        for (dialect, strict) in variants() {
            let c = convert(&catalog, dialect, &Options::strict(strict));
            let ctx = format!("{file} {dialect}{}", if strict { "+strict" } else { "" });
            let decls = declarations(&c);
            let skipped = c
                .report
                .iter()
                .filter(|e| e.action == Action::Skipped && e.tool.is_some())
                .count();
            assert_eq!(
                decls.len() + skipped,
                catalog.len(),
                "{ctx}: every tool is emitted or reported skipped"
            );
            let rule = name_rule(dialect);
            let mut seen = HashSet::new();
            if dialect == Dialect::Anthropic && strict {
                check_anthropic_request(&ctx, &decls, &mut problems);
            }
            for (name, schema, is_strict) in &decls {
                let ctx = format!("{ctx} {name}");
                if !rule.is_match(name) {
                    problems.push(format!("{ctx}: name breaks the rule"));
                }
                if !seen.insert(name.clone()) {
                    problems.push(format!("{ctx}: duplicate name"));
                }
                let mcp = c
                    .names
                    .mcp_name(name)
                    .unwrap_or_else(|| panic!("{ctx}: not in the name map"));
                let tool = catalog.get(mcp).expect("name map points into the catalog");
                let Some(schema) = schema else {
                    assert!(
                        matches!(dialect, Dialect::Gemini | Dialect::GeminiJson),
                        "{ctx}: no schema"
                    );
                    continue;
                };
                match dialect {
                    Dialect::Gemini => check_gemini(&ctx, schema, &mut problems),
                    Dialect::OpenAi | Dialect::OpenAiResponses if *is_strict => {
                        check_openai_strict(&ctx, schema, tool.input_schema(), &mut problems)
                    }
                    Dialect::Anthropic if *is_strict => {
                        check_anthropic_strict(&ctx, schema, &mut problems)
                    }
                    _ => {}
                }
                if matches!(
                    dialect,
                    Dialect::OpenAi | Dialect::OpenAiResponses | Dialect::VsCode | Dialect::Gemini
                ) {
                    visit(schema, "", &mut |at, m| {
                        let array = m.get("type").is_some_and(|t| {
                            t == "array"
                                || t == "ARRAY"
                                || t.as_array().is_some_and(|a| a.iter().any(|x| x == "array"))
                        });
                        if array && !m.contains_key("items") {
                            problems.push(format!("{ctx}{at}: array without items"));
                        }
                    });
                }
                if dialect != Dialect::Gemini {
                    visit(schema, "", &mut |at, m| {
                        check_required(&ctx, at, m, &mut problems)
                    });
                    check_refs(&ctx, schema, &mut problems);
                    check_defs_used(&ctx, schema, &mut problems);
                }
                check_root(&ctx, schema, &mut problems);
                if strict && *is_strict != strict {
                    assert!(
                        c.report.iter().any(
                            |e| e.tool.as_deref() == Some(mcp) && e.action == Action::NotStrict
                        ),
                        "{ctx}: fell back silently"
                    );
                }
                converted += 1;
            }
            for e in &c.report {
                assert!(
                    e.pointer.is_empty() || e.pointer.starts_with('/'),
                    "{ctx}: pointer {:?}",
                    e.pointer
                );
                assert!(!e.detail.is_empty(), "{ctx}: empty detail");
            }
            if dialect == Dialect::Prompted {
                let prompt = c.extra["prompt"].as_str().unwrap();
                for (name, _, _) in &decls {
                    assert!(
                        prompt.contains(&format!("## {name}\n")),
                        "{ctx}: prompt lacks {name}"
                    );
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(converted > 1500, "{converted}");
}

#[test]
fn the_checks_catch_known_bad_outputs() {
    use serde_json::json;
    let fires = |f: &dyn Fn(&mut Vec<String>)| {
        let mut p = Vec::new();
        f(&mut p);
        !p.is_empty()
    };
    // what the conversions produced before: GitHub projects_write, ha-mcp ha_call_service
    let type_and_any_of = json!({"type": "OBJECT", "properties": {"f": {"type": "OBJECT",
        "anyOf": [{"type": "OBJECT", "properties": {"id": {"type": "INTEGER"}}}]}}});
    assert!(fires(&|p| check_gemini("t", &type_and_any_of, p)));
    let empty_object =
        json!({"type": "OBJECT", "properties": {"data": {"type": "OBJECT", "nullable": true}}});
    assert!(fires(&|p| check_gemini("t", &empty_object, p)));
    let root_all_of =
        json!({"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}]});
    assert!(fires(&|p| check_root("t", &root_all_of, p)));
    let unused = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"type": "string"}, "B": {"type": "object"}}});
    assert!(fires(&|p| check_defs_used("t", &unused, p)));
    let tool = |n: usize| {
        (
            format!("t{n}"),
            Some(json!({"type": "object", "properties": {"a": {"type": "string"}}})),
            true,
        )
    };
    let many: Vec<_> = (0..21).map(tool).collect();
    assert!(fires(&|p| check_anthropic_request("t", &many, p)));
    let optional = json!({"type": "object", "properties": (0..25).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect::<Map<String, Value>>()});
    assert!(fires(&|p| check_anthropic_request(
        "t",
        &[("t".into(), Some(optional.clone()), true)],
        p
    )));
    // and they stay quiet on good ones
    let good = json!({"type": "OBJECT", "properties": {"f": {"anyOf": [{"type": "STRING"}], "nullable": true}}});
    assert!(!fires(&|p| check_gemini("t", &good, p)));
    assert!(!fires(&|p| check_anthropic_request("t", &many[..20], p)));
}

#[test]
fn descriptions_are_never_empty() {
    for (file, bytes) in inputs() {
        let catalog = Catalog::parse(&bytes).unwrap();
        for dialect in Dialect::ALL {
            let c = convert(&catalog, dialect, &Options::default());
            let text = serde_json::to_string(&c.tools).unwrap();
            assert!(
                !text.contains("\"description\":\"\""),
                "{file} {dialect}: empty description"
            );
            assert!(
                !text.contains("\"modelDescription\":\"\""),
                "{file} {dialect}: empty description"
            );
        }
    }
}

/// Resolves a report pointer in the input document: a JSON Pointer, where
/// a step that a `$ref` node does not have itself continues in the
/// definition it refers to (inside the same tool's schema), as report
/// pointers name the referring place.
fn resolve_through_refs<'v>(doc: &'v Value, pointer: &str) -> Option<&'v Value> {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut cur = doc;
    let mut root: Option<&Value> = None;
    for (i, t) in tokens.iter().enumerate() {
        let mut hops = 0;
        loop {
            let next = match cur {
                Value::Object(m) => m.get(t),
                Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
            if let Some(n) = next {
                cur = n;
                break;
            }
            let r = cur.get("$ref").and_then(Value::as_str)?;
            let target = r.strip_prefix('#').and_then(|p| root?.pointer(p))?;
            cur = target;
            hops += 1;
            if hops > 16 {
                return None;
            }
        }
        if matches!(t.as_str(), "inputSchema" | "outputSchema") && i >= 2 {
            root = Some(cur);
        }
    }
    Some(cur)
}

#[test]
fn report_pointers_resolve_in_the_input() {
    // pointers name the keyword in the input document (or, for entries that
    // add something, the place it was added); where a $ref was followed the
    // path goes on from the referring node into the definition
    let mut bad = Vec::new();
    for (file, bytes) in catalogs() {
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        let catalog = Catalog::parse(&bytes).unwrap();
        for (dialect, strict) in variants() {
            let c = convert(&catalog, dialect, &Options::strict(strict));
            for e in &c.report {
                let parent = e.pointer.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
                let ok = resolve_through_refs(&doc, &e.pointer).is_some()
                    || resolve_through_refs(&doc, parent).is_some();
                if !ok {
                    bad.push(format!(
                        "{file} {dialect}: {} does not resolve ({})",
                        e.pointer, e.detail
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn pointers_through_refs_resolve() {
    let doc = serde_json::json!({"result": {"tools": [{"inputSchema": {
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}]}, "B": {"properties": {"x": {"type": "string"}}}}}}]}});
    let p = "/result/tools/0/inputSchema/properties/a/anyOf/0/properties/x/type";
    assert_eq!(
        resolve_through_refs(&doc, p),
        Some(&Value::String("string".into()))
    );
    assert!(resolve_through_refs(&doc, "/result/tools/0/inputSchema/properties/a/nope").is_none());
}
