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
