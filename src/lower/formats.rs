//! Rule: `format` values the dialect does not accept move into the
//! description in plain words ("Must be a URI.").

use super::{words, At, Cx, Node};
use crate::report::Action;

pub(super) fn apply(cx: &mut Cx<'_>, node: &mut Node<'_>, at: &At<'_>) {
    let Some(format) = node.map.get(kw!("format")) else {
        return;
    };
    let Some(format) = format.as_str() else {
        node.map.shift_remove(kw!("format"));
        cx.note(at, "format", Action::Dropped, "format is not a string");
        return;
    };
    let ty = node.ty().unwrap_or("string");
    if cx.allows(kw!("format")) && cx.target.allows_format(ty, format) {
        return;
    }
    let format = format.to_owned();
    node.map.shift_remove(kw!("format"));
    if format == "enum" {
        // OpenAPI's enum marker means nothing to JSON Schema dialects
        cx.note(
            at,
            "format",
            Action::Dropped,
            "format \"enum\" is an OpenAPI marker; the enum itself is kept",
        );
        return;
    }
    node.notes
        .push(format!("Must be {}.", words::format_phrase(&format)));
    cx.note(
        at,
        "format",
        Action::Described,
        format!("format {format:?} is not accepted here; said in the description"),
    );
}

/// On the conversion's fast path (`dialect::fast`): `format` is not a plain keyword.
#[cfg(test)]
pub(super) const FAST_PATH: super::FastPath = super::FastPath {
    written: &[],
    refused: &[r#"{"type":"object","properties":{"x":{"type":"string","format":"date-time"}}}"#],
    strict: false,
};

#[cfg(test)]
mod tests {
    use super::super::testing::{permissive, run};
    use super::super::Target;
    use super::*;
    use serde_json::json;

    fn gemini_like() -> Target {
        Target {
            formats: &[("string", "date-time"), ("integer", "int64")],
            ..permissive()
        }
    }

    #[test]
    fn unknown_formats_move_to_the_description() {
        let schema = json!({"type": "object", "properties": {
            "url": {"type": "string", "format": "uri", "description": "Link"},
            "when": {"type": "string", "format": "date-time"},
            "id": {"type": "string", "format": "uuid"}
        }});
        let (out, report) = run(&gemini_like(), schema);
        assert_eq!(
            out["properties"]["url"],
            json!({"type": "string", "description": "Link. Must be a URI."})
        );
        assert_eq!(
            out["properties"]["when"],
            json!({"type": "string", "format": "date-time"})
        );
        assert_eq!(
            out["properties"]["id"],
            json!({"type": "string", "description": "Must be a UUID."})
        );
        assert_eq!(report.len(), 2);
        assert!(report.iter().all(|(_, a)| *a == Action::Described));
    }
}
