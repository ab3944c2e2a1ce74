//! The OpenAI Responses API's wire: `POST {base}/responses` with the
//! history as `input` items and the system prompt as `instructions`; the
//! response's `output` items; a stream of typed events
//! (`response.output_item.added`, `response.output_text.delta`,
//! `response.function_call_arguments.delta`, `response.output_item.done`,
//! `response.completed` / `incomplete` / `failed`, `error`).

use serde_json::{json, Value};

use super::{count, event_json, number, put, str_of, Field, Read, RequestParts};
use crate::client::SseEvent;
use crate::conversation::{FinishReason, ProviderError, Usage};

pub(crate) fn request<'a>(p: &RequestParts<'a>) -> super::Built<'a> {
    let o = p.options;
    let mut fields = vec![
        ("model", Field::Value(Value::String(o.model.clone()))),
        ("input", Field::Items(None, p.history)),
    ];
    if let Some(system) = o.system.as_deref().filter(|s| !s.is_empty()) {
        fields.push((
            "instructions",
            Field::Value(Value::String(system.to_string())),
        ));
    }
    if !p.tools.is_empty() {
        fields.push(("tools", Field::Items(None, p.tools)));
    }
    put(&mut fields, "temperature", number(o.temperature));
    put(&mut fields, "top_p", number(o.top_p));
    put(
        &mut fields,
        "max_output_tokens",
        o.max_output_tokens.map(|n| json!(n)),
    );
    if p.stream {
        fields.push(("stream", Field::Value(Value::Bool(true))));
    }
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    if let Some(key) = o.api_key.as_deref().filter(|k| !k.is_empty()) {
        headers.push(("authorization".into(), format!("Bearer {key}")));
    }
    super::Built {
        path: "/responses".into(),
        headers,
        fields,
    }
}

fn usage_of(response: &Value) -> Usage {
    let u = response.get("usage").unwrap_or(&Value::Null);
    Usage {
        input_tokens: count(u, "input_tokens"),
        output_tokens: count(u, "output_tokens"),
    }
}

/// Why the response stopped, from its status, its incomplete details and
/// its items.
fn finish_of(response: &Value, items: &[Value]) -> (FinishReason, Option<String>) {
    for item in items {
        for c in item
            .get("content")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
        {
            if str_of(c, "type") == Some("refusal") {
                return (
                    FinishReason::Refusal,
                    str_of(c, "refusal").map(str::to_owned),
                );
            }
        }
    }
    if items
        .iter()
        .any(|i| str_of(i, "type") == Some("function_call"))
    {
        return (FinishReason::ToolCalls, None);
    }
    match response
        .pointer("/incomplete_details/reason")
        .and_then(Value::as_str)
    {
        Some("max_output_tokens") => (FinishReason::MaxTokens, None),
        Some("content_filter") => (
            FinishReason::Safety,
            Some("the provider's content filter stopped the answer".into()),
        ),
        _ => (FinishReason::Stop, None),
    }
}

/// The output items as the next request's input takes them: function
/// calls, messages and reasoning as they came (reasoning models need
/// their reasoning items back).
fn read_items(response: &Value, items: Vec<Value>) -> Read {
    let (finish, note) = finish_of(response, &items);
    Read {
        usage: usage_of(response),
        response: json!({"output": items}),
        finish,
        note,
    }
}

/// The error of a failed response (`status: "failed"`, `error`).
fn failed(response: &Value) -> ProviderError {
    let e = response.get("error").unwrap_or(&Value::Null);
    super::stream_error(
        str_of(e, "message")
            .unwrap_or("the response failed")
            .to_string(),
        str_of(e, "code").map(str::to_owned),
    )
}

pub(crate) fn read(body: &Value) -> Result<Read, ProviderError> {
    if body.get("error").is_some_and(|e| !e.is_null()) || str_of(body, "status") == Some("failed") {
        return Err(failed(body));
    }
    let Some(items) = body.get("output").and_then(Value::as_array) else {
        return Err(super::malformed(
            "the response has no output items: not a Responses API response",
        ));
    };
    Ok(read_items(body, items.clone()))
}

/// A streamed response: the output items by `output_index`, built from
/// their events, and the final response when it came.
#[derive(Default)]
pub(crate) struct Stream {
    items: Vec<Value>,
    last: Option<Value>,
}

/// The most output items a stream may hold.
const MAX_ITEMS: usize = 2 * crate::call::MAX_CALLS;

impl Stream {
    /// The item at `output_index` (made when absent).
    fn item(&mut self, v: &Value) -> Result<&mut Value, ProviderError> {
        let at = v
            .get("output_index")
            .and_then(Value::as_u64)
            .map_or(self.items.len().saturating_sub(1), |i| i as usize);
        if at >= MAX_ITEMS {
            return Err(super::malformed("an output_index is out of range"));
        }
        while self.items.len() <= at {
            self.items.push(json!({}));
        }
        self.items
            .get_mut(at)
            .ok_or_else(|| super::malformed("an output_index is out of range"))
    }

    pub(crate) fn event(&mut self, ev: &SseEvent, text: &mut String) -> Result<(), ProviderError> {
        let v = event_json(ev)?;
        let kind = str_of(&v, "type").unwrap_or(ev.event.as_str()).to_string();
        match kind.as_str() {
            "response.output_item.added" | "response.output_item.done" => {
                let item = v.get("item").cloned().unwrap_or_else(|| json!({}));
                *self.item(&v)? = item;
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                let delta = str_of(&v, "delta").unwrap_or("");
                let refusal = kind == "response.refusal.delta";
                if !refusal {
                    text.push_str(delta);
                }
                let at = v.get("content_index").and_then(Value::as_u64).unwrap_or(0) as usize;
                let item = self.item(&v)?;
                if let Value::Object(m) = item {
                    m.entry("type").or_insert_with(|| json!("message"));
                    m.entry("role").or_insert_with(|| json!("assistant"));
                    let content = m.entry("content").or_insert_with(|| json!([]));
                    if let Value::Array(parts) = content {
                        if at >= MAX_ITEMS {
                            return Err(super::malformed("a content_index is out of range"));
                        }
                        while parts.len() <= at {
                            parts.push(if refusal {
                                json!({"type": "refusal", "refusal": ""})
                            } else {
                                json!({"type": "output_text", "text": "", "annotations": []})
                            });
                        }
                        let key = if refusal { "refusal" } else { "text" };
                        if let Some(Value::String(s)) =
                            parts.get_mut(at).and_then(|p| p.get_mut(key))
                        {
                            s.push_str(delta);
                        }
                    }
                }
            }
            "response.function_call_arguments.delta" => {
                let delta = str_of(&v, "delta").unwrap_or("").to_string();
                if let Value::Object(m) = self.item(&v)? {
                    let args = m
                        .entry("arguments")
                        .or_insert_with(|| Value::String(String::new()));
                    if let Value::String(s) = args {
                        s.push_str(&delta);
                    }
                }
            }
            "response.completed" | "response.incomplete" => {
                self.last = Some(v.get("response").cloned().unwrap_or_else(|| json!({})));
            }
            "response.failed" => {
                return Err(failed(v.get("response").unwrap_or(&Value::Null)));
            }
            "error" => {
                let e = v.get("error").unwrap_or(&v);
                return Err(super::stream_error(
                    str_of(e, "message")
                        .unwrap_or("the stream failed")
                        .to_string(),
                    str_of(e, "code").map(str::to_owned),
                ));
            }
            _ => {}
        }
        Ok(())
    }

    pub(crate) fn finish(self) -> Result<Read, ProviderError> {
        let Some(last) = self.last else {
            return Err(super::cut("response.completed"));
        };
        // the final response's output when it carries it, else the items
        // built from the events
        let items = match last.get("output").and_then(Value::as_array) {
            Some(out) if !out.is_empty() => out.clone(),
            _ => self
                .items
                .into_iter()
                .filter(|i| i.as_object().is_some_and(|m| !m.is_empty()))
                .collect(),
        };
        Ok(read_items(&last, items))
    }
}
