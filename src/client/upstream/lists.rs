//! Lists read whole, page by page, and read again when they change.

use serde_json::{json, Value};

use super::*;

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
        for item in items {
            if list.fresh.len() < max_items {
                list.fresh.push(item.clone());
            } else {
                list.truncated = true;
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
                self.request(What::List(kind), kind.method(), params, now_ms);
                return;
            }
        }
        list.busy = false;
        list.items = std::mem::take(&mut list.fresh);
        let items = list.items.clone();
        let truncated = list.truncated;
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
