//! The MCP server engine, sans I/O: feed it one incoming message at a time
//! with [`Engine::handle`], then drain [`Output`]s with
//! [`Engine::poll_output`]: replies and notifications to send, and
//! invocations of real tools for the host to perform. The host reports each
//! invocation's outcome with [`Engine::complete`] or [`Engine::fail`], and
//! the engine answers the request that asked for it. Several invocations
//! may be outstanding at once.
//!
//! ## Revisions and eras
//!
//! One engine speaks MCP 2025-06-18, 2025-11-25 and 2026-07-28, and picks
//! the era per request ([`Era`]), as the 2026-07-28 specification's
//! *Versioning › Backward Compatibility with Initialization-Based Versions*
//! describes for a dual-era server:
//!
//! * A request whose `params._meta` names a protocol version
//!   (`io.modelcontextprotocol/protocolVersion`) is **modern**: served
//!   statelessly from its envelope (*Basic › `_meta`*, "Per-request protocol
//!   fields"). A missing or malformed `clientCapabilities`, or an unknown
//!   `logLevel`, is refused with -32602 (HTTP 400); a version not in
//!   [`MODERN_VERSIONS`] with -32022 `UnsupportedProtocolVersion`, whose
//!   `data` has `supported` and `requested` (*Versioning › Protocol Version
//!   Negotiation*). A claim naming a 2025 revision is served under 2025
//!   rules.
//! * `initialize` without a modern claim, and any request without one, is
//!   **legacy**: `initialize` negotiates one of [`LEGACY_VERSIONS`] for the
//!   session. `server/discover` and `subscriptions/listen`, which only the
//!   modern era has, are refused with -32602 without an envelope.
//!
//! Modern requests: `server/discover` (*Server › Discovery*: supported
//! versions, capabilities, `instructions`), every result with `resultType:
//! "complete"` and the server's identity in `_meta`
//! (`io.modelcontextprotocol/serverInfo`); `ttlMs` and `cacheScope` on the
//! lists, `server/discover` (`public`) and `resources/read` (`private`)
//! (*Server › Utilities › Caching*, [`EngineConfig::ttl_ms`]);
//! `subscriptions/listen` (*Basic › Patterns › Subscriptions*: the
//! `notifications/subscriptions/acknowledged` first, with the filter the
//! server honours, then the list changes and resource updates asked for,
//! each tagged `io.modelcontextprotocol/subscriptionId`; the request stays
//! open until the client cancels it or [`Engine::end_subscriptions`]);
//! cancellation by `notifications/cancelled` (stdio) or by closing the
//! request's channel ([`Engine::close_channel`]; *Basic › Patterns ›
//! Cancellation*); methods the revision removed (`initialize`, `ping`,
//! `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`) and
//! unknown ones answer -32601, HTTP 404 (*Transports › Streamable HTTP ›
//! Protocol Version Header*). Every [`Reply`] carries the HTTP status its
//! error calls for. The header checks of Streamable HTTP (`Mcp-Method`,
//! `Mcp-Name`, the version header against the body, -32020) are in
//! [`http::check_message`].
//!
//! Legacy requests: `initialize` (version negotiation, the capabilities
//! below), `ping`, `logging/setLevel`, `resources/subscribe` and
//! `resources/unsubscribe`, `notifications/cancelled`, and the list changes
//! sent to the session.
//!
//! ## The server surface
//!
//! Both eras: `tools/list` (opaque cursors, a page size) and `tools/call`,
//! with arguments validated (and coerced) against each tool's schema
//! (failures come back as tool results with `isError: true`); and, once
//! the host registers a [`Surface`] with [`Engine::set_surface`],
//! `resources/list`, `resources/templates/list`, `resources/read` (a listed
//! URI, or one matching a template; unknown URIs get -32002 in 2025,
//! -32602 in 2026-07-28), `prompts/list`, `prompts/get` (required
//! arguments checked) and `completion/complete` (for a known prompt or
//! template). Capabilities advertised: `tools.listChanged`, `logging`, and
//! with a surface `resources` (`subscribe`, `listChanged`), `prompts`
//! (`listChanged`) and `completions`.
//!
//! Reads, prompt renders and completions are [`Invocation`]s like tool
//! calls (their [`InvocationKind`] says which), answered with
//! [`Engine::complete`] or [`Engine::fail`]. While one runs, the host may:
//!
//! * report progress with [`Engine::progress`]: `notifications/progress`
//!   with the client's `progressToken`, on the request's stream
//!   (*Basic › Patterns › Progress*);
//! * log with [`Engine::log`]: `notifications/message` at or above the
//!   level the client asked for (`logging/setLevel` in 2025; the request's
//!   `io.modelcontextprotocol/logLevel` in 2026-07-28, and nothing without
//!   it; *Server › Utilities › Logging*);
//! * ask the client (sampling, elicitation, roots): in 2025 with
//!   [`Engine::ask`], which sends a request ([`Output::Request`]) and hands
//!   back the client's response ([`Output::Answer`]); in 2026-07-28 with
//!   [`Engine::input_required`], an `InputRequiredResult` the client
//!   answers by retrying with `inputResponses` (*Basic › Patterns › Multi
//!   Round-Trip Requests*); a retry whose `requestState` the engine did
//!   not hand out (one of the last [`ISSUED_STATES`]) gets -32602. Either way a capability the client did not
//!   declare is refused (-32021 `MissingRequiredClientCapability` in
//!   2026-07-28).
//!
//! The host tells clients about changes with [`Engine::set_catalog`],
//! [`Engine::set_surface`] and [`Engine::resource_updated`].
//!
//! ## Several sources
//!
//! [`Engine::set_sources`] serves several upstreams as one server: see
//! [`Source`] for the naming rule; each invocation names its source and the
//! source's own name for what is asked.
//!
//! ## Time
//!
//! The engine reads no clock: the host tells it the time with
//! [`Engine::handle_timeout`] and arms one timer at
//! [`Engine::poll_timeout`]. An invocation still running
//! [`EngineConfig::invocation_timeout_ms`] after its clock started is
//! answered by the engine, with [`Output::TimedOut`] for the host (the
//! loop is in [`Engine::handle_timeout`]).
//!
//! ## Channels
//!
//! Request ids are unique per client connection only. [`Engine::handle_on`]
//! takes a channel number chosen by the host (one per stdio process or
//! 2025 session; one per POST for 2026-07-28 on HTTP, where every request
//! stands alone) and every output says the channel and the request it
//! belongs to, so the host routes by them, never by the order of outputs.
//!
//! ```
//! use mcp_switchboard::Catalog;
//! use mcp_switchboard::engine::{Engine, EngineConfig, Output, Surface};
//! use serde_json::json;
//!
//! let catalog = Catalog::parse(br#"[{"name": "get_state", "inputSchema": {"type": "object"}}]"#)?;
//! let mut engine = Engine::new(catalog, EngineConfig::default());
//! engine.set_surface(Surface::new()
//!     .with_prompts(vec![json!({"name": "assist", "arguments": [{"name": "area", "required": true}]})])?);
//!
//! // a 2026-07-28 request: no initialize, its envelope in _meta
//! let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!                   "io.modelcontextprotocol/clientCapabilities": {}});
//! let request = json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/get",
//!     "params": {"name": "assist", "arguments": {"area": "kitchen"}, "_meta": meta}});
//! assert!(engine.handle_on(7, &request.to_string()));
//! let Some(Output::Invoke(inv)) = engine.poll_output() else { panic!() };
//! assert_eq!((inv.tool.as_str(), inv.channel), ("assist", 7));
//! engine.complete(inv.id, &json!({"messages": [{"role": "user",
//!     "content": {"type": "text", "text": "What is on in the kitchen?"}}]}))?;
//! let Some(Output::Reply(reply)) = engine.poll_output() else { panic!() };
//! assert_eq!((reply.channel, reply.to.clone(), reply.status), (7, json!(1), 200));
//! let reply: serde_json::Value = serde_json::from_str(&reply.message)?;
//! assert_eq!(reply["result"]["resultType"], "complete");
//!
//! // a method the revision removed: -32601, HTTP 404
//! engine.handle_on(8, &json!({"jsonrpc": "2.0", "id": 2, "method": "ping",
//!     "params": {"_meta": meta}}).to_string());
//! let Some(Output::Reply(reply)) = engine.poll_output() else { panic!() };
//! assert_eq!(reply.status, 404);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use serde_json::{json, Map, Value};

use crate::catalog::{Catalog, Tool};
use crate::error::{Error, ErrorKind, Misuse};

mod clock;
pub(crate) mod disclosure;
pub(crate) mod era;
pub mod http;
mod serve;
pub(crate) mod sources;
mod surface;
pub(crate) mod wire;

pub use clock::TimedOut;
pub use disclosure::{budget, Budget, Disclosure, Mode};
pub use era::{Era, LogLevel, LEGACY_VERSIONS, MODERN_VERSIONS};
use serve::ListKind;
pub use sources::{check_source_name, Source, SourceNaming, SOURCE_NAME_MAX};

pub use surface::Surface;
pub use wire::WireCode;

/// MCP revisions spoken, newest first: [`MODERN_VERSIONS`] (stateless,
/// per-request `_meta`) then [`LEGACY_VERSIONS`] (after `initialize`).
pub const PROTOCOL_VERSIONS: &[&str] = &["2026-07-28", "2025-11-25", "2025-06-18"];

/// Which tools exist for clients at all. Nothing outside the policy can be
/// listed or called, directly or through `use_tool`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Exposure {
    /// Only these tools (by MCP name), when set.
    pub allow: Option<Vec<String>>,
    /// Never these tools.
    pub deny: Vec<String>,
    /// Only tools annotated `readOnlyHint: true`.
    pub read_only: bool,
    /// Leave out tools annotated `destructiveHint: true`.
    pub no_destructive: bool,
}

impl Exposure {
    /// Whether a tool is exposed.
    pub fn admits(&self, tool: &Tool) -> bool {
        if let Some(allow) = &self.allow {
            if !allow.iter().any(|a| a == tool.name()) {
                return false;
            }
        }
        if self.deny.iter().any(|d| d == tool.name()) {
            return false;
        }
        if self.read_only && tool.hint("readOnlyHint") != Some(true) {
            return false;
        }
        if self.no_destructive
            && tool.hint("readOnlyHint") != Some(true)
            && tool.hint("destructiveHint") != Some(false)
        {
            // MCP: destructiveHint defaults to true for tools that are not read-only
            return false;
        }
        true
    }

    /// Whether a prompt (by name) or resource (by URI) is exposed: the
    /// `allow` and `deny` lists apply to them as to tool names (prompts and
    /// resources only read, so the annotation rules do not).
    pub fn admits_name(&self, name: &str) -> bool {
        self.allow
            .as_ref()
            .is_none_or(|allow| allow.iter().any(|a| a == name))
            && !self.deny.iter().any(|d| d == name)
    }
}

/// Engine settings.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EngineConfig {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.version`.
    pub version: String,
    /// `instructions` in the initialize result, when set.
    pub instructions: Option<String>,
    /// Tools per `tools/list` page.
    pub page_size: usize,
    /// Progressive disclosure.
    pub disclosure: Disclosure,
    /// Which tools exist for clients.
    pub exposure: Exposure,
    /// `ttlMs` of 2026-07-28 cacheable results (`server/discover`, the
    /// lists, `resources/read` unless the host's result sets its own):
    /// how long a client may keep them, in milliseconds (default 0: always
    /// ask again; change notifications still come on `subscriptions/listen`).
    pub ttl_ms: u64,
    /// How long an invocation may run, in milliseconds (default 30 000):
    /// past it the engine answers its request itself and gives
    /// [`Output::TimedOut`] (see [`Engine::handle_timeout`]).
    pub invocation_timeout_ms: u64,
    /// What a timed-out invocation waited for, named in its message (such
    /// as `upstream http://hub.local/mcp`).
    pub waiting_for: Option<String>,
}

impl EngineConfig {
    /// With this `ttlMs` on 2026-07-28 cacheable results.
    pub fn with_ttl_ms(mut self, ms: u64) -> EngineConfig {
        self.ttl_ms = ms;
        self
    }
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            name: "mcp-switchboard".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            instructions: None,
            page_size: 100,
            disclosure: Disclosure::default(),
            exposure: Exposure::default(),
            ttl_ms: 0,
            invocation_timeout_ms: clock::DEFAULT_INVOCATION_TIMEOUT_MS,
            waiting_for: None,
        }
    }
}

/// What an invocation asks the host for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvocationKind {
    /// Run a tool (`tools/call`); answer with a `CallToolResult`.
    Tool,
    /// Read a resource (`resources/read`); answer with a
    /// `ReadResourceResult` (`contents`).
    Resource,
    /// Render a prompt (`prompts/get`); answer with a `GetPromptResult`
    /// (`messages`).
    Prompt,
    /// Suggest values (`completion/complete`); answer with a
    /// `CompleteResult` (`completion.values`, at most 100).
    Completion,
}

/// Work the host must do: run a tool, read a resource, render a prompt or
/// complete an argument.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Invocation {
    /// Pass it back to [`Engine::complete`] or [`Engine::fail`].
    pub id: u64,
    /// What is asked.
    pub kind: InvocationKind,
    /// The tool or prompt name, the resource URI, or (for a completion)
    /// the prompt name or template URI the completion is for. With several
    /// sources, the name the source itself uses.
    pub tool: String,
    /// Tool arguments (validated and coerced), prompt arguments, for a
    /// resource `{"uri", "template", "variables"}` (the template and its
    /// variables when the URI matched one), for a completion the request's
    /// `{"ref", "argument", "context"}`.
    pub arguments: Value,
    /// The source (upstream) that serves it, when the engine has several
    /// (see [`Engine::set_sources`]).
    pub source: Option<String>,
    /// The era of the request behind it.
    pub era: Era,
    /// The channel the request came on (see [`Engine::handle_on`]).
    pub channel: u64,
    /// The JSON-RPC id of the request behind it.
    pub request: Value,
    /// 2026-07-28 multi round-trip requests: the client's `inputResponses`
    /// on a retry (answers to an earlier [`Engine::input_required`]).
    pub input_responses: Option<Value>,
    /// 2026-07-28 multi round-trip requests: the `requestState` the retry
    /// echoes back.
    pub request_state: Option<String>,
}

/// A reply to one request.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Reply {
    /// The channel the request came on.
    pub channel: u64,
    /// The id of the request answered (`null` for a message too broken to
    /// have one).
    pub to: Value,
    /// The JSON-RPC response, as text.
    pub message: String,
    /// The HTTP status to answer with on Streamable HTTP: 200, or for the
    /// 2026-07-28 era 400 (malformed envelope, header mismatch, missing
    /// capability, unsupported version) and 404 (unknown method); 400 for a
    /// message that is not JSON-RPC.
    pub status: u16,
}

/// A notification to send.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Notice {
    /// The channel of the request it belongs to (0 when `to` is `None`).
    pub channel: u64,
    /// The request whose response stream carries it (progress, log
    /// messages of a request, a `subscriptions/listen` stream's
    /// notifications); `None` for a session-wide notification (2025
    /// revisions: the session's standalone stream, or stdio).
    pub to: Option<Value>,
    /// The JSON-RPC notification, as text.
    pub message: String,
}

/// A request from the server to the client (2025 revisions): sampling,
/// elicitation or roots, asked for by an invocation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ClientRequest {
    /// The ask's id (also the JSON-RPC id of the request sent).
    pub id: u64,
    /// The invocation that asked.
    pub invocation: u64,
    /// The channel of the client request behind the invocation.
    pub channel: u64,
    /// The id of the client request behind the invocation: on Streamable
    /// HTTP the request goes on that request's response stream.
    pub to: Value,
    /// `sampling/createMessage`, `elicitation/create` or `roots/list`.
    pub method: String,
    /// The JSON-RPC request, as text.
    pub message: String,
}

/// The client's answer to a [`ClientRequest`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Answer {
    /// The ask's id.
    pub ask: u64,
    /// The invocation that asked.
    pub invocation: u64,
    /// The result, or the JSON-RPC error object.
    pub outcome: Result<Value, Value>,
}

/// What the engine wants done.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Output {
    /// A JSON-RPC response to send.
    Reply(Reply),
    /// A JSON-RPC notification to send.
    Notification(Notice),
    /// Work for the host.
    Invoke(Invocation),
    /// The client cancelled the request behind this invocation (or closed
    /// its channel); stop it if you can. Its outcome, if it still arrives,
    /// is refused.
    Cancel(u64),
    /// A request to send to the client (2025 revisions).
    Request(ClientRequest),
    /// An invocation ran past [`EngineConfig::invocation_timeout_ms`]: the
    /// engine has answered its request (a tool result with `isError`, an
    /// internal error for the other kinds); stop it if you can. Its
    /// outcome, if it still arrives, is refused.
    TimedOut(TimedOut),
    /// The client answered a [`ClientRequest`].
    Answer(Answer),
}

impl Output {
    /// The text to send, for a reply, a notification or a request to the
    /// client.
    pub fn message(&self) -> Option<&str> {
        match self {
            Output::Reply(r) => Some(&r.message),
            Output::Notification(n) => Some(&n.message),
            Output::Request(r) => Some(&r.message),
            _ => None,
        }
    }
}

/// An invocation waiting for the host.
#[cfg_attr(any(test, feature = "fuzzing"), derive(Clone))]
struct Pending {
    channel: u64,
    request_id: Value,
    era: Era,
    kind: InvocationKind,
    progress_token: Option<Value>,
    last_progress: Option<f64>,
    log_level: Option<LogLevel>,
    capabilities: Value,
    /// What is asked (the name the source uses), for a timeout's message.
    tool: String,
    /// When it times out, in the host's milliseconds; `None` until the
    /// engine is next told the time ([`Engine::handle_timeout`]).
    deadline: Option<u64>,
}

/// An open `subscriptions/listen` stream.
#[cfg_attr(any(test, feature = "fuzzing"), derive(Clone))]
struct Subscription {
    channel: u64,
    id: Value,
    tools: bool,
    prompts: bool,
    resources: bool,
    uris: Vec<String>,
}

/// A request sent to the client, waiting for its response.
#[cfg_attr(any(test, feature = "fuzzing"), derive(Clone))]
struct Ask {
    invocation: u64,
}

/// Who sent the request being handled, and in which era.
#[derive(Clone)]
struct Ctx {
    channel: u64,
    id: Value,
    era: Era,
    envelope: Option<era::Envelope>,
    params: Value,
}

/// The MCP server state machine: [`Engine::handle`] takes each incoming
/// message, [`Engine::poll_output`] gives what to send or run, and
/// [`Engine::complete`] or [`Engine::fail`] report each invocation.
// cloned by the fuzz target, which builds one fresh engine per
// configuration and runs every input on a copy
#[cfg_attr(any(test, feature = "fuzzing"), derive(Clone))]
pub struct Engine {
    config: EngineConfig,
    // what clients are served: immutable once built, shared with the
    // engines made by [`Engine::fork`] and replaced (never changed) when
    // the catalog, the mode, the exposure or the sources change
    catalog: Arc<Catalog>,
    surface: Arc<Surface>,
    sources: Option<Arc<sources::Router>>,
    view: Arc<disclosure::View>,
    generation: u64,
    /// The `Mcp-Param-*` headers of the HTTP request being handled
    /// ([`Engine::handle_http`]); `None` outside HTTP.
    param_headers: Option<Vec<(String, String)>>,
    protocol: Option<String>,
    initialized: bool,
    client_capabilities: Value,
    log_level: Option<LogLevel>,
    resource_subscriptions: HashSet<String>,
    subscriptions: Vec<Subscription>,
    next_invocation: u64,
    pending: HashMap<u64, Pending>,
    next_ask: u64,
    asks: HashMap<u64, Ask>,
    /// The `requestState`s handed out by [`Engine::input_required`], newest
    /// last (at most [`ISSUED_STATES`]).
    issued_states: VecDeque<String>,
    /// The catalog's input schemas, compiled on their first call and
    /// shared like the catalog.
    schemas: Arc<Mutex<crate::validate::SchemaCache>>,
    outputs: VecDeque<Output>,
}

/// How many request states an engine remembers: a retry must carry one of
/// them, anything else is refused as tampered with (or too old).
pub const ISSUED_STATES: usize = 1024;

impl Engine {
    /// An engine serving `catalog`.
    pub fn new(catalog: Catalog, config: EngineConfig) -> Engine {
        let view = disclosure::View::build(&catalog, &config);
        Engine::serving(
            config,
            Arc::new(catalog),
            Arc::new(Surface::new()),
            None,
            Arc::new(view),
            Arc::default(),
        )
    }

    /// An engine with no client yet serving what it is given.
    fn serving(
        config: EngineConfig,
        catalog: Arc<Catalog>,
        surface: Arc<Surface>,
        sources: Option<Arc<sources::Router>>,
        view: Arc<disclosure::View>,
        schemas: Arc<Mutex<crate::validate::SchemaCache>>,
    ) -> Engine {
        Engine {
            config,
            catalog,
            surface,
            sources,
            view,
            generation: 0,
            param_headers: None,
            protocol: None,
            initialized: false,
            client_capabilities: Value::Object(Map::new()),
            log_level: None,
            resource_subscriptions: HashSet::new(),
            subscriptions: Vec::new(),
            next_invocation: 1,
            pending: HashMap::new(),
            next_ask: 1,
            asks: HashMap::new(),
            issued_states: VecDeque::new(),
            schemas,
            outputs: VecDeque::new(),
        }
    }

    /// An engine for another client (another session, another connection)
    /// serving what this one serves: the catalog, its search index and
    /// disclosure, the resources and prompts, the sources and the schemas
    /// compiled so far are shared, not built again, so a new session costs
    /// its own state alone, whatever the catalog's size. The new engine
    /// has no client yet (no session, invocation or subscription).
    ///
    /// ```
    /// use mcp_switchboard::Catalog;
    /// use mcp_switchboard::engine::{Engine, EngineConfig};
    ///
    /// let catalog = Catalog::parse(br#"[{"name": "get_state", "inputSchema": {"type": "object"}}]"#)?;
    /// let shared = Engine::new(catalog, EngineConfig::default());
    /// let mut session = shared.fork();
    /// assert_eq!(session.tool_count(), 1);
    /// assert!(session.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#));
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    pub fn fork(&self) -> Engine {
        Engine::serving(
            self.config.clone(),
            Arc::clone(&self.catalog),
            Arc::clone(&self.surface),
            self.sources.clone(),
            Arc::clone(&self.view),
            Arc::clone(&self.schemas),
        )
    }

    /// Serves what `other` serves from now on (its catalog, configuration,
    /// resources, prompts and sources, shared as [`Engine::fork`] shares
    /// them): after a change made once to one engine, every other engine
    /// follows it without building anything. Clients are told what
    /// changed, as [`Engine::set_catalog`] and [`Engine::set_surface`] tell
    /// them; calls already running go on.
    pub fn follow(&mut self, other: &Engine) {
        self.config = other.config.clone();
        self.catalog = Arc::clone(&other.catalog);
        self.schemas = Arc::clone(&other.schemas);
        self.sources = other.sources.clone();
        if !Arc::ptr_eq(&self.view, &other.view) {
            self.replace_view(Arc::clone(&other.view));
        }
        if !Arc::ptr_eq(&self.surface, &other.surface) {
            let old = std::mem::replace(&mut self.surface, Arc::clone(&other.surface));
            self.surface_changed(&old);
        }
    }

    /// The negotiated protocol version, after `initialize` (2025 revisions;
    /// 2026-07-28 requests carry their version each).
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol.as_deref()
    }

    /// Invocations waiting for their outcome.
    pub fn outstanding(&self) -> usize {
        self.pending.len()
    }

    /// Open `subscriptions/listen` streams.
    pub fn subscriptions(&self) -> usize {
        self.subscriptions.len()
    }

    /// The next output, if any.
    #[must_use]
    pub fn poll_output(&mut self) -> Option<Output> {
        self.outputs.pop_front()
    }

    /// Replaces the catalog (e.g. the upstream server's tools changed);
    /// clients are told with `notifications/tools/list_changed`.
    pub fn set_catalog(&mut self, catalog: Catalog) {
        self.sources = None;
        self.catalog = Arc::new(catalog);
        self.forget_schemas();
        self.rebuild();
    }

    /// The catalog changed: its compiled schemas are forgotten (a cache no
    /// other engine shares is emptied; a shared one is left to them).
    fn forget_schemas(&mut self) {
        match Arc::get_mut(&mut self.schemas).map(Mutex::get_mut) {
            Some(Ok(cache)) => cache.clear(),
            _ => self.schemas = Arc::default(),
        }
    }

    /// Changes the disclosure mode; clients are told when the list changes.
    pub fn set_mode(&mut self, mode: Mode) {
        self.config.disclosure.mode = mode;
        let view = self.view.with_mode(&self.catalog, &self.config);
        self.replace_view(Arc::new(view));
    }

    /// Changes which tools exist for clients; clients are told when the
    /// list changes. Calls already running go on.
    pub fn set_exposure(&mut self, exposure: Exposure) {
        self.config.exposure = exposure;
        self.rebuild();
    }

    /// The disclosure mode, as configured.
    pub fn mode(&self) -> Mode {
        self.config.disclosure.mode
    }

    /// How many catalog tools the exposure admits.
    pub fn tool_count(&self) -> usize {
        self.view.exposed_len()
    }

    /// How many tools `tools/list` shows (meta-tools included), over all
    /// pages.
    pub fn listed_count(&self) -> usize {
        self.view.listed().len()
    }

    fn rebuild(&mut self) {
        let view = disclosure::View::build(&self.catalog, &self.config);
        self.replace_view(Arc::new(view));
    }

    /// Serves `view` from now on; clients are told when the list changed.
    fn replace_view(&mut self, view: Arc<disclosure::View>) {
        let changed = view.listed_names() != self.view.listed_names()
            || view.fingerprint() != self.view.fingerprint();
        self.view = view;
        self.generation += 1;
        if changed {
            self.list_changed(ListKind::Tools);
        }
    }

    /// Replaces the resources, resource templates and prompts; clients are
    /// told with `notifications/resources/list_changed` and
    /// `notifications/prompts/list_changed` when those lists change.
    pub fn set_surface(&mut self, surface: Surface) {
        let old = std::mem::replace(&mut self.surface, Arc::new(surface));
        self.sources = None;
        self.surface_changed(&old);
    }

    fn surface_changed(&mut self, old: &Surface) {
        self.generation += 1;
        if old.resources() != self.surface.resources()
            || old.templates() != self.surface.templates()
        {
            self.list_changed(ListKind::Resources);
        }
        if old.prompts() != self.surface.prompts() {
            self.list_changed(ListKind::Prompts);
        }
    }

    /// The resources, templates and prompts served.
    pub fn surface(&self) -> &Surface {
        &self.surface
    }

    /// Takes one incoming message on channel 0 (stdio, or one session's
    /// messages): [`Engine::handle_on`].
    #[must_use = "false means no reply is owed: answer the transport at once (HTTP 202)"]
    pub fn handle(&mut self, message: &str) -> bool {
        self.handle_on(0, message)
    }

    /// Takes one incoming message (a JSON-RPC message as text) on a channel
    /// the host chose. Never fails: a bad message gets the right JSON-RPC
    /// error reply. Returns whether the message is owed a reply (a request,
    /// or an invalid message): a transport answers the others at once (HTTP
    /// 202). The reply itself comes out of [`Engine::poll_output`], now or
    /// after the invocation it waits for, or never when the client cancels
    /// the request.
    ///
    /// A channel is the host's name for where requests come from and
    /// replies go: request ids are unique within a channel only. On
    /// Streamable HTTP at 2026-07-28, where every POST stands alone, give
    /// each POST its own channel and call [`Engine::close_channel`] when
    /// its response stream closes (that is the request's cancellation).
    #[must_use = "false means no reply is owed: answer the transport at once (HTTP 202)"]
    pub fn handle_on(&mut self, channel: u64, message: &str) -> bool {
        self.param_headers = None;
        self.handle_message(channel, message)
    }

    /// [`Engine::handle_on`] for a 2026-07-28 message that came as an HTTP
    /// POST, with the request's headers (any: only the `Mcp-Param-*` ones
    /// are kept): a `tools/call` of a tool whose parameters carry
    /// `x-mcp-header` is refused with -32020 `HeaderMismatch` (HTTP 400)
    /// when the headers do not mirror its arguments
    /// ([`crate::http::check_param_headers`]). `Mcp-Method` and `Mcp-Name`
    /// are checked before, by [`crate::http::check_message`].
    #[must_use = "false means no reply is owed: answer the transport at once (HTTP 202)"]
    pub fn handle_http(
        &mut self,
        channel: u64,
        message: &str,
        headers: &[(String, String)],
    ) -> bool {
        let prefix = http::PARAM_HEADER_PREFIX;
        self.param_headers = Some(
            headers
                .iter()
                .filter(|(k, _)| {
                    k.get(..prefix.len())
                        .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
                })
                .cloned()
                .collect(),
        );
        let owed = self.handle_message(channel, message);
        self.param_headers = None;
        owed
    }

    fn handle_message(&mut self, channel: u64, message: &str) -> bool {
        self.handle_incoming(channel, wire::read(message))
    }

    /// [`Engine::handle_on`] for a message the HTTP rules have read already
    /// ([`http::check_message_read`]), so that a body is read once.
    #[cfg_attr(any(not(feature = "full"), feature = "web-module"), allow(dead_code))]
    pub(crate) fn handle_read(&mut self, channel: u64, incoming: wire::Incoming) -> bool {
        self.param_headers = None;
        self.handle_incoming(channel, incoming)
    }

    fn handle_incoming(&mut self, channel: u64, incoming: wire::Incoming) -> bool {
        match incoming {
            wire::Incoming::Invalid { id, code, message } => {
                self.push_reply(channel, &id, wire::error(&id, code, &message, None), 400);
                true
            }
            wire::Incoming::Response { id, outcome } => {
                self.response(&id, outcome);
                false
            }
            wire::Incoming::Notification { method, params } => {
                self.notification(channel, &method, &params);
                false
            }
            wire::Incoming::Request { id, method, params } => {
                self.request(channel, id, &method, params);
                true
            }
        }
    }

    /// The channel closed (a 2026-07-28 request's HTTP response stream, a
    /// connection): its invocations are cancelled ([`Output::Cancel`]), its
    /// subscriptions end, and nothing more is sent for its requests.
    pub fn close_channel(&mut self, channel: u64) {
        let mut gone: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| p.channel == channel)
            .map(|(k, _)| *k)
            .collect();
        // cancelled in the order they began
        gone.sort_unstable();
        for inv in gone {
            self.drop_invocation(inv);
            self.outputs.push_back(Output::Cancel(inv));
        }
        self.subscriptions.retain(|s| s.channel != channel);
    }

    /// Ends every open `subscriptions/listen` stream gracefully (e.g. on
    /// shutdown): each gets its successful response, after which the host
    /// closes the stream.
    pub fn end_subscriptions(&mut self) {
        self.end_where(None);
    }

    /// Ends the `subscriptions/listen` streams of `channel` gracefully (the
    /// stream lived as long as the host lets one live): each gets its
    /// successful response, after which the host closes the stream.
    pub fn end_subscriptions_on(&mut self, channel: u64) {
        self.end_where(Some(channel));
    }

    /// Ends the subscriptions of `channel` (of every channel with `None`).
    fn end_where(&mut self, channel: Option<u64>) {
        let mut i = 0;
        while let Some(s) = self.subscriptions.get(i) {
            if channel.is_some_and(|c| c != s.channel) {
                i += 1;
                continue;
            }
            let s = self.subscriptions.remove(i);
            let result = json!({
                "resultType": "complete",
                "_meta": {era::META_SUBSCRIPTION: s.id},
            });
            self.push_reply(s.channel, &s.id, wire::result(&s.id, result), 200);
        }
    }

    fn push_reply(&mut self, channel: u64, to: &Value, message: String, status: u16) {
        self.outputs.push_back(Output::Reply(Reply {
            channel,
            to: to.clone(),
            message,
            status,
        }));
    }

    /// A success reply, with the 2026-07-28 result fields when the request
    /// is modern.
    fn reply(&mut self, ctx: &Ctx, mut result: Value) {
        if ctx.era == Era::Modern {
            if let Value::Object(m) = &mut result {
                m.entry("resultType")
                    .or_insert_with(|| Value::String("complete".into()));
                let meta = m
                    .entry("_meta")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(meta) = meta {
                    meta.entry(era::META_SERVER_INFO)
                        .or_insert_with(|| self.server_info());
                }
            }
        }
        let text = wire::result(&ctx.id, result);
        self.push_reply(ctx.channel, &ctx.id, text, 200);
    }

    /// A cacheable result (2026-07-28 *Caching*): `ttlMs` and `cacheScope`
    /// for modern requests.
    fn reply_cacheable(&mut self, ctx: &Ctx, mut result: Value, scope: &str) {
        if ctx.era == Era::Modern {
            if let Value::Object(m) = &mut result {
                m.entry("ttlMs")
                    .or_insert_with(|| Value::from(self.config.ttl_ms));
                m.entry("cacheScope")
                    .or_insert_with(|| Value::String(scope.into()));
            }
        }
        self.reply(ctx, result);
    }

    fn reply_error(&mut self, ctx: &Ctx, code: WireCode, message: &str, data: Option<Value>) {
        let status = match (ctx.era, code) {
            (Era::Legacy, _) => 200,
            (_, WireCode::MethodNotFound) => 404,
            (
                _,
                WireCode::HeaderMismatch
                | WireCode::MissingClientCapability
                | WireCode::UnsupportedProtocolVersion
                | WireCode::ParseError
                | WireCode::InvalidRequest,
            ) => 400,
            _ => 200,
        };
        let text = wire::error(&ctx.id, code, message, data);
        self.push_reply(ctx.channel, &ctx.id, text, status);
    }

    fn server_info(&self) -> Value {
        json!({"name": self.config.name, "version": self.config.version})
    }

    fn notification(&mut self, channel: u64, method: &str, params: &Value) {
        match method {
            "notifications/initialized" => self.initialized = true,
            "notifications/cancelled" => {
                let Some(rid) = params.get("requestId") else {
                    return;
                };
                let mut found: Vec<u64> = self
                    .pending
                    .iter()
                    .filter(|(_, p)| p.channel == channel && &p.request_id == rid)
                    .map(|(k, _)| *k)
                    .collect();
                found.sort_unstable();
                for inv in found {
                    self.drop_invocation(inv);
                    self.outputs.push_back(Output::Cancel(inv));
                }
                self.subscriptions
                    .retain(|s| !(s.channel == channel && &s.id == rid));
            }
            _ => {}
        }
    }

    /// Forgets an invocation and the asks it has outstanding.
    fn drop_invocation(&mut self, inv: u64) -> Option<Pending> {
        self.asks.retain(|_, a| a.invocation != inv);
        self.pending.remove(&inv)
    }

    fn request(&mut self, channel: u64, id: Value, method: &str, params: Value) {
        let mut ctx = Ctx {
            channel,
            id,
            era: Era::Legacy,
            envelope: None,
            params,
        };
        match era::classify(method, &ctx.params) {
            era::Classified::Refused(r) => {
                ctx.era = Era::Modern;
                let text = wire::error(&ctx.id, r.code, &r.message, r.data);
                self.push_reply(channel, &ctx.id, text, r.status);
            }
            era::Classified::Legacy => self.legacy_request(&ctx, method),
            era::Classified::Modern(env) => {
                ctx.era = Era::Modern;
                ctx.envelope = Some(env);
                self.modern_request(&ctx, method)
            }
        }
    }

    fn legacy_request(&mut self, ctx: &Ctx, method: &str) {
        match method {
            "initialize" => self.initialize(ctx),
            "ping" => self.reply(ctx, json!({})),
            "logging/setLevel" => self.set_level(ctx),
            "resources/subscribe" | "resources/unsubscribe" if self.surface.offers_resources() => {
                self.resource_subscription(ctx, method == "resources/subscribe")
            }
            _ => self.common_request(ctx, method),
        }
    }

    fn modern_request(&mut self, ctx: &Ctx, method: &str) {
        match method {
            "server/discover" => {
                let mut result = json!({
                    "supportedVersions": MODERN_VERSIONS,
                    "capabilities": self.capabilities(),
                });
                if let Some(i) = &self.config.instructions {
                    result["instructions"] = Value::String(i.clone());
                }
                self.reply_cacheable(ctx, result, "public");
            }
            "subscriptions/listen" => self.listen(ctx),
            m if era::REMOVED_IN_MODERN.contains(&m) => self.reply_error(
                ctx,
                WireCode::MethodNotFound,
                &format!("Method not found: {m} is not part of protocol revision 2026-07-28"),
                None,
            ),
            _ => self.common_request(ctx, method),
        }
    }

    /// Methods both eras share.
    fn common_request(&mut self, ctx: &Ctx, method: &str) {
        let resources = self.surface.offers_resources();
        let prompts = self.surface.offers_prompts();
        match method {
            "tools/list" => {
                let view = Arc::clone(&self.view);
                self.list(ctx, "tools", view.listed());
            }
            "tools/call" => self.call(ctx),
            "resources/list" if resources => {
                let surface = Arc::clone(&self.surface);
                self.list(ctx, "resources", surface.resources());
            }
            "resources/templates/list" if resources => {
                let surface = Arc::clone(&self.surface);
                self.list(ctx, "resourceTemplates", surface.templates());
            }
            "resources/read" if resources => self.read_resource(ctx),
            "prompts/list" if prompts => {
                let surface = Arc::clone(&self.surface);
                self.list(ctx, "prompts", surface.prompts());
            }
            "prompts/get" if prompts => self.get_prompt(ctx),
            "completion/complete" if resources || prompts => self.completion(ctx),
            _ => self.reply_error(
                ctx,
                WireCode::MethodNotFound,
                &format!("Method not found: {method}"),
                None,
            ),
        }
    }

    /// The server's capabilities, as `initialize` and `server/discover`
    /// advertise them.
    fn capabilities(&self) -> Value {
        let mut caps = json!({"tools": {"listChanged": true}, "logging": {}});
        if self.surface.offers_resources() {
            caps["resources"] = json!({"subscribe": true, "listChanged": true});
        }
        if self.surface.offers_prompts() {
            caps["prompts"] = json!({"listChanged": true});
        }
        if self.surface.offers_resources() || self.surface.offers_prompts() {
            caps["completions"] = json!({});
        }
        caps
    }

    fn initialize(&mut self, ctx: &Ctx) {
        let params = &ctx.params;
        let Some(asked) = params.get("protocolVersion").and_then(Value::as_str) else {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                "initialize needs params.protocolVersion",
                None,
            );
        };
        let version = if LEGACY_VERSIONS.contains(&asked) {
            asked
        } else {
            LEGACY_VERSIONS[0]
        };
        self.protocol = Some(version.to_string());
        self.client_capabilities = params
            .get("capabilities")
            .filter(|c| c.is_object())
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": self.capabilities(),
            "serverInfo": self.server_info(),
        });
        if let Some(i) = &self.config.instructions {
            result["instructions"] = Value::String(i.clone());
        }
        self.reply(ctx, result);
    }

    fn list(&mut self, ctx: &Ctx, key: &str, listed: &[Value]) {
        let start = match ctx.params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(Value::String(c)) => match decode_cursor(c, self.generation) {
                Some(n) if n <= listed.len() => n,
                _ => return self.reply_error(ctx, WireCode::InvalidParams, "Invalid cursor: it is unknown or the list has changed; list again from the start", None),
            },
            Some(_) => return self.reply_error(ctx, WireCode::InvalidParams, "Invalid cursor: it must be a string", None),
        };
        let size = self.config.page_size.max(1);
        let end = (start + size).min(listed.len());
        let page: Vec<Value> = listed.get(start..end).unwrap_or(&[]).to_vec();
        let mut result = Map::new();
        result.insert(key.into(), Value::Array(page));
        if end < listed.len() {
            result.insert(
                "nextCursor".into(),
                Value::String(encode_cursor(end, self.generation)),
            );
        }
        self.reply_cacheable(ctx, Value::Object(result), "public");
    }

    fn call(&mut self, ctx: &Ctx) {
        let Some(name) = ctx.params.get("name").and_then(Value::as_str) else {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                "tools/call needs params.name",
                None,
            );
        };
        let name = name.to_string();
        let args = match ctx.params.get("arguments") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(a) => a.clone(),
        };
        match self.view.route(&name) {
            disclosure::Route::Meta(meta) => match meta.answer(&self.view, &self.catalog, &args) {
                disclosure::Answer::Result(r) => self.reply(ctx, r),
                disclosure::Answer::Invoke(tool, arguments) => self.invoke(ctx, &tool, &arguments),
            },
            disclosure::Route::Tool => {
                if let (Era::Modern, Some(headers), Some(tool)) =
                    (ctx.era, &self.param_headers, self.catalog.get(&name))
                {
                    if let Err(e) = http::check_param_headers(tool.input_schema(), &args, headers) {
                        let message = format!("Header mismatch: {e}");
                        return self.reply_error(ctx, WireCode::HeaderMismatch, &message, None);
                    }
                }
                self.invoke(ctx, &name, &args)
            }
            disclosure::Route::Unknown => {
                let hint = self.view.suggest(&name);
                self.reply_error(
                    ctx,
                    WireCode::InvalidParams,
                    &format!("Unknown tool: {name}{hint}"),
                    None,
                )
            }
        }
    }

    /// Validates the arguments of an exposed tool, then asks the host to run it.
    fn invoke(&mut self, ctx: &Ctx, name: &str, args: &Value) {
        let Some(tool) = self
            .catalog
            .get(name)
            .filter(|t| self.config.exposure.admits(t))
        else {
            let hint = self.view.suggest(name);
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                &format!("Unknown tool: {name}{hint}"),
                None,
            );
        };
        // the cache is shared; a poisoned lock (never, single-threaded)
        // falls back to validating without it
        let v = match self.schemas.lock() {
            Ok(mut cache) => cache.validate(name, tool.input_schema(), args),
            Err(_) => crate::validate::validate_arguments(tool.input_schema(), args),
        };
        if !v.is_valid() {
            let text = format!("Invalid arguments for {name}: {}", v.message());
            return self.reply(
                ctx,
                json!({"content": [{"type": "text", "text": text}], "isError": true}),
            );
        }
        self.start(ctx, InvocationKind::Tool, name, v.arguments);
    }

    /// Records an invocation and asks the host for it.
    fn start(&mut self, ctx: &Ctx, kind: InvocationKind, name: &str, arguments: Value) {
        if ctx.era == Era::Modern {
            if let Some(state) = ctx.params.get("requestState") {
                // only states this engine handed out come back (*Multi
                // Round-Trip Requests*: servers verify the state's integrity)
                if !state
                    .as_str()
                    .is_some_and(|s| self.issued_states.iter().any(|i| i == s))
                {
                    self.reply_error(
                        ctx,
                        WireCode::InvalidParams,
                        "requestState was not issued by this server, or has expired",
                        None,
                    );
                    return;
                }
            }
        }
        let inv = self.next_invocation;
        self.next_invocation += 1;
        let meta = era::meta(&ctx.params);
        let progress_token = meta
            .and_then(|m| m.get("progressToken"))
            .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
            .cloned();
        let (log_level, capabilities) = match &ctx.envelope {
            Some(env) => (env.log_level, env.capabilities.clone()),
            None => (self.log_level, self.client_capabilities.clone()),
        };
        let (source, tool) = match &self.sources {
            Some(router) => match router.origin(kind, name) {
                Some((s, original)) => (Some(s.to_string()), original.to_string()),
                None => (None, name.to_string()),
            },
            None => (None, name.to_string()),
        };
        let modern = ctx.era == Era::Modern;
        let input_responses = modern
            .then(|| ctx.params.get("inputResponses").cloned())
            .flatten();
        let request_state = modern
            .then(|| ctx.params.get("requestState").and_then(Value::as_str))
            .flatten()
            .map(str::to_owned);
        self.pending.insert(
            inv,
            Pending {
                channel: ctx.channel,
                request_id: ctx.id.clone(),
                era: ctx.era,
                kind,
                progress_token,
                last_progress: None,
                log_level,
                capabilities,
                tool: tool.clone(),
                deadline: None,
            },
        );
        self.outputs.push_back(Output::Invoke(Invocation {
            id: inv,
            kind,
            tool,
            arguments,
            source,
            era: ctx.era,
            channel: ctx.channel,
            request: ctx.id.clone(),
            input_responses,
            request_state,
        }));
    }

    /// Reports the outcome of an invocation: an MCP `CallToolResult` (or
    /// the result its kind calls for, see [`InvocationKind`]). Returns an
    /// error for an unknown (or cancelled) invocation id, or a result of
    /// the wrong shape; the latter is still answered, as an internal error,
    /// so the client is never left waiting.
    pub fn complete(&mut self, invocation: u64, result: &Value) -> Result<(), Error> {
        self.complete_json(invocation, &result.to_string())
    }

    /// [`Engine::complete`] with the result as JSON text, which is checked
    /// and passed on as it is written (compacted if it has whitespace),
    /// never parsed into a tree. Text that is not JSON is answered and
    /// reported like any other bad result.
    pub fn complete_json(&mut self, invocation: u64, result: &str) -> Result<(), Error> {
        self.complete_text(invocation, result, false).map(|_| ())
    }

    /// Reports what a host's handler returned, as JSON text: for a tool,
    /// any value, made a `CallToolResult` the way
    /// [`as_tool_result_text`](crate::client::as_tool_result_text) makes it
    /// (a `CallToolResult` passes as it is, anything else becomes a success
    /// result holding it); for the other kinds, their result as
    /// [`Engine::complete_json`] takes it. The text is read once: checking
    /// it, shaping it and writing the reply are one pass in the common case.
    ///
    /// A value that cannot be made a result (not JSON, or nested too deeply
    /// to be wrapped) fails the invocation as the tool's error:
    /// `Ok(Some(message))` gives the message the client reads. A result of
    /// the wrong shape is answered and refused as by
    /// [`Engine::complete_json`].
    ///
    /// ```
    /// use mcp_switchboard::Catalog;
    /// use mcp_switchboard::engine::{Engine, EngineConfig, Output};
    /// let catalog = Catalog::parse(br#"{"tools":[{"name":"ping","inputSchema":{"type":"object"}}]}"#)?;
    /// let mut engine = Engine::new(catalog, EngineConfig::default());
    /// engine.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}"#);
    /// let Some(Output::Invoke(call)) = engine.poll_output() else { panic!() };
    /// assert_eq!(engine.complete_value_json(call.id, r#"{"pong":true}"#)?, None);
    /// let Some(Output::Reply(reply)) = engine.poll_output() else { panic!() };
    /// assert!(reply.message.contains(r#""structuredContent":{"success":true,"pong":true}"#));
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    pub fn complete_value_json(
        &mut self,
        invocation: u64,
        value: &str,
    ) -> Result<Option<String>, Error> {
        self.complete_text(invocation, value, true)
    }

    /// [`Engine::complete_json`], and with `values` [`Engine::complete_value_json`].
    fn complete_text(
        &mut self,
        invocation: u64,
        result: &str,
        values: bool,
    ) -> Result<Option<String>, Error> {
        let Some(p) = self.drop_invocation(invocation) else {
            return Err(unknown_invocation(invocation));
        };
        let values = values && p.kind == InvocationKind::Tool;
        let (field, opener, what) = match p.kind {
            InvocationKind::Tool => ("content", '[', "a CallToolResult needs a content array (and structuredContent, if any, must be an object)"),
            InvocationKind::Resource => ("contents", '[', "a ReadResourceResult needs a contents array"),
            InvocationKind::Prompt => ("messages", '[', "a GetPromptResult needs a messages array"),
            InvocationKind::Completion => ("completion", '{', "a CompleteResult needs a completion object"),
        };
        // the reply wraps the result in one more object
        let fits = |text: &str| match crate::rawjson::top(text) {
            crate::rawjson::Top::Object(f) => {
                f.get(field).is_some_and(|c| c.starts_with(opener))
                    && (p.kind != InvocationKind::Tool
                        || f.get("structuredContent")
                            .is_none_or(|s| s.starts_with('{')))
            }
            crate::rawjson::Top::Other(_) => false,
        };
        let wrong = || Error::new(ErrorKind::Shape, "", what);
        let checked = crate::rawjson::compact_nested(result, 1).and_then(|text| {
            if fits(&text) {
                Ok(text)
            } else {
                Err(wrong())
            }
        });
        // a handler's value that did not pass as it is: shaped as
        // `as_tool_result_text` shapes it, then checked as any result
        // (values that are not a CallToolResult, and results too deep or of
        // the wrong shape, come here)
        let checked = match checked {
            Err(_) if values => match crate::client::as_tool_result_text(result) {
                Ok(shaped) => match crate::rawjson::compact_nested(&shaped, 1) {
                    Ok(_) if fits(&shaped) => Ok(std::borrow::Cow::Owned(shaped)),
                    Ok(_) => Err(wrong()),
                    Err(e) => Err(e),
                },
                Err(e) => {
                    // no result form: the tool's error, as if its handler threw
                    let message = e.to_string();
                    self.push_failure(p, &message);
                    return Ok(Some(message));
                }
            },
            other => other,
        };
        let ctx = Ctx {
            channel: p.channel,
            id: p.request_id.clone(),
            era: p.era,
            envelope: None,
            params: Value::Null,
        };
        match checked {
            Ok(text) => {
                let text = if p.era == Era::Modern {
                    let cache = (p.kind == InvocationKind::Resource).then_some(self.config.ttl_ms);
                    std::borrow::Cow::Owned(modern_result_text(&text, &self.server_info(), cache))
                } else {
                    text
                };
                self.push_reply(
                    p.channel,
                    &p.request_id,
                    wire::result_text(&p.request_id, &text),
                    200,
                );
                Ok(None)
            }
            Err(e) => {
                self.reply_error(
                    &ctx,
                    WireCode::InternalError,
                    "the host returned a result of the wrong shape",
                    None,
                );
                Err(Error::new(
                    ErrorKind::Shape,
                    "",
                    format!("the result: {}", e.message()),
                ))
            }
        }
    }

    /// Reports that an invocation failed (the tool threw, the upstream
    /// timed out): for a tool the client gets a tool result with
    /// `isError: true`, for the other kinds a JSON-RPC internal error.
    pub fn fail(&mut self, invocation: u64, message: &str) -> Result<(), Error> {
        let Some(p) = self.drop_invocation(invocation) else {
            return Err(unknown_invocation(invocation));
        };
        self.push_failure(p, message);
        Ok(())
    }

    /// Answers a dropped invocation as failed with `message`.
    fn push_failure(&mut self, p: Pending, message: &str) {
        let ctx = Ctx {
            channel: p.channel,
            id: p.request_id,
            era: p.era,
            envelope: None,
            params: Value::Null,
        };
        match p.kind {
            InvocationKind::Tool => self.reply(&ctx, crate::results::tool_exception(message)),
            _ => self.reply_error(&ctx, WireCode::InternalError, message, None),
        }
    }
}

fn unknown_invocation(invocation: u64) -> Error {
    Error::misused(
        Misuse::NotOutstanding,
        "",
        format!("no outstanding invocation {invocation} (already answered or cancelled)"),
    )
}

/// Adds the 2026-07-28 result fields to a result that is compact JSON text
/// (an object): `resultType`, the server's identity in `_meta` (when the
/// result has no `_meta` of its own) and, for cacheable results, `ttlMs`
/// and `cacheScope: "private"`. Fields the result has are kept.
fn modern_result_text(text: &str, server_info: &Value, cache_ttl: Option<u64>) -> String {
    let crate::rawjson::Top::Object(f) = crate::rawjson::top(text) else {
        return text.to_string();
    };
    let mut added = String::new();
    if f.get("resultType").is_none() {
        added.push_str(r#""resultType":"complete","#);
    }
    if f.get("_meta").is_none() {
        added.push_str(&format!(
            r#""_meta":{{"{}":{}}},"#,
            era::META_SERVER_INFO,
            server_info
        ));
    }
    if let Some(ttl) = cache_ttl {
        if f.get("ttlMs").is_none() {
            added.push_str(&format!(r#""ttlMs":{ttl},"#));
        }
        if f.get("cacheScope").is_none() {
            added.push_str(r#""cacheScope":"private","#);
        }
    }
    let Some(rest) = text.strip_prefix('{') else {
        return text.to_string();
    };
    if rest.trim_start().starts_with('}') {
        added.pop();
    }
    format!("{{{added}{rest}")
}

/// Cursors are opaque to clients: the offset and the list generation, so a
/// cursor from before a change is refused rather than misread.
fn encode_cursor(offset: usize, generation: u64) -> String {
    format!("o{offset}g{generation}")
}

fn decode_cursor(c: &str, generation: u64) -> Option<usize> {
    let rest = c.strip_prefix('o')?;
    let (o, g) = rest.split_once('g')?;
    (g.parse::<u64>().ok()? == generation).then_some(())?;
    o.parse().ok()
}
