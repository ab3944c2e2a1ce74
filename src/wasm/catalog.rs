//! Reading, converting and linting catalogs.

use serde::Deserialize;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{js_error, read_catalog, read_catalog_text, read_dialect, string_bytes, usage};
use crate::rawjson;
use crate::{
    convert_json as convert_catalog_json, lint as lint_catalog, Dialect, LintReport, Options,
    ReportEntry, Severity,
};
use std::collections::BTreeMap;

#[wasm_bindgen(typescript_custom_section)]
const DIALECT_TYPES: &'static str = include_str!("dialects.ts");

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A catalog: a tools/list response, its result, an array of tools, one tool, or several pages; as JSON text, UTF-8 bytes or a parsed value. */
export type CatalogInput = string | Uint8Array | object;
/** What a conversion did to a keyword or a tool. "narrowed": some calls valid for the tool cannot be made through the dialect. "flagged": kept as it is, but it breaks a rule of MCP (a tool name MCP does not allow). */
export type Action = "dropped" | "rewritten" | "described" | "added" | "renamed" | "skipped" | "not_strict" | "narrowed" | "flagged";
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
/** The result of convert(): the dialect's tools, the name map and the loss report. */
export type Conversion<D extends DialectName = DialectName> = D extends DialectName
  ? {
      dialect: D;
      /** Items exactly as they go into the request's tools array. */
      tools: DialectTool<D>[];
      /** Dialect tool name → MCP tool name. */
      names: { [dialectName: string]: string };
      report: ReportEntry[];
    } & DialectTypes[D]["extra"]
  : never;
/** Converts a catalog to one dialect; a tool that cannot be converted is left out and reported. */
export function convert<D extends DialectName>(catalog: CatalogInput, options: ConvertOptions<D>): Conversion<D>;
/** One lint finding. */
export interface Finding {
  severity: "info" | "warning" | "error";
  /** The dialect concerned, when only some are. */
  dialect?: string;
  pointer: string;
  message: string;
}
/** The result of lint(). */
export interface LintReport {
  tools: { name: string; findings: Finding[]; tokens: { [dialect: string]: number } }[];
  totals: { [dialect: string]: number };
  catalog: ReportEntry[];
}
/** An MCP tool as read from a catalog: every field kept. */
export type McpTool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: { [hint: string]: unknown };
  [field: string]: unknown;
};
"#;

/// Options for `convert`.
#[derive(Deserialize, Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[tsify(type_params = "D extends DialectName = DialectName")]
pub struct ConvertOptions {
    /// The dialect to convert to.
    #[tsify(type = "D")]
    to: String,
    /// Strict mode (openai, openai-responses, anthropic); a tool that cannot be strict is sent without it, with a report entry.
    #[serde(default)]
    strict: bool,
    /// With strict: the tools that may be strict (MCP names), most wanted first; the others are sent without it. Default: every tool (for Anthropic's per-request limits, in catalog order, tools with parameters first).
    #[serde(default)]
    #[tsify(optional)]
    strict_tools: Option<Vec<String>>,
}

/// Converts a catalog to one dialect (declared in [`TYPES`]: its
/// TypeScript signature is generic over the dialect).
#[wasm_bindgen(js_name = convert, skip_typescript)]
pub fn convert_js(catalog: JsValue, options: Ts<ConvertOptions>) -> Result<JsValue, JsValue> {
    let o = ConvertOptions::from_js(options.js_value())
        .map_err(|e| usage(&format!("bad convert options: {e}")))?;
    let dialect = read_dialect(&o.to)?;
    let bytes = read_catalog_text(&catalog)?;
    let options = match o.strict_tools {
        Some(names) => Options::strict(o.strict).with_strict_tools(names),
        None => Options::strict(o.strict),
    };
    // text (the usual case) goes the text path; bytes that are not UTF-8
    // get the reader's error
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => crate::convert_text(text, dialect, &options),
        Err(_) => {
            crate::Catalog::parse(&bytes).map(|c| convert_catalog_json(&c, dialect, &options))
        }
    };
    let out = js_sys::JSON::parse(&text.map_err(|e| js_error(&e))?)?;
    // the conversion carries its catalog, so that parseCalls validates
    // against the tools' real schemas without being given it again
    if let Some(obj) = out.dyn_ref::<js_sys::Object>() {
        let descriptor = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&descriptor, &"value".into(), &catalog);
        js_sys::Object::define_property(obj, &super::catalog_key(), &descriptor);
    }
    Ok(out)
}

/// Converts a catalog given as JSON text and returns JSON text: the fast
/// path when both ends are strings. The text is ASCII: characters past
/// ASCII are written as `\u` escapes, which every JSON reader reads as the
/// same characters (a JS engine builds and keeps such text faster and in
/// half the memory).
#[wasm_bindgen(js_name = convertJson, unchecked_return_type = "string")]
pub fn convert_json(
    #[wasm_bindgen(unchecked_param_type = "string")] catalog: JsValue,
    #[wasm_bindgen(unchecked_param_type = "DialectName")] dialect: &str,
    strict: Option<bool>,
) -> Result<JsValue, JsValue> {
    let dialect = read_dialect(dialect)?;
    if !catalog.is_string() {
        return Err(usage("the catalog must be a JSON string"));
    }
    // TextEncoder writes UTF-8 only
    let text = String::from_utf8(string_bytes(&catalog, "the catalog")?).unwrap_or_default();
    crate::convert_text(&text, dialect, &Options::strict(strict.unwrap_or(false)))
        .map(super::json_string)
        .map_err(|e| js_error(&e))
}

/// Lints every tool of a catalog against every dialect: findings per tool
/// and estimated token costs.
#[wasm_bindgen(js_name = lint, unchecked_return_type = "LintReport")]
pub fn lint_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
) -> Result<JsValue, JsValue> {
    let catalog = read_catalog(&catalog)?;
    js_sys::JSON::parse(&lint_text(&lint_catalog(&catalog)))
}

/// The lint report as JSON text, as its `Serialize` writes it.
fn lint_text(report: &LintReport) -> String {
    fn counts(out: &mut String, counts: &BTreeMap<String, usize>) {
        out.push('{');
        for (i, (k, n)) in counts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            rawjson::push_str(out, k);
            out.push(':');
            out.push_str(&n.to_string());
        }
        out.push('}');
    }
    let mut out = String::from("{\"tools\":[");
    for (i, tool) in report.tools.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"name\":");
        rawjson::push_str(&mut out, &tool.name);
        out.push_str(",\"findings\":[");
        for (j, f) in tool.findings.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            out.push_str(match f.severity {
                Severity::Info => "{\"severity\":\"info\"",
                Severity::Warning => "{\"severity\":\"warning\"",
                Severity::Error => "{\"severity\":\"error\"",
            });
            if let Some(d) = &f.dialect {
                out.push_str(",\"dialect\":");
                rawjson::push_str(&mut out, d);
            }
            out.push_str(",\"pointer\":");
            rawjson::push_str(&mut out, &f.pointer);
            out.push_str(",\"message\":");
            rawjson::push_str(&mut out, &f.message);
            out.push('}');
        }
        out.push_str("],\"tokens\":");
        counts(&mut out, &tool.tokens);
        out.push('}');
    }
    out.push_str("],\"totals\":");
    counts(&mut out, &report.totals);
    out.push_str(",\"catalog\":");
    ReportEntry::push_list(&mut out, &report.catalog);
    out.push('}');
    out
}

/// Reads a catalog: `{tools, report, nextCursor}` with every tool's fields
/// kept and malformed tools reported.
#[wasm_bindgen(
    js_name = readCatalog,
    unchecked_return_type = "{ tools: McpTool[]; report: ReportEntry[]; nextCursor: string | null }"
)]
pub fn read_catalog_js(
    #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
) -> Result<JsValue, JsValue> {
    let catalog = read_catalog(&catalog)?;
    let mut out = String::from("{\"tools\":[");
    for (i, tool) in catalog.tools().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        rawjson::push_object(&mut out, tool.as_map(), None);
    }
    out.push_str("],\"report\":");
    ReportEntry::push_list(&mut out, catalog.report());
    out.push_str(",\"nextCursor\":");
    match catalog.next_cursor() {
        Some(c) => rawjson::push_str(&mut out, c),
        None => out.push_str("null"),
    }
    out.push('}');
    js_sys::JSON::parse(&out)
}

/// The dialect names accepted by `convert`.
#[wasm_bindgen(unchecked_return_type = "DialectName[]")]
pub fn dialects() -> Vec<JsValue> {
    Dialect::ALL
        .iter()
        .map(|d| JsValue::from_str(d.as_str()))
        .collect()
}
