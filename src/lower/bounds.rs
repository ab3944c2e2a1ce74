//! Rule: exclusive bounds. `exclusiveMinimum: 0` on an integer becomes
//! `minimum: 1`; on a number it becomes `minimum: 0` plus the words "Must be
//! greater than 0." Draft-04's boolean form (`exclusiveMinimum: true` next
//! to `minimum`) is read too.

use serde_json::Value;

use super::{words, At, Cx, Kw, Node};
use crate::report::Action;

/// `(exclusive keyword, inclusive keyword, comparison)`.
const BOUNDS: &[(Kw, Kw, &str)] = &[
    (kw!("exclusiveMinimum"), kw!("minimum"), "greater"),
    (kw!("exclusiveMaximum"), kw!("maximum"), "less"),
];

pub(super) fn apply(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if !node
        .map
        .contains_any(kw!("exclusiveMinimum").mask() | kw!("exclusiveMaximum").mask())
    {
        return;
    }
    for &(exclusive, inclusive, more) in BOUNDS {
        // draft-04: a boolean that qualifies the inclusive bound
        if let Some(Value::Bool(flag)) = node.map.get(exclusive) {
            let flag = *flag;
            node.map.shift_remove(exclusive);
            if flag {
                if let Some(bound) = node.map.shift_remove(inclusive) {
                    node.map.insert_cow(exclusive, bound);
                }
            }
        }
        if cx.allows(exclusive) {
            continue;
        }
        let Some(bound) = node.map.shift_remove(exclusive) else {
            continue;
        };
        let Some(x) = bound.as_f64() else {
            cx.note(
                at,
                exclusive.name(),
                Action::Dropped,
                format!("{exclusive} is not a number"),
            );
            continue;
        };
        let lower = inclusive == kw!("minimum");
        let integer = node.ty() == Some("integer");
        let existing = node.map.get(inclusive).and_then(Value::as_f64);
        if integer && cx.allows(inclusive) {
            let step = if lower {
                x.floor() + 1.0
            } else {
                x.ceil() - 1.0
            };
            let stricter = match existing {
                Some(e) if (lower && e >= step) || (!lower && e <= step) => None,
                _ => Some(step),
            };
            if let Some(s) = stricter {
                node.map.insert(inclusive, int_value(s));
            }
            cx.note(
                at,
                exclusive.name(),
                Action::Rewritten,
                format!(
                    "{exclusive} {} written as {inclusive} {}",
                    words::num(&bound),
                    words::num(&int_value(step))
                ),
            );
            continue;
        }
        let supersedes = match existing {
            Some(e) => (lower && x >= e) || (!lower && x <= e),
            None => true,
        };
        if !supersedes {
            cx.note(
                at,
                exclusive.name(),
                Action::Dropped,
                format!("{exclusive} is looser than the {inclusive} next to it"),
            );
            continue;
        }
        if cx.allows(inclusive) {
            node.map.insert(inclusive, (*bound).clone());
        }
        node.notes
            .push(format!("Must be {more} than {}.", words::num(&bound)));
        cx.note(
            at,
            exclusive.name(),
            Action::Rewritten,
            format!(
                "{exclusive} {} written as {inclusive} plus the words \"{more} than\"",
                words::num(&bound)
            ),
        );
    }
}

fn int_value(x: f64) -> Value {
    if x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// On the conversion's fast path (`dialect::fast`): exclusive bounds are not plain keywords, and a `minItems` the dialect caps is refused.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[r#"{"type":"object","properties":{"x":{"type":"integer","exclusiveMinimum":0}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{keywords, Target};
    use serde_json::json;

    fn inclusive_only() -> Target {
        Target {
            keywords: keywords::PORTABLE,
            ..permissive()
        }
    }

    #[test]
    fn integers_get_the_next_whole_number() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10}}});
        let (out, report) = run(&inclusive_only(), schema);
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "integer", "minimum": 1, "maximum": 9})
        );
        assert_eq!(report.len(), 2);
    }

    #[test]
    fn numbers_keep_the_bound_and_say_it() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}});
        let (out, _) = run(&inclusive_only(), schema);
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "number", "minimum": 0, "description": "Must be greater than 0."})
        );
    }

    #[test]
    fn draft4_boolean_form() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "exclusiveMinimum": true}}});
        let (out, _) = run(&inclusive_only(), schema);
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "integer", "minimum": 6})
        );
    }

    #[test]
    fn kept_where_allowed() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}});
        let (out, _) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
    }
}
