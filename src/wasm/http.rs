//! The Streamable HTTP transport rules of the gateway.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{js_error, millis, to_js, usage};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** An exchange that ends without the engine: the body was too large, no session, a notification or response taken, a request cancelled, a session ended. */
export type HttpOutcome = "too-large" | "no-session" | "accepted" | "cancelled" | "ended";
/** Something the gate did, for the host's log (HttpGate.events()). */
export type GateEvent =
  | { type: "session-opened" | "session-expired" | "session-evicted" | "session-ended"; session: string }
  | { type: "auth-refused"; remote: string | null; failures: number }
  | { type: "login-limited"; remote: string; retryAfterS: number }
  | { type: "refused"; remote: string | null; status: number; message: string };
/** A request's headers: an object of lower-case name → value (Node's `req.headers`), or raw header lines, names and values in turn (Node's `req.rawHeaders.join("\n")`, which crosses into wasm in one piece; repeats read as `req.headers` reads them). */
export type HttpHeaders = { [name: string]: string | string[] | undefined } | string;
/** A remote address refused for its failed logins (HttpGate.lockouts): until when (milliseconds on the clock the gate is given) and the seconds left. */
export interface Lockout {
  remote: string;
  until: number;
  retryAfterS: number;
}
/** What the gate decided since it was made (HttpGate.stats). */
export interface GateStats {
  requests: number;
  refused: number;
  authFailures: number;
  loginLimited: number;
  sessionsOpened: number;
  sessionsExpired: number;
  sessionsEvicted: number;
  sessionsEnded: number;
  connectionsRefused: number;
  connectionsEvicted: number;
  streamsExpired: number;
  statelessRefused: number;
}
"#;
use crate::http::{
    BodyDecision, Gate, GateEvent, HttpDecision, HttpPolicy, Outcome, HEADERS_READ,
    MESSAGE_HEADERS_READ,
};

/// `HttpGate` options (defaults sized for a small hub).
#[derive(Deserialize, Default, Tsify)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct HttpGateOptions {
    /// Origins allowed besides the localhost ones.
    origins: Vec<String>,
    /// The largest request body, in bytes (default 1 MiB).
    max_body: Option<usize>,
    /// The MCP endpoint's path (default "/mcp").
    path: Option<String>,
    /// Most sessions at once (default 64); the least recently used idle one
    /// makes room.
    max_sessions: Option<usize>,
    /// A session idle this long expires (default 600000 ms).
    session_idle_ms: Option<u64>,
    /// Notification streams per session (default 2).
    max_streams: Option<usize>,
    /// Requests in progress per session (default 16).
    max_inflight: Option<usize>,
    /// Time for a request's headers (default 10000 ms).
    headers_timeout_ms: Option<u64>,
    /// Time for a whole request (default 30000 ms).
    request_timeout_ms: Option<u64>,
    /// Open connections at once (default 256).
    max_connections: Option<usize>,
    /// Failed logins (401) one remote address may make per `authWindowMs`
    /// before its requests get 429 (default 10).
    max_auth_failures: Option<u32>,
    /// The window of `maxAuthFailures`, and how long a locked-out address
    /// waits (default 60000 ms).
    auth_window_ms: Option<u64>,
    /// Connections one remote address may hold open at once (default 64).
    max_connections_per_address: Option<usize>,
    /// The longest an event stream stays open (default 1800000 ms);
    /// keepalives go every 25 s, or every half of this when it is shorter.
    stream_max_ms: Option<u64>,
}

/// The limits the host applies to its server.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct GateLimits {
    /// The largest request body, in bytes.
    max_body: usize,
    /// Time for a request's headers.
    headers_timeout_ms: u64,
    /// Time for a whole request.
    request_timeout_ms: u64,
    /// Open connections at once.
    max_connections: usize,
    /// A session idle this long expires.
    session_idle_ms: u64,
    /// Most sessions at once.
    max_sessions: usize,
    /// How often to write a keepalive comment on an open event stream.
    stream_keepalive_ms: u64,
    /// When to end an event stream (a subscriptions/listen stream with its
    /// response, `Engine.endSubscriptions(channel)`).
    stream_max_ms: u64,
}

/// What to do with a request.
#[derive(Serialize, Tsify)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum HttpAction {
    /// Answer with this status, headers and plain-text message.
    Reject {
        /// HTTP status.
        status: u16,
        /// Extra headers.
        headers: Vec<(String, String)>,
        /// A one-line explanation.
        message: String,
    },
    /// Read the body, at most `maxBody` bytes, then `checkBody` it.
    Read {
        /// The limit to enforce while reading.
        #[serde(rename = "maxBody")]
        max_body: usize,
        /// Answer with an SSE stream rather than a JSON body.
        sse: bool,
        /// The client accepts an SSE stream (for a reply that notifications
        /// belonging to the request go before).
        stream: bool,
    },
    /// Open an SSE stream for server notifications.
    Stream,
    /// End the session and answer 204.
    End,
    /// Answer an OPTIONS request (a CORS preflight) with this status and
    /// headers, and no body.
    Options {
        /// HTTP status.
        status: u16,
        /// The answer's headers.
        headers: Vec<(String, String)>,
    },
}

impl From<HttpDecision> for HttpAction {
    fn from(d: HttpDecision) -> Self {
        match d {
            HttpDecision::Reject {
                status,
                headers,
                message,
            } => HttpAction::Reject {
                status,
                headers,
                message,
            },
            HttpDecision::ReadBody {
                max_body,
                sse,
                stream,
            } => HttpAction::Read {
                max_body,
                sse,
                stream,
            },
            HttpDecision::OpenStream => HttpAction::Stream,
            HttpDecision::EndSession => HttpAction::End,
            HttpDecision::Options { status, headers } => HttpAction::Options { status, headers },
        }
    }
}

/// `HttpGate.request()`: an [`HttpAction`] with `close`, the sessions to
/// close now (expired or ended), and `cors`, headers to set on whatever
/// answers the request (CORS for an allowed origin; most often none).
#[derive(Serialize, Tsify)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum GateVerdict {
    /// Answer with this status, headers and plain-text message.
    Reject {
        /// HTTP status.
        status: u16,
        /// Extra headers.
        headers: Vec<(String, String)>,
        /// A one-line explanation.
        message: String,
        /// Sessions to close now.
        close: Vec<String>,
        /// Headers to set on the answer.
        cors: Vec<(String, String)>,
    },
    /// Read the body, at most `maxBody` bytes, then `checkBody` it.
    Read {
        /// The limit to enforce while reading.
        #[serde(rename = "maxBody")]
        max_body: usize,
        /// Answer with an SSE stream rather than a JSON body.
        sse: bool,
        /// The client accepts an SSE stream (for a reply that notifications
        /// belonging to the request go before).
        stream: bool,
        /// Sessions to close now.
        close: Vec<String>,
        /// Headers to set on the answer.
        cors: Vec<(String, String)>,
    },
    /// Open an SSE stream for server notifications.
    Stream {
        /// Sessions to close now.
        close: Vec<String>,
        /// Headers to set on the answer.
        cors: Vec<(String, String)>,
    },
    /// End the session and answer 204.
    End {
        /// Sessions to close now.
        close: Vec<String>,
        /// Headers to set on the answer.
        cors: Vec<(String, String)>,
    },
    /// Answer an OPTIONS request (a CORS preflight) with this status and
    /// headers, and no body.
    Options {
        /// HTTP status.
        status: u16,
        /// The answer's headers.
        headers: Vec<(String, String)>,
        /// Sessions to close now.
        close: Vec<String>,
        /// Headers to set on the answer (none: `headers` has them).
        cors: Vec<(String, String)>,
    },
}

impl GateVerdict {
    /// `d` with the sessions to close and the headers to add.
    fn new(d: HttpDecision, close: Vec<String>, cors: Vec<(String, String)>) -> Self {
        match d {
            HttpDecision::Reject {
                status,
                headers,
                message,
            } => GateVerdict::Reject {
                status,
                headers,
                message,
                close,
                cors,
            },
            HttpDecision::ReadBody {
                max_body,
                sse,
                stream,
            } => GateVerdict::Read {
                max_body,
                sse,
                stream,
                close,
                cors,
            },
            HttpDecision::OpenStream => GateVerdict::Stream { close, cors },
            HttpDecision::EndSession => GateVerdict::End { close, cors },
            HttpDecision::Options { status, headers } => GateVerdict::Options {
                status,
                headers,
                close,
                cors,
            },
        }
    }
}

/// `HttpGate.openSession()`: the session entered (closing `close` to make
/// room), or a rejection (503 when every session is busy).
#[derive(Serialize, Tsify)]
#[serde(untagged)]
pub enum OpenVerdict {
    /// The session is in the table.
    Open {
        /// Always "open".
        action: OpenTag,
        /// Sessions to close to make room.
        close: Vec<String>,
    },
    /// The session was refused.
    Refused(HttpAction),
}

/// The tag of [`OpenVerdict::Open`].
#[derive(Serialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum OpenTag {
    /// The session is open.
    Open,
}

/// What a POST body is: make a session first, answer 202, reply with the
/// engine's output, or refuse.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "kebab-case")]
pub enum BodyAction {
    /// Past the size limit.
    TooLarge,
    /// An initialize without a session.
    NewSession,
    /// A request: the engine replies.
    Reply,
    /// A notification or a response: answer 202.
    Accepted,
    /// No session and not an initialize.
    NoSession,
}

/// The Streamable HTTP transport rules: who may talk to the gateway, what
/// each request means, and the session table (see `http::Gate`).
#[wasm_bindgen(js_name = HttpGate)]
pub struct JsHttpGate {
    gate: Gate,
    /// `HEADERS_READ` as JS strings, made once (not per request).
    header_names: Vec<(&'static str, JsValue)>,
    /// `MESSAGE_HEADERS_READ` as JS strings, made once.
    message_header_names: Vec<(&'static str, JsValue)>,
    /// The verdicts "read the body" that close no session (nearly every
    /// request's), made once per limit and flags and handed out frozen.
    read_verdicts: Vec<(usize, bool, bool, JsValue)>,
}

/// JSON text written field by field (for answers parsed once in JS).
struct Fields(String);

impl Fields {
    fn new(open: char) -> Fields {
        Fields(String::from(open))
    }

    /// A comma unless the object or array just began.
    fn sep(&mut self) {
        if !self.0.ends_with(['{', '[']) {
            self.0.push(',');
        }
    }

    fn open(&mut self, c: char) {
        self.sep();
        self.0.push(c);
    }

    fn close(&mut self, c: char) {
        self.0.push(c);
    }

    fn key(&mut self, k: &str) {
        self.sep();
        self.0.push('"');
        self.0.push_str(k);
        self.0.push_str("\":");
    }

    fn text(&mut self, k: &str, v: &str) {
        self.key(k);
        self.0.push_str(&Value::from(v).to_string());
    }

    fn number(&mut self, k: &str, v: u64) {
        self.key(k);
        self.0.push_str(&v.to_string());
    }

    fn remote(&mut self, remote: Option<&str>) {
        match remote {
            Some(r) => self.text("remote", r),
            None => {
                self.key("remote");
                self.0.push_str("null");
            }
        }
    }
}

/// Header names as JS strings, with their Rust names.
fn js_names(names: &[&'static str]) -> Vec<(&'static str, JsValue)> {
    names.iter().map(|h| (*h, JsValue::from_str(h))).collect()
}

/// Header fields from raw header text: Node's `req.rawHeaders` joined with
/// `"\n"` (names and values in turn, one per line; neither holds a line
/// feed, which Node's parser guarantees), which crosses into wasm in one
/// piece. A last name with no value is left out.
pub(crate) fn raw_fields(raw: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut lines = raw.split('\n');
    std::iter::from_fn(move || Some((lines.next()?, lines.next()?)))
}

/// The headers named in `names` from a JS object of lower-case header name
/// → value (as Node gives them): a string, or (rarely) an array of them,
/// of which the first counts; or from raw header text ([`raw_fields`],
/// combined by `http::combine_headers`).
fn read_headers(
    headers: &JsValue,
    names: &[(&'static str, JsValue)],
) -> Result<Vec<(String, String)>, JsValue> {
    if let Some(raw) = headers.as_string() {
        let wanted = |n: &str| names.iter().any(|(k, _)| k.eq_ignore_ascii_case(n));
        return Ok(crate::http::combine_headers(raw_fields(&raw), &wanted));
    }
    let mut list = Vec::new();
    if headers.is_object() {
        for (name, key) in names {
            let v = js_sys::Reflect::get(headers, key)?;
            if v.is_undefined() {
                continue;
            }
            if js_sys::Array::is_array(&v) && matches!(*name, "host" | "authorization") {
                // a repeat the rules refuse: every value is kept
                for item in js_sys::Array::from(&v).iter() {
                    list.push(((*name).to_string(), item.as_string().unwrap_or_default()));
                }
                continue;
            }
            let v = v.as_string().or_else(|| {
                js_sys::Array::is_array(&v)
                    .then(|| js_sys::Array::from(&v).get(0).as_string())
                    .flatten()
            });
            if let Some(v) = v {
                list.push(((*name).to_string(), v));
            }
        }
    } else if !headers.is_undefined() && !headers.is_null() {
        return Err(usage(HEADERS_USAGE));
    }
    Ok(list)
}

/// What a `headers` argument must be.
pub(crate) const HEADERS_USAGE: &str =
    "headers must be an object of header name → value, or raw header lines (name and value in turn)";

/// `HttpGate.checkMessage`'s decision, and the message as read for it.
pub(crate) fn read_message(
    headers: &JsValue,
    names: &[(&'static str, JsValue)],
    body: &str,
    has_session: bool,
    max_body: usize,
) -> Result<(BodyDecision, Option<crate::engine::wire::Incoming>), JsValue> {
    // only the headers the body checks read cross into wasm
    let req = crate::http::HttpRequest {
        method: "POST".into(),
        path: String::new(),
        headers: read_headers(headers, names)?,
        session_known: has_session,
    };
    Ok(crate::http::check_message_read(
        &req,
        body,
        has_session,
        max_body,
    ))
}

/// `MESSAGE_HEADERS_READ` as JS strings, with their Rust names.
pub(crate) fn message_header_names() -> Vec<(&'static str, JsValue)> {
    js_names(&MESSAGE_HEADERS_READ)
}

#[wasm_bindgen(js_class = HttpGate)]
impl JsHttpGate {
    /// Rules for a gateway bound to `host`; throws when the host is not a
    /// loopback address and no token is given.
    #[wasm_bindgen(constructor)]
    pub fn new(
        host: &str,
        token: Option<String>,
        options: Option<Ts<HttpGateOptions>>,
    ) -> Result<JsHttpGate, JsValue> {
        let o: HttpGateOptions = super::options(options, "gate options")?;
        let mut policy = HttpPolicy::for_host(host, token)
            .map_err(|e| js_error(&e))?
            .with_origins(o.origins);
        if let Some(m) = o.max_body {
            policy = policy.with_max_body(m);
        }
        if let Some(p) = o.path {
            policy = policy.with_path(p);
        }
        if let Some(n) = o.max_sessions {
            policy = policy.with_max_sessions(n);
        }
        if let Some(ms) = o.session_idle_ms {
            policy = policy.with_session_idle_ms(ms);
        }
        if let Some(n) = o.max_streams {
            policy = policy.with_max_streams(n);
        }
        if let Some(n) = o.max_inflight {
            policy = policy.with_max_inflight(n);
        }
        let headers = o.headers_timeout_ms.unwrap_or(policy.headers_timeout_ms);
        let request = o.request_timeout_ms.unwrap_or(policy.request_timeout_ms);
        policy = policy.with_timeouts(headers, request);
        if let Some(n) = o.max_connections {
            policy = policy.with_max_connections(n);
        }
        let failures = o.max_auth_failures.unwrap_or(policy.max_auth_failures);
        let window = o.auth_window_ms.unwrap_or(policy.auth_window_ms);
        policy = policy.with_auth_limit(failures, window);
        if let Some(n) = o.max_connections_per_address {
            policy = policy.with_max_connections_per_address(n);
        }
        if let Some(max) = o.stream_max_ms {
            let keepalive = policy.stream_keepalive_ms.min(max / 2);
            policy = policy.with_stream_lifetime(keepalive, max);
        }
        Ok(JsHttpGate {
            gate: Gate::new(policy),
            header_names: js_names(&HEADERS_READ),
            message_header_names: message_header_names(),
            read_verdicts: Vec::new(),
        })
    }

    /// The request as the rules see it: only the headers they read cross
    /// into wasm, looked up by their lower-case names (as Node gives them).
    fn http_request(
        &self,
        method: &str,
        path: &str,
        headers: &JsValue,
        session_known: bool,
    ) -> Result<crate::http::HttpRequest, JsValue> {
        let list = read_headers(headers, &self.header_names)?;
        Ok(crate::http::HttpRequest {
            method: method.to_ascii_uppercase(),
            path: path.split('?').next().unwrap_or("").to_string(),
            headers: list,
            session_known,
        })
    }

    /// Decides on a request from its method, path and headers (an object of
    /// lower-case header name → value, as Node gives them, or raw header
    /// lines: `HttpHeaders`), without the
    /// session table: `sessionKnown` says whether its session is live.
    #[wasm_bindgen(js_name = checkRequest, unchecked_return_type = "HttpAction")]
    pub fn check_request(
        &self,
        method: &str,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "HttpHeaders")] headers: JsValue,
        session_known: bool,
    ) -> Result<JsValue, JsValue> {
        let req = self.http_request(method, path, &headers, session_known)?;
        to_js(&HttpAction::from(crate::http::check_request(
            &req,
            self.gate.policy(),
        )))
    }

    /// Decides on a request with the session table, at time `nowMs`: the
    /// action, and `close`, the sessions to close now (expired or ended).
    /// A POST in a session is in progress until `finished`, a stream
    /// until `ended`. With `remote` (the client's address) failed
    /// logins are counted per address, and an address past
    /// `maxAuthFailures` is refused with 429 and `Retry-After`. With
    /// `connection` (the number given to `connectionOpened`), that
    /// connection has sent a whole request: it no longer gives way to new
    /// ones.
    #[wasm_bindgen(unchecked_return_type = "GateVerdict")]
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "HttpHeaders")] headers: JsValue,
        now_ms: f64,
        remote: Option<String>,
        connection: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        let req = self.http_request(method, path, &headers, false)?;
        let now = millis(now_ms);
        let verdict = self.gate.request_from(&req, remote.as_deref(), now);
        if let Some(c) = connection {
            self.gate.connection_request(millis(c));
        }
        let read = match verdict.decision {
            HttpDecision::ReadBody {
                max_body,
                sse,
                stream,
            } if verdict.close.is_empty() && verdict.cors.is_empty() => (max_body, sse, stream),
            decision => return to_js(&GateVerdict::new(decision, verdict.close, verdict.cors)),
        };
        if let Some((.., cached)) = self
            .read_verdicts
            .iter()
            .find(|(m, s, t, _)| (*m, *s, *t) == read)
        {
            return Ok(cached.clone());
        }
        let (max_body, sse, stream) = read;
        let made = super::frozen(to_js(&GateVerdict::Read {
            max_body,
            sse,
            stream,
            close: Vec::new(),
            cors: Vec::new(),
        })?);
        self.read_verdicts
            .push((max_body, sse, stream, made.clone()));
        Ok(made)
    }

    /// Changes the bearer token from the next request on; sessions stay.
    /// Throws (code "usage") when `null` would leave a gateway that is not
    /// bound to a loopback address without one.
    #[wasm_bindgen(js_name = setToken)]
    pub fn set_token(&mut self, token: Option<String>) -> Result<(), JsValue> {
        self.gate.set_token(token).map_err(|e| js_error(&e))
    }

    /// Changes the browser origins allowed besides loopback ones.
    #[wasm_bindgen(js_name = setOrigins)]
    pub fn set_origins(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[]")] origins: JsValue,
    ) -> Result<(), JsValue> {
        let bad = || usage("origins must be an array of strings");
        let list: js_sys::Array = origins.dyn_into().map_err(|_| bad())?;
        let origins: Option<Vec<String>> = list.iter().map(|v| v.as_string()).collect();
        self.gate.set_origins(origins.ok_or_else(bad)?);
        Ok(())
    }

    /// Whether requests must carry a bearer token.
    #[wasm_bindgen(getter, js_name = hasToken)]
    pub fn has_token(&self) -> bool {
        self.gate.policy().token.is_some()
    }

    /// The events since the last call, oldest first (at most the last 256).
    #[wasm_bindgen(unchecked_return_type = "GateEvent[]")]
    pub fn events(&mut self) -> Result<JsValue, JsValue> {
        if !self.gate.has_events() {
            return Ok(js_sys::Array::new().into());
        }
        // written as JSON text, parsed once
        let mut t = Fields::new('[');
        while let Some(e) = self.gate.poll_event() {
            t.open('{');
            let (kind, session) = match &e {
                GateEvent::SessionOpened { id } => ("session-opened", Some(id)),
                GateEvent::SessionExpired { id } => ("session-expired", Some(id)),
                GateEvent::SessionEvicted { id } => ("session-evicted", Some(id)),
                GateEvent::SessionEnded { id } => ("session-ended", Some(id)),
                GateEvent::AuthRefused { .. } => ("auth-refused", None),
                GateEvent::LoginLimited { .. } => ("login-limited", None),
                _ => ("refused", None),
            };
            t.text("type", kind);
            if let Some(id) = session {
                t.text("session", id);
            }
            match e {
                GateEvent::AuthRefused { remote, failures } => {
                    t.remote(remote.as_deref());
                    t.number("failures", u64::from(failures));
                }
                GateEvent::LoginLimited {
                    remote,
                    retry_after_s,
                } => {
                    t.text("remote", &remote);
                    t.number("retryAfterS", retry_after_s);
                }
                GateEvent::Refused {
                    remote,
                    status,
                    message,
                } => {
                    t.remote(remote.as_deref());
                    t.number("status", u64::from(status));
                    t.text("message", &message);
                }
                _ => {}
            }
            t.close('}');
        }
        t.close(']');
        js_sys::JSON::parse(&t.0)
    }

    /// What the gate decided since it was made.
    #[wasm_bindgen(getter, unchecked_return_type = "GateStats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        let s = self.gate.stats();
        let mut t = Fields::new('{');
        for (k, v) in [
            ("requests", s.requests),
            ("refused", s.refused),
            ("authFailures", s.auth_failures),
            ("loginLimited", s.login_limited),
            ("sessionsOpened", s.sessions_opened),
            ("sessionsExpired", s.sessions_expired),
            ("sessionsEvicted", s.sessions_evicted),
            ("sessionsEnded", s.sessions_ended),
            ("connectionsRefused", s.connections_refused),
            ("connectionsEvicted", s.connections_evicted),
            ("streamsExpired", s.streams_expired),
            ("statelessRefused", s.stateless_refused),
        ] {
            t.number(k, v);
        }
        t.close('}');
        js_sys::JSON::parse(&t.0)
    }

    /// The remote addresses refused for their failed logins at `nowMs`,
    /// and until when, soonest free first (the gate keeps the failed-login
    /// table; a host shows this list rather than keeping its own).
    #[wasm_bindgen(unchecked_return_type = "Lockout[]")]
    pub fn lockouts(&self, now_ms: f64) -> Result<JsValue, JsValue> {
        let mut t = Fields::new('[');
        for l in self.gate.lockouts(millis(now_ms)) {
            t.open('{');
            t.text("remote", &l.remote);
            t.number("until", l.until_ms);
            t.number("retryAfterS", l.retry_after_s);
            t.close('}');
        }
        t.close(']');
        js_sys::JSON::parse(&t.0)
    }

    /// Enters a new session (an id the host made up) for an `initialize`:
    /// `{action: "open", close}` with the sessions to close to make room,
    /// or a rejection (503 when every session is busy).
    #[wasm_bindgen(js_name = openSession, unchecked_return_type = "OpenVerdict")]
    pub fn open_session(&mut self, id: &str, now_ms: f64) -> Result<JsValue, JsValue> {
        match self.gate.open_session(id, millis(now_ms)) {
            Ok(close) => to_js(&OpenVerdict::Open {
                action: OpenTag::Open,
                close,
            }),
            Err(d) => to_js(&OpenVerdict::Refused(d.into())),
        }
    }

    /// A request's exchange on session `id` ended.
    pub fn finished(&mut self, id: &str, now_ms: f64) {
        self.gate.finished(id, millis(now_ms));
    }

    /// A notification stream of session `id` closed.
    #[wasm_bindgen(js_name = streamClosed)]
    pub fn stream_closed(&mut self, id: &str, now_ms: f64) {
        self.gate.stream_closed(id, millis(now_ms));
    }

    /// Forgets a session the host closed by itself.
    pub fn remove(&mut self, id: &str) -> bool {
        self.gate.remove(id)
    }

    /// The sessions expired by `nowMs`, removed from the table: close them.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn sweep(&mut self, now_ms: f64) -> Result<JsValue, JsValue> {
        to_js(&self.gate.sweep(millis(now_ms)))
    }

    /// Sessions in the table.
    #[wasm_bindgen(getter)]
    pub fn sessions(&self) -> usize {
        self.gate.len()
    }

    /// The limits the host applies to its server (timeouts, connections).
    #[wasm_bindgen(getter, unchecked_return_type = "GateLimits")]
    pub fn limits(&self) -> Result<JsValue, JsValue> {
        let p = self.gate.policy();
        to_js(&GateLimits {
            max_body: p.max_body,
            headers_timeout_ms: p.headers_timeout_ms,
            request_timeout_ms: p.request_timeout_ms,
            max_connections: p.max_connections,
            session_idle_ms: p.session_idle_ms,
            max_sessions: p.max_sessions,
            stream_keepalive_ms: p.stream_keepalive_ms,
            stream_max_ms: p.stream_max_ms,
        })
    }

    /// A connection opened (`id`: the host's number for it, from 1;
    /// `remote`: its address): the connection to close now, or 0: past
    /// `maxConnections` or `maxConnectionsPerAddress` the oldest that has
    /// not sent a whole request yet makes room, and when none has, the new
    /// one itself is refused. Pass the number to `request()`, and report
    /// every close with `connectionClosed`.
    #[wasm_bindgen(js_name = connectionOpened)]
    pub fn connection_opened(&mut self, id: f64, remote: Option<String>) -> f64 {
        let v = self.gate.connection_opened(millis(id), remote.as_deref());
        match (v.accept, v.close) {
            (false, _) => id,
            (true, Some(c)) => c as f64,
            (true, None) => 0.0,
        }
    }

    /// Connection `id` closed.
    #[wasm_bindgen(js_name = connectionClosed)]
    pub fn connection_closed(&mut self, id: f64) {
        self.gate.connection_closed(millis(id));
    }

    /// A 2026-07-28 request without a session (its `checkMessage` with
    /// `channel` gave "stateless") is over: answered, or its stream closed.
    #[wasm_bindgen(js_name = statelessEnded)]
    pub fn stateless_ended(&mut self, channel: f64) {
        self.gate.stateless_ended(millis(channel));
    }

    /// Decides on a POST body once read.
    #[wasm_bindgen(js_name = checkBody, unchecked_return_type = "BodyAction")]
    pub fn check_body(&self, body: &str, has_session: bool) -> Result<JsValue, JsValue> {
        let action = match crate::http::check_body(body, has_session, self.gate.policy()) {
            BodyDecision::TooLarge => BodyAction::TooLarge,
            BodyDecision::NewSession => BodyAction::NewSession,
            BodyDecision::Message {
                expects_reply: true,
            } => BodyAction::Reply,
            BodyDecision::Message {
                expects_reply: false,
            } => BodyAction::Accepted,
            BodyDecision::NoSession => BodyAction::NoSession,
            // only check_message gives the 2026-07-28 decisions
            _ => BodyAction::Reply,
        };
        to_js(&action)
    }

    /// Decides on a POST body once read, with the request's headers (the
    /// 2026-07-28 header checks): see `MessageAction`. With `channel` (the
    /// host's number for a request without a session), a 2026-07-28
    /// request to serve is counted against the limits of requests and
    /// subscriptions/listen streams without a session (refused with 503
    /// past them) until `statelessEnded(channel)`.
    #[wasm_bindgen(js_name = checkMessage, unchecked_return_type = "MessageAction")]
    pub fn check_message(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "HttpHeaders")] headers: JsValue,
        body: &str,
        has_session: bool,
        channel: Option<f64>,
    ) -> Result<JsValue, JsValue> {
        let (decision, incoming) = read_message(
            &headers,
            &self.message_header_names,
            body,
            has_session,
            self.gate.policy().max_body,
        )?;
        let counted = match (&decision, channel, &incoming) {
            (
                BodyDecision::Stateless {
                    expects_reply: true,
                },
                Some(channel),
                Some(crate::engine::wire::Incoming::Request { id, method, .. }),
            ) => {
                let listen = method == "subscriptions/listen";
                self.gate
                    .stateless_started(millis(channel), listen, id)
                    .err()
            }
            _ => None,
        };
        super::http_modern::message_action(counted.unwrap_or(decision))
    }

    /// Checks the bytes of a body read so far: a 413 rejection past the
    /// limit (closing the connection), `null` otherwise.
    #[wasm_bindgen(js_name = checkBodySize, unchecked_return_type = "HttpAction | null")]
    pub fn check_body_size(&self, bytes: f64) -> Result<JsValue, JsValue> {
        match crate::http::check_body_size(millis(bytes) as usize, self.gate.policy()) {
            Some(d) => to_js(&HttpAction::from(d)),
            None => Ok(JsValue::NULL),
        }
    }

    /// The status and message that end an exchange without the engine.
    #[wasm_bindgen(unchecked_return_type = "{ status: number; message: string }")]
    pub fn outcome(
        &self,
        #[wasm_bindgen(unchecked_param_type = "HttpOutcome")] outcome: &str,
    ) -> Result<JsValue, JsValue> {
        let o = match outcome {
            "too-large" => Outcome::TooLarge,
            "no-session" => Outcome::NoSession,
            "accepted" => Outcome::Accepted,
            "cancelled" => Outcome::Cancelled,
            "ended" => Outcome::Ended,
            other => return Err(usage(&format!("unknown outcome {other:?}"))),
        };
        let (status, message) = crate::http::outcome_status(o, self.gate.policy());
        to_js(&serde_json::json!({"status": status, "message": message}))
    }
}
