//! The body-aware half of the Streamable HTTP rules for 2026-07-28: the
//! standard request headers checked against the body (specification
//! 2026-07-28, *Transports › Streamable HTTP › Request Metadata* and
//! *Server Validation*).

use serde_json::{json, Value};

use super::{check_body, rule_header, BodyDecision, HttpPolicy, HttpRequest};
use crate::engine::era::{self, LEGACY_VERSIONS, MODERN_VERSIONS};
use crate::engine::wire::{self, Incoming, WireCode};
use crate::engine::PROTOCOL_VERSIONS;

/// Decides on a POST body once read, with the request's headers: like
/// [`check_body`] for 2025 traffic, and for 2026-07-28 messages (a body
/// whose `_meta` names a protocol version, or an `MCP-Protocol-Version`
/// header naming a modern one) [`BodyDecision::Stateless`], or
/// [`BodyDecision::Refuse`] with a JSON-RPC error and HTTP 400 when:
///
/// * the `MCP-Protocol-Version`, `Mcp-Method` or (for `tools/call`,
///   `prompts/get`, `resources/read`) `Mcp-Name` header is missing, or does
///   not match the body (-32020 `HeaderMismatch`; `Mcp-Name` may carry the
///   `=?base64?…?=` form, decoded before comparing);
/// * an `initialize` comes with a modern version header (-32020);
/// * the header names 2026-07-28 but the body has no envelope (-32602);
/// * the header names a version not served at all (-32022, with
///   `data.supported`).
///
/// ```
/// use mcp_switchboard::http::{check_message, BodyDecision, HttpPolicy, HttpRequest};
///
/// let policy = HttpPolicy::for_host("127.0.0.1", None)?;
/// let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a",
///   "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
///            "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
/// let mut req = HttpRequest::default();
/// req.method = "POST".into();
/// req.headers = vec![("MCP-Protocol-Version".into(), "2026-07-28".into()),
///                    ("Mcp-Method".into(), "tools/call".into()),
///                    ("Mcp-Name".into(), "b".into())];
/// assert!(matches!(check_message(&req, body, false, &policy), BodyDecision::Refuse { status: 400, .. }));
/// req.headers[2].1 = "=?base64?YQ==?=".into(); // "a"
/// assert_eq!(check_message(&req, body, false, &policy), BodyDecision::Stateless { expects_reply: true });
/// # Ok::<(), mcp_switchboard::Error>(())
/// ```
pub fn check_message(
    req: &HttpRequest,
    body: &str,
    has_session: bool,
    policy: &HttpPolicy,
) -> BodyDecision {
    if body.len() > policy.max_body {
        return BodyDecision::TooLarge;
    }
    let header_version = rule_header(req, "mcp-protocol-version").map(str::trim);
    let header_modern = header_version.is_some_and(|v| MODERN_VERSIONS.contains(&v));
    let refuse =
        |id: &Value, code: WireCode, message: String, data: Option<Value>| BodyDecision::Refuse {
            status: 400,
            body: wire::error(id, code, &message, data),
        };
    let mismatch = |id: &Value, message: String| {
        refuse(
            id,
            WireCode::HeaderMismatch,
            format!("Header mismatch: {message}"),
            None,
        )
    };
    let (id, method, params, is_request) = match wire::read(body) {
        Incoming::Request { id, method, params } => (id, method, params, true),
        Incoming::Notification { method, params } => (Value::Null, method, params, false),
        _ => return check_body(body, has_session, policy),
    };
    let claim = era::has_claim(&params);
    let claimed = era::claimed_version(&params);
    let claimed_modern = claimed.is_some_and(|v| MODERN_VERSIONS.contains(&v));
    let mcp_method = rule_header(req, "mcp-method").map(str::trim);
    if method == "initialize" && !claimed_modern {
        if header_modern {
            return mismatch(&id, "an initialize request (2025 handshake) came with a 2026-07-28 MCP-Protocol-Version header".into());
        }
        return check_body(body, has_session, policy);
    }
    if claim && !claimed.is_some_and(|v| LEGACY_VERSIONS.contains(&v)) {
        if let (Some(h), Some(c)) = (header_version, claimed) {
            if h != c {
                return mismatch(
                    &id,
                    format!("MCP-Protocol-Version header {h} does not match _meta version {c}"),
                );
            }
        }
        if !is_request {
            return BodyDecision::Stateless {
                expects_reply: false,
            };
        }
        if header_version.is_none() {
            return mismatch(&id, "the MCP-Protocol-Version header is missing".into());
        }
        match mcp_method {
            None => return mismatch(&id, "the Mcp-Method header is missing".into()),
            Some(m) if m != method => {
                return mismatch(
                    &id,
                    format!("Mcp-Method header '{m}' does not match body method '{method}'"),
                )
            }
            Some(_) => {}
        }
        let source = match method.as_str() {
            "tools/call" | "prompts/get" => params.get("name").and_then(Value::as_str),
            "resources/read" => params.get("uri").and_then(Value::as_str),
            _ => None,
        };
        if let Some(expected) = source {
            let Some(raw) = rule_header(req, "mcp-name").map(str::trim) else {
                return mismatch(&id, "the Mcp-Name header is missing".into());
            };
            let Some(given) = decode_header_value(raw) else {
                return mismatch(
                    &id,
                    "the Mcp-Name header has an invalid Base64 value".into(),
                );
            };
            if given != expected {
                return mismatch(
                    &id,
                    format!(
                        "Mcp-Name header value '{given}' does not match body value '{expected}'"
                    ),
                );
            }
        }
        return BodyDecision::Stateless {
            expects_reply: true,
        };
    }
    if header_modern {
        if !is_request {
            return BodyDecision::Stateless {
                expects_reply: false,
            };
        }
        return refuse(
            &id,
            WireCode::InvalidParams,
            format!(
                "Invalid params: the MCP-Protocol-Version header names {}, but _meta lacks {} and {}",
                header_version.unwrap_or(""),
                era::META_VERSION,
                era::META_CLIENT_CAPS
            ),
            None,
        );
    }
    if let Some(v) = header_version {
        if !PROTOCOL_VERSIONS.contains(&v) && v != "2025-03-26" {
            return refuse(
                &id,
                WireCode::UnsupportedProtocolVersion,
                format!("Unsupported protocol version {v}"),
                Some(json!({"supported": PROTOCOL_VERSIONS, "requested": v})),
            );
        }
    }
    check_body(body, has_session, policy)
}

/// A header value, with the `=?base64?…?=` form decoded; `None` for bad
/// Base64 or text that is not UTF-8.
fn decode_header_value(raw: &str) -> Option<String> {
    match raw
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    {
        Some(b64) => String::from_utf8(base64_decode(b64)?).ok(),
        None => Some(raw.to_string()),
    }
}

/// Standard Base64 (RFC 4648 §4, padding optional).
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    let trimmed = text.trim_end_matches('=');
    if text.len() - trimmed.len() > 2 {
        return None;
    }
    for b in trimmed.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(headers: &[(&str, &str)]) -> HttpRequest {
        HttpRequest {
            method: "POST".into(),
            path: "/mcp".into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            session_known: false,
        }
    }

    fn code(d: &BodyDecision) -> Option<i64> {
        match d {
            BodyDecision::Refuse { body, .. } => {
                serde_json::from_str::<Value>(body).ok()?["error"]["code"].as_i64()
            }
            _ => None,
        }
    }

    const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

    #[test]
    fn standard_headers_against_the_body() {
        let policy = HttpPolicy::for_host("127.0.0.1", None).unwrap();
        let list =
            format!(r#"{{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{{{META}}}}}"#);
        let v = ("mcp-protocol-version", "2026-07-28");
        let ok = post(&[v, ("mcp-method", "tools/list")]);
        assert_eq!(
            check_message(&ok, &list, false, &policy),
            BodyDecision::Stateless {
                expects_reply: true
            }
        );
        assert_eq!(
            code(&check_message(&post(&[v]), &list, false, &policy)),
            Some(-32020)
        );
        assert_eq!(
            code(&check_message(
                &post(&[("mcp-method", "tools/list")]),
                &list,
                false,
                &policy
            )),
            Some(-32020)
        );
        assert_eq!(
            code(&check_message(
                &post(&[v, ("mcp-method", "tools/call")]),
                &list,
                false,
                &policy
            )),
            Some(-32020)
        );
        assert_eq!(
            code(&check_message(
                &post(&[
                    ("mcp-protocol-version", "2025-11-25"),
                    ("mcp-method", "tools/list")
                ]),
                &list,
                false,
                &policy
            )),
            Some(-32020)
        );
        // the header names 2026-07-28, the body has no envelope
        let bare = r#"{"jsonrpc":"2.0","id":6,"method":"server/discover","params":{}}"#;
        let d = check_message(
            &post(&[v, ("mcp-method", "server/discover")]),
            bare,
            false,
            &policy,
        );
        assert_eq!(code(&d), Some(-32602));
        assert!(matches!(d, BodyDecision::Refuse { ref body, .. } if body.contains(r#""id":6"#)));
        // an unknown version with standard headers: -32022 naming what is served
        let d = check_message(
            &post(&[
                ("mcp-protocol-version", "v999"),
                ("mcp-method", "tools/list"),
            ]),
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#,
            false,
            &policy,
        );
        assert_eq!(code(&d), Some(-32022));
        // initialize with a modern header
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;
        assert_eq!(
            code(&check_message(&post(&[v]), init, false, &policy)),
            Some(-32020)
        );
        assert_eq!(
            check_message(&post(&[]), init, false, &policy),
            BodyDecision::NewSession
        );
        // Mcp-Name, plain and Base64
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"Hallo, wereld",{META}}}}}"#
        );
        let m = ("mcp-method", "tools/call");
        assert_eq!(
            code(&check_message(&post(&[v, m]), &call, false, &policy)),
            Some(-32020)
        );
        assert_eq!(
            check_message(
                &post(&[v, m, ("mcp-name", "Hallo, wereld")]),
                &call,
                false,
                &policy
            ),
            BodyDecision::Stateless {
                expects_reply: true
            }
        );
        assert_eq!(
            check_message(
                &post(&[v, m, ("mcp-name", "=?base64?SGFsbG8sIHdlcmVsZA==?=")]),
                &call,
                false,
                &policy
            ),
            BodyDecision::Stateless {
                expects_reply: true
            }
        );
        assert_eq!(
            code(&check_message(
                &post(&[v, m, ("mcp-name", "=?base64?!!?=")]),
                &call,
                false,
                &policy
            )),
            Some(-32020)
        );
        // 2025 traffic goes on as before
        assert_eq!(
            check_message(
                &post(&[]),
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                false,
                &policy
            ),
            BodyDecision::NoSession
        );
    }

    #[test]
    fn base64() {
        assert_eq!(
            base64_decode("SGVsbG8sIOS4lueVjA==").map(String::from_utf8),
            Some(Ok("Hello, 世界".to_string()))
        );
        assert_eq!(base64_decode("YQ"), Some(b"a".to_vec()));
        assert_eq!(base64_decode("Y==="), None);
    }
}
