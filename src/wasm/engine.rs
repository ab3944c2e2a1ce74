//! The sans-I/O MCP server engine.

use serde::Deserialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{js_error, read_catalog, read_dialect, read_text, read_value, usage};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** What the engine wants done: send a reply or a notification, run a tool and report it with complete() or fail(), or stop running one. */
/** What the engine wants done: send a reply (on `channel`, answering request `to`, with HTTP `status`) or a notification (on the stream of request `to`, or session-wide when `to` is null), do an invocation (a tool call, resource read, prompt render or completion, by `kind`) and report it with complete() or fail(), stop one, send a request to the client (2025 revisions) or take the client's answer to one. */
export type EngineOutput =
  | { type: "reply"; message: string; channel: number; to: string | number | null; status: number }
  | { type: "notification"; message: string; channel: number; to: string | number | null }
  | { type: "invoke"; id: number; kind: "tool" | "resource" | "prompt" | "completion"; tool: string;
      arguments: { [name: string]: unknown }; source: string | null; era: "legacy" | "modern";
      channel: number; request: string | number; inputResponses?: { [key: string]: unknown }; requestState?: string }
  | { type: "cancel"; id: number }
  | { type: "request"; id: number; invocation: number; method: string; message: string; channel: number; to: string | number }
  | { type: "answer"; ask: number; invocation: number; result?: unknown; error?: unknown }
  | { type: "timedOut"; id: number; tool: string; message: string };
/** Resources, templates and prompts, as MCP objects. */
export interface SurfaceInput { resources?: unknown[]; templates?: unknown[]; prompts?: unknown[] }
/** One source of several: its name, tools, resources, templates and prompts. */
export interface SourceInput extends SurfaceInput { name: string; catalog: CatalogInput; available?: boolean }
/** A log level of notifications/message. */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
"#;

/// Engine settings.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct EngineOptions {
    /// `serverInfo.name` (default "mcp-switchboard").
    name: Option<String>,
    /// `serverInfo.version` (default: this package's version).
    version: Option<String>,
    /// `instructions` in the initialize result.
    instructions: Option<String>,
    /// Tools per tools/list page (default 100).
    page_size: Option<usize>,
    /// Progressive disclosure (default "all").
    #[tsify(type = "Mode")]
    mode: Option<String>,
    /// For "auto": the model's context size in tokens (default 32000).
    context_tokens: Option<usize>,
    /// For "auto": the share of the context the tool list may take (default 0.1).
    share: Option<f64>,
    /// Tools listed directly in hybrid mode (default: chosen from the catalog).
    core: Option<Vec<String>>,
    /// Curated search metadata for search_tools.
    #[tsify(type = "SearchMetadata")]
    metadata: Option<Value>,
    /// The dialect get_tool_definition answers in (default: the MCP tool object).
    #[tsify(type = "DialectName")]
    definitions: Option<String>,
    /// Exposure: only these tools exist.
    allow: Option<Vec<String>>,
    /// Exposure: these tools never exist.
    deny: Option<Vec<String>>,
    /// Exposure: only tools annotated read-only.
    read_only: bool,
    /// Exposure: no tool annotated destructive.
    no_destructive: bool,
    /// How long an invocation may run, in milliseconds (default 30000):
    /// past it the engine answers its request and gives a "timedOut"
    /// output (see `handleTimeout`).
    timeout_ms: Option<f64>,
    /// What a timed-out invocation waited for, named in its message.
    waiting_for: Option<String>,
}

/// Which tools exist for clients (`Engine.setExposure`); every field left
/// out is off.
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ExposureOptions {
    /// Only these tools exist.
    allow: Option<Vec<String>>,
    /// These tools never exist.
    deny: Option<Vec<String>>,
    /// Only tools annotated read-only.
    read_only: bool,
    /// No tool annotated destructive.
    no_destructive: bool,
}

impl ExposureOptions {
    fn exposure(self) -> crate::engine::Exposure {
        crate::engine::Exposure {
            allow: self.allow,
            deny: self.deny.unwrap_or_default(),
            read_only: self.read_only,
            no_destructive: self.no_destructive,
        }
    }
}

/// A disclosure mode by name, with the settings of `auto`.
fn mode_of(
    name: &str,
    context: Option<usize>,
    share: Option<f64>,
) -> Result<crate::engine::Mode, JsValue> {
    let mode = crate::engine::Mode::parse(name).ok_or_else(|| {
        usage(&format!(
            "unknown mode {name:?}; choose all, hybrid, meta or auto"
        ))
    })?;
    Ok(match mode {
        crate::engine::Mode::Auto {
            context_tokens,
            share: s,
        } => crate::engine::Mode::Auto {
            context_tokens: context.unwrap_or(context_tokens),
            share: share.unwrap_or(s),
        },
        m => m,
    })
}

impl EngineOptions {
    /// The engine configuration these options describe.
    fn config(self) -> Result<crate::engine::EngineConfig, JsValue> {
        let mut c = crate::engine::EngineConfig::default();
        if let Some(n) = self.name {
            c.name = n;
        }
        if let Some(v) = self.version {
            c.version = v;
        }
        c.instructions = self.instructions;
        if let Some(p) = self.page_size {
            c.page_size = p.max(1);
        }
        if let Some(m) = self.mode {
            c.disclosure.mode = mode_of(&m, self.context_tokens, self.share)?;
        }
        c.disclosure.core = self.core;
        c.disclosure.metadata = self.metadata;
        if let Some(d) = self.definitions {
            c.disclosure.definitions = Some(read_dialect(&d)?);
        }
        if let Some(ms) = self.timeout_ms {
            c = c.with_invocation_timeout_ms(super::millis(ms));
        }
        c.waiting_for = self.waiting_for;
        c.exposure = ExposureOptions {
            allow: self.allow,
            deny: self.deny,
            read_only: self.read_only,
            no_destructive: self.no_destructive,
        }
        .exposure();
        Ok(c)
    }
}

/// The sans-I/O MCP server engine: `handle(message)`, then `drain()` the
/// outputs; run each `invoke` output and report it with `complete` or `fail`.
#[wasm_bindgen(js_name = Engine)]
pub struct JsEngine {
    inner: crate::engine::Engine,
    /// `"message"` as a JS string, made once (not per output).
    message_key: JsValue,
    /// The headers `handleChecked` reads, as JS strings, made once.
    message_header_names: Option<Vec<(&'static str, JsValue)>>,
    /// `handleChecked`'s answers for a message it took (no reply owed,
    /// a reply owed), made once and handed out frozen.
    handled: Option<[JsValue; 2]>,
}

/// An engine output as a plain JS object: its fields written as JSON text
/// and parsed in one call, then its message (a reply, notification or
/// request as JSON text) set as a string, so the message is neither escaped
/// inside another JSON document nor parsed.
fn output_js(o: crate::engine::Output, message_key: &JsValue) -> Result<JsValue, JsValue> {
    let mut t = String::with_capacity(160);
    let mut message = None;
    // `"message":null` holds the message's place among the fields
    match o {
        crate::engine::Output::Reply(r) => {
            t.push_str(r#"{"type":"reply","message":null,"channel":"#);
            push_num(&mut t, r.channel);
            t.push_str(r#","to":"#);
            push_value(&mut t, &r.to);
            t.push_str(r#","status":"#);
            push_num(&mut t, u64::from(r.status));
            message = Some(r.message);
        }
        crate::engine::Output::Notification(n) => {
            t.push_str(r#"{"type":"notification","message":null,"channel":"#);
            push_num(&mut t, n.channel);
            t.push_str(r#","to":"#);
            push_value(&mut t, n.to.as_ref().unwrap_or(&Value::Null));
            message = Some(n.message);
        }
        crate::engine::Output::Invoke(i) => {
            t.push_str(r#"{"type":"invoke","id":"#);
            push_num(&mut t, i.id);
            let kind = match i.kind {
                crate::engine::InvocationKind::Resource => "resource",
                crate::engine::InvocationKind::Prompt => "prompt",
                crate::engine::InvocationKind::Completion => "completion",
                _ => "tool",
            };
            t.push_str(r#","kind":""#);
            t.push_str(kind);
            t.push_str(r#"","tool":"#);
            push_str(&mut t, &i.tool);
            t.push_str(r#","arguments":"#);
            push_value(&mut t, &i.arguments);
            t.push_str(r#","source":"#);
            match &i.source {
                Some(s) => push_str(&mut t, s),
                None => t.push_str("null"),
            }
            t.push_str(if i.era == crate::engine::Era::Modern {
                r#","era":"modern","channel":"#
            } else {
                r#","era":"legacy","channel":"#
            });
            push_num(&mut t, i.channel);
            t.push_str(r#","request":"#);
            push_value(&mut t, &i.request);
            if let Some(r) = &i.input_responses {
                t.push_str(r#","inputResponses":"#);
                push_value(&mut t, r);
            }
            if let Some(s) = &i.request_state {
                t.push_str(r#","requestState":"#);
                push_str(&mut t, s);
            }
        }
        crate::engine::Output::Cancel(id) => {
            t.push_str(r#"{"type":"cancel","id":"#);
            push_num(&mut t, id);
        }
        crate::engine::Output::Request(r) => {
            t.push_str(r#"{"type":"request","id":"#);
            push_num(&mut t, r.id);
            t.push_str(r#","invocation":"#);
            push_num(&mut t, r.invocation);
            t.push_str(r#","method":"#);
            push_str(&mut t, &r.method);
            t.push_str(r#","message":null,"channel":"#);
            push_num(&mut t, r.channel);
            t.push_str(r#","to":"#);
            push_value(&mut t, &r.to);
            message = Some(r.message);
        }
        crate::engine::Output::Answer(a) => {
            t.push_str(r#"{"type":"answer","ask":"#);
            push_num(&mut t, a.ask);
            t.push_str(r#","invocation":"#);
            push_num(&mut t, a.invocation);
            match &a.outcome {
                Ok(v) => {
                    t.push_str(r#","result":"#);
                    push_value(&mut t, v);
                }
                Err(e) => {
                    t.push_str(r#","error":"#);
                    push_value(&mut t, e);
                }
            }
        }
        crate::engine::Output::TimedOut(o) => {
            t.push_str(r#"{"type":"timedOut","id":"#);
            push_num(&mut t, o.id);
            t.push_str(r#","tool":"#);
            push_str(&mut t, &o.tool);
            t.push_str(r#","message":"#);
            push_str(&mut t, &o.message);
        }
    }
    t.push('}');
    let obj = js_sys::JSON::parse(&t)?;
    if let Some(m) = message {
        js_sys::Reflect::set(&obj, message_key, &JsValue::from_str(&m))?;
    }
    Ok(obj)
}

/// Appends a number as JSON.
fn push_num(t: &mut String, n: u64) {
    use std::fmt::Write;
    let _ = write!(t, "{n}");
}

/// Appends a string as JSON.
fn push_str(t: &mut String, s: &str) {
    t.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "null".into()));
}

/// Appends a JSON value.
fn push_value(t: &mut String, v: &Value) {
    t.push_str(&v.to_string());
}

/// An array of JSON values from an optional JS field.
fn values(v: Option<Value>, what: &str) -> Result<Vec<Value>, JsValue> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(usage(&format!("{what} must be an array"))),
    }
}

/// A surface from `{resources, templates, prompts}` (each left out, or an
/// array: a capability is advertised for each array given).
fn read_surface(v: &Value) -> Result<crate::engine::Surface, JsValue> {
    let mut s = crate::engine::Surface::new();
    let field = |k: &str| v.get(k).cloned();
    if field("resources").is_some() || field("templates").is_some() {
        s = s
            .with_resources(values(field("resources"), "resources")?)
            .map_err(|e| js_error(&e))?
            .with_templates(values(field("templates"), "templates")?)
            .map_err(|e| js_error(&e))?;
    }
    if field("prompts").is_some() {
        s = s
            .with_prompts(values(field("prompts"), "prompts")?)
            .map_err(|e| js_error(&e))?;
    }
    Ok(s)
}

#[wasm_bindgen(js_class = Engine)]
impl JsEngine {
    /// Takes one incoming message on a channel of the host's choosing
    /// (one per 2026-07-28 HTTP request, per session or per process).
    #[wasm_bindgen(js_name = handleOn)]
    pub fn handle_on(&mut self, channel: f64, message: &str) -> bool {
        self.inner.handle_on(channel as u64, message)
    }

    /// [`Engine.handleOn`](JsEngine::handle_on) for a 2026-07-28 message
    /// that came as an HTTP POST, with the request's headers (Node's
    /// `req.headers`, or its `req.rawHeaders` joined with `"\n"`): a `tools/call` whose `Mcp-Param-*` headers do not
    /// mirror the arguments of its `x-mcp-header` parameters is refused
    /// with -32020 (HTTP 400).
    #[wasm_bindgen(js_name = handleHttp)]
    pub fn handle_http(
        &mut self,
        channel: f64,
        message: &str,
        #[wasm_bindgen(unchecked_param_type = "HttpHeaders")] headers: JsValue,
    ) -> Result<bool, JsValue> {
        let prefix = crate::http::PARAM_HEADER_PREFIX;
        let is_param = |name: &str| {
            name.get(..prefix.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        };
        if let Some(raw) = headers.as_string() {
            let list = crate::http::combine_headers(super::http::raw_fields(&raw), &is_param);
            return Ok(self.inner.handle_http(channel as u64, message, &list));
        }
        let mut list = Vec::new();
        if headers.is_object() {
            for key in js_sys::Object::keys(&js_sys::Object::from(headers.clone())).iter() {
                let Some(name) = key.as_string() else {
                    continue;
                };
                if !is_param(&name) {
                    continue;
                }
                let v = js_sys::Reflect::get(&headers, &key)?;
                let v = v.as_string().or_else(|| {
                    js_sys::Array::is_array(&v)
                        .then(|| js_sys::Array::from(&v).get(0).as_string())
                        .flatten()
                });
                if let Some(v) = v {
                    list.push((name, v));
                }
            }
        } else if !headers.is_undefined() && !headers.is_null() {
            return Err(super::usage(super::http::HEADERS_USAGE));
        }
        Ok(self.inner.handle_http(channel as u64, message, &list))
    }

    /// `gate.checkMessage(headers, body, true)` for a session's POST (with
    /// the gate's `maxBody`, `gate.limits.maxBody`), and then, unless the
    /// decision is to refuse the message or to serve it as a 2026-07-28
    /// message of its own, `handleOn(channel, body)`, with the body read
    /// once for both: the decision, or `{action: "handled", owed}` when
    /// this engine took the message (`owed`: as `handleOn` gives it).
    #[wasm_bindgen(
        js_name = handleChecked,
        unchecked_return_type = r#"MessageAction | { action: "handled"; owed: boolean }"#
    )]
    pub fn handle_checked(
        &mut self,
        channel: f64,
        #[wasm_bindgen(unchecked_param_type = "HttpHeaders")] headers: JsValue,
        body: &str,
        max_body: f64,
    ) -> Result<JsValue, JsValue> {
        use crate::http::BodyDecision;
        let names = self
            .message_header_names
            .get_or_insert_with(super::http::message_header_names);
        let max_body = super::millis(max_body) as usize;
        let (decision, incoming) =
            super::http::read_message(&headers, names, body, true, max_body)?;
        if matches!(
            decision,
            BodyDecision::Refuse { .. } | BodyDecision::Stateless { .. }
        ) {
            return super::http_modern::message_action(decision);
        }
        let owed = match incoming {
            Some(m) => self.inner.handle_read(channel as u64, m),
            None => self.inner.handle_on(channel as u64, body),
        };
        let handled = match &self.handled {
            Some(made) => made,
            None => self.handled.insert([
                super::frozen(js_sys::JSON::parse(r#"{"action":"handled","owed":false}"#)?),
                super::frozen(js_sys::JSON::parse(r#"{"action":"handled","owed":true}"#)?),
            ]),
        };
        Ok(handled[usize::from(owed)].clone())
    }

    /// The channel closed: its invocations are cancelled, its
    /// subscriptions end.
    #[wasm_bindgen(js_name = closeChannel)]
    pub fn close_channel(&mut self, channel: f64) {
        self.inner.close_channel(channel as u64)
    }

    /// Ends every subscriptions/listen stream (or those of `channel`) with
    /// its response.
    #[wasm_bindgen(js_name = endSubscriptions)]
    pub fn end_subscriptions(&mut self, channel: Option<f64>) {
        match channel {
            Some(c) => self.inner.end_subscriptions_on(c as u64),
            None => self.inner.end_subscriptions(),
        }
    }

    /// Replaces the resources, templates and prompts served.
    #[wasm_bindgen(js_name = setSurface)]
    pub fn set_surface(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SurfaceInput")] surface: JsValue,
    ) -> Result<(), JsValue> {
        let v = read_value(&surface, "the surface")?;
        self.inner.set_surface(read_surface(&v)?);
        Ok(())
    }

    /// Serves several sources as one server (names made unique, calls
    /// routed back: each invoke output names its source). `naming`:
    /// `collisions` (default: only names several sources share get
    /// `<source>__`) or `prefixed` (every name does).
    #[wasm_bindgen(js_name = setSources)]
    pub fn set_sources(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SourceInput[]")] sources: JsValue,
        #[wasm_bindgen(unchecked_param_type = r#""collisions" | "prefixed""#)] naming: Option<
            String,
        >,
    ) -> Result<(), JsValue> {
        let naming = match naming.as_deref() {
            None | Some("collisions") => crate::engine::SourceNaming::Collisions,
            Some("prefixed") => crate::engine::SourceNaming::Prefixed,
            Some(other) => {
                return Err(usage(&format!(
                    "unknown naming {other:?}; choose collisions or prefixed"
                )))
            }
        };
        if !js_sys::Array::is_array(&sources) {
            return Err(usage("sources must be an array"));
        }
        let mut list = Vec::new();
        for item in js_sys::Array::from(&sources).iter() {
            if !item.is_object() || js_sys::Array::is_array(&item) {
                return Err(usage(
                    "each source must be an object {name, catalog, resources?, templates?, prompts?, available?}",
                ));
            }
            let name = js_sys::Reflect::get(&item, &"name".into())?
                .as_string()
                .ok_or_else(|| usage("a source needs a name"))?;
            let catalog = read_catalog(&js_sys::Reflect::get(&item, &"catalog".into())?)?;
            let available = js_sys::Reflect::get(&item, &"available".into())?
                .as_bool()
                .unwrap_or(true);
            let obj = js_sys::Object::new();
            for k in ["resources", "templates", "prompts"] {
                let v = js_sys::Reflect::get(&item, &k.into())?;
                if !v.is_undefined() {
                    js_sys::Reflect::set(&obj, &k.into(), &v)?;
                }
            }
            let surface = read_surface(&read_value(&obj.into(), "the source")?)?;
            list.push(
                crate::engine::Source::new(name, catalog)
                    .with_surface(surface)
                    .with_available(available),
            );
        }
        self.inner
            .set_sources_named(&list, naming)
            .map_err(|e| js_error(&e))
    }

    /// A resource changed: subscribed clients are told.
    #[wasm_bindgen(js_name = resourceUpdated)]
    pub fn resource_updated(&mut self, uri: &str, source: Option<String>) {
        match source {
            Some(s) => self.inner.source_resource_updated(&s, uri),
            None => self.inner.resource_updated(uri),
        }
    }

    /// Reports progress of an invocation; true when a notification went out.
    pub fn progress(
        &mut self,
        id: f64,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Result<bool, JsValue> {
        self.inner
            .progress(id as u64, progress, total, message.as_deref())
            .map_err(|e| js_error(&e))
    }

    /// Sends a log message (for an invocation, or session-wide when `id`
    /// is null) if the client's level lets it through; true when sent.
    pub fn log(
        &mut self,
        id: Option<f64>,
        #[wasm_bindgen(unchecked_param_type = "LogLevel")] level: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] data: JsValue,
        logger: Option<String>,
    ) -> Result<bool, JsValue> {
        let level = crate::engine::LogLevel::parse(level)
            .ok_or_else(|| usage(&format!("unknown log level {level:?}")))?;
        let data = read_value(&data, "the log data")?;
        self.inner
            .log(id.map(|i| i as u64), level, logger.as_deref(), &data)
            .map_err(|e| js_error(&e))
    }

    /// Asks the client (2025 revisions) on behalf of an invocation: the
    /// request comes out as a "request" output, the answer as "answer".
    pub fn ask(
        &mut self,
        id: f64,
        method: &str,
        #[wasm_bindgen(unchecked_param_type = "{ [key: string]: unknown } | undefined")]
        params: JsValue,
    ) -> Result<f64, JsValue> {
        let params = if params.is_undefined() {
            Value::Null
        } else {
            read_value(&params, "the request's params")?
        };
        self.inner
            .ask(id as u64, method, &params)
            .map(|a| a as f64)
            .map_err(|e| js_error(&e))
    }

    /// Answers a 2026-07-28 invocation with an InputRequiredResult.
    #[wasm_bindgen(js_name = inputRequired)]
    pub fn input_required(
        &mut self,
        id: f64,
        #[wasm_bindgen(unchecked_param_type = "{ [key: string]: unknown }")]
        input_requests: JsValue,
        request_state: Option<String>,
    ) -> Result<(), JsValue> {
        let requests = if input_requests.is_undefined() {
            Value::Null
        } else {
            read_value(&input_requests, "inputRequests")?
        };
        self.inner
            .input_required(id as u64, &requests, request_state.as_deref())
            .map_err(|e| js_error(&e))
    }

    /// An engine serving `catalog`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
        options: Option<Ts<EngineOptions>>,
    ) -> Result<JsEngine, JsValue> {
        let catalog = read_catalog(&catalog)?;
        let config = super::options(options, "engine options")?.config()?;
        Ok(JsEngine {
            inner: crate::engine::Engine::new(catalog, config),
            message_key: JsValue::from_str("message"),
            message_header_names: None,
            handled: None,
        })
    }

    /// An engine for another client serving what this one serves: the
    /// catalog, its search index, disclosure, resources, prompts, sources
    /// and compiled schemas are shared, not built again (a gateway's new
    /// session costs its own state alone). It has no client yet.
    pub fn fork(&self) -> JsEngine {
        JsEngine {
            inner: self.inner.fork(),
            message_key: self.message_key.clone(),
            message_header_names: None,
            handled: None,
        }
    }

    /// Serves what `other` serves from now on (a change made once to
    /// `other`, shared rather than made again); clients are notified of
    /// what changed.
    pub fn follow(&mut self, other: &JsEngine) {
        self.inner.follow(&other.inner);
    }

    /// Takes one incoming JSON-RPC message (text). Bad messages get error
    /// replies. Returns whether a reply is owed (a request or an invalid
    /// message); notifications and responses get none.
    pub fn handle(&mut self, message: &str) -> bool {
        self.inner.handle(message)
    }

    /// Every pending output, in order.
    #[wasm_bindgen(unchecked_return_type = "EngineOutput[]")]
    pub fn drain(&mut self) -> Result<js_sys::Array, JsValue> {
        let out = js_sys::Array::new();
        while let Some(o) = self.inner.poll_output() {
            out.push(&output_js(o, &self.message_key)?);
        }
        Ok(out)
    }

    /// Reports an invocation's CallToolResult (as a value or as JSON text,
    /// such as `asToolResultJson` gives).
    pub fn complete(
        &mut self,
        id: f64,
        #[wasm_bindgen(unchecked_param_type = "CallToolResult | string")] result: JsValue,
    ) -> Result<(), JsValue> {
        let result = read_text(&result, "the result")?;
        self.inner
            .complete_json(id as u64, &result)
            .map_err(|e| js_error(&e))
    }

    /// Reports what a tool's handler returned, any value: a CallToolResult
    /// passes as it is, anything else becomes a success result holding it
    /// (as `asToolResult` makes it), in one pass over its JSON text, with no
    /// `asToolResultJson` before. For the other kinds, the result as
    /// `complete` takes it. Gives the message the invocation failed with
    /// when the value has no result form (cyclic, a BigInt, too deep): the
    /// client reads it as the tool's error.
    #[wasm_bindgen(js_name = completeValue)]
    pub fn complete_value(
        &mut self,
        id: f64,
        #[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue,
    ) -> Result<Option<String>, JsValue> {
        // any value, strings included, as JSON; no JSON form is null
        let text = match super::stringify(&value, "the result") {
            Ok(text) => text.unwrap_or_else(|| "null".to_string()),
            Err(e) => {
                let message = e
                    .dyn_ref::<js_sys::Error>()
                    .and_then(|e| e.message().as_string())
                    .unwrap_or_default();
                self.inner
                    .fail(id as u64, &message)
                    .map_err(|e| js_error(&e))?;
                return Ok(Some(message));
            }
        };
        self.inner
            .complete_value_json(id as u64, &text)
            .map_err(|e| js_error(&e))
    }

    /// Reports that an invocation failed; the client gets an isError result.
    pub fn fail(&mut self, id: f64, message: &str) -> Result<(), JsValue> {
        self.inner
            .fail(id as u64, message)
            .map_err(|e| js_error(&e))
    }

    /// Replaces the catalog; clients are notified when the list changes.
    #[wasm_bindgen(js_name = setCatalog)]
    pub fn set_catalog(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CatalogInput")] catalog: JsValue,
    ) -> Result<(), JsValue> {
        let catalog = read_catalog(&catalog)?;
        self.inner.set_catalog(catalog);
        Ok(())
    }

    /// Changes the disclosure mode; clients are notified when the list changes.
    #[wasm_bindgen(js_name = setMode)]
    pub fn set_mode(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Mode")] mode: &str,
    ) -> Result<(), JsValue> {
        self.inner.set_mode(mode_of(mode, None, None)?);
        Ok(())
    }

    /// Changes which tools exist for clients (the fields left out are
    /// off); clients are notified when the list changes.
    #[wasm_bindgen(js_name = setExposure)]
    pub fn set_exposure(&mut self, exposure: Option<Ts<ExposureOptions>>) -> Result<(), JsValue> {
        let e = super::options(exposure, "exposure")?.exposure();
        self.inner.set_exposure(e);
        Ok(())
    }

    /// The disclosure mode, as configured.
    #[wasm_bindgen(getter, unchecked_return_type = "Mode")]
    pub fn mode(&self) -> String {
        self.inner.mode().as_str().to_string()
    }

    /// How many catalog tools the exposure admits.
    #[wasm_bindgen(getter)]
    pub fn tools(&self) -> usize {
        self.inner.tool_count()
    }

    /// How many tools tools/list shows (meta-tools included), over all pages.
    #[wasm_bindgen(getter)]
    pub fn listed(&self) -> usize {
        self.inner.listed_count()
    }

    /// The negotiated protocol version, after initialize.
    #[wasm_bindgen(getter, js_name = protocolVersion)]
    pub fn protocol_version(&self) -> Option<String> {
        self.inner.protocol_version().map(str::to_owned)
    }

    /// Invocations waiting for their outcome.
    #[wasm_bindgen(getter)]
    pub fn outstanding(&self) -> usize {
        self.inner.outstanding()
    }

    /// Tells the engine the time (`Date.now()`, or any clock that does not
    /// go back): invocations begun since get their deadline from it, and
    /// those past it are answered as failed, each with a "timedOut" output
    /// (drain() them). Call it after outputs that included an "invoke",
    /// and when the timer armed at pollTimeout() fires.
    #[wasm_bindgen(js_name = handleTimeout)]
    pub fn handle_timeout(&mut self, now_ms: f64) {
        self.inner.handle_timeout(super::millis(now_ms));
    }

    /// When handleTimeout is next due (the earliest deadline of the
    /// invocations running, on the clock handleTimeout is given), or
    /// undefined.
    #[wasm_bindgen(js_name = pollTimeout)]
    pub fn poll_timeout(&self) -> Option<f64> {
        self.inner.poll_timeout().map(|t| t as f64)
    }

    /// Sets what a timed-out invocation waited for (named in its message;
    /// null names nothing).
    #[wasm_bindgen(js_name = setWaitingFor)]
    pub fn set_waiting_for(&mut self, what: Option<String>) {
        self.inner.set_waiting_for(what);
    }
}

/// Throws a TypeError (code "usage") unless `name` may name a source of
/// `Engine.setSources`: 1 to 32 letters, digits, `_` or `-`.
#[wasm_bindgen(js_name = checkSourceName)]
pub fn check_source_name(name: &str) -> Result<(), JsValue> {
    crate::engine::check_source_name(name).map_err(|e| js_error(&e))
}
