//! OpenAI Chat Completions' wire, which every OpenAI-compatible server
//! speaks (Ollama, LM Studio, llama.cpp's server, vLLM, OpenRouter):
//! `POST {base}/chat/completions` with `Authorization: Bearer`, the
//! response's `choices[0].message`, a stream of `chat.completion.chunk`s
//! (tool calls in pieces by `index`) ended by `data: [DONE]`, errors as
//! `{"error": {message, type, code, param}}`. The `prompted` dialect rides
//! on it: no `tools`, the tools' prompt in the system message.

use serde_json::{json, Map, Value};

use super::{count, event_json, number, put, str_of, Field, Provider, Read, RequestParts};
use crate::client::SseEvent;
use crate::conversation::{FinishReason, ProviderError, Usage};

pub(crate) fn request<'a>(p: &RequestParts<'a>, provider: Provider) -> super::Built<'a> {
    let o = p.options;
    let system = match (o.system.as_deref().filter(|s| !s.is_empty()), p.prompt) {
        (Some(s), Some(prompt)) => Some(format!("{s}\n\n{prompt}")),
        (Some(s), None) => Some(s.to_string()),
        (None, Some(prompt)) => Some(prompt.to_string()),
        (None, None) => None,
    };
    let system = system.map(|s| json!({"role": "system", "content": s}));
    let mut fields = vec![
        ("model", Field::Value(Value::String(o.model.clone()))),
        ("messages", Field::Items(system, p.history)),
    ];
    if provider == Provider::OpenAi && !p.tools.is_empty() {
        fields.push(("tools", Field::Items(None, p.tools)));
    }
    put(&mut fields, "temperature", number(o.temperature));
    put(&mut fields, "top_p", number(o.top_p));
    // OpenAI's own field; the compatible servers that serve `prompted`
    // models know the older one
    let tokens_key = if provider == Provider::Prompted {
        "max_tokens"
    } else {
        "max_completion_tokens"
    };
    put(
        &mut fields,
        tokens_key,
        o.max_output_tokens.map(|n| json!(n)),
    );
    if p.stream {
        fields.push(("stream", Field::Value(Value::Bool(true))));
        fields.push((
            "stream_options",
            Field::Value(json!({"include_usage": true})),
        ));
    }
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if let Some(key) = o.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("authorization".into(), format!("Bearer {key}")));
    }
    super::Built {
        path: "/chat/completions".into(),
        headers,
        fields,
    }
}

fn usage_of(v: &Value) -> Usage {
    let u = v.get("usage").unwrap_or(&Value::Null);
    Usage {
        input_tokens: count(u, "prompt_tokens"),
        output_tokens: count(u, "completion_tokens"),
    }
}

/// The assistant message as the history takes it back: the fields a
/// request's assistant message has, nothing the response added.
fn history_message(m: &Value) -> Value {
    let mut out = Map::new();
    out.insert("role".into(), json!("assistant"));
    let content = m.get("content").filter(|c| c.is_string() || c.is_array());
    out.insert("content".into(), content.cloned().unwrap_or(Value::Null));
    if let Some(r) = m.get("refusal").filter(|r| r.is_string()) {
        out.insert("refusal".into(), r.clone());
    }
    if let Some(calls) = m.get("tool_calls").and_then(Value::as_array) {
        let calls: Vec<Value> = calls
            .iter()
            .map(|c| {
                let f = c.get("function").unwrap_or(&Value::Null);
                let args = match f.get("arguments") {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Null) | None => String::new(),
                    Some(v) => v.to_string(),
                };
                json!({
                    "id": str_of(c, "id").unwrap_or(""),
                    "type": "function",
                    "function": {"name": str_of(f, "name").unwrap_or(""), "arguments": args}
                })
            })
            .collect();
        if !calls.is_empty() {
            out.insert("tool_calls".into(), Value::Array(calls));
        }
    }
    Value::Object(out)
}

fn finish_of(reason: Option<&str>, message: &Value) -> (FinishReason, Option<String>) {
    if let Some(r) = str_of(message, "refusal").filter(|r| !r.is_empty()) {
        return (FinishReason::Refusal, Some(r.to_string()));
    }
    let has_calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty());
    match reason {
        _ if has_calls => (FinishReason::ToolCalls, None),
        Some("length") => (FinishReason::MaxTokens, None),
        Some("content_filter") => (
            FinishReason::Safety,
            Some("the provider's content filter stopped the answer".into()),
        ),
        _ => (FinishReason::Stop, None),
    }
}

/// The read response: for `prompted`, the message's text (which the
/// dialect reads the calls from).
fn shaped(message: Value, provider: Provider) -> Value {
    if provider == Provider::Prompted {
        let text = str_of(&message, "content").unwrap_or("").to_string();
        return Value::String(text);
    }
    json!({"choices": [{"message": message}]})
}

pub(crate) fn read(body: &Value, provider: Provider) -> Result<Read, ProviderError> {
    if let Some(e) = body.get("error").filter(|e| !e.is_null()) {
        let (message, code) = error_parts(&json!({"error": e}));
        return Err(super::stream_error(
            message.unwrap_or_else(|| "the server returned an error".into()),
            code,
        ));
    }
    let Some(choice) = body
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
    else {
        return Err(super::malformed(
            "the response has no choices: not a Chat Completions response",
        ));
    };
    let message = choice.get("message").unwrap_or(&Value::Null);
    if !message.is_object() {
        return Err(super::malformed(
            "the response's first choice has no message",
        ));
    }
    let (finish, note) = finish_of(str_of(choice, "finish_reason"), message);
    Ok(Read {
        response: shaped(history_message(message), provider),
        finish,
        note,
        usage: usage_of(body),
    })
}

/// One streamed call, built from its pieces.
#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

/// A streamed response: the first choice's content, refusal and calls.
#[derive(Default)]
pub(crate) struct Stream {
    /// Read for the `prompted` dialect.
    pub(crate) prompted: bool,
    content: String,
    refusal: String,
    calls: Vec<PartialCall>,
    finish: Option<String>,
    done: bool,
    usage: Usage,
}

/// The most calls a stream may hold by `index` (the dialect's own limit
/// on calls in one response).
const MAX_INDEX: usize = crate::call::MAX_CALLS + 1;

impl Stream {
    pub(crate) fn event(&mut self, ev: &SseEvent, text: &mut String) -> Result<(), ProviderError> {
        if ev.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let v = event_json(ev)?;
        if v.get("error").is_some_and(|e| !e.is_null()) {
            return Err(read(&v, Provider::OpenAi)
                .err()
                .unwrap_or_else(|| super::malformed("an error event that cannot be read")));
        }
        if v.get("usage").is_some_and(Value::is_object) {
            self.usage = usage_of(&v);
        }
        let Some(choice) = v
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|c| c.iter().find(|c| count(c, "index") == 0))
        else {
            return Ok(());
        };
        if let Some(r) = str_of(choice, "finish_reason") {
            self.finish = Some(r.to_string());
        }
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        if let Some(t) = str_of(delta, "content") {
            self.content.push_str(t);
            text.push_str(t);
        }
        if let Some(r) = str_of(delta, "refusal") {
            self.refusal.push_str(r);
        }
        for tc in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            let at = tc
                .get("index")
                .and_then(Value::as_u64)
                .map_or(self.calls.len(), |i| i as usize);
            if at >= MAX_INDEX {
                return Err(super::malformed(
                    "a streamed tool call's index is out of range",
                ));
            }
            while self.calls.len() <= at {
                self.calls.push(PartialCall::default());
            }
            let Some(call) = self.calls.get_mut(at) else {
                continue;
            };
            if let Some(id) = str_of(tc, "id").filter(|s| !s.is_empty()) {
                call.id = id.to_string();
            }
            let f = tc.get("function").unwrap_or(&Value::Null);
            if let Some(n) = str_of(f, "name").filter(|s| !s.is_empty()) {
                call.name = n.to_string();
            }
            if let Some(a) = str_of(f, "arguments") {
                call.arguments.push_str(a);
            }
        }
        Ok(())
    }

    /// Whether the stream holds a whole answer.
    fn complete(&self) -> bool {
        self.done || self.finish.is_some()
    }

    pub(crate) fn finish(self) -> Result<Read, ProviderError> {
        let provider = if self.prompted {
            Provider::Prompted
        } else {
            Provider::OpenAi
        };
        if !self.complete() {
            return Err(super::cut("the last chunk (a finish_reason, then [DONE])"));
        }
        let mut message = json!({
            "role": "assistant",
            "content": if self.content.is_empty() && !self.calls.is_empty() { Value::Null } else { Value::String(self.content) },
        });
        if !self.refusal.is_empty() {
            message["refusal"] = Value::String(self.refusal);
        }
        if !self.calls.is_empty() {
            message["tool_calls"] = Value::Array(
                self.calls
                    .into_iter()
                    .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                    .collect(),
            );
        }
        let (finish, note) = finish_of(self.finish.as_deref(), &message);
        Ok(Read {
            response: shaped(message, provider),
            finish,
            note,
            usage: self.usage,
        })
    }
}

/// The message and code (or type) of an OpenAI error body.
pub(crate) fn error_parts(v: &Value) -> (Option<String>, Option<String>) {
    let e = v.get("error").unwrap_or(v);
    match e {
        // some compatible servers write the error as a string
        Value::String(s) => (Some(s.clone()), None),
        _ => (
            str_of(e, "message").map(str::to_owned),
            str_of(e, "code")
                .or_else(|| str_of(e, "type"))
                .map(str::to_owned),
        ),
    }
}
