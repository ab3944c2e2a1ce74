//! The engine's clock: per-invocation deadlines, told the time by the host.
//!
//! The engine reads no clock. Each invocation gets
//! [`EngineConfig::invocation_timeout_ms`](super::EngineConfig::invocation_timeout_ms)
//! from the first time the host tells the engine the time after it began
//! ([`Engine::handle_timeout`]); past it the engine answers the request
//! itself, with the same answer [`Engine::fail`] gives, and hands out
//! [`Output::TimedOut`] so the host stops the work.

use super::{Engine, Output};

/// [`EngineConfig::invocation_timeout_ms`](super::EngineConfig::invocation_timeout_ms)
/// by default: 30 seconds.
pub(crate) const DEFAULT_INVOCATION_TIMEOUT_MS: u64 = 30_000;

/// An invocation that ran past its deadline ([`Output::TimedOut`]): its
/// request is answered already.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimedOut {
    /// The invocation.
    pub id: u64,
    /// What it asked for, as the [`Invocation`](super::Invocation) named it.
    pub tool: String,
    /// What the client was told: `<tool> timed out after <seconds> s`, and
    /// ` waiting for <…>` when
    /// [`EngineConfig::waiting_for`](super::EngineConfig::waiting_for) is set.
    pub message: String,
}

impl super::EngineConfig {
    /// With this per-invocation timeout, in milliseconds (at least 1).
    pub fn with_invocation_timeout_ms(mut self, ms: u64) -> Self {
        self.invocation_timeout_ms = ms.max(1);
        self
    }

    /// With what a timed-out invocation waited for, named in its message.
    pub fn with_waiting_for(mut self, what: impl Into<String>) -> Self {
        self.waiting_for = Some(what.into());
        self
    }
}

/// Seconds as people read them: `30 s`, or to a tenth, halves up: `0.5 s`.
fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        let tenths = ms.saturating_add(50) / 100;
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

impl Engine {
    /// Tells the engine the time, in the host's milliseconds (any clock
    /// that does not go back; the same one every call): invocations begun
    /// since the last call get their deadline from `now_ms`, and those past
    /// their deadline are answered as failed (a tool result with
    /// `isError: true`, an internal error for the other kinds), each with
    /// an [`Output::TimedOut`] before its reply.
    ///
    /// The host arms one timer:
    ///
    /// 1. feed input ([`Engine::handle_on`], [`Engine::complete`], ...);
    /// 2. call `handle_timeout` with the time when the outputs included an
    ///    [`Output::Invoke`] (its clock starts then), and when the timer
    ///    fires;
    /// 3. drain [`Engine::poll_output`];
    /// 4. arm the timer at [`Engine::poll_timeout`], if any.
    ///
    /// ```
    /// use mcp_switchboard::Catalog;
    /// use mcp_switchboard::engine::{Engine, EngineConfig, Output};
    ///
    /// let catalog = Catalog::parse(br#"[{"name": "hang", "inputSchema": {"type": "object"}}]"#)?;
    /// let config = EngineConfig::default().with_invocation_timeout_ms(500);
    /// let mut engine = Engine::new(catalog, config);
    /// engine.handle(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hang"}}"#);
    /// let Some(Output::Invoke(call)) = engine.poll_output() else { panic!() };
    /// engine.handle_timeout(10_000); // the invocation's clock starts
    /// assert_eq!(engine.poll_timeout(), Some(10_500));
    /// engine.handle_timeout(10_500);
    /// let Some(Output::TimedOut(t)) = engine.poll_output() else { panic!() };
    /// assert_eq!((t.id, t.message.as_str()), (call.id, "hang timed out after 0.5 s"));
    /// let Some(Output::Reply(reply)) = engine.poll_output() else { panic!() };
    /// assert!(reply.message.contains(r#""isError":true"#));
    /// assert_eq!(engine.poll_timeout(), None);
    /// # Ok::<(), mcp_switchboard::Error>(())
    /// ```
    pub fn handle_timeout(&mut self, now_ms: u64) {
        let timeout = self.config.invocation_timeout_ms.max(1);
        let mut due = Vec::new();
        for (id, p) in self.pending.iter_mut() {
            let deadline = *p.deadline.get_or_insert(now_ms.saturating_add(timeout));
            if deadline <= now_ms {
                due.push(*id);
            }
        }
        // answered in the order they began
        due.sort_unstable();
        for id in due {
            let Some(p) = self.drop_invocation(id) else {
                continue;
            };
            let mut message = format!("{} timed out after {}", p.tool, seconds(timeout));
            if let Some(what) = &self.config.waiting_for {
                message.push_str(" waiting for ");
                message.push_str(what);
            }
            self.outputs.push_back(Output::TimedOut(TimedOut {
                id,
                tool: p.tool.clone(),
                message: message.clone(),
            }));
            self.push_failure(p, &message);
        }
    }

    /// When [`Engine::handle_timeout`] is next due: the earliest deadline
    /// of the invocations running, in the host's milliseconds; `None` when
    /// none has one (an invocation's clock starts at the first
    /// `handle_timeout` after it began).
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        self.pending.values().filter_map(|p| p.deadline).min()
    }

    /// Sets what a timed-out invocation waited for (`None`: nothing is
    /// named), as [`EngineConfig::with_waiting_for`](super::EngineConfig::with_waiting_for).
    pub fn set_waiting_for(&mut self, what: Option<String>) {
        self.config.waiting_for = what;
    }
}

#[cfg(test)]
mod tests {
    use super::seconds;

    #[test]
    fn seconds_as_people_read_them() {
        assert_eq!(seconds(30_000), "30 s");
        assert_eq!(seconds(300), "0.3 s");
        assert_eq!(seconds(1_250), "1.3 s");
        assert_eq!(seconds(999), "1.0 s");
        assert_eq!(seconds(1), "0.0 s");
    }
}
