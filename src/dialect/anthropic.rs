//! Anthropic Messages API: `{name, description, input_schema}`. Without
//! strict mode JSON Schema passes nearly as it is. Strict tool use closes
//! every object, has no numeric or length bounds (they move into the
//! description), caps `minItems` at 1, takes no recursion (references are
//! inlined and unrolled) and a short list of formats. A request takes at
//! most 20 strict tools, 24 optional parameters and 16 union-typed
//! parameters across them ([`over_request_limits`] decides which tools
//! stay strict).

use serde_json::{json, Map, Value};

use super::{openai, Declared};
use crate::call::{CallBuilder, ModelTurn, Outcome, RawArgs};
use crate::catalog::Tool;
use crate::error::{Error, ErrorKind};
use crate::lower::{Nulls, Refs, Strict, Target};
use crate::report::{Action, ReportEntry};

const STRICT: &[&str] = &[
    "$ref",
    "$defs",
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

const STRICT_FORMATS: &[(&str, &str)] = &[
    ("string", "date-time"),
    ("string", "date"),
    ("string", "time"),
    ("string", "duration"),
    ("string", "email"),
    ("string", "hostname"),
    ("string", "uri"),
    ("string", "ipv4"),
    ("string", "ipv6"),
    ("string", "uuid"),
];

pub(crate) fn target(strict: bool) -> Target {
    if strict {
        Target {
            keywords: STRICT,
            formats: STRICT_FORMATS,
            refs: Refs::Inline { depth: 3 },
            nulls: Nulls::TypeArray,
            require_type: true,
            string_enums: false,
            require_items: true,
            strict: Some(Strict::ClosedObjects),
            max_min_items: Some(1),
            upper_case_types: false,
            maps_as_json_text: false,
        }
    } else {
        Target {
            keywords: openai::LOOSE,
            formats: &[("*", "*")],
            refs: Refs::Keep,
            nulls: Nulls::TypeArray,
            require_type: false,
            string_enums: false,
            require_items: false,
            strict: None,
            max_min_items: None,
            upper_case_types: false,
            maps_as_json_text: false,
        }
    }
}

/// Strict tools in one request.
pub(crate) const MAX_STRICT_TOOLS: usize = 20;
/// Optional parameters (properties not in `required`, at every level)
/// across a request's strict tools.
pub(crate) const MAX_OPTIONAL: usize = 24;
/// Union-typed parameters (`anyOf`, or a type list such as `["string",
/// "null"]`, at every level) across a request's strict tools.
pub(crate) const MAX_UNIONS: usize = 16;

/// What a lowered strict schema costs against the request limits:
/// `(optional parameters, union-typed parameters)`.
pub(crate) fn strict_cost(schema: &Value) -> (usize, usize) {
    let (mut optional, mut unions) = (0, 0);
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        let Value::Object(m) = v else { continue };
        if let Some(Value::Object(props)) = m.get("properties") {
            let required: Vec<&Value> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().collect())
                .unwrap_or_default();
            optional += props
                .keys()
                .filter(|k| !required.iter().any(|r| r.as_str() == Some(k.as_str())))
                .count();
            stack.extend(props.values());
        }
        let listed = m
            .get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.len() > 1);
        if listed || m.get("anyOf").is_some() {
            unions += 1;
        }
        for key in ["items", "additionalProperties"] {
            if let Some(s) = m.get(key) {
                stack.push(s);
            }
        }
        for key in ["anyOf", "prefixItems"] {
            if let Some(Value::Array(bs)) = m.get(key) {
                stack.extend(bs);
            }
        }
        if let Some(Value::Object(defs)) = m.get("$defs") {
            stack.extend(defs.values());
        }
    }
    (optional, unions)
}

/// The strict tools that do not fit in one request, taken in `order`
/// (indices into `declared`): each is kept while the request stays within
/// [`MAX_STRICT_TOOLS`], [`MAX_OPTIONAL`] and [`MAX_UNIONS`]; one that
/// would pass a limit is returned with the reason, and the next ones are
/// still tried.
pub(crate) fn over_request_limits(
    declared: &[(Declared<'_>, Vec<ReportEntry>)],
    order: &[usize],
) -> Vec<(usize, String)> {
    let (mut tools, mut optional, mut unions) = (0, 0, 0);
    let mut out = Vec::new();
    for &i in order {
        let Some((d, _)) = declared.get(i) else {
            continue;
        };
        let (o, u) = strict_cost(&d.schema);
        let why = if tools + 1 > MAX_STRICT_TOOLS {
            Some(format!(
                "Anthropic takes {MAX_STRICT_TOOLS} strict tools per request, and {tools} came first"
            ))
        } else if optional + o > MAX_OPTIONAL {
            Some(format!(
                "its {o} optional parameter(s) would pass Anthropic's limit of {MAX_OPTIONAL} across a request's strict tools ({optional} taken by the tools before it)"
            ))
        } else if unions + u > MAX_UNIONS {
            Some(format!(
                "its {u} union-typed parameter(s) would pass Anthropic's limit of {MAX_UNIONS} across a request's strict tools ({unions} taken by the tools before it)"
            ))
        } else {
            None
        };
        match why {
            Some(why) => out.push((i, why)),
            None => {
                tools += 1;
                optional += o;
                unions += u;
            }
        }
    }
    out
}

/// One Anthropic tool, built from `d` by move.
pub(crate) fn tool(d: Declared<'_>) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::String(d.name.to_string()));
    m.insert("description".into(), Value::String(d.description));
    m.insert("input_schema".into(), openai::with_properties(d.schema));
    if d.strict {
        m.insert("strict".into(), Value::Bool(true));
    }
    if !d.examples.is_empty() {
        m.insert("input_examples".into(), Value::Array(d.examples));
    }
    Value::Object(m)
}

/// Most `input_examples` taken from each place a tool keeps examples.
const MAX_EXAMPLES: usize = 8;

/// The tool's examples of its arguments, for `input_examples`: the
/// `examples` of its input schema, then those of its annotations (an
/// example may also be `{"input": {...}, "description": ...}`). Only
/// objects that fit `schema`, the schema sent, go (the API refuses an
/// example that does not); the others are reported.
pub(crate) fn examples(tool: &Tool, schema: &Value, report: &mut Vec<ReportEntry>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let fits = |v: &Value| v.is_object() && crate::validate::validate(schema, v).is_empty();
    let places = [
        ("inputSchema", tool.input_schema().get("examples")),
        (
            "annotations",
            tool.annotations().and_then(|a| a.get("examples")),
        ),
    ];
    for (place, list) in places {
        let Some(Value::Array(list)) = list else {
            continue;
        };
        for (i, e) in list.iter().enumerate().take(MAX_EXAMPLES) {
            let e = match e.get("input") {
                Some(input) if !fits(e) => input,
                _ => e,
            };
            if !fits(e) {
                report.push(ReportEntry {
                    tool: Some(tool.name().to_string()),
                    pointer: format!("{}/{place}/examples/{i}", tool.pointer()),
                    keyword: "examples".into(),
                    action: Action::Dropped,
                    detail: "not sent as input_examples: it does not fit the input schema".into(),
                });
            } else if !out.contains(e) {
                out.push(e.clone());
            }
        }
    }
    out
}

/// Anthropic's tool-search tool (BM25 or regex), run by the API.
pub(crate) fn provider_search(regex: bool) -> Value {
    let kind = if regex { "regex" } else { "bm25" };
    serde_json::from_str(&format!(
        r#"{{"type":"tool_search_tool_{kind}_20251119","name":"tool_search_tool_{kind}"}}"#
    ))
    .unwrap_or(Value::Null)
}

/// Our search as an Anthropic tool (`name`, of the name rule's
/// characters), among `deferred` tools: the caller answers it with
/// `tool_reference` blocks.
pub(crate) fn client_search(name: &str, deferred: usize) -> Value {
    super::disclose::our_search(&format!(r#""name":"{name}","#), deferred, "input_schema")
}

/// Reads every `tool_use` block of an Anthropic message (a Messages API
/// response, a message, or a content array). The assistant turn is the
/// content verbatim (thinking blocks and their signatures included).
pub(crate) fn read_calls(
    response: &Value,
    calls: &mut CallBuilder<'_>,
) -> Result<(String, Vec<Value>), Error> {
    let content = match response {
        Value::Array(blocks) => blocks.clone(),
        Value::Object(m) => match m.get("content") {
            Some(Value::Array(blocks)) => blocks.clone(),
            Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
            _ => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    "",
                    "not an Anthropic message: expected content blocks",
                ))
            }
        },
        _ => {
            return Err(Error::new(
                ErrorKind::Shape,
                "",
                "not an Anthropic message: expected content blocks",
            ))
        }
    };
    let mut text = Vec::new();
    for block in &content {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let name = block.get("name").and_then(Value::as_str).unwrap_or("");
                let args = block
                    .get("input")
                    .map(RawArgs::Value)
                    .unwrap_or(RawArgs::Missing);
                calls.push(block.get("id").and_then(Value::as_str), name, args, None);
            }
            Some("text") => text.push(
                block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            ),
            // the API's own tool search: kept in the turn as it came,
            // never a call
            Some("server_tool_use")
                if block
                    .get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| n.starts_with("tool_search_tool_")) =>
            {
                let id = block.get("id").and_then(Value::as_str).unwrap_or("");
                calls.search(id, false, block.get("input"));
            }
            Some("tool_search_tool_result") => {
                let id = block
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let refs = block
                    .pointer("/content/tool_references")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                for r in refs {
                    calls.loaded(id, r.get("tool_name").and_then(Value::as_str).unwrap_or(""));
                }
            }
            _ => {}
        }
    }
    Ok((
        text.join(""),
        vec![json!({"role": "assistant", "content": content})],
    ))
}

/// The image media types Anthropic's `base64` image source accepts.
const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

/// One user message with a `tool_result` block per call (text and image
/// content, `is_error` on failures).
pub(crate) fn write_results(turn: &ModelTurn, outcomes: &[Outcome]) -> Vec<Value> {
    let blocks: Vec<Value> = turn
        .calls
        .iter()
        .zip(outcomes)
        .map(|(call, out)| {
            let mut content = Vec::new();
            // tools to load (an answer of our search): the blocks alone
            for name in &out.references {
                content.push(json!({"type": "tool_reference", "tool_name": name}));
            }
            let text = out.as_text();
            if content.is_empty() && (!text.is_empty() || out.images.is_empty()) {
                content.push(json!({"type": "text", "text": if text.is_empty() { "(no output)".to_string() } else { text }}));
            }
            // the media types the Messages API takes; other images stay as
            // the `[image: ...]` line of the text
            for (mime, data) in out.images.iter().filter(|(m, _)| IMAGE_TYPES.contains(&m.as_str())) {
                content.push(json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}));
            }
            let mut b = Map::new();
            b.insert("type".into(), Value::String("tool_result".into()));
            b.insert("tool_use_id".into(), Value::String(call.id.clone()));
            b.insert("content".into(), Value::Array(content));
            if out.is_error {
                b.insert("is_error".into(), Value::Bool(true));
            }
            Value::Object(b)
        })
        .collect();
    if blocks.is_empty() {
        return Vec::new();
    }
    vec![json!({"role": "user", "content": blocks})]
}
