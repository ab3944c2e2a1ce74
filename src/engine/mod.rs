//! The MCP server engine, sans I/O: feed it one incoming message at a time
//! with [`Engine::handle`], then drain [`Output`]s with
//! [`Engine::poll_output`]: replies and notifications to send, and
//! invocations of real tools for the host to perform. The host reports each
//! invocation's outcome with [`Engine::complete`] or [`Engine::fail`], and
//! the engine answers the request that asked for it. Several invocations
//! may be outstanding at once.
//!
//! It speaks MCP 2025-06-18 and 2025-11-25: `initialize` (version
//! negotiation, `tools.listChanged`), `ping`, `tools/list` (opaque cursors,
//! a page size), `tools/call`, `notifications/cancelled`, and
//! `notifications/tools/list_changed` when the catalog or the disclosure
//! mode changes. Arguments are validated (and coerced) against each tool's
//! schema; failures come back as tool results with `isError: true`.

use std::collections::{BTreeMap, VecDeque};

use serde_json::{json, Map, Value};

use crate::catalog::{Catalog, Tool};
use crate::error::{Error, ErrorKind};
use crate::validate::validate_arguments;

mod disclosure;
pub mod http;
pub(crate) mod wire;

pub use disclosure::{budget, Budget, Disclosure, Mode};
pub use wire::WireCode;

/// MCP revisions spoken, newest first.
pub const PROTOCOL_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];

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
        }
    }
}

/// A tool the host must run.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    /// Pass it back to [`Engine::complete`] or [`Engine::fail`].
    pub id: u64,
    /// The MCP name of the tool.
    pub tool: String,
    /// Validated (and coerced) arguments.
    pub arguments: Value,
}

/// What the engine wants done.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Output {
    /// A JSON-RPC response to send.
    Reply(String),
    /// A JSON-RPC notification to send.
    Notification(String),
    /// A tool to run.
    Invoke(Invocation),
    /// The client cancelled the request behind this invocation; stop it if
    /// you can. Its outcome, if it still arrives, is ignored.
    Cancel(u64),
}

struct Pending {
    request_id: Value,
}

/// The MCP server state machine: [`Engine::handle`] takes each incoming
/// message, [`Engine::poll_output`] gives what to send or run, and
/// [`Engine::complete`] or [`Engine::fail`] report each invocation.
pub struct Engine {
    config: EngineConfig,
    catalog: Catalog,
    view: disclosure::View,
    generation: u64,
    protocol: Option<String>,
    initialized: bool,
    next_invocation: u64,
    pending: BTreeMap<u64, Pending>,
    outputs: VecDeque<Output>,
}

impl Engine {
    /// An engine serving `catalog`.
    pub fn new(catalog: Catalog, config: EngineConfig) -> Engine {
        let view = disclosure::View::build(&catalog, &config);
        Engine {
            config,
            catalog,
            view,
            generation: 0,
            protocol: None,
            initialized: false,
            next_invocation: 1,
            pending: BTreeMap::new(),
            outputs: VecDeque::new(),
        }
    }

    /// The negotiated protocol version, after `initialize`.
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol.as_deref()
    }

    /// Invocations waiting for their outcome.
    pub fn outstanding(&self) -> usize {
        self.pending.len()
    }

    /// The next output, if any.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.outputs.pop_front()
    }

    /// Replaces the catalog (e.g. the upstream server's tools changed);
    /// clients are told with `notifications/tools/list_changed`.
    pub fn set_catalog(&mut self, catalog: Catalog) {
        self.catalog = catalog;
        self.rebuild();
    }

    /// Changes the disclosure mode; clients are told when the list changes.
    pub fn set_mode(&mut self, mode: Mode) {
        self.config.disclosure.mode = mode;
        self.rebuild();
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
        let changed = view.listed_names() != self.view.listed_names()
            || view.fingerprint() != self.view.fingerprint();
        self.view = view;
        self.generation += 1;
        if changed && self.initialized {
            self.outputs
                .push_back(Output::Notification(wire::notification(
                    "notifications/tools/list_changed",
                    None,
                )));
        }
    }

    /// Takes one incoming message (a JSON-RPC message as text). Never fails:
    /// a bad message gets the right JSON-RPC error reply. Returns whether
    /// the message is owed a reply (a request, or an invalid message): a
    /// transport answers the others at once (HTTP 202). The reply itself
    /// comes out of [`Engine::poll_output`], now or after the invocation
    /// it waits for, or never when the client cancels the request.
    pub fn handle(&mut self, message: &str) -> bool {
        match wire::read(message) {
            wire::Incoming::Invalid { id, code, message } => {
                self.reply_error(&id, code, &message, None);
                true
            }
            wire::Incoming::Response => false,
            wire::Incoming::Notification { method, params } => {
                self.notification(&method, &params);
                false
            }
            wire::Incoming::Request { id, method, params } => {
                self.request(id, &method, &params);
                true
            }
        }
    }

    fn reply(&mut self, id: &Value, result: Value) {
        self.outputs
            .push_back(Output::Reply(wire::result(id, result)));
    }

    fn reply_error(&mut self, id: &Value, code: WireCode, message: &str, data: Option<Value>) {
        self.outputs
            .push_back(Output::Reply(wire::error(id, code, message, data)));
    }

    fn notification(&mut self, method: &str, params: &Value) {
        match method {
            "notifications/initialized" => self.initialized = true,
            "notifications/cancelled" => {
                let Some(rid) = params.get("requestId") else {
                    return;
                };
                let found: Vec<u64> = self
                    .pending
                    .iter()
                    .filter(|(_, p)| &p.request_id == rid)
                    .map(|(k, _)| *k)
                    .collect();
                for inv in found {
                    self.pending.remove(&inv);
                    self.outputs.push_back(Output::Cancel(inv));
                }
            }
            _ => {}
        }
    }

    fn request(&mut self, id: Value, method: &str, params: &Value) {
        match method {
            "initialize" => self.initialize(&id, params),
            "ping" => self.reply(&id, json!({})),
            "tools/list" => self.list(&id, params),
            "tools/call" => self.call(id, params),
            _ => self.reply_error(
                &id,
                WireCode::MethodNotFound,
                &format!("Method not found: {method}"),
                None,
            ),
        }
    }

    fn initialize(&mut self, id: &Value, params: &Value) {
        let Some(asked) = params.get("protocolVersion").and_then(Value::as_str) else {
            return self.reply_error(
                id,
                WireCode::InvalidParams,
                "initialize needs params.protocolVersion",
                None,
            );
        };
        let version = if PROTOCOL_VERSIONS.contains(&asked) {
            asked
        } else {
            PROTOCOL_VERSIONS[0]
        };
        self.protocol = Some(version.to_string());
        let mut info = Map::new();
        info.insert("name".into(), Value::String(self.config.name.clone()));
        info.insert("version".into(), Value::String(self.config.version.clone()));
        let mut result = json!({
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": true}},
            "serverInfo": Value::Object(info),
        });
        if let Some(i) = &self.config.instructions {
            result["instructions"] = Value::String(i.clone());
        }
        self.reply(id, result);
    }

    fn list(&mut self, id: &Value, params: &Value) {
        let listed = self.view.listed();
        let start = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(Value::String(c)) => match decode_cursor(c, self.generation) {
                Some(n) if n <= listed.len() => n,
                _ => return self.reply_error(id, WireCode::InvalidParams, "Invalid cursor: it is unknown or the list has changed; list again from the start", None),
            },
            Some(_) => return self.reply_error(id, WireCode::InvalidParams, "Invalid cursor: it must be a string", None),
        };
        let size = self.config.page_size.max(1);
        let end = (start + size).min(listed.len());
        let tools: Vec<Value> = listed.get(start..end).unwrap_or(&[]).to_vec();
        let mut result = json!({"tools": tools});
        if end < listed.len() {
            result["nextCursor"] = Value::String(encode_cursor(end, self.generation));
        }
        self.reply(id, result);
    }

    fn call(&mut self, id: Value, params: &Value) {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return self.reply_error(
                &id,
                WireCode::InvalidParams,
                "tools/call needs params.name",
                None,
            );
        };
        let args = match params.get("arguments") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(a) => a.clone(),
        };
        match self.view.route(name) {
            disclosure::Route::Meta(meta) => match meta.answer(&self.view, &self.catalog, &args) {
                disclosure::Answer::Result(r) => self.reply(&id, r),
                disclosure::Answer::Invoke(tool, arguments) => self.invoke(id, &tool, &arguments),
            },
            disclosure::Route::Tool => self.invoke(id, name, &args),
            disclosure::Route::Unknown => {
                let hint = self.view.suggest(name);
                self.reply_error(
                    &id,
                    WireCode::InvalidParams,
                    &format!("Unknown tool: {name}{hint}"),
                    None,
                )
            }
        }
    }

    /// Validates the arguments of an exposed tool, then asks the host to run it.
    fn invoke(&mut self, id: Value, name: &str, args: &Value) {
        let Some(tool) = self
            .catalog
            .get(name)
            .filter(|t| self.config.exposure.admits(t))
        else {
            let hint = self.view.suggest(name);
            return self.reply_error(
                &id,
                WireCode::InvalidParams,
                &format!("Unknown tool: {name}{hint}"),
                None,
            );
        };
        let v = validate_arguments(tool.input_schema(), args);
        if !v.is_valid() {
            let text = format!("Invalid arguments for {name}: {}", v.message());
            return self.reply(
                &id,
                json!({"content": [{"type": "text", "text": text}], "isError": true}),
            );
        }
        let inv = self.next_invocation;
        self.next_invocation += 1;
        self.pending.insert(inv, Pending { request_id: id });
        self.outputs.push_back(Output::Invoke(Invocation {
            id: inv,
            tool: name.to_string(),
            arguments: v.arguments,
        }));
    }

    /// Reports the outcome of an invocation: an MCP `CallToolResult`.
    /// Returns an error for an unknown (or cancelled) invocation id, or a
    /// result that is not a `CallToolResult`; the latter is still answered,
    /// as an internal error, so the client is never left waiting.
    pub fn complete(&mut self, invocation: u64, result: &Value) -> Result<(), Error> {
        self.complete_json(invocation, &result.to_string())
    }

    /// [`Engine::complete`] with the `CallToolResult` as JSON text, which
    /// is checked and passed on as it is written (compacted if it has
    /// whitespace), never parsed into a tree. Text that is not JSON is
    /// answered and reported like any other bad result.
    pub fn complete_json(&mut self, invocation: u64, result: &str) -> Result<(), Error> {
        let Some(p) = self.pending.remove(&invocation) else {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                format!("no outstanding invocation {invocation} (already answered or cancelled)"),
            ));
        };
        // the reply wraps the result in one more object
        let checked = crate::rawjson::compact_nested(result, 1).and_then(|text| {
            let ok = match crate::rawjson::top(&text) {
                crate::rawjson::Top::Object(f) => {
                    f.get("content").is_some_and(|c| c.starts_with('['))
                        && f.get("structuredContent")
                            .is_none_or(|s| s.starts_with('{'))
                }
                crate::rawjson::Top::Other(_) => false,
            };
            if ok {
                Ok(text)
            } else {
                Err(Error::new(ErrorKind::Shape, "", "a CallToolResult needs a content array (and structuredContent, if any, must be an object)"))
            }
        });
        match checked {
            Ok(text) => {
                self.outputs
                    .push_back(Output::Reply(wire::result_text(&p.request_id, &text)));
                Ok(())
            }
            Err(e) => {
                self.reply_error(
                    &p.request_id,
                    WireCode::InternalError,
                    "the tool returned something that is not a CallToolResult",
                    None,
                );
                Err(Error::new(
                    ErrorKind::Shape,
                    "",
                    format!("the tool's result: {}", e.message()),
                ))
            }
        }
    }

    /// Reports that an invocation failed (the tool threw, the upstream
    /// timed out): the client gets a tool result with `isError: true`.
    pub fn fail(&mut self, invocation: u64, message: &str) -> Result<(), Error> {
        let Some(p) = self.pending.remove(&invocation) else {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                format!("no outstanding invocation {invocation} (already answered or cancelled)"),
            ));
        };
        self.reply(&p.request_id, crate::results::tool_exception(message));
        Ok(())
    }
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
