//! The upstream MCP client as a sans-I/O state machine: the type, its
//! public API and state here; connecting, lists, calls and replies in
//! their own files.

mod calls;
mod connect;
mod lists;
mod relay;
mod replies;

pub use relay::{upstream_request, Relay};

use std::collections::VecDeque;

use serde_json::{Map, Value};

use super::body::{BodyReader, Read};
use super::types::{
    CallKind, ClientConfig, ClientOutput, Connection, Failure, HttpSend, ListKind, Transport,
};
use super::{classify_reply, wire, ReplyAction};
use crate::engine::era::META_SERVER_INFO;
use crate::engine::{Era, Source, Surface, LEGACY_VERSIONS, MODERN_VERSIONS};
use crate::error::{Error, ErrorKind, Misuse};
use crate::Catalog;

/// The -32022 `UnsupportedProtocolVersion` code.
const UNSUPPORTED_VERSION: i64 = -32022;
/// The -32601 `MethodNotFound` code.
const METHOD_NOT_FOUND: i64 = -32601;
/// The JSON-RPC error code of a request of the server refused past the
/// client's limits (a server error code of JSON-RPC's reserved range).
const SERVER_BUSY: i64 = -32000;

/// The message of that error.
const REFUSED: &str = "the client takes no more requests of this server for now";

/// What becomes of a request of the server.
enum Admit {
    /// Taken: answered, or passed to the host.
    Take,
    /// Refused with a JSON-RPC error ([`REFUSED`]).
    Refuse,
    /// Too many: the exchange carrying it is cut.
    Cut,
}

/// Messages of one kind counted over the current second.
#[derive(Debug, Default)]
struct Window {
    start_ms: u64,
    count: u32,
    /// The host was told of this second's excess.
    told: bool,
}

impl Window {
    /// The window for `now_ms`, started afresh when a second has passed.
    fn at(&mut self, now_ms: u64) -> &mut Window {
        if now_ms.saturating_sub(self.start_ms) >= 1000 || now_ms < self.start_ms {
            *self = Window {
                start_ms: now_ms,
                count: 0,
                told: false,
            };
        }
        self
    }
}

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
    /// The era of the client whose invocation the call relays
    /// ([`UpstreamClient::relay`]); `None`: the host answers the server's
    /// questions.
    client: Option<Era>,
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
    /// What the server asks (`sampling/createMessage`, ...).
    method: String,
    /// Its key among the `inputRequests` of a 2026-07-28 client
    /// ([`Relay::Input`]).
    key: Option<String>,
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
    /// Its reply began (a failure now breaks a reply off, it no longer
    /// means the server is unreachable).
    head: bool,
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
    /// Items the server sent in this reading, over its pages.
    seen: usize,
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
/// failure. A server reached over stdio ([`ClientConfig::with_stdio`]) is
/// probed and negotiated the same way over lines: the host starts the
/// process on [`ClientOutput::Spawn`] (again after it exited), writes each
/// [`ClientOutput::Write`] to its stdin and feeds its stdout to
/// [`UpstreamClient::receive`] and its end to [`UpstreamClient::exited`];
/// a call is cancelled with `notifications/cancelled`, and a question of
/// the server belongs to the call running when only one is.
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
    /// Exchanges cut for carrying too many requests of the server.
    cuts: u32,
    /// Stdio: the part of a line read so far.
    line: Vec<u8>,
    outputs: VecDeque<ClientOutput>,
    /// Requests of the server this second.
    asks_window: Window,
    /// Notifications of the server this second.
    notes_window: Window,
    /// An error with a null id that came with request `rpc`'s reply.
    null_error: Option<(u64, Failure)>,
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
            cuts: 0,
            line: Vec::new(),
            outputs: VecDeque::new(),
            asks_window: Window::default(),
            notes_window: Window::default(),
            null_error: None,
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
            _ => Err(Error::misused(
                Misuse::Busy,
                "",
                "the client is already connecting or connected",
            )),
        }
    }

    /// The next output, or `None` when there is nothing to do.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<ClientOutput> {
        let out = self.outputs.pop_front();
        if out.is_none() {
            // what a burst made room for is given back
            if self.outputs.capacity() > 64 {
                self.outputs = VecDeque::new();
            }
            self.asks.shrink();
        }
        out
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
            return Err(Error::misused(
                Misuse::BadParams,
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
            return Err(Error::misused(
                Misuse::BadParams,
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
                client: None,
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
            return Err(Error::misused(
                Misuse::NotOutstanding,
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
        ex.head = true;
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
            Ok(read) => self.deliver(exchange, role, read, now_ms),
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
                Ok(read) => self.deliver(exchange, ex.role, read, now_ms),
                Err(e) => failure = Some(body_failure(&e)),
            }
        }
        let failure = failure.or(ex.fallback).unwrap_or_else(|| match ex.role {
            Role::Request(rpc) => {
                Failure::Protocol(format!("no response to request {rpc} in the reply"))
            }
            _ => Failure::Transport("the reply ended without a response".into()),
        });
        self.ended(exchange, ex.role, failure, now_ms);
    }

    /// An exchange failed (the network, the host's own limits): `message`
    /// says why. Before its reply began, the server is
    /// [`Failure::Unreachable`] (and a connection is lost: every call
    /// fails, [`ClientOutput::Unavailable`] follows and a reconnection is
    /// scheduled); after, the reply broke off ([`Failure::Transport`]).
    pub fn response_error(&mut self, exchange: u64, message: &str, now_ms: u64) {
        let Some(ex) = self.exchanges.get(&exchange) else {
            return;
        };
        let failure = if ex.head {
            Failure::Transport(format!("the reply broke off before its end ({message})"))
        } else {
            Failure::Unreachable(message.to_string())
        };
        self.exchange_failed(exchange, failure, now_ms);
    }

    /// Stdio: a piece of the process's stdout (JSON-RPC messages, one per
    /// line). A line longer than [`ClientConfig::max_reply`] loses the
    /// connection ([`Failure::Limit`]).
    pub fn receive(&mut self, chunk: &[u8], now_ms: u64) {
        if !self.config.stdio || matches!(self.phase, Phase::Closed | Phase::Down) {
            return;
        }
        let mut rest = chunk;
        while let Some(i) = rest.iter().position(|b| *b == b'\n') {
            let (head, tail) = rest.split_at(i);
            rest = tail.get(1..).unwrap_or(&[]);
            if self.line.len() + head.len() > self.config.max_reply {
                self.line.clear();
                self.too_long(now_ms);
                return;
            }
            self.line.extend_from_slice(head);
            let line = std::mem::take(&mut self.line);
            self.stdio_line(&line, now_ms);
            if matches!(self.phase, Phase::Closed | Phase::Down) {
                return;
            }
        }
        if self.line.len() + rest.len() > self.config.max_reply {
            self.line.clear();
            self.too_long(now_ms);
            return;
        }
        self.line.extend_from_slice(rest);
    }

    /// Stdio: the process exited or could not be started (`reason` says
    /// why): the connection is lost, and a reconnection (a new
    /// [`ClientOutput::Spawn`]) is scheduled.
    pub fn exited(&mut self, reason: &str, now_ms: u64) {
        if self.config.stdio {
            self.line.clear();
            self.down(Failure::Unreachable(reason.to_string()), now_ms);
        }
    }

    /// One line naming this upstream and what went wrong (see
    /// [`Failure::describe`]).
    pub fn describe(&self, failure: &Failure) -> String {
        failure.describe(&self.config.url)
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
}

/// Requests, exchanges, calls and asks by number (and the HTTP gate's
/// connections): few at a time, bounded, kept in the order they were made
/// (numbers only grow), found by a scan.
#[derive(Debug, Clone)]
pub(crate) struct Slots<T>(Vec<(u64, T)>);

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots(Vec::new())
    }
}

impl<T> Slots<T> {
    pub(crate) fn insert(&mut self, id: u64, value: T) {
        self.0.push((id, value));
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn position(&self, id: u64) -> Option<usize> {
        self.0.iter().position(|(k, _)| *k == id)
    }

    pub(crate) fn get(&self, id: &u64) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == id).map(|(_, v)| v)
    }

    pub(crate) fn get_mut(&mut self, id: &u64) -> Option<&mut T> {
        self.0.iter_mut().find(|(k, _)| k == id).map(|(_, v)| v)
    }

    pub(crate) fn contains_key(&self, id: &u64) -> bool {
        self.position(*id).is_some()
    }

    pub(crate) fn remove(&mut self, id: &u64) -> Option<T> {
        let i = self.position(*id)?;
        Some(self.0.remove(i).1)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&u64, &T)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = &u64> {
        self.0.iter().map(|(k, _)| k)
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|(_, v)| v)
    }

    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&u64, &mut T) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }

    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// Gives back the room a burst left when few are kept.
    pub(crate) fn shrink(&mut self) {
        if self.0.capacity() > 64 && self.0.len() < 16 {
            self.0.shrink_to(16);
        }
    }
}

fn closed() -> Error {
    Error::misused(Misuse::Closed, "", "the client is closed")
}

fn body_failure(e: &Error) -> Failure {
    match e.kind() {
        ErrorKind::Limit => Failure::Limit(e.to_string()),
        _ => Failure::Protocol(e.to_string()),
    }
}
