//! Progressive disclosure in conversions (`hybrid`, `meta`, `native`,
//! `auto`), the native tool search read back from responses, and a
//! conversation that answers the client searches itself.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use mcp_switchboard::conversation::{Conversation, ConversationOptions, Output, ToolMode};
use mcp_switchboard::engine::Disclosure;
use mcp_switchboard::{
    budget, convert, convert_json, convert_text, format_results, parse_calls, Action, Catalog,
    Conversion, Dialect, DisclosureMode, Options, Provider, SearchWith,
};
use serde_json::{json, Value};

fn corpus() -> Vec<(String, Catalog)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("../shared/corpus").expect("../shared/corpus") {
        let path = e.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if name.ends_with(".tools-list.json") {
            let text = std::fs::read(&path).expect("read");
            out.push((name, Catalog::parse(&text).expect("a catalog")));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 8, "the corpus has its catalogs");
    out
}

fn native(search: SearchWith) -> Options {
    Options::new()
        .with_disclosure(DisclosureMode::Native)
        .with_search_with(search)
}

fn name_of(v: &Value) -> &str {
    v.get("name").and_then(Value::as_str).unwrap_or("")
}

fn deferred(v: &Value) -> bool {
    v.get("defer_loading") == Some(&Value::Bool(true))
}

fn valid_name(n: &str) -> bool {
    !n.is_empty()
        && n.len() <= 64
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Every tool of the catalog has one `deferred` or `loaded` entry.
fn each_tool_reported(name: &str, catalog: &Catalog, c: &Conversion) {
    for t in catalog.tools() {
        let n = c
            .report
            .iter()
            .filter(|e| e.tool.as_deref() == Some(t.name()))
            .filter(|e| matches!(e.action, Action::Deferred | Action::Loaded))
            .count();
        assert_eq!(n, 1, "{name}: {} has {n} deferred/loaded entries", t.name());
    }
}

#[test]
fn anthropic_native_defers_all_but_the_core_tools() {
    for (name, catalog) in corpus() {
        for (search, regex, strict) in [
            (SearchWith::Provider, false, false),
            (SearchWith::Provider, true, true),
            (SearchWith::Ours, false, false),
        ] {
            let o = native(search).with_regex_search(regex).with_strict(strict);
            let c = convert(&catalog, Dialect::Anthropic, &o);
            let loaded: Vec<&Value> = c.tools.iter().filter(|t| !deferred(t)).collect();
            let later: Vec<&Value> = c.tools.iter().filter(|t| deferred(t)).collect();
            // a tool of the catalog stays loaded (the search tool aside)
            let kept = loaded
                .iter()
                .filter(|t| {
                    c.names
                        .mcp_name(name_of(t))
                        .is_some_and(|m| catalog.get(m).is_some())
                })
                .count();
            assert!(kept >= 1, "{name}: a tool of the catalog is never deferred");
            assert!(!later.is_empty(), "{name}: tools are deferred");
            // the search tool first: the API's, or ours (a tool of its own name)
            let first = &c.tools[0];
            match (search, regex) {
                (SearchWith::Provider, false) => {
                    assert_eq!(
                        first,
                        &json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
                    )
                }
                (SearchWith::Provider, true) => {
                    assert_eq!(
                        first,
                        &json!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"})
                    )
                }
                _ => {
                    assert_eq!(name_of(first), "search_tools");
                    assert_eq!(c.names.mcp_name("search_tools"), Some("search_tools"));
                    assert!(first["input_schema"]["properties"]["query"].is_object());
                }
            }
            // every deferred tool can be named by a tool_reference: a
            // name of at most 64 characters that maps back to its tool
            for t in &later {
                let n = name_of(t);
                assert!(valid_name(n), "{name}: {n}");
                let mcp = c.names.mcp_name(n).expect("mapped");
                assert!(catalog.get(mcp).is_some());
            }
            let names: HashSet<&str> = c.tools.iter().map(name_of).collect();
            assert_eq!(names.len(), c.tools.len(), "{name}: names are unique");
            assert_eq!(loaded.len() + later.len(), catalog.len() + 1);
            assert!(c.tools.iter().all(|t| t.get("input_examples").is_none()));
            each_tool_reported(&name, &catalog, &c);
        }
    }
}

#[test]
fn openai_native_groups_the_deferred_functions_into_small_namespaces() {
    for (name, catalog) in corpus() {
        for search in [SearchWith::Provider, SearchWith::Ours] {
            let c = convert(&catalog, Dialect::OpenAiResponses, &native(search));
            let kinds: Vec<&str> = c
                .tools
                .iter()
                .map(|t| t["type"].as_str().unwrap_or(""))
                .collect();
            assert_eq!(kinds[0], "tool_search", "{name}");
            assert_eq!(
                c.tools[0].get("execution").is_some(),
                search == SearchWith::Ours
            );
            let mut every = HashSet::new();
            let mut functions = 0;
            for t in &c.tools[1..] {
                assert!(
                    every.insert(name_of(t).to_string()),
                    "{name}: {} twice",
                    name_of(t)
                );
                assert!(valid_name(name_of(t)));
                if t["type"] == "namespace" {
                    let members = t["tools"].as_array().expect("tools");
                    assert!(
                        !members.is_empty() && members.len() < 10,
                        "{name}: {} holds {}",
                        name_of(t),
                        members.len()
                    );
                    let description = t["description"].as_str().unwrap_or("");
                    for f in members {
                        assert!(deferred(f) && f["type"] == "function");
                        assert!(
                            description.contains(name_of(f)),
                            "the namespace names its functions"
                        );
                        assert!(
                            every.insert(name_of(f).to_string()),
                            "{name}: {} twice",
                            name_of(f)
                        );
                        functions += 1;
                    }
                } else {
                    assert!(!deferred(t), "{name}: a top-level tool is loaded");
                    functions += 1;
                }
            }
            assert_eq!(functions, catalog.len(), "{name}: every tool is sent");
            assert!(!deferred(&c.tools[0]), "{name}: the search tool is loaded");
            assert!(
                c.tools[1..].iter().any(|t| t["type"] == "function"),
                "{name}: a function of the catalog is never deferred"
            );
            each_tool_reported(&name, &catalog, &c);
        }
    }
}

#[test]
fn a_big_category_is_split_evenly() {
    // 24 tools: one stays loaded (no overview tool: the read-only one with
    // the fewest required parameters, the first), 23 deferred
    let tools: Vec<Value> = (0..24)
        .map(|i| json!({"name": format!("get_thing_{i}"), "description": "Read a thing", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}))
        .collect();
    let catalog = Catalog::from_value(Value::Array(tools)).unwrap();
    let c = convert(
        &catalog,
        Dialect::OpenAiResponses,
        &native(SearchWith::Provider),
    );
    assert_eq!(name_of(&c.tools[1]), "get_thing_0");
    assert!(!deferred(&c.tools[1]));
    let entry = c
        .report
        .iter()
        .find(|e| e.tool.as_deref() == Some("get_thing_0"));
    assert!(entry.is_some_and(|e| e.action == Action::Loaded && e.detail.contains("not deferred")));
    let sizes: Vec<usize> = c.tools[2..]
        .iter()
        .map(|t| t["tools"].as_array().map_or(0, Vec::len))
        .collect();
    assert_eq!(sizes, [8, 8, 7]);
    let names: Vec<&str> = c.tools[2..].iter().map(name_of).collect();
    assert_eq!(names, ["query_1", "query_2", "query_3"]);
}

#[test]
fn names_taken_by_the_catalog_are_left_to_it() {
    let catalog = Catalog::parse(
        br#"[{"name": "search_tools", "description": "Search the docs", "inputSchema": {"type": "object"}},
             {"name": "control", "description": "Turn a thing on", "inputSchema": {"type": "object", "properties": {"on": {"type": "boolean"}}}},
             {"name": "set_volume", "description": "Set the volume", "inputSchema": {"type": "object", "properties": {"v": {"type": "number"}}}}]"#,
    )
    .unwrap();
    let c = convert(&catalog, Dialect::Anthropic, &native(SearchWith::Ours));
    let ours = name_of(&c.tools[0]);
    assert_ne!(ours, "search_tools");
    assert!(ours.starts_with("search_tools"));
    assert_eq!(c.names.mcp_name("search_tools"), Some("search_tools"));
    let o = convert(
        &catalog,
        Dialect::OpenAiResponses,
        &native(SearchWith::Provider),
    );
    let all: Vec<&str> = o
        .tools
        .iter()
        .map(name_of)
        .chain(
            o.tools
                .iter()
                .filter_map(|t| t["tools"].as_array())
                .flatten()
                .map(name_of),
        )
        .filter(|n| !n.is_empty())
        .collect();
    let unique: HashSet<&&str> = all.iter().collect();
    assert_eq!(unique.len(), all.len(), "{all:?}");
}

#[test]
fn long_names_are_fitted_reversibly() {
    let long = format!("server__{}", "very_long_tool_name_".repeat(5));
    let catalog = Catalog::from_value(json!([
        {"name": long, "description": "A tool", "inputSchema": {"type": "object"}},
        {"name": format!("{long}2"), "description": "Another", "inputSchema": {"type": "object"}}
    ]))
    .unwrap();
    for d in [Dialect::Anthropic, Dialect::OpenAiResponses] {
        let c = convert(&catalog, d, &native(SearchWith::Ours));
        let mut seen = 0;
        for t in c.tools.iter().chain(
            c.tools
                .iter()
                .filter_map(|t| t["tools"].as_array())
                .flatten(),
        ) {
            // both tools, the one kept loaded and the one deferred
            if c.names
                .mcp_name(name_of(t))
                .is_some_and(|m| m.starts_with("server__"))
            {
                assert!(valid_name(name_of(t)));
                seen += 1;
            }
        }
        assert_eq!(seen, 2, "{d}");
        assert!(
            c.tools.iter().any(deferred)
                || c.tools.iter().any(|t| t["tools"]
                    .as_array()
                    .is_some_and(|f| f.iter().any(deferred)))
        );
    }
}

#[test]
fn without_native_search_native_is_hybrid_and_says_so() {
    let (_, catalog) = corpus()
        .into_iter()
        .find(|(n, _)| n.starts_with("github"))
        .unwrap();
    for d in [
        Dialect::Gemini,
        Dialect::GeminiJson,
        Dialect::OpenAi,
        Dialect::VsCode,
        Dialect::Prompted,
    ] {
        let n = convert(&catalog, d, &native(SearchWith::Ours));
        let h = convert(
            &catalog,
            d,
            &Options::new().with_disclosure(DisclosureMode::Hybrid),
        );
        assert_eq!(n.tools, h.tools, "{d}");
        assert!(
            n.report
                .iter()
                .any(|e| e.keyword == "disclosure" && e.detail.contains("no native tool search")),
            "{d}"
        );
        assert!(n.names.mcp_name("use_tool").is_some());
        each_tool_reported(d.as_str(), &catalog, &n);
    }
}

#[test]
fn a_gemini_request_never_holds_more_than_512_declarations() {
    let tools: Vec<Value> = (0..600)
        .map(|i| json!({"name": format!("tool_{i}"), "description": format!("Tool number {i}"), "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}))
        .collect();
    let text = Value::Array(tools).to_string();
    let catalog = Catalog::parse(text.as_bytes()).unwrap();
    for d in [Dialect::Gemini, Dialect::GeminiJson] {
        for mode in [DisclosureMode::All, DisclosureMode::Auto] {
            let o = Options::new().with_disclosure(mode);
            let c = convert(&catalog, d, &o);
            let n = c.tools[0]["functionDeclarations"]
                .as_array()
                .map_or(0, Vec::len);
            assert!((3..=512).contains(&n), "{d} {mode:?}: {n}");
            assert!(c.report.iter().any(|e| e.detail.contains("at most 512")));
            // the text paths say the same
            assert_eq!(convert_json(&catalog, d, &o), c.to_json_string());
            assert_eq!(convert_text(&text, d, &o).unwrap(), c.to_json_string());
        }
    }
    // other dialects send them all
    let c = convert(&catalog, Dialect::OpenAi, &Options::new());
    assert_eq!(c.tools.len(), 600);
}

#[test]
fn auto_takes_the_fewest_tokens() {
    for (name, catalog) in corpus() {
        for d in [
            Dialect::Anthropic,
            Dialect::OpenAiResponses,
            Dialect::Gemini,
        ] {
            let b = budget(&catalog, Some(d), &Disclosure::default());
            let auto = convert(
                &catalog,
                d,
                &Options::new().with_disclosure(DisclosureMode::Auto),
            );
            let least = [Some(b.all), Some(b.hybrid), b.native]
                .into_iter()
                .flatten()
                .min()
                .unwrap();
            assert_eq!(mcp_switchboard::visible_tokens(&auto), least, "{name} {d}");
            assert!(auto.report.iter().any(|e| e.detail.starts_with("auto:")));
        }
    }
    // a catalog of one small tool: all of it
    let one = Catalog::parse(br#"[{"name": "ping", "inputSchema": {"type": "object"}}]"#).unwrap();
    let c = convert(
        &one,
        Dialect::Anthropic,
        &Options::new().with_disclosure(DisclosureMode::Auto),
    );
    assert_eq!(c.tools.len(), 1);
    assert_eq!(name_of(&c.tools[0]), "ping");
}

#[test]
fn budget_counts_the_native_modes() {
    for (name, catalog) in corpus() {
        let b = budget(&catalog, Some(Dialect::Anthropic), &Disclosure::default());
        let native = b.native.expect("anthropic has native search");
        assert!(native < b.all, "{name}: {native} < {}", b.all);
        // the model reads the loaded tools and the search tool only
        let c = convert(
            &catalog,
            Dialect::Anthropic,
            &Options::new().with_disclosure(DisclosureMode::Native),
        );
        let seen: Vec<&Value> = c.tools.iter().filter(|t| !deferred(t)).collect();
        assert_eq!(
            native,
            mcp_switchboard::estimate_tokens(&serde_json::to_string(&seen).unwrap())
        );
        assert!(budget(
            &catalog,
            Some(Dialect::OpenAiResponses),
            &Disclosure::default()
        )
        .native
        .is_some());
        assert_eq!(
            budget(&catalog, Some(Dialect::Gemini), &Disclosure::default()).native,
            None
        );
        assert_eq!(budget(&catalog, None, &Disclosure::default()).native, None);
    }
}

const EXAMPLES: &[u8] = br#"[
  {"name": "set_light", "description": "Set a light",
   "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}, "level": {"type": "integer", "maximum": 100}},
     "required": ["room"], "examples": [{"room": "kitchen", "level": 40}, {"room": 3}]},
   "annotations": {"examples": [{"input": {"room": "hall"}, "description": "just on"}, {"room": "kitchen", "level": 40}, {"level": 500}]}},
  {"name": "get_states", "description": "Every state", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object"}}
]"#;

#[test]
fn anthropic_sends_the_examples_that_fit_but_not_beside_a_tool_search() {
    let catalog = Catalog::parse(EXAMPLES).unwrap();
    let text = std::str::from_utf8(EXAMPLES).unwrap();
    for strict in [false, true] {
        let o = Options::strict(strict);
        let c = convert(&catalog, Dialect::Anthropic, &o);
        assert_eq!(
            c.tools[0]["input_examples"],
            json!([{"room": "kitchen", "level": 40}, {"room": "hall"}])
        );
        let dropped: Vec<&str> = c
            .report
            .iter()
            .filter(|e| e.detail.contains("input_examples"))
            .map(|e| e.pointer.as_str())
            .collect();
        assert_eq!(
            dropped,
            ["/0/inputSchema/examples/1", "/0/annotations/examples/2"]
        );
        assert!(c.tools[1].get("input_examples").is_none());
        assert_eq!(
            convert_text(text, Dialect::Anthropic, &o).unwrap(),
            c.to_json_string()
        );
        assert_eq!(
            convert_json(&catalog, Dialect::Anthropic, &o),
            c.to_json_string()
        );
    }
    let n = convert(&catalog, Dialect::Anthropic, &native(SearchWith::Provider));
    assert!(n.tools.iter().all(|t| t.get("input_examples").is_none()));
    assert!(n
        .report
        .iter()
        .any(|e| e.keyword == "input_examples" && e.action == Action::Dropped));
    for d in [
        Dialect::OpenAi,
        Dialect::OpenAiResponses,
        Dialect::GeminiJson,
    ] {
        assert!(!convert(&catalog, d, &Options::new())
            .to_json_string()
            .contains("input_examples"));
    }
}

#[test]
fn anthropic_search_blocks_are_kept_and_never_calls() {
    let catalog = Catalog::parse(EXAMPLES).unwrap();
    let c = convert(&catalog, Dialect::Anthropic, &native(SearchWith::Provider));
    let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "text", "text": "Let me look."},
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_bm25", "input": {"query": "light"}, "caller": {"type": "direct"}},
        {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1", "content": {"type": "tool_search_tool_search_result", "tool_references": [{"type": "tool_reference", "tool_name": "set_light"}]}},
        {"type": "tool_use", "id": "toolu_1", "name": "set_light", "input": {"room": "kitchen"}, "caller": {"type": "direct"}}
    ]});
    let turn = parse_calls(Dialect::Anthropic, &response, &c.names, Some(&catalog)).unwrap();
    assert_eq!(turn.calls.len(), 1);
    assert_eq!(turn.calls[0].name, "set_light");
    assert_eq!(turn.searches.len(), 1);
    assert_eq!(turn.searches[0].id, "srvtoolu_1");
    assert!(!turn.searches[0].client);
    assert_eq!(turn.searches[0].loaded, ["set_light"]);
    assert_eq!(turn.assistant[0]["content"], response["content"]);
    // a search that loaded nothing, and nothing else: no call
    let only = json!({"stop_reason": "end_turn", "content": [
        {"type": "server_tool_use", "id": "s", "name": "tool_search_tool_regex", "input": {"query": "zz"}},
        {"type": "tool_search_tool_result", "tool_use_id": "s", "content": {"type": "tool_search_tool_result_error", "error_code": "unavailable"}}]});
    let turn = parse_calls(Dialect::Anthropic, &only, &c.names, None).unwrap();
    assert!(
        turn.calls.is_empty() && turn.searches.len() == 1 && turn.searches[0].loaded.is_empty()
    );
}

#[test]
fn openai_search_items_are_kept_and_never_calls() {
    let catalog = Catalog::parse(EXAMPLES).unwrap();
    let c = convert(
        &catalog,
        Dialect::OpenAiResponses,
        &native(SearchWith::Provider),
    );
    let response = json!({"object": "response", "output": [
        {"type": "tool_search_call", "id": "tsc_1", "call_id": null, "execution": "server", "status": "completed", "arguments": {"query": "light"}},
        {"type": "tool_search_output", "id": "tso_1", "call_id": null, "execution": "server", "status": "completed",
         "tools": [{"type": "namespace", "name": "control", "description": "x", "tools": [{"type": "function", "name": "set_light", "parameters": null, "strict": null, "defer_loading": true}]}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "namespace": "control", "name": "set_light", "arguments": "{\"room\": \"hall\"}", "status": "completed"}
    ]});
    let turn = parse_calls(
        Dialect::OpenAiResponses,
        &response,
        &c.names,
        Some(&catalog),
    )
    .unwrap();
    assert_eq!(turn.calls.len(), 1);
    assert_eq!(turn.calls[0].arguments, json!({"room": "hall"}));
    assert_eq!(turn.searches[0].loaded, ["set_light"]);
    assert_eq!(
        turn.assistant,
        response["output"].as_array().unwrap().clone()
    );
    let client = json!({"output": [{"type": "tool_search_call", "id": "tsc_2", "call_id": "call_s", "execution": "client", "status": "completed", "arguments": "{\"query\": \"licht aan\"}"}]});
    let turn = parse_calls(Dialect::OpenAiResponses, &client, &c.names, None).unwrap();
    assert!(turn.calls.is_empty());
    assert!(turn.searches[0].client);
    assert_eq!(turn.searches[0].id, "call_s");
    // as the model wrote them (the SDKs type them `unknown`)
    assert_eq!(
        turn.searches[0].arguments,
        json!("{\"query\": \"licht aan\"}")
    );
}

#[test]
fn a_tool_reference_result_is_written_as_tool_reference_blocks() {
    let names = convert(
        &Catalog::parse(EXAMPLES).unwrap(),
        Dialect::Anthropic,
        &native(SearchWith::Ours),
    )
    .names;
    let response = json!({"content": [{"type": "tool_use", "id": "t1", "name": "search_tools", "input": {"query": "light"}}]});
    let turn = parse_calls(Dialect::Anthropic, &response, &names, None).unwrap();
    let items = format_results(
        Dialect::Anthropic,
        &turn,
        &json!([{"content": [{"type": "tool_reference", "tool_name": "set_light"}]}]),
    )
    .unwrap();
    assert_eq!(
        items[0]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "tool_reference", "tool_name": "set_light"}]})
    );
}

// --- the conversation ----------------------------------------------------

const HOME: &[u8] = br#"[
  {"name": "get_states", "description": "Read the state of every device", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object"}},
  {"name": "set_light", "description": "Turn a light on or off, or dim it", "inputSchema": {"type": "object", "properties": {"room": {"type": "string"}, "on": {"type": "boolean"}}, "required": ["room"]}},
  {"name": "set_thermostat", "description": "Set the target temperature of a thermostat", "inputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}},
  {"name": "lock_door", "description": "Lock or unlock a door", "inputSchema": {"type": "object", "properties": {"door": {"type": "string"}}, "required": ["door"]}}
]"#;

fn outputs(c: &mut Conversation) -> Vec<Output> {
    std::iter::from_fn(|| c.poll_output()).collect()
}

/// Answers the pending request with `body`; the outputs after.
fn reply(c: &mut Conversation, outs: &[Output], body: Value) -> Vec<Output> {
    let id = outs
        .iter()
        .find_map(|o| match o {
            Output::Request(r) => Some(r.id),
            _ => None,
        })
        .expect("a request");
    c.handle_response(id, 200, &[], 0);
    c.handle_body(id, body.to_string().as_bytes(), 0);
    c.handle_end(id, 0);
    outputs(c)
}

fn body_of(outs: &[Output]) -> Value {
    outs.iter()
        .find_map(|o| match o {
            Output::Request(r) => serde_json::from_str(&r.body).ok(),
            _ => None,
        })
        .expect("a request")
}

fn calls(outs: &[Output]) -> Vec<(String, String, Value)> {
    outs.iter()
        .filter_map(|o| match o {
            Output::Call(c) => Some((c.id.clone(), c.name.clone(), c.arguments.clone())),
            _ => None,
        })
        .collect()
}

fn chat(provider: Provider, search: SearchWith) -> Conversation {
    let options = ConversationOptions::new("m")
        .with_mode(ToolMode::Native)
        .with_search_with(search);
    Conversation::new(provider, Catalog::parse(HOME).unwrap(), options)
}

#[test]
fn anthropic_client_search_is_answered_with_tool_references() {
    let mut c = chat(Provider::Anthropic, SearchWith::Ours);
    c.send("zet de keukenlamp aan", 0).unwrap();
    let outs = outputs(&mut c);
    let tools = body_of(&outs)["tools"].as_array().unwrap().clone();
    assert_eq!(name_of(&tools[0]), "search_tools");
    let later: Vec<&str> = tools.iter().filter(|t| deferred(t)).map(name_of).collect();
    assert_eq!(later, ["set_light", "set_thermostat", "lock_door"]);
    // the model searches (in Dutch): answered here, no call for the host
    let outs = reply(
        &mut c,
        &outs,
        json!({"stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "s1", "name": "search_tools", "input": {"query": "lamp aan", "limit": 2}}]}),
    );
    assert!(calls(&outs).is_empty());
    let body = body_of(&outs);
    let result = &body["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["tool_use_id"], "s1");
    let refs: Vec<&str> = result["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert_eq!(b["type"], "tool_reference");
            b["tool_name"].as_str().unwrap()
        })
        .collect();
    assert_eq!(refs[0], "set_light");
    assert!(refs.len() <= 2);
    for r in &refs {
        assert!(
            later.contains(r),
            "a reference names a deferred tool of the request"
        );
    }
    // the loaded tool is called, and runs on the host
    let outs = reply(
        &mut c,
        &outs,
        json!({"stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "t1", "name": "set_light", "input": {"room": "keuken", "on": true}}]}),
    );
    assert_eq!(
        calls(&outs),
        [(
            "t1".to_string(),
            "set_light".to_string(),
            json!({"room": "keuken", "on": true})
        )]
    );
}

#[test]
fn openai_client_search_is_answered_with_a_tool_search_output() {
    let mut c = chat(Provider::OpenAiResponses, SearchWith::Ours);
    c.send("make it warmer", 0).unwrap();
    let outs = outputs(&mut c);
    let tools = body_of(&outs)["tools"].as_array().unwrap().clone();
    assert_eq!(tools[0]["execution"], "client");
    let outs = reply(
        &mut c,
        &outs,
        json!({"object": "response", "status": "completed", "output": [
        {"type": "tool_search_call", "id": "ts_1", "call_id": "call_s", "execution": "client", "status": "completed", "arguments": {"query": "thermostat temperature"}}]}),
    );
    assert!(calls(&outs).is_empty());
    let input = body_of(&outs)["input"].as_array().unwrap().clone();
    let output = input
        .iter()
        .find(|i| i["type"] == "tool_search_output")
        .expect("a tool_search_output");
    assert_eq!(output["call_id"], "call_s");
    assert_eq!(output["execution"], "client");
    let loaded = &output["tools"][0];
    assert_eq!(loaded["type"], "namespace");
    assert_eq!(loaded["tools"][0]["name"], "set_thermostat");
    // the namespace is one of the request's
    assert!(tools.iter().any(|t| t["name"] == loaded["name"]));
    let outs = reply(
        &mut c,
        &outs,
        json!({"object": "response", "status": "completed", "output": [
        {"type": "function_call", "id": "fc", "call_id": "c1", "namespace": loaded["name"], "name": "set_thermostat", "arguments": "{\"temperature\": 21}"}]}),
    );
    assert_eq!(calls(&outs)[0].1, "set_thermostat");
}

#[test]
fn anthropic_provider_search_goes_back_verbatim_and_a_paused_turn_goes_on() {
    let mut c = chat(Provider::Anthropic, SearchWith::Provider);
    c.send("lock the front door", 0).unwrap();
    let outs = outputs(&mut c);
    assert_eq!(
        body_of(&outs)["tools"][0]["type"],
        "tool_search_tool_bm25_20251119"
    );
    let blocks = json!([
        {"type": "server_tool_use", "id": "srv", "name": "tool_search_tool_bm25", "input": {"query": "lock door"}},
        {"type": "tool_search_tool_result", "tool_use_id": "srv", "content": {"type": "tool_search_tool_search_result", "tool_references": [{"type": "tool_reference", "tool_name": "lock_door"}]}}]);
    let outs = reply(
        &mut c,
        &outs,
        json!({"stop_reason": "pause_turn", "content": blocks}),
    );
    let body = body_of(&outs);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2, "the paused turn is sent back as it is");
    assert_eq!(messages[1]["content"], blocks);
    let outs = reply(
        &mut c,
        &outs,
        json!({"stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "t", "name": "lock_door", "input": {"door": "front"}}]}),
    );
    assert_eq!(calls(&outs)[0].1, "lock_door");
}

#[test]
fn native_elsewhere_is_hybrid() {
    let mut c = chat(Provider::Gemini, SearchWith::Ours);
    c.send("hi", 0).unwrap();
    let body = body_of(&outputs(&mut c));
    let names: Vec<&str> = body["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(name_of)
        .collect();
    assert_eq!(
        names,
        [
            "get_states",
            "search_tools",
            "get_tool_definition",
            "use_tool"
        ]
    );
    assert!(c
        .tools()
        .report
        .iter()
        .any(|e| e.detail.contains("no native tool search")));
}

/// The first request of a conversation in `mode`, and its size.
fn first_request(
    provider: Provider,
    catalog: &Catalog,
    mode: ToolMode,
) -> mcp_switchboard::conversation::ModelRequest {
    let options = ConversationOptions::new("m").with_mode(mode);
    let mut c = Conversation::new(provider, catalog.clone(), options);
    c.send("turn on the kitchen light", 0).unwrap();
    outputs(&mut c)
        .into_iter()
        .find_map(|o| match o {
            Output::Request(r) => Some(r),
            _ => None,
        })
        .expect("a request")
}

#[test]
fn each_request_says_how_much_it_carries_and_how_much_is_deferred() {
    for (name, catalog) in corpus() {
        let n = catalog.len();
        for provider in [
            Provider::Anthropic,
            Provider::OpenAiResponses,
            Provider::OpenAi,
            Provider::Gemini,
        ] {
            let all = first_request(provider, &catalog, ToolMode::All);
            let hybrid = first_request(provider, &catalog, ToolMode::Hybrid);
            let native = first_request(provider, &catalog, ToolMode::Native);
            let at = format!("{name} {provider:?}");
            // the estimate is the body's, whatever the mode
            for r in [&all, &hybrid, &native] {
                assert!(r.size.tokens > 0, "{at}");
                assert!(r.size.deferred_tokens < r.size.tokens, "{at}");
                assert!(r.size.deferred_tools <= r.size.tools, "{at}");
            }
            assert_eq!(all.size.deferred_tools, 0, "{at}");
            assert_eq!(hybrid.size.deferred_tokens, 0, "{at}");
            if provider != Provider::Gemini || n <= 512 {
                assert_eq!(all.size.tools, n, "{at}: every tool");
            }
            if n > 20 {
                assert!(
                    hybrid.size.tokens < all.size.tokens,
                    "{at}: hybrid is smaller"
                );
            }
            let has_native = matches!(provider, Provider::Anthropic | Provider::OpenAiResponses);
            if has_native && n > 20 {
                // every tool goes, most of them deferred; what the model reads is near hybrid
                assert!(native.size.deferred_tools > 0, "{at}");
                assert!(native.size.tools >= n, "{at}");
                assert!(native.size.deferred_tokens > 0, "{at}");
                let read = native.size.tokens - native.size.deferred_tokens;
                assert!(
                    read < all.size.tokens,
                    "{at}: {read} read of {}",
                    all.size.tokens
                );
            } else if !has_native {
                assert_eq!(native.size, hybrid.size, "{at}: native is hybrid here");
            }
        }
    }
}
