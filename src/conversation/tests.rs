use serde_json::{json, Value};

use super::*;

fn catalog() -> Catalog {
    Catalog::parse(
        br#"[
        {"name": "set_light", "description": "Set a light's brightness",
         "inputSchema": {"type": "object", "properties": {
            "room": {"type": "string"}, "brightness": {"type": "integer", "minimum": 0, "maximum": 100}},
            "required": ["room", "brightness"]}},
        {"name": "get_states", "description": "Read every device's state", "annotations": {"readOnlyHint": true},
         "inputSchema": {"type": "object"}},
        {"name": "lock_door", "description": "Lock a door", "inputSchema": {"type": "object",
            "properties": {"door": {"type": "string"}}, "required": ["door"]}}
    ]"#,
    )
    .unwrap()
}

fn drain(c: &mut Conversation) -> Vec<Output> {
    std::iter::from_fn(|| c.poll_output()).collect()
}

fn request(outs: &[Output]) -> ModelRequest {
    outs.iter()
        .find_map(|o| match o {
            Output::Request(r) => Some(r.clone()),
            _ => None,
        })
        .expect("a request")
}

fn answer(c: &mut Conversation, id: u64, status: u16, body: &Value) -> Vec<Output> {
    c.handle_response(id, status, &[], 0);
    c.handle_body(id, body.to_string().as_bytes(), 0);
    c.handle_end(id, 0);
    drain(c)
}

fn chat_call(calls: &[(&str, &str, &str)]) -> Value {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}}))
        .collect();
    json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": calls}}]})
}

fn chat_text(text: &str) -> Value {
    json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}], "usage": {"prompt_tokens": 10, "completion_tokens": 3}})
}

/// Answers the request in `outs` with one call of `tool`, then gives
/// that call `result` (or fails it with `message`): the outputs after.
fn call_round(
    c: &mut Conversation,
    outs: &[Output],
    id: &str,
    tool: &str,
    args: &str,
    result: Result<Value, &str>,
) -> Vec<Output> {
    let req = request(outs);
    answer(c, req.id, 200, &chat_call(&[(id, tool, args)]));
    match result {
        Ok(v) => c.complete_call(id, &v, 1),
        Err(message) => c.fail_call(id, message, 1),
    }
    drain(c)
}

fn done(outs: &[Output]) -> Option<Finished> {
    outs.iter().find_map(|o| match o {
        Output::Done(d) => Some(d.clone()),
        _ => None,
    })
}

#[test]
fn a_whole_loop_with_coercion_and_a_failing_tool() {
    let mut c = Conversation::new(
        Provider::OpenAi,
        catalog(),
        ConversationOptions::new("m").with_api_key("k"),
    );
    c.send("dim the kitchen", 0).unwrap();
    let req = request(&drain(&mut c));
    assert!(req
        .headers
        .contains(&("authorization".into(), "Bearer k".into())));
    let outs = answer(
        &mut c,
        req.id,
        200,
        &chat_call(&[
            (
                "a",
                "set_light",
                r#"{"room": "kitchen", "brightness": "40"}"#,
            ),
            ("b", "lock_door", r#"{"door": "front"}"#),
        ]),
    );
    let calls: Vec<ToolCall> = outs
        .iter()
        .filter_map(|o| match o {
            Output::Call(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        calls[0].arguments,
        json!({"room": "kitchen", "brightness": 40})
    );
    assert_eq!(calls[0].coercions.len(), 1);
    c.complete_call(
        "a",
        &json!({"content": [{"type": "text", "text": "ok"}]}),
        1,
    );
    assert!(drain(&mut c).is_empty(), "waits for the second call");
    c.fail_call("b", "the lock is offline", 1);
    let req = request(&drain(&mut c));
    let body: Value = serde_json::from_str(&req.body).unwrap();
    let msgs = body["messages"].as_array().unwrap();
    assert_eq!(msgs[2]["role"], "tool");
    assert_eq!(msgs[3]["tool_call_id"], "b");
    assert!(msgs[3]["content"]
        .as_str()
        .unwrap()
        .contains("Error: the lock is offline"));
    let outs = answer(&mut c, req.id, 200, &chat_text("Done."));
    let d = done(&outs).unwrap();
    assert_eq!(d.reason, FinishReason::Stop);
    assert_eq!(d.text, "Done.");
    assert_eq!(d.rounds, 2);
    assert_eq!(d.calls.len(), 2);
    assert!(!d.calls[0].is_error && d.calls[1].is_error);
    assert_eq!(d.usage.input_tokens, 10);
}

#[test]
fn use_tool_in_hybrid_mode_runs_the_real_tool() {
    let mut c = Conversation::new(
        Provider::Anthropic,
        catalog(),
        ConversationOptions::new("m").with_mode(ToolMode::Hybrid),
    );
    c.send("lock the front door", 0).unwrap();
    let req = request(&drain(&mut c));
    let body: Value = serde_json::from_str(&req.body).unwrap();
    let names: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"use_tool") && !names.contains(&"lock_door"));
    assert_eq!(body["max_tokens"], 4096);
    let msg = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "s1", "name": "search_tools", "input": {"query": "lock door"}},
        {"type": "tool_use", "id": "u1", "name": "use_tool", "input": {"name": "lock_door", "arguments": {"door": "front"}}}
    ]});
    let outs = answer(&mut c, req.id, 200, &msg);
    let call = outs
        .iter()
        .find_map(|o| match o {
            Output::Call(c) => Some(c.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(call.name, "lock_door");
    assert_eq!(call.via.as_deref(), Some("use_tool"));
    c.complete_call("u1", &json!({"locked": true}), 1);
    let req = request(&drain(&mut c));
    let body: Value = serde_json::from_str(&req.body).unwrap();
    let results = &body["messages"][2]["content"];
    assert_eq!(results[0]["tool_use_id"], "s1");
    assert!(results[0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("lock_door"));
    assert_eq!(results[1]["tool_use_id"], "u1");
    assert!(results[1].get("is_error").is_none());
}

#[test]
fn provider_errors_are_typed_and_retried_when_passing() {
    let mut c = Conversation::new(
        Provider::Gemini,
        catalog(),
        ConversationOptions::new("gemini-2.5-flash").with_api_key("g"),
    );
    c.send("hi", 0).unwrap();
    let req = request(&drain(&mut c));
    assert_eq!(req.path, "/v1beta/models/gemini-2.5-flash:generateContent");
    c.handle_response(req.id, 429, &[("Retry-After".into(), "2".into())], 10);
    c.handle_body(
        req.id,
        br#"{"error": {"code": 429, "message": "slow down", "status": "RESOURCE_EXHAUSTED"}}"#,
        10,
    );
    c.handle_end(req.id, 10);
    let outs = drain(&mut c);
    match &outs[..] {
        [Output::Retry { error, at_ms }] => {
            assert_eq!(error.kind, ProviderErrorKind::RateLimited);
            assert_eq!(error.retry_after_ms, Some(2000));
            assert_eq!(*at_ms, 2010);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(c.poll_timeout(), Some(2010));
    c.handle_timeout(2009);
    assert!(drain(&mut c).is_empty());
    c.handle_timeout(2010);
    let req = request(&drain(&mut c));
    let outs = answer(
        &mut c,
        req.id,
        401,
        &json!({"error": {"code": 401, "message": "API key not valid", "status": "UNAUTHENTICATED"}}),
    );
    let d = done(&outs).unwrap();
    assert_eq!(d.reason, FinishReason::Error);
    let e = d.error.unwrap();
    assert_eq!((e.kind, e.status), (ProviderErrorKind::Auth, Some(401)));
    assert_eq!(e.message, "API key not valid");
    assert!(!c.busy());
}

#[test]
fn the_round_limit_and_repeated_failures() {
    let mut c = Conversation::new(
        Provider::OpenAi,
        catalog(),
        ConversationOptions::new("m").with_max_rounds(4),
    );
    c.send("lock it", 0).unwrap();
    let mut outs = drain(&mut c);
    for round in 0..2 {
        let id = format!("c{round}");
        outs = call_round(
            &mut c,
            &outs,
            &id,
            "lock_door",
            r#"{"door": "back"}"#,
            Err("jammed"),
        );
    }
    // the third try of the same failing call is not run
    let req = request(&outs);
    outs = answer(
        &mut c,
        req.id,
        200,
        &chat_call(&[("c2", "lock_door", r#"{"door": "back"}"#)]),
    );
    assert!(!outs.iter().any(|o| matches!(o, Output::Call(_))));
    let req = request(&outs);
    let body: Value = serde_json::from_str(&req.body).unwrap();
    let last = body["messages"].as_array().unwrap().last().unwrap().clone();
    assert!(
        last["content"]
            .as_str()
            .unwrap()
            .contains("do not repeat it"),
        "{last}"
    );
    // another door is another call
    outs = answer(
        &mut c,
        req.id,
        200,
        &chat_call(&[("c3", "lock_door", r#"{"door": "side"}"#)]),
    );
    let d = done(&outs).unwrap();
    assert_eq!(d.reason, FinishReason::MaxRounds);
    assert_eq!(d.rounds, 4);
    assert_eq!(d.calls.iter().filter(|c| c.is_error).count(), 3);
    // the history stays whole: every call has its result
    assert_eq!(c.history().last().unwrap()["role"], "tool");
    assert_eq!(c.history().last().unwrap()["tool_call_id"], "c3");
}

#[test]
fn streams_in_every_wire_and_a_cut_stream() {
    let cases: Vec<(Provider, Vec<Value>)> = vec![
        (
            Provider::OpenAi,
            vec![
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hel"}}]}),
                json!({"choices": [{"index": 0, "delta": {"content": "lo"}, "finish_reason": "stop"}]}),
            ],
        ),
        (
            Provider::Anthropic,
            vec![
                json!({"type": "message_start", "message": {"usage": {"input_tokens": 5}}}),
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hel"}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "lo"}}),
                json!({"type": "content_block_stop", "index": 0}),
                json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}),
                json!({"type": "message_stop"}),
            ],
        ),
        (
            Provider::Gemini,
            vec![
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}]}),
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]}, "finishReason": "STOP"}]}),
            ],
        ),
        (
            Provider::OpenAiResponses,
            vec![
                json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "role": "assistant", "content": []}}),
                json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "Hel"}),
                json!({"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "lo"}),
                json!({"type": "response.completed", "response": {"status": "completed", "output": []}}),
            ],
        ),
    ];
    for (provider, events) in cases {
        for cut in [false, true] {
            let mut c = Conversation::new(
                provider,
                catalog(),
                ConversationOptions::new("m").with_stream(true),
            );
            c.send("hi", 0).unwrap();
            let req = request(&drain(&mut c));
            assert!(req.stream);
            c.handle_response(
                req.id,
                200,
                &[("content-type".into(), "text/event-stream".into())],
                0,
            );
            let n = if cut { events.len() - 1 } else { events.len() };
            let mut text = String::new();
            for ev in events.iter().take(n) {
                let frame = format!("data: {ev}\n\n");
                // split in the middle of the frame
                let (a, b) = frame.as_bytes().split_at(frame.len() / 2);
                c.handle_body(req.id, a, 0);
                c.handle_body(req.id, b, 0);
            }
            if provider == Provider::OpenAi && !cut {
                c.handle_body(req.id, b"data: [DONE]\n\n", 0);
            }
            c.handle_end(req.id, 0);
            let outs = drain(&mut c);
            for o in &outs {
                if let Output::Text { delta, .. } = o {
                    text.push_str(delta);
                }
            }
            let d = done(&outs).unwrap();
            if cut && provider != Provider::OpenAi {
                assert_eq!(d.reason, FinishReason::Error, "{provider}");
                assert_eq!(d.error.unwrap().kind, ProviderErrorKind::Interrupted);
            } else if !cut {
                assert_eq!(
                    (d.reason, d.text.as_str()),
                    (FinishReason::Stop, "Hello"),
                    "{provider}"
                );
                assert_eq!(text, "Hello");
            }
        }
    }
}

#[test]
fn hostile_responses_never_panic() {
    let bodies: &[&[u8]] = &[
        b"",
        b"null",
        b"[]",
        b"{\"choices\": 5}",
        b"{\"choices\": [{\"message\": {\"tool_calls\": [{\"function\": {\"name\": 7}}]}}]}",
        b"{\"candidates\": [{\"content\": {\"parts\": \"x\"}}]}",
        b"{\"content\": [{\"type\": \"tool_use\"}]}",
        b"{\"output\": [{\"type\": \"function_call\", \"arguments\": {}}]}",
        b"\xff\xfe\xfd",
        b"data: {\"type\": \"content_block_delta\", \"index\": 99999999999}\n\n",
        b"data: {\"choices\": [{\"delta\": {\"tool_calls\": [{\"index\": 1e308}]}}]}\n\n",
    ];
    for provider in Provider::ALL {
        for stream in [false, true] {
            for body in bodies {
                for status in [200, 400, 500] {
                    let mut c = Conversation::new(
                        provider,
                        catalog(),
                        ConversationOptions::new("m")
                            .with_stream(stream)
                            .with_max_retries(0),
                    );
                    c.send("x", 0).unwrap();
                    let req = request(&drain(&mut c));
                    let ct = if stream {
                        "text/event-stream"
                    } else {
                        "application/json"
                    };
                    c.handle_response(req.id, status, &[("content-type".into(), ct.into())], 0);
                    c.handle_body(req.id, body, 0);
                    c.handle_end(req.id, 0);
                    let outs = drain(&mut c);
                    // every hostile body ends the turn or asks for tools
                    assert!(
                        outs.iter()
                            .any(|o| matches!(o, Output::Done(_) | Output::Call(_)))
                            || c.busy(),
                        "{provider} {status} {:?}",
                        String::from_utf8_lossy(body)
                    );
                }
            }
        }
    }
}

#[test]
fn history_budget_shortens_old_results_first() {
    let mut c = Conversation::new(
        Provider::OpenAi,
        catalog(),
        ConversationOptions::new("m").with_history_budget(400),
    );
    c.send("state?", 0).unwrap();
    let mut outs = drain(&mut c);
    for round in 0..2 {
        let big = json!({"content": [{"type": "text", "text": "x".repeat(3000)}]});
        outs = call_round(
            &mut c,
            &outs,
            &format!("g{round}"),
            "get_states",
            "{}",
            Ok(big),
        );
    }
    let req = request(&outs);
    let body: Value = serde_json::from_str(&req.body).unwrap();
    let msgs = body["messages"].as_array().unwrap();
    let tools: Vec<&Value> = msgs.iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(tools.len(), 2, "a call keeps its result");
    assert!(tools[0]["content"].as_str().unwrap().contains("shortened"));
    assert!(!tools[1]["content"].as_str().unwrap().contains("shortened"));
}

#[test]
fn a_timeout_cancels_and_a_late_result_is_ignored() {
    let mut c = Conversation::new(
        Provider::OpenAi,
        catalog(),
        ConversationOptions::new("m")
            .with_tool_timeout_ms(100)
            .with_request_timeout_ms(1000)
            .with_max_retries(0),
    );
    c.send("x", 0).unwrap();
    let req = request(&drain(&mut c));
    answer(
        &mut c,
        req.id,
        200,
        &chat_call(&[("t", "get_states", "{}")]),
    );
    assert_eq!(c.poll_timeout(), Some(100));
    c.handle_timeout(100);
    let req = request(&drain(&mut c));
    assert!(req.body.contains("did not answer within"));
    c.complete_call("t", &json!("late"), 101);
    assert!(drain(&mut c).is_empty());
    c.handle_timeout(2000);
    let outs = drain(&mut c);
    assert!(matches!(outs.first(), Some(Output::Cancel { .. })));
    assert_eq!(
        done(&outs).unwrap().error.unwrap().kind,
        ProviderErrorKind::Timeout
    );
}

#[test]
fn a_changed_catalog_goes_with_the_next_request() {
    let mut c = Conversation::new(
        Provider::OpenAiResponses,
        catalog(),
        ConversationOptions::new("m"),
    );
    let names = |req: &ModelRequest| -> Vec<String> {
        let body: Value = serde_json::from_str(&req.body).unwrap();
        body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    };
    c.send("hi", 0).unwrap();
    let req = request(&drain(&mut c));
    assert_eq!(names(&req), ["set_light", "get_states", "lock_door"]);
    let outs = answer(
        &mut c,
        req.id,
        200,
        &json!({"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hello"}]}]}),
    );
    assert_eq!(done(&outs).unwrap().text, "hello");
    // notifications/tools/list_changed: one tool gone, one new
    c.set_catalog(
        Catalog::parse(br#"[{"name": "open_blinds", "inputSchema": {"type": "object"}}, {"name": "get_states", "inputSchema": {"type": "object"}}]"#)
            .unwrap(),
    );
    c.send("and now?", 1).unwrap();
    let req = request(&drain(&mut c));
    assert_eq!(names(&req), ["open_blinds", "get_states"]);
    // a call of the tool that went away is refused, not run
    let outs = answer(
        &mut c,
        req.id,
        200,
        &json!({"output": [{"type": "function_call", "call_id": "x", "name": "lock_door", "arguments": "{}"}]}),
    );
    assert!(!outs.iter().any(|o| matches!(o, Output::Call(_))));
    let req = request(&outs);
    assert!(req.body.contains("there is no tool named"), "{}", req.body);
}
