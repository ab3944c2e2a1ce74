//! VS Code language-model tools: entries for `package.json`
//! `contributes.languageModelTools` and the runtime `LanguageModelChatTool`
//! objects. VS Code hands the schema to whichever model is chosen, so it
//! is lowered as for OpenAI without strict mode.

use serde_json::{json, Value};

use super::{openai, Declared};
use crate::call::{CallBuilder, ModelTurn, Outcome, RawArgs};
use crate::error::{Error, ErrorKind};
use crate::lower::{words, Target};

pub(crate) fn target() -> Target {
    openai::target(false)
}

/// One `contributes.languageModelTools` entry.
pub(crate) fn contribution(d: &Declared<'_>) -> Value {
    let display = d
        .tool
        .title()
        .map(str::to_owned)
        .unwrap_or_else(|| words::readable_name(d.tool.name()));
    json!({
        "name": d.name,
        "displayName": display,
        "toolReferenceName": d.name,
        "canBeReferencedInPrompt": true,
        "userDescription": first_sentence(&d.description),
        "modelDescription": d.description,
        "inputSchema": openai::parameters(d),
    })
}

/// One runtime `LanguageModelChatTool` (`{name, description, inputSchema}`).
pub(crate) fn runtime(d: &Declared<'_>) -> Value {
    json!({"name": d.name, "description": d.description, "inputSchema": openai::parameters(d)})
}

/// The first sentence (or line) of a description, for people.
fn first_sentence(text: &str) -> String {
    let (first, _) = crate::text::first_sentence(text, crate::text::Ends::Period);
    words::shorten(first, 200)
}

/// Reads the `LanguageModelToolCallPart`s (`{callId, name, input}`) of a VS
/// Code chat response: a parts array, or a message with `content`.
pub(crate) fn read_calls(
    response: &Value,
    calls: &mut CallBuilder<'_>,
) -> Result<(String, Vec<Value>), Error> {
    let parts = match response {
        Value::Array(parts) => parts.clone(),
        Value::Object(m) => match m.get("content").or_else(|| m.get("parts")) {
            Some(Value::Array(parts)) => parts.clone(),
            _ => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    "",
                    "not a VS Code chat response: expected an array of parts",
                ))
            }
        },
        _ => {
            return Err(Error::new(
                ErrorKind::Shape,
                "",
                "not a VS Code chat response: expected an array of parts",
            ))
        }
    };
    let mut text = Vec::new();
    for p in &parts {
        if p.get("callId").is_some() || (p.get("name").is_some() && p.get("input").is_some()) {
            let name = p.get("name").and_then(Value::as_str).unwrap_or("");
            let args = p
                .get("input")
                .map(RawArgs::Value)
                .unwrap_or(RawArgs::Missing);
            calls.push(p.get("callId").and_then(Value::as_str), name, args, None);
        } else if let Some(t) = p.get("value").and_then(Value::as_str) {
            text.push(t.to_string());
        }
    }
    Ok((
        text.join(""),
        vec![json!({"role": "assistant", "content": parts})],
    ))
}

/// One user message of `LanguageModelToolResultPart`s (`{callId, content}`).
pub(crate) fn write_results(turn: &ModelTurn, outcomes: &[Outcome]) -> Vec<Value> {
    let parts: Vec<Value> = turn
        .calls
        .iter()
        .zip(outcomes)
        .map(|(call, out)| json!({"callId": call.id, "content": [{"value": openai::result_text(out)}]}))
        .collect();
    if parts.is_empty() {
        return Vec::new();
    }
    vec![json!({"role": "user", "content": parts})]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentence_for_people() {
        assert_eq!(first_sentence("Get states. Then more."), "Get states.");
        assert_eq!(first_sentence("\n  Line one\nLine two"), "Line one");
    }
}
