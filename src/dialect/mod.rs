//! The dialects: one file per LLM API, each holding the target schema
//! language, the name rule and the shape of a declaration. This module
//! drives a conversion: names, descriptions, lowering (with the strict
//! fallback), then the dialect's own assembly.

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::call::{outcomes, CallBuilder, ModelTurn};
use crate::catalog::{Catalog, Tool};
use crate::error::Error;
use crate::lower::{self, words, Target};
use crate::names::{NameMap, NameRule};
use crate::pointer;
use crate::rawjson;
use crate::report::{Action, ReportEntry};

pub(crate) mod anthropic;
mod disclose;
mod fast;
pub(crate) mod gemini;
pub(crate) mod gemini_json;
pub(crate) mod openai;
pub(crate) mod openai_responses;
pub(crate) mod prompted;
pub(crate) mod vscode;

pub(crate) use disclose::build;
pub use disclose::{visible_tokens, DisclosureMode, SearchWith};

/// An LLM API's way of declaring tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// Gemini `functionDeclarations` with `parameters` in Google's OpenAPI
    /// schema subset. Works for the Live API too.
    Gemini,
    /// Gemini `functionDeclarations` with `parametersJsonSchema` (and
    /// `responseJsonSchema` from the tool's `outputSchema`).
    GeminiJson,
    /// OpenAI Chat Completions `tools`.
    OpenAi,
    /// OpenAI Responses API `tools`.
    OpenAiResponses,
    /// Anthropic Messages API `tools`.
    Anthropic,
    /// VS Code `contributes.languageModelTools` entries.
    VsCode,
    /// A system-prompt section for models without function calling.
    Prompted,
}

impl Dialect {
    /// Every dialect, in documentation order.
    pub const ALL: [Dialect; 7] = [
        Dialect::Gemini,
        Dialect::GeminiJson,
        Dialect::OpenAi,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::VsCode,
        Dialect::Prompted,
    ];

    /// The dialect's name as the CLI and the JS package spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Gemini => "gemini",
            Dialect::GeminiJson => "gemini-json",
            Dialect::OpenAi => "openai",
            Dialect::OpenAiResponses => "openai-responses",
            Dialect::Anthropic => "anthropic",
            Dialect::VsCode => "vscode",
            Dialect::Prompted => "prompted",
        }
    }

    /// Whether the dialect has a strict mode.
    pub fn has_strict(self) -> bool {
        matches!(
            self,
            Dialect::OpenAi | Dialect::OpenAiResponses | Dialect::Anthropic
        )
    }

    pub(crate) fn name_rule(self) -> &'static NameRule {
        match self {
            Dialect::Gemini | Dialect::GeminiJson => &NameRule::GEMINI,
            Dialect::OpenAi | Dialect::OpenAiResponses | Dialect::Anthropic => &NameRule::OPENAI,
            Dialect::VsCode => &NameRule::VSCODE,
            Dialect::Prompted => &NameRule::MCP,
        }
    }

    pub(crate) fn target(self, strict: bool) -> Target {
        match self {
            Dialect::Gemini => gemini::target(),
            Dialect::GeminiJson => gemini_json::target(),
            Dialect::OpenAi | Dialect::OpenAiResponses => openai::target(strict),
            Dialect::Anthropic => anthropic::target(strict),
            Dialect::VsCode => vscode::target(),
            Dialect::Prompted => prompted::target(),
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Dialect {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let wanted = s.trim().to_ascii_lowercase();
        Dialect::ALL
            .into_iter()
            .find(|d| d.as_str() == wanted)
            .ok_or_else(|| {
                let all: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
                Error::misused(
                    crate::Misuse::Unknown,
                    "",
                    format!("unknown dialect {s:?}; choose one of {}", all.join(", ")),
                )
            })
    }
}

/// Conversion settings: `Options::new()` (or `Default`), then `with_*`.
///
/// ```
/// use mcp_switchboard::Options;
///
/// let o = Options::new()
///     .with_strict(true)
///     .with_strict_tools(["HassTurnOn", "HassLightSet"]);
/// assert!(o.strict);
/// assert_eq!(o.strict_tools.as_deref().map(<[String]>::len), Some(2));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Ask for strict mode (OpenAI structured outputs, Anthropic strict tool
    /// use). Tools that cannot be strict fall back with a report entry.
    pub strict: bool,
    /// With `strict`, the tools that may be strict, by MCP name, in order of
    /// preference; the others are sent without strict mode. `None`: every
    /// tool may be. Where a request has limits on strict tools (Anthropic:
    /// 20 strict tools, 24 optional and 16 union-typed parameters across
    /// them), tools are taken in this order, else in catalog order with
    /// the tools that take parameters first; a tool that would pass a limit
    /// is sent without strict mode and the next ones are still tried.
    pub strict_tools: Option<Vec<String>>,
    /// How much of the catalog the model is shown at first (default:
    /// every tool). See [`DisclosureMode`].
    pub disclosure: DisclosureMode,
    /// In [`DisclosureMode::Native`], whose search finds the deferred tools.
    pub search_with: SearchWith,
    /// Anthropic's search tool by regular expression rather than BM25
    /// (`searchWith` provider).
    pub regex_search: bool,
    /// The tools kept loaded in `hybrid` and `native`, by MCP name; `None`:
    /// read-only overview tools chosen from the catalog.
    pub core: Option<Vec<String>>,
    /// Curated search metadata (see [`crate::ToolIndex`]): its categories
    /// name the meta-tools' categories and OpenAI's namespaces.
    pub metadata: Option<Value>,
}

impl Options {
    /// The defaults: no strict mode.
    pub fn new() -> Options {
        Options::default()
    }

    /// Options with strict mode on or off.
    pub fn strict(strict: bool) -> Options {
        Options::new().with_strict(strict)
    }

    /// Strict mode on or off.
    pub fn with_strict(mut self, strict: bool) -> Options {
        self.strict = strict;
        self
    }

    /// The tools that may be strict, by MCP name, most wanted first (see
    /// [`Options::strict_tools`]).
    pub fn with_strict_tools<I, S>(mut self, names: I) -> Options
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.strict_tools = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// How much of the catalog the model is shown at first.
    pub fn with_disclosure(mut self, mode: DisclosureMode) -> Options {
        self.disclosure = mode;
        self
    }

    /// Whose search finds the deferred tools in native mode.
    pub fn with_search_with(mut self, search: SearchWith) -> Options {
        self.search_with = search;
        self
    }

    /// Anthropic's regex search tool instead of its BM25 one.
    pub fn with_regex_search(mut self, regex: bool) -> Options {
        self.regex_search = regex;
        self
    }

    /// The tools kept loaded in `hybrid` and `native`, by MCP name.
    pub fn with_core<I, S>(mut self, names: I) -> Options
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.core = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Curated search metadata.
    pub fn with_metadata(mut self, metadata: Value) -> Options {
        self.metadata = Some(metadata);
        self
    }
}

/// The result of converting a catalog to one dialect.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Conversion {
    /// The dialect converted to.
    pub dialect: Dialect,
    /// Items exactly as they go into the request's `tools` array (for
    /// `prompted`, the per-tool entries the prompt is made of).
    pub tools: Vec<Value>,
    /// Dialect name → MCP name, for every tool converted.
    pub names: NameMap,
    /// Everything dropped, rewritten, moved or skipped.
    pub report: Vec<ReportEntry>,
    /// Dialect-specific extras: `prompt` (prompted), `runtime` (vscode).
    pub extra: Map<String, Value>,
}

impl Conversion {
    /// The CLI's JSON form: `{"dialect", "tools", "names", "report", ...extra}`.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// [`Conversion::to_json`] as text, written straight from the conversion.
    pub fn to_json_string(&self) -> String {
        let mut out = String::with_capacity(1024);
        out.push_str("{\"dialect\":");
        rawjson::push_str(&mut out, self.dialect.as_str());
        out.push_str(",\"tools\":[");
        for (i, tool) in self.tools.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            rawjson::push_value(&mut out, tool);
        }
        out.push_str("],\"names\":");
        self.names.push_json(&mut out);
        out.push_str(",\"report\":");
        ReportEntry::push_list(&mut out, &self.report);
        for (k, v) in &self.extra {
            out.push(',');
            rawjson::push_str(&mut out, k);
            out.push(':');
            rawjson::push_value(&mut out, v);
        }
        out.push('}');
        out
    }
}

impl serde::Serialize for Conversion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(4 + self.extra.len()))?;
        m.serialize_entry("dialect", self.dialect.as_str())?;
        m.serialize_entry("tools", &self.tools)?;
        m.serialize_entry("names", &self.names)?;
        m.serialize_entry("report", &self.report)?;
        for (k, v) in &self.extra {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// One tool ready for a dialect's declaration shape.
pub(crate) struct Declared<'a> {
    pub tool: &'a Tool,
    /// The name in this dialect.
    pub name: &'a str,
    /// Never empty.
    pub description: String,
    /// The lowered input schema.
    pub schema: Value,
    /// The lowered output schema, for dialects that send one.
    pub output: Option<Value>,
    /// Strict mode applies to this tool.
    pub strict: bool,
    /// Examples of its arguments that fit `schema` (Anthropic's
    /// `input_examples`; empty for the other dialects).
    pub examples: Vec<Value>,
}

impl Declared<'_> {
    /// Whether the lowered schema declares no parameters.
    pub(crate) fn no_parameters(&self) -> bool {
        self.schema
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty)
    }

    /// A Gemini `FunctionDeclaration`: name, description, the schema under
    /// `parameters_key` unless it declares no parameters (Gemini rejects an
    /// object schema with no properties; JSON Schema keeps one whose root
    /// takes keys it does not name), and `responseJsonSchema` when an
    /// output schema was lowered.
    pub(crate) fn function_declaration(self, parameters_key: &str) -> Value {
        let no_parameters = self.no_parameters()
            && (parameters_key == "parameters"
                || !lower::takes_free_keys(self.tool.input_schema()));
        let mut m = Map::new();
        m.insert("name".into(), Value::String(self.name.to_string()));
        m.insert("description".into(), Value::String(self.description));
        if !no_parameters {
            m.insert(parameters_key.into(), self.schema);
        }
        if let Some(out) = self.output {
            m.insert("responseJsonSchema".into(), out);
        }
        Value::Object(m)
    }
}

/// Converts a catalog to one dialect, in the disclosure mode of the
/// options ([`Options::with_disclosure`]; by default every tool).
///
/// Never fails on a tool: a tool that cannot be converted is left out and
/// listed in the report with the reason.
///
/// ```
/// use mcp_switchboard::{convert, Catalog, Dialect, DisclosureMode, Options};
///
/// let catalog = Catalog::parse(br#"[
///   {"name": "get_states", "description": "Every device's state", "inputSchema": {"type": "object"},
///    "annotations": {"readOnlyHint": true}},
///   {"name": "set_light", "description": "Turn a light on or off",
///    "inputSchema": {"type": "object", "properties": {"on": {"type": "boolean"}}}}]"#)?;
/// let options = Options::new().with_disclosure(DisclosureMode::Native);
/// let c = convert(&catalog, Dialect::Anthropic, &options);
/// // the API's search tool, the core tool loaded, the other deferred
/// assert_eq!(c.tools[0]["type"], "tool_search_tool_bm25_20251119");
/// assert_eq!(c.tools[1]["name"], "get_states");
/// assert_eq!(c.tools[2]["defer_loading"], true);
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
pub fn convert(catalog: &Catalog, dialect: Dialect, options: &Options) -> Conversion {
    if plain(catalog.len(), dialect, options) {
        convert_all(catalog, dialect, options)
    } else {
        disclose::convert(catalog, dialect, options)
    }
}

/// Whether a conversion sends every tool as it is (no disclosure).
fn plain(tools: usize, dialect: Dialect, options: &Options) -> bool {
    options.disclosure == DisclosureMode::All && !gemini::over_limit(dialect, tools)
}

/// [`convert`] with every tool, whatever the options' disclosure.
pub(crate) fn convert_all(catalog: &Catalog, dialect: Dialect, options: &Options) -> Conversion {
    let (mut report, all_names, strict) = start(catalog, dialect, options);
    let mut declared_list = Vec::with_capacity(catalog.len());
    let (converted, skipped) = declare_all(
        catalog,
        &all_names,
        dialect,
        strict,
        options,
        &mut report,
        &mut |d, entries| declared_list.push((d, entries)),
    );
    if strict && dialect == Dialect::Anthropic {
        let order = strict_order(&declared_list, options.strict_tools.as_deref());
        for (i, why) in anthropic::over_request_limits(&declared_list, &order) {
            let Some((d, entries)) = declared_list.get_mut(i) else {
                continue;
            };
            let (tool, name) = (d.tool, d.name);
            if let Ok((again, mut fresh)) = declare(tool, name, dialect, false) {
                fresh.insert(0, not_strict(tool, why));
                *d = again;
                *entries = fresh;
            }
        }
    }
    let declared_list: Vec<Declared<'_>> = declared_list
        .into_iter()
        .map(|(d, entries)| {
            report.extend(entries);
            d
        })
        .collect();
    // items are built by move (the lowered schema is not copied); vscode
    // and prompted also read the declarations afterwards
    let mut items = Vec::with_capacity(declared_list.len());
    let mut kept = Vec::new();
    for d in declared_list {
        items.push(item(dialect, d, &mut kept));
    }
    let mut extra = Map::new();
    let tools = match dialect {
        Dialect::Gemini | Dialect::GeminiJson => gemini::wrap(items),
        Dialect::VsCode => {
            extra.insert(
                "runtime".into(),
                Value::Array(kept.iter().map(vscode::runtime).collect()),
            );
            items
        }
        Dialect::Prompted => {
            extra.insert("prompt".into(), Value::String(prompted::prompt(&kept)));
            items
        }
        _ => items,
    };
    // the map names the tools converted: all of them, usually
    let names = names_kept(converted, skipped).unwrap_or(all_names);
    Conversion {
        dialect,
        tools,
        names,
        report,
        extra,
    }
}

/// [`convert`] as JSON text: what [`Conversion::to_json_string`] writes.
///
/// Where the dialect's items do not depend on each other (every dialect but
/// vscode and prompted, and anthropic's strict mode), each tool is written
/// as soon as it is converted and let go: the conversion's values are never
/// all held at once, which saves the memory and the time of a second pass.
pub fn convert_json(catalog: &Catalog, dialect: Dialect, options: &Options) -> String {
    let strict = options.strict && dialect.has_strict();
    if !plain(catalog.len(), dialect, options) {
        return convert(catalog, dialect, options).to_json_string();
    }
    let streams = match dialect {
        Dialect::Gemini | Dialect::GeminiJson | Dialect::OpenAi | Dialect::OpenAiResponses => true,
        Dialect::Anthropic => !strict,
        Dialect::VsCode | Dialect::Prompted => false,
    };
    if !streams {
        return convert(catalog, dialect, options).to_json_string();
    }
    let (mut report, all_names, strict) = start(catalog, dialect, options);
    let wrapped = matches!(dialect, Dialect::Gemini | Dialect::GeminiJson);
    let mut out = String::with_capacity(1024);
    out.push_str("{\"dialect\":");
    rawjson::push_str(&mut out, dialect.as_str());
    out.push_str(",\"tools\":[");
    let mut entries = Vec::new();
    let mut written = 0usize;
    let mut kept = Vec::new();
    let (converted, skipped) = declare_all(
        catalog,
        &all_names,
        dialect,
        strict,
        options,
        &mut report,
        &mut |d, tool_entries| {
            entries.extend(tool_entries);
            separate(&mut out, &mut written, wrapped);
            rawjson::push_value(&mut out, &item(dialect, d, &mut kept));
        },
    );
    report.extend(entries);
    let kept_names = names_kept(converted, skipped);
    finish_stream(
        &mut out,
        wrapped && written > 0,
        kept_names.as_ref().unwrap_or(&all_names),
        &report,
    );
    out
}

/// Ends a streamed conversion's text: the items (and Gemini's one tool,
/// when `wrapped` holds any), the names map and the report.
fn finish_stream(out: &mut String, wrapped: bool, names: &NameMap, report: &[ReportEntry]) {
    if wrapped {
        out.push_str("]}");
    }
    out.push_str("],\"names\":");
    names.push_json(out);
    out.push_str(",\"report\":");
    ReportEntry::push_list(out, report);
    out.push('}');
}

/// [`Catalog::parse`] and then [`convert_json`], in one step: a catalog's
/// JSON text in, the conversion's JSON text out.
///
/// Tools whose input schemas need no rewriting (objects of named
/// properties whose leaves are strings, numbers, booleans, string enums
/// and arrays of those) are converted straight from the text, without
/// building value trees; the other tools, and documents of any other shape,
/// go the general way. The result is the same, byte for byte.
///
/// ```
/// use mcp_switchboard::{convert_text, Dialect, Options};
///
/// let text = r#"{"tools": [{"name": "light_on", "description": "Turn a light on",
///   "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}}}}]}"#;
/// let out = convert_text(text, Dialect::Gemini, &Options::new())?;
/// assert!(out.contains(r#""room":{"type":"STRING"}"#));
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
pub fn convert_text(input: &str, dialect: Dialect, options: &Options) -> Result<String, Error> {
    // the text path writes no disclosure and no input_examples
    let examples = dialect == Dialect::Anthropic && input.contains("\"examples\"");
    if options.disclosure == DisclosureMode::All && !examples {
        if let Some(out) = fast::convert(input, dialect, options) {
            return Ok(out);
        }
    }
    let catalog = Catalog::parse(input.as_bytes())?;
    Ok(convert_json(&catalog, dialect, options))
}

/// The start of a conversion: the report so far (the catalog's, strict mode
/// refused, names changed, `strict_tools` naming no tool), every tool's
/// name in the dialect, and whether strict mode applies.
fn start(
    catalog: &Catalog,
    dialect: Dialect,
    options: &Options,
) -> (Vec<ReportEntry>, NameMap, bool) {
    let mut report: Vec<ReportEntry> = catalog.report().to_vec();
    let strict = options.strict && dialect.has_strict();
    if options.strict && !dialect.has_strict() {
        report.push(ReportEntry {
            tool: None,
            pointer: String::new(),
            keyword: "strict".into(),
            action: Action::Dropped,
            detail: format!("{dialect} has no strict mode; converted without it"),
        });
    }
    let (all_names, renamed) =
        NameMap::assign(catalog.tools().iter().map(Tool::name), dialect.name_rule());
    report_renamed(renamed, dialect, &mut report, |mcp| {
        catalog.get(mcp).map(Tool::pointer)
    });
    if let (true, Some(list)) = (strict, &options.strict_tools) {
        for name in list.iter().filter(|n| catalog.get(n).is_none()) {
            report.push(ReportEntry {
                tool: None,
                pointer: String::new(),
                keyword: "strict".into(),
                action: Action::Dropped,
                detail: format!("strict_tools names {name:?}, which is not a tool of the catalog"),
            });
        }
    }
    (report, all_names, strict)
}

/// Reports the names `NameMap::assign` changed, `(MCP name, dialect
/// name)`; `pointer_of` finds a tool's pointer by its MCP name.
fn report_renamed<'t>(
    renamed: Vec<(String, String)>,
    dialect: Dialect,
    report: &mut Vec<ReportEntry>,
    pointer_of: impl Fn(&str) -> Option<&'t str>,
) {
    for (mcp, new) in renamed {
        let ptr = pointer_of(&mcp)
            .map(|p| pointer::push(p, "name"))
            .unwrap_or_default();
        report.push(ReportEntry {
            tool: Some(mcp.clone()),
            pointer: ptr,
            keyword: "name".into(),
            action: Action::Renamed,
            detail: format!("{mcp:?} does not fit {dialect}'s name rule; sent as {new:?}"),
        });
    }
}

/// Declares every tool in catalog order, handing each declaration and its
/// report entries to `each`; a tool that cannot be converted gets its
/// entry in `report` instead. Returns the `(dialect name, MCP name)` of the
/// tools converted and whether any was skipped.
fn declare_all<'a>(
    catalog: &'a Catalog,
    names: &'a NameMap,
    dialect: Dialect,
    strict: bool,
    options: &Options,
    report: &mut Vec<ReportEntry>,
    each: &mut dyn FnMut(Declared<'a>, Vec<ReportEntry>),
) -> (Vec<(&'a str, &'a str)>, bool) {
    // one name per tool, in catalog order (the catalog's names are unique)
    let mut converted = Vec::with_capacity(catalog.len());
    let mut skipped = false;
    for (tool, (name, _)) in catalog.tools().iter().zip(names.iter()) {
        match declare_one(tool, name, dialect, strict, options, report) {
            Some((d, entries)) => {
                converted.push((name, tool.name()));
                each(d, entries);
            }
            None => skipped = true,
        }
    }
    (converted, skipped)
}

/// Declares one tool, in strict mode when it applies and the tool is
/// among those chosen for it. A tool that cannot be converted gets its
/// entry in `report` and `None`.
fn declare_one<'a>(
    tool: &'a Tool,
    name: &'a str,
    dialect: Dialect,
    strict: bool,
    options: &Options,
    report: &mut Vec<ReportEntry>,
) -> Option<(Declared<'a>, Vec<ReportEntry>)> {
    let chosen = options
        .strict_tools
        .as_ref()
        .is_none_or(|list| list.iter().any(|n| n == tool.name()));
    let result = if strict && !chosen {
        declare(tool, name, dialect, false).map(|(d, mut entries)| {
            entries.push(not_strict(
                tool,
                "not among the tools chosen for strict mode (strict_tools)".into(),
            ));
            (d, entries)
        })
    } else {
        declare(tool, name, dialect, strict)
    };
    match result {
        Ok(declared) => Some(declared),
        Err(e) => {
            report.push(ReportEntry {
                tool: Some(tool.name().to_string()),
                pointer: e.pointer().to_string(),
                keyword: "tool".into(),
                action: Action::Skipped,
                detail: format!("tool skipped: {}", e.message()),
            });
            None
        }
    }
}

/// Starts the next item of a streamed conversion: for both Gemini
/// dialects (`wrapped`), the one tool holding every declaration before
/// the first; a comma before the others.
fn separate(out: &mut String, written: &mut usize, wrapped: bool) {
    match (*written, wrapped) {
        (0, true) => out.push_str("{\"functionDeclarations\":["),
        (0, false) => {}
        _ => out.push(','),
    }
    *written += 1;
}

/// The report entry of an output schema the dialect does not send.
fn output_dropped(dialect: Dialect, tool: &str, at: &str) -> ReportEntry {
    ReportEntry {
        tool: Some(tool.to_string()),
        pointer: pointer::push(at, "outputSchema"),
        keyword: "outputSchema".into(),
        action: Action::Dropped,
        detail: format!("{dialect} declarations carry no output schema (gemini-json does)"),
    }
}

/// The names map of the tools converted when some were skipped (`None`:
/// every tool converted, the map assigned is the one).
fn names_kept(converted: Vec<(&str, &str)>, skipped: bool) -> Option<NameMap> {
    skipped.then(|| {
        let mut names = NameMap::default();
        for (name, mcp) in converted {
            names.insert_pair(name.to_string(), mcp.to_string());
        }
        names
    })
}

/// One tool's item in the dialect's `tools` array, built by move (the
/// lowered schema is not copied); vscode and prompted keep the declaration
/// in `kept`, for what they build from all of them.
fn item<'a>(dialect: Dialect, d: Declared<'a>, kept: &mut Vec<Declared<'a>>) -> Value {
    match dialect {
        Dialect::Gemini => gemini::declaration(d),
        Dialect::GeminiJson => gemini_json::declaration(d),
        Dialect::OpenAi => openai::tool(d),
        Dialect::OpenAiResponses => openai_responses::tool(d),
        Dialect::Anthropic => anthropic::tool(d),
        Dialect::VsCode => {
            let item = vscode::contribution(&d);
            kept.push(d);
            item
        }
        Dialect::Prompted => {
            let item = prompted::entry(&d);
            kept.push(d);
            item
        }
    }
}

/// The order in which strict tools are considered against a request's
/// limits: the `strict_tools` order when given, else catalog order with the
/// tools that take parameters first (a tool without parameters gains
/// nothing from strict mode but still takes a place).
fn strict_order(
    declared: &[(Declared<'_>, Vec<ReportEntry>)],
    chosen: Option<&[String]>,
) -> Vec<usize> {
    let strict: Vec<usize> = (0..declared.len())
        .filter(|&i| declared.get(i).is_some_and(|(d, _)| d.strict))
        .collect();
    match chosen {
        Some(list) => list
            .iter()
            .filter_map(|n| {
                strict
                    .iter()
                    .copied()
                    .find(|&i| declared.get(i).is_some_and(|(d, _)| d.tool.name() == n))
            })
            .collect(),
        None => {
            let takes = |i: &usize| declared.get(*i).is_some_and(|(d, _)| !d.no_parameters());
            let (mut first, rest): (Vec<usize>, Vec<usize>) = strict.into_iter().partition(takes);
            first.extend(rest);
            first
        }
    }
}

/// The report entry of a tool sent without strict mode.
fn not_strict(tool: &Tool, why: String) -> ReportEntry {
    ReportEntry {
        tool: Some(tool.name().to_string()),
        pointer: pointer::push(tool.pointer(), "inputSchema"),
        keyword: "strict".into(),
        action: Action::NotStrict,
        detail: format!("sent without strict mode: {why}"),
    }
}

/// Lowers one tool for the dialect, falling back from strict mode when the
/// schema cannot be strict. Returns the declaration and the tool's report
/// entries.
fn declare<'a>(
    tool: &'a Tool,
    name: &'a str,
    dialect: Dialect,
    strict: bool,
) -> Result<(Declared<'a>, Vec<ReportEntry>), Error> {
    let mut report = Vec::new();
    let base = pointer::push(tool.pointer(), "inputSchema");
    let description = tool_description(tool, &mut report);
    let mut lowered = lower::lower(
        &dialect.target(strict),
        tool.input_schema(),
        tool.name(),
        &base,
    )?;
    let mut is_strict = strict;
    if strict {
        let over = lower::strict::over_limits(&lowered.schema)
            .filter(|_| matches!(dialect, Dialect::OpenAi | Dialect::OpenAiResponses));
        let reasons: Vec<String> = lowered
            .not_strict
            .iter()
            .map(|(_, why)| why.clone())
            .chain(over)
            .collect();
        if !reasons.is_empty() {
            lowered = lower::lower(
                &dialect.target(false),
                tool.input_schema(),
                tool.name(),
                &base,
            )?;
            is_strict = false;
            report.push(not_strict(tool, reasons.join("; ")));
        }
    }
    report.extend(lowered.report);
    let output = match (dialect, tool.output_schema()) {
        (Dialect::GeminiJson, Some(out)) => {
            let at = pointer::push(tool.pointer(), "outputSchema");
            let l = lower::lower(&dialect.target(false), out, tool.name(), &at)?;
            report.extend(l.report);
            Some(l.schema)
        }
        (_, Some(_)) => {
            report.push(output_dropped(dialect, tool.name(), tool.pointer()));
            None
        }
        (_, None) => None,
    };
    let examples = match dialect {
        Dialect::Anthropic => anthropic::examples(tool, &lowered.schema, &mut report),
        _ => Vec::new(),
    };
    Ok((
        Declared {
            tool,
            name,
            description,
            schema: lowered.schema,
            output,
            strict: is_strict,
            examples,
        },
        report,
    ))
}

/// The tool's description, or the best stand-in: `title`,
/// `annotations.title`, then a readable form of the name. Never empty.
pub(crate) fn tool_description(tool: &Tool, report: &mut Vec<ReportEntry>) -> String {
    if let Some(d) = tool.description() {
        return d.to_string();
    }
    let (text, from) = match tool.title() {
        Some(t) => (t.to_string(), "its title"),
        None => (
            words::readable_name(tool.name()),
            "a readable form of its name",
        ),
    };
    report.push(ReportEntry {
        tool: Some(tool.name().to_string()),
        pointer: pointer::push(tool.pointer(), "description"),
        keyword: "description".into(),
        action: Action::Added,
        detail: format!("the tool has no description; {from} is used: {text:?}"),
    });
    text
}

/// Reads the tool calls of a model response in `dialect`.
///
/// Names go back to MCP names through `names` (the map a [`Conversion`]
/// returned). With a `catalog`, each call's arguments are coerced and
/// validated against the tool's original input schema. A call that cannot
/// run (unknown tool, unreadable or invalid arguments) carries an `error`
/// and no request; the other calls are unaffected. A response with no
/// calls gives an empty list.
pub fn parse_calls(
    dialect: Dialect,
    response: &Value,
    names: &NameMap,
    catalog: Option<&Catalog>,
) -> Result<ModelTurn, Error> {
    if let Some((found, what)) = shape_of(response) {
        if found.family() != dialect.family() && dialect != Dialect::Prompted {
            return Err(Error::new(
                crate::error::ErrorKind::Shape,
                "",
                format!(
                    "this is {what}, not a {dialect} response: read it as {:?}",
                    found.as_str()
                ),
            ));
        }
    }
    let mut calls = CallBuilder::new(names, catalog);
    let (text, assistant) = match dialect {
        Dialect::Gemini | Dialect::GeminiJson => gemini::read_calls(response, &mut calls)?,
        Dialect::OpenAi => openai::read_calls(response, &mut calls)?,
        Dialect::OpenAiResponses => openai_responses::read_calls(response, &mut calls)?,
        Dialect::Anthropic => anthropic::read_calls(response, &mut calls)?,
        Dialect::VsCode => vscode::read_calls(response, &mut calls)?,
        Dialect::Prompted => prompted::read_calls(response, &mut calls)?,
    };
    let searches = std::mem::take(&mut calls.searches);
    Ok(ModelTurn {
        calls: calls.finish(),
        text,
        assistant,
        searches,
    })
}

impl Dialect {
    /// The API a dialect's responses come from (both Gemini dialects read
    /// the same responses).
    fn family(self) -> Dialect {
        match self {
            Dialect::GeminiJson => Dialect::Gemini,
            d => d,
        }
    }
}

/// The API a model response plainly comes from, by the fields only that
/// API writes, with its description; `None` when nothing says.
fn shape_of(response: &Value) -> Option<(Dialect, &'static str)> {
    const GEMINI: (Dialect, &str) = (Dialect::Gemini, "a Gemini response");
    const CHAT: (Dialect, &str) = (Dialect::OpenAi, "an OpenAI Chat Completions response");
    const RESPONSES: (Dialect, &str) =
        (Dialect::OpenAiResponses, "an OpenAI Responses API response");
    const ANTHROPIC: (Dialect, &str) = (Dialect::Anthropic, "an Anthropic Messages response");
    const VSCODE: (Dialect, &str) = (Dialect::VsCode, "a VS Code chat response");
    let item_shape = |v: &Value| -> Option<(Dialect, &'static str)> {
        match v.get("type").and_then(Value::as_str) {
            Some("function_call" | "function_call_output" | "reasoning") => return Some(RESPONSES),
            Some("tool_use" | "thinking" | "redacted_thinking" | "tool_result") => {
                return Some(ANTHROPIC)
            }
            Some("function") if v.get("function").is_some() => return Some(CHAT),
            _ => {}
        }
        if v.get("functionCall").is_some() || v.get("functionResponse").is_some() {
            return Some(GEMINI);
        }
        if v.get("callId").is_some() {
            return Some(VSCODE);
        }
        None
    };
    match response {
        Value::Object(m) => {
            let field = |k: &str| m.get(k).and_then(Value::as_str);
            if m.contains_key("candidates")
                || m.contains_key("toolCall")
                || m.contains_key("usageMetadata")
            {
                return Some(GEMINI);
            }
            if m.contains_key("choices")
                || field("object") == Some("chat.completion")
                || m.get("tool_calls").is_some_and(Value::is_array)
            {
                return Some(CHAT);
            }
            if field("object") == Some("response") || m.get("output").is_some_and(Value::is_array) {
                return Some(RESPONSES);
            }
            if field("type") == Some("message") && m.contains_key("stop_reason")
                || m.contains_key("stop_reason")
            {
                return Some(ANTHROPIC);
            }
            if field("role") == Some("model") {
                return Some(GEMINI);
            }
            let blocks = m
                .get("content")
                .or_else(|| m.get("parts"))
                .and_then(Value::as_array);
            blocks.and_then(|b| b.iter().find_map(item_shape))
        }
        Value::Array(items) => items.iter().find_map(item_shape),
        _ => None,
    }
}

/// Writes the results of a turn's calls as `dialect`'s conversation items,
/// to append after [`ModelTurn::assistant`].
///
/// `results` holds, for each call, an MCP `CallToolResult`, a JSON-RPC
/// response (with `result` or `error`), or `null` for a call that carries
/// its own error: as an array in call order, or an object keyed by call id.
pub fn format_results(
    dialect: Dialect,
    turn: &ModelTurn,
    results: &Value,
) -> Result<Vec<Value>, Error> {
    let outcomes = outcomes(turn, results)?;
    Ok(match dialect {
        Dialect::Gemini | Dialect::GeminiJson => gemini::write_results(turn, &outcomes),
        Dialect::OpenAi => openai::write_results(turn, &outcomes),
        Dialect::OpenAiResponses => openai_responses::write_results(turn, &outcomes),
        Dialect::Anthropic => anthropic::write_results(turn, &outcomes),
        Dialect::VsCode => vscode::write_results(turn, &outcomes),
        Dialect::Prompted => prompted::write_results(turn, &outcomes),
    })
}
