//! The sans-I/O MCP engine: messages in, outputs drained.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use mcp_switchboard::engine::{
    Disclosure, Engine, EngineConfig, Exposure, Mode, Notice, Output, Reply,
};
use mcp_switchboard::{Catalog, ErrorKind, Misuse};
use serde_json::{json, Value};

fn homey() -> Catalog {
    Catalog::parse(&common::corpus(
        "homey-ai-chat-control-2.2.1.tools-list.json",
    ))
    .unwrap()
}

fn config(mode: Mode) -> EngineConfig {
    let mut c = EngineConfig::default();
    let mut d = Disclosure::default();
    d.mode = mode;
    c.disclosure = d;
    c
}

/// Sends a message; returns the replies and notifications as JSON, and the invocations.
fn send(e: &mut Engine, msg: Value) -> (Vec<Value>, Vec<mcp_switchboard::engine::Invocation>) {
    let _ = e.handle(&msg.to_string());
    drain(e)
}

fn drain(e: &mut Engine) -> (Vec<Value>, Vec<mcp_switchboard::engine::Invocation>) {
    let mut msgs = Vec::new();
    let mut invs = Vec::new();
    while let Some(o) = e.poll_output() {
        match o {
            Output::Reply(Reply { message: s, .. })
            | Output::Notification(Notice { message: s, .. }) => {
                msgs.push(serde_json::from_str(&s).unwrap())
            }
            Output::Invoke(i) => invs.push(i),
            _ => {}
        }
    }
    (msgs, invs)
}

fn init(e: &mut Engine) {
    let (r, _) = send(
        e,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    );
    assert_eq!(r[0]["result"]["protocolVersion"], "2025-11-25");
    send(
        e,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
}

#[test]
fn initialize_negotiates_the_version() {
    for (asked, got) in [
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2024-11-05", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let mut e = Engine::new(homey(), EngineConfig::default());
        let (r, _) = send(
            &mut e,
            json!({"jsonrpc": "2.0", "id": "i", "method": "initialize", "params": {"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        );
        assert_eq!(r[0]["id"], "i");
        assert_eq!(r[0]["result"]["protocolVersion"], got);
        assert_eq!(r[0]["result"]["capabilities"]["tools"]["listChanged"], true);
        assert_eq!(e.protocol_version(), Some(got));
    }
}

#[test]
fn wire_errors_have_the_right_codes_and_ids() {
    let mut e = Engine::new(homey(), EngineConfig::default());
    let cases = [
        ("{not json", Value::Null, -32700),
        ("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", Value::Null, -32600),
        ("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"nope\"}", json!(5), -32601),
        ("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"tools/call\",\"params\":{}}", json!("x"), -32602),
        ("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\"}}", json!(6), -32602),
        ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"cursor\":\"garbage\"}}", json!(7), -32602),
        ("{\"id\":8,\"method\":\"ping\"}", json!(8), -32600),
    ];
    for (msg, id, code) in cases {
        let _ = e.handle(msg);
        let (r, _) = drain(&mut e);
        assert_eq!(r.len(), 1, "{msg}");
        assert_eq!(r[0]["id"], id, "{msg}");
        assert_eq!(r[0]["error"]["code"], code, "{msg}");
    }
    // notifications and responses get no reply
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "method": "notifications/whatever"}),
    );
    assert!(r.is_empty());
    let (r, _) = send(&mut e, json!({"jsonrpc": "2.0", "id": 3, "result": {}}));
    assert!(r.is_empty());
    let (r, _) = send(&mut e, json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}));
    assert_eq!(r[0], json!({"jsonrpc": "2.0", "id": 9, "result": {}}));
}

#[test]
fn tools_list_pages_with_opaque_cursors() {
    let mut c = config(Mode::All);
    c.page_size = 5;
    let mut e = Engine::new(homey(), c);
    init(&mut e);
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        let mut params = json!({});
        if let Some(c) = &cursor {
            params["cursor"] = json!(c);
        }
        let (r, _) = send(
            &mut e,
            json!({"jsonrpc": "2.0", "id": page, "method": "tools/list", "params": params}),
        );
        let res = &r[0]["result"];
        names.extend(
            res["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_string()),
        );
        match res.get("nextCursor") {
            Some(c) => cursor = Some(c.as_str().unwrap().to_string()),
            None => break,
        }
    }
    assert_eq!(names.len(), 14);
    // a cursor from before a change is refused
    let stale = cursor.unwrap_or_default();
    e.set_mode(Mode::Hybrid);
    let (r, _) = drain(&mut e);
    assert_eq!(r[0]["method"], "notifications/tools/list_changed");
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list", "params": {"cursor": "o5g0"}}),
    );
    assert_eq!(r[0]["error"]["code"], -32602, "{stale}");
}

/// A mode change keeps the search index of the same tools: the engine
/// lists and searches as one built in the new mode.
#[test]
fn a_mode_change_answers_as_an_engine_built_in_that_mode() {
    let mut changed = Engine::new(homey(), config(Mode::All));
    init(&mut changed);
    for mode in [Mode::Meta, Mode::All, Mode::Hybrid, Mode::Meta] {
        changed.set_mode(mode);
    }
    let mut built = Engine::new(homey(), config(Mode::Meta));
    init(&mut built);
    drain(&mut changed);
    for (id, query) in ["turn on the light", "thermostat", "flows", "zzz"]
        .into_iter()
        .enumerate()
    {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "search_tools", "arguments": {"query": query}}});
        let (a, _) = send(&mut changed, call.clone());
        let (b, _) = send(&mut built, call);
        assert_eq!(a, b, "{query}");
        assert!(a[0]["result"]["structuredContent"]["hits"].is_array());
    }
    let list = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"});
    assert_eq!(send(&mut changed, list.clone()).0, send(&mut built, list).0);
}

#[test]
fn tools_call_invokes_the_host_and_answers_later() {
    let mut e = Engine::new(homey(), EngineConfig::default());
    init(&mut e);
    let (r, inv) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "set_light", "arguments": {"deviceId": "d1", "state": "on", "dim": "40"}}}),
    );
    assert!(r.is_empty());
    assert_eq!(inv.len(), 1);
    assert_eq!(inv[0].tool, "set_light");
    assert_eq!(
        inv[0].arguments,
        json!({"deviceId": "d1", "state": "on", "dim": 40}),
        "coerced"
    );
    // a second one while the first is outstanding
    let (_, inv2) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_states", "arguments": {}}}),
    );
    assert_eq!(e.outstanding(), 2);
    e.complete(
        inv2[0].id,
        &json!({"content": [{"type": "text", "text": "states"}]}),
    )
    .unwrap();
    e.fail(inv[0].id, "device offline").unwrap();
    let (r, _) = drain(&mut e);
    assert_eq!(r[0]["id"], 2);
    assert_eq!(r[0]["result"]["content"][0]["text"], "states");
    assert_eq!(r[1]["id"], "a");
    assert_eq!(r[1]["result"]["isError"], true);
    // misuse is a typed error
    let err = e.complete(inv[0].id, &json!({"content": []})).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Usage);
    assert_eq!(err.misuse(), Some(Misuse::NotOutstanding));
}

#[test]
fn handle_says_whether_a_reply_is_owed() {
    let mut e = Engine::new(homey(), EngineConfig::default());
    init(&mut e);
    assert!(e.handle(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#));
    assert!(e.handle("{oops"), "a parse error is answered");
    assert!(e.handle("[]"), "a batch is answered as invalid");
    assert!(!e.handle(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#));
    assert!(!e.handle(r#"{"jsonrpc":"2.0","id":9,"result":{}}"#));
    let (r, _) = drain(&mut e);
    assert_eq!(r.len(), 3);
}

#[test]
fn results_as_text_are_checked_and_passed_on_compact() {
    let mut e = Engine::new(homey(), EngineConfig::default());
    init(&mut e);
    let call = |e: &mut Engine, id: i64| {
        let (_, inv) = send(
            e,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "get_states", "arguments": {}}}),
        );
        inv[0].id
    };
    // spaced-out text is compacted (an SSE data line must not break)
    let inv = call(&mut e, 1);
    e.complete_json(inv, "{ \"content\": [ {\"type\": \"text\", \"text\": \"a b\\n\"} ],\n \"structuredContent\": {\"n\": 1} }")
        .unwrap();
    let Some(Output::Reply(Reply { message: text, .. })) = e.poll_output() else {
        panic!("a reply")
    };
    assert_eq!(
        text,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a b\n"}],"structuredContent":{"n":1}}}"#
    );
    // not JSON, no content array, structuredContent not an object: answered
    // as an internal error, reported as a shape error
    for bad in [
        "{oops",
        r#"{"content":{}}"#,
        r#"{"content":[],"structuredContent":null}"#,
        r#"[{"content":[]}]"#,
    ] {
        let inv = call(&mut e, 2);
        let err = e.complete_json(inv, bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Shape, "{bad}");
        let (r, _) = drain(&mut e);
        assert_eq!(r[0]["error"]["code"], -32603, "{bad}");
        assert_eq!(r[0]["id"], 2);
    }
}

/// What a reply says, with what `complete_value_json` gave back.
fn value_outcome(e: &mut Engine, value: &str) -> (Option<String>, Option<ErrorKind>, Vec<Value>) {
    let (_, inv) = send(
        e,
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get_states", "arguments": {}}}),
    );
    let (failed, kind) = match e.complete_value_json(inv[0].id, value) {
        Ok(f) => (f, None),
        Err(err) => (None, Some(err.kind())),
    };
    (failed, kind, drain(e).0)
}

#[test]
fn handler_values_are_answered_as_as_tool_result_text_then_complete_json() {
    // the one-pass completion answers exactly as the two steps it replaces:
    // shaping by as_tool_result_text (its error failing the call as a tool
    // error), then complete_json
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let deep_result = |n: usize| {
        format!(
            r#"{{"content":[],"structuredContent":{{"a":{}}}}}"#,
            deep(n)
        )
    };
    let mut values: Vec<String> = [
        r#"{"content":[{"type":"text","text":"hi"}],"structuredContent":{"n":1}}"#,
        "{ \"content\": [ ],\n \"isError\": true }",
        r#"{"content":[],"structuredContent":null}"#,
        r#"{"content":[],"structuredContent":[1]}"#,
        r#"{"content":{}}"#,
        r#"{"content":"text"}"#,
        r#"{"on":true,"dim":0.5}"#,
        r#"{"success":false,"error":"x"}"#,
        r#"[1,2]"#,
        r#""just text""#,
        "null",
        "42",
        " { \"a\" : [ 1 , 2 ] } ",
        "{oops",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for n in [120, 123, 124, 125, 126, 127, 128] {
        values.push(deep(n));
        values.push(deep_result(n));
        values.push(format!(r#"{{"a":{}}}"#, deep(n)));
    }
    let mut one = Engine::new(homey(), EngineConfig::default());
    let mut two = Engine::new(homey(), EngineConfig::default());
    init(&mut one);
    init(&mut two);
    for v in &values {
        let got = value_outcome(&mut one, v);
        let (_, inv) = send(
            &mut two,
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get_states", "arguments": {}}}),
        );
        let want = match mcp_switchboard::client::as_tool_result_text(v) {
            Ok(text) => (
                None,
                two.complete_json(inv[0].id, &text).err().map(|e| e.kind()),
            ),
            Err(err) => {
                let message = err.to_string();
                two.fail(inv[0].id, &message).unwrap();
                (Some(message), None)
            }
        };
        assert_eq!((got.0, got.1), want, "{v:.80}");
        assert_eq!(got.2, drain(&mut two).0, "{v:.80}");
    }
    // the common case passes as it is written, compacted
    let (failed, kind, r) = value_outcome(
        &mut one,
        r#"{"content": [], "structuredContent": {"n": 1}}"#,
    );
    assert_eq!((failed, kind), (None, None));
    assert_eq!(
        r[0]["result"],
        json!({"content": [], "structuredContent": {"n": 1}})
    );
    // a plain value is a success result holding it
    let (_, _, r) = value_outcome(&mut one, r#"{"on":true}"#);
    assert_eq!(
        r[0]["result"]["structuredContent"],
        json!({"success": true, "on": true})
    );
    // text that is not JSON fails the call as the tool's error
    let (failed, _, r) = value_outcome(&mut one, "{oops");
    assert!(failed.is_some_and(|m| !m.is_empty()));
    assert_eq!(r[0]["result"]["isError"], true);
}

#[test]
fn invalid_arguments_are_tool_errors_not_protocol_errors() {
    let mut e = Engine::new(homey(), EngineConfig::default());
    init(&mut e);
    let (r, inv) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "set_light", "arguments": {"state": "purple"}}}),
    );
    assert!(inv.is_empty());
    let res = &r[0]["result"];
    assert_eq!(res["isError"], true);
    let text = res["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("/state") && text.contains("deviceId"),
        "{text}"
    );
}

#[test]
fn a_new_catalog_validates_with_its_own_schemas() {
    // the engine reads each tool's schema once, on its first call: a
    // catalog set later, with the same tool changed, is read anew
    let tool = |schema: Value| {
        Catalog::parse(
            json!([{"name": "dim", "inputSchema": schema}])
                .to_string()
                .as_bytes(),
        )
        .unwrap()
    };
    let level = |maximum: u32| {
        json!({"type": "object", "properties": {"level": {"type": "integer", "maximum": maximum}},
               "required": ["level"]})
    };
    let call = |id: u32| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "dim", "arguments": {"level": "80"}}})
    };
    let mut e = Engine::new(tool(level(50)), EngineConfig::default());
    init(&mut e);
    for id in 1..3 {
        let (r, inv) = send(&mut e, call(id));
        assert!(inv.is_empty());
        assert_eq!(r[0]["result"]["isError"], true, "{r:?}");
    }
    e.set_catalog(tool(level(100)));
    for id in 3..5 {
        let (_, inv) = send(&mut e, call(id));
        assert_eq!(inv.len(), 1);
        assert_eq!(inv[0].arguments, json!({"level": 80}));
    }
}

#[test]
fn cancellation_drops_the_invocation() {
    let mut e = Engine::new(homey(), EngineConfig::default());
    init(&mut e);
    let (_, inv) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {"name": "get_states"}}),
    );
    // a notification is owed no reply
    assert!(!e.handle(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 42, "reason": "user"}}).to_string()));
    let mut cancelled = Vec::new();
    while let Some(o) = e.poll_output() {
        if let Output::Cancel(id) = o {
            cancelled.push(id);
        } else {
            panic!("no reply for a cancelled request: {o:?}");
        }
    }
    assert_eq!(cancelled, vec![inv[0].id]);
    assert!(e.complete(inv[0].id, &json!({"content": []})).is_err());
}

#[test]
fn hybrid_mode_lists_core_and_meta_tools_and_routes_use_tool() {
    let mut e = Engine::new(homey(), config(Mode::Hybrid));
    init(&mut e);
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let names: Vec<&str> = r[0]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"get_home_structure") && names.contains(&"get_states"),
        "{names:?}"
    );
    assert!(
        names.ends_with(&["search_tools", "get_tool_definition", "use_tool"]),
        "{names:?}"
    );
    assert!(names.len() <= 6);
    let search_schema = &r[0]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "search_tools")
        .unwrap()["inputSchema"];
    assert_eq!(search_schema["required"], json!(["query"]));
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search_tools", "arguments": {"query": "turn on the light"}}}),
    );
    let hits = &r[0]["result"]["structuredContent"]["hits"];
    assert_eq!(hits[0]["name"], "set_light", "{hits}");
    assert!(hits[0]["parameters"].as_str().unwrap().contains("deviceId"));
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_tool_definition", "arguments": {"name": "set_light"}}}),
    );
    assert_eq!(
        r[0]["result"]["structuredContent"]["definition"]["name"],
        "set_light"
    );
    let (r, inv) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "use_tool", "arguments": {"name": "set_light", "arguments": {"deviceId": "x", "state": "on"}}}}),
    );
    assert!(r.is_empty());
    assert_eq!(inv[0].tool, "set_light");
    e.complete(
        inv[0].id,
        &json!({"content": [{"type": "text", "text": "ok"}]}),
    )
    .unwrap();
    let (r, _) = drain(&mut e);
    assert_eq!(r[0]["id"], 4);
    // unknown names suggest the closest ones
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "use_tool", "arguments": {"name": "set_lights", "arguments": {}}}}),
    );
    let text = r[0]["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        r[0]["result"]["isError"] == true && text.contains("set_light"),
        "{text}"
    );
}

#[test]
fn hidden_tools_are_unreachable_everywhere() {
    let mut c = config(Mode::Hybrid);
    let mut x = Exposure::default();
    x.deny = vec!["trigger_any_flow".into()];
    c.exposure = x;
    let mut e = Engine::new(homey(), c);
    init(&mut e);
    let (r, inv) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "trigger_any_flow", "arguments": {"command": "x"}}}),
    );
    assert_eq!(r[0]["error"]["code"], -32602);
    assert!(inv.is_empty());
    let (r, inv) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "use_tool", "arguments": {"name": "trigger_any_flow", "arguments": {"command": "x"}}}}),
    );
    assert_eq!(r[0]["result"]["isError"], true);
    assert!(inv.is_empty());
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search_tools", "arguments": {"query": "trigger flow"}}}),
    );
    assert!(!r[0]["result"]["structuredContent"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["name"] == "trigger_any_flow"));
    // read-only exposure
    let mut c = config(Mode::All);
    let mut x = Exposure::default();
    x.read_only = true;
    c.exposure = x;
    let gh = Catalog::parse(&common::corpus("github-mcp-server.tools-list.json")).unwrap();
    let mut e = Engine::new(gh.clone(), c);
    init(&mut e);
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let listed = r[0]["result"]["tools"].as_array().unwrap();
    assert!(listed
        .iter()
        .all(|t| t["annotations"]["readOnlyHint"] == true));
    assert!(listed.len() < gh.len());
}

#[test]
fn auto_mode_switches_on_size() {
    let gh = Catalog::parse(&common::corpus("github-mcp-server.tools-list.json")).unwrap();
    let auto = Mode::Auto {
        context_tokens: 128_000,
        share: 0.05,
    };
    let mut e = Engine::new(gh, config(auto));
    init(&mut e);
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    assert!(r[0]["result"]["tools"].as_array().unwrap().len() < 10);
    let mut e = Engine::new(
        homey(),
        config(Mode::Auto {
            context_tokens: 1_000_000,
            share: 0.5,
        }),
    );
    init(&mut e);
    let (r, _) = send(
        &mut e,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    assert_eq!(r[0]["result"]["tools"].as_array().unwrap().len(), 14);
}

#[test]
fn token_budget_per_mode() {
    use mcp_switchboard::{budget, Dialect};
    for (file, max_share) in [
        ("github-mcp-server.tools-list.json", 0.10),
        ("homey-ai-chat-control-2.2.1.tools-list.json", 0.40),
        ("home-assistant-2025.4.tools-list.json", 0.40),
    ] {
        let cat = Catalog::parse(&common::corpus(file)).unwrap();
        for d in [None, Some(Dialect::Gemini), Some(Dialect::OpenAi)] {
            let b = budget(&cat, d, &Disclosure::default());
            assert!(b.meta < b.hybrid && b.hybrid < b.all, "{file} {d:?}: {b:?}");
            let share = b.hybrid as f64 / b.all as f64;
            assert!(
                share <= max_share,
                "{file} {d:?}: hybrid is {:.0}% of all",
                share * 100.0
            );
        }
    }
}

#[test]
fn default_core_tools_are_read_only_overviews() {
    use mcp_switchboard::budget;
    use mcp_switchboard::engine::Disclosure;
    let expect = [
        (
            "homey-ai-chat-control-2.2.1.tools-list.json",
            vec!["get_home_structure", "get_flow_overview", "get_states"],
        ),
        (
            "home-assistant-2025.4.tools-list.json",
            vec!["GetLiveContext"],
        ),
        // read-only (its destructiveHint means nothing then), behind a namespace
        (
            "home-assistant-2026.11.tools-list.json",
            vec!["homeassistant__GetLiveContext"],
        ),
        ("github-mcp-server.tools-list.json", vec!["get_me"]),
    ];
    for (file, core) in expect {
        let cat = Catalog::parse(&common::corpus(file)).unwrap();
        assert_eq!(
            budget(&cat, None, &Disclosure::default()).core,
            core,
            "{file}"
        );
    }
}

#[test]
fn forked_engines_share_what_is_served_and_follow_changes_made_once() {
    let mut shared = Engine::new(homey(), config(Mode::All));
    let mut a = shared.fork();
    let mut b = shared.fork();
    init(&mut a);
    init(&mut b);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let (from_a, _) = send(&mut a, list.clone());
    let (from_shared, _) = send(&mut shared, list.clone());
    assert_eq!(from_a, from_shared);
    assert_eq!(a.tool_count(), shared.tool_count());
    // a fork has a client of its own: its session state is not shared
    assert_eq!(a.protocol_version(), Some("2025-11-25"));
    assert_eq!(shared.protocol_version(), None);
    // calls validate against the schemas of what is served
    let name = from_a[0]["result"]["tools"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": {}}});
    let (rb, ib) = send(&mut b, call.clone());
    let (ra, ia) = send(&mut a, call);
    assert_eq!((rb, ib.len()), (ra, ia.len()));
    // a change made once, followed: clients are told, and served the new list
    shared.set_mode(Mode::Meta);
    drain(&mut shared);
    a.follow(&shared);
    let (told, _) = drain(&mut a);
    assert_eq!(
        told,
        [json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})]
    );
    let (listed, _) = send(&mut a, list.clone());
    let names: Vec<&str> = listed[0]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["search_tools", "get_tool_definition", "use_tool"]);
    assert_eq!(a.mode(), Mode::Meta);
    // following again changes nothing and tells nothing
    a.follow(&shared);
    assert!(drain(&mut a).0.is_empty());
    // a new catalog reaches the followers, with its own schemas
    let mut small = Engine::new(
        Catalog::parse(br#"[{"name": "only", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]"#).unwrap(),
        config(Mode::All),
    );
    b.follow(&small);
    let (told, _) = drain(&mut b);
    assert_eq!(told.len(), 1);
    let (r, inv) = send(
        &mut b,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "only", "arguments": {"n": "x"}}}),
    );
    assert!(inv.is_empty());
    assert_eq!(r[0]["result"]["isError"], true);
    drain(&mut small);
}

#[test]
fn subscriptions_end_per_channel() {
    let mut e = Engine::new(homey(), EngineConfig::default());
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}});
    for channel in [1, 2] {
        let _ = e.handle_on(
            channel,
            &json!({"jsonrpc": "2.0", "id": channel, "method": "subscriptions/listen",
                "params": {"notifications": {"toolsListChanged": true}, "_meta": meta}})
            .to_string(),
        );
    }
    drain(&mut e);
    assert_eq!(e.subscriptions(), 2);
    e.end_subscriptions_on(2);
    let ended: Vec<Output> = std::iter::from_fn(|| e.poll_output()).collect();
    assert!(
        matches!(&ended[..], [Output::Reply(r)] if r.channel == 2 && r.to == json!(2)),
        "{ended:?}"
    );
    assert_eq!(e.subscriptions(), 1);
    e.end_subscriptions_on(2);
    assert!(e.poll_output().is_none());
}
