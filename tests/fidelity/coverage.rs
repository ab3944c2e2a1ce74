//! Which places of the arguments the report says are narrowed: each
//! `narrowed` entry's schema pointer read as the place in the arguments it
//! governs (`properties/x` is the member `x`, `items` any item, a union's
//! branch the value itself, a definition wherever it is used).

use mcp_switchboard::{Action, ReportEntry};

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    /// Any one member or item.
    Any,
    /// Any run of members or items (a definition, used anywhere).
    AnyRun,
}

/// One narrowing, as a pattern over places in the arguments.
#[derive(Debug)]
pub struct Narrowing {
    steps: Vec<Step>,
    /// The entry cuts a whole subtree (recursion or nesting depth).
    subtree: bool,
}

/// The narrowings the report names for one tool, whose input schema sits
/// at `base` in the input document.
pub fn narrowings(report: &[ReportEntry], tool: &str, base: &str) -> Vec<Narrowing> {
    report
        .iter()
        .filter(|e| e.action == Action::Narrowed && e.tool.as_deref() == Some(tool))
        .filter_map(|e| {
            let rel = e.pointer.strip_prefix(base)?;
            let mut tokens: Vec<String> = rel
                .split('/')
                .skip(1)
                .map(|t| t.replace("~1", "/").replace("~0", "~"))
                .collect();
            if !e.keyword.is_empty() && tokens.last() == Some(&e.keyword) {
                tokens.pop();
            }
            // a value whose form is narrowed is narrowed all the way down,
            // unlike the other keys of an object
            let subtree = !matches!(
                e.keyword.as_str(),
                "additionalProperties" | "patternProperties"
            );
            Some(Narrowing {
                steps: steps(&tokens),
                subtree,
            })
        })
        .collect()
}

fn steps(tokens: &[String]) -> Vec<Step> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(t) = tokens.get(i) {
        match t.as_str() {
            "properties" => {
                if let Some(name) = tokens.get(i + 1) {
                    out.push(Step::Key(name.clone()));
                }
                i += 2;
            }
            "prefixItems" => {
                if let Some(n) = tokens.get(i + 1) {
                    out.push(Step::Key(n.clone()));
                }
                i += 2;
            }
            "items" | "additionalProperties" | "contains" | "additionalItems" => {
                out.push(Step::Any);
                i += 1;
            }
            "patternProperties" => {
                out.push(Step::Any);
                i += 2;
            }
            "$defs" | "definitions" => {
                out.clear();
                out.push(Step::AnyRun);
                i += 2;
            }
            "anyOf" | "oneOf" | "allOf" | "dependentSchemas" => i += 2,
            _ => i += 1,
        }
    }
    out
}

/// Whether `steps` matches the place `at` (whole, or as a prefix).
fn matches(steps: &[Step], at: &[String], prefix: bool) -> bool {
    match (steps.first(), at.first()) {
        (None, _) => prefix || at.is_empty(),
        (Some(Step::AnyRun), _) => {
            (0..=at.len()).any(|k| matches(&steps[1..], at.get(k..).unwrap_or(&[]), prefix))
        }
        (Some(_), None) => false,
        (Some(Step::Any), Some(_)) => matches(&steps[1..], &at[1..], prefix),
        (Some(Step::Key(k)), Some(a)) => k == a && matches(&steps[1..], &at[1..], prefix),
    }
}

/// Whether the report names a narrowing at the place `pointer` (a JSON
/// Pointer into the arguments), or one that cut the subtree it is in.
pub fn covers(narrowings: &[Narrowing], pointer: &str) -> bool {
    let at: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    narrowings.iter().any(|n| matches(&n.steps, &at, n.subtree))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_become_places() {
        let s =
            steps(&["properties", "a", "anyOf", "0", "items", "properties", "b"].map(String::from));
        assert_eq!(
            s,
            vec![Step::Key("a".into()), Step::Any, Step::Key("b".into())]
        );
        let at = ["a", "3", "b"].map(String::from);
        assert!(matches(&s, &at, false));
        assert!(!matches(&s, &at[..2], false));
        let def = steps(&["$defs", "X", "properties", "v"].map(String::from));
        assert!(matches(&def, &["p", "0", "v"].map(String::from), false));
        assert!(!matches(&def, &["p", "0", "w"].map(String::from), false));
    }
}
