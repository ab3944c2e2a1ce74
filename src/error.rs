//! The crate's Rust error type. Wire errors (JSON-RPC codes) live elsewhere;
//! this type is what a Rust or JS caller sees when an operation cannot go on.

use std::fmt;

/// The class of an [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not valid JSON, or not UTF-8.
    Json,
    /// The input is JSON, but not a tool catalog (or not the shape asked for).
    Shape,
    /// The input is a JSON-RPC error response from the server, not a result.
    Upstream,
    /// The input passes a size, depth or count limit.
    Limit,
    /// The caller asked for something that does not exist (a dialect, an option).
    Usage,
}

impl ErrorKind {
    /// A stable lower-case code for the kind, as used by the JS package
    /// (`error.code`) and the CLI.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::Json => "json",
            ErrorKind::Shape => "shape",
            ErrorKind::Upstream => "upstream",
            ErrorKind::Limit => "limit",
            ErrorKind::Usage => "usage",
        }
    }
}

/// What a caller did wrong, on an [`ErrorKind::Usage`] error
/// ([`Error::misuse`]): match on this, not on the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Misuse {
    /// A name the library does not know (a dialect, a provider, an option).
    Unknown,
    /// An invocation, call or question that is not outstanding: answered,
    /// cancelled, timed out, or never made.
    NotOutstanding,
    /// Already under way: a turn of a conversation, a connection.
    Busy,
    /// The client or session is closed.
    Closed,
    /// Not a thing this request's protocol era allows (asking the client
    /// on a 2026-07-28 request, `input_required` on an earlier one).
    WrongEra,
    /// Not a thing this kind of invocation allows (a completion answered
    /// with `input_required`).
    WrongKind,
    /// The client did not declare the capability the request needs.
    Undeclared,
    /// Not a request a server may make of a client.
    NotAClientRequest,
    /// A progress report that does not grow.
    ProgressBackwards,
    /// Parameters missing or of the wrong shape.
    BadParams,
    /// A source name that breaks the naming rule, or is taken.
    BadName,
    /// A gateway reachable from other machines without a bearer token.
    NeedsToken,
}

impl Misuse {
    /// Every misuse.
    pub const ALL: [Misuse; 12] = [
        Misuse::Unknown,
        Misuse::NotOutstanding,
        Misuse::Busy,
        Misuse::Closed,
        Misuse::WrongEra,
        Misuse::WrongKind,
        Misuse::Undeclared,
        Misuse::NotAClientRequest,
        Misuse::ProgressBackwards,
        Misuse::BadParams,
        Misuse::BadName,
        Misuse::NeedsToken,
    ];

    /// A stable snake-case code (`error.misuse` in the JS package).
    pub fn code(self) -> &'static str {
        match self {
            Misuse::Unknown => "unknown",
            Misuse::NotOutstanding => "not_outstanding",
            Misuse::Busy => "busy",
            Misuse::Closed => "closed",
            Misuse::WrongEra => "wrong_era",
            Misuse::WrongKind => "wrong_kind",
            Misuse::Undeclared => "undeclared",
            Misuse::NotAClientRequest => "not_a_client_request",
            Misuse::ProgressBackwards => "progress_backwards",
            Misuse::BadParams => "bad_params",
            Misuse::BadName => "bad_name",
            Misuse::NeedsToken => "needs_token",
        }
    }
}

/// An error with its kind, the JSON Pointer of the offending place in the
/// input (empty for the whole input) and a message meant for people; a
/// usage error also says what was misused ([`Error::misuse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    pointer: String,
    message: String,
    misuse: Option<Misuse>,
}

impl Error {
    pub(crate) fn new(
        kind: ErrorKind,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error {
            kind,
            pointer: pointer.into(),
            message: message.into(),
            misuse: None,
        }
    }

    /// A usage error: `misuse` at `pointer`, said by `message`.
    pub(crate) fn misused(
        misuse: Misuse,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error {
            misuse: Some(misuse),
            ..Error::new(ErrorKind::Usage, pointer, message)
        }
    }

    /// Wraps a `serde_json` parse error, keeping its line and column.
    pub(crate) fn json(err: &serde_json::Error) -> Self {
        let message = if err.is_eof() {
            format!("input ends too early: {err}")
        } else {
            format!("not valid JSON: {err}")
        };
        Error::new(ErrorKind::Json, "", message)
    }

    /// What kind of error this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The JSON Pointer of the offending value in the input; empty when the
    /// whole input is at fault.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// The message, without the pointer.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What was misused, on a usage error raised by a call made in the
    /// wrong state or with the wrong thing (`None` on other errors).
    pub fn misuse(&self) -> Option<Misuse> {
        self.misuse
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_includes_pointer_when_present() {
        let e = Error::new(ErrorKind::Shape, "/result/tools", "must be an array");
        assert_eq!(e.to_string(), "/result/tools: must be an array");
        assert_eq!(
            Error::misused(Misuse::Unknown, "", "no such dialect").to_string(),
            "no such dialect"
        );
        let m = Error::misused(Misuse::NotOutstanding, "", "call 3 is not running");
        assert_eq!(
            (m.kind(), m.misuse().map(Misuse::code)),
            (ErrorKind::Usage, Some("not_outstanding"))
        );
        assert_eq!(Error::new(ErrorKind::Json, "", "x").misuse(), None);
        assert_eq!(e.kind().code(), "shape");
    }

    #[test]
    fn the_js_declaration_lists_every_misuse() {
        let ts = include_str!("wasm/mod.rs");
        let line = ts
            .lines()
            .find(|l| l.trim_start().starts_with("misuse?:"))
            .unwrap_or_default();
        let declared: Vec<&str> = line
            .split('"')
            .enumerate()
            .filter(|(i, _)| i % 2 == 1)
            .map(|(_, c)| c)
            .collect();
        let ours: Vec<&str> = Misuse::ALL.iter().map(|m| m.code()).collect();
        assert_eq!(declared, ours);
    }

    #[test]
    fn json_errors_keep_position() {
        let err = serde_json::from_str::<serde_json::Value>("{\"a\": }").unwrap_err();
        let e = Error::json(&err);
        assert_eq!(e.kind(), ErrorKind::Json);
        assert!(e.message().contains("line 1 column 7"), "{}", e.message());
    }
}
