//! Progressive disclosure in a conversion: which tools a request carries
//! loaded, which it leaves for later, and how the model reaches them.
//!
//! `hybrid` and `meta` send the engine's meta-tools (`search_tools`,
//! `get_tool_definition`, `use_tool`) beside the core tools, in every
//! dialect. `native` uses the provider's own deferral where it has one
//! (Anthropic: `defer_loading` and a tool-search tool; OpenAI Responses:
//! deferred functions in namespaces and `tool_search`) and falls back to
//! `hybrid` elsewhere. `auto` takes the cheapest of `all`, `native` (where
//! there is one) and `hybrid`, by the tokens the model sees at first.

use serde_json::{json, Map, Value};

use super::{anthropic, convert_all, gemini, openai_responses, Conversion, Dialect, Options};
use crate::catalog::{Catalog, Tool};
use crate::engine::disclosure::{default_core, View};
use crate::engine::{self, EngineConfig, Mode};
use crate::names::NameMap;
use crate::pointer;
use crate::report::{Action, ReportEntry};
use crate::tokens::estimate_tokens;

/// How much of the catalog a conversion shows the model at first
/// ([`Options::with_disclosure`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum DisclosureMode {
    /// Every tool (Gemini: at most 512; past that, `hybrid`, reported).
    #[default]
    All,
    /// The core tools plus `search_tools`, `get_tool_definition` and
    /// `use_tool`.
    Hybrid,
    /// The meta-tools alone.
    Meta,
    /// The provider's own tool search: the core tools loaded, every other
    /// tool deferred (Anthropic, OpenAI Responses; `hybrid` elsewhere,
    /// reported).
    Native,
    /// The mode of `all`, `native` and `hybrid` whose first request the
    /// model reads in the fewest tokens (`meta`, always `hybrid` less the
    /// core tools, is never taken by itself).
    Auto,
}

impl DisclosureMode {
    /// Every mode, as [`DisclosureMode::parse`] reads them.
    pub const ALL: [DisclosureMode; 5] = [
        DisclosureMode::All,
        DisclosureMode::Hybrid,
        DisclosureMode::Meta,
        DisclosureMode::Native,
        DisclosureMode::Auto,
    ];

    /// The mode's name: `all`, `hybrid`, `meta`, `native` or `auto`.
    pub fn as_str(self) -> &'static str {
        match self {
            DisclosureMode::All => "all",
            DisclosureMode::Hybrid => "hybrid",
            DisclosureMode::Meta => "meta",
            DisclosureMode::Native => "native",
            DisclosureMode::Auto => "auto",
        }
    }

    /// Reads a mode's name.
    pub fn parse(s: &str) -> Option<DisclosureMode> {
        DisclosureMode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// Whose search finds the deferred tools in [`DisclosureMode::Native`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SearchWith {
    /// The provider's: Anthropic's BM25 (or regex) tool-search tool,
    /// OpenAI's hosted `tool_search`.
    #[default]
    Provider,
    /// Ours, run by the caller: an Anthropic tool `search_tools` answered
    /// with `tool_reference` blocks, or OpenAI's `tool_search` with
    /// `execution: "client"` answered with a `tool_search_output` item.
    Ours,
}

impl SearchWith {
    /// `provider` or `ours`.
    pub fn as_str(self) -> &'static str {
        match self {
            SearchWith::Provider => "provider",
            SearchWith::Ours => "ours",
        }
    }

    /// Reads `provider` or `ours`.
    pub fn parse(s: &str) -> Option<SearchWith> {
        [SearchWith::Provider, SearchWith::Ours]
            .into_iter()
            .find(|m| m.as_str() == s)
    }
}

impl Dialect {
    /// Whether the API defers tools itself ([`DisclosureMode::Native`]).
    pub fn has_native_search(self) -> bool {
        matches!(self, Dialect::Anthropic | Dialect::OpenAiResponses)
    }
}

/// The name our search goes by (Anthropic's tool), unless the catalog
/// takes it.
pub(crate) const SEARCH_NAME: &str = "search_tools";

/// Our search's input schema (Anthropic `input_schema`, OpenAI
/// `parameters`).
const SEARCH_SCHEMA: &str = r#"{"type":"object","properties":{"query":{"type":"string","description":"What you want to do, in a few words (any language), e.g. \"turn on light\" or \"thermostaat\"."},"limit":{"type":"integer","minimum":1,"maximum":10,"description":"How many tools to load (default 5)."}},"required":["query"],"additionalProperties":false}"#;

/// Our search's description, for `n` deferred tools.
pub(crate) fn search_description(n: usize) -> String {
    format!("Find and load tools among {n} more by what you want to do; the tools found can then be called directly.")
}

pub(crate) fn search_schema() -> Value {
    serde_json::from_str(SEARCH_SCHEMA).unwrap_or_else(|_| json!({"type": "object"}))
}

/// Converts with a mode other than plain `all` (or `all` past Gemini's
/// limit): the mode is resolved (with a report entry for every fall
/// back), then built.
pub(super) fn convert(catalog: &Catalog, dialect: Dialect, o: &Options) -> Conversion {
    use DisclosureMode::*;
    let native = dialect.has_native_search();
    let over = gemini::over_limit(dialect, catalog.len());
    let mut notes = Vec::new();
    let mut note =
        |detail: String| notes.push(entry(None, "disclosure", Action::Rewritten, detail));
    if over {
        note(format!(
            "{dialect} takes at most {} function declarations and the catalog has {}: not all sent at once",
            gemini::MAX_DECLARATIONS,
            catalog.len()
        ));
    }
    let mut c = match o.disclosure {
        Native if !native => {
            note(format!(
                "{dialect} has no native tool search: disclosed as hybrid"
            ));
            build(catalog, dialect, o, Hybrid)
        }
        All if over => build(catalog, dialect, o, Hybrid),
        Auto => {
            let mut best: Option<(usize, Conversion)> = None;
            let mut costs = Vec::new();
            for m in [All, Native, Hybrid] {
                if (m == All && over) || (m == Native && !native) {
                    continue;
                }
                let c = build(catalog, dialect, o, m);
                let t = visible_tokens(&c);
                costs.push(format!("{} {t}", m.as_str()));
                if best.as_ref().is_none_or(|b| t < b.0) {
                    best = Some((t, c));
                }
            }
            note(format!(
                "auto: the fewest tokens at first (estimated: {})",
                costs.join(", ")
            ));
            best.map(|b| b.1)
                .unwrap_or_else(|| build(catalog, dialect, o, Hybrid))
        }
        m => build(catalog, dialect, o, m),
    };
    let at = c.report.len().min(catalog.report().len());
    c.report.splice(at..at, notes);
    c
}

/// The conversion in one mode, with no fall back (`native` is `all`
/// where the dialect has no native search; `auto` is `all`).
pub(crate) fn build(
    catalog: &Catalog,
    dialect: Dialect,
    o: &Options,
    mode: DisclosureMode,
) -> Conversion {
    match mode {
        DisclosureMode::Hybrid | DisclosureMode::Meta => listed(catalog, dialect, o, mode),
        DisclosureMode::Native if dialect.has_native_search() => deferred(catalog, dialect, o),
        _ => convert_all(catalog, dialect, o),
    }
}

/// The core tools, by MCP name, and why each is one.
fn core<'a>(catalog: &'a Catalog, o: &Options) -> (Vec<String>, &'static str) {
    match &o.core {
        Some(names) => (
            names
                .iter()
                .filter(|n| catalog.get(n).is_some())
                .cloned()
                .collect(),
            "named as a core tool",
        ),
        None => (
            default_core(catalog),
            "a read-only overview tool, chosen as a core tool",
        ),
    }
}

/// `hybrid` or `meta`: the core tools and the engine's meta-tools,
/// converted; every other tool reported as reached through the
/// meta-tools.
fn listed(catalog: &Catalog, dialect: Dialect, o: &Options, mode: DisclosureMode) -> Conversion {
    let (names, why) = core(catalog, o);
    let hybrid = mode == DisclosureMode::Hybrid;
    let config = EngineConfig {
        disclosure: engine::Disclosure {
            mode: if hybrid { Mode::Hybrid } else { Mode::Meta },
            core: Some(Vec::new()),
            metadata: o.metadata.clone(),
            definitions: None,
        },
        ..EngineConfig::default()
    };
    // the meta-tools alone: the view lists no core tool
    let view = View::build(catalog, &config);
    let meta = view.listed().len();
    let limit = match dialect {
        Dialect::Gemini | Dialect::GeminiJson => gemini::MAX_DECLARATIONS - meta,
        _ => usize::MAX,
    };
    let mut tools: Vec<Tool> = names
        .iter()
        .filter(|_| hybrid)
        .filter_map(|n| catalog.get(n))
        .take(limit)
        .cloned()
        .collect();
    let mut report = catalog.report().to_vec();
    for t in catalog.tools() {
        report.push(if tools.iter().any(|k| k.name() == t.name()) {
            loaded_entry(t, why)
        } else {
            entry(
                Some(t),
                "disclosure",
                Action::Deferred,
                "deferred: found with search_tools, run with use_tool".into(),
            )
        });
    }
    tools.extend(
        view.listed()
            .iter()
            .filter_map(|v| Tool::from_value(v.clone(), "").ok().map(|t| t.0)),
    );
    let mut c = convert_all(&Catalog::from_tools(tools), dialect, o);
    report.append(&mut c.report);
    c.report = report;
    c
}

/// `native` (Anthropic, OpenAI Responses): every tool converted, the core
/// tools loaded and the others deferred, with the search that finds them.
fn deferred(catalog: &Catalog, dialect: Dialect, o: &Options) -> Conversion {
    let mut c = convert_all(catalog, dialect, o);
    let (core, why) = core(catalog, o);
    let mut keep = Vec::new();
    let mut later = Vec::new();
    for item in std::mem::take(&mut c.tools) {
        let tool = item
            .get("name")
            .and_then(Value::as_str)
            .and_then(|n| c.names.mcp_name(n))
            .and_then(|m| catalog.get(m));
        match tool {
            Some(t) if core.iter().any(|n| n == t.name()) => {
                c.report.push(loaded_entry(t, why));
                keep.push((tool, item));
            }
            _ => later.push((tool, item)),
        }
    }
    if later.is_empty() {
        c.tools = keep.into_iter().map(|k| k.1).collect();
        return c;
    }
    let n = later.len();
    let ours = o.search_with == SearchWith::Ours;
    // the names the search tool and the namespaces may not take
    let mut taken: Vec<String> = c.names.iter().map(|(d, _)| d.to_string()).collect();
    let (search, rest) = if dialect == Dialect::Anthropic {
        for (tool, item) in keep.iter_mut().chain(later.iter_mut()) {
            if let Some(m) = item.as_object_mut() {
                if m.shift_remove("input_examples").is_some() {
                    c.report.push(entry(
                        *tool,
                        "input_examples",
                        Action::Dropped,
                        "not sent: Anthropic's tool search does not take input_examples".into(),
                    ));
                }
            }
        }
        let rest: Vec<Value> = later
            .into_iter()
            .map(|(tool, item)| {
                c.report.push(deferred_entry(tool, ""));
                with_defer(item)
            })
            .collect();
        let search = if ours {
            let name = free_name(&mut taken, SEARCH_NAME);
            c.names.insert_pair(name.clone(), name.clone());
            anthropic::client_search(&name, n)
        } else {
            anthropic::provider_search(o.regex_search)
        };
        (search, rest)
    } else {
        let index = crate::search::ToolIndex::build(catalog, o.metadata.as_ref())
            .or_else(|_| crate::search::ToolIndex::build(catalog, None))
            .ok();
        let grouped = later
            .into_iter()
            .map(|(tool, item)| {
                let cat = tool
                    .and_then(|t| index.as_ref()?.category(t.name()))
                    .unwrap_or("other");
                (cat.to_string(), tool, with_defer(item))
            })
            .collect();
        let rest = openai_responses::namespaces(grouped, &mut taken, &mut c.report);
        (openai_responses::search_tool(ours, n), rest)
    };
    c.tools = std::iter::once(search)
        .chain(keep.into_iter().map(|k| k.1))
        .chain(rest)
        .collect();
    c
}

/// `item` with `defer_loading: true`.
fn with_defer(mut item: Value) -> Value {
    if let Some(m) = item.as_object_mut() {
        m.insert("defer_loading".into(), Value::Bool(true));
    }
    item
}

/// `base` fitted to the name rule, or, when a name of `taken` is that
/// already, the same with a suffix; it is then taken too.
pub(crate) fn free_name(taken: &mut Vec<String>, base: &str) -> String {
    let (map, _) = NameMap::assign(
        taken.iter().map(String::as_str).chain([base]),
        &crate::names::NameRule::OPENAI,
    );
    let name = map.iter().last().map_or(base, |(d, _)| d).to_string();
    taken.push(name.clone());
    name
}

fn entry(tool: Option<&Tool>, keyword: &str, action: Action, detail: String) -> ReportEntry {
    ReportEntry {
        tool: tool.map(|t| t.name().to_string()),
        pointer: tool.map(Tool::pointer).unwrap_or("").to_string(),
        keyword: keyword.into(),
        action,
        detail,
    }
}

fn loaded_entry(tool: &Tool, why: &str) -> ReportEntry {
    entry(
        Some(tool),
        "disclosure",
        Action::Loaded,
        format!("kept loaded: {why}"),
    )
}

/// The report entry of a tool deferred to the provider's search (in
/// `namespace`, when not empty).
pub(crate) fn deferred_entry(tool: Option<&Tool>, namespace: &str) -> ReportEntry {
    let mut e = entry(
        tool,
        "defer_loading",
        Action::Deferred,
        "deferred: loaded when the tool search finds it".into(),
    );
    e.pointer = pointer::push(&e.pointer, "name");
    if !namespace.is_empty() {
        e.detail.push_str(&format!(" (namespace {namespace})"));
    }
    e
}

/// The tokens of a conversion the model reads at first: every tool, less
/// what is deferred (Anthropic's deferred tools; of an OpenAI namespace,
/// its name and description alone); for `prompted`, the prompt.
pub fn visible_tokens(c: &Conversion) -> usize {
    if let Some(p) = c.extra.get("prompt").and_then(Value::as_str) {
        return estimate_tokens(p);
    }
    let seen: Vec<Value> = c
        .tools
        .iter()
        .filter(|t| t.get("defer_loading") != Some(&Value::Bool(true)))
        .map(|t| match t.get("type").and_then(Value::as_str) {
            Some("namespace") => {
                let mut m = Map::new();
                for k in ["type", "name", "description"] {
                    if let Some(v) = t.get(k) {
                        m.insert(k.into(), v.clone());
                    }
                }
                Value::Object(m)
            }
            _ => t.clone(),
        })
        .collect();
    estimate_tokens(&Value::Array(seen).to_string())
}
