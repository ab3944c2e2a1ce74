//! Tool calls in and results out: the shapes shared by every dialect.
//!
//! A dialect file reads its API's model response into [`Call`]s (with the
//! MCP name through the [`NameMap`], and the MCP `tools/call` request for
//! each), and writes MCP results back as that API's conversation items.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::catalog::{kind_of, Catalog};
use crate::error::{Error, ErrorKind};
use crate::names::NameMap;

/// One tool call the model asked for, normalised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Call {
    /// The call id: the model's, or a deterministic `call_<n>` when the
    /// API gives none (see [`Call::id_from_model`]).
    pub id: String,
    /// Whether the model supplied the id (Gemini may not; its results must
    /// then carry no id).
    #[serde(rename = "idFromModel", default)]
    pub id_from_model: bool,
    /// The MCP tool name, or the name as written when it is unknown.
    pub name: String,
    /// The name exactly as the model wrote it.
    #[serde(rename = "dialectName", default)]
    pub dialect_name: String,
    /// The arguments (after coercion when a catalog was given).
    #[serde(default)]
    pub arguments: Value,
    /// Why the call cannot run as it is: unreadable arguments, an unknown
    /// tool, arguments that fail validation. Such a call gets an error
    /// result, and the other calls go on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Changes made to the arguments by coercion (only with a catalog).
    #[serde(default, skip_serializing_if = "Vec::is_empty", skip_deserializing)]
    pub coercions: Vec<crate::validate::Coercion>,
    /// Gemini's `thoughtSignature` on the call's part, needed to rebuild the
    /// history (Gemini 3 rejects a history without it).
    #[serde(
        rename = "thoughtSignature",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub thought_signature: Option<String>,
    /// The MCP `tools/call` JSON-RPC request for this call (absent when the
    /// call has an error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<Value>,
}

/// What a model response held: its calls, its prose, and the assistant turn
/// to append to the history before the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ModelTurn {
    /// The calls, in the order the model made them.
    pub calls: Vec<Call>,
    /// The model's text, parts joined.
    #[serde(default)]
    pub text: String,
    /// The history items for the model's turn, in the dialect's shape
    /// (verbatim where the API needs it verbatim: Gemini thought signatures,
    /// Anthropic thinking blocks, OpenAI reasoning items).
    #[serde(default)]
    pub assistant: Vec<Value>,
}

impl ModelTurn {
    /// The JSON form used by the CLI and the JS package.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The outcome of one call, as the MCP server (or the host) answered it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Outcome {
    /// Text for the model.
    pub text: String,
    /// `structuredContent`, when the tool gave it.
    pub structured: Option<Value>,
    /// Whether it is an error.
    pub is_error: bool,
    /// Images as `(mime type, base64 data)`.
    pub images: Vec<(String, String)>,
}

impl Outcome {
    /// The value a dialect sends as the output: structured content when
    /// present, the text otherwise.
    pub(crate) fn value(&self) -> Value {
        self.structured
            .clone()
            .unwrap_or_else(|| Value::String(self.text.clone()))
    }

    /// The output as text: structured content as compact JSON when present.
    pub(crate) fn as_text(&self) -> String {
        match &self.structured {
            Some(v) => v.to_string(),
            None => self.text.clone(),
        }
    }

    fn error(text: String) -> Outcome {
        Outcome {
            text,
            structured: None,
            is_error: true,
            images: Vec::new(),
        }
    }
}

/// Reads one result: an MCP `CallToolResult`, a JSON-RPC response holding
/// one (`result`) or an error (`error`), or `null` for a call that carries
/// its own error.
pub(crate) fn outcome(result: &Value, call: &Call) -> Outcome {
    if let Some(e) = &call.error {
        if result.is_null() {
            return Outcome::error(e.clone());
        }
    }
    let result = match result {
        Value::Object(m) if m.contains_key("error") => {
            let err = &m["error"];
            let msg = err
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("unknown error");
            let code = err
                .get("code")
                .and_then(Value::as_i64)
                .map(|c| format!(" (JSON-RPC {c})"))
                .unwrap_or_default();
            return Outcome::error(format!("the tool call failed: {msg}{code}"));
        }
        Value::Object(m) if m.contains_key("result") && m.contains_key("jsonrpc") => &m["result"],
        Value::Null => return Outcome::error("no result was given for this call".into()),
        other => other,
    };
    if let Some(m) = result.as_object() {
        if !is_call_tool_result(m) {
            // not a CallToolResult: a JSON-RPC error object is an error,
            // any other value the tool's output (as JSON text)
            if let Some(message) = rpc_error_message(m) {
                return Outcome::error(message);
            }
            return Outcome {
                text: result.to_string(),
                structured: None,
                is_error: m.get("isError") == Some(&Value::Bool(true)),
                images: Vec::new(),
            };
        }
    }
    let Some(m) = result.as_object() else {
        // a bare value: take it as the output
        return Outcome {
            text: match result {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
            structured: None,
            is_error: false,
            images: Vec::new(),
        };
    };
    let mut texts = Vec::new();
    let mut images = Vec::new();
    if let Some(Value::Array(blocks)) = m.get("content") {
        for b in blocks {
            let kind = b.get("type").and_then(Value::as_str).unwrap_or("");
            let s = |k: &str| b.get(k).and_then(Value::as_str).unwrap_or("");
            match kind {
                "text" => texts.push(s("text").to_string()),
                "image" => {
                    images.push((s("mimeType").to_string(), s("data").to_string()));
                    texts.push(format!(
                        "[image: {}, {} bytes]",
                        s("mimeType"),
                        s("data").len() * 3 / 4
                    ));
                }
                "audio" => texts.push(format!(
                    "[audio: {}, {} bytes]",
                    s("mimeType"),
                    s("data").len() * 3 / 4
                )),
                "resource_link" => texts.push(format!(
                    "[resource: {} <{}>]",
                    if s("name").is_empty() {
                        s("uri")
                    } else {
                        s("name")
                    },
                    s("uri")
                )),
                "resource" => {
                    let r = b.get("resource").cloned().unwrap_or(Value::Null);
                    let uri = r.get("uri").and_then(Value::as_str).unwrap_or("");
                    match r.get("text").and_then(Value::as_str) {
                        Some(t) => texts.push(t.to_string()),
                        None => texts.push(format!(
                            "[resource: {uri}, {}]",
                            r.get("mimeType")
                                .and_then(Value::as_str)
                                .unwrap_or("binary")
                        )),
                    }
                }
                other => texts.push(format!(
                    "[{} content]",
                    if other.is_empty() { "unknown" } else { other }
                )),
            }
        }
    }
    let structured = m.get("structuredContent").filter(|v| !v.is_null()).cloned();
    let is_error = m.get("isError").and_then(Value::as_bool).unwrap_or(false);
    Outcome {
        text: texts.join("\n"),
        structured,
        is_error,
        images,
    }
}

/// Whether an object is an MCP `CallToolResult`: a `content` array, or
/// `structuredContent`.
fn is_call_tool_result(m: &Map<String, Value>) -> bool {
    m.get("content").is_some_and(Value::is_array) || m.contains_key("structuredContent")
}

/// The message of a JSON-RPC error object (`{code, message, data?}`).
fn rpc_error_message(m: &Map<String, Value>) -> Option<String> {
    let code = m.get("code").and_then(Value::as_i64)?;
    let message = m.get("message").and_then(Value::as_str)?;
    (m.len() <= 3
        && m.keys()
            .all(|k| matches!(k.as_str(), "code" | "message" | "data")))
    .then(|| format!("the tool call failed: {message} (JSON-RPC {code})"))
}

/// Any value a host hands over for a call, as a `CallToolResult`: one
/// already passes; a JSON-RPC response gives its result, or its error as
/// an error result; a JSON-RPC error object and `null` are errors; any
/// other value is the tool's output (`{success: true, ...}`).
pub(crate) fn as_result(v: &Value) -> Value {
    let error = |text: String| crate::results::tool_exception(&text);
    match v {
        Value::Null => error("the tool gave no result".into()),
        Value::Object(m) => {
            if let Some(e) = m.get("error").filter(|e| !e.is_null()) {
                let message = e
                    .get("message")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .or_else(|| e.as_str().map(str::to_owned))
                    .unwrap_or_else(|| "unknown error".into());
                let code = e
                    .get("code")
                    .and_then(Value::as_i64)
                    .map(|c| format!(" (JSON-RPC {c})"))
                    .unwrap_or_default();
                return error(format!("the tool call failed: {message}{code}"));
            }
            if let (Some(r), true) = (m.get("result"), m.contains_key("jsonrpc")) {
                return as_result(r);
            }
            if m.get("content").is_some_and(Value::is_array) {
                return v.clone();
            }
            if let Some(message) = rpc_error_message(m) {
                return error(message);
            }
            if let Some(s) = m.get("structuredContent") {
                let mut out = m.clone();
                out.insert(
                    "content".into(),
                    json!([{"type": "text", "text": s.to_string()}]),
                );
                return Value::Object(out);
            }
            crate::results::tool_success(v.clone())
        }
        other => crate::results::tool_success(other.clone()),
    }
}

/// Pairs results with calls: an array in call order, or an object keyed by
/// call id. Missing results become errors.
pub(crate) fn outcomes(turn: &ModelTurn, results: &Value) -> Result<Vec<Outcome>, Error> {
    let pick = |i: usize, call: &Call| -> Value {
        match results {
            Value::Array(a) => a.get(i).cloned().unwrap_or(Value::Null),
            Value::Object(m) => m.get(&call.id).cloned().unwrap_or(Value::Null),
            _ => Value::Null,
        }
    };
    if !matches!(results, Value::Array(_) | Value::Object(_)) {
        return Err(Error::new(
            ErrorKind::Shape,
            "",
            format!(
                "results must be an array (in call order) or an object keyed by call id, not {}",
                kind_of(results)
            ),
        ));
    }
    if let Value::Array(a) = results {
        if a.len() > turn.calls.len() {
            return Err(Error::new(
                ErrorKind::Shape,
                "",
                format!("{} results for {} calls", a.len(), turn.calls.len()),
            ));
        }
    }
    Ok(turn
        .calls
        .iter()
        .enumerate()
        .map(|(i, c)| outcome(&pick(i, c), c))
        .collect())
}

/// Most calls read from one model response; later calls are listed with an
/// error (so every call id still gets a result) but not read further.
pub const MAX_CALLS: usize = 128;
/// Largest arguments of one call, in bytes of JSON; larger ones make that
/// call an error.
pub const MAX_ARGUMENT_BYTES: usize = 256 * 1024;
/// Largest Gemini `thoughtSignature` of one call, in bytes; a larger one
/// makes that call an error.
pub const MAX_SIGNATURE_BYTES: usize = 64 * 1024;

/// The size of `v` written as compact JSON, counted up to `limit` (it
/// stops there: the cost is bounded by the limit, not by `v`).
fn json_size_up_to(v: &Value, limit: usize) -> usize {
    let mut size = 0usize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        size += match v {
            Value::Null => 4,
            Value::Bool(b) => 4 + usize::from(!b),
            Value::Number(_) => 8,
            Value::String(s) => s.len() + 2,
            Value::Array(a) => {
                stack.extend(a);
                a.len() + 1
            }
            Value::Object(m) => {
                for (k, x) in m {
                    size += k.len() + 3;
                    stack.push(x);
                }
                2
            }
        };
        if size > limit {
            return size;
        }
    }
    size
}

/// Builds calls from `(id, name, arguments)` triples read by a dialect:
/// maps names, checks arguments, validates them against the catalog when
/// one is given, and writes the `tools/call` request.
pub(crate) struct CallBuilder<'a> {
    names: &'a NameMap,
    catalog: Option<&'a Catalog>,
    calls: Vec<Call>,
    seen_ids: HashSet<String>,
}

/// Arguments as the model sent them.
pub(crate) enum RawArgs<'a> {
    /// A JSON value (Gemini `args`, Anthropic `input`).
    Value(&'a Value),
    /// JSON text (OpenAI `arguments`).
    Text(&'a str),
    /// Absent.
    Missing,
}

impl<'a> CallBuilder<'a> {
    pub(crate) fn new(names: &'a NameMap, catalog: Option<&'a Catalog>) -> Self {
        CallBuilder {
            names,
            catalog,
            calls: Vec::new(),
            seen_ids: HashSet::new(),
        }
    }

    /// `{prefix}{n}`, or the first `{prefix}{n}_{k}` no call of this turn
    /// has (a model may have sent that id itself: `a#2` beside two `a`).
    fn free_id(&self, prefix: &str, n: usize) -> String {
        let id = format!("{prefix}{n}");
        if !self.seen_ids.contains(&id) {
            return id;
        }
        // seen_ids holds at most one id per call: this ends
        (1..)
            .map(|k| format!("{prefix}{n}_{k}"))
            .find(|c| !self.seen_ids.contains(c))
            .unwrap_or(id)
    }

    /// Adds one call. `id` is the model's id, when it gave one.
    pub(crate) fn push(
        &mut self,
        id: Option<&str>,
        name: &str,
        args: RawArgs<'_>,
        thought_signature: Option<&str>,
    ) {
        let n = self.calls.len();
        let mut error = None;
        let (id, from_model) = match id.filter(|s| !s.is_empty()) {
            Some(i) if self.seen_ids.contains(i) => {
                error = Some(format!(
                    "the id {i:?} is used by an earlier call in the same turn"
                ));
                (self.free_id(&format!("{i}#"), n), true)
            }
            Some(i) => (i.to_string(), true),
            None => (self.free_id("call_", n), false),
        };
        self.seen_ids.insert(id.clone());
        if n >= MAX_CALLS {
            // listed so that its id gets an (error) result, but not read
            self.calls.push(Call {
                id,
                id_from_model: from_model,
                name: name.to_string(),
                dialect_name: name.to_string(),
                arguments: Value::Object(Map::new()),
                error: Some(format!(
                    "more than {MAX_CALLS} calls in one response; this one was not run: make fewer calls at a time"
                )),
                coercions: Vec::new(),
                thought_signature: None,
                request: None,
            });
            return;
        }
        if let Some(sig) = thought_signature.filter(|s| s.len() > MAX_SIGNATURE_BYTES) {
            error.get_or_insert_with(|| {
                format!(
                    "the thoughtSignature is {} bytes; the limit is {MAX_SIGNATURE_BYTES}",
                    sig.len()
                )
            });
        }
        let too_big = match &args {
            RawArgs::Text(t) => t.len() > MAX_ARGUMENT_BYTES,
            RawArgs::Value(v) => json_size_up_to(v, MAX_ARGUMENT_BYTES) > MAX_ARGUMENT_BYTES,
            RawArgs::Missing => false,
        };
        let args = if too_big {
            error.get_or_insert_with(|| {
                format!(
                    "the arguments are larger than {MAX_ARGUMENT_BYTES} bytes; send less at a time"
                )
            });
            RawArgs::Missing
        } else {
            args
        };
        let thought_signature = thought_signature.filter(|s| s.len() <= MAX_SIGNATURE_BYTES);
        let written = name.to_string();
        let mcp = resolve_name(self.names, name);
        let mut arguments = match args {
            RawArgs::Value(Value::Object(m)) => Value::Object(m.clone()),
            RawArgs::Value(Value::Null) | RawArgs::Missing => Value::Object(Map::new()),
            RawArgs::Value(other) => {
                error.get_or_insert_with(|| {
                    format!(
                        "the arguments must be a JSON object, not {}",
                        kind_of(other)
                    )
                });
                Value::Object(Map::new())
            }
            RawArgs::Text(t) if t.trim().is_empty() => Value::Object(Map::new()),
            RawArgs::Text(t) => match serde_json::from_str::<Value>(t) {
                Ok(Value::Object(m)) => Value::Object(m),
                Ok(other) => {
                    error.get_or_insert_with(|| {
                        format!(
                            "the arguments must be a JSON object, not {}",
                            kind_of(&other)
                        )
                    });
                    Value::Object(Map::new())
                }
                Err(e) => {
                    error.get_or_insert_with(|| format!("the arguments are not valid JSON ({e}); send them again as one JSON object"));
                    Value::Object(Map::new())
                }
            },
        };
        let name = match mcp {
            Some(m) => m.to_string(),
            None => {
                let known: Vec<&str> = self.names.iter().map(|(d, _)| d).take(20).collect();
                error.get_or_insert_with(|| {
                    format!(
                        "there is no tool named {name:?}; the tools are: {}",
                        known.join(", ")
                    )
                });
                name.to_string()
            }
        };
        let mut coercions = Vec::new();
        if let (None, Some(catalog)) = (&error, self.catalog) {
            if let Some(tool) = catalog.get(&name) {
                let v = crate::validate::validate_arguments(tool.input_schema(), &arguments);
                if !v.is_valid() {
                    error = Some(format!("the arguments do not fit {name}: {}", v.message()));
                }
                arguments = v.arguments;
                coercions = v.coercions;
            }
        }
        let request = error
            .is_none()
            .then(|| tools_call_request(&id, &name, &arguments));
        self.calls.push(Call {
            id,
            id_from_model: from_model,
            name,
            dialect_name: written,
            arguments,
            error,
            coercions,
            thought_signature: thought_signature.map(str::to_owned),
            request,
        });
    }

    pub(crate) fn finish(self) -> Vec<Call> {
        self.calls
    }
}

/// The MCP `tools/call` JSON-RPC request.
pub fn tools_call_request(id: &str, name: &str, arguments: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
}

/// The MCP name for a name the model wrote: exact, then without the
/// prefixes models add (`default_api.`, `functions.`), then ignoring case.
fn resolve_name<'n>(names: &'n NameMap, written: &str) -> Option<&'n str> {
    if let Some(m) = names.mcp_name(written) {
        return Some(m);
    }
    for prefix in ["default_api.", "functions.", "tools.", "functions/"] {
        if let Some(rest) = written.strip_prefix(prefix) {
            if let Some(m) = names.mcp_name(rest) {
                return Some(m);
            }
        }
    }
    let lower = written.to_ascii_lowercase();
    let mut found = names
        .iter()
        .filter(|(d, _)| d.to_ascii_lowercase() == lower);
    match (found.next(), found.next()) {
        (Some((_, m)), None) => Some(m),
        _ => None,
    }
}
