//! Requests and replies: building and sending requests with the headers
//! of the era, reading replies (status, body, stream) and matching each
//! message to what it answers.

use serde_json::{json, Value};

use super::*;

impl UpstreamClient {
    /// Records and sends a request; returns its id.
    pub(super) fn request(
        &mut self,
        what: What,
        method: &'static str,
        params: Value,
        now_ms: u64,
    ) -> u64 {
        let rpc = self.next_rpc;
        self.next_rpc += 1;
        let deadline = match what {
            What::Listen => None,
            _ => Some(now_ms.saturating_add(self.config.timeout_ms)),
        };
        self.pending.insert(
            rpc,
            Pending {
                what,
                method,
                params,
                exchange: None,
                deadline,
                resend: false,
                resent: false,
            },
        );
        self.send_rpc(rpc);
        rpc
    }

    pub(super) fn modern_for(&self, what: What) -> bool {
        match what {
            What::Discover => true,
            What::Initialize => false,
            _ => self.era == Era::Modern,
        }
    }

    pub(super) fn send_rpc(&mut self, rpc: u64) {
        let Some(p) = self.pending.get(&rpc) else {
            return;
        };
        let modern = self.modern_for(p.what);
        let version = if modern {
            MODERN_VERSIONS.first().copied().unwrap_or("2026-07-28")
        } else {
            self.version.as_str()
        };
        let envelope = modern.then(|| {
            wire::envelope(
                version,
                &self.config.client_name,
                &self.config.client_version,
                &self.config.capabilities,
            )
        });
        let body = wire::request(rpc, p.method, &p.params, envelope.as_ref());
        if self.transport == Transport::Stdio {
            self.outputs
                .push_back(ClientOutput::Write { message: body });
            return;
        }
        let mut headers = self.base_headers(!modern && p.what != What::Initialize);
        if modern {
            headers.push(("MCP-Protocol-Version".into(), version.to_string()));
            headers.push(("Mcp-Method".into(), p.method.to_string()));
            if let Some(name) = wire::mcp_name(p.method, &p.params) {
                headers.push(("Mcp-Name".into(), wire::header_value(name)));
            }
        }
        let call = match p.what {
            What::Call(c) => Some(c),
            _ => None,
        };
        let stream = p.what == What::Listen;
        let url = self.post_url();
        let ex = self.send_http(
            "POST",
            url,
            headers,
            Some(body),
            call,
            stream,
            Role::Request(rpc),
        );
        if let Some(p) = self.pending.get_mut(&rpc) {
            p.exchange = Some(ex);
        }
    }

    pub(super) fn post_url(&self) -> String {
        match (&self.endpoint, self.transport) {
            (Some(e), Transport::HttpSse) => e.clone(),
            _ => self.config.url.clone(),
        }
    }

    /// A notification or response: nothing to read back.
    pub(super) fn post_message(&mut self, body: String, call: Option<u64>) {
        if self.transport == Transport::Stdio {
            self.outputs
                .push_back(ClientOutput::Write { message: body });
            return;
        }
        let headers = self.base_headers(self.era == Era::Legacy);
        let url = self.post_url();
        self.send_http("POST", url, headers, Some(body), call, false, Role::Message);
    }

    /// The token, and for 2025 traffic (`session`) the session and the
    /// negotiated revision.
    pub(super) fn base_headers(&self, session: bool) -> Vec<(String, String)> {
        let mut h = Vec::new();
        if let Some(t) = &self.config.token {
            h.push(("Authorization".into(), format!("Bearer {t}")));
        }
        if session {
            if let Some(s) = &self.session {
                h.push(("Mcp-Session-Id".into(), s.clone()));
            }
            if !self.version.is_empty() {
                h.push(("MCP-Protocol-Version".into(), self.version.clone()));
            }
        }
        h
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn send_http(
        &mut self,
        method: &'static str,
        url: String,
        mut headers: Vec<(String, String)>,
        body: Option<String>,
        call: Option<u64>,
        stream: bool,
        role: Role,
    ) -> u64 {
        let accept = match method {
            "POST" => Some("application/json, text/event-stream"),
            "GET" => Some("text/event-stream"),
            _ => None,
        };
        let mut first = Vec::with_capacity(headers.len() + 2);
        if body.is_some() {
            first.push(("Content-Type".to_string(), "application/json".to_string()));
        }
        if let Some(a) = accept {
            first.push(("Accept".to_string(), a.to_string()));
        }
        first.append(&mut headers);
        let headers = first;
        let exchange = self.next_exchange;
        self.next_exchange += 1;
        self.exchanges.insert(
            exchange,
            Exchange {
                role,
                head: false,
                reader: None,
                content_type: String::new(),
                fallback: None,
            },
        );
        self.outputs.push_back(ClientOutput::Send(HttpSend {
            exchange,
            method,
            url,
            headers,
            body,
            call,
            stream,
        }));
        exchange
    }

    pub(super) fn abort(&mut self, exchange: u64) {
        self.exchanges.remove(&exchange);
        self.outputs.push_back(ClientOutput::Abort { exchange });
    }

    pub(super) fn abort_all(&mut self) {
        let all: Vec<u64> = self.exchanges.keys().copied().collect();
        for ex in all {
            self.abort(ex);
        }
    }

    pub(super) fn request_head(
        &mut self,
        exchange: u64,
        rpc: u64,
        status: u16,
        ctype: &str,
        headers: &[(String, String)],
        now_ms: u64,
    ) {
        let Some(what) = self.pending.get(&rpc).map(|p| p.what) else {
            self.exchanges.remove(&exchange);
            return;
        };
        let lower = ctype.to_ascii_lowercase();
        let readable = lower.contains("application/json") || lower.contains("text/event-stream");
        let ok = (200..300).contains(&status);
        let http = |message: String| Failure::Http { status, message };
        if what == What::Discover || self.modern_for(what) {
            // 2026-07-28: errors come as JSON-RPC bodies with 4xx statuses
            let refused = matches!(status, 401 | 403) || status >= 500;
            if readable && !refused && status != 202 {
                let fallback = (!ok).then(|| http(format!("the upstream answered HTTP {status}")));
                self.read_body(exchange, ctype, fallback);
                return;
            }
            let failure = match classify_reply(status, ctype, false, false) {
                ReplyAction::Fail(message) => http(message),
                _ if status == 202 => Failure::Protocol(format!(
                    "the upstream accepted {} without replying",
                    self.pending.get(&rpc).map_or("a request", |p| p.method)
                )),
                _ => http(format!("the upstream answered HTTP {status}")),
            };
            self.exchanges.remove(&exchange);
            self.respond(rpc, Err(failure), now_ms);
            return;
        }
        let had_session = self.session.is_some() && self.transport == Transport::StreamableHttp;
        match classify_reply(status, ctype, what == What::Initialize, had_session) {
            ReplyAction::Read => {
                if what == What::Initialize && self.transport == Transport::StreamableHttp {
                    self.session = wire::header(headers, "mcp-session-id")
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned);
                }
                self.read_body(exchange, ctype, None);
            }
            ReplyAction::Nothing => {
                self.exchanges.remove(&exchange);
                if let Some(p) = self.pending.get_mut(&rpc) {
                    p.exchange = None;
                }
                if self.transport == Transport::StreamableHttp {
                    self.respond(
                        rpc,
                        Err(Failure::Protocol(
                            "the upstream accepted a request without replying".into(),
                        )),
                        now_ms,
                    );
                }
                // the legacy transport: the reply comes on the stream
            }
            ReplyAction::Legacy => {
                self.exchanges.remove(&exchange);
                self.pending.remove(&rpc);
                self.open_legacy(now_ms);
            }
            ReplyAction::Reinitialize => {
                self.exchanges.remove(&exchange);
                let again = self.pending.get(&rpc).is_some_and(|p| !p.resent);
                if !again {
                    self.respond(
                        rpc,
                        Err(http("the session expired again (HTTP 404)".into())),
                        now_ms,
                    );
                    return;
                }
                if let Some(p) = self.pending.get_mut(&rpc) {
                    p.exchange = None;
                    p.resend = true;
                }
                if !self.reinit {
                    self.reinit = true;
                    self.session = None;
                    if let Some(s) = self.stream.take() {
                        self.abort(s);
                    }
                    self.initialize(now_ms);
                }
            }
            ReplyAction::Fail(message) => {
                if readable && status >= 400 {
                    self.read_body(exchange, ctype, Some(http(message)));
                } else {
                    self.exchanges.remove(&exchange);
                    self.respond(rpc, Err(http(message)), now_ms);
                }
            }
        }
    }

    pub(super) fn read_body(&mut self, exchange: u64, ctype: &str, fallback: Option<Failure>) {
        if let Some(ex) = self.exchanges.get_mut(&exchange) {
            ex.reader = Some(BodyReader::new(ctype, self.config.max_reply));
            ex.fallback = fallback;
        }
    }

    /// An exchange's body could not be read, or the exchange failed.
    pub(super) fn exchange_failed(&mut self, exchange: u64, failure: Failure, now_ms: u64) {
        let Some(ex) = self.exchanges.remove(&exchange) else {
            return;
        };
        self.outputs.push_back(ClientOutput::Abort { exchange });
        self.ended(exchange, ex.role, failure, now_ms);
    }

    /// An exchange is over: a request it carried without a reply fails.
    /// An unreachable server while connected is a lost connection.
    pub(super) fn ended(&mut self, exchange: u64, role: Role, failure: Failure, now_ms: u64) {
        if matches!(failure, Failure::Unreachable(_))
            && self.phase == Phase::Connected
            && role != Role::Message
        {
            self.down(failure, now_ms);
            return;
        }
        match role {
            Role::Request(rpc) => {
                let waiting = self
                    .pending
                    .get(&rpc)
                    .is_some_and(|p| p.exchange == Some(exchange));
                // an error with a null id came instead of the response: it
                // says what failed better than its absence does
                let failure = match self.null_error.take() {
                    Some((r, e)) if r == rpc => e,
                    _ => failure,
                };
                if waiting {
                    self.respond(rpc, Err(failure), now_ms);
                }
            }
            Role::Stream => {
                if self.phase == Phase::OpeningLegacy && self.stream == Some(exchange) {
                    self.stream = None;
                    self.down(failure, now_ms);
                } else {
                    self.stream_ended(exchange, failure, now_ms);
                }
            }
            Role::Message => {}
        }
    }

    /// Stdio: one line of the process's stdout.
    pub(super) fn stdio_line(&mut self, line: &[u8], now_ms: u64) {
        let text = String::from_utf8_lossy(line);
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        // a line that is no JSON (a server logging on stdout) is skipped
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(batch)) => {
                for m in batch {
                    if !self.message(m, None, None, now_ms) {
                        break;
                    }
                }
            }
            Ok(m) => {
                self.message(m, None, None, now_ms);
            }
            Err(_) => {}
        }
    }

    pub(super) fn too_long(&mut self, now_ms: u64) {
        let limit = self.config.max_reply;
        self.down(
            Failure::Limit(format!(
                "a message is larger than the limit of {limit} bytes"
            )),
            now_ms,
        );
    }

    /// Messages (and an `endpoint`) read from `exchange`.
    pub(super) fn deliver(&mut self, exchange: u64, role: Role, read: Read, now_ms: u64) {
        if let Some(endpoint) = read.endpoint {
            if role == Role::Stream && self.phase == Phase::OpeningLegacy {
                self.endpoint_found(&endpoint, now_ms);
            }
        }
        let rpc = match role {
            Role::Request(rpc) => Some(rpc),
            _ => None,
        };
        for m in read.messages {
            // a cut exchange gives nothing more
            if !self.message(m, rpc, Some((exchange, role)), now_ms) {
                break;
            }
        }
    }

    pub(super) fn endpoint_found(&mut self, endpoint: &str, now_ms: u64) {
        match wire::same_origin(&self.config.url, endpoint) {
            Some(url) => {
                self.endpoint = Some(url);
                self.initialize(now_ms);
            }
            None => self.down(
                Failure::Protocol(format!(
                    "the upstream named an endpoint on another origin or an invalid one: {endpoint}"
                )),
                now_ms,
            ),
        }
    }

    /// One message from the server; `rpc`: the request whose reply it
    /// came with; `from`: the exchange that carried it (none over stdio).
    /// False when the exchange was cut for carrying too many requests:
    /// the rest of what it carried is dropped.
    pub(super) fn message(
        &mut self,
        m: Value,
        rpc: Option<u64>,
        from: Option<(u64, Role)>,
        now_ms: u64,
    ) -> bool {
        let call_of = |s: &Self, rpc: Option<u64>| match rpc.and_then(|r| s.pending.get(&r)) {
            Some(Pending {
                what: What::Call(c),
                ..
            }) => Some(*c),
            _ => None,
        };
        if let Some(method) = m.get("method").and_then(Value::as_str) {
            if let Some(id) = m.get("id") {
                let call = call_of(self, rpc);
                match self.admit_ask(method == "ping", now_ms) {
                    Admit::Take => {}
                    Admit::Refuse => {
                        self.limited(call, now_ms);
                        let text = wire::response(id, Err((SERVER_BUSY, REFUSED)));
                        self.post_message(text, None);
                        return true;
                    }
                    Admit::Cut => {
                        self.cut(from, call, now_ms);
                        return false;
                    }
                }
                if method == "ping" {
                    let text = wire::response(id, Ok(&json!({})));
                    self.post_message(text, None);
                    return true;
                }
                let ask = self.next_ask;
                self.next_ask += 1;
                // over stdio a question names no request: it belongs to
                // the call running, when only one is
                let sole = (self.transport == Transport::Stdio && self.calls.len() == 1)
                    .then(|| self.calls.keys().next().copied())
                    .flatten();
                let call = call.or(sole);
                let params = m.get("params").cloned().unwrap_or(Value::Null);
                let how = AskHow::Rpc(id.clone());
                self.put_ask(ask, call, how, method.to_string(), params);
                return true;
            }
            if !self.admit_notification(now_ms) {
                return true;
            }
            let params = m.get("params").cloned().unwrap_or(Value::Null);
            self.notification(method, params, call_of(self, rpc), now_ms);
            return true;
        }
        let is_reply = m.get("result").is_some() || m.get("error").is_some();
        if !is_reply {
            return true;
        }
        // ids are matched exactly: the number this client sent, taken only
        // from the exchange that carried its request (Streamable HTTP), or
        // from the stream or process every reply comes on (HTTP+SSE,
        // stdio); a reply with a null id answers nothing (its error names
        // the failure of the request it came with)
        let id = match m.get("id") {
            Some(Value::Number(n)) => n.as_u64(),
            Some(Value::Null) => {
                // kept as the reason the request fails if its reply ends
                // without its response
                if let (Some(r), Some(e)) = (rpc, m.get("error")) {
                    self.null_error = Some((r, Failure::rpc(e)));
                }
                return true;
            }
            _ => None,
        };
        let from_request = match from {
            Some((_, Role::Request(r))) => Some(r),
            _ => None,
        };
        let carried = match self.transport {
            Transport::StreamableHttp => from_request.is_some() && id == from_request,
            _ => true,
        };
        let Some(id) = id.filter(|id| carried && self.pending.contains_key(id)) else {
            return true;
        };
        let outcome = match m.get("error") {
            Some(e) => Err(Failure::rpc(e)),
            None => Ok(m.get("result").cloned().unwrap_or(Value::Null)),
        };
        self.respond(id, outcome, now_ms);
        true
    }

    /// Whether a request of the server is taken, refused or cuts the
    /// exchange carrying it ([`ClientConfig::max_asks`],
    /// [`ClientConfig::max_asks_per_second`]).
    fn admit_ask(&mut self, ping: bool, now_ms: u64) -> Admit {
        let rate = self.config.max_asks_per_second;
        let w = self.asks_window.at(now_ms);
        w.count = w.count.saturating_add(1);
        if w.count > rate.saturating_mul(2) {
            return Admit::Cut;
        }
        // a ping is answered at once: it waits for nothing
        if w.count > rate || (!ping && self.asks.len() >= self.config.max_asks) {
            return Admit::Refuse;
        }
        Admit::Take
    }

    /// Whether a notification of the server is taken
    /// ([`ClientConfig::max_notifications_per_second`]); past the rate it is
    /// dropped (said once per second).
    fn admit_notification(&mut self, now_ms: u64) -> bool {
        let rate = self.config.max_notifications_per_second;
        let w = self.notes_window.at(now_ms);
        w.count = w.count.saturating_add(1);
        if w.count <= rate {
            return true;
        }
        if !w.told {
            w.told = true;
            let message = format!(
                "the upstream sent more than {rate} notifications in a second: the rest of that second's are dropped"
            );
            self.outputs.push_back(ClientOutput::Limited {
                call: None,
                message,
            });
        }
        false
    }

    /// Says once per second that requests of the server were refused.
    fn limited(&mut self, call: Option<u64>, now_ms: u64) {
        let (rate, max) = (self.config.max_asks_per_second, self.config.max_asks);
        let w = self.asks_window.at(now_ms);
        if w.told {
            return;
        }
        w.told = true;
        let message = format!(
            "refused requests of the upstream past {rate} a second or {max} waiting for answers"
        );
        self.outputs
            .push_back(ClientOutput::Limited { call, message });
    }

    /// Cuts the exchange that carried more requests of the server than
    /// twice the rate in one second: a call's exchange fails its call
    /// ([`Failure::Limit`]), an event stream is opened again after the
    /// reconnection wait (the legacy transport's stream loses the
    /// connection), and over stdio the rest of that second's requests are
    /// dropped unanswered.
    fn cut(&mut self, from: Option<(u64, Role)>, call: Option<u64>, now_ms: u64) {
        let twice = self.config.max_asks_per_second.saturating_mul(2);
        let what = format!("the upstream sent more than {twice} requests in a second");
        let first = self.asks_window.at(now_ms).count == twice + 1;
        if first || from.is_some() {
            self.outputs.push_back(ClientOutput::Limited {
                call,
                message: what.clone(),
            });
        }
        // over stdio the rest of the second's requests are dropped
        let Some((exchange, role)) = from else {
            return;
        };
        let failure = Failure::Limit(what);
        match call {
            // the call's exchange goes with it
            Some(c) => self.end_call(c, failure, "the server sent too many requests", now_ms),
            None => {
                self.cuts = self.cuts.saturating_add(1);
                if self.exchanges.remove(&exchange).is_some() {
                    self.outputs.push_back(ClientOutput::Abort { exchange });
                }
                self.ended(exchange, role, failure, now_ms);
            }
        }
    }

    pub(super) fn notification(
        &mut self,
        method: &str,
        params: Value,
        call: Option<u64>,
        now_ms: u64,
    ) {
        if self.list_changed(method, now_ms) {
            return;
        }
        match method {
            "notifications/progress" => {
                let token = params
                    .get("progressToken")
                    .and_then(Value::as_u64)
                    .filter(|t| self.calls.contains_key(t));
                if let Some(call) = token.or(call) {
                    self.outputs
                        .push_back(ClientOutput::Progress { call, params });
                }
            }
            "notifications/subscriptions/acknowledged" => self.failures = 0,
            "notifications/cancelled" => {
                // the server ended a subscriptions/listen stream
                let target = params.get("requestId").and_then(Value::as_u64);
                if target.is_some() && target == self.listen {
                    if let Some(rpc) = self.listen {
                        self.respond(rpc, Ok(Value::Null), now_ms);
                    }
                }
            }
            _ => self.outputs.push_back(ClientOutput::Notification {
                call,
                method: method.to_string(),
                params,
            }),
        }
    }

    /// The outcome of request `rpc`.
    pub(super) fn respond(&mut self, rpc: u64, outcome: Result<Value, Failure>, now_ms: u64) {
        let Some(p) = self.pending.remove(&rpc) else {
            return;
        };
        match p.what {
            What::Discover => match outcome {
                Ok(r) => self.discovered(&r, now_ms),
                Err(f) => self.discover_failed(f, now_ms),
            },
            What::Initialize => match outcome {
                Ok(r) => self.initialized(&r, now_ms),
                Err(f) => self.down(f, now_ms),
            },
            What::List(kind) => match outcome {
                Ok(r) => self.listed_page(kind, &r, now_ms),
                Err(f) => self.list_failed(kind, f, now_ms),
            },
            What::Call(c) => self.call_answered(c, outcome, now_ms),
            What::Listen => {
                if let Some(ex) = p.exchange {
                    if self.exchanges.remove(&ex).is_some() {
                        self.outputs.push_back(ClientOutput::Abort { exchange: ex });
                    }
                }
                self.listen = None;
                match outcome {
                    // a JSON-RPC error or 4xx: the server does not offer it
                    Err(Failure::Rpc { .. }) => self.no_stream = true,
                    Err(Failure::Http { status, .. }) if status < 500 => self.no_stream = true,
                    _ => {
                        if self.phase == Phase::Connected {
                            self.schedule(Retry::Stream, now_ms);
                        }
                    }
                }
            }
        }
    }
}
