//! Connecting: the `server/discover` probe, the fallback to `initialize`
//! and to the legacy HTTP+SSE transport, losing and regaining the
//! connection, and the streams that carry list changes.

use serde_json::{json, Map, Value};

use super::*;

impl UpstreamClient {
    pub(super) fn start(&mut self, now_ms: u64) {
        self.session = None;
        self.endpoint = None;
        self.reinit = false;
        self.retry = None;
        self.no_stream = false;
        if self.config.stdio {
            self.transport = Transport::Stdio;
            self.line.clear();
            self.outputs.push_back(ClientOutput::Spawn);
            if matches!(self.known, Some((Era::Legacy, _))) {
                self.initialize(now_ms);
            } else {
                self.era = Era::Modern;
                self.phase = Phase::Discovering;
                self.request(What::Discover, "server/discover", json!({}), now_ms);
            }
            return;
        }
        match self.known {
            Some((_, Transport::HttpSse)) => self.open_legacy(now_ms),
            Some((Era::Legacy, _)) => {
                self.transport = Transport::StreamableHttp;
                self.initialize(now_ms);
            }
            _ => {
                self.transport = Transport::StreamableHttp;
                self.era = Era::Modern;
                self.phase = Phase::Discovering;
                self.request(What::Discover, "server/discover", json!({}), now_ms);
            }
        }
    }

    pub(super) fn initialize(&mut self, now_ms: u64) {
        self.era = Era::Legacy;
        self.version.clear();
        self.phase = Phase::Initializing;
        self.phase_deadline = None;
        let params = json!({
            "protocolVersion": LEGACY_VERSIONS.first().copied().unwrap_or("2025-11-25"),
            "capabilities": self.config.capabilities,
            "clientInfo": {"name": self.config.client_name, "version": self.config.client_version},
        });
        self.request(What::Initialize, "initialize", params, now_ms);
    }

    pub(super) fn open_legacy(&mut self, now_ms: u64) {
        self.transport = Transport::HttpSse;
        self.era = Era::Legacy;
        self.version.clear();
        self.phase = Phase::OpeningLegacy;
        self.phase_deadline = Some(now_ms.saturating_add(self.config.timeout_ms));
        self.open_get_stream(false);
    }

    /// GETs the server's event stream (with the 2025 session headers when
    /// `session`).
    fn open_get_stream(&mut self, session: bool) {
        let headers = self.base_headers(session);
        let url = self.config.url.clone();
        let ex = self.send_http("GET", url, headers, None, None, true, Role::Stream);
        self.stream = Some(ex);
    }

    pub(super) fn discovered(&mut self, result: &Value, now_ms: u64) {
        let offered = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .and_then(|v| {
                MODERN_VERSIONS
                    .iter()
                    .find(|m| v.iter().any(|s| s.as_str() == Some(m)))
            });
        let Some(version) = offered else {
            // a result that is no DiscoverResult, or no revision in common
            self.initialize(now_ms);
            return;
        };
        self.version = (*version).to_string();
        self.connected(
            result,
            result.get("_meta").and_then(|m| m.get(META_SERVER_INFO)),
            now_ms,
        );
    }

    pub(super) fn discover_failed(&mut self, failure: Failure, now_ms: u64) {
        let legacy = match &failure {
            Failure::Http { status, .. } => {
                (400..500).contains(status) && *status != 401 && *status != 403
            }
            Failure::Rpc { code, data, .. } if *code == UNSUPPORTED_VERSION => {
                // a modern server that speaks none of our modern revisions:
                // fall back only when it lists a 2025 one
                let supported = data.as_ref().and_then(|d| d.get("supported"));
                supported.and_then(Value::as_array).is_none_or(|s| {
                    s.iter()
                        .any(|v| v.as_str().is_some_and(|v| LEGACY_VERSIONS.contains(&v)))
                })
            }
            Failure::Rpc { .. } => true,
            _ => false,
        };
        if legacy {
            self.initialize(now_ms);
        } else {
            self.down(failure, now_ms);
        }
    }

    pub(super) fn initialized(&mut self, result: &Value, now_ms: u64) {
        let Some(version) = result.get("protocolVersion").and_then(Value::as_str) else {
            self.down(
                Failure::Protocol("the initialize result names no protocolVersion".into()),
                now_ms,
            );
            return;
        };
        self.version = version.to_string();
        self.post_message(wire::notification("notifications/initialized", None), None);
        if self.reinit {
            self.reinit = false;
            self.phase = Phase::Connected;
            let resend: Vec<u64> = self
                .pending
                .iter()
                .filter(|(_, p)| p.resend)
                .map(|(id, _)| *id)
                .collect();
            for rpc in resend {
                if let Some(p) = self.pending.get_mut(&rpc) {
                    p.resend = false;
                    p.resent = true;
                }
                self.send_rpc(rpc);
            }
            self.open_stream(now_ms);
            self.flush_queue(now_ms);
            return;
        }
        self.connected(result, result.get("serverInfo"), now_ms);
    }

    pub(super) fn connected(&mut self, result: &Value, server_info: Option<&Value>, now_ms: u64) {
        self.phase = Phase::Connected;
        self.phase_deadline = None;
        self.failures = 0;
        self.known = Some((self.era, self.transport));
        let capabilities = result
            .get("capabilities")
            .filter(|c| c.is_object())
            .cloned()
            .unwrap_or_else(|| json!({}));
        let connection = Connection {
            era: self.era,
            version: self.version.clone(),
            transport: self.transport,
            capabilities: capabilities.clone(),
            server_info: server_info.cloned().unwrap_or(Value::Null),
            instructions: result
                .get("instructions")
                .and_then(Value::as_str)
                .map(str::to_owned),
        };
        self.connection = Some(connection.clone());
        self.outputs.push_back(ClientOutput::Connected(connection));
        let kinds: Vec<ListKind> = ListKind::ALL
            .into_iter()
            .filter(|k| capabilities.get(k.capability()).is_some())
            .collect();
        for (i, list) in self.lists.iter_mut().enumerate() {
            if !ListKind::ALL.get(i).is_some_and(|k| kinds.contains(k)) {
                list.items.clear();
            }
        }
        self.initial = Some(kinds.clone());
        if kinds.is_empty() {
            self.initial = None;
            self.outputs.push_back(ClientOutput::Ready);
        }
        for kind in kinds {
            self.start_list(kind, now_ms);
        }
        self.open_stream(now_ms);
        self.flush_queue(now_ms);
    }

    pub(super) fn flush_queue(&mut self, now_ms: u64) {
        for c in std::mem::take(&mut self.queued) {
            if self.calls.contains_key(&c) {
                self.send_call(c, now_ms);
            }
        }
    }

    /// The connection failed or broke: everything in flight fails, and a
    /// reconnection is scheduled.
    pub(super) fn down(&mut self, failure: Failure, now_ms: u64) {
        if matches!(self.phase, Phase::Closed | Phase::Down) {
            return;
        }
        self.phase = Phase::Down;
        self.phase_deadline = None;
        self.abort_all();
        let calls: Vec<u64> = self.calls.keys().copied().collect();
        for c in calls {
            self.calls.remove(&c);
            self.outputs.push_back(ClientOutput::Failed {
                call: c,
                error: failure.clone(),
            });
        }
        self.queued.clear();
        self.asks.clear();
        self.pending.clear();
        for list in &mut self.lists {
            list.busy = false;
            list.again = false;
        }
        self.initial = None;
        self.stream = None;
        self.listen = None;
        self.session = None;
        self.endpoint = None;
        self.outputs
            .push_back(ClientOutput::Unavailable { error: failure });
        self.schedule(Retry::Connect, now_ms);
    }

    pub(super) fn schedule(&mut self, what: Retry, now_ms: u64) {
        // a server whose streams were cut for flooding waits longer each
        // time, however well the streams open
        let wait = self
            .config
            .reconnect_ms
            .saturating_mul(1 << self.failures.max(self.cuts).min(6));
        self.failures = self.failures.saturating_add(1);
        self.retry = Some((now_ms.saturating_add(wait), what));
    }

    pub(super) fn open_stream(&mut self, now_ms: u64) {
        if self.no_stream || self.phase != Phase::Connected {
            return;
        }
        match (self.era, self.transport) {
            // the legacy stream and stdio carry every notification already
            (_, Transport::HttpSse | Transport::Stdio) => {}
            (Era::Legacy, _) => {
                if self.stream.is_some() {
                    return;
                }
                self.open_get_stream(true);
            }
            _ => {
                if self.listen.is_some() {
                    return;
                }
                let caps = self.connection.as_ref().map(|c| &c.capabilities);
                let wants = |cap: &str| {
                    caps.and_then(|c| c.get(cap))
                        .and_then(|c| c.get("listChanged"))
                        .and_then(Value::as_bool)
                        == Some(true)
                };
                let mut filter = Map::new();
                for (cap, key) in [
                    ("tools", "toolsListChanged"),
                    ("resources", "resourcesListChanged"),
                    ("prompts", "promptsListChanged"),
                ] {
                    if wants(cap) {
                        filter.insert(key.into(), Value::Bool(true));
                    }
                }
                if filter.is_empty() {
                    return;
                }
                let rpc = self.request(
                    What::Listen,
                    "subscriptions/listen",
                    json!({"notifications": filter}),
                    now_ms,
                );
                self.listen = Some(rpc);
            }
        }
    }

    pub(super) fn stream_head(&mut self, exchange: u64, status: u16, ctype: &str, now_ms: u64) {
        let sse = ctype.to_ascii_lowercase().contains("text/event-stream");
        if (200..300).contains(&status) && sse {
            if let Some(ex) = self.exchanges.get_mut(&exchange) {
                ex.reader = Some(BodyReader::new(ctype, self.config.max_reply));
            }
            if self.transport == Transport::StreamableHttp {
                self.failures = 0;
            }
            return;
        }
        self.exchanges.remove(&exchange);
        self.abort(exchange);
        if self.stream == Some(exchange) {
            self.stream = None;
        }
        let failure = match classify_reply(status, ctype, false, false) {
            ReplyAction::Fail(message) => Failure::Http { status, message },
            _ => Failure::Http {
                status,
                message: format!("the upstream answered its event stream with HTTP {status}"),
            },
        };
        if self.transport == Transport::HttpSse {
            self.down(failure, now_ms);
        } else if status >= 500 {
            self.schedule(Retry::Stream, now_ms);
        } else {
            // 405: the server offers no GET stream
            self.no_stream = true;
        }
    }

    /// A change stream ended (or failed).
    pub(super) fn stream_ended(&mut self, exchange: u64, failure: Failure, now_ms: u64) {
        if self.stream != Some(exchange) {
            return;
        }
        self.stream = None;
        if self.transport == Transport::HttpSse {
            let failure = match failure {
                Failure::Transport(m) if m.starts_with("the reply ended") => {
                    Failure::Transport("the upstream closed its event stream".into())
                }
                f => f,
            };
            self.down(failure, now_ms);
        } else if self.phase == Phase::Connected {
            self.schedule(Retry::Stream, now_ms);
        }
    }
}
