//! Anthropic Messages' wire: `POST /v1/messages` with `x-api-key` and
//! `anthropic-version`, `max_tokens` always sent, the system prompt at the
//! top, no sampling parameters (the API no longer takes them); the response's `content` blocks and `stop_reason`; the stream's
//! `message_start`, `content_block_start` / `_delta` (`text_delta`,
//! `input_json_delta`, `thinking_delta`, `signature_delta`) / `_stop`,
//! `message_delta`, `message_stop`, `ping` and `error` events; errors as
//! `{"type": "error", "error": {type, message}}`.

use serde_json::{json, Value};

use super::{count, event_json, str_of, Field, Read, RequestParts};
use crate::client::SseEvent;
use crate::conversation::{FinishReason, ProviderError, Usage};

/// The API version sent in `anthropic-version`.
pub(crate) const VERSION: &str = "2023-06-01";
/// `max_tokens` when the options set none (the API requires one).
pub(crate) const DEFAULT_MAX_TOKENS: u64 = 4096;

pub(crate) fn request<'a>(p: &RequestParts<'a>) -> super::Built<'a> {
    let o = p.options;
    let mut fields = vec![
        ("model", Field::Value(Value::String(o.model.clone()))),
        (
            "max_tokens",
            Field::Value(json!(o.max_output_tokens.unwrap_or(DEFAULT_MAX_TOKENS))),
        ),
    ];
    if let Some(system) = o.system.as_deref().filter(|s| !s.is_empty()) {
        fields.push(("system", Field::Value(Value::String(system.to_string()))));
    }
    fields.push(("messages", Field::Items(None, p.history)));
    if !p.tools.is_empty() {
        fields.push(("tools", Field::Items(None, p.tools)));
    }
    // the Messages API takes no sampling parameters any more (the SDK's
    // MessageCreateParams has neither temperature nor top_p): not sent
    if p.stream {
        fields.push(("stream", Field::Value(Value::Bool(true))));
    }
    let mut headers = vec![
        ("content-type".to_string(), "application/json".to_string()),
        ("anthropic-version".to_string(), VERSION.to_string()),
    ];
    if let Some(key) = o.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("x-api-key".into(), key.to_string()));
    }
    if o.browser_access {
        headers.push((
            "anthropic-dangerous-direct-browser-access".into(),
            "true".into(),
        ));
    }
    super::Built {
        path: "/v1/messages".into(),
        headers,
        fields,
    }
}

pub(crate) fn user_message(text: &str) -> Value {
    json!({"role": "user", "content": [{"type": "text", "text": text}]})
}

fn usage_of(u: &Value) -> Usage {
    Usage {
        input_tokens: count(u, "input_tokens")
            + count(u, "cache_read_input_tokens")
            + count(u, "cache_creation_input_tokens"),
        output_tokens: count(u, "output_tokens"),
    }
}

fn finish_of(reason: Option<&str>, content: &[Value]) -> (FinishReason, Option<String>) {
    let has_calls = content
        .iter()
        .any(|b| str_of(b, "type") == Some("tool_use"));
    match reason {
        Some("refusal") => (
            FinishReason::Refusal,
            Some("the model declined to answer".into()),
        ),
        _ if has_calls => (FinishReason::ToolCalls, None),
        Some("max_tokens") | Some("model_context_window_exceeded") => {
            (FinishReason::MaxTokens, None)
        }
        _ => (FinishReason::Stop, None),
    }
}

/// The message's content as the history takes it back: every block kept
/// (thinking blocks with their signatures), a `tool_use` input always an
/// object.
fn read_content(message: &Value, reason: Option<&str>, usage: Usage) -> Read {
    let content: Vec<Value> = message
        .get("content")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let (finish, note) = finish_of(reason, &content);
    Read {
        response: json!({"role": "assistant", "content": content}),
        finish,
        note,
        usage,
    }
}

pub(crate) fn read(body: &Value) -> Result<Read, ProviderError> {
    if str_of(body, "type") == Some("error") {
        let (message, code) = error_parts(body);
        return Err(super::stream_error(
            message.unwrap_or_else(|| "Anthropic returned an error".into()),
            code,
        ));
    }
    if !body.get("content").is_some_and(Value::is_array) {
        return Err(super::malformed(
            "the response has no content blocks: not an Anthropic message",
        ));
    }
    Ok(read_content(
        body,
        str_of(body, "stop_reason"),
        usage_of(body.get("usage").unwrap_or(&Value::Null)),
    ))
}

/// A streamed message: its blocks by index, the tool inputs as the JSON
/// text gathered so far, the stop reason and usage.
#[derive(Default)]
pub(crate) struct Stream {
    started: bool,
    blocks: Vec<Value>,
    inputs: Vec<Option<String>>,
    stop: Option<String>,
    stopped: bool,
    usage: Usage,
}

/// The most blocks a stream may hold.
const MAX_BLOCKS: usize = 2 * crate::call::MAX_CALLS;

impl Stream {
    fn at(v: &Value) -> Result<usize, ProviderError> {
        match v.get("index").and_then(Value::as_u64) {
            Some(i) if (i as usize) < MAX_BLOCKS => Ok(i as usize),
            _ => Err(super::malformed(
                "a content block's index is missing or out of range",
            )),
        }
    }

    pub(crate) fn event(&mut self, ev: &SseEvent, text: &mut String) -> Result<(), ProviderError> {
        let v = event_json(ev)?;
        let kind = str_of(&v, "type").unwrap_or(ev.event.as_str()).to_string();
        match kind.as_str() {
            "message_start" => {
                self.started = true;
                let u = v.pointer("/message/usage").unwrap_or(&Value::Null);
                self.usage = usage_of(u);
            }
            "content_block_start" => {
                let at = Self::at(&v)?;
                while self.blocks.len() <= at {
                    self.blocks.push(json!({}));
                    self.inputs.push(None);
                }
                let block = v.get("content_block").cloned().unwrap_or_else(|| json!({}));
                if let Some(t) = str_of(&block, "text") {
                    text.push_str(t);
                }
                let is_tool = matches!(str_of(&block, "type"), Some("tool_use"));
                if let Some(slot) = self.inputs.get_mut(at) {
                    *slot = is_tool.then(String::new);
                }
                if let Some(slot) = self.blocks.get_mut(at) {
                    *slot = block;
                }
            }
            "content_block_delta" => {
                let at = Self::at(&v)?;
                let d = v.get("delta").unwrap_or(&Value::Null);
                let (Some(block), Some(input)) = (self.blocks.get_mut(at), self.inputs.get_mut(at))
                else {
                    return Err(super::malformed("a delta for a block that did not start"));
                };
                let append = |block: &mut Value, key: &str, piece: &str| {
                    if let Value::Object(m) = block {
                        let slot = m.entry(key).or_insert_with(|| Value::String(String::new()));
                        if let Value::String(s) = slot {
                            s.push_str(piece);
                        }
                    }
                };
                match str_of(d, "type") {
                    Some("text_delta") => {
                        let t = str_of(d, "text").unwrap_or("");
                        text.push_str(t);
                        append(block, "text", t);
                    }
                    Some("input_json_delta") => {
                        if let Some(s) = input {
                            s.push_str(str_of(d, "partial_json").unwrap_or(""));
                        }
                    }
                    Some("thinking_delta") => {
                        append(block, "thinking", str_of(d, "thinking").unwrap_or(""));
                    }
                    Some("signature_delta") => {
                        append(block, "signature", str_of(d, "signature").unwrap_or(""));
                    }
                    Some("citations_delta") => {
                        if let (Value::Object(m), Some(c)) = (block, d.get("citation")) {
                            let list = m.entry("citations").or_insert_with(|| json!([]));
                            if let Value::Array(a) = list {
                                a.push(c.clone());
                            }
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                let at = Self::at(&v)?;
                self.close(at);
            }
            "message_delta" => {
                if let Some(r) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop = Some(r.to_string());
                }
                if let Some(u) = v.get("usage") {
                    let out = count(u, "output_tokens");
                    if out > 0 {
                        self.usage.output_tokens = out;
                    }
                    let input = count(u, "input_tokens");
                    if input > 0 {
                        self.usage.input_tokens = input;
                    }
                }
            }
            "message_stop" => self.stopped = true,
            "error" => {
                let (message, code) = error_parts(&v);
                return Err(super::stream_error(
                    message.unwrap_or_else(|| "the stream failed".into()),
                    code,
                ));
            }
            _ => {}
        }
        Ok(())
    }

    /// Ends a block: a tool's gathered JSON becomes its `input` (text
    /// that does not read is kept as text, for the call reader to refuse).
    fn close(&mut self, at: usize) {
        let (Some(block), Some(input)) = (self.blocks.get_mut(at), self.inputs.get_mut(at)) else {
            return;
        };
        if let (Some(text), Value::Object(m)) = (input.take(), block) {
            let value = if text.trim().is_empty() {
                json!({})
            } else {
                serde_json::from_str(&text).unwrap_or(Value::String(text))
            };
            m.insert("input".into(), value);
        }
    }

    pub(crate) fn finish(mut self) -> Result<Read, ProviderError> {
        if !self.started || !self.stopped {
            return Err(super::cut("message_stop"));
        }
        for at in 0..self.blocks.len() {
            self.close(at);
        }
        let message = json!({"content": self.blocks});
        Ok(read_content(&message, self.stop.as_deref(), self.usage))
    }
}

/// The message and type of an Anthropic error body.
pub(crate) fn error_parts(v: &Value) -> (Option<String>, Option<String>) {
    let e = v.get("error").unwrap_or(v);
    (
        str_of(e, "message").map(str::to_owned),
        str_of(e, "type").map(str::to_owned),
    )
}
