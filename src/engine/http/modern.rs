//! The body-aware half of the Streamable HTTP rules for 2026-07-28: the
//! standard request headers checked against the body (specification
//! 2026-07-28, *Transports › Streamable HTTP › Request Metadata* and
//! *Server Validation*).

use serde_json::{json, Value};

use super::{body_decision, rule_header, BodyDecision, HttpPolicy, HttpRequest};

/// The headers [`check_message`] reads, by their lower-case names (all of
/// them in [`HEADERS_READ`](super::HEADERS_READ)): a host need pass only these.
pub const MESSAGE_HEADERS_READ: [&str; 3] = ["mcp-protocol-version", "mcp-method", "mcp-name"];

/// A header [`check_message`] reads: one of [`MESSAGE_HEADERS_READ`]
/// (checked in debug builds).
fn message_header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    debug_assert!(
        MESSAGE_HEADERS_READ.contains(&name),
        "{name} is missing from MESSAGE_HEADERS_READ"
    );
    rule_header(req, name)
}
use crate::engine::era::{self, LEGACY_VERSIONS, MODERN_VERSIONS};
use crate::engine::wire::{self, Incoming, WireCode};
use crate::engine::PROTOCOL_VERSIONS;

/// Decides on a POST body once read, with the request's headers: like
/// [`check_body`](super::check_body) for 2025 traffic, and for 2026-07-28 messages (a body
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
    check_message_read(req, body, has_session, policy.max_body).0
}

/// [`check_message`] with the policy's `max_body`, and the message as it
/// was read for the decision (not for a body past the size limit), for an engine to take without reading
/// it again (`Engine::handle_read`).
pub(crate) fn check_message_read(
    req: &HttpRequest,
    body: &str,
    has_session: bool,
    max_body: usize,
) -> (BodyDecision, Option<Incoming>) {
    if body.len() > max_body {
        return (BodyDecision::TooLarge, None);
    }
    // the body is read once: what the 2025 rules decide comes from the same reading
    let incoming = wire::read(body);
    let decision = decide(req, &incoming, has_session);
    (decision, Some(incoming))
}

/// [`check_message`] on the message read from the body.
fn decide(req: &HttpRequest, incoming: &Incoming, has_session: bool) -> BodyDecision {
    let header_version = message_header(req, "mcp-protocol-version").map(str::trim);
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
    let (id, method, params, is_request) = match incoming {
        Incoming::Request { id, method, params } => (id.clone(), method.as_str(), params, true),
        Incoming::Notification { method, params } => (Value::Null, method.as_str(), params, false),
        _ => return body_decision(incoming, has_session),
    };
    let claim = era::has_claim(params);
    let claimed = era::claimed_version(params);
    let claimed_modern = claimed.is_some_and(|v| MODERN_VERSIONS.contains(&v));
    let mcp_method = message_header(req, "mcp-method").map(str::trim);
    if method == "initialize" && !claimed_modern {
        if header_modern {
            return mismatch(&id, "an initialize request (2025 handshake) came with a 2026-07-28 MCP-Protocol-Version header".into());
        }
        return body_decision(incoming, has_session);
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
        let source = match method {
            "tools/call" | "prompts/get" => params.get("name").and_then(Value::as_str),
            "resources/read" => params.get("uri").and_then(Value::as_str),
            _ => None,
        };
        if let Some(expected) = source {
            let Some(raw) = message_header(req, "mcp-name").map(str::trim) else {
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
    body_decision(incoming, has_session)
}

/// The prefix of the headers that mirror tool parameters (SEP-2243).
pub const PARAM_HEADER_PREFIX: &str = "mcp-param-";

/// Checks a 2026-07-28 `tools/call`'s `Mcp-Param-*` headers against its
/// arguments (specification 2026-07-28, *Transports › Custom Headers*,
/// SEP-2243): every property of the tool's input schema that carries
/// `"x-mcp-header": "Name"` and has a value in the arguments (not null)
/// must come with an `Mcp-Param-Name` header (the name compared without
/// regard to case) whose value, after surrounding whitespace is dropped
/// and the `=?base64?…?=` form is decoded, is the argument's text: a
/// string as it is, a number as JSON writes it, `true` or `false`. A
/// header for an argument that is absent or null is a mismatch too.
/// `headers` may hold any headers: the others are ignored.
///
/// The message of the error says which header and why; the engine sends
/// it as a -32020 `HeaderMismatch` error with HTTP 400.
///
/// ```
/// use mcp_switchboard::http::check_param_headers;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "region": {"type": "string", "x-mcp-header": "Region"}}});
/// let args = json!({"region": "Zuid-Holland"});
/// let h = |v: &str| vec![("Mcp-Param-Region".to_string(), v.to_string())];
/// assert!(check_param_headers(&schema, &args, &h("Zuid-Holland")).is_ok());
/// assert!(check_param_headers(&schema, &args, &h("=?base64?WnVpZC1Ib2xsYW5k?=")).is_ok());
/// assert!(check_param_headers(&schema, &args, &h("Noord-Holland")).is_err());
/// assert!(check_param_headers(&schema, &args, &[]).is_err());
/// ```
pub fn check_param_headers(
    schema: &Value,
    arguments: &Value,
    headers: &[(String, String)],
) -> Result<(), String> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (param, sub) in properties {
        let Some(name) = sub
            .get("x-mcp-header")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
        else {
            continue;
        };
        let header = headers.iter().find(|(k, _)| {
            k.len() == PARAM_HEADER_PREFIX.len() + name.len()
                && k.get(..PARAM_HEADER_PREFIX.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(PARAM_HEADER_PREFIX))
                && k.get(PARAM_HEADER_PREFIX.len()..)
                    .is_some_and(|n| n.eq_ignore_ascii_case(name))
        });
        let expected = match arguments.get(param) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Bool(b)) => Some(b.to_string()),
            Some(Value::Number(n)) => Some(n.to_string()),
            // x-mcp-header is for primitive parameters only
            Some(_) => continue,
        };
        match (expected, header) {
            (None, None) => {}
            (None, Some(_)) => {
                return Err(format!(
                    "the Mcp-Param-{name} header is given, but the argument {param:?} is not"
                ))
            }
            (Some(_), None) => {
                return Err(format!(
                    "the Mcp-Param-{name} header is missing (the argument {param:?} is given)"
                ))
            }
            (Some(expected), Some((_, raw))) => {
                let raw = raw.trim_matches([' ', '\t']);
                let Some(given) = decode_header_value(raw) else {
                    return Err(format!(
                        "the Mcp-Param-{name} header has an invalid Base64 value"
                    ));
                };
                if given != expected {
                    return Err(format!(
                        "Mcp-Param-{name} header value {given:?} does not match the argument {param:?} ({expected:?})"
                    ));
                }
            }
        }
    }
    Ok(())
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

/// Standard Base64 (RFC 4648 §4) with its padding: a length that is not
/// a multiple of four is refused, as SEP-2243's test table asks.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    let trimmed = text.trim_end_matches('=');
    if text.len() - trimmed.len() > 2 || text.len() % 4 != 0 {
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
        assert_eq!(base64_decode("YQ=="), Some(b"a".to_vec()));
        // padding is required (SEP-2243's table: `SGVsbG8` is refused)
        assert_eq!(base64_decode("YQ"), None);
        assert_eq!(base64_decode("SGVsbG8"), None);
        assert_eq!(base64_decode("Y==="), None);
        assert_eq!(base64_decode("SGVs!!!bG8="), None);
    }

    #[test]
    fn param_headers_mirror_the_arguments() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "loud": {"type": "boolean", "x-mcp-header": "Loud"},
            "query": {"type": "string"}}});
        let h = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let args = json!({"region": " Zeeland ", "priority": 3, "loud": false, "query": "x"});
        let good = h(&[
            ("mcp-param-region", "=?base64?IFplZWxhbmQg?="),
            ("MCP-PARAM-PRIORITY", " 3 "),
            ("Mcp-Param-Loud", "false"),
        ]);
        assert_eq!(check_param_headers(&schema, &args, &good), Ok(()));
        // a value with spaces around it only matches in Base64 (OWS is dropped)
        let plain = h(&[
            ("mcp-param-region", " Zeeland "),
            ("mcp-param-priority", "3"),
            ("mcp-param-loud", "false"),
        ]);
        assert!(check_param_headers(&schema, &args, &plain).is_err());
        // missing, wrong, bad Base64, given for an absent argument
        let missing = h(&[("mcp-param-region", "=?base64?IFplZWxhbmQg?=")]);
        let e = check_param_headers(&schema, &args, &missing).unwrap_err();
        assert!(e.contains("Mcp-Param-Priority header is missing"), "{e}");
        let wrong = h(&[
            ("mcp-param-region", "=?base64?IFplZWxhbmQg?="),
            ("mcp-param-priority", "4"),
            ("mcp-param-loud", "false"),
        ]);
        assert!(check_param_headers(&schema, &args, &wrong).is_err());
        let bad = h(&[("mcp-param-region", "=?base64?SGVsbG8?=")]);
        assert!(check_param_headers(&schema, &json!({"region": "Hello"}), &bad).is_err());
        assert!(check_param_headers(&schema, &json!({}), &bad).is_err());
        // null and absent arguments need no header; the literal form of
        // something that looks like Base64 is compared as it is
        assert_eq!(
            check_param_headers(&schema, &json!({"loud": null}), &[]),
            Ok(())
        );
        let literal = h(&[("mcp-param-region", "SGVsbG8=")]);
        assert_eq!(
            check_param_headers(&schema, &json!({"region": "SGVsbG8="}), &literal),
            Ok(())
        );
    }
}
