//! Who may talk to the gateway and how much each client may hold: the
//! [`HttpPolicy`] and its defaults.

use crate::error::{Error, Misuse};

use super::*;

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
            return Err(Error::misused(
                Misuse::NeedsToken,
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
