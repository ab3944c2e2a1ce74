//! Lists read whole, page by page, and read again when they change.

use serde_json::{json, Value};

use super::*;
use crate::catalog::Tool;
use crate::report::Action;

impl UpstreamClient {
    pub(super) fn start_list(&mut self, kind: ListKind, now_ms: u64) {
        let Some(list) = self.lists.get_mut(kind.index()) else {
            return;
        };
        if list.busy {
            list.again = true;
            return;
        }
        list.busy = true;
        list.fresh.clear();
        list.pages = 0;
        list.seen = 0;
        list.truncated = false;
        self.request(What::List(kind), kind.method(), json!({}), now_ms);
    }

    pub(super) fn listed_page(&mut self, kind: ListKind, result: &Value, now_ms: u64) {
        let (max_items, max_pages) = (self.config.max_items, self.config.max_pages);
        let Some(list) = self.lists.get_mut(kind.index()) else {
            return;
        };
        let Some(items) = result.get(kind.field()).and_then(Value::as_array) else {
            self.list_failed(
                kind,
                Failure::Protocol(format!(
                    "the {} result has no {} array",
                    kind.method(),
                    kind.field()
                )),
                now_ms,
            );
            return;
        };
        let mut notes = Vec::new();
        for item in items {
            let index = list.seen;
            list.seen += 1;
            if list.fresh.len() >= max_items {
                list.truncated = true;
                continue;
            }
            // each item stands alone: a bad one is left out and said, the
            // rest of the list is kept
            let (keep, note) = check_item(kind, item, index);
            notes.extend(note);
            if keep {
                list.fresh.push(item.clone());
            }
        }
        list.pages += 1;
        let cursor = result
            .get("nextCursor")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty());
        if let Some(cursor) = cursor {
            if list.truncated || list.pages >= max_pages {
                list.truncated = true;
            } else {
                let params = json!({"cursor": cursor});
                for n in notes {
                    self.outputs.push_back(n);
                }
                self.request(What::List(kind), kind.method(), params, now_ms);
                return;
            }
        }
        list.busy = false;
        list.items = std::mem::take(&mut list.fresh);
        let items = list.items.clone();
        let truncated = list.truncated;
        for n in notes {
            self.outputs.push_back(n);
        }
        self.outputs.push_back(ClientOutput::Listed {
            kind,
            items,
            truncated,
        });
        self.list_settled(kind, now_ms);
    }

    pub(super) fn list_failed(&mut self, kind: ListKind, error: Failure, now_ms: u64) {
        if let Some(list) = self.lists.get_mut(kind.index()) {
            list.busy = false;
            if list.pages > 0 && !matches!(error, Failure::Rpc { .. }) {
                // a later page failed (too large, broken off, timed out):
                // the pages read so far are kept, the list marked truncated,
                // and the failure said
                list.items = std::mem::take(&mut list.fresh);
                let items = list.items.clone();
                let reason = format!(
                    "page {} of {} could not be read: {error}",
                    list.pages + 1,
                    kind.method()
                );
                self.outputs.push_back(ClientOutput::Skipped {
                    kind,
                    index: list.seen,
                    kept: false,
                    reason,
                });
                self.outputs.push_back(ClientOutput::Listed {
                    kind,
                    items,
                    truncated: true,
                });
                self.list_settled(kind, now_ms);
                return;
            }
            list.fresh.clear();
            if let Failure::Rpc { code, .. } = error {
                if code == METHOD_NOT_FOUND {
                    // the server does not offer it after all
                    list.items.clear();
                    self.outputs.push_back(ClientOutput::Listed {
                        kind,
                        items: Vec::new(),
                        truncated: false,
                    });
                    self.list_settled(kind, now_ms);
                    return;
                }
            }
        }
        self.outputs
            .push_back(ClientOutput::ListFailed { kind, error });
        self.list_settled(kind, now_ms);
    }

    pub(super) fn list_settled(&mut self, kind: ListKind, now_ms: u64) {
        if let Some(initial) = &mut self.initial {
            initial.retain(|k| *k != kind);
            if initial.is_empty() {
                self.initial = None;
                self.outputs.push_back(ClientOutput::Ready);
            }
        }
        let again = self.lists.get_mut(kind.index()).is_some_and(|l| {
            let a = l.again;
            l.again = false;
            a
        });
        if again {
            self.start_list(kind, now_ms);
        }
    }

    pub(super) fn list_changed(&mut self, method: &str, now_ms: u64) -> bool {
        let kinds: &[ListKind] = match method {
            "notifications/tools/list_changed" => &[ListKind::Tools],
            "notifications/prompts/list_changed" => &[ListKind::Prompts],
            "notifications/resources/list_changed" => {
                &[ListKind::Resources, ListKind::ResourceTemplates]
            }
            _ => return false,
        };
        if self.phase == Phase::Connected {
            for k in kinds {
                self.start_list(*k, now_ms);
            }
        }
        true
    }
}

/// Whether a list item is kept, and what to say about it: an item that is
/// not what its list holds (a tool [`Tool::from_value`] refuses; a
/// resource, template or prompt without its string `uri`, `uriTemplate` or
/// `name`) is left out; a tool whose name MCP does not allow (control
/// characters included) is kept and flagged.
fn check_item(kind: ListKind, item: &Value, index: usize) -> (bool, Option<ClientOutput>) {
    let note = |kept: bool, reason: String| ClientOutput::Skipped {
        kind,
        index,
        kept,
        reason,
    };
    if kind == ListKind::Tools {
        return match Tool::from_value(item.clone(), "") {
            Err(e) => (false, Some(note(false, format!("left out: {e}")))),
            Ok((_, notes)) => {
                let flagged = notes
                    .into_iter()
                    .find(|n| n.action == Action::Flagged)
                    .map(|n| note(true, n.detail));
                (true, flagged)
            }
        };
    }
    let key = match kind {
        ListKind::Resources => "uri",
        ListKind::ResourceTemplates => "uriTemplate",
        _ => "name",
    };
    let ok = item.get(key).and_then(Value::as_str).is_some()
        && item.get("name").and_then(Value::as_str).is_some();
    if ok {
        return (true, None);
    }
    let reason = format!("left out: it needs a string \"{key}\" and a string \"name\"");
    (false, Some(note(false, reason)))
}
