//! Fuzz target bodies: one ordinary function per entry point that reads
//! untrusted bytes, each running the entry point and checking properties
//! of what comes out (a failed property panics, which the fuzzer reports
//! as a crash). `fuzz/fuzz_targets/*.rs` call them under libFuzzer
//! (`cargo fuzz`, nightly); the tests at the end of this file run every
//! target over its seeds and regression inputs on stable, as part of
//! `cargo test`.
//!
//! Compiled for tests and with the `fuzzing` feature only; not part of the
//! API.
//!
//! Targets: [`catalog`], [`lint`], [`calls`], [`validate`], [`search`],
//! [`entities`], [`engine`], [`http`], [`sse`], [`lenient`], [`rawjson`],
//! [`html`], [`conversation`], [`upstream`], [`connections`]. A
//! new target is a function here, a file in `fuzz/fuzz_targets/`, a
//! `[[bin]]` in `fuzz/Cargo.toml` and a seed folder, like the others.

use serde_json::{json, Value};

use crate::call::ModelTurn;
use crate::catalog::Catalog;
use crate::dialect::{convert, format_results, parse_calls, Conversion, Dialect, Options};
use crate::engine::http::{self as gate, Gate, HttpDecision, HttpPolicy, HttpRequest};
use crate::engine::{Engine, EngineConfig, Mode, Output};
use crate::search::{EntityIndex, EntityKind, ResolveOptions, SearchOptions, ToolIndex};

/// The names of every target, as the folders under `fuzz/seeds/` and
/// `fuzz/regressions/` and the files under `fuzz/fuzz_targets/` are named.
pub const TARGETS: [&str; 15] = [
    "catalog",
    "lint",
    "calls",
    "validate",
    "search",
    "entities",
    "engine",
    "http",
    "sse",
    "lenient",
    "rawjson",
    "html",
    "conversation",
    "upstream",
    "connections",
];

/// Runs the target called `name` on `data`; `false` for an unknown name.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "catalog" => catalog(data),
        "lint" => lint(data),
        "calls" => calls(data),
        "validate" => validate(data),
        "search" => search(data),
        "entities" => entities(data),
        "engine" => engine(data),
        "http" => http(data),
        "sse" => sse(data),
        "lenient" => lenient(data),
        "rawjson" => rawjson(data),
        "html" => html(data),
        "conversation" => conversation(data),
        "upstream" => upstream(data),
        "connections" => connections(data),
        _ => return false,
    }
    true
}

/// The conversation's response and stream readers, for every provider:
/// the first byte picks the provider (low 3 bits), a stream or a whole
/// body (bit 3), the status (bits 4-5: 200, 400, 429, 500); the rest is
/// the body, fed in chunks split at each `0xFF` byte. Any calls it yields
/// are answered with the same bytes as their result, and the next request
/// must be JSON. Properties: nothing panics; every call names a catalog
/// tool; a turn that ended is not busy; a request body is JSON.
pub fn conversation(data: &[u8]) {
    use crate::conversation::{Conversation, ConversationOptions, Output};
    use crate::Provider;
    let Some((&head, body)) = data.split_first() else {
        return;
    };
    let provider = Provider::ALL[usize::from(head & 7) % Provider::ALL.len()];
    let stream = head & 8 != 0;
    let status = [200, 400, 429, 500][usize::from((head >> 4) & 3)];
    let catalog = tools();
    let options = ConversationOptions::new("m")
        .with_stream(stream)
        .with_max_retries(1)
        .with_max_rounds(3)
        .with_mode(if head & 64 != 0 {
            crate::conversation::ToolMode::Hybrid
        } else {
            crate::conversation::ToolMode::All
        });
    let mut c = Conversation::new(provider, catalog.clone(), options);
    if c.send("fuzz", 0).is_err() {
        return;
    }
    let content_type = if stream {
        "text/event-stream"
    } else {
        "application/json"
    };
    let mut now = 0u64;
    // a few requests: the first, a retry, the rounds after calls
    for _ in 0..4 {
        let mut request = None;
        let mut calls = Vec::new();
        while let Some(out) = c.poll_output() {
            match out {
                Output::Request(r) => {
                    assert!(
                        serde_json::from_str::<Value>(&r.body).is_ok(),
                        "a request body is not JSON"
                    );
                    request = Some(r.id);
                }
                Output::Call(call) => {
                    assert!(catalog.get(&call.name).is_some(), "a call of {}", call.name);
                    calls.push(call.id);
                }
                Output::Done(_) => assert!(!c.busy(), "done but busy"),
                _ => {}
            }
        }
        for id in calls {
            let result: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
            c.complete_call(&id, &result, now);
        }
        if let Some(id) = request {
            c.handle_response(
                id,
                status,
                &[("content-type".into(), content_type.into())],
                now,
            );
            for chunk in body.split(|&b| b == 0xFF) {
                c.handle_body(id, chunk, now);
            }
            c.handle_end(id, now);
        } else if let Some(at) = c.poll_timeout() {
            now = at;
            c.handle_timeout(now);
        } else {
            break;
        }
    }
}

/// A small catalog for the targets that need tools: a read-only one, a
/// destructive one (hidden by the engine target's policy), nested and
/// enum parameters.
pub const TOOLS: &str = r#"{"tools": [
 {"name": "get_states", "description": "Lists the devices and their states.",
  "inputSchema": {"type": "object", "properties": {"zone": {"type": "string"}}},
  "annotations": {"readOnlyHint": true}},
 {"name": "set_light", "description": "Turns a light on or off, or dims it.",
  "inputSchema": {"type": "object", "properties": {
    "deviceId": {"type": "string", "minLength": 1},
    "state": {"enum": ["on", "off", "toggle"]},
    "dim": {"type": "integer", "minimum": 0, "maximum": 100},
    "color": {"type": "object", "properties": {"h": {"type": "number"}, "s": {"type": "number"}}, "required": ["h"]}},
   "required": ["deviceId"]}},
 {"name": "trigger_any_flow", "description": "Starts a flow by its command.",
  "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
  "annotations": {"destructiveHint": true}},
 {"name": "admin.tools.list", "description": "A namespaced name.",
  "inputSchema": {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true}}}}
]}"#;

/// [`TOOLS`], read once per process (reading it is a tenth of the engine
/// target's work); each caller gets its own copy.
fn tools() -> Catalog {
    static TOOLS_READ: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    TOOLS_READ
        .get_or_init(|| Catalog::parse(TOOLS.as_bytes()).unwrap_or_else(|_| unreachable_catalog()))
        .clone()
}

#[cold]
fn unreachable_catalog() -> Catalog {
    panic!("the built-in fuzz catalog does not parse")
}

/// `data` cut at the first `sep`: the part before and the part after.
fn split(data: &[u8], sep: u8) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == sep) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Catalog reading and conversion to one dialect, strict or not, chosen
/// by the input's length (so a mutation that adds or drops a byte moves
/// the same catalog to another dialect, and each run of the target costs
/// one conversion, not fourteen); token estimates of the text.
pub fn catalog(data: &[u8]) {
    let _ = crate::tokens::estimate_tokens(&text(data));
    let pick = data.len() % (2 * Dialect::ALL.len());
    let dialect = Dialect::ALL[pick / 2];
    let options = Options::strict(pick % 2 == 1);
    let Ok(catalog) = Catalog::parse(data) else {
        check_text_refused(data, dialect, &options);
        return;
    };
    let c = convert(&catalog, dialect, &options);
    check_conversion(&catalog, &c);
    check_streamed(&catalog, &options, &c);
    check_text(data, &options, &c);
}

/// [`crate::convert_text`] converts the catalog's text to the text of
/// the conversion `c`, and that text in ASCII (what the npm `convertJson`
/// hands back) reads as the same value.
pub fn check_text(data: &[u8], options: &Options, c: &Conversion) {
    let json = c.to_json_string();
    if let Ok(text) = std::str::from_utf8(data) {
        assert!(
            crate::convert_text(text, c.dialect, options).as_deref() == Ok(json.as_str()),
            "convert_text and convert disagree"
        );
    }
    // the npm convertJson's text: ASCII, read as the same value
    let ascii = crate::rawjson::ascii(json.clone());
    assert!(ascii.is_ascii(), "ASCII text holds other characters");
    assert!(
        serde_json::from_str::<serde_json::Value>(&ascii).ok()
            == serde_json::from_str::<serde_json::Value>(&json).ok(),
        "ASCII text reads as another value"
    );
}

/// [`crate::convert_text`] refuses what the catalog reader refuses, with
/// the same error.
pub fn check_text_refused(data: &[u8], dialect: Dialect, options: &Options) {
    if let (Ok(text), Err(e)) = (std::str::from_utf8(data), Catalog::parse(data)) {
        assert_eq!(
            crate::convert_text(text, dialect, options).map_err(|e| e.to_string()),
            Err(e.to_string()),
            "convert_text took what the reader refuses"
        );
    }
}

/// [`catalog`] in every dialect, strict or not: what the tests run on
/// the seeds, regression inputs and shared catalogs.
pub fn catalog_every_dialect(data: &[u8]) {
    let Ok(catalog) = Catalog::parse(data) else {
        for dialect in Dialect::ALL {
            check_text_refused(data, dialect, &Options::new());
        }
        return;
    };
    for dialect in Dialect::ALL {
        for strict in [false, true] {
            let options = Options::strict(strict);
            let c = convert(&catalog, dialect, &options);
            check_conversion(&catalog, &c);
            check_streamed(&catalog, &options, &c);
            check_text(data, &options, &c);
        }
    }
}

/// [`crate::convert_json`], which writes each tool as it is converted,
/// writes the text of the conversion `c`.
pub fn check_streamed(catalog: &Catalog, options: &Options, c: &Conversion) {
    assert!(
        crate::convert_json(catalog, c.dialect, options) == c.to_json_string(),
        "convert_json and convert disagree"
    );
}

/// A conversion is JSON, and its names are the dialect's, one per
/// converted tool, each mapping back to a tool of the catalog.
pub fn check_conversion(catalog: &Catalog, c: &Conversion) {
    let text = c.to_json_string();
    assert!(
        serde_json::from_str::<Value>(&text).is_ok(),
        "the conversion is not JSON"
    );
    let rule = c.dialect.name_rule();
    let mut seen = std::collections::HashSet::new();
    for (dialect_name, mcp) in c.names.iter() {
        assert!(
            rule.accepts(dialect_name),
            "{dialect_name:?} breaks the {} name rule",
            c.dialect.as_str()
        );
        assert!(catalog.get(mcp).is_some(), "{mcp:?} is not in the catalog");
        assert!(seen.insert(mcp), "{mcp:?} has two dialect names");
        assert_eq!(c.names.mcp_name(dialect_name), Some(mcp));
    }
}

/// Lint, or the token budget per disclosure mode, chosen by the input's
/// length (as [`catalog`] chooses its dialect: each run costs one of the
/// two, and a byte more or less moves the same catalog to the other).
pub fn lint(data: &[u8]) {
    let odd = data.len() % 2 == 1;
    lint_checks(data, !odd, odd);
}

/// [`lint`] with both the lint and the budget: what the tests run on the
/// seeds, regression inputs and shared catalogs.
pub fn lint_and_budget(data: &[u8]) {
    lint_checks(data, true, true);
}

fn lint_checks(data: &[u8], lint: bool, budget: bool) {
    let Ok(catalog) = Catalog::parse(data) else {
        return;
    };
    if lint {
        let report = crate::lint(&catalog);
        assert_eq!(report.tools.len(), catalog.len(), "one lint entry per tool");
    }
    if budget {
        let b = crate::budget(&catalog, None, &crate::engine::Disclosure::default());
        assert!(serde_json::to_value(&b).is_ok());
    }
}

/// Reading a model response's calls in a dialect (chosen by the first
/// byte) against the built-in catalog, then writing results back.
pub fn calls(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let dialect = Dialect::ALL[usize::from(which) % Dialect::ALL.len()];
    let catalog = tools();
    let conversion = convert(&catalog, dialect, &Options::strict(which & 0x80 != 0));
    let response: Value = match serde_json::from_slice(rest) {
        Ok(v) => v,
        Err(_) if dialect == Dialect::Prompted => Value::String(text(rest).into_owned()),
        Err(_) => return,
    };
    let Ok(turn) = parse_calls(dialect, &response, &conversion.names, Some(&catalog)) else {
        return;
    };
    check_turn(&catalog, &turn);
    // through JSON and back, as the JS package passes turns
    let back: ModelTurn = serde_json::from_value(turn.to_json()).unwrap_or_else(|e| {
        panic!("a turn does not read back from its JSON: {e}");
    });
    let nulls = Value::Array(vec![Value::Null; back.calls.len()]);
    let written = format_results(dialect, &back, &nulls);
    assert!(written.is_ok(), "results for every call: {written:?}");
    let ok = json!({"content": [{"type": "text", "text": "done"}]});
    let results = Value::Array(vec![ok; back.calls.len()]);
    assert!(format_results(dialect, &back, &results).is_ok());
}

/// Every call has an error or a request, never both; ids are unique; a
/// call with a request names a catalog tool and carries valid arguments.
pub fn check_turn(catalog: &Catalog, turn: &ModelTurn) {
    let mut ids = std::collections::HashSet::new();
    let mut runnable = 0;
    for call in &turn.calls {
        assert!(ids.insert(call.id.as_str()), "duplicate id {:?}", call.id);
        assert_ne!(
            call.error.is_some(),
            call.request.is_some(),
            "a call has an error or a request: {call:?}"
        );
        if call.request.is_some() {
            runnable += 1;
            let tool = catalog
                .get(&call.name)
                .unwrap_or_else(|| panic!("{:?} runs but is not in the catalog", call.name));
            let errors = crate::validate(tool.input_schema(), &call.arguments);
            assert!(
                errors.is_empty(),
                "a call runs with bad arguments: {errors:?}"
            );
        }
    }
    assert!(runnable <= crate::MAX_CALLS, "more calls run than allowed");
}

/// Validation with coercion: `schema NUL arguments`, both JSON.
pub fn validate(data: &[u8]) {
    let (schema, text) = split(data, 0);
    let (Ok(schema), Ok(args)) = (
        serde_json::from_slice::<Value>(schema),
        serde_json::from_slice::<Value>(text),
    ) else {
        return;
    };
    let plain = crate::validate(&schema, &args);
    let v = crate::validate_arguments(&schema, &args);
    check_validation(&schema, &v, &plain);
    // the quick check from the text: "valid as sent" is what the general
    // path says too, and the edits and errors it finds are exactly its
    // answer
    let catalog = serde_json::json!([{"name": "t", "inputSchema": schema}]).to_string();
    if let (Ok(catalog), Ok(text)) = (
        crate::Catalog::parse(catalog.as_bytes()),
        std::str::from_utf8(text),
    ) {
        let mut validator = crate::Validator::new(catalog);
        if validator.valid_as_is("t", text) {
            assert!(
                v.is_valid() && v.coercions.is_empty() && v.arguments == args,
                "valid as sent by the quick check, not by validate_arguments"
            );
        }
        if let Some(q) = validator.quick("t", text) {
            let quick = crate::validate::quick_validation(text, &q);
            assert_eq!(
                quick.as_ref(),
                Some(&v),
                "the quick check's edits and errors and validate_arguments differ"
            );
        }
    }
}

/// The errors after coercion are exactly what plain validation finds in
/// the coerced arguments (unless the step budget ran out in either).
pub fn check_validation(schema: &Value, v: &crate::Validation, plain: &[crate::ArgumentError]) {
    let limited = |e: &[crate::ArgumentError]| e.iter().any(|e| e.keyword == "limit");
    if v.errors.is_empty() {
        assert!(v.message().is_empty());
    } else {
        assert!(!v.message().is_empty());
    }
    for e in plain.iter().chain(&v.errors) {
        assert!(!e.message.is_empty(), "an error without a message");
    }
    if !v.arguments.is_object() {
        return;
    }
    let again = crate::validate(schema, &v.arguments);
    if !limited(&again) && !limited(&v.errors) {
        assert_eq!(
            v.errors, again,
            "validate_arguments and validate disagree on the coerced arguments"
        );
    }
}

/// Search: `catalog 0xFF query`, or the built-in catalog and the whole
/// input as the query.
pub fn search(data: &[u8]) {
    let Some(i) = data.iter().position(|&b| b == 0xff) else {
        // the built-in catalog's index is built once per process (an index
        // is only read by searches)
        // (and its tools' exact names, the same for every input, checked
        // then)
        thread_local! {
            static BUILT_IN: Option<(Catalog, ToolIndex)> = {
                let catalog = tools();
                ToolIndex::build(&catalog, None).ok().map(|index| {
                    check_exact_names(&catalog, &index);
                    (catalog, index)
                })
            };
        }
        return BUILT_IN.with(|built| {
            let (catalog, index) = built.as_ref().unwrap_or_else(|| unbuilt_index());
            search_in(catalog, index, &text(data));
        });
    };
    // the index read straight from the text is the index built from the
    // parsed catalog, and a refused text the same error
    let catalog_text = &data[..i];
    let read = ToolIndex::parse(catalog_text, None);
    let built = Catalog::parse(catalog_text).and_then(|c| Ok((ToolIndex::build(&c, None)?, c)));
    let (index, catalog) = match (built, read) {
        (Ok(built), Ok(read)) => {
            let query = text(&data[i + 1..]);
            let opts = SearchOptions::new().with_limit(1 + query.len() % 50);
            assert_eq!(
                read.search(&query, &opts),
                built.0.search(&query, &opts),
                "the index read from the text answers otherwise"
            );
            built
        }
        (Err(want), Err(got)) => {
            assert_eq!(got, want, "the text reader refuses with another error");
            return;
        }
        (built, read) => panic!(
            "the text reader and the parsed catalog disagree: {:?} against {:?}",
            read.err(),
            built.err()
        ),
    };
    search_in(&catalog, &index, &text(&data[i + 1..]));
    check_exact_names(&catalog, &index);
}

#[cold]
fn unbuilt_index() -> ! {
    panic!("the built-in fuzz catalog has no index")
}

/// The search target's checks of `query` in `index`, built from `catalog`.
/// A small home for the entities target: zones with parents (and a
/// cycle), devices with classes, a Flow and a mood, names in two
/// languages, one name twice.
pub const HOME: &str = r#"{
 "zones": {"z0": {"name": "Huis"}, "z1": {"name": "Begane grond", "parent": "z0"},
   "z2": {"name": "Woonkamer", "parent": "z1"}, "z3": {"name": "Study", "parent": "z4"},
   "z4": {"name": "Boven", "parent": "z3"}},
 "devices": [
  {"id": "d1", "name": "Leeslamp", "zone": "z2", "class": "light"},
  {"id": "d2", "name": "Leeslamp", "zone": "z3", "class": "light"},
  {"id": "d3", "name": "Lamp naast de bank", "zone": "z2", "class": "socket", "virtualClass": "light"},
  {"id": "d4", "name": "Rolluik", "zone": "z4", "class": "windowcoverings"}],
 "flows": [{"id": "f1", "name": "Goedemorgen"}],
 "moods": [{"id": "m1", "name": "Filmavond", "zone": "z2"}]
}"#;

/// The entity index: a home's JSON and a reference to resolve in it,
/// split by the first `0xff` (without one, the input is a reference in
/// [`HOME`]). A home that is not JSON or has the wrong shape is refused
/// with an error, never a panic; every reference resolves to things of
/// the home, best first, within the limit, of the kind asked for, with a
/// note exactly when it is ambiguous.
pub fn entities(data: &[u8]) {
    let (home, text) = match data.iter().position(|&b| b == 0xff) {
        Some(i) => (
            data.get(..i).unwrap_or(&[]),
            text(data.get(i + 1..).unwrap_or(&[])),
        ),
        None => (HOME.as_bytes(), text(data)),
    };
    let Ok(index) = EntityIndex::parse(home) else {
        return;
    };
    let kinds = [
        None,
        Some(EntityKind::Zone),
        Some(EntityKind::Device),
        Some(EntityKind::Flow),
        Some(EntityKind::Mood),
    ];
    let kind = kinds.get(text.len() % kinds.len()).copied().flatten();
    let limit = text.len() % 6;
    let mut opts = ResolveOptions::new().with_limit(limit);
    opts.kind = kind;
    let r = index.resolve(&text, &opts);
    assert!(r.matches.len() <= limit, "more matches than the limit");
    assert_eq!(
        r.ambiguous,
        r.note.is_some(),
        "a note exactly when ambiguous"
    );
    for pair in r.matches.windows(2) {
        assert!(pair[0].score >= pair[1].score, "matches out of order");
    }
    for m in &r.matches {
        assert!(m.score.is_finite() && m.score > 0.0);
        assert!(kind.is_none_or(|k| k == m.kind), "a match of another kind");
    }
    if let Some(id) = index.resolve_id(&text, kind) {
        let again = index.resolve_id(&id, kind);
        assert_eq!(
            again.as_deref(),
            Some(id.as_str()),
            "an ID resolves to itself"
        );
    }
}

fn search_in(catalog: &Catalog, index: &ToolIndex, query: &str) {
    let limit = 1 + query.len() % 7;
    let found = index.search(query, &SearchOptions::new().with_limit(limit));
    check_hits(catalog, &found, limit);
    // the explanation is of the same hits, and its parts add up to their
    // scores
    let why = index.explain(query, &SearchOptions::new().with_limit(limit));
    assert_eq!(why.hits.len(), found.hits.len(), "explain has other hits");
    for (x, hit) in why.hits.iter().zip(&found.hits) {
        assert_eq!(
            (&x.name, x.score),
            (&hit.name, hit.score),
            "explain has other hits"
        );
        if !x.exact && !x.guess {
            let total = (x.matched + x.name_bonus + x.head_bonus) * x.act_factor * x.media_factor;
            assert!(
                (total - x.score).abs() <= 1e-3 * x.score.max(1.0),
                "the parts of {} add up to {total}, not {}",
                x.name,
                x.score
            );
        }
    }
    let _ = index.suggest(query, 3);
}

/// A tool's exact name finds that tool first (for the first three tools
/// with a plain, unique name).
fn check_exact_names(catalog: &Catalog, index: &ToolIndex) {
    for tool in catalog.tools().iter().take(3) {
        let name = tool.name();
        let plain = name.len() > 2
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        let unique = catalog
            .tools()
            .iter()
            .filter(|t| t.name().eq_ignore_ascii_case(name))
            .count()
            == 1;
        if plain && unique {
            let r = index.search(name, &SearchOptions::new());
            assert_eq!(
                r.hits.first().map(|h| h.name.as_str()),
                Some(name),
                "the exact name {name:?} is not the first hit"
            );
        }
    }
}

/// Hits are at most `limit`, best first, and name catalog tools.
pub fn check_hits(catalog: &Catalog, found: &crate::SearchResults, limit: usize) {
    assert!(found.hits.len() <= limit, "more hits than the limit");
    assert!(found.total >= found.hits.len(), "total below the hits");
    for pair in found.hits.windows(2) {
        assert!(pair[0].score >= pair[1].score, "hits out of order");
    }
    for h in &found.hits {
        assert!(catalog.get(&h.name).is_some(), "{:?} is not a tool", h.name);
        assert!(h.score.is_finite());
    }
}

/// The engine fed a sequence of messages (one per line), each
/// invocation completed at once with a good result, a bad one, or a
/// failure; `#mode X` lines change the mode. The first byte picks the
/// mode and the page size.
pub fn engine(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let mut engine = fresh_engine(first);
    let mut outcome = 0usize;
    for line in text(rest).split('\n') {
        if let Some(mode) = line.strip_prefix("#mode ") {
            if let Some(m) = Mode::parse(mode.trim()) {
                engine.set_mode(m);
            }
            let replies = drain(&mut engine, line, &mut outcome);
            assert_eq!(replies, 0, "a mode change replied");
            continue;
        }
        let owed = engine.handle(line);
        let replies = drain(&mut engine, line, &mut outcome);
        assert_eq!(
            replies,
            usize::from(owed),
            "{line:?} owed {owed} reply, got {replies}"
        );
        assert_eq!(engine.outstanding(), 0);
    }
}

/// A new engine for the configuration `first` picks (mode and page
/// size): built once per configuration and process, then copied for each
/// input, so every input starts from the same untouched engine without
/// paying for the catalog, its views and search index again (two thirds
/// of the target's work when built per input).
fn fresh_engine(first: u8) -> Engine {
    thread_local! {
        static BUILT: std::cell::RefCell<std::collections::HashMap<u8, Engine>> =
            std::cell::RefCell::default();
    }
    BUILT.with(|built| {
        built
            .borrow_mut()
            .entry(first)
            .or_insert_with(|| build_engine(first))
            .clone()
    })
}

/// The engine for the configuration `first` picks.
fn build_engine(first: u8) -> Engine {
    let mut config = EngineConfig {
        page_size: 1 + usize::from(first >> 4),
        ..EngineConfig::default()
    };
    config.disclosure.mode = match first & 3 {
        1 => Mode::Hybrid,
        2 => Mode::Meta,
        _ => Mode::All,
    };
    config.exposure.deny = vec!["trigger_any_flow".into()];
    Engine::new(tools(), config)
}

/// Drains the engine, completing every invocation; checks every message
/// it writes and counts the replies.
fn drain(engine: &mut Engine, line: &str, outcome: &mut usize) -> usize {
    let mut replies = 0;
    while let Some(o) = engine.poll_output() {
        match o {
            Output::Reply(reply) => {
                let text = reply.message;
                let v: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("a reply is not JSON ({e}): {text}"));
                assert_eq!(v.get("jsonrpc"), Some(&json!("2.0")), "{text}");
                assert!(
                    v.get("result").is_some() != v.get("error").is_some(),
                    "a reply has a result or an error: {text}"
                );
                replies += 1;
            }
            Output::Notification(notice) => {
                let text = notice.message;
                let v: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("a notification is not JSON ({e}): {text}"));
                assert!(v.get("method").is_some(), "{text}");
            }
            Output::Invoke(inv) => {
                assert_ne!(inv.tool, "trigger_any_flow", "a hidden tool was invoked");
                *outcome += 1;
                let r = match *outcome % 4 {
                    0 => engine.fail(inv.id, "it broke"),
                    1 => {
                        engine.complete_json(inv.id, r#"{"content":[{"type":"text","text":"ok"}]}"#)
                    }
                    2 => engine.complete_json(inv.id, line),
                    _ => engine.complete(
                        inv.id,
                        &json!({"content": [], "structuredContent": {"line": line}}),
                    ),
                };
                // a bad result is answered with an error reply, and said so
                let _ = r;
            }
            _ => {}
        }
    }
    replies
}

/// The HTTP rules on a request read from the input (`METHOD PATH` on the
/// first line, `name: value` headers after it, a blank line, then bytes
/// that drive the session table).
pub fn http(data: &[u8]) {
    let (head, ops) = match data.windows(2).position(|w| w == b"\n\n") {
        Some(i) => (&data[..i], &data[i + 2..]),
        None => (data, &[][..]),
    };
    let head = text(head);
    let mut lines = head.split('\n');
    let mut request_line = lines.next().unwrap_or("").split(' ');
    let req = HttpRequest {
        method: request_line.next().unwrap_or("").to_string(),
        path: request_line.next().unwrap_or("").to_string(),
        headers: lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect(),
        session_known: ops.first().is_some_and(|b| b & 1 == 1),
    };
    let policy = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_origins(vec!["https://app.example".into()])
        .with_max_sessions(4)
        .with_max_streams(2)
        .with_max_inflight(3)
        .with_session_idle_ms(5_000);
    let decision = gate::check_request(&req, &policy);
    check_decision(&req, &decision);
    if let (Some(origin), false) = (req.header("origin"), is_forbidden(&decision)) {
        let listed = origin
            .trim_end_matches('/')
            .eq_ignore_ascii_case("https://app.example");
        assert!(
            listed || reference_loopback_origin(origin),
            "origin {origin:?} was let through"
        );
    }
    if let (Some(host), false) = (req.header("host"), is_forbidden(&decision)) {
        assert!(
            reference_loopback_authority(host.trim()),
            "host {host:?} was let through"
        );
    }
    // CORS only for the listed origin, named as the request wrote it
    let mut cors = gate::cors_headers(&req, &policy);
    if let HttpDecision::Options { headers, .. } = &decision {
        cors.extend(headers.iter().cloned());
    }
    for (k, v) in &cors {
        assert!(
            v.bytes().all(|b| b == b' ' || b.is_ascii_graphic()),
            "header {k}: {v:?}"
        );
        if k.eq_ignore_ascii_case("access-control-allow-origin") {
            let origin = req.header("origin").unwrap_or_default();
            assert_eq!(v, origin, "CORS for another origin");
            assert!(
                origin
                    .trim_end_matches('/')
                    .eq_ignore_ascii_case("https://app.example"),
                "CORS for the unlisted origin {origin:?}"
            );
        }
    }
    let _ = gate::check_body(&text(ops), req.session_known, &policy);
    gate_ops(policy, ops);
}

fn is_forbidden(d: &HttpDecision) -> bool {
    // 404 for another path and 400 for a repeated Host or Authorization
    // come before the origin and host checks
    match d {
        HttpDecision::Reject {
            status: 403 | 404, ..
        } => true,
        HttpDecision::Reject {
            status: 400,
            message,
            ..
        } => message.contains("more than one Host or Authorization"),
        _ => false,
    }
}

fn check_decision(req: &HttpRequest, d: &HttpDecision) {
    if let HttpDecision::Reject {
        status, message, ..
    } = d
    {
        assert!((400..600).contains(status), "status {status}");
        assert!(!message.is_empty());
    }
    if matches!(d, HttpDecision::ReadBody { .. }) {
        assert_eq!(req.method, "POST");
    }
}

/// An independent reading of "a loopback origin": `http(s)://` and an
/// authority that names this machine.
fn reference_loopback_origin(origin: &str) -> bool {
    let lower = origin.to_ascii_lowercase();
    let rest = match lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
    {
        Some(r) => r,
        None => return false,
    };
    reference_loopback_authority(rest)
}

fn reference_loopback_authority(authority: &str) -> bool {
    let host = match authority.rsplit_once(':') {
        // a port: digits only, and the host before it
        Some((h, port))
            if !port.is_empty()
                && port.len() <= 5
                && port.bytes().all(|b| b.is_ascii_digit())
                && port.parse::<u32>().is_ok_and(|p| p <= 65_535)
                && (h.ends_with(']') || !h.contains(':')) =>
        {
            h
        }
        _ => authority,
    };
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
    match bare {
        Some(v6) => v6
            .parse::<std::net::Ipv6Addr>()
            .is_ok_and(|a| a.is_loopback() || a.to_ipv4_mapped().is_some_and(|m| m.is_loopback())),
        None => host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|a| a.is_loopback()),
    }
}

/// Drives the session table with operations read from `ops` and checks
/// that it stays within its limits and never closes a busy session.
fn gate_ops(policy: HttpPolicy, ops: &[u8]) {
    let max = policy.max_sessions;
    let mut g = Gate::new(policy);
    let mut now = 0u64;
    // the test's own model: id → (requests in progress, streams)
    let mut model: std::collections::HashMap<String, (usize, usize)> = Default::default();
    let req = |method: &str, id: &str| HttpRequest {
        method: method.into(),
        path: "/mcp".into(),
        headers: vec![
            ("content-type".into(), "application/json".into()),
            (
                "accept".into(),
                if method == "GET" {
                    "text/event-stream"
                } else {
                    "application/json"
                }
                .into(),
            ),
            ("mcp-session-id".into(), id.into()),
        ],
        session_known: false,
    };
    let closed = |model: &mut std::collections::HashMap<String, (usize, usize)>,
                  ids: &[String],
                  why: &str| {
        for id in ids {
            let (busy, _streams) = model
                .remove(id)
                .unwrap_or_else(|| panic!("{why} closed {id:?}, which is not open"));
            // a session with a request in progress is never closed; one
            // that only holds streams may be (it expires, or gives way)
            if why != "DELETE" {
                assert_eq!(busy, 0, "{why} closed the busy session {id:?}");
            }
        }
    };
    for chunk in ops.chunks(2) {
        let (op, arg) = (chunk[0], chunk.get(1).copied().unwrap_or(0));
        let id = format!("s{}", arg % 8);
        now += u64::from(op >> 3) * 250;
        match op % 7 {
            0 => match g.open_session(&id, now) {
                Ok(close) => {
                    closed(&mut model, &close, "open_session");
                    model.insert(id.clone(), (1, 0));
                }
                Err(d) => assert!(matches!(d, HttpDecision::Reject { status: 503, .. })),
            },
            1 | 2 => {
                let method = if op % 7 == 1 { "POST" } else { "GET" };
                let v = g.request(&req(method, &id), now);
                let why = if matches!(v.decision, HttpDecision::EndSession) {
                    "DELETE"
                } else {
                    "request"
                };
                closed(&mut model, &v.close, why);
                match (&v.decision, model.get_mut(&id)) {
                    (HttpDecision::ReadBody { .. }, Some(m)) => m.0 += 1,
                    (HttpDecision::OpenStream, Some(m)) => m.1 += 1,
                    (HttpDecision::ReadBody { .. } | HttpDecision::OpenStream, None) => {
                        panic!("a request for the unknown session {id:?} went through")
                    }
                    _ => {}
                }
            }
            3 => {
                g.finished(&id, now);
                if let Some(m) = model.get_mut(&id) {
                    m.0 = m.0.saturating_sub(1);
                }
            }
            4 => {
                g.stream_closed(&id, now);
                if let Some(m) = model.get_mut(&id) {
                    m.1 = m.1.saturating_sub(1);
                }
            }
            5 => {
                let gone = g.sweep(now);
                closed(&mut model, &gone, "sweep");
            }
            _ => {
                let v = g.request(&req("DELETE", &id), now);
                let why = if matches!(v.decision, HttpDecision::EndSession) {
                    "DELETE"
                } else {
                    "request"
                };
                closed(&mut model, &v.close, why);
            }
        }
        assert!(g.len() <= max, "{} sessions, the limit is {max}", g.len());
        assert_eq!(g.len(), model.len(), "the table and the model disagree");
    }
}

/// The upstream client against a server that sends anything, over stdio:
/// the input is lines the server writes, each led by a byte that moves the
/// clock (0 to 510 ms) and says whether the host answers the questions
/// passed to it. Properties: at most four times [`ClientConfig::max_asks_per_second`]
/// answers to the server's requests, and the host's answers to the
/// questions that waited, are written in any second (twice the rate in
/// each of the client's one-second windows); at most
/// [`ClientConfig::max_asks`] questions wait for the host; a call is
/// answered once at most, and never by a message whose id is not its
/// request's.
///
/// [`ClientConfig::max_asks_per_second`]: crate::client::ClientConfig::max_asks_per_second
/// [`ClientConfig::max_asks`]: crate::client::ClientConfig::max_asks
pub fn upstream(data: &[u8]) {
    use crate::client::{CallKind, ClientConfig, ClientOutput, UpstreamClient};
    let config = ClientConfig::new("fuzz")
        .with_stdio(true)
        .with_server_limits(3, 5, 20)
        .with_max_reply(64 * 1024);
    let (rate, max_asks) = (config.max_asks_per_second, config.max_asks);
    let mut c = UpstreamClient::new(config);
    let mut now = 0u64;
    let _ = c.connect(now);
    // the answers written back (responses to the server's requests), by
    // the time they were written
    let mut answered: Vec<u64> = Vec::new();
    let mut waiting: Vec<u64> = Vec::new();
    let mut outcomes: std::collections::HashMap<u64, usize> = Default::default();
    let mut calls = Vec::new();
    let mut drain = |c: &mut UpstreamClient, now: u64, answer: bool, waiting: &mut Vec<u64>| {
        let mut asks = Vec::new();
        while let Some(o) = c.poll_output() {
            match o {
                ClientOutput::Write { message } => {
                    let v: Value = serde_json::from_str(&message)
                        .unwrap_or_else(|e| panic!("the client wrote no JSON: {e}"));
                    if v.get("method").is_none() && v.get("id").is_some() {
                        answered.push(now);
                    }
                }
                ClientOutput::Ask { ask, .. } => asks.push(ask),
                ClientOutput::Done { call, .. } | ClientOutput::Failed { call, .. } => {
                    *outcomes.entry(call).or_insert(0) += 1;
                }
                _ => {}
            }
        }
        waiting.extend(asks);
        if answer {
            for ask in std::mem::take(waiting) {
                let _ = c.answer(ask, json!({"action": "decline"}), now);
            }
        }
    };
    drain(&mut c, now, false, &mut waiting);
    for line in data.split(|b| *b == b'\n') {
        let Some((&lead, rest)) = line.split_first() else {
            continue;
        };
        now += u64::from(lead >> 1) * 4;
        if lead & 1 == 0 {
            if let Ok(call) = c.call(CallKind::Tool, json!({"name": "t"}), None, now) {
                calls.push(call);
            }
        }
        let mut bytes = rest.to_vec();
        bytes.push(b'\n');
        c.receive(&bytes, now);
        if c.poll_timeout().is_some_and(|t| t <= now) {
            c.handle_timeout(now);
        }
        drain(&mut c, now, lead & 2 == 2, &mut waiting);
        assert!(
            waiting.len() <= max_asks,
            "{} questions wait for the host, the limit is {max_asks}",
            waiting.len()
        );
    }
    // the client counts the server's requests in one-second windows and
    // answers at most twice the rate in each (the rest cut); any second
    // overlaps two windows, and may also carry the host's answers to
    // questions that waited from before (at most max_asks)
    for (i, t) in answered.iter().enumerate() {
        let within = answered[i..].iter().take_while(|u| **u < t + 1000).count();
        assert!(
            within <= rate as usize * 4 + max_asks,
            "{within} answers in the second from {t}"
        );
    }
    for (call, n) in outcomes {
        assert!(n <= 1, "call {call} answered {n} times");
        assert!(
            calls.contains(&call),
            "an outcome for the unknown call {call}"
        );
    }
}

/// The gate's connection table and its limits of requests without a
/// session, under any sequence of connections opened, requests, closes
/// and 2026-07-28 requests started and ended. Properties: never more open
/// connections than the limit, nor more per address than its share; a
/// connection that sent a request is never closed to make room; a refused
/// connection is not kept; the requests without a session in progress
/// stay under their limits.
pub fn connections(data: &[u8]) {
    let policy = HttpPolicy::for_host("127.0.0.1", None)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_max_connections(6)
        .with_max_connections_per_address(3)
        .with_stateless_limits(2, 3);
    let mut g = Gate::new(policy);
    // the model: id → (address, sent a request)
    let mut open: Vec<(u64, u8, bool)> = Vec::new();
    let (mut listening, mut calls) = (Vec::new(), Vec::new());
    let mut next = 1u64;
    for chunk in data.chunks(2) {
        let (op, arg) = (chunk[0], chunk.get(1).copied().unwrap_or(0));
        match op % 5 {
            0 => {
                let address = arg % 4;
                let remote = (address > 0).then(|| format!("10.0.0.{address}"));
                let id = next;
                next += 1;
                let v = g.connection_opened(id, remote.as_deref());
                if let Some(victim) = v.close {
                    let i = open
                        .iter()
                        .position(|(c, _, _)| *c == victim)
                        .unwrap_or_else(|| panic!("closed {victim}, which is not open"));
                    let (_, _, proven) = open.remove(i);
                    assert!(!proven, "closed {victim}, which sent a request");
                }
                if v.accept {
                    open.push((id, address, false));
                }
            }
            1 => {
                let n = open.len().max(1);
                if let Some(c) = open.get_mut(usize::from(arg) % n) {
                    g.connection_request(c.0);
                    c.2 = true;
                }
            }
            2 => {
                if !open.is_empty() {
                    let (id, _, _) = open.remove(usize::from(arg) % open.len());
                    g.connection_closed(id);
                }
            }
            3 => {
                let listen = arg & 1 == 1;
                let channel = u64::from(arg >> 1);
                if g.stateless_started(channel, listen, &json!(1)).is_ok() {
                    let list = if listen { &mut listening } else { &mut calls };
                    if !list.contains(&channel) {
                        list.push(channel);
                    }
                }
            }
            _ => {
                let channel = u64::from(arg >> 1);
                g.stateless_ended(channel);
                listening.retain(|c| *c != channel);
                calls.retain(|c| *c != channel);
            }
        }
        assert_eq!(
            g.connections(),
            open.len(),
            "the table and the model disagree"
        );
        assert!(
            open.len() <= 6,
            "{} connections, the limit is 6",
            open.len()
        );
        for address in 1..4 {
            let n = open.iter().filter(|(_, a, _)| *a == address).count();
            assert!(n <= 3, "{n} connections from address {address}");
        }
        assert!(listening.len() <= 2 && calls.len() <= 3);
    }
}

/// The SSE parser (whole and in chunks), reply reading under a limit, the
/// legacy transport's events, reply classification and handler results.
pub fn sse(data: &[u8]) {
    let Some((&cut, rest)) = data.split_first() else {
        return;
    };
    let body = text(rest);
    let limit = 64 + usize::from(cut) * 16;
    let mut whole = crate::client::SseParser::with_limit(limit);
    let all = whole.push(&body).map(|mut e| {
        e.extend(whole.finish());
        e
    });
    // the same stream cut into chunks gives the same events
    let size = 1 + usize::from(cut % 17);
    let mut parts = crate::client::SseParser::with_limit(limit);
    let mut got = Vec::new();
    let mut failed = false;
    let mut at = 0;
    while at < body.len() {
        let mut end = (at + size).min(body.len());
        while !body.is_char_boundary(end) {
            end += 1;
        }
        match parts.push(&body[at..end]) {
            Ok(e) => got.extend(e),
            Err(_) => {
                failed = true;
                break;
            }
        }
        at = end;
    }
    if let (Ok(all), false) = (&all, failed) {
        got.extend(parts.finish());
        assert_eq!(&got, all, "chunking changed the events");
    }
    for e in all.iter().flatten() {
        let _ = crate::client::legacy_event(e);
        assert!(e.data.len() <= limit, "an event past the limit");
    }
    for ctype in ["text/event-stream", "application/json"] {
        if let Ok(messages) = crate::client::messages(&body, ctype) {
            let id = messages
                .first()
                .and_then(|m| m.get("id"))
                .cloned()
                .unwrap_or(Value::Null);
            let _ = crate::client::result_for(&messages, &id);
        }
    }
    let mut reply = crate::client::ReplyBody::new(rest.len() / 2 + 1);
    let _ = reply
        .push(rest)
        .and_then(|()| reply.messages("application/json"));
    let status = u16::from(cut) * 3 % 600;
    let _ = crate::client::classify_reply(status, &body, cut & 1 == 0, cut & 2 == 0);
    if let Ok(out) = crate::client::as_tool_result_text(&body) {
        assert!(
            serde_json::from_str::<Value>(&out).is_ok(),
            "a handler result is not JSON: {out}"
        );
    }
}

/// The lenient JSON finder on model prose.
pub fn lenient(data: &[u8]) {
    let t = text(data);
    let found = crate::lenient::find_values(&t);
    for v in &found {
        assert!(v.is_object() || v.is_array(), "found a bare value");
    }
    assert!(found.len() <= crate::lenient::MAX_NODES);
    // strict JSON is read as strict JSON
    let trimmed = t.trim();
    if !trimmed.contains("```") && (trimmed.starts_with('{') || trimmed.starts_with('[')) {
        if let Ok(strict) = serde_json::from_str::<Value>(trimmed) {
            if depth(&strict) < 60 && nodes(&strict) < 1_000 {
                let first = found
                    .first()
                    .unwrap_or_else(|| panic!("nothing found in {trimmed:?}"));
                assert!(same(first, &strict), "read {first} from {trimmed}");
            }
        }
    }
}

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn nodes(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(nodes).sum::<usize>(),
        Value::Object(m) => 1 + m.values().map(nodes).sum::<usize>(),
        _ => 1,
    }
}

/// Equal values, numbers compared by value (within rounding).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        _ => a == b,
    }
}

/// The raw JSON scanner against serde_json: the same texts pass, the
/// compact form reads as the same value, the fields split at the top are
/// the object's; results built from the text are JSON.
pub fn rawjson(data: &[u8]) {
    let Ok(t) = std::str::from_utf8(data) else {
        return;
    };
    let ours = crate::rawjson::compact(t);
    let theirs = serde_json::from_str::<Value>(t);
    assert_eq!(
        ours.is_ok(),
        theirs.is_ok(),
        "the scanner says {:?}, serde_json says {:?}",
        ours.as_ref().err(),
        theirs.as_ref().err()
    );
    if let (Ok(compact), Ok(value)) = (&ours, &theirs) {
        let again: Value = serde_json::from_str(compact)
            .unwrap_or_else(|e| panic!("the compact form does not read ({e}): {compact}"));
        assert_eq!(&again, value, "compacting changed the value");
        if let crate::rawjson::Top::Object(fields) = crate::rawjson::top(compact) {
            let m = value
                .as_object()
                .unwrap_or_else(|| panic!("fields of a non-object"));
            assert_eq!(fields.0.len(), m.len(), "field count");
            for f in &fields.0 {
                let v: Value = serde_json::from_str(f.value).unwrap_or(Value::Null);
                assert_eq!(m.get(f.key.as_ref()), Some(&v), "field {}", f.key);
            }
        }
        // one level down, it still reads when it passes
        if let Ok(inner) = crate::rawjson::compact_nested(t, 1) {
            let wrapped = format!("[{inner}]");
            assert!(
                serde_json::from_str::<Value>(&wrapped).is_ok(),
                "nested too deep: {wrapped}"
            );
        }
    }
    for built in [
        crate::tool_success_json(t),
        crate::tool_failure_json("it failed", t),
        crate::client::as_tool_result_text(t),
    ]
    .into_iter()
    .flatten()
    {
        assert!(
            serde_json::from_str::<Value>(&built).is_ok(),
            "a result built from the text is not JSON: {built}"
        );
    }
}

/// HTML to Markdown or to text, or `web_fetch`. The first byte picks small
/// limits (output, depth, elements) so the fuzzer reaches them; the rest is
/// the page's bytes, read with the encoding they declare. The page's length
/// picks one of [`HTML_VARIANTS`] runs (as [`catalog`] picks its dialect):
/// a conversion to Markdown or to text under the small or the default
/// limits, or the page as a `web_fetch` body. Checked: the output, depth,
/// elements and input stay within the limits and the work within 4 steps
/// per byte read; text mode adds no markup; `web_fetch` gives a result or
/// a tool error, never a panic.
pub fn html(data: &[u8]) {
    let Some((&knobs, page)) = data.split_first() else {
        return;
    };
    html_variant(knobs, page, page.len() % HTML_VARIANTS);
}

/// How many ways [`html`] runs a page: four conversions and a fetch.
pub const HTML_VARIANTS: usize = 5;

/// [`html`] in every variant: what the tests run on the seeds and
/// regression inputs.
pub fn html_every_variant(data: &[u8]) {
    let Some((&knobs, page)) = data.split_first() else {
        return;
    };
    for variant in 0..HTML_VARIANTS {
        html_variant(knobs, page, variant);
    }
}

fn html_variant(knobs: u8, page: &[u8], variant: usize) {
    use crate::html::{convert_bytes, Format, HtmlOptions};
    if variant >= 4 {
        return html_fetch(knobs, page);
    }
    let options = if variant < 2 {
        HtmlOptions::new()
            .with_base_url("https://example.com/docs/page")
            .with_max_output(16 + usize::from(knobs) * 64)
            .with_max_depth(1 + usize::from(knobs % 64))
            .with_max_elements(1 + usize::from(knobs) * 4)
    } else {
        HtmlOptions::new()
    };
    let format = if variant % 2 == 0 {
        Format::Markdown
    } else {
        Format::Text
    };
    let options = options.with_format(format);
    let content_type = (knobs & 1 == 0).then_some("text/html; charset=windows-1252");
    let out = convert_bytes(page, content_type, &options);
    check_html(page, &options, &out);
}

/// The page as a `web_fetch` body, in the format `knobs` picks.
fn html_fetch(knobs: u8, page: &[u8]) {
    let format = match knobs % 3 {
        0 => "markdown",
        1 => "text",
        _ => "html",
    };
    let mut fetch = crate::web::WebFetch::new(
        &json!({"url": "https://example.com/", "format": format}),
        crate::web::FetchOptions::new().with_max_bytes(1 + page.len() / 2),
    );
    let _ = fetch.start();
    let _ = fetch.resolved(&[std::net::IpAddr::from([93, 184, 215, 14])]);
    let ct = [("Content-Type".to_string(), "text/html".to_string())];
    let _ = fetch.response(200, if knobs & 2 == 0 { &ct[..] } else { &[] });
    let mut last = fetch.body(page);
    if matches!(last, crate::web::FetchAction::Read) {
        last = fetch.end();
    }
    if let crate::web::FetchAction::Decode { .. } = last {
        last = fetch.decode_failed();
    }
    let crate::web::FetchAction::Done(result) = last else {
        panic!("web_fetch did not finish: {last:?}");
    };
    let result: Value = serde_json::from_str(&result).unwrap_or(Value::Null);
    assert!(
        result.get("content").is_some_and(Value::is_array),
        "web_fetch's result is not a CallToolResult: {result}"
    );
}

/// Characters Markdown uses for markup, which text mode must not add.
const MARKUP: [char; 7] = ['*', '_', '`', '[', ']', '#', '\\'];

/// The properties of one conversion of `input` under `options`.
pub fn check_html(input: &[u8], options: &crate::html::HtmlOptions, page: &crate::html::Page) {
    let s = &page.stats;
    assert!(
        page.content.len() <= options.max_output,
        "{} bytes out, past the limit of {}",
        page.content.len(),
        options.max_output
    );
    assert!(s.input_bytes <= options.max_input, "read past max_input");
    assert!(
        s.max_depth <= options.max_depth,
        "depth {} kept past the limit",
        s.max_depth
    );
    assert!(
        s.elements <= options.max_elements,
        "{} elements kept past the limit",
        s.elements
    );
    assert!(
        s.steps <= 4 * s.input_bytes + 64,
        "{} steps for {} bytes",
        s.steps,
        s.input_bytes
    );
    if options.format == crate::html::Format::Text {
        // each markup character of the text comes from the page: written
        // there, or from a character reference (at most one per `&`)
        let refs = input.iter().filter(|&&b| b == b'&').count();
        for c in MARKUP {
            let made = page.content.chars().filter(|&x| x == c).count();
            // in every encoding read here an ASCII character is its byte
            let given = input.iter().filter(|&&b| char::from(b) == c).count();
            assert!(
                made <= given + refs,
                "text mode wrote markup: {made} of {c:?} from {given} in the page"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn fuzz_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
    }

    fn files(dir: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        out.retain(|p| p.is_file());
        out.sort();
        out
    }

    /// For the targets that run one variant per input (chosen by its
    /// length), the function that runs them all.
    fn every_variant(target: &str) -> Option<fn(&[u8])> {
        match target {
            "catalog" => Some(catalog_every_dialect),
            "lint" => Some(lint_and_budget),
            "html" => Some(html_every_variant),
            _ => None,
        }
    }

    /// Every target over its committed seeds and regression inputs (the
    /// libFuzzer runs start from the same files), and in every variant.
    #[test]
    fn every_target_passes_its_seeds_and_regressions() {
        for target in TARGETS {
            let seeds = files(&fuzz_dir().join("seeds").join(target));
            assert!(!seeds.is_empty(), "{target} has no seeds");
            let regressions = files(&fuzz_dir().join("regressions").join(target));
            for file in seeds.iter().chain(&regressions) {
                let data = std::fs::read(file).unwrap_or_default();
                let ok = std::panic::catch_unwind(|| run(target, &data));
                assert!(matches!(ok, Ok(true)), "{target}: {} fails", file.display());
                if let Some(every) = every_variant(target) {
                    let all = std::panic::catch_unwind(|| every(&data));
                    assert!(
                        all.is_ok(),
                        "{target}: {} fails in a variant",
                        file.display()
                    );
                }
            }
        }
    }

    /// Every engine input starts from an untouched engine: after inputs
    /// ran on copies of the built one, a copy still answers each seed's
    /// messages as a new engine does.
    #[test]
    fn engine_copies_answer_as_new_engines() {
        let outputs = |mut e: Engine, rest: &[u8]| {
            let mut out = Vec::new();
            for line in text(rest).split('\n') {
                let _owed = e.handle(line);
                while let Some(o) = e.poll_output() {
                    out.push(o);
                }
            }
            out
        };
        let seeds = files(&fuzz_dir().join("seeds").join("engine"));
        for file in &seeds {
            let data = std::fs::read(file).unwrap_or_default();
            engine(&data);
        }
        for file in &seeds {
            let data = std::fs::read(file).unwrap_or_default();
            let Some((&first, rest)) = data.split_first() else {
                continue;
            };
            let copied = outputs(fresh_engine(first), rest);
            assert!(!copied.is_empty(), "{}", file.display());
            assert_eq!(
                copied,
                outputs(build_engine(first), rest),
                "{}",
                file.display()
            );
        }
    }

    /// The shared corpus's catalogs through the catalog, lint and search
    /// targets (the fuzz seed script makes seeds of the same files).
    #[test]
    fn the_shared_corpus_passes_the_catalog_targets() {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        let catalogs: Vec<PathBuf> = files(&corpus)
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with(".tools-list.json"))
            .collect();
        assert!(!catalogs.is_empty(), "no catalogs in {}", corpus.display());
        for file in catalogs {
            let data = std::fs::read(&file).unwrap_or_default();
            catalog_every_dialect(&data);
            lint_and_budget(&data);
            let mut query = data.clone();
            query.extend_from_slice(b"\xffturn on the kitchen light");
            search(&query);
        }
    }

    // The properties can fail: each checker refuses a wrong output.

    fn converted(html: &str, options: &crate::html::HtmlOptions) -> crate::html::Page {
        crate::html::convert(html, options)
    }

    #[test]
    #[should_panic(expected = "past the limit of 10")]
    fn html_output_past_its_limit_is_caught() {
        let options = crate::html::HtmlOptions::new().with_max_output(10);
        let mut page = converted("<p>short</p>", &options);
        page.content = "x".repeat(11);
        check_html(b"<p>short</p>", &options, &page);
    }

    #[test]
    #[should_panic(expected = "text mode wrote markup")]
    fn markup_in_text_mode_is_caught() {
        let options = crate::html::HtmlOptions::new().with_format(crate::html::Format::Text);
        let html = "<h1>Title</h1><p><b>bold</b></p>";
        let mut page = converted(html, &options);
        assert_eq!(page.content, "Title\n\nbold");
        check_html(html.as_bytes(), &options, &page);
        page.content = "# Title\n\n**bold**".into();
        check_html(html.as_bytes(), &options, &page);
    }

    #[test]
    #[should_panic(expected = "kept past the limit")]
    fn html_depth_past_its_limit_is_caught() {
        let options = crate::html::HtmlOptions::new().with_max_depth(3);
        let html = "<div><div><div><div><div>deep</div></div></div></div></div>";
        let mut page = converted(html, &options);
        check_html(html.as_bytes(), &options, &page);
        page.stats.max_depth = 4;
        check_html(html.as_bytes(), &options, &page);
    }

    #[test]
    #[should_panic(expected = "steps for")]
    fn html_work_past_its_bound_is_caught() {
        let options = crate::html::HtmlOptions::new();
        let mut page = converted("<p>a</p>", &options);
        page.stats.steps = 4 * page.stats.input_bytes + 65;
        check_html(b"<p>a</p>", &options, &page);
    }

    /// One Anthropic `tool_use` block read against the built-in catalog.
    fn one_call(catalog: &Catalog, block: Value) -> ModelTurn {
        let names = convert(catalog, Dialect::Anthropic, &Options::default()).names;
        parse_calls(Dialect::Anthropic, &json!([block]), &names, Some(catalog))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    #[should_panic(expected = "has an error or a request")]
    fn a_call_with_both_an_error_and_a_request_is_caught() {
        let catalog = tools();
        let mut turn = one_call(
            &catalog,
            json!({"type": "tool_use", "id": "a", "name": "get_states", "input": {}}),
        );
        turn.calls[0].error = Some("x".into());
        check_turn(&catalog, &turn);
    }

    #[test]
    #[should_panic(expected = "bad arguments")]
    fn a_runnable_call_with_invalid_arguments_is_caught() {
        let catalog = tools();
        let mut turn = one_call(
            &catalog,
            json!({"type": "tool_use", "id": "a", "name": "set_light", "input": {"deviceId": "x"}}),
        );
        turn.calls[0].arguments = json!({"dim": 500});
        check_turn(&catalog, &turn);
    }

    #[test]
    #[should_panic(expected = "name rule")]
    fn a_name_outside_the_dialect_rule_is_caught() {
        let catalog = tools();
        let mut c = convert(&catalog, Dialect::OpenAi, &Options::default());
        c.names =
            crate::names::NameMap::from_json(&json!({"admin.tools.list": "admin.tools.list"}))
                .unwrap_or_default();
        check_conversion(&catalog, &c);
    }

    #[test]
    #[should_panic(expected = "disagree")]
    fn validations_that_disagree_are_caught() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let mut v = crate::validate_arguments(&schema, &json!({"n": "x"}));
        v.errors.clear();
        check_validation(&schema, &v, &[]);
    }

    #[test]
    #[should_panic(expected = "out of order")]
    fn hits_out_of_order_are_caught() {
        let catalog = tools();
        let index = ToolIndex::build(&catalog, None).unwrap_or_else(|e| panic!("{e}"));
        let mut found = index.search("light", &SearchOptions::new().with_limit(5));
        let mut better = found.hits[0].clone();
        better.score += 1.0;
        found.hits.push(better);
        found.total += 1;
        check_hits(&catalog, &found, 5);
    }

    #[test]
    #[should_panic(expected = "was let through")]
    fn an_origin_let_through_is_caught() {
        // the checker, on a decision that let a foreign origin pass
        let origin = "http://127.0.0.1.nip.io";
        assert!(!reference_loopback_origin(origin));
        let decision = HttpDecision::OpenStream;
        if !is_forbidden(&decision) {
            assert!(
                origin.eq_ignore_ascii_case("https://app.example")
                    || reference_loopback_origin(origin),
                "origin {origin:?} was let through"
            );
        }
    }

    #[test]
    fn the_reference_reads_loopback_authorities() {
        for ok in [
            "localhost",
            "localhost:80",
            "127.0.0.1:8765",
            "[::1]:1",
            "[::1]",
            "127.9.9.9",
        ] {
            assert!(reference_loopback_authority(ok), "{ok}");
        }
        for bad in [
            "127.0.0.1.nip.io",
            "[::1].evil",
            "localhost:",
            "localhost:99999",
            "::1",
            "evil@127.0.0.1",
        ] {
            assert!(!reference_loopback_authority(bad), "{bad}");
        }
    }

    #[test]
    #[should_panic(expected = "chunking changed the events")]
    fn events_that_change_with_chunking_are_caught() {
        // what the property compares, with one event altered
        let mut p = crate::client::SseParser::new();
        let all = p.push("data: a\n\n").unwrap_or_default();
        let mut got = all.clone();
        got[0].data.push('!');
        assert_eq!(&got, &all, "chunking changed the events");
    }

    #[test]
    fn every_target_has_a_fuzz_target_file() {
        for target in TARGETS {
            let file = fuzz_dir().join("fuzz_targets").join(format!("{target}.rs"));
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(
                text.contains(&format!("fuzzing::{target}(")),
                "{} does not run the {target} target",
                file.display()
            );
        }
        assert!(!run("no-such-target", b""));
    }
}
