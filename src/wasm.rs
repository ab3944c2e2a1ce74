//! The WebAssembly facade: the only module that knows about JavaScript.
//!
//! Inputs arrive as a string, a `Uint8Array` (bytes, checked for UTF-8 in
//! Rust) or a plain object (serialised with `JSON.stringify`); outputs
//! leave as plain objects. Failures throw an `Error` whose `code` is the
//! [`ErrorKind`](crate::ErrorKind) code and whose `pointer` is the JSON
//! Pointer of the offending value.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::{
    convert as convert_catalog, lint as lint_catalog, Catalog, Dialect, Error, ErrorKind, Options,
};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A catalog: a tools/list response, its result, an array of tools, or pages. As text, bytes or a parsed value. */
export type CatalogInput = string | Uint8Array | object;
/** The dialects tools can be converted to. */
export type DialectName = "gemini" | "gemini-json" | "openai" | "openai-responses" | "anthropic" | "vscode" | "prompted";
/** Options for convert(). */
export interface ConvertOptions {
  /** The dialect to convert to. */
  to: DialectName;
  /** Strict mode (openai, openai-responses, anthropic); tools that cannot be strict fall back, with a report entry. */
  strict?: boolean;
}
/** What a conversion did to a keyword or a tool. */
export type Action = "dropped" | "rewritten" | "described" | "added" | "renamed" | "skipped" | "not_strict";
/** One entry of the loss report. */
export interface ReportEntry {
  /** The MCP tool name, when the entry concerns a tool. */
  tool: string | null;
  /** JSON Pointer into the input document. */
  pointer: string;
  keyword: string;
  action: Action;
  detail: string;
}
/** The result of convert(). */
export interface Conversion {
  dialect: DialectName;
  /** Items exactly as they go into the request's tools array. */
  tools: object[];
  /** Dialect tool name → MCP tool name. */
  names: Record<string, string>;
  report: ReportEntry[];
  /** prompted only: the system-prompt section. */
  prompt?: string;
  /** vscode only: runtime LanguageModelChatTool objects. */
  runtime?: object[];
}
/** One lint finding. */
export interface Finding {
  severity: "info" | "warning" | "error";
  dialect?: string;
  pointer: string;
  message: string;
}
/** The result of lint(). */
export interface LintReport {
  tools: { name: string; findings: Finding[]; tokens: Record<string, number> }[];
  totals: Record<string, number>;
  catalog: ReportEntry[];
}
/** A tool call read from a model response. */
export interface Call {
  /** The model's id, or a deterministic call_<n>. */
  id: string;
  idFromModel: boolean;
  /** The MCP tool name. */
  name: string;
  /** The name as the model wrote it. */
  dialectName: string;
  arguments: Record<string, unknown>;
  /** Why the call cannot run as it is; such a call gets an error result. */
  error?: string;
  coercions?: Coercion[];
  thoughtSignature?: string;
  /** The MCP tools/call JSON-RPC request (absent when error is set). */
  request?: { jsonrpc: "2.0"; id: string; method: "tools/call"; params: { name: string; arguments: Record<string, unknown> } };
}
/** A model turn: its calls, its text, and the history items for it. */
export interface ModelTurn {
  calls: Call[];
  text: string;
  assistant: object[];
}
/** One change made to arguments before validation. */
export interface Coercion { pointer: string; from: unknown; to: unknown | null; reason: string }
/** One problem with arguments. */
export interface ArgumentError { pointer: string; keyword: string; message: string }
/** The result of validateArguments(). */
export interface Validation {
  valid: boolean;
  arguments: unknown;
  coercions: Coercion[];
  errors: ArgumentError[];
  /** Every error in one text a model can act on. */
  message: string;
}
/** An MCP CallToolResult. */
export interface CallToolResult {
  content: object[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
/** An error thrown by this package. */
export interface SwitchboardError extends Error {
  code: "json" | "shape" | "upstream" | "limit" | "usage";
  pointer: string;
}
"#;

/// Turns a crate error into a thrown JS `Error` with `code` and `pointer`.
fn js_error(e: &Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let obj: &JsValue = err.as_ref();
    let _ = js_sys::Reflect::set(obj, &"code".into(), &e.kind().code().into());
    let _ = js_sys::Reflect::set(obj, &"pointer".into(), &e.pointer().into());
    err.into()
}

fn usage(msg: &str) -> JsValue {
    js_error(&Error::new(ErrorKind::Usage, "", msg))
}

/// Reads a catalog from a string, bytes or a plain value.
fn read_catalog(input: &JsValue) -> Result<Catalog, JsValue> {
    if let Some(s) = input.as_string() {
        return Catalog::parse(s.as_bytes()).map_err(|e| js_error(&e));
    }
    if input.is_instance_of::<js_sys::Uint8Array>() {
        let bytes = js_sys::Uint8Array::new(input).to_vec();
        return Catalog::parse(&bytes).map_err(|e| js_error(&e));
    }
    if input.is_object() {
        let text = js_sys::JSON::stringify(input)
            .map_err(|_| usage("the catalog object cannot be turned into JSON (is it cyclic?)"))?;
        let text = text.as_string().unwrap_or_default();
        return Catalog::parse(text.as_bytes()).map_err(|e| js_error(&e));
    }
    Err(usage(
        "the catalog must be a JSON string, a Uint8Array or an object",
    ))
}

/// Serialises a value to a JS object through JSON (fast for large outputs).
fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| usage(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

#[derive(Deserialize)]
struct ConvertOptionsIn {
    to: String,
    #[serde(default)]
    strict: bool,
}

fn options(value: JsValue) -> Result<(Dialect, Options), JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(usage("options.to is required: the dialect to convert to"));
    }
    let o: ConvertOptionsIn =
        serde_wasm_bindgen::from_value(value).map_err(|e| usage(&format!("bad options: {e}")))?;
    let dialect: Dialect = o.to.parse().map_err(|e: Error| js_error(&e))?;
    Ok((dialect, Options::strict(o.strict)))
}

/// Converts a catalog to one dialect.
#[wasm_bindgen(js_name = convert, unchecked_return_type = "Conversion")]
pub fn convert_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConvertOptions")] opts: JsValue,
) -> Result<JsValue, JsValue> {
    let (dialect, options) = options(opts)?;
    let catalog = read_catalog(&catalog)?;
    to_js(&convert_catalog(&catalog, dialect, &options).to_json())
}

/// Converts a catalog given as JSON text and returns JSON text: the fast
/// path when both ends are strings.
#[wasm_bindgen(js_name = convertJson)]
pub fn convert_json(catalog: &str, dialect: &str, strict: bool) -> Result<String, JsValue> {
    let dialect: Dialect = dialect.parse().map_err(|e: Error| js_error(&e))?;
    let catalog = Catalog::parse(catalog.as_bytes()).map_err(|e| js_error(&e))?;
    let out = convert_catalog(&catalog, dialect, &Options::strict(strict)).to_json();
    serde_json::to_string(&out).map_err(|e| usage(&e.to_string()))
}

/// Lints every tool of a catalog against every dialect.
#[wasm_bindgen(js_name = lint, unchecked_return_type = "LintReport")]
pub fn lint_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
) -> Result<JsValue, JsValue> {
    let catalog = read_catalog(&catalog)?;
    to_js(&lint_catalog(&catalog))
}

/// Reads a catalog: `{tools, report, nextCursor}` with every tool's fields
/// kept and malformed tools reported.
#[wasm_bindgen(js_name = readCatalog, unchecked_return_type = "{ tools: { name: string; inputSchema: object; [k: string]: unknown }[]; report: ReportEntry[]; nextCursor: string | null }")]
pub fn read_catalog_js(#[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue) -> Result<JsValue, JsValue> {
    let catalog = read_catalog(&catalog)?;
    let tools: Vec<&serde_json::Map<String, Value>> = catalog.tools().iter().map(|t| t.as_map()).collect();
    to_js(&serde_json::json!({"tools": tools, "report": catalog.report(), "nextCursor": catalog.next_cursor()}))
}

/// The dialect names accepted by `convert`.
#[wasm_bindgen(unchecked_return_type = "DialectName[]")]
pub fn dialects() -> Vec<JsValue> {
    Dialect::ALL
        .iter()
        .map(|d| JsValue::from_str(d.as_str()))
        .collect()
}

/// The package version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Reads a JSON value from a JS string (JSON text) or plain value.
fn read_value(input: &JsValue, what: &str) -> Result<Value, JsValue> {
    let text = if let Some(s) = input.as_string() {
        s
    } else if input.is_object() {
        js_sys::JSON::stringify(input)
            .map_err(|_| usage(&format!("{what} cannot be turned into JSON (is it cyclic?)")))?
            .as_string()
            .unwrap_or_default()
    } else if input.is_null() {
        return Ok(Value::Null);
    } else {
        return Err(usage(&format!("{what} must be JSON text or an object")));
    };
    serde_json::from_str(&text).map_err(|e| {
        let mut err = Error::json(&e);
        err = Error::new(err.kind(), "", format!("{what}: {}", err.message()));
        js_error(&err)
    })
}

fn read_dialect(d: &str) -> Result<Dialect, JsValue> {
    d.parse().map_err(|e: Error| js_error(&e))
}

/// Reads the tool calls of a model response.
///
/// `names` is the `names` map of a conversion (or the conversion itself);
/// with `catalog`, arguments are coerced and validated against the tools'
/// original schemas. For `prompted`, a string response is the model's text.
#[wasm_bindgen(js_name = parseCalls, unchecked_return_type = "ModelTurn")]
pub fn parse_calls_js(
    #[wasm_bindgen(unchecked_param_type = "DialectName")] dialect: &str,
    #[wasm_bindgen(unchecked_param_type = "string | object")] response: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, string> | Conversion")] names: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CatalogInput | undefined")] catalog: JsValue,
) -> Result<JsValue, JsValue> {
    let dialect = read_dialect(dialect)?;
    let response = match (dialect, response.as_string()) {
        (Dialect::Prompted, Some(text)) => Value::String(text),
        _ => read_value(&response, "the response")?,
    };
    let names = read_value(&names, "names")?;
    let names = names.get("names").unwrap_or(&names);
    let names = NameMap::from_json(names).ok_or_else(|| usage("names must map dialect names to MCP names"))?;
    let catalog = if catalog.is_undefined() || catalog.is_null() { None } else { Some(read_catalog(&catalog)?) };
    let turn = parse_calls(dialect, &response, &names, catalog.as_ref()).map_err(|e| js_error(&e))?;
    to_js(&turn)
}

/// Writes MCP results as conversation items: `{assistant, results}` to
/// append to the history in that order.
#[wasm_bindgen(js_name = formatResults, unchecked_return_type = "{ assistant: object[]; results: object[] }")]
pub fn format_results_js(
    #[wasm_bindgen(unchecked_param_type = "DialectName")] dialect: &str,
    #[wasm_bindgen(unchecked_param_type = "ModelTurn")] turn: JsValue,
    #[wasm_bindgen(unchecked_param_type = "(CallToolResult | object | null)[] | Record<string, CallToolResult | object | null>")] results: JsValue,
) -> Result<JsValue, JsValue> {
    let dialect = read_dialect(dialect)?;
    let turn: ModelTurn = serde_json::from_value(read_value(&turn, "the turn")?).map_err(|e| usage(&format!("the turn is not a parseCalls result: {e}")))?;
    let results = read_value(&results, "results")?;
    let items = format_results(dialect, &turn, &results).map_err(|e| js_error(&e))?;
    to_js(&serde_json::json!({"assistant": turn.assistant, "results": items}))
}

/// Coerces and validates arguments against a tool (or a bare schema).
#[wasm_bindgen(js_name = validateArguments, unchecked_return_type = "Validation")]
pub fn validate_arguments_js(
    #[wasm_bindgen(unchecked_param_type = "{ inputSchema: object } | object")] tool: JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
) -> Result<JsValue, JsValue> {
    let tool = read_value(&tool, "the tool")?;
    let schema = tool.get("inputSchema").unwrap_or(&tool);
    let args = if args.is_undefined() { Value::Object(Default::default()) } else { read_value(&args, "the arguments")? };
    let v = validate_arguments(schema, &args);
    let mut out = serde_json::to_value(&v).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut out {
        m.insert("valid".into(), Value::Bool(v.is_valid()));
        m.insert("message".into(), Value::String(v.message()));
    }
    to_js(&out)
}

/// A successful CallToolResult: `{success: true, ...data}`.
#[wasm_bindgen(js_name = toolSuccess, unchecked_return_type = "CallToolResult")]
pub fn tool_success_js(#[wasm_bindgen(unchecked_param_type = "unknown")] data: JsValue) -> Result<JsValue, JsValue> {
    let data = if data.is_undefined() { Value::Null } else { read_value(&data, "data")? };
    to_js(&tool_success(data))
}

/// A failed CallToolResult: `{success: false, error, ...details}`, `isError`.
#[wasm_bindgen(js_name = toolFailure, unchecked_return_type = "CallToolResult")]
pub fn tool_failure_js(error: &str, #[wasm_bindgen(unchecked_param_type = "object | undefined")] details: JsValue) -> Result<JsValue, JsValue> {
    let details = if details.is_undefined() { Value::Null } else { read_value(&details, "details")? };
    to_js(&tool_failure(error, details))
}

/// A CallToolResult for a tool that threw.
#[wasm_bindgen(js_name = toolException, unchecked_return_type = "CallToolResult")]
pub fn tool_exception_js(message: &str) -> Result<JsValue, JsValue> {
    to_js(&tool_exception(message))
}
