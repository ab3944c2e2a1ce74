//! The official JSON Schema Test Suite (draft 2020-12), for every keyword
//! file this crate claims: `validate(schema, data).is_empty() == valid`.
//! Known failures are listed with their reasons in `json_schema_suite.xfail`;
//! the test fails on a new failure and on a listed case that starts to pass.
//!
//! Files not claimed, and why:
//! * `refRemote.json`, `defs.json`: need remote documents (`localhost:1234`,
//!   the 2020-12 meta-schema); the validator never fetches anything.
//! * `dynamicRef.json`: `$dynamicRef` is read as a plain `$ref` to its
//!   anchor; dynamic scope is not implemented.
//! * `unevaluatedItems.json`, `unevaluatedProperties.json`: need annotation
//!   collection across applicators, not implemented (the keywords are
//!   ignored).
//! * `vocabulary.json`: needs custom meta-schemas with `$vocabulary`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

/// Every keyword file claimed.
const CLAIMED: &[&str] = &[
    "additionalProperties",
    "allOf",
    "anchor",
    "anyOf",
    "boolean_schema",
    "const",
    "contains",
    "content",
    "default",
    "dependentRequired",
    "dependentSchemas",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "if-then-else",
    "infinite-loop-detection",
    "items",
    "maxContains",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minContains",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "oneOf",
    "pattern",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "ref",
    "required",
    "type",
    "uniqueItems",
];

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/json-schema-test-suite/draft2020-12")
}

/// `(file, group, test)` → reason.
fn xfail() -> BTreeMap<(String, String, String), String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/json_schema_suite.xfail");
    let text = std::fs::read_to_string(&path).expect("tests/json_schema_suite.xfail");
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split(" | ").map(str::trim).collect();
        assert!(
            parts.len() == 4 && parts.iter().all(|p| !p.is_empty()),
            "xfail line {}: want `file | group | test | reason`: {line}",
            n + 1
        );
        let key = (
            parts[0].to_string(),
            parts[1].to_string(),
            parts[2].to_string(),
        );
        assert!(
            out.insert(key, parts[3].to_string()).is_none(),
            "xfail line {} repeats a case",
            n + 1
        );
    }
    out
}

#[test]
fn official_suite_draft2020_12() {
    let xfail = xfail();
    let mut seen_xfail = BTreeSet::new();
    let mut new_failures = Vec::new();
    let mut now_passing = Vec::new();
    let mut summary = Vec::new();
    let (mut passed, mut xfailed) = (0, 0);
    for file in CLAIMED {
        let path = suite_dir().join(format!("{file}.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite file is JSON");
        let (mut file_pass, mut file_xfail, mut file_total) = (0, 0, 0);
        for group in &groups {
            let gdesc = group["description"].as_str().unwrap_or_default();
            for test in group["tests"].as_array().into_iter().flatten() {
                let tdesc = test["description"].as_str().unwrap_or_default();
                let want = test["valid"].as_bool().expect("valid is a boolean");
                let errors = mcp_switchboard::validate(&group["schema"], &test["data"]);
                let ok = errors.is_empty() == want;
                let key = (file.to_string(), gdesc.to_string(), tdesc.to_string());
                file_total += 1;
                match (ok, xfail.contains_key(&key)) {
                    (true, false) => file_pass += 1,
                    (false, true) => {
                        file_xfail += 1;
                        seen_xfail.insert(key);
                    }
                    (true, true) => {
                        seen_xfail.insert(key.clone());
                        now_passing.push(format!("{file} | {gdesc} | {tdesc}"));
                    }
                    (false, false) => new_failures.push(format!(
                        "{file} | {gdesc} | {tdesc} | want valid={want}, got {errors:?}"
                    )),
                }
            }
        }
        passed += file_pass;
        xfailed += file_xfail;
        summary.push(format!(
            "  {file:<26} {file_pass:>3} passed, {file_xfail:>2} xfail, of {file_total}"
        ));
    }
    let stale: Vec<_> = xfail
        .keys()
        .filter(|k| !seen_xfail.contains(*k))
        .map(|(f, g, t)| format!("{f} | {g} | {t}"))
        .collect();
    println!("JSON Schema Test Suite, draft 2020-12: {passed} passed, {xfailed} xfail");
    for line in &summary {
        println!("{line}");
    }
    assert!(
        new_failures.is_empty(),
        "new failures:\n{}",
        new_failures.join("\n")
    );
    assert!(
        now_passing.is_empty(),
        "listed in the xfail file but now passing (remove them):\n{}",
        now_passing.join("\n")
    );
    assert!(
        stale.is_empty(),
        "xfail entries that match no claimed case:\n{}",
        stale.join("\n")
    );
}
