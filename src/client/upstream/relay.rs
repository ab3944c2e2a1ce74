//! Relaying: an engine's [`Invocation`](crate::engine::Invocation) made an upstream
//! call, and the server's questions during it routed to the client the
//! invocation came from, by that client's era.

use serde_json::{Map, Value};

use super::*;
use crate::engine::{InvocationKind, WireCode};

/// How a question of the server ([`ClientOutput::Ask`]) reaches an answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Relay {
    /// The call was made with [`UpstreamClient::call`], or the question
    /// belongs to no call, or the call's client cannot be asked: the host
    /// answers it ([`UpstreamClient::answer`], [`UpstreamClient::refuse`])
    /// or declines it ([`UpstreamClient::decline`]).
    Host,
    /// The call relays a 2025 client's invocation: ask that client with a
    /// request ([`Engine::ask`](crate::engine::Engine::ask)), then give its result
    /// to [`UpstreamClient::answer`], or [`UpstreamClient::decline`] with
    /// why it refused.
    Request,
    /// The call relays a 2026-07-28 client's invocation: the question is
    /// the entry `key` of the `inputRequests` the invocation is answered
    /// with ([`Engine::input_required`](crate::engine::Engine::input_required)),
    /// together with the other questions of the moment; the client's retry
    /// brings its `inputResponses`, for [`UpstreamClient::answer_inputs`].
    Input {
        /// The entry's key.
        key: String,
        /// The entry: `{"method", "params"}`.
        request: Value,
    },
}

/// The upstream call that carries an engine invocation of `kind` for
/// `name` (the name the source uses, as
/// [`Invocation::tool`](crate::engine::Invocation::tool) gives it) with
/// `arguments`: the method, and its params.
///
/// * a tool: `tools/call` with `name` and `arguments`;
/// * a resource: `resources/read` of `name` (or of `arguments.uri` when the
///   name is empty);
/// * a prompt: `prompts/get` with `name` and `arguments`;
/// * a completion: `completion/complete` with the request's params, its
///   `ref` naming the prompt or template as the source knows it.
///
/// ```
/// use mcp_switchboard::client::{upstream_request, CallKind};
/// use mcp_switchboard::engine::InvocationKind;
/// use serde_json::json;
///
/// let (kind, params) = upstream_request(InvocationKind::Completion, "assist",
///     &json!({"ref": {"type": "ref/prompt", "name": "hub__assist"}, "argument": {"name": "area", "value": "k"}}));
/// assert_eq!(kind, CallKind::Complete);
/// assert_eq!(params, json!({"ref": {"type": "ref/prompt", "name": "assist"},
///     "argument": {"name": "area", "value": "k"}}));
/// ```
pub fn upstream_request(kind: InvocationKind, name: &str, arguments: &Value) -> (CallKind, Value) {
    let args = || match arguments {
        Value::Object(m) => Value::Object(m.clone()),
        _ => Value::Object(Map::new()),
    };
    let mut params = Map::new();
    let kind = match kind {
        InvocationKind::Resource => {
            let uri = if name.is_empty() {
                arguments.get("uri").cloned().unwrap_or(Value::Null)
            } else {
                Value::String(name.to_string())
            };
            params.insert("uri".into(), uri);
            CallKind::ReadResource
        }
        InvocationKind::Prompt => {
            params.insert("name".into(), Value::String(name.to_string()));
            params.insert("arguments".into(), args());
            CallKind::GetPrompt
        }
        InvocationKind::Completion => {
            if let Value::Object(m) = arguments {
                params.clone_from(m);
            }
            let mut reference = match params.get("ref") {
                Some(Value::Object(r)) => r.clone(),
                _ => Map::new(),
            };
            // the reference as the source knows it
            let field = match reference.get("type").and_then(Value::as_str) {
                Some("ref/prompt") => Some("name"),
                Some("ref/resource") => Some("uri"),
                _ => None,
            };
            if let (Some(field), false) = (field, name.is_empty()) {
                reference.insert(field.into(), Value::String(name.to_string()));
            }
            params.insert("ref".into(), Value::Object(reference));
            CallKind::Complete
        }
        _ => {
            params.insert("name".into(), Value::String(name.to_string()));
            params.insert("arguments".into(), args());
            CallKind::Tool
        }
    };
    (kind, Value::Object(params))
}

impl UpstreamClient {
    /// Sends the call that carries an engine invocation
    /// ([`upstream_request`]) and returns its number, as
    /// [`UpstreamClient::call`] does. `client` is the era of the client
    /// the invocation came from ([`Invocation::era`](crate::engine::Invocation::era)),
    /// `None` when no client can be asked: the server's questions during
    /// the call come out with the [`Relay`] that reaches that client.
    pub fn relay(
        &mut self,
        kind: InvocationKind,
        name: &str,
        arguments: &Value,
        client: Option<Era>,
        now_ms: u64,
    ) -> Result<u64, Error> {
        let (kind, params) = upstream_request(kind, name, arguments);
        let call = self.call(kind, params, None, now_ms)?;
        if let Some(c) = self.calls.get_mut(&call) {
            c.client = client;
        }
        Ok(call)
    }

    /// Declines a question the call's client could not answer, or that no
    /// client can ([`Relay::Host`]): a JSON-RPC internal error (-32603)
    /// saying `reason`, or that the client cannot answer the question's
    /// method. A 2026-07-28 server's call then fails, as
    /// [`UpstreamClient::refuse`] says.
    pub fn decline(&mut self, ask: u64, reason: Option<&str>, now_ms: u64) -> Result<(), Error> {
        let method = self.asks.get(&ask).map(|a| a.method.clone());
        let message = match (reason, method) {
            (Some(r), _) => r.to_string(),
            (None, Some(m)) => format!("the client cannot answer {m}"),
            (None, None) => "the client cannot answer".to_string(),
        };
        self.refuse(ask, WireCode::InternalError.code(), &message, now_ms)
    }

    /// A 2026-07-28 client's retry brought `responses` (its
    /// `inputResponses`): each question of `call` routed to it
    /// ([`Relay::Input`]) is answered with the entry under its key, or
    /// refused (-32602, `no answer to <key>`) when there is none. Usage
    /// errors for a call that is not running or not an object of answers.
    pub fn answer_inputs(
        &mut self,
        call: u64,
        responses: &Value,
        now_ms: u64,
    ) -> Result<(), Error> {
        if !self.calls.contains_key(&call) {
            return Err(Error::misused(
                Misuse::NotOutstanding,
                "",
                format!("call {call} is not running"),
            ));
        }
        let empty = Map::new();
        let responses = match responses {
            Value::Object(m) => m,
            Value::Null => &empty,
            _ => {
                return Err(Error::misused(
                    Misuse::BadParams,
                    "",
                    "inputResponses must be an object",
                ))
            }
        };
        let keyed: Vec<(u64, String)> = self
            .asks
            .iter()
            .filter(|(_, a)| a.call == Some(call))
            .filter_map(|(id, a)| a.key.clone().map(|k| (*id, k)))
            .collect();
        for (ask, key) in keyed {
            // a refusal ends the call: the questions after it are gone
            let _ = match responses.get(&key) {
                Some(v) => self.answer(ask, v.clone(), now_ms),
                None => self.refuse(
                    ask,
                    WireCode::InvalidParams.code(),
                    &format!("no answer to {key}"),
                    now_ms,
                ),
            };
        }
        Ok(())
    }

    /// A question of the server, recorded and handed out with the
    /// [`Relay`] that reaches whoever answers it.
    pub(super) fn put_ask(
        &mut self,
        ask: u64,
        call: Option<u64>,
        how: AskHow,
        method: String,
        params: Value,
    ) {
        let client = call.and_then(|c| self.calls.get(&c)).and_then(|c| c.client);
        let relay = match client {
            Some(Era::Modern) => {
                let mut request = Map::new();
                request.insert("method".into(), Value::String(method.clone()));
                if !params.is_null() {
                    request.insert("params".into(), params.clone());
                }
                Relay::Input {
                    key: format!("upstream-{ask}"),
                    request: Value::Object(request),
                }
            }
            Some(_) => Relay::Request,
            None => Relay::Host,
        };
        let key = match &relay {
            Relay::Input { key, .. } => Some(key.clone()),
            _ => None,
        };
        self.asks.insert(
            ask,
            Ask {
                call,
                how,
                method: method.clone(),
                key,
            },
        );
        self.outputs.push_back(ClientOutput::Ask {
            ask,
            call,
            method,
            params,
            relay,
        });
    }
}
