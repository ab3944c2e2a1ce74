//! The engine's clock: per-invocation deadlines from the time the host
//! tells it, answered by the engine itself.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mcp_switchboard::engine::{
    Engine, EngineConfig, Invocation, Output, Source, Surface, TimedOut,
};
use mcp_switchboard::{Catalog, ErrorKind, Misuse};
use serde_json::{json, Value};

fn catalog() -> Catalog {
    Catalog::parse(
        br#"[{"name": "hang", "inputSchema": {"type": "object"}},
             {"name": "slow", "inputSchema": {"type": "object"}}]"#,
    )
    .unwrap()
}

fn engine(config: EngineConfig) -> Engine {
    Engine::new(catalog(), config)
}

fn call(e: &mut Engine, id: u64, tool: &str) -> Invocation {
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool}});
    assert!(e.handle(&msg.to_string()));
    match e.poll_output() {
        Some(Output::Invoke(inv)) => inv,
        other => panic!("{other:?}"),
    }
}

fn outputs(e: &mut Engine) -> Vec<Output> {
    std::iter::from_fn(|| e.poll_output()).collect()
}

fn reply(o: &Output) -> Value {
    match o {
        Output::Reply(r) => serde_json::from_str(&r.message).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_default_timeout_is_30_seconds_and_the_clock_starts_when_told() {
    assert_eq!(EngineConfig::default().invocation_timeout_ms, 30_000);
    let mut e = engine(EngineConfig::default());
    let _inv = call(&mut e, 1, "hang");
    // no deadline before the engine is told the time
    assert_eq!(e.poll_timeout(), None);
    e.handle_timeout(1_000);
    assert_eq!(e.poll_timeout(), Some(31_000));
    e.handle_timeout(30_999);
    assert!(outputs(&mut e).is_empty());
    assert_eq!(e.outstanding(), 1);
}

#[test]
fn a_timed_out_call_is_answered_by_the_engine_and_its_outcome_refused() {
    let config = EngineConfig::default()
        .with_invocation_timeout_ms(300)
        .with_waiting_for("upstream http://hub.local/mcp");
    let mut e = engine(config);
    let inv = call(&mut e, 7, "hang");
    e.handle_timeout(5_000);
    assert_eq!(e.poll_timeout(), Some(5_300));
    e.handle_timeout(5_300);
    let out = outputs(&mut e);
    let text = "hang timed out after 0.3 s waiting for upstream http://hub.local/mcp";
    assert!(
        matches!(&out[0], Output::TimedOut(TimedOut { id, tool, message, .. })
            if *id == inv.id && tool == "hang" && message == text),
        "{out:?}"
    );
    let r = reply(&out[1]);
    assert_eq!(r["id"], 7);
    assert_eq!(r["result"]["isError"], true);
    assert_eq!(r["result"]["content"][0]["text"], format!("Error: {text}"));
    assert_eq!(out.len(), 2);
    // the host's late outcome is refused, and nothing is owed any more
    assert_eq!(
        e.complete(inv.id, &json!({"content": []}))
            .unwrap_err()
            .kind(),
        ErrorKind::Usage
    );
    assert!(outputs(&mut e).is_empty());
    assert_eq!((e.poll_timeout(), e.outstanding()), (None, 0));
}

#[test]
fn each_invocation_has_its_own_deadline() {
    let mut e = engine(EngineConfig::default().with_invocation_timeout_ms(1_000));
    let first = call(&mut e, 1, "hang");
    e.handle_timeout(10_000);
    let second = call(&mut e, 2, "slow");
    let third = call(&mut e, 3, "slow");
    e.handle_timeout(10_400);
    assert_eq!(e.poll_timeout(), Some(11_000));
    // the first times out alone; the others keep their own deadline
    e.handle_timeout(11_000);
    let out = outputs(&mut e);
    assert!(matches!(&out[0], Output::TimedOut(t) if t.id == first.id));
    assert_eq!(reply(&out[1])["id"], 1);
    assert_eq!(out.len(), 2);
    assert_eq!(e.poll_timeout(), Some(11_400));
    // one answered in time has no deadline any more
    e.complete(second.id, &json!({"content": []})).unwrap();
    assert_eq!(reply(&outputs(&mut e)[0])["id"], 2);
    assert_eq!(e.poll_timeout(), Some(11_400));
    // a late tick answers every one past its deadline, in the order they began
    let fourth = call(&mut e, 4, "hang");
    e.handle_timeout(20_000);
    let out = outputs(&mut e);
    let timed: Vec<u64> = out
        .iter()
        .filter_map(|o| match o {
            Output::TimedOut(t) => Some(t.id),
            _ => None,
        })
        .collect();
    assert_eq!(timed, [third.id]);
    // the fourth began before this tick: its clock starts at it
    assert_eq!(e.poll_timeout(), Some(21_000));
    e.handle_timeout(21_000);
    assert!(matches!(&outputs(&mut e)[0], Output::TimedOut(t) if t.id == fourth.id));
}

#[test]
fn a_cancelled_invocation_has_no_deadline() {
    let mut e = engine(EngineConfig::default().with_invocation_timeout_ms(500));
    let inv = call(&mut e, 1, "hang");
    e.handle_timeout(0);
    // a notification: no reply owed
    assert!(!e.handle(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#
    ));
    assert_eq!(outputs(&mut e), vec![Output::Cancel(inv.id)]);
    assert_eq!(e.poll_timeout(), None);
    e.handle_timeout(10_000);
    assert!(outputs(&mut e).is_empty());
}

#[test]
fn other_kinds_time_out_with_an_internal_error_and_whole_seconds_read_whole() {
    let mut e = engine(EngineConfig::default().with_invocation_timeout_ms(2_000));
    e.set_surface(
        Surface::new()
            .with_prompts(vec![json!({"name": "assist"})])
            .unwrap(),
    );
    let _ = e.handle(
        &json!({"jsonrpc": "2.0", "id": "p", "method": "prompts/get", "params": {"name": "assist"}})
            .to_string(),
    );
    assert!(matches!(e.poll_output(), Some(Output::Invoke(_))));
    e.handle_timeout(0);
    e.handle_timeout(2_000);
    let out = outputs(&mut e);
    let r = reply(&out[1]);
    assert_eq!(r["error"]["code"], -32603);
    assert_eq!(r["error"]["message"], "assist timed out after 2 s");
}

#[test]
fn a_fork_keeps_the_timeout_and_the_waiting_for_can_change() {
    let base = engine(
        EngineConfig::default()
            .with_invocation_timeout_ms(100)
            .with_waiting_for("a"),
    );
    let mut e = base.fork();
    e.set_waiting_for(Some("upstream b".into()));
    call(&mut e, 1, "hang");
    e.handle_timeout(0);
    e.handle_timeout(100);
    let out = outputs(&mut e);
    assert!(
        matches!(&out[0], Output::TimedOut(t) if t.message == "hang timed out after 0.1 s waiting for upstream b")
    );
}

#[test]
fn source_names_follow_the_rule() {
    let mut e = engine(EngineConfig::default());
    let good = Source::new("hub_2-a", catalog());
    for bad in ["", "the hub", "hub/x", "ü", "x".repeat(33).as_str()] {
        let err = e
            .set_sources(&[good.clone(), Source::new(bad, catalog())])
            .unwrap_err();
        assert_eq!((err.kind(), err.pointer()), (ErrorKind::Usage, "/1/name"));
        assert_eq!(err.misuse(), Some(Misuse::BadName));
        assert!(err
            .message()
            .contains("use 1 to 32 letters, digits, _ or -"));
    }
    e.set_sources(&[good, Source::new("x".repeat(32), catalog())])
        .unwrap();
    assert_eq!(e.tool_count(), 4);
}
