//! Progressive disclosure: which tools `tools/list` shows, and the
//! meta-tools (`search_tools`, `get_tool_definition`, `use_tool`) that reach
//! the rest. Their input schemas are generated with schemars from the Rust
//! argument types below.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::EngineConfig;
use crate::catalog::{Catalog, Tool};
use crate::dialect::{convert, Dialect, Options};
use crate::search::{SearchOptions, ToolIndex};
use crate::tokens::estimate_tokens;

/// How much of the catalog `tools/list` shows.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Mode {
    /// Every exposed tool (plain `tools/list`; disclosure off).
    All,
    /// The core tools plus the meta-tools.
    Hybrid,
    /// Only the meta-tools.
    Meta,
    /// `Hybrid` when the full list would cost more than `share` of a
    /// context of `context_tokens` tokens, `All` otherwise.
    Auto {
        /// The model's context size, in tokens.
        context_tokens: usize,
        /// The share of it the tool list may take (0.0–1.0).
        share: f64,
    },
}

impl Mode {
    /// Reads `all`, `hybrid`, `meta` or `auto`.
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "all" => Mode::All,
            "hybrid" => Mode::Hybrid,
            "meta" => Mode::Meta,
            "auto" => Mode::Auto {
                context_tokens: 32_000,
                share: 0.1,
            },
            _ => return None,
        })
    }
}

/// Progressive-disclosure settings.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Disclosure {
    /// The mode.
    pub mode: Mode,
    /// Tools listed directly in `hybrid` mode; chosen from the catalog when
    /// `None` (read-only overview tools such as `get_home_structure`,
    /// `get_states`, `GetLiveContext`).
    pub core: Option<Vec<String>>,
    /// Curated search metadata (see [`ToolIndex::build`]).
    pub metadata: Option<Value>,
    /// The dialect `get_tool_definition` answers in; `None` gives the MCP
    /// tool object.
    pub definitions: Option<Dialect>,
}

impl Default for Disclosure {
    fn default() -> Self {
        Disclosure {
            mode: Mode::All,
            core: None,
            metadata: None,
            definitions: None,
        }
    }
}

/// The meta-tool names.
pub(crate) const SEARCH: &str = "search_tools";
pub(crate) const DEFINITION: &str = "get_tool_definition";
pub(crate) const USE: &str = "use_tool";

/// Arguments of `search_tools`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    /// What you want to do, in a few words (any language), e.g. "turn on light" or "thermostaat".
    query: String,
    /// Only tools of this category.
    #[serde(default)]
    category: Option<String>,
    /// How many tools to return (default 5, at most 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 20))]
    limit: Option<u32>,
}

/// Arguments of `get_tool_definition`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DefinitionArgs {
    /// The tool name, as search_tools returned it.
    name: String,
}

/// Arguments of `use_tool`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UseArgs {
    /// The tool name, as search_tools returned it.
    name: String,
    /// The tool's arguments, as its definition describes them.
    #[serde(default)]
    arguments: Map<String, Value>,
}

fn schema_of<T: JsonSchema>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.meta_schema = None;
    });
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut v = serde_json::to_value(&schema).unwrap_or_else(|_| json!({"type": "object"}));
    if let Value::Object(m) = &mut v {
        m.shift_remove("title");
        m.shift_remove("$schema");
        // Option<T> fields are optional, not nullable, for the models' sake
        if let Some(Value::Object(props)) = m.get_mut("properties") {
            for p in props.values_mut() {
                if let Some(Value::Array(ts)) = p.get("type").cloned() {
                    let rest: Vec<Value> = ts.into_iter().filter(|t| t != "null").collect();
                    if rest.len() == 1 {
                        p["type"] = rest.into_iter().next().unwrap_or(Value::Null);
                    }
                }
            }
        }
    }
    v
}

/// A meta-tool call.
pub(crate) enum Meta {
    Search,
    Definition,
    Use,
}

/// Where a `tools/call` goes.
pub(crate) enum Route {
    Meta(Meta),
    Tool,
    Unknown,
}

/// What a meta-tool call produced.
pub(crate) enum Answer {
    /// A `CallToolResult` to send.
    Result(Value),
    /// Run this real tool with these arguments.
    Invoke(String, Value),
}

/// The catalog as clients see it under one configuration.
pub(crate) struct View {
    listed: Vec<Value>,
    exposed: HashSet<String>,
    meta: bool,
    index: Option<ToolIndex>,
    definitions: Option<Dialect>,
}

impl View {
    pub(crate) fn build(catalog: &Catalog, config: &EngineConfig) -> View {
        let exposed_tools: Vec<Tool> = catalog
            .tools()
            .iter()
            .filter(|t| config.exposure.admits(t))
            .cloned()
            .collect();
        let exposed_catalog = Catalog::from_tools(exposed_tools);
        let index = ToolIndex::build(&exposed_catalog, config.disclosure.metadata.as_ref())
            .or_else(|_| ToolIndex::build(&exposed_catalog, None))
            .ok();
        let all: Vec<Value> = exposed_catalog
            .tools()
            .iter()
            .map(|t| Value::Object(t.as_map().clone()))
            .collect();
        let mode = match config.disclosure.mode {
            Mode::Auto {
                context_tokens,
                share,
            } => {
                let cost = estimate_tokens(&Value::Array(all.clone()).to_string());
                if (cost as f64) > context_tokens as f64 * share.clamp(0.0, 1.0) {
                    Mode::Hybrid
                } else {
                    Mode::All
                }
            }
            m => m,
        };
        let meta = matches!(mode, Mode::Hybrid | Mode::Meta);
        let mut listed = Vec::new();
        if mode == Mode::Hybrid {
            let core = config
                .disclosure
                .core
                .clone()
                .unwrap_or_else(|| default_core(&exposed_catalog));
            for name in &core {
                if let Some(t) = exposed_catalog.get(name) {
                    listed.push(Value::Object(t.as_map().clone()));
                }
            }
        }
        if meta {
            let mut categories: Vec<String> = exposed_catalog
                .tools()
                .iter()
                .filter_map(|t| index.as_ref().and_then(|i| i.category(t.name())))
                .map(str::to_owned)
                .collect();
            categories.sort();
            categories.dedup();
            listed.extend(meta_tools(&categories, exposed_catalog.len()));
        } else {
            listed = all;
        }
        View {
            listed,
            exposed: exposed_catalog
                .tools()
                .iter()
                .map(|t| t.name().to_string())
                .collect(),
            meta,
            index,
            definitions: config.disclosure.definitions,
        }
    }

    pub(crate) fn listed(&self) -> &[Value] {
        &self.listed
    }

    pub(crate) fn listed_names(&self) -> Vec<&str> {
        self.listed
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .collect()
    }

    /// Changes when any listed definition changes.
    pub(crate) fn fingerprint(&self) -> u64 {
        crate::text::fnv1a(&Value::Array(self.listed.clone()).to_string())
    }

    pub(crate) fn route(&self, name: &str) -> Route {
        if self.meta {
            match name {
                SEARCH => return Route::Meta(Meta::Search),
                DEFINITION => return Route::Meta(Meta::Definition),
                USE => return Route::Meta(Meta::Use),
                _ => {}
            }
        }
        if self.exposed.contains(name) {
            Route::Tool
        } else {
            Route::Unknown
        }
    }

    /// "; did you mean a, b?" for an unknown name, or nothing.
    pub(crate) fn suggest(&self, name: &str) -> String {
        let close = self
            .index
            .as_ref()
            .map(|i| i.suggest(name, 3))
            .unwrap_or_default();
        if close.is_empty() {
            String::new()
        } else {
            format!(". Did you mean {}?", close.join(", "))
        }
    }
}

impl Meta {
    pub(crate) fn answer(&self, view: &View, catalog: &Catalog, args: &Value) -> Answer {
        match self {
            Meta::Search => {
                let a: SearchArgs = match serde_json::from_value(args.clone()) {
                    Ok(a) => a,
                    Err(e) => {
                        return error(&format!("search_tools needs {{\"query\": \"...\"}}: {e}"))
                    }
                };
                let mut opts =
                    SearchOptions::new().with_limit(a.limit.unwrap_or(5).clamp(1, 20) as usize);
                if let Some(c) = a.category {
                    opts = opts.with_category(c);
                }
                let found = match &view.index {
                    Some(i) => i.search(&a.query, &opts),
                    None => return error("the tool index is not available"),
                };
                let mut structured = serde_json::to_value(&found).unwrap_or(Value::Null);
                if let Some(Value::Array(hits)) = structured.get_mut("hits") {
                    for h in hits.iter_mut() {
                        let name = h
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string();
                        if let Some(t) = catalog.get(&name) {
                            h["parameters"] = Value::String(parameter_line(t));
                        }
                    }
                }
                let text = structured.to_string();
                Answer::Result(
                    json!({"content": [{"type": "text", "text": text}], "structuredContent": structured}),
                )
            }
            Meta::Definition => {
                let a: DefinitionArgs = match serde_json::from_value(args.clone()) {
                    Ok(a) => a,
                    Err(e) => {
                        return error(&format!(
                            "get_tool_definition needs {{\"name\": \"...\"}}: {e}"
                        ))
                    }
                };
                let Some(tool) = catalog
                    .get(&a.name)
                    .filter(|t| view.exposed.contains(t.name()))
                else {
                    return error(&format!(
                        "There is no tool named {:?}{}",
                        a.name,
                        view.suggest(&a.name)
                    ));
                };
                let definition = match view.definitions {
                    None => {
                        let mut m = Map::new();
                        for key in [
                            "name",
                            "title",
                            "description",
                            "inputSchema",
                            "outputSchema",
                            "annotations",
                        ] {
                            if let Some(v) = tool.get(key) {
                                m.insert(key.into(), v.clone());
                            }
                        }
                        Value::Object(m)
                    }
                    Some(d) => {
                        let one = Catalog::from_tools(vec![tool.clone()]);
                        let c = convert(&one, d, &Options::default());
                        match d {
                            Dialect::Gemini | Dialect::GeminiJson => c
                                .tools
                                .first()
                                .and_then(|t| t.get("functionDeclarations"))
                                .and_then(|f| f.get(0))
                                .cloned()
                                .unwrap_or(Value::Null),
                            _ => c.tools.into_iter().next().unwrap_or(Value::Null),
                        }
                    }
                };
                let text = format!("{definition}\nCall it with use_tool {{\"name\": {:?}, \"arguments\": {{...}}}}.", a.name);
                Answer::Result(
                    json!({"content": [{"type": "text", "text": text}], "structuredContent": {"definition": definition}}),
                )
            }
            Meta::Use => {
                let a: UseArgs = match serde_json::from_value(args.clone()) {
                    Ok(a) => a,
                    Err(e) => {
                        return error(&format!(
                            "use_tool needs {{\"name\": \"...\", \"arguments\": {{...}}}}: {e}"
                        ))
                    }
                };
                if matches!(a.name.as_str(), SEARCH | DEFINITION | USE) {
                    return error(
                        "use_tool runs a catalog tool, not a meta-tool: call that one directly",
                    );
                }
                if !view.exposed.contains(&a.name) {
                    return error(&format!(
                        "There is no tool named {:?}{} Use search_tools to find one.",
                        a.name,
                        view.suggest(&a.name)
                    ));
                }
                Answer::Invoke(a.name, Value::Object(a.arguments))
            }
        }
    }
}

fn error(text: &str) -> Answer {
    Answer::Result(json!({"content": [{"type": "text", "text": text}], "isError": true}))
}

/// "deviceId (string, required); dim (number)" for search hits.
fn parameter_line(tool: &Tool) -> String {
    let schema = tool.input_schema();
    let Some(props) = schema
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty())
    else {
        return "none".into();
    };
    let req: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    props
        .iter()
        .map(|(k, s)| {
            let kind = crate::lower::words::summary(s);
            if req.contains(&k.as_str()) {
                format!("{k} ({kind}, required)")
            } else {
                format!("{k} ({kind})")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The meta-tools, described to teach the two-step flow.
fn meta_tools(categories: &[String], hidden: usize) -> Vec<Value> {
    let mut search = schema_of::<SearchArgs>();
    if !categories.is_empty() {
        search["properties"]["category"]["enum"] =
            Value::Array(categories.iter().cloned().map(Value::String).collect());
    }
    vec![
        json!({
            "name": SEARCH,
            "description": format!("Find tools among {hidden} available ones by what you want to do. Returns tool names, what they do and their parameters. Then call one with use_tool (or get_tool_definition first for its full schema)."),
            "inputSchema": search,
            "annotations": {"readOnlyHint": true, "openWorldHint": false},
        }),
        json!({
            "name": DEFINITION,
            "description": "Get the full definition (input schema) of a tool found with search_tools.",
            "inputSchema": schema_of::<DefinitionArgs>(),
            "annotations": {"readOnlyHint": true, "openWorldHint": false},
        }),
        json!({
            "name": USE,
            "description": "Run a tool found with search_tools: give its name and its arguments.",
            "inputSchema": schema_of::<UseArgs>(),
        }),
    ]
}

/// Core tools when none are configured: read-only overview tools, by their
/// annotations and names (`get_home_structure`, `get_states`,
/// `GetLiveContext`, `list_devices`), at most three.
pub(crate) fn default_core(catalog: &Catalog) -> Vec<String> {
    const OVERVIEW: &[&str] = &[
        "home",
        "structure",
        "state",
        "states",
        "context",
        "live",
        "overview",
        "devices",
        "zones",
        "areas",
        "status",
        "me",
    ];
    let mut scored: Vec<(i32, usize, String)> = catalog
        .tools()
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let words: Vec<String> = crate::text::split_identifier(t.name())
                .iter()
                .map(|w| w.to_lowercase())
                .collect();
            let read = t.hint("readOnlyHint") == Some(true)
                || words
                    .first()
                    .is_some_and(|w| matches!(w.as_str(), "get" | "list"));
            if !read || t.hint("destructiveHint") == Some(true) {
                return None;
            }
            let overview = words
                .iter()
                .filter(|w| OVERVIEW.contains(&w.as_str()))
                .count() as i32;
            let required = t
                .input_schema()
                .get("required")
                .and_then(Value::as_array)
                .map_or(0, Vec::len) as i32;
            let score = overview * 2 - required * 3;
            (overview > 0 && required == 0).then(|| (score, i, t.name().to_string()))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(3).map(|(_, _, n)| n).collect()
}

/// Estimated token cost of the tool list in each disclosure mode.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Budget {
    /// `mcp` (the `tools/list` payload) or the dialect the list was converted to.
    pub dialect: String,
    /// Every exposed tool.
    pub all: usize,
    /// Core tools plus the meta-tools.
    pub hybrid: usize,
    /// The meta-tools alone.
    pub meta: usize,
    /// The core tools used for `hybrid`.
    pub core: Vec<String>,
}

/// Estimates the tokens of the tool list per mode, as MCP `tools/list`
/// JSON or converted to `dialect`.
pub fn budget(catalog: &Catalog, dialect: Option<Dialect>, disclosure: &Disclosure) -> Budget {
    let cost = |mode: Mode| -> usize {
        let config = EngineConfig {
            disclosure: Disclosure {
                mode,
                ..disclosure.clone()
            },
            ..EngineConfig::default()
        };
        let view = View::build(catalog, &config);
        match dialect {
            None => estimate_tokens(&Value::Array(view.listed.clone()).to_string()),
            Some(d) => {
                let tools: Vec<Tool> = view
                    .listed
                    .iter()
                    .filter_map(|t| Tool::from_value(t.clone(), "").ok().map(|(tool, _)| tool))
                    .collect();
                let c = convert(&Catalog::from_tools(tools), d, &Options::default());
                match c.extra.get("prompt").and_then(Value::as_str) {
                    Some(p) => estimate_tokens(p),
                    None => estimate_tokens(&Value::Array(c.tools).to_string()),
                }
            }
        }
    };
    let exposed = catalog.tools().to_vec();
    let core = disclosure
        .core
        .clone()
        .unwrap_or_else(|| default_core(&Catalog::from_tools(exposed)));
    Budget {
        dialect: dialect
            .map(|d| d.as_str().to_string())
            .unwrap_or_else(|| "mcp".into()),
        all: cost(Mode::All),
        hybrid: cost(Mode::Hybrid),
        meta: cost(Mode::Meta),
        core,
    }
}
