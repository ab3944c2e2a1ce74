//! The loss report: every keyword a conversion dropped, rewrote or moved.

use serde::Serialize;

/// What a conversion did to a keyword or a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Action {
    /// Removed; the dialect has no way to say it.
    Dropped,
    /// Replaced by an equivalent or nearby construct the dialect accepts.
    Rewritten,
    /// Moved into the schema's `description` in plain words.
    Described,
    /// Added because the dialect requires it.
    Added,
    /// The tool's name was changed to fit the dialect's name rule.
    Renamed,
    /// The tool was left out of the output.
    Skipped,
    /// The tool was sent without strict mode: it cannot satisfy it, or the
    /// request's limits on strict tools left no room for it.
    NotStrict,
    /// The dialect's schema accepts fewer values than the original here:
    /// some calls valid for the tool can no longer be made through this
    /// dialect. The detail says which.
    Narrowed,
    /// Kept as it is, but it breaks a rule of MCP (a tool name with
    /// characters MCP does not allow, or longer than 128). The detail says
    /// which.
    Flagged,
}

impl Action {
    /// The snake_case name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Dropped => "dropped",
            Action::Rewritten => "rewritten",
            Action::Described => "described",
            Action::Added => "added",
            Action::Renamed => "renamed",
            Action::Skipped => "skipped",
            Action::NotStrict => "not_strict",
            Action::Narrowed => "narrowed",
            Action::Flagged => "flagged",
        }
    }

    /// Whether the model sees less than the original schema said.
    pub fn is_lossy(self) -> bool {
        matches!(
            self,
            Action::Dropped
                | Action::Described
                | Action::Skipped
                | Action::NotStrict
                | Action::Narrowed
        )
    }
}

impl ReportEntry {
    /// Appends the entry as JSON text, as its `Serialize` writes it.
    pub(crate) fn push_json(&self, out: &mut String) {
        out.push_str("{\"tool\":");
        match &self.tool {
            Some(t) => crate::rawjson::push_str(out, t),
            None => out.push_str("null"),
        }
        out.push_str(",\"pointer\":");
        crate::rawjson::push_str(out, &self.pointer);
        out.push_str(",\"keyword\":");
        crate::rawjson::push_str(out, &self.keyword);
        out.push_str(",\"action\":\"");
        out.push_str(self.action.as_str());
        out.push_str("\",\"detail\":");
        crate::rawjson::push_str(out, &self.detail);
        out.push('}');
    }

    /// Appends `entries` as a JSON array.
    pub(crate) fn push_list(out: &mut String, entries: &[ReportEntry]) {
        out.push('[');
        for (i, entry) in entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            entry.push_json(out);
        }
        out.push(']');
    }
}

/// One entry of the loss report.
///
/// `pointer` is a JSON Pointer into the document that was read (for a
/// `tools/list` response, something like
/// `/result/tools/3/inputSchema/properties/url/format`). Where a `$ref` was
/// followed, the pointer names the place that referred, not the definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ReportEntry {
    /// The MCP name of the tool, when the entry concerns one.
    pub tool: Option<String>,
    /// JSON Pointer of the keyword (or tool) in the input document.
    pub pointer: String,
    /// The keyword concerned (`format`, `anyOf`, ...), or `name` / `tool`.
    pub keyword: String,
    /// What was done.
    pub action: Action,
    /// A sentence saying what was done and why.
    pub detail: String,
}
