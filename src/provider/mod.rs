//! The model APIs' HTTP wires: one file per API (request body, response
//! reading, stream events, error bodies), driven by the
//! [`Conversation`](crate::conversation::Conversation). Tools out, calls in
//! and results back go through the dialect layer ([`crate::dialect`]);
//! these files only know the envelope around them.
//!
//! Everything here is pure: JSON and text in, JSON and text out.

use serde_json::Value;

use crate::client::SseEvent;
use crate::conversation::{
    ConversationOptions, FinishReason, ProviderError, ProviderErrorKind, Usage,
};
use crate::dialect::Dialect;

pub(crate) mod anthropic;
pub(crate) mod gemini;
pub(crate) mod openai_chat;
pub(crate) mod openai_responses;

/// The model APIs a [`Conversation`](crate::conversation::Conversation)
/// speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// Gemini `generateContent` / `streamGenerateContent?alt=sse`
    /// (the Gemini Developer API).
    Gemini,
    /// OpenAI Chat Completions, and every server that speaks it (Ollama,
    /// LM Studio, llama.cpp's server, vLLM, OpenRouter) by base URL.
    OpenAi,
    /// The OpenAI Responses API.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
    /// The `prompted` dialect over a Chat Completions endpoint: the tools
    /// are described in the system prompt and the calls read from the
    /// model's text, for models without tool calling.
    Prompted,
}

impl Provider {
    /// Every provider, in documentation order.
    pub const ALL: [Provider; 5] = [
        Provider::Gemini,
        Provider::OpenAi,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Prompted,
    ];

    /// The provider's name as the CLI and the JS package spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Gemini => "gemini",
            Provider::OpenAi => "openai",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Prompted => "prompted",
        }
    }

    /// Reads a provider's name ([`Provider::as_str`]).
    pub fn parse(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// The dialect its tools, calls and results are written in.
    pub fn dialect(self) -> Dialect {
        match self {
            Provider::Gemini => Dialect::Gemini,
            Provider::OpenAi => Dialect::OpenAi,
            Provider::OpenAiResponses => Dialect::OpenAiResponses,
            Provider::Anthropic => Dialect::Anthropic,
            Provider::Prompted => Dialect::Prompted,
        }
    }

    /// The vendor's base URL, as its SDK writes it: OpenAI's includes
    /// `/v1`, Anthropic's and Gemini's are the host's root (the paths
    /// carry their version).
    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Gemini => "https://generativelanguage.googleapis.com",
            Provider::OpenAi | Provider::OpenAiResponses | Provider::Prompted => {
                "https://api.openai.com/v1"
            }
            Provider::Anthropic => "https://api.anthropic.com",
        }
    }

    /// The environment variable the vendor's SDK reads its key from.
    pub fn key_variable(self) -> &'static str {
        match self {
            Provider::Gemini => "GEMINI_API_KEY",
            Provider::OpenAi | Provider::OpenAiResponses | Provider::Prompted => "OPENAI_API_KEY",
            Provider::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one request needs from the conversation: the options, the tools
/// as the dialect declares them, the prompt section (`prompted`), the
/// history in the API's shape, and whether to stream.
pub(crate) struct RequestParts<'a> {
    pub options: &'a ConversationOptions,
    pub tools: &'a [Value],
    pub prompt: Option<&'a str>,
    pub history: &'a [Value],
    pub stream: bool,
}

/// A field of a request body: a value of its own, or the history (or the
/// tools) written where they lie, after an item of its own when there is
/// one (OpenAI's system message).
pub(crate) enum Field<'a> {
    Value(Value),
    Items(Option<Value>, &'a [Value]),
}

/// A request's path (relative to the base URL), headers and body fields.
pub(crate) struct Built<'a> {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub fields: Vec<(&'static str, Field<'a>)>,
}

impl Built<'_> {
    /// The body as JSON text, written straight from the history and the
    /// tools (never copied into a tree of its own).
    pub(crate) fn body(&self) -> String {
        let mut out = String::with_capacity(4096);
        out.push('{');
        for (i, (key, field)) in self.fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            crate::rawjson::push_str(&mut out, key);
            out.push(':');
            match field {
                Field::Value(v) => crate::rawjson::push_value(&mut out, v),
                Field::Items(first, items) => {
                    out.push('[');
                    for (j, item) in first.iter().chain(items.iter()).enumerate() {
                        if j > 0 {
                            out.push(',');
                        }
                        crate::rawjson::push_value(&mut out, item);
                    }
                    out.push(']');
                }
            }
        }
        out.push('}');
        out
    }
}

/// One model response read: the response in the shape the dialect's
/// call reader takes, why the model stopped, and the tokens counted.
pub(crate) struct Read {
    pub response: Value,
    pub finish: FinishReason,
    /// The provider's words for a refusal or a block, when it gave any.
    pub note: Option<String>,
    pub usage: Usage,
}

/// A stream being read, per API.
pub(crate) enum Stream {
    Gemini(gemini::Stream),
    Chat(openai_chat::Stream),
    Responses(openai_responses::Stream),
    Anthropic(anthropic::Stream),
}

impl Stream {
    pub(crate) fn new(provider: Provider) -> Stream {
        match provider {
            Provider::Gemini => Stream::Gemini(gemini::Stream::default()),
            Provider::OpenAi | Provider::Prompted => {
                let mut s = openai_chat::Stream::default();
                s.prompted = provider == Provider::Prompted;
                Stream::Chat(s)
            }
            Provider::OpenAiResponses => Stream::Responses(openai_responses::Stream::default()),
            Provider::Anthropic => Stream::Anthropic(anthropic::Stream::default()),
        }
    }

    /// Reads one SSE event; text for the reader goes to `text`. An error
    /// event is an error.
    pub(crate) fn event(&mut self, ev: &SseEvent, text: &mut String) -> Result<(), ProviderError> {
        match self {
            Stream::Gemini(s) => s.event(ev, text),
            Stream::Chat(s) => s.event(ev, text),
            Stream::Responses(s) => s.event(ev, text),
            Stream::Anthropic(s) => s.event(ev, text),
        }
    }

    /// The whole response once the stream ended; an error when it broke
    /// off before the API's last event.
    pub(crate) fn finish(self) -> Result<Read, ProviderError> {
        match self {
            Stream::Gemini(s) => s.finish(),
            Stream::Chat(s) => s.finish(),
            Stream::Responses(s) => s.finish(),
            Stream::Anthropic(s) => s.finish(),
        }
    }
}

impl Provider {
    /// The next request.
    pub(crate) fn request<'a>(self, parts: &RequestParts<'a>) -> Built<'a> {
        match self {
            Provider::Gemini => gemini::request(parts),
            Provider::OpenAi | Provider::Prompted => openai_chat::request(parts, self),
            Provider::OpenAiResponses => openai_responses::request(parts),
            Provider::Anthropic => anthropic::request(parts),
        }
    }

    /// A user message with `text`, in the API's history shape.
    pub(crate) fn user_message(self, text: &str) -> Value {
        match self {
            Provider::Gemini => gemini::user_message(text),
            Provider::OpenAi | Provider::Prompted | Provider::OpenAiResponses => {
                serde_json::json!({"role": "user", "content": text})
            }
            Provider::Anthropic => anthropic::user_message(text),
        }
    }

    /// Reads a whole (not streamed) successful response body.
    pub(crate) fn read(self, body: &Value) -> Result<Read, ProviderError> {
        match self {
            Provider::Gemini => gemini::read(body),
            Provider::OpenAi | Provider::Prompted => openai_chat::read(body, self),
            Provider::OpenAiResponses => openai_responses::read(body),
            Provider::Anthropic => anthropic::read(body),
        }
    }

    /// The typed error of a failed response: its status, headers and body.
    pub(crate) fn error(
        self,
        status: u16,
        headers: &[(String, String)],
        body: &str,
        now_ms: u64,
    ) -> ProviderError {
        let parsed: Value = serde_json::from_str(body).unwrap_or(Value::Null);
        let (message, code) = match self {
            Provider::Gemini => gemini::error_parts(&parsed),
            Provider::OpenAi | Provider::Prompted | Provider::OpenAiResponses => {
                openai_chat::error_parts(&parsed)
            }
            Provider::Anthropic => anthropic::error_parts(&parsed),
        };
        let message = message.unwrap_or_else(|| {
            let text: String = body.trim().chars().take(300).collect();
            if text.is_empty() {
                format!("HTTP {status}")
            } else {
                format!("HTTP {status}: {text}")
            }
        });
        let mut kind = kind_of_status(status, &message, code.as_deref());
        if self == Provider::Gemini && gemini::is_key_error(&parsed) {
            kind = ProviderErrorKind::Auth;
        }
        let retry_after_ms = retry_after(headers, now_ms).or_else(|| match self {
            Provider::Gemini => gemini::retry_delay(&parsed),
            _ => None,
        });
        ProviderError {
            kind,
            status: Some(status),
            message,
            code,
            retry_after_ms,
        }
    }
}

/// The kind of error a status, the provider's message and its code say.
pub(crate) fn kind_of_status(status: u16, message: &str, code: Option<&str>) -> ProviderErrorKind {
    let lower = message.to_ascii_lowercase();
    let code = code.unwrap_or("");
    let too_long = code == "context_length_exceeded"
        || lower.contains("context length")
        || lower.contains("context_length")
        || lower.contains("context window")
        || lower.contains("prompt is too long")
        || lower.contains("too many tokens")
        || lower.contains("maximum number of tokens")
        || lower.contains("maximum context");
    match status {
        401 | 403 => ProviderErrorKind::Auth,
        404 => ProviderErrorKind::NotFound,
        408 => ProviderErrorKind::Timeout,
        413 => ProviderErrorKind::ContextTooLong,
        429 if code == "insufficient_quota" => ProviderErrorKind::Quota,
        429 => ProviderErrorKind::RateLimited,
        400..=499 if too_long => ProviderErrorKind::ContextTooLong,
        400..=499 => ProviderErrorKind::BadRequest,
        500..=599 => ProviderErrorKind::Server,
        _ => ProviderErrorKind::Malformed,
    }
}

/// An error event inside a stream (the status was 200): its kind from
/// the provider's code.
pub(crate) fn stream_error(message: String, code: Option<String>) -> ProviderError {
    let c = code.as_deref().unwrap_or("");
    let status = match c {
        "rate_limit_error" | "rate_limit_exceeded" | "RESOURCE_EXHAUSTED" => 429,
        "overloaded_error" | "api_error" | "server_error" | "internal_error" | "INTERNAL"
        | "UNAVAILABLE" => 500,
        "authentication_error"
        | "permission_error"
        | "invalid_api_key"
        | "UNAUTHENTICATED"
        | "PERMISSION_DENIED" => 401,
        "invalid_request_error" | "INVALID_ARGUMENT" | "context_length_exceeded" => 400,
        _ => 500,
    };
    ProviderError {
        kind: kind_of_status(status, &message, code.as_deref()),
        status: None,
        message,
        code,
        retry_after_ms: None,
    }
}

/// `retry-after-ms` (milliseconds), else `retry-after` (seconds, or an
/// HTTP date read against `now_ms`, milliseconds since the Unix epoch).
pub(crate) fn retry_after(headers: &[(String, String)], now_ms: u64) -> Option<u64> {
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    if let Some(ms) = get("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        if ms.is_finite() && ms >= 0.0 {
            return Some(ms.min(1e12) as u64);
        }
    }
    let v = get("retry-after")?;
    if let Ok(s) = v.parse::<f64>() {
        return (s.is_finite() && s >= 0.0).then(|| (s.min(1e9) * 1000.0) as u64);
    }
    http_date_ms(v).map(|at| at.saturating_sub(now_ms))
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) as milliseconds since
/// the Unix epoch.
fn http_date_ms(v: &str) -> Option<u64> {
    let mut it = v.split_whitespace();
    let _weekday = it.next()?;
    let day: u64 = it.next()?.parse().ok()?;
    let month = match it.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let year: u64 = it.next()?.parse().ok()?;
    let mut hms = it.next()?.split(':').map(|p| p.parse::<u64>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    if !(1970..=9999).contains(&year) || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    // days from the civil date (Howard Hinnant's algorithm)
    let (y, mo) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y / 400;
    let yoe = y - era * 400;
    let doy = (153 * mo + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = (era * 146_097 + doe).checked_sub(719_468)?;
    Some(((days * 86_400) + h * 3600 + m * 60 + s) * 1000)
}

/// A string field of an object.
pub(crate) fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

/// A count of tokens from a usage object (0 when absent).
pub(crate) fn count(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// A body field written when set.
pub(crate) fn put(
    fields: &mut Vec<(&'static str, Field<'_>)>,
    key: &'static str,
    v: Option<Value>,
) {
    if let Some(v) = v {
        fields.push((key, Field::Value(v)));
    }
}

/// A number as JSON (not-a-number is left out).
pub(crate) fn number(x: Option<f64>) -> Option<Value> {
    x.and_then(serde_json::Number::from_f64).map(Value::Number)
}

/// The response read as JSON, or a malformed-response error.
pub(crate) fn malformed(what: &str) -> ProviderError {
    ProviderError {
        kind: ProviderErrorKind::Malformed,
        status: None,
        message: what.to_string(),
        code: None,
        retry_after_ms: None,
    }
}

/// The error of a stream that ended before the API's last event.
pub(crate) fn cut(what: &str) -> ProviderError {
    ProviderError {
        kind: ProviderErrorKind::Interrupted,
        status: None,
        message: format!("the stream ended before {what}"),
        code: None,
        retry_after_ms: None,
    }
}

/// An SSE event's data as JSON (an error when it is not).
pub(crate) fn event_json(ev: &SseEvent) -> Result<Value, ProviderError> {
    serde_json::from_str(&ev.data)
        .map_err(|e| malformed(&format!("a stream event is not JSON ({e})")))
}

/// Shortens a string in place to `max` characters, saying how much was
/// left out; returns the bytes saved.
pub(crate) fn shorten_text(s: &mut String, max: usize) -> usize {
    let chars = s.chars().count();
    if chars <= max + 60 {
        return 0;
    }
    let head: String = s.chars().take(max).collect();
    let before = s.len();
    *s = format!(
        "{head}… [shortened to fit the conversation: {} of {chars} characters left out]",
        chars - max
    );
    before.saturating_sub(s.len())
}

/// Shortens every string of a result's value (text blocks, outputs) over
/// `max` characters; returns the bytes saved.
pub(crate) fn shorten_strings(v: &mut Value, max: usize, depth: usize) -> usize {
    if depth > 8 {
        return 0;
    }
    match v {
        Value::String(s) => shorten_text(s, max),
        Value::Array(a) => a
            .iter_mut()
            .map(|x| shorten_strings(x, max, depth + 1))
            .sum(),
        Value::Object(m) => {
            let mut saved = 0;
            for (k, x) in m.iter_mut() {
                // ids and names tie a result to its call: never shortened
                if matches!(
                    k.as_str(),
                    "id" | "name"
                        | "tool_use_id"
                        | "tool_call_id"
                        | "call_id"
                        | "type"
                        | "role"
                        | "media_type"
                ) {
                    continue;
                }
                if k == "data" && x.is_string() {
                    // an image: dropped for a note
                    let len = x.as_str().map_or(0, str::len);
                    if len > max {
                        *x = Value::String(String::new());
                        saved += len;
                    }
                    continue;
                }
                saved += shorten_strings(x, max, depth + 1);
            }
            saved
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        let h = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        assert_eq!(retry_after(&h("Retry-After", "3"), 0), Some(3000));
        assert_eq!(retry_after(&h("retry-after-ms", "250.5"), 0), Some(250));
        assert_eq!(retry_after(&h("retry-after", "soon"), 0), None);
        // Sun, 06 Nov 1994 08:49:37 GMT is 784111777 s after the epoch
        let at = 784_111_777_000;
        assert_eq!(
            retry_after(
                &h("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT"),
                at - 5000
            ),
            Some(5000)
        );
        assert_eq!(retry_after(&h("retry-after", "-1"), 0), None);
    }

    #[test]
    fn kinds() {
        assert_eq!(kind_of_status(401, "", None), ProviderErrorKind::Auth);
        assert_eq!(
            kind_of_status(
                400,
                "This model's maximum context length is 8192 tokens",
                None
            ),
            ProviderErrorKind::ContextTooLong
        );
        assert_eq!(
            kind_of_status(
                400,
                "prompt is too long: 210000 tokens > 200000 maximum",
                None
            ),
            ProviderErrorKind::ContextTooLong
        );
        assert_eq!(kind_of_status(529, "", None), ProviderErrorKind::Server);
        assert_eq!(
            kind_of_status(400, "bad", None),
            ProviderErrorKind::BadRequest
        );
    }

    #[test]
    fn shortening_keeps_ids() {
        let mut v =
            serde_json::json!({"tool_call_id": "x".repeat(500), "content": "y".repeat(500)});
        assert!(shorten_strings(&mut v, 100, 0) > 0);
        assert_eq!(v["tool_call_id"].as_str().map(str::len), Some(500));
        assert!(v["content"]
            .as_str()
            .is_some_and(|s| s.contains("shortened")));
    }
}
