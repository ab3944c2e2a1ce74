//! The Gemini Developer API's wire: `POST
//! /v1beta/models/{model}:generateContent` (and
//! `:streamGenerateContent?alt=sse`, each `data:` a whole
//! `GenerateContentResponse`), the key in `x-goog-api-key`, errors as
//! `{"error": {code, message, status, details}}` with `RetryInfo`.

use serde_json::{json, Map, Value};

use super::{count, event_json, number, put, str_of, Field, Read, RequestParts};
use crate::client::SseEvent;
use crate::conversation::{FinishReason, ProviderError, Usage};

/// The model's name as a path segment: `models/` taken off, characters
/// outside the unreserved set percent-encoded.
pub(crate) fn model_segment(model: &str) -> String {
    let m = model.strip_prefix("models/").unwrap_or(model);
    let mut out = String::with_capacity(m.len());
    for b in m.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub(crate) fn request<'a>(p: &RequestParts<'a>) -> super::Built<'a> {
    let o = p.options;
    let path = if p.stream {
        format!(
            "/v1beta/models/{}:streamGenerateContent?alt=sse",
            model_segment(&o.model)
        )
    } else {
        format!("/v1beta/models/{}:generateContent", model_segment(&o.model))
    };
    let mut fields = vec![("contents", Field::Items(None, p.history))];
    if let Some(system) = o.system.as_deref().filter(|s| !s.is_empty()) {
        fields.push((
            "systemInstruction",
            Field::Value(json!({"parts": [{"text": system}]})),
        ));
    }
    if !p.tools.is_empty() {
        fields.push(("tools", Field::Items(None, p.tools)));
    }
    let mut config = Vec::new();
    put(&mut config, "temperature", number(o.temperature));
    put(&mut config, "topP", number(o.top_p));
    put(
        &mut config,
        "maxOutputTokens",
        o.max_output_tokens.map(|n| json!(n)),
    );
    if !config.is_empty() {
        let mut m = Map::new();
        for (k, f) in config {
            if let Field::Value(v) = f {
                m.insert(k.into(), v);
            }
        }
        fields.push(("generationConfig", Field::Value(Value::Object(m))));
    }
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if let Some(key) = o.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("x-goog-api-key".into(), key.to_string()));
    }
    super::Built {
        path,
        headers,
        fields,
    }
}

pub(crate) fn user_message(text: &str) -> Value {
    json!({"role": "user", "parts": [{"text": text}]})
}

/// Why a candidate stopped.
fn finish_of(reason: Option<&str>, has_calls: bool) -> FinishReason {
    match reason {
        _ if has_calls => FinishReason::ToolCalls,
        Some("MAX_TOKENS") => FinishReason::MaxTokens,
        Some(
            "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY"
            | "LANGUAGE",
        ) => FinishReason::Safety,
        _ => FinishReason::Stop,
    }
}

fn usage_of(v: &Value) -> Usage {
    let u = v.get("usageMetadata").unwrap_or(&Value::Null);
    Usage {
        input_tokens: count(u, "promptTokenCount"),
        output_tokens: count(u, "candidatesTokenCount") + count(u, "thoughtsTokenCount"),
    }
}

pub(crate) fn read(body: &Value) -> Result<Read, ProviderError> {
    if let Some(e) = body.get("error") {
        let (message, code) = error_parts(&json!({"error": e}));
        return Err(super::stream_error(
            message.unwrap_or_else(|| "Gemini returned an error".into()),
            code,
        ));
    }
    if !body.is_object() {
        return Err(super::malformed(
            "the response is not a GenerateContentResponse",
        ));
    }
    let candidate = body
        .get("candidates")
        .and_then(Value::as_array)
        .and_then(|c| c.first());
    let Some(candidate) = candidate else {
        let reason = body
            .pointer("/promptFeedback/blockReason")
            .and_then(Value::as_str);
        return Ok(Read {
            response: json!({"candidates": []}),
            finish: if reason.is_some() {
                FinishReason::Safety
            } else {
                FinishReason::Stop
            },
            note: reason.map(|r| format!("Gemini blocked the prompt: {r}")),
            usage: usage_of(body),
        });
    };
    let parts = candidate
        .pointer("/content/parts")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let has_calls = parts.iter().any(|p| p.get("functionCall").is_some());
    let reason = str_of(candidate, "finishReason");
    let finish = finish_of(reason, has_calls);
    let note = (finish == FinishReason::Safety)
        .then(|| format!("Gemini stopped: {}", reason.unwrap_or("SAFETY")));
    // the first candidate alone: the history takes one
    let mut content = candidate
        .get("content")
        .cloned()
        .unwrap_or_else(|| json!({"parts": []}));
    if let Value::Object(m) = &mut content {
        m.entry("role").or_insert_with(|| json!("model"));
        if !m.get("parts").is_some_and(Value::is_array) {
            m.insert("parts".into(), json!([]));
        }
    }
    Ok(Read {
        response: json!({"candidates": [{"content": content}]}),
        finish,
        note,
        usage: usage_of(body),
    })
}

/// A streamed response: the parts so far (adjacent plain text joined),
/// the last finish reason and usage.
#[derive(Default)]
pub(crate) struct Stream {
    parts: Vec<Value>,
    finish: Option<String>,
    usage: Usage,
    blocked: Option<String>,
    events: usize,
}

/// Whether a part is plain text that a next text part may join.
fn joinable(p: &Value) -> bool {
    p.as_object().is_some_and(|m| {
        m.get("text").is_some_and(Value::is_string)
            && m.keys().all(|k| k == "text" || k == "thought")
    })
}

impl Stream {
    pub(crate) fn event(&mut self, ev: &SseEvent, text: &mut String) -> Result<(), ProviderError> {
        let v = event_json(ev)?;
        if v.get("error").is_some() {
            return Err(read(&v).err().unwrap_or_else(|| {
                super::malformed("a stream event holds an error that cannot be read")
            }));
        }
        self.events += 1;
        if let Some(r) = v
            .pointer("/promptFeedback/blockReason")
            .and_then(Value::as_str)
        {
            self.blocked = Some(r.to_string());
        }
        if v.get("usageMetadata").is_some() {
            self.usage = usage_of(&v);
        }
        let Some(candidate) = v
            .get("candidates")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
        else {
            return Ok(());
        };
        if let Some(r) = str_of(candidate, "finishReason") {
            self.finish = Some(r.to_string());
        }
        for part in candidate
            .pointer("/content/parts")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let thought = part.get("thought") == Some(&Value::Bool(true));
            if let (false, Some(t)) = (thought, str_of(part, "text")) {
                text.push_str(t);
            }
            if joinable(part) {
                if let Some(last) = self
                    .parts
                    .last_mut()
                    .filter(|l| joinable(l) && l.get("thought") == part.get("thought"))
                {
                    if let (Some(Value::String(a)), Some(b)) =
                        (last.get_mut("text"), str_of(part, "text"))
                    {
                        a.push_str(b);
                        continue;
                    }
                }
            }
            self.parts.push(part.clone());
        }
        Ok(())
    }

    pub(crate) fn finish(self) -> Result<Read, ProviderError> {
        if let Some(reason) = self.blocked.filter(|_| self.parts.is_empty()) {
            return Ok(Read {
                response: json!({"candidates": []}),
                finish: FinishReason::Safety,
                note: Some(format!("Gemini blocked the prompt: {reason}")),
                usage: self.usage,
            });
        }
        let Some(reason) = self.finish else {
            return Err(super::cut("Gemini's last chunk (one with a finishReason)"));
        };
        let has_calls = self.parts.iter().any(|p| p.get("functionCall").is_some());
        let finish = finish_of(Some(&reason), has_calls);
        Ok(Read {
            response: json!({"candidates": [{"content": {"role": "model", "parts": self.parts}}]}),
            note: (finish == FinishReason::Safety).then(|| format!("Gemini stopped: {reason}")),
            finish,
            usage: self.usage,
        })
    }
}

/// The message and status of a Gemini error body.
pub(crate) fn error_parts(v: &Value) -> (Option<String>, Option<String>) {
    let e = v.get("error").unwrap_or(v);
    // an array of errors (some proxies) gives its first
    let e = e.as_array().and_then(|a| a.first()).unwrap_or(e);
    (
        str_of(e, "message").map(str::to_owned),
        str_of(e, "status").map(str::to_owned),
    )
}

/// Whether the error says the API key is wrong (Gemini answers 400
/// `API_KEY_INVALID` for a bad key).
pub(crate) fn is_key_error(v: &Value) -> bool {
    v.pointer("/error/details")
        .and_then(Value::as_array)
        .is_some_and(|d| {
            d.iter()
                .any(|x| str_of(x, "reason") == Some("API_KEY_INVALID"))
        })
}

/// `RetryInfo.retryDelay` (`"30s"`, `"1.5s"`) in milliseconds.
pub(crate) fn retry_delay(v: &Value) -> Option<u64> {
    let details = v.pointer("/error/details")?.as_array()?;
    details.iter().find_map(|d| {
        let s = str_of(d, "retryDelay")?.strip_suffix('s')?;
        let secs: f64 = s.parse().ok()?;
        (secs.is_finite() && secs >= 0.0).then(|| (secs.min(1e9) * 1000.0) as u64)
    })
}
