//! The upstream client state machine against scripted servers: a
//! 2026-07-28 server (the crate's own engine behind its HTTP checks), a
//! 2025-only server, a legacy HTTP+SSE server, and their faults.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use mcp_switchboard::client::{
    upstream_request, CallKind, ClientConfig, ClientOutput, Failure, HttpSend, ListKind, Relay,
    Transport, UpstreamClient,
};
use mcp_switchboard::engine::{Engine, EngineConfig, Era, InvocationKind, Output, Surface};
use mcp_switchboard::http::{check_message, BodyDecision, HttpPolicy, HttpRequest};
use mcp_switchboard::Catalog;
use serde_json::{json, Value};

/// A request the client asked the host to send.
#[derive(Debug, Clone)]
struct Req {
    exchange: u64,
    method: &'static str,
    url: String,
    headers: Vec<(String, String)>,
    body: Value,
    call: Option<u64>,
    stream: bool,
}

impl Req {
    fn from(s: HttpSend) -> Req {
        Req {
            exchange: s.exchange,
            method: s.method,
            url: s.url,
            headers: s.headers,
            body: s
                .body
                .as_deref()
                .map_or(Value::Null, |b| serde_json::from_str(b).unwrap()),
            call: s.call,
            stream: s.stream,
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn rpc(&self) -> &str {
        self.body["method"].as_str().unwrap_or("")
    }

    fn id(&self) -> Value {
        self.body["id"].clone()
    }

    fn reply(&self, result: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": self.id(), "result": result})
    }

    fn error(&self, code: i64, message: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": self.id(), "error": {"code": code, "message": message}})
    }
}

/// How a scripted server answers one HTTP request.
enum Answer {
    /// A JSON body.
    Json(u16, Vec<(&'static str, String)>, Value),
    /// An event stream of these messages; kept open when `hold`.
    Sse(Vec<Value>, bool),
    /// A status with an empty body.
    Status(u16),
    /// 202, then these messages on the legacy transport's stream.
    Accepted(Vec<Value>),
    /// The legacy transport's stream, naming its endpoint.
    Endpoint(&'static str),
    /// Never answered.
    Silent,
    /// The network failed.
    Broken,
}

trait Server {
    fn answer(&mut self, req: &Req) -> Answer;
}

impl<F: FnMut(&Req) -> Answer> Server for F {
    fn answer(&mut self, req: &Req) -> Answer {
        self(req)
    }
}

struct Host<S> {
    c: UpstreamClient,
    s: S,
    now: u64,
    sent: Vec<Req>,
    out: Vec<ClientOutput>,
    open: BTreeSet<u64>,
    aborted: Vec<u64>,
    legacy_stream: Option<u64>,
}

impl<S: Server> Host<S> {
    fn new(config: ClientConfig, s: S) -> Host<S> {
        Host {
            c: UpstreamClient::new(config),
            s,
            now: 1000,
            sent: Vec::new(),
            out: Vec::new(),
            open: BTreeSet::new(),
            aborted: Vec::new(),
            legacy_stream: None,
        }
    }

    fn connect(&mut self) {
        self.c.connect(self.now).unwrap();
        self.run();
    }

    fn run(&mut self) {
        while let Some(o) = self.c.poll_output() {
            match o {
                ClientOutput::Send(s) => {
                    let req = Req::from(s);
                    self.sent.push(req.clone());
                    let a = self.s.answer(&req);
                    self.deliver(&req, a);
                }
                ClientOutput::Abort { exchange } => {
                    self.open.remove(&exchange);
                    self.aborted.push(exchange);
                }
                other => self.out.push(other),
            }
        }
    }

    fn deliver(&mut self, req: &Req, a: Answer) {
        let (ex, now) = (req.exchange, self.now);
        let json = |extra: Vec<(&str, String)>| {
            let mut h = vec![("Content-Type".to_string(), "application/json".to_string())];
            h.extend(extra.into_iter().map(|(k, v)| (k.to_string(), v)));
            h
        };
        let sse = vec![("content-type".to_string(), "text/event-stream".to_string())];
        match a {
            Answer::Json(status, headers, body) => {
                self.c.response_head(ex, status, &json(headers), now);
                // in two pieces, to read across chunks
                let text = body.to_string();
                let (a, b) = text.split_at(text.len() / 2);
                self.c.response_chunk(ex, a.as_bytes(), now);
                self.c.response_chunk(ex, b.as_bytes(), now);
                self.c.response_end(ex, now);
            }
            Answer::Sse(messages, hold) => {
                self.c.response_head(ex, 200, &sse, now);
                self.open.insert(ex);
                self.push_now(ex, &messages);
                if !hold {
                    self.open.remove(&ex);
                    self.c.response_end(ex, now);
                }
            }
            Answer::Status(status) => {
                self.c.response_head(ex, status, &[], now);
                self.c.response_end(ex, now);
            }
            Answer::Accepted(messages) => {
                self.c.response_head(ex, 202, &[], now);
                self.c.response_end(ex, now);
                if let Some(stream) = self.legacy_stream {
                    self.push_now(stream, &messages);
                }
            }
            Answer::Endpoint(path) => {
                self.c.response_head(ex, 200, &sse, now);
                self.open.insert(ex);
                self.legacy_stream = Some(ex);
                let frame = format!(": hello\n\nevent: endpoint\ndata: {path}\n\n");
                self.c.response_chunk(ex, frame.as_bytes(), now);
            }
            Answer::Silent => {
                self.open.insert(ex);
            }
            Answer::Broken => self.c.response_error(ex, "ECONNREFUSED", now),
        }
    }

    fn push_now(&mut self, ex: u64, messages: &[Value]) {
        for m in messages {
            let frame = format!("event: message\nid: 1\ndata: {m}\n\n");
            self.c.response_chunk(ex, frame.as_bytes(), self.now);
        }
    }

    /// Messages on an open stream, then what follows.
    fn push(&mut self, ex: u64, messages: &[Value]) {
        assert!(self.open.contains(&ex), "exchange {ex} is not open");
        self.push_now(ex, messages);
        self.run();
    }

    fn end(&mut self, ex: u64) {
        self.open.remove(&ex);
        self.c.response_end(ex, self.now);
        self.run();
    }

    fn advance(&mut self, ms: u64) {
        self.now += ms;
        if self.c.poll_timeout().is_some_and(|t| t <= self.now) {
            self.c.handle_timeout(self.now);
        }
        self.run();
    }

    fn call(&mut self, kind: CallKind, params: Value) -> u64 {
        let id = self.c.call(kind, params, None, self.now).unwrap();
        self.run();
        id
    }

    fn take(&mut self) -> Vec<ClientOutput> {
        std::mem::take(&mut self.out)
    }

    fn rpcs(&self) -> Vec<String> {
        self.sent
            .iter()
            .map(|r| match r.rpc() {
                "" => r.method.to_string(),
                m => m.to_string(),
            })
            .collect()
    }

    fn last(&self, rpc: &str) -> &Req {
        self.sent.iter().rev().find(|r| r.rpc() == rpc).unwrap()
    }
}

fn listed(out: &[ClientOutput], kind: ListKind) -> Vec<Value> {
    out.iter()
        .rev()
        .find_map(|o| match o {
            ClientOutput::Listed { kind: k, items, .. } if *k == kind => Some(items.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {kind:?} list in {out:?}"))
}

fn names(items: &[Value]) -> Vec<&str> {
    items.iter().filter_map(|i| i["name"].as_str()).collect()
}

fn done(out: &[ClientOutput], call: u64) -> Result<Value, Failure> {
    out.iter()
        .find_map(|o| match o {
            ClientOutput::Done { call: c, result } if *c == call => Some(Ok(result.clone())),
            ClientOutput::Failed { call: c, error } if *c == call => Some(Err(error.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("call {call} has no outcome in {out:?}"))
}

// ---- a 2026-07-28 server: the crate's engine behind its HTTP checks ----

struct Modern {
    engine: Engine,
    policy: HttpPolicy,
    listen: Option<(u64, Value)>,
}

impl Modern {
    fn new() -> Modern {
        let catalog = Catalog::from_value(json!([
            {"name": "get_state", "inputSchema": {"type": "object"}},
            {"name": "ask_name", "inputSchema": {"type": "object"}},
            {"name": "slow", "inputSchema": {"type": "object"}}
        ]))
        .unwrap();
        let mut engine = Engine::new(catalog, EngineConfig::default());
        engine.set_surface(
            Surface::new()
                .with_prompts(vec![json!({"name": "assist"})])
                .unwrap()
                .with_resources(vec![json!({"uri": "home://areas", "name": "areas"})])
                .unwrap(),
        );
        Modern {
            engine,
            policy: HttpPolicy::for_host("127.0.0.1", None).unwrap(),
            listen: None,
        }
    }

    /// What the engine sends on the listen stream.
    fn notices(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some(o) = self.engine.poll_output() {
            if let Output::Notification(n) = o {
                out.push(serde_json::from_str(&n.message).unwrap());
            }
        }
        out
    }
}

impl Server for Modern {
    // HttpRequest is non-exhaustive: built by assignment
    #[allow(clippy::field_reassign_with_default)]
    fn answer(&mut self, req: &Req) -> Answer {
        if req.method != "POST" {
            return Answer::Status(405);
        }
        let mut http = HttpRequest::default();
        http.method = "POST".into();
        http.path = "/mcp".into();
        http.headers = req.headers.clone();
        let body = req.body.to_string();
        match check_message(&http, &body, false, &self.policy) {
            BodyDecision::Refuse { status, body } => {
                return Answer::Json(status, vec![], serde_json::from_str(&body).unwrap())
            }
            BodyDecision::Stateless {
                expects_reply: true,
            } => {}
            other => panic!("the client sent what a 2026-07-28 server refuses: {other:?}"),
        }
        assert!(
            self.engine.handle_on(req.exchange, &body),
            "the gate said a reply is owed"
        );
        let mut notes = Vec::new();
        while let Some(o) = self.engine.poll_output() {
            match o {
                Output::Invoke(inv) => match inv.tool.as_str() {
                    "slow" => {}
                    "ask_name" if inv.input_responses.is_none() => self
                        .engine
                        .input_required(
                            inv.id,
                            &json!({"who": {"method": "elicitation/create", "params": {
                                "mode": "form", "message": "Your name?",
                                "requestedSchema": {"type": "object"}}}}),
                            Some("state-1"),
                        )
                        .unwrap(),
                    "ask_name" => {
                        let name = inv.input_responses.unwrap()["who"]["content"]["name"].clone();
                        assert_eq!(inv.request_state.as_deref(), Some("state-1"));
                        self.engine
                            .complete(
                                inv.id,
                                &json!({"content": [{"type": "text", "text": name}]}),
                            )
                            .unwrap();
                    }
                    _ => self
                        .engine
                        .complete(
                            inv.id,
                            &json!({"content": [{"type": "text", "text": "on"}]}),
                        )
                        .unwrap(),
                },
                Output::Reply(r) => {
                    return Answer::Json(
                        r.status,
                        vec![],
                        serde_json::from_str(&r.message).unwrap(),
                    )
                }
                Output::Notification(n) => notes.push(serde_json::from_str(&n.message).unwrap()),
                _ => {}
            }
        }
        if req.rpc() == "subscriptions/listen" {
            self.listen = Some((req.exchange, req.id()));
            return Answer::Sse(notes, true);
        }
        Answer::Silent
    }
}

fn modern_config() -> ClientConfig {
    ClientConfig::new("http://127.0.0.1/mcp")
        .with_token(Some("t0k".into()))
        .with_capabilities(json!({"elicitation": {}}))
        .with_timeout_ms(5_000)
}

#[test]
fn a_2026_server_is_spoken_to_statelessly() {
    let mut h = Host::new(modern_config(), Modern::new());
    h.connect();
    let out = h.take();
    let ClientOutput::Connected(c) = &out[0] else {
        panic!("{out:?}")
    };
    assert_eq!((c.era, c.version.as_str()), (Era::Modern, "2026-07-28"));
    assert_eq!(c.transport, Transport::StreamableHttp);
    assert_eq!(c.server_info["name"], "mcp-switchboard");
    assert_eq!(
        names(&listed(&out, ListKind::Tools)),
        ["get_state", "ask_name", "slow"]
    );
    assert_eq!(names(&listed(&out, ListKind::Prompts)), ["assist"]);
    assert_eq!(listed(&out, ListKind::Resources).len(), 1);
    assert!(out.contains(&ClientOutput::Ready));
    // no initialize, no session; the envelope and headers on every request
    assert!(!h.rpcs().iter().any(|m| m == "initialize"));
    for r in h.sent.iter().filter(|r| r.method == "POST") {
        assert_eq!(r.header("authorization"), Some("Bearer t0k"));
        assert_eq!(r.header("mcp-protocol-version"), Some("2026-07-28"));
        assert_eq!(r.header("mcp-method"), Some(r.rpc()));
        assert!(r.header("mcp-session-id").is_none());
        assert_eq!(
            r.body["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"],
            json!({"elicitation": {}})
        );
    }
    // list changes come on subscriptions/listen
    let listen = h.last("subscriptions/listen").clone();
    assert!(listen.stream);
    assert_eq!(
        listen.body["params"]["notifications"],
        json!({"toolsListChanged": true, "resourcesListChanged": true, "promptsListChanged": true})
    );
    assert!(h.open.contains(&listen.exchange));

    // a call: Mcp-Name is checked by the server's rules
    let call = h.call(
        CallKind::Tool,
        json!({"name": "get_state", "arguments": {}}),
    );
    let out = h.take();
    assert_eq!(done(&out, call).unwrap()["content"][0]["text"], "on");
    let sent = h.last("tools/call");
    assert_eq!(
        (sent.header("mcp-name"), sent.call),
        (Some("get_state"), Some(call))
    );
    assert_eq!(sent.body["params"]["_meta"]["progressToken"], call);

    // the tools change: the client lists them again
    h.s.engine.set_catalog(
        Catalog::from_value(
            json!([{"name": "get_state", "inputSchema": {"type": "object"}},
                                   {"name": "new_tool", "inputSchema": {"type": "object"}}]),
        )
        .unwrap(),
    );
    let notes = h.s.notices();
    assert_eq!(notes[0]["method"], "notifications/tools/list_changed");
    h.push(listen.exchange, &notes);
    let out = h.take();
    assert_eq!(
        names(&listed(&out, ListKind::Tools)),
        ["get_state", "new_tool"]
    );
    assert!(!out.contains(&ClientOutput::Ready), "ready only once");
    let source = h.c.source("hub").unwrap();
    assert_eq!(source.catalog.len(), 2);
    assert_eq!(source.surface.prompts().len(), 1);
}

#[test]
fn input_required_is_asked_and_retried_with_the_answers() {
    let mut h = Host::new(modern_config(), Modern::new());
    h.connect();
    h.take();
    let call = h.call(CallKind::Tool, json!({"name": "ask_name", "arguments": {}}));
    let out = h.take();
    let [ClientOutput::Ask {
        ask,
        call: Some(c),
        method,
        params,
        ..
    }] = out.as_slice()
    else {
        panic!("{out:?}")
    };
    assert_eq!((*c, method.as_str()), (call, "elicitation/create"));
    assert_eq!(params["message"], "Your name?");
    let first = h.last("tools/call").id();
    h.c.answer(
        *ask,
        json!({"action": "accept", "content": {"name": "Ada"}}),
        h.now,
    )
    .unwrap();
    h.run();
    let retry = h.last("tools/call");
    assert_ne!(retry.id(), first, "a retry is a new request");
    assert_eq!(retry.body["params"]["requestState"], "state-1");
    let out = h.take();
    assert_eq!(done(&out, call).unwrap()["content"][0]["text"], "Ada");
    // answering again is misuse
    assert!(h.c.answer(*ask, json!({}), h.now).is_err());
}

/// Relays an invocation of `ask_name` for a client of `era`; the ask and its relay.
fn relayed_ask(h: &mut Host<Modern>, era: Option<Era>) -> (u64, u64, Relay) {
    let call =
        h.c.relay(InvocationKind::Tool, "ask_name", &Value::Null, era, h.now)
            .unwrap();
    h.run();
    let out = h.take();
    let [ClientOutput::Ask {
        ask,
        call: Some(c),
        relay,
        ..
    }] = out.as_slice()
    else {
        panic!("{out:?}")
    };
    assert_eq!(*c, call);
    (call, *ask, relay.clone())
}

#[test]
fn a_relayed_question_goes_to_the_client_of_the_invocation_by_its_era() {
    let mut h = Host::new(modern_config(), Modern::new());
    h.connect();
    h.take();
    // a 2026-07-28 client: an entry of its inputRequests, answered by its retry
    let (call, ask, relay) = relayed_ask(&mut h, Some(Era::Modern));
    let sent = h.last("tools/call");
    assert_eq!(sent.body["params"]["name"], "ask_name");
    assert_eq!(sent.body["params"]["arguments"], json!({}));
    let key = format!("upstream-{ask}");
    let Relay::Input { key: k, request } = relay else {
        panic!("{relay:?}")
    };
    assert_eq!(k, key);
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Your name?");
    let answers = json!({key.as_str(): {"action": "accept", "content": {"name": "Ada"}}});
    h.c.answer_inputs(call, &answers, h.now).unwrap();
    h.run();
    assert_eq!(done(&h.take(), call).unwrap()["content"][0]["text"], "Ada");

    // a retry without the answer: refused, and the call fails with it
    let (call, ask, _) = relayed_ask(&mut h, Some(Era::Modern));
    h.c.answer_inputs(call, &json!({}), h.now).unwrap();
    h.run();
    let expected = Failure::Rpc {
        code: -32602,
        message: format!("no answer to upstream-{ask}"),
        data: None,
    };
    assert_eq!(done(&h.take(), call), Err(expected));
    assert!(h.c.answer_inputs(call, &json!({}), h.now).is_err());

    // a 2025 client is asked with a request; one that refuses is declined with why
    let (call, ask, relay) = relayed_ask(&mut h, Some(Era::Legacy));
    assert_eq!(relay, Relay::Request);
    h.c.decline(ask, Some("the user said no"), h.now).unwrap();
    h.run();
    let expected = Failure::Rpc {
        code: -32603,
        message: "the user said no".into(),
        data: None,
    };
    assert_eq!(done(&h.take(), call), Err(expected));

    // no client to ask, or a call made by the host: the host answers or declines
    let (call, ask, relay) = relayed_ask(&mut h, None);
    assert_eq!(relay, Relay::Host);
    h.c.decline(ask, None, h.now).unwrap();
    h.run();
    let expected = Failure::Rpc {
        code: -32603,
        message: "the client cannot answer elicitation/create".into(),
        data: None,
    };
    assert_eq!(done(&h.take(), call), Err(expected));
    h.call(CallKind::Tool, json!({"name": "ask_name"}));
    assert!(matches!(
        &h.take()[..],
        [ClientOutput::Ask {
            relay: Relay::Host,
            ..
        }]
    ));
}

#[test]
fn an_invocation_becomes_the_request_its_kind_calls_for() {
    let args = json!({"area": "kitchen"});
    assert_eq!(
        upstream_request(InvocationKind::Tool, "get_state", &args),
        (
            CallKind::Tool,
            json!({"name": "get_state", "arguments": {"area": "kitchen"}})
        )
    );
    assert_eq!(
        upstream_request(InvocationKind::Prompt, "assist", &Value::Null),
        (
            CallKind::GetPrompt,
            json!({"name": "assist", "arguments": {}})
        )
    );
    let read = json!({"uri": "hub+file:///a", "template": null});
    assert_eq!(
        upstream_request(InvocationKind::Resource, "file:///a", &read),
        (CallKind::ReadResource, json!({"uri": "file:///a"}))
    );
    assert_eq!(
        upstream_request(InvocationKind::Resource, "", &read).1,
        json!({"uri": "hub+file:///a"})
    );
    let complete = json!({"ref": {"type": "ref/resource", "uri": "hub+file:///{x}"},
        "argument": {"name": "x", "value": "a"}, "context": {"arguments": {}}});
    assert_eq!(
        upstream_request(InvocationKind::Completion, "file:///{x}", &complete),
        (
            CallKind::Complete,
            json!({"ref": {"type": "ref/resource", "uri": "file:///{x}"},
                "argument": {"name": "x", "value": "a"}, "context": {"arguments": {}}})
        )
    );
}

#[test]
fn a_2026_timeout_closes_the_request() {
    let mut h = Host::new(modern_config(), Modern::new());
    h.connect();
    h.take();
    let call = h.call(CallKind::Tool, json!({"name": "slow"}));
    let ex = h.last("tools/call").exchange;
    assert!(h.open.contains(&ex));
    assert_eq!(h.c.poll_timeout(), Some(h.now + 5_000));
    h.advance(4_999);
    assert!(h.take().is_empty());
    h.advance(1);
    let out = h.take();
    assert_eq!(done(&out, call), Err(Failure::Timeout));
    assert!(h.aborted.contains(&ex), "closing the stream cancels it");
    assert!(!h.rpcs().iter().any(|m| m == "notifications/cancelled"));
    // an unknown tool: the server's JSON-RPC error, typed
    let call = h.call(CallKind::Tool, json!({"name": "nope"}));
    let out = h.take();
    assert!(matches!(
        done(&out, call),
        Err(Failure::Rpc { code: -32602, .. })
    ));
    // misuse is a typed error
    assert!(h
        .c
        .call(CallKind::Tool, json!({"arguments": {}}), None, h.now)
        .is_err());
    assert!(h
        .c
        .call(CallKind::Complete, json!([]), None, h.now)
        .is_err());
    assert!(h.c.cancel(999, h.now).is_err());
    assert!(h.c.connect(h.now).is_err());
}

// ---- a 2025-only server ----

/// A 2025-11-25 server in the manner of SDK 1.x: `server/discover` is an
/// unknown method, a session starts with initialize, tools come in pages,
/// a GET stream carries list changes, and the session expires on demand.
struct Legacy2025 {
    sessions: u32,
    expired: bool,
    tools_version: u32,
    stream: Option<u64>,
    call_stream: Option<u64>,
}

impl Legacy2025 {
    fn new() -> Legacy2025 {
        Legacy2025 {
            sessions: 0,
            expired: false,
            tools_version: 1,
            stream: None,
            call_stream: None,
        }
    }
}

impl Server for Legacy2025 {
    fn answer(&mut self, req: &Req) -> Answer {
        let session = format!("s{}", self.sessions);
        if req.rpc() == "server/discover" {
            return Answer::Json(200, vec![], req.error(-32601, "Method not found"));
        }
        if req.rpc() == "initialize" {
            assert!(req.header("mcp-session-id").is_none());
            self.sessions += 1;
            self.expired = false;
            let result = json!({"protocolVersion": "2025-06-18",
                "capabilities": {"tools": {"listChanged": true}, "prompts": {}},
                "serverInfo": {"name": "old", "version": "1"}});
            return Answer::Json(
                200,
                vec![("Mcp-Session-Id", format!("s{}", self.sessions))],
                req.reply(result),
            );
        }
        if req.header("mcp-session-id") != Some(session.as_str()) || self.expired {
            return Answer::Status(404);
        }
        assert_eq!(req.header("mcp-protocol-version"), Some("2025-06-18"));
        assert!(req.header("mcp-method").is_none());
        if req.method == "GET" {
            self.stream = Some(req.exchange);
            return Answer::Sse(vec![], true);
        }
        if req.body.get("id").is_none() || req.body.get("method").is_none() {
            // notifications and answers
            return Answer::Status(202);
        }
        match req.rpc() {
            "tools/list" => {
                let page = req.body["params"]["cursor"].as_str();
                let v = self.tools_version;
                match page {
                    None => Answer::Json(
                        200,
                        vec![],
                        req.reply(json!({
                        "tools": [{"name": format!("a{v}"), "inputSchema": {"type": "object"}}],
                        "nextCursor": "p2"})),
                    ),
                    Some("p2") => Answer::Json(
                        200,
                        vec![],
                        req.reply(json!({
                        "tools": [{"name": format!("b{v}"), "inputSchema": {"type": "object"}}]})),
                    ),
                    _ => Answer::Json(200, vec![], req.error(-32602, "bad cursor")),
                }
            }
            "prompts/list" => Answer::Json(200, vec![], req.reply(json!({"prompts": []}))),
            "tools/call" if req.body["params"]["name"] == "confirm" => {
                // progress and a question on the call's stream; the result later
                self.call_stream = Some(req.exchange);
                let token = req.body["params"]["_meta"]["progressToken"].clone();
                Answer::Sse(
                    vec![
                        json!({"jsonrpc": "2.0", "method": "notifications/progress",
                               "params": {"progressToken": token, "progress": 1, "total": 2}}),
                        json!({"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create",
                               "params": {"message": "Sure?"}}),
                    ],
                    true,
                )
            }
            "tools/call" if req.body["params"]["name"] == "slow" => Answer::Silent,
            "tools/call" => Answer::Json(
                200,
                vec![],
                req.reply(json!({"content": [{"type": "text", "text": session}]})),
            ),
            other => panic!("unexpected {other}"),
        }
    }
}

#[test]
fn a_2025_server_falls_back_to_initialize_with_sessions_and_pages() {
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), Legacy2025::new());
    h.connect();
    let out = h.take();
    let ClientOutput::Connected(c) = &out[0] else {
        panic!("{out:?}")
    };
    assert_eq!((c.era, c.version.as_str()), (Era::Legacy, "2025-06-18"));
    assert_eq!(c.server_info["name"], "old");
    assert_eq!(
        h.rpcs()[..3],
        ["server/discover", "initialize", "notifications/initialized"]
    );
    assert_eq!(h.sent[1].body["params"]["protocolVersion"], "2025-11-25");
    assert!(h.sent[1].header("mcp-protocol-version").is_none());
    // every page of the tools, the prompts, no resources
    assert_eq!(names(&listed(&out, ListKind::Tools)), ["a1", "b1"]);
    assert!(listed(&out, ListKind::Prompts).is_empty());
    assert!(!out.iter().any(|o| matches!(
        o,
        ClientOutput::Listed {
            kind: ListKind::Resources,
            ..
        }
    )));
    assert!(out.contains(&ClientOutput::Ready));
    let get = h.sent.iter().find(|r| r.method == "GET").unwrap();
    assert_eq!(get.header("accept"), Some("text/event-stream"));
    assert!(get.stream);

    // list_changed on the GET stream
    h.s.tools_version = 2;
    let stream = h.s.stream.unwrap();
    h.push(
        stream,
        &[json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})],
    );
    assert_eq!(names(&listed(&h.take(), ListKind::Tools)), ["a2", "b2"]);

    // progress and a server request during a call, tagged with it
    let call = h.call(CallKind::Tool, json!({"name": "confirm"}));
    let out = h.take();
    assert!(
        matches!(&out[0], ClientOutput::Progress { call: c, params } if *c == call && params["total"] == 2)
    );
    let ClientOutput::Ask {
        ask,
        call: Some(c),
        method,
        ..
    } = &out[1]
    else {
        panic!("{out:?}")
    };
    assert_eq!((*c, method.as_str()), (call, "elicitation/create"));
    h.c.answer(*ask, json!({"action": "accept"}), h.now)
        .unwrap();
    h.run();
    let answer = h.sent.last().unwrap();
    assert_eq!(
        answer.body,
        json!({"jsonrpc": "2.0", "id": "q1", "result": {"action": "accept"}})
    );
    assert_eq!(answer.header("mcp-session-id"), Some("s1"));
    let call_stream = h.s.call_stream.unwrap();
    let id = h.last("tools/call").id();
    h.push(
        call_stream,
        &[json!({"jsonrpc": "2.0", "id": id, "result": {"content": []}})],
    );
    h.end(call_stream);
    assert_eq!(done(&h.take(), call).unwrap(), json!({"content": []}));
}

#[test]
fn an_expired_session_is_initialized_again_and_the_request_resent() {
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), Legacy2025::new());
    h.connect();
    h.take();
    h.s.expired = true;
    let call = h.call(CallKind::Tool, json!({"name": "x"}));
    let out = h.take();
    assert_eq!(done(&out, call).unwrap()["content"][0]["text"], "s2");
    let inits = h.rpcs().iter().filter(|m| *m == "initialize").count();
    assert_eq!(inits, 2);
    let calls: Vec<&Req> = h.sent.iter().filter(|r| r.rpc() == "tools/call").collect();
    assert_eq!(
        (
            calls[0].header("mcp-session-id"),
            calls[1].header("mcp-session-id")
        ),
        (Some("s1"), Some("s2"))
    );
    assert!(!out.iter().any(|o| matches!(o, ClientOutput::Connected(_))));
}

#[test]
fn a_2025_timeout_sends_cancelled() {
    let mut h = Host::new(
        ClientConfig::new("http://hub/mcp").with_timeout_ms(100),
        Legacy2025::new(),
    );
    h.connect();
    h.take();
    let call = h.call(CallKind::Tool, json!({"name": "slow"}));
    let rpc = h.last("tools/call").clone();
    h.advance(100);
    let out = h.take();
    assert_eq!(done(&out, call), Err(Failure::Timeout));
    assert!(h.aborted.contains(&rpc.exchange));
    let cancel = h.last("notifications/cancelled");
    assert_eq!(cancel.body["params"]["requestId"], rpc.id());
    assert_eq!(cancel.header("mcp-session-id"), Some("s1"));
    // and the host can cancel
    let call = h.call(CallKind::Tool, json!({"name": "slow"}));
    h.c.cancel(call, h.now).unwrap();
    h.run();
    assert_eq!(done(&h.take(), call), Err(Failure::Cancelled));
}

// ---- the legacy HTTP+SSE transport ----

fn legacy_sse(req: &Req) -> Answer {
    if req.method == "POST" && req.body.get("id").is_none() {
        return Answer::Status(202);
    }
    match (req.method, req.url.as_str(), req.rpc()) {
        ("POST", "http://old/sse", _) => Answer::Status(405),
        ("GET", "http://old/sse", _) => Answer::Endpoint("/messages?sid=7"),
        ("POST", "http://old/messages?sid=7", "initialize") => {
            Answer::Accepted(vec![req.reply(
                json!({"protocolVersion": "2024-11-05", "capabilities": {"tools": {}}}),
            )])
        }
        ("POST", "http://old/messages?sid=7", "tools/list") => {
            Answer::Accepted(vec![req.reply(
                json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}),
            )])
        }
        ("POST", "http://old/messages?sid=7", "tools/call") => {
            Answer::Accepted(vec![req.error(-32603, "boom")])
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn a_legacy_sse_server_is_reached_through_its_stream() {
    let mut h = Host::new(ClientConfig::new("http://old/sse"), legacy_sse);
    h.connect();
    let out = h.take();
    let ClientOutput::Connected(c) = &out[0] else {
        panic!("{out:?}")
    };
    assert_eq!(
        (c.transport, c.version.as_str()),
        (Transport::HttpSse, "2024-11-05")
    );
    assert_eq!(names(&listed(&out, ListKind::Tools)), ["t"]);
    assert!(out.contains(&ClientOutput::Ready));
    assert_eq!(
        h.rpcs(),
        [
            "server/discover",
            "initialize",
            "GET",
            "initialize",
            "notifications/initialized",
            "tools/list"
        ]
    );
    // a JSON-RPC error arrives on the stream, typed
    let call = h.call(CallKind::Tool, json!({"name": "t"}));
    assert!(
        matches!(done(&h.take(), call), Err(Failure::Rpc { code: -32603, ref message, .. }) if message == "boom")
    );
    // the stream ends: unavailable, then a reconnection straight to the stream
    let stream = h.legacy_stream.unwrap();
    h.end(stream);
    let out = h.take();
    assert!(
        matches!(&out[0], ClientOutput::Unavailable { error: Failure::Transport(m) } if m.contains("closed"))
    );
    let sent = h.sent.len();
    h.advance(1_000);
    assert_eq!(h.rpcs()[sent], "GET");
    assert!(h
        .take()
        .iter()
        .any(|o| matches!(o, ClientOutput::Connected(_))));
}

#[test]
fn a_legacy_endpoint_on_another_origin_is_refused() {
    let mut h = Host::new(ClientConfig::new("http://old/sse"), |req: &Req| {
        match req.method {
            "GET" => Answer::Endpoint("http://evil.example/messages"),
            _ => Answer::Status(404),
        }
    });
    h.connect();
    let out = h.take();
    assert!(
        matches!(&out[0], ClientOutput::Unavailable { error: Failure::Protocol(m) } if m.contains("origin"))
    );
    assert!(!h.sent.iter().any(|r| r.url.contains("evil")));
}

// ---- faults ----

#[test]
fn refusals_and_broken_connections_make_the_source_unavailable() {
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), |_: &Req| {
        Answer::Status(401)
    });
    let call = h.call(CallKind::Tool, json!({"name": "x"}));
    let out = h.take();
    assert!(matches!(
        done(&out, call),
        Err(Failure::Http { status: 401, .. })
    ));
    assert!(out.iter().any(|o| matches!(
        o,
        ClientOutput::Unavailable {
            error: Failure::Http { status: 401, .. }
        }
    )));
    assert_eq!(h.rpcs(), ["server/discover"], "no fallback after a refusal");
    // tried again later, waiting longer each time
    assert_eq!(h.c.poll_timeout(), Some(h.now + 1_000));
    h.advance(1_000);
    assert_eq!(h.c.poll_timeout(), Some(h.now + 2_000));

    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), |_: &Req| {
        Answer::Broken
    });
    h.connect();
    assert!(
        matches!(&h.take()[0], ClientOutput::Unavailable { error: Failure::Unreachable(m) } if m == "ECONNREFUSED")
    );

    let mut h = Host::new(
        ClientConfig::new("http://hub/mcp").with_timeout_ms(50),
        |_: &Req| Answer::Silent,
    );
    h.connect();
    h.advance(50);
    assert_eq!(
        h.take(),
        [ClientOutput::Unavailable {
            error: Failure::Timeout
        }]
    );
    h.c.close(h.now);
    assert!(h.c.connect(h.now).is_err());
}

#[test]
fn lists_and_replies_are_bounded() {
    // a server whose cursor never ends
    let endless = |req: &Req| match req.rpc() {
        "server/discover" => Answer::Json(
            200,
            vec![],
            req.reply(json!({
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}})),
        ),
        "tools/list" => Answer::Json(
            200,
            vec![],
            req.reply(json!({
            "tools": [{"name": "t", "inputSchema": {"type": "object"}},
                      {"name": "u", "inputSchema": {"type": "object"}}],
            "nextCursor": "again"})),
        ),
        "tools/call" => Answer::Json(
            200,
            vec![],
            req.reply(json!({"content": [{"type": "text", "text": "x".repeat(600)}]})),
        ),
        _ => Answer::Status(404),
    };
    let config = ClientConfig::new("http://hub/mcp")
        .with_list_limits(3, 5)
        .with_max_reply(512);
    let mut h = Host::new(config, endless);
    h.connect();
    let out = h.take();
    let Some(ClientOutput::Listed {
        items, truncated, ..
    }) = out
        .iter()
        .find(|o| matches!(o, ClientOutput::Listed { .. }))
    else {
        panic!("{out:?}")
    };
    assert_eq!((items.len(), *truncated), (5, true));
    assert_eq!(h.rpcs().iter().filter(|m| *m == "tools/list").count(), 3);
    let call = h.call(CallKind::Tool, json!({"name": "t"}));
    let out = h.take();
    assert!(matches!(done(&out, call), Err(Failure::Limit(_))));
}

#[test]
fn a_2025_error_body_on_a_4xx_is_a_typed_error() {
    // SDK 1.x refuses a request without a session with 400 and a JSON-RPC
    // error whose id is null: the probe falls back to initialize
    let server = |req: &Req| match req.rpc() {
        "server/discover" => Answer::Json(
            400,
            vec![],
            json!({"jsonrpc": "2.0", "id": null,
            "error": {"code": -32000, "message": "Bad Request: Server not initialized"}}),
        ),
        "initialize" => Answer::Json(
            200,
            vec![],
            req.reply(json!({"protocolVersion": "2025-11-25", "capabilities": {}})),
        ),
        "tools/call" => Answer::Json(
            400,
            vec![],
            json!({"jsonrpc": "2.0", "id": null,
            "error": {"code": -32602, "message": "Invalid arguments"}}),
        ),
        _ => Answer::Status(if req.method == "GET" { 405 } else { 202 }),
    };
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), server);
    h.connect();
    let out = h.take();
    assert!(matches!(&out[0], ClientOutput::Connected(c) if c.era == Era::Legacy));
    assert_eq!(out[1], ClientOutput::Ready, "no lists without capabilities");
    let call = h.call(CallKind::Tool, json!({"name": "x"}));
    assert!(matches!(
        done(&h.take(), call),
        Err(Failure::Rpc { code: -32602, .. })
    ));
    // 405 to the GET stream: not asked again
    assert_eq!(h.rpcs().iter().filter(|m| *m == "GET").count(), 1);
    assert_eq!(h.c.poll_timeout(), None);
}

/// Whatever the server sends (any status, content type, bytes, cut
/// anywhere), the client neither panics nor loses track: every call ends
/// with exactly one outcome.
#[test]
fn hostile_replies_never_panic() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let statuses = [200, 200, 200, 202, 400, 401, 404, 405, 500];
    let types = ["application/json", "text/event-stream", "text/html", ""];
    let bodies: [&[u8]; 8] = [
        br#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}}}}"#,
        br#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{"prompts":{}}}}"#,
        b"event: endpoint\ndata: /m\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[],\"nextCursor\":\"x\"}}\n\n",
        b"data: {\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"roots/list\"}\n\ndata: [1,2,{\"method\":7}]\n\n",
        b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32022,\"data\":{\"supported\":[]}}}",
        b"\xff\xfe{oops",
        b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n",
        br#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"x"}}}}"#,
    ];
    for round in 0..300 {
        let mut c = UpstreamClient::new(
            ClientConfig::new("http://hub/mcp")
                .with_timeout_ms(50)
                .with_max_reply(256),
        );
        let mut now = 0;
        let mut calls = BTreeSet::new();
        let mut outcomes = Vec::new();
        c.connect(now).unwrap();
        for _ in 0..40 {
            if next() % 4 == 0 {
                if let Ok(id) = c.call(CallKind::Tool, json!({"name": "t"}), None, now) {
                    calls.insert(id);
                }
            }
            let mut sends = Vec::new();
            while let Some(o) = c.poll_output() {
                match o {
                    ClientOutput::Send(s) => sends.push(s.exchange),
                    ClientOutput::Done { call, .. } | ClientOutput::Failed { call, .. } => {
                        outcomes.push(call)
                    }
                    ClientOutput::Ask { ask, .. } => {
                        let _ = c.answer(ask, json!({}), now);
                    }
                    _ => {}
                }
            }
            for ex in sends {
                let status = statuses[(next() % statuses.len() as u64) as usize];
                let ctype = types[(next() % types.len() as u64) as usize];
                let body = bodies[(next() % bodies.len() as u64) as usize];
                c.response_head(ex, status, &[("content-type".into(), ctype.into())], now);
                let cut = (next() as usize) % (body.len() + 1);
                c.response_chunk(ex, &body[..cut], now);
                c.response_chunk(ex, &body[cut..], now);
                match next() % 3 {
                    0 => c.response_error(ex, "reset", now),
                    1 => {}
                    _ => c.response_end(ex, now),
                }
            }
            now += next() % 40;
            c.handle_timeout(now);
        }
        c.close(now);
        while let Some(o) = c.poll_output() {
            if let ClientOutput::Done { call, .. } | ClientOutput::Failed { call, .. } = o {
                outcomes.push(call);
            }
        }
        outcomes.sort_unstable();
        let ended: Vec<u64> = calls.iter().copied().collect();
        assert_eq!(outcomes, ended, "round {round}: one outcome per call");
    }
}

#[test]
fn a_server_gone_while_connected_makes_the_source_unavailable() {
    // a 2025 server that answers until it is gone
    let mut gone = false;
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), move |req: &Req| {
        if gone {
            return Answer::Broken;
        }
        match req.rpc() {
            "server/discover" => Answer::Json(200, vec![], req.error(-32601, "no such method")),
            "initialize" => Answer::Json(
                200,
                vec![("mcp-session-id", "s1".into())],
                req.reply(json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}})),
            ),
            "tools/list" => Answer::Json(
                200,
                vec![],
                req.reply(json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]})),
            ),
            "tools/call" if req.body["params"]["name"] == "wrong_id" => Answer::Json(
                200,
                vec![],
                json!({"jsonrpc": "2.0", "id": "nope", "result": {}}),
            ),
            "tools/call" if req.body["params"]["name"] == "bye" => {
                gone = true;
                Answer::Broken
            }
            "tools/call" => Answer::Json(200, vec![], req.reply(json!({"content": []}))),
            "" => Answer::Status(405),
            _ => Answer::Status(202),
        }
    });
    h.connect();
    assert!(h.take().contains(&ClientOutput::Ready));
    // a reply without the response: named by its request
    let call = h.call(CallKind::Tool, json!({"name": "wrong_id"}));
    let rpc = h.last("tools/call").id();
    assert_eq!(
        done(&h.take(), call),
        Err(Failure::Protocol(format!(
            "no response to request {rpc} in the reply"
        )))
    );
    // unreachable: the call fails, the connection is lost, and the text names the upstream
    let call = h.call(CallKind::Tool, json!({"name": "bye"}));
    let out = h.take();
    let error = done(&out, call).unwrap_err();
    assert_eq!(error, Failure::Unreachable("ECONNREFUSED".into()));
    assert_eq!(
        h.c.describe(&error),
        "upstream http://hub/mcp is unreachable (ECONNREFUSED)"
    );
    assert!(out
        .iter()
        .any(|o| matches!(o, ClientOutput::Unavailable { .. })));
    assert!(!h.c.source("hub").unwrap().available);
    assert!(h.c.poll_timeout().is_some(), "a reconnection is scheduled");
}

#[test]
fn a_reply_cut_after_its_head_broke_off() {
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), |_: &Req| {
        Answer::Silent
    });
    h.connect();
    let probe = h.sent[0].exchange;
    let sse = [("content-type".to_string(), "text/event-stream".to_string())];
    h.c.response_head(probe, 200, &sse, h.now);
    h.c.response_chunk(probe, b"event: message\ndata: {\"jsonrpc\"", h.now);
    h.c.response_error(probe, "terminated", h.now);
    h.run();
    let out = h.take();
    assert!(out.iter().any(|o| matches!(o,
        ClientOutput::Unavailable { error: Failure::Transport(m) } if m == "the reply broke off before its end (terminated)")));
    assert_eq!(
        Failure::Transport("x".into()).describe("http://hub/mcp"),
        "upstream http://hub/mcp: x"
    );
}

/// What a stdio client wrote since last asked, parsed.
fn written(c: &mut UpstreamClient, out: &mut Vec<ClientOutput>) -> Vec<Value> {
    let mut w = Vec::new();
    while let Some(o) = c.poll_output() {
        match o {
            ClientOutput::Write { message } => w.push(serde_json::from_str(&message).unwrap()),
            other => out.push(other),
        }
    }
    w
}

#[test]
fn a_stdio_server_is_spoken_to_line_by_line_and_respawned() {
    let mut c = UpstreamClient::new(ClientConfig::new("node server.mjs").with_stdio(true));
    let mut out = Vec::new();
    c.connect(0).unwrap();
    assert_eq!(c.poll_output(), Some(ClientOutput::Spawn));
    let w = written(&mut c, &mut out);
    assert_eq!(w[0]["method"], "server/discover");
    // a 2025 server: method not found, then initialize
    let line = |v: Value| format!("{v}\n");
    c.receive(
        line(
            json!({"jsonrpc": "2.0", "id": w[0]["id"], "error": {"code": -32601, "message": "no"}}),
        )
        .as_bytes(),
        1,
    );
    let w = written(&mut c, &mut out);
    assert_eq!(w[0]["method"], "initialize");
    let init = line(json!({"jsonrpc": "2.0", "id": w[0]["id"], "result": {
        "protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": true}}}}));
    // in pieces, with a log line a server printed on stdout
    let (a, b) = init.split_at(20);
    c.receive(b"starting up\n", 2);
    c.receive(a.as_bytes(), 2);
    c.receive(b.as_bytes(), 2);
    let w = written(&mut c, &mut out);
    assert_eq!(
        w.iter()
            .map(|m| m["method"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["notifications/initialized", "tools/list"]
    );
    assert!(matches!(&out[0], ClientOutput::Connected(c) if c.transport == Transport::Stdio));
    c.receive(
        line(
            json!({"jsonrpc": "2.0", "id": w[1]["id"], "result": {"tools": [
            {"name": "t", "inputSchema": {"type": "object"}}]}}),
        )
        .as_bytes(),
        3,
    );
    written(&mut c, &mut out);
    assert!(out.contains(&ClientOutput::Ready));
    // a call, and a question of the server while it runs: it belongs to the call
    let call = c
        .call(CallKind::Tool, json!({"name": "t"}), None, 4)
        .unwrap();
    let w = written(&mut c, &mut out);
    assert_eq!(w[0]["method"], "tools/call");
    c.receive(
        line(json!({"jsonrpc": "2.0", "id": 99, "method": "elicitation/create", "params": {}}))
            .as_bytes(),
        5,
    );
    written(&mut c, &mut out);
    let Some(ClientOutput::Ask {
        ask,
        call: Some(of),
        ..
    }) = out.pop()
    else {
        panic!("{out:?}")
    };
    assert_eq!(of, call);
    c.answer(ask, json!({"action": "decline"}), 6).unwrap();
    assert_eq!(written(&mut c, &mut out)[0]["id"], 99);
    // list changes are read again
    c.receive(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n",
        7,
    );
    assert_eq!(written(&mut c, &mut out)[0]["method"], "tools/list");
    // the process ends: everything fails, it is started again later
    c.exited("exit code 1", 8);
    written(&mut c, &mut out);
    assert!(out.iter().any(|o| matches!(o, ClientOutput::Failed { call: f, error: Failure::Unreachable(m) } if *f == call && m == "exit code 1")));
    let at = c.poll_timeout().unwrap();
    c.handle_timeout(at);
    assert_eq!(c.poll_output(), Some(ClientOutput::Spawn));
    // what worked before: straight to initialize
    assert_eq!(written(&mut c, &mut out)[0]["method"], "initialize");
    // a line past the limit loses the connection
    let mut c = UpstreamClient::new(ClientConfig::new("srv").with_stdio(true).with_max_reply(64));
    c.connect(0).unwrap();
    let mut out = Vec::new();
    written(&mut c, &mut out);
    c.receive(&[b'x'; 40], 1);
    c.receive(&[b'x'; 40], 1);
    written(&mut c, &mut out);
    assert!(out.iter().any(|o| matches!(
        o,
        ClientOutput::Unavailable {
            error: Failure::Limit(_)
        }
    )));
}

// ---- bounds on what an upstream can send ----

/// A 2025 server whose `flood` call answers with `asks` requests of the
/// server (elicitation, pings) and `notes` progress notifications before
/// its result, all on the call's stream; tools/list gives `tools`.
fn flooding(asks: usize, notes: usize, tools: Value) -> impl FnMut(&Req) -> Answer {
    move |req: &Req| {
        if req.body.get("id").is_none() || req.body.get("method").is_none() {
            return Answer::Status(202);
        }
        match req.rpc() {
            "server/discover" => Answer::Json(200, vec![], req.error(-32601, "no")),
            "initialize" => Answer::Json(
                200,
                vec![("Mcp-Session-Id", "s1".into())],
                req.reply(json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}})),
            ),
            "tools/list" => Answer::Json(200, vec![], req.reply(json!({"tools": tools.clone()}))),
            "tools/call" => {
                let token = req.body["params"]["_meta"]["progressToken"].clone();
                let mut m = Vec::new();
                for i in 0..notes {
                    m.push(json!({"jsonrpc": "2.0", "method": "notifications/progress",
                        "params": {"progressToken": token, "progress": i}}));
                }
                for i in 0..asks {
                    let method = if i % 2 == 0 {
                        "elicitation/create"
                    } else {
                        "ping"
                    };
                    m.push(json!({"jsonrpc": "2.0", "id": format!("q{i}"), "method": method, "params": {}}));
                }
                m.push(req.reply(json!({"content": []})));
                Answer::Sse(m, false)
            }
            other => panic!("unexpected {other}"),
        }
    }
}

fn one_tool() -> Value {
    json!([{"name": "flood", "inputSchema": {"type": "object"}}])
}

/// The answers the client posted back (responses to the server's requests).
fn answers(h: &Host<impl Server>) -> Vec<&Req> {
    h.sent
        .iter()
        .filter(|r| r.body.get("method").is_none() && r.body.get("id").is_some())
        .collect()
}

#[test]
fn a_flood_of_server_requests_is_bounded_and_cuts_the_call() {
    let config = ClientConfig::new("http://hub/mcp").with_server_limits(4, 10, 200);
    let mut h = Host::new(config, flooding(20_000, 0, one_tool()));
    h.connect();
    h.take();
    let call = h.call(CallKind::Tool, json!({"name": "flood"}));
    let out = h.take();
    // 10 taken in the second: 4 waiting for the host's answer (the pings
    // among them answered at once), the rest refused with an error; past
    // 20 the call's exchange is cut and the call fails
    let asked = out
        .iter()
        .filter(|o| matches!(o, ClientOutput::Ask { .. }))
        .count();
    assert_eq!(asked, 4, "{out:?}");
    let back = answers(&h);
    assert!(back.len() <= 20, "{} answers posted back", back.len());
    let refused = back
        .iter()
        .filter(|r| r.body["error"]["code"] == -32000)
        .count();
    assert!(refused >= 10, "{back:?}");
    assert!(
        matches!(done(&out, call), Err(Failure::Limit(m)) if m.contains("more than 20 requests in a second"))
    );
    assert!(out
        .iter()
        .any(|o| matches!(o, ClientOutput::Limited { call: Some(c), .. } if *c == call)));
    assert!(!h.open.contains(&h.last("tools/call").exchange));
    // the asks of the call are forgotten: answering one is a usage error,
    // and a new call after a second is served again
    let ask = out.iter().find_map(|o| match o {
        ClientOutput::Ask { ask, .. } => Some(*ask),
        _ => None,
    });
    assert!(h.c.answer(ask.unwrap(), json!({}), h.now).is_err());
    h.s = flooding(2, 0, one_tool());
    h.advance(1_000);
    let call = h.call(CallKind::Tool, json!({"name": "flood"}));
    assert_eq!(done(&h.take(), call).unwrap(), json!({"content": []}));
}

#[test]
fn a_flood_on_the_notification_stream_is_cut_and_the_stream_opened_later() {
    let config = ClientConfig::new("http://hub/mcp").with_server_limits(4, 10, 200);
    let mut h = Host::new(config, Legacy2025::new());
    h.connect();
    h.take();
    let stream = h.s.stream.unwrap();
    let pings: Vec<Value> = (0..5_000)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "ping"}))
        .collect();
    h.push(stream, &pings);
    // 10 pings answered, 10 refused, then the stream was cut
    assert_eq!(answers(&h).len(), 20);
    assert!(h.aborted.contains(&stream));
    assert!(h
        .take()
        .iter()
        .any(|o| matches!(o, ClientOutput::Limited { call: None, .. })));
    // it is opened again after the reconnection wait, which grows with
    // every cut, however well the stream opens
    let gets = |h: &Host<Legacy2025>| h.sent.iter().filter(|r| r.method == "GET").count();
    assert_eq!(gets(&h), 1);
    h.advance(1_999);
    assert_eq!(gets(&h), 1);
    h.advance(1);
    assert_eq!(gets(&h), 2);
    h.advance(1_000);
    h.push(h.s.stream.unwrap(), &pings);
    h.advance(3_999);
    assert_eq!(gets(&h), 2);
    h.advance(1);
    assert_eq!(gets(&h), 3);
}

#[test]
fn a_flood_of_notifications_is_dropped_past_the_rate() {
    let config = ClientConfig::new("http://hub/mcp").with_server_limits(4, 10, 50);
    let mut h = Host::new(config, flooding(0, 10_000, one_tool()));
    h.connect();
    h.take();
    let call = h.call(CallKind::Tool, json!({"name": "flood"}));
    let out = h.take();
    let progress = out
        .iter()
        .filter(|o| matches!(o, ClientOutput::Progress { .. }))
        .count();
    assert_eq!(progress, 50);
    let said = out
        .iter()
        .filter(|o| matches!(o, ClientOutput::Limited { .. }))
        .count();
    assert_eq!(said, 1, "said once a second");
    // the result still counts
    assert_eq!(done(&out, call).unwrap(), json!({"content": []}));
}

#[test]
fn a_flood_over_stdio_is_answered_within_the_bounds() {
    let config = ClientConfig::new("srv")
        .with_stdio(true)
        .with_server_limits(4, 10, 200);
    let mut c = UpstreamClient::new(config);
    let mut out = Vec::new();
    c.connect(0).unwrap();
    let w = written(&mut c, &mut out);
    let line = |v: Value| format!("{v}\n");
    let modern = json!({"jsonrpc": "2.0", "id": w[0]["id"], "result": {
        "supportedVersions": ["2026-07-28"], "capabilities": {}}});
    c.receive(line(modern).as_bytes(), 1);
    written(&mut c, &mut out);
    let mut flood = String::new();
    for i in 0..20_000 {
        flood.push_str(&line(
            json!({"jsonrpc": "2.0", "id": i, "method": "roots/list"}),
        ));
    }
    c.receive(flood.as_bytes(), 2);
    let w = written(&mut c, &mut out);
    // 4 passed to the host, 6 refused at once, 10 refused past the rate;
    // the rest of that second's dropped unanswered
    let asked = out
        .iter()
        .filter(|o| matches!(o, ClientOutput::Ask { .. }))
        .count();
    assert_eq!((asked, w.len()), (4, 16), "{w:?}");
    assert!(w.iter().all(|m| m["error"]["code"] == -32000));
    // a second later, requests are taken again
    c.receive(
        line(json!({"jsonrpc": "2.0", "id": "p", "method": "ping"})).as_bytes(),
        1_002,
    );
    assert_eq!(
        written(&mut c, &mut out),
        [json!({"jsonrpc": "2.0", "id": "p", "result": {}})]
    );
}

#[test]
fn replies_are_matched_by_their_exact_id() {
    let tools = one_tool();
    let mut calls = 0;
    let server = move |req: &Req| -> Answer {
        if req.body.get("id").is_none() {
            return Answer::Status(202);
        }
        match req.rpc() {
            "server/discover" => Answer::Json(200, vec![], req.error(-32601, "no")),
            "initialize" => Answer::Json(
                200,
                vec![("Mcp-Session-Id", "s1".into())],
                req.reply(json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}})),
            ),
            "tools/list" => Answer::Json(200, vec![], req.reply(json!({"tools": tools.clone()}))),
            _ => {
                calls += 1;
                let id = req.id();
                let wrong = match calls {
                    // a null id, then the id as a string, then another id
                    1 => {
                        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}})
                    }
                    2 => {
                        json!({"jsonrpc": "2.0", "id": id.to_string(), "result": {"content": [{"type": "text", "text": "wrong"}]}})
                    }
                    _ => {
                        json!({"jsonrpc": "2.0", "id": id.as_u64().unwrap() + 1, "result": {"content": []}})
                    }
                };
                Answer::Sse(vec![wrong], false)
            }
        }
    };
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), server);
    h.connect();
    h.take();
    // an error with a null id answers nothing; once the reply ended
    // without the response, it says why the call failed
    let call = h.call(CallKind::Tool, json!({"name": "flood"}));
    match done(&h.take(), call) {
        Err(Failure::Rpc { code, message, .. }) => {
            assert_eq!((code, message.as_str()), (-32700, "Parse error"));
        }
        other => panic!("{other:?}"),
    }
    for _ in 0..2 {
        let call = h.call(CallKind::Tool, json!({"name": "flood"}));
        assert!(
            matches!(done(&h.take(), call), Err(Failure::Protocol(m)) if m.contains("no response"))
        );
    }
}

#[test]
fn a_bad_list_item_is_left_out_alone() {
    let tools = json!([
        {"name": "good", "inputSchema": {"type": "object"}},
        {"name": "bad_schema", "inputSchema": {"type": "string"}},
        {"name": "bell\u{7}\u{1b}[31m", "inputSchema": {"type": "object"}},
        {"inputSchema": {"type": "object"}},
        {"name": "also_good", "inputSchema": {"type": "object"}}
    ]);
    let mut h = Host::new(ClientConfig::new("http://hub/mcp"), flooding(0, 0, tools));
    h.connect();
    let out = h.take();
    assert_eq!(
        names(&listed(&out, ListKind::Tools)),
        ["good", "bell\u{7}\u{1b}[31m", "also_good"]
    );
    let skipped: Vec<(usize, bool, String)> = out
        .iter()
        .filter_map(|o| match o {
            ClientOutput::Skipped {
                index,
                kept,
                reason,
                ..
            } => Some((*index, *kept, reason.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        skipped.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
        [(1, false), (2, true), (3, false)],
        "{skipped:?}"
    );
    assert!(
        skipped[0].2.starts_with("left out:") && skipped[0].2.contains("object"),
        "{}",
        skipped[0].2
    );
    // the control characters are said, escaped, never written raw
    let bell = &skipped[1].2;
    assert!(bell.contains("\\u{7}") && !bell.contains('\u{7}'), "{bell}");
    assert!(out.contains(&ClientOutput::Ready));
    // the source serves what was kept
    assert_eq!(h.c.source("hub").unwrap().catalog.len(), 3);
    // a resource or prompt without its name is left out alone too
    let mut c = UpstreamClient::new(ClientConfig::new("srv").with_stdio(true));
    let mut out = Vec::new();
    c.connect(0).unwrap();
    let w = written(&mut c, &mut out);
    let line = |v: Value| format!("{v}\n");
    let discover = json!({"jsonrpc": "2.0", "id": w[0]["id"], "result": {
        "supportedVersions": ["2026-07-28"], "capabilities": {"prompts": {}}}});
    c.receive(line(discover).as_bytes(), 1);
    let w = written(&mut c, &mut out);
    let prompts = json!({"jsonrpc": "2.0", "id": w[0]["id"], "result": {"prompts": [
        {"name": "a"}, {"title": "no name"}, {"name": 5}, {"name": "b"}]}});
    c.receive(line(prompts).as_bytes(), 2);
    written(&mut c, &mut out);
    assert_eq!(names(&listed(&out, ListKind::Prompts)), ["a", "b"]);
    let left_out = out
        .iter()
        .filter(|o| matches!(o, ClientOutput::Skipped { kept: false, .. }))
        .count();
    assert_eq!(left_out, 2);
}

#[test]
fn a_page_past_the_limit_keeps_the_pages_before_it() {
    let server = |req: &Req| -> Answer {
        if req.body.get("id").is_none() {
            return Answer::Status(202);
        }
        match (req.rpc(), req.body["params"]["cursor"].as_str()) {
            ("server/discover", _) => Answer::Json(200, vec![], req.error(-32601, "no")),
            ("initialize", _) => Answer::Json(
                200,
                vec![("Mcp-Session-Id", "s1".into())],
                req.reply(json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}})),
            ),
            ("tools/list", None) => Answer::Json(200, vec![], req.reply(json!({
                "tools": [{"name": "first", "inputSchema": {"type": "object"}}], "nextCursor": "2"}))),
            ("tools/list", Some(_)) => Answer::Json(200, vec![], req.reply(json!({
                "tools": [{"name": "big", "description": "x".repeat(5_000), "inputSchema": {"type": "object"}}]}))),
            (other, _) => panic!("unexpected {other}"),
        }
    };
    let mut h = Host::new(
        ClientConfig::new("http://hub/mcp").with_max_reply(4_096),
        server,
    );
    h.connect();
    let out = h.take();
    assert!(out.iter().any(|o| matches!(o, ClientOutput::Listed { kind: ListKind::Tools, items, truncated: true } if names(items) == ["first"])), "{out:?}");
    assert!(out.iter().any(|o| matches!(o, ClientOutput::Skipped { kept: false, reason, .. } if reason.contains("page 2") && reason.contains("limit"))), "{out:?}");
    assert!(out.contains(&ClientOutput::Ready));
}
