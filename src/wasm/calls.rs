//! Model calls in, tool results out.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{
    js_error, json_error, read_catalog, read_dialect, read_text, read_value, stringify, to_js,
    usage,
};
use crate::{
    format_results, parse_calls, tool_exception, tool_failure_json, tool_success_json, Dialect,
    ModelTurn, NameMap,
};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A text content block. */
export type TextContent = { type: "text"; text: string };
/** An MCP CallToolResult, as a tool handler or an MCP server gives it. */
export type CallToolResult = {
  content: readonly { type: string; [field: string]: unknown }[];
  structuredContent?: { [field: string]: unknown };
  isError?: boolean;
  [field: string]: unknown;
};
/** toolSuccess(): `{success: true, ...data}` as text and as structuredContent. */
export type ToolSuccess = { content: TextContent[]; structuredContent: { success: true; [field: string]: unknown } };
/** toolFailure(): `{success: false, error, ...details}` as text and as structuredContent, with isError. */
export type ToolFailure = { content: TextContent[]; structuredContent: { success: false; error: string; [field: string]: unknown }; isError: true };
/** toolException(): the message as text, with isError. */
export type ToolException = { content: TextContent[]; isError: true };
/** One call's outcome for formatResults(): its CallToolResult, the JSON-RPC response holding it (or an error, or the error object alone), an Error the tool threw (an error result), or null for a call that carries its own error; any other value is taken as the tool's output. */
export type ToolOutcome = CallToolResult | { jsonrpc: "2.0"; id: string | number | null; result: CallToolResult } | { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string; data?: unknown } } | Error | object | null | undefined;
/** One change made to arguments before validation. */
export interface Coercion {
  pointer: string;
  from: unknown;
  /** The value now; null when the member was removed. */
  to: unknown;
  reason: string;
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
  arguments: { [name: string]: unknown };
  /** Why the call cannot run as it is; such a call gets an error result. */
  error?: string;
  coercions?: Coercion[];
  thoughtSignature?: string;
  /** The MCP tools/call JSON-RPC request (absent when error is set). */
  request?: { jsonrpc: "2.0"; id: string; method: "tools/call"; params: { name: string; arguments: { [name: string]: unknown } } };
}
/** A model turn: its calls, its text, and the history items for it (`A`: see AssistantItem). */
export interface ModelTurn<D extends DialectName = DialectName, A = AssistantItem<D>> {
  /** The dialect the response was read in; formatResults() takes the turn in that dialect only. */
  dialect: D;
  calls: Call[];
  text: string;
  assistant: A[];
}
/** A conversion's name map (dialect name → MCP name), or the conversion itself (which carries its catalog: calls are then validated without passing it again). */
export type NamesInput = { [dialectName: string]: string } | { names: { [dialectName: string]: string } };
/**
 * Reads the tool calls of a model response in the dialect's own shape (JSON text or a parsed value; for
 * "prompted", the model's text). Arguments are coerced and validated against the tools' original schemas: those
 * of `catalog`, else of the catalog the conversion passed as `names` was made from. A response in another API's
 * shape is an error that names it.
 */
export function parseCalls<D extends DialectName, R extends string | object>(dialect: D, response: R, names: NamesInput, catalog?: CatalogInput): ModelTurn<D, AssistantItem<D, R>>;
/** `D`, not inferred from where it is used (so a turn of another dialect is an error, not a union). */
type Given<D> = [D][D extends unknown ? 0 : never];
/** Writes MCP results as conversation items: append `assistant`, then `results`, to the history. */
export function formatResults<D extends DialectName, A>(dialect: D, turn: ModelTurn<Given<D>, A>, results: readonly ToolOutcome[] | { [callId: string]: ToolOutcome }): { assistant: A[]; results: ResultItem<D>[] };
/** A tool handler's return value as a CallToolResult: one already (a `content` array) passes unchanged, anything else becomes toolSuccess() of it. */
export function asToolResult<T>(value: T): T extends { content: readonly unknown[] } ? T : ToolSuccess;
"#;

/// Reads the tool calls of a model response (declared in [`TYPES`]).
#[wasm_bindgen(js_name = parseCalls, skip_typescript)]
pub fn parse_calls_js(
    dialect: &str,
    response: JsValue,
    names: JsValue,
    catalog: JsValue,
) -> Result<JsValue, JsValue> {
    let dialect = read_dialect(dialect)?;
    let response = match (dialect, response.as_string()) {
        (Dialect::Prompted, Some(text)) => Value::String(text),
        _ => read_value(&response, "the response")?,
    };
    // a conversion carries its catalog (convert() put it there)
    let carried = if names.is_object() {
        js_sys::Reflect::get(&names, &super::catalog_key()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    };
    let names = read_value(&names, "names")?;
    let names = names.get("names").unwrap_or(&names);
    let names = NameMap::from_json(names)
        .ok_or_else(|| usage("names must map dialect names to MCP names"))?;
    let catalog = if !catalog.is_undefined() && !catalog.is_null() {
        Some(read_catalog(&catalog)?)
    } else if !carried.is_undefined() && !carried.is_null() {
        Some(read_catalog(&carried)?)
    } else {
        None
    };
    let turn =
        parse_calls(dialect, &response, &names, catalog.as_ref()).map_err(|e| js_error(&e))?;
    to_js(&TurnOut {
        dialect: dialect.as_str(),
        turn: &turn,
    })
}

/// A model turn as JS gets it: with the dialect it was read in.
#[derive(Serialize)]
struct TurnOut<'a> {
    dialect: &'static str,
    #[serde(flatten)]
    turn: &'a ModelTurn,
}

/// Writes MCP results as conversation items (declared in [`TYPES`]).
#[wasm_bindgen(js_name = formatResults, skip_typescript)]
pub fn format_results_js(
    dialect: &str,
    turn: JsValue,
    results: JsValue,
) -> Result<JsValue, JsValue> {
    let dialect = read_dialect(dialect)?;
    let turn = read_value(&turn, "the turn")?;
    if let Some(read_as) = turn.get("dialect").and_then(Value::as_str) {
        if read_as != dialect.as_str() {
            return Err(usage(&format!(
                "the turn was read as {read_as}; write its results as {read_as} too"
            )));
        }
    }
    let turn: ModelTurn = serde_json::from_value(turn)
        .map_err(|e| usage(&format!("the turn is not a parseCalls result: {e}")))?;
    let results = read_value(&errors_as_results(&results), "results")?;
    let items = format_results(dialect, &turn, &results).map_err(|e| js_error(&e))?;
    to_js(&serde_json::json!({"assistant": turn.assistant, "results": items}))
}

/// The results with every thrown `Error` (which JSON has no form for)
/// written as the error result the model reads, and `undefined` as null.
fn errors_as_results(results: &JsValue) -> JsValue {
    let map = |v: JsValue| -> JsValue {
        match v.dyn_ref::<js_sys::Error>() {
            Some(e) => {
                let message: String = e.message().into();
                let text = if message.is_empty() {
                    String::from(e.name())
                } else {
                    message
                };
                to_js(&serde_json::json!({"content": [{"type": "text", "text": text}], "isError": true}))
                    .unwrap_or(JsValue::NULL)
            }
            None if v.is_undefined() => JsValue::NULL,
            None => v,
        }
    };
    if js_sys::Array::is_array(results) {
        let a: &js_sys::Array = results.unchecked_ref();
        return a.iter().map(map).collect::<js_sys::Array>().into();
    }
    if let Some(obj) = results.dyn_ref::<js_sys::Object>() {
        if results.dyn_ref::<js_sys::Error>().is_none() {
            let out = js_sys::Object::new();
            for entry in js_sys::Object::entries(obj).iter() {
                let pair: &js_sys::Array = entry.unchecked_ref();
                let _ = js_sys::Reflect::set(&out, &pair.get(0), &map(pair.get(1)));
            }
            return out.into();
        }
    }
    results.clone()
}

/// A successful CallToolResult: `{success: true, ...data}` (JSON text, or
/// any value; nothing gives `{success: true}`).
#[wasm_bindgen(js_name = toolSuccess, unchecked_return_type = "ToolSuccess")]
pub fn tool_success_js(
    #[wasm_bindgen(unchecked_optional_param_type = "unknown")] data: JsValue,
) -> Result<JsValue, JsValue> {
    let data = read_text(&data, "data")?;
    let text = tool_success_json(&data).map_err(|e| json_error(&e, "data"))?;
    js_sys::JSON::parse(&text)
}

/// A failed CallToolResult: `{success: false, error, ...details}`, `isError`.
#[wasm_bindgen(js_name = toolFailure, unchecked_return_type = "ToolFailure")]
pub fn tool_failure_js(
    error: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "object")] details: JsValue,
) -> Result<JsValue, JsValue> {
    let details = read_text(&details, "details")?;
    let text = tool_failure_json(error, &details).map_err(|e| json_error(&e, "details"))?;
    js_sys::JSON::parse(&text)
}

/// A CallToolResult for a tool that threw: `Error: message` as text, `isError`.
#[wasm_bindgen(js_name = toolException, unchecked_return_type = "ToolException")]
pub fn tool_exception_js(message: &str) -> Result<JsValue, JsValue> {
    to_js(&tool_exception(message))
}

/// `asToolResult` as JSON text, for `Engine.complete` (which takes text
/// too): a CallToolResult passes with one scan, not two conversions.
#[wasm_bindgen(js_name = asToolResultJson, unchecked_return_type = "string")]
pub fn as_tool_result_json_js(
    #[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue,
) -> Result<JsValue, JsValue> {
    // any value, strings included, as JSON; no JSON form is null
    let json = super::stringify_js(&value, "the result")?;
    let text = match &json {
        Some(json) => super::string_of(json, "the result")?,
        None => "null".to_string(),
    };
    let out = crate::client::as_tool_result_text(&text).map_err(|e| js_error(&e))?;
    // a CallToolResult JSON.stringify wrote is compact already: the JS
    // string goes back as it is, not copied out of wasm memory
    if let Some(json) = json.filter(|_| out == text) {
        return Ok(json);
    }
    Ok(JsValue::from_str(&out))
}

/// A tool handler's return value as a CallToolResult (declared in [`TYPES`]).
#[wasm_bindgen(js_name = asToolResult, skip_typescript)]
pub fn as_tool_result_js(value: JsValue) -> Result<JsValue, JsValue> {
    // any value, strings included, as JSON; no JSON form is null
    let text = stringify(&value, "the result")?.unwrap_or_else(|| "null".to_string());
    js_sys::JSON::parse(&crate::client::as_tool_result_text(&text).map_err(|e| js_error(&e))?)
}
