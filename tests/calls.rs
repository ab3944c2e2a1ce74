//! Model responses in each dialect's real shape → normalised calls and MCP
//! `tools/call` requests → results → conversation items. Shapes follow the
//! vendors' documentation.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use mcp_switchboard::{convert, format_results, parse_calls, Catalog, Dialect, NameMap, Options};
use serde_json::{json, Value};

fn homey() -> Catalog {
    Catalog::parse(&common::corpus(
        "homey-ai-chat-control-2.2.1.tools-list.json",
    ))
    .expect("homey")
}

fn names(catalog: &Catalog, d: Dialect) -> NameMap {
    convert(catalog, d, &Options::default()).names
}

#[test]
fn gemini_parallel_calls_with_ids_and_signatures() {
    let cat = homey();
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Turning both on."},
        {"functionCall": {"id": "fc-1", "name": "set_light", "args": {"deviceId": "a", "state": "on"}}, "thoughtSignature": "c2lnMQ=="},
        {"functionCall": {"id": "fc-2", "name": "set_light", "args": {"deviceId": "b", "state": "on", "dim": "50"}}}
    ]}, "finishReason": "STOP"}]});
    let turn = parse_calls(
        Dialect::Gemini,
        &response,
        &names(&cat, Dialect::Gemini),
        Some(&cat),
    )
    .unwrap();
    assert_eq!(
        turn.calls.len(),
        2,
        "every functionCall part, not just parts[0]"
    );
    assert_eq!(turn.text, "Turning both on.");
    let c = &turn.calls[0];
    assert_eq!(
        (
            c.id.as_str(),
            c.name.as_str(),
            c.thought_signature.as_deref()
        ),
        ("fc-1", "set_light", Some("c2lnMQ=="))
    );
    assert_eq!(
        c.request.as_ref().unwrap()["params"],
        json!({"name": "set_light", "arguments": {"deviceId": "a", "state": "on"}})
    );
    // "50" for a number parameter is coerced, and the coercion recorded
    assert_eq!(turn.calls[1].arguments["dim"], json!(50));
    assert_eq!(turn.calls[1].coercions.len(), 1);
    // the assistant turn is the content verbatim: the signature survives
    assert_eq!(
        turn.assistant[0]["parts"][1]["thoughtSignature"],
        "c2lnMQ=="
    );
    let results = json!([
        {"content": [{"type": "text", "text": "{\"success\":true}"}], "structuredContent": {"success": true}},
        {"jsonrpc": "2.0", "id": "fc-2", "error": {"code": -32603, "message": "device offline"}}
    ]);
    let out = format_results(Dialect::Gemini, &turn, &results).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["role"], "user");
    let parts = out[0]["parts"].as_array().unwrap();
    assert_eq!(
        parts[0]["functionResponse"],
        json!({"id": "fc-1", "name": "set_light", "response": {"output": {"success": true}}})
    );
    assert_eq!(parts[1]["functionResponse"]["id"], "fc-2");
    assert!(parts[1]["functionResponse"]["response"]["error"]
        .as_str()
        .unwrap()
        .contains("device offline"));
}

#[test]
fn gemini_without_ids_gets_deterministic_ones_and_answers_without_id() {
    let cat = homey();
    let response = json!({"candidates": [
        {"content": {"role": "model", "parts": [{"functionCall": {"name": "get_states", "args": {}}}, {"functionCall": {"name": "get_home_structure"}}]}},
        {"content": {"role": "model", "parts": [{"functionCall": {"name": "toggle_device", "args": {"deviceId": "x"}}}]}}
    ]});
    let n = names(&cat, Dialect::Gemini);
    let a = parse_calls(Dialect::Gemini, &response, &n, None).unwrap();
    let b = parse_calls(Dialect::Gemini, &response, &n, None).unwrap();
    assert_eq!(a, b, "no randomness");
    let ids: Vec<&str> = a.calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["call_0", "call_1", "call_2"]);
    assert!(a.calls.iter().all(|c| !c.id_from_model));
    let out = format_results(
        Dialect::Gemini,
        &a,
        &json!([{"content": []}, {"content": []}, {"content": []}]),
    )
    .unwrap();
    assert!(out[0]["parts"][0]["functionResponse"].get("id").is_none());
}

#[test]
fn gemini_live_tool_call_message() {
    let cat = homey();
    let msg = json!({"toolCall": {"functionCalls": [{"id": "live-1", "name": "get_states", "args": {"zoneId": "z"}}]}});
    let turn = parse_calls(
        Dialect::Gemini,
        &msg,
        &names(&cat, Dialect::Gemini),
        Some(&cat),
    )
    .unwrap();
    assert_eq!(turn.calls[0].id, "live-1");
    assert!(turn.assistant.is_empty());
}

#[test]
fn gemini_integer_enum_strings_come_back_as_integers() {
    let cat = Catalog::parse(br#"[{"name": "set_level", "inputSchema": {"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}}}}]"#).unwrap();
    let conv = convert(&cat, Dialect::Gemini, &Options::default());
    assert_eq!(
        conv.tools[0]["functionDeclarations"][0]["parameters"]["properties"]["level"]["enum"],
        json!(["1", "2", "3"])
    );
    let response = json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "set_level", "args": {"level": "2"}}}]}}]});
    let turn = parse_calls(Dialect::Gemini, &response, &conv.names, Some(&cat)).unwrap();
    assert_eq!(turn.calls[0].arguments, json!({"level": 2}));
    assert!(turn.calls[0].error.is_none());
}

#[test]
fn anthropic_mixed_text_and_tool_use() {
    let cat = homey();
    let response = json!({"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "tool_use",
    "content": [
        {"type": "thinking", "thinking": "…", "signature": "sig"},
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "toolu_01", "name": "get_states", "input": {"zoneId": "kitchen"}},
        {"type": "tool_use", "id": "toolu_02", "name": "set_thermostat", "input": {"deviceId": "t1", "temperature": 21.5}}
    ]});
    let turn = parse_calls(
        Dialect::Anthropic,
        &response,
        &names(&cat, Dialect::Anthropic),
        Some(&cat),
    )
    .unwrap();
    assert_eq!(turn.calls.len(), 2);
    assert_eq!(turn.text, "Let me check.");
    assert_eq!(turn.assistant[0]["content"][0]["type"], "thinking");
    let results = json!({
        "toolu_02": {"content": [{"type": "text", "text": "set"}, {"type": "image", "mimeType": "image/svg+xml", "data": "PHN2Zy8+"}]},
        "toolu_01": {"content": [{"type": "text", "text": "21°C"}, {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="}], "isError": false}
    });
    let out = format_results(Dialect::Anthropic, &turn, &results).unwrap();
    let blocks = out[0]["content"].as_array().unwrap();
    assert_eq!(blocks[0]["tool_use_id"], "toolu_01");
    assert_eq!(
        blocks[0]["content"][1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}})
    );
    assert!(blocks[0].get("is_error").is_none());
    // Anthropic takes JPEG, PNG, GIF and WebP images; an SVG stays a line of text
    assert_eq!(
        blocks[1]["content"],
        json!([{"type": "text", "text": "set\n[image: image/svg+xml, 6 bytes]"}])
    );
}

#[test]
fn openai_broken_json_arguments_fail_only_that_call() {
    let cat = homey();
    let response = json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    "role": "assistant", "content": null, "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "toggle_device", "arguments": "{\"deviceId\": \"lamp1\"}"}},
        {"id": "call_b", "type": "function", "function": {"name": "toggle_device", "arguments": "{\"deviceId\": \"lamp2\""}},
        {"id": "call_c", "type": "function", "function": {"name": "no_such_tool", "arguments": "{}"}}
    ]}}]});
    let turn = parse_calls(
        Dialect::OpenAi,
        &response,
        &names(&cat, Dialect::OpenAi),
        Some(&cat),
    )
    .unwrap();
    assert_eq!(turn.calls.len(), 3);
    assert!(turn.calls[0].error.is_none() && turn.calls[0].request.is_some());
    assert!(turn.calls[1]
        .error
        .as_deref()
        .unwrap()
        .contains("not valid JSON"));
    assert!(turn.calls[1].request.is_none());
    assert!(turn.calls[2]
        .error
        .as_deref()
        .unwrap()
        .contains("no tool named"));
    let out = format_results(
        Dialect::OpenAi,
        &turn,
        &json!([{"content": [{"type": "text", "text": "ok"}]}, null, null]),
    )
    .unwrap();
    assert_eq!(out.len(), 3);
    assert_eq!(
        out[0],
        json!({"role": "tool", "tool_call_id": "call_a", "content": "ok"})
    );
    assert!(out[1]["content"]
        .as_str()
        .unwrap()
        .starts_with("Error: the arguments are not valid JSON"));
}

#[test]
fn openai_strict_null_means_absent() {
    let cat = homey();
    let conv = convert(&cat, Dialect::OpenAi, &Options::strict(true));
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "set_light", "arguments": "{\"deviceId\": \"a\", \"state\": \"on\", \"dim\": null}"}}
    ]}}]});
    let turn = parse_calls(Dialect::OpenAi, &response, &conv.names, Some(&cat)).unwrap();
    assert_eq!(
        turn.calls[0].arguments,
        json!({"deviceId": "a", "state": "on"})
    );
}

#[test]
fn openai_responses_function_call_items() {
    let cat = homey();
    let response = json!({"id": "resp_1", "object": "response", "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_xyz", "name": "get_states", "arguments": "{\"zoneId\":\"z\"}", "status": "completed"}
    ]});
    let turn = parse_calls(
        Dialect::OpenAiResponses,
        &response,
        &names(&cat, Dialect::OpenAiResponses),
        Some(&cat),
    )
    .unwrap();
    assert_eq!(turn.calls[0].id, "call_xyz");
    assert_eq!(turn.assistant.len(), 2, "reasoning items go back too");
    let out = format_results(
        Dialect::OpenAiResponses,
        &turn,
        &json!([{"content": [{"type": "text", "text": "3 devices"}]}]),
    )
    .unwrap();
    assert_eq!(
        out[0],
        json!({"type": "function_call_output", "call_id": "call_xyz", "output": "3 devices"})
    );
}

#[test]
fn prompted_calls_from_plain_text() {
    let cat = homey();
    let n = names(&cat, Dialect::Prompted);
    let cases: Vec<(&str, usize)> = vec![
        ("```json\n{\"tool_calls\": [{\"name\": \"get_states\", \"arguments\": {}}, {\"name\": \"toggle_device\", \"arguments\": {\"deviceId\": \"x\"}}]}\n```", 2),
        ("I'll do it: {'name': 'toggle_device', 'arguments': {'deviceId': 'x',},} — done", 1),
        ("[{\"name\": \"get_states\", \"arguments\": {}}, {\"name\": \"get_home_structure\"}]", 2),
        ("{\"tool\": \"get_states\", \"parameters\": {\"zoneId\": \"z\"}}", 1),
        ("No tool is needed; the lights are already off.", 0),
        ("{\"some\": \"json\", \"but\": \"no call\"}", 0),
        ("```json\n{broken", 0),
        ("", 0),
    ];
    for (text, expected) in cases {
        let turn = parse_calls(
            Dialect::Prompted,
            &Value::String(text.into()),
            &n,
            Some(&cat),
        )
        .unwrap();
        assert_eq!(turn.calls.len(), expected, "{text}");
    }
    let turn = parse_calls(
        Dialect::Prompted,
        &json!("{\"name\": \"get_states\", \"arguments\": {}}"),
        &n,
        None,
    )
    .unwrap();
    let out = format_results(
        Dialect::Prompted,
        &turn,
        &json!([{"content": [{"type": "text", "text": "all off"}]}]),
    )
    .unwrap();
    assert!(out[0]["content"]
        .as_str()
        .unwrap()
        .starts_with("Tool results:\n```json\n"));
}

#[test]
fn vscode_tool_call_parts() {
    let cat = homey();
    let parts = json!([{"value": "On it."}, {"callId": "vs-1", "name": "get_states", "input": {}}]);
    let turn = parse_calls(
        Dialect::VsCode,
        &parts,
        &names(&cat, Dialect::VsCode),
        Some(&cat),
    )
    .unwrap();
    assert_eq!(turn.calls[0].id, "vs-1");
    let out = format_results(
        Dialect::VsCode,
        &turn,
        &json!([{"content": [{"type": "text", "text": "fine"}]}]),
    )
    .unwrap();
    assert_eq!(
        out[0]["content"][0],
        json!({"callId": "vs-1", "content": [{"value": "fine"}]})
    );
}

#[test]
fn bad_responses_are_clear_errors_not_panics() {
    let cat = homey();
    for d in Dialect::ALL {
        let n = names(&cat, d);
        for bad in [
            json!(null),
            json!(42),
            json!("text"),
            json!({}),
            json!({"candidates": "x"}),
            json!({"choices": 5}),
            json!([1, 2]),
            json!({"content": 3}),
        ] {
            let _ = parse_calls(d, &bad, &n, Some(&cat));
        }
    }
    // no candidates: no calls; a blocked prompt: an error that says so
    let n = names(&cat, Dialect::Gemini);
    assert!(
        parse_calls(Dialect::Gemini, &json!({"candidates": []}), &n, None)
            .unwrap()
            .calls
            .is_empty()
    );
    let blocked = parse_calls(
        Dialect::Gemini,
        &json!({"promptFeedback": {"blockReason": "SAFETY"}}),
        &n,
        None,
    )
    .unwrap_err();
    assert!(blocked.to_string().contains("SAFETY"));
    // empty parts, arguments that are not objects, duplicate ids
    let r = json!({"candidates": [{"content": {"parts": []}}]});
    assert!(parse_calls(Dialect::Gemini, &r, &n, None)
        .unwrap()
        .calls
        .is_empty());
    let n = names(&cat, Dialect::Anthropic);
    let r = json!({"content": [
        {"type": "tool_use", "id": "t1", "name": "get_states", "input": [1, 2]},
        {"type": "tool_use", "id": "t1", "name": "get_states", "input": {}}
    ]});
    let turn = parse_calls(Dialect::Anthropic, &r, &n, Some(&cat)).unwrap();
    assert!(turn.calls[0]
        .error
        .as_deref()
        .unwrap()
        .contains("JSON object"));
    assert!(turn.calls[1]
        .error
        .as_deref()
        .unwrap()
        .contains("used by an earlier call"));
    // 10,000-deep arguments: as JSON text (OpenAI) the call fails alone; a
    // whole response that deep is refused by the JSON reader before it
    // becomes a value
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    let args = format!("{{\"zoneId\": {deep}}}");
    let r = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "d", "type": "function", "function": {"name": "get_states", "arguments": args}},
        {"id": "e", "type": "function", "function": {"name": "get_states", "arguments": "{}"}}
    ]}}]});
    let turn = parse_calls(
        Dialect::OpenAi,
        &r,
        &names(&cat, Dialect::OpenAi),
        Some(&cat),
    )
    .unwrap();
    assert!(turn.calls[0]
        .error
        .as_deref()
        .unwrap()
        .contains("recursion limit"));
    assert!(turn.calls[1].error.is_none());
    assert!(serde_json::from_str::<Value>(&format!("{{\"content\": {deep}}}")).is_err());
    // arguments past MAX_ARGUMENT_BYTES fail their own call, not the turn
    let big = "x".repeat(10 * 1024 * 1024);
    let fits = "x".repeat(mcp_switchboard::MAX_ARGUMENT_BYTES - 100);
    let r = json!({"content": [
        {"type": "tool_use", "id": "b", "name": "get_states", "input": {"zoneId": big}},
        {"type": "tool_use", "id": "c", "name": "get_states", "input": {"zoneId": fits}}
    ]});
    let turn = parse_calls(Dialect::Anthropic, &r, &n, Some(&cat)).unwrap();
    assert!(turn.calls[0]
        .error
        .as_deref()
        .unwrap()
        .contains("larger than"));
    assert!(turn.calls[0].request.is_none());
    assert!(turn.calls[1].error.is_none());
}

#[test]
fn results_must_be_array_or_object() {
    let cat = homey();
    let n = names(&cat, Dialect::OpenAi);
    let turn = parse_calls(Dialect::OpenAi, &json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "get_states", "arguments": "{}"}}]}}]}), &n, None).unwrap();
    assert!(format_results(Dialect::OpenAi, &turn, &json!("nope")).is_err());
    assert!(format_results(Dialect::OpenAi, &turn, &json!([{}, {}])).is_err());
    let missing = format_results(Dialect::OpenAi, &turn, &json!([])).unwrap();
    assert!(missing[0]["content"]
        .as_str()
        .unwrap()
        .starts_with("Error: no result"));
}

/// Ids stay unique when the id a repeated one would be given is an
/// earlier call's own (`a#2`, `a`, `a`: the third is call 2), and when a
/// call without an id comes where a model's id already says `call_1`:
/// every call gets its own result.
#[test]
fn given_ids_never_collide_with_the_models() {
    let cat = homey();
    let call = |id: Option<&str>| {
        let mut c = json!({"type": "function", "function": {"name": "set_light", "arguments": "{\"deviceId\": \"a\"}"}});
        if let Some(id) = id {
            c["id"] = json!(id);
        }
        c
    };
    for ids in [
        vec![Some("a#2"), Some("a"), Some("a")],
        vec![Some("a#2"), Some("a#2_1"), Some("a"), Some("a")],
        vec![Some("call_1"), None],
        vec![Some("call_1"), Some("call_1_1"), None],
    ] {
        let calls: Vec<Value> = ids.iter().map(|&i| call(i)).collect();
        let response = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}}]});
        let turn = parse_calls(
            Dialect::OpenAi,
            &response,
            &names(&cat, Dialect::OpenAi),
            Some(&cat),
        )
        .unwrap();
        let mut seen = std::collections::HashSet::new();
        for c in &turn.calls {
            assert!(seen.insert(c.id.clone()), "{:?} twice in {ids:?}", c.id);
        }
        assert_eq!(turn.calls.len(), ids.len());
    }
}

#[test]
fn another_apis_response_is_named_not_read_as_no_calls() {
    let cat = homey();
    let anthropic = json!({"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "t1", "name": "set_light", "input": {"deviceId": "a"}}]});
    let chat = json!({"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": "hi"}}]});
    let responses = json!({"object": "response", "output": [{"type": "function_call", "call_id": "c", "name": "x", "arguments": "{}"}]});
    let gemini = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}}]});
    for (dialect, response, named) in [
        (Dialect::OpenAi, &anthropic, "Anthropic"),
        (Dialect::Anthropic, &chat, "Chat Completions"),
        (Dialect::Gemini, &responses, "Responses"),
        (Dialect::OpenAiResponses, &gemini, "Gemini"),
        (Dialect::Anthropic, &gemini, "Gemini"),
    ] {
        let e = parse_calls(dialect, response, &names(&cat, dialect), Some(&cat))
            .expect_err("another API's shape");
        assert_eq!(e.kind(), mcp_switchboard::ErrorKind::Shape);
        assert!(e.message().contains(named), "{dialect}: {}", e.message());
    }
    // its own shape still reads; gemini-json reads Gemini's
    assert!(parse_calls(
        Dialect::GeminiJson,
        &gemini,
        &names(&cat, Dialect::GeminiJson),
        None
    )
    .is_ok());
    assert_eq!(
        parse_calls(
            Dialect::Anthropic,
            &anthropic,
            &names(&cat, Dialect::Anthropic),
            None
        )
        .map(|t| t.calls.len())
        .ok(),
        Some(1)
    );
    // prompted reads a Chat Completions response's text
    let prompted = json!({"choices": [{"message": {"role": "assistant", "content": "{\"name\": \"set_light\", \"arguments\": {\"deviceId\": \"a\"}}"}}]});
    let turn = parse_calls(
        Dialect::Prompted,
        &prompted,
        &names(&cat, Dialect::Prompted),
        Some(&cat),
    )
    .expect("prompted");
    assert_eq!(turn.calls.len(), 1);
}

#[test]
fn errors_and_plain_values_are_written_as_what_they_are() {
    let cat = homey();
    let message = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "a", "name": "set_light", "input": {"deviceId": "x"}},
        {"type": "tool_use", "id": "b", "name": "set_light", "input": {"deviceId": "y"}},
        {"type": "tool_use", "id": "c", "name": "set_light", "input": {"deviceId": "z"}}
    ]});
    let turn = parse_calls(
        Dialect::Anthropic,
        &message,
        &names(&cat, Dialect::Anthropic),
        None,
    )
    .expect("turn");
    let items = format_results(
        Dialect::Anthropic,
        &turn,
        &json!([{"code": -32000, "message": "device offline"}, {"on": true}, {"isError": true, "reason": "x"}]),
    )
    .expect("results");
    let blocks = &items[0]["content"];
    assert_eq!(blocks[0]["is_error"], true);
    assert!(blocks[0]["content"][0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("device offline")));
    assert_eq!(blocks[1].get("is_error"), None);
    assert_eq!(blocks[1]["content"][0]["text"], "{\"on\":true}");
    assert_eq!(blocks[2]["is_error"], true);
}
