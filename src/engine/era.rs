//! Which revision a request belongs to, read from the request alone.
//!
//! MCP 2026-07-28 ("modern") carries the protocol version, the client's
//! capabilities and identity in every request's `_meta` (specification
//! 2026-07-28, *Basic › General fields › `_meta`*, "Per-request protocol
//! fields"); 2025-06-18 and 2025-11-25 ("legacy") open a session with
//! `initialize`. A dual-era server picks the era per request, as
//! *Versioning › Backward Compatibility with Initialization-Based Versions*
//! says: a request carrying a modern envelope is served statelessly, an
//! `initialize` selects legacy semantics for the session.

use serde_json::{json, Map, Value};

use super::wire::WireCode;

/// Revisions served statelessly, with per-request `_meta` (newest first).
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// Revisions served after an `initialize` handshake (newest first).
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];

pub(crate) const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(crate) const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub(crate) const META_CLIENT_CAPS: &str = "io.modelcontextprotocol/clientCapabilities";
pub(crate) const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
pub(crate) const META_SUBSCRIPTION: &str = "io.modelcontextprotocol/subscriptionId";
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The protocol era a request is served in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Era {
    /// 2025-06-18 or 2025-11-25: a session opened with `initialize`.
    Legacy,
    /// 2026-07-28: every request stands alone, with its `_meta` envelope.
    Modern,
}

/// Methods only the modern era has: without an envelope they are refused
/// as malformed rather than served under legacy rules.
pub(crate) const MODERN_ONLY: &[&str] = &["server/discover", "subscriptions/listen"];

/// Methods the 2026-07-28 revision removed (its changelog, items 2, 4 and
/// 5): a modern request for one of them is an unknown method.
pub(crate) const REMOVED_IN_MODERN: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// The syslog levels of `notifications/message`, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum LogLevel {
    /// `debug`
    Debug,
    /// `info`
    Info,
    /// `notice`
    Notice,
    /// `warning`
    Warning,
    /// `error`
    Error,
    /// `critical`
    Critical,
    /// `alert`
    Alert,
    /// `emergency`
    Emergency,
}

impl LogLevel {
    /// Reads a level name (`debug` … `emergency`).
    pub fn parse(s: &str) -> Option<LogLevel> {
        Some(match s {
            "debug" => LogLevel::Debug,
            "info" => LogLevel::Info,
            "notice" => LogLevel::Notice,
            "warning" => LogLevel::Warning,
            "error" => LogLevel::Error,
            "critical" => LogLevel::Critical,
            "alert" => LogLevel::Alert,
            "emergency" => LogLevel::Emergency,
            _ => return None,
        })
    }

    /// The level's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

/// A modern request's envelope.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Envelope {
    pub(crate) capabilities: Value,
    pub(crate) log_level: Option<LogLevel>,
}

/// A refusal before the method is looked at: the error and its HTTP status.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    pub(crate) code: WireCode,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
    pub(crate) status: u16,
}

impl Refusal {
    fn invalid(message: String) -> Refusal {
        Refusal {
            code: WireCode::InvalidParams,
            message,
            data: None,
            status: 400,
        }
    }
}

/// How a request is to be served.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Classified {
    Legacy,
    Modern(Envelope),
    Refused(Refusal),
}

/// `params._meta`, when it is an object.
pub(crate) fn meta(params: &Value) -> Option<&Map<String, Value>> {
    params.get("_meta").and_then(Value::as_object)
}

/// Whether the params carry a protocol-version claim in `_meta`.
pub(crate) fn has_claim(params: &Value) -> bool {
    meta(params).is_some_and(|m| m.contains_key(META_VERSION))
}

/// The version a claim names, when it is a string.
pub(crate) fn claimed_version(params: &Value) -> Option<&str> {
    meta(params)?.get(META_VERSION)?.as_str()
}

/// The -32022 refusal for a version not served statelessly.
pub(crate) fn unsupported(requested: &str) -> Refusal {
    Refusal {
        code: WireCode::UnsupportedProtocolVersion,
        message: format!(
            "Unsupported protocol version {requested}; supported: {}",
            MODERN_VERSIONS.join(", ")
        ),
        data: Some(json!({"supported": MODERN_VERSIONS, "requested": requested})),
        status: 400,
    }
}

/// Classifies a request from its method and params (the body-primary rule
/// of the specification's dual-era guidance: an `initialize` without a
/// valid modern claim is legacy; a claim makes the request modern; a
/// request without one is legacy, except for the methods only the modern
/// era has).
pub(crate) fn classify(method: &str, params: &Value) -> Classified {
    if !has_claim(params) {
        if MODERN_ONLY.contains(&method) {
            return Classified::Refused(Refusal::invalid(format!(
                "Invalid params: {method} needs _meta with {META_VERSION} and {META_CLIENT_CAPS}"
            )));
        }
        return Classified::Legacy;
    }
    let Some(meta) = meta(params) else {
        return Classified::Legacy;
    };
    let version = match meta.get(META_VERSION) {
        Some(Value::String(v)) => v.as_str(),
        _ => {
            return Classified::Refused(Refusal::invalid(format!(
                "Invalid params: _meta.{META_VERSION} must be a string"
            )))
        }
    };
    if LEGACY_VERSIONS.contains(&version) {
        // a claim naming a handshake revision is served under its rules
        return Classified::Legacy;
    }
    if !MODERN_VERSIONS.contains(&version) {
        return Classified::Refused(unsupported(version));
    }
    let capabilities = match meta.get(META_CLIENT_CAPS) {
        Some(c @ Value::Object(_)) => c.clone(),
        Some(_) => {
            return Classified::Refused(Refusal::invalid(format!(
                "Invalid params: _meta.{META_CLIENT_CAPS} must be an object"
            )))
        }
        None => {
            return Classified::Refused(Refusal::invalid(format!(
                "Invalid params: _meta.{META_CLIENT_CAPS} is required"
            )))
        }
    };
    if let Some(info) = meta.get(META_CLIENT_INFO) {
        if !info.is_object() {
            return Classified::Refused(Refusal::invalid(format!(
                "Invalid params: _meta.{META_CLIENT_INFO} must be an object"
            )));
        }
    }
    let log_level = match meta.get(META_LOG_LEVEL) {
        None => None,
        Some(Value::String(l)) => match LogLevel::parse(l) {
            Some(l) => Some(l),
            None => {
                return Classified::Refused(Refusal::invalid(format!(
                    "Invalid params: unknown log level {l:?} in _meta.{META_LOG_LEVEL}"
                )))
            }
        },
        Some(_) => {
            return Classified::Refused(Refusal::invalid(format!(
                "Invalid params: _meta.{META_LOG_LEVEL} must be a string"
            )))
        }
    };
    Classified::Modern(Envelope {
        capabilities,
        log_level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(meta: Value) -> Value {
        json!({"_meta": meta})
    }

    #[test]
    fn classifies_by_the_body() {
        assert_eq!(classify("tools/list", &json!({})), Classified::Legacy);
        assert_eq!(
            classify("initialize", &json!({"protocolVersion": "2025-11-25"})),
            Classified::Legacy
        );
        let ok = env(json!({META_VERSION: "2026-07-28", META_CLIENT_CAPS: {}}));
        assert!(matches!(classify("initialize", &ok), Classified::Modern(_)));
        assert!(matches!(classify("tools/list", &ok), Classified::Modern(_)));
        assert!(matches!(
            classify("server/discover", &json!({})),
            Classified::Refused(Refusal { status: 400, .. })
        ));
        let Classified::Refused(r) = classify(
            "tools/list",
            &env(json!({META_VERSION: "v999", META_CLIENT_CAPS: {}})),
        ) else {
            panic!()
        };
        assert_eq!(r.code, WireCode::UnsupportedProtocolVersion);
        assert_eq!(r.data.unwrap()["requested"], "v999");
        assert!(matches!(
            classify("tools/list", &env(json!({META_VERSION: "2026-07-28"}))),
            Classified::Refused(Refusal {
                code: WireCode::InvalidParams,
                ..
            })
        ));
        assert!(matches!(
            classify(
                "tools/list",
                &env(
                    json!({META_VERSION: "2026-07-28", META_CLIENT_CAPS: {}, META_LOG_LEVEL: "loud"})
                )
            ),
            Classified::Refused(_)
        ));
        assert_eq!(
            classify("tools/list", &env(json!({META_VERSION: "2025-11-25"}))),
            Classified::Legacy
        );
    }
}
