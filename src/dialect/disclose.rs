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

use serde_json::{json, Value};

use super::{anthropic, convert_all, gemini, openai_responses, Conversion, Dialect, Options};
use crate::catalog::{Catalog, Tool};
use crate::engine::disclosure::{default_core, View};
use crate::engine::{self, Mode};
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

/// Our search as a tool: `head` (the fields before, as JSON text), its
/// description for `n` deferred tools, and the input schema of the
/// meta-tool `search_tools` under `schema_key`.
pub(crate) fn our_search(head: &str, n: usize, schema_key: &str) -> Value {
    serde_json::from_str(&format!(
        r#"{{{head}"description":"Find tools among {n} more by what you want to do, and load them: then call them directly.","{schema_key}":{}}}"#,
        crate::engine::disclosure::SEARCH_SCHEMA
    ))
    .unwrap_or(Value::Null)
}

/// Converts with a mode other than plain `all` (or `all` past Gemini's
/// limit): the mode is resolved (with a report entry for every fall
/// back), then built.
pub(super) fn convert(catalog: &Catalog, dialect: Dialect, o: &Options) -> Conversion {
    use DisclosureMode::*;
    let native = dialect.has_native_search();
    let over = gemini::over_limit(dialect, catalog.len());
    let mut notes = Vec::new();
    if over {
        notes.push(format!(
            "{dialect} takes at most 512 function declarations, and the catalog has {}",
            catalog.len()
        ));
    }
    let mode = match o.disclosure {
        Native if !native => {
            notes.push(format!(
                "{dialect} has no native tool search: hybrid instead"
            ));
            Hybrid
        }
        All if over => Hybrid,
        m => m,
    };
    let mut c = build(catalog, dialect, o, mode);
    if mode == Auto {
        // hybrid, unless native or all (in that order, on a tie) cost less
        c = build(catalog, dialect, o, Hybrid);
        let mut least = visible_tokens(&c);
        let mut said = format!("auto: the fewest tokens at first, of hybrid {least}");
        for m in [Native, All] {
            if (m == All && over) || (m == Native && !native) {
                continue;
            }
            let other = build(catalog, dialect, o, m);
            let tokens = visible_tokens(&other);
            said.push_str(&format!(", {} {tokens}", m.as_str()));
            if tokens <= least {
                (c, least) = (other, tokens);
            }
        }
        notes.push(said);
    }
    for (i, detail) in notes.into_iter().enumerate() {
        c.report
            .insert(i, mark(None, "disclosure", Action::Rewritten, &detail));
    }
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

/// The core tools, by MCP name (at most 509: Gemini's 512 less the
/// meta-tools), and why each is one.
fn core(catalog: &Catalog, o: &Options) -> (Vec<String>, &'static str) {
    let (mut names, why) = match &o.core {
        Some(names) => (names.clone(), "kept loaded: named as a core tool"),
        None => (
            default_core(catalog),
            "kept loaded: a read-only overview tool",
        ),
    };
    names.retain(|n| catalog.get(n).is_some());
    names.truncate(gemini::MAX_DECLARATIONS - 3);
    (names, why)
}

/// The tool kept loaded when no core tool is: of the converted tools, a
/// read-only one (by its annotations, or a `get`/`list`/`search`/`find`
/// verb) first, then the fewest required parameters, then catalog order.
fn keep_one(catalog: &Catalog, c: &Conversion) -> Option<String> {
    catalog
        .tools()
        .iter()
        .filter(|t| c.names.dialect_name(t.name()).is_some())
        .min_by_key(|t| {
            let local = t.name().rsplit("__").next().unwrap_or(t.name());
            let first = crate::text::split_identifier(local)
                .first()
                .map(|w| w.to_lowercase());
            let read = t.hint("readOnlyHint") == Some(true)
                || matches!(first.as_deref(), Some("get" | "list" | "search" | "find"));
            let required = t
                .input_schema()
                .get("required")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            (!read, required)
        })
        .map(|t| t.name().to_string())
}

/// `hybrid` or `meta`: the core tools (`hybrid`) and the engine's
/// meta-tools, converted; every other tool reported as reached through
/// the meta-tools.
fn listed(catalog: &Catalog, dialect: Dialect, o: &Options, mode: DisclosureMode) -> Conversion {
    let (mut core, why) = core(catalog, o);
    if mode == DisclosureMode::Meta {
        core.clear();
    }
    let view = View::of(
        catalog,
        engine::Disclosure {
            mode: Mode::Hybrid,
            core: Some(core.clone()),
            metadata: o.metadata.clone(),
            definitions: None,
        },
    );
    let mut tools = Vec::new();
    for v in view.listed() {
        let name = v.get("name").and_then(Value::as_str).unwrap_or("");
        // a core tool as the catalog has it (with its place), or a meta-tool
        match catalog.get(name).filter(|_| core.iter().any(|c| c == name)) {
            Some(t) => tools.push(t.clone()),
            None => tools.extend(Tool::from_value(v.clone(), "").ok().map(|t| t.0)),
        }
    }
    let mut c = convert_all(&Catalog::from_tools(tools), dialect, o);
    let mut report = catalog.report().to_vec();
    for t in catalog.tools() {
        report.push(match core.iter().any(|c| c == t.name()) {
            true => loaded(t, why),
            false => mark(
                Some(t),
                "disclosure",
                Action::Deferred,
                "deferred: found with search_tools, run with use_tool",
            ),
        });
    }
    report.append(&mut c.report);
    c.report = report;
    c
}

/// `native` (Anthropic, OpenAI Responses): every tool converted, the core
/// tools loaded and the others deferred, with the search that finds them.
fn deferred(catalog: &Catalog, dialect: Dialect, o: &Options) -> Conversion {
    let mut c = convert_all(catalog, dialect, o);
    let (mut core, mut why) = core(catalog, o);
    // one tool of the catalog stays loaded, even when no core tool was
    // found or converted: a request whose tools are all deferred is refused
    if !core.iter().any(|n| c.names.dialect_name(n).is_some()) {
        if let Some(one) = keep_one(catalog, &c) {
            core = vec![one];
            why = "kept loaded: the API needs a tool that is not deferred, and no overview tool was found";
        }
    }
    let anthropic = dialect == Dialect::Anthropic;
    // the categories name OpenAI's namespaces
    let index = match anthropic {
        true => None,
        false => crate::search::ToolIndex::build(catalog, o.metadata.as_ref()).ok(),
    };
    let mut tools = Vec::new();
    let mut later = Vec::new();
    for mut item in std::mem::take(&mut c.tools) {
        let name = item.get("name").and_then(Value::as_str).unwrap_or("");
        let mcp = c.names.mcp_name(name).unwrap_or(name).to_string();
        let tool = catalog.get(&mcp);
        let Some(m) = item.as_object_mut() else {
            continue;
        };
        // Anthropic's tool search does not take input_examples
        if m.shift_remove("input_examples").is_some() {
            c.report.push(mark(
                tool,
                "input_examples",
                Action::Dropped,
                "not sent: Anthropic's tool search does not take input_examples",
            ));
        }
        if let (Some(t), true) = (tool, core.contains(&mcp)) {
            c.report.push(loaded(t, why));
            tools.push(item);
            continue;
        }
        c.report.push(mark(
            tool,
            "defer_loading",
            Action::Deferred,
            "deferred: loaded when the tool search finds it",
        ));
        m.insert("defer_loading".into(), Value::Bool(true));
        let category = index
            .as_ref()
            .and_then(|i| i.category(&mcp))
            .unwrap_or("other");
        later.push((category.to_string(), item));
    }
    if later.is_empty() {
        c.tools = tools;
        return c;
    }
    let n = later.len();
    let ours = o.search_with == SearchWith::Ours;
    // the names the search tool and the namespaces may not take
    let mut taken: Vec<String> = c.names.iter().map(|(d, _)| d.to_string()).collect();
    let search = match (anthropic, ours) {
        (false, _) => openai_responses::search_tool(ours, n),
        (true, false) => anthropic::provider_search(o.regex_search),
        (true, true) => {
            let name = free_name(&mut taken, SEARCH_NAME);
            c.names.insert_pair(name.clone(), name.clone());
            anthropic::client_search(&name, n)
        }
    };
    tools.insert(0, search);
    match anthropic {
        true => tools.extend(later.into_iter().map(|l| l.1)),
        false => tools.extend(openai_responses::namespaces(later, &mut taken)),
    }
    c.tools = tools;
    c
}

/// `base` fitted to the name rule, or, when a name of `taken` is that
/// already, the same with a number; it is then taken too.
pub(crate) fn free_name(taken: &mut Vec<String>, base: &str) -> String {
    let base = crate::names::NameRule::OPENAI.fit(base);
    let mut name = base.clone();
    let mut n = 1;
    while taken.contains(&name) {
        n += 1;
        name = format!("{}_{n}", base.get(..60).unwrap_or(&base));
    }
    taken.push(name.clone());
    name
}

fn mark(tool: Option<&Tool>, keyword: &str, action: Action, detail: &str) -> ReportEntry {
    ReportEntry {
        tool: tool.map(|t| t.name().to_string()),
        pointer: tool.map_or("", Tool::pointer).to_string(),
        keyword: keyword.into(),
        action,
        detail: detail.into(),
    }
}

fn loaded(tool: &Tool, why: &str) -> ReportEntry {
    mark(Some(tool), "disclosure", Action::Loaded, why)
}

/// The tokens of a conversion the model reads at first: every tool, less
/// what is deferred (Anthropic's deferred tools; of an OpenAI namespace,
/// its name and description alone); for `prompted`, the prompt.
pub fn visible_tokens(c: &Conversion) -> usize {
    if let Some(p) = c.extra.get("prompt").and_then(Value::as_str) {
        return estimate_tokens(p);
    }
    let mut seen = Vec::new();
    for t in &c.tools {
        if t.get("defer_loading") == Some(&Value::Bool(true)) {
            continue;
        }
        let mut t = t.clone();
        if let Some(m) = t
            .as_object_mut()
            .filter(|m| m.get("type") == Some(&json!("namespace")))
        {
            m.shift_remove("tools");
        }
        seen.push(t);
    }
    estimate_tokens(&Value::Array(seen).to_string())
}
