//! Rule: constraints the dialect cannot express move into the description
//! in plain words ("At most 5 items.", "Must be a multiple of 0.5.", "Keys
//! are free; values are strings."). What has no words is left for the
//! keyword allowlist, which drops and reports it.

use serde_json::Value;

use super::{words, At, Cx, Kw, Node};
use crate::report::Action;

/// `(lower keyword, upper keyword, unit)` pairs said together.
const RANGES: &[(Kw, Kw, &str)] = &[
    (kw!("minimum"), kw!("maximum"), ""),
    (kw!("minLength"), kw!("maxLength"), " characters"),
    (kw!("minItems"), kw!("maxItems"), " items"),
    (kw!("minProperties"), kw!("maxProperties"), " entries"),
    (kw!("minContains"), kw!("maxContains"), " matching items"),
];

/// What becomes of one keyword the dialect does not accept.
enum Fate {
    Kept,
    Said(String),
    /// Said, and the values it allowed can no longer be sent: other keys
    /// of an object whose dialect offers only the declared properties.
    Lost(String, &'static str),
    /// A title standing in for the missing description.
    Title(String),
}

pub(super) fn apply(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if let Some(cap) = cx.target.max_min_items {
        if node
            .map
            .get(kw!("minItems"))
            .and_then(Value::as_u64)
            .is_some_and(|n| n > cap)
        {
            let n = node
                .map
                .shift_remove(kw!("minItems"))
                .map(|v| v.into_owned())
                .unwrap_or(Value::Null);
            node.notes
                .push(format!("At least {} items.", words::num(&n)));
            cx.note(
                at,
                "minItems",
                Action::Described,
                format!("minItems above {cap} is not accepted here; said in the description"),
            );
        }
    }
    for &(lo, hi, unit) in RANGES {
        let lo_v = (!cx.allows(lo))
            .then(|| node.map.shift_remove(lo))
            .flatten();
        let hi_v = (!cx.allows(hi))
            .then(|| node.map.shift_remove(hi))
            .flatten();
        let sentence = match (&lo_v, &hi_v) {
            (Some(a), Some(b)) => format!("From {} to {}{unit}.", words::num(a), words::num(b)),
            (Some(a), None) => format!("At least {}{unit}.", words::num(a)),
            (None, Some(b)) => format!("At most {}{unit}.", words::num(b)),
            (None, None) => continue,
        };
        node.notes.push(sentence);
        for (k, v) in [(lo, lo_v), (hi, hi_v)] {
            if v.is_some() {
                cx.note(
                    at,
                    k.name(),
                    Action::Described,
                    format!("{k} is not accepted here; said in the description"),
                );
            }
        }
    }
    let has_props = node
        .map
        .get(kw!("properties"))
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    // objects that declare properties take only those where the dialect
    // cannot say "other keys" (Gemini's `parameters`)
    let closed_by_properties = !cx.allows(kw!("additionalProperties"));
    pattern_keys(cx, node, at);
    // every keyword the dialect does not take, in order; a keyword said in
    // words is removed, so the next one moves to `i`
    let mut i = 0;
    while let Some((bit, key, value)) = node.map.get_index(i) {
        if cx.allows_key(bit, key) {
            i += 1;
            continue;
        }
        let fate = match (key, value) {
            ("multipleOf", v) => Fate::Said(format!("Must be a multiple of {}.", words::num(v))),
            ("uniqueItems", Value::Bool(true)) => Fate::Said("Items must be unique.".into()),
            ("pattern", Value::String(p)) => Fate::Said(format!(
                "Must match the regular expression {}.",
                words::shorten(p, 200)
            )),
            ("propertyNames", v) => Fate::Said(match v.get("pattern").and_then(Value::as_str) {
                Some(p) => format!("Keys must match the regular expression {p}."),
                None => format!("Keys must be {}.", words::summary(v)),
            }),
            ("patternProperties", Value::Object(pp)) => {
                let parts: Vec<String> = pp
                    .iter()
                    .map(|(p, s)| format!("keys matching {p} take {}", words::summary(s)))
                    .collect();
                let said = format!("Other keys are allowed: {}.", parts.join("; "));
                if closed_by_properties {
                    Fate::Lost(said, OTHER_KEYS)
                } else {
                    Fate::Said(said)
                }
            }
            ("additionalProperties", Value::Bool(true)) => {
                if has_props && closed_by_properties {
                    Fate::Lost("Other keys are allowed too.".into(), OTHER_KEYS)
                } else if has_props {
                    Fate::Said("Other keys are allowed too.".into())
                } else {
                    Fate::Said("Any keys are allowed.".into())
                }
            }
            ("additionalProperties", v @ Value::Object(_)) => {
                let said = if has_props {
                    format!(
                        "Other keys are allowed; their values are {}.",
                        words::summary(v)
                    )
                } else {
                    format!("Keys are free; each value is {}.", words::summary(v))
                };
                if has_props && closed_by_properties {
                    Fate::Lost(said, OTHER_KEYS)
                } else {
                    Fate::Said(said)
                }
            }
            ("not", v) => Fate::Said(format!("Must not be {}.", words::summary(v))),
            ("examples", Value::Array(ex)) if !ex.is_empty() => {
                let shown: Vec<String> = ex.iter().take(3).map(words::quote).collect();
                Fate::Said(format!(
                    "Example{}: {}.",
                    if shown.len() > 1 { "s" } else { "" },
                    shown.join(", ")
                ))
            }
            ("example", v) => Fate::Said(format!("Example: {}.", words::quote(v))),
            ("default", v) => Fate::Said(format!("Default: {}.", words::quote(v))),
            ("dependentRequired", Value::Object(deps)) => {
                let parts: Vec<String> = deps
                    .iter()
                    .map(|(k, v)| {
                        let names: Vec<String> = v
                            .as_array()
                            .map(|a| a.iter().map(words::quote).collect())
                            .unwrap_or_default();
                        format!("if {k} is given, {} must be given too", names.join(", "))
                    })
                    .collect();
                Fate::Said(format!("{}.", capitalise(&parts.join("; "))))
            }
            ("contains", v) => Fate::Said(format!(
                "Must contain an item that is {}.",
                words::summary(v)
            )),
            ("deprecated", Value::Bool(true)) => Fate::Said("Deprecated.".into()),
            ("contentEncoding", Value::String(e)) => Fate::Said(format!("Encoded as {e}.")),
            ("contentMediaType", Value::String(m)) => {
                Fate::Said(format!("Content of media type {m}."))
            }
            ("const", v) => Fate::Said(format!("Must be exactly {}.", words::quote(v))),
            ("enum", Value::Array(values)) => {
                let shown: Vec<String> = values.iter().take(50).map(words::quote).collect();
                Fate::Said(format!("One of {}.", shown.join(", ")))
            }
            ("title", Value::String(t))
                if !node.map.contains_key(kw!("description")) && cx.allows(kw!("description")) =>
            {
                Fate::Title(t.clone())
            }
            _ => Fate::Kept,
        };
        match fate {
            Fate::Kept => i += 1,
            Fate::Said(s) => {
                let Some((key, _)) = node.map.remove_index(i) else {
                    break;
                };
                node.notes.push(s);
                cx.note(
                    at,
                    &key,
                    Action::Described,
                    format!("{key} is not accepted here; said in the description"),
                );
            }
            Fate::Lost(s, why) => {
                let Some((key, _)) = node.map.remove_index(i) else {
                    break;
                };
                node.notes.push(s);
                cx.note(at, &key, Action::Narrowed, why);
            }
            Fate::Title(t) => {
                node.map.remove_index(i);
                node.map.insert(kw!("description"), Value::String(t));
                cx.note(
                    at,
                    "title",
                    Action::Rewritten,
                    "title used as the description",
                );
            }
        }
    }
}

/// Why other keys of an object can no longer be sent.
const OTHER_KEYS: &str = "other keys are not offered: objects in this dialect take only their declared properties; said in the description";

/// `patternProperties` where the dialect keeps `additionalProperties` but
/// not them: the keys they allow must stay allowed, so a closed or typed
/// `additionalProperties` (which would now judge those keys) goes too, in
/// words.
fn pattern_keys(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if cx.allows(kw!("patternProperties"))
        || !cx.allows(kw!("additionalProperties"))
        || !node.map.contains_key(kw!("patternProperties"))
    {
        return;
    }
    let rest = match node.map.get(kw!("additionalProperties")) {
        Some(Value::Bool(false)) => "no other keys".to_string(),
        Some(v @ Value::Object(_)) => format!("other keys take {}", words::summary(v)),
        _ => return,
    };
    let Some(Value::Object(pp)) = node
        .map
        .shift_remove(kw!("patternProperties"))
        .as_deref()
        .cloned()
    else {
        return;
    };
    node.map.shift_remove(kw!("additionalProperties"));
    let parts: Vec<String> = pp
        .iter()
        .map(|(p, s)| format!("keys matching {p} take {}", words::summary(s)))
        .collect();
    node.notes.push(format!(
        "Other keys are allowed: {}; {rest}.",
        parts.join("; ")
    ));
    for key in ["patternProperties", "additionalProperties"] {
        cx.note(
            at,
            key,
            Action::Described,
            "patternProperties is not accepted here, and additionalProperties would judge the keys it allows: both said in the description",
        );
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// On the conversion's fast path (`dialect::fast`): the keywords this rule says in words (`pattern`, `multipleOf`, ...) are not plain keywords, and a plain one the dialect does not take is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[r#"{"type":"object","properties":{"x":{"type":"string","pattern":"^a"}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::Target;
    use super::*;
    use serde_json::json;

    fn narrow() -> Target {
        Target {
            keywords: &["type", "description", "properties", "required", "items"],
            ..permissive()
        }
    }

    #[test]
    fn constraints_become_sentences() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "number", "minimum": 0, "maximum": 100, "multipleOf": 0.5},
            "ids": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true},
            "url": {"type": "string", "pattern": "^https?://", "maxLength": 2048, "description": "Link"},
            "x": {"type": "string", "examples": ["hi"], "default": "yo"},
            "h": {"type": "object", "additionalProperties": {"type": "string"}},
            "k": {"type": "string", "not": {"enum": ["root"]}}
        }});
        let (out, report) = run(&narrow(), schema);
        let d = |k: &str| {
            out["properties"][k]["description"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(d("n"), "From 0 to 100. Must be a multiple of 0.5.");
        assert_eq!(d("ids"), "At least 1 items. Items must be unique.");
        assert_eq!(
            d("url"),
            "Link. At most 2048 characters. Must match the regular expression ^https?://."
        );
        assert_eq!(d("x"), "Example: \"hi\". Default: \"yo\".");
        assert_eq!(d("h"), "Keys are free; each value is a string.");
        assert_eq!(d("k"), "Must not be one of \"root\".");
        assert!(report.iter().all(|(_, a)| *a == Action::Described));
        assert_eq!(report.len(), 11);
    }

    #[test]
    fn pattern_keys_stay_allowed_where_additional_properties_stays() {
        // gemini-json: additionalProperties yes, patternProperties no
        let t = Target {
            keywords: &["type", "description", "properties", "additionalProperties"],
            ..permissive()
        };
        let schema = json!({"type": "object", "properties": {"m": {"type": "object",
            "patternProperties": {"^x_": {"type": "integer"}}, "additionalProperties": false}}});
        let (out, report) = run(&t, schema);
        assert_eq!(
            out["properties"]["m"],
            json!({"type": "object", "description": "Other keys are allowed: keys matching ^x_ take an integer; no other keys."})
        );
        assert_eq!(report.len(), 2);
    }

    #[test]
    fn other_keys_are_lost_where_objects_take_only_their_properties() {
        let schema = json!({"type": "object", "properties": {"o": {"type": "object",
            "properties": {"a": {"type": "string"}}, "additionalProperties": true}}});
        let (_, report) = run(&narrow(), schema);
        assert_eq!(
            report,
            vec![(
                "/properties/o/additionalProperties".to_string(),
                Action::Narrowed
            )]
        );
    }

    #[test]
    fn min_items_cap() {
        let t = Target {
            max_min_items: Some(1),
            ..permissive()
        };
        let schema = json!({"type": "object", "properties": {"a": {"type": "array", "minItems": 2, "items": {"type": "string"}}}});
        let (out, _) = run(&t, schema);
        assert_eq!(
            out["properties"]["a"],
            json!({"type": "array", "items": {"type": "string"}, "description": "At least 2 items."})
        );
    }
}
