//! Plain-word renderings of schema constraints, for descriptions and for
//! the prompted dialect.

use serde_json::{Map, Value};

/// The longest JSON text quoted inside a sentence before it is shortened.
const QUOTE_MAX: usize = 80;

/// Compact JSON for a value, shortened with `…` when long.
pub(crate) fn quote(v: &Value) -> String {
    let s = v.to_string();
    shorten(&s, QUOTE_MAX)
}

/// Cuts `s` to at most `max` characters, ending in `…` when cut.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    crate::text::cut(s, max, crate::text::Cut::Fit)
}

/// A number as people write it (`5`, `0.5`).
pub(crate) fn num(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        other => quote(other),
    }
}

/// What a `format` means, as a noun phrase ("a URI").
pub(crate) fn format_phrase(format: &str) -> String {
    match format {
        "uri" | "url" => "a URI".into(),
        "uri-reference" => "a URI reference".into(),
        "iri" => "an IRI".into(),
        "email" | "idn-email" => "an email address".into(),
        "uuid" => "a UUID".into(),
        "date" => "a date (YYYY-MM-DD)".into(),
        "time" => "a time of day (HH:MM:SS)".into(),
        "date-time" => "a date and time (RFC 3339, like 2025-01-31T13:45:00Z)".into(),
        "duration" => "an ISO 8601 duration (like PT15M)".into(),
        "ipv4" => "an IPv4 address".into(),
        "ipv6" => "an IPv6 address".into(),
        "hostname" | "idn-hostname" => "a host name".into(),
        "regex" => "a regular expression".into(),
        "json-pointer" => "a JSON Pointer".into(),
        "byte" => "base64-encoded data".into(),
        "binary" => "binary data".into(),
        "int32" => "a 32-bit integer".into(),
        "int64" => "a 64-bit integer".into(),
        "float" | "double" => "a floating-point number".into(),
        other => format!("in {other:?} format"),
    }
}

/// A short noun phrase for a schema ("a string", "an integer from 0 to
/// 100", "one of \"a\", \"b\"", "an array of strings").
pub(crate) fn summary(v: &Value) -> String {
    summary_at(v, 0, 8)
}

/// [`summary`] that lists up to `enum_max` enum values (the prompted
/// dialect shows them all, as they are the only place the model sees them).
pub(crate) fn summary_listing(v: &Value, enum_max: usize) -> String {
    summary_at(v, 0, enum_max)
}

fn summary_at(v: &Value, depth: usize, enum_max: usize) -> String {
    let m = match v {
        Value::Bool(true) => return "any value".into(),
        Value::Bool(false) => return "nothing".into(),
        Value::Object(m) => m,
        _ => return "any value".into(),
    };
    if depth > 3 {
        return "a value".into();
    }
    if let Some(Value::Array(values)) = m.get("enum") {
        let shown: Vec<String> = values.iter().take(enum_max).map(quote).collect();
        let more = if values.len() > enum_max { ", …" } else { "" };
        return format!("one of {}{more}", shown.join(", "));
    }
    if let Some(c) = m.get("const") {
        return format!("exactly {}", quote(c));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = m.get(key) {
            let parts: Vec<String> = branches
                .iter()
                .take(6)
                .map(|b| summary_at(b, depth + 1, enum_max))
                .collect();
            return parts.join(" or ");
        }
    }
    let types: Vec<&str> = match m.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() {
        return "any value".into();
    }
    let parts: Vec<String> = types.iter().map(|t| typed(m, t, depth, enum_max)).collect();
    parts.join(" or ")
}

fn typed(m: &Map<String, Value>, ty: &str, depth: usize, enum_max: usize) -> String {
    let range = range_words(m.get("minimum"), m.get("maximum"));
    match ty {
        "string" => match m.get("format").and_then(Value::as_str) {
            Some(f) if f != "enum" => format!("a string, {}", format_phrase(f)),
            _ => "a string".into(),
        },
        "integer" => format!("an integer{range}"),
        "number" => format!("a number{range}"),
        "boolean" => "true or false".into(),
        "null" => "null".into(),
        "array" => match m.get("items") {
            Some(items) if items.get("enum").is_some() => {
                format!(
                    "an array whose items are each {}",
                    summary_at(items, depth + 1, enum_max)
                )
            }
            Some(items) if items.is_object() => {
                format!(
                    "an array of {}",
                    plural(&summary_at(items, depth + 1, enum_max))
                )
            }
            _ => "an array".into(),
        },
        "object" => match m.get("properties").and_then(Value::as_object) {
            Some(p) if !p.is_empty() => {
                let keys: Vec<&str> = p.keys().take(6).map(String::as_str).collect();
                format!("an object with {}", keys.join(", "))
            }
            _ => "an object".into(),
        },
        other => format!("a {other}"),
    }
}

fn range_words(min: Option<&Value>, max: Option<&Value>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!(" from {} to {}", num(a), num(b)),
        (Some(a), None) => format!(" of at least {}", num(a)),
        (None, Some(b)) => format!(" of at most {}", num(b)),
        (None, None) => String::new(),
    }
}

/// "a string" → "strings"; other phrases are kept as "values that are …".
fn plural(phrase: &str) -> String {
    for (one, many) in [
        ("a string", "strings"),
        ("an integer", "integers"),
        ("a number", "numbers"),
        ("an object", "objects"),
        ("an array", "arrays"),
    ] {
        if let Some(rest) = phrase.strip_prefix(one) {
            return format!("{many}{rest}");
        }
    }
    format!("values that are {phrase}")
}

/// Appends sentences to a description, keeping its own punctuation.
pub(crate) fn append(description: Option<&str>, notes: &[String]) -> String {
    let mut out = description.unwrap_or("").trim_end().to_string();
    for note in notes {
        if note.is_empty() {
            continue;
        }
        if !out.is_empty() {
            if !out.ends_with(['.', '!', '?', ':', ';']) {
                out.push('.');
            }
            out.push(' ');
        }
        out.push_str(note);
    }
    out
}

/// "HassTurnOn" → "Hass turn on", "get_home_structure" → "Get home structure".
pub(crate) fn readable_name(name: &str) -> String {
    let words = crate::text::split_identifier(name);
    let mut out = words.join(" ").to_lowercase();
    if let Some(first) = out.get(0..1) {
        let upper = first.to_ascii_uppercase();
        out.replace_range(0..1, &upper);
    }
    if out.is_empty() {
        name.to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summaries_read_naturally() {
        assert_eq!(summary(&json!({"type": "string"})), "a string");
        assert_eq!(
            summary(&json!({"type": "integer", "minimum": 0, "maximum": 100})),
            "an integer from 0 to 100"
        );
        assert_eq!(
            summary(&json!({"type": "array", "items": {"type": "string"}})),
            "an array of strings"
        );
        assert_eq!(summary(&json!({"enum": ["a", 1]})), "one of \"a\", 1");
        assert_eq!(
            summary(&json!({"anyOf": [{"type": "string"}, {"type": "null"}]})),
            "a string or null"
        );
        assert_eq!(
            summary(&json!({"type": ["string", "null"]})),
            "a string or null"
        );
        assert_eq!(
            summary(&json!({"type": "string", "format": "uri"})),
            "a string, a URI"
        );
    }

    #[test]
    fn append_keeps_punctuation() {
        assert_eq!(
            append(Some("max rows"), &["At most 5.".into()]),
            "max rows. At most 5."
        );
        assert_eq!(
            append(Some("Rows:"), &["At most 5.".into()]),
            "Rows: At most 5."
        );
        assert_eq!(append(None, &["A.".into(), "B.".into()]), "A. B.");
    }

    #[test]
    fn readable_names() {
        assert_eq!(readable_name("HassTurnOn"), "Hass turn on");
        assert_eq!(readable_name("get_home_structure"), "Get home structure");
        assert_eq!(readable_name("light__HassLightSet"), "Light hass light set");
        assert_eq!(shorten("abcdef", 4), "abc…");
    }
}
