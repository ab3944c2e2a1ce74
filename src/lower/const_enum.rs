//! Rule: `const` → a one-value `enum`, for dialects without `const`.

use serde_json::Value;

use super::{At, Cx, Node};
use crate::report::Action;

pub(super) fn rewrite(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    if cx.allows(kw!("const")) {
        return;
    }
    let Some(value) = node.map.shift_remove(kw!("const")) else {
        return;
    };
    match node.map.get(kw!("enum")) {
        Some(Value::Array(values)) => {
            if values.contains(&value) {
                node.map
                    .insert(kw!("enum"), Value::Array(vec![value.into_owned()]));
            } else {
                cx.note(
                    at,
                    "const",
                    Action::Dropped,
                    "const is not one of the enum values: nothing can match; kept the enum",
                );
                return;
            }
        }
        _ => {
            node.map
                .insert(kw!("enum"), Value::Array(vec![value.into_owned()]));
        }
    }
    cx.note(
        at,
        "const",
        Action::Rewritten,
        "const written as a one-value enum",
    );
}

/// On the conversion's fast path (`dialect::fast`): `const` is not a plain keyword.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[r#"{"type":"object","properties":{"x":{"const":"a"}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::{keywords, Target};
    use super::*;
    use serde_json::json;

    fn target() -> Target {
        Target {
            keywords: keywords::portable_no_const(),
            ..permissive()
        }
    }

    #[test]
    fn const_becomes_enum() {
        let schema = json!({"type": "object", "properties": {"kind": {"const": "circle"}}});
        let (out, report) = run(&target(), schema);
        assert_eq!(out["properties"]["kind"], json!({"enum": ["circle"]}));
        assert!(report.contains(&("/properties/kind/const".to_string(), Action::Rewritten)));
    }

    #[test]
    fn const_with_enum_intersects() {
        let schema = json!({"type": "object", "properties": {"k": {"type": "integer", "enum": [1, 2], "const": 2}}});
        let (out, _) = run(&target(), schema);
        assert_eq!(
            out["properties"]["k"],
            json!({"type": "integer", "enum": [2]})
        );
    }

    #[test]
    fn kept_where_allowed() {
        let schema = json!({"type": "object", "properties": {"kind": {"const": "circle"}}});
        let (out, _) = run(&permissive(), schema.clone());
        assert_eq!(out, schema);
    }
}
