//! What goes into and comes out of [`UpstreamClient`](super::UpstreamClient):
//! its configuration, the kinds of lists and calls, the HTTP exchanges the
//! host performs, the outputs and the typed failures.

use std::fmt;

use serde_json::Value;

use super::DEFAULT_MAX_REPLY;
use crate::engine::Era;

/// The lists an upstream server offers, each read whole (following
/// `nextCursor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ListKind {
    /// `tools/list` → `tools`.
    Tools,
    /// `resources/list` → `resources`.
    Resources,
    /// `resources/templates/list` → `resourceTemplates`.
    ResourceTemplates,
    /// `prompts/list` → `prompts`.
    Prompts,
}

impl ListKind {
    /// Every kind, in the order they are listed.
    pub const ALL: [ListKind; 4] = [
        ListKind::Tools,
        ListKind::Resources,
        ListKind::ResourceTemplates,
        ListKind::Prompts,
    ];

    /// The list method.
    pub fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "tools/list",
            ListKind::Resources => "resources/list",
            ListKind::ResourceTemplates => "resources/templates/list",
            ListKind::Prompts => "prompts/list",
        }
    }

    /// The result's field holding the items, also the kind's name in
    /// outputs (`tools`, `resources`, `resourceTemplates`, `prompts`).
    pub fn field(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Resources => "resources",
            ListKind::ResourceTemplates => "resourceTemplates",
            ListKind::Prompts => "prompts",
        }
    }

    /// The server capability that offers the list.
    pub(crate) fn capability(self) -> &'static str {
        match self {
            ListKind::Tools => "tools",
            ListKind::Resources | ListKind::ResourceTemplates => "resources",
            ListKind::Prompts => "prompts",
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            ListKind::Tools => 0,
            ListKind::Resources => 1,
            ListKind::ResourceTemplates => 2,
            ListKind::Prompts => 3,
        }
    }
}

/// What a call asks the upstream server for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallKind {
    /// `tools/call` (params: `name`, `arguments`).
    Tool,
    /// `resources/read` (params: `uri`).
    ReadResource,
    /// `prompts/get` (params: `name`, `arguments`).
    GetPrompt,
    /// `completion/complete` (params: `ref`, `argument`).
    Complete,
}

impl CallKind {
    /// The JSON-RPC method.
    pub fn method(self) -> &'static str {
        match self {
            CallKind::Tool => "tools/call",
            CallKind::ReadResource => "resources/read",
            CallKind::GetPrompt => "prompts/get",
            CallKind::Complete => "completion/complete",
        }
    }

    /// The kind of a method name, for the four methods above.
    pub fn from_method(method: &str) -> Option<CallKind> {
        Some(match method {
            "tools/call" => CallKind::Tool,
            "resources/read" => CallKind::ReadResource,
            "prompts/get" => CallKind::GetPrompt,
            "completion/complete" => CallKind::Complete,
            _ => return None,
        })
    }

    /// The params field that must be present (a string for all but
    /// `completion/complete`, whose `ref` is an object).
    pub(crate) fn required(self) -> &'static str {
        match self {
            CallKind::Tool | CallKind::GetPrompt => "name",
            CallKind::ReadResource => "uri",
            CallKind::Complete => "ref",
        }
    }

    /// Whether a 2026-07-28 server may answer it with an
    /// `InputRequiredResult` (*Basic › Patterns › Multi Round-Trip
    /// Requests › Supported Requests*).
    pub(crate) fn may_ask(self) -> bool {
        !matches!(self, CallKind::Complete)
    }
}

/// How the client reaches the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// Streamable HTTP: one POST per message, replies as JSON or an event
    /// stream.
    StreamableHttp,
    /// The deprecated HTTP+SSE transport of 2024-11-05: a GET event stream
    /// that names where to POST, every reply on that stream.
    HttpSse,
    /// A local process: one JSON-RPC message per line on its stdin and
    /// stdout ([`ClientOutput::Spawn`], [`ClientOutput::Write`]).
    Stdio,
}

impl Transport {
    /// `streamable-http` or `http+sse`.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::StreamableHttp => "streamable-http",
            Transport::HttpSse => "http+sse",
            Transport::Stdio => "stdio",
        }
    }
}

/// How an [`UpstreamClient`](super::UpstreamClient) behaves: `new` with the
/// server's URL, then `with_*`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ClientConfig {
    /// The MCP endpoint (Streamable HTTP), or the SSE URL of a legacy
    /// HTTP+SSE server.
    pub url: String,
    /// A bearer token sent with every request.
    pub token: Option<String>,
    /// The client's name in `clientInfo`.
    pub client_name: String,
    /// The client's version in `clientInfo`.
    pub client_version: String,
    /// The client capabilities declared (`{}` by default; declare
    /// `sampling`, `elicitation` or `roots` only when the host answers
    /// [`ClientOutput::Ask`]).
    pub capabilities: Value,
    /// How long a request may take, in milliseconds (30 s by default).
    pub timeout_ms: u64,
    /// The largest reply body (or event) read, in bytes.
    pub max_reply: usize,
    /// The most pages read for one list.
    pub max_pages: usize,
    /// The most items kept per list.
    pub max_items: usize,
    /// The most input rounds of one 2026-07-28 call (an
    /// `InputRequiredResult` answered and retried).
    pub max_rounds: usize,
    /// The first wait before a broken event stream or connection is tried
    /// again, in milliseconds; doubled on each failure up to 64 times.
    pub reconnect_ms: u64,
    /// The server is a local process reached over stdio, not HTTP (`url`
    /// then names it, e.g. its command line).
    pub stdio: bool,
    /// Requests of the server (sampling, elicitation, roots) waiting for the
    /// host's answer at once (default 16); more are refused with a
    /// JSON-RPC error.
    pub max_asks: usize,
    /// Requests of the server (pings included) taken per second (default
    /// 20); more in the same second are refused with a JSON-RPC error, and
    /// past twice as many the exchange carrying them is cut (see
    /// [`UpstreamClient`](super::UpstreamClient)'s *Bounds*).
    pub max_asks_per_second: u32,
    /// Notifications of the server taken per second (default 200); more in
    /// the same second are dropped.
    pub max_notifications_per_second: u32,
}

impl ClientConfig {
    /// Defaults for a server at `url`.
    pub fn new(url: impl Into<String>) -> ClientConfig {
        ClientConfig {
            url: url.into(),
            token: None,
            client_name: "mcp-switchboard".into(),
            client_version: env!("CARGO_PKG_VERSION").into(),
            capabilities: Value::Object(Default::default()),
            timeout_ms: 30_000,
            max_reply: DEFAULT_MAX_REPLY,
            max_pages: 100,
            max_items: 10_000,
            max_rounds: 8,
            reconnect_ms: 1_000,
            stdio: false,
            max_asks: 16,
            max_asks_per_second: 20,
            max_notifications_per_second: 200,
        }
    }

    /// Reached over stdio: the host starts the process on
    /// [`ClientOutput::Spawn`], writes each [`ClientOutput::Write`] to its
    /// stdin, and feeds its stdout to
    /// [`UpstreamClient::receive`](super::UpstreamClient::receive).
    pub fn with_stdio(mut self, stdio: bool) -> ClientConfig {
        self.stdio = stdio;
        self
    }

    /// With a bearer token (an empty one is none).
    pub fn with_token(mut self, token: Option<String>) -> ClientConfig {
        self.token = token.filter(|t| !t.is_empty());
        self
    }

    /// With this `clientInfo`.
    pub fn with_client(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.client_name = name.into();
        self.client_version = version.into();
        self
    }

    /// Declaring these client capabilities (an object).
    pub fn with_capabilities(mut self, capabilities: Value) -> ClientConfig {
        if capabilities.is_object() {
            self.capabilities = capabilities;
        }
        self
    }

    /// With this request timeout (at least 1 ms).
    pub fn with_timeout_ms(mut self, ms: u64) -> ClientConfig {
        self.timeout_ms = ms.max(1);
        self
    }

    /// Reading replies (and events) up to `bytes`.
    pub fn with_max_reply(mut self, bytes: usize) -> ClientConfig {
        self.max_reply = bytes.max(1);
        self
    }

    /// Reading at most `pages` pages and keeping at most `items` items per
    /// list.
    pub fn with_list_limits(mut self, pages: usize, items: usize) -> ClientConfig {
        self.max_pages = pages.max(1);
        self.max_items = items;
        self
    }

    /// Allowing at most `rounds` input rounds per 2026-07-28 call.
    pub fn with_max_rounds(mut self, rounds: usize) -> ClientConfig {
        self.max_rounds = rounds;
        self
    }

    /// Waiting `ms` before the first reconnection attempt.
    pub fn with_reconnect_ms(mut self, ms: u64) -> ClientConfig {
        self.reconnect_ms = ms.max(1);
        self
    }

    /// Taking at most `in_flight` requests of the server waiting for an
    /// answer (at least 1), `per_second` of them per second (at least 1),
    /// and `notifications` notifications per second (at least 1).
    pub fn with_server_limits(
        mut self,
        in_flight: usize,
        per_second: u32,
        notifications: u32,
    ) -> Self {
        self.max_asks = in_flight.max(1);
        self.max_asks_per_second = per_second.max(1);
        self.max_notifications_per_second = notifications.max(1);
        self
    }
}

/// An HTTP request for the host to send. Feed back what comes of it under
/// its `exchange` number: [`UpstreamClient::response_head`], then
/// [`UpstreamClient::response_chunk`] for each piece of the body and
/// [`UpstreamClient::response_end`] (or [`UpstreamClient::response_error`]
/// when it fails).
///
/// [`UpstreamClient::response_head`]: super::UpstreamClient::response_head
/// [`UpstreamClient::response_chunk`]: super::UpstreamClient::response_chunk
/// [`UpstreamClient::response_end`]: super::UpstreamClient::response_end
/// [`UpstreamClient::response_error`]: super::UpstreamClient::response_error
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HttpSend {
    /// The exchange's number, unique for this client.
    pub exchange: u64,
    /// `POST`, `GET` or `DELETE`.
    pub method: &'static str,
    /// Where to.
    pub url: String,
    /// The request headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body (JSON text), for a POST.
    pub body: Option<String>,
    /// The call it belongs to, when it carries one.
    pub call: Option<u64>,
    /// Whether the reply is a long-lived event stream (the 2025 GET
    /// stream, the legacy transport's stream, a 2026-07-28
    /// `subscriptions/listen`): no timeout applies to reading it.
    pub stream: bool,
}

/// Why something failed, by kind: the host maps these, never a message.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Failure {
    /// The server answered with a JSON-RPC error.
    Rpc {
        /// The error code.
        code: i64,
        /// Its message.
        message: String,
        /// Its `data`, when present.
        data: Option<Value>,
    },
    /// The server answered with an HTTP status that is no reply.
    Http {
        /// The status.
        status: u16,
        /// What it means.
        message: String,
    },
    /// No reply in time.
    Timeout,
    /// The host cancelled it (or closed the client).
    Cancelled,
    /// The connection failed or broke off (what the host reported).
    Transport(String),
    /// The server could not be reached at all: the request failed before
    /// any reply began (the host's reason, e.g. `ECONNREFUSED`).
    Unreachable(String),
    /// A reply or event was larger than the limit.
    Limit(String),
    /// The server broke the protocol (a malformed reply, an unknown era).
    Protocol(String),
}

impl Failure {
    /// The kind as a word: `rpc`, `http`, `timeout`, `cancelled`,
    /// `transport`, `unreachable`, `limit` or `protocol`.
    pub fn code(&self) -> &'static str {
        match self {
            Failure::Rpc { .. } => "rpc",
            Failure::Http { .. } => "http",
            Failure::Timeout => "timeout",
            Failure::Cancelled => "cancelled",
            Failure::Transport(_) => "transport",
            Failure::Unreachable(_) => "unreachable",
            Failure::Limit(_) => "limit",
            Failure::Protocol(_) => "protocol",
        }
    }

    /// One line for a person that names the upstream at `url`:
    /// `upstream <url> is unreachable (<why>)`, or `upstream <url>: <what>`.
    pub fn describe(&self, url: &str) -> String {
        match self {
            Failure::Unreachable(m) => format!("upstream {url} is unreachable ({m})"),
            f => format!("upstream {url}: {f}"),
        }
    }

    /// The failure of a JSON-RPC `error` object.
    pub(crate) fn rpc(error: &Value) -> Failure {
        Failure::Rpc {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no message")
                .to_string(),
            data: error.get("data").cloned(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Rpc { code, message, .. } => {
                write!(
                    f,
                    "the server answered with JSON-RPC error {code}: {message}"
                )
            }
            Failure::Http { message, .. } => f.write_str(message),
            Failure::Timeout => f.write_str("the server did not answer in time"),
            Failure::Cancelled => f.write_str("the request was cancelled"),
            Failure::Unreachable(m) => write!(f, "the upstream is unreachable ({m})"),
            Failure::Transport(m) | Failure::Limit(m) | Failure::Protocol(m) => f.write_str(m),
        }
    }
}

/// What the client negotiated with the server.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Connection {
    /// The era: 2026-07-28 (stateless) or 2025 (after `initialize`).
    pub era: Era,
    /// The protocol revision spoken.
    pub version: String,
    /// How the server is reached.
    pub transport: Transport,
    /// The server's capabilities.
    pub capabilities: Value,
    /// The server's `serverInfo` (`null` when it gave none).
    pub server_info: Value,
    /// The server's instructions for models, when it gave some.
    pub instructions: Option<String>,
}

/// What the host does next, drained with
/// [`UpstreamClient::poll_output`](super::UpstreamClient::poll_output).
/// Everything that belongs to a call says which.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ClientOutput {
    /// Send this HTTP request.
    Send(HttpSend),
    /// Stdio: start the server's process (again, after it exited); its
    /// stdout goes to [`UpstreamClient::receive`](super::UpstreamClient::receive),
    /// its end to [`UpstreamClient::exited`](super::UpstreamClient::exited).
    Spawn,
    /// Stdio: write this JSON-RPC message, then a newline, to the process.
    Write {
        /// The message (JSON text, one line).
        message: String,
    },
    /// Stop this exchange: abort the request, stop reading its body.
    /// (On 2026-07-28 closing a request's stream is how it is cancelled.)
    Abort {
        /// The exchange.
        exchange: u64,
    },
    /// The connection is negotiated (again, after a reconnection).
    Connected(Connection),
    /// A list was read whole: the first time, or again after the server
    /// said it changed (then the source's catalog changed).
    Listed {
        /// Which list.
        kind: ListKind,
        /// Its items, in the server's order.
        items: Vec<Value>,
        /// Whether items were left out (past the page or item limit).
        truncated: bool,
    },
    /// An item of a list was left out (not a valid tool, resource,
    /// template or prompt; or a page that could not be read, after the
    /// pages before it), or a tool name was flagged (a name MCP does not
    /// allow, such as one with control characters: kept, and said here,
    /// escaped); the rest of the list stands.
    Skipped {
        /// Which list.
        kind: ListKind,
        /// The item's position in the list as the server sent it, over all
        /// pages.
        index: usize,
        /// Whether the item was kept (a flagged name) or left out.
        kept: bool,
        /// What became of it and why, in one sentence ("left out: …", or
        /// the flag of a kept item).
        reason: String,
    },
    /// The server sent more than its share ([`ClientConfig::max_asks`],
    /// [`ClientConfig::max_asks_per_second`],
    /// [`ClientConfig::max_notifications_per_second`]): what was refused,
    /// dropped or cut, said once per second at most.
    Limited {
        /// The call whose exchange carried it, when one did.
        call: Option<u64>,
        /// What happened, in words for a log.
        message: String,
    },
    /// A list could not be read; the previous items stand (none the first
    /// time).
    ListFailed {
        /// Which list.
        kind: ListKind,
        /// Why.
        error: Failure,
    },
    /// Every list the server offers was read after connecting: the
    /// source is ready ([`UpstreamClient::source`](super::UpstreamClient::source)).
    Ready,
    /// The connection failed or was lost; calls fail until it is back
    /// (the client tries again by itself, or on the next call).
    Unavailable {
        /// Why.
        error: Failure,
    },
    /// A call's result.
    Done {
        /// The call.
        call: u64,
        /// The result, as the server sent it.
        result: Value,
    },
    /// A call failed.
    Failed {
        /// The call.
        call: u64,
        /// Why.
        error: Failure,
    },
    /// Progress of a call (`notifications/progress` params).
    Progress {
        /// The call.
        call: u64,
        /// The notification's params.
        params: Value,
    },
    /// The server asks the client something (sampling, elicitation,
    /// roots): answer with [`UpstreamClient::answer`](super::UpstreamClient::answer).
    Ask {
        /// The ask's number, for the answer.
        ask: u64,
        /// The call it belongs to, when known.
        call: Option<u64>,
        /// `sampling/createMessage`, `elicitation/create`, `roots/list`, …
        method: String,
        /// Its params.
        params: Value,
        /// Who answers it: the host, or the client of the invocation the
        /// call relays ([`UpstreamClient::relay`](super::UpstreamClient::relay)).
        relay: super::Relay,
    },
    /// Another notification from the server (`notifications/message`,
    /// `notifications/resources/updated`, …).
    Notification {
        /// The call it came with, when known.
        call: Option<u64>,
        /// The method.
        method: String,
        /// Its params (`null` when none).
        params: Value,
    },
}
