//! The server surface besides tools: resources, prompts, completions,
//! logging, progress, change notifications and subscriptions, and the
//! requests a server makes of its client (sampling, elicitation, roots).

use serde_json::{json, Map, Value};

use super::era::{self, Era, LogLevel};
use super::surface::missing_arguments;
use super::wire::{self, WireCode};
use super::{ClientRequest, Ctx, Engine, InvocationKind, Notice, Output, Subscription};
use crate::error::{Error, Misuse};

/// A list whose change clients are told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListKind {
    Tools,
    Resources,
    Prompts,
}

impl ListKind {
    fn method(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
        }
    }
}

/// Server-to-client request methods, and the client capability each needs.
const CLIENT_METHODS: &[(&str, &str)] = &[
    ("sampling/createMessage", "sampling"),
    ("elicitation/create", "elicitation"),
    ("roots/list", "roots"),
];

fn capability_for(method: &str) -> Option<&'static str> {
    CLIENT_METHODS
        .iter()
        .find(|(m, _)| *m == method)
        .map(|(_, c)| *c)
}

impl Engine {
    /// Tells clients a list changed: on 2025 revisions the session (once
    /// initialized), on 2026-07-28 every `subscriptions/listen` stream that
    /// asked for it.
    pub(super) fn list_changed(&mut self, kind: ListKind) {
        if self.initialized {
            self.broadcast(wire::notification(kind.method(), None));
        }
        let targets: Vec<(u64, Value)> = self
            .subscriptions
            .iter()
            .filter(|s| match kind {
                ListKind::Tools => s.tools,
                ListKind::Resources => s.resources,
                ListKind::Prompts => s.prompts,
            })
            .map(|s| (s.channel, s.id.clone()))
            .collect();
        for (channel, id) in targets {
            let params = json!({"_meta": {era::META_SUBSCRIPTION: id}});
            self.notice(
                channel,
                Some(id),
                wire::notification(kind.method(), Some(params)),
            );
        }
    }

    fn broadcast(&mut self, message: String) {
        self.notice(0, None, message);
    }

    fn notice(&mut self, channel: u64, to: Option<Value>, message: String) {
        self.outputs.push_back(Output::Notification(Notice {
            channel,
            to,
            message,
        }));
    }

    /// The resource at `uri` changed: `notifications/resources/updated` goes
    /// to a 2025 session that subscribed to it with `resources/subscribe`,
    /// and to every 2026-07-28 `subscriptions/listen` stream that names it.
    pub fn resource_updated(&mut self, uri: &str) {
        let params = json!({"uri": uri});
        if self.initialized && self.resource_subscriptions.contains(uri) {
            self.broadcast(wire::notification(
                "notifications/resources/updated",
                Some(params.clone()),
            ));
        }
        let targets: Vec<(u64, Value)> = self
            .subscriptions
            .iter()
            .filter(|s| s.uris.iter().any(|u| u == uri))
            .map(|s| (s.channel, s.id.clone()))
            .collect();
        for (channel, id) in targets {
            let mut p = params.clone();
            p["_meta"] = json!({era::META_SUBSCRIPTION: id});
            self.notice(
                channel,
                Some(id),
                wire::notification("notifications/resources/updated", Some(p)),
            );
        }
    }

    /// `logging/setLevel` (2025 revisions): the session's minimum level.
    pub(super) fn set_level(&mut self, ctx: &Ctx) {
        match ctx
            .params
            .get("level")
            .and_then(Value::as_str)
            .and_then(LogLevel::parse)
        {
            Some(l) => {
                self.log_level = Some(l);
                self.reply(ctx, json!({}));
            }
            None => self.reply_error(
                ctx,
                WireCode::InvalidParams,
                "logging/setLevel needs params.level: debug, info, notice, warning, error, critical, alert or emergency",
                None,
            ),
        }
    }

    /// `resources/subscribe` and `resources/unsubscribe` (2025 revisions).
    pub(super) fn resource_subscription(&mut self, ctx: &Ctx, on: bool) {
        let Some(uri) = ctx.params.get("uri").and_then(Value::as_str) else {
            return self.reply_error(ctx, WireCode::InvalidParams, "needs params.uri", None);
        };
        if on {
            self.resource_subscriptions.insert(uri.to_string());
        } else {
            self.resource_subscriptions.remove(uri);
        }
        self.reply(ctx, json!({}));
    }

    /// `subscriptions/listen` (2026-07-28 *Subscriptions*): acknowledges
    /// the filter the server honours and keeps the request open.
    pub(super) fn listen(&mut self, ctx: &Ctx) {
        let filter = ctx.params.get("notifications");
        let flag = |k: &str| {
            filter
                .and_then(|f| f.get(k))
                .and_then(Value::as_bool)
                .unwrap_or(false)
        };
        let resources = self.surface.offers_resources();
        let sub = Subscription {
            channel: ctx.channel,
            id: ctx.id.clone(),
            tools: flag("toolsListChanged"),
            prompts: flag("promptsListChanged") && self.surface.offers_prompts(),
            resources: flag("resourcesListChanged") && resources,
            uris: if resources {
                filter
                    .and_then(|f| f.get("resourceSubscriptions"))
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
        };
        let mut honoured = Map::new();
        for (k, on) in [
            ("toolsListChanged", sub.tools),
            ("promptsListChanged", sub.prompts),
            ("resourcesListChanged", sub.resources),
        ] {
            if on {
                honoured.insert(k.into(), Value::Bool(true));
            }
        }
        if !sub.uris.is_empty() {
            honoured.insert("resourceSubscriptions".into(), json!(sub.uris));
        }
        let params = json!({
            "_meta": {era::META_SUBSCRIPTION: ctx.id},
            "notifications": honoured,
        });
        self.notice(
            ctx.channel,
            Some(ctx.id.clone()),
            wire::notification("notifications/subscriptions/acknowledged", Some(params)),
        );
        // a second listen with the same id on the same channel replaces it
        self.subscriptions
            .retain(|s| !(s.channel == sub.channel && s.id == sub.id));
        self.subscriptions.push(sub);
    }

    fn not_found(&mut self, ctx: &Ctx, uri: &str) {
        // 2026-07-28 *Resources › Error Handling*: -32602; 2025: -32002
        let code = if ctx.era == Era::Modern {
            WireCode::InvalidParams
        } else {
            WireCode::ResourceNotFound
        };
        self.reply_error(
            ctx,
            code,
            &format!("Resource not found: {uri}"),
            Some(json!({"uri": uri})),
        );
    }

    /// `resources/read`: a listed resource, or a URI matching a template.
    pub(super) fn read_resource(&mut self, ctx: &Ctx) {
        let Some(uri) = ctx.params.get("uri").and_then(Value::as_str) else {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                "resources/read needs params.uri",
                None,
            );
        };
        let uri = uri.to_string();
        if !self.config.exposure.admits_name(&uri) {
            return self.not_found(ctx, &uri);
        }
        match self.surface.resolve(&uri) {
            None => self.not_found(ctx, &uri),
            Some(found) => {
                let mut args = json!({"uri": uri});
                if let Some((template, vars)) = found {
                    args["template"] = Value::String(template);
                    args["variables"] = Value::Object(vars);
                }
                self.start(ctx, InvocationKind::Resource, &uri, args);
            }
        }
    }

    /// `prompts/get`: a listed prompt with its required arguments.
    pub(super) fn get_prompt(&mut self, ctx: &Ctx) {
        let Some(name) = ctx.params.get("name").and_then(Value::as_str) else {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                "prompts/get needs params.name",
                None,
            );
        };
        let name = name.to_string();
        let args = match ctx.params.get("arguments") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(a @ Value::Object(_)) => a.clone(),
            Some(_) => {
                return self.reply_error(
                    ctx,
                    WireCode::InvalidParams,
                    "prompts/get: arguments must be an object",
                    None,
                )
            }
        };
        let Some(prompt) = self
            .surface
            .prompt(&name)
            .filter(|_| self.config.exposure.admits_name(&name))
        else {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                &format!("Unknown prompt: {name}"),
                None,
            );
        };
        let missing = missing_arguments(prompt, &args);
        if !missing.is_empty() {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                &format!("prompt {name} needs the argument(s) {}", missing.join(", ")),
                None,
            );
        }
        self.start(ctx, InvocationKind::Prompt, &name, args);
    }

    /// `completion/complete` for a prompt's argument or a template's
    /// variable: checked, then asked of the host.
    pub(super) fn completion(&mut self, ctx: &Ctx) {
        let reference = ctx.params.get("ref");
        let kind = reference
            .and_then(|r| r.get("type"))
            .and_then(Value::as_str);
        let target = match kind {
            Some("ref/prompt") => reference
                .and_then(|r| r.get("name"))
                .and_then(Value::as_str)
                .filter(|n| {
                    self.surface.prompt(n).is_some() && self.config.exposure.admits_name(n)
                }),
            Some("ref/resource") => reference
                .and_then(|r| r.get("uri"))
                .and_then(Value::as_str)
                .filter(|u| self.surface.has_template(u) || self.surface.resolve(u).is_some()),
            _ => None,
        };
        let Some(target) = target.map(str::to_owned) else {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                "completion/complete needs a ref to a known prompt (ref/prompt) or resource template (ref/resource)",
                None,
            );
        };
        let Some(argument) = ctx
            .params
            .get("argument")
            .filter(|a| a.get("name").and_then(Value::as_str).is_some())
        else {
            return self.reply_error(
                ctx,
                WireCode::InvalidParams,
                "completion/complete needs argument.name and argument.value",
                None,
            );
        };
        let mut args = json!({"ref": reference, "argument": argument});
        if let Some(c) = ctx.params.get("context") {
            args["context"] = c.clone();
        }
        self.start(ctx, InvocationKind::Completion, &target, args);
    }

    /// A client's response to a request the server sent.
    pub(super) fn response(&mut self, id: &Value, outcome: Result<Value, Value>) {
        let Some(ask) = id.as_u64() else {
            return;
        };
        if let Some(a) = self.asks.remove(&ask) {
            self.outputs.push_back(Output::Answer(super::Answer {
                ask,
                invocation: a.invocation,
                outcome,
            }));
        }
    }

    /// Reports progress of an invocation: when the client's request
    /// carried a `progressToken`, a `notifications/progress` goes on that
    /// request's stream. Returns whether one was sent. `progress` must grow
    /// with each report (MCP *Progress*); a report that does not is an
    /// error and sends nothing.
    pub fn progress(
        &mut self,
        invocation: u64,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<bool, Error> {
        let Some(p) = self.pending.get_mut(&invocation) else {
            return Err(super::unknown_invocation(invocation));
        };
        if !progress.is_finite() || p.last_progress.is_some_and(|last| progress <= last) {
            return Err(Error::misused(
                Misuse::ProgressBackwards,
                "",
                format!("progress must grow with each report (got {progress})"),
            ));
        }
        let Some(token) = p.progress_token.clone() else {
            return Ok(false);
        };
        p.last_progress = Some(progress);
        let mut params = json!({"progressToken": token, "progress": progress});
        if let Some(t) = total.filter(|t| t.is_finite()) {
            params["total"] = json!(t);
        }
        if let Some(m) = message {
            params["message"] = Value::String(m.to_string());
        }
        let (channel, to) = (p.channel, p.request_id.clone());
        self.notice(
            channel,
            Some(to),
            wire::notification("notifications/progress", Some(params)),
        );
        Ok(true)
    }

    /// Sends a log message (`notifications/message`) when the level passes
    /// the client's threshold. For an invocation, the threshold is its
    /// request's (2026-07-28: `_meta` `io.modelcontextprotocol/logLevel`,
    /// and nothing is sent for a request without one) or the session's
    /// (`logging/setLevel`; everything before the client sets one), and the
    /// message goes on that request's stream. Without an invocation it goes
    /// to a 2025 session only. Returns whether it was sent.
    pub fn log(
        &mut self,
        invocation: Option<u64>,
        level: LogLevel,
        logger: Option<&str>,
        data: &Value,
    ) -> Result<bool, Error> {
        let mut params = json!({"level": level.as_str(), "data": data});
        if let Some(l) = logger {
            params["logger"] = Value::String(l.to_string());
        }
        let message = wire::notification("notifications/message", Some(params));
        match invocation {
            Some(inv) => {
                let Some(p) = self.pending.get(&inv) else {
                    return Err(super::unknown_invocation(inv));
                };
                let passes = match (p.era, p.log_level) {
                    (Era::Modern, None) => false,
                    (_, Some(min)) => level >= min,
                    (Era::Legacy, None) => true,
                };
                if passes {
                    let (channel, to) = (p.channel, p.request_id.clone());
                    self.notice(channel, Some(to), message);
                }
                Ok(passes)
            }
            None => {
                let passes = self.initialized && self.log_level.is_none_or(|min| level >= min);
                if passes {
                    self.broadcast(message);
                }
                Ok(passes)
            }
        }
    }

    /// Asks the client something on behalf of an invocation (2025
    /// revisions): `sampling/createMessage`, `elicitation/create` or
    /// `roots/list`. The request comes out as an [`Output::Request`] to
    /// send on the invocation's request stream; the client's answer comes
    /// out as an [`Output::Answer`]. Errors: an unknown invocation, a
    /// method not listed, a client that did not declare the capability, or
    /// a 2026-07-28 invocation (use [`Engine::input_required`]).
    pub fn ask(&mut self, invocation: u64, method: &str, params: &Value) -> Result<u64, Error> {
        let Some(p) = self.pending.get(&invocation) else {
            return Err(super::unknown_invocation(invocation));
        };
        if p.era == Era::Modern {
            return Err(Error::misused(
                Misuse::WrongEra,
                "",
                "a 2026-07-28 request cannot be sent server-to-client requests: answer it with input_required",
            ));
        }
        let Some(cap) = capability_for(method) else {
            return Err(Error::misused(
                Misuse::NotAClientRequest,
                "",
                format!("{method} is not a request a server may send a client"),
            ));
        };
        if p.capabilities.get(cap).is_none() {
            return Err(Error::misused(
                Misuse::Undeclared,
                "",
                format!("the client did not declare the {cap} capability"),
            ));
        }
        let (channel, to) = (p.channel, p.request_id.clone());
        let ask = self.next_ask;
        self.next_ask += 1;
        let mut m = Map::new();
        m.insert("jsonrpc".into(), Value::String("2.0".into()));
        m.insert("id".into(), Value::from(ask));
        m.insert("method".into(), Value::String(method.into()));
        if !params.is_null() {
            m.insert("params".into(), params.clone());
        }
        self.asks.insert(ask, super::Ask { invocation });
        self.outputs.push_back(Output::Request(ClientRequest {
            id: ask,
            invocation,
            channel,
            to,
            method: method.into(),
            message: Value::Object(m).to_string(),
        }));
        Ok(ask)
    }

    /// Answers a 2026-07-28 invocation with an `InputRequiredResult`
    /// (*Multi Round-Trip Requests*): `input_requests` maps keys of the
    /// host's choosing to `{"method", "params"}` of sampling, elicitation
    /// or roots requests, and `request_state` is echoed back by the client.
    /// The invocation ends; the client's retry arrives as a new invocation
    /// carrying `input_responses` and `request_state`.
    ///
    /// When the client did not declare a capability a request needs, the
    /// client gets `MissingRequiredClientCapabilityError` (-32021, HTTP
    /// 400) naming it in `data.requiredCapabilities`, and the call returns
    /// an error.
    pub fn input_required(
        &mut self,
        invocation: u64,
        input_requests: &Value,
        request_state: Option<&str>,
    ) -> Result<(), Error> {
        let Some(p) = self.pending.get(&invocation) else {
            return Err(super::unknown_invocation(invocation));
        };
        if p.era != Era::Modern {
            return Err(Error::misused(
                Misuse::WrongEra,
                "",
                "input_required is for 2026-07-28 requests; ask the client with ask()",
            ));
        }
        if p.kind == InvocationKind::Completion {
            return Err(Error::misused(
                Misuse::WrongKind,
                "",
                "completion/complete cannot answer with input_required",
            ));
        }
        let requests = match input_requests {
            Value::Null => None,
            Value::Object(m) => Some(m),
            _ => {
                return Err(Error::misused(
                    Misuse::BadParams,
                    "",
                    "inputRequests must be an object",
                ))
            }
        };
        if requests.is_none_or(Map::is_empty) && request_state.is_none() {
            return Err(Error::misused(
                Misuse::BadParams,
                "",
                "input_required needs inputRequests or a requestState",
            ));
        }
        let mut missing = Map::new();
        for (key, r) in requests.into_iter().flatten() {
            let method = r.get("method").and_then(Value::as_str).unwrap_or("");
            let Some(cap) = capability_for(method) else {
                return Err(Error::misused(
                    Misuse::NotAClientRequest,
                    format!("/{key}/method"),
                    format!("{method:?} is not a request a server may make of a client"),
                ));
            };
            if p.capabilities.get(cap).is_none() {
                missing.insert(cap.into(), json!({}));
            }
        }
        let Some(p) = self.drop_invocation(invocation) else {
            return Err(super::unknown_invocation(invocation));
        };
        let ctx = Ctx {
            channel: p.channel,
            id: p.request_id,
            era: Era::Modern,
            envelope: None,
            params: Value::Null,
        };
        if !missing.is_empty() {
            let names: Vec<String> = missing.keys().cloned().collect();
            self.reply_error(
                &ctx,
                WireCode::MissingClientCapability,
                &format!("Missing required client capability: {}", names.join(", ")),
                Some(json!({"requiredCapabilities": missing})),
            );
            return Err(Error::misused(
                Misuse::Undeclared,
                "",
                format!("the client did not declare {}", names.join(", ")),
            ));
        }
        let mut result = json!({"resultType": "input_required"});
        if let Some(r) = requests {
            result["inputRequests"] = Value::Object(r.clone());
        }
        if let Some(s) = request_state {
            result["requestState"] = Value::String(s.into());
            if !self.issued_states.iter().any(|i| i == s) {
                if self.issued_states.len() == super::ISSUED_STATES {
                    self.issued_states.pop_front();
                }
                self.issued_states.push_back(s.into());
            }
        }
        self.reply(&ctx, result);
        Ok(())
    }
}
