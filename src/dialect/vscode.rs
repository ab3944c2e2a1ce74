//! VS Code language-model tools: entries for `package.json`
//! `contributes.languageModelTools` and the runtime `LanguageModelChatTool`
//! objects. VS Code hands the schema to whichever model is chosen, so it
//! is lowered as for OpenAI without strict mode.

use serde_json::{json, Value};

use super::{openai, Declared};
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
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let end = line.find(". ").map(|i| i + 1).unwrap_or(line.len());
    words::shorten(line.get(..end).unwrap_or(line), 200)
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
