//! A request's body: its size as it arrives, then what it holds (a
//! request, a batch, a response, or something the transport refuses).

use super::*;

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
    /// [`Engine::handle_on`](crate::engine::Engine::handle_on)) and answer with the
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
pub(super) fn body_decision(
    kind: &crate::engine::wire::Incoming,
    has_session: bool,
) -> BodyDecision {
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
