//! The session table ([`Gate`]): which sessions exist, when an idle one
//! expires, which gives way when the table is full, how many streams and
//! requests each may hold, the connections per address, and the
//! addresses locked out after failed logins.

use foldhash::{HashMap, HashMapExt};
use std::collections::VecDeque;

use crate::client::Slots;
use crate::error::{Error, Misuse};

use super::*;

/// What the table knows about one session.
#[derive(Debug, Clone)]
struct Entry {
    last_used_ms: u64,
    /// Order of last use, to break ties between equal clock readings.
    order: u64,
    inflight: usize,
    streams: usize,
}

/// A decision of the [`Gate`] and the sessions the host must close now
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
    pub(super) logins: HashMap<String, Failures>,
    pub(super) events: VecDeque<GateEvent>,
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
pub(super) struct Connection {
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
pub(super) struct Failures {
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
pub(super) const MAX_TRACKED_ADDRESSES: usize = 4096;

/// Events kept for [`Gate::poll_event`]; past that the oldest is dropped
/// (a host that never drains them holds a bounded queue).
pub(super) const MAX_EVENTS: usize = 256;

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
            return Err(Error::misused(
                Misuse::NeedsToken,
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
    /// and when the table was full the one used least recently (by its
    /// last request) of those with no request in progress; a held event
    /// stream is not use, so sessions that only hold streams give way as
    /// their age says, never before or after, and their streams close with
    /// them. `Err` is a 503 when every session has a request in progress.
    pub fn open_session(&mut self, id: &str, now_ms: u64) -> Result<Vec<String>, HttpDecision> {
        let mut close = self.sweep(now_ms);
        if self.sessions.len() >= self.policy.max_sessions {
            // by last request: a session kept only by its streams cannot
            // crowd out the clients that are working (nor keep a new one out)
            let victim = self
                .sessions
                .iter()
                .filter(|(_, e)| e.inflight == 0)
                .min_by_key(|(_, e)| (e.last_used_ms, e.order))
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
