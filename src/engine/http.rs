//! Streamable HTTP transport rules, sans I/O: the gateway hands over the
//! request line and headers, and gets back what to do — reject with a
//! status, feed the body to the engine, open a notification stream, or end
//! the session. [`Gate`] adds the session table: which sessions exist,
//! when an idle one expires, which one gives way when the table is full,
//! how many streams and requests each may hold. The JS shell only moves
//! bytes and passes the time in.
//!
//! Origins and hosts are parsed and compared exactly (`http://127.0.0.1.nip.io`
//! is not a loopback origin), the bearer token is compared in constant time
//! with the scheme read without case, and the content type must be exactly
//! `application/json` (parameters aside).

use foldhash::{HashMap, HashMapExt};
use std::collections::VecDeque;
use std::net::{Ipv4Addr, Ipv6Addr};

use crate::client::Slots;
use crate::engine::PROTOCOL_VERSIONS;
use crate::error::{Error, ErrorKind};

/// Who may talk to the gateway, and how much each client may hold.
///
/// Built with [`HttpPolicy::for_host`] and the `with_*` methods; the
/// defaults are sized for a small hub (see the README's limits table).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpPolicy {
    /// Origins allowed besides loopback ones (`http://localhost:*`,
    /// `http://127.0.0.1:*`, `http://[::1]:*`), compared exactly (without
    /// case); `*` allows every origin.
    pub origins: Vec<String>,
    /// The bearer token every request must carry, when set.
    pub token: Option<String>,
    /// Largest request body, in bytes (default 1 MiB).
    pub max_body: usize,
    /// The endpoint path.
    pub path: String,
    /// Whether the `Host` header must name a loopback address (DNS-rebinding
    /// protection); on for gateways bound to a loopback address.
    pub loopback_host: bool,
    /// Most sessions at once (default 64). When the table is full, a new
    /// session takes the place of the least recently used idle one (or
    /// else of one that only holds event streams); when every session has
    /// a request in progress, `initialize` is refused with 503.
    pub max_sessions: usize,
    /// A session without requests for this long expires (default 10
    /// minutes), even while it holds event streams (they close with it);
    /// its id then gets 404, and the client initializes again.
    pub session_idle_ms: u64,
    /// Notification streams (GET) open at once per session (default 2);
    /// more are refused with 409.
    pub max_streams: usize,
    /// Requests in progress at once per session (default 16); more are
    /// refused with 429.
    pub max_inflight: usize,
    /// Time allowed for a request's headers to arrive (default 10 s).
    pub headers_timeout_ms: u64,
    /// Time allowed for a whole request, body included (default 30 s).
    pub request_timeout_ms: u64,
    /// Most connections the server holds open at once (default 256); more
    /// are closed as they arrive.
    pub max_connections: usize,
    /// Failed logins (401) one remote address may make within
    /// [`HttpPolicy::auth_window_ms`] (default 10); past that, every request
    /// from it is refused with 429 and `Retry-After` until the window ends.
    /// Applies when the host passes the remote address
    /// ([`Gate::request_from`]).
    pub max_auth_failures: u32,
    /// The window of [`HttpPolicy::max_auth_failures`], in milliseconds
    /// (default 60 s); a locked-out address waits this long after its last
    /// counted failure.
    pub auth_window_ms: u64,
    /// Connections one remote address may hold open at once (default 64;
    /// see [`Gate::connection_opened`]).
    pub max_connections_per_address: usize,
    /// How often the host writes a keepalive comment on an open event
    /// stream (a session's GET stream, a 2026-07-28 `subscriptions/listen`
    /// stream), in milliseconds (default 25 s).
    pub stream_keepalive_ms: u64,
    /// The longest an event stream stays open, in milliseconds (default 30
    /// minutes): the host then ends it (a `subscriptions/listen` stream
    /// with its response), and the client opens another when it wants
    /// one. A session's streams also end with the session, which expires
    /// after [`HttpPolicy::session_idle_ms`] without requests.
    pub stream_max_ms: u64,
    /// 2026-07-28 `subscriptions/listen` streams open at once without a
    /// session (default 32); more are refused with 503.
    pub max_stateless_streams: usize,
    /// Other 2026-07-28 requests in progress at once without a session
    /// (default 64); more are refused with 503.
    pub max_stateless_inflight: usize,
}

/// Default [`HttpPolicy::max_body`].
pub const DEFAULT_MAX_BODY: usize = 1024 * 1024;

impl HttpPolicy {
    /// The policy for a gateway bound to `host`: a bearer token is required
    /// whenever the host is not a loopback address.
    pub fn for_host(host: &str, token: Option<String>) -> Result<HttpPolicy, Error> {
        let token = token.filter(|t| !t.is_empty());
        let loopback = is_loopback(host);
        if !loopback && token.is_none() {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                format!("binding {host} makes the gateway reachable from other machines: give a bearer token (--token)"),
            ));
        }
        Ok(HttpPolicy {
            origins: Vec::new(),
            token,
            max_body: DEFAULT_MAX_BODY,
            path: "/mcp".into(),
            loopback_host: loopback,
            max_sessions: 64,
            session_idle_ms: 10 * 60 * 1000,
            max_streams: 2,
            max_inflight: 16,
            headers_timeout_ms: 10_000,
            request_timeout_ms: 30_000,
            max_connections: 256,
            max_auth_failures: 10,
            auth_window_ms: 60_000,
            max_connections_per_address: 64,
            stream_keepalive_ms: 25_000,
            stream_max_ms: 30 * 60 * 1000,
            max_stateless_streams: 32,
            max_stateless_inflight: 64,
        })
    }

    /// With these browser origins allowed besides loopback ones.
    pub fn with_origins(mut self, origins: Vec<String>) -> HttpPolicy {
        self.origins = origins;
        self
    }

    /// With this body limit, in bytes.
    pub fn with_max_body(mut self, bytes: usize) -> HttpPolicy {
        self.max_body = bytes;
        self
    }

    /// With this endpoint path.
    pub fn with_path(mut self, path: impl Into<String>) -> HttpPolicy {
        self.path = path.into();
        self
    }

    /// With at most `n` sessions (at least 1).
    pub fn with_max_sessions(mut self, n: usize) -> HttpPolicy {
        self.max_sessions = n.max(1);
        self
    }

    /// With sessions expiring after `ms` milliseconds without activity.
    pub fn with_session_idle_ms(mut self, ms: u64) -> HttpPolicy {
        self.session_idle_ms = ms;
        self
    }

    /// With at most `n` notification streams per session.
    pub fn with_max_streams(mut self, n: usize) -> HttpPolicy {
        self.max_streams = n;
        self
    }

    /// With at most `n` requests in progress per session (at least 1).
    pub fn with_max_inflight(mut self, n: usize) -> HttpPolicy {
        self.max_inflight = n.max(1);
        self
    }

    /// With these header and whole-request timeouts, in milliseconds (the
    /// request timeout is raised to the header timeout if it is shorter).
    pub fn with_timeouts(mut self, headers_ms: u64, request_ms: u64) -> HttpPolicy {
        self.headers_timeout_ms = headers_ms.max(1);
        self.request_timeout_ms = request_ms.max(self.headers_timeout_ms);
        self
    }

    /// With at most `n` open connections (at least 1).
    pub fn with_max_connections(mut self, n: usize) -> HttpPolicy {
        self.max_connections = n.max(1);
        self
    }

    /// With at most `failures` failed logins (at least 1) per remote
    /// address within `window_ms` milliseconds (at least 1).
    pub fn with_auth_limit(mut self, failures: u32, window_ms: u64) -> HttpPolicy {
        self.max_auth_failures = failures.max(1);
        self.auth_window_ms = window_ms.max(1);
        self
    }

    /// With at most `n` open connections per remote address (at least 1).
    pub fn with_max_connections_per_address(mut self, n: usize) -> HttpPolicy {
        self.max_connections_per_address = n.max(1);
        self
    }

    /// With event streams getting a keepalive comment every
    /// `keepalive_ms` (at least 1 s) and ending after `max_ms` (at least
    /// the keepalive).
    pub fn with_stream_lifetime(mut self, keepalive_ms: u64, max_ms: u64) -> HttpPolicy {
        self.stream_keepalive_ms = keepalive_ms.max(1000);
        self.stream_max_ms = max_ms.max(self.stream_keepalive_ms);
        self
    }

    /// With at most `streams` `subscriptions/listen` streams and `inflight`
    /// other requests of 2026-07-28 clients without a session at once
    /// (each at least 1).
    pub fn with_stateless_limits(mut self, streams: usize, inflight: usize) -> HttpPolicy {
        self.max_stateless_streams = streams.max(1);
        self.max_stateless_inflight = inflight.max(1);
        self
    }
}

/// Whether a host name or address only reaches this machine: `localhost`,
/// an IPv4 address in 127.0.0.0/8 (dotted quad), `::1` (with or without
/// brackets) or an IPv4-mapped loopback address. Names are not resolved:
/// `127.evil.example` and `localhost.evil.example` are not loopback.
pub fn is_loopback(host: &str) -> bool {
    let bracketed = host.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
    if let Some(v6) = bracketed {
        return v6
            .parse::<Ipv6Addr>()
            .is_ok_and(|a| a.is_loopback() || a.to_ipv4_mapped().is_some_and(|m| m.is_loopback()));
    }
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    if let Ok(a) = host.parse::<Ipv4Addr>() {
        return a.is_loopback();
    }
    host.parse::<Ipv6Addr>()
        .is_ok_and(|a| a.is_loopback() || a.to_ipv4_mapped().is_some_and(|m| m.is_loopback()))
}

/// Splits an authority (`host`, `host:port`, `[v6]`, `[v6]:port`) into its
/// host and port. `None` for anything else: user info, a path, a bad port,
/// an empty host.
fn authority(a: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if a.starts_with('[') {
        let close = a.find(']')?;
        let host = a.get(..=close)?;
        match a.get(close + 1..)? {
            "" => (host, None),
            rest => (host, Some(rest.strip_prefix(':')?)),
        }
    } else {
        match a.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (a, None),
        }
    };
    let valid_host = !host.is_empty()
        && host.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'[' | b']' | b':' | b'%')
        });
    if !valid_host {
        return None;
    }
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            Some(p.parse::<u16>().ok()?)
        }
        Some(_) => return None,
    };
    Some((host, port))
}

/// The host of a browser origin (`scheme://host[:port]`, nothing more),
/// for the `http` and `https` schemes.
fn origin_host(origin: &str) -> Option<&str> {
    let (scheme, rest) = origin.split_once("://")?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    authority(rest).map(|(host, _)| host)
}

fn origin_allowed(origin: &str, policy: &HttpPolicy) -> bool {
    let listed = policy.origins.iter().any(|o| {
        o == "*"
            || o.trim_end_matches('/')
                .eq_ignore_ascii_case(origin.trim_end_matches('/'))
    });
    listed || origin_host(origin).is_some_and(is_loopback)
}

/// Whether a `Host` header names this machine by a loopback name or address.
fn host_allowed(host: &str) -> bool {
    authority(host.trim()).is_some_and(|(h, _)| is_loopback(h))
}

/// Compares two secrets in time that depends only on their lengths.
fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    let mut diff = given.len() ^ expected.len();
    for (i, &e) in expected.iter().enumerate() {
        diff |= usize::from(given.get(i).copied().unwrap_or(!e) ^ e);
    }
    diff == 0
}

/// The credentials of an `Authorization: Bearer <token>` header (the
/// scheme without case, as RFC 9110 says).
fn bearer(value: &str) -> Option<&str> {
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

/// The headers `wanted` picks from raw header text: names and values in
/// turn, one per line (Node's `req.rawHeaders` joined with `"\n"`; neither
/// holds a line feed, which Node's parser guarantees). Names come out in
/// lower case; a repeated header is read as Node's `req.headers` reads it
/// (`content-type` and `content-length` keep their first value, most others
/// are joined with `", "`), except `host` and `authorization`, whose
/// repeats stay separate entries for the rules to refuse (the first is
/// what [`HttpRequest::header`] gives). A last name with no value is left
/// out.
///
/// ```
/// use mcp_switchboard::http::raw_headers;
/// let raw = "Host\nlocalhost:3000\nAccept\napplication/json\naccept\ntext/event-stream\nX-Other\n1";
/// let picked = raw_headers(raw, &|name| name.eq_ignore_ascii_case("host") || name.eq_ignore_ascii_case("accept"));
/// assert_eq!(picked, [
///     ("host".to_string(), "localhost:3000".to_string()),
///     ("accept".to_string(), "application/json, text/event-stream".to_string()),
/// ]);
/// ```
pub fn raw_headers(raw: &str, wanted: &dyn Fn(&str) -> bool) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut lines = raw.split('\n');
    while let (Some(name), Some(value)) = (lines.next(), lines.next()) {
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

fn reject(status: u16, message: impl Into<String>) -> HttpDecision {
    HttpDecision::Reject {
        status,
        headers: Vec::new(),
        message: message.into(),
    }
}

/// A rejection after which the connection closes, so a body that was
/// announced is never read.
fn reject_closing(status: u16, message: impl Into<String>) -> HttpDecision {
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
fn rule_header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
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
fn check_request_known(
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

/// Checks the bytes of a body read so far against the limit: the host calls
/// it as chunks arrive and stops reading on a rejection (413, closing the
/// connection).
pub fn check_body_size(len: usize, policy: &HttpPolicy) -> Option<HttpDecision> {
    (len > policy.max_body).then(|| {
        reject_closing(
            413,
            format!(
                "the body is larger than the limit of {} bytes",
                policy.max_body
            ),
        )
    })
}

/// How the transport ends an exchange that does not go through the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// [`BodyDecision::TooLarge`].
    TooLarge,
    /// [`BodyDecision::NoSession`].
    NoSession,
    /// A notification or a response was taken: nothing to reply.
    Accepted,
    /// The request was cancelled by the client before its reply: MCP sends
    /// no reply to a cancelled request, so the exchange closes like a
    /// notification's.
    Cancelled,
    /// The session was ended (DELETE).
    Ended,
}

/// The status and a one-line message for an [`Outcome`].
pub fn outcome_status(outcome: Outcome, policy: &HttpPolicy) -> (u16, String) {
    match outcome {
        Outcome::TooLarge => (
            413,
            format!(
                "the body is larger than the limit of {} bytes",
                policy.max_body
            ),
        ),
        Outcome::NoSession => (400, "no Mcp-Session-Id: send initialize first".into()),
        Outcome::Accepted => (202, String::new()),
        Outcome::Cancelled => (202, String::new()),
        Outcome::Ended => (204, String::new()),
    }
}

/// What a POST body is, for the transport.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[must_use]
pub enum BodyDecision {
    /// Too big.
    TooLarge,
    /// An `initialize` request without a session: create a session (with an
    /// id from the host, see [`Gate::open_session`]), then feed the body to
    /// its engine.
    NewSession,
    /// A message for the session's engine; when `expects_reply` is false
    /// (notifications, responses) answer 202 with no body.
    Message {
        /// Whether the engine will reply.
        expects_reply: bool,
    },
    /// No session and not an `initialize`: answer 400.
    NoSession,
    /// A 2026-07-28 message ([`check_message`]): no session; feed it to an
    /// engine on a channel of its own (see
    /// [`Engine::handle_on`](crate::Engine::handle_on)) and answer with the
    /// reply's status. A notification (`expects_reply` false) gets 202.
    Stateless {
        /// Whether the engine will reply.
        expects_reply: bool,
    },
    /// Refused once the body was read ([`check_message`]), or a message
    /// without a session that is no JSON-RPC message at all: answer with
    /// this status and this JSON-RPC error response as an
    /// `application/json` body.
    Refuse {
        /// HTTP status (400; 503 from [`Gate::stateless_started`]).
        status: u16,
        /// The JSON-RPC error response.
        body: String,
    },
}

/// Decides on a POST body once read.
pub fn check_body(body: &str, has_session: bool, policy: &HttpPolicy) -> BodyDecision {
    if body.len() > policy.max_body {
        return BodyDecision::TooLarge;
    }
    body_decision(&crate::engine::wire::read(body), has_session)
}

/// [`check_body`] of a body already read (and within the size limit).
fn body_decision(kind: &crate::engine::wire::Incoming, has_session: bool) -> BodyDecision {
    let is_initialize = matches!(kind, crate::engine::wire::Incoming::Request { method, .. } if method == "initialize");
    if !has_session {
        if is_initialize {
            return BodyDecision::NewSession;
        }
        // bad JSON still gets its JSON-RPC error, written here: no engine
        // is made for a message without a session; anything else needs one
        if let crate::engine::wire::Incoming::Invalid { id, code, message } = kind {
            return BodyDecision::Refuse {
                status: 400,
                body: crate::engine::wire::error(id, *code, message, None),
            };
        }
        return BodyDecision::NoSession;
    }
    BodyDecision::Message {
        expects_reply: matches!(
            kind,
            crate::engine::wire::Incoming::Request { .. }
                | crate::engine::wire::Incoming::Invalid { .. }
        ),
    }
}

#[path = "http_modern.rs"]
mod modern;
#[cfg_attr(
    any(not(feature = "full"), feature = "web-module"),
    allow(unused_imports)
)]
pub(crate) use modern::check_message_read;
pub use modern::{check_message, check_param_headers, MESSAGE_HEADERS_READ, PARAM_HEADER_PREFIX};

/// What the table knows about one session.
#[derive(Debug, Clone)]
struct Entry {
    last_used_ms: u64,
    /// Order of last use, to break ties between equal clock readings.
    order: u64,
    inflight: usize,
    streams: usize,
}

/// A decision of the [`Gate`] and the sessions the host must close now/// A decision of the [`Gate`] and the sessions the host must close now
/// (expired, ended or evicted ones): stop their work and forget them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[must_use = "answer the request as decided and close the sessions named"]
pub struct Verdict {
    /// What to do with the request.
    pub decision: HttpDecision,
    /// Sessions to close, by id.
    pub close: Vec<String>,
    /// Headers to add to whatever answers this request: CORS for an
    /// origin the policy lists ([`cors_headers`]), else none.
    pub cors: Vec<(String, String)>,
}

/// The transport rules with a session table: [`HttpPolicy`] plus which
/// sessions exist, how busy each is and when each was last used.
///
/// The host asks [`Gate::request`] about every request (passing the time),
/// calls [`Gate::open_session`] for an `initialize` without a session,
/// [`Gate::finished`] when a request's exchange ends and
/// [`Gate::stream_closed`] when a notification stream closes, and
/// [`Gate::sweep`] from a timer; every answer names the sessions to close.
/// Time is milliseconds on any clock that does not go back (it may
/// start anywhere).
///
/// ```
/// use mcp_switchboard::http::{Gate, HttpDecision, HttpPolicy, HttpRequest};
///
/// let policy = HttpPolicy::for_host("127.0.0.1", None)?
///     .with_max_sessions(1)
///     .with_session_idle_ms(60_000);
/// let mut gate = Gate::new(policy);
/// assert!(gate.open_session("a", 0).is_ok());
/// gate.finished("a", 10);
/// // the table is full; the idle session "a" makes room for "b"
/// assert_eq!(gate.open_session("b", 20).unwrap(), vec!["a".to_string()]);
/// // "b" expires after a minute without requests
/// gate.finished("b", 30);
/// assert_eq!(gate.sweep(60_031), vec!["b".to_string()]);
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Gate {
    policy: HttpPolicy,
    sessions: Table,
    order: u64,
    logins: HashMap<String, Failures>,
    events: VecDeque<GateEvent>,
    stats: GateStats,
    connections: Slots<Connection>,
    /// 2026-07-28 requests in progress without a session, by channel:
    /// `subscriptions/listen` streams, and the others.
    listening: Vec<u64>,
    stateless: Vec<u64>,
}

/// One open connection ([`Gate::connection_opened`]), kept in the order
/// they opened.
#[derive(Debug, Clone)]
struct Connection {
    remote: Option<String>,
    /// Whether a request's headers ever arrived on it.
    proven: bool,
}

/// What [`Gate::connection_opened`] decided: keep the new connection or
/// close it, and which open one to close to make room.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[must_use]
pub struct ConnectionVerdict {
    /// Keep the new connection (else close it at once).
    pub accept: bool,
    /// The open connection to close now to make room, by id.
    pub close: Option<u64>,
}

/// A remote address the [`Gate`] refuses for its failed logins, and until
/// when ([`Gate::lockouts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Lockout {
    /// The remote address, as the host passed it to [`Gate::request_from`].
    pub remote: String,
    /// Refused until then (milliseconds on the gate's clock).
    pub until_ms: u64,
    /// Seconds from the time asked until it may try again (at least 1).
    pub retry_after_s: u64,
}

/// Something the [`Gate`] did that a host may log, drained with
/// [`Gate::poll_event`]. Events name the remote address when the host
/// passed it ([`Gate::request_from`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GateEvent {
    /// A session entered the table ([`Gate::open_session`]).
    SessionOpened {
        /// The session id.
        id: String,
    },
    /// A session was idle past [`HttpPolicy::session_idle_ms`].
    SessionExpired {
        /// The session id.
        id: String,
    },
    /// An idle session made room for a new one in a full table.
    SessionEvicted {
        /// The session id.
        id: String,
    },
    /// The client ended its session (DELETE).
    SessionEnded {
        /// The session id.
        id: String,
    },
    /// A request without the right bearer token was refused (401).
    AuthRefused {
        /// The remote address, when known.
        remote: Option<String>,
        /// Failed logins from that address in the current window.
        failures: u32,
    },
    /// A request from an address with too many failed logins was refused
    /// (429).
    LoginLimited {
        /// The remote address.
        remote: String,
        /// Seconds until the address may try again.
        retry_after_s: u64,
    },
    /// Any other request refused by the rules (origin, host, method,
    /// content type, unknown session, limits).
    Refused {
        /// The remote address, when known.
        remote: Option<String>,
        /// The HTTP status.
        status: u16,
        /// The one-line explanation sent.
        message: String,
    },
}

/// Counters of what a [`Gate`] decided since it was made
/// ([`Gate::stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct GateStats {
    /// Requests decided on.
    pub requests: u64,
    /// Requests refused, failed logins and lock-outs included.
    pub refused: u64,
    /// Requests refused for a missing or wrong bearer token (401).
    pub auth_failures: u64,
    /// Requests refused because their address had too many failed logins
    /// (429).
    pub login_limited: u64,
    /// Sessions opened.
    pub sessions_opened: u64,
    /// Sessions expired while idle.
    pub sessions_expired: u64,
    /// Idle sessions evicted to make room.
    pub sessions_evicted: u64,
    /// Sessions ended by their client.
    pub sessions_ended: u64,
    /// New connections closed at once (past a limit, nothing to evict).
    pub connections_refused: u64,
    /// Open connections closed to make room (ones that had sent no
    /// request yet, or idle ones).
    pub connections_evicted: u64,
    /// Event streams closed for being idle or open too long.
    pub streams_expired: u64,
    /// 2026-07-28 requests without a session refused past their limits.
    pub stateless_refused: u64,
}

/// Failed logins of one remote address.
#[derive(Debug, Clone)]
struct Failures {
    /// When the current window started.
    first_ms: u64,
    /// Failures in the current window.
    count: u32,
    /// Refused until then, once `count` reached the limit.
    locked_until: Option<u64>,
}

/// Remote addresses whose failed logins are remembered at once; past that
/// the oldest record makes room (the table stays small under a flood of
/// addresses).
const MAX_TRACKED_ADDRESSES: usize = 4096;

/// Events kept for [`Gate::poll_event`]; past that the oldest is dropped
/// (a host that never drains them holds a bounded queue).
const MAX_EVENTS: usize = 256;

/// The session table: entries in a list, found by id through an index.
#[derive(Debug, Clone, Default)]
struct Table {
    index: HashMap<String, usize>,
    entries: Vec<(String, Entry)>,
}

impl Table {
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn get(&self, id: &str) -> Option<&Entry> {
        let i = *self.index.get(id)?;
        self.entries.get(i).map(|(_, e)| e)
    }

    fn get_mut(&mut self, id: &str) -> Option<&mut Entry> {
        let i = *self.index.get(id)?;
        self.entries.get_mut(i).map(|(_, e)| e)
    }

    fn insert(&mut self, id: &str, e: Entry) {
        self.remove(id);
        self.index.insert(id.to_string(), self.entries.len());
        self.entries.push((id.to_string(), e));
    }

    fn remove(&mut self, id: &str) -> Option<Entry> {
        let i = self.index.remove(id)?;
        if i >= self.entries.len() {
            return None;
        }
        let (_, e) = self.entries.swap_remove(i);
        if let Some((moved, _)) = self.entries.get(i) {
            self.index.insert(moved.clone(), i);
        }
        Some(e)
    }

    fn iter(&self) -> impl Iterator<Item = (&String, &Entry)> {
        self.entries.iter().map(|(k, e)| (k, e))
    }
}

impl Gate {
    /// A gate with an empty session table.
    pub fn new(policy: HttpPolicy) -> Gate {
        Gate {
            policy,
            sessions: Table::default(),
            order: 0,
            logins: HashMap::new(),
            events: VecDeque::new(),
            stats: GateStats::default(),
            connections: Slots::default(),
            listening: Vec::new(),
            stateless: Vec::new(),
        }
    }

    /// The rules in force.
    pub fn policy(&self) -> &HttpPolicy {
        &self.policy
    }

    /// Changes the bearer token from the next request on; sessions stay
    /// (their clients send the new token). `None` (or an empty token) is
    /// refused for a gateway that is not bound to a loopback address.
    pub fn set_token(&mut self, token: Option<String>) -> Result<(), Error> {
        let token = token.filter(|t| !t.is_empty());
        if token.is_none() && !self.policy.loopback_host {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                "this gateway is reachable from other machines: it needs a bearer token",
            ));
        }
        self.policy.token = token;
        Ok(())
    }

    /// Changes the browser origins allowed besides loopback ones, from the
    /// next request on.
    pub fn set_origins(&mut self, origins: Vec<String>) {
        self.policy.origins = origins;
    }

    /// The next event, oldest first.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<GateEvent> {
        self.events.pop_front()
    }

    /// Whether [`Gate::poll_event`] has an event.
    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    /// What the gate decided since it was made.
    pub fn stats(&self) -> GateStats {
        self.stats
    }

    fn event(&mut self, e: GateEvent) {
        if self.events.len() >= MAX_EVENTS {
            self.events.pop_front();
        }
        self.events.push_back(e);
    }

    /// The addresses locked out for their failed logins at `now_ms`, and
    /// until when, soonest free first (then by address). At most the
    /// addresses the gate remembers (4,096); an address whose lock-out is
    /// over is not listed, though its record may stay until the gate
    /// forgets it.
    ///
    /// ```
    /// use mcp_switchboard::http::{Gate, HttpPolicy, HttpRequest};
    ///
    /// let policy = HttpPolicy::for_host("0.0.0.0", Some("t0k".into()))
    ///     .unwrap()
    ///     .with_auth_limit(2, 60_000);
    /// let mut gate = Gate::new(policy);
    /// let bad = HttpRequest {
    ///     method: "POST".into(),
    ///     path: "/mcp".into(),
    ///     headers: vec![("Authorization".into(), "Bearer wrong".into())],
    ///     ..HttpRequest::default()
    /// };
    /// for t in [1_000, 2_000] {
    ///     let _ = gate.request_from(&bad, Some("192.168.1.9"), t);
    /// }
    /// let locked = gate.lockouts(3_000);
    /// assert_eq!(locked.len(), 1);
    /// assert_eq!((locked[0].remote.as_str(), locked[0].until_ms), ("192.168.1.9", 62_000));
    /// assert_eq!(locked[0].retry_after_s, 59);
    /// // the lock-out ends with its window
    /// assert!(gate.lockouts(62_000).is_empty());
    /// ```
    #[must_use]
    pub fn lockouts(&self, now_ms: u64) -> Vec<Lockout> {
        let mut out: Vec<Lockout> = self
            .logins
            .iter()
            .filter_map(|(remote, f)| {
                let until = f.locked_until.filter(|u| now_ms < *u)?;
                Some(Lockout {
                    remote: remote.clone(),
                    until_ms: until,
                    retry_after_s: (until - now_ms).div_ceil(1000).max(1),
                })
            })
            .collect();
        out.sort_by(|a, b| (a.until_ms, &a.remote).cmp(&(b.until_ms, &b.remote)));
        out
    }

    /// Seconds until `remote` may try again, when it is locked out.
    fn locked_out(&self, remote: &str, now_ms: u64) -> Option<u64> {
        let until = self.logins.get(remote)?.locked_until?;
        (now_ms < until).then(|| (until - now_ms).div_ceil(1000).max(1))
    }

    /// Counts a failed login from `remote`; returns the failures in its
    /// window (at the limit the address is locked out for a window).
    fn count_failure(&mut self, remote: &str, now_ms: u64) -> u32 {
        let window = self.policy.auth_window_ms;
        if !self.logins.contains_key(remote) && self.logins.len() >= MAX_TRACKED_ADDRESSES {
            self.forget_logins(now_ms);
            if self.logins.len() >= MAX_TRACKED_ADDRESSES {
                let oldest = self
                    .logins
                    .iter()
                    .min_by_key(|(_, f)| f.locked_until.unwrap_or(f.first_ms))
                    .map(|(k, _)| k.clone());
                if let Some(k) = oldest {
                    self.logins.remove(&k);
                }
            }
        }
        let f = self.logins.entry(remote.to_string()).or_insert(Failures {
            first_ms: now_ms,
            count: 0,
            locked_until: None,
        });
        let lock_over = f.locked_until.is_some_and(|u| now_ms >= u);
        if lock_over || (f.locked_until.is_none() && now_ms.saturating_sub(f.first_ms) > window) {
            *f = Failures {
                first_ms: now_ms,
                count: 0,
                locked_until: None,
            };
        }
        f.count = f.count.saturating_add(1);
        if f.count >= self.policy.max_auth_failures {
            f.locked_until = Some(now_ms.saturating_add(window));
        }
        f.count
    }

    /// Drops the failed-login records whose window and lock-out are over.
    fn forget_logins(&mut self, now_ms: u64) {
        let window = self.policy.auth_window_ms;
        self.logins.retain(|_, f| match f.locked_until {
            Some(u) => now_ms < u,
            None => now_ms.saturating_sub(f.first_ms) <= window,
        });
    }

    /// Sessions in the table.
    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// Whether `id` is a live session (not yet expired at `now_ms`).
    pub fn is_live(&self, id: &str, now_ms: u64) -> bool {
        self.sessions
            .get(id)
            .is_some_and(|e| !self.expired(e, now_ms))
    }

    /// A session without requests for the idle time expires, even with
    /// streams open (they are no request: a client cannot hold a session
    /// by holding a stream).
    fn expired(&self, e: &Entry, now_ms: u64) -> bool {
        e.inflight == 0 && now_ms.saturating_sub(e.last_used_ms) > self.policy.session_idle_ms
    }

    fn touch(&mut self, id: &str, now_ms: u64) -> Option<&mut Entry> {
        self.order += 1;
        let order = self.order;
        let e = self.sessions.get_mut(id)?;
        e.last_used_ms = e.last_used_ms.max(now_ms);
        e.order = order;
        Some(e)
    }

    /// Decides on a request. For a request in a live session, the session
    /// is marked busy until [`Gate::finished`] (a POST) or
    /// [`Gate::stream_closed`] (a GET stream); DELETE removes it.
    pub fn request(&mut self, req: &HttpRequest, now_ms: u64) -> Verdict {
        self.request_from(req, None, now_ms)
    }

    /// [`Gate::request`] for a request from `remote` (the client's
    /// address, as the host sees it): failed logins are counted per
    /// address, and an address past [`HttpPolicy::max_auth_failures`]
    /// within the window is refused with 429 and `Retry-After` until the
    /// window ends, whatever it sends.
    ///
    /// ```
    /// use mcp_switchboard::http::{Gate, HttpDecision, HttpPolicy, HttpRequest};
    ///
    /// let policy = HttpPolicy::for_host("0.0.0.0", Some("s3cret".into()))?.with_auth_limit(3, 60_000);
    /// let mut gate = Gate::new(policy);
    /// let guess = HttpRequest {
    ///     method: "POST".into(),
    ///     path: "/mcp".into(),
    ///     headers: vec![("Authorization".into(), "Bearer guess".into())],
    ///     ..HttpRequest::default()
    /// };
    /// let status = |d: HttpDecision| match d { HttpDecision::Reject { status, .. } => status, _ => 200 };
    /// for t in 0..3 {
    ///     assert_eq!(status(gate.request_from(&guess, Some("10.0.0.9"), t).decision), 401);
    /// }
    /// assert_eq!(status(gate.request_from(&guess, Some("10.0.0.9"), 4).decision), 429);
    /// // other addresses are not affected; the lock-out ends with the window
    /// assert_eq!(status(gate.request_from(&guess, Some("10.0.0.7"), 5).decision), 401);
    /// assert_eq!(status(gate.request_from(&guess, Some("10.0.0.9"), 60_003).decision), 401);
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    pub fn request_from(
        &mut self,
        req: &HttpRequest,
        remote: Option<&str>,
        now_ms: u64,
    ) -> Verdict {
        self.stats.requests += 1;
        if let Some(retry_after_s) = remote.and_then(|r| self.locked_out(r, now_ms)) {
            self.stats.refused += 1;
            self.stats.login_limited += 1;
            self.event(GateEvent::LoginLimited {
                remote: remote.unwrap_or("").to_string(),
                retry_after_s,
            });
            return Verdict {
                decision: HttpDecision::Reject {
                    status: 429,
                    headers: vec![
                        ("Retry-After".into(), retry_after_s.to_string()),
                        ("Connection".into(), "close".into()),
                    ],
                    message: format!(
                        "too many failed logins from this address; try again in {retry_after_s} s"
                    ),
                },
                close: Vec::new(),
                cors: cors_headers(req, &self.policy),
            };
        }
        let mut verdict = self.decide(req, now_ms);
        if !matches!(verdict.decision, HttpDecision::Options { .. }) {
            verdict.cors = cors_headers(req, &self.policy);
        }
        if let HttpDecision::Reject {
            status, message, ..
        } = &verdict.decision
        {
            self.stats.refused += 1;
            if *status == 401 {
                self.stats.auth_failures += 1;
                let failures = remote.map_or(0, |r| self.count_failure(r, now_ms));
                self.event(GateEvent::AuthRefused {
                    remote: remote.map(str::to_owned),
                    failures,
                });
            } else {
                let e = GateEvent::Refused {
                    remote: remote.map(str::to_owned),
                    status: *status,
                    message: message.clone(),
                };
                self.event(e);
            }
        }
        verdict
    }

    fn decide(&mut self, req: &HttpRequest, now_ms: u64) -> Verdict {
        let mut close = Vec::new();
        let sid = rule_header(req, "mcp-session-id").map(str::to_owned);
        let mut known = false;
        if let Some(id) = &sid {
            match self.sessions.get(id) {
                Some(e) if self.expired(e, now_ms) => {
                    self.sessions.remove(id);
                    self.stats.sessions_expired += 1;
                    self.event(GateEvent::SessionExpired { id: id.clone() });
                    close.push(id.clone());
                }
                Some(_) => known = true,
                None => {}
            }
        }
        let mut decision = check_request_known(req, known, &self.policy);
        if let (Some(id), true) = (&sid, known) {
            let (max_inflight, max_streams) = (self.policy.max_inflight, self.policy.max_streams);
            match &decision {
                HttpDecision::ReadBody { .. } => {
                    if let Some(e) = self.touch(id, now_ms) {
                        if e.inflight >= max_inflight {
                            decision = reject_closing(429, format!("this session already has {max_inflight} requests in progress; wait for their replies"));
                        } else {
                            e.inflight += 1;
                        }
                    }
                }
                HttpDecision::OpenStream => {
                    if let Some(e) = self.touch(id, now_ms) {
                        if e.streams >= max_streams {
                            decision = reject(409, format!("this session already has {max_streams} notification stream(s) open"));
                        } else {
                            e.streams += 1;
                        }
                    }
                }
                HttpDecision::EndSession => {
                    self.sessions.remove(id);
                    self.stats.sessions_ended += 1;
                    self.event(GateEvent::SessionEnded { id: id.clone() });
                    close.push(id.clone());
                }
                HttpDecision::Reject { .. } | HttpDecision::Options { .. } => {}
            }
        }
        Verdict {
            decision,
            close,
            cors: Vec::new(),
        }
    }

    /// Makes room for a new session `id` (an id the host made up, e.g. a
    /// random UUID) and enters it, busy with its `initialize` until
    /// [`Gate::finished`]. `Ok` names the sessions to close: expired ones,
    /// and when the table was full the least recently used idle one, or
    /// failing that the least recently used one that only holds event
    /// streams (its streams close with it). `Err` is a 503 when every
    /// session has a request in progress.
    pub fn open_session(&mut self, id: &str, now_ms: u64) -> Result<Vec<String>, HttpDecision> {
        let mut close = self.sweep(now_ms);
        if self.sessions.len() >= self.policy.max_sessions {
            // an idle session first; else one that only holds event streams
            // (streams alone never keep a new client out)
            let victim = self
                .sessions
                .iter()
                .filter(|(_, e)| e.inflight == 0)
                .min_by_key(|(_, e)| (e.streams > 0, e.last_used_ms, e.order))
                .map(|(k, _)| k.clone());
            match victim {
                Some(v) => {
                    self.sessions.remove(&v);
                    self.stats.sessions_evicted += 1;
                    self.event(GateEvent::SessionEvicted { id: v.clone() });
                    close.push(v);
                }
                None => {
                    self.stats.refused += 1;
                    self.event(GateEvent::Refused {
                        remote: None,
                        status: 503,
                        message: "every session is busy".into(),
                    });
                    return Err(HttpDecision::Reject {
                        status: 503,
                        headers: vec![
                            ("Retry-After".into(), "1".into()),
                            ("Connection".into(), "close".into()),
                        ],
                        message: format!(
                            "all {} sessions are busy; try again shortly",
                            self.policy.max_sessions
                        ),
                    });
                }
            }
        }
        self.order += 1;
        self.stats.sessions_opened += 1;
        self.event(GateEvent::SessionOpened { id: id.to_string() });
        self.sessions.insert(
            id,
            Entry {
                last_used_ms: now_ms,
                order: self.order,
                inflight: 1,
                streams: 0,
            },
        );
        Ok(close)
    }

    /// A request's exchange on session `id` ended (answered, refused or
    /// broken off).
    pub fn finished(&mut self, id: &str, now_ms: u64) {
        if let Some(e) = self.touch(id, now_ms) {
            e.inflight = e.inflight.saturating_sub(1);
        }
    }

    /// A notification stream of session `id` closed.
    pub fn stream_closed(&mut self, id: &str, now_ms: u64) {
        if let Some(e) = self.touch(id, now_ms) {
            e.streams = e.streams.saturating_sub(1);
        }
    }

    /// Removes a session the host closed by itself (e.g. on shutdown).
    pub fn remove(&mut self, id: &str) -> bool {
        self.sessions.remove(id).is_some()
    }

    /// Removes the sessions that have expired by `now_ms` and names them.
    #[must_use = "the sessions named must be closed"]
    pub fn sweep(&mut self, now_ms: u64) -> Vec<String> {
        let gone: Vec<String> = self
            .sessions
            .iter()
            .filter(|(_, e)| self.expired(e, now_ms))
            .map(|(k, _)| k.clone())
            .collect();
        for id in &gone {
            self.sessions.remove(id);
            self.stats.sessions_expired += 1;
            self.event(GateEvent::SessionExpired { id: id.clone() });
        }
        self.forget_logins(now_ms);
        gone
    }
}

/// Connections: how many each address holds, and which give way when
/// room is needed.
impl Gate {
    /// A connection `id` (a number the host gives each connection) opened
    /// from `remote` (its address, when known). It is accepted while there
    /// is room under [`HttpPolicy::max_connections`] and
    /// [`HttpPolicy::max_connections_per_address`]; past either, the
    /// connection that gives way is the oldest one that has not completed
    /// a request's headers yet (a client that connects and sends nothing,
    /// or half a header, cannot keep others out); when every connection
    /// has sent a request, the new one is refused. The host closes the
    /// connections named in `close` (and the new one when refused), tells
    /// [`Gate::connection_request`] when a request's headers arrive on one
    /// and [`Gate::connection_closed`] when one closes.
    ///
    /// ```
    /// use mcp_switchboard::http::{Gate, HttpPolicy};
    ///
    /// let policy = HttpPolicy::for_host("127.0.0.1", None)?.with_max_connections(2);
    /// let mut gate = Gate::new(policy);
    /// assert!(gate.connection_opened(1, Some("10.0.0.5")).accept);
    /// assert!(gate.connection_opened(2, Some("10.0.0.5")).accept);
    /// gate.connection_request(2);
    /// // full: connection 1 never sent a request, so it makes room
    /// let v = gate.connection_opened(3, Some("10.0.0.6"));
    /// assert!(v.accept);
    /// assert_eq!(v.close, Some(1));
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    pub fn connection_opened(&mut self, id: u64, remote: Option<&str>) -> ConnectionVerdict {
        let held = self
            .connections
            .values()
            .filter(|c| remote.is_some() && c.remote.as_deref() == remote)
            .count();
        // past the address's share, one of its own gives way; past the
        // table's, any (one is enough: the table was not over its limit)
        let own = held >= self.policy.max_connections_per_address;
        let full = own || self.connections.len() >= self.policy.max_connections;
        let close = if full {
            self.evictable(remote.filter(|_| own))
        } else {
            None
        };
        if full && close.is_none() {
            self.stats.connections_refused += 1;
            return ConnectionVerdict {
                accept: false,
                close,
            };
        }
        if let Some(victim) = close {
            self.connections.remove(&victim);
            self.stats.connections_evicted += 1;
        }
        self.connections.insert(
            id,
            Connection {
                remote: remote.map(str::to_owned),
                proven: false,
            },
        );
        ConnectionVerdict {
            accept: true,
            close,
        }
    }

    /// The connection that gives way first (of `remote`, when given): the
    /// oldest that has not sent a request.
    fn evictable(&self, remote: Option<&str>) -> Option<u64> {
        self.connections
            .iter()
            .find(|(_, c)| !c.proven && remote.is_none_or(|r| c.remote.as_deref() == Some(r)))
            .map(|(id, _)| *id)
    }

    /// A request's headers arrived on connection `id`: it no longer gives
    /// way to new connections (an idle one is closed by the server's
    /// keep-alive timeout).
    pub fn connection_request(&mut self, id: u64) {
        if let Some(c) = self.connections.get_mut(&id) {
            c.proven = true;
        }
    }

    /// Connection `id` closed (whoever closed it).
    pub fn connection_closed(&mut self, id: u64) {
        self.connections.remove(&id);
    }

    /// Connections open.
    pub fn connections(&self) -> usize {
        self.connections.len()
    }
}

/// 2026-07-28 requests without a session: how many run at once.
impl Gate {
    /// A 2026-07-28 request without a session, on `channel` (the host's
    /// number for it), is about to be served; `listen` when it is a
    /// `subscriptions/listen` (an event stream that stays open). Past
    /// [`HttpPolicy::max_stateless_streams`] or
    /// [`HttpPolicy::max_stateless_inflight`] it is refused: the error
    /// response (`id` is the request's) to send with HTTP 503, as a
    /// [`BodyDecision::Refuse`]. Otherwise it counts until
    /// [`Gate::stateless_ended`].
    pub fn stateless_started(
        &mut self,
        channel: u64,
        listen: bool,
        id: &serde_json::Value,
    ) -> Result<(), BodyDecision> {
        let held = if listen {
            self.listening.len()
        } else {
            self.stateless.len()
        };
        let (max, what) = if listen {
            (
                self.policy.max_stateless_streams,
                "subscriptions/listen streams",
            )
        } else {
            (
                self.policy.max_stateless_inflight,
                "requests without a session",
            )
        };
        if held >= max {
            self.stats.stateless_refused += 1;
            let message = format!("Server busy: {max} {what} are in progress; try again shortly");
            return Err(BodyDecision::Refuse {
                status: 503,
                body: crate::engine::wire::error(
                    id,
                    crate::engine::wire::WireCode::InternalError,
                    &message,
                    None,
                ),
            });
        }
        let list = if listen {
            &mut self.listening
        } else {
            &mut self.stateless
        };
        if !list.contains(&channel) {
            list.push(channel);
        }
        Ok(())
    }

    /// The 2026-07-28 request on `channel` is over (answered, or its stream
    /// closed).
    pub fn stateless_ended(&mut self, channel: u64) {
        self.listening.retain(|c| *c != channel);
        self.stateless.retain(|c| *c != channel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_headers_read_as_node_reads_req_headers() {
        let all = |_: &str| true;
        let pairs = |v: Vec<(String, String)>| {
            v.into_iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
        };
        // repeats: the first Content-Type and Content-Length count; Host
        // and Authorization stay apart (the rules refuse them); any other
        // is joined
        let raw = "Host\na\nhost\nb\nAuthorization\nBearer 1\nauthorization\nBearer 2\nContent-Type\napplication/json\ncontent-type\ntext/plain\nContent-Length\n5\ncontent-length\n6\nOrigin\nx\norigin\ny\nMcp-Session-Id\ns1\nMCP-SESSION-ID\ns2\nMcp-Param-Zone\nk\nmcp-param-zone\nh";
        assert_eq!(
            pairs(raw_headers(raw, &all)),
            [
                "host=a",
                "host=b",
                "authorization=Bearer 1",
                "authorization=Bearer 2",
                "content-type=application/json",
                "content-length=5",
                "origin=x, y",
                "mcp-session-id=s1, s2",
                "mcp-param-zone=k, h",
            ]
        );
        // only the wanted ones; empty values stay; a name with no value is left out
        let wanted = |n: &str| n.eq_ignore_ascii_case("accept") || n.eq_ignore_ascii_case("x");
        assert_eq!(
            pairs(raw_headers("Host\na\nACCEPT\n\nx", &wanted)),
            ["accept="]
        );
        assert!(raw_headers("", &all).is_empty());
        assert_eq!(pairs(raw_headers("\n\n\n", &all)), ["=, "]);
        // the rules see the same request from raw lines as from pairs; two
        // Authorization headers (or two Host headers) are refused with 400
        let policy = HttpPolicy::for_host("127.0.0.1", Some("t".into())).unwrap();
        let request = |raw: &str| HttpRequest {
            method: "POST".into(),
            path: "/mcp".into(),
            headers: raw_headers(raw, &|n| {
                HEADERS_READ.iter().any(|h| h.eq_ignore_ascii_case(n))
            }),
            session_known: false,
        };
        let one = "content-type\napplication/json\naccept\napplication/json, text/event-stream\nauthorization\nBearer t";
        assert!(matches!(
            check_request(&request(one), &policy),
            HttpDecision::ReadBody { .. }
        ));
        for extra in [
            "\nAuthorization\nBearer x",
            "\nAuthorization\nBearer t",
            "\nHost\nlocalhost\nhost\nlocalhost",
        ] {
            match check_request(&request(&format!("{one}{extra}")), &policy) {
                HttpDecision::Reject {
                    status,
                    headers,
                    message,
                } => {
                    assert_eq!(status, 400, "{extra}");
                    assert!(
                        message.contains("more than one Host or Authorization"),
                        "{message}"
                    );
                    assert!(headers.contains(&("Connection".into(), "close".into())));
                }
                d => panic!("{extra}: {d:?}"),
            }
        }
    }

    fn req(method: &str, headers: &[(&str, &str)], session_known: bool) -> HttpRequest {
        HttpRequest {
            method: method.into(),
            path: "/mcp".into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            session_known,
        }
    }

    fn status(d: HttpDecision) -> u16 {
        match d {
            HttpDecision::Reject { status, .. } => status,
            _ => 200,
        }
    }

    #[test]
    fn binding_elsewhere_needs_a_token() {
        assert!(HttpPolicy::for_host("127.0.0.1", None).is_ok());
        assert!(HttpPolicy::for_host("::1", None).is_ok());
        assert!(HttpPolicy::for_host("0.0.0.0", None).is_err());
        assert!(HttpPolicy::for_host("0.0.0.0", Some("".into())).is_err());
        assert!(HttpPolicy::for_host("0.0.0.0", Some("s3cret".into())).is_ok());
    }

    #[test]
    fn security_statuses() {
        let open = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        let json = ("content-type", "application/json");
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("origin", "https://evil.example")], false),
                &open
            )),
            403
        );
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("origin", "http://localhost:5173")], false),
                &open
            )),
            200
        );
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("origin", "http://[::1]:80")], false),
                &open
            )),
            200
        );
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("content-length", "99999999")], false),
                &open
            )),
            413
        );
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("mcp-session-id", "zzz")], false),
                &open
            )),
            404
        );
        assert_eq!(
            status(check_request(
                &req(
                    "POST",
                    &[json, ("mcp-protocol-version", "1999-01-01")],
                    false
                ),
                &open
            )),
            400
        );
        assert_eq!(
            status(check_request(
                &req("POST", &[("content-type", "text/plain")], false),
                &open
            )),
            415
        );
        assert_eq!(status(check_request(&req("PUT", &[], false), &open)), 405);
        assert_eq!(
            status(check_request(
                &req("GET", &[("accept", "application/json")], false),
                &open
            )),
            405
        );
        assert_eq!(
            check_request(
                &req(
                    "GET",
                    &[("accept", "text/event-stream"), ("mcp-session-id", "s")],
                    true
                ),
                &open
            ),
            HttpDecision::OpenStream
        );
        assert_eq!(
            check_request(&req("DELETE", &[("mcp-session-id", "s")], true), &open),
            HttpDecision::EndSession
        );
        for (host, want) in [
            ("evil.example:80", 403),
            ("localhost:3000", 200),
            ("[::1]:3000", 200),
            ("127.0.0.1", 200),
        ] {
            assert_eq!(
                status(check_request(
                    &req("POST", &[json, ("host", host)], false),
                    &open
                )),
                want,
                "{host}"
            );
        }
        let mut other = req("POST", &[json], false);
        other.path = "/other".into();
        assert_eq!(status(check_request(&other, &open)), 404);
        let locked = HttpPolicy::for_host("0.0.0.0", Some("t0k".into())).unwrap();
        assert_eq!(
            status(check_request(
                &req(
                    "POST",
                    &[
                        json,
                        ("host", "hub.lan:80"),
                        ("authorization", "Bearer t0k")
                    ],
                    false
                ),
                &locked
            )),
            200
        );
        assert_eq!(
            status(check_request(&req("POST", &[json], false), &locked)),
            401
        );
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("authorization", "Bearer nope")], false),
                &locked
            )),
            401
        );
        assert_eq!(
            status(check_request(
                &req("POST", &[json, ("authorization", "Bearer t0k")], false),
                &locked
            )),
            200
        );
    }

    #[test]
    fn reply_format_and_limits() {
        let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        let json = ("content-type", "application/json");
        let sse = |accept: &str| match check_request(
            &req("POST", &[json, ("accept", accept)], false),
            &p,
        ) {
            HttpDecision::ReadBody { sse, .. } => sse,
            other => panic!("{other:?}"),
        };
        assert!(sse("text/event-stream"));
        assert!(!sse("application/json, text/event-stream"));
        assert!(!sse("*/*"));
        let stream = |accept: &str| match check_request(
            &req("POST", &[json, ("accept", accept)], false),
            &p,
        ) {
            HttpDecision::ReadBody { stream, .. } => stream,
            other => panic!("{other:?}"),
        };
        assert!(stream("application/json, text/event-stream"));
        assert!(stream("text/event-stream"));
        assert!(!stream("application/json"));
        assert_eq!(check_body_size(p.max_body, &p), None);
        assert_eq!(status(check_body_size(p.max_body + 1, &p).unwrap()), 413);
        assert_eq!(outcome_status(Outcome::Accepted, &p).0, 202);
        assert_eq!(outcome_status(Outcome::Cancelled, &p).0, 202);
        assert_eq!(outcome_status(Outcome::TooLarge, &p).0, 413);
        assert_eq!(outcome_status(Outcome::NoSession, &p).0, 400);
        assert_eq!(outcome_status(Outcome::Ended, &p).0, 204);
    }

    #[test]
    fn bodies() {
        let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;
        assert_eq!(check_body(init, false, &p), BodyDecision::NewSession);
        assert_eq!(
            check_body(
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
                false,
                &p
            ),
            BodyDecision::NoSession
        );
        assert_eq!(
            check_body(
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                true,
                &p
            ),
            BodyDecision::Message {
                expects_reply: false
            }
        );
        assert_eq!(
            check_body(
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
                true,
                &p
            ),
            BodyDecision::Message {
                expects_reply: true
            }
        );
        // bad JSON without a session: its JSON-RPC error comes from the rules
        match check_body("{oops", false, &p) {
            BodyDecision::Refuse { status, body } => {
                assert_eq!(status, 400);
                assert!(body.contains("-32700"), "{body}");
            }
            d => panic!("{d:?}"),
        }
        assert!(matches!(
            check_body("[]", false, &p),
            BodyDecision::Refuse { status: 400, .. }
        ));
    }

    fn post(headers: &[(&str, &str)]) -> HttpRequest {
        let mut all = vec![("content-type", "application/json")];
        all.extend_from_slice(headers);
        req("POST", &all, false)
    }

    #[test]
    fn origins_are_parsed_and_matched_exactly() {
        let p = HttpPolicy::for_host("127.0.0.1", None)
            .unwrap()
            .with_origins(vec!["https://app.example".into()]);
        for origin in [
            "http://localhost",
            "http://localhost:5173",
            "HTTP://LOCALHOST:5173",
            "http://127.0.0.1:8765",
            "http://127.1.2.3",
            "https://[::1]:443",
            "http://[::ffff:127.0.0.1]",
            "https://app.example",
            "https://APP.example",
        ] {
            assert_eq!(
                status(check_request(&post(&[("origin", origin)]), &p)),
                200,
                "{origin}"
            );
        }
        for origin in [
            "null",
            "",
            "http://127.0.0.1.nip.io",
            "http://127.evil.example",
            "http://[::1].evil.com",
            "http://127.0.0.1@evil.com",
            "http://evil.com@127.0.0.1",
            "http://localhost.evil.com",
            "http://localhost:5173.evil.com",
            "http://localhost:99999",
            "http://localhost:",
            "http://localhost/",
            "http://127.0.0.1/evil",
            "file://localhost",
            "ws://localhost",
            "http://[::2]",
            "http://0.0.0.0",
            "http://2130706433",
            "http://127.0.0.1%2eevil.com",
            "https://app.example.evil",
            "https://app.example:444",
            "http://app.example",
        ] {
            assert_eq!(
                status(check_request(&post(&[("origin", origin)]), &p)),
                403,
                "{origin:?}"
            );
        }
        let any = p.clone().with_origins(vec!["*".into()]);
        assert_eq!(
            status(check_request(&post(&[("origin", "null")]), &any)),
            200
        );
    }

    #[test]
    fn hosts_are_parsed_and_matched_exactly() {
        let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        for host in [
            "localhost",
            "localhost:8765",
            "127.0.0.1:1",
            "[::1]:8765",
            "[::1]",
            "LocalHost:80",
        ] {
            assert_eq!(
                status(check_request(&post(&[("host", host)]), &p)),
                200,
                "{host}"
            );
        }
        for host in [
            "127.0.0.1.nip.io:8765",
            "127.evil.example:8765",
            "localhost.evil.example",
            "[::1].evil.com:80",
            "evil.example@127.0.0.1",
            "127.0.0.1:80:80",
            "::1",
            "",
            "localhost:port",
        ] {
            assert_eq!(
                status(check_request(&post(&[("host", host)]), &p)),
                403,
                "{host:?}"
            );
        }
        // bound elsewhere (with a token), any host may be used
        let lan = HttpPolicy::for_host("0.0.0.0", Some("t".into())).unwrap();
        let auth = ("authorization", "Bearer t");
        assert_eq!(
            status(check_request(&post(&[("host", "hub.lan:80"), auth]), &lan)),
            200
        );
    }

    #[test]
    fn loopback_binds_are_exact() {
        for host in [
            "127.0.0.1",
            "127.9.8.7",
            "localhost",
            "::1",
            "[::1]",
            "0:0:0:0:0:0:0:1",
        ] {
            assert!(is_loopback(host), "{host}");
            assert!(HttpPolicy::for_host(host, None).is_ok(), "{host}");
        }
        for host in [
            "127.evil.example",
            "127.0.0.1.nip.io",
            "localhost.evil",
            "0.0.0.0",
            "::",
            "127.1",
            "128.0.0.1",
            "",
        ] {
            assert!(!is_loopback(host), "{host}");
            assert!(HttpPolicy::for_host(host, None).is_err(), "{host}");
        }
    }

    #[test]
    fn bearer_tokens() {
        let p = HttpPolicy::for_host("0.0.0.0", Some("s3cret".into())).unwrap();
        for ok in [
            "Bearer s3cret",
            "bearer s3cret",
            "BEARER s3cret",
            "Bearer  s3cret ",
            "Bearer\ts3cret",
        ] {
            assert_eq!(
                status(check_request(&post(&[("authorization", ok)]), &p)),
                200,
                "{ok:?}"
            );
        }
        for bad in [
            "Bearer s3cre",
            "Bearer s3cret2",
            "Bearers3cret",
            "Basic s3cret",
            "s3cret",
            "Bearer",
            "Bearer ",
            "",
        ] {
            assert_eq!(
                status(check_request(&post(&[("authorization", bad)]), &p)),
                401,
                "{bad:?}"
            );
        }
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abd", b"abc"));
        assert!(!same_secret(b"ab", b"abc"));
        assert!(!same_secret(b"abcd", b"abc"));
        assert!(!same_secret(b"", b"abc"));
    }

    #[test]
    fn media_types_are_exact() {
        let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        for ct in [
            "application/json",
            "Application/JSON; charset=utf-8",
            " application/json ;charset=UTF-8",
        ] {
            assert_eq!(
                status(check_request(
                    &req("POST", &[("content-type", ct)], false),
                    &p
                )),
                200,
                "{ct}"
            );
        }
        for ct in [
            "application/jsonp",
            "application/json-seq",
            "text/json",
            "application/x-json",
            "",
        ] {
            assert_eq!(
                status(check_request(
                    &req("POST", &[("content-type", ct)], false),
                    &p
                )),
                415,
                "{ct}"
            );
        }
        for accept in ["text/html", "application/jsonp", "text/event-streams"] {
            assert_eq!(
                status(check_request(&post(&[("accept", accept)]), &p)),
                406,
                "{accept}"
            );
        }
    }

    #[test]
    fn refused_posts_close_the_connection() {
        let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        let closes = |d: HttpDecision| match d {
            HttpDecision::Reject { headers, .. } => headers
                .iter()
                .any(|(k, v)| k == "Connection" && v == "close"),
            _ => false,
        };
        assert!(closes(check_request(
            &post(&[("content-length", "2147483648")]),
            &p
        )));
        assert!(closes(check_request(
            &post(&[("content-length", "99999999999999999999999")]),
            &p
        )));
        assert!(closes(check_request(&post(&[("origin", "null")]), &p)));
        assert!(closes(check_body_size(p.max_body + 1, &p).unwrap()));
        assert!(!closes(check_request(
            &req("GET", &[("accept", "text/html")], false),
            &p
        )));
        assert_eq!(
            status(check_request(&post(&[("content-length", "1048576")]), &p)),
            200
        );
    }

    fn in_session(method: &str, id: &str) -> HttpRequest {
        let accept = if method == "GET" {
            "text/event-stream"
        } else {
            "application/json"
        };
        req(
            method,
            &[
                ("content-type", "application/json"),
                ("accept", accept),
                ("mcp-session-id", id),
            ],
            false,
        )
    }

    #[test]
    fn sessions_expire_when_idle() {
        let p = HttpPolicy::for_host("127.0.0.1", None)
            .unwrap()
            .with_session_idle_ms(1_000);
        let mut g = Gate::new(p);
        assert_eq!(g.open_session("a", 0), Ok(vec![]));
        // busy with its initialize: never expires
        assert!(g.sweep(10_000).is_empty());
        g.finished("a", 10_000);
        let v = g.request(&in_session("POST", "a"), 10_500);
        assert_eq!(status(v.decision), 200);
        g.finished("a", 10_600);
        assert!(g.sweep(11_600).is_empty());
        assert!(g.is_live("a", 11_600));
        // past the idle time the id gets 404 and the host is told to close it
        let v = g.request(&in_session("POST", "a"), 11_601);
        assert_eq!(status(v.decision), 404);
        assert_eq!(v.close, vec!["a".to_string()]);
        assert!(g.is_empty());
        // an open stream does not keep a session alive: without requests
        // it expires, and its streams close with it
        g.open_session("b", 0).unwrap();
        g.finished("b", 0);
        assert_eq!(
            g.request(&in_session("GET", "b"), 1).decision,
            HttpDecision::OpenStream
        );
        assert!(g.sweep(1_001).is_empty());
        assert_eq!(g.sweep(1_002), vec!["b".to_string()]);
        // a request in progress does
        g.open_session("d", 0).unwrap();
        assert!(g.sweep(1_000_000).is_empty());
        g.finished("d", 1_000_000);
        assert_eq!(g.sweep(1_001_001), vec!["d".to_string()]);
        // a clock that goes back does not expire anything
        g.open_session("c", 5_000).unwrap();
        g.finished("c", 5_000);
        assert!(g.sweep(0).is_empty());
    }

    #[test]
    fn a_full_table_evicts_the_least_recently_used_idle_session() {
        let p = HttpPolicy::for_host("127.0.0.1", None)
            .unwrap()
            .with_max_sessions(3);
        let mut g = Gate::new(p);
        for (i, id) in ["a", "b", "c"].iter().enumerate() {
            assert_eq!(g.open_session(id, i as u64), Ok(vec![]));
            g.finished(id, i as u64);
        }
        // "a" used last; "b" is the oldest idle one
        assert!(matches!(
            g.request(&in_session("POST", "a"), 10).decision,
            HttpDecision::ReadBody { .. }
        ));
        g.finished("a", 11);
        assert_eq!(g.open_session("d", 12), Ok(vec!["b".to_string()]));
        assert_eq!(g.len(), 3);
        // a session that only holds a stream gives way when no idle one is
        // left (streams alone never keep new clients out)
        assert!(matches!(
            g.request(&in_session("POST", "a"), 13).decision,
            HttpDecision::ReadBody { .. }
        ));
        assert_eq!(
            g.request(&in_session("GET", "c"), 13).decision,
            HttpDecision::OpenStream
        );
        assert_eq!(g.open_session("e", 14), Ok(vec!["c".to_string()]));
        // sessions with requests in progress are never evicted: with all
        // busy, 503
        match g.open_session("e2", 14) {
            Err(HttpDecision::Reject {
                status, headers, ..
            }) => {
                assert_eq!(status, 503);
                assert!(headers.iter().any(|(k, _)| k == "Retry-After"));
            }
            other => panic!("{other:?}"),
        }
        // same clock reading: the order of use decides
        g.finished("d", 14);
        g.finished("e", 14);
        assert_eq!(g.open_session("f", 14), Ok(vec!["d".to_string()]));
    }

    #[test]
    fn streams_and_requests_per_session_are_bounded() {
        let p = HttpPolicy::for_host("127.0.0.1", None)
            .unwrap()
            .with_max_streams(2)
            .with_max_inflight(2);
        let mut g = Gate::new(p);
        g.open_session("s", 0).unwrap();
        g.finished("s", 0);
        assert_eq!(
            g.request(&in_session("GET", "s"), 1).decision,
            HttpDecision::OpenStream
        );
        assert_eq!(
            g.request(&in_session("GET", "s"), 1).decision,
            HttpDecision::OpenStream
        );
        assert_eq!(status(g.request(&in_session("GET", "s"), 1).decision), 409);
        g.stream_closed("s", 2);
        assert_eq!(
            g.request(&in_session("GET", "s"), 3).decision,
            HttpDecision::OpenStream
        );
        assert_eq!(status(g.request(&in_session("POST", "s"), 4).decision), 200);
        assert_eq!(status(g.request(&in_session("POST", "s"), 4).decision), 200);
        assert_eq!(status(g.request(&in_session("POST", "s"), 4).decision), 429);
        g.finished("s", 5);
        assert_eq!(status(g.request(&in_session("POST", "s"), 6).decision), 200);
        // DELETE ends the session and names it
        let v = g.request(&in_session("DELETE", "s"), 7);
        assert_eq!(v.decision, HttpDecision::EndSession);
        assert_eq!(v.close, vec!["s".to_string()]);
        assert_eq!(status(g.request(&in_session("POST", "s"), 8).decision), 404);
        // unknown ids change nothing
        g.finished("nope", 9);
        g.stream_closed("nope", 9);
        assert!(g.is_empty());
    }

    fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn cors_only_for_listed_origins() {
        let p = HttpPolicy::for_host("0.0.0.0", Some("t0k".into()))
            .unwrap()
            .with_origins(vec!["https://app.example/".into()]);
        let mut g = Gate::new(p.clone());
        let preflight = |origin: &str, asked: &str| {
            req(
                "OPTIONS",
                &[
                    ("origin", origin),
                    ("access-control-request-method", "POST"),
                    ("access-control-request-headers", asked),
                ],
                false,
            )
        };
        // a preflight from a listed origin, without the token: the methods,
        // the fixed headers and each Mcp-Param-* asked for
        let v = g.request(
            &preflight(
                "https://APP.example",
                "content-type, authorization, mcp-param-zone, x-other, mcp-param-a\r\nb",
            ),
            0,
        );
        let HttpDecision::Options {
            status: code,
            headers,
        } = v.decision
        else {
            panic!("{:?}", v.decision)
        };
        assert_eq!(code, 204);
        assert_eq!(
            header(&headers, "access-control-allow-origin"),
            Some("https://APP.example")
        );
        assert_eq!(
            header(&headers, "access-control-allow-methods"),
            Some("GET, POST, DELETE")
        );
        let allowed = header(&headers, "access-control-allow-headers").unwrap_or("");
        for h in [
            "Mcp-Session-Id",
            "Mcp-Protocol-Version",
            "Authorization",
            "Content-Type",
            "Last-Event-ID",
            "Mcp-Method",
            "Mcp-Name",
            "mcp-param-zone",
        ] {
            assert!(allowed.split(", ").any(|a| a == h), "{h} in {allowed}");
        }
        assert!(!allowed.contains("x-other") && !allowed.contains("a\r"));
        assert!(header(&headers, "vary").is_some_and(|v| v.contains("Origin")));
        assert!(v.cors.is_empty());
        // a loopback origin passes the gate but gets no CORS; a foreign one is refused
        for origin in ["http://localhost:5173", "http://[::1]:3000"] {
            let d = check_request(&preflight(origin, ""), &p);
            let HttpDecision::Options { headers, .. } = d else {
                panic!("{d:?}")
            };
            assert_eq!(header(&headers, "access-control-allow-origin"), None);
            assert_eq!(
                header(&headers, "allow"),
                Some("GET, POST, DELETE, OPTIONS")
            );
        }
        assert_eq!(
            status(check_request(&preflight("https://evil.example", ""), &p)),
            403
        );
        // every answer to a listed origin carries the CORS headers, a refusal too
        let from = |origin: &str, token: &str| {
            let auth = format!("Bearer {token}");
            req(
                "POST",
                &[
                    ("content-type", "application/json"),
                    ("origin", origin),
                    ("authorization", &auth),
                ],
                false,
            )
        };
        for token in ["t0k", "wrong"] {
            let v = g.request(&from("https://app.example", token), 1);
            assert_eq!(
                header(&v.cors, "access-control-allow-origin"),
                Some("https://app.example")
            );
            assert_eq!(
                header(&v.cors, "access-control-expose-headers"),
                Some("Mcp-Session-Id")
            );
            assert_eq!(header(&v.cors, "vary"), Some("Origin"));
        }
        assert!(g
            .request(&from("http://127.0.0.1:8080", "t0k"), 2)
            .cors
            .is_empty());
        assert!(g.request(&bearer_post("t0k"), 3).cors.is_empty());
        let refused = g.request(&from("https://evil.example", "t0k"), 4);
        assert_eq!((status(refused.decision), refused.cors.len()), (403, 0));
        // `*` lists every http(s) origin, never the opaque `null`
        g.set_origins(vec!["*".into()]);
        let any = g.request(&from("https://any.example", "t0k"), 5);
        assert_eq!(
            header(&any.cors, "access-control-allow-origin"),
            Some("https://any.example")
        );
        assert!(g.request(&from("null", "t0k"), 6).cors.is_empty());
        // the origin list changes take effect at once
        g.set_origins(Vec::new());
        let gone = g.request(&preflight("https://app.example", ""), 7);
        assert_eq!(status(gone.decision), 403);
    }

    fn bearer_post(token: &str) -> HttpRequest {
        let auth = format!("Bearer {token}");
        req(
            "POST",
            &[
                ("content-type", "application/json"),
                ("authorization", &auth),
            ],
            false,
        )
    }

    fn events(g: &mut Gate) -> Vec<GateEvent> {
        std::iter::from_fn(|| g.poll_event()).collect()
    }

    #[test]
    fn failed_logins_lock_out_their_address_for_a_window() {
        let p = HttpPolicy::for_host("0.0.0.0", Some("right".into()))
            .unwrap()
            .with_auth_limit(3, 10_000);
        let mut g = Gate::new(p);
        let wrong = bearer_post("wrong");
        let right = bearer_post("right");
        // failures outside one window do not add up
        assert_eq!(status(g.request_from(&wrong, Some("a"), 0).decision), 401);
        assert_eq!(status(g.request_from(&wrong, Some("a"), 1).decision), 401);
        assert_eq!(
            status(g.request_from(&wrong, Some("a"), 10_002).decision),
            401
        );
        assert_eq!(
            status(g.request_from(&right, Some("a"), 10_003).decision),
            200
        );
        assert_eq!(
            status(g.request_from(&wrong, Some("a"), 10_004).decision),
            401
        );
        assert_eq!(
            status(g.request_from(&wrong, Some("a"), 10_005).decision),
            401
        );
        // the third failure in the window locks the address out, even with the right token
        let v = g.request_from(&right, Some("a"), 10_006);
        match v.decision {
            HttpDecision::Reject {
                status, headers, ..
            } => {
                assert_eq!(status, 429);
                assert!(headers.contains(&("Retry-After".into(), "10".into())));
                assert!(headers.contains(&("Connection".into(), "close".into())));
            }
            d => panic!("{d:?}"),
        }
        // other addresses, and callers that name none, are not affected
        assert_eq!(
            status(g.request_from(&right, Some("b"), 10_007).decision),
            200
        );
        assert_eq!(status(g.request(&right, 10_007).decision), 200);
        // the host reads who is locked out, and until when
        let _ = g.request_from(&wrong, Some("c"), 10_007);
        assert_eq!(
            g.lockouts(10_007),
            vec![Lockout {
                remote: "a".into(),
                until_ms: 20_005,
                retry_after_s: 10
            }]
        );
        assert_eq!(g.lockouts(20_004)[0].retry_after_s, 1);
        assert!(g.lockouts(20_005).is_empty());
        // the lock-out lasts a window from the last failure
        assert_eq!(
            status(g.request_from(&right, Some("a"), 20_004).decision),
            429
        );
        assert_eq!(
            status(g.request_from(&right, Some("a"), 20_005).decision),
            200
        );
        assert_eq!(
            status(g.request_from(&wrong, Some("a"), 20_006).decision),
            401
        );
        let stats = g.stats();
        assert_eq!(
            (
                stats.requests,
                stats.refused,
                stats.auth_failures,
                stats.login_limited
            ),
            (13, 9, 7, 2)
        );
        let ev = events(&mut g);
        assert_eq!(
            ev.first(),
            Some(&GateEvent::AuthRefused {
                remote: Some("a".into()),
                failures: 1
            })
        );
        assert!(ev.contains(&GateEvent::LoginLimited {
            remote: "a".into(),
            retry_after_s: 10
        }));
        // a sweep forgets records whose window is over
        assert!(g.sweep(40_000).is_empty());
        assert!(g.logins.is_empty());
    }

    #[test]
    fn the_failed_login_table_is_bounded() {
        let p = HttpPolicy::for_host("0.0.0.0", Some("right".into()))
            .unwrap()
            .with_auth_limit(2, 60_000);
        let mut g = Gate::new(p);
        let wrong = bearer_post("wrong");
        for i in 0..MAX_TRACKED_ADDRESSES + 10 {
            let v = g.request_from(&wrong, Some(&format!("10.0.{}.{}", i / 256, i % 256)), 1);
            assert_eq!(status(v.decision), 401);
        }
        assert_eq!(g.logins.len(), MAX_TRACKED_ADDRESSES);
        assert_eq!(g.events.len(), MAX_EVENTS);
    }

    #[test]
    fn token_and_origins_change_without_dropping_sessions() {
        let p = HttpPolicy::for_host("0.0.0.0", Some("old".into())).unwrap();
        let mut g = Gate::new(p);
        g.open_session("s", 0).unwrap();
        g.finished("s", 0);
        assert!(g.set_token(None).is_err());
        assert!(g.set_token(Some(String::new())).is_err());
        g.set_token(Some("new".into())).unwrap();
        assert_eq!(status(g.request(&bearer_post("old"), 1).decision), 401);
        assert_eq!(status(g.request(&bearer_post("new"), 1).decision), 200);
        assert!(g.is_live("s", 2));
        let mut from_app = bearer_post("new");
        from_app
            .headers
            .push(("origin".into(), "http://app.example".into()));
        assert_eq!(status(g.request(&from_app, 3).decision), 403);
        g.set_origins(vec!["http://app.example".into()]);
        assert_eq!(status(g.request(&from_app, 4).decision), 200);
        // a loopback gateway may drop its token
        let mut local = Gate::new(HttpPolicy::for_host("127.0.0.1", Some("t".into())).unwrap());
        local.set_token(None).unwrap();
        assert_eq!(
            status(
                local
                    .request(
                        &req("POST", &[("content-type", "application/json")], false),
                        0
                    )
                    .decision
            ),
            200
        );
    }

    #[test]
    fn session_events_say_what_happened() {
        let p = HttpPolicy::for_host("127.0.0.1", None)
            .unwrap()
            .with_max_sessions(1)
            .with_session_idle_ms(100);
        let mut g = Gate::new(p);
        g.open_session("a", 0).unwrap();
        g.finished("a", 0);
        g.open_session("b", 1).unwrap();
        g.finished("b", 1);
        assert_eq!(
            g.request(&in_session("DELETE", "b"), 2).decision,
            HttpDecision::EndSession
        );
        g.open_session("c", 3).unwrap();
        g.finished("c", 3);
        assert_eq!(g.sweep(200), vec!["c".to_string()]);
        let ev = events(&mut g);
        let id = |s: &str| s.to_string();
        assert_eq!(
            ev,
            vec![
                GateEvent::SessionOpened { id: id("a") },
                GateEvent::SessionEvicted { id: id("a") },
                GateEvent::SessionOpened { id: id("b") },
                GateEvent::SessionEnded { id: id("b") },
                GateEvent::SessionOpened { id: id("c") },
                GateEvent::SessionExpired { id: id("c") },
            ]
        );
        let s = g.stats();
        assert_eq!(
            (
                s.sessions_opened,
                s.sessions_evicted,
                s.sessions_ended,
                s.sessions_expired
            ),
            (3, 1, 1, 1)
        );
    }

    #[test]
    fn compressed_bodies_are_refused_clearly() {
        let p = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        for coding in ["gzip", "gzip, gzip", "br", "x-custom"] {
            match check_request(&post(&[("content-encoding", coding)]), &p) {
                HttpDecision::Reject {
                    status, message, ..
                } => {
                    assert_eq!(status, 415, "{coding}");
                    assert!(message.contains(coding), "{message}");
                }
                d => panic!("{coding}: {d:?}"),
            }
        }
        for coding in ["identity", "", " identity , "] {
            assert_eq!(
                status(check_request(&post(&[("content-encoding", coding)]), &p)),
                200,
                "{coding:?}"
            );
        }
    }

    #[test]
    fn half_open_connections_give_way_and_addresses_are_capped() {
        let p = HttpPolicy::for_host("127.0.0.1", None)
            .unwrap()
            .with_max_connections(4)
            .with_max_connections_per_address(2);
        let mut g = Gate::new(p);
        // an attacker's two connections send nothing
        assert!(g.connection_opened(1, Some("10.0.0.66")).accept);
        assert!(g.connection_opened(2, Some("10.0.0.66")).accept);
        // its third makes room by closing its own oldest half-open one
        let v = g.connection_opened(3, Some("10.0.0.66"));
        assert_eq!((v.accept, v.close), (true, Some(1)));
        g.connection_closed(1);
        // a client whose connections all sent requests keeps them: its
        // next one is refused
        let mut c = Gate::new(g.policy().clone());
        assert!(c.connection_opened(1, Some("a")).accept);
        assert!(c.connection_opened(2, Some("a")).accept);
        c.connection_request(1);
        c.connection_request(2);
        let v = c.connection_opened(3, Some("a"));
        assert_eq!((v.accept, v.close), (false, None));
        assert_eq!(c.stats().connections_refused, 1);
        // other addresses fill the table; past it the half-open
        // connections go first, oldest first, never ones that sent a request
        assert!(g.connection_opened(4, Some("b")).accept);
        assert!(g.connection_opened(5, Some("c")).accept);
        g.connection_request(4);
        g.connection_request(5);
        assert_eq!(g.connections(), 4);
        let v = g.connection_opened(6, Some("d"));
        assert_eq!((v.accept, v.close), (true, Some(2)));
        let v = g.connection_opened(7, Some("e"));
        assert_eq!((v.accept, v.close), (true, Some(3)));
        g.connection_request(6);
        g.connection_request(7);
        let v = g.connection_opened(8, Some("f"));
        assert!(!v.accept && v.close.is_none());
        assert_eq!(g.stats().connections_evicted, 3);
        // closed connections are forgotten, their address's count with them
        for id in [4, 5, 6, 7] {
            g.connection_closed(id);
        }
        assert_eq!(g.connections(), 0);
        assert!(g.connection_opened(9, Some("10.0.0.66")).accept);
        assert!(g.connection_opened(10, Some("10.0.0.66")).accept);
        // no address known: only the table's limit applies
        for id in 11..13 {
            assert!(g.connection_opened(id, None).accept);
        }
        assert_eq!(g.connection_opened(13, None).close, Some(9));
    }

    #[test]
    fn requests_without_a_session_are_capped() {
        let p = HttpPolicy::for_host("127.0.0.1", None)
            .unwrap()
            .with_stateless_limits(1, 2);
        let mut g = Gate::new(p);
        let id = serde_json::json!(5);
        assert!(g.stateless_started(1, true, &id).is_ok());
        match g.stateless_started(2, true, &id) {
            Err(BodyDecision::Refuse { status, body }) => {
                assert_eq!(status, 503);
                assert!(
                    body.contains(r#""id":5"#) && body.contains("subscriptions/listen"),
                    "{body}"
                );
            }
            d => panic!("{d:?}"),
        }
        // streams and calls are counted apart
        assert!(g.stateless_started(3, false, &id).is_ok());
        assert!(g.stateless_started(4, false, &id).is_ok());
        assert!(g.stateless_started(5, false, &id).is_err());
        g.stateless_ended(3);
        assert!(g.stateless_started(5, false, &id).is_ok());
        g.stateless_ended(1);
        assert!(g.stateless_started(6, true, &id).is_ok());
        // unknown or repeated ends change nothing
        g.stateless_ended(1);
        g.stateless_ended(99);
        assert!(g.stateless_started(7, true, &id).is_err());
        assert_eq!(g.stats().stateless_refused, 3);
    }
}
