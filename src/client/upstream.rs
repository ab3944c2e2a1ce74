//! The upstream MCP client as a sans-I/O state machine.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use super::body::{BodyReader, Read};
use super::types::{
    CallKind, ClientConfig, ClientOutput, Connection, Failure, HttpSend, ListKind, Transport,
};
use super::{classify_reply, wire, ReplyAction};
use crate::engine::era::META_SERVER_INFO;
use crate::engine::{Era, Source, Surface, LEGACY_VERSIONS, MODERN_VERSIONS};
use crate::error::{Error, ErrorKind};
use crate::Catalog;

/// The -32022 `UnsupportedProtocolVersion` code.
const UNSUPPORTED_VERSION: i64 = -32022;
/// The -32601 `MethodNotFound` code.
const METHOD_NOT_FOUND: i64 = -32601;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Not connected yet.
    Idle,
    /// `server/discover` sent.
    Discovering,
    /// `initialize` sent (again, when `reinit`).
    Initializing,
    /// The legacy transport's stream opened, its `endpoint` awaited.
    OpeningLegacy,
    /// Negotiated.
    Connected,
    /// The connection failed or was lost; a reconnection is due.
    Down,
    /// Closed by the host.
    Closed,
}

/// What a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum What {
    Discover,
    Initialize,
    List(ListKind),
    Call(u64),
    Listen,
}

#[derive(Debug)]
struct Pending {
    what: What,
    method: &'static str,
    params: Value,
    exchange: Option<u64>,
    deadline: Option<u64>,
    /// Waiting to be sent again after the session is initialized anew.
    resend: bool,
    /// Already sent again once.
    resent: bool,
}

#[derive(Debug)]
struct Call {
    kind: CallKind,
    params: Value,
    rpc: Option<u64>,
    deadline: u64,
    rounds: usize,
    /// Input asks (2026-07-28) not answered yet.
    waiting: Vec<u64>,
    responses: Map<String, Value>,
    request_state: Option<String>,
}

#[derive(Debug)]
enum AskHow {
    /// A 2025 server request: answered with a JSON-RPC response.
    Rpc(Value),
    /// An entry of a 2026-07-28 `InputRequiredResult`.
    Input(String),
}

#[derive(Debug)]
struct Ask {
    call: Option<u64>,
    how: AskHow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A POST carrying request `rpc`.
    Request(u64),
    /// A POST of a notification or response, a DELETE: nothing to read.
    Message,
    /// The 2025 GET stream, or the legacy transport's stream.
    Stream,
}

#[derive(Debug)]
struct Exchange {
    role: Role,
    reader: Option<BodyReader>,
    content_type: String,
    /// What the request fails with when an error reply's body names no
    /// JSON-RPC error.
    fallback: Option<Failure>,
}

#[derive(Debug, Default)]
struct List {
    items: Vec<Value>,
    fresh: Vec<Value>,
    pages: usize,
    truncated: bool,
    busy: bool,
    again: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Retry {
    Stream,
    Connect,
}

/// The client side of one upstream MCP server, sans I/O: it decides
/// everything a connection decides (the era and transport, sessions,
/// request ids and reply matching, pagination, list changes, calls with
/// their progress and the server's questions, timeouts and cancellation)
/// and the host only moves bytes and tells the time.
///
/// ## The loop
///
/// 1. [`UpstreamClient::connect`] (or a first [`UpstreamClient::call`]).
/// 2. Drain [`UpstreamClient::poll_output`] until `None`, doing what each
///    [`ClientOutput`] says: [`ClientOutput::Send`] an HTTP request,
///    [`ClientOutput::Abort`] one, hand results and failures to whoever
///    made the call, answer [`ClientOutput::Ask`] with
///    [`UpstreamClient::answer`] or [`UpstreamClient::refuse`].
/// 3. Feed back what each exchange gives: [`UpstreamClient::response_head`],
///    [`UpstreamClient::response_chunk`] per piece of the body,
///    [`UpstreamClient::response_end`] (or [`UpstreamClient::response_error`]).
///    Input for an exchange the client no longer follows (after an abort,
///    or once its reply was read) is ignored.
/// 4. Wake at [`UpstreamClient::poll_timeout`] and call
///    [`UpstreamClient::handle_timeout`].
///
/// ## Eras and transports
///
/// The client probes with `server/discover` carrying the 2026-07-28
/// `_meta` envelope and the `MCP-Protocol-Version` and `Mcp-Method`
/// headers. A server that lists 2026-07-28 in `supportedVersions` is
/// spoken to statelessly: every request carries the envelope and the
/// headers (`Mcp-Name` too for `tools/call`, `prompts/get` and
/// `resources/read`), list changes come on a `subscriptions/listen`
/// stream, and a call is cancelled by closing its stream. Any other answer
/// a 2025 server gives (a JSON-RPC error such as -32601, a 4xx without a
/// modern error body; *Transports › Streamable HTTP › Backward
/// Compatibility*) falls back to `initialize` with 2025-11-25 (the server
/// may pick 2025-06-18): the `Mcp-Session-Id` it assigns goes on every
/// request, `notifications/initialized` follows, list changes come on a
/// GET stream, cancellation is `notifications/cancelled`, and a 404 to a
/// request in a session initializes again and resends it. A 4xx to
/// `initialize` means the deprecated HTTP+SSE transport: a GET stream
/// whose `endpoint` event names where to POST (same origin only), every
/// reply arriving on that stream. 401, 403 and 5xx to the probe fail the
/// connection ([`ClientOutput::Unavailable`]); the client tries again
/// after [`ClientConfig::reconnect_ms`], doubling the wait on each
/// failure.
///
/// ## Lists
///
/// After connecting, every list the server's capabilities offer is read
/// whole, page after page (at most [`ClientConfig::max_pages`] pages and
/// [`ClientConfig::max_items`] items), each giving one
/// [`ClientOutput::Listed`], then [`ClientOutput::Ready`] once. A
/// `notifications/…/list_changed` reads that list again and gives a new
/// [`ClientOutput::Listed`]; [`UpstreamClient::source`] builds the
/// engine's [`Source`] from the lists.
///
/// ```
/// use mcp_switchboard::client::{ClientConfig, ClientOutput, ListKind, UpstreamClient};
///
/// let mut client = UpstreamClient::new(ClientConfig::new("http://hub.local/mcp"));
/// client.connect(0)?;
/// let Some(ClientOutput::Send(probe)) = client.poll_output() else { panic!() };
/// assert!(probe.body.as_deref().unwrap().contains("server/discover"));
///
/// // a 2026-07-28 server answers the probe
/// let reply = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",
///   "supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}"#;
/// let json = [("content-type".to_string(), "application/json".to_string())];
/// client.response_head(probe.exchange, 200, &json, 5);
/// client.response_chunk(probe.exchange, reply, 5);
/// client.response_end(probe.exchange, 5);
/// let Some(ClientOutput::Connected(c)) = client.poll_output() else { panic!() };
/// assert_eq!(c.version, "2026-07-28");
///
/// // then it lists the tools, with the headers 2026-07-28 asks for
/// let Some(ClientOutput::Send(list)) = client.poll_output() else { panic!() };
/// assert!(list.headers.contains(&("Mcp-Method".into(), "tools/list".into())));
/// client.response_head(list.exchange, 200, &json, 9);
/// client.response_chunk(list.exchange, br#"{"jsonrpc":"2.0","id":2,"result":{"tools":[
///   {"name":"get_state","inputSchema":{"type":"object"}}]}}"#, 9);
/// client.response_end(list.exchange, 9);
/// assert!(matches!(client.poll_output(),
///     Some(ClientOutput::Listed { kind: ListKind::Tools, ref items, .. }) if items.len() == 1));
/// assert_eq!(client.poll_output(), Some(ClientOutput::Ready));
/// assert_eq!(client.source("hub")?.catalog.len(), 1);
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
///
/// ## Calls
///
/// [`UpstreamClient::call`] sends `tools/call`, `resources/read`,
/// `prompts/get` or `completion/complete` (queued until connected) and
/// returns the call's number; every output about it names it:
/// [`ClientOutput::Progress`] (the call's `progressToken` is its number),
/// [`ClientOutput::Ask`] for what the server asks meanwhile (2025: a
/// request on the call's stream, answered with a response; 2026-07-28: the
/// `inputRequests` of an `InputRequiredResult`, answered by retrying the
/// call with `inputResponses` and `requestState`, at most
/// [`ClientConfig::max_rounds`] times), then exactly one
/// [`ClientOutput::Done`] or [`ClientOutput::Failed`]. Past its timeout, or
/// on [`UpstreamClient::cancel`], the call is cancelled on the wire and
/// fails with [`Failure::Timeout`] or [`Failure::Cancelled`].
#[derive(Debug)]
pub struct UpstreamClient {
    config: ClientConfig,
    phase: Phase,
    /// Initializing again after a session expired (not a new connection).
    reinit: bool,
    /// What worked last time: a reconnection skips the probe.
    known: Option<(Era, Transport)>,
    era: Era,
    version: String,
    transport: Transport,
    session: Option<String>,
    endpoint: Option<String>,
    connection: Option<Connection>,
    phase_deadline: Option<u64>,
    next_rpc: u64,
    next_exchange: u64,
    next_call: u64,
    next_ask: u64,
    exchanges: Slots<Exchange>,
    pending: Slots<Pending>,
    calls: Slots<Call>,
    queued: Vec<u64>,
    asks: Slots<Ask>,
    lists: [List; 4],
    /// Lists still to be read before [`ClientOutput::Ready`].
    initial: Option<Vec<ListKind>>,
    /// The 2025 GET stream or the legacy transport's stream.
    stream: Option<u64>,
    /// The `subscriptions/listen` request.
    listen: Option<u64>,
    /// The server refused a change stream: none is opened again.
    no_stream: bool,
    retry: Option<(u64, Retry)>,
    failures: u32,
    outputs: VecDeque<ClientOutput>,
}

impl UpstreamClient {
    /// A client that has sent nothing yet.
    pub fn new(config: ClientConfig) -> UpstreamClient {
        UpstreamClient {
            config,
            phase: Phase::Idle,
            reinit: false,
            known: None,
            era: Era::Modern,
            version: String::new(),
            transport: Transport::StreamableHttp,
            session: None,
            endpoint: None,
            connection: None,
            phase_deadline: None,
            next_rpc: 1,
            next_exchange: 1,
            next_call: 1,
            next_ask: 1,
            exchanges: Slots::default(),
            pending: Slots::default(),
            calls: Slots::default(),
            queued: Vec::new(),
            asks: Slots::default(),
            lists: Default::default(),
            initial: None,
            stream: None,
            listen: None,
            no_stream: false,
            retry: None,
            failures: 0,
            outputs: VecDeque::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// What was negotiated, once connected.
    pub fn connection(&self) -> Option<&Connection> {
        self.connection
            .as_ref()
            .filter(|_| self.phase == Phase::Connected)
    }

    /// The last items read of a list.
    pub fn items(&self, kind: ListKind) -> &[Value] {
        self.lists
            .get(kind.index())
            .map_or(&[][..], |l| l.items.as_slice())
    }

    /// The engine's [`Source`] for this server under `name`: its tools,
    /// resources, templates and prompts as last read, available while
    /// connected.
    pub fn source(&self, name: &str) -> Result<Source, Error> {
        let catalog = Catalog::from_value(Value::Array(self.items(ListKind::Tools).to_vec()))?;
        let surface = Surface::new()
            .with_resources(self.items(ListKind::Resources).to_vec())?
            .with_templates(self.items(ListKind::ResourceTemplates).to_vec())?
            .with_prompts(self.items(ListKind::Prompts).to_vec())?;
        Ok(Source::new(name, catalog)
            .with_surface(surface)
            .with_available(self.phase == Phase::Connected))
    }

    /// Starts connecting. A usage error when already connecting, connected
    /// or closed.
    pub fn connect(&mut self, now_ms: u64) -> Result<(), Error> {
        match self.phase {
            Phase::Idle | Phase::Down => {
                self.start(now_ms);
                Ok(())
            }
            Phase::Closed => Err(closed()),
            _ => Err(Error::new(
                ErrorKind::Usage,
                "",
                "the client is already connecting or connected",
            )),
        }
    }

    /// The next output, or `None` when there is nothing to do.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<ClientOutput> {
        self.outputs.pop_front()
    }

    /// When [`UpstreamClient::handle_timeout`] is next due, in the host's
    /// milliseconds.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        let pending = self.pending.values().filter_map(|p| p.deadline);
        let calls = self
            .calls
            .values()
            .filter(|c| c.rpc.is_none())
            .map(|c| c.deadline);
        pending
            .chain(calls)
            .chain(self.phase_deadline)
            .chain(self.retry.map(|(at, _)| at))
            .min()
    }

    /// Sends a call (queued until connected; connecting when idle or down)
    /// and returns its number. `params` is the request's params: an object
    /// with `name` (tools, prompts), `uri` (resources) or `ref`
    /// (completions). `timeout_ms` overrides [`ClientConfig::timeout_ms`].
    pub fn call(
        &mut self,
        kind: CallKind,
        params: Value,
        timeout_ms: Option<u64>,
        now_ms: u64,
    ) -> Result<u64, Error> {
        if self.phase == Phase::Closed {
            return Err(closed());
        }
        let Value::Object(mut params) = params else {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                format!("the params of {} must be an object", kind.method()),
            ));
        };
        let field = kind.required();
        let ok = match params.get(field) {
            Some(Value::String(_)) => field != "ref",
            Some(Value::Object(_)) => field == "ref",
            _ => false,
        };
        if !ok {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("/{field}"),
                format!("{} needs params.{field}", kind.method()),
            ));
        }
        let id = self.next_call;
        self.next_call += 1;
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = meta {
            m.insert("progressToken".into(), Value::from(id));
        }
        let deadline = now_ms.saturating_add(timeout_ms.unwrap_or(self.config.timeout_ms).max(1));
        self.calls.insert(
            id,
            Call {
                kind,
                params: Value::Object(params),
                rpc: None,
                deadline,
                rounds: 0,
                waiting: Vec::new(),
                responses: Map::new(),
                request_state: None,
            },
        );
        match self.phase {
            Phase::Connected => self.send_call(id, now_ms),
            Phase::Idle | Phase::Down => {
                self.queued.push(id);
                self.start(now_ms);
            }
            _ => self.queued.push(id),
        }
        Ok(id)
    }

    /// Cancels a call: it is cancelled on the wire (its stream closed in
    /// 2026-07-28, `notifications/cancelled` in 2025) and fails with
    /// [`Failure::Cancelled`]. A usage error for a call that is not
    /// running.
    pub fn cancel(&mut self, call: u64, now_ms: u64) -> Result<(), Error> {
        if !self.calls.contains_key(&call) {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                format!("call {call} is not running"),
            ));
        }
        self.end_call(call, Failure::Cancelled, "cancelled by the client", now_ms);
        Ok(())
    }

    /// Answers an [`ClientOutput::Ask`] with its result.
    pub fn answer(&mut self, ask: u64, result: Value, now_ms: u64) -> Result<(), Error> {
        self.reply_to_ask(ask, Ok(result), now_ms)
    }

    /// Answers an [`ClientOutput::Ask`] with a JSON-RPC error (2025); in
    /// 2026-07-28, where an input request has no error answer, the call
    /// fails with it.
    pub fn refuse(&mut self, ask: u64, code: i64, message: &str, now_ms: u64) -> Result<(), Error> {
        self.reply_to_ask(ask, Err((code, message.to_string())), now_ms)
    }

    /// Closes the connection: every exchange aborted, a 2025 session ended
    /// with DELETE, running calls failed with [`Failure::Cancelled`].
    pub fn close(&mut self, now_ms: u64) {
        if self.phase == Phase::Closed {
            return;
        }
        self.phase = Phase::Closed;
        self.abort_all();
        let calls: Vec<u64> = self.calls.keys().copied().collect();
        for c in calls {
            self.end_call(c, Failure::Cancelled, "the client closed", now_ms);
        }
        self.pending.clear();
        self.asks.clear();
        if let Some(session) = self.session.take() {
            let mut headers = self.base_headers(false);
            headers.push(("Mcp-Session-Id".into(), session));
            self.send_http(
                "DELETE",
                self.config.url.clone(),
                headers,
                None,
                None,
                false,
                Role::Message,
            );
        }
        self.retry = None;
        self.phase_deadline = None;
    }

    /// An exchange's reply began: its status and headers.
    pub fn response_head(
        &mut self,
        exchange: u64,
        status: u16,
        headers: &[(String, String)],
        now_ms: u64,
    ) {
        let Some(ex) = self.exchanges.get_mut(&exchange) else {
            return;
        };
        let ctype = wire::header(headers, "content-type")
            .unwrap_or("")
            .to_string();
        ex.content_type.clone_from(&ctype);
        match ex.role {
            Role::Message => {
                self.exchanges.remove(&exchange);
            }
            Role::Stream => self.stream_head(exchange, status, &ctype, now_ms),
            Role::Request(rpc) => self.request_head(exchange, rpc, status, &ctype, headers, now_ms),
        }
    }

    /// A piece of an exchange's body.
    pub fn response_chunk(&mut self, exchange: u64, chunk: &[u8], now_ms: u64) {
        let Some(ex) = self.exchanges.get_mut(&exchange) else {
            return;
        };
        let role = ex.role;
        let Some(reader) = ex.reader.as_mut() else {
            return;
        };
        match reader.push(chunk) {
            Ok(read) => self.deliver(role, read, now_ms),
            Err(e) => self.exchange_failed(exchange, body_failure(&e), now_ms),
        }
    }

    /// An exchange's body ended.
    pub fn response_end(&mut self, exchange: u64, now_ms: u64) {
        let Some(mut ex) = self.exchanges.remove(&exchange) else {
            return;
        };
        let mut failure = None;
        if let Some(reader) = ex.reader.as_mut() {
            match reader.finish(&ex.content_type) {
                Ok(read) => self.deliver(ex.role, read, now_ms),
                Err(e) => failure = Some(body_failure(&e)),
            }
        }
        let failure = failure
            .or(ex.fallback)
            .unwrap_or_else(|| Failure::Transport("the reply ended without a response".into()));
        self.ended(exchange, ex.role, failure, now_ms);
    }

    /// An exchange failed (the network, the host's own limits): `message`
    /// says why.
    pub fn response_error(&mut self, exchange: u64, message: &str, now_ms: u64) {
        self.exchange_failed(exchange, Failure::Transport(message.to_string()), now_ms);
    }

    /// Handles every deadline at or before `now_ms`: timeouts of requests
    /// and calls, reconnections.
    pub fn handle_timeout(&mut self, now_ms: u64) {
        if let Some((at, what)) = self.retry {
            if at <= now_ms {
                self.retry = None;
                match what {
                    Retry::Connect if self.phase == Phase::Down => self.start(now_ms),
                    Retry::Stream if self.phase == Phase::Connected => self.open_stream(now_ms),
                    _ => {}
                }
            }
        }
        if self.phase_deadline.is_some_and(|d| d <= now_ms) {
            self.phase_deadline = None;
            self.down(Failure::Timeout, now_ms);
        }
        let due: Vec<(u64, What)> = self
            .pending
            .iter()
            .filter(|(_, p)| p.deadline.is_some_and(|d| d <= now_ms))
            .map(|(id, p)| (*id, p.what))
            .collect();
        for (rpc, what) in due {
            match what {
                What::Call(c) => self.end_call(c, Failure::Timeout, "timed out", now_ms),
                _ => {
                    if let Some(ex) = self.pending.get(&rpc).and_then(|p| p.exchange) {
                        self.abort(ex);
                    }
                    self.respond(rpc, Err(Failure::Timeout), now_ms);
                }
            }
        }
        let waiting: Vec<u64> = self
            .calls
            .iter()
            .filter(|(_, c)| c.rpc.is_none() && c.deadline <= now_ms)
            .map(|(id, _)| *id)
            .collect();
        for c in waiting {
            self.end_call(c, Failure::Timeout, "timed out", now_ms);
        }
    }

    // ---- connecting -------------------------------------------------

    fn start(&mut self, now_ms: u64) {
        self.session = None;
        self.endpoint = None;
        self.reinit = false;
        self.retry = None;
        self.no_stream = false;
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

    fn initialize(&mut self, now_ms: u64) {
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

    fn open_legacy(&mut self, now_ms: u64) {
        self.transport = Transport::HttpSse;
        self.era = Era::Legacy;
        self.version.clear();
        self.phase = Phase::OpeningLegacy;
        self.phase_deadline = Some(now_ms.saturating_add(self.config.timeout_ms));
        let headers = self.base_headers(false);
        let ex = self.send_http(
            "GET",
            self.config.url.clone(),
            headers,
            None,
            None,
            true,
            Role::Stream,
        );
        self.stream = Some(ex);
    }

    fn discovered(&mut self, result: &Value, now_ms: u64) {
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

    fn discover_failed(&mut self, failure: Failure, now_ms: u64) {
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

    fn initialized(&mut self, result: &Value, now_ms: u64) {
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

    fn connected(&mut self, result: &Value, server_info: Option<&Value>, now_ms: u64) {
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

    fn flush_queue(&mut self, now_ms: u64) {
        for c in std::mem::take(&mut self.queued) {
            if self.calls.contains_key(&c) {
                self.send_call(c, now_ms);
            }
        }
    }

    /// The connection failed or broke: everything in flight fails, and a
    /// reconnection is scheduled.
    fn down(&mut self, failure: Failure, now_ms: u64) {
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

    fn schedule(&mut self, what: Retry, now_ms: u64) {
        let wait = self
            .config
            .reconnect_ms
            .saturating_mul(1 << self.failures.min(6));
        self.failures = self.failures.saturating_add(1);
        self.retry = Some((now_ms.saturating_add(wait), what));
    }

    // ---- change streams ---------------------------------------------

    fn open_stream(&mut self, now_ms: u64) {
        if self.no_stream || self.phase != Phase::Connected {
            return;
        }
        match (self.era, self.transport) {
            (_, Transport::HttpSse) => {}
            (Era::Legacy, _) => {
                if self.stream.is_some() {
                    return;
                }
                let headers = self.base_headers(true);
                let ex = self.send_http(
                    "GET",
                    self.config.url.clone(),
                    headers,
                    None,
                    None,
                    true,
                    Role::Stream,
                );
                self.stream = Some(ex);
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

    fn stream_head(&mut self, exchange: u64, status: u16, ctype: &str, now_ms: u64) {
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
    fn stream_ended(&mut self, exchange: u64, failure: Failure, now_ms: u64) {
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

    // ---- lists --------------------------------------------------------

    fn start_list(&mut self, kind: ListKind, now_ms: u64) {
        let Some(list) = self.lists.get_mut(kind.index()) else {
            return;
        };
        if list.busy {
            list.again = true;
            return;
        }
        list.busy = true;
        list.fresh.clear();
        list.pages = 0;
        list.truncated = false;
        self.request(What::List(kind), kind.method(), json!({}), now_ms);
    }

    fn listed_page(&mut self, kind: ListKind, result: &Value, now_ms: u64) {
        let (max_items, max_pages) = (self.config.max_items, self.config.max_pages);
        let Some(list) = self.lists.get_mut(kind.index()) else {
            return;
        };
        let Some(items) = result.get(kind.field()).and_then(Value::as_array) else {
            self.list_failed(
                kind,
                Failure::Protocol(format!(
                    "the {} result has no {} array",
                    kind.method(),
                    kind.field()
                )),
                now_ms,
            );
            return;
        };
        for item in items {
            if list.fresh.len() < max_items {
                list.fresh.push(item.clone());
            } else {
                list.truncated = true;
            }
        }
        list.pages += 1;
        let cursor = result
            .get("nextCursor")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty());
        if let Some(cursor) = cursor {
            if list.truncated || list.pages >= max_pages {
                list.truncated = true;
            } else {
                let params = json!({"cursor": cursor});
                self.request(What::List(kind), kind.method(), params, now_ms);
                return;
            }
        }
        list.busy = false;
        list.items = std::mem::take(&mut list.fresh);
        let items = list.items.clone();
        let truncated = list.truncated;
        self.outputs.push_back(ClientOutput::Listed {
            kind,
            items,
            truncated,
        });
        self.list_settled(kind, now_ms);
    }

    fn list_failed(&mut self, kind: ListKind, error: Failure, now_ms: u64) {
        if let Some(list) = self.lists.get_mut(kind.index()) {
            list.busy = false;
            list.fresh.clear();
            if let Failure::Rpc { code, .. } = error {
                if code == METHOD_NOT_FOUND {
                    // the server does not offer it after all
                    list.items.clear();
                    self.outputs.push_back(ClientOutput::Listed {
                        kind,
                        items: Vec::new(),
                        truncated: false,
                    });
                    self.list_settled(kind, now_ms);
                    return;
                }
            }
        }
        self.outputs
            .push_back(ClientOutput::ListFailed { kind, error });
        self.list_settled(kind, now_ms);
    }

    fn list_settled(&mut self, kind: ListKind, now_ms: u64) {
        if let Some(initial) = &mut self.initial {
            initial.retain(|k| *k != kind);
            if initial.is_empty() {
                self.initial = None;
                self.outputs.push_back(ClientOutput::Ready);
            }
        }
        let again = self.lists.get_mut(kind.index()).is_some_and(|l| {
            let a = l.again;
            l.again = false;
            a
        });
        if again {
            self.start_list(kind, now_ms);
        }
    }

    fn list_changed(&mut self, method: &str, now_ms: u64) -> bool {
        let kinds: &[ListKind] = match method {
            "notifications/tools/list_changed" => &[ListKind::Tools],
            "notifications/prompts/list_changed" => &[ListKind::Prompts],
            "notifications/resources/list_changed" => {
                &[ListKind::Resources, ListKind::ResourceTemplates]
            }
            _ => return false,
        };
        if self.phase == Phase::Connected {
            for k in kinds {
                self.start_list(*k, now_ms);
            }
        }
        true
    }

    // ---- calls --------------------------------------------------------

    fn send_call(&mut self, call: u64, now_ms: u64) {
        let Some(c) = self.calls.get(&call) else {
            return;
        };
        let mut params = c.params.clone();
        if let Value::Object(m) = &mut params {
            if !c.responses.is_empty() {
                m.insert("inputResponses".into(), Value::Object(c.responses.clone()));
            }
            if let Some(s) = &c.request_state {
                m.insert("requestState".into(), Value::String(s.clone()));
            }
        }
        let (method, deadline) = (c.kind.method(), c.deadline);
        let rpc = self.request(What::Call(call), method, params, now_ms);
        if let Some(p) = self.pending.get_mut(&rpc) {
            p.deadline = Some(deadline);
        }
        if let Some(c) = self.calls.get_mut(&call) {
            c.rpc = Some(rpc);
        }
    }

    fn call_answered(&mut self, call: u64, outcome: Result<Value, Failure>, now_ms: u64) {
        let Some(c) = self.calls.get_mut(&call) else {
            return;
        };
        c.rpc = None;
        let result = match outcome {
            Ok(r) => r,
            Err(error) => {
                self.calls.remove(&call);
                self.outputs.push_back(ClientOutput::Failed { call, error });
                return;
            }
        };
        let input_required = self.era == Era::Modern
            && c.kind.may_ask()
            && result.get("resultType").and_then(Value::as_str) == Some("input_required");
        if !input_required {
            self.calls.remove(&call);
            self.outputs.push_back(ClientOutput::Done { call, result });
            return;
        }
        c.rounds += 1;
        let requests = match result.get("inputRequests") {
            None => Some(Map::new()),
            Some(Value::Object(m)) => Some(m.clone()),
            Some(_) => None,
        };
        let failure = if c.rounds > self.config.max_rounds {
            Some(Failure::Protocol(format!(
                "the server asked for input more than {} times",
                self.config.max_rounds
            )))
        } else if requests.is_none() {
            Some(Failure::Protocol("inputRequests is not an object".into()))
        } else {
            None
        };
        if let Some(error) = failure {
            self.calls.remove(&call);
            self.outputs.push_back(ClientOutput::Failed { call, error });
            return;
        }
        c.request_state = result
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned);
        c.responses = Map::new();
        let requests = requests.unwrap_or_default();
        if requests.is_empty() {
            self.send_call(call, now_ms);
            return;
        }
        for (key, req) in requests {
            let ask = self.next_ask;
            self.next_ask += 1;
            if let Some(c) = self.calls.get_mut(&call) {
                c.waiting.push(ask);
            }
            self.asks.insert(
                ask,
                Ask {
                    call: Some(call),
                    how: AskHow::Input(key),
                },
            );
            self.outputs.push_back(ClientOutput::Ask {
                ask,
                call: Some(call),
                method: req
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                params: req.get("params").cloned().unwrap_or(Value::Null),
            });
        }
    }

    /// Ends a running call with `failure`, cancelling it on the wire.
    fn end_call(&mut self, call: u64, failure: Failure, reason: &str, _now_ms: u64) {
        let Some(c) = self.calls.remove(&call) else {
            return;
        };
        self.queued.retain(|q| *q != call);
        self.asks.retain(|_, a| a.call != Some(call));
        if let Some(rpc) = c.rpc {
            if let Some(p) = self.pending.remove(&rpc) {
                if let Some(ex) = p.exchange {
                    self.exchanges.remove(&ex);
                    self.abort(ex);
                }
                if self.era == Era::Legacy && self.phase == Phase::Connected {
                    let note = wire::notification(
                        "notifications/cancelled",
                        Some(json!({"requestId": rpc, "reason": reason})),
                    );
                    self.post_message(note, Some(call));
                }
            }
        }
        self.outputs.push_back(ClientOutput::Failed {
            call,
            error: failure,
        });
    }

    fn reply_to_ask(
        &mut self,
        ask: u64,
        outcome: Result<Value, (i64, String)>,
        now_ms: u64,
    ) -> Result<(), Error> {
        let Some(a) = self.asks.remove(&ask) else {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                format!("ask {ask} is not waiting for an answer"),
            ));
        };
        match a.how {
            AskHow::Rpc(id) => {
                let text = match &outcome {
                    Ok(v) => wire::response(&id, Ok(v)),
                    Err((code, message)) => wire::response(&id, Err((*code, message))),
                };
                self.post_message(text, a.call);
            }
            AskHow::Input(key) => {
                let Some(call) = a.call else {
                    return Ok(());
                };
                match outcome {
                    Ok(v) => {
                        let Some(c) = self.calls.get_mut(&call) else {
                            return Ok(());
                        };
                        c.waiting.retain(|w| *w != ask);
                        c.responses.insert(key, v);
                        if c.waiting.is_empty() {
                            self.send_call(call, now_ms);
                        }
                    }
                    Err((code, message)) => {
                        let error = Failure::Rpc {
                            code,
                            message,
                            data: None,
                        };
                        self.end_call(call, error, "input refused", now_ms);
                    }
                }
            }
        }
        Ok(())
    }

    // ---- requests and replies -----------------------------------------

    /// Records and sends a request; returns its id.
    fn request(&mut self, what: What, method: &'static str, params: Value, now_ms: u64) -> u64 {
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

    fn modern_for(&self, what: What) -> bool {
        match what {
            What::Discover => true,
            What::Initialize => false,
            _ => self.era == Era::Modern,
        }
    }

    fn send_rpc(&mut self, rpc: u64) {
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

    fn post_url(&self) -> String {
        match (&self.endpoint, self.transport) {
            (Some(e), Transport::HttpSse) => e.clone(),
            _ => self.config.url.clone(),
        }
    }

    /// A notification or response: nothing to read back.
    fn post_message(&mut self, body: String, call: Option<u64>) {
        let headers = self.base_headers(self.era == Era::Legacy);
        let url = self.post_url();
        self.send_http("POST", url, headers, Some(body), call, false, Role::Message);
    }

    /// The token, and for 2025 traffic (`session`) the session and the
    /// negotiated revision.
    fn base_headers(&self, session: bool) -> Vec<(String, String)> {
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
    fn send_http(
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

    fn abort(&mut self, exchange: u64) {
        self.exchanges.remove(&exchange);
        self.outputs.push_back(ClientOutput::Abort { exchange });
    }

    fn abort_all(&mut self) {
        let all: Vec<u64> = self.exchanges.keys().copied().collect();
        for ex in all {
            self.abort(ex);
        }
    }

    fn request_head(
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

    fn read_body(&mut self, exchange: u64, ctype: &str, fallback: Option<Failure>) {
        if let Some(ex) = self.exchanges.get_mut(&exchange) {
            ex.reader = Some(BodyReader::new(ctype, self.config.max_reply));
            ex.fallback = fallback;
        }
    }

    /// An exchange's body could not be read, or the exchange failed.
    fn exchange_failed(&mut self, exchange: u64, failure: Failure, now_ms: u64) {
        let Some(ex) = self.exchanges.remove(&exchange) else {
            return;
        };
        self.outputs.push_back(ClientOutput::Abort { exchange });
        self.ended(exchange, ex.role, failure, now_ms);
    }

    /// An exchange is over: a request it carried without a reply fails.
    fn ended(&mut self, exchange: u64, role: Role, failure: Failure, now_ms: u64) {
        match role {
            Role::Request(rpc) => {
                let waiting = self
                    .pending
                    .get(&rpc)
                    .is_some_and(|p| p.exchange == Some(exchange));
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

    /// Messages (and an `endpoint`) read from an exchange.
    fn deliver(&mut self, role: Role, read: Read, now_ms: u64) {
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
            self.message(m, rpc, now_ms);
        }
    }

    fn endpoint_found(&mut self, endpoint: &str, now_ms: u64) {
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
    /// came with.
    fn message(&mut self, m: Value, rpc: Option<u64>, now_ms: u64) {
        let call_of = |s: &Self, rpc: Option<u64>| match rpc.and_then(|r| s.pending.get(&r)) {
            Some(Pending {
                what: What::Call(c),
                ..
            }) => Some(*c),
            _ => None,
        };
        if let Some(method) = m.get("method").and_then(Value::as_str) {
            let params = m.get("params").cloned().unwrap_or(Value::Null);
            if let Some(id) = m.get("id") {
                if method == "ping" {
                    let text = wire::response(id, Ok(&json!({})));
                    self.post_message(text, None);
                    return;
                }
                let ask = self.next_ask;
                self.next_ask += 1;
                let call = call_of(self, rpc);
                self.asks.insert(
                    ask,
                    Ask {
                        call,
                        how: AskHow::Rpc(id.clone()),
                    },
                );
                self.outputs.push_back(ClientOutput::Ask {
                    ask,
                    call,
                    method: method.to_string(),
                    params,
                });
                return;
            }
            self.notification(method, params, call_of(self, rpc), now_ms);
            return;
        }
        let is_reply = m.get("result").is_some() || m.get("error").is_some();
        if !is_reply {
            return;
        }
        let id = match m.get("id") {
            Some(Value::Number(n)) => n.as_u64(),
            Some(Value::String(s)) => s.parse().ok(),
            // an error without an id answers the request it came with
            Some(Value::Null) | None => rpc,
            _ => None,
        };
        let Some(id) = id.filter(|id| self.pending.contains_key(id)) else {
            return;
        };
        let outcome = match m.get("error") {
            Some(e) => Err(Failure::rpc(e)),
            None => Ok(m.get("result").cloned().unwrap_or(Value::Null)),
        };
        self.respond(id, outcome, now_ms);
    }

    fn notification(&mut self, method: &str, params: Value, call: Option<u64>, now_ms: u64) {
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
    fn respond(&mut self, rpc: u64, outcome: Result<Value, Failure>, now_ms: u64) {
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

/// Requests, exchanges, calls and asks by number: few at a time, kept in
/// the order they were made (numbers only grow).
#[derive(Debug)]
struct Slots<T>(Vec<(u64, T)>);

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots(Vec::new())
    }
}

impl<T> Slots<T> {
    fn insert(&mut self, id: u64, value: T) {
        self.0.push((id, value));
    }

    fn position(&self, id: u64) -> Option<usize> {
        self.0.iter().position(|(k, _)| *k == id)
    }

    fn get(&self, id: &u64) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == id).map(|(_, v)| v)
    }

    fn get_mut(&mut self, id: &u64) -> Option<&mut T> {
        self.0.iter_mut().find(|(k, _)| k == id).map(|(_, v)| v)
    }

    fn contains_key(&self, id: &u64) -> bool {
        self.position(*id).is_some()
    }

    fn remove(&mut self, id: &u64) -> Option<T> {
        let i = self.position(*id)?;
        Some(self.0.remove(i).1)
    }

    fn iter(&self) -> impl Iterator<Item = (&u64, &T)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    fn keys(&self) -> impl Iterator<Item = &u64> {
        self.0.iter().map(|(k, _)| k)
    }

    fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
    }

    fn retain(&mut self, mut keep: impl FnMut(&u64, &mut T) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

fn closed() -> Error {
    Error::new(ErrorKind::Usage, "", "the client is closed")
}

fn body_failure(e: &Error) -> Failure {
    match e.kind() {
        ErrorKind::Limit => Failure::Limit(e.to_string()),
        _ => Failure::Protocol(e.to_string()),
    }
}
