//! Streamable HTTP transport rules, sans I/O: the gateway hands over the
//! request line and headers, and gets back what to do — reject with a
//! status, feed the body to the engine, open a notification stream, or end
//! the session. The JS shell only moves bytes.

use crate::engine::PROTOCOL_VERSIONS;
use crate::error::{Error, ErrorKind};

/// Who may talk to the gateway.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpPolicy {
    /// Origins allowed besides localhost ones (`http://localhost:*`,
    /// `http://127.0.0.1:*`, `http://[::1]:*`).
    pub origins: Vec<String>,
    /// The bearer token every request must carry, when set.
    pub token: Option<String>,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// The endpoint path.
    pub path: String,
    /// Whether the `Host` header must name a loopback address (DNS-rebinding
    /// protection); on for gateways bound to a loopback address.
    pub loopback_host: bool,
}

impl HttpPolicy {
    /// The policy for a gateway bound to `host`: a bearer token is required
    /// whenever the host is not a loopback address.
    pub fn for_host(host: &str, token: Option<String>) -> Result<HttpPolicy, Error> {
        let token = token.filter(|t| !t.is_empty());
        if !is_loopback(host) && token.is_none() {
            return Err(Error::new(
                ErrorKind::Usage,
                "",
                format!("binding {host} makes the gateway reachable from other machines: give a bearer token (--token)"),
            ));
        }
        Ok(HttpPolicy {
            origins: Vec::new(),
            token,
            max_body: 4 * 1024 * 1024,
            path: "/mcp".into(),
            loopback_host: is_loopback(host),
        })
    }
}

/// Whether a bind address only accepts local connections.
pub fn is_loopback(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h == "localhost" || h == "::1" || h.starts_with("127.")
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
    /// when there is no such header).
    pub session_known: bool,
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
pub enum HttpDecision {
    /// Answer with this status, headers and plain-text message.
    Reject {
        /// HTTP status.
        status: u16,
        /// Extra headers (`Allow`, `WWW-Authenticate`).
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
    },
    /// Open an SSE stream for server notifications on this session.
    OpenStream,
    /// End the session and answer 204.
    EndSession,
}

fn reject(status: u16, message: impl Into<String>) -> HttpDecision {
    HttpDecision::Reject {
        status,
        headers: Vec::new(),
        message: message.into(),
    }
}

/// The host name of a `Host` header or an origin's authority (`[::1]:80`,
/// `localhost:3000`, `example.com`).
fn host_name(authority: &str) -> &str {
    if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        authority.split(':').next().unwrap_or("")
    }
}

fn origin_allowed(origin: &str, policy: &HttpPolicy) -> bool {
    if policy.origins.iter().any(|o| o == origin || o == "*") {
        return true;
    }
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    let Some(rest) = rest else { return false };
    is_loopback(host_name(rest))
}

/// The headers [`check_request`] reads, by their lower-case names: a host
/// need pass only these.
pub const HEADERS_READ: [&str; 8] = [
    "origin",
    "host",
    "authorization",
    "mcp-protocol-version",
    "mcp-session-id",
    "content-type",
    "accept",
    "content-length",
];

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
            if !is_loopback(&host_name(host).to_ascii_lowercase()) {
                return reject(403, format!("host {host} is not allowed: this gateway only answers requests addressed to localhost"));
            }
        }
    }
    if let Some(token) = &policy.token {
        let given = rule_header(req, "authorization").and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        });
        if given.map(str::trim) != Some(token.as_str()) {
            return HttpDecision::Reject {
                status: 401,
                headers: vec![("WWW-Authenticate".into(), "Bearer".into())],
                message: "a valid bearer token is required".into(),
            };
        }
    }
    if let Some(v) = rule_header(req, "mcp-protocol-version") {
        if !PROTOCOL_VERSIONS.contains(&v) && v != "2025-03-26" {
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
    if has_session && !req.session_known {
        return reject(404, "unknown or expired session: initialize again");
    }
    match req.method.as_str() {
        "POST" => {
            let ctype = rule_header(req, "content-type")
                .unwrap_or("")
                .to_ascii_lowercase();
            if !ctype.starts_with("application/json") {
                return reject(415, "the body must be application/json");
            }
            let mut sse = false;
            if let Some(accept) = rule_header(req, "accept") {
                let a = accept.to_ascii_lowercase();
                let json = a.contains("application/json")
                    || a.contains("application/*")
                    || a.contains("*/*");
                sse = !json && a.contains("text/event-stream");
                if !(json || sse) {
                    return reject(406, "accept application/json or text/event-stream");
                }
            }
            if let Some(len) =
                rule_header(req, "content-length").and_then(|l| l.trim().parse::<usize>().ok())
            {
                if len > policy.max_body {
                    return reject(
                        413,
                        format!("the body is {len} bytes; the limit is {}", policy.max_body),
                    );
                }
            }
            HttpDecision::ReadBody {
                max_body: policy.max_body,
                sse,
            }
        }
        "GET" => {
            let accept = rule_header(req, "accept")
                .unwrap_or("")
                .to_ascii_lowercase();
            if !accept.contains("text/event-stream") {
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
            headers: vec![("Allow".into(), "GET, POST, DELETE".into())],
            message: format!("method {} is not allowed", req.method),
        },
    }
}

/// Checks the bytes of a body read so far against the limit: the host calls
/// it as chunks arrive and stops reading on a rejection (413).
pub fn check_body_size(len: usize, policy: &HttpPolicy) -> Option<HttpDecision> {
    (len > policy.max_body).then(|| {
        reject(
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
pub enum BodyDecision {
    /// Too big.
    TooLarge,
    /// An `initialize` request without a session: create a session (with an
    /// id from the host), then feed the body to its engine.
    NewSession,
    /// A message for the session's engine; when `expects_reply` is false
    /// (notifications, responses) answer 202 with no body.
    Message {
        /// Whether the engine will reply.
        expects_reply: bool,
    },
    /// No session and not an `initialize`: answer 400.
    NoSession,
}

/// Decides on a POST body once read.
pub fn check_body(body: &str, has_session: bool, policy: &HttpPolicy) -> BodyDecision {
    if body.len() > policy.max_body {
        return BodyDecision::TooLarge;
    }
    let kind = crate::engine::wire::read(body);
    let is_initialize = matches!(&kind, crate::engine::wire::Incoming::Request { method, .. } if method == "initialize");
    if !has_session {
        if is_initialize {
            return BodyDecision::NewSession;
        }
        // bad JSON still gets a JSON-RPC error from an engine, so let a
        // throwaway session answer it; anything else needs a session
        if matches!(kind, crate::engine::wire::Incoming::Invalid { .. }) {
            return BodyDecision::Message {
                expects_reply: true,
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            check_body("{oops", false, &p),
            BodyDecision::Message {
                expects_reply: true
            }
        );
    }
}
