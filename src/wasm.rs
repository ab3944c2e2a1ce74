//! The WebAssembly facade: the only module that knows about JavaScript.
//!
//! Inputs arrive as a string, a `Uint8Array` (bytes, checked for UTF-8 in
//! Rust) or a plain object (serialised with `JSON.stringify`); outputs
//! leave as plain objects. Failures throw an `Error` whose `code` is the
//! [`ErrorKind`](crate::ErrorKind) code and whose `pointer` is the JSON
//! Pointer of the offending value.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use serde_json::Value;

use crate::{
    convert as convert_catalog, format_results, lint as lint_catalog, parse_calls, tool_exception,
    tool_failure_json, tool_success_json, validate_arguments, Catalog, Dialect, Error, ErrorKind,
    ModelTurn, NameMap, Options,
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
    to_js(&convert_catalog(&catalog, dialect, &options))
}

/// Converts a catalog given as JSON text and returns JSON text: the fast
/// path when both ends are strings.
#[wasm_bindgen(js_name = convertJson)]
pub fn convert_json(catalog: &str, dialect: &str, strict: bool) -> Result<String, JsValue> {
    let dialect: Dialect = dialect.parse().map_err(|e: Error| js_error(&e))?;
    let catalog = Catalog::parse(catalog.as_bytes()).map_err(|e| js_error(&e))?;
    Ok(convert_catalog(&catalog, dialect, &Options::strict(strict)).to_json_string())
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
pub fn read_catalog_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
) -> Result<JsValue, JsValue> {
    let catalog = read_catalog(&catalog)?;
    let tools: Vec<&serde_json::Map<String, Value>> =
        catalog.tools().iter().map(|t| t.as_map()).collect();
    to_js(
        &serde_json::json!({"tools": tools, "report": catalog.report(), "nextCursor": catalog.next_cursor()}),
    )
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
/// JSON text given as a string, or an object written by `JSON.stringify`.
fn read_text(input: &JsValue, what: &str) -> Result<String, JsValue> {
    if let Some(s) = input.as_string() {
        Ok(s)
    } else if input.is_object() || input.is_null() {
        js_sys::JSON::stringify(input)
            .ok()
            .and_then(|s| s.as_string())
            .ok_or_else(|| {
                usage(&format!(
                    "{what} cannot be turned into JSON (is it cyclic?)"
                ))
            })
    } else {
        Err(usage(&format!("{what} must be JSON text or an object")))
    }
}

/// An error for text in `what` that is not JSON.
fn json_error(e: &Error, what: &str) -> JsValue {
    js_error(&Error::new(
        e.kind(),
        "",
        format!("{what}: {}", e.message()),
    ))
}

fn read_value(input: &JsValue, what: &str) -> Result<Value, JsValue> {
    let text = read_text(input, what)?;
    serde_json::from_str(&text).map_err(|e| json_error(&Error::json(&e), what))
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
    let names = NameMap::from_json(names)
        .ok_or_else(|| usage("names must map dialect names to MCP names"))?;
    let catalog = if catalog.is_undefined() || catalog.is_null() {
        None
    } else {
        Some(read_catalog(&catalog)?)
    };
    let turn =
        parse_calls(dialect, &response, &names, catalog.as_ref()).map_err(|e| js_error(&e))?;
    to_js(&turn)
}

/// Writes MCP results as conversation items: `{assistant, results}` to
/// append to the history in that order.
#[wasm_bindgen(js_name = formatResults, unchecked_return_type = "{ assistant: object[]; results: object[] }")]
pub fn format_results_js(
    #[wasm_bindgen(unchecked_param_type = "DialectName")] dialect: &str,
    #[wasm_bindgen(unchecked_param_type = "ModelTurn")] turn: JsValue,
    #[wasm_bindgen(
        unchecked_param_type = "(CallToolResult | object | null)[] | Record<string, CallToolResult | object | null>"
    )]
    results: JsValue,
) -> Result<JsValue, JsValue> {
    let dialect = read_dialect(dialect)?;
    let turn: ModelTurn = serde_json::from_value(read_value(&turn, "the turn")?)
        .map_err(|e| usage(&format!("the turn is not a parseCalls result: {e}")))?;
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
    let args = if args.is_undefined() {
        Value::Object(Default::default())
    } else {
        read_value(&args, "the arguments")?
    };
    validation_js(&validate_arguments(schema, &args))
}

/// A successful CallToolResult: `{success: true, ...data}`.
#[wasm_bindgen(js_name = toolSuccess, unchecked_return_type = "CallToolResult")]
pub fn tool_success_js(
    #[wasm_bindgen(unchecked_param_type = "unknown")] data: JsValue,
) -> Result<JsValue, JsValue> {
    let data = if data.is_undefined() {
        "null".to_string()
    } else {
        read_text(&data, "data")?
    };
    let text = tool_success_json(&data).map_err(|e| json_error(&e, "data"))?;
    js_sys::JSON::parse(&text)
}

/// A failed CallToolResult: `{success: false, error, ...details}`, `isError`.
#[wasm_bindgen(js_name = toolFailure, unchecked_return_type = "CallToolResult")]
pub fn tool_failure_js(
    error: &str,
    #[wasm_bindgen(unchecked_param_type = "object | undefined")] details: JsValue,
) -> Result<JsValue, JsValue> {
    let details = if details.is_undefined() {
        "null".to_string()
    } else {
        read_text(&details, "details")?
    };
    let text = tool_failure_json(error, &details).map_err(|e| json_error(&e, "details"))?;
    js_sys::JSON::parse(&text)
}

/// A CallToolResult for a tool that threw.
#[wasm_bindgen(js_name = toolException, unchecked_return_type = "CallToolResult")]
pub fn tool_exception_js(message: &str) -> Result<JsValue, JsValue> {
    to_js(&tool_exception(message))
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct EngineOptionsIn {
    name: Option<String>,
    version: Option<String>,
    instructions: Option<String>,
    page_size: Option<usize>,
    mode: Option<String>,
    context_tokens: Option<usize>,
    share: Option<f64>,
    core: Option<Vec<String>>,
    metadata: Option<Value>,
    definitions: Option<String>,
    allow: Option<Vec<String>>,
    deny: Option<Vec<String>>,
    read_only: bool,
    no_destructive: bool,
}

fn mode_of(name: &str, context: Option<usize>, share: Option<f64>) -> Result<crate::Mode, JsValue> {
    let mode = crate::Mode::parse(name).ok_or_else(|| {
        usage(&format!(
            "unknown mode {name:?}; choose all, hybrid, meta or auto"
        ))
    })?;
    Ok(match mode {
        crate::Mode::Auto {
            context_tokens,
            share: s,
        } => crate::Mode::Auto {
            context_tokens: context.unwrap_or(context_tokens),
            share: share.unwrap_or(s),
        },
        m => m,
    })
}

fn engine_config(value: JsValue) -> Result<crate::EngineConfig, JsValue> {
    let o: EngineOptionsIn = if value.is_undefined() || value.is_null() {
        EngineOptionsIn::default()
    } else {
        serde_wasm_bindgen::from_value(value)
            .map_err(|e| usage(&format!("bad engine options: {e}")))?
    };
    let mut c = crate::EngineConfig::default();
    if let Some(n) = o.name {
        c.name = n;
    }
    if let Some(v) = o.version {
        c.version = v;
    }
    c.instructions = o.instructions;
    if let Some(p) = o.page_size {
        c.page_size = p.max(1);
    }
    if let Some(m) = o.mode {
        c.disclosure.mode = mode_of(&m, o.context_tokens, o.share)?;
    }
    c.disclosure.core = o.core;
    c.disclosure.metadata = o.metadata;
    if let Some(d) = o.definitions {
        c.disclosure.definitions = Some(read_dialect(&d)?);
    }
    c.exposure.allow = o.allow;
    c.exposure.deny = o.deny.unwrap_or_default();
    c.exposure.read_only = o.read_only;
    c.exposure.no_destructive = o.no_destructive;
    Ok(c)
}

/// The sans-I/O MCP server engine: `handle(message)`, then `drain()` the
/// outputs; run each `invoke` output and report it with `complete` or `fail`.
#[wasm_bindgen(js_name = Engine)]
pub struct JsEngine {
    inner: crate::Engine,
}

#[wasm_bindgen(typescript_custom_section)]
const ENGINE_TYPES: &'static str = r#"
/** Engine settings. */
export interface EngineOptions {
  name?: string;
  version?: string;
  instructions?: string;
  /** Tools per tools/list page (default 100). */
  pageSize?: number;
  /** Progressive disclosure (default "all"). */
  mode?: "all" | "hybrid" | "meta" | "auto";
  /** auto: the model's context size in tokens (default 32000) and the share the list may take (default 0.1). */
  contextTokens?: number;
  share?: number;
  /** Tools listed directly in hybrid mode (default: chosen from the catalog). */
  core?: string[];
  /** Curated search metadata. */
  metadata?: object;
  /** The dialect get_tool_definition answers in (default: the MCP tool object). */
  definitions?: DialectName;
  /** Exposure policy: only these tools / never these / only read-only / no destructive ones. */
  allow?: string[];
  deny?: string[];
  readOnly?: boolean;
  noDestructive?: boolean;
}
/** What the engine wants done. */
export type EngineOutput =
  | { type: "reply"; message: string }
  | { type: "notification"; message: string }
  | { type: "invoke"; id: number; tool: string; arguments: Record<string, unknown> }
  | { type: "cancel"; id: number };
"#;

/// An engine output as a plain JS object, built field by field (the reply
/// text goes across once, not escaped inside another JSON document).
fn output_js(o: crate::Output) -> Result<JsValue, JsValue> {
    let obj = js_sys::Object::new();
    let set =
        |k: &str, v: &JsValue| js_sys::Reflect::set(&obj, &JsValue::from_str(k), v).map(|_| ());
    match o {
        crate::Output::Reply(m) => {
            set("type", &"reply".into())?;
            set("message", &JsValue::from_str(&m))?;
        }
        crate::Output::Notification(m) => {
            set("type", &"notification".into())?;
            set("message", &JsValue::from_str(&m))?;
        }
        crate::Output::Invoke(i) => {
            set("type", &"invoke".into())?;
            set("id", &JsValue::from_f64(i.id as f64))?;
            set("tool", &JsValue::from_str(&i.tool))?;
            set("arguments", &js_sys::JSON::parse(&i.arguments.to_string())?)?;
        }
        crate::Output::Cancel(id) => {
            set("type", &"cancel".into())?;
            set("id", &JsValue::from_f64(id as f64))?;
        }
    }
    Ok(obj.into())
}

#[wasm_bindgen(js_class = Engine)]
impl JsEngine {
    /// An engine serving `catalog`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
        #[wasm_bindgen(unchecked_param_type = "EngineOptions | undefined")] options: JsValue,
    ) -> Result<JsEngine, JsValue> {
        let catalog = read_catalog(&catalog)?;
        Ok(JsEngine {
            inner: crate::Engine::new(catalog, engine_config(options)?),
        })
    }

    /// Takes one incoming JSON-RPC message (text). Bad messages get error
    /// replies. Returns whether a reply is owed (a request or an invalid
    /// message); notifications and responses get none.
    pub fn handle(&mut self, message: &str) -> bool {
        self.inner.handle(message)
    }

    /// Every pending output, in order.
    #[wasm_bindgen(unchecked_return_type = "EngineOutput[]")]
    pub fn drain(&mut self) -> Result<js_sys::Array, JsValue> {
        let out = js_sys::Array::new();
        while let Some(o) = self.inner.poll_output() {
            out.push(&output_js(o)?);
        }
        Ok(out)
    }

    /// Reports an invocation's CallToolResult.
    pub fn complete(
        &mut self,
        id: f64,
        #[wasm_bindgen(unchecked_param_type = "CallToolResult")] result: JsValue,
    ) -> Result<(), JsValue> {
        let result = read_text(&result, "the result")?;
        self.inner
            .complete_json(id as u64, &result)
            .map_err(|e| js_error(&e))
    }

    /// Reports that an invocation failed; the client gets an isError result.
    pub fn fail(&mut self, id: f64, message: &str) -> Result<(), JsValue> {
        self.inner
            .fail(id as u64, message)
            .map_err(|e| js_error(&e))
    }

    /// Replaces the catalog; clients are notified when the list changes.
    #[wasm_bindgen(js_name = setCatalog)]
    pub fn set_catalog(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<(), JsValue> {
        let catalog = read_catalog(&catalog)?;
        self.inner.set_catalog(catalog);
        Ok(())
    }

    /// Changes the disclosure mode ("all", "hybrid", "meta", "auto").
    #[wasm_bindgen(js_name = setMode)]
    pub fn set_mode(&mut self, mode: &str) -> Result<(), JsValue> {
        self.inner.set_mode(mode_of(mode, None, None)?);
        Ok(())
    }

    /// The negotiated protocol version, after initialize.
    #[wasm_bindgen(getter, js_name = protocolVersion)]
    pub fn protocol_version(&self) -> Option<String> {
        self.inner.protocol_version().map(str::to_owned)
    }

    /// Invocations waiting for their outcome.
    #[wasm_bindgen(getter)]
    pub fn outstanding(&self) -> usize {
        self.inner.outstanding()
    }
}

/// A ranked tool search index.
#[wasm_bindgen(js_name = ToolIndex)]
pub struct JsToolIndex {
    inner: crate::ToolIndex,
}

#[wasm_bindgen(typescript_custom_section)]
const SEARCH_TYPES: &'static str = r#"
/** search() options. */
export interface SearchOptions { limit?: number; category?: string }
/** One search hit. */
export interface Hit { name: string; score: number; category: string; description: string }
/** search() results: the total number of matches and the top hits. */
export interface SearchResults { total: number; hits: Hit[] }
/** budget() result: estimated tokens of the tool list per disclosure mode. */
export interface Budget { dialect: string; all: number; hybrid: number; meta: number; core: string[] }
"#;

#[derive(Deserialize, Default)]
#[serde(default)]
struct SearchOptionsIn {
    limit: Option<usize>,
    category: Option<String>,
}

#[wasm_bindgen(js_class = ToolIndex)]
impl JsToolIndex {
    /// Indexes a catalog, with optional curated metadata.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
        #[wasm_bindgen(unchecked_param_type = "object | undefined")] metadata: JsValue,
    ) -> Result<JsToolIndex, JsValue> {
        let catalog = read_catalog(&catalog)?;
        let meta = if metadata.is_undefined() || metadata.is_null() {
            None
        } else {
            Some(read_value(&metadata, "metadata")?)
        };
        let inner = crate::ToolIndex::build(&catalog, meta.as_ref()).map_err(|e| js_error(&e))?;
        Ok(JsToolIndex { inner })
    }

    /// Ranks the tools for a query.
    #[wasm_bindgen(unchecked_return_type = "SearchResults")]
    pub fn search(
        &self,
        query: &str,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let o: SearchOptionsIn = if options.is_undefined() || options.is_null() {
            SearchOptionsIn::default()
        } else {
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| usage(&format!("bad search options: {e}")))?
        };
        let mut opts = crate::SearchOptions::new();
        if let Some(l) = o.limit {
            opts = opts.with_limit(l);
        }
        if let Some(c) = o.category {
            opts = opts.with_category(c);
        }
        to_js(&self.inner.search(query, &opts))
    }

    /// The closest tool names to an unknown one.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn suggest(&self, name: &str, k: usize) -> Result<JsValue, JsValue> {
        to_js(&self.inner.suggest(name, k))
    }

    /// Number of tools indexed.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.inner.len()
    }
}

/// Estimated tokens of the tool list per disclosure mode, as MCP JSON or in a dialect.
#[wasm_bindgen(js_name = budget, unchecked_return_type = "Budget")]
pub fn budget_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ to?: DialectName; core?: string[] } | undefined")]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct BudgetIn {
        to: Option<String>,
        core: Option<Vec<String>>,
    }
    let catalog = read_catalog(&catalog)?;
    let o: BudgetIn = if options.is_undefined() || options.is_null() {
        BudgetIn::default()
    } else {
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| usage(&format!("bad budget options: {e}")))?
    };
    let dialect = o.to.as_deref().map(read_dialect).transpose()?;
    let d = crate::Disclosure {
        core: o.core,
        ..crate::Disclosure::default()
    };
    to_js(&crate::budget(&catalog, dialect, &d))
}

/// Reads the JSON-RPC messages of an HTTP reply body (JSON or an SSE stream).
#[wasm_bindgen(js_name = readReply, unchecked_return_type = "object[]")]
pub fn read_reply_js(body: &str, content_type: &str) -> Result<JsValue, JsValue> {
    to_js(&crate::client::messages(body, content_type).map_err(|e| js_error(&e))?)
}

/// The result of the response to request `id` among `messages`; a JSON-RPC error is thrown with code "upstream".
#[wasm_bindgen(js_name = resultFor)]
pub fn result_for_js(
    #[wasm_bindgen(unchecked_param_type = "object[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | number")] id: JsValue,
) -> Result<JsValue, JsValue> {
    let messages = read_value(&messages, "messages")?;
    let messages = messages.as_array().cloned().unwrap_or_default();
    let id = if let Some(n) = id.as_f64() {
        Value::from(n as i64)
    } else {
        Value::String(id.as_string().unwrap_or_default())
    };
    to_js(&crate::client::result_for(&messages, &id).map_err(|e| js_error(&e))?)
}

/// An incremental Server-Sent Events parser.
#[wasm_bindgen(js_name = SseParser)]
pub struct JsSseParser {
    inner: crate::client::SseParser,
}

#[wasm_bindgen(js_class = SseParser)]
impl JsSseParser {
    /// A parser with nothing buffered, refusing events over `maxEvent`
    /// bytes (default 16 MiB).
    #[wasm_bindgen(constructor)]
    pub fn new(max_event: Option<f64>) -> JsSseParser {
        JsSseParser {
            inner: match max_event {
                Some(n) => crate::client::SseParser::with_limit(millis(n) as usize),
                None => crate::client::SseParser::new(),
            },
        }
    }

    /// Feeds a chunk; returns the completed events `{event, data, id}`.
    #[wasm_bindgen(unchecked_return_type = "{ event: string; data: string; id?: string }[]")]
    pub fn push(&mut self, chunk: &str) -> Result<JsValue, JsValue> {
        let events = self.inner.push(chunk).map_err(|e| js_error(&e))?;
        let v: Vec<Value> = events
            .into_iter()
            .map(|e| serde_json::json!({"event": e.event, "data": e.data, "id": e.id}))
            .collect();
        to_js(&v)
    }
}

impl Default for JsSseParser {
    fn default() -> Self {
        JsSseParser::new(None)
    }
}

/// An upstream reply body read chunk by chunk under a size limit.
#[wasm_bindgen(js_name = ReplyBody)]
pub struct JsReplyBody {
    inner: crate::client::ReplyBody,
}

#[wasm_bindgen(js_class = ReplyBody)]
impl JsReplyBody {
    /// An empty body refusing more than `maxBytes` (default 2 MiB).
    #[wasm_bindgen(constructor)]
    pub fn new(max_bytes: Option<f64>) -> JsReplyBody {
        let limit = max_bytes.map_or(crate::client::DEFAULT_MAX_REPLY, |n| millis(n) as usize);
        JsReplyBody {
            inner: crate::client::ReplyBody::new(limit),
        }
    }

    /// Adds a chunk; throws (code "limit") past the limit.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        self.inner.push(chunk).map_err(|e| js_error(&e))
    }

    /// Bytes read so far.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.inner.len()
    }

    /// The JSON-RPC messages of the whole body (JSON or an SSE stream).
    #[wasm_bindgen(unchecked_return_type = "object[]")]
    pub fn messages(&self, content_type: &str) -> Result<JsValue, JsValue> {
        to_js(
            &self
                .inner
                .messages(content_type)
                .map_err(|e| js_error(&e))?,
        )
    }
}

/// Builds the requests of an MCP client session (ids 1, 2, ...).
#[wasm_bindgen(js_name = ClientSession)]
pub struct JsClientSession {
    inner: crate::client::ClientSession,
}

#[wasm_bindgen(js_class = ClientSession)]
impl JsClientSession {
    /// A new session.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsClientSession {
        JsClientSession {
            inner: crate::client::ClientSession::new(),
        }
    }

    /// `{id, message}` for initialize.
    #[wasm_bindgen(unchecked_return_type = "{ id: number; message: string }")]
    pub fn initialize(&mut self, name: &str, version: &str) -> Result<JsValue, JsValue> {
        let (id, message) = self.inner.initialize(name, version);
        to_js(&serde_json::json!({"id": id, "message": message}))
    }

    /// The notifications/initialized message.
    pub fn initialized(&self) -> String {
        self.inner.initialized()
    }

    /// Remembers the Mcp-Session-Id the server assigned (`null` forgets it).
    #[wasm_bindgen(js_name = setSessionId)]
    pub fn set_session_id(&mut self, id: Option<String>) {
        self.inner.set_session_id(id);
    }

    /// Remembers the protocol revision negotiated by initialize.
    #[wasm_bindgen(js_name = setProtocolVersion)]
    pub fn set_protocol_version(&mut self, version: Option<String>) {
        self.inner.set_protocol_version(version);
    }

    /// Whether the server assigned a session.
    #[wasm_bindgen(getter, js_name = hasSession)]
    pub fn has_session(&self) -> bool {
        self.inner.has_session()
    }

    /// The headers of a Streamable HTTP POST (with the bearer token, when given).
    #[wasm_bindgen(unchecked_return_type = "Record<string, string>")]
    pub fn headers(&self, token: Option<String>) -> Result<JsValue, JsValue> {
        let m: serde_json::Map<String, Value> = self
            .inner
            .headers(token.as_deref())
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        to_js(&Value::Object(m))
    }

    /// `{id, message}` for tools/list (from a cursor).
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "{ id: number; message: string }")]
    pub fn list_tools(&mut self, cursor: Option<String>) -> Result<JsValue, JsValue> {
        let (id, message) = self.inner.list_tools(cursor.as_deref());
        to_js(&serde_json::json!({"id": id, "message": message}))
    }

    /// `{id, message}` for tools/call.
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "{ id: number; message: string }")]
    pub fn call_tool(
        &mut self,
        name: &str,
        #[wasm_bindgen(unchecked_param_type = "object")] arguments: JsValue,
    ) -> Result<JsValue, JsValue> {
        let args = if arguments.is_undefined() {
            Value::Object(Default::default())
        } else {
            read_value(&arguments, "arguments")?
        };
        let (id, message) = self.inner.call_tool(name, &args);
        to_js(&serde_json::json!({"id": id, "message": message}))
    }
}

impl Default for JsClientSession {
    fn default() -> Self {
        JsClientSession::new()
    }
}

/// The Streamable HTTP transport rules: who may talk to the gateway, what
/// each request means, and the session table (see `http::Gate`).
#[wasm_bindgen(js_name = HttpGate)]
pub struct JsHttpGate {
    gate: crate::http::Gate,
    /// `HEADERS_READ` as JS strings, made once (not per request).
    header_names: Vec<JsValue>,
}

#[wasm_bindgen(typescript_custom_section)]
const HTTP_TYPES: &'static str = r#"
/** HttpGate options (defaults sized for a small hub). */
export interface HttpGateOptions {
  origins?: string[];
  /** Largest request body in bytes (default 1 MiB). */
  maxBody?: number;
  path?: string;
  /** Most sessions at once (default 64); the least recently used idle one makes room. */
  maxSessions?: number;
  /** A session idle this long expires (default 600000 ms). */
  sessionIdleMs?: number;
  /** Notification streams per session (default 2). */
  maxStreams?: number;
  /** Requests in progress per session (default 16). */
  maxInflight?: number;
  /** Time for a request's headers (default 10000 ms) and for the whole request (default 30000 ms). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Open connections at once (default 256). */
  maxConnections?: number;
}
/** What to do with a request. */
export type HttpAction =
  | { action: "reject"; status: number; headers: [string, string][]; message: string }
  | { action: "read"; maxBody: number; sse: boolean }
  | { action: "stream" }
  | { action: "end" };
/** HttpGate.request(): the action, and the sessions to close now. */
export type GateVerdict = HttpAction & { close: string[] };
/** What a POST body is: make a session first, answer 202, reply with the engine's output, or refuse. */
export type BodyAction = "too-large" | "new-session" | "reply" | "accepted" | "no-session";
/** Exchanges the transport ends without the engine. */
export type HttpOutcome = "too-large" | "no-session" | "accepted" | "cancelled" | "ended";
/** The limits the host applies to its server. */
export interface GateLimits { maxBody: number; headersTimeoutMs: number; requestTimeoutMs: number; maxConnections: number; sessionIdleMs: number; maxSessions: number }
"#;

/// A decision as the plain object `HttpAction` describes.
fn decision_json(d: crate::http::HttpDecision) -> Value {
    use crate::http::HttpDecision;
    match d {
        HttpDecision::Reject {
            status,
            headers,
            message,
        } => {
            serde_json::json!({"action": "reject", "status": status, "headers": headers, "message": message})
        }
        HttpDecision::ReadBody { max_body, sse } => {
            serde_json::json!({"action": "read", "maxBody": max_body, "sse": sse})
        }
        HttpDecision::OpenStream => serde_json::json!({"action": "stream"}),
        HttpDecision::EndSession => serde_json::json!({"action": "end"}),
    }
}

/// Milliseconds from JS (`Date.now()`, `performance.now()`) as a clock
/// reading: negative or not a number reads as 0.
fn millis(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 {
        ms as u64
    } else {
        0
    }
}

#[wasm_bindgen(js_class = HttpGate)]
impl JsHttpGate {
    /// Rules for a gateway bound to `host`; throws when the host is not a
    /// loopback address and no token is given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        host: &str,
        token: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "HttpGateOptions | undefined")] options: JsValue,
    ) -> Result<JsHttpGate, JsValue> {
        #[derive(Deserialize, Default)]
        #[serde(default, rename_all = "camelCase")]
        struct In {
            origins: Vec<String>,
            max_body: Option<usize>,
            path: Option<String>,
            max_sessions: Option<usize>,
            session_idle_ms: Option<u64>,
            max_streams: Option<usize>,
            max_inflight: Option<usize>,
            headers_timeout_ms: Option<u64>,
            request_timeout_ms: Option<u64>,
            max_connections: Option<usize>,
        }
        let o: In = if options.is_undefined() || options.is_null() {
            In::default()
        } else {
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| usage(&format!("bad gate options: {e}")))?
        };
        let mut policy = crate::http::HttpPolicy::for_host(host, token)
            .map_err(|e| js_error(&e))?
            .with_origins(o.origins);
        if let Some(m) = o.max_body {
            policy = policy.with_max_body(m);
        }
        if let Some(p) = o.path {
            policy = policy.with_path(p);
        }
        if let Some(n) = o.max_sessions {
            policy = policy.with_max_sessions(n);
        }
        if let Some(ms) = o.session_idle_ms {
            policy = policy.with_session_idle_ms(ms);
        }
        if let Some(n) = o.max_streams {
            policy = policy.with_max_streams(n);
        }
        if let Some(n) = o.max_inflight {
            policy = policy.with_max_inflight(n);
        }
        let headers = o.headers_timeout_ms.unwrap_or(policy.headers_timeout_ms);
        let request = o.request_timeout_ms.unwrap_or(policy.request_timeout_ms);
        policy = policy.with_timeouts(headers, request);
        if let Some(n) = o.max_connections {
            policy = policy.with_max_connections(n);
        }
        let header_names = crate::http::HEADERS_READ
            .iter()
            .map(|h| JsValue::from_str(h))
            .collect();
        Ok(JsHttpGate {
            gate: crate::http::Gate::new(policy),
            header_names,
        })
    }

    /// The request as the rules see it: only the headers they read cross
    /// into wasm, looked up by their lower-case names (as Node gives them).
    fn http_request(
        &self,
        method: &str,
        path: &str,
        headers: &JsValue,
        session_known: bool,
    ) -> Result<crate::http::HttpRequest, JsValue> {
        let mut list = Vec::new();
        if headers.is_object() {
            for (name, key) in crate::http::HEADERS_READ.iter().zip(&self.header_names) {
                let v = js_sys::Reflect::get(headers, key)?;
                // a string, or (rarely) an array of them: the first counts
                let v = v.as_string().or_else(|| {
                    js_sys::Array::is_array(&v)
                        .then(|| js_sys::Array::from(&v).get(0).as_string())
                        .flatten()
                });
                if let Some(v) = v {
                    list.push((name.to_string(), v));
                }
            }
        } else if !headers.is_undefined() && !headers.is_null() {
            return Err(usage("headers must be an object of header name → value"));
        }
        Ok(crate::http::HttpRequest {
            method: method.to_ascii_uppercase(),
            path: path.split('?').next().unwrap_or("").to_string(),
            headers: list,
            session_known,
        })
    }

    /// Decides on a request from its method, path and headers (an object of
    /// lower-case header name → value, as Node gives them), without the
    /// session table: `sessionKnown` says whether its session is live.
    #[wasm_bindgen(js_name = checkRequest, unchecked_return_type = "HttpAction")]
    pub fn check_request(
        &self,
        method: &str,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "Record<string, string | string[] | undefined>")]
        headers: JsValue,
        session_known: bool,
    ) -> Result<JsValue, JsValue> {
        let req = self.http_request(method, path, &headers, session_known)?;
        to_js(&decision_json(crate::http::check_request(
            &req,
            self.gate.policy(),
        )))
    }

    /// Decides on a request with the session table, at time `nowMs`: the
    /// action, and `close`, the sessions to close now (expired or ended).
    /// A POST in a session is in progress until `finished`, a stream
    /// until `streamClosed`.
    #[wasm_bindgen(unchecked_return_type = "GateVerdict")]
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "Record<string, string | string[] | undefined>")]
        headers: JsValue,
        now_ms: f64,
    ) -> Result<JsValue, JsValue> {
        let req = self.http_request(method, path, &headers, false)?;
        let verdict = self.gate.request(&req, millis(now_ms));
        let mut v = decision_json(verdict.decision);
        if let Value::Object(m) = &mut v {
            m.insert("close".into(), serde_json::json!(verdict.close));
        }
        to_js(&v)
    }

    /// Enters a new session (an id the host made up) for an `initialize`:
    /// `{action: "open", close}` with the sessions to close to make room,
    /// or a 503 rejection when every session is busy.
    #[wasm_bindgen(js_name = openSession, unchecked_return_type = "{ action: \"open\"; close: string[] } | HttpAction")]
    pub fn open_session(&mut self, id: &str, now_ms: f64) -> Result<JsValue, JsValue> {
        match self.gate.open_session(id, millis(now_ms)) {
            Ok(close) => to_js(&serde_json::json!({"action": "open", "close": close})),
            Err(d) => to_js(&decision_json(d)),
        }
    }

    /// A request's exchange on session `id` ended.
    pub fn finished(&mut self, id: &str, now_ms: f64) {
        self.gate.finished(id, millis(now_ms));
    }

    /// A notification stream of session `id` closed.
    #[wasm_bindgen(js_name = streamClosed)]
    pub fn stream_closed(&mut self, id: &str, now_ms: f64) {
        self.gate.stream_closed(id, millis(now_ms));
    }

    /// Forgets a session the host closed by itself.
    pub fn remove(&mut self, id: &str) -> bool {
        self.gate.remove(id)
    }

    /// The sessions expired by `nowMs`, removed from the table: close them.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn sweep(&mut self, now_ms: f64) -> Result<JsValue, JsValue> {
        to_js(&self.gate.sweep(millis(now_ms)))
    }

    /// Sessions in the table.
    #[wasm_bindgen(getter)]
    pub fn sessions(&self) -> usize {
        self.gate.len()
    }

    /// The limits the host applies to its server (timeouts, connections).
    #[wasm_bindgen(getter, unchecked_return_type = "GateLimits")]
    pub fn limits(&self) -> Result<JsValue, JsValue> {
        let p = self.gate.policy();
        to_js(&serde_json::json!({
            "maxBody": p.max_body,
            "headersTimeoutMs": p.headers_timeout_ms,
            "requestTimeoutMs": p.request_timeout_ms,
            "maxConnections": p.max_connections,
            "sessionIdleMs": p.session_idle_ms,
            "maxSessions": p.max_sessions,
        }))
    }

    /// Decides on a POST body once read.
    #[wasm_bindgen(js_name = checkBody, unchecked_return_type = "BodyAction")]
    pub fn check_body(&self, body: &str, has_session: bool) -> String {
        match crate::http::check_body(body, has_session, self.gate.policy()) {
            crate::http::BodyDecision::TooLarge => "too-large",
            crate::http::BodyDecision::NewSession => "new-session",
            crate::http::BodyDecision::Message {
                expects_reply: true,
            } => "reply",
            crate::http::BodyDecision::Message {
                expects_reply: false,
            } => "accepted",
            crate::http::BodyDecision::NoSession => "no-session",
        }
        .to_string()
    }

    /// Checks the bytes of a body read so far: a 413 rejection past the
    /// limit (closing the connection), `null` otherwise.
    #[wasm_bindgen(js_name = checkBodySize, unchecked_return_type = "HttpAction | null")]
    pub fn check_body_size(&self, bytes: f64) -> Result<JsValue, JsValue> {
        match crate::http::check_body_size(millis(bytes) as usize, self.gate.policy()) {
            Some(d) => to_js(&decision_json(d)),
            None => Ok(JsValue::NULL),
        }
    }

    /// The status and message that end an exchange without the engine.
    #[wasm_bindgen(unchecked_return_type = "{ status: number; message: string }")]
    pub fn outcome(
        &self,
        #[wasm_bindgen(unchecked_param_type = "HttpOutcome")] outcome: &str,
    ) -> Result<JsValue, JsValue> {
        use crate::http::Outcome;
        let o = match outcome {
            "too-large" => Outcome::TooLarge,
            "no-session" => Outcome::NoSession,
            "accepted" => Outcome::Accepted,
            "cancelled" => Outcome::Cancelled,
            "ended" => Outcome::Ended,
            other => return Err(usage(&format!("unknown outcome {other:?}"))),
        };
        let (status, message) = crate::http::outcome_status(o, self.gate.policy());
        to_js(&serde_json::json!({"status": status, "message": message}))
    }
}

/// Decides on an upstream server's HTTP reply: `read` its body, `none`
/// (nothing to read), fall back to the `legacy` HTTP+SSE transport,
/// `reinitialize` (the session expired), or `fail` with a message.
#[wasm_bindgen(js_name = classifyReply, unchecked_return_type = "{ action: \"read\" | \"none\" | \"legacy\" | \"reinitialize\" | \"fail\"; message?: string }")]
pub fn classify_reply_js(
    status: u16,
    content_type: &str,
    initializing: bool,
    has_session: bool,
) -> Result<JsValue, JsValue> {
    use crate::client::ReplyAction;
    let v = match crate::client::classify_reply(status, content_type, initializing, has_session) {
        ReplyAction::Read => serde_json::json!({"action": "read"}),
        ReplyAction::Nothing => serde_json::json!({"action": "none"}),
        ReplyAction::Legacy => serde_json::json!({"action": "legacy"}),
        ReplyAction::Reinitialize => serde_json::json!({"action": "reinitialize"}),
        ReplyAction::Fail(m) => serde_json::json!({"action": "fail", "message": m}),
    };
    to_js(&v)
}

/// Reads one event of a legacy HTTP+SSE stream (an `SseParser` event):
/// where to POST, a server message, or `null` for anything else.
#[wasm_bindgen(js_name = readLegacyEvent, unchecked_return_type = "{ endpoint: string } | { message: object } | null")]
pub fn read_legacy_event_js(
    #[wasm_bindgen(unchecked_param_type = "{ event: string; data: string; id?: string }")]
    event: JsValue,
) -> Result<JsValue, JsValue> {
    let v = read_value(&event, "the event")?;
    let e = crate::client::SseEvent {
        event: v
            .get("event")
            .and_then(Value::as_str)
            .unwrap_or("message")
            .to_string(),
        data: v
            .get("data")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        id: v.get("id").and_then(Value::as_str).map(str::to_owned),
    };
    match crate::client::legacy_event(&e).map_err(|e| js_error(&e))? {
        crate::client::LegacyEvent::Endpoint(url) => to_js(&serde_json::json!({"endpoint": url})),
        crate::client::LegacyEvent::Message(m) => to_js(&serde_json::json!({"message": m})),
        crate::client::LegacyEvent::Other => Ok(JsValue::NULL),
    }
}

/// `asToolResult` as JSON text, for `Engine.complete` (which takes text
/// too): a CallToolResult passes with one scan, not two conversions.
#[wasm_bindgen(js_name = asToolResultJson)]
pub fn as_tool_result_json_js(value: JsValue) -> Result<String, JsValue> {
    // any value, strings included, as JSON (undefined as null)
    let text = js_sys::JSON::stringify(&value)
        .map_err(|_| usage("the result cannot be turned into JSON (is it cyclic?)"))?
        .as_string()
        .unwrap_or_else(|| "null".to_string());
    crate::client::as_tool_result_text(&text).map_err(|e| js_error(&e))
}

/// What a host's tool handler returned, as a CallToolResult: one already
/// (a `content` array) passes unchanged, anything else becomes `toolSuccess` of it.
#[wasm_bindgen(js_name = asToolResult, unchecked_return_type = "CallToolResult")]
pub fn as_tool_result_js(value: JsValue) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&as_tool_result_json_js(value)?)
}

/// Argument validation against a catalog read once (like a compiled
/// validator): `validate(toolName, args)`.
#[wasm_bindgen(js_name = Validator)]
pub struct JsValidator {
    catalog: Catalog,
}

#[wasm_bindgen(js_class = Validator)]
impl JsValidator {
    /// Reads the catalog whose tools' arguments will be validated.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<JsValidator, JsValue> {
        Ok(JsValidator {
            catalog: read_catalog(&catalog)?,
        })
    }

    /// Coerces and validates arguments for a tool of the catalog; throws
    /// (code "usage") for an unknown tool.
    #[wasm_bindgen(unchecked_return_type = "Validation")]
    pub fn validate(
        &self,
        tool: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
    ) -> Result<JsValue, JsValue> {
        let t = self
            .catalog
            .get(tool)
            .ok_or_else(|| usage(&format!("no tool named {tool:?} in this catalog")))?;
        let args = if args.is_undefined() {
            Value::Object(Default::default())
        } else {
            read_value(&args, "the arguments")?
        };
        validation_js(&validate_arguments(t.input_schema(), &args))
    }
}

fn validation_js(v: &crate::Validation) -> Result<JsValue, JsValue> {
    let mut out = serde_json::to_value(v).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut out {
        m.insert("valid".into(), Value::Bool(v.is_valid()));
        m.insert("message".into(), Value::String(v.message()));
    }
    to_js(&out)
}
