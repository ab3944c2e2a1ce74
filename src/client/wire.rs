//! The client's messages and headers: JSON-RPC requests with or without
//! the 2026-07-28 `_meta` envelope, and the headers of each era
//! (specification 2026-07-28, *Transports › Streamable HTTP › Request
//! Metadata*; 2025-11-25, *Transports › Session Management* and
//! *Protocol Version Header*).

use serde_json::{json, Map, Value};

use crate::engine::era::{META_CLIENT_CAPS, META_CLIENT_INFO, META_VERSION};

/// A JSON-RPC request, its params carrying the modern envelope when
/// `envelope` is given (version, client info, capabilities).
pub(crate) fn request(id: u64, method: &str, params: &Value, envelope: Option<&Value>) -> String {
    let mut params = match params {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    if let Some(env) = envelope.and_then(Value::as_object) {
        let mut meta = match params.remove("_meta") {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        for (k, v) in env {
            meta.insert(k.clone(), v.clone());
        }
        params.insert("_meta".into(), Value::Object(meta));
    }
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// The modern envelope for `version`.
pub(crate) fn envelope(version: &str, name: &str, client_version: &str, caps: &Value) -> Value {
    json!({
        META_VERSION: version,
        META_CLIENT_INFO: {"name": name, "version": client_version},
        META_CLIENT_CAPS: caps,
    })
}

/// A notification.
pub(crate) fn notification(method: &str, params: Option<Value>) -> String {
    match params {
        Some(p) => json!({"jsonrpc": "2.0", "method": method, "params": p}).to_string(),
        None => json!({"jsonrpc": "2.0", "method": method}).to_string(),
    }
}

/// The response to a server's request.
pub(crate) fn response(id: &Value, outcome: Result<&Value, (i64, &str)>) -> String {
    match outcome {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
        Err((code, message)) => {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
                .to_string()
        }
    }
}

/// The `Mcp-Name` of a 2026-07-28 request: `params.name` of `tools/call`
/// and `prompts/get`, `params.uri` of `resources/read`.
pub(crate) fn mcp_name<'a>(method: &str, params: &'a Value) -> Option<&'a str> {
    let field = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return None,
    };
    params.get(field).and_then(Value::as_str)
}

/// A header value as the 2026-07-28 rules write it: plain when it is
/// printable ASCII without surrounding spaces, else `=?base64?…?=`
/// (*Streamable HTTP › Value Encoding*).
pub(crate) fn header_value(s: &str) -> String {
    let plain = !s.is_empty()
        && s.trim() == s
        && !(s.starts_with("=?base64?") && s.ends_with("?="))
        && s.bytes().all(|b| b == b'\t' || (0x20..=0x7e).contains(&b));
    if plain {
        s.to_string()
    } else {
        format!("=?base64?{}?=", base64(s.as_bytes()))
    }
}

/// Standard Base64 with padding (RFC 4648 §4).
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                let idx = ((n >> (18 - 6 * i)) & 63) as usize;
                out.push(char::from(ABC.get(idx).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Where the legacy transport's `endpoint` event points, resolved against
/// the stream's URL: a path, a relative reference, or an absolute URL on
/// the same origin (scheme, host and port); `None` for anything else (the
/// bearer token must not go elsewhere).
pub(crate) fn same_origin(base: &str, endpoint: &str) -> Option<String> {
    let scheme_end = base.find("://")? + 3;
    let rest = base.get(scheme_end..)?;
    let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let origin = base.get(..scheme_end + authority_len)?;
    let path = rest
        .get(authority_len..)
        .map_or("", |p| p.split(['?', '#']).next().unwrap_or(""));
    let bad = |s: &str| {
        s.chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    };
    if endpoint.is_empty() || bad(endpoint) {
        return None;
    }
    if let Some(tail) = endpoint
        .get(..origin.len())
        .filter(|h| h.eq_ignore_ascii_case(origin))
    {
        let after = endpoint.get(tail.len()..)?;
        return (after.is_empty() || after.starts_with(['/', '?']))
            .then(|| format!("{origin}{after}"));
    }
    if endpoint.starts_with("//") || endpoint.contains("://") {
        return None;
    }
    if endpoint.starts_with('/') {
        return Some(format!("{origin}{endpoint}"));
    }
    let dir = path.rfind('/').and_then(|i| path.get(..=i)).unwrap_or("/");
    Some(format!("{origin}{dir}{endpoint}"))
}

/// The value of header `name` (any case) among `headers`.
pub(crate) fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values() {
        assert_eq!(header_value("get_weather"), "get_weather");
        assert_eq!(header_value("a"), "a");
        assert_eq!(header_value("héllo"), "=?base64?aMOpbGxv?=");
        assert_eq!(header_value(" x"), "=?base64?IHg=?=");
        assert_eq!(header_value(""), "=?base64??=");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"abc"), "YWJj");
    }

    #[test]
    fn endpoints_stay_on_the_origin() {
        let base = "http://old:8080/mcp/sse?x=1";
        let ok = |e: &str| same_origin(base, e);
        assert_eq!(
            ok("/messages?sid=1").as_deref(),
            Some("http://old:8080/messages?sid=1")
        );
        assert_eq!(
            ok("messages?sid=1").as_deref(),
            Some("http://old:8080/mcp/messages?sid=1")
        );
        assert_eq!(
            ok("http://old:8080/m").as_deref(),
            Some("http://old:8080/m")
        );
        assert_eq!(
            ok("HTTP://OLD:8080/m").as_deref(),
            Some("http://old:8080/m")
        );
        for bad in [
            "http://old:8080.evil/m",
            "http://evil/m",
            "//evil/m",
            "https://old:8080/m",
            "",
            "/a b",
            "/a\\b",
        ] {
            assert_eq!(ok(bad), None, "{bad}");
        }
        assert_eq!(
            same_origin("http://old", "/m").as_deref(),
            Some("http://old/m")
        );
        assert_eq!(same_origin("not a url", "/m"), None);
    }

    #[test]
    fn envelopes_merge_into_meta() {
        let env = envelope("2026-07-28", "c", "1", &json!({}));
        let text = request(
            4,
            "tools/call",
            &json!({"name": "x", "_meta": {"progressToken": 9}}),
            Some(&env),
        );
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["params"]["_meta"]["progressToken"], 9);
        assert_eq!(v["params"]["_meta"][META_VERSION], "2026-07-28");
        assert_eq!(v["id"], 4);
        let v: Value = serde_json::from_str(&request(1, "ping", &Value::Null, None)).unwrap();
        assert_eq!(v["params"], json!({}));
    }
}
