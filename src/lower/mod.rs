//! Schema lowering: rewrites a tool's JSON Schema into what one dialect
//! accepts, one rule per file, and reports every change.
//!
//! The walk visits each schema node once, applies the node rules in a fixed
//! order, lowers the children, then finishes the node (strict transform,
//! keyword allowlist, nullability, words appended to the description). The
//! input is never modified; the output is built fresh, so pointers in the
//! report always name places in the input.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind};
use crate::pointer;
use crate::report::{Action, ReportEntry};

mod all_of;
mod array_items;
mod bounds;
mod const_enum;
mod describe;
mod empty_branch;
mod enum_strings;
mod formats;
mod keywords;
mod nullable;
mod object_props;
mod one_of;
mod refs;
mod required;
pub(crate) mod strict;
mod type_array;
mod untyped;
pub(crate) mod words;

/// The portable JSON Schema keyword set (see `keywords::PORTABLE`).
pub(crate) fn keywords_portable() -> &'static [&'static str] {
    keywords::PORTABLE
}

/// Deepest schema nesting walked; deeper parts are cut with a report entry.
pub(crate) const MAX_DEPTH: usize = 40;
/// Most schema nodes produced for one tool (guards against `$ref` fan-out).
pub(crate) const MAX_NODES: usize = 50_000;

/// How a dialect wants `$ref`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refs {
    /// Inline every reference; recursion is unrolled `depth` times.
    Inline { depth: usize },
    /// Keep `$ref`/`$defs`; inline only references that have sibling keywords.
    Keep,
}

/// How a dialect says "or null".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nulls {
    /// OpenAPI style: `nullable: true`.
    Nullable,
    /// JSON Schema style: `type: ["string", "null"]`, or a `{"type": "null"}`
    /// branch in `anyOf`.
    TypeArray,
}

/// Strict-mode flavours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Strict {
    /// OpenAI structured outputs: closed objects, every property required,
    /// optional ones nullable.
    AllRequired,
    /// Anthropic strict tool use: closed objects, optional properties stay.
    ClosedObjects,
}

/// What a dialect's schema language accepts.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// Keywords kept; everything else is rewritten, described or dropped.
    pub keywords: &'static [&'static str],
    /// `(type, format)` pairs kept; `("*", "*")` keeps every format.
    pub formats: &'static [(&'static str, &'static str)],
    pub refs: Refs,
    pub nulls: Nulls,
    /// Every schema must name a type (no untyped values).
    pub require_type: bool,
    /// `enum` may only hold strings.
    pub string_enums: bool,
    /// Arrays must say what their items are.
    pub require_items: bool,
    pub strict: Option<Strict>,
    /// Largest `minItems` the dialect accepts, when it caps it.
    pub max_min_items: Option<u64>,
}

impl Target {
    pub(crate) fn allows(&self, keyword: &str) -> bool {
        self.keywords.contains(&keyword)
    }

    pub(crate) fn allows_format(&self, ty: &str, format: &str) -> bool {
        self.formats
            .iter()
            .any(|&(t, f)| (t == "*" || t == ty) && (f == "*" || f == format))
    }
}

/// One schema node while it is being lowered.
#[derive(Debug, Default)]
pub(crate) struct Node {
    pub map: Map<String, Value>,
    /// The value may also be `null`; rendered at the end in the dialect's style.
    pub nullable: bool,
    /// Sentences appended to the description at the end.
    pub notes: Vec<String>,
    /// The input keyword the node's `anyOf` came from (`oneOf`, `type`),
    /// so report pointers inside it name places in the input.
    pub any_of_from: Option<&'static str>,
}

impl Node {
    /// The single JSON type of the node, when it has one.
    pub(crate) fn ty(&self) -> Option<&str> {
        self.map.get("type").and_then(Value::as_str)
    }
}

/// Result of lowering one tool's schema.
#[derive(Debug)]
pub(crate) struct Lowered {
    pub schema: Value,
    pub report: Vec<ReportEntry>,
    /// Strict mode was asked for but the schema cannot satisfy it.
    pub not_strict: Vec<(String, String)>,
}

/// Walk state for one schema.
pub(crate) struct Cx<'a> {
    pub target: &'a Target,
    pub root: &'a Value,
    tool: &'a str,
    base: &'a str,
    pub report: Vec<ReportEntry>,
    pub ref_stack: Vec<String>,
    nodes: usize,
    exhausted: bool,
    pub not_strict: Vec<(String, String)>,
}

impl<'a> Cx<'a> {
    /// Records a report entry for the keyword at `at` (a pointer relative to
    /// the schema root).
    pub(crate) fn note(
        &mut self,
        at: &str,
        keyword: &str,
        action: Action,
        detail: impl Into<String>,
    ) {
        let pointer = if keyword.is_empty() {
            format!("{}{}", self.base, at)
        } else {
            pointer::push(&format!("{}{}", self.base, at), keyword)
        };
        self.report.push(ReportEntry {
            tool: Some(self.tool.to_string()),
            pointer,
            keyword: keyword.to_string(),
            action,
            detail: detail.into(),
        });
    }
}

/// Lowers `schema` (a tool's input or output schema) for `target`.
///
/// `tool` names the tool in the report; `base` is the pointer of the schema
/// in the input document.
pub(crate) fn lower(
    target: &Target,
    schema: &Value,
    tool: &str,
    base: &str,
) -> Result<Lowered, Error> {
    let mut cx = Cx {
        target,
        root: schema,
        tool,
        base,
        report: Vec::new(),
        ref_stack: Vec::new(),
        nodes: 0,
        exhausted: false,
        not_strict: Vec::new(),
    };
    let mut root = match schema {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    object_props::root_object(&mut cx, &mut root);
    let out =
        walk(&mut cx, Value::Object(root), "", 0).unwrap_or_else(|| Value::Object(Map::new()));
    if cx.exhausted {
        return Err(Error::new(
            ErrorKind::Limit,
            base,
            format!(
                "the schema expands to more than {MAX_NODES} nodes (through $ref); not converted"
            ),
        ));
    }
    Ok(Lowered {
        schema: out,
        report: cx.report,
        not_strict: cx.not_strict,
    })
}

/// Lowers one schema node. `None` means the node admits no value (`false`)
/// and the parent should drop it.
pub(crate) fn walk(cx: &mut Cx<'_>, value: Value, at: &str, depth: usize) -> Option<Value> {
    cx.nodes += 1;
    if cx.nodes > MAX_NODES {
        cx.exhausted = true;
        return Some(Value::Object(Map::new()));
    }
    if depth > MAX_DEPTH {
        cx.note(
            at,
            "",
            Action::Dropped,
            format!("schema nested deeper than {MAX_DEPTH} levels; the rest is cut"),
        );
        return Some(Value::Object(Map::new()));
    }
    let map = match value {
        Value::Object(m) => m,
        Value::Bool(true) => Map::new(),
        Value::Bool(false) => return None,
        other => {
            cx.note(
                at,
                "",
                Action::Dropped,
                format!("{other} is not a schema; read as \"any value\""),
            );
            Map::new()
        }
    };
    let mut node = Node {
        map,
        ..Node::default()
    };
    let pushed = refs::expand(cx, &mut node, at);
    all_of::merge(cx, &mut node, at);
    one_of::rewrite(cx, &mut node, at);
    type_array::split(cx, &mut node, at);
    const_enum::rewrite(cx, &mut node, at);
    nullable::absorb(cx, &mut node, at);
    empty_branch::drop_any(cx, &mut node, at);
    untyped::infer(cx, &mut node, at);
    enum_strings::rewrite(cx, &mut node, at);
    array_items::ensure(cx, &mut node, at);
    object_props::clean(cx, &mut node, at);
    required::clean(cx, &mut node, at);
    formats::apply(cx, &mut node, at);
    bounds::apply(cx, &mut node, at);
    describe::apply(cx, &mut node, at);
    children(cx, &mut node, at, depth);
    empty_branch::collapse(cx, &mut node, at);
    strict::apply(cx, &mut node, at);
    keywords::finish(cx, &mut node, at);
    for _ in 0..pushed {
        cx.ref_stack.pop();
    }
    Some(Value::Object(node.map))
}

/// Lowers every subschema the node keeps.
fn children(cx: &mut Cx<'_>, node: &mut Node, at: &str, depth: usize) {
    if let Some(Value::Object(props)) = node.map.get_mut("properties") {
        let props = std::mem::take(props);
        let here = pointer::push(at, "properties");
        let mut out = Map::with_capacity(props.len());
        for (name, sub) in props {
            let at = pointer::push(&here, &name);
            match walk(cx, sub, &at, depth + 1) {
                Some(v) => {
                    out.insert(name, v);
                }
                None => {
                    cx.note(
                        &at,
                        "",
                        Action::Dropped,
                        "the schema is `false`: this property may never be sent",
                    );
                    required::forget(&mut node.map, &name);
                }
            }
        }
        node.map.insert("properties".into(), Value::Object(out));
    }
    for key in [
        "items",
        "additionalProperties",
        "not",
        "propertyNames",
        "contains",
    ] {
        if let Some(sub) = node.map.get_mut(key).filter(|v| v.is_object()) {
            let sub = sub.take();
            let v = walk(cx, sub, &pointer::push(at, key), depth + 1).unwrap_or(Value::Bool(false));
            node.map.insert(key.into(), v);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(items)) = node.map.get_mut(key) {
            let items = std::mem::take(items);
            let origin = if key == "anyOf" {
                node.any_of_from.unwrap_or(key)
            } else {
                key
            };
            let here = pointer::push(at, origin);
            let mut out = Vec::with_capacity(items.len());
            for (i, sub) in items.into_iter().enumerate() {
                match walk(cx, sub, &pointer::index(&here, i), depth + 1) {
                    Some(v) => out.push(v),
                    None if key == "prefixItems" || key == "allOf" => out.push(Value::Bool(false)),
                    None => cx.note(
                        &pointer::index(&here, i),
                        "",
                        Action::Dropped,
                        "a `false` branch matches nothing",
                    ),
                }
            }
            node.map.insert(key.into(), Value::Array(out));
        }
    }
    for key in [
        "$defs",
        "definitions",
        "patternProperties",
        "dependentSchemas",
    ] {
        if let Some(Value::Object(defs)) = node.map.get_mut(key) {
            let defs = std::mem::take(defs);
            let here = pointer::push(at, key);
            let mut out = Map::with_capacity(defs.len());
            for (name, sub) in defs {
                let v = walk(cx, sub, &pointer::push(&here, &name), depth + 1)
                    .unwrap_or(Value::Bool(false));
                out.insert(name, v);
            }
            node.map.insert(key.into(), Value::Object(out));
        }
    }
}

/// Test helpers shared by the rule files.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A target that keeps everything, so a test sees one rule at work.
    pub(crate) fn permissive() -> Target {
        Target {
            keywords: keywords::JSON_SCHEMA,
            formats: &[("*", "*")],
            refs: Refs::Keep,
            nulls: Nulls::TypeArray,
            require_type: false,
            string_enums: false,
            require_items: false,
            strict: None,
            max_min_items: None,
        }
    }

    /// Lowers `schema` for `target`, returning the schema and the report as
    /// `(pointer, action)` pairs.
    pub(crate) fn run(target: &Target, schema: Value) -> (Value, Vec<(String, Action)>) {
        let l = lower(target, &schema, "t", "").expect("lowering failed");
        let r = l
            .report
            .iter()
            .map(|e| (e.pointer.clone(), e.action))
            .collect();
        (l.schema, r)
    }
}
