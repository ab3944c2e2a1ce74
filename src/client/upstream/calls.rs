//! Calls: sent, answered, asked about (2025 server requests, 2026-07-28
//! input rounds), timed out and cancelled.

use serde_json::{json, Map, Value};

use super::*;

impl UpstreamClient {
    pub(super) fn send_call(&mut self, call: u64, now_ms: u64) {
        let Some(c) = self.calls.get(&call) else {
            return;
        };
        let mut params = c.params.clone();
        if let Value::Object(m) = &mut params {
            if !c.responses.is_empty() {
                m.insert("inputResponses".into(), Value::Object(c.responses.clone()));
            }
            if let Some(s) = &c.request_state {
                m.insert("requestState".into(), Value::String(s.clone()));
            }
        }
        let (method, deadline) = (c.kind.method(), c.deadline);
        let rpc = self.request(What::Call(call), method, params, now_ms);
        if let Some(p) = self.pending.get_mut(&rpc) {
            p.deadline = Some(deadline);
        }
        if let Some(c) = self.calls.get_mut(&call) {
            c.rpc = Some(rpc);
        }
    }

    pub(super) fn call_answered(
        &mut self,
        call: u64,
        outcome: Result<Value, Failure>,
        now_ms: u64,
    ) {
        let Some(c) = self.calls.get_mut(&call) else {
            return;
        };
        c.rpc = None;
        let result = match outcome {
            Ok(r) => r,
            Err(error) => {
                self.calls.remove(&call);
                self.outputs.push_back(ClientOutput::Failed { call, error });
                return;
            }
        };
        let input_required = self.era == Era::Modern
            && c.kind.may_ask()
            && result.get("resultType").and_then(Value::as_str) == Some("input_required");
        if !input_required {
            self.calls.remove(&call);
            self.outputs.push_back(ClientOutput::Done { call, result });
            return;
        }
        c.rounds += 1;
        let requests = match result.get("inputRequests") {
            None => Some(Map::new()),
            Some(Value::Object(m)) => Some(m.clone()),
            Some(_) => None,
        };
        let failure = if c.rounds > self.config.max_rounds {
            Some(Failure::Protocol(format!(
                "the server asked for input more than {} times",
                self.config.max_rounds
            )))
        } else if requests.is_none() {
            Some(Failure::Protocol("inputRequests is not an object".into()))
        } else {
            None
        };
        if let Some(error) = failure {
            self.calls.remove(&call);
            self.outputs.push_back(ClientOutput::Failed { call, error });
            return;
        }
        c.request_state = result
            .get("requestState")
            .and_then(Value::as_str)
            .map(str::to_owned);
        c.responses = Map::new();
        let requests = requests.unwrap_or_default();
        if requests.is_empty() {
            self.send_call(call, now_ms);
            return;
        }
        for (key, req) in requests {
            let ask = self.next_ask;
            self.next_ask += 1;
            if let Some(c) = self.calls.get_mut(&call) {
                c.waiting.push(ask);
            }
            let method = req
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let params = req.get("params").cloned().unwrap_or(Value::Null);
            self.put_ask(ask, Some(call), AskHow::Input(key), method, params);
        }
    }

    /// Ends a running call with `failure`, cancelling it on the wire.
    pub(super) fn end_call(&mut self, call: u64, failure: Failure, reason: &str, _now_ms: u64) {
        let Some(c) = self.calls.remove(&call) else {
            return;
        };
        self.queued.retain(|q| *q != call);
        self.asks.retain(|_, a| a.call != Some(call));
        if let Some(rpc) = c.rpc {
            if let Some(p) = self.pending.remove(&rpc) {
                if let Some(ex) = p.exchange {
                    self.exchanges.remove(&ex);
                    self.abort(ex);
                }
                let told = self.era == Era::Legacy || self.transport == Transport::Stdio;
                if told && self.phase == Phase::Connected {
                    let note = wire::notification(
                        "notifications/cancelled",
                        Some(json!({"requestId": rpc, "reason": reason})),
                    );
                    self.post_message(note, Some(call));
                }
            }
        }
        self.outputs.push_back(ClientOutput::Failed {
            call,
            error: failure,
        });
    }

    pub(super) fn reply_to_ask(
        &mut self,
        ask: u64,
        outcome: Result<Value, (i64, String)>,
        now_ms: u64,
    ) -> Result<(), Error> {
        let Some(a) = self.asks.remove(&ask) else {
            return Err(Error::misused(
                Misuse::NotOutstanding,
                "",
                format!("ask {ask} is not waiting for an answer"),
            ));
        };
        match a.how {
            AskHow::Rpc(id) => {
                let text = match &outcome {
                    Ok(v) => wire::response(&id, Ok(v)),
                    Err((code, message)) => wire::response(&id, Err((*code, message))),
                };
                self.post_message(text, a.call);
            }
            AskHow::Input(key) => {
                let Some(call) = a.call else {
                    return Ok(());
                };
                match outcome {
                    Ok(v) => {
                        let Some(c) = self.calls.get_mut(&call) else {
                            return Ok(());
                        };
                        c.waiting.retain(|w| *w != ask);
                        c.responses.insert(key, v);
                        if c.waiting.is_empty() {
                            self.send_call(call, now_ms);
                        }
                    }
                    Err((code, message)) => {
                        let error = Failure::Rpc {
                            code,
                            message,
                            data: None,
                        };
                        self.end_call(call, error, "input refused", now_ms);
                    }
                }
            }
        }
        Ok(())
    }
}
