//! Messages for people and models: what to send instead, in plain words,
//! and what was sent, in a few words. Descriptions look a bounded number of
//! levels into the schema, and lists are cut, so no message is long.

use serde_json::{Map, Value};

use super::refs::Index;
use super::value::{compact, count_limit, quote_str, short};

/// References followed, and levels entered, when describing a schema.
const HOPS: usize = 3;
/// Enum values listed before the rest is counted.
const ENUM_LIST: usize = 20;
/// Property names listed before the rest is counted.
const NAME_LIST: usize = 12;
/// Characters of a description or pattern quoted in a message.
const TEXT_MAX: usize = 120;

/// What the schema object `m` wants, as [`must`] says it.
pub(crate) fn wanted(ix: &Index<'_>, base: &str, m: &Map<String, Value>) -> String {
    describe_map(ix, base, m, 0)
}

/// "must be {what the schema wants}; got {the value}", given what the
/// schema object `m` wants (from [`wanted`]).
pub(crate) fn must(wanted: &str, m: &Map<String, Value>, v: &Value) -> String {
    let lengths = m.contains_key("minLength") || m.contains_key("maxLength");
    let got = match v {
        Value::String(s) if lengths => {
            let quoted = quote_str(s);
            if quoted.ends_with(" characters)") {
                quoted
            } else {
                let n = s.chars().count();
                format!("{quoted} ({n} character{})", plural(n as u64))
            }
        }
        _ => short(v),
    };
    format!("must be {wanted}; got {got}")
}

/// What a `false` schema says.
pub(crate) fn nothing_allowed(v: &Value) -> String {
    format!("no value is allowed here; got {}", short(v))
}

/// "must not be ...".
pub(crate) fn must_not(ix: &Index<'_>, base: &str, sub: &Value, v: &Value) -> String {
    format!("must not be {}; got {}", describe(ix, base, sub), short(v))
}

/// A `contains` / `maxContains` failure.
pub(crate) fn contains(
    ix: &Index<'_>,
    base: &str,
    sub: &Value,
    n: u64,
    found: u64,
    at_least: bool,
) -> String {
    let bound = if at_least { "at least" } else { "at most" };
    format!(
        "must contain {bound} {n} item{} that {} {}; got {found}",
        plural(n),
        if n == 1 { "is" } else { "are" },
        describe(ix, base, sub)
    )
}

/// A count limit: items or properties.
pub(crate) fn count(n: u64, got: usize, noun: &str, at_least: bool) -> String {
    let bound = if at_least { "at least" } else { "at most" };
    let nouns = |k: u64| {
        if k == 1 {
            noun.to_string()
        } else if noun == "property" {
            "properties".to_string()
        } else {
            format!("{noun}s")
        }
    };
    format!("must have {bound} {n} {}; got {got}", nouns(n))
}

/// Members not allowed by `additionalProperties: false`.
pub(crate) fn unknown(
    names: &[&str],
    declared: Option<&Map<String, Value>>,
    patterns: &[(&str, &Value)],
) -> String {
    let listed = list(names.iter().map(|n| quote_str(n)), names.len(), NAME_LIST);
    let head = if names.len() == 1 {
        format!("unknown property {listed}")
    } else {
        format!("unknown properties {listed}")
    };
    let mut allowed: Vec<String> = Vec::new();
    if let Some(d) = declared {
        allowed.push(list(d.keys().cloned(), d.len(), NAME_LIST));
    }
    if !patterns.is_empty() {
        let p = list(
            patterns.iter().map(|(p, _)| cut(p, TEXT_MAX)),
            patterns.len(),
            NAME_LIST,
        );
        allowed.push(format!("names matching {p}"));
    }
    if allowed.iter().all(String::is_empty) {
        format!("{head}; this object takes no properties")
    } else {
        allowed.retain(|a| !a.is_empty());
        format!("{head}; allowed: {}", allowed.join(", or "))
    }
}

/// A missing member: "required (a string, the ID of the light device)".
pub(crate) fn required(
    ix: &Index<'_>,
    base: &str,
    prop: Option<&Value>,
    trigger: Option<&str>,
) -> String {
    let mut head = "required".to_string();
    if let Some(t) = trigger {
        head.push_str(&format!(" when {} is given", quote_str(t)));
    }
    let Some(prop) = prop else { return head };
    let mut parts = Vec::new();
    let what = describe(ix, base, prop);
    if what != "any value" {
        parts.push(what);
    }
    if let Some(d) = description(ix, base, prop) {
        parts.push(d);
    }
    if parts.is_empty() {
        head
    } else {
        format!("{head} ({})", parts.join(", "))
    }
}

/// A member name that `propertyNames` rejects.
pub(crate) fn property_name(ix: &Index<'_>, base: &str, name: &str, sub: &Value) -> String {
    format!(
        "property name {} is not allowed: names must be {}",
        quote_str(name),
        describe(ix, base, sub)
    )
}

/// A failed `anyOf` / `oneOf`, summed up.
pub(crate) fn alternatives(
    ix: &Index<'_>,
    base: &str,
    subs: &[Value],
    v: &Value,
    keyword: &str,
    passing: &[usize],
) -> String {
    if let Some(m) = required_choice(subs, v, keyword, passing) {
        return m;
    }
    let mut described: Vec<String> = Vec::new();
    for s in subs.iter().take(ENUM_LIST) {
        let d = describe(ix, base, s);
        if !described.contains(&d) {
            described.push(d);
        }
    }
    let more = subs.len().saturating_sub(ENUM_LIST);
    let mut options = match &described[..] {
        [one] => one.clone(),
        [a, b] => format!("either {a} or {b}"),
        many => {
            let n = many.len();
            let mut out = String::from("one of: ");
            for (i, d) in many.iter().enumerate() {
                if i > 0 {
                    out.push_str(if i + 1 == n && more == 0 {
                        "; or "
                    } else {
                        "; "
                    });
                }
                out.push_str(d);
            }
            out
        }
    };
    if more > 0 {
        options.push_str(&format!("; or {more} more"));
    }
    if keyword == "oneOf" && passing.len() > 1 {
        let numbered: Vec<String> = subs
            .iter()
            .take(ENUM_LIST)
            .enumerate()
            .map(|(i, s)| format!("({}) {}", i + 1, describe(ix, base, s)))
            .collect();
        let which: Vec<String> = passing.iter().map(|i| (i + 1).to_string()).collect();
        return format!(
            "must match exactly one of: {}; it matches {}",
            numbered.join("; "),
            which.join(" and ")
        );
    }
    format!("must be {options}; got {}", short(v))
}

/// A failed choice between sets of required members (`anyOf: [{required:
/// [a]}, {required: [b]}]`) said as one: "give at least one of a, b".
/// `None` when the alternatives say more than which members to give, or
/// the value is not an object.
fn required_choice(subs: &[Value], v: &Value, keyword: &str, passing: &[usize]) -> Option<String> {
    let given = v.as_object()?;
    let mut sets: Vec<String> = Vec::new();
    for sub in subs.iter().take(ENUM_LIST) {
        let m = sub.as_object()?;
        let only_required = m.keys().all(|k| {
            matches!(
                k.as_str(),
                "required" | "type" | "title" | "description" | "$comment"
            )
        }) && m.get("type").is_none_or(|t| t == "object");
        let names: Vec<&str> = m
            .get("required")?
            .as_array()?
            .iter()
            .map(Value::as_str)
            .collect::<Option<_>>()?;
        if !only_required || names.is_empty() {
            return None;
        }
        let set = names.join(" and ");
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    let more = subs.len().saturating_sub(ENUM_LIST);
    let mut options = sets.join(if sets.iter().any(|s| s.contains(" and ")) {
        "; or "
    } else {
        ", "
    });
    if more > 0 {
        options.push_str(&format!(" ({} in all)", subs.len()));
    }
    if keyword == "oneOf" && passing.len() > 1 {
        let mut present: Vec<&str> = given.keys().map(String::as_str).collect();
        present.retain(|k| sets.iter().any(|s| s.split(" and ").any(|n| n == *k)));
        return Some(format!(
            "give only one of {options}; got {}",
            present.join(" and ")
        ));
    }
    let how = if keyword == "oneOf" {
        "exactly"
    } else {
        "at least"
    };
    Some(format!("give {how} one of {options}"))
}

/// A schema as a noun phrase: "an integer from 0 to 100", "one of \"on\",
/// \"off\"", "a string or null".
pub(crate) fn describe(ix: &Index<'_>, base: &str, s: &Value) -> String {
    describe_at(ix, base, s, 0)
}

fn describe_at(ix: &Index<'_>, base: &str, s: &Value, hops: usize) -> String {
    match s {
        Value::Bool(false) => "nothing (no value is allowed)".into(),
        Value::Object(m) => {
            let base = ix.id_base(s).map_or(base, |b| &**b);
            describe_map(ix, base, m, hops)
        }
        _ => "any value".into(),
    }
}

fn describe_map(ix: &Index<'_>, base: &str, m: &Map<String, Value>, hops: usize) -> String {
    if let Some(c) = m.get("const") {
        return short_value(c);
    }
    if let Some(Value::Array(values)) = m.get("enum") {
        return match &values[..] {
            [one] => short_value(one),
            _ => format!(
                "one of {}",
                list(values.iter().map(short_value), values.len(), ENUM_LIST)
            ),
        };
    }
    let types: Vec<&str> = match m.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() && hops < HOPS {
        if let Some(Value::String(r)) = m.get("$ref") {
            if let Some((target, tbase)) = ix.resolve(base, r) {
                return describe_at(ix, &tbase, target, hops + 1);
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(subs)) = m.get(key) {
                let mut parts: Vec<String> = Vec::new();
                for sub in subs.iter().take(ENUM_LIST) {
                    let d = describe_at(ix, base, sub, hops + 1);
                    if !parts.contains(&d) {
                        parts.push(d);
                    }
                }
                if !parts.is_empty() {
                    return parts.join(" or ");
                }
            }
        }
        if let Some(Value::Array(subs)) = m.get("allOf") {
            if let [only] = &subs[..] {
                return describe_at(ix, base, only, hops + 1);
            }
        }
    }
    let types = if types.is_empty() {
        inferred_type(m).into_iter().collect()
    } else {
        types
    };
    if types.is_empty() {
        return "any value".into();
    }
    let mut phrases: Vec<String> = Vec::new();
    for t in types {
        let phrase = match t {
            "integer" => numeric("an integer", m),
            "number" => numeric("a number", m),
            "string" => string(m),
            "boolean" => "a boolean (true or false)".into(),
            "null" => "null".into(),
            "array" => array(ix, base, m, hops),
            "object" => object(m),
            other => format!("of type {}", quote_str(other)),
        };
        if !phrases.contains(&phrase) {
            phrases.push(phrase);
        }
    }
    phrases.join(" or ")
}

/// The type a schema without `type` is evidently about.
fn inferred_type(m: &Map<String, Value>) -> Option<&'static str> {
    let has = |keys: &[&str]| keys.iter().any(|k| m.contains_key(*k));
    if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        Some("number")
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        Some("string")
    } else if has(&[
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
    ]) {
        Some("array")
    } else if has(&[
        "properties",
        "required",
        "additionalProperties",
        "minProperties",
        "maxProperties",
    ]) {
        Some("object")
    } else {
        None
    }
}

fn num(m: &Map<String, Value>, key: &str) -> Option<String> {
    match m.get(key) {
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

fn numeric(noun: &str, m: &Map<String, Value>) -> String {
    let draft4 = |k: &str| m.get(k) == Some(&Value::Bool(true));
    let lower = match (num(m, "exclusiveMinimum"), num(m, "minimum")) {
        (Some(x), _) => Some((x, false)),
        (None, Some(x)) => Some((x, !draft4("exclusiveMinimum"))),
        _ => None,
    };
    let upper = match (num(m, "exclusiveMaximum"), num(m, "maximum")) {
        (Some(x), _) => Some((x, false)),
        (None, Some(x)) => Some((x, !draft4("exclusiveMaximum"))),
        _ => None,
    };
    let mut out = noun.to_string();
    match (lower, upper) {
        (Some((a, true)), Some((b, true))) => out.push_str(&format!(" from {a} to {b}")),
        (lower, upper) => {
            let mut parts = Vec::new();
            if let Some((a, inclusive)) = lower {
                parts.push(if inclusive {
                    format!("at least {a}")
                } else {
                    format!("greater than {a}")
                });
            }
            if let Some((b, inclusive)) = upper {
                parts.push(if inclusive {
                    format!("at most {b}")
                } else {
                    format!("less than {b}")
                });
            }
            if !parts.is_empty() {
                out.push(' ');
                out.push_str(&parts.join(" and "));
            }
        }
    }
    if let Some(k) = num(m, "multipleOf") {
        out.push_str(&format!(" that is a multiple of {k}"));
    }
    out
}

fn format_noun(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "a date and time (RFC 3339, like 2025-01-31T13:45:00Z)",
        "date" => "a date (YYYY-MM-DD)",
        "time" => "a time of day with offset (like 13:45:00Z or 13:45:00+01:00)",
        "email" => "an email address",
        "uri" => "an absolute URI (like https://example.com/page)",
        "uuid" => "a UUID (like 123e4567-e89b-12d3-a456-426614174000)",
        "ipv4" => "an IPv4 address",
        "ipv6" => "an IPv6 address",
        "hostname" => "a host name",
        _ => return None,
    })
}

fn string(m: &Map<String, Value>) -> String {
    let mut out = m
        .get("format")
        .and_then(Value::as_str)
        .and_then(format_noun)
        .unwrap_or("a string")
        .to_string();
    let min = m.get("minLength").and_then(count_limit);
    let max = m.get("maxLength").and_then(count_limit);
    match (min, max) {
        (Some(a), Some(b)) if a == b => {
            out.push_str(&format!(" of exactly {a} character{}", plural(a)))
        }
        (Some(a), Some(b)) => out.push_str(&format!(" of {a} to {b} characters")),
        (Some(a), None) if a > 0 => {
            out.push_str(&format!(" of at least {a} character{}", plural(a)))
        }
        (None, Some(b)) => out.push_str(&format!(" of at most {b} character{}", plural(b))),
        _ => {}
    }
    if let Some(Value::String(p)) = m.get("pattern") {
        out.push_str(&format!(" matching the pattern {}", cut(p, TEXT_MAX)));
    }
    out
}

fn array(ix: &Index<'_>, base: &str, m: &Map<String, Value>, hops: usize) -> String {
    let mut out = String::from("an array");
    if let Some(items @ Value::Object(_)) = m.get("items") {
        if hops < HOPS {
            let d = describe_at(ix, base, items, hops + 1);
            if d != "any value" {
                out = format!("an array of {}", plural_noun(&d));
            }
        }
    }
    let min = m.get("minItems").and_then(count_limit);
    let max = m.get("maxItems").and_then(count_limit);
    match (min, max) {
        (Some(a), Some(b)) if a == b => {
            out.push_str(&format!(" with exactly {a} item{}", plural(a)))
        }
        (Some(a), Some(b)) => out.push_str(&format!(" with {a} to {b} items")),
        (Some(a), None) if a > 0 => out.push_str(&format!(" with at least {a} item{}", plural(a))),
        (None, Some(b)) => out.push_str(&format!(" with at most {b} item{}", plural(b))),
        _ => {}
    }
    if m.get("uniqueItems") == Some(&Value::Bool(true)) {
        out.push_str(", no two equal");
    }
    out
}

fn object(m: &Map<String, Value>) -> String {
    let Some(Value::Object(props)) = m.get("properties") else {
        return "an object".into();
    };
    if props.is_empty() {
        return "an object".into();
    }
    let required: Vec<&str> = match m.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let names = props.iter().map(|(k, p)| {
        let mut name = k.clone();
        if let Some(c) = p.get("const") {
            name.push_str(&format!(" = {}", compact(c)));
        }
        if required.contains(&k.as_str()) {
            name.push_str(" (required)");
        }
        name
    });
    format!("an object with {}", list(names, props.len(), NAME_LIST))
}

/// "a string" → "strings"; anything else → "items that are ...".
fn plural_noun(d: &str) -> String {
    for (one, many) in [
        ("a string", "strings"),
        ("an integer", "integers"),
        ("a number", "numbers"),
        ("a boolean (true or false)", "booleans"),
        ("an object", "objects"),
        ("an array", "arrays"),
    ] {
        if d == one {
            return many.to_string();
        }
    }
    format!("items that are each {d}")
}

/// The property's `description`, shortened and lower-cased at the start
/// ("The ID of the light" → "the ID of the light").
fn description(ix: &Index<'_>, base: &str, s: &Value) -> Option<String> {
    let mut node = s;
    for _ in 0..HOPS {
        if let Some(Value::String(d)) = node.get("description") {
            let d = d.trim().trim_end_matches('.');
            if d.is_empty() {
                return None;
            }
            let mut chars = d.chars();
            let first = chars.next()?;
            let second = chars.next();
            let d = if first.is_uppercase() && second.is_some_and(char::is_lowercase) {
                let rest = d.get(first.len_utf8()..).unwrap_or_default();
                format!("{}{rest}", first.to_lowercase())
            } else {
                d.to_string()
            };
            return Some(cut(&d, TEXT_MAX));
        }
        let Some(Value::String(r)) = node.get("$ref") else {
            return None;
        };
        node = ix.resolve(base, r)?.0;
    }
    None
}

/// An enum or const value as written in JSON, short.
fn short_value(v: &Value) -> String {
    compact(v)
}

/// Items joined with ", ", cut after `max` with the total said.
fn list(items: impl Iterator<Item = String>, total: usize, max: usize) -> String {
    let shown: Vec<String> = items.take(max).collect();
    let mut out = shown.join(", ");
    if total > max {
        out.push_str(&format!(", … ({total} in all)"));
    }
    out
}

fn cut(s: &str, max: usize) -> String {
    crate::text::cut(s, max, crate::text::Cut::Keep)
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
