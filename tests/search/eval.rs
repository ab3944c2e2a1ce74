//! Evaluation harness for the tool search (not a test: it reads the shared
//! corpus and prints tables). Run everything with `bash tests/search/eval.sh`.
//!
//! ```text
//! search_eval emit TASKS.json            queries and documents for the baselines
//! search_eval report DIR [--failures]    scores ours, substring, and DIR/{bm25,minisearch}.json
//! search_eval bench                      build time and query latency at 1,000 tools (native)
//! MICRO="a query" search_eval bench      that query's mean latency, and suggest's
//! BUILD_ONLY=1 search_eval bench         builds only (for a profiler)
//! CATALOG=github search_eval bench       on the wasm benchmark's catalog (GitHub's, repeated)
//! FROM_TEXT=1 search_eval bench           builds with ToolIndex::parse from the JSON text (as the wasm package does)
//! search_eval dump OUT.tsv               every query's top 10 with scores (diff two builds)
//! search_eval memory                     heap bytes of parse, build peak and index at 1,000 and 10,000 tools
//! search_eval query CATALOG "a query"      that query's top 10 with scores (CATALOG: an alias such as ha-mcp)
//! search_eval entities [--failures]      the entity index on the home's labelled references
//! search_eval resolve "a reference"       what a reference resolves to in that home
//! FAIL_K=1 search_eval report DIR --failures   misses at rank 1 instead of 3
//! ```
//!
//! The corpus folder is `../shared/corpus` beside the crate, or `$CORPUS`.
//! Queries are split in two halves by a hash of their text: A (tuned on)
//! and B (held out).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use mcp_switchboard::{Catalog, EntityIndex, ResolveOptions, SearchOptions, ToolIndex};

#[path = "entities_eval.rs"]
mod entities_eval;
use serde_json::{json, Value};

const CATALOGS: [&str; 10] = [
    "home-assistant-2025.4.tools-list.json",
    "home-assistant-2026.11.tools-list.json",
    "homey-ai-chat-control-2.2.1.tools-list.json",
    "homey-mcp-server-verdier.tools-list.json",
    "github-mcp-server.tools-list.json",
    "ha-mcp-8.7.0.tools-list.json",
    "domoticz-mcp.tools-list.json",
    // the project's own catalogs (tests/search/catalogs/)
    "homey-app.tools-list.json",
    "homey-fastmcp.tools-list.json",
    "browser.tools-list.json",
];
/// The catalogs the latency benchmark's 1,000 tools are made from (the
/// first six: the figures in BENCHMARKS.md stay comparable).
const BENCH_CATALOGS: usize = 6;
/// The catalogs written or exported for this evaluation, in
/// `tests/search/catalogs/` rather than the corpus.
const OWN_CATALOGS: [&str; 3] = [
    "homey-app.tools-list.json",
    "homey-fastmcp.tools-list.json",
    "browser.tools-list.json",
];
/// The Homey app's search metadata, indexed with its catalog as the app
/// does (exported from homey-app/lib/tools.metadata.json).
const HOMEY_APP_META: &str = "homey-app.metadata.json";
/// The short names query sets use for the catalogs (`homey-pd`: the Homey
/// catalog with the categories of its progressive-disclosure plan as
/// curated metadata).
const ALIASES: [(&str, &str); 11] = [
    ("ha-2025.4", "home-assistant-2025.4.tools-list.json"),
    ("ha-2026.11", "home-assistant-2026.11.tools-list.json"),
    ("homey", "homey-ai-chat-control-2.2.1.tools-list.json"),
    ("homey-pd", "homey-ai-chat-control-2.2.1.tools-list.json"),
    ("verdier", "homey-mcp-server-verdier.tools-list.json"),
    ("github", "github-mcp-server.tools-list.json"),
    ("ha-mcp", "ha-mcp-8.7.0.tools-list.json"),
    ("domoticz", "domoticz-mcp.tools-list.json"),
    ("homey-app", "homey-app.tools-list.json"),
    ("homey-fastmcp", "homey-fastmcp.tools-list.json"),
    ("browser", "browser.tools-list.json"),
];
/// The progressive-disclosure plan whose categories `homey-pd` uses.
const PD_PLAN: &str = "homey-ai-chat-control.progressive-disclosure.json";
/// The query sets written for this project: the short queries (one catalog
/// per file) and the sets with a catalog per query.
const OWN_QUERIES: [&str; 21] = [
    "home-assistant-queries.json",
    "homey-queries.json",
    "github-queries.json",
    "state-questions.json",
    "sentences.json",
    "ha-mcp-queries.json",
    "homey-pd-queries.json",
    "command-classes.json",
    "object-questions.json",
    "admin-requests.json",
    "room-questions.json",
    "admin-phrasings.json",
    "needs.json",
    "quantities.json",
    "locks.json",
    "state-or-media.json",
    "troubleshooting.json",
    "renames-typos.json",
    "terse-catalogs.json",
    "browser-queries.json",
    "homey-app-queries.json",
];
/// The needs set: the query sets written together, blind, over ten
/// catalogs (indirect needs, quantities, locks, state questions beside
/// media tools, troubleshooting, renames and admin typos, terse catalogs,
/// a browser, the Homey app), summed up on their own.
const NEEDS_SET: [&str; 9] = [
    "indirect needs",
    "quantities and steps",
    "locks",
    "state or media",
    "troubleshooting",
    "renames and admin typos",
    "terse catalogs",
    "browser",
    "Homey app",
];
/// Home Assistant intents that no catalog has as a tool but whose
/// sentences the catalogs answer with another tool: questions about the
/// current state (and the weather) with the live-context tool, questions
/// about the time and date with the date-time tool (2026.11 only).
const STATE_INTENTS: [(&str, &str); 5] = [
    ("HassGetState", "GetLiveContext"),
    ("HassClimateGetTemperature", "GetLiveContext"),
    ("HassGetWeather", "GetLiveContext"),
    ("HassGetCurrentTime", "GetDateTime"),
    ("HassGetCurrentDate", "GetDateTime"),
];
const SYSTEMS: [&str; 4] = ["ours", "substring", "bm25okapi", "minisearch"];

/// The system allocator, counting live heap bytes and their peak (for
/// `search_eval memory`).
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn count_alloc(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_alloc(layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // the old and the new block are both live while the data moves
        count_alloc(new_size);
        let p = System.realloc(ptr, layout, new_size);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

struct Query {
    id: String,
    dataset: String,
    catalog: &'static str,
    /// Indexed with curated metadata: the alias whose metadata
    /// (`homey-pd`: the progressive-disclosure categories; `homey-app`:
    /// the app's own).
    meta: Option<&'static str>,
    /// The category filter, if any.
    category: Option<String>,
    lang: String,
    text: String,
    /// Acceptable tools; the first is the one the query is scored under.
    expect: Vec<String>,
    split: char,
}

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn split_of(text: &str) -> char {
    if fnv1a(text) % 2 == 0 {
        'A'
    } else {
        'B'
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> PathBuf {
    std::env::var_os("CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/corpus"))
}

fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Where a catalog's file is: the project's own in `tests/search/catalogs/`,
/// the others in the corpus.
fn catalog_path(name: &str) -> PathBuf {
    if OWN_CATALOGS.contains(&name) {
        root().join("tests/search/catalogs").join(name)
    } else {
        corpus().join(name)
    }
}

/// The alias of a catalog indexed with curated metadata, if `alias` is one.
fn meta_alias(alias: &str) -> Option<&'static str> {
    ["homey-pd", "homey-app"].into_iter().find(|a| *a == alias)
}

/// The curated metadata of an alias indexed with it.
fn meta_of(alias: &str) -> Value {
    match alias {
        "homey-pd" => pd_meta(),
        _ => read_json(&root().join("tests/search/catalogs").join(HOMEY_APP_META)),
    }
}

fn load_catalogs() -> BTreeMap<&'static str, Catalog> {
    CATALOGS
        .iter()
        .map(|&c| {
            let bytes = std::fs::read(catalog_path(c)).expect("catalog");
            (c, Catalog::parse(&bytes).expect("catalog parses"))
        })
        .collect()
}

fn load_queries(catalogs: &BTreeMap<&'static str, Catalog>) -> Vec<Query> {
    let mut out = Vec::new();
    let sentences = read_json(&corpus().join("ha-intents-sentences.json"));
    for (dataset, state_dataset, catalog) in [
        (
            "HA sentences / HA 2025.4",
            "HA state sentences / HA 2025.4",
            CATALOGS[0],
        ),
        (
            "HA sentences / HA 2026.11",
            "HA state sentences / HA 2026.11",
            CATALOGS[1],
        ),
    ] {
        let names: Vec<&str> = catalogs[catalog].tools().iter().map(|t| t.name()).collect();
        // 2025.4 names tools by intent; 2026.11 as <domain>__<intent>
        let tool_of = |intent: &str| {
            let suffix = format!("__{intent}");
            names
                .iter()
                .find(|n| **n == intent || n.ends_with(&suffix))
                .map(|n| n.to_string())
        };
        for lang in ["en", "nl", "de"] {
            let list = sentences["sentences"][lang].as_array().expect("sentences");
            for s in list {
                let (Some(text), Some(intent)) = (s["text"].as_str(), s["intent"].as_str()) else {
                    continue;
                };
                let (set, tool) = match tool_of(intent) {
                    Some(tool) => (dataset, tool),
                    None => {
                        let answer = STATE_INTENTS
                            .iter()
                            .find(|(i, _)| *i == intent)
                            .and_then(|(_, tool)| tool_of(tool));
                        match answer {
                            Some(tool) => (state_dataset, tool),
                            None => continue,
                        }
                    }
                };
                out.push(Query {
                    id: String::new(),
                    dataset: set.into(),
                    catalog,
                    meta: None,
                    category: None,
                    lang: lang.into(),
                    text: text.into(),
                    expect: vec![tool],
                    split: split_of(text),
                });
            }
        }
    }
    for file in OWN_QUERIES {
        let set = read_json(&root().join("tests/search").join(file));
        // one catalog for the file (by file name), or one per query (by alias)
        let file_catalog = set["catalog"].as_str().map(|name| {
            *CATALOGS
                .iter()
                .find(|c| **c == name)
                .expect("known catalog")
        });
        let dataset = match file {
            "home-assistant-queries.json" => "short queries / HA 2025.4",
            "homey-queries.json" => "short queries / Homey",
            "github-queries.json" => "short queries / GitHub",
            _ => set["dataset"].as_str().expect("dataset"),
        };
        for q in set["queries"].as_array().expect("queries") {
            let text = q["text"].as_str().expect("text").to_string();
            let alias = q["catalog"].as_str();
            let catalog = file_catalog.unwrap_or_else(|| {
                let alias = alias.expect("a catalog for the file or the query");
                ALIASES
                    .iter()
                    .find(|(a, _)| *a == alias)
                    .unwrap_or_else(|| panic!("{file}: unknown catalog {alias}"))
                    .1
            });
            let expect: Vec<String> = q["expect"]
                .as_array()
                .expect("expect")
                .iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect();
            let names: Vec<&str> = catalogs[catalog].tools().iter().map(|t| t.name()).collect();
            for e in &expect {
                assert!(
                    names.contains(&e.as_str()),
                    "{file}: {e} is not in {catalog}"
                );
            }
            out.push(Query {
                id: String::new(),
                dataset: dataset.into(),
                catalog,
                meta: alias.and_then(meta_alias),
                category: q["category"].as_str().map(String::from),
                lang: q["lang"].as_str().expect("lang").into(),
                split: split_of(&text),
                text,
                expect,
            });
        }
    }
    for (&catalog, cat) in catalogs {
        for t in cat.tools() {
            out.push(Query {
                id: String::new(),
                dataset: "exact names / all catalogs".into(),
                catalog,
                meta: None,
                category: None,
                lang: "-".into(),
                text: t.name().into(),
                expect: vec![t.name().into()],
                split: split_of(t.name()),
            });
        }
    }
    for (i, q) in out.iter_mut().enumerate() {
        q.id = format!("q{i}");
    }
    out
}

/// The progressive-disclosure plan's categories as search metadata.
fn pd_meta() -> Value {
    let pd = read_json(&corpus().join(PD_PLAN));
    let mut tools = serde_json::Map::new();
    if let Some(cats) = pd["discoverable_categories"].as_object() {
        for (category, names) in cats {
            for n in names.as_array().into_iter().flatten() {
                if let Some(n) = n.as_str() {
                    tools.insert(n.into(), json!({ "category": category }));
                }
            }
        }
    }
    json!({ "tools": tools })
}

/// The text the baselines search: name, title, description, parameter
/// names and descriptions, enum values.
fn doc_text(tool: &mcp_switchboard::Tool) -> String {
    fn walk(v: &Value, out: &mut String, depth: usize) {
        if depth > 6 {
            return;
        }
        let Value::Object(m) = v else { return };
        if depth > 0 {
            if let Some(Value::String(d)) = m.get("description") {
                out.push_str(d);
                out.push('\n');
            }
        }
        if let Some(Value::Array(e)) = m.get("enum") {
            for x in e {
                if let Value::String(s) = x {
                    out.push_str(s);
                    out.push('\n');
                }
            }
        }
        if let Some(Value::Object(p)) = m.get("properties") {
            for (k, sub) in p {
                out.push_str(k);
                out.push('\n');
                walk(sub, out, depth + 1);
            }
        }
        if let Some(items) = m.get("items") {
            walk(items, out, depth + 1);
        }
    }
    let mut s = format!(
        "{}\n{}\n{}\n",
        tool.name(),
        tool.title().unwrap_or(""),
        tool.description().unwrap_or("")
    );
    walk(tool.input_schema(), &mut s, 0);
    s
}

fn emit(out: &Path) {
    let catalogs = load_catalogs();
    let (queries, indexes) = indexed(&catalogs);
    let docs: serde_json::Map<String, Value> = catalogs
        .iter()
        .map(|(&c, cat)| {
            let list: Vec<Value> = cat
                .tools()
                .iter()
                .map(|t| json!({"name": t.name(), "text": doc_text(t)}))
                .collect();
            (c.to_string(), Value::Array(list))
        })
        .collect();
    let qs: Vec<Value> = queries
        .iter()
        .map(|q| {
            let mut task = json!({"id": q.id, "catalog": q.catalog, "text": q.text});
            // a category filter: the baselines rank only the tools in it
            if q.category.is_some() {
                task["allow"] = json!(indexes.allowed(q, &catalogs[q.catalog]));
            }
            task
        })
        .collect();
    let doc = json!({"catalogs": docs, "queries": qs});
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(out, serde_json::to_string(&doc).expect("json")).expect("write tasks");
    eprintln!(
        "{} queries over {} catalogs -> {}",
        queries.len(),
        catalogs.len(),
        out.display()
    );
}

/// Per query, the 1-based rank of the first acceptable tool (0: not found).
fn ranks(queries: &[Query], rankings: &HashMap<String, Vec<String>>) -> Vec<usize> {
    queries
        .iter()
        .map(|q| {
            rankings
                .get(&q.id)
                .and_then(|r| r.iter().position(|n| q.expect.contains(n)))
                .map_or(0, |p| p + 1)
        })
        .collect()
}

#[derive(Clone, Copy, Default)]
struct Metrics {
    r1: f64,
    r3: f64,
    r5: f64,
    mrr: f64,
    queries: usize,
    tools: usize,
}

/// Recall@1/3/5 and MRR, averaged per tool, then over tools.
fn macro_metrics(items: &[(&Query, usize)]) -> Metrics {
    let mut by_tool: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (q, r) in items {
        by_tool
            .entry((q.catalog, q.expect[0].as_str()))
            .or_default()
            .push(*r);
    }
    let mut m = Metrics {
        queries: items.len(),
        tools: by_tool.len(),
        ..Metrics::default()
    };
    if by_tool.is_empty() {
        return m;
    }
    for ranks in by_tool.values() {
        let n = ranks.len() as f64;
        let at = |k: usize| ranks.iter().filter(|&&r| r >= 1 && r <= k).count() as f64 / n;
        m.r1 += at(1);
        m.r3 += at(3);
        m.r5 += at(5);
        m.mrr += ranks
            .iter()
            .map(|&r| if r == 0 { 0.0 } else { 1.0 / r as f64 })
            .sum::<f64>()
            / n;
    }
    let t = by_tool.len() as f64;
    m.r1 /= t;
    m.r3 /= t;
    m.r5 /= t;
    m.mrr /= t;
    m
}

/// An index per catalog, and the Homey catalog's with the
/// progressive-disclosure categories.
struct Indexes {
    plain: BTreeMap<&'static str, ToolIndex>,
    /// By alias: the catalogs indexed with curated metadata.
    with_meta: BTreeMap<&'static str, ToolIndex>,
}

impl Indexes {
    fn of(&self, q: &Query) -> &ToolIndex {
        match q.meta {
            Some(alias) => &self.with_meta[alias],
            None => &self.plain[q.catalog],
        }
    }

    /// The query's top `limit` tools, with the query's category filter.
    fn search(&self, q: &Query, limit: usize) -> mcp_switchboard::SearchResults {
        let mut opts = SearchOptions::new().with_limit(limit);
        if let Some(c) = &q.category {
            opts = opts.with_category(c.clone());
        }
        self.of(q).search(&q.text, &opts)
    }

    /// The tools the query's category filter lets through.
    fn allowed(&self, q: &Query, catalog: &Catalog) -> Vec<String> {
        let index = self.of(q);
        catalog
            .tools()
            .iter()
            .map(|t| t.name())
            .filter(|n| match &q.category {
                Some(c) => index.category(n).is_some_and(|k| k.eq_ignore_ascii_case(c)),
                None => true,
            })
            .map(String::from)
            .collect()
    }
}

/// The queries over `catalogs` and their indexes.
fn indexed(catalogs: &BTreeMap<&'static str, Catalog>) -> (Vec<Query>, Indexes) {
    let queries = load_queries(catalogs);
    let plain = catalogs
        .iter()
        .map(|(&c, cat)| (c, ToolIndex::build(cat, None).expect("index")))
        .collect();
    let with_meta = ["homey-pd", "homey-app"]
        .into_iter()
        .map(|alias| {
            let catalog = ALIASES.iter().find(|(a, _)| *a == alias).expect("alias").1;
            let index = ToolIndex::build(&catalogs[catalog], Some(&meta_of(alias))).expect("index");
            (alias, index)
        })
        .collect();
    (queries, Indexes { plain, with_meta })
}

fn report(dir: &Path, failures: bool) {
    let catalogs = load_catalogs();
    let (queries, indexes) = indexed(&catalogs);
    let mut systems: BTreeMap<&str, HashMap<String, Vec<String>>> = BTreeMap::new();
    let ours: HashMap<String, Vec<String>> = queries
        .iter()
        .map(|q| {
            let r = indexes.search(q, 10);
            (q.id.clone(), r.hits.into_iter().map(|h| h.name).collect())
        })
        .collect();
    systems.insert("ours", ours);
    // the original design: searchText.includes(query), in catalog order
    let texts: BTreeMap<&str, Vec<(String, String)>> = catalogs
        .iter()
        .map(|(&c, cat)| {
            (
                c,
                cat.tools()
                    .iter()
                    .map(|t| (t.name().to_string(), doc_text(t).to_lowercase()))
                    .collect(),
            )
        })
        .collect();
    let substring: HashMap<String, Vec<String>> = queries
        .iter()
        .map(|q| {
            let needle = q.text.to_lowercase();
            let allowed = indexes.allowed(q, &catalogs[q.catalog]);
            let hits = texts[q.catalog]
                .iter()
                .filter(|(n, _)| allowed.contains(n))
                .filter(|(_, text)| !needle.is_empty() && text.contains(&needle))
                .map(|(n, _)| n.clone())
                .take(10)
                .collect();
            (q.id.clone(), hits)
        })
        .collect();
    systems.insert("substring", substring);
    for (name, file) in [
        ("bm25okapi", "bm25.json"),
        ("minisearch", "minisearch.json"),
    ] {
        let path = dir.join(file);
        if !path.exists() {
            eprintln!("{} missing: {name} left out", path.display());
            continue;
        }
        let v = read_json(&path);
        let map = v
            .as_object()
            .expect("rankings object")
            .iter()
            .map(|(k, v)| {
                let names = v
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|n| n.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                (k.clone(), names)
            })
            .collect();
        systems.insert(name, map);
    }
    let all_ranks: BTreeMap<&str, Vec<usize>> = systems
        .iter()
        .map(|(&s, r)| (s, ranks(&queries, r)))
        .collect();

    // rows by data set (in the order they are read), then language
    let mut datasets: Vec<&str> = Vec::new();
    let mut groups: Vec<(String, String)> = Vec::new();
    for q in &queries {
        if !datasets.contains(&q.dataset.as_str()) {
            datasets.push(&q.dataset);
        }
        let key = (q.dataset.clone(), q.lang.clone());
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    groups.sort_by_key(|(d, _)| datasets.iter().position(|x| x == d));
    let f = |x: f64| format!("{x:.3}");
    let mut out = String::new();
    out.push_str("Recall@k and MRR, macro-averaged per tool. A = tuned-on half, B = held-out half (split by a hash of the query text).\n\n");
    out.push_str("| data set | lang | system | queries A/B (tools) | R@1 A | R@3 A | R@5 A | MRR A | R@1 B | R@3 B | R@5 B | MRR B |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    let mut summary = Vec::new();
    for (dataset, lang) in &groups {
        for sys in SYSTEMS {
            let Some(r) = all_ranks.get(sys) else {
                continue;
            };
            let pick = |split: char| -> Vec<(&Query, usize)> {
                queries
                    .iter()
                    .zip(r)
                    .filter(|(q, _)| q.dataset == *dataset && q.lang == *lang && q.split == split)
                    .map(|(q, &r)| (q, r))
                    .collect()
            };
            let (a, b) = (macro_metrics(&pick('A')), macro_metrics(&pick('B')));
            out.push_str(&format!(
                "| {dataset} | {lang} | {sys} | {}/{} ({}) | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                a.queries,
                b.queries,
                a.tools.max(b.tools),
                f(a.r1),
                f(a.r3),
                f(a.r5),
                f(a.mrr),
                f(b.r1),
                f(b.r3),
                f(b.r5),
                f(b.mrr)
            ));
            summary.push(json!({"dataset": dataset, "lang": lang, "system": sys,
                "A": {"r1": a.r1, "r3": a.r3, "r5": a.r5, "mrr": a.mrr, "queries": a.queries, "tools": a.tools},
                "B": {"r1": b.r1, "r3": b.r3, "r5": b.r5, "mrr": b.mrr, "queries": b.queries, "tools": b.tools}}));
        }
    }
    let empty = ours_empty(&queries, &systems["ours"]);
    out.push_str(&summary_tables(&queries, &all_ranks["ours"], empty));
    println!("{out}");
    std::fs::create_dir_all(dir).expect("mkdir");
    std::fs::write(dir.join("report.md"), &out).expect("write report");
    std::fs::write(
        dir.join("report.json"),
        serde_json::to_string_pretty(&summary).expect("json"),
    )
    .expect("write report");
    if failures {
        let k: usize = std::env::var("FAIL_K")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3);
        println!("\nMisses of ours at rank {k} in half A (the tuning half):\n");
        let r = &all_ranks["ours"];
        for (q, &rank) in queries.iter().zip(r) {
            if q.split == 'A' && (rank == 0 || rank > k) {
                let top: Vec<String> = indexes
                    .search(q, 3)
                    .hits
                    .iter()
                    .map(|h| format!("{} {:.2}", h.name, h.score))
                    .collect();
                println!(
                    "{} [{}] {:?} want {} (rank {}) got {}",
                    q.dataset,
                    q.lang,
                    q.text,
                    q.expect[0],
                    rank,
                    top.join(", ")
                );
            }
        }
    }
}

/// How many queries ours answered with no hit at all.
fn ours_empty(queries: &[Query], ours: &HashMap<String, Vec<String>>) -> usize {
    queries
        .iter()
        .filter(|q| ours.get(&q.id).is_none_or(Vec::is_empty))
        .count()
}

/// The short name of a catalog file (its first alias).
fn alias_of(catalog: &str) -> &'static str {
    ALIASES
        .iter()
        .find(|(_, c)| *c == catalog)
        .map_or("?", |(a, _)| a)
}

/// The summary tables of ours: the needs set by language, by data set and
/// by catalog and language; every set written for the project by language
/// and by catalog and language; the queries answered with nothing.
fn summary_tables(queries: &[Query], ranks: &[usize], empty: usize) -> String {
    let f = |x: f64| format!("{x:.3}");
    let langs = ["en", "nl", "de"];
    let mut out = String::new();
    // one row: R@1 and R@3 of halves A and B over the queries `keep` takes
    let row = |out: &mut String, label: &str, keep: &dyn Fn(&Query) -> bool| {
        let pick = |split: char| -> Vec<(&Query, usize)> {
            queries
                .iter()
                .zip(ranks)
                .filter(|(q, _)| q.split == split && keep(q))
                .map(|(q, &r)| (q, r))
                .collect()
        };
        let (a, b) = (macro_metrics(&pick('A')), macro_metrics(&pick('B')));
        if a.queries + b.queries == 0 {
            return;
        }
        out.push_str(&format!(
            "| {label} | {}/{} | {} | {} | {} | {} |\n",
            a.queries,
            b.queries,
            f(a.r1),
            f(a.r3),
            f(b.r1),
            f(b.r3)
        ));
    };
    let head =
        "| group | queries A/B | R@1 A | R@3 A | R@1 B | R@3 B |\n|---|---|---|---|---|---|\n";
    let needs = |q: &Query| NEEDS_SET.contains(&q.dataset.as_str());
    // the sets written for the project (not Home Assistant's own sentences
    // nor the exact names)
    let own = |q: &Query| !q.dataset.starts_with("HA ") && !q.dataset.starts_with("exact names");
    let mut catalogs: Vec<&str> = Vec::new();
    for q in queries {
        let a = alias_of(q.catalog);
        if !catalogs.contains(&a) {
            catalogs.push(a);
        }
    }
    for (title, keep) in [
        ("The needs set", &needs as &dyn Fn(&Query) -> bool),
        ("Every set written for the project", &own),
    ] {
        out.push_str(&format!(
            "\n### {title}: ours, macro-averaged per tool\n\n{head}"
        ));
        for lang in langs {
            row(&mut out, lang, &|q| keep(q) && q.lang == lang);
        }
        if title == "The needs set" {
            for d in NEEDS_SET {
                row(&mut out, d, &|q| q.dataset == d);
            }
        }
        for c in &catalogs {
            for lang in langs {
                row(&mut out, &format!("{c} / {lang}"), &|q| {
                    keep(q) && q.lang == lang && alias_of(q.catalog) == *c
                });
            }
        }
    }
    out.push_str(&format!(
        "\nQueries answered with no hit (ours, every set): {empty} of {}.\n",
        queries.len()
    ));
    out
}

/// Build time and query latency on a synthetic catalog of 1,000 tools made
/// from the real ones (names and one description word varied).
fn bench() {
    let catalogs = load_catalogs();
    let mut tools = Vec::new();
    let base: Vec<&mcp_switchboard::Tool> = catalogs
        .iter()
        .filter(|(name, _)| CATALOGS[..BENCH_CATALOGS].contains(name))
        .flat_map(|(_, c)| c.tools())
        .collect();
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    ];
    let mut i = 0;
    while tools.len() < 1000 {
        let t = base[i % base.len()];
        let round = i / base.len();
        let mut v = Value::Object(t.as_map().clone());
        v["name"] = json!(format!("{}_{round}", t.name()));
        let d = t.description().unwrap_or("").to_string();
        v["description"] = json!(format!("{d} {}", words[round % words.len()]));
        tools.push(v);
        i += 1;
    }
    let bytes = match std::env::var("CATALOG").as_deref() {
        // the wasm benchmark's catalog (tests/bench/search.mjs)
        Ok("github") => github_times(1000),
        _ => serde_json::to_vec(&tools).expect("json"),
    };
    let catalog = Catalog::parse(&bytes).expect("catalog");
    // the index from the text, as the wasm package builds it, or from the
    // parsed catalog
    let from_text = std::env::var_os("FROM_TEXT").is_some();
    let build = || {
        if from_text {
            ToolIndex::parse(&bytes, None).expect("index")
        } else {
            ToolIndex::build(&catalog, None).expect("index")
        }
    };
    let mut builds = Vec::new();
    let mut index = None;
    for _ in 0..7 {
        let t = Instant::now();
        index = Some(build());
        builds.push(t.elapsed().as_secs_f64() * 1e3);
    }
    if std::env::var_os("BUILD_ONLY").is_some() {
        for _ in 0..30 {
            std::hint::black_box(build());
        }
        return;
    }
    builds.sort_by(f64::total_cmp);
    let index = index.expect("built");
    if let Ok(q) = std::env::var("MICRO") {
        let t = Instant::now();
        let n: usize = std::env::var("MICRO_N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        for _ in 0..n {
            std::hint::black_box(index.search(&q, &SearchOptions::default()));
        }
        println!(
            "{q:?}: {:.1} µs",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        );
        let t = Instant::now();
        for _ in 0..200 {
            std::hint::black_box(index.suggest(&q, 3));
        }
        println!(
            "suggest {q:?}: {:.1} µs",
            t.elapsed().as_secs_f64() * 1e6 / 200.0
        );
        return;
    }
    let queries = load_queries(&catalogs);
    let opts = SearchOptions::default();
    let mut times = Vec::with_capacity(queries.len());
    for q in &queries {
        let t = Instant::now();
        let r = index.search(&q.text, &opts);
        times.push(t.elapsed().as_secs_f64() * 1e6);
        std::hint::black_box(r);
    }
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() - 1) as f64 * p) as usize];
    println!(
        "{} tools: build median {:.1} ms (min {:.1}); {} queries: p50 {:.1} µs, p95 {:.1} µs, max {:.1} µs",
        index.len(),
        builds[builds.len() / 2],
        builds[0],
        times.len(),
        pct(0.5),
        pct(0.95),
        times[times.len() - 1]
    );
}

/// One query's top 10 on the catalog with this alias.
fn query(alias: &str, text: &str) {
    let catalogs = load_catalogs();
    let (_, indexes) = indexed(&catalogs);
    let Some(&(_, catalog)) = ALIASES.iter().find(|(a, _)| *a == alias) else {
        eprintln!("unknown catalog {alias}");
        std::process::exit(2);
    };
    let q = Query {
        id: String::new(),
        dataset: String::new(),
        catalog,
        meta: meta_alias(alias),
        category: None,
        lang: String::new(),
        text: text.into(),
        expect: Vec::new(),
        split: 'A',
    };
    for h in indexes.search(&q, 10).hits {
        println!("{:8.4}  {}  [{}]", h.score, h.name, h.category);
    }
}

/// Every query's top 10 (name and score), one query a line, to compare the
/// rankings of two builds with `diff`.
fn dump(out: &Path) {
    let catalogs = load_catalogs();
    let (queries, indexes) = indexed(&catalogs);
    let mut text = String::new();
    for q in &queries {
        let r = indexes.search(q, 10);
        let hits: Vec<String> = r
            .hits
            .iter()
            .map(|h| format!("{} {}", h.name, h.score))
            .collect();
        text.push_str(&format!(
            "{}\t{:?}\t{}\t{}\n",
            q.catalog,
            q.text,
            r.total,
            hits.join(", ")
        ));
    }
    std::fs::write(out, text).expect("write dump");
}

/// The GitHub catalog repeated to `n` tools, copies renamed `NAME_cK`, as
/// JSON text (what `tests/bench/search.mjs` gives the wasm package).
fn github_times(n: usize) -> Vec<u8> {
    let v = read_json(&corpus().join("github-mcp-server.tools-list.json"));
    let base = v["result"]["tools"].as_array().expect("tools");
    let tools: Vec<Value> = (0..n)
        .map(|i| {
            let mut t = base[i % base.len()].clone();
            let copy = i / base.len();
            if copy > 0 {
                let name = format!("{}_c{copy}", t["name"].as_str().unwrap_or(""));
                t["name"] = json!(name);
            }
            t
        })
        .collect();
    serde_json::to_vec(&json!({ "tools": tools })).expect("json")
}

/// Heap bytes (native, 64-bit: pointers are twice the size of wasm32's) of
/// the catalog text, its parse, the index build's peak and the index; then
/// the same index read straight from the text (`ToolIndex::parse`): its
/// peak over the text, and its time.
fn memory() {
    let mb = |b: usize| b as f64 / 1_048_576.0;
    println!("| tools | JSON MB | parse peak MB | catalog MB | build peak over catalog MB | index MB | build ms | from text: peak over JSON MB | from text ms |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in [1000, 10_000] {
        let text = github_times(n);
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let t = Instant::now();
        let from_text = ToolIndex::parse(&text, None).expect("index");
        let text_ms = t.elapsed().as_secs_f64() * 1e3;
        let text_peak = PEAK.load(Ordering::Relaxed) - base;
        drop(from_text);
        PEAK.store(base, Ordering::Relaxed);
        let catalog = Catalog::parse(&text).expect("catalog");
        let parse_peak = PEAK.load(Ordering::Relaxed) - base;
        let json_len = text.len();
        drop(text);
        let with_catalog = LIVE.load(Ordering::Relaxed);
        PEAK.store(with_catalog, Ordering::Relaxed);
        let t = Instant::now();
        let index = ToolIndex::build(&catalog, None).expect("index");
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let build_peak = PEAK.load(Ordering::Relaxed) - with_catalog;
        let index_bytes = LIVE.load(Ordering::Relaxed) - with_catalog;
        println!(
            "| {n} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {ms:.1} | {:.1} | {text_ms:.1} |",
            mb(json_len),
            mb(parse_peak),
            mb(with_catalog - base),
            mb(build_peak),
            mb(index_bytes),
            mb(text_peak)
        );
        drop(index);
    }
}

/// The entity index on the home's labelled references (the tuned set and
/// the held-out one): right first, ambiguity said, build and resolve
/// times. `--failures` lists the tuned set's misses only.
fn entities(failures: bool) {
    for set in ["references", "references-heldout"] {
        let (mut home, references) = entities_eval::load(&root(), set);
        // ENTITIES_N=1000: the home grown as tests/bench/search.mjs grows it
        if let Some(n) = std::env::var("ENTITIES_N")
            .ok()
            .and_then(|v| v.parse().ok())
        {
            home = grown(&home, n);
        }
        let t = Instant::now();
        let index = EntityIndex::build(&home).expect("home");
        let build = t.elapsed().as_secs_f64() * 1e3;
        let r = entities_eval::run(&index, &references);
        println!(
            "{set}: {} things; {} references to one thing: right first {} ({:.3}), said to be ambiguous {}; {} to several: said to be ambiguous {}; build {build:.2} ms",
            index.len(),
            r.total,
            r.right,
            r.accuracy(),
            r.wrongly_ambiguous,
            r.ambiguous_total,
            r.ambiguous_said
        );
        let rounds = std::env::var("ENTITIES_ROUNDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20);
        let mut times = Vec::new();
        for _ in 0..rounds {
            for reference in &references {
                let t = Instant::now();
                let _ =
                    std::hint::black_box(index.resolve(&reference.text, &ResolveOptions::new()));
                times.push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "  resolve p50 {:.1} µs, p95 {:.1} µs (native)",
            times[times.len() / 2],
            times[times.len() * 95 / 100]
        );
        if failures && set == "references" {
            for m in &r.misses {
                println!("  {m}");
            }
        }
    }
}

/// The home grown to at least `n` things: its rooms (zones without zones
/// inside) copied with their devices and moods, each copy's names numbered
/// (as `homeOf` in tests/bench/search.mjs).
fn grown(home: &Value, n: usize) -> Value {
    let list = |k: &str| home[k].as_array().cloned().unwrap_or_default();
    let (zones, devices, moods) = (list("zones"), list("devices"), list("moods"));
    let parents: Vec<&Value> = zones.iter().map(|z| &z["parent"]).collect();
    let rooms: Vec<&Value> = zones
        .iter()
        .filter(|z| !parents.contains(&&z["id"]))
        .collect();
    let mut out = home.clone();
    let size = |o: &Value| {
        ["zones", "devices", "flows", "moods"]
            .iter()
            .map(|k| o[*k].as_array().map_or(0, Vec::len))
            .sum::<usize>()
    };
    let mut copy = 2;
    while size(&out) < n {
        for room in &rooms {
            if size(&out) >= n {
                break;
            }
            let id = format!("{}-{copy}", room["id"].as_str().unwrap_or(""));
            let mut z = (*room).clone();
            z["id"] = json!(id);
            z["name"] = json!(format!("{} {copy}", room["name"].as_str().unwrap_or("")));
            out["zones"].as_array_mut().expect("zones").push(z);
            for (key, items) in [("devices", &devices), ("moods", &moods)] {
                for d in items.iter().filter(|d| d["zone"] == room["id"]) {
                    let mut d = d.clone();
                    d["id"] = json!(format!("{}-{copy}", d["id"].as_str().unwrap_or("")));
                    d["zone"] = json!(id);
                    out[key].as_array_mut().expect("list").push(d);
                }
            }
        }
        copy += 1;
    }
    out
}

/// What a reference resolves to in the evaluation's home.
fn resolve(text: &str) {
    let (home, _) = entities_eval::load(&root(), "references");
    let index = EntityIndex::build(&home).expect("home");
    let r = index.resolve(text, &ResolveOptions::new());
    println!("{}", serde_json::to_string_pretty(&r).expect("json"));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("entities") => entities(args.iter().any(|a| a == "--failures")),
        Some("resolve") => resolve(args.get(1).map_or("", String::as_str)),
        Some("emit") => emit(Path::new(
            args.get(1)
                .map_or("target/search-eval/tasks.json", String::as_str),
        )),
        Some("report") => report(
            Path::new(args.get(1).map_or("target/search-eval", String::as_str)),
            args.iter().any(|a| a == "--failures"),
        ),
        Some("bench") => bench(),
        Some("dump") => dump(Path::new(
            args.get(1)
                .map_or("target/search-eval/dump.tsv", String::as_str),
        )),
        Some("memory") => memory(),
        Some("query") => query(
            args.get(1).map_or("", String::as_str),
            args.get(2).map_or("", String::as_str),
        ),
        _ => {
            eprintln!(
                "usage: search_eval emit TASKS.json | report DIR [--failures] | bench | dump OUT.tsv | memory | query CATALOG TEXT | entities [--failures] | resolve TEXT"
            );
            std::process::exit(2);
        }
    }
}
