//! A request's line and headers checked before its body is read: the
//! headers as Node hands them over, the bearer token, the content and
//! accept types, CORS and its preflight, and what each failure answers.

use crate::engine::PROTOCOL_VERSIONS;

use super::*;

/// Compares two secrets in time that depends only on their lengths.
pub(super) fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    let mut diff = given.len() ^ expected.len();
    for (i, &e) in expected.iter().enumerate() {
        diff |= usize::from(given.get(i).copied().unwrap_or(!e) ^ e);
    }
    diff == 0
}

/// The credentials of an `Authorization: Bearer <token>` header (the
/// scheme without case, as RFC 9110 says).
pub(super) fn bearer(value: &str) -> Option<&str> {
    let value = value.trim();
    let (scheme, rest) = value.split_once([' ', '\t'])?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim_start_matches([' ', '\t']))
}

/// The media type of a `Content-Type` value, parameters dropped, lower case.
fn media_type(value: &str) -> String {
    value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Which of JSON and an event stream an `Accept` header admits.
fn accepts(value: &str) -> (bool, bool) {
    let mut json = false;
    let mut sse = false;
    for range in value.split(',') {
        match media_type(range).as_str() {
            "application/json" | "application/*" | "*/*" => json = true,
            "text/event-stream" => sse = true,
            "text/*" => sse = true,
            _ => {}
        }
    }
    (json, sse)
}

/// The parts of an HTTP request the rules look at.
#[derive(Debug, Clone, Default)]
pub struct HttpRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, without the query string.
    pub path: String,
    /// Headers, names in any case.
    pub headers: Vec<(String, String)>,
    /// Whether the `Mcp-Session-Id` header names a live session (ignored
    /// when there is no such header). [`Gate::request`] fills it in from
    /// its session table.
    pub session_known: bool,
}

/// Headers whose repeats are dropped (the first counts), as Node's
/// `req.headers` drops them; any other repeated header is joined with
/// `", "`, except those of [`REPEATS_REFUSED`]. Only the headers the rules
/// read are listed.
const FIRST_WINS: [&str; 2] = ["content-type", "content-length"];

/// Headers a request may carry once only: a repeat is kept as a second
/// entry, and the rules refuse the request with 400 (RFC 9112 § 3.2 for
/// `Host`; two `Authorization` headers leave it unclear who is asking).
const REPEATS_REFUSED: [&str; 2] = ["host", "authorization"];

/// The headers `wanted` picks from a request's header fields, in the order
/// they came, combined as the rules read them. Names come out in lower
/// case; a repeated header is combined as RFC 9110 § 5.3 says (joined with
/// `", "`), except `content-type` and `content-length`, whose first value
/// counts (as Node's `req.headers` keeps them), and `host` and
/// `authorization`, whose repeats stay separate entries for the rules to
/// refuse (the first is what [`HttpRequest::header`] gives).
///
/// ```
/// use mcp_switchboard::http::combine_headers;
/// let fields = [("Host", "localhost:3000"), ("Accept", "application/json"), ("accept", "text/event-stream"), ("X-Other", "1")];
/// let picked = combine_headers(fields, &|name| name.eq_ignore_ascii_case("host") || name.eq_ignore_ascii_case("accept"));
/// assert_eq!(picked, [
///     ("host".to_string(), "localhost:3000".to_string()),
///     ("accept".to_string(), "application/json, text/event-stream".to_string()),
/// ]);
/// ```
pub fn combine_headers<'a>(
    fields: impl IntoIterator<Item = (&'a str, &'a str)>,
    wanted: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, value) in fields {
        if !wanted(name) {
            continue;
        }
        let lower = name.to_ascii_lowercase();
        if !REPEATS_REFUSED.contains(&lower.as_str()) {
            if let Some((k, v)) = out.iter_mut().find(|(k, _)| *k == lower) {
                if !FIRST_WINS.contains(&k.as_str()) {
                    v.push_str(", ");
                    v.push_str(value);
                }
                continue;
            }
        }
        out.push((lower, value.to_string()));
    }
    out
}

impl HttpRequest {
    /// A header's value (first one, names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What to do with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[must_use]
pub enum HttpDecision {
    /// Answer with this status, headers and plain-text message. A
    /// `Connection: close` header among them means: close the connection
    /// once the answer is sent, without reading the body.
    Reject {
        /// HTTP status.
        status: u16,
        /// Extra headers (`Allow`, `WWW-Authenticate`, `Retry-After`,
        /// `Connection`).
        headers: Vec<(String, String)>,
        /// A one-line explanation.
        message: String,
    },
    /// Read the body (at most `max_body` bytes) and pass it on with
    /// [`check_body`].
    ReadBody {
        /// The limit to enforce while reading (see [`check_body_size`]).
        max_body: usize,
        /// Answer with an SSE stream (`text/event-stream`) rather than a
        /// JSON body: the client accepts only the stream.
        sse: bool,
        /// The client accepts an SSE stream: a reply may go out as one when
        /// notifications belong to the request (progress, log messages).
        stream: bool,
    },
    /// Open an SSE stream for server notifications on this session.
    OpenStream,
    /// End the session and answer 204.
    EndSession,
    /// Answer an `OPTIONS` request with this status and headers and no
    /// body: a CORS preflight from an origin the policy lists gets the
    /// `Access-Control-*` headers ([`cors_headers`]), any other `OPTIONS`
    /// only `Allow` (so a browser refuses the cross-origin request).
    Options {
        /// HTTP status (204).
        status: u16,
        /// The headers of the answer.
        headers: Vec<(String, String)>,
    },
}

pub(super) fn reject(status: u16, message: impl Into<String>) -> HttpDecision {
    HttpDecision::Reject {
        status,
        headers: Vec::new(),
        message: message.into(),
    }
}

/// A rejection after which the connection closes, so a body that was
/// announced is never read.
pub(super) fn reject_closing(status: u16, message: impl Into<String>) -> HttpDecision {
    HttpDecision::Reject {
        status,
        headers: vec![("Connection".into(), "close".into())],
        message: message.into(),
    }
}

/// The headers [`check_request`] reads, by their lower-case names: a host
/// need pass only these.
pub const HEADERS_READ: [&str; 13] = [
    "origin",
    "host",
    "authorization",
    "mcp-protocol-version",
    "mcp-session-id",
    "content-type",
    "accept",
    "content-length",
    "mcp-method",
    "mcp-name",
    "content-encoding",
    "access-control-request-method",
    "access-control-request-headers",
];

/// The methods the endpoint answers, as `Allow` and
/// `Access-Control-Allow-Methods` name them.
const METHODS: &str = "GET, POST, DELETE";

/// The request headers a page of an allowed origin may send, besides any
/// `Mcp-Param-*` it asks for (the 2026-07-28 parameter headers, named by
/// the tool's schema).
const CORS_REQUEST_HEADERS: [&str; 7] = [
    "Mcp-Session-Id",
    "Mcp-Protocol-Version",
    "Authorization",
    "Content-Type",
    "Last-Event-ID",
    "Mcp-Method",
    "Mcp-Name",
];

/// How long a browser may keep a preflight's answer, in seconds (short, so
/// that a changed origin list takes effect soon).
const CORS_MAX_AGE_S: u32 = 600;

/// Whether `origin` gets CORS headers: it is listed in
/// [`HttpPolicy::origins`] (or the list holds `*`) and is an `http(s)`
/// origin written in visible ASCII. Loopback origins the gate lets through
/// without a listing, and the opaque origin `null`, get none.
fn cors_origin(origin: &str, policy: &HttpPolicy) -> bool {
    let listed = policy.origins.iter().any(|o| {
        o == "*"
            || o.trim_end_matches('/')
                .eq_ignore_ascii_case(origin.trim_end_matches('/'))
    });
    listed && origin.bytes().all(|b| b.is_ascii_graphic()) && origin_host(origin).is_some()
}

/// The CORS headers for any answer to `req` (not a preflight): for a
/// request whose `Origin` the policy lists, `Access-Control-Allow-Origin`
/// (that origin), `Access-Control-Expose-Headers: Mcp-Session-Id` and
/// `Vary: Origin`; nothing for any other request. [`Gate::request`] gives
/// them in [`Verdict::cors`]; a host that uses [`check_request`] alone
/// adds these to its answer.
///
/// ```
/// use mcp_switchboard::http::{cors_headers, HttpPolicy, HttpRequest};
///
/// let policy = HttpPolicy::for_host("127.0.0.1", None)?.with_origins(vec!["https://app.example".into()]);
/// let from = |origin: &str| HttpRequest {
///     method: "POST".into(),
///     path: "/mcp".into(),
///     headers: vec![("Origin".into(), origin.into())],
///     ..HttpRequest::default()
/// };
/// let cors = cors_headers(&from("https://app.example"), &policy);
/// assert!(cors.contains(&("Access-Control-Allow-Origin".into(), "https://app.example".into())));
/// assert!(cors.contains(&("Access-Control-Expose-Headers".into(), "Mcp-Session-Id".into())));
/// // an origin the policy does not list gets none (the gate refuses it)
/// assert!(cors_headers(&from("https://evil.example"), &policy).is_empty());
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
#[must_use]
pub fn cors_headers(req: &HttpRequest, policy: &HttpPolicy) -> Vec<(String, String)> {
    match rule_header(req, "origin") {
        Some(origin) if cors_origin(origin, policy) => vec![
            ("Access-Control-Allow-Origin".into(), origin.into()),
            (
                "Access-Control-Expose-Headers".into(),
                "Mcp-Session-Id".into(),
            ),
            ("Vary".into(), "Origin".into()),
        ],
        _ => Vec::new(),
    }
}

/// The answer to an `OPTIONS` request whose origin and host passed: a
/// preflight from a listed origin gets the methods and headers it may use
/// (the fixed ones, and each `Mcp-Param-*` it asks for); anything else
/// only `Allow`.
fn options(req: &HttpRequest, policy: &HttpPolicy) -> HttpDecision {
    let allow = ("Allow".to_string(), format!("{METHODS}, OPTIONS"));
    let asked = rule_header(req, "access-control-request-method");
    let origin = rule_header(req, "origin").filter(|o| cors_origin(o, policy));
    let (Some(origin), Some(_)) = (origin, asked) else {
        return HttpDecision::Options {
            status: 204,
            headers: vec![allow],
        };
    };
    let mut names: Vec<String> = CORS_REQUEST_HEADERS.iter().map(|h| h.to_string()).collect();
    let params = rule_header(req, "access-control-request-headers")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|h| {
            h.len() > "mcp-param-".len()
                && h.len() <= 128
                && h.get(..10)
                    .is_some_and(|p| p.eq_ignore_ascii_case("mcp-param-"))
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
    for h in params.take(64) {
        if !names.iter().any(|n| n.eq_ignore_ascii_case(h)) {
            names.push(h.to_string());
        }
    }
    HttpDecision::Options {
        status: 204,
        headers: vec![
            ("Access-Control-Allow-Origin".into(), origin.into()),
            ("Access-Control-Allow-Methods".into(), METHODS.into()),
            ("Access-Control-Allow-Headers".into(), names.join(", ")),
            ("Access-Control-Max-Age".into(), CORS_MAX_AGE_S.to_string()),
            (
                "Vary".into(),
                "Origin, Access-Control-Request-Headers".into(),
            ),
            allow,
        ],
    }
}

/// A header the rules read: one of [`HEADERS_READ`], which hosts are told
/// to pass (checked in debug builds, so a rule cannot read another).
pub(super) fn rule_header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    debug_assert!(
        HEADERS_READ.contains(&name),
        "{name} is missing from HEADERS_READ"
    );
    req.header(name)
}

/// Decides on a request from its method, path and headers.
pub fn check_request(req: &HttpRequest, policy: &HttpPolicy) -> HttpDecision {
    check_request_known(req, req.session_known, policy)
}

/// [`check_request`] with `session_known` given apart (the gate's table
/// decides it; the request is not copied to change one field).
pub(super) fn check_request_known(
    req: &HttpRequest,
    session_known: bool,
    policy: &HttpPolicy,
) -> HttpDecision {
    let decision = check_headers(req, session_known, policy);
    // a POST refused before its body is read closes the connection: the
    // body (of any announced size) is never read
    match decision {
        HttpDecision::Reject {
            status,
            mut headers,
            message,
        } if req.method == "POST"
            && !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("connection")) =>
        {
            headers.push(("Connection".into(), "close".into()));
            HttpDecision::Reject {
                status,
                headers,
                message,
            }
        }
        d => d,
    }
}

/// How many times the request carries a header (names without case).
fn occurrences(req: &HttpRequest, name: &str) -> usize {
    req.headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case(name))
        .count()
}

fn check_headers(req: &HttpRequest, session_known: bool, policy: &HttpPolicy) -> HttpDecision {
    if REPEATS_REFUSED
        .iter()
        .any(|name| occurrences(req, name) > 1)
    {
        return reject_closing(
            400,
            "the request has more than one Host or Authorization header",
        );
    }
    if req.path != policy.path {
        return reject(
            404,
            format!("not found: the MCP endpoint is {}", policy.path),
        );
    }
    if let Some(origin) = rule_header(req, "origin") {
        if !origin_allowed(origin, policy) {
            return reject(403, format!("origin {origin} is not allowed"));
        }
    }
    if policy.loopback_host {
        if let Some(host) = rule_header(req, "host") {
            if !host_allowed(host) {
                return reject(403, format!("host {host} is not allowed: this gateway only answers requests addressed to localhost"));
            }
        }
    }
    // a preflight carries no credentials: it is answered before the token
    if req.method == "OPTIONS" {
        return options(req, policy);
    }
    if let Some(token) = &policy.token {
        let given = rule_header(req, "authorization").and_then(bearer);
        if !same_secret(given.unwrap_or("").as_bytes(), token.as_bytes()) {
            return HttpDecision::Reject {
                status: 401,
                headers: vec![("WWW-Authenticate".into(), "Bearer".into())],
                message: "a valid bearer token is required".into(),
            };
        }
    }
    if let Some(v) = rule_header(req, "mcp-protocol-version") {
        // a request with 2026-07-28 standard headers is owed a JSON-RPC
        // error naming the supported versions: [`check_message`] gives it
        // once the body is read
        let modern = rule_header(req, "mcp-method").is_some();
        if !PROTOCOL_VERSIONS.contains(&v) && v != "2025-03-26" && !modern {
            return reject(
                400,
                format!(
                    "unsupported MCP-Protocol-Version {v}; supported: {}",
                    PROTOCOL_VERSIONS.join(", ")
                ),
            );
        }
    }
    let has_session = rule_header(req, "mcp-session-id").is_some();
    if has_session && !session_known {
        return reject(404, "unknown or expired session: initialize again");
    }
    match req.method.as_str() {
        "POST" => {
            let ctype = media_type(rule_header(req, "content-type").unwrap_or(""));
            if ctype != "application/json" {
                return reject(415, "the body must be application/json");
            }
            if let Some(coding) = rule_header(req, "content-encoding") {
                let compressed = coding
                    .split(',')
                    .any(|c| !c.trim().is_empty() && !c.trim().eq_ignore_ascii_case("identity"));
                if compressed {
                    return reject(
                        415,
                        format!("the body must not be compressed: Content-Encoding {coding} is not accepted"),
                    );
                }
            }
            let mut sse = false;
            let mut may_stream = false;
            if let Some(accept) = rule_header(req, "accept") {
                let (json, stream) = accepts(accept);
                sse = !json && stream;
                may_stream = stream;
                if !(json || sse) {
                    return reject(406, "accept application/json or text/event-stream");
                }
            }
            if let Some(len) = rule_header(req, "content-length") {
                let declared = len.trim();
                let too_large = match declared.parse::<u64>() {
                    Ok(n) => n > policy.max_body as u64,
                    // all digits but past u64: too large; anything else is
                    // refused by the HTTP parser before it gets here
                    Err(_) => !declared.is_empty() && declared.bytes().all(|b| b.is_ascii_digit()),
                };
                if too_large {
                    return reject_closing(
                        413,
                        format!(
                            "the body is {declared} bytes; the limit is {}",
                            policy.max_body
                        ),
                    );
                }
            }
            HttpDecision::ReadBody {
                max_body: policy.max_body,
                sse,
                stream: may_stream,
            }
        }
        "GET" => {
            let (_, stream) = accepts(rule_header(req, "accept").unwrap_or(""));
            if !stream {
                return HttpDecision::Reject {
                    status: 405,
                    headers: vec![("Allow".into(), "POST, DELETE".into())],
                    message: "GET opens a text/event-stream; send Accept: text/event-stream".into(),
                };
            }
            if !has_session {
                return reject(400, "GET needs an Mcp-Session-Id");
            }
            HttpDecision::OpenStream
        }
        "DELETE" => {
            if !has_session {
                return reject(400, "DELETE needs an Mcp-Session-Id");
            }
            HttpDecision::EndSession
        }
        _ => HttpDecision::Reject {
            status: 405,
            headers: vec![("Allow".into(), format!("{METHODS}, OPTIONS"))],
            message: format!("method {} is not allowed", req.method),
        },
    }
}
