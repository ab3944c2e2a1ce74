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

/// An error with its kind, the JSON Pointer of the offending place in the
/// input (empty for the whole input) and a message meant for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    pointer: String,
    message: String,
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
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Usage, "", message)
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
            Error::usage("no such dialect").to_string(),
            "no such dialect"
        );
        assert_eq!(e.kind().code(), "shape");
    }

    #[test]
    fn json_errors_keep_position() {
        let err = serde_json::from_str::<serde_json::Value>("{\"a\": }").unwrap_err();
        let e = Error::json(&err);
        assert_eq!(e.kind(), ErrorKind::Json);
        assert!(e.message().contains("line 1 column 7"), "{}", e.message());
    }
}
