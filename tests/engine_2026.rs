//! The engine at 2026-07-28 beside 2025, the server surface, and several
//! sources.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_switchboard::engine::{
    Engine, EngineConfig, Era, InvocationKind, LogLevel, Output, Source, Surface,
};
use mcp_switchboard::Catalog;
use serde_json::{json, Value};

fn catalog(names: &[&str]) -> Catalog {
    let tools: Vec<Value> = names
        .iter()
        .map(|n| json!({"name": n, "inputSchema": {"type": "object"}}))
        .collect();
    Catalog::from_value(Value::Array(tools)).unwrap()
}

fn meta() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
           "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}})
}

fn modern(id: i64, method: &str, mut params: Value) -> String {
    params["_meta"] = meta();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn outputs(e: &mut Engine) -> Vec<Output> {
    std::iter::from_fn(|| e.poll_output()).collect()
}

fn reply(e: &mut Engine) -> (Value, u16, u64) {
    for o in outputs(e) {
        if let Output::Reply(r) = o {
            return (
                serde_json::from_str(&r.message).unwrap(),
                r.status,
                r.channel,
            );
        }
    }
    panic!("no reply")
}

fn surface() -> Surface {
    Surface::new()
        .with_resources(vec![json!({"uri": "home://areas", "name": "areas"})])
        .unwrap()
        .with_templates(vec![
            json!({"uriTemplate": "home://area/{area}", "name": "area"}),
        ])
        .unwrap()
        .with_prompts(vec![
            json!({"name": "assist", "arguments": [{"name": "area", "required": true}]}),
        ])
        .unwrap()
}

fn engine() -> Engine {
    let mut e = Engine::new(
        catalog(&["get_state", "set_light"]),
        EngineConfig::default().with_ttl_ms(5000),
    );
    e.set_surface(surface());
    e
}

#[test]
fn discover_and_envelope_rules() {
    let mut e = engine();
    let _ = e.handle_on(3, &modern(1, "server/discover", json!({})));
    let (r, status, channel) = reply(&mut e);
    assert_eq!((status, channel), (200, 3));
    assert_eq!(r["result"]["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(r["result"]["resultType"], "complete");
    assert_eq!(r["result"]["ttlMs"], 5000);
    assert_eq!(r["result"]["cacheScope"], "public");
    assert_eq!(
        r["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "mcp-switchboard"
    );
    assert!(r["result"]["capabilities"]["prompts"].is_object());
    assert!(r["result"]["capabilities"]["completions"].is_object());

    // no _meta at all, a missing capability object, an unknown version
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}"#);
    let (r, status, _) = reply(&mut e);
    assert_eq!(
        (r["error"]["code"].as_i64(), r["id"].as_i64(), status),
        (Some(-32602), Some(101), 400)
    );
    let _ = e.handle(
        &json!({"jsonrpc": "2.0", "id": 104, "method": "server/discover",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
        .to_string(),
    );
    let (r, status, _) = reply(&mut e);
    assert_eq!((r["error"]["code"].as_i64(), status), (Some(-32602), 400));
    let mut m = meta();
    m["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
    let _ = e.handle(
        &json!({"jsonrpc": "2.0", "id": 301, "method": "server/discover", "params": {"_meta": m}})
            .to_string(),
    );
    let (r, status, _) = reply(&mut e);
    assert_eq!((r["error"]["code"].as_i64(), status), (Some(-32022), 400));
    assert_eq!(
        r["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "v999.0.0"})
    );
    // clientInfo is optional
    let mut m = meta();
    m.as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientInfo");
    let _ = e.handle(
        &json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": m}})
            .to_string(),
    );
    let (r, status, _) = reply(&mut e);
    assert_eq!(
        (r["result"]["tools"].as_array().map(Vec::len), status),
        (Some(2), 200)
    );
}

#[test]
fn removed_and_unknown_methods_are_404_in_2026_only() {
    let mut e = engine();
    for m in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "unknown/method",
    ] {
        let _ = e.handle(&modern(500, m, json!({})));
        let (r, status, _) = reply(&mut e);
        assert_eq!(
            (r["error"]["code"].as_i64(), r["id"].as_i64(), status),
            (Some(-32601), Some(500), 404),
            "{m}"
        );
    }
    // the same engine still serves a 2025 session
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#);
    let (r, status, _) = reply(&mut e);
    assert_eq!(
        (r["result"]["protocolVersion"].as_str(), status),
        (Some("2025-11-25"), 200)
    );
    assert!(r["result"].get("resultType").is_none());
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    assert_eq!(reply(&mut e).0["result"], json!({}));
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":3,"method":"nope"}"#);
    let (r, status, _) = reply(&mut e);
    assert_eq!((r["error"]["code"].as_i64(), status), (Some(-32601), 200));
}

#[test]
fn listen_streams_get_only_what_they_asked_for() {
    let mut e = engine();
    let _ = e.handle_on(
        9,
        &modern(
            77,
            "subscriptions/listen",
            json!({"notifications": {
        "toolsListChanged": true, "resourceSubscriptions": ["home://areas"]}}),
        ),
    );
    let out = outputs(&mut e);
    assert_eq!(out.len(), 1, "only the acknowledgment, no reply yet");
    let Output::Notification(ack) = &out[0] else {
        panic!()
    };
    assert_eq!((ack.channel, ack.to.clone()), (9, Some(json!(77))));
    let ack: Value = serde_json::from_str(&ack.message).unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        77
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true, "resourceSubscriptions": ["home://areas"]})
    );

    // prompts changed: not asked for; tools changed: asked for
    e.set_surface(surface().with_prompts(vec![]).unwrap());
    assert!(outputs(&mut e).is_empty());
    e.set_catalog(catalog(&["get_state"]));
    let out = outputs(&mut e);
    let [Output::Notification(n)] = out.as_slice() else {
        panic!("{out:?}")
    };
    let v: Value = serde_json::from_str(&n.message).unwrap();
    assert_eq!(v["method"], "notifications/tools/list_changed");
    assert_eq!(
        v["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        77
    );
    e.resource_updated("home://other");
    assert!(outputs(&mut e).is_empty());
    e.resource_updated("home://areas");
    assert_eq!(outputs(&mut e).len(), 1);

    // graceful end: the listen request gets its response
    e.end_subscriptions();
    let (r, _, channel) = reply(&mut e);
    assert_eq!((r["id"].as_i64(), channel), (Some(77), 9));
    assert_eq!(
        r["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        77
    );
    assert_eq!(e.subscriptions(), 0);

    // closing the stream ends a subscription without a reply
    let _ = e.handle_on(
        10,
        &modern(
            78,
            "subscriptions/listen",
            json!({"notifications": {"toolsListChanged": true}}),
        ),
    );
    outputs(&mut e);
    e.close_channel(10);
    e.set_catalog(catalog(&["a"]));
    assert!(outputs(&mut e).is_empty());
}

#[test]
fn resources_prompts_and_completions() {
    let mut e = engine();
    let _ = e.handle_on(
        1,
        &modern(1, "resources/read", json!({"uri": "home://area/kitchen"})),
    );
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert_eq!((inv.kind, inv.era), (InvocationKind::Resource, Era::Modern));
    assert_eq!(inv.arguments["variables"], json!({"area": "kitchen"}));
    e.complete(
        inv.id,
        &json!({"contents": [{"uri": "home://area/kitchen", "text": "3 lights"}]}),
    )
    .unwrap();
    let (r, _, _) = reply(&mut e);
    assert_eq!(r["result"]["cacheScope"], "private");
    assert_eq!(r["result"]["resultType"], "complete");
    assert_eq!(r["result"]["contents"][0]["text"], "3 lights");

    // unknown resource: -32602 in 2026, -32002 in 2025
    let _ = e.handle(&modern(2, "resources/read", json!({"uri": "home://nope"})));
    assert_eq!(reply(&mut e).0["error"]["code"], -32602);
    let _ = e.handle(
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"home://nope"}}"#,
    );
    assert_eq!(reply(&mut e).0["error"]["code"], -32002);

    // a prompt without its required argument, then with it
    let _ = e.handle(&modern(4, "prompts/get", json!({"name": "assist"})));
    assert_eq!(reply(&mut e).0["error"]["code"], -32602);
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"assist","arguments":{"area":"hall"}}}"#);
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert_eq!(
        (inv.kind, inv.tool.as_str(), inv.era),
        (InvocationKind::Prompt, "assist", Era::Legacy)
    );
    // the wrong shape is answered with an internal error and reported
    assert!(e.complete(inv.id, &json!({"content": []})).is_err());
    assert_eq!(reply(&mut e).0["error"]["code"], -32603);

    let _ = e.handle(r#"{"jsonrpc":"2.0","id":6,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"assist"},"argument":{"name":"area","value":"ki"}}}"#);
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert_eq!(inv.kind, InvocationKind::Completion);
    assert_eq!(inv.arguments["argument"]["value"], "ki");
    e.complete(inv.id, &json!({"completion": {"values": ["kitchen"]}}))
        .unwrap();
    assert_eq!(
        reply(&mut e).0["result"]["completion"]["values"][0],
        "kitchen"
    );
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":7,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"a","value":""}}}"#);
    assert_eq!(reply(&mut e).0["error"]["code"], -32602);

    // no surface: no such methods
    let mut bare = Engine::new(catalog(&["a"]), EngineConfig::default());
    let _ = bare.handle(r#"{"jsonrpc":"2.0","id":1,"method":"prompts/list"}"#);
    assert_eq!(reply(&mut bare).0["error"]["code"], -32601);
}

#[test]
fn legacy_subscriptions_logging_progress_and_asks() {
    let mut e = engine();
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}}}}"#);
    let (r, _, _) = reply(&mut e);
    assert_eq!(r["result"]["capabilities"]["resources"]["subscribe"], true);
    let _ = e.handle(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"home://areas"}}"#);
    reply(&mut e);
    e.resource_updated("home://areas");
    let out = outputs(&mut e);
    let [Output::Notification(n)] = out.as_slice() else {
        panic!()
    };
    assert!(n.to.is_none() && n.message.contains("notifications/resources/updated"));

    let _ = e.handle(
        r#"{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"warning"}}"#,
    );
    reply(&mut e);
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_state","_meta":{"progressToken":"p1"}}}"#);
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert!(!e
        .log(Some(inv.id), LogLevel::Info, None, &json!("quiet"))
        .unwrap());
    assert!(e
        .log(Some(inv.id), LogLevel::Error, Some("hub"), &json!("loud"))
        .unwrap());
    assert!(e.progress(inv.id, 1.0, Some(2.0), Some("half")).unwrap());
    assert!(
        e.progress(inv.id, 1.0, None, None).is_err(),
        "progress must grow"
    );
    let out = outputs(&mut e);
    assert_eq!(out.len(), 2);
    for o in &out {
        let Output::Notification(n) = o else { panic!() };
        assert_eq!(n.to, Some(json!(4)));
    }
    assert!(out[1]
        .message()
        .unwrap()
        .contains(r#""progressToken":"p1""#));

    // a request to the client, and its answer
    assert!(
        e.ask(inv.id, "elicitation/create", &json!({})).is_err(),
        "not declared"
    );
    let ask = e
        .ask(
            inv.id,
            "sampling/createMessage",
            &json!({"messages": [], "maxTokens": 5}),
        )
        .unwrap();
    let Some(Output::Request(req)) = e.poll_output() else {
        panic!()
    };
    assert_eq!(
        (req.id, req.invocation, req.to.clone()),
        (ask, inv.id, json!(4))
    );
    let _ = e.handle(&json!({"jsonrpc": "2.0", "id": ask, "result": {"role": "assistant", "content": {"type": "text", "text": "hi"}}}).to_string());
    let Some(Output::Answer(a)) = e.poll_output() else {
        panic!()
    };
    assert_eq!((a.ask, a.invocation), (ask, inv.id));
    assert_eq!(a.outcome.unwrap()["content"]["text"], "hi");
    e.complete(inv.id, &json!({"content": []})).unwrap();
    assert!(e.input_required(inv.id, &json!({}), Some("s")).is_err());
}

#[test]
fn modern_logging_needs_a_level_and_input_required_round_trips() {
    let mut e = engine();
    let _ = e.handle_on(4, &modern(1, "tools/call", json!({"name": "get_state"})));
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert!(!e
        .log(Some(inv.id), LogLevel::Emergency, None, &json!("x"))
        .unwrap());
    assert!(e.ask(inv.id, "elicitation/create", &json!({})).is_err());
    e.input_required(inv.id, &json!({"who": {"method": "elicitation/create", "params": {"mode": "form", "message": "Who?", "requestedSchema": {"type": "object"}}}}), Some("st-1")).unwrap();
    let (r, status, _) = reply(&mut e);
    assert_eq!(status, 200);
    assert_eq!(r["result"]["resultType"], "input_required");
    assert_eq!(r["result"]["requestState"], "st-1");
    assert!(r["result"].get("ttlMs").is_none());
    assert_eq!(e.outstanding(), 0);
    // the retry carries the answers
    let _ = e.handle_on(5, &modern(2, "tools/call", json!({"name": "get_state", "inputResponses": {"who": {"action": "accept", "content": {"n": "me"}}}, "requestState": "st-1"})));
    let Some(Output::Invoke(retry)) = e.poll_output() else {
        panic!()
    };
    assert_eq!(retry.request_state.as_deref(), Some("st-1"));
    // a state the engine did not hand out is refused
    let _ = e.handle_on(
        9,
        &modern(
            9,
            "tools/call",
            json!({"name": "get_state", "inputResponses": {}, "requestState": "st-1-TAMPERED"}),
        ),
    );
    let (tampered, status, _) = reply(&mut e);
    assert_eq!(
        (tampered["error"]["code"].as_i64(), status),
        (Some(-32602), 200)
    );
    assert_eq!(retry.input_responses.unwrap()["who"]["action"], "accept");
    // sampling was not declared: -32021 naming it
    assert!(e
        .input_required(
            retry.id,
            &json!({"s": {"method": "sampling/createMessage", "params": {}}}),
            None
        )
        .is_err());
    let (r, status, _) = reply(&mut e);
    assert_eq!((r["error"]["code"].as_i64(), status), (Some(-32021), 400));
    assert_eq!(
        r["error"]["data"]["requiredCapabilities"],
        json!({"sampling": {}})
    );

    // a log level in _meta lets messages through, on the request's stream
    let mut m = meta();
    m["io.modelcontextprotocol/logLevel"] = json!("info");
    let _ = e.handle_on(6, &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_state", "_meta": m}}).to_string());
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert!(!e
        .log(Some(inv.id), LogLevel::Debug, None, &json!("x"))
        .unwrap());
    assert!(e
        .log(Some(inv.id), LogLevel::Info, None, &json!("x"))
        .unwrap());
    // closing the channel cancels the invocation
    outputs(&mut e);
    e.close_channel(6);
    assert_eq!(outputs(&mut e), vec![Output::Cancel(inv.id)]);
    assert!(e.complete(inv.id, &json!({"content": []})).is_err());
}

#[test]
fn several_sources_are_namespaced_on_collision_and_routed_back() {
    let ha = Source::new("ha", catalog(&["get_state", "HassTurnOn"])).with_surface(
        Surface::new()
            .with_prompts(vec![json!({"name": "assist"})])
            .unwrap()
            .with_resources(vec![
                json!({"uri": "entity://light.kitchen", "name": "kitchen"}),
            ])
            .unwrap(),
    );
    let homey = Source::new("homey", catalog(&["get_state", "flow_trigger"])).with_surface(
        Surface::new()
            .with_prompts(vec![json!({"name": "assist"})])
            .unwrap(),
    );
    let mut e = Engine::new(catalog(&[]), EngineConfig::default());
    e.set_sources(&[ha.clone(), homey.clone()]).unwrap();
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let names: Vec<String> = reply(&mut e).0["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "ha__get_state",
            "HassTurnOn",
            "homey__get_state",
            "flow_trigger"
        ]
    );
    let _ = e.handle(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"homey__get_state"}}"#,
    );
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert_eq!(
        (inv.source.as_deref(), inv.tool.as_str()),
        (Some("homey"), "get_state")
    );
    let _ = e.handle(
        r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"ha__assist"}}"#,
    );
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert_eq!(
        (inv.source.as_deref(), inv.tool.as_str()),
        (Some("ha"), "assist")
    );
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"entity://light.kitchen"}}"#);
    let Some(Output::Invoke(inv)) = e.poll_output() else {
        panic!()
    };
    assert_eq!(inv.source.as_deref(), Some("ha"));

    // a source that goes away: its names leave, the others stay (and
    // lose the prefix they only needed beside it)
    e.set_sources(&[ha.with_available(false), homey]).unwrap();
    let _ = e.handle(r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#);
    let tools = reply(&mut e).0["result"]["tools"].clone();
    assert_eq!(tools.as_array().map(Vec::len), Some(2));
    assert_eq!(tools[0]["name"], "get_state");
    // two sources with one name are refused
    let twice = Source::new("x", catalog(&["a"]));
    assert!(e.set_sources(&[twice.clone(), twice]).is_err());
}

/// SEP-2243: a `tools/call` over HTTP whose `Mcp-Param-*` headers do not
/// mirror the arguments of its `x-mcp-header` parameters is refused with
/// -32020 and HTTP 400; matching headers (plain or Base64) run the tool;
/// outside HTTP (`handle_on`) there are no headers to check.
#[test]
fn param_headers_are_checked_on_http_calls() {
    let tools = json!([{"name": "set_zone", "inputSchema": {"type": "object", "properties": {
        "zone": {"type": "string", "x-mcp-header": "Zone"},
        "level": {"type": "integer", "x-mcp-header": "Level"}}, "required": ["zone"]}}]);
    let mut e = Engine::new(Catalog::from_value(tools).unwrap(), EngineConfig::default());
    let call = |id| {
        modern(
            id,
            "tools/call",
            json!({"name": "set_zone", "arguments": {"zone": "Woonkamer", "level": 2}}),
        )
    };
    let h = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    // no Mcp-Param-Level: refused
    assert!(e.handle_http(
        1,
        &call(1),
        &h(&[
            ("mcp-param-zone", "Woonkamer"),
            ("mcp-method", "tools/call")
        ])
    ));
    let (r, status, channel) = reply(&mut e);
    assert_eq!((status, channel), (400, 1));
    assert_eq!(r["error"]["code"], -32020);
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("Mcp-Param-Level"), "{message}");
    // a wrong value: refused
    let _ = e.handle_http(
        2,
        &call(2),
        &h(&[("mcp-param-zone", "Keuken"), ("mcp-param-level", "2")]),
    );
    assert_eq!(reply(&mut e).1, 400);
    // both right (one in Base64): the tool runs
    let _ = e.handle_http(
        3,
        &call(3),
        &h(&[
            ("Mcp-Param-Zone", "=?base64?V29vbmthbWVy?="),
            ("Mcp-Param-Level", "2"),
        ]),
    );
    let invoked = outputs(&mut e)
        .into_iter()
        .any(|o| matches!(o, Output::Invoke(i) if i.tool == "set_zone"));
    assert!(invoked, "the call with matching headers runs");
    // not over HTTP: nothing to check
    let _ = e.handle_on(4, &call(4));
    let invoked = outputs(&mut e)
        .into_iter()
        .any(|o| matches!(o, Output::Invoke(i) if i.tool == "set_zone"));
    assert!(invoked);
}

/// A closed channel's invocations are cancelled in the order they began,
/// and the other channels' go on.
#[test]
fn a_closed_channel_cancels_its_invocations_in_order() {
    let mut e = engine();
    let mut begun = Vec::new();
    for id in 1..=24 {
        let channel = if id % 3 == 0 { 5 } else { 4 };
        let _ = e.handle_on(
            channel,
            &modern(
                id,
                "tools/call",
                json!({"name": "get_state", "arguments": {}}),
            ),
        );
        for o in outputs(&mut e) {
            if let Output::Invoke(inv) = o {
                begun.push((channel, inv.id));
            }
        }
    }
    let on = |c: u64| -> Vec<u64> {
        begun
            .iter()
            .filter(|(channel, _)| *channel == c)
            .map(|(_, id)| *id)
            .collect()
    };
    assert_eq!(on(4).len(), 16);
    e.close_channel(4);
    let cancelled: Vec<u64> = outputs(&mut e)
        .into_iter()
        .filter_map(|o| match o {
            Output::Cancel(id) => Some(id),
            _ => None,
        })
        .collect();
    assert_eq!(cancelled, on(4));
    for id in on(5) {
        assert!(e.complete(id, &json!({"content": []})).is_ok());
    }
    for id in on(4) {
        assert!(e.complete(id, &json!({"content": []})).is_err());
    }
}
